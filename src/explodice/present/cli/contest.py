"""``explodice contest``: lutte serrée, a tie settled by bids of HP.

$ explodice contest --bids-a 3 --bids-b uniform:4
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from explodice.analysis.close_contest import MAX_BID
from explodice.core.errors import ExplodiceError, shown
from explodice.core.numbers import read_decimal
from explodice.core.words import Phrase
from explodice.present import i18n
from explodice.present.cli.base import Command
from explodice.present.cli.numbers import parse_integer
from explodice.present.cli.options import output_options
from explodice.present.cli.output import emit
from explodice.present.formats import Formatter
from explodice.present.labels import bid_words
from explodice.questions.close_contest import CloseContestInputs
from explodice.questions.registry import ask

__all__ = ["COMMAND", "run"]


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--bids-a", default="uniform:5", help="A's bid model (default: uniform:5)")
    p.add_argument("--bids-b", default="uniform:5", help="B's bid model (default: uniform:5)")


def bids(text: str, flag: str = "--bids-a") -> Any:
    """A bid model as written after ``flag``: a bid, ``uniform:B``, or probabilities
    ``p0,p1,...``; a refusal names the option and echoes the text typed, cut short
    (``1e400``, never its 401 digits).

    >>> bids("uniform:3"), bids("2")
    ('uniform:3', 2)
    """
    text = text.strip()
    wrong = ExplodiceError(
        Phrase(
            "`{flag}` must be a bid (an integer 0..{MAX_BID}), uniform:B or "
            "p0,p1,..., but {text} was passed.",
            flag=flag,
            MAX_BID=MAX_BID,
            text=shown(text),
        )
    )
    if "," in text:
        try:
            return [float(read_decimal(x)) for x in text.split(",")]
        except ValueError:
            raise wrong from None
    if text.lower().startswith("uniform:"):
        return text
    try:
        return parse_integer(text, lo=0, hi=MAX_BID)  # a fixed bid, read strictly
    except argparse.ArgumentTypeError:
        raise wrong from None


def run(args: argparse.Namespace) -> int:
    """Lutte serrée: a tie settled by bids of HP."""
    models = [bids(args.bids_a, "--bids-a"), bids(args.bids_b, "--bids-b")]
    answer = ask("close_contest", CloseContestInputs(((models[0], models[1]),)))
    if args.format != "text":
        emit(answer.csv_table("bids"), args.format)
        return 0
    _ = i18n.translator(args.lang)
    header = _("lutte serrée: A bids {bids_a}, B bids {bids_b} (hit points)").format(
        bids_a=bid_words(models[0], args.lang), bids_b=bid_words(models[1], args.lang)
    )
    columns = ["p_win_a", "p_win_b", "hp_a_mean", "hp_b_mean", "rounds_mean"]
    text = Formatter(args.lang, "cli").table(answer, "bids", columns)
    sys.stdout.write(f"# {header}\n{text.to_string(index=False)}\n")
    return 0


COMMAND = Command(
    name="contest",
    help="lutte serrée: a tie settled by bids",
    description="Bids of HP drawn each round: a fixed bid, uniform:B, or "
    "probabilities p0,p1,... of bids 0, 1, ...",
    run=run,
    shared=(output_options,),
    add_arguments=add_arguments,
)
