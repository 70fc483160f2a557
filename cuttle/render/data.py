"""The JSON forms (``as_dict()``, ``--json``) of summaries, comparisons, analyses and
atlases, built from the catalogue of statistics (`cuttle.figures`).

Each form starts with ``"schema_version"`` (`cuttle.figures.SCHEMA_VERSION`).  Version 2
names every figure by the one vocabulary of the catalogue: a comparison's
``difference_vs_baseline`` and an atlas row's ``estimates`` and ``shifts`` are keyed
``win_rate_A``, ``first_mover_win_rate``, ``mean_moves``, ... (version 1 said ``win_A``,
``first_mover``, ``moves``, ``first``, ...), and so are a balance search's figures
(``first_mover_win_rate`` and ``draw_rate`` were ``first_wins`` and ``draws`` in its
JSON alone).  The dicts `as_dict()` returns still answer to the old keys, with a
DeprecationWarning, for one release (`cuttle.figures.FORMER_NAMES`); files written by
``--json`` hold the new keys only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..analysis import Analysis, SearchAnalysis
from ..balancing.config import QUICK_CAVEAT
from ..balancing.constraints import draws_caveat
from ..balancing.results import BalanceResult
from ..display import renders
from ..figures import (ANALYSIS, ATLAS, BALANCE, DIFFERENCE, INTERACTION, INTERVALS,
                       KIND_GROUPS, LENGTH_SHIFT_INTERVAL, MATCHES, MEAN, RATE,
                       SCHEMA_VERSION, SCORE, SCORE_MEAN, SCORE_SHIFT, SUMMARY, AliasedDict,
                       Figure)
from ..formatting import json_number
from ..rules import FLAGS
from ..simulation.compare import ComparisonResult
from ..simulation.names import MATCH_FORMATS, PLAYER_LABELS, entries, full_information
from ..simulation.summary import Summary
from ..variants.results import AtlasResult

if TYPE_CHECKING:
    from collections.abc import Iterable

    from ..balancing.results import CandidateResult, Measure
    from ..rules import Rules
    from ..stats import Estimate
    from ..variants.interactions import Interaction

__all__ = ["analysis_data", "atlas_data", "balance_data", "candidate_data", "changes_json",
           "comparison_data", "figure_data", "figures_into", "interaction_data",
           "measure_data", "search_analysis_data", "summary_data"]


def figure_data(f: Figure, e: Estimate, source: Any) -> Any:
    """One figure's JSON: its estimate (value, low, high; with count and n for a rate),
    or for a share its count and rate; a score is its value."""
    if f.kind == SCORE:
        return json_number(e.value)
    count = f.count(source)
    if f.json == "share":
        return {"count": count[0], "rate": json_number(e.value)}
    d = e.as_dict()
    if count is not None:
        d["count"], d["n"] = count
    return d


def figures_into(d: dict[str, Any], figures: Iterable[Figure], source: Any,
                 confidence: float) -> dict[str, Any]:
    """Put each figure's JSON (`figure_data`) at its `path` in `d`; returns `d`."""
    for f in figures:
        node = d
        for key in f.path[:-1]:
            node = node.setdefault(key, {})
        node[f.path[-1]] = figure_data(f, f.estimate(source, confidence), source)
    return d


@renders("data", Summary)
def summary_data(s: Summary) -> dict[str, Any]:
    """A summary as JSON-ready data: the run, then every figure at its path."""
    r = s.result
    d: dict[str, Any] = {
        "schema_version": SCHEMA_VERSION,
        "n_games": s.n,
        "seed": r.seed,
        "players": dict(zip(PLAYER_LABELS, r.players)),
        "full_information": full_information(r.players),
        "rules": r.rules.to_json(full=True),
        "swap_seats": r.swap_seats,
        "max_moves": r.max_moves,
        "confidence": s.confidence,
        "interval_methods": {group: INTERVALS[kind] for kind, group in KIND_GROUPS.items()},
    }
    figures_into(d, [f for f in SUMMARY.values() if f.section != MATCHES], s, s.confidence)
    d["elapsed_seconds"] = r.elapsed
    # The entries of a comparison timed together: "elapsed_rule_sets", the key it always
    # had (1 for a simulation), or for a candidate of a comparison of players
    # "elapsed_candidates" in its place.
    d["elapsed_" + entries(r.elapsed_compared).replace(" ", "_")] = r.elapsed_rule_sets
    d["match"] = None
    if r.match is not None:
        d["match"] = {"format": r.match, "description": MATCH_FORMATS[r.match].description,
                      "n_matches": s.n_matches, "max_games": s.slots}
        figures_into(d["match"], [f for f in SUMMARY.values() if f.section == MATCHES], s,
                     s.confidence)
    return d


