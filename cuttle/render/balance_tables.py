"""The balance designer's tables, in no format yet: its winners, the Pareto front, the
race, the search space, the single changes screened and the interactions measured, in
the order of its report, with the title above them.  They are built of the pieces of
`cuttle.render.tables` (cells, columns, shifts, the interactions' table) and laid out by
the same text, markdown and HTML renderers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..balancing.config import QUICK_CAVEAT
from ..balancing.constraints import ALL_DRAWS, MOSTLY_DRAWS, draws_caveat
from ..balancing.racing import DRAWN
from ..formatting import fixed, interval, level_pct, pct, quantity
from ..rules import FLAG_NAMES
from .tables import IN_BOLD, Cell, Table, _col, _columns, _shift, interactions_table

if TYPE_CHECKING:
    from ..balancing.results import BalanceResult
    from ..stats import Estimate

__all__ = ["balance_candidates_table", "balance_generation_table", "balance_pareto_table",
           "balance_race_note", "balance_singles_table", "balance_tables", "balance_title",
           "balance_winners_table"]


def _score_cells(e: Estimate) -> list[Cell]:
    """A first-player score and its interval, in %."""
    return [Cell(pct(e.value)), Cell(interval(e, "pct"), "iv")]


def balance_title(r: BalanceResult) -> list[str]:
    """The lines above the balance designer's tables: the search and its budget."""
    c = r.config
    limits = []
    if c.max_draws is not None:
        limits.append(f"draws at most {pct(c.max_draws)}")
    if c.moves is not None:
        limits.append(f"mean length {fixed(c.moves[0], 1)} to {fixed(c.moves[1], 1)} moves")
    flags = "every flag" if len(c.flags) == len(FLAG_NAMES) else ", ".join(c.flags)
    head = (f"cuttle balance: {c.base} under {c.policy} self-play, at most {c.k} "
            f"change{'s' if c.k > 1 else ''}, seed {c.seed}")
    lines = [head, f"changes of: {flags}" + (f"; {'; '.join(limits)}" if limits else "")]
    # (three counts a designer adds up: the figures', this run's, the file's)
    done = f"{quantity(r.n_games, 'game')} in these tables"
    if r.interactions:
        done += (" (an interaction's games once, not once for each of its four rule sets: "
                 "the base, each change alone and the two together)")
    if r.played_records:
        played = getattr(r, "played_games", 0)          # (pickled before it was kept)
        done += (f"; this run played {quantity(played, 'game')} (every rule set's) in "
                 f"{r.elapsed:,.0f} s" if played else
                 f"; this run played for {r.elapsed:,.0f} s")
        if getattr(r, "results_file", None):
            done += (f" and saved them to {r.results_file} in "
                     f"{quantity(r.played_records, 'chunk')} (each a rule set's games paired "
                     f"with another's: games paired with several rule sets are saved with "
                     f"each, so the chunks add up to more)")
    if not r.complete:
        done += (" (unfinished: the results file holds part of this search; run the "
                 "command without --report-only to play the rest)"
                 if getattr(r, "read_only", False)      # (pickled before it was kept)
                 else " (unfinished: run the same command again, or call balance() "
                      "again with the same arguments and results file, to continue)"
                 if getattr(r, "results_file", None)
                 else " (unfinished; with no results file, nothing is kept to continue "
                      "from: give one, --results FILE or results=, to keep a run's games)")
    lines.append(done)
    if c.quick:
        lines.append(QUICK_CAVEAT[0].upper() + QUICK_CAVEAT[1:])
    # (else the tables were empty and said nothing of why)
    if limits and not r.winners and r.complete:
        why = ("every raced candidate broke them (in the race or in its confirmation)"
               if r.candidates else
               "the model predicted none to meet them, so none was raced")
        lines.append(f"no rule set with changes meets the constraints "
                     f"({'; '.join(limits)}): {why}")
    drawn = _drawn(r)
    if drawn and not r.winners and r.complete:
        lines.append(f"no rule set with changes won: {quantity(drawn, 'rule set')} of the "
                     f"search decide{'s' if drawn == 1 else ''} no game (every game played a "
                     f"draw, or rules that can only draw), and a rule set that decides no "
                     f"game is not ranked (its 50% is the draws' halves); the search space "
                     f"says what became of the others")
    return lines


def _drawn(r: BalanceResult) -> int:
    """The rule sets with changes that decided no game: not raced, or drawn in the race."""
    return (sum(g.get("all_draws", 0) for g in r.generation.values()) +
            sum(c.status == DRAWN for c in r.candidates))


