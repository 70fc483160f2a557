"""CSV forms (``to_csv``, ``--csv``) of summaries, comparisons and atlases: one row per
figure of the catalogue (`cuttle.figures`), numbers at full precision.

The ``statistic`` column names each figure by the one vocabulary.  The comparison and
atlas files keep their ``metric`` column with the names of before (``win_A``,
``first_mover``, ``moves``, ``first``, ...) for one release, so that a script that
filters on it keeps working; ``statistic`` is added as their last column.  (Per-game
rows are `cuttle.simulation.rows`.)

The file of a partial run (``interrupted=``, the `cuttle.Interrupted` of a Ctrl-C) ends
with one more row, `interrupted_row`: its ``statistic`` is ``interrupted``, so that a
reader picking figures by name skips it, and the columns stay those of a whole run.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Any

from ..balancing.results import BalanceResult
from ..display import renders
from ..figures import ATLAS, BALANCE, FORMER_NAMES, INTERACTION, SUMMARY
from ..files import write_csv
from ..formatting import csv_number
from ..simulation.compare import ComparisonResult
from ..simulation.summary import Summary
from ..variants.results import AtlasResult

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator, Sequence
    from os import PathLike
    from typing import TextIO

    from ..errors import Interrupted
    from ..figures import Figure
    from ..stats import Estimate

__all__ = ["ATLAS_COLUMNS", "BALANCE_COLUMNS", "COMPARISON_COLUMNS", "SUMMARY_COLUMNS",
           "atlas_rows", "balance_rows", "comparison_rows", "figure_rows",
           "interrupted_row", "summary_rows"]

SUMMARY_COLUMNS = ["statistic", "value", "low", "high", "count", "n"]
COMPARISON_COLUMNS = ["rule_set", "label", "metric", "value", "low", "high", "diff",
                      "diff_low", "diff_high", "statistic"]
ATLAS_COLUMNS = ["base", "policy", "variant", "rules", "status", "games", "metric", "value",
                 "low", "high", "shift", "shift_low", "shift_high", "statistic"]
BALANCE_COLUMNS = ["rank", "rules", "changes", "size", "status", "winner", "pareto", "stage",
                   "games", "statistic", "value", "low", "high"]


# The columns naming a row in words: the comparison's, the atlas's, the balance search's.
LABEL_COLUMNS = ("label", "variant", "changes")


def interrupted_row(columns: Sequence[str], interrupted: Interrupted) -> list[object]:
    """The last row of a partial run's CSV, in `columns`: ``interrupted`` as its
    statistic (and metric), the share of the asked-for units that finished as its
    value, those units as its count and n (a summary's: its rates' columns), and the
    words of `Interrupted.note` in the label column, where the format has these
    columns; every other cell empty."""
    done, total = interrupted.done, interrupted.total
    cells = {"statistic": "interrupted", "metric": "interrupted",
             "value": csv_number(done / total) if total else "", "count": done,
             "n": "" if total is None else total,
             **dict.fromkeys(LABEL_COLUMNS, interrupted.note())}
    return [cells.get(c, "") for c in columns]


def _write(path_or_file, columns, rows, interrupted):
    """Write the CSV, with `interrupted_row` last for a partial run."""
    if interrupted is not None:
        rows = itertools.chain(rows, [interrupted_row(columns, interrupted)])
    write_csv(path_or_file, columns, rows)


def _numbers(e: Estimate | None) -> list[str]:
    return ["", "", ""] if e is None else [csv_number(x) for x in e]


def figure_rows(figures: Iterable[Figure], source: Any,
                confidence: float) -> Iterator[list[object]]:
    """One row per figure of one result (`source`): statistic, value, low, high, count
    (rates), n (SUMMARY_COLUMNS)."""
    for f in figures:
        kn = f.count(source)
        yield [f.name, *_numbers(f.estimate(source, confidence)), "" if kn is None else kn[0],
               f.units(source)]


def summary_rows(s: Summary) -> Iterator[list[object]]:
    """A summary's rows (SUMMARY_COLUMNS)."""
    return figure_rows((SUMMARY[name] for name in s.figures), s, s.confidence)


def comparison_rows(c: ComparisonResult) -> Iterator[list[object]]:
    """A comparison's rows: one per rule set (or candidate) and metric."""
    former = FORMER_NAMES["comparison"]
    for metric, i, lab, e, d in c.rows():
        # (a figure compared since the new names has no old one: its name in both)
        yield [i + 1, lab, former.get(metric, metric), *_numbers(e), *_numbers(d), metric]


def atlas_rows(result: AtlasResult) -> Iterator[list[object]]:
    """An atlas's rows: one per group, rule set and figure, then one per group,
    interaction and figure of `cuttle.figures.INTERACTION` (value, low, high: shifts of
    the first player's score; variant: "A + B", rules: the pair's)."""
    former = FORMER_NAMES["atlas"]
    for g in result.groups:
        for r in g.rows:
            for m in ATLAS:
                yield [g.base, g.policy, r.label, str(r.rules), r.status, r.n_games,
                       former[m], *_numbers(r.estimate(m)),
                       *_numbers(None if r.is_base else r.shift(m)), m]
    for g in result.groups:
        for x in g.interactions:
            for m in INTERACTION:
                yield [g.base, g.policy, x.label, str(x.pair), x.status, x.n, m,
                       *_numbers(x.estimate(m)), *_numbers(None), m]


@renders("csv", Summary)
def summary_csv(s: Summary, path_or_file: str | PathLike[str] | TextIO,
                *, interrupted: Interrupted | None = None) -> None:
    """Write a summary's rows (SUMMARY_COLUMNS; `interrupted_row` last for a
    partial run)."""
    _write(path_or_file, SUMMARY_COLUMNS, summary_rows(s), interrupted)


@renders("csv", ComparisonResult)
def comparison_csv(c: ComparisonResult, path_or_file: str | PathLike[str] | TextIO,
                   *, interrupted: Interrupted | None = None) -> None:
    """Write a comparison's rows (COMPARISON_COLUMNS, whose first is "candidate" in a
    comparison of players; `interrupted_row` last for a partial run)."""
    columns = [c.entry.replace(" ", "_"), *COMPARISON_COLUMNS[1:]]
    _write(path_or_file, columns, comparison_rows(c), interrupted)


@renders("csv", AtlasResult)
def atlas_csv(result: AtlasResult, path_or_file: str | PathLike[str] | TextIO,
              *, interrupted: Interrupted | None = None) -> None:
    """Write an atlas's rows (ATLAS_COLUMNS; `interrupted_row` last for a
    partial run)."""
    _write(path_or_file, ATLAS_COLUMNS, atlas_rows(result), interrupted)


def balance_rows(r: BalanceResult) -> Iterator[list[object]]:
    """A balance search's rows: one per candidate (best first) and figure of
    `cuttle.figures.BALANCE`, from the games its figures come from (`stage`)."""
    for rank, c in enumerate(r.candidates, 1):
        for f in BALANCE.values():
            e = c.estimate(f.name, r.confidence)
            yield [rank, str(c.rules), c.label, c.size, c.status, c.winner, c.pareto,
                   c.stage, c.measure.n, f.name, *_numbers(e)]


@renders("csv", BalanceResult)
def balance_csv(r: BalanceResult, path_or_file: str | PathLike[str] | TextIO,
                *, interrupted: Interrupted | None = None) -> None:
    """Write a balance search's rows (BALANCE_COLUMNS; `interrupted_row` last for a
    partial run)."""
    _write(path_or_file, BALANCE_COLUMNS, balance_rows(r), interrupted)
