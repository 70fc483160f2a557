"""Self-contained HTML pages: one file, inline CSS/SVG/JS, nothing fetched.

`simulation_page(summary)` and `comparison_page(comparison)` are the report pages of
`cuttle simulate/compare --html`, `balance_page(result)` that of `cuttle balance --html`: the tables of the text output (`cuttle.render.html`),
charts of the figures with their intervals (which figure goes in which chart is the
catalogue's `Figure.chart`), and the JSON of the run.  `save_page` writes a page whole or not at
all.
"""

from __future__ import annotations

import datetime
import json
import os
from html import escape
from typing import TYPE_CHECKING

from .._version import __version__
from ..errors import Interrupted
from ..figures import SUMMARY
from ..files import write_text
from ..formatting import level_pct, quantity
from ..render.balance_tables import balance_tables, balance_title
from ..render.html import STYLE, table_html, wrap
from ..render.tables import comparison_table, difference_method, same_deals, summary_table
from ..stats import Estimate
from ..simulation.names import MATCH_FORMATS
from .charts import interval_chart, share_bar

if TYPE_CHECKING:
    from ..balancing.results import BalanceResult
    from ..simulation.compare import ComparisonResult
    from ..simulation.summary import Summary

__all__ = ["balance_charts", "balance_page", "comparison_charts", "comparison_page", "page",
           "save_page", "simulation_page", "summary_charts"]

PAGE_STYLE = """
*{box-sizing:border-box}
body{margin:0;background:#f5f4ef;color:#222;font-family:system-ui,-apple-system,"Segoe UI",
 Roboto,"DejaVu Sans",sans-serif;font-size:14px}
header.top{background:#123c24;color:#f4f1e6;padding:12px 24px}
header.top h1{margin:0;font-size:20px;font-weight:650}
header.top p{margin:4px 0 0 0;color:#a9cbb4;font-size:13px}
main{padding:16px 24px;max-width:1320px}
section.card{background:#fff;border:1px solid #e2e0d8;border-radius:8px;padding:12px 16px;
 margin:0 0 16px 0;overflow-x:auto}
section.card h2{font-size:15px;margin:0 0 8px 0}
svg.chart{display:block;margin:0 0 6px 0;max-width:100%;height:auto}
.charts{display:flex;flex-wrap:wrap;gap:8px 24px}
.columns{display:flex;flex-wrap:wrap;gap:0 16px;align-items:flex-start}
.columns>section.card{flex:0 1 auto;min-width:0;max-width:min(720px,100%)}
@media (max-width:640px){header.top,main{padding-left:10px;padding-right:10px}
 footer{padding:0 10px 16px 10px}}
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


# The charts of a simulation's page, in order: the figures whose `chart` is the key.
SUMMARY_CHARTS = {"match": "Match results ({match})",
                  "rates": "Win and draw rates ({conf} Wilson intervals)",
                  "seats": "Seats: who moved first",
                  "advantage": "First-player advantage (first minus second mover)"}


def summary_charts(s: Summary, width: int = 470) -> list[str]:
    """The charts of a summary: each chart of SUMMARY_CHARTS with its figures, and how
    the games ended."""
    charts = []
    match = MATCH_FORMATS[s.match].description if s.match else ""
    for key, title in SUMMARY_CHARTS.items():
        figures = [SUMMARY[name] for name in s.figures if SUMMARY[name].chart == key]
        if figures:
            rows = [(f.text(s.result.players), f.estimate(s, s.confidence)) for f in figures]
            conf = level_pct(s.confidence)
            charts.append(interval_chart(title.format(match=match, conf=conf),
                                         rows, figures[0].format,
                                         zero=figures[0].format == "pp", width=width,
                                         label_width=190))
    ends = [(f.label, f.estimate(s).value) for f in SUMMARY.values()
            if f.chart == "ends" and s.n and f.count(s)[0]]
    if ends:
        charts.append(share_bar("How the games ended", ends, width=width))
    return charts


def _stopped(interrupted: Interrupted | None) -> str:
    """The subtitle's mark of an interrupted run (an Interrupted, or None)."""
    return "" if interrupted is None else f" · {interrupted.note()}"


def simulation_page(summary: Summary, interrupted: Interrupted | None = None) -> str:
    """The report page of a simulation: its table, charts and JSON (`interrupted`: the
    Interrupted of a run stopped by Ctrl-C, said in the subtitle)."""
    s, r = summary, summary.result
    body = ('<div class="columns">'
            + _section("Results", wrap(table_html(summary_table(s)), False))
            + _section("Charts", "".join(summary_charts(s))) + "</div>"
            + _section("Data", _json_details(Interrupted.mark(s.as_dict(), interrupted))))
    a, b = (f"{lab} ({name})" for lab, name in zip("AB", r.players))
    played = (f"{quantity(s.n_matches, 'match')} ({quantity(s.n, 'game')})"
              if s.n_matches is not None else quantity(s.n, "game"))
    return page("cuttle simulation", body,
                subtitle=f"{played} · {a} against {b} · rules {r.rules.preset} · "
                         f"seed {r.seed}{_stopped(interrupted)}")