def _draws_notes(rows) -> list[str]:
    """The notes on the (label, Measure) of `rows` whose draws make a first score say
    little of fairness (`cuttle.balancing.constraints.draws_caveat`): one on those whose
    games were all draws, one on those mostly draws."""
    rows = [(label, m, draws_caveat(m)) for label, m in rows]
    drawn = [label for label, _, caveat in rows if caveat == ALL_DRAWS]
    mostly = []
    for label, m, caveat in rows:
        if caveat == MOSTLY_DRAWS:
            d = m.estimate("draw_rate").value
            mostly.append(f"{label} {pct(d)} (±{fixed(100 * (1 - d) / 2)} pp)")
    notes = []
    if drawn:
        notes.append(f"every game a draw: {', '.join(drawn)}: a first score of 50% without "
                     f"a game decided, which says nothing of fairness (a rule set with "
                     f"changes that decides no game is not ranked)")
    if mostly:
        notes.append(f"mostly draws (the draws, and how far from 50% the first score can "
                     f"lie whatever the players do, (1 - draws) / 2): {', '.join(mostly)}: "
                     f"its nearness to 50% says little of fairness (--max-draws, "
                     f"max_draws=, limits the draws)")
    return notes


def balance_winners_table(r: BalanceResult) -> Table:
    """The fairest rule set of each size: its confirmed figures (fresh deals, at the
    result's confidence) and, with a check policy, its score under that policy."""
    conf = level_pct(r.confidence)
    check = r.config.check
    columns = [_col("changes", ">"), _col("rule set", "<"), _col("first score"),
               _col(f"{conf} interval", "<"), _col("first wins"), _col("draws"),
               _col("moves"), _col("games")]
    if check:
        columns += [_col(f"first score, {check}"), _col(f"{conf} interval", "<"),
                    _col("games")]
    limits = _limits(r)
    provisional = not r.complete
    if limits:
        columns.append(_col("constraints", "<"))
    if provisional:
        columns.append(_col("from", "<"))
    rows = []
    stage = r.base_stage()
    shown = []                  # (label, games) of each row, for the notes on draws
    if stage is not None:
        base = r.base[stage]
        shown.append(("(base)", base))
        rows.append(_winner_cells(0, "(base)", base, r.base.get("check"), check) +
                    ([Cell("")] if limits else []) +
                    ([Cell(_BASE_STAGES[stage])] if provisional else []))
    shown += [(r.winners[size].label, r.winners[size].measure) for size in sorted(r.winners)]
    for size in sorted(r.winners):
        w = r.winners[size]
        rows.append(_winner_cells(size, w.label, w.measure, w.check, check) +
                    ([Cell(w.constraints or "")] if limits else []) +
                    ([Cell(w.stage)] if provisional else []))
    if provisional:
        notes = [f"provisional: the search is unfinished, so these are the race's leaders "
                 f"so far, not its winners; first score: the first player's wins plus "
                 f"half the draws; {conf} normal intervals (rates: Wilson) from the games "
                 f"played so far of the stage in \"from\" (confirmed: the confirmation's "
                 f"fresh deals; raced: the race's games, which chose them, so their "
                 f"estimates lean towards 50%)"]
    else:
        notes = [f"first score: the first player's wins plus half the draws; {conf} "
                 f"normal intervals (rates: Wilson) from games on fresh deals, after the "
                 f"race chose the winners"]
    if limits:
        notes.append(_CONSTRAINTS_NOTE)
    notes += _draws_notes(shown)
    title = "The fairest rule set of each size"
    if provisional:
        title += " (provisional: the search is unfinished)"
    return Table([title], _columns(columns), rows, notes,
                 row_classes={0: "best"} if rows else {})


_BASE_STAGES = {"confirm": "confirmed", "race": "raced", "screen": "screened"}


_CONSTRAINTS_NOTE = (
    "constraints: what the figures' intervals say (a winner's confirmation at 95%, "
    "another candidate's race at its simultaneous level): met, the interval lies within "
    "the constraint (draws at most 0%: no draw at all); undecided, it straddles a limit; "
    "a winner whose confirmation lies outside one is no winner (the next of its size "
    "was confirmed instead), and what lies outside one is not on the Pareto front")


def _limits(r):
    return r.config.max_draws is not None or r.config.moves is not None


