"""The ``explodice`` console script: the command line, with Ctrl-C honoured from the first
moment.

``import explodice`` loads numpy, pandas and numba, which takes a second or two; a Ctrl-C in
that time would print a traceback from inside the import. This module (outside the package,
so importing it loads nothing) imports the command line inside a ``try``: an interrupt at any
moment prints one line and exits with status 130.
"""

from __future__ import annotations

import sys

EXIT_INTERRUPTED = 130


def main() -> int:
    """Import and run :func:`explodice.present.cli.main`; 130 on Ctrl-C, even during imports."""
    try:
        from explodice.present.cli import main as cli_main

        return cli_main()
    except KeyboardInterrupt:
        sys.stderr.write("explodice: interrupted\n")
        return EXIT_INTERRUPTED


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
