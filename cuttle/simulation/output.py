"""Output of simulations: text tables, JSON dicts and CSV (one CSV writer for all)."""

from __future__ import annotations

import csv
import math
import os
from typing import TYPE_CHECKING, Any

import numpy as np

from .._core import END_NAMES
from ..files import OutputFile
from .formats import MATCH_FORMATS, PLAYER_LABELS, SEATS

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator, Mapping, Sequence
    from typing import TextIO

    from ..stats import Estimate
    from .compare import ComparisonResult
    from .results import SimulationResult
    from .summary import Summary

__all__ = ["CsvFile", "comparison_dict", "comparison_rows", "comparison_text", "game_columns",
           "game_rows", "seating", "summary_dict", "summary_text", "write_csv"]


# ---------------------------------------------------------------------------------------
# Files

class CsvFile:
    """The one CSV writer: a header row, then rows as they come.  On a path the file is
    opened at once (so a bad path fails before any work) as a `cuttle.files.OutputFile`:
    `close()` gives it its name, `close(ok=False)` drops a file that could not be
    completed."""

    def __init__(self, path_or_file: str | os.PathLike[str] | TextIO, header: Sequence[str]):
        self.out = None
        if isinstance(path_or_file, (str, os.PathLike)):
            self.out = OutputFile(path_or_file)
            self.f: TextIO = self.out.f
        else:
            self.f = path_or_file
        self.w = csv.writer(self.f, lineterminator="\n")
        self.w.writerow(header)

    def rows(self, rows: Iterable[Sequence[object]]) -> None:
        """Write rows."""
        try:
            self.w.writerows(rows)
        except OSError as e:
            raise e if self.out is None else self.out.named(e) from None

    def close(self, ok: bool = True) -> None:
        """Finish the file (ok) or remove it; later calls do nothing."""
        if self.w is None:
            return
        self.w = None
        if self.out is None:
            self.f.flush()
            return
        self.out.close(ok)


def write_csv(path_or_file: str | os.PathLike[str] | TextIO, header: Sequence[str],
              rows: Iterable[Sequence[object]]) -> None:
    """A whole CSV file: the header, then `rows` (an iterable of sequences)."""
    f = CsvFile(path_or_file, header)
    ok = False
    try:
        f.rows(rows)
        ok = True
    finally:
        f.close(ok)


def csv_num(x: float | None) -> str:
    return "" if x is None or not math.isfinite(x) else repr(float(x))


def game_columns(match: bool) -> list[str]:
    """The column names of per-game CSV rows."""
    return (["game"] + (["match"] if match else []) +
            ["winner", "first", "moves", "turns", "score_a", "score_b", "end"])


_LABELS = np.array(["draw", "A", "B"])
_ENDS = np.array(END_NAMES)


