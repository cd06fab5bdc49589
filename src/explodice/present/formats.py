"""One formatter per kind of number and language: how every surface writes an answer's cells.

The report's tables and figures, the explorer and the command line's text tables write a
number of an :class:`~explodice.questions.answer.Answer` with :meth:`Formatter.cell`, chosen by
the column's declared kind; the CSV and JSON keep the full precision (:meth:`Answer.csv_table`)
under the column's own name; a figure's ticks are written by :func:`~explodice.present.i18n.
percent_formatter` and :func:`~explodice.present.i18n.number_formatter`, on the same
:func:`~explodice.present.i18n.percent` and :func:`~explodice.present.i18n.number`. The rules,
in both languages:

- a probability: one percent format per language (``83.8%``, ``83,8 %``); an exact one within
  the engine's cut of 1 or 0 is ``100%`` / ``0%``; one that is not, but rounds there, is
  ``> 99.9%`` / ``< 0.1%``; a simulated 1 or 0 is ``> 99.9%`` / ``< 0.1%`` (a sample proves
  no certainty);
- a change of a probability, in percentage points, always signed (``+5.5 pp``, ``−5,5 pts``,
  ``±0.0 pp`` for none); a signed number the same way (``+0.015``, ``±0.000``); the minus is U+2212 in the report and the explorer, ``-`` on
  the command line (what a script or a terminal reads);
- a missing value and an infinity in words (``none``, ``never``, ``unbounded``);
- a flag as ``yes``/``no`` in the language; a label translated; a name as it is written.

>>> en, fr, cli = Formatter("en"), Formatter("fr"), Formatter("en", "cli")
>>> en.cell(0.999999999999939, "probability"), en.cell(0.99996, "probability")
('100%', '> 99.9%')
>>> en.cell(1.0, "probability", exact=False), fr.cell(0.838, "probability")
('> 99.9%', '83,8\\xa0%')
>>> en.cell(-0.0548, "change"), cli.cell(-0.0548, "change"), fr.cell(0.0548, "change")
('−5.5 pp', '-5.5 pp', '+5,5\\xa0pts')
>>> en.cell(float("nan"), "number"), fr.cell(float("inf"), "points"), fr.cell(True, "flag")
('none', 'illimité', 'oui')
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Literal, get_args

import pandas as pd

from explodice.present import i18n
from explodice.present.i18n import Lang
from explodice.present.labels import N_
from explodice.questions.answer import CERTAIN_WITHIN, Answer, Kind
from explodice.questions.compare import CERTAIN

__all__ = ["SURFACES", "Formatter", "Surface", "MISSING", "UNBOUNDED"]

#: Where a number is written: the report and the explorer (typographic minus) or the command
#: line (``-``).
Surface = Literal["report", "cli"]
SURFACES: tuple[Surface, ...] = get_args(Surface)
#: A missing value, in words.
MISSING = N_("none")
#: An infinity (a bound never reached, a need no maximum meets), in words.
UNBOUNDED = N_("unbounded")
#: How the 3d6x DC equivalent to a d20 DC the roll always reaches is said.
ANY_DC_UP_TO = N_("any DC ≤ {dc}")
#: Decimals of each kind of number in a table.
DIGITS: dict[str, int] = {
    "number": 3,
    "points": 1,
    "signed": 3,
    "change": 1,
    "gap": 1,
    "probability": 1,
}


@dataclass(frozen=True)
class Formatter:
    """The formatter of a ``lang`` on a ``surface``: :meth:`cell` writes one value of a
    declared kind, :meth:`table` a whole table of an answer."""

    lang: Lang = "en"
    surface: Surface = "report"

    @property
    def minus(self) -> str:
        """The sign of a fall: U+2212 in the report, ``-`` on the command line."""
        return "−" if self.surface == "report" else "-"

    def _(self, text: str) -> str:
        return i18n.translator(self.lang)(text)

    def cell(
        self,
        value: Any,
        kind: Kind | None,
        *,
        exact: bool = True,
        cut: float = CERTAIN_WITHIN,
        digits: int | None = None,
    ) -> str:
        """``value`` of ``kind`` as this language writes it on this surface (``exact`` and
        ``cut``: how the value was obtained, for a probability's 0 and 1)."""
        if value is None or (not isinstance(value, str) and pd.isna(value)):
            return self._(MISSING)
        if kind in (None, "name"):
            return str(value)
        if kind == "label":  # an empty label (no note) stays empty
            return self._(str(value)) if str(value) else ""
        if kind == "flag":
            return self._("yes") if bool(value) else self._("no")
        x = float(value)
        if math.isinf(x):
            return ("" if x > 0 else self.minus) + self._(UNBOUNDED)
        d = DIGITS.get(kind, 0) if digits is None else digits
        if kind == "probability":
            return self.probability(x, exact=exact, cut=cut, digits=d)
        if kind == "change":
            return self.points(x, digits=d, cut=cut)
        if kind == "gap":  # the size of a change: an error, a threshold (5.1 pp)
            return self.points(x, digits=d, signed=False, cut=cut)
        if kind == "signed":
            return self.signed(x, d, cut=cut)
        if kind == "modifier":  # a bonus, as a sheet writes it: +0, +4, −1
            return ("+" if x >= 0 else self.minus) + i18n.number(abs(x), self.lang, d)
        if kind in ("count", "dc", "level"):
            return i18n.number(x, self.lang, 0)
        return self._minus(i18n.number(x, self.lang, d))

    def probability(
        self, p: float, *, exact: bool = True, cut: float = CERTAIN_WITHIN, digits: int = 1
    ) -> str:
        """A probability in percent: ``100%`` and ``0%`` only for a certainty (exact, within
        ``cut``); ``> 99.9%`` and ``< 0.1%`` for what rounds there but is not certain."""
        if exact and p >= 1 - cut:
            return i18n.percent(1.0, self.lang, 0)
        if exact and p <= cut:
            return i18n.percent(0.0, self.lang, 0)
        step = 10.0**-digits / 100
        if p >= 1 - step / 2:
            return "> " + i18n.percent(1 - step, self.lang, digits)
        if p < step / 2:
            return "< " + i18n.percent(step, self.lang, digits)
        return self._minus(i18n.percent(p, self.lang, digits))

    def points(
        self,
        delta: float,
        *,
        digits: int = 1,
        signed: bool = True,
        cut: float = CERTAIN_WITHIN,
    ) -> str:
        """A change of a probability in percentage points, signed as :meth:`signed` signs a
        number (``±0.0 pp`` for no change, ``+< 0.1 pp`` for a change that rounds to 0);
        ``signed=False``: the size of a change without its sign (an error, a threshold:
        ``5.1 pp``). A change of a probability is never written in percent: ``+99.7 pp``.

        >>> Formatter("fr").points(0.051, signed=False), Formatter().points(0.997)
        ('5,1\xa0pts', '+99.7 pp')
        """
        unit = " pp" if self.lang == "en" else "\xa0pts"
        text = self.signed(100 * delta, digits, cut=100 * cut)
        return (text.lstrip("+±" + self.minus) if not signed else text) + unit

    def signed(self, x: float, digits: int = 3, *, cut: float = CERTAIN_WITHIN) -> str:
        """A signed number, the one way every signed change is written: ``+0.015``,
        ``−1.585``; no change (an exact 0, or within ``cut`` of it: rounding noise such as
        -3.6e-15) is ``±0.000``, as many decimals as the others; a change that is not 0 but
        rounds to it keeps its sign: ``+< 0.001``.

        >>> f = Formatter(); f.signed(0.0), f.signed(-3.6e-15), f.signed(1.3e-05)
        ('±0.000', '±0.000', '+< 0.001')
        """
        if abs(x) <= cut:
            return "±" + i18n.number(0.0, self.lang, digits)
        sign = "+" if x > 0 else self.minus
        step = 10.0**-digits
        if abs(x) < step / 2:
            return f"{sign}< {i18n.number(step, self.lang, digits)}"
        return sign + i18n.number(abs(x), self.lang, digits)

    def equivalent_dc(self, dc: Any, note: str = "") -> str:
        """The 3d6x DC equivalent to a d20 DC (the ``compare`` question's ``dc_3d6x`` and
        ``note``), in words where no one DC is the answer: a d20 DC the roll always reaches
        is matched by every 3d6x DC up to ``dc`` (``any DC ≤ 12``), one it never reaches by
        none (``none``); else the DC itself.

        >>> f = Formatter(); f.equivalent_dc(12, "certain in d20"), f.equivalent_dc(None)
        ('any DC ≤ 12', 'none')
        >>> Formatter("fr").equivalent_dc(12, "certain in d20"), f.equivalent_dc(16)
        ('tout DD ≤ 12', '16')
        """
        if dc is None or pd.isna(dc):
            return self._(MISSING)
        if note == CERTAIN:
            return self._(ANY_DC_UP_TO).format(dc=self.cell(dc, "dc"))
        return self.cell(dc, "dc")

    def _minus(self, text: str) -> str:
        return self.minus + text[1:] if text.startswith("-") else text

    def header(self, column: str) -> str:
        """A column's header in the language (the CSV keeps the column's name)."""
        return self._(column)

    def table(
        self,
        answer: Answer,
        name: str,
        columns: list[str] | None = None,
        headers: dict[str, str] | None = None,
        percent_digits: int | None = None,
    ) -> pd.DataFrame:
        """Table ``name`` of ``answer`` as text: each cell by its column's kind, headers
        translated (``headers``: the English header of a column, when not its name;
        ``percent_digits``: the decimals of its probabilities, when not one: as many as a
        simulated interval needs)."""
        frame = answer.tables[name]
        prov = answer.provenance
        out = {}
        for col in columns or list(frame.columns):
            kind = answer.kind(col)
            head = (headers or {}).get(col, col)
            digits = percent_digits if kind == "probability" else None
            out[self._(head)] = [
                self.cell(v, kind, exact=prov.exact, cut=prov.cut, digits=digits)
                for v in frame[col]
            ]
        return pd.DataFrame(out)

    def frame(
        self, frame: pd.DataFrame, kinds: dict[str, Kind], *, exact: bool = True
    ) -> pd.DataFrame:
        """A plain tidy ``frame`` as text, each column by its kind in ``kinds`` (a column not
        named: as it is), headers translated: for a command whose table is not yet a
        question's answer."""
        out = {}
        for col in frame.columns:
            kind = kinds.get(str(col))
            out[self._(str(col))] = [self.cell(v, kind, exact=exact) for v in frame[col]]
        return pd.DataFrame(out)
