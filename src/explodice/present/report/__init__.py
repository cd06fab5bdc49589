"""The designer's report: one multi-page PDF, one PNG per page and one CSV per table.

- :mod:`explodice.present.config` reads the TOML a designer edits into a
  :class:`ReportConfig` (the explorer reads it too: it lives beside both);
- :mod:`.contents` is the list of pages, in order (:data:`PAGES`), and :func:`build_pages`;
- :mod:`.pages` has one module per page: its ``data`` (the numbers) and its ``draw``;
- :mod:`.kit` is what a page is made of (context, page data, figure, table);
- :mod:`.warmup` overlaps numba's first compilations;
- :mod:`.reuse` keeps pages' data and the report's files between runs; :mod:`.drawing`
  draws the PNGs in helper processes;
- :mod:`.writer` writes the report as one unit, whole or not at all.
"""

from explodice.present.config import (
    ConfigError,
    ReportConfig,
    default_config_text,
    load_config,
    write_default_config,
)
from explodice.present.report.kit import Page, PageData
from explodice.present.report.writer import (
    MANIFEST,
    PDF_NAME,
    ReportBusyError,
    ReportWarning,
    last_session,
    write_report,
)

__all__ = [
    "MANIFEST",
    "PAGES",
    "PDF_NAME",
    "ConfigError",
    "Page",
    "PageData",
    "PageSpec",
    "ReportBusyError",
    "ReportConfig",
    "ReportWarning",
    "build_pages",
    "last_session",
    "default_config_text",
    "load_config",
    "write_default_config",
    "write_report",
]


def __getattr__(name: str) -> object:
    """``PAGES``, ``PageSpec`` and ``build_pages``, from :mod:`.contents`, imported when first
    read: the pages import matplotlib, which a report kept whole never needs."""
    if name in ("PAGES", "PageSpec", "build_pages"):
        from explodice.present.report import contents

        return getattr(contents, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
