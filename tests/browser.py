"""A real browser for the explorer's tests: headless Chromium from Debian's ``chromium``
package, driven by Playwright pointed at that executable (no browser download).

The fixture skips, saying why, when Chromium or Playwright is missing; CI installs Chromium
with apt-get (.ci/run). ``EXPLODICE_CHROMIUM`` names another executable.
"""

from __future__ import annotations

import os
import shutil

import pytest

CHROMIUM = os.environ.get("EXPLODICE_CHROMIUM", "/usr/bin/chromium")
BROWSER_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="module")
def browser():
    if not (os.path.exists(CHROMIUM) or shutil.which(CHROMIUM)):
        pytest.skip(
            f"no Chromium at {CHROMIUM}: install Debian's package "
            "(apt-get install chromium) or set EXPLODICE_CHROMIUM"
        )
    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="playwright is not installed (pip install playwright)"
    )
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=BROWSER_ARGS)
        yield b
        b.close()