def _comparison_methods(c: ComparisonResult) -> dict[str, str]:
    """The intervals of a comparison's figures and differences (`ComparisonResult.difference`):
    paired on the same deals; the games of match runs, which differ, by match."""
    kinds = {"rates": INTERVALS[RATE], "means": INTERVALS[MEAN],
             "differences": INTERVALS[DIFFERENCE]}
    if c.match is None:
        return {**kinds, "rate differences": INTERVALS[DIFFERENCE],
                "mean differences": LENGTH_SHIFT_INTERVAL,
                "advantage differences": "normal, paired differences of the games' "
                                         "first-player edges, a pseudo-difference of +-2",
                "scores": INTERVALS[SCORE_MEAN],
                "score differences": INTERVALS[SCORE_SHIFT]}
    return {**kinds, "match rate differences": INTERVALS[DIFFERENCE],
            "rate differences": "normal, paired by match (the match as the unit), a "
                                "pseudo-game of +-1",
            "mean differences": "normal, paired by match (the match as the unit), a "
                                "pseudo-game of +-s (s: the spread of two games' lengths)",
            "advantage differences": "2 x the first mover's wins' plus the draws', "
                                     "their half-widths added (conservative)",
            "scores": INTERVALS[SCORE_MEAN],
            "score differences": "its player's wins' (the first mover's for the first "
                                 "player's score) plus half the draws', their "
                                 "half-widths added (conservative)"}


@renders("data", ComparisonResult)
def comparison_data(c: ComparisonResult) -> dict[str, Any]:
    """A comparison as JSON-ready data: each rule set's summary and its differences to
    the baseline (keyed by the figures' names).  "deals": what the rule sets share
    (`ComparisonResult.deals`: "same", "cut" where some cut the same shuffles at other
    hand sizes, "other" where some share no deal), and each rule set's
    "deals_vs_baseline" (`Rules.deal_relation`; None for the baseline).  "compared":
    "rules", or "players" for a comparison of players (`compare_players`), whose
    "candidates" take the place of "rule_sets", each with its "player" (A), under the
    one "rules", against the one "opponent" (B), each candidate's summary timed with
    "elapsed_candidates" in the place of "elapsed_rule_sets"."""
    d = {
        "schema_version": SCHEMA_VERSION,
        "seed": c.seed,
        "n": c.n_games,
        "unit": c.units,            # (the plural, as it always said; "units" too)
        "units": c.units,
        "match": c.match,
        "players": dict(zip(PLAYER_LABELS, c.players)),
        "full_information": full_information(c.players),
        "confidence": c.confidence,
        "interval_methods": _comparison_methods(c),
        "baseline": c.labels[0],
        "deals": c.deals,
        "compared": c.compared,
    }
    entries = [{"label": lab, "summary": summary_data(r.summary(c.confidence)),
                "difference_vs_baseline": (None if i == 0 else AliasedDict(
                    (m, e.as_dict()) for m, e in c.differences(i).items()))}
               for i, (lab, r) in enumerate(zip(c.labels, c.results))]
    if c.compared == "players":
        d["rules"] = c.rules[0].to_json()
        d["opponent"] = c.opponent
        d["full_information"] = sorted({label for r in c.results
                                        for label in full_information(r.players)})
        d["candidates"] = [{"label": e["label"], "player": r.players[0], **e}
                           for e, r in zip(entries, c.results)]
        return d
    d["rule_sets"] = [{"label": e["label"], **r.rules.to_json(),
                       "deals_vs_baseline": None if i == 0 else c.deal_relations[i], **e}
                      for i, (e, r) in enumerate(zip(entries, c.results))]
    return d


