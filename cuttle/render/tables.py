"""The tables of results, in no format yet: what each table shows, read from the
catalogue of statistics (`cuttle.figures`).  The text, markdown and HTML renderers lay
these `Table`s out, so every format shows the same rows, titles and notes.  The balance
designer's tables, built of the same pieces, are `cuttle.render.balance_tables`.

A `Table` has title lines, columns (a header, an alignment and a width rule for text),
rows of `Cell`s (a text and a class: "label", "sub" for an indented label, "iv" for an
interval, "pos"/"neg" for a difference whose interval excludes zero), group headings
(a str row) and blank separators (None), and note lines.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, NamedTuple

from ..figures import (ANALYSIS, DIFFERENCE, END_REASONS, ENDS, GAMES, MATCHES, MEANS, SCORES,
                       SUMMARY, Figure)
from ..formatting import (elo, finite, fixed, interval, level_pct, pct, quantity, share,
                          sign_class, value)
from ..simulation.compare import SHARED
from ..simulation.names import MATCH_FORMATS, entries, full_information_note

if TYPE_CHECKING:
    from collections.abc import Iterable

    from ..analysis import Analysis, SearchAnalysis
    from ..simulation.compare import ComparisonResult
    from ..simulation.results import SimulationResult
    from ..simulation.summary import Summary
    from ..stats import Estimate
    from ..variants.interactions import Interaction
    from ..variants.results import AtlasResult, AtlasRow, GroupResult

__all__ = ["ATLAS_COLUMNS", "Cell", "Column", "INTERACTION_COLUMNS", "METHODS_NOTE",
           "SCORES_NOTE", "Table",
           "analysis_table", "atlas_header", "atlas_key", "atlas_rows", "atlas_tables",
           "comparison_notes", "comparison_table", "comparison_title",
           "deal_notes", "difference_method", "extremes_notes", "figures_table",
           "group_interactions_table",
           "interaction_rows", "interactions_note", "interactions_table", "same_deals",
           "search_analysis_table", "seating", "summary_sections", "summary_table", "summary_title", "timing",
           "variant_value"]


class Cell(NamedTuple):
    """A cell: its text, its class, and its text where there is room (HTML), if other."""

    text: str
    cls: str = ""
    wide: str | None = None


# A clear shift (its interval excludes 0) is a cell of a class in CLEAR (formatting's
# sign_class), and how a note names its mark: the markdown and HTML forms set its value
# in bold; plain text, which has no bold, puts TEXT_MARK after it.
CLEAR = ("pos", "neg")
IN_BOLD = "in bold"
TEXT_MARK = "*"

@dataclass(frozen=True)
class Column:
    """A column: its header and alignment ("<" or ">"); in text, `width` is its
    minimum width (``fit``: as wide as its widest cell plus `pad`; else every cell is
    padded to `width` on its own) after a `gap` of spaces."""

    header: str
    align: str = ">"
    width: int = 0
    fit: bool = False
    pad: int = 0
    gap: str = ""


@dataclass
class Table:
    """A table: `title` lines, `columns`, `rows`, `notes` lines; `spaced`: a blank
    line after the title and before the notes (in text); `row_classes`: a class per
    row index (the HTML "best" row)."""

    title: list[str]
    columns: list[Column]
    rows: list              # per row: a list of Cells, a group heading (str) or None
    notes: list[str] = field(default_factory=list)
    spaced: bool = True
    row_classes: dict[int, str] = field(default_factory=dict)


def _estimate_cells(f: Figure, e: Estimate, digits: int = 2) -> list[Cell]:
    """The value and the interval of an estimate; a difference is marked pos/neg."""
    cls = sign_class(e) if f.kind == DIFFERENCE else ""
    return [Cell(value(e, f.format, digits), cls), Cell(interval(e, f.format, digits), "iv")]


def _count(f: Figure, source) -> str:
    kn = f.count(source)
    return "" if kn is None else f"{kn[0]:,}/{kn[1]:,}"


# -- a simulation's summary --------------------------------------------------------------

METHODS_NOTE = ("rates: Wilson intervals; advantage: first minus second mover, Newcombe "
                "paired interval; means: normal intervals")
SCORES_NOTE = ("scores: wins plus half the draws per game, normal intervals with a "
               "pseudo-game of 0 and one of 1 (the first player's score is what cuttle "
               "balance measures); Elo: 400 log10(score / (1 - score)) of A's "
               "score, its interval's ends alike")


def seating(result: SimulationResult) -> str:
    """Who moves first in a result's games (or matches), for the titles."""
    if result.match is not None:
        return ("the first player alternates; A starts even-numbered matches"
                if result.swap_seats else "the first player alternates; A starts every match")
    return ("seats alternate (A moves first in even-numbered games)" if result.swap_seats
            else "A always moves first")


