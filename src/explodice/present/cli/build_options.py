"""What the commands across levels share (``levels``, ``size-gauges``, ``save-dc``): the
builds they read from a configuration, the levels asked, the rules (the configuration's, each
switch given on the command line replacing its value) and the grid's executor.

- :func:`build_options`: ``--builds``, ``--levels``; :func:`builds_from` reads them back with
  the configuration (its ``[[build]]`` tables, else the reference builds, and says which);
- :func:`grid_options`: ``--scheduler``, ``--workers``, ``--no-progress`` for the questions
  that run a grid of builds x levels (:func:`executor_from`);
- :func:`config_rules`: the configuration's rules with the switches given here;
- :data:`LEVEL`, :func:`probability`: numbers read strictly.

>>> parse_levels(["1-3", "10", "20"])
[1, 2, 3, 10, 20]
>>> parse_targets(["moderate=0.5:0.9", "Très-facile=0.95"])
{'moderate': (0.5, 0.9), 'very easy': (0.95, 0.95)}
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

from explodice.core.errors import ExplodiceError, listed, shown
from explodice.core.words import Phrase
from explodice.game.build import LEVELS, Build
from explodice.game.tables import DIFFICULTIES, DIFFICULTY_FR, fold_name
from explodice.present.builds import ShownBuilds, shown_builds
from explodice.present.cli import options
from explodice.present.cli.base import type_error
from explodice.present.cli.numbers import parse_integer, probability
from explodice.present.cli.options import WORKERS, config_rules, refuse

__all__ = [
    "GRID_FLAGS",
    "LEVEL",
    "build_options",
    "builds_from",
    "config_rules",
    "executor_from",
    "grid_options",
    "levels_from",
    "levels_type",
    "parse_band",
    "parse_levels",
    "parse_targets",
    "probability",
    "refuse_grid",
    "refuse_lucky",
    "refuse_ties",
    "switch_defaults",
]


def LEVEL(text: str) -> int:  # noqa: N802 - an argparse type, named as the others are
    """A level, 1..20."""
    return parse_integer(text, lo=LEVELS[0], hi=LEVELS[-1])


def _levels_item(text: str) -> list[int]:
    """``"7"`` or a range ``"1-20"`` (both ends included)."""
    lo, sep, hi = text.strip().partition("-")
    if not sep:
        return [LEVEL(text)]
    first, last = LEVEL(lo), LEVEL(hi)
    if first > last:
        raise type_error(
            Phrase(
                "expected a range of levels LOW-HIGH with LOW <= HIGH, but {text!r} was passed",
                text=text,
            )
        )
    return list(range(first, last + 1))


def levels_type(text: str) -> list[int]:
    """One ``--levels`` item as the levels it names (argparse's type: a bad one is refused)."""
    return _levels_item(text)


def parse_levels(items: Sequence[str] | None) -> list[int] | None:
    """``--levels`` items (``"5"``, ``"1-10"``) as a list of levels, in order, each once."""
    if items is None:
        return None
    out: list[int] = []
    for item in items:
        for level in _levels_item(item) if isinstance(item, str) else item:
            if level in out:
                raise ExplodiceError(
                    Phrase(
                        "`--levels` must name each level once, but level {level} is given twice.",
                        level=level,
                    )
                )
            out.append(level)
    return out


_BANDS = {fold_name(b): b for b in DIFFICULTIES} | {
    fold_name(fr): b for b, fr in DIFFICULTY_FR.items()
}


def parse_band(text: str, flag: str) -> str:
    """A difficulty band by its English or French name, hyphens or underscores for spaces
    (``very-easy``, ``Très_facile``)."""
    band = _BANDS.get(fold_name(text))
    if band is None:
        names = ", ".join(b.replace(" ", "-") for b in DIFFICULTIES)
        raise ExplodiceError(
            Phrase(
                "`{flag}` must name a band ({names}), but {text} was passed.",
                flag=flag,
                names=names,
                text=shown(text),
            )
        )
    return band


def parse_targets(items: Sequence[str] | None) -> dict[str, tuple[float, float]] | None:
    """``--targets`` items ``BAND=P`` or ``BAND=LOW:HIGH`` as ``{band: (low, high)}``."""
    if items is None:
        return None
    out: dict[str, tuple[float, float]] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep:
            raise ExplodiceError(
                Phrase(
                    "`--targets` items are BAND=P or BAND=LOW:HIGH (moderate=0.5:0.9), "
                    "but {item} was passed.",
                    item=shown(item),
                )
            )
        band = parse_band(name, "--targets")
        if band in out:
            raise ExplodiceError(
                Phrase("`--targets` must give each band once, but {band!r} repeats.", band=band)
            )
        low, colon, high = value.partition(":")
        try:
            pair = (probability(low), probability(high if colon else low))
        except argparse.ArgumentTypeError as err:
            raise ExplodiceError(Phrase("`--targets` {band}: {err}.", band=band, err=err)) from None
        if pair[0] > pair[1]:
            raise ExplodiceError(
                Phrase(
                    "`--targets` {band}: LOW must not exceed HIGH, but {value} was passed.",
                    band=band,
                    value=shown(value),
                )
            )
        out[band] = pair
    return out


# -- the builds -----------------------------------------------------------------------------
def build_options() -> argparse.ArgumentParser:
    """``--builds`` and ``--levels``."""
    p = argparse.ArgumentParser(add_help=False, allow_abbrev=False)
    g = p.add_argument_group("builds and levels")
    g.add_argument(
        "--builds",
        nargs="+",
        metavar="NAME",
        default=None,
        help="the builds to show, by name (default: every [[build]] of the configuration; "
        "without one, the reference builds)",
    )
    g.add_argument(
        "--levels",
        nargs="+",
        type=levels_type,
        metavar="L",
        default=None,
        help="levels, or ranges of them (1-20 10 15; default: 1-20)",
    )
    return p


def builds_from(args: argparse.Namespace, config: Any) -> ShownBuilds:
    """The configuration's builds (else the reference builds), narrowed to ``--builds``."""
    found = shown_builds(config)
    if args.builds is None:
        return found
    by_name = {b.name: b for b in found.builds}
    if getattr(config, "lang", "en") != "en":  # explodice's own names also in English
        from explodice.present.config import in_language

        english = shown_builds(in_language(config, "en")).builds
        aliases = {e.name: b for e, b in zip(english, found.builds) if e.name != b.name}
    else:
        aliases = {}
    chosen: list[Build] = []
    for name in args.builds:
        if name not in by_name and name in aliases:
            name = aliases[name].name
        if name not in by_name:
            said = {"by_name": listed(by_name), "name": shown(name)}
            raise ExplodiceError(
                Phrase(
                    "`--builds` must name the configuration's builds {by_name}, but {name} was "
                    "passed.",
                    **said,
                )
                if found.source == "config"
                else Phrase(
                    "`--builds` must name the reference builds {by_name}, but {name} was passed.",
                    **said,
                )
            )
        if by_name[name] in chosen:
            raise ExplodiceError(
                Phrase("`--builds` must name each build once, but {name!r} repeats.", name=name)
            )
        chosen.append(by_name[name])
    return ShownBuilds(tuple(chosen), found.source)


def levels_from(args: argparse.Namespace) -> list[int]:
    """``--levels``, flattened (default 1..20)."""
    return list(LEVELS) if args.levels is None else parse_levels(args.levels) or list(LEVELS)


# -- the rules --------------------------------------------------------------------------------
def switch_defaults(p: argparse.ArgumentParser) -> None:
    """Leave every rules switch, and ``--lucky``, unset by default (``None``): see
    :func:`explodice.present.cli.options.switch_defaults`."""
    options.switch_defaults(p)
    p.set_defaults(lucky=None)


def refuse_ties(args: argparse.Namespace, command: str) -> None:
    """``--close-contest`` splits a total equal to the DC off as a tie settled by bids; the
    questions across levels count it as a success (``odds``/``table`` show p_tie)."""
    refuse(
        args,
        ("--close-contest",),
        Phrase(
            "splits a total equal to the DC off as a tie settled by bids, which "
            "`{command}` counts as a success (`odds --close-contest` and `table` "
            "show p_tie).",
            command=command,
        ),
    )


def refuse_lucky(args: argparse.Namespace, command: str) -> None:
    """``--lucky`` gives a bare roll the Lucky trait; a build's reroll is its own."""
    if args.lucky:
        raise ExplodiceError(
            Phrase(
                "`--lucky` does not apply to `{command}`: each build's reroll is its "
                'own (reroll = "one" in its [[build]] table).',
                command=command,
            )
        )


# -- the grid ---------------------------------------------------------------------------------
def grid_options() -> argparse.ArgumentParser:
    """Where the grid of builds x levels runs: here, a local pool, or a Dask cluster."""
    p = argparse.ArgumentParser(add_help=False, allow_abbrev=False)
    g = p.add_argument_group("where the grid of builds x levels runs")
    g.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        default=None,
        help="a Dask scheduler, e.g. tcp://host:8786 (needs explodice[dask])",
    )
    g.add_argument(
        "--workers",
        type=WORKERS,
        default=None,
        help="local processes (default: this process for a small grid, else every core)",
    )
    g.add_argument("--no-progress", action="store_true", help="never show a progress bar")
    return p


GRID_FLAGS = {"scheduler": "--scheduler", "workers": "--workers", "no_progress": "--no-progress"}


def executor_from(args: argparse.Namespace) -> dict[str, Any]:
    """The keyword arguments ``executor``, ``workers`` and ``progress`` of the grid."""
    executor = args.scheduler or ("local" if args.workers is not None else None)
    return {
        "executor": executor,
        "workers": args.workers,
        "progress": False if args.no_progress else None,
    }


def refuse_grid(args: argparse.Namespace, why: str | Phrase) -> None:
    """Refuse the grid's options where the call runs no grid (``why`` says so)."""
    for name, flag in GRID_FLAGS.items():
        if getattr(args, name) not in (None, False):
            raise ExplodiceError(
                Phrase("`{flag}` applies to a grid of builds x levels; {why}.", flag=flag, why=why)
            )
