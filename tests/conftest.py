import os

os.environ.setdefault("MPLBACKEND", "Agg")

# the `browser` fixture (headless Chromium through Playwright) of the explorer's tests
pytest_plugins = ["tests.browser"]
