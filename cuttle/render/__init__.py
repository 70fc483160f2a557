"""Renderers: every result in every output format, one module per format.

* `tables`: what each table shows (rows, titles, notes), read from the catalogue of
  statistics (`cuttle.figures`), in no format yet;
* `text`: text tables (``str()``); `markdown`: markdown tables (the atlas);
  `html`: HTML tables (``_repr_html_``, and the tables of the report pages);
* `data`: the JSON forms (``as_dict()``); `csv`: the CSV forms (``to_csv``);
* `plot`: matplotlib figures (``.plot(path)``).

Each renderer registers what it draws with `cuttle.display.renders`, and the results'
methods call `cuttle.display.render`: renderers import results, never the reverse.
Importing this package (``cuttle/__init__.py`` does) registers them all, with the game
table's SVG (`cuttle.svg`).  Whole HTML pages are `cuttle.report`.
"""

from .. import svg
from . import csv, data, html, markdown, plot, tables, text

__all__ = ["csv", "data", "html", "markdown", "plot", "svg", "tables", "text"]