def _winner_cells(size, label, m, check_m, check):
    cells = [Cell(str(size)), Cell(label), *_score_cells(m.estimate("first_score")),
             Cell(pct(m.estimate("first_mover_win_rate").value)),
             Cell(pct(m.estimate("draw_rate").value)),
             Cell(fixed(m.estimate("mean_moves").value, 1)), Cell(f"{m.n:,}")]
    if check:
        if check_m is not None and check_m.n:
            cells += [*_score_cells(check_m.estimate("first_score")), Cell(f"{check_m.n:,}")]
        else:
            cells += [Cell(""), Cell(""), Cell("")]
    return cells


def balance_candidates_table(r: BalanceResult) -> Table:
    """Every raced candidate, best first: its prediction, its race figures with the
    race's simultaneous interval, its status."""
    level = level_pct(r.candidates[0].race_level) if r.candidates else ""
    columns = [_col("changes", ">"), _col("rule set", "<"), _col("predicted"),
               _col("race score"), _col(f"{level} interval", "<"), _col("draws"),
               _col("moves"), _col("games"), _col("status", "<")]
    rows = []
    for c in r.candidates:
        m = c.race
        score = m.estimate("first_score", c.race_level)
        lead = ", leader (provisional)" if not r.complete else ", winner"
        status = c.status + (lead if c.winner else "") + (", Pareto" if c.pareto else "")
        if c.constraints not in (None, "met"):
            where = "its confirmation" if c.stage == "confirmed" else "the race"
            status += f", constraints {c.constraints} (in {where})"
        rows.append([Cell(str(c.size)), Cell(c.label),
                     Cell("" if c.prediction is None else pct(c.prediction.value)),
                     *_score_cells(score), Cell(pct(m.estimate("draw_rate").value)),
                     Cell(fixed(m.estimate("mean_moves").value, 1)), Cell(f"{m.n:,}"),
                     Cell(status)])
    return Table(["The race"], _columns(columns), rows, [balance_race_note(r)])


def balance_race_note(r: BalanceResult) -> str:
    """How the race was decided."""
    b = r.config.budget
    if not r.candidates:
        # (no level to state: the Bonferroni count was of candidates never raced)
        return ("race: no candidate was raced (the search space below says what became "
                "of the rule sets)")
    level = level_pct(r.candidates[0].race_level)
    drawn = ("; drawn: every game of its race a draw, so it decides no game (its 50% is "
             "the draws' halves): out of the race, never ranked"
             if any(c.status == DRAWN for c in r.candidates) else "")
    return (f"race: every candidate on the same fresh deals, chunks of {b.chunk_size:,} "
            f"games; intervals at the simultaneous level {level} (Bonferroni over "
            f"{quantity(b.per_size * r.config.k, 'candidate')}, "
            f"{quantity(b.chunks(b.race_games), 'look')} and "
            f"{quantity(r.config.statistics, 'statistic')}); a candidate is eliminated once another "
            f"of its size is surely nearer 50%; it stops once its interval is "
            f"±{fixed(100 * b.race_target)} pp or at {b.race_games:,} games; predicted: "
            f"the model's first score (additive, with measured interactions); Pareto: on "
            f"the front by its reported figures (a winner's confirmation, else these)"
            f"{drawn}")


def balance_generation_table(r: BalanceResult) -> Table:
    """By number of changes: the rule sets of the space and what became of them."""
    # (the column of rule sets that decide no game only when there are some: a search
    # of a base that decides games has none)
    drawn = any(g.get("all_draws") for g in r.generation.values())
    keys = ("space", "not_combined") + (("all_draws",) if drawn else ()) + (
        "infeasible", "dominated", "beyond_cap", "raced")
    names = {"space": "rule sets", "not_combined": "not combined", "all_draws": "all draws",
             "beyond_cap": "beyond cap"}
    columns = [_col("changes", ">")] + [_col(names.get(k, k)) for k in keys]
    rows = [[Cell(str(n)), *(Cell(f"{g[k]:,}") for k in keys)]
            for n, g in sorted(r.generation.items())]
    note = (f"not combined: with a change whose shift is within "
            f"±{fixed(100 * r.config.budget.negligible)} pp (as fair as without it, which "
            f"has fewer changes); dominated: another "
            f"rule set of the same size is fairer under the model and the screening's "
            f"intervals (safe unless an unmeasured interaction exceeds the allowance, "
            f"{fixed(100 * r.allowance)} pp, or a screening interval misses); beyond cap: "
            f"more than {r.config.budget.per_size} could be fairest, the nearest "
            f"predictions were raced (not safe)")
    if drawn:
        note += ("; all draws: decides no game (a change whose screening games were all "
                 "draws, or rules that can only draw), so its 50% says nothing of "
                 "fairness: not raced")
    return Table(["The search space"], _columns(columns), rows, [note])


