"""Chunks of paired games, read from a results file or played: the unit of work of the
atlas's interactions and of the balance designer.

A record is one chunk of games under a rule set paired against a reference rule set
played on the same games: ``(reference, rules)`` holds the Tally of `rules`' games and
the PairTally of reference against rules (reference first); ``(rules, rules)`` is a
rule set alone (no pair).  Its key in the results file (`cuttle.variants.store`) is the
atlas's, with the reference's rule text in the "base" field, so a record of a rule set
against its base preset is exactly the atlas's record of that variant.

`ChunkPlayer.records(chunk, wanted)` returns the records of one chunk: those the file
holds are read (checked against their own fingerprint, `Stamps`, when playing), the
others played in one `cuttle.compare` call over the rule sets they involve (the same
games: game ``chunk * chunk_size + i`` of the seeded run) and appended to the file at
once.  Ctrl-C
inside a chunk appends the games it had finished as parts of those records, and the
next run plays only the rest of the chunk.
"""

from __future__ import annotations

import hashlib
import json
import time
from typing import TYPE_CHECKING, Any

from .._version import GAME_REVISION
from ..errors import ClusterError, Interrupted
from ..formatting import quantity
from ..policies import is_search
from ..simulation import compare, simulate
from ..simulation.api import MAX_RULE_SETS
from ..simulation.cluster import in_index_order
from .records import chunk_key, tally_to_json

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Sequence

    from distributed import Client

    from ..rules import Rules
    from ..simulation import PairTally, Tally
    from .records import ChunkKey
    from .store import Store

    Record = tuple[Rules, Rules]

__all__ = ["FINGERPRINT_GAMES", "ChunkPlayer", "RunInterrupted", "Stamps", "fingerprint"]

FINGERPRINT_GAMES = {False: 64, True: 4}        # games per rule set (cheap, search)


def fingerprint(tallies: Iterable[Tally]) -> str:
    """The fingerprint stamped on a record of played games (the atlas's and the balance
    designer's): a hash of the library's GAME_REVISION and of `tallies`, those of the
    first FINGERPRINT_GAMES games of the run under the rule sets involved.  It changes
    with the revision and when the engine or a policy plays those games otherwise, so
    records of another version are refused, never mixed in (the games are a cheap guard
    against a revision not raised, not a proof)."""
    h = hashlib.sha256(f"games revision {GAME_REVISION}\n".encode())
    for t in tallies:
        h.update(json.dumps(tally_to_json(t), sort_keys=True).encode())
    return h.hexdigest()[:16]


class Stamps:
    """The fingerprint of each record of `policy`'s self-play games (seeded by `seed`,
    capped at `max_moves`), the atlas's and the balance designer's: `fingerprint` of
    the first games under the record's own two rule sets, called as
    ``stamps(reference, rules)``.  A record is thus stamped by its own games only, not
    by the other rule sets of the run that played it: a run with more rule sets (a flag
    added since) re-uses every record whose games still play as they did.  Each rule
    set's first games are played once and kept (a tally each); `prime` plays several
    in one call (their tallies are those `simulate` gives one by one: the games are
    paired)."""

    def __init__(self, policy: str, seed: int, max_moves: int, threads: int | None = None):
        self.policy, self.seed, self.max_moves, self.threads = policy, seed, max_moves, threads
        self.games = FINGERPRINT_GAMES[is_search(policy)]
        self._tallies: dict[Rules, Tally] = {}

    def prime(self, rule_sets: Iterable[Rules]) -> None:
        """Play the first games of the rule sets not played yet, in one call."""
        todo = [r for r in dict.fromkeys(rule_sets) if r not in self._tallies]
        kw = dict(seed=self.seed, threads=self.threads, swap_seats=False,
                  max_moves=self.max_moves, progress=False)
        players = (self.policy, self.policy)
        for i in range(0, len(todo), MAX_RULE_SETS):
            part = todo[i:i + MAX_RULE_SETS]
            if len(part) == 1:
                tallies = [simulate(self.games, part[0], players, **kw).tally]
            else:
                tallies = [r.tally for r in compare(part, self.games, players, **kw).results]
            self._tallies.update(zip(part, tallies))

    def tally(self, rules: Rules) -> Tally:
        """The Tally of the first games under `rules`."""
        if rules not in self._tallies:
            self.prime([rules])
        return self._tallies[rules]

    def of(self, rule_sets: Iterable[Rules]) -> str:
        """The fingerprint of the first games under every rule set of `rule_sets`, in
        order (a record's: its reference and its rules; an atlas group's of an earlier
        format: its base and every variant, `cuttle.variants.upgrade`)."""
        rule_sets = list(rule_sets)
        self.prime(rule_sets)
        return fingerprint(self.tally(r) for r in rule_sets)

    def __call__(self, reference: Rules, rules: Rules) -> str:
        return self.of((reference, rules))


