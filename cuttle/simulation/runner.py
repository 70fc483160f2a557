"""Playing the units (games, or matches) of one seeded run.

A `Plan` is everything that identifies a run except the range of units; `play_chunk`
plays one range of it, natively (`cuttle._play.play_units`: the core plays the games
over all cores and returns exact tallies) or in Python for callable players, and returns
a mergeable result.  `run_local` plays a whole run chunk by chunk in this process
(`cluster.run_on_cluster` hands the chunks to a dask cluster instead); both merge the
chunks as they finish, stream per-game rows to a CSV file when asked, and on Ctrl-C
raise `Interrupted` carrying the merged result of the finished chunks.
"""

from __future__ import annotations

import heapq
import itertools
import random
import time
from typing import TYPE_CHECKING, Any

import numpy as np

from .._core import END_NAMES
from .._play import BatchInterrupted, cut_rows, new_rows, play_units
from ..errors import ClusterError, IllegalMoveError, Interrupted, PolicyError
from ..files import CsvFile
from ..game import Game
from ..interrupts import ctrl_c_deferred
from ..policies import code_hint, forced_move, is_search
from ..progress import Progress
from ..seeding import seat_seed
from ..threads import thread_count
from .compare import ComparisonResult
from .names import FIELDS, MATCH_FORMATS, PLAYER_LABELS, match_slots, seat_of_a
from .results import SimulationResult
from .rows import GameRows, game_columns, game_rows
from .tally import PairTally, Tally, tallies_from_rows

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator, Sequence
    from os import PathLike
    from typing import TextIO

    from ..moves import Move
    from ..rules import Rules
    from .players import Player

__all__ = ["ChunkInterrupted", "Chunks", "GamesCsv", "Plan", "collect", "play_chunk",
           "play_python", "run_local"]

NATIVE_CHUNK = 1 << 16        # default largest chunk played by one native call (units)
PYTHON_CHUNK = 64             # ... by Python players (a progress step every few seconds)
FIRST_CHUNK = 64              # adaptive chunks start here and double while fast
SEARCH_FIRST_CHUNK = 2        # ... per thread with a searching player, whose games take
                              # a tenth of a second or more: Ctrl-C keeps the finished
                              # chunks, so a first chunk of 64 would hold them for seconds


def _done(result) -> int:
    """Units (games, or matches) a partial result covers."""
    if result is None:
        return 0
    one = getattr(result, "results", (result,))[0]       # (a comparison's: the same units)
    return one.n_games if one.match is None else one.n_matches


