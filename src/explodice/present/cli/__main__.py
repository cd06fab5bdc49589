"""``python -m explodice.present.cli``: the command line, as the ``explodice`` script runs it."""

import sys

from explodice.present.cli.app import main

sys.exit(main())
