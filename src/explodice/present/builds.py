"""The builds a configuration shows across levels: its ``[[build]]`` tables, else the reference
builds of the rules (and a line that says which), for the command line, the report's levels
chapter and the explorer.

>>> from explodice.present.config import ReportConfig
>>> shown = shown_builds(ReportConfig())
>>> shown.source, shown.names[:2], shown.note("en", "my.toml")[:20]
('reference', ['fighter', 'rogue'], 'The reference builds')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from explodice.game.build import Build, reference_builds
from explodice.present import i18n
from explodice.present.i18n import Lang

__all__ = ["ShownBuilds", "first_builds", "shown_builds"]


@dataclass(frozen=True)
class ShownBuilds:
    """Builds, and where they come from: ``"config"`` (the configuration's ``[[build]]``
    tables) or ``"reference"`` (the reference builds, since the configuration has none)."""

    builds: tuple[Build, ...]
    source: str

    @property
    def names(self) -> list[str]:
        return [b.name for b in self.builds]

    def note(self, lang: Lang, config_source: str) -> str:
        """Where the builds come from, in one line of ``lang``."""
        _ = i18n.translator(lang)
        if self.source == "reference":
            return _(
                "The reference builds (the configuration has no [[build]] table): {names}"
            ).format(names=", ".join(_(n) for n in self.names))
        return _("Builds of the configuration ({source}): {names}").format(
            source=_(config_source),
            names=", ".join(_(n) for n in self.names),  # as the tables
        )


def shown_builds(config: Any) -> ShownBuilds:
    """The configuration's builds, else the reference builds."""
    own = tuple(getattr(config, "builds", ()) or ())
    if own:
        return ShownBuilds(own, "config")
    return ShownBuilds(tuple(reference_builds()), "reference")


def first_builds(names: list[str], limit: int, lang: Lang) -> tuple[list[str], str]:
    """The first ``limit`` of ``names`` (the builds a page has room for), and the sentence that
    says so when some are left out (``""`` when none is).

    >>> first_builds(["a", "b", "c"], 2, "en")
    (['a', 'b'], 'The first 2 builds are shown; the CSV holds all 3.')
    """
    kept = list(names)[:limit]
    if len(kept) == len(names):
        return kept, ""
    _ = i18n.translator(lang)
    return kept, _("The first {n} builds are shown; the CSV holds all {total}.").format(
        n=len(kept), total=len(names)
    )
