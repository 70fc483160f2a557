"""Markdown tables (the atlas's ``str()``, stdout and docs/atlas.md): the `Table`s of
`cuttle.render.tables` as GitHub markdown."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..display import renders
from ..variants.results import AtlasResult
from .tables import atlas_key, atlas_tables

if TYPE_CHECKING:
    from .tables import Table

__all__ = ["atlas_markdown", "table_markdown"]


def table_markdown(table: Table) -> list[str]:
    """The lines of a table: the row of a "best" class in bold, and the value of a cell
    marked pos/neg (a shift whose interval excludes 0)."""
    lines = ["| " + " | ".join(c.header for c in table.columns) + " |",
             "|" + "|".join("---:" if c.align == ">" else "---" for c in table.columns) + "|"]
    for i, cells in enumerate(table.rows):
        texts = []
        for c in cells:
            text = c.text
            if c.cls in ("pos", "neg"):
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
    for table in atlas_tables(result):
        title, header = table.title
        lines += [f"### {title}", "", header, ""] + table_markdown(table) + [""]
    lines.append(atlas_key(result.confidence))
    return "\n".join(lines)
