"""The atlas as text: markdown tables (stdout, docs/atlas.md), the JSON form and CSV."""

from __future__ import annotations

import math
from html import escape
from typing import TYPE_CHECKING, Any

from .._core import END_NAMES
from ..simulation.output import csv_num, write_csv
from .results import END_REASONS, METRICS

if TYPE_CHECKING:
    from collections.abc import Iterator
    from os import PathLike
    from typing import TextIO

    from .results import AtlasResult, GroupResult

__all__ = ["CSV_COLUMNS", "HEADERS", "atlas_dict", "atlas_html", "atlas_markdown",
           "csv_rows", "group_cells", "group_markdown", "write_atlas_csv"]

CSV_COLUMNS = ["base", "policy", "variant", "rules", "status", "games", "metric", "value",
               "low", "high", "shift", "shift_low", "shift_high"]
_END_LABELS = {"goal": "goal", "passes": "passes", "sudden_death": "sudden death",
               "move_cap": "move cap"}


def _f(x, fmt):
    return "n/a" if x is None or not math.isfinite(x) else format(x, fmt)


def _pct(x, digits=2):
    return _f(100 * x, f".{digits}f") + "%" if math.isfinite(x) else "n/a"


def _shift(e, scale, digits):
    """('+0.49 [+0.23, +0.75]', 'pos'/'neg' when the interval excludes 0, else '')."""
    if not math.isfinite(e.value):
        return "", ""
    fmt = f"+.{digits}f"
    v, cls = _f(scale * e.value, fmt), ""
    if math.isfinite(e.low) and math.isfinite(e.high):
        cls = "pos" if e.low > 0 else "neg" if e.high < 0 else ""
        return f"{v} [{_f(scale * e.low, fmt)}, {_f(scale * e.high, fmt)}]", cls
    return v, cls


def _ends(row, base):
    if not row.n_games:
        return ""
    own = row.tally.counts.sum(axis=(0, 1))
    seen = base.tally.counts.sum(axis=(0, 1))
    values = [_value(row, base, f"end_{e}") for e in END_REASONS]
    # Each share is the base's plus the paired shift, clipped at 0 where a small
    # variant's shift exceeds the base's rate; rescaled so that the shares add up to 1.
    total = sum(v for v in values if math.isfinite(v))
    parts = []
    for e, value in zip(END_REASONS, values):
        if own[END_NAMES.index(e)] or seen[END_NAMES.index(e)]:
            parts.append(f"{_END_LABELS[e]} {100 * value / (total or 1.0):.1f}%")
    return ", ".join(parts)


def _games(row):
    s = f"{row.n_games:,}"
    return s if row.status in ("base", "converged") else f"{s} ({row.status})"


def group_header(g: GroupResult) -> str:
    p, c = g.pairing, g.counts()
    base = g.base_row
    parts = [f"{c['converged']} reached ±{100 * p.target:.2f} pp on the first-player shift"]
    if c["capped"]:
        parts.append(f"{c['capped']} stopped at the cap of {p.max_games:,} games")
    if c["unfinished"]:
        parts.append(f"{c['unfinished']} unfinished")
    return (f"Base {g.base}: {base.n_games:,} games, {len(g.variants)} variants "
            f"({'; '.join(parts)}); {p.policy} plays both seats; seed "
            f"{base.seed}, chunks of {p.chunk_size:,} games, "
            f"{g.base_row.confidence:.0%} intervals.")


def _value(row, base, metric):
    """The base's value (all its games) plus the variant's paired shift: the variant's
    value, consistent with the shift column and tighter than its own games' figure."""
    value = base.estimate(metric).value
    if row.is_base:
        return value
    value += row.shift(metric).value
    if metric in ("moves", "turns") or not math.isfinite(value):
        return value
    return min(1.0, max(0.0, value))    # a rate the variant removes can dip below 0


HEADERS = ("variant", "first wins", "shift (pp)", "draws (shift pp)", "moves",
           "shift (moves)", "games end by", "games")


def group_cells(g: GroupResult) -> list[list[str | tuple[str, str]]]:
    """One list of cells per row of a group's table (HEADERS); a shift is a pair
    (text, 'pos' / 'neg' / '') marking an interval that excludes 0."""
    base = g.base_row
    out = []
    for row in g.rows:
        first, draws, moves = (_value(row, base, m) for m in ("first", "draw", "moves"))
        draw_text = _pct(draws)
        if not row.is_base and math.isfinite(row.shift("draw").value):
            draw_text += f" ({_f(100 * row.shift('draw').value, '+.2f')})"
        none = ("", "")
        out.append([row.label, _pct(first),
                    none if row.is_base else _shift(row.shift("first"), 100, 2),
                    draw_text, _f(moves, ".1f"),
                    none if row.is_base else _shift(row.shift("moves"), 1, 2),
                    _ends(row, base), _games(row)])
    return out


