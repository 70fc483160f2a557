"""Text tables (``str()`` of a summary, a comparison, an analysis): the `Table`s of
`cuttle.render.tables` laid out in fixed-width columns."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..analysis import Analysis, SearchAnalysis
from ..balancing.results import BalanceResult
from ..display import renders
from ..simulation.compare import ComparisonResult
from ..simulation.summary import Summary
from .balance_tables import balance_tables, balance_title
from .tables import (CLEAR, IN_BOLD, TEXT_MARK, analysis_table, comparison_table,
                     search_analysis_table, summary_table)

if TYPE_CHECKING:
    from .tables import Cell, Table

__all__ = ["table_text"]


def _cell_text(cell: Cell, marked: bool) -> str:
    if marked and cell.cls in CLEAR:             # a clear shift: its value marked
        value, space, rest = cell.text.partition(" ")
        return f"{value}{TEXT_MARK}{space}{rest}"
    return "  " + cell.text if cell.cls == "sub" else cell.text


def table_text(table: Table) -> str:
    """A table as text: the title, the header and rows in columns, the notes."""
    body = [r for r in table.rows if isinstance(r, list)]
    marked = any(IN_BOLD in note for note in table.notes)   # (a note says what bold means)
    widths = []
    for i, col in enumerate(table.columns):
        width = col.width
        if col.fit:
            width = max([width] + [len(_cell_text(r[i], marked)) for r in body]) + col.pad
        widths.append(width)

    def line(texts):
        out = "".join(f"{col.gap}{text:{col.align}{w}}"
                      for col, w, text in zip(table.columns, widths, texts))
        return out.rstrip()

    lines = list(table.title) + ([""] if table.spaced else [])
    if table.columns:       # (a table of nothing yet is its title and notes)
        lines.append(line(c.header for c in table.columns))
    for r in table.rows:
        if r is None:
            lines.append("")
        elif isinstance(r, str):
            lines.append(r)
        else:
            lines.append(line(_cell_text(c, marked) for c in r))
    lines += ([""] if table.spaced and table.columns else []) + [
        note.replace(IN_BOLD, f"marked {TEXT_MARK}") for note in table.notes]
    return "\n".join(lines)


@renders("text", Summary)
def summary_text(s: Summary) -> str:
    """A simulation's summary as a text table."""
    return table_text(summary_table(s))


@renders("text", ComparisonResult)
def comparison_text(c: ComparisonResult) -> str:
    """A comparison as a text table."""
    return table_text(comparison_table(c))


@renders("text", Analysis)
def analysis_text(a: Analysis) -> str:
    """A move analysis as a text table."""
    return table_text(analysis_table(a))


@renders("text", SearchAnalysis)
def search_analysis_text(a: SearchAnalysis) -> str:
    """A search analysis as a text table."""
    return table_text(search_analysis_table(a))


@renders("text", BalanceResult)
def balance_text(r: BalanceResult) -> str:
    """A balance search as text: its title, then each of its tables."""
    parts = ["\n".join(balance_title(r))]
    for table in balance_tables(r):
        parts.append(table_text(table))
    parts += [f"note: {n}" for n in r.notes]
    return "\n\n".join(parts)