def timing(s: Summary) -> str:
    """The run's wall time and speed in a summary's title, "" if untimed.  A rule set
    of a comparison was timed with the others (`elapsed_rule_sets`): the time is said
    as theirs, with their speed, never as this rule set's."""
    r = s.result
    if not r.elapsed:
        return ""
    k, seconds = r.elapsed_rule_sets, max(r.elapsed, 1e-9)
    if k == 1:
        return f" ({r.elapsed:.2f} s, {s.n / seconds:,.0f} games/s)"
    them = entries(r.elapsed_compared)
    if r.match is not None:         # (each entry's matches played their own games)
        return f" ({r.elapsed:.2f} s for the {k} {them}' games)"
    return (f" ({r.elapsed:.2f} s for the {k} {them}' {quantity(k * s.n, 'game')}, "
            f"{k * s.n / seconds:,.0f} games/s)")


def summary_title(s: Summary) -> list[str]:
    """The lines above a summary's table: the run, its rules, its players."""
    r = s.result
    if r.match is not None:
        head = (f"cuttle simulation: {quantity(s.n_matches, 'match')}, "
                f"{MATCH_FORMATS[r.match].description}, {quantity(s.n, 'game')}")
    else:
        head = f"cuttle simulation: {quantity(s.n, 'game')}"
    head += f", seed {r.seed}" + timing(s)
    note = full_information_note(r.players)
    return [head, f"rules: {r.rules}",
            f"players: A = {r.players[0]}, B = {r.players[1]}; {seating(r)}"] + \
        ([note] if note else [])


def summary_sections(s: Summary) -> list[str]:
    """The sections a summary's table shows, in order."""
    return ([MATCHES] if s.n_matches is not None else []) + [GAMES, SCORES, MEANS]


def figures_table(title: list[str], blocks: Iterable[Iterable[Figure]], source: Any,
                  confidence: float, notes: Iterable[str] = (),
                  players: Iterable[str] = ("", "")) -> Table:
    """A table of figures of one result (`source`, what their `data` reads): each with
    its count, estimate and interval, in blocks separated by a blank line.  The table of
    a simulation's summary, and of any new kind of result described by figures.  A rate
    of no games at all (A moving second when A always moves first) has no row: it
    would read "0/0 n/a [0.00%, 100.00%]"; the JSON keeps its key."""
    players = tuple(players)
    rows: list = []
    for block in blocks:
        block_rows = []
        for f in block:
            kn = f.count(source)
            if kn is not None and kn[1] == 0:
                continue
            label = Cell(f.text(players), "sub" if f.sub else "label")
            block_rows.append([label, Cell(_count(f, source))]
                              + _estimate_cells(f, f.estimate(source, confidence)))
        if rows and block_rows:
            rows.append(None)
        rows += block_rows
    columns = [Column("", "<", fit=True, pad=2), Column("count", ">", 5, fit=True, pad=2),
               Column("estimate", ">", fit=True, pad=2),
               Column(f"{level_pct(confidence)} interval", "<", gap="   ")]
    return Table(title, columns, rows, list(notes))


SEAT_ELO = "seat advantage of A's seat, in Elo"
SEAT_ELO_NOTE = ("seat advantage: the same player in both seats, A always moving first, "
                 "so A's Elo over B is the first seat's edge, not a difference of "
                 "strength")


