"""Results as HTML tables: the tables of the text output, for notebooks and pages.

Each function takes a result object through its public API only: the numbers come from
``as_dict()``, the title and the closing notes are the lines of ``str()`` (before the
table's first blank line and after its last one), so both outputs say the same.
"""

from __future__ import annotations

import math
from html import escape
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping, Sequence
    from typing import TypeGuard

    from ..analysis import Analysis
    from ..simulation.compare import ComparisonResult
    from ..simulation.summary import Summary

__all__ = ["STYLE", "analysis_table", "comparison_table", "summary_table"]

# Scoped to .cuttle-report so that a notebook's own styles are left alone.
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


# -- formatting (the text output's conventions) ---------------------------------------------

def _finite(x: object) -> TypeGuard[float]:
    return x is not None and isinstance(x, (int, float)) and math.isfinite(x)


def pct(x: float | None) -> str:
    return f"{100 * x:.2f}%" if _finite(x) else "n/a"


def pp(x: float | None) -> str:
    return f"{100 * x:+.2f} pp" if _finite(x) else "n/a"


def num(x: float | None, sign: bool = False) -> str:
    return (f"{x:+.2f}" if sign else f"{x:.2f}") if _finite(x) else "n/a"


def interval(e: Mapping[str, float | None], kind: str) -> str:
    """'[low, high]' of an estimate dict in the format of `kind` (pct, pp, num, num+)."""
    lo, hi = e.get("low"), e.get("high")
    if not (_finite(lo) and _finite(hi)):
        return ""
    if kind == "pct":
        return f"[{pct(lo)}, {pct(hi)}]"
    if kind == "pp":
        return f"[{100 * lo:+.2f}, {100 * hi:+.2f}] pp"
    return f"[{num(lo, kind == 'num+')}, {num(hi, kind == 'num+')}]"


_FORMATS = {"pct": pct, "pp": pp, "num": num, "num+": lambda x: num(x, True)}


def value(e: Mapping[str, float | None], kind: str) -> str:
    """An estimate dict's value in the format of `kind` (pct, pp, num, num+)."""
    return _FORMATS[kind](e.get("value"))


def _sign_class(e):
    """'pos'/'neg' for an interval entirely above/below zero (a clear difference)."""
    lo, hi = e.get("low"), e.get("high")
    if _finite(lo) and lo > 0:
        return "pos"
    if _finite(hi) and hi < 0:
        return "neg"
    return ""


# -- building blocks ------------------------------------------------------------------------

def text_parts(text: object) -> tuple[list[str], list[str]]:
    """(title lines, note lines) of a text table: before its first blank line and after
    its last one."""
    lines = str(text).split("\n")
    blanks = [i for i, line in enumerate(lines) if not line.strip()]
    if not blanks:
        return lines[:1], []
    return lines[:blanks[0]], lines[blanks[-1] + 1:]


def head_html(lines: Sequence[str]) -> str:
    if not lines:
        return ""
    first, rest = lines[0], lines[1:]
    out = [f'<p class="head"><b>{escape(first)}</b>']
    out += [f"<br>{escape(line.strip())}" for line in rest]
    return "".join(out) + "</p>"


def notes_html(lines: Iterable[str]) -> str:
    return "".join(f'<p class="note">{escape(line)}</p>' for line in lines if line.strip())


def row(cells: Iterable[str | tuple[str, str]], cls: str = "") -> str:
    tds = []
    for c in cells:
        if isinstance(c, tuple):          # (text, class)
            tds.append(f'<td class="{c[1]}">{escape(c[0])}</td>')
        else:
            tds.append(f"<td>{escape(str(c))}</td>")
    attr = f' class="{cls}"' if cls else ""
    return f"<tr{attr}>{''.join(tds)}</tr>"


def _table(headers, rows):
    th = "".join(f"<th>{escape(h)}</th>" for h in headers)
    return f"<table><thead><tr>{th}</tr></thead><tbody>{''.join(rows)}</tbody></table>"


def _count(e):
    return f"{e['count']:,}/{e['n']:,}" if "count" in e and "n" in e else ""


def wrap(body: str, style: bool = True) -> str:
    """`body` in the element the styles apply to (with them, for a notebook)."""
    css = f"<style>{STYLE}</style>" if style else ""
    return f'<div class="cuttle-report">{css}{body}</div>'


# -- a simulation -------------------------------------------------------------------------