class RunInterrupted(Interrupted):
    """Ctrl-C stopped a run that keeps its chunks in a results file (an atlas, a balance
    search): `result` is the run so far, `done` the whole chunks it played (unit
    "chunk": a chunk of one rule set's games, as the results file holds them), `games`
    the games it played (every rule set's, those of the chunk cut short too; None when
    `result` does not say), `path` the results file (None without one), which holds
    every finished chunk and the finished games of the chunk Ctrl-C cut short (`cut` of
    them, written as parts).  It says "interrupted after playing 12,000 games (3 whole
    chunks of games)", and how to continue (`said`)."""

    def __init__(self, result: Any, path: str | None = None, cut: int = 0):
        super().__init__(result, getattr(result, "played_records", 0), None, "chunk")
        # (a result of before `played_games` was kept does not say its games)
        self.games = getattr(result, "played_games", None)
        self.path, self.cut = path, cut

    def as_dict(self) -> dict[str, Any]:
        """`Interrupted.as_dict` (done: the whole chunks played, unit "chunk") and the
        games played (`games`)."""
        return {**super().as_dict(), "games": self.games}

    def played(self) -> str:
        """How far the run got: "interrupted after playing 12,000 games (3 whole chunks
        of games)", and the first games of the chunks Ctrl-C cut short, if any (the same
        games under each rule set still playing)."""
        chunks = f"{quantity(self.done, 'whole chunk')} of games"
        # (pickled before `games` and `cut` were kept: they are missing)
        games, cut = getattr(self, "games", None), getattr(self, "cut", 0)
        if cut:
            # (the chunk of each rule set still playing: the same games of each)
            chunks += f", and the first {quantity(cut, 'game')} of each chunk it cut short"
        if games is None:
            return f"interrupted after playing {chunks}"
        return f"interrupted after playing {quantity(games, 'game')} ({chunks})"

    def note(self) -> str:
        """How the files of the partial run say it is one: `played` and ": a partial
        run" (without the advice to continue)."""
        return f"{self.played()}: a partial run"

    # The function whose call Python runs again to continue (a subclass names its own).
    function = "the same function"

    def said(self, command_line: bool = False) -> str:
        """`played`, and with a results file where the finished games are and how to
        continue: in Python (`str()`) by calling the function again with the same
        arguments and results file, on the `command_line` by running the command
        again."""
        s = self.played()
        if getattr(self, "path", None):
            again = ("run the same command again" if command_line else
                     f"call {self.function} again with the same arguments and results "
                     f"file")
            s += f"; every finished game is in {self.path}: {again} to continue"
        return s

    def __str__(self):
        return self.said()


