import os

os.environ.setdefault("MPLBACKEND", "Agg")
# tests compute every answer: none is read from (or left in) the user's cache of answers;
# tests/test_cache.py opens caches of its own in temporary folders
os.environ["EXPLODICE_ANSWER_CACHE"] = "off"

# the `browser` fixture (headless Chromium through Playwright) of the explorer's tests
pytest_plugins = ["tests.browser"]