def one_player_fixed_seats(s: Summary) -> bool:
    """Whether A and B are the same player and never swap seats: A's score and Elo over
    B then measure A's seat, not A."""
    r = s.result
    return not r.swap_seats and str(r.players[0]) == str(r.players[1])


def summary_table(s: Summary) -> Table:
    """A simulation's summary: each figure with its count, estimate and interval (the
    Elo line named the seat's advantage when one player holds both fixed seats: "Elo of
    A over B +4" was read as a strength)."""
    seats = one_player_fixed_seats(s)
    blocks = [[replace(f, label=SEAT_ELO) if seats and f.name == "elo_difference" else f
               for f in SUMMARY.values() if f.section == section]
              for section in summary_sections(s)]
    ends = [f"{f.label} {share(f.estimate(s).value)}" for f in SUMMARY.values()
            if f.section == ENDS and f.count(s)[0]]
    return figures_table(summary_title(s), blocks, s, s.confidence,
                         [f"games ended by: {', '.join(ends) or 'n/a'}", METHODS_NOTE,
                          SCORES_NOTE] + ([SEAT_ELO_NOTE] if seats else []) +
                         extremes_notes(s), s.result.players)


def extremes_notes(s: Summary) -> list[str]:
    """What the numbers of a summary's table cannot say themselves, in words: an Elo
    difference of -inf or +inf (a score of 0% or 100%: no finite value, only the
    interval's other end), and the figures without an interval from one game."""
    notes = []
    f = SUMMARY["elo_difference"]
    e, n = f.estimate(s, s.confidence), f.units(s)
    a = f"A ({s.result.players[0]})"
    if e.value == float("-inf"):
        end = f", at most {elo(e.high)} by its {level_pct(s.confidence)} interval" \
            if finite(e.high) else ""
        lost = "lost the one game" if n == 1 else f"won none of {n:,} games and drew none"
        notes.append(f"Elo -inf: {a} {lost} (a score of 0%), so the Elo difference is "
                     f"unbounded below{end}")
    elif e.value == float("inf"):
        end = f", at least {elo(e.low)} by its {level_pct(s.confidence)} interval" \
            if finite(e.low) else ""
        notes.append(f"Elo +inf: {a} won {'the one game' if n == 1 else f'all {n:,} games'} "
                     f"(a score of 100%), so the Elo difference is unbounded above{end}")
    if n == 1:
        notes.append("one game: the scores, the Elo and the means have no interval (their "
                     "normal intervals need at least two games)")
    return notes


# -- a comparison --------------------------------------------------------------------------

def same_deals(c: ComparisonResult) -> str:
    """What a comparison's rule sets share: the same deals, the same shuffles where some
    cut them at other hand sizes (deal=), or only the seed and the game indices where
    some shuffle another number of cards (the joker)."""
    return SHARED[c.deals]


def deal_notes(c: ComparisonResult) -> list[str]:
    """The lines that say which rule sets share no deal with the baseline, and which
    cut its shuffles elsewhere (none when all deal alike)."""
    notes = []
    if c.other_deals:
        which = ", ".join(f"[{i + 1}]" for i in c.other_deals)
        n, base = c.rules[c.other_deals[0]].n_cards, c.rules[0].n_cards
        joker = "joker" if n > base else "no joker"
        notes.append(f"note: {which} deal{'' if len(c.other_deals) > 1 else 's'} from {n} "
                     f"cards ({joker}), [1] from {base}: no deal in common, paired by game "
                     f"index only")
    if c.cut_deals:
        which = ", ".join(f"[{i + 1}]" for i in c.cut_deals)
        one = len(c.cut_deals) == 1
        notes.append(f"note: {which} cut{'s' if one else ''} the same shuffles as [1] at "
                     f"other hand sizes: the hands differ, the deck below the cut is alike; "
                     f"partly paired")
    return notes


