"""Haggling (docs/rules.md, "Haggling"): the price a roll fetches against the haggling DCs
(:func:`haggle`, :func:`haggle_table`)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from explodice.analysis.resolutions.common import Shown, prepare, provenance, total_pmf
from explodice.analysis.success import (
    MODIFIERS,
)
from explodice.core.errors import check_items, shown
from explodice.core.words import Phrase
from explodice.engine.distribution import Distribution
from explodice.engine.sampling import Method, Sampling, resolve_sampling
from explodice.game.checks import check_rules
from explodice.game.rules import Advantage, ExplodiceError, Roll, Rules, check_int
from explodice.game.tables import (
    HAGGLE_BASE_DC,
    HAGGLE_CAP_PCT,
    HAGGLE_DCS,
    HAGGLE_DCS_FR,
    HAGGLE_DECEPTION_CAP_PCT,
    HAGGLE_STEP_PCT,
    MAX_DC,
    System,
    resolve_item,
)

__all__ = [
    "Haggle",
    "haggle",
    "haggle_table",
]


@dataclass(frozen=True)
class Haggle(Shown):
    """Haggling (Persuasion): the price change in percent in the character's favour, 10 % per
    point of margin (total - DC), capped at ``cap`` % either way; a margin of 0 moves nothing.
    ``pmf`` is a Series indexed by the change; ``mean`` its mean in percent."""

    pmf: pd.Series = field(repr=False)
    dc: int
    item: str | None = None
    p_noticed: float | None = None  # with Deception: the seller notices (Rules.deception_noticed)
    system: System = "3d6x"
    method: str = "exact"
    n: int | None = None
    seed: Any = None

    @property
    def mean(self) -> float:
        """The mean price change, in percent, in the character's favour."""
        return float(self.pmf.index.to_numpy() @ self.pmf.to_numpy())

    @property
    def p_better(self) -> float:
        """P(the price moves in the character's favour)."""
        return float(self.pmf[self.pmf.index > 0].sum())

    @property
    def p_worse(self) -> float:
        """P(the price moves against the character)."""
        return float(self.pmf[self.pmf.index < 0].sum())

    def summary(self) -> dict[str, Any]:
        return {
            "item": self.item,
            "dc": self.dc,
            "mean": self.mean,
            "p_better": self.p_better,
            "p_even": 1.0 - self.p_better - self.p_worse,
            "p_worse": self.p_worse,
            "p_noticed": self.p_noticed,
            "system": self.system,
            "method": self.method,
            "n": self.n,
            "seed": self.seed,
        }

    def to_frame(self) -> pd.DataFrame:
        """One row per price change (percent, in the character's favour) with its probability."""
        return self.pmf.rename("p").reset_index()

    def _extra_html(self) -> str:
        return self.to_frame().to_html(index=False, float_format="{:.4f}".format)


