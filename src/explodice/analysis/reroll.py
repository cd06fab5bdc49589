"""What is a reroll worth? P(success) and drain with and without it, per modifier and DC.

A designer weighing the Lucky trait or a "reroll a failed test" feature reads one tidy table:
for each system, trigger, advantage state, modifier and DC, the success and the drain with
the reroll and without, and the differences (exact, from :func:`explodice.exact` and
:func:`explodice.d20`).

>>> t = reroll_worth([0], [16], trigger="failure", advantages=["normal"])
>>> row = t.iloc[0]
>>> bool(abs(row.gain - row.p * (1 - row.p)) < 1e-12)  # 1 - (1 - p)^2 - p
True
"""

from __future__ import annotations

from collections.abc import Iterable

import pandas as pd

from explodice.core.errors import check_items
from explodice.core.words import Phrase
from explodice.engine.d20 import d20
from explodice.engine.distribution import Distribution
from explodice.engine.exact import exact
from explodice.game.checks import check_rules
from explodice.game.reroll import REROLL_TRIGGERS, Reroll
from explodice.game.rules import ADVANTAGE_STATES, Policy, Roll, Rules, check_choice, check_int
from explodice.game.tables import DC_TABLES, MAX_DC, MODIFIERS, System, check_system

__all__ = ["reroll_worth"]


def reroll_worth(
    modifiers: Iterable[int] = MODIFIERS,
    dcs: Iterable[int] | None = None,
    *,
    system: System = "3d6x",
    trigger: str = "failure",
    advantages: Iterable[str] = ADVANTAGE_STATES,
    policy: Policy = "keep",
    rules: Rules | None = None,
) -> pd.DataFrame:
    """One row per (advantage, modifier, DC): ``p`` and ``p_reroll`` (P(success) without and
    with the reroll), ``gain``, ``drain`` and ``drain_reroll`` (E[drain], 3d6x), and
    ``drain_added``. ``dcs`` defaults to the system's DC table."""
    rules = check_rules(rules)
    system = check_system(system)
    check_choice("trigger", trigger, REROLL_TRIGGERS)
    dcs = (
        list(DC_TABLES[system].values())
        if dcs is None
        else [
            check_int("dcs", x, lo=-MAX_DC, hi=MAX_DC)
            for x in check_items("dcs", dcs, what=Phrase("DCs"))
        ]
    )
    advantages = check_items(
        "advantages",
        advantages,
        what=Phrase("states {ADVANTAGE_STATES}", ADVANTAGE_STATES=list(ADVANTAGE_STATES)),
    )
    modifiers = check_items("modifiers", modifiers, what=Phrase("modifiers"))
    Roll(policy=policy)  # validates the policy before any work
    rows = []
    for adv in advantages:
        state = check_choice("advantages", adv, ADVANTAGE_STATES)
        for m in modifiers:
            base = Roll(check_int("modifier", m, lo=-100, hi=100), advantage=state, policy=policy)
            for dc in dcs:
                reroll = Reroll("one") if trigger == "one" else Reroll("failure", dc)
                before: Distribution
                after: Distribution
                if system == "d20":
                    before, after = d20(base), d20(base.replace(reroll=reroll))
                else:
                    before, after = exact(base, rules), exact(base.replace(reroll=reroll), rules)
                p, q = float(before.p_success(dc)), float(after.p_success(dc))
                rows.append(
                    {
                        "system": system,
                        "trigger": trigger,
                        "advantage": adv,
                        "modifier": m,
                        "dc": dc,
                        "p": p,
                        "p_reroll": q,
                        "gain": q - p,
                        "drain": before.drain_mean,
                        "drain_reroll": after.drain_mean,
                        "drain_added": after.drain_mean - before.drain_mean,
                    }
                )
    return pd.DataFrame(rows)