def comparison_title(c: ComparisonResult) -> list[str]:
    """The lines above a comparison's table: the run, its players, the rule sets, and
    which of them share no deal with the baseline (comparing players: the rules, the
    opponent and the candidates)."""
    if c.compared == "players":
        return players_title(c)
    unit = "match" if c.match else "game"
    head = [f"cuttle comparison: {len(c)} rule sets, {quantity(c.n_games, unit)} each, "
            f"{same_deals(c)} (seed {c.seed})"]
    if c.match:
        head.append(f"matches: {MATCH_FORMATS[c.match].description}")
    head.append(f"players: A = {c.players[0]}, B = {c.players[1]}; {seating(c[0])}")
    note = full_information_note(c.players)
    head += [note] if note else []
    for i, lab in enumerate(c.labels):
        head.append(f"  [{i + 1}] {lab}" + ("  (baseline)" if i == 0 else ""))
    return head + deal_notes(c)


def players_title(c: ComparisonResult) -> list[str]:
    """The lines above a comparison of players: each candidate as player A against the
    same opponent B, on the same deals and seats."""
    unit = "match" if c.match else "game"
    head = [f"cuttle comparison: {len(c)} players against {c.opponent}, "
            f"{quantity(c.n_games, unit)} each, the same deals and seats (seed {c.seed})"]
    if c.match:
        head.append(f"matches: {MATCH_FORMATS[c.match].description}")
    head.append(f"rules: {c.rules[0]}; A = each candidate, B = {c.opponent}; "
                f"{seating(c[0])}")
    notes = (full_information_note(r.players) for r in c.results)
    head += list(dict.fromkeys(n for n in notes if n))
    for i, lab in enumerate(c.labels):
        head.append(f"  [{i + 1}] {lab}" + ("  (baseline)" if i == 0 else ""))
    return head


def comparison_notes(c: ComparisonResult) -> list[str]:
    """The interval methods of a comparison."""
    same = "same deals" if c.deals == "same" else "same game indices"
    if c.match:
        return ["rates: Wilson intervals; differences: Newcombe's paired interval for "
                f"matches ({same}),",
                "for games normal with the match as the unit (a match's games against "
                f"its games on the {same}, a pseudo-game either way); means: normal "
                "intervals; pp = percentage points",
                "first-player advantage: first minus second mover, Newcombe paired; its "
                "differences add those of 2 x first mover wins and of draws (conservative),",
                "a score's (wins plus half the draws; the first player's is what cuttle "
                "balance measures) those of its player's wins and of half the draws"]
    unit = "deal" if c.deals == "same" else "game"
    return ["rates: Wilson intervals; differences: Newcombe's paired interval "
            f"({same}), means: normal intervals; pp = percentage points",
            "differences of means and of the first-player advantage (first minus second "
            f"mover): normal, of the per-{unit} differences with a pseudo-{unit} either way",
            "scores: wins plus half the draws (the first player's is what cuttle balance "
            "measures), normal intervals with a pseudo-game of 0 and one of 1; their "
            f"differences: normal, of the per-{unit} differences with a pseudo-{unit} of +-1"]


def difference_method(c: ComparisonResult) -> str:
    """The intervals of a comparison's differences of rates, in a chart's title."""
    return "paired by match (Newcombe for matches, normal for games)" if c.match else \
        "Newcombe paired"


def comparison_table(c: ComparisonResult) -> Table:
    """A comparison: per metric, each rule set's estimate and its difference to [1]."""
    conf = f"{level_pct(c.confidence)} interval"
    rows: list = []
    for metric in c.metrics:
        f = SUMMARY[metric]
        diff = f.difference_format
        rows.append(c.metric_label(metric))
        for i, lab in enumerate(c.labels):
            cells = [Cell(f"[{i + 1}]", "sub", f"[{i + 1}] {lab}")]
            cells += _estimate_cells(f, c.estimate(metric, i))
            if i:
                d = c.difference(metric, i)
                cells += [Cell(value(d, diff), sign_class(d)), Cell(interval(d, diff), "iv")]
            else:
                cells += [Cell(""), Cell("")]
            rows.append(cells)
    columns = [Column("", "<", fit=True, pad=2), Column("estimate", ">", 10),
               Column(conf, "<", 22, gap="   "), Column("vs [1]", ">", 11),
               Column(conf, "<", gap="   ")]
    return Table(comparison_title(c), columns, rows, comparison_notes(c))