def summary_table(summary: Summary) -> str:
    """The table of a simulation summary (`result.summary()`) as an HTML fragment."""
    d = summary.as_dict()
    conf = f"{d.get('confidence', 0.95):.0%}"
    names = d["players"]
    a, b = (f"{lab} ({names[lab]})" for lab in ("A", "B"))
    rows = []

    def rate(label, e, cls=""):
        rows.append(row([(label, cls or "label"), _count(e), value(e, "pct"),
                         (interval(e, "pct"), "iv")]))

    m = d.get("match")
    if m:
        def counted(e):         # a match rate of all n matches, with its count
            n = m.get("n_matches")
            if "count" in e or not (n and _finite(e.get("value"))):
                return e
            return {**e, "count": round(e["value"] * n), "n": n}
        rate(f"{a} wins the match", counted(m["win_rate"]["A"]))
        rate(f"{b} wins the match", counted(m["win_rate"]["B"]))
        rate("undecided matches", counted(m["draw_rate"]))
        rate("match starter wins", m["starter_win_rate"])
        e = m["mean_games"]
        rows.append(row(["games per match (mean)", "", value(e, "num"),
                         (interval(e, "num"), "iv")]))
        rows.append(row([""] * 4, "sep"))
    rate(f"{a} wins", d["win_rate"]["A"])
    rate(f"{b} wins", d["win_rate"]["B"])
    rate("draws", d["draw_rate"])
    for lab in ("A", "B"):
        for seat, e in d["win_rate_by_seat"][lab].items():
            rate(f"{lab} wins moving {seat}", e, "sub")
    rate("first mover wins", d["first_mover_win_rate"])
    rate("second mover wins", d["second_mover_win_rate"])
    e = d["first_player_advantage"]
    rows.append(row(["first-player advantage", "", (value(e, "pp"), _sign_class(e)),
                     (interval(e, "pp"), "iv")]))
    rows.append(row([""] * 4, "sep"))
    for label, e in (("moves per game (mean)", d["mean_moves"]),
                     ("turns per game (mean)", d["mean_turns"]),
                     ("final score A (mean)", d["mean_score"]["A"]),
                     ("final score B (mean)", d["mean_score"]["B"])):
        rows.append(row([label, "", value(e, "num"), (interval(e, "num"), "iv")]))
    title, notes = text_parts(summary)
    return (head_html(title) + _table(["", "count", "estimate", f"{conf} interval"], rows)
            + notes_html(notes))


# -- a comparison ---------------------------------------------------------------------------

def metric_label(metric: str, players: Mapping[str, str]) -> str:
    a, b = (f"{lab} ({players[lab]})" for lab in ("A", "B"))
    return {"win_A": f"{a} wins", "win_B": f"{b} wins", "draw": "draws",
            "first_mover": "first mover wins", "moves": "moves per game (mean)",
            "turns": "turns per game (mean)", "match_win_A": f"{a} wins the match",
            "match_win_B": f"{b} wins the match",
            "match_draw": "undecided matches"}.get(metric, metric.replace("_", " "))


def metric_kind(metric: str) -> str:
    """'pct' for a rate, 'num' for a mean."""
    return "num" if metric in ("moves", "turns") else "pct"


def metric_estimate(summary: Mapping[str, Any], metric: str) -> dict[str, Any] | None:
    """A rule set's estimate of `metric` from its summary dict (None if absent)."""
    m = summary.get("match") or {}
    where = {"win_A": ("win_rate", "A"), "win_B": ("win_rate", "B"), "draw": ("draw_rate",),
             "first_mover": ("first_mover_win_rate",), "moves": ("mean_moves",),
             "turns": ("mean_turns",)}
    if metric.startswith("match_"):
        key = {"match_win_A": ("win_rate", "A"), "match_win_B": ("win_rate", "B"),
               "match_draw": ("draw_rate",)}.get(metric)
        node = m
    else:
        key, node = where.get(metric), summary
    if key is None:
        return None
    for k in key:
        node = node.get(k) if isinstance(node, dict) else None
    return node


def comparison_metrics(d: Mapping[str, Any]) -> list[str]:
    """The compared metrics, in the order of the comparison's own table."""
    for rs in d["rule_sets"][1:]:
        if rs.get("difference_vs_baseline"):
            return list(rs["difference_vs_baseline"])
    return []


def comparison_table(comparison: ComparisonResult) -> str:
    """The table of a comparison (`cuttle.compare(...)`) as an HTML fragment."""
    d = comparison.as_dict()
    conf = f"{d.get('confidence', 0.95):.0%}"
    rows = []
    for metric in comparison_metrics(d):
        kind = metric_kind(metric)
        rows.append(row([metric_label(metric, d["players"])] + [""] * 4, "group"))
        for i, rs in enumerate(d["rule_sets"]):
            e = metric_estimate(rs["summary"], metric) or {}
            cells: list[str | tuple[str, str]] = [(f"[{i + 1}] {rs['label']}", "sub"),
                                                  value(e, kind), (interval(e, kind), "iv")]
            diff = (rs.get("difference_vs_baseline") or {}).get(metric)
            if diff is None:
                cells += ["", ""]
            else:
                dk = "pp" if kind == "pct" else "num+"
                cells += [(value(diff, dk), _sign_class(diff)), (interval(diff, dk), "iv")]
            rows.append(row(cells))
    title, notes = text_parts(comparison)
    return (head_html(title)
            + _table(["", "estimate", f"{conf} interval", "vs [1]", f"{conf} interval"], rows)
            + notes_html(notes))


# -- an analysis ----------------------------------------------------------------------------

def analysis_table(analysis: Analysis) -> str:
    """The table of a move analysis (`cuttle.analyse(...)`) as an HTML fragment."""
    d = analysis.as_dict()
    rows = []
    for i, m in enumerate(d["moves"]):
        e = m["win_rate"]
        n = m["rollouts"]
        draws = f"{m['draws'] / n:.1%}" if n else "n/a"
        lo, hi = e.get("low"), e.get("high")
        iv = f"{lo:.1%} - {hi:.1%}" if _finite(lo) and _finite(hi) else ""
        rate = f"{e['value']:.1%}" if _finite(e.get("value")) else "n/a"
        score = f"{m['score']:.1%}" if _finite(m.get("score")) else "n/a"
        rows.append(row([m["move"], score, rate, (iv, "iv"), draws, f"{n:,}"],
                        "best" if i == 0 else ""))
    lines = str(analysis).split("\n")
    title, notes = lines[:1], lines[-1:]
    return (head_html(title)
            + _table(["move", "score", "win rate", "95% interval", "draws", "rollouts"],
                     rows)
            + notes_html(notes))
