"""The game's own language: message catalogues and number formats for English and French.

Labels are written in English in the code (the game's words in
:mod:`explodice.present.labels`), wrapped in ``_()``, and looked up in a gettext catalogue
(``explodice/present/locale/<lang>/LC_MESSAGES/explodice.po``, read with Babel, so no
compilation step is needed); numbers, percentages and dates are formatted by Babel's CLDR data
(French: ``49,1 %``, ``12,6``, ``1 décembre 2026``). The words are the seed's: DD, jauge, règle
du 1. The seed's names of the difficulty bands (Très facile ... Presque impossible) are
written once, in :data:`~explodice.game.tables.DIFFICULTY_FR` (the game layer reads them too):
the catalogue takes them from there (:data:`SEED_WORDS`), the .po file does not repeat them.

>>> _ = translator("fr")
>>> _("moderate"), percent(0.4912, "fr"), number(12.6, "fr", 1), percent(0.4912, "en")
('Modérée', '49,1\xa0%', '12,6', '49.1%')
"""

from __future__ import annotations

import datetime as _dt
import functools
import gettext
import io
import re
from collections.abc import Callable, Iterable
from decimal import ROUND_HALF_UP, Decimal
from importlib import resources
from typing import Any, Literal, get_args

from explodice.core.errors import ExplodiceError, check_choice
from explodice.core.words import Phrase, english_value
from explodice.engine.exact import OMITTED_LIMIT as CERTAIN
from explodice.game.tables import DIFFICULTY_FR

__all__ = [
    "CERTAIN",
    "LANGS",
    "SEED_WORDS",
    "Lang",
    "check_lang",
    "date",
    "d3_locale",
    "keep_together",
    "localise_table",
    "number",
    "percent",
    "say",
    "percent_of",
    "semicolons",
    "ChangeUnit",
    "change_formatter",
    "percent_formatter",
    "number_formatter",
    "translator",
    "typographic",
]

#: The languages of the report, the explorer and the command line.
Lang = Literal["en", "fr"]
#: What a change on an axis is: of a probability, in percentage points; relative, in percent.
ChangeUnit = Literal["points", "percent"]
LANGS: tuple[Lang, ...] = get_args(Lang)
DOMAIN = "explodice"
_LOCALES = {"en": "en_GB", "fr": "fr_FR"}
#: The words of a language written in the game layer, not in its .po file: the seed's names
#: of the difficulty bands. The catalogue of that language adds them.
SEED_WORDS: dict[str, Any] = {"fr": DIFFICULTY_FR}


def check_lang(lang: Any) -> Lang:
    """``lang`` validated: ``"en"`` or ``"fr"`` (a non-string is a wrong type).

    >>> check_lang("fr")
    'fr'
    """
    return check_choice("lang", lang, LANGS, ExplodiceError)


@functools.cache
def _catalogue(lang: Lang) -> gettext.NullTranslations:
    if lang == "en":
        return gettext.NullTranslations()
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    path = resources.files("explodice.present").joinpath(f"locale/{lang}/LC_MESSAGES/{DOMAIN}.po")
    with path.open("rb") as f:
        catalog = read_po(f, locale=_LOCALES[lang], domain=DOMAIN)
    for msgid, msgstr in SEED_WORDS.get(lang, {}).items():
        catalog.add(msgid, msgstr)
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return gettext.GNUTranslations(buffer)


def translator(lang: Lang) -> Callable[[str], str]:
    """The ``_`` function of ``lang``: an English label in, the label in ``lang`` out."""
    return _catalogue(check_lang(lang)).gettext


