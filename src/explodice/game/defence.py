"""The defence value (VD) and the attack's ability (docs/rules.md, "Combat").

A character's VD is ``defence_base`` + its DEX modifier (capped by its armour under
``armour_dex_cap="5e"``) + the WIS term (``wisdom_in_defence``) + armour + shield + other; its
5e AC is 10 + DEX (capped as 5e caps it) + armour + shield + other. Anyone whose 5e AC is known
(a monster's stat block) has VD = AC - 10 + ``defence_base`` + the WIS term. These functions
take numbers and the rules, so a :class:`~explodice.Character`, a build and a
:class:`~explodice.Monster` compute them one way.

>>> from explodice import Rules
>>> defence_value(dex=3, wis=1, armour="chain mail", shield=True, rules=Rules(defence_base=10))
19
>>> armour_class(dex=3, armour="chain mail", shield=True), vd_from_ac(18, wis=1, rules=Rules(defence_base=10))
(18, 19)
"""

from __future__ import annotations

from typing import Literal, get_args

from explodice.game.rules import Rules
from explodice.game.tables import ARMOUR, ARMOUR_DEX_CAP, D20_AC_BASE, SHIELD_BONUS

__all__ = [
    "ATTACK_KINDS",
    "AttackKind",
    "armour_class",
    "capped_dex",
    "defence_value",
    "vd_from_ac",
    "wisdom_term",
]

#: How an attack is made, which sets its ability (docs/rules.md, "An attack"): STR in melee, DEX
#: at range, the better of the two with a finesse weapon, the spellcasting ability for a spell.
AttackKind = Literal["melee", "ranged", "finesse", "spell"]
ATTACK_KINDS: tuple[AttackKind, ...] = get_args(AttackKind)


def capped_dex(dex: int, armour: str | None, *, cap: bool = True) -> int:
    """The DEX modifier that armour lets through: 5e's caps (light none, medium at most +2,
    heavy 0: heavy armour adds no DEX, a negative one neither) when ``cap``, else whole.

    >>> capped_dex(3, "scale mail"), capped_dex(-1, "scale mail"), capped_dex(3, "plate")
    (2, -1, 0)
    >>> capped_dex(-1, "plate"), capped_dex(3, None), capped_dex(-1, "plate", cap=False)
    (0, 3, -1)
    """
    if armour is None or not cap:
        return dex
    limit = ARMOUR_DEX_CAP[ARMOUR[armour][1]]
    if limit is None:
        return dex
    return 0 if limit == 0 else min(dex, limit)


def wisdom_term(wis: int, rules: Rules) -> int:
    """What WIS adds to a VD under ``rules.wisdom_in_defence``: the modifier whole, only a
    positive one, or nothing.

    >>> [wisdom_term(-1, Rules(wisdom_in_defence=w)) for w in ("modifier", "positive", "none")]
    [-1, 0, 0]
    """
    if rules.wisdom_in_defence == "modifier":
        return wis
    if rules.wisdom_in_defence == "positive":
        return max(wis, 0)
    return 0


def _gear(armour: str | None, shield: bool) -> int:
    return (ARMOUR[armour][0] if armour is not None else 0) + (SHIELD_BONUS if shield else 0)


def defence_value(
    *, dex: int, wis: int, armour: str | None, shield: bool, rules: Rules, other: int = 0
) -> int:
    """VD = ``defence_base`` + DEX (capped by armour under ``armour_dex_cap="5e"``) + the WIS
    term + armour + shield + ``other``. ``armour`` is a key of
    :data:`~explodice.game.tables.ARMOUR` or ``None``."""
    dex_term = capped_dex(dex, armour, cap=rules.armour_dex_cap == "5e")
    return rules.defence_base + dex_term + wisdom_term(wis, rules) + _gear(armour, shield) + other


def armour_class(*, dex: int, armour: str | None, shield: bool, other: int = 0) -> int:
    """5e's AC: 10 + DEX (capped as 5e caps it) + armour + shield + ``other``."""
    return D20_AC_BASE + capped_dex(dex, armour) + _gear(armour, shield) + other


def vd_from_ac(ac: int, *, wis: int, rules: Rules) -> int:
    """The VD of a creature whose 5e AC is known: AC - 10 + ``defence_base`` + the WIS term
    (its DEX and armour are already in its AC)."""
    return ac - D20_AC_BASE + rules.defence_base + wisdom_term(wis, rules)
