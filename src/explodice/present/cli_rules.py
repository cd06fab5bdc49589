"""The command line's questions on the seeds' other rules: initiative, hiding, lutte serrée and
what a reroll is worth. :func:`add_commands` adds them to the ``explodice`` parser.

    explodice initiative Aelis=3 Orc=1 Wolf=2 --side party=Aelis --side monsters=Orc,Wolf
    explodice hide -m 5 --passive 12 14 --active 2
    explodice contest --bids-a 3 --bids-b uniform:4
    explodice reroll --trigger failure -m 0 2 4 --dc 12 16 22

Each takes ``--format text|csv|json`` and ``--lang en|fr``: the text table in the game's words
(DD, avantage, relance, lutte serrée ...) with Babel's numbers (49,1 %); csv and json keep the
English keys and full precision for scripts.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

import pandas as pd

from explodice.analysis.close_contest import close_contest
from explodice.analysis.hiding import hide
from explodice.analysis.initiative import initiative
from explodice.analysis.reroll import reroll_worth
from explodice.core.errors import ExplodiceError, shown
from explodice.game.rules import ADVANTAGE_STATES, Roll
from explodice.game.tables import SYSTEMS
from explodice.present import i18n

__all__ = ["add_commands"]


def _noop(text: str) -> str:
    """Marks a label for the catalogue where it is only a key (translated where shown)."""
    return text


N_ = _noop
#: The text tables' columns, in the catalogue (the csv and json keep the English keys).
COLUMNS = (
    N_("creature"),
    N_("rank"),
    N_("order"),
    N_("side first"),
    N_("side second"),
    N_("observer"),
    N_("p_hidden_from"),
    N_("p_win_a"),
    N_("p_win_b"),
    N_("hp_a_mean"),
    N_("hp_b_mean"),
    N_("rounds_mean"),
    N_("trigger"),
    N_("p_reroll"),
    N_("gain"),
    N_("drain"),
    N_("drain_reroll"),
    N_("drain_added"),
)
#: Columns that hold probabilities: percentages in the text table (49,1 % in French).
PERCENT = {"p", "p_hidden_from", "p_win_a", "p_win_b", "p_reroll", "gain"}
#: Columns whose cells are labels, read in the catalogue.
LABELS = {"advantage", "method", "trigger"}
#: A reroll's trigger as the game names it.
TRIGGER = {"one": N_("Lucky"), "failure": N_("reroll on failure")}


def _show(frame: pd.DataFrame, args: argparse.Namespace, header: str) -> None:
    """csv or json records for scripts (English keys, full precision), else a header line
    and the aligned table in ``--lang``: probabilities in percent and numbers the language's
    way (Babel), column names and label cells from the catalogue."""
    if args.format == "csv":
        frame.to_csv(sys.stdout, index=False)
        return
    if args.format == "json":
        sys.stdout.write(frame.to_json(orient="records", double_precision=15) + "\n")
        return
    lang = args.lang
    _ = i18n.translator(lang)
    text = pd.DataFrame(index=frame.index)
    for col in frame.columns:
        values = frame[col]
        if col in PERCENT:
            shown = [i18n.percent(float(v), lang) for v in values]
        elif pd.api.types.is_float_dtype(values):
            shown = [i18n.number(float(v), lang, 2) for v in values]
        elif col == "trigger":
            shown = [_(TRIGGER[v]) for v in values]
        elif col in LABELS:
            shown = [_(v) for v in values]
        else:
            shown = list(values)
        text[_(col)] = shown
    sys.stdout.write(f"# {header}\n{text.to_string(index=False)}\n")


def _pairs(items: list[str], what: str) -> dict[str, str]:
    out = {}
    for item in items:
        name, eq, value = item.partition("=")
        if not eq or not name or not value:
            raise ExplodiceError(f"`{what}` must be NAME=VALUE, but {shown(item)} was passed.")
        out[name] = value
    return out


def cmd_initiative(args: argparse.Namespace) -> int:
    """Initiative: each creature's rank, the likeliest orders, side before side."""
    mods = {}
    for name, value in _pairs(args.creatures, "creature").items():
        try:
            mods[name] = int(value)
        except ValueError:
            raise ExplodiceError(
                f"`creature` {shown(name)} must have an integer DEX modifier,"
                f" but {shown(value)} was passed."
            ) from None
    sides = (
        {name: value.split(",") for name, value in _pairs(args.side, "--side").items()}
        if args.side
        else None
    )
    r = initiative(mods, sides=sides, system=args.system)
    what = {"ranks": r.ranks, "orders": r.orders, "sides": r.sides}[args.show]
    if what is None:
        raise ExplodiceError(
            f"`--show {args.show}` needs "
            + ("--side NAME=A,B" if args.show == "sides" else "at most 7 creatures")
        )
    if args.show == "orders":
        what = what.head(args.top)
    elif args.show == "sides":
        what = what.rename(columns={"first": "side first", "second": "side second"})
    _ = i18n.translator(args.lang)
    _show(
        what,
        args,
        _("initiative, {system}, exact (ties: the higher DEX modifier, then a coin)").format(
            system=args.system
        ),
    )
    return 0