def say(message: Phrase | str, lang: Lang) -> str:
    """A message in ``lang``: a :class:`~explodice.core.words.Phrase`'s templates through
    the catalogue, its numbers as the language writes them (``1 000 000``, ``0,5``), its data
    (a user's name, a value as given) as it is; a plain string as it is.

    >>> from explodice.core.errors import check_int
    >>> try:
    ...     check_int("seed", -1, lo=0, hi=10**6)
    ... except ExplodiceError as err:
    ...     say(err.phrase, "fr")
    '`seed` doit être un entier dans 0..1\u202f000\u202f000, mais -1 a été donné.'
    """
    if not isinstance(message, Phrase):
        return message
    if check_lang(lang) == "en":
        return str(message)
    try:
        return message.render(translator(lang), functools.partial(_value, lang=lang))
    except (KeyError, IndexError, ValueError):  # a translation that lost a hole: the English
        return str(message)


def _value(value: Any, spec: str, *, lang: Lang) -> str:
    """A hole's value in a sentence of ``lang``: a number with the language's separators."""
    text = english_value(value, spec)
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float, Decimal))
        and not (type(value).__module__ == "numpy" and hasattr(value, "dtype"))
    ):
        return text
    from babel.numbers import get_decimal_symbol, get_group_symbol

    loc = _LOCALES[lang]
    swap = {",": get_group_symbol(loc), ".": get_decimal_symbol(loc)}
    return "".join(swap.get(c, c) for c in text)


def _round(x: float, digits: int) -> Decimal:
    # Ties away from zero on the exact binary value, as JavaScript's toFixed rounds.
    return Decimal(float(x)).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP)


def number(x: float, lang: Lang, digits: int | None = 1) -> str:
    """``x`` with ``digits`` decimals (``None``: as few as it needs, up to 6), the language's
    way (``12,6`` in French).

    >>> number(0.05, "fr", None), number(2000, "en", 0)
    ('0,05', '2,000')
    """
    from babel.numbers import format_decimal

    loc = _LOCALES[check_lang(lang)]
    if digits is None:
        return format_decimal(x, format="#,##0.######", locale=loc)
    pattern = "#,##0" + ("." + "0" * digits if digits else "")
    return format_decimal(_round(x, digits), format=pattern, locale=loc, decimal_quantization=False)


def percent(p: float, lang: Lang, digits: int = 1) -> str:
    """A probability in percent as the language writes it (the locale's own pattern: ``49.1%``
    in English, ``49,1 %`` in French), the same in the report, its figures, the explorer and
    the command line; never a false 0 % or 100 %: ``< 0,1 %`` instead.

    >>> percent(0.0002, "fr"), percent(0.99999, "en"), percent(0.0, "en")
    ('< 0,1\xa0%', '> 99.9%', '0.0%')
    >>> percent(0.999999999999939, "en"), percent(3e-17, "en")
    ('100.0%', '0.0%')
    >>> percent(0.838, "en"), percent(0.838, "fr")
    ('83.8%', '83,8\xa0%')
    """

    lang = check_lang(lang)
    step = 10.0**-digits / 100
    if abs(1 - p) <= CERTAIN or abs(p) <= CERTAIN:  # certain up to the exact engine's cut
        p = float(round(p))
    if 0 < p < step / 2:
        return "< " + percent(step, lang, digits)
    if 1 - step / 2 <= p < 1:
        return "> " + percent(1 - step, lang, digits)
    return percent_of(p, lang, digits)


def percent_of(x: float, lang: Lang, digits: int = 1) -> str:
    """Any share in percent as the language writes it, rounded and nothing else: a relative
    change (a price's ``+99.7%``, ``150%``), where :func:`percent`'s rules for a probability
    (``> 99.9%``) would say something false.

    >>> percent_of(0.997, "en", 0), percent_of(1.5, "fr", 0)
    ('100%', '150\xa0%')
    """
    from babel.numbers import format_percent

    lang = check_lang(lang)
    return format_percent(
        _round(100 * x, digits) / 100,
        format=_percent_pattern(lang, digits),
        locale=_LOCALES[lang],
        decimal_quantization=False,
    )


