"""The floor under every layer: errors and checks, file reading and atomic writing, version."""
