"""Renderers: every result in every output format, one module per format.

* `tables`: what each table shows (rows, titles, notes), read from the catalogue of
  statistics (`cuttle.figures`), in no format yet; `balance_tables`: the balance
  designer's, of the same pieces;
* `text`: text tables (``str()``); `markdown`: markdown tables (the atlas);
  `html`: HTML tables (``_repr_html_``, and the tables of the report pages);
* `data`: the JSON forms (``as_dict()``); `csv`: the CSV forms (``to_csv``);
* `plot`: matplotlib figures (``.plot(path)``);
* `game_text`: a game's table as text (``Game.render``, ``str(game)``).

Each renderer registers what it draws with `cuttle.display.renders`, and the results'
methods call `cuttle.display.render`: renderers import results, never the reverse.
Importing this package (``cuttle/__init__.py`` does) registers them all, with the game
table's SVG (`cuttle.svg`).  Whole HTML pages are `cuttle.report`.

A new kind of result (a game review, say) describes its figures as `cuttle.figures.
Figure`s whose `data` reads the result, gives its class ``__str__``/``as_dict``/
``_repr_html_`` methods that call ``display.render(form, self)``, and registers, here,
its forms from the generic pieces::

    @renders("text", Review)
    def review_text(r):
        return table_text(figures_table(title, [REVIEW.values()], r, 0.95))

    @renders("data", Review)
    def review_data(r):
        return figures_into({"schema_version": SCHEMA_VERSION}, REVIEW.values(), r, 0.95)

(`tables.figures_table`, `text.table_text`, `html.table_html`, `data.figures_into`,
`csv.figure_rows`).
"""

from .. import svg
from . import balance_tables, csv, data, game_text, html, markdown, plot, tables, text

__all__ = ["balance_tables", "csv", "data", "game_text", "html", "markdown", "plot", "svg",
           "tables", "text"]