@functools.cache
def _percent_pattern(lang: Lang, digits: int) -> str:
    """The locale's own percent pattern (CLDR: ``#,##0%`` in English, ``#,##0\u202f%`` in
    French) with ``digits`` decimals."""
    from babel import Locale

    base = Locale.parse(_LOCALES[lang]).percent_formats[None].pattern
    return base.replace("#,##0", "#,##0" + ("." + "0" * digits if digits else ""), 1)


def keep_together(text: str) -> str:
    r"""``text`` with the space French writes before ``:`` ``;`` ``!`` ``?`` ``»`` and after
    ``«`` made non-breaking, so that a wrapped line never starts with one of them.

    >>> keep_together("lecture « écarter » : 2 dés")
    'lecture «\xa0écarter\xa0»\xa0: 2 dés'
    """
    return re.sub(r" ([:;!?»])", "\xa0\\1", text).replace("« ", "«\xa0")


def semicolons(parts: Iterable[str], lang: Lang) -> str:
    """``parts`` joined by semicolons the language's way: ``exact; disadvantage=subtract``,
    French with its (non-breaking) space before the semicolon: ``exact ; désavantage=…``.

    >>> semicolons(["exact", "seed=7"], "en"), semicolons(["exact", "graine=7"], "fr")
    ('exact; seed=7', 'exact\xa0; graine=7')
    """
    return ("; " if check_lang(lang) == "en" else "\xa0; ").join(parts)


def date(day: str | _dt.date, lang: Lang) -> str:
    """A date as the language writes it (``1 décembre 2026``; English keeps ISO ``2026-12-01``)."""
    from babel.dates import format_date

    if isinstance(day, str):
        day = _dt.date.fromisoformat(day)
    if check_lang(lang) == "en":
        return day.isoformat()
    return format_date(day, format="long", locale=_LOCALES[lang])


def percent_formatter(lang: Lang, digits: int = 0) -> Any:
    """A matplotlib tick formatter writing probabilities in percent the language's way, with
    the fewest decimals (at most ``digits``) that write every tick of the axis exactly: ``60%``,
    never ``60.0%`` beside ``60%`` elsewhere; ``2.5%`` where the ticks need it."""
    check_lang(lang)

    def write(x: float, decimals: int) -> str:
        if not 0 <= round(x, 9) <= 1:
            return ""
        return typographic(percent(round(x, 9), lang, decimals))

    return _TickFormatter(write, scale=100, most=max(digits, 1))


def change_formatter(
    lang: Lang,
    digits: int = 0,
    *,
    unit: ChangeUnit = "points",
    signed: bool = True,
    per: float = 1.0,
) -> Any:
    """A matplotlib tick formatter for a change, the language's way: of a probability in
    percentage points (``unit="points"``: ``−10 pp``, ``0 pp``, ``+10 pp``; ``+10 pts`` in
    French), never ``%``, a difference of two percents being no percent; a relative change
    (a price) in percent (``unit="percent"``: ``+10%``). ``signed=False`` writes a size
    without its sign (an error's: ``10 pp``); ``per``: what a whole is in the data (1 for a
    probability, 100 for a change already written in percent).

    >>> f = change_formatter("en"); f.set_locs([-0.1, 0, 0.1]); [f(v) for v in (-0.1, 0, 0.1)]
    ['−10 pp', '0 pp', '+10 pp']
    >>> f = change_formatter("fr", unit="percent", per=100); f.set_locs([-10, 10]); f(10)
    '+10\\xa0%'
    """
    check_lang(lang)
    check_choice("unit", unit, get_args(ChangeUnit))

    def write(x: float, decimals: int) -> str:
        x = round(x / per, 9)
        if unit == "points":
            text = number(abs(100 * x), lang, decimals) + (" pp" if lang == "en" else "\xa0pts")
        else:
            text = percent_of(abs(x), lang, decimals)  # a change, never "> 99%"
        sign = "\u2212" if x < 0 else "+" if x > 0 else ""
        return sign + text if signed else text

    return _TickFormatter(write, scale=100 / per, most=max(digits, 1))