# -- an analysis -----------------------------------------------------------------------------

def analysis_table(a: Analysis) -> Table:
    """An analysis: each move's figures (cuttle.figures.ANALYSIS), best first; the
    interval is the score's, what the moves are ranked by."""
    conf = f"{level_pct(a.confidence)} interval"
    columns = [Column("move", "<", 4, fit=True)]
    for f in ANALYSIS.values():
        columns.append(Column(f.label, ">", max(6, len(f.label)), gap="  "))
        if f.interval and not f.brief:
            columns.append(Column(conf, "<", 14, fit=True, gap="  "))
    columns.append(Column("rollouts", ">", 9, gap="  "))
    rows = []
    for r in a.rows:
        cells = [Cell(str(r.move))]
        for f in ANALYSIS.values():
            e = f.estimate(r, a.confidence)
            cells.append(Cell(value(e, f.format, 1)))
            if f.interval and not f.brief:
                cells.append(Cell(interval(e, f.format, 1), "iv"))   # [a, b], as everywhere
        rows.append(cells + [Cell(f"{r.rollouts:,}")])
    title = (f"Player {a.player} to decide ({a.phase}); {a.policy} playouts from the "
             f"player's view" + ("" if a.seed is None else f", seed {a.seed}"))
    order = ("by the round of successive halving reached (rollouts), then by score"
             if a.adaptive else "by score")
    note = (f"{quantity(a.total_rollouts, 'rollout')} in {a.elapsed:.2f} s "
            f"({a.rollouts_per_second:,.0f}/s); moves sorted {order} = wins plus half the "
            f"draws (the {conf} is the score's)")
    return Table([title], columns, rows, [note], spaced=False, row_classes={0: "best"})


def search_analysis_table(a: SearchAnalysis) -> Table:
    """A search analysis: each move's value by forced searches, its loss against the
    best with the loss's bounds (in pp), its searches and its share of the free
    search's root visits, best first; the notes say what the figures are (search
    estimates, not playout win rates)."""
    columns = [Column("move", "<", 4, fit=True), Column("value", ">", 6, gap="  "),
               Column("loss (pp)", ">", 9, gap="  "), Column("bounds (pp)", "<", 11,
                                                             fit=True, gap="  "),
               Column("searches", ">", 8, gap="  "), Column("visits", ">", 6, gap="  ")]
    rows = []
    for k, r in enumerate(a.rows):
        if not r.searches:
            loss, bounds = "", "not searched yet"
        else:
            loss = "best" if k == 0 else fixed(100 * r.loss, 1)
            bounds = f"{fixed(100 * r.loss_low, 1)} to {fixed(100 * r.loss_high, 1)}"
        rows.append([Cell(str(r.move)), Cell(pct(r.value, 1)), Cell(loss),
                     Cell(bounds, "iv"), Cell(f"{r.searches:,}"),
                     Cell(pct(a.share(r), 1))])
    e = a.engine
    title = (f"Player {a.player} to decide ({a.phase}); {e.name} searches from the "
             f"player's view" + ("" if a.seed is None else f", seed {a.seed}"))
    notes = [f"value: the player's expected score by {e.description} (the search's own "
             f"estimate, its cut-off playouts included: search results, not playout win "
             f"rates); loss: below the best move's value, with bounds of two standard "
             f"errors of the paired searches",
             f"visits: the share of the root visits of one free {e.name} search "
             f"({quantity(a.visits_total, 'iteration')}): the bot would play its most "
             f"visited move, {a.most_visited}; its widening leaves weaker moves unvisited",
             f"{quantity(a.total_searches, 'search')} in {a.elapsed:.2f} s; moves sorted "
             f"by value"]
    return Table([title], columns, rows, notes, spaced=False, row_classes={0: "best"})