class Plan:
    """A seeded run: its rule sets (several for compare, on the same deals), players,
    seating, move cap, match format and threads per chunk; what `play_chunk` needs
    besides a range of units.  `arms`, for `compare_players`: one (A, B) pair of players
    per rule set (the same rules each time), each pair playing the same deals; else
    `players` play under every rule set.  Picklable, to ship chunks to other processes."""

    def __init__(self, rule_sets: Iterable[Rules], players: Sequence[Player], seed: int,
                 swap_seats: bool, max_moves: int, match: str | None, threads: int,
                 keep_games: bool, games_csv: bool = False, labels: Sequence[str] | None = None,
                 confidence: float = 0.95,
                 arms: Sequence[Sequence[Player]] | None = None):
        self.rule_sets = tuple(rule_sets)
        self.arms = (tuple(tuple(pair) for pair in arms) if arms is not None
                     else (tuple(players),) * len(self.rule_sets))
        if len(self.arms) != len(self.rule_sets):
            raise ValueError(f"{len(self.arms)} pairs of players for "
                             f"{len(self.rule_sets)} rule sets")
        self.compared = "players" if arms is not None else "rules"
        self.players = self.arms[0]
        self.names = tuple(p.name for p in self.players)
        # (each player's code under each rule set, as play_units takes them)
        self.codes = tuple([pair[k].code for pair in self.arms] for k in (0, 1))
        self.native = all(p.native for pair in self.arms for p in pair)
        self.seed = seed
        self.swap_seats = swap_seats
        # In a match the first player alternates game by game: game i's first player
        # follows the parity of i, and the parity of the match's slot count decides
        # who starts each match.
        self.alternate_seats = swap_seats or match is not None
        self.max_moves = max_moves
        self.match = match
        self.need = MATCH_FORMATS[match].wins if match else 0
        self.slots = match_slots(match, swap_seats) if match else 1
        self.threads = threads
        self.keep_games = keep_games                   # the result keeps them
        self.keep_rows = keep_games or games_csv        # the chunks return per-game rows
        self.labels = labels
        self.confidence = confidence

    @property
    def unit(self) -> str:
        """"match" or "game": what the run's indices count."""
        return "match" if self.match else "game"

    @property
    def largest_chunk(self) -> int:
        """Default chunk limit in units."""
        if not self.native:
            return max(1, PYTHON_CHUNK // self.slots)
        return max(1, NATIVE_CHUNK // self.slots)

    @property
    def first_chunk(self) -> int:
        """The first adaptive chunk in units: smaller when a player searches."""
        if any(p.code is not None and is_search(p.name) for pair in self.arms for p in pair):
            return max(1, SEARCH_FIRST_CHUNK * thread_count(self.threads) // self.slots)
        return FIRST_CHUNK

    def result(self, raw: dict[str, Any], start: int, count: int,
               elapsed: float) -> SimulationResult | ComparisonResult:
        """The result of units start..start+count-1 from play_units' output."""
        matches = self.need > 0
        results = []
        for i, (rules, pair) in enumerate(zip(self.rule_sets, self.arms)):
            rows = None
            if raw["rows"] is not None:
                rows = GameRows.from_core(raw["rows"][i], start, self.slots)
            results.append(SimulationResult(
                Tally.from_core(raw["tallies"][i], matches),
                players=tuple(p.name for p in pair),
                rules=rules, seed=self.seed, swap_seats=self.swap_seats,
                max_moves=self.max_moves, match=self.match,
                need=self.need or None, slots=self.slots if matches else None,
                ranges=((start, start + count),), rows=rows, elapsed=elapsed,
                threads=self.threads or None, confidence=self.confidence,
                elapsed_rule_sets=len(self.rule_sets)))
        if self.labels is None:
            return results[0]
        pairs = {k: PairTally.from_core(d) for k, d in raw["pairs"].items()}
        return ComparisonResult(results, pairs, self.labels, self.confidence,
                                compared=self.compared)


class ChunkInterrupted(KeyboardInterrupt):
    """Ctrl-C stopped a chunk after its first `count` units had finished: `part` is
    their result (None if none had), which the run keeps."""

    def __init__(self, count: int, part: SimulationResult | ComparisonResult | None):
        super().__init__(count, part)
        self.count, self.part = count, part

    def __str__(self):
        return f"interrupted after {self.count:,} units of a chunk"


def play_chunk(plan: Plan, start: int, count: int) -> SimulationResult | ComparisonResult:
    """Play units start .. start+count-1 of `plan`'s run: its result (a SimulationResult,
    or a ComparisonResult for several rule sets), timed.  Ctrl-C raises ChunkInterrupted
    with the units finished before it, when the chunk could keep them (a searching
    player's, or Python players')."""
    t = time.perf_counter()
    try:
        if plan.native:
            raw = play_units(plan.rule_sets, start, count, plan.seed, plan.codes[0],
                             plan.codes[1], plan.alternate_seats, plan.threads,
                             plan.max_moves, plan.need, plan.slots, plan.keep_rows)
        else:
            raw = tallies_from_rows(python_rows(plan, start, count), plan.need)
    except BatchInterrupted as e:
        part = None
        if e.done:
            part = plan.result(_raw(plan, tallies_from_rows(e.rows, plan.need)), start,
                               e.done, time.perf_counter() - t)
        raise ChunkInterrupted(e.done, part) from None
    except PolicyError as e:
        # the units of the chunk before the game that failed, kept as Ctrl-C keeps them
        e.part = (plan.result(_raw(plan, tallies_from_rows(e.rows, plan.need)), start,
                              e.done, time.perf_counter() - t) if e.done else None)
        del e.rows
        raise
    if not plan.native:
        raw = _raw(plan, raw)
    return plan.result(raw, start, count, time.perf_counter() - t)


def _raw(plan: Plan, raw: dict[str, Any]) -> dict[str, Any]:
    """play_units' output from rows, without them unless the plan keeps rows."""
    return raw if plan.keep_rows else {**raw, "rows": None}


# ---------------------------------------------------------------------------------------
# Games played in Python (callable players), in the core's rows format.

def python_rows(plan: Plan, start: int, count: int) -> list[dict[str, np.ndarray]]:
    """Rows of units start.. under each of `plan`'s rule sets (the same deals), as
    play_units(keep_rows=True) returns them; a match plays only the games it needs (the
    others have winner -2).  A unit is played under every rule set before the next, so
    Ctrl-C raises BatchInterrupted with the units all of them finished."""
    rows = [new_rows(count, plan.slots, plan.need > 0) for _ in plan.rule_sets]
    arms = [[p.python_func() for p in pair] for pair in plan.arms]
    j = 0
    try:
        for j in range(count):
            for rules, funcs, out in zip(plan.rule_sets, arms, rows):
                if plan.need:
                    _play_python_match(plan, rules, start + j, funcs, out, j)
                else:
                    play_python_game(rules, plan.seed, start + j, funcs,
                                     plan.alternate_seats, plan.max_moves, out, j)
    except KeyboardInterrupt:
        raise BatchInterrupted(j, [cut_rows(r, j, plan.slots) for r in rows]) from None
    except PolicyError as e:
        e.done, e.rows = j, [cut_rows(r, j, plan.slots) for r in rows]
        raise
    return rows


def _play_python_match(plan: Plan, rules: Rules, unit: int,
                       funcs: Sequence[Callable[[Game, random.Random], Move | str | int]],
                       rows: dict[str, np.ndarray], j: int) -> None:
    """Match `unit` (its games in index order until a player has `need` wins), written
    to rows' unit `j`."""
    slots, need = plan.slots, plan.need
    wins = [0, 0]
    for s in range(slots):
        k = j * slots + s
        play_python_game(rules, plan.seed, unit * slots + s, funcs, plan.alternate_seats,
                         plan.max_moves, rows, k)
        rows["m_games"][j] = s + 1
        w = rows["winner"][k]
        if w >= 0:
            wins[w] += 1
            if wins[w] >= need:
                rows["m_winner"][j] = w
                break
    rows["m_first"][j] = rows["first"][j * slots]
    rows["m_wins"][j] = wins


def play_python_game(rules: Rules, seed: int, i: int,
                     funcs: Sequence[Callable[[Game, random.Random], Move | str | int]],
                     swap_seats: bool, max_moves: int, out: dict[str, np.ndarray],
                     k: int) -> None:
    """Play game `i` in Python (`play_python`); write its row `k` of `out`."""
    a_seat = seat_of_a(i, swap_seats)
    # the deal of native game i, and its cap
    g = Game.from_run(rules, seed=seed, index=i, max_moves=max_moves)
    play_python(g, seed, i, funcs, a_seat)
    out["first"][k] = a_seat
    out["moves"][k] = g.ply
    out["turns"][k] = g.turn_number              # counts from 1, like the core's rows
    out["scores"][k, 0] = g.score(a_seat)
    out["scores"][k, 1] = g.score(a_seat ^ 1)
    w = g.winner
    out["winner"][k] = -1 if w is None else w ^ a_seat
    out["end"][k] = END_NAMES.index(g.end_reason)


def play_python(g: Game, seed: int, i: int,
                funcs: Sequence[Callable[[Game, random.Random], Move | str | int]],
                a_seat: int) -> None:
    """Play game `i` of the run of `seed`, `g` as `Game.from_run` dealt it, in Python
    to its end, player A (funcs[0]) in seat `a_seat`: the one loop of a run's games with
    a Python player and of their records (`recorded.game_record`).  The core's play loop
    (`Game.next_decision`) stops it as a native game stops: over, or capped at the
    game's `max_moves` (a draw, ended by the core as a native game's cap ends it).
    Each seat draws from its own rng (`seeding.seat_seed`); a policy's fault is a
    PolicyError (`_play_policy`)."""
    rngs = tuple(random.Random(seat_seed(seed, i, seat)) for seat in (0, 1))
    seat_funcs = (funcs[a_seat], funcs[a_seat ^ 1])
    while (seat := g.next_decision()) is not None:
        move = forced_move(g)                  # (a policy is asked only for a choice)
        if move is not None:
            g.play(move)
        else:
            _play_policy(seat_funcs[seat], g, rngs[seat], i, PLAYER_LABELS[seat ^ a_seat])


def _play_policy(policy, g: Game, rng: random.Random, i: int, label: str) -> None:
    """Play `policy`'s move in game `i`.  Whatever goes wrong with it (it raises,
    returns no move or an illegal one, or changes the game it was given) is a
    PolicyError naming the game, the player and the move, the fault its cause (the run
    keeps the games before it)."""
    where = f"in game {i:,}, deciding move {g.ply + 1}"
    before = g.moves                    # (the history, with the deal, fixes the state)
    try:
        move = policy(g, rng)
    except Exception as e:
        raise PolicyError(f"the policy of player {label} raised {type(e).__name__} "
                          f"{where}: {e}", i, label) from e
    if g.moves != before:
        fault: Exception = RuntimeError("it changed the game it was given (look ahead on "
                                        "game.copy())")
        said = "changed the game it was given; look ahead on game.copy()"
    elif move is None:
        fault, said = IllegalMoveError("it returned None, not a move"), "returned no move"
    else:
        try:
            g.play(move)
            return
        except (ValueError, TypeError) as e:        # (IllegalMoveError is a ValueError)
            fault, said = e, f"chose an illegal move: {e}{code_hint(move)}"
    raise PolicyError(f"the policy of player {label} {where}, {said}", i, label) from fault


# ---------------------------------------------------------------------------------------
# Whole runs

class Chunks:
    """Chunk sizes (units): fixed, or adaptive from `first`, growing `factor`-fold
    while a chunk takes less than `target` seconds, up to `limit`."""

    def __init__(self, limit: int, adaptive: bool, target: float = 0.2, factor: int = 2,
                 first: int = FIRST_CHUNK):
        self.limit = limit
        self.size = min(limit, first) if adaptive else limit
        self.adaptive, self.target, self.factor = adaptive, target, factor

    def took(self, seconds: float, size: int | None = None) -> None:
        """Record how long a chunk took; the next ones grow while chunks are quick."""
        if size is not None and size < self.size:
            return                          # a smaller chunk from before the last growth
        if self.adaptive and seconds < self.target and self.size < self.limit:
            self.size = min(self.limit, self.size * self.factor)


class GamesCsv:
    """Per-game rows streamed to a CSV file, chunk by chunk in game-index order (with a
    rule_set column for comparisons of rule sets, a candidate column for comparisons of
    players); never held in memory."""

    def __init__(self, path_or_file: str | PathLike[str] | TextIO, plan: Plan):
        self.compare = plan.labels is not None
        self.slots = plan.slots if plan.match else None
        which = "candidate" if plan.compared == "players" else "rule_set"
        self.file = CsvFile(path_or_file, ([which] if self.compare else []) +
                            game_columns(plan.match is not None))

    def write(self, part: SimulationResult | ComparisonResult) -> None:
        """Append a finished chunk's rows: by game index, and for a comparison each
        game's rule sets in turn, so that the file is the same whatever the chunks."""
        results = part.results if self.compare else [part]
        each = [game_rows({k: getattr(r, k) for k in FIELDS}, r.game_index, self.slots)
                for r in results]
        if not self.compare:
            self.file.rows(each[0])
            return
        numbered = [_numbered(i + 1, rows) for i, rows in enumerate(each)]
        if self.slots is None:      # every rule set plays the same games: interleave
            self.file.rows(itertools.chain.from_iterable(zip(*numbered)))
        else:                       # a match's games differ between rule sets
            self.file.rows(heapq.merge(*numbered, key=lambda row: row[1]))  # (stable)

    def close(self, ok: bool = True) -> None:
        """Close the file; without `ok` the half-written file is removed."""
        self.file.close(ok)


def _numbered(rule_set: int, rows: Iterator[tuple[Any, ...]]) -> Iterator[tuple[Any, ...]]:
    """Rows with their rule set's number in front."""
    for row in rows:
        yield (rule_set, *row)


def collect(parts: Iterator[tuple[int, SimulationResult | ComparisonResult]], plan: Plan,
            total: int, progress: bool | Callable[[int, int], object] | None,
            sink: GamesCsv | None, desc: str,
            cancel: Callable[[], Iterable[tuple[int, SimulationResult | ComparisonResult]]]
            | None = None) -> SimulationResult | ComparisonResult:
    """Merge the results `parts` yields ((count, result) pairs, in any order unless a
    CSV sink needs game-index order) into one result; on Ctrl-C call cancel() and raise
    Interrupted with the merged result of the finished chunks (with those that cancel()
    hands over: finished, but held back for their turn in index order); a ClusterError
    or a PolicyError likewise carries them (the cluster or a Python policy failed, not
    the finished games; a PolicyError, the units before its game: its chunk's, carried
    as `part`, and no chunk held back after it)."""
    t0 = time.perf_counter()
    merged = None
    bar = Progress(total, progress, desc, plan.unit)
    try:
        for count, part in parts:
            with ctrl_c_deferred():     # a chunk's rows and its counts: both or neither
                merged = _added(merged, part, sink, plan)
            bar.update(count)
    except KeyboardInterrupt as e:
        merged = _held(merged, _stop(parts, cancel), sink, plan)
        if isinstance(e, ChunkInterrupted) and e.part is not None:
            # The units of the interrupted chunk that had finished (the next ones in
            # index order: chunks run one at a time where they are kept).
            with ctrl_c_deferred():
                merged = _added(merged, e.part, sink, plan)
            bar.update(e.count)
        merged = _kept(merged, bar, sink, t0, True)
        raise Interrupted(merged, _done(merged), total, plan.unit) from None
    except (ClusterError, PolicyError) as e:    # (the run failed, not its games: kept)
        held = _stop(parts, cancel)
        part = e.__dict__.pop("part", None)     # a chunk's games before a policy raised,
        if part is not None:                    # kept likewise
            held.append((0, part))
        merged = _held(merged, held, sink, plan)
        e.result = _kept(merged, bar, sink, t0, merged is not None)
        e.done, e.total, e.unit = _done(e.result), total, plan.unit
        raise
    except BaseException:
        _stop(parts, cancel)
        bar.close()
        if sink is not None:
            sink.close(ok=False)    # an error: no half-written file stays
        raise
    bar.close()
    if sink is not None:
        sink.close()
    return merged.with_elapsed(time.perf_counter() - t0)


def _held(merged, held, sink, plan):
    """The run so far with the finished parts `held` ((count, result) pairs) of a run
    that stopped added (not counted on its progress bar: a progress callback that
    raised KeyboardInterrupt is not called again)."""
    for _, part in held:
        with ctrl_c_deferred():
            merged = _added(merged, part, sink, plan)
    return merged


def _added(merged, part, sink, plan):
    """The run so far with a finished chunk (or a stopped chunk's finished units) added,
    and its rows written to the games CSV (called under ctrl_c_deferred, both or
    neither: the caller's assignment of the result must come before a deferred Ctrl-C)."""
    if sink is not None:
        sink.write(part)
    return _merge(merged, part, plan)


def _kept(merged, bar, sink, t0, keep_file):
    """The result of a run stopped half-way (`merged`: its finished chunks, or None),
    with the rows of those chunks kept in the games CSV (unless not `keep_file`)."""
    bar.close()
    if sink is not None:
        sink.close(ok=keep_file)
    return None if merged is None else merged.with_elapsed(time.perf_counter() - t0)


def _merge(merged, part, plan):
    """The run so far with a finished chunk added."""
    if not plan.keep_games:
        part = part.without_games()
    return part if merged is None else merged.merge(part)


def _stop(parts, cancel) -> list[tuple[int, SimulationResult | ComparisonResult]]:
    """Cancel what is still running, and close the producer (so that it lets go of
    every task it held); the finished parts the canceller hands over."""
    held = list(cancel() or ()) if cancel is not None else []
    close = getattr(parts, "close", None)
    if close is not None:
        close()
    return held


def run_local(plan: Plan, n: int, chunks: Chunks,
              progress: bool | Callable[[int, int], object] | None = None,
              sink: GamesCsv | None = None, desc: str = "simulate",
              start: int = 0) -> SimulationResult | ComparisonResult:
    """Play units start..start+n-1 of `plan` in this process, chunk by chunk."""
    def parts():
        lo, stop = start, start + n
        while lo < stop:
            count = min(chunks.size, stop - lo)
            part = play_chunk(plan, lo, count)
            chunks.took(part.elapsed, count)
            lo += count
            yield count, part
    return collect(parts(), plan, n, progress, sink, desc)