def cmd_hide(args: argparse.Namespace) -> int:
    """Hiding: one Stealth total against every observer."""
    r = hide(
        Roll(args.modifier, advantage=args.advantage),
        active=[Roll(m) for m in args.active],
        passive=args.passive,
        system=args.system,
    )
    frame = r.to_frame()
    _ = i18n.translator(args.lang)
    if args.format == "text":  # the observers as the command was given them
        frame["observer"] = (
            [_("passive {value}").format(value=v) for v in args.passive]
            + [_("active, Perception {modifier}").format(modifier=f"{m:+d}") for m in args.active]
            + [_("all")]
        )
    _show(
        frame,
        args,
        _(
            "hiding, {system}, exact: P(hidden from all) {p} (each observer on their own, "
            "multiplied, would say {q})"
        ).format(
            system=args.system,
            p=i18n.percent(r.p_hidden, args.lang, 2),
            q=i18n.percent(r.p_if_independent, args.lang, 2),
        ),
    )
    return 0


def _bids(text: str) -> Any:
    text = text.strip()
    if "," in text:
        try:
            return [float(x) for x in text.split(",")]
        except ValueError:
            raise ExplodiceError(
                f"`bids` must be a bid, uniform:B or p0,p1,..., but {shown(text)} was passed."
            ) from None
    return int(text) if text.isdigit() else text


def cmd_contest(args: argparse.Namespace) -> int:
    """Lutte serrée: a tie settled by bids of HP."""
    c = close_contest(_bids(args.bids_a), _bids(args.bids_b))
    frame = pd.DataFrame([c.summary()])
    _ = i18n.translator(args.lang)

    def model(text: str) -> str:  # a bid model as a reader says it
        top = text.strip().removeprefix("uniform:")
        return _("uniform 0..{top}").format(top=top) if top != text.strip() else text.strip()

    _show(
        frame,
        args,
        _("lutte serrée: A bids {bids_a}, B bids {bids_b} (hit points)").format(
            bids_a=model(args.bids_a), bids_b=model(args.bids_b)
        ),
    )
    return 0


def cmd_reroll(args: argparse.Namespace) -> int:
    """What a reroll is worth: success and drain with and without it."""
    frame = reroll_worth(
        args.modifier, args.dc, system=args.system, trigger=args.trigger, advantages=args.advantage
    )
    _ = i18n.translator(args.lang)
    _show(
        frame,
        args,
        _("what a reroll is worth ({trigger}), {system}, exact").format(
            trigger=_(TRIGGER[args.trigger]), system=args.system
        ),
    )
    return 0


def add_commands(sub: Any, output: argparse.ArgumentParser) -> None:
    """Add ``initiative``, ``hide``, ``contest`` and ``reroll`` to the subcommands ``sub``."""
    p = sub.add_parser(
        "initiative",
        parents=[output],
        help="who acts first: ranks, orders",
        description="Each creature's DEX ability check; ties go to the higher "
        "DEX modifier, then to a coin.",
    )
    p.add_argument(
        "creatures", nargs="+", metavar="NAME=DEX", help="a creature and its DEX modifier"
    )
    p.add_argument("--side", action="append", metavar="SIDE=A,B", help="a side's members")
    p.add_argument("--show", choices=("ranks", "orders", "sides"), default="ranks")
    p.add_argument("--top", type=int, default=10, help="orders listed (with --show orders)")
    p.add_argument("--system", choices=SYSTEMS, default="3d6x")
    p.set_defaults(func=cmd_initiative)

    p = sub.add_parser(
        "hide",
        parents=[output],
        help="hiding from observers",
        description="One Stealth total against active observers (opposed, a "
        "tie keeps the hider hidden) and passive ones (the DC).",
    )
    p.add_argument("--modifier", "-m", type=int, default=0, help="the Stealth modifier")
    p.add_argument("--advantage", choices=ADVANTAGE_STATES, default="normal")
    p.add_argument(
        "--active",
        type=int,
        nargs="*",
        default=[],
        metavar="MOD",
        help="Perception modifiers of observers who search",
    )
    p.add_argument(
        "--passive",
        type=int,
        nargs="*",
        default=[],
        metavar="VALUE",
        help="passive Perception values of observers who do not",
    )
    p.add_argument("--system", choices=SYSTEMS, default="3d6x")
    p.set_defaults(func=cmd_hide)

    p = sub.add_parser(
        "contest",
        parents=[output],
        help="lutte serrée: a tie settled by bids",
        description="Bids of HP drawn each round: a fixed bid, uniform:B, or "
        "probabilities p0,p1,... of bids 0, 1, ...",
    )
    p.add_argument("--bids-a", default="uniform:5", help="A's bid model (default: uniform:5)")
    p.add_argument("--bids-b", default="uniform:5", help="B's bid model (default: uniform:5)")
    p.set_defaults(func=cmd_contest)

    p = sub.add_parser(
        "reroll",
        parents=[output],
        help="what a reroll is worth",
        description="P(success) and E[drain] with and without a reroll, per modifier and DC.",
    )
    p.add_argument("--trigger", choices=("one", "failure"), default="failure")
    p.add_argument("--modifier", "-m", type=int, nargs="+", default=[0, 2, 4, 6])
    p.add_argument("--dc", type=int, nargs="+", default=None)
    p.add_argument("--advantage", choices=ADVANTAGE_STATES, nargs="+", default=["normal"])
    p.add_argument("--system", choices=SYSTEMS, default="3d6x")
    p.set_defaults(func=cmd_reroll)