class ChunkPlayer:
    """The chunks of one seeded self-play run (`players`, `seed`, `max_moves`,
    `chunk_size`) in a results `store` (or None: played every time).  `engine`: the
    fingerprint written with each record and required of the records read (a str, a
    callable (reference, rules) -> str, or None: not checked); `play`: False reads
    only.  `progress(done, total)` follows a chunk being played.  `played` counts the
    records this player played, `games` the games (under every rule set) and `seconds`
    the time they took."""

    def __init__(self, store: Store | None, players: Sequence[str], seed: int,
                 max_moves: int, chunk_size: int, *, threads: int | None = None,
                 client: Client | None = None,
                 engine: str | Callable[[Rules, Rules], str] | None = None,
                 play: bool = True):
        self.store, self.players, self.seed = store, tuple(players), seed
        self.max_moves, self.chunk_size = max_moves, chunk_size
        self.threads, self.client, self.engine, self.play = threads, client, engine, play
        self.played = 0             # records played
        self.cut = 0                # games of a chunk Ctrl-C cut short, written as parts
        self.games = 0              # games played (every rule set's)
        self.seconds = 0.0          # spent playing them

    def key(self, reference: Rules, rules: Rules, chunk: int) -> ChunkKey:
        """The results file's key of a record."""
        return chunk_key(str(reference), rules, self.players, self.seed, self.max_moves,
                         self.chunk_size, chunk)

    def holds(self, chunk: int, wanted: Iterable[Record]) -> bool:
        """Whether the file holds every record of `wanted` of chunk `chunk` whole (they
        are read, not played)."""
        return self.store is not None and \
            all(self.key(ref, rules, chunk) in self.store for ref, rules in wanted)

    def _engine(self, reference, rules):
        if self.engine is None or isinstance(self.engine, str):
            return self.engine
        return self.engine(reference, rules)

    def records(self, chunk: int, wanted: Iterable[Record],
                progress: Callable[[int, int], object] | None = None
                ) -> dict[Record, tuple[Tally, PairTally | None]] | None:
        """{(reference, rules): (Tally, PairTally or None)} of chunk `chunk`; None when
        a record is missing and this player does not play."""
        wanted = list(dict.fromkeys(wanted))
        have = {}
        for ref, rules in wanted:
            got = self._read(ref, rules, chunk)
            if got is not None:
                have[(ref, rules)] = got
        missing = [r for r in wanted if r not in have]
        if missing and not self.play:
            return None
        if missing:
            have.update(self._play(chunk, missing, progress))
        return {r: have[r] for r in wanted}

    def _read(self, ref, rules, chunk, part=False):
        """The file's record of (ref, rules) in chunk `chunk`: (Tally, PairTally or
        None), or with `part` its longest part (games, Tally, PairTally or None); None
        if it has none."""
        if self.store is None:
            return None
        engine = self._engine(ref, rules) if self.play else None
        get = self.store.get_part if part else self.store.get
        return get(self.key(ref, rules, chunk), engine)

    def _play(self, chunk, missing, progress):
        # Records that an earlier Ctrl-C cut short have their first games in the file:
        # only the rest of the chunk is played, records as far along together.
        parts = {r: self._read(*r, chunk, part=True) for r in missing}
        by_start: dict[int, list[Record]] = {}
        for r in missing:
            by_start.setdefault(0 if parts[r] is None else parts[r][0], []).append(r)
        out = {}
        for start, group in sorted(by_start.items()):
            out.update(self._play_from(chunk, start, group, parts, progress))
        return out

    def _play_from(self, chunk, start, missing, parts, progress):
        """Play the games start.. of chunk `chunk` for the records `missing` (whose
        first `start` games are `parts`), write them, and return them whole; Ctrl-C
        writes the games finished as parts and raises."""
        order = list(dict.fromkeys(r for pair in missing for r in pair))
        n = self.chunk_size - start
        kw = dict(players=self.players, seed=self.seed, threads=self.threads,
                  swap_seats=False, max_moves=self.max_moves, client=self.client,
                  start=chunk * self.chunk_size + start, progress=progress or False)
        t0 = time.perf_counter()
        stop = None
        try:
            with in_index_order():      # (on a cluster: Ctrl-C leaves no gap)
                res = simulate(n, order[0], **kw) if len(order) == 1 else \
                    compare(order, n, **kw)
        except (Interrupted, ClusterError) as e:
            # Ctrl-C, or a failed cluster: the finished games are kept all the same.
            # (Only the games from the first on, without a gap, can be a part; a run on
            # a cluster merges its chunks in index order to leave none.)
            first = e.result if len(order) == 1 or e.result is None else e.result.results[0]
            if first is None or first.ranges != ((kw["start"], kw["start"] + e.done),):
                raise
            res, stop, n = e.result, e, e.done
        finally:
            self.seconds += time.perf_counter() - t0
        self.games += n * len(order)
        if len(order) == 1:
            tallies, pairs = [res.tally], {}
        else:
            tallies, pairs = [r.tally for r in res.results], res.pairs
        out = {}
        for ref, rules in missing:
            i, j = order.index(ref), order.index(rules)
            pair = None if i == j else (pairs[(i, j)] if i < j else pairs[(j, i)].reversed())
            tally = tallies[j]
            if parts[(ref, rules)] is not None:
                _, before, before_pair = parts[(ref, rules)]
                tally = before + tally
                pair = None if pair is None else before_pair + pair
            out[(ref, rules)] = (tally, pair)
        if self.store is not None:
            by_engine: dict[str | None, list] = {}
            for ref, rules in missing:
                by_engine.setdefault(self._engine(ref, rules), []).append(
                    (self.key(ref, rules, chunk), start + n, *out[(ref, rules)]))
            for engine, records in by_engine.items():
                self.store.put_parts(records, engine)
        if start + n == self.chunk_size:
            self.played += len(missing)
        if stop is not None:
            self.cut = start + n if self.store is not None else 0
            raise stop
        return out