# -- the atlas ---------------------------------------------------------------------------------

ATLAS_COLUMNS = [Column("variant", "<"), Column("first wins"), Column("shift (pp)"),
                 Column("draws (shift pp)"), Column("moves"), Column("shift (moves)"),
                 Column("games end by", "<"), Column("games")]


def atlas_header(g: GroupResult) -> str:
    """The line under a group's title: its games, variants, stopping, seed."""
    p, c = g.pairing, g.counts()
    base = g.base_row
    parts = [f"{c['converged']} reached ±{fixed(100 * p.target)} pp on the first-player "
             f"shift"]
    if c["capped"]:
        parts.append(f"{c['capped']} stopped at the cap of {p.max_games:,} games")
    if c["unfinished"]:
        parts.append(f"{c['unfinished']} unfinished")
    return (f"Base {g.base}: {quantity(base.n_games, 'game')}, {len(g.variants)} variants "
            f"({'; '.join(parts)}); {p.policy} plays both seats; seed "
            f"{base.seed}, chunks of {p.chunk_size:,} games, "
            f"{level_pct(base.confidence)} intervals.")


def variant_value(row: AtlasRow, base: AtlasRow, metric: str) -> float:
    """The base's value (all its games) plus the variant's paired shift: the variant's
    value, consistent with the shift column and tighter than its own games' figure."""
    v = base.estimate(metric).value
    if row.is_base:
        return v
    v += row.shift(metric).value
    if SUMMARY[metric].format == "num" or not finite(v):
        return v
    return min(1.0, max(0.0, v))    # a rate the variant removes can dip below 0


def _shift(e: Estimate, fmt: str) -> Cell:
    """'+0.49 [+0.23, +0.75]', marked pos/neg when the interval excludes 0 (pp without
    its unit; a mean's shift signed)."""
    if not finite(e.value):
        return Cell("")
    scale = 100 if fmt == "pct" else 1
    text = fixed(scale * e.value, 2, True)
    if finite(e.low) and finite(e.high):
        text += f" [{fixed(scale * e.low, 2, True)}, {fixed(scale * e.high, 2, True)}]"
    return Cell(text, sign_class(e))


def _ends(row: AtlasRow, base: AtlasRow) -> str:
    if not row.n_games:
        return ""
    values = [variant_value(row, base, f"end_{e}") for e in END_REASONS]
    # Each share is the base's plus the paired shift, clipped at 0 where a small
    # variant's shift exceeds the base's rate; rescaled so that the shares add up to 1.
    total = sum(v for v in values if finite(v))
    parts = []
    for e, v in zip(END_REASONS, values):
        f = SUMMARY[f"end_{e}"]
        if f.count(row.summary())[0] or f.count(base.summary())[0]:
            parts.append(f"{f.label} {share(v / (total or 1.0))}")
    return ", ".join(parts)


def _games(row: AtlasRow) -> str:
    s = f"{row.n_games:,}"
    return s if row.status in ("base", "converged") else f"{s} ({row.status})"


def atlas_rows(g: GroupResult) -> list[list[Cell]]:
    """One list of cells per row of a group's table (ATLAS_COLUMNS)."""
    base = g.base_row
    out = []
    for row in g.rows:
        first, draws, moves = (variant_value(row, base, m)
                               for m in ("first_mover_win_rate", "draw_rate", "mean_moves"))
        draw_text = share(draws)        # (as the end shares: a few draws never read 0%)
        draw_shift = row.shift("draw_rate").value
        if not row.is_base and finite(draw_shift):
            draw_text += f" ({fixed(100 * draw_shift, 2, True)})"
        none = Cell("")
        out.append([Cell(row.label), Cell(pct(first)),
                    none if row.is_base else _shift(row.shift("first_mover_win_rate"), "pct"),
                    Cell(draw_text), Cell(fixed(moves, 1)),
                    none if row.is_base else _shift(row.shift("mean_moves"), "num"),
                    Cell(_ends(row, base)), Cell(_games(row))])
    return out


