"""Self-contained HTML pages: one file, inline CSS/SVG/JS, nothing fetched.

`simulation_page(summary)` and `comparison_page(comparison)` are the report pages of
`cuttle simulate/compare --html`: the tables of the text output, charts of the rates
with their intervals, and the JSON of the run.  `save_page` writes a page whole or not at
all; `output_path` is the command line's check of an output file.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
from html import escape
from typing import TYPE_CHECKING

from .._version import __version__
from ..files import check_output, write_text
from .charts import interval_chart, share_bar
from .tables import (STYLE, comparison_metrics, comparison_table, metric_estimate,
                     metric_kind, metric_label, summary_table, wrap)

if TYPE_CHECKING:
    from ..simulation.compare import ComparisonResult
    from ..simulation.summary import Summary

__all__ = ["comparison_page", "output_path", "page", "save_page", "simulation_page"]

PAGE_STYLE = """
*{box-sizing:border-box}
body{margin:0;background:#f5f4ef;color:#222;font-family:system-ui,-apple-system,"Segoe UI",
 Roboto,"DejaVu Sans",sans-serif;font-size:14px}
header.top{background:#123c24;color:#f4f1e6;padding:12px 24px}
header.top h1{margin:0;font-size:20px;font-weight:650}
header.top p{margin:4px 0 0 0;color:#a9cbb4;font-size:13px}
main{padding:16px 24px;max-width:1320px}
section.card{background:#fff;border:1px solid #e2e0d8;border-radius:8px;padding:12px 16px;
 margin:0 0 16px 0}
section.card h2{font-size:15px;margin:0 0 8px 0}
svg.chart{display:block;margin:0 0 6px 0}
.charts{display:flex;flex-wrap:wrap;gap:8px 24px}
.columns{display:flex;flex-wrap:wrap;gap:0 16px;align-items:flex-start}
.columns>section.card{flex:0 1 auto;max-width:720px}
details pre{font-size:12px;max-height:420px;overflow:auto;background:#f7f7f4;padding:8px}
footer{color:#777;font-size:12px;padding:0 24px 16px 24px}
"""


def page(title: str, body: str, *, subtitle: str = "", style: str = "", script: str = "",
         body_attrs: str = "") -> str:
    """A whole HTML document: inline style and script only (works offline)."""
    made = datetime.datetime.now().isoformat(timespec="seconds")
    return (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
        f"<title>{escape(title)}</title><style>{PAGE_STYLE}{STYLE}{style}</style></head>"
        f"<body{body_attrs}><header class=\"top\"><h1>{escape(title)}</h1>"
        + (f"<p>{escape(subtitle)}</p>" if subtitle else "") + "</header>"
        f"<main>{body}</main><footer>made by cuttle {escape(__version__)} on {made}; "
        f"this page is self-contained and needs no network</footer>"
        + (f"<script>{script}</script>" if script else "") + "</body></html>\n")


def _json_details(d):
    text = json.dumps(d, indent=2)
    return (f"<details><summary>the results as JSON</summary><pre>{escape(text)}</pre>"
            f"</details>")


def _section(heading, content, cls="card"):
    return f'<section class="{cls}"><h2>{escape(heading)}</h2>{content}</section>'


def simulation_page(summary: Summary) -> str:
    """The report page of a simulation: its table, charts and JSON."""
    d = summary.as_dict()
    names = d["players"]
    a, b = (f"{lab} ({names[lab]})" for lab in ("A", "B"))
    rates = [(f"{a} wins", d["win_rate"]["A"]), (f"{b} wins", d["win_rate"]["B"]),
             ("draws", d["draw_rate"])]
    seats = [(f"{lab} wins moving {seat}", e)
             for lab in ("A", "B") for seat, e in d["win_rate_by_seat"][lab].items()]
    seats += [("first mover wins", d["first_mover_win_rate"]),
              ("second mover wins", d["second_mover_win_rate"])]
    conf = f"{d.get('confidence', 0.95):.0%}"
    w = 470
    charts = [interval_chart(f"Win and draw rates ({conf} Wilson intervals)", rates,
                             width=w, label_width=190),
              interval_chart("Seats: who moved first", seats, width=w, label_width=190),
              interval_chart("First-player advantage (first minus second mover)",
                             [("advantage", d["first_player_advantage"])], "pp", zero=True,
                             width=w, label_width=190)]
    m = d.get("match")
    if m:
        charts.insert(0, interval_chart(
            f"Match results ({m.get('description', m.get('format', ''))})",
            [(f"{a} wins the match", m["win_rate"]["A"]),
             (f"{b} wins the match", m["win_rate"]["B"]),
             ("undecided matches", m["draw_rate"])], width=w, label_width=190))
    n = d.get("n_games") or 0
    ends = [(name, c["count"] / n) for name, c in d.get("end", {}).items()
            if name != "none" and n and c.get("count")]
    if ends:
        charts.append(share_bar("How the games ended", ends, width=w))
    body = ('<div class="columns">'
            + _section("Results", wrap(summary_table(summary), False))
            + _section("Charts", "".join(charts)) + "</div>"
            + _section("Data", _json_details(d)))
    rules = d.get("rules", {}).get("preset", "")
    played = f"{m['n_matches']:,} matches ({n:,} games)" if m else f"{n:,} games"
    return page("cuttle simulation", body,
                subtitle=f"{played} · {a} against {b} · rules {rules} · seed {d.get('seed')}")


def comparison_page(comparison: ComparisonResult) -> str:
    """The report page of a comparison: its table, a chart per metric, the differences
    to the baseline, and the JSON."""
    d = comparison.as_dict()
    conf = f"{d.get('confidence', 0.95):.0%}"
    charts, diffs = [], []
    for metric in comparison_metrics(d):
        kind = metric_kind(metric)
        label = metric_label(metric, d["players"])
        rows = [(f"[{i + 1}] {rs['label']}", metric_estimate(rs["summary"], metric) or {})
                for i, rs in enumerate(d["rule_sets"])]
        charts.append(interval_chart(label, rows, kind, width=460, label_width=180))
        if kind == "pct":
            diffs += [(f"{label}: [{i + 1}]", rs["difference_vs_baseline"][metric])
                      for i, rs in enumerate(d["rule_sets"]) if i and
                      (rs.get("difference_vs_baseline") or {}).get(metric)]
    diff_chart = interval_chart(f"Differences to [1] in percentage points ({conf} Newcombe "
                                f"intervals)", diffs, "pp", zero=True, width=860,
                                label_width=330) if diffs else ""
    body = (_section("Differences to the baseline", diff_chart)
            + _section("Results", wrap(comparison_table(comparison), False))
            + _section("Each rule set", f'<div class="charts">{"".join(charts)}</div>')
            + _section("Data", _json_details(d)))
    p = d["players"]
    return page("cuttle comparison", body,
                subtitle=f"{len(d['rule_sets'])} rule sets · {d.get('n', 0):,} "
                         f"{d.get('unit', 'games')} each, the same deals · A = {p['A']}, "
                         f"B = {p['B']} · seed {d.get('seed')}")


def save_page(path: str | os.PathLike[str], html: str) -> None:
    """Write a page to `path` whole or not at all."""
    write_text(path, html)


def output_path(text: str) -> str:
    """An argparse type: the path of a page to write, refused at once (not after a long
    run) when `cuttle.files` could not write it (a folder, no such folder, ...)."""
    try:
        check_output(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None
    return text
