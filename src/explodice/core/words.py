"""Words of the code that a person reads, kept so that ``present/`` can say them in French.

:func:`N_` marks an English word written as data: it returns its text unchanged,
``pybabel extract -k N_`` finds the calls, so the word enters the catalogue, and it is
translated where it is shown (``_(word)``, in ``present/``).

:class:`Phrase` is a sentence with named holes (an error's message): its English template is
marked the same way (``-k Phrase``) and kept with the values of its holes, so the English
sentence is ``str(phrase)`` and another language's is ``phrase.render(...)`` (see
:func:`explodice.present.i18n.say`). Every layer may mark its words; only ``present/``
translates them.

>>> N_("malus_die")
'malus_die'
>>> str(Phrase("`{field}` must be {allowed}.", field="dc", allowed=Phrase("at least {lo}", lo=5000)))
'`dc` must be at least 5,000.'
"""

from __future__ import annotations

import numbers
import string
from collections.abc import Callable
from typing import Any

__all__ = ["N_", "Phrase", "english_value"]


def N_(text: str) -> str:
    """Marks an English label for the catalogue where it is defined as data; it is
    translated where it is shown (``_(label)``)."""
    return text


def english_value(value: Any, spec: str = "") -> str:
    """A hole's value as an English sentence writes it: an integer with its thousands
    separated (``1,000,000``; a ``bool`` as ``True``), anything else ``format(value, spec)``.

    >>> english_value(-1_000_000), english_value(True), english_value(0.25, ".0%")
    ('-1,000,000', 'True', '25%')
    """
    if not spec and isinstance(value, numbers.Integral) and not isinstance(value, bool):
        return f"{int(value):,}"
    return format(value, spec)


class Phrase:
    """An English sentence with named holes, and the values of its holes.

    A hole's value is a :class:`Phrase` (said in the same language), a number (written as
    the language writes numbers; ``{x:.3g}`` keeps its format) or any other value (written as
    ``format`` writes it: data, such as a user's name or value, is never translated).

    >>> p = Phrase("`{field}` must be one of {allowed}", field="lang", allowed="['en', 'fr']")
    >>> str(p)
    "`lang` must be one of ['en', 'fr']"
    >>> french = {p.template: "`{field}` doit être l’un de {allowed}"}
    >>> p.render(french.get, english_value)
    "`lang` doit être l’un de ['en', 'fr']"
    """

    __slots__ = ("params", "replaced", "template")

    def __init__(self, template: str, /, **params: Any) -> None:
        self.template = template
        self.params = params
        self.replaced: tuple[tuple[str, str, int], ...] = ()

    def replace(self, old: str, new: str, count: int = -1) -> Phrase:
        """The phrase whose sentence, in any language, has ``old`` replaced by ``new`` (a name
        of the code, the same in every language: ``"`policy`"`` -> ``"`--policy`"``), as
        ``str.replace`` does on the English one.

        >>> str(Phrase("`{f}` is wrong", f="policy").replace("`policy`", "`--policy`"))
        '`--policy` is wrong'
        """
        out = Phrase(self.template, **self.params)
        out.replaced = (*self.replaced, (old, new, count))
        return out

    def render(self, translate: Callable[[str], str], value: Callable[[Any, str], str]) -> str:
        """The sentence with ``translate`` applied to each template (this one's and its
        holes' phrases') and ``value(v, spec)`` writing each other hole."""
        text = translate(self.template)
        out = []
        for literal, name, spec, conversion in string.Formatter().parse(text):
            out.append(literal)
            if name is None:
                continue
            v = self.params[name]
            if isinstance(getattr(v, "phrase", None), Phrase):  # an error said in its words
                v = v.phrase
            if isinstance(v, Phrase):
                out.append(format(v.render(translate, value), spec or ""))
            elif conversion == "r":
                out.append(format(repr(v), spec or ""))
            elif conversion == "s":
                out.append(format(str(v), spec or ""))
            else:
                out.append(value(v, spec or ""))
        said = "".join(out)
        for old, new, count in self.replaced:
            said = said.replace(old, new, count)
        return said

    def __str__(self) -> str:
        return self.render(_same, english_value)

    def __repr__(self) -> str:
        return f"Phrase({self.template!r}, **{self.params!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Phrase) and (self.template, self.params) == (
            other.template,
            other.params,
        )

    def __hash__(self) -> int:
        return hash(self.template)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_phrase, (self.template, self.params, self.replaced))


def _phrase(
    template: str, params: dict[str, Any], replaced: tuple[tuple[str, str, int], ...] = ()
) -> Phrase:
    out = Phrase(template, **params)
    out.replaced = replaced
    return out


def _same(text: str) -> str:
    return text