def atlas_key(confidence: float) -> str:
    """The note under the atlas's tables."""
    return (f"first wins: the first player's win rate; shift: variant minus base on the "
            f"same games (pp: percentage points; moves: mean moves per game), with its "
            f"{level_pct(confidence)} interval (Newcombe paired for rates, paired mean "
            f"difference for lengths, with a pseudo-game either way), {IN_BOLD} when the "
            f"interval excludes 0.  A variant's "
            f"rates and lengths are the base's (all its games) plus the variant's shift; its own "
            f"games' figures are in the JSON and CSV forms.")


def atlas_tables(result: AtlasResult) -> list[Table]:
    """One table per group (the base's row first, marked "best")."""
    return [Table([g.title, atlas_header(g)], ATLAS_COLUMNS, atlas_rows(g),
                  row_classes={0: "best"}) for g in result.groups]


# -- interactions (the atlas's groups, the balance designer) ------------------------------

def _col(header: str, align: str = ">") -> Column:
    """A column of the interactions' and the balance's tables: as wide as its header or
    its widest cell, two spaces after the column before it."""
    return Column(header, align, len(header), fit=True, gap="  ")


def _columns(columns: list[Column]) -> list[Column]:
    """The columns of a table: the first one without its gap."""
    return [replace(columns[0], gap="")] + columns[1:] if columns else columns


INTERACTION_COLUMNS = _columns([_col("changes A + B", "<"), _col("shift A"), _col("shift B"),
                                _col("A + B (sum)"), _col("together"),
                                _col("interaction (pp)"), _col("games")])


def _interaction_games(x: Interaction) -> str:
    s = f"{x.n:,}"
    return s if x.status == "converged" else f"{s} ({x.status})"


def interaction_rows(interactions: Iterable[Interaction]) -> list[list[Cell]]:
    """One row per interaction (INTERACTION_COLUMNS): the shifts of the first player's
    score in pp, the interaction with its interval, marked when it excludes 0."""
    out = []
    for x in interactions:
        shifts = [Cell(fixed(100 * x.estimate(m).value, 2, True))
                  for m in ("shift_a", "shift_b", "sum_of_shifts", "pair_shift")]
        out.append([Cell(x.label), *shifts, _shift(x.estimate("interaction"), "pct"),
                    Cell(_interaction_games(x))])
    return out


def interactions_note(confidence: float) -> str:
    """The note under an interactions table."""
    return (f"interactions: the first player's score (wins plus half the draws) under the "
            f"base, each change alone and both together, on the same games; shifts against "
            f"the base in percentage points; the interaction is the pair's shift minus the "
            f"sum of the two shifts (0: they add up), with its {level_pct(confidence)} "
            f"interval (normal, per-game contrasts and a pseudo-contrast of +1 and of -1), "
            f"{IN_BOLD} when it excludes 0.")


def interactions_table(title: list[str], interactions: Iterable[Interaction],
                       confidence: float) -> Table:
    """The interactions of a group of changes."""
    return Table(title, INTERACTION_COLUMNS, interaction_rows(interactions),
                 [interactions_note(confidence)])


def group_interactions_table(g: GroupResult, confidence: float) -> Table | None:
    """The interactions table of an atlas group (None if it measured none)."""
    if not g.interactions:
        return None
    changes = {x.a.label for x in g.interactions} | {x.b.label for x in g.interactions}
    header = (f"Pairs of the {len(changes)} variants with the clearest shifts of the first "
              f"player's score; each pair played until its interaction is known to "
              f"±{fixed(200 * g.pairing.target)} pp (at most {g.pairing.max_games:,} games). "
              f"Its shifts are of the score (wins plus half the draws, what cuttle balance "
              f"measures), not of the first player's win rate of the table above (a change "
              f"that removes draws moves the score by its win-rate shift plus half its "
              f"draws' shift), and on each pair's own games (a change's shift differs a "
              f"little from pair to pair).")
    return interactions_table([f"{g.title}: interactions", header], g.interactions,
                              confidence)