@renders("data", Analysis)
def analysis_data(a: Analysis) -> dict[str, Any]:
    """An analysis as JSON-ready data: each move's counts, its score's value and every
    figure at its path (the score with its interval at "score_estimate"), best first."""
    moves = [figures_into({"move": str(r.move), "rollouts": r.rollouts, "wins": r.wins,
                           "draws": r.draws, "score": json_number(r.score)},
                          ANALYSIS.values(), r, a.confidence) for r in a.rows]
    return {"schema_version": SCHEMA_VERSION, "player": a.player, "phase": a.phase,
            "policy": a.policy, "seed": a.seed, "adaptive": a.adaptive,
            "confidence": a.confidence,
            "interval_methods": {KIND_GROUPS[f.kind]: f.interval for f in ANALYSIS.values()},
            "total_rollouts": a.total_rollouts, "seconds": a.elapsed, "moves": moves}


@renders("data", SearchAnalysis)
def search_analysis_data(a: SearchAnalysis) -> dict[str, Any]:
    """A search analysis as JSON-ready data: the engine, and each move's value (the
    search's estimate of the player's expected score, a fraction), searches, loss
    against the best with its bounds, visits and share of the free search's, best
    first."""
    moves = [{"move": str(r.move), "value": json_number(r.value), "searches": r.searches,
              "loss": json_number(r.loss), "loss_low": json_number(r.loss_low),
              "loss_high": json_number(r.loss_high), "visits": r.visits,
              "visit_share": json_number(a.share(r))} for r in a.rows]
    return {"schema_version": SCHEMA_VERSION, "kind": "search", "player": a.player,
            "phase": a.phase, "engine": a.engine.name, "iterations": a.iterations,
            "method": a.engine.description, "seed": a.seed,
            "played": None if a.played is None else str(a.played),
            "most_visited": str(a.most_visited), "visits_total": a.visits_total,
            "total_searches": a.total_searches, "seconds": a.elapsed, "moves": moves}


def interaction_data(x: Interaction) -> dict[str, Any]:
    """An interaction as JSON: the two changes, the rule set with both, its games and
    status, and each figure of `cuttle.figures.INTERACTION` (shifts of the first
    player's score, fractions)."""
    return figures_into({"a": x.a.label, "b": x.b.label, "rules": str(x.pair),
                         "changes": changes_json(x.pair, x.base), "games": x.n,
                         "chunks": x.chunks, "status": x.status},
                        INTERACTION.values(), x, x.confidence)


def changes_json(rules: Rules, base: Rules) -> dict[str, Any]:
    """The flags `rules` changes against `base`, as JSON values."""
    return {k: FLAGS[k].to_json(v) for k, v in rules.flags.items() if base.flags[k] != v}


@renders("data", AtlasResult)
def atlas_data(result: AtlasResult) -> dict[str, Any]:
    """The JSON form of an atlas: its configuration, and per group and rule set the
    status, games, estimates (own games) and shifts (against the base) of every figure
    of `cuttle.figures.ATLAS`."""
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
                "estimates": AliasedDict((m, r.estimate(m).as_dict()) for m in ATLAS),
                "shifts": None if r.is_base else AliasedDict(
                    (m, r.shift(m).as_dict()) for m in ATLAS),
                "first_shift_half_width": None if r.is_base else json_number(r.half_width),
            })
        groups.append({"base": g.base, "policy": g.policy, "pairing": g.pairing.as_dict(),
                       "complete": g.complete, "rows": rows,
                       "interactions": [interaction_data(x) for x in g.interactions]})
    return {"schema_version": SCHEMA_VERSION, "atlas": result.config.as_dict(),
            "complete": result.complete, "games": result.n_games,
            "played_records": result.played_records,
            # (an atlas pickled before it was kept does not have it)
            "played_games": getattr(result, "played_games", 0),
            "elapsed_seconds": result.elapsed, "groups": groups,
            "interval_methods": {"rates": INTERVALS[RATE],
                                 "rate shifts": "newcombe paired (first_mover_win_rate, "
                                                "second_mover_win_rate, draw_rate); newcombe "
                                                "independent (end reasons)",
                                 "length shifts": LENGTH_SHIFT_INTERVAL,
                                 "interactions": "normal, per-game contrasts of the first "
                                                 "player's score, with a pseudo-contrast "
                                                 "of +1 and of -1"}}


