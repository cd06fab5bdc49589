"""The report's pages, one module per page. Each module has two functions:

- ``data(ctx) -> PageData``: every number of the page, computed from the configuration
  (``ctx.config``): its tidy tables (written as CSVs beside the page) and the results its
  drawing reads besides;
- ``draw(ctx, data) -> Figure``: the page laid out and drawn from ``data`` only (tables
  formatted, labels translated, plots of :mod:`explodice.present.plots`); it calls no engine.

Their order, contents lines, numbers and slugs are the list of
:mod:`explodice.present.report.contents`.
"""
