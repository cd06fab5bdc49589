"""The ``explodice`` command line: quick answers from a terminal, and the designer's report.

One module per command (``odds``, ``table``, ``frontier``, ``opposed``, ``compare``, ``dc``, ``day``,
``report``, ``explore``, ``sweep``, ``initiative``, ``hide``, ``contest``, ``reroll``), each
with its options and the function that runs it (a :class:`~explodice.present.cli.base.Command`),
registered in :data:`~explodice.present.cli.commands.COMMANDS`; the options several commands
share (the rules switches, the roll, exact or simulated, the output format and language) are
defined once in :mod:`~explodice.present.cli.options`, printing in
:mod:`~explodice.present.cli.output`. Options follow the rules' words; output is an aligned text
table, or ``--format csv|json`` for scripts. Bad input prints one line and exits with status 2;
Ctrl-C stops with status 130. An option a call cannot apply is refused (``options.refuse``),
and every file a command writes is checked before it runs (``Command.writes``).

To add a command: write ``present/cli/<name>.py`` with ``add_arguments(parser)``,
``run(args) -> int`` and ``COMMAND = Command(name, help, description, run, shared=(...),
add_arguments=...)``, then add ``<name>.COMMAND`` to ``COMMANDS`` (``commands.py``).

    $ explodice odds --modifier 4 --dc 16 --advantage advantage
    $ explodice table --modifiers 0 2 4 --format csv
    $ explodice report --out reports
"""

from explodice.present.cli.app import build_parser, main

__all__ = ["build_parser", "main"]