def measure_data(m: Measure | None, confidence: float) -> dict[str, Any] | None:
    """A stage's games of one rule set: `games`, each figure of
    `cuttle.figures.BALANCE` at its path (first_score, first_mover_win_rate, draw_rate,
    mean_moves, first_score_shift) and `draws_caveat` ("all_draws", "mostly_draws" or
    null: `cuttle.balancing.constraints.draws_caveat`)."""
    if m is None or not m.n:
        return None
    d = figures_into(AliasedDict(games=m.n), BALANCE.values(), m, confidence)
    d["draws_caveat"] = draws_caveat(m)
    return d


def candidate_data(c: CandidateResult, base: Rules, confidence: float) -> dict[str, Any]:
    """A candidate as JSON: the schema's keys (rules, changes, first_score,
    first_mover_win_rate, draw_rate, mean_moves, games: from its confirmation games if it
    has them, else its race games; `draws_caveat` of those games), then where they come
    from, its size, status, prediction, the race's games at the simultaneous level, and
    the check policy's games."""
    d = AliasedDict(rules=str(c.rules), changes=changes_json(c.rules, base))
    figures_into(d, BALANCE.values(), c.measure, confidence)
    d["games"] = c.measure.n
    d["draws_caveat"] = draws_caveat(c.measure)
    d.update({"size": c.size, "stage": c.stage, "status": c.status, "winner": c.winner,
              "pareto": c.pareto, "constraints": c.constraints,
              "predicted": None if c.prediction is None else c.prediction.as_dict(),
              "race": AliasedDict(measure_data(c.race, c.race_level) or {"games": 0},
                                  confidence=c.race_level),
              "confirm": measure_data(c.confirm, confidence),
              "check": measure_data(c.check, confidence)})
    return d


@renders("data", BalanceResult)
def balance_data(r: BalanceResult) -> dict[str, Any]:
    """A balance search as JSON: ``{"base", "policy", "candidates": [...]}`` (best
    first: the winners, then the others nearest 50% first, the eliminated last), then
    the winners by size, the Pareto front, the singles (each its own screening games'
    figures, and `base_plus_shift`, the tables' first score: the base's plus the
    shift), the interactions, the space and the settings."""
    conf = r.confidence
    base = r.config.base
    return {
        "schema_version": SCHEMA_VERSION,
        "base": str(base),
        "policy": r.config.policy,
        "candidates": [candidate_data(c, base, conf) for c in r.candidates],
        "winners": {str(size): str(c.rules) for size, c in sorted(r.winners.items())},
        "pareto": [str(c.rules) for c in r.pareto],
        "base_games": {stage: measure_data(m, conf) for stage, m in r.base.items()},
        "singles": [AliasedDict(label=s.variant.label, rules=str(s.variant.rules),
                                changes=changes_json(s.variant.rules, base),
                                status=s.status,
                                **(measure_data(s.measure, conf) or {"games": 0}),
                                base_plus_shift=json_number(
                                    s.first_score(r.base.get("screen"))))
                    for s in r.singles],
        "interactions": [interaction_data(x) for x in r.interactions],
        "space": {str(n): g for n, g in sorted(r.generation.items())},
        "allowance": r.allowance,
        "settings": r.config.as_dict(),
        "caveat": QUICK_CAVEAT if r.config.quick else None,
        "confidence": conf,
        "games": r.n_games, "played_records": r.played_records,
        "played_games": r.played_games,
        "elapsed_seconds": r.elapsed, "complete": r.complete,
        "interval_methods": {"first_score": BALANCE["first_score"].interval,
                             "rates": INTERVALS[RATE],
                             "first_score_shift": "normal, paired differences",
                             "race": "normal at the simultaneous (Bonferroni) level"},
    }