def game_rows(arrays: Mapping[str, np.ndarray] | SimulationResult, game_index: np.ndarray,
              slots: int | None = None, step: int = 100_000) -> Iterator[tuple[Any, ...]]:
    """CSV rows of per-game arrays (attributes or keys winner, first, ...), in blocks."""
    get = arrays.get if isinstance(arrays, dict) else lambda k: getattr(arrays, k)
    winner, first, moves, turns, scores, end = (get(k) for k in
                                                ("winner", "first", "moves", "turns",
                                                 "scores", "end"))
    for lo in range(0, len(winner), step):
        hi = min(len(winner), lo + step)
        cols = [game_index[lo:hi].tolist()]
        if slots is not None:
            cols.append((game_index[lo:hi] // slots).tolist())
        cols += [_LABELS[winner[lo:hi] + 1].tolist(), _LABELS[first[lo:hi] + 1].tolist(),
                 moves[lo:hi].tolist(), turns[lo:hi].tolist(), scores[lo:hi, 0].tolist(),
                 scores[lo:hi, 1].tolist(), _ENDS[end[lo:hi]].tolist()]
        yield from zip(*cols)


# ---------------------------------------------------------------------------------------
# Number formats

def pct(x: float | None) -> str:
    return "n/a" if x is None or not math.isfinite(x) else f"{100 * x:.2f}%"


def interval_pct(e: Estimate) -> str:
    if not (math.isfinite(e.low) and math.isfinite(e.high)):
        return ""
    return f"[{100 * e.low:.2f}%, {100 * e.high:.2f}%]"


def pp(x: float | None, sign: bool = True) -> str:
    if x is None or not math.isfinite(x):
        return "n/a"
    return f"{100 * x:+.2f} pp" if sign else f"{100 * x:.2f} pp"


def interval_pp(e: Estimate) -> str:
    if not (math.isfinite(e.low) and math.isfinite(e.high)):
        return ""
    return f"[{100 * e.low:+.2f}, {100 * e.high:+.2f}] pp"


def num(x: float | None, digits: int = 2, sign: bool = False) -> str:
    if x is None or not math.isfinite(x):
        return "n/a"
    return f"{x:+.{digits}f}" if sign else f"{x:.{digits}f}"


def interval_num(e: Estimate, digits: int = 2, sign: bool = False) -> str:
    if not (math.isfinite(e.low) and math.isfinite(e.high)):
        return ""
    return f"[{num(e.low, digits, sign)}, {num(e.high, digits, sign)}]"


def est_dict(e: Estimate, count: int | None = None,
             n: int | None = None) -> dict[str, float | int | None]:
    d = e.as_dict()
    if count is not None:
        d["count"] = int(count)
    if n is not None:
        d["n"] = int(n)
    return d


def seating(result: SimulationResult) -> str:
    """Who moves first in a result's games (or matches), for the table headers."""
    if result.match is not None:
        return ("the first player alternates; A starts even-numbered matches"
                if result.swap_seats else "the first player alternates; A starts every match")
    return ("seats alternate (A moves first in even-numbered games)" if result.swap_seats
            else "A always moves first")


# ---------------------------------------------------------------------------------------
# A simulation's summary

def summary_dict(s: Summary) -> dict[str, Any]:
    """A summary as JSON-ready data."""
    r = s.result
    d = {
        "n_games": s.n,
        "seed": r.seed,
        "players": dict(zip(PLAYER_LABELS, r.players)),
        "rules": r.rules.to_json(full=True),
        "swap_seats": r.swap_seats,
        "max_moves": r.max_moves,
        "confidence": s.confidence,
        "interval_methods": {"rates": "wilson", "differences": "newcombe (paired)",
                             "means": "normal"},
        "win_rate": {lab: est_dict(s.win_rate(i), s.wins[i + 1], s.n)
                     for i, lab in enumerate(PLAYER_LABELS)},
        "draw_rate": est_dict(s.draw_rate(), s.draws, s.n),
        "win_rate_by_seat": {
            lab: {seat: est_dict(s.player_seat_win_rate(i, j), s.seat_wins[i][j],
                                 s.seat_games[i][j]) for j, seat in enumerate(SEATS)}
            for i, lab in enumerate(PLAYER_LABELS)},
        "first_mover_win_rate": est_dict(s.seat_win_rate(0), s.first_wins, s.n),
        "second_mover_win_rate": est_dict(s.seat_win_rate(1), s.second_wins, s.n),
        "first_player_advantage": s.first_player_advantage().as_dict(),
        "mean_moves": s.mean_moves().as_dict(),
        "mean_turns": s.mean_turns().as_dict(),
        "mean_score": {lab: s.mean_score(i).as_dict() for i, lab in enumerate(PLAYER_LABELS)},
        "end": {name: {"count": int(c), "rate": (int(c) / s.n if s.n else None)}
                for name, c in zip(END_NAMES, s.end_counts)},
        "elapsed_seconds": r.elapsed,
        "match": None,
    }
    if r.match is not None:
        d["match"] = {
            "format": r.match, "description": MATCH_FORMATS[r.match].description,
            "n_matches": s.n_matches, "max_games": s.slots,
            "win_rate": {lab: est_dict(s.match_win_rate(i)) for i, lab
                         in enumerate(PLAYER_LABELS)},
            "draw_rate": est_dict(s.match_draw_rate()),
            "starter_win_rate": est_dict(s.match_starter_win_rate()),
            "mean_games": s.mean_match_games().as_dict(),
        }
    return d


SUMMARY_COLUMNS = ["statistic", "value", "low", "high", "count", "n"]


def summary_rows(s: Summary) -> list[list[object]]:
    """CSV rows of a summary: statistic, value, low, high, count, n."""
    rows = []

    def add(name, e, k=None, n=None):
        rows.append([name, *(csv_num(x) for x in e), "" if k is None else int(k),
                     "" if n is None else int(n)])

    if s.n_matches is not None:
        for i, lab in enumerate(PLAYER_LABELS):
            add(f"match_win_rate_{lab}", s.match_win_rate(i), s.match_wins[i + 1], s.n_matches)
        add("match_draw_rate", s.match_draw_rate(), s.match_wins[0], s.n_matches)
        add("match_starter_win_rate", s.match_starter_win_rate(), s.match_starter_wins,
            s.n_matches)
        add("mean_match_games", s.mean_match_games(), None, s.n_matches)
    for i, lab in enumerate(PLAYER_LABELS):
        add(f"win_rate_{lab}", s.win_rate(i), s.wins[i + 1], s.n)
    add("draw_rate", s.draw_rate(), s.draws, s.n)
    for i, lab in enumerate(PLAYER_LABELS):
        for j, seat in enumerate(SEATS):
            add(f"win_rate_{lab}_moving_{seat}", s.player_seat_win_rate(i, j),
                s.seat_wins[i][j], s.seat_games[i][j])
    add("first_mover_win_rate", s.seat_win_rate(0), s.first_wins, s.n)
    add("second_mover_win_rate", s.seat_win_rate(1), s.second_wins, s.n)
    add("first_player_advantage", s.first_player_advantage(), None, s.n)
    add("mean_moves", s.mean_moves(), None, s.n)
    add("mean_turns", s.mean_turns(), None, s.n)
    for i, lab in enumerate(PLAYER_LABELS):
        add(f"mean_score_{lab}", s.mean_score(i), None, s.n)
    for name, c in zip(END_NAMES, s.end_counts):
        if name != "none":
            add(f"end_{name}", s.end_rate(name), c, s.n)
    return rows


def summary_text(s: Summary) -> str:
    """A summary's text table."""
    r = s.result
    conf = f"{s.confidence:.0%}"
    a, b = (f"{lab} ({name})" for lab, name in zip(PLAYER_LABELS, r.players))
    if r.match is not None:
        head = [f"cuttle simulation: {s.n_matches:,} matches, "
                f"{MATCH_FORMATS[r.match].description}, {s.n:,} games"]
    else:
        head = [f"cuttle simulation: {s.n:,} games"]
    head[0] += f", seed {r.seed}"
    if r.elapsed:
        head[0] += f" ({r.elapsed:.2f} s, {s.n / max(r.elapsed, 1e-9):,.0f} games/s)"
    head.append(f"rules: {r.rules}")
    head.append(f"players: A = {r.players[0]}, B = {r.players[1]}; {seating(r)}")

    rows = []   # (label, count/n text, value text, interval text)

    def rate(label, e, k=None, n=None):
        cnt = "" if k is None else f"{k:,}/{n:,}"
        rows.append((label, cnt, pct(e.value), interval_pct(e)))

    if r.match is not None:
        for i, lab in enumerate((a, b)):
            rate(f"{lab} wins the match", s.match_win_rate(i), s.match_wins[i + 1],
                 s.n_matches)
        rate("undecided matches", s.match_draw_rate(), s.match_wins[0], s.n_matches)
        rate("match starter wins", s.match_starter_win_rate())
        e = s.mean_match_games()
        rows.append(("games per match (mean)", "", num(e.value), interval_num(e)))
        rows.append(None)
    rate(f"{a} wins", s.win_rate(0), int(s.wins[1]), s.n)
    rate(f"{b} wins", s.win_rate(1), int(s.wins[2]), s.n)
    rate("draws", s.draw_rate(), s.draws, s.n)
    for i, lab in enumerate(PLAYER_LABELS):
        for j, seat in enumerate(SEATS):
            rate(f"  {lab} wins moving {seat}", s.player_seat_win_rate(i, j),
                 s.seat_wins[i][j], s.seat_games[i][j])
    rate("first mover wins", s.seat_win_rate(0), s.first_wins, s.n)
    rate("second mover wins", s.seat_win_rate(1), s.second_wins, s.n)
    e = s.first_player_advantage()
    rows.append(("first-player advantage", "", pp(e.value), interval_pp(e)))
    rows.append(None)
    for label, e in (("moves per game (mean)", s.mean_moves()),
                     ("turns per game (mean)", s.mean_turns()),
                     ("final score A (mean)", s.mean_score(0)),
                     ("final score B (mean)", s.mean_score(1))):
        rows.append((label, "", num(e.value), interval_num(e)))

    w0 = max(len(x[0]) for x in rows if x) + 2
    w1 = max([len(x[1]) for x in rows if x] + [5]) + 2
    w2 = max(len(x[2]) for x in rows if x) + 2
    lines = head + [""]
    lines.append(f"{'':{w0}}{'count':>{w1}}{'estimate':>{w2}}   {conf} interval")
    for x in rows:
        if x is None:
            lines.append("")
        else:
            lines.append(f"{x[0]:{w0}}{x[1]:>{w1}}{x[2]:>{w2}}   {x[3]}".rstrip())
    ends = ", ".join(f"{name} {c / s.n:.2%}" for name, c
                     in zip(END_NAMES, s.end_counts) if name != "none" and c)
    lines.append("")
    lines.append(f"games ended by: {ends or 'n/a'}")
    lines.append("rates: Wilson intervals; advantage: first minus second mover, Newcombe "
                 "paired interval; means: normal intervals")
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------
# A comparison

def comparison_text(c: ComparisonResult) -> str:
    """A comparison's text table."""
    head = [f"cuttle comparison: {len(c)} rule sets, {c.n_games:,} "
            f"{c.unit} each, the same deals (seed {c.seed})"]
    if c.match:
        head.append(f"matches: {MATCH_FORMATS[c.match].description}")
    head.append(f"players: A = {c.players[0]}, B = {c.players[1]}; {seating(c[0])}")
    for i, lab in enumerate(c.labels):
        head.append(f"  [{i + 1}] {lab}" + ("  (baseline)" if i == 0 else ""))
    conf = f"{c.confidence:.0%}"
    w0 = max(len(f"  [{i + 1}]") for i in range(len(c.labels))) + 2
    lines = head + ["", f"{'':{w0}}{'estimate':>10}   {conf + ' interval':22}"
                        f"{'vs [1]':>11}   {conf} interval"]
    for metric in c.metrics():
        lines.append(c.metric_label(metric))
        is_mean = metric in ("moves", "turns")
        for i in range(len(c.labels)):
            e = c.estimate(metric, i)
            if is_mean:
                v, iv = num(e.value), interval_num(e)
            else:
                v, iv = pct(e.value), interval_pct(e)
            line = f"{'  [' + str(i + 1) + ']':{w0}}{v:>10}   {iv:22}"
            if i:
                d = c.difference(metric, i)
                if is_mean:
                    line += f"{num(d.value, 2, True):>11}   {interval_num(d, 2, True)}"
                else:
                    line += f"{pp(d.value):>11}   {interval_pp(d)}"
            lines.append(line.rstrip())
    lines.append("")
    if c.match:
        lines.append("rates: Wilson intervals; differences: Newcombe's paired interval for "
                     "matches (same deals),")
        lines.append("Newcombe's independent interval for games (the games played differ); "
                     "means: normal intervals; pp = percentage points")
    else:
        lines.append("rates: Wilson intervals; differences: Newcombe's paired interval "
                     "(same deals), means: normal intervals; pp = percentage points")
    return "\n".join(lines)


def comparison_dict(c: ComparisonResult) -> dict[str, Any]:
    """A comparison as JSON-ready data."""
    return {
        "seed": c.seed,
        "n": c.n_games,
        "unit": c.unit,
        "match": c.match,
        "players": dict(zip(PLAYER_LABELS, c.players)),
        "confidence": c.confidence,
        "baseline": c.labels[0],
        "rule_sets": [
            {"label": lab, **r.rules.to_json(),
             "summary": r.summary(c.confidence).as_dict(),
             "difference_vs_baseline": (None if i == 0 else
                                        {m: d.as_dict() for m, d
                                         in c.differences(i).items()})}
            for i, (lab, r) in enumerate(zip(c.labels, c.results))],
    }


COMPARISON_COLUMNS = ["rule_set", "label", "metric", "value", "low", "high", "diff",
                      "diff_low", "diff_high"]


def comparison_rows(c: ComparisonResult) -> Iterator[list[object]]:
    """A comparison's CSV rows: one per rule set and metric."""
    for metric, i, lab, e, d in c.rows():
        yield [i + 1, lab, metric, *(csv_num(x) for x in e),
               *((csv_num(x) for x in d) if d is not None else ("", "", ""))]