def number_formatter(lang: Lang) -> Any:
    """A matplotlib tick formatter writing plain numbers the language's way (``0,5``), every
    tick of an axis with the same decimals (``1,9 2,0 2,1``, as English writes ``1.9 2.0 2.1``)."""
    check_lang(lang)
    return _TickFormatter(lambda x, d: typographic(number(round(x, 9), lang, d)), scale=1, most=6)


def _TickFormatter(write: Callable[[float, int], str], *, scale: float, most: int) -> Any:
    """A matplotlib Formatter: ``write(x, decimals)``, the decimals the fewest that write every
    tick of the axis (its ``locs``, times ``scale``) exactly, at most ``most``."""
    from matplotlib.ticker import Formatter

    class Ticks(Formatter):
        ticks: list[float] = []  # noqa: RUF012 - set per axis by set_locs

        def set_locs(self, locs: Any) -> None:  # the axis's ticks, before they are written
            self.ticks = [float(v) for v in locs]

        def __call__(self, x: float, pos: int | None = None) -> str:
            locs = [v for v in self.ticks if v == v] or [x]
            return write(x, _decimals([scale * v for v in locs], most))

    return Ticks()


def _decimals(values: list[float], most: int) -> int:
    """The fewest decimals (0 to ``most``) that write each of ``values`` exactly."""
    for d in range(most + 1):
        if all(abs(v * 10**d - round(v * 10**d)) < 1e-6 for v in values):
            return d
    return most


def typographic(text: str) -> str:
    """``text`` with the minus of a figure (U+2212), as matplotlib's own ticks write it.

    >>> typographic("-1,5")
    '−1,5'
    """
    return "\u2212" + text[1:] if text.startswith("-") else text


def d3_locale(lang: Lang) -> dict[str, Any]:
    """The number locale of the page's charts (d3-format), from Babel's CLDR symbols."""
    from babel.numbers import get_decimal_symbol, get_group_symbol

    loc = _LOCALES[check_lang(lang)]
    return {
        "decimal": get_decimal_symbol(loc),
        "thousands": get_group_symbol(loc),
        "grouping": [3],
        "currency": ["", " €"] if lang == "fr" else ["£", ""],
        "percent": _percent_pattern(lang, 0).replace("#,##0", ""),
        "minus": "\u2212",  # the report's minus, in every language (CLDR's is a hyphen)
    }


def _cell_number(x: float, lang: Lang) -> str:
    from babel.numbers import format_scientific

    if x != x:
        return "—"
    if x != 0 and not 1e-3 <= abs(x) < 1e6:
        return format_scientific(x, format="0.000E0", locale=_LOCALES[lang])
    return number(x, lang, 3)  # three decimals, as the English tables (cli.output.fmt_float)


def localise_table(frame: Any, lang: Lang) -> Any:
    """A text table in ``lang``: headers and label cells from the catalogue, numbers by CLDR.

    >>> import pandas as pd
    >>> localise_table(pd.DataFrame({"dc": [16], "advantage": ["normal"], "p": [0.25]}), "fr")
       DD avantage      p
    0  16   normal  0,250
    >>> localise_table(pd.DataFrame({"clamped": [True, False]}), "fr").iloc[:, 0].tolist()
    ['oui', 'non']
    """
    import pandas as pd

    _ = translator(lang)
    out = pd.DataFrame(index=frame.index)
    for col in frame.columns:
        values = frame[col]
        if pd.api.types.is_bool_dtype(values):  # a flag in the language's words
            shown = [_("yes") if v else _("no") for v in values]
        elif pd.api.types.is_float_dtype(values):
            shown = [_cell_number(float(v), lang) for v in values]
        elif pd.api.types.is_object_dtype(values) or pd.api.types.is_string_dtype(values):
            shown = [_(v) if isinstance(v, str) and v else v for v in values]
        else:
            shown = list(values)
        out[_(str(col))] = shown
    return out
