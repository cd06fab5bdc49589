"""Write the tables of rules switches in docs/rules.md and README.md from their declarations.

Each switch of ``Rules`` is declared once, on its field in ``src/explodice/game/rules.py``
(``switch(default, help=..., label=..., question=..., answers=..., scope=..., read_by=...,
why=...)``). The two tables of switches that the documentation shows are derived from those
declarations, between the markers ``<!-- switches: ... -->`` of each file:

- docs/rules.md, "Switches at a glance": each switch's option, values, default, scope, the
  modules that read it and why the default is the default;
- README.md, "The rules and their switches": each switch's default and other values with
  their answers, and its option.

Run it from the repository root after adding or changing a switch::

    python scripts/switches_table.py            # rewrites the two tables
    python scripts/switches_table.py --check    # exits 1 if a table differs from the declarations

``tests/test_switches_declared.py`` runs the check, so a switch without its lines fails.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from explodice.core.files import atomic_write_text
from explodice.game.rules import switches
from explodice.game.switch import Switch

ROOT = Path(__file__).resolve().parents[1]
#: The markers around a table in each file.
BEGIN = "<!-- switches: begin (written by scripts/switches_table.py from game/rules.py) -->"
END = "<!-- switches: end -->"


def _value(v: Any) -> str:
    """A value as Python writes it: ``"plain"``, ``True``, ``11``."""
    return f"`{v!r}`".replace("'", '"')


def _values(sw: Switch) -> str:
    if sw.kind == "set":
        return "any set of " + ", ".join(_value(v) for v in sw.values)
    if sw.kind == "flag":
        return "`True`, `False`"
    integers = f"an integer {sw.lo}..{sw.hi}"
    if sw.kind == "integer":
        return integers
    words = ", ".join(_value(v) for v in sw.choices)
    return f"{words}, {integers}" if sw.kind == "choice_or_integer" else words


def _default(sw: Switch) -> str:
    if sw.kind == "set":
        return "`{" + ", ".join(f'"{v}"' for v in sw.values if v in sw.default) + "}`"
    return _value(sw.default)


def _said(sw: Switch, v: Any) -> str:
    """A value with its declared answer: ``"drop"``: 2 dice."""
    answer = sw.answers.get(v)
    return f"{_value(v)}: {answer}" if answer else _value(v)


def rules_table() -> str:
    """docs/rules.md's table: one row per switch, in field order."""
    rows = [
        "| switch (`[rules]` key) | option | values | default | scope | read by | "
        "why the default |",
        "|---|---|---|---|---|---|---|",
    ]
    for sw in switches():
        read_by = ", ".join(f"`{m}`" for m in sw.read_by)
        rows.append(
            f"| `Rules.{sw.name}` | `{sw.flag}` | {_values(sw)} | {_default(sw)} | "
            f"`{sw.scope}` | {read_by} | {sw.why} |"
        )
    return "\n".join(rows)


def readme_table() -> str:
    """README.md's table: each switch's default and other values, with their answers."""
    rows = [
        "| switch | what it says | default | other values | option (scope) |",
        "|---|---|---|---|---|",
    ]
    for sw in switches():
        if sw.kind == "set":
            others = _values(sw)
        else:
            shown = sw.values if sw.kind in ("choice", "flag") else sw.choices
            others = "; ".join(_said(sw, v) for v in shown if v != sw.default)
            if sw.kind in ("integer", "choice_or_integer"):
                others = "; ".join(x for x in (others, f"an integer {sw.lo}..{sw.hi}") if x)
        default = _said(sw, sw.default) if sw.kind != "set" else _default(sw)
        rows.append(
            f"| `{sw.name}` | {sw.question} | {default} | {others} | `{sw.flag}` (`{sw.scope}`) |"
        )
    return "\n".join(rows)


#: Each file and its table.
TABLES = {"docs/rules.md": rules_table, "README.md": readme_table}


def rewritten(text: str, table: str, name: str = "the file") -> str:
    """``text`` with ``table`` between its markers (both must be there, once)."""
    if text.count(BEGIN) != 1 or text.count(END) != 1:
        raise ValueError(f"{name}: the markers {BEGIN!r} and {END!r} must be there once each")
    head, rest = text.split(BEGIN)
    _, tail = rest.split(END)
    return f"{head}{BEGIN}\n{table}\n{END}{tail}"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--check", action="store_true", help="exit 1 if a table is not up to date")
    args = p.parse_args(argv)
    stale = []
    for name, table in TABLES.items():
        path = ROOT / name
        text = path.read_text(encoding="utf-8")
        new = rewritten(text, table(), name)
        if new != text:
            stale.append(name)
            if not args.check:
                atomic_write_text(path, new)
    if args.check and stale:
        print(f"out of date: {', '.join(stale)} (run python scripts/switches_table.py)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
