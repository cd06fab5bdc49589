"""The floor under every layer: errors and checks, file reading and atomic writing, version,
and the marker of words for the catalogue (:func:`~explodice.core.words.N_`)."""