def comparison_charts(c: ComparisonResult) -> tuple[str, list[str]]:
    """(the chart of the differences of rates to the baseline, one chart per metric)."""
    charts, diffs = [], []
    for metric in c.metrics:
        f = SUMMARY[metric]
        label = c.metric_label(metric)
        rows = [(f"[{i + 1}] {lab}", c.estimate(metric, i)) for i, lab in enumerate(c.labels)]
        charts.append(interval_chart(label, rows, f.format, width=460, label_width=180))
        if f.format in ("pct", "pp"):   # each rule set under its metric, by its name
            diffs.append((label, None))
            diffs += [(f"[{i + 1}] {lab}", c.difference(metric, i))
                      for i, lab in enumerate(c.labels) if i]
    conf = level_pct(c.confidence)
    diff_chart = interval_chart(f"Differences to [1] {c.labels[0]} in percentage points "
                                f"({conf} {difference_method(c)} intervals)", diffs, "pp",
                                zero=True, width=860, label_width=330) if diffs else ""
    return diff_chart, charts


def comparison_page(comparison: ComparisonResult,
                    interrupted: Interrupted | None = None) -> str:
    """The report page of a comparison: the differences to the baseline, its table, a
    chart per metric, and the JSON (`interrupted` as for simulation_page)."""
    c = comparison
    diff_chart, charts = comparison_charts(c)
    body = (_section("Differences to the baseline", diff_chart)
            + _section("Results", wrap(table_html(comparison_table(c)), False))
            + _section(f"Each {c.entry}", f'<div class="charts">{"".join(charts)}</div>')
            + _section("Data", _json_details(Interrupted.mark(c.as_dict(), interrupted))))
    each = quantity(c.n_games, "match" if c.match else "game")
    return page("cuttle comparison", body,
                subtitle=f"{len(c)} {c.entry}s · {each} each, {same_deals(c)} · "
                         f"A = {c.players[0]}, B = {c.players[1]} · seed {c.seed}"
                         f"{_stopped(interrupted)}")


def _from_even(e: Estimate) -> Estimate:
    """A first-player score as its distance above (or below) an even game."""
    return Estimate(e.value - 0.5, e.low - 0.5, e.high - 0.5)


def balance_charts(r: BalanceResult) -> list[str]:
    """The charts of a balance search: the winners' confirmed first-player scores (and
    the base's) against 50%, and every raced candidate's race score at the race's
    simultaneous level."""
    conf = level_pct(r.confidence)
    rows = []
    base = r.base.get("confirm")
    if base is not None and base.n:
        rows.append((f"{r.config.base} (base)", _from_even(base.estimate("first_score"))))
    rows += [(f"{size}: {w.label}", _from_even(w.estimate("first_score")))
             for size, w in sorted(r.winners.items())]
    charts = []
    if rows:
        what = ("The fairest rule sets" if r.complete else
                "The provisional leaders (the search is unfinished)")
        where = "fresh deals" if r.complete else "their games so far"
        charts.append(interval_chart(f"{what}: first player's score minus 50% "
                                     f"(pp, {conf} intervals, {where})", rows, "pp",
                                     zero=True, width=860, label_width=380))
    raced = [(c.label, _from_even(c.race.estimate("first_score", c.race_level)))
             for c in r.candidates if c.race.n]
    if raced:
        level = level_pct(r.candidates[0].race_level)
        charts.append(interval_chart(f"The race: first player's score minus 50% (pp, "
                                     f"simultaneous {level} intervals)", raced, "pp",
                                     zero=True, width=860, label_width=380))
    return charts


def balance_page(result: BalanceResult, interrupted: Interrupted | None = None) -> str:
    """The report page of a balance search: its charts, tables and JSON (`interrupted`
    as for simulation_page)."""
    r = result
    body = _section("Nearest an even game", "".join(balance_charts(r)))
    for table in balance_tables(r):
        title, *rest = table.title
        table.title = rest
        body += _section(title, wrap(table_html(table), False))
    body += _section("Data", _json_details(Interrupted.mark(r.as_dict(), interrupted)))
    return page("cuttle balance", body,
                subtitle=" · ".join(balance_title(r)) + _stopped(interrupted))


def save_page(path: str | os.PathLike[str], html: str) -> None:
    """Write a page to `path` whole or not at all."""
    write_text(path, html)
