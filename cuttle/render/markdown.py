"""Markdown tables (the atlas's ``str()``, stdout and docs/atlas.md; the balance
designer's ``--markdown``; a game review's, `Review.markdown()`): the `Table`s of
`cuttle.render.tables` as GitHub markdown."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..balancing.results import BalanceResult
from ..display import renders
from ..variants.results import AtlasResult
from .balance_tables import balance_tables, balance_title
from .tables import CLEAR, atlas_key, atlas_tables, group_interactions_table, interactions_note

if TYPE_CHECKING:
    from .tables import Table

__all__ = ["atlas_markdown", "balance_markdown", "one_line", "table_markdown",
           "titled_markdown"]


def one_line(text: str) -> str:
    """`text` with its line breaks as spaces: a paragraph or a cell that a line break in
    a player's name cannot end."""
    return " ".join(text.splitlines())


def _cell(text: str) -> str:
    """A cell's text, which a '|' or a line break (in a player's name) cannot end."""
    return one_line(text.replace("|", "\\|"))


def table_markdown(table: Table) -> list[str]:
    """The lines of a table: the row of a "best" class in bold, and the value of a cell
    marked pos/neg (a shift whose interval excludes 0); none for a table of no columns
    (of nothing yet: its title and notes say so)."""
    if not table.columns:
        return []
    lines = ["| " + " | ".join(_cell(c.header) for c in table.columns) + " |",
             "|" + "|".join("---:" if c.align == ">" else "---" for c in table.columns) + "|"]
    for i, cells in enumerate(table.rows):
        texts = []
        for c in cells:
            text = _cell(c.text)
            if c.cls in CLEAR:
                value, _, rest = text.partition(" ")
                text = f"**{value}** {rest}"
            texts.append(text)
        if table.row_classes.get(i) == "best":
            texts[0] = f"**{texts[0]}**"
        lines.append("| " + " | ".join(texts) + " |")
    return lines


@renders("markdown", AtlasResult)
def atlas_markdown(result: AtlasResult, command: str | None = None) -> str:
    """Every group's table, with its title and header line, and the key at the end
    (with `command`, first the line that reproduces them)."""
    lines = []
    if command:
        lines += [f"Command: `{command}`", ""]
    for g, table in zip(result.groups, atlas_tables(result)):
        lines += titled_markdown(table, "###")
        inter = group_interactions_table(g, result.confidence)
        if inter is not None:
            lines += titled_markdown(inter, "####")
    lines.append(atlas_key(result.confidence))
    if any(g.interactions for g in result.groups):
        lines += ["", interactions_note(result.confidence)]
    return "\n".join(lines)


def titled_markdown(table: Table, level: str = "###") -> list[str]:
    """A table with its first title line as a heading of `level` and the others as a
    paragraph (its notes are left to the caller)."""
    title, *rest = table.title
    lines = [f"{level} {title}", ""]
    if rest:
        lines += [" ".join(rest), ""]
    return lines + (table_markdown(table) + [""] if table.columns else [])


@renders("markdown", BalanceResult)
def balance_markdown(r: BalanceResult, command: str | None = None) -> str:
    """A balance search's tables as markdown, each under a heading with its notes (with
    `command`, first the line that reproduces them)."""
    lines = [f"Command: `{command}`", ""] if command else []
    title, *rest = balance_title(r)
    lines += [f"**{title}**", ""] + [" · ".join(rest), ""]
    for table in balance_tables(r):
        lines += titled_markdown(table, "####") + [n for note in table.notes
                                                   for n in (note, "")]
    return "\n".join(lines).rstrip() + "\n"
