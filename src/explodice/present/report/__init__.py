"""The designer's report: one multi-page PDF, one PNG per page and one CSV per table.

- :mod:`.config` reads the TOML a designer edits into a :class:`ReportConfig`;
- :mod:`.kit` is what a page is made of; :mod:`.pages` builds each page, in order;
- :mod:`.warmup` overlaps numba's first compilations;
- :mod:`.writer` writes the report as one unit, whole or not at all.
"""

from explodice.present.report.config import (
    ConfigError,
    ReportConfig,
    default_config_text,
    load_config,
    write_default_config,
)
from explodice.present.report.kit import Page
from explodice.present.report.pages import PAGES, build_pages
from explodice.present.report.writer import (
    MANIFEST,
    PDF_NAME,
    ReportBusyError,
    ReportWarning,
    write_report,
)

__all__ = [
    "MANIFEST",
    "PAGES",
    "PDF_NAME",
    "ConfigError",
    "Page",
    "ReportBusyError",
    "ReportConfig",
    "ReportWarning",
    "build_pages",
    "default_config_text",
    "load_config",
    "write_default_config",
    "write_report",
]