def balance_pareto_table(r: BalanceResult) -> Table:
    """The Pareto front: no other candidate is nearer 50% with as few changes and games
    as short."""
    limits = _limits(r)
    columns = [_col("changes", ">"), _col("rule set", "<"), _col("first score"),
               _col("moves"), _col("from", "<")]
    if limits:
        columns.append(_col("constraints", "<"))
    rows = [[Cell(str(c.size)), Cell(c.label), Cell(pct(c.estimate("first_score").value)),
             Cell(fixed(c.estimate("mean_moves").value, 1)), Cell(c.stage)] +
            ([Cell(c.constraints or "")] if limits else [])
            for c in r.pareto]
    note = ("no candidate is nearer 50% with no more changes and games no longer "
            "(point estimates of each one's reported figures, from the stage in \"from\": "
            "a winner's confirmation games on fresh deals, the others' race games)")
    if limits:
        note += ("; none that broke a constraint; constraints: as in the first table "
                 "(undecided: its interval straddles a limit)")
    return Table(["The Pareto front: fairness, changes, length"], _columns(columns), rows,
                 [note] + _draws_notes((c.label, c.measure) for c in r.pareto))


def balance_singles_table(r: BalanceResult) -> Table:
    """The single changes screened: each one's shift of the first player's score."""
    conf = level_pct(r.confidence)
    columns = [_col("change", "<"), _col("shift (pp)"), _col("first score"),
               _col("games"), _col("status", "<")]
    base = r.base.get("screen")
    rows = []
    drawn = False

    def status(word, m):
        nonlocal drawn
        if draws_caveat(m) != ALL_DRAWS:
            return word
        drawn = True
        return f"{word}, all draws"
    if base is not None and base.n:
        rows.append([Cell(f"{r.config.base} (base)"), Cell(""),
                     Cell(pct(base.estimate("first_score").value)), Cell(f"{base.n:,}"),
                     Cell(status("base", base))])
    for s in sorted(r.singles, key=lambda s: -abs(s.shift.value) if s.measure.n else 0):
        score = s.first_score(base)
        rows.append([Cell(s.variant.label), _shift(s.shift, "pct"),
                     Cell(pct(score) if score == score else ""),
                     Cell(f"{s.measure.n:,}"), Cell(status(s.status, s.measure))])
    notes = [f"shift: the first player's score minus the base's on the same games, "
             f"{conf} interval (paired), {IN_BOLD} when it excludes 0; first score: the "
             f"base's (all its games) plus the shift, as the atlas gives a variant's (a "
             f"change's own games' score, of fewer games when it stopped first, is in the "
             f"JSON: its singles' first_score)"]
    if drawn:
        notes.append("all draws: every game a draw, so its first score is 50% without a "
                     "game decided")
    return Table(["Single changes (screening)"], _columns(columns), rows, notes,
                 row_classes={0: "best"} if rows else {})


# What an unfinished search has not reached yet, said in place of an empty table (its
# header and a note pointing at "the search space below", empty too, said nothing).
_NOT_YET = {
    "winners": "nothing measured here yet: the search is unfinished and has not finished "
               "a chunk of the base's games (its first stage screens the base and each "
               "single change on the same deals)",
    "pareto": "nothing measured here yet: the search is unfinished and has raced no "
              "candidate (the front is drawn from the race's)",
    "race": "nothing measured here yet: the search is unfinished and has raced no "
            "candidate",
    "space": "nothing here yet: the search is unfinished and has not finished screening "
             "the single changes, from which the rule sets of the space are predicted",
}


def _or_not_yet(r: BalanceResult, table: Table, stage: str, reached: bool) -> Table:
    """`table`, or for an unfinished search that has not `reached` its stage, its title
    and a note saying nothing was measured there yet (no columns: no header)."""
    if r.complete or reached:
        return table
    return Table(table.title, [], [], [_NOT_YET[stage]])


def balance_tables(r: BalanceResult) -> list[Table]:
    """The balance designer's tables, in the order of its report."""
    raced = any(c.race.n for c in r.candidates)
    tables = [_or_not_yet(r, balance_winners_table(r), "winners", r.measured),
              _or_not_yet(r, balance_pareto_table(r), "pareto", raced),
              _or_not_yet(r, balance_candidates_table(r), "race", raced),
              _or_not_yet(r, balance_generation_table(r), "space", bool(r.generation)),
              balance_singles_table(r)]
    if r.interactions:
        tables.append(interactions_table(["Interactions of the pairs in the best "
                                          "candidates"], r.interactions, r.confidence))
    return tables
