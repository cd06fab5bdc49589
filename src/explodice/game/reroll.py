"""Rerolls (docs/rules.md, "Rerolls"): a trait, feat or spell of one character or one roll.

Two triggers:

- ``Reroll("one")``: the Lucky trait (Chanceux). A die of the initial throw showing 1 is
  rerolled once, before the rule of 1's choice; the new face is part of the throw (under
  ``Rules(lucky_timing="after_choice")``, after the choice: one kept 1 is rerolled, summed,
  and drains nothing). In d20 a die showing 1 is rerolled once and the new face stands.
- ``Reroll("failure", dc=...)``: spent when the finished roll fails ``dc``. Without advantage
  or disadvantage the whole roll is thrown again; with either, one die only, the one whose
  reroll gives the best chance of success.

A reroll never belongs to the whole game: there is no switch in :class:`~explodice.Rules`.

>>> Reroll("one"), Reroll("failure", dc=16)
(Reroll('one'), Reroll('failure', dc=16))
>>> Reroll("failure").with_dc(12).dc
12
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, get_args

from explodice.core.errors import RulesError, check_choice, check_int, fail, message_of, recast
from explodice.core.words import Phrase
from explodice.game.tables import MAX_DC

__all__ = ["REROLL_TRIGGERS", "Reroll", "Trigger", "as_reroll"]

Trigger = Literal["one", "failure"]
REROLL_TRIGGERS: tuple[Trigger, ...] = get_args(Trigger)


@dataclass(frozen=True)
class Reroll:
    """One reroll: ``trigger`` is ``"one"`` (a die showing 1) or ``"failure"`` (the roll
    failed ``dc``). A ``"failure"`` reroll given as a character's trait may leave ``dc``
    unset: each roll binds its own (:meth:`with_dc`); ``per_day`` caps how many the
    character spends in an adventuring day (``None``: every failed roll may be rerolled)."""

    trigger: Trigger
    dc: int | None = None
    per_day: int | None = None

    def __post_init__(self) -> None:
        check_choice("Reroll.trigger", self.trigger, REROLL_TRIGGERS)
        if self.dc is not None:
            if self.trigger == "one":
                raise fail(
                    "Reroll.dc",
                    self.dc,
                    Phrase("absent for Reroll('one') (it fires on a 1, whatever the DC)"),
                )
            object.__setattr__(self, "dc", check_int("Reroll.dc", self.dc, lo=-MAX_DC, hi=MAX_DC))
        if self.per_day is not None:
            if self.trigger == "one":
                raise fail(
                    "Reroll.per_day",
                    self.per_day,
                    Phrase("absent for Reroll('one') (Lucky acts on every roll)"),
                )
            object.__setattr__(
                self, "per_day", check_int("Reroll.per_day", self.per_day, lo=0, hi=10**6)
            )

    def __repr__(self) -> str:
        extra = "".join(
            f", {k}={v}" for k, v in (("dc", self.dc), ("per_day", self.per_day)) if v is not None
        )
        return f"Reroll({self.trigger!r}{extra})"

    def __str__(self) -> str:
        return (
            "lucky"
            if self.trigger == "one"
            else ("reroll on failure" + ("" if self.dc is None else f" (DC {self.dc})"))
        )

    def with_dc(self, dc: int) -> Reroll:
        """The same reroll against ``dc`` (a ``"one"`` reroll is returned unchanged)."""
        return self if self.trigger == "one" else Reroll("failure", dc, self.per_day)


def as_reroll(value: Any, field_name: str = "reroll") -> Reroll | None:
    """Read a reroll as people write it: ``None``, a :class:`Reroll`, ``"one"``/``"lucky"``,
    ``"failure"``, or a table ``{trigger = "failure", dc = 16, per_day = 2}``.

    >>> as_reroll("lucky"), as_reroll({"trigger": "failure", "dc": 14})
    (Reroll('one'), Reroll('failure', dc=14))
    """
    if value is None or isinstance(value, Reroll):
        return value
    if isinstance(value, str):
        text = value.strip().lower()
        if text in ("one", "lucky", "chanceux"):
            return Reroll("one")
        if text == "failure":
            return Reroll("failure")
    if (
        isinstance(value, dict)
        and set(value) <= {"trigger", "dc", "per_day"}
        and "trigger" in value
    ):
        try:
            return Reroll(**value)
        except RulesError as err:
            message = message_of(err).replace("Reroll.", f"{field_name}.")
            raise recast(
                err, RulesError, message, (err.field or "").replace("Reroll.", f"{field_name}.")
            ) from None
    raise fail(
        field_name,
        value,
        Phrase(
            "Reroll('one'), Reroll('failure', dc=...), 'one' (or 'lucky'), "
            "'failure', or a table {{trigger = ..., dc = ..., per_day = ...}}"
        ),
        wrong_type=not isinstance(value, (str, dict)),
    )