def haggle(
    roll: Roll | Distribution,
    *,
    dc: int | None = None,
    item: str | None = None,
    system: System = "3d6x",
    rules: Rules | None = None,
    step: int = HAGGLE_STEP_PCT,
    cap: int = HAGGLE_CAP_PCT,
    deception: Roll | Distribution | None = None,
    deception_cap: int = HAGGLE_DECEPTION_CAP_PCT,
    method: Method | None = None,
    n: int | None = None,
    seed: Any = None,
    threads: int | None = None,
    sampling: Sampling | None = None,
) -> Haggle:
    """The price change of a haggling test against ``dc`` (default: the ``item``'s minimum DC
    from the seed, else 16; a ``dc`` below the item's minimum is refused).

    ``deception`` (a Deception roll) plays the seed's option: when the Persuasion margin would
    move the price past ``cap``, the character aims up to ``deception_cap`` and rolls
    Deception against the same DC; on a failure the gain stays at ``cap``. Losses stay capped
    at ``cap`` either way. ``p_noticed`` is the probability that the seller notices the trick,
    as ``rules.deception_noticed`` reads the seed: ``"on_failure"`` (the Deception failed) or
    ``"when_cheated"`` ("la personne lésée s'en rendra compte ultérieurement": the gain past
    ``cap`` was taken, so the seller always notices later).

    >>> h = haggle(Roll(6), dc=16, deception=Roll(2))
    >>> sorted(h.pmf.index.tolist())[-3:], h.p_noticed > 0
    ([30, 40, 50], True)

    >>> h = haggle(Roll(4), item="Objets magiques")
    >>> h.dc, sorted(h.pmf.index.tolist())
    (22, [-25, -20, -10, 0, 10, 20, 25])
    """
    item_name = resolve_item(item) if item is not None else None
    if dc is None:
        dc = HAGGLE_DCS[item_name] if item_name is not None else HAGGLE_BASE_DC
    dc = check_int("dc", dc, lo=-MAX_DC, hi=MAX_DC)
    if item_name is not None and dc < HAGGLE_DCS[item_name]:
        raise ExplodiceError(
            Phrase(
                "`dc` must be at least {HAGGLE_DCS} for {item_name} (the seed's "
                "minimum), but {dc} was passed.",
                HAGGLE_DCS=HAGGLE_DCS[item_name],
                item_name=item_name,
                dc=shown(dc),
            )
        )
    step = check_int("step", step, lo=1, hi=100)
    cap = check_int("cap", cap, lo=0, hi=100)
    deception_cap = check_int("deception_cap", deception_cap, lo=cap, hi=100)
    items = [roll] if deception is None else [roll, deception]
    dists = prepare(
        items,
        system,
        rules,
        resolve_sampling(sampling, method=method, n=n, seed=seed, threads=threads),
    )
    d = dists[0]
    margins = d.totals - dc
    change = np.clip(margins * step, -cap, cap)
    weights = total_pmf(d)
    p_noticed = None
    if deception is not None:  # aiming past the cap needs Deception against the same DC
        q = float(dists[1].p_success(dc)) / float(dists[1].total_pmf.sum())
        beyond = margins * step > cap
        change = np.concatenate([change, np.minimum(margins[beyond] * step, deception_cap)])
        weights = np.concatenate(
            [np.where(beyond, (1 - q) * weights, weights), q * weights[beyond]]
        )
        failed, cheated = weights[: margins.size][beyond], weights[margins.size :]
        noticed = cheated if check_rules(rules).deception_noticed == "when_cheated" else failed
        p_noticed = float(noticed.sum())
    values, inverse = np.unique(change, return_inverse=True)
    probs = np.bincount(inverse, weights=weights, minlength=values.size)
    pmf = pd.Series(probs, index=pd.Index(values, name="change_pct"), name="p")
    return Haggle(pmf[pmf > 0], dc, item_name, p_noticed, **provenance(dists))


def haggle_table(
    modifiers: Iterable[int] = MODIFIERS,
    *,
    items: Iterable[str] | None = None,
    system: System = "3d6x",
    rules: Rules | None = None,
    advantage: Advantage = "normal",
) -> pd.DataFrame:
    """Mean price change and odds per modifier and item type of the seed's table (exact).

    >>> haggle_table([0], items=["gems"])[["item", "dc"]].values.tolist()
    [['gems', 22]]
    """
    modifiers = check_items("modifiers", modifiers, what=Phrase("modifiers"))
    names = (
        list(HAGGLE_DCS)
        if items is None
        else [resolve_item(i) for i in check_items("items", items, what=Phrase("item types"))]
    )
    rows = []
    for m in modifiers:
        for name in names:
            h = haggle(Roll(m, advantage=advantage), item=name, system=system, rules=rules)
            rows.append({"modifier": m, "item": name, "item_fr": HAGGLE_DCS_FR[name]} | h.summary())
    return pd.DataFrame(rows).drop(columns=["n", "seed"])
