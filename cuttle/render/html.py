"""HTML tables (``_repr_html_``, so notebooks show results as tables, and the tables of
the report pages): the `Table`s of `cuttle.render.tables` as HTML fragments, cell for
cell the text tables, in the style below (scoped to ``.cuttle-report``, so that a
notebook's own styles are left alone)."""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

from ..analysis import Analysis, SearchAnalysis
from ..balancing.results import BalanceResult
from ..display import renders
from ..simulation.compare import ComparisonResult
from ..simulation.results import SimulationResult
from ..simulation.summary import Summary
from ..variants.results import AtlasResult
from .balance_tables import balance_tables, balance_title
from .tables import (analysis_table, atlas_key, atlas_tables, comparison_table,
                     group_interactions_table, search_analysis_table, summary_table)

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from .tables import Cell, Table

__all__ = ["STYLE", "analysis_html", "atlas_html", "balance_html", "comparison_html",
           "head_html", "notes_html", "search_analysis_html", "summary_html", "table_html",
           "wrap"]

STYLE = """
.cuttle-report{font-family:system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;
 font-size:13px;line-height:1.35}
.cuttle-report .head{margin:0 0 6px 0}
.cuttle-report .head b{font-size:14px}
.cuttle-report table{border-collapse:collapse;margin:4px 0 8px 0;font-size:inherit}
.cuttle-report th,.cuttle-report td{padding:3px 10px;border-bottom:1px solid rgba(127,127,127,.25)}
.cuttle-report th{text-align:right;font-weight:600;border-bottom:2px solid rgba(127,127,127,.5)}
.cuttle-report th:first-child,.cuttle-report td:first-child{text-align:left}
.cuttle-report td{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
.cuttle-report td.iv{color:rgba(127,127,127,1)}
.cuttle-report td.sub{padding-left:26px}
.cuttle-report tr.group td{font-weight:600;text-align:left;padding-top:8px}
.cuttle-report tr.sep td{border:none;padding:3px}
.cuttle-report tr.best td{font-weight:600}
.cuttle-report .pos{color:#1f5f9e;font-weight:600}
.cuttle-report .neg{color:#a04000;font-weight:600}
.cuttle-report .note{color:rgba(127,127,127,1);font-size:12px;margin:2px 0}
"""


def head_html(lines: Sequence[str]) -> str:
    """Title lines: the first in bold."""
    if not lines:
        return ""
    first, rest = lines[0], lines[1:]
    out = [f'<p class="head"><b>{escape(first)}</b>']
    out += [f"<br>{escape(line.strip())}" for line in rest]
    return "".join(out) + "</p>"


def notes_html(lines: Iterable[str]) -> str:
    """Note lines, small and grey."""
    return "".join(f'<p class="note">{escape(line)}</p>' for line in lines if line.strip())


def _td(cell: Cell) -> str:
    text = escape(cell.wide if cell.wide is not None else cell.text.strip())
    return f'<td class="{cell.cls}">{text}</td>' if cell.cls else f"<td>{text}</td>"


def _tr(tds: Iterable[str], cls: str = "") -> str:
    attr = f' class="{cls}"' if cls else ""
    return f"<tr{attr}>{''.join(tds)}</tr>"


def table_html(table: Table) -> str:
    """A table as an HTML fragment: title, table, notes (without the style)."""
    width = len(table.columns)
    rows = []
    for i, r in enumerate(table.rows):
        if r is None:
            rows.append(_tr(["<td></td>"] * width, "sep"))
        elif isinstance(r, str):
            rows.append(_tr([f"<td>{escape(r)}</td>"] + ["<td></td>"] * (width - 1), "group"))
        else:
            rows.append(_tr((_td(c) for c in r), table.row_classes.get(i, "")))
    if not table.columns:       # (a table of nothing yet: its title and notes)
        return head_html(table.title) + notes_html(table.notes)
    th = "".join(f"<th>{escape(c.header)}</th>" for c in table.columns)
    return (head_html(table.title)
            + f"<table><thead><tr>{th}</tr></thead><tbody>{''.join(rows)}</tbody></table>"
            + notes_html(table.notes))


def wrap(body: str, style: bool = True) -> str:
    """`body` in the element the styles apply to (with them, for a notebook)."""
    css = f"<style>{STYLE}</style>" if style else ""
    return f'<div class="cuttle-report">{css}{body}</div>'


@renders("html", Summary)
def summary_html(s: Summary) -> str:
    """A simulation summary's table as an HTML fragment (for notebooks)."""
    return wrap(table_html(summary_table(s)))


@renders("html", SimulationResult)
def result_html(r: SimulationResult) -> str:
    """A simulation result shows its summary."""
    return summary_html(r.summary())


@renders("html", ComparisonResult)
def comparison_html(c: ComparisonResult) -> str:
    """A comparison's table as an HTML fragment (for notebooks)."""
    return wrap(table_html(comparison_table(c)))


@renders("html", Analysis)
def analysis_html(a: Analysis) -> str:
    """A move analysis's table as an HTML fragment (for notebooks)."""
    return wrap(table_html(analysis_table(a)))


@renders("html", SearchAnalysis)
def search_analysis_html(a: SearchAnalysis) -> str:
    """A search analysis's table as an HTML fragment (for notebooks)."""
    return wrap(table_html(search_analysis_table(a)))


@renders("html", AtlasResult)
def atlas_html(result: AtlasResult) -> str:
    """The atlas's tables as an HTML fragment, one per group (and its interactions), and
    the key."""
    parts = []
    for g, table in zip(result.groups, atlas_tables(result)):
        parts.append(table_html(table))
        inter = group_interactions_table(g, result.confidence)
        if inter is not None:
            parts.append(table_html(inter))
    return wrap("".join(parts) + notes_html([atlas_key(result.confidence)]))


@renders("html", BalanceResult)
def balance_html(r: BalanceResult) -> str:
    """A balance search's tables as an HTML fragment (for notebooks)."""
    return wrap(head_html(balance_title(r)) + "".join(table_html(t) for t in balance_tables(r)))