def group_markdown(g: GroupResult) -> list[str]:
    """The lines of one group's table (the base in bold, and the value of a shift whose
    interval excludes 0)."""
    lines = ["| " + " | ".join(HEADERS) + " |", "|---|---:|---:|---:|---:|---:|---|---:|"]
    for i, cells in enumerate(group_cells(g)):
        texts = []
        for c in cells:
            if isinstance(c, tuple):
                text, cls = c
                if cls:
                    value, _, rest = text.partition(" ")
                    text = f"**{value}** {rest}"
                c = text
            texts.append(c)
        if i == 0:
            texts[0] = f"**{texts[0]}**"
        lines.append("| " + " | ".join(texts) + " |")
    return lines


def _key(confidence):
    return (f"first wins: the first player's win rate; shift: variant minus base on the "
            f"same games (pp: percentage points; moves: mean moves per game), with its "
            f"{confidence:.0%} interval (Newcombe paired for rates, paired mean difference "
            f"for lengths), in bold when the interval excludes 0.  A variant's rates and "
            f"lengths are the base's (all its games) plus the variant's shift; its own "
            f"games' figures are in the JSON and CSV forms.")


def atlas_html(result: AtlasResult) -> str:
    """The tables as an HTML fragment (the style of `cuttle.report`), for notebooks."""
    from ..report.tables import head_html, notes_html, row, wrap
    parts = []
    for g in result.groups:
        th = "".join(f"<th>{escape(h)}</th>" for h in HEADERS)
        rows = [row(cells, "best" if i == 0 else "")
                for i, cells in enumerate(group_cells(g))]
        parts.append(head_html([g.title, group_header(g)]) +
                     f"<table><thead><tr>{th}</tr></thead><tbody>{''.join(rows)}"
                     f"</tbody></table>")
    return wrap("".join(parts) + notes_html([_key(result.confidence)]))


def atlas_markdown(result: AtlasResult, command: str | None = None) -> str:
    """Every group's table, with a header line each and a key at the end."""
    lines = []
    if command:
        lines += [f"Command: `{command}`", ""]
    for g in result.groups:
        lines += [f"### {g.title}", "", group_header(g), ""] + group_markdown(g) + [""]
    lines.append(_key(result.confidence))
    return "\n".join(lines)


def _est(e):
    return e.as_dict()


def atlas_dict(result: AtlasResult) -> dict[str, Any]:
    """The JSON form of an atlas: its configuration, and per group and rule set the
    status, games, estimates (own games) and shifts (against the base) of every metric."""
    groups = []
    for g in result.groups:
        rows = []
        for r in g.rows:
            rows.append({
                "label": r.label, "base": r.is_base,
                "rules": r.rules.to_json(),
                "changes": None if r.is_base else {
                    k: r.rules.to_json()["changed"].get(k) for k in r.variant.changes},
                "presets": [] if r.is_base else list(r.variant.presets),
                "status": r.status, "games": r.n_games, "chunks": r.chunks,
                "estimates": {m: _est(r.estimate(m)) for m in METRICS},
                "shifts": None if r.is_base else {m: _est(r.shift(m)) for m in METRICS},
                "first_shift_half_width": None if r.is_base else _finite(r.half_width),
            })
        groups.append({"base": g.base, "policy": g.policy, "pairing": g.pairing.as_dict(),
                       "complete": g.complete, "rows": rows})
    return {"atlas": result.config.as_dict(), "complete": result.complete,
            "games": result.n_games, "played_records": result.played_records,
            "elapsed_seconds": result.elapsed, "groups": groups,
            "interval_methods": {"rates": "wilson",
                                 "rate shifts": "newcombe paired (first, second, draw); "
                                                "newcombe independent (end reasons)",
                                 "length shifts": "normal, paired differences"}}


def _finite(x):
    return x if x is not None and math.isfinite(x) else None


def csv_rows(result: AtlasResult) -> Iterator[list[object]]:
    """One row per group, rule set and metric (CSV_COLUMNS)."""
    for g in result.groups:
        for r in g.rows:
            for m in METRICS:
                e = r.estimate(m)
                s = r.shift(m)
                yield [g.base, g.policy, r.label, str(r.rules), r.status, r.n_games, m,
                       *(csv_num(x) for x in e),
                       *(("", "", "") if r.is_base else (csv_num(x) for x in s))]


def write_atlas_csv(result: AtlasResult, path_or_file: str | PathLike[str] | TextIO) -> None:
    """Write `csv_rows` under CSV_COLUMNS to a path or an open file."""
    write_csv(path_or_file, CSV_COLUMNS, csv_rows(result))
