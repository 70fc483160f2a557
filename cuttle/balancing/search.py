"""`balance()`: the search, stage by stage.

1. **Screen**: the base and every single change, paired on the same games (stage 0 of
   the run's games), chunk by chunk, each change until the interval of its shift of the
   first player's score is narrow enough (`screen_target`) or its cap.
2. **Generate** (`cuttle.balancing.model`): every rule set of at most k changes predicted
   from the singles (additively); per size the few that could be the fairest.
3. **Interactions** (k >= 2): the pairs of changes inside those candidates, nearest 50%
   first, on the same games as the screening (`cuttle.variants.interactions`); then the
   candidates are generated again with the measured interactions.
4. **Race** (`cuttle.balancing.racing`): those candidates on fresh games (stage 1), with
   simultaneous intervals, losers dropped at each look.
5. **Confirm**: the winner of each size (nearest 50%) on fresh games again (stage 2)
   until its 95% interval is narrow enough (`confirm_target`): its published figures,
   free of the race's selection.  A winner whose confirmation's 95% interval of draws
   or length lies outside a constraint is no winner: the next standing candidate of its
   size is confirmed in its place.
6. **Check** (optional): the winners and the base under another policy (`check`,
   typically the strongest search bot), on stage 3's games.

Every stage plays through a `ChunkPlayer`, so every chunk goes to the results file at
once and a run continues where it stopped, taking the same decisions; a record carries
the fingerprint of the engine and policy that played its two rule sets (a hash of a few
games of each), and a run refuses records another version played.
"""

from __future__ import annotations

import time
import warnings
from typing import TYPE_CHECKING, Any

from ..formatting import quantity
from ..policies import is_search
from ..progress import Line, clock, show_by_default
from ..rules import DegenerateRulesWarning, Rules, held_degenerate
from ..simulation import DEFAULT_MAX_MOVES
from ..simulation.api import check_client
from ..validation import check_bool
from ..variants.chunks import ChunkPlayer, RunInterrupted, Stamps
from ..variants.errors import NothingToReport, ResultsFileError, check_results, held_runs
from ..variants.interactions import Interaction, combine, measure
from ..variants.records import first_chunk
from ..variants.store import Store
from .config import (CHECK_CHUNK, DEFAULT_SEED, BalanceConfig, Budget, check_progress,
                     make_config)
from .model import allowance, generate, pairs_to_measure
from .constraints import all_draws, verdict
from .racing import OUT, PLAYING, UNFINISHED, Entry, look, simultaneous_level, winners
from .results import BalanceResult, CandidateResult, Measure, Single
from .space import single_changes, space_size

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable
    from os import PathLike

    from distributed import Client

__all__ = ["BalanceInterrupted", "OtherSearchError", "balance"]

STAGES = {"screen": 0, "race": 1, "confirm": 2, "check": 3}
SEARCHING, CHECKING = "search", "check"    # the roles of a run's two chunk players


class BalanceInterrupted(RunInterrupted):
    """Ctrl-C stopped a search: `result` is the search so far (every finished chunk;
    what was still playing is "unfinished"); every finished chunk is in the results
    file, if there is one: `balance()` called again with the same arguments and
    results file continues."""

    function = "balance()"


class OtherSearchError(ResultsFileError):
    """`balance(check=...)` on a results file that holds games, but none of the search
    its arguments make: the check would start that search anew beside them, not check
    the search the file holds.  `path`: the file; `runs`: the (base, policy, seed) of
    each run it holds (`_searches_in`); `held`: those runs in words."""

    def __init__(self, path: str, runs: list[tuple[str, str, int, int]]):
        self.path, self.runs = path, runs
        super().__init__(f"check: {path} holds no games of this search (its records are "
                         f"keyed by the arguments that played them), only of others (it "
                         f"holds games of {self.held}): checking would start this search "
                         f"beside them and check its winners; give the arguments of the "
                         f"search that filled it to check that one, or a new results file "
                         f"for a new search")

    def __reduce__(self):           # (unpickled from its fields, not from the message)
        return (type(self), (self.path, self.runs))

    @property
    def held(self) -> str:
        """The runs the file holds: "classic under expert self-play, seed 1, chunks of
        10,000 games; ..." (`cuttle.variants.errors.held_runs`)."""
        return held_runs(self.runs)


class _Status:
    """Progress on stderr (a `cuttle.progress.Line`), or a callable given each step as a
    dict; the line says the stage, what still plays, the games played and the time left
    at most in the stage (every candidate playing to its cap, at the rate so far)."""

    def __init__(self, mode, head):
        self.callback = mode if callable(mode) else None
        tty = show_by_default()
        show = self.callback is None and (tty if mode is None else bool(mode))
        self.line = Line(inplace=tty) if show else None
        self.head = head

    def __call__(self, info, final=False):
        if self.callback is not None:
            self.callback(dict(info))
        elif self.line is not None:
            self.line.show(lambda: self.text(info), final)

    def text(self, info):
        out = f"{self.head}: {info['stage']}, chunk {info['chunk']}"
        if info.get("done") is not None and info.get("count"):
            out += f" {info['done'] / info['count']:4.0%}"
        out += f", {info['playing']} of {info['total']} playing"
        rate, left = info.get("rate"), info.get("left")
        if rate and left is not None:
            out += f"; {info.get('games', 0):,} games played at {rate:,.0f}/s, at most " \
                   f"{clock(left / rate)} left in this stage"
        return out

    def close(self):
        if self.line is not None:
            self.line.clear()


class _Run:
    """The state of one search, filled stage by stage (what `result()` reports at any
    moment, also after Ctrl-C)."""

    def __init__(self, config: BalanceConfig, store: Store | None, client, status, play,
                 warn: bool = True):
        self.config, self.store, self.status, self.play = config, store, status, play
        self.warn = warn            # (of degenerate rule sets: not a check's first reading)
        self.t0 = time.perf_counter()
        # The chunk players by role, not by policy: a check under the search's own
        # policy plays chunks of its own size, beside the search's, not in their place.
        roles = {SEARCHING: (config.policy, config.budget.chunk_size)}
        if config.check:
            roles[CHECKING] = (config.check, CHECK_CHUNK[is_search(config.check)])
        fingerprints = store is not None and play
        self._stamps: dict[str, Stamps] = {}
        self.players = {
            role: ChunkPlayer(store, (policy,) * 2, config.seed, config.max_moves, size,
                              threads=config.threads, client=client, play=play,
                              engine=self.engine(policy) if fingerprints else None)
            for role, (policy, size) in roles.items()}
        self.base: dict[str, Measure] = {}
        self._base_chunks: dict[str, int] = {}      # chunks of the base in a replay stage
        self.singles: list[Single] = []
        self.interactions: list[Interaction] = []
        self.generation: dict[int, dict[str, int]] = {}
        self.entries: list[Entry] = []
        self.results: list[CandidateResult] = []
        self.tau = config.budget.allowance
        self.level = config.confidence
        self.notes: list[str] = [] if store is None else list(store.notes)
        self.unfinished = False

    # -- fingerprints --------------------------------------------------------------------

    def engine(self, policy: str) -> Stamps:
        """The fingerprints of the records of `policy`'s games (`chunks.Stamps`: the
        first few games of the run under each of a record's two rule sets), one set of
        games per policy whatever the role."""
        if policy not in self._stamps:
            c = self.config
            self._stamps[policy] = Stamps(policy, c.seed, c.max_moves, c.threads)
        return self._stamps[policy]

    # -- helpers -------------------------------------------------------------------------

    def _records(self, role, stage, chunk, wanted, info):
        player = self.players[role]
        info = dict(info, stage=stage, chunk=chunk)
        got = player.records(first_chunk(STAGES[stage], player.chunk_size) + chunk, wanted,
                             lambda done, total: self.status(dict(info, done=done,
                                                                  count=total)))
        if got is None:
            self.unfinished = True
        return got

    def _show(self, info, left_chunks, rule_sets, role=SEARCHING):
        """The status after a chunk: the games played so far, the rate of the stage's
        player and the games left in the stage at most."""
        player = self.players[role]
        games = sum(p.games for p in self.players.values())
        rate = player.games / player.seconds if player.seconds > 0 else None
        self.status(dict(info, games=games, rate=rate,
                         left=left_chunks * rule_sets * player.chunk_size), final=True)

    # -- the stages ----------------------------------------------------------------------

    def run(self) -> None:
        c = self.config
        # (the space holds every rule set the stages make: its degenerate ones, each a
        # warning where it is made, are said once, here)
        with held_degenerate() as held:
            self.singles = [Single(v, Measure(confidence=c.confidence))
                            for v in single_changes(c.base, c.flags, c.deals)
                            if len(v.changes) <= c.k]
            self.space = space_size([s.variant for s in self.singles], c.base, c.k)
            if self.warn:
                _warn_degenerate(c.base, held)
            for stage in (self.screen, self.interact, self.generate, self.race,
                          self.confirm, self.check):   # (interact generates a first time,
                stage()                                # to choose pairs)
                if self.unfinished:
                    return

    def screen(self) -> None:
        b = self.config.budget
        cap = b.chunks(b.screen_games)

        def decide(active):
            for x in active:
                if _half(x.shift) <= b.screen_target:
                    x.status = "converged"
                elif x.chunks >= cap:
                    x.status = "capped"
        self._paired("screen", self.singles, lambda x: x.variant.rules, decide, cap)

    def _paired(self, stage, items, rules_of, decide, cap):
        """Play `items` (each with a status, a measure and its chunks) with the base on
        `stage`'s games, those still playing chunk by chunk; `decide(active)` updates
        their statuses after each chunk; what the file lacks (reading only) is
        unfinished."""
        c = self.config
        base = self.base[stage] = Measure(confidence=c.confidence)
        chunk = 0
        while True:
            active = [x for x in items if x.status == PLAYING]
            if not active:
                return
            info = {"playing": len(active), "total": len(items)}
            got = self._records(SEARCHING, stage, chunk, [(c.base, c.base)] +
                                [(c.base, rules_of(x)) for x in active], info)
            if got is None:
                for x in active:
                    x.status = UNFINISHED
                return
            base.add(got[(c.base, c.base)][0])
            for x in active:
                x.measure.add(*got[(c.base, rules_of(x))])
                x.chunks += 1
            decide(active)
            chunk += 1
            playing = [x for x in items if x.status == PLAYING]
            self._show(dict(info, stage=stage, chunk=chunk - 1, playing=len(playing)),
                       max([cap - x.chunks for x in playing] + [0]), 1 + len(playing))

    def interact(self) -> None:
        c, b = self.config, self.config.budget
        if c.k < 2:
            return
        chosen, _ = self._generate()
        self.interactions = [Interaction(c.base, x, y, combine(x, y, c.base), c.confidence)
                             for x, y in pairs_to_measure(chosen, b.pairs)]
        player = self.players[SEARCHING]
        cap = b.chunks(b.interaction_games)

        def status(d):
            rule_sets = 1 + len({r for x in self.interactions if x.status == PLAYING
                                 for r in x.rule_sets[1:]})
            left = max([cap - x.chunks for x in self.interactions if x.status == PLAYING]
                       + [0])
            info = dict(d, stage="interactions")
            if d.get("finished"):
                self._show(info, left, rule_sets)
            else:
                self.status(info)
        measure(self.interactions, player, target=b.interaction_target, max_chunks=cap,
                first=first_chunk(STAGES["screen"], b.chunk_size), status=status)
        if any(x.status == UNFINISHED for x in self.interactions):
            self.unfinished = True
        self.tau = allowance(self.interactions, b.allowance)

    def _generate(self):
        c, b = self.config, self.config.budget
        return generate(self.singles, self.interactions, self.base["screen"], c.base, c.k,
                        negligible=b.negligible, per_size=b.per_size, tau=self.tau,
                        tau_moves=b.moves_allowance, max_draws=c.max_draws, moves=c.moves,
                        space=self.space)

    def generate(self) -> None:
        c, b = self.config, self.config.budget
        chosen, self.generation = self._generate()
        self.predictions = {cand.rules: p.score for cand, p in chosen}
        self.entries = [Entry(cand, cand.size, Measure(confidence=c.confidence))
                        for cand, _ in chosen]
        looks = b.chunks(b.race_games)
        self.level = simultaneous_level(c.confidence, b.per_size * c.k, looks, c.statistics)

    def race(self) -> None:
        c, b = self.config, self.config.budget
        cap = b.chunks(b.race_games)

        def decide(active):
            look(self.entries, level=self.level, target=b.race_target, max_chunks=cap,
                 max_draws=c.max_draws, moves=c.moves)
        self._paired("race", self.entries, lambda e: e.key.rules, decide, cap)
        self._collect()

    def _collect(self):
        self.results = [CandidateResult(e.key, self.predictions.get(e.key.rules), e.measure,
                                        e.status, self.level) for e in self.entries]
        best = winners(self.entries)
        by_key = {id(e.key): r for e, r in zip(self.entries, self.results)}
        for e in best.values():
            by_key[id(e.key)].winner = True

    def _winners(self):
        return [r for r in self.results if r.winner]

    def confirm(self) -> None:
        """Confirm the winners; a winner whose confirmation's interval lies outside a
        constraint, or whose confirmation games were all draws, is no winner: the next
        standing candidate of its size nearest 50% (by its race figures) is confirmed
        in its place, until one is not outside or none is left."""
        c, b = self.config, self.config.budget
        todo = self._winners()
        while todo:
            self._replay("confirm", SEARCHING, "confirm", b.chunks(b.confirm_games),
                         lambda m: _half(m.estimate("first_score")) <= b.confirm_target,
                         todo=todo)
            if self.unfinished:
                return
            todo = []
            for r in self._winners():
                if "broken" not in verdict(r.confirm, None, c.max_draws, c.moves).values() \
                        and not all_draws(r.confirm):
                    continue
                r.winner = False
                rest = [x for x in self.results if x.size == r.size and x.confirm is None
                        and x.status not in OUT and x.race.n]
                if rest:
                    nxt = min(rest, key=lambda x: (x.race.distance, x.label))
                    nxt.winner = True
                    todo.append(nxt)

    def check(self) -> None:
        c = self.config
        if c.check:
            size = self.players[CHECKING].chunk_size
            self._replay("check", CHECKING, "check", -(-c.check_games // size),
                         lambda m: False, f"check under {c.check}")

    def _replay(self, stage, role, attr, cap, done, label=None, todo=None):
        """Play the winners (or `todo`) again with the base on `stage`'s games, chunk by
        chunk, into each one's measure `attr` (and the base's: each chunk once, however
        many calls play it), each until `done(measure)` or `cap` chunks."""
        c = self.config
        todo = self._winners() if todo is None else todo
        if not todo:
            return
        if stage not in self.base:
            self.base[stage] = Measure(confidence=c.confidence)
            self._base_chunks[stage] = 0
        base = self.base[stage]
        for r in todo:
            setattr(r, attr, Measure(confidence=c.confidence))
        chunk, total = 0, len(todo)
        while todo:
            info = {"playing": len(todo), "total": total}
            got = self._records(role, stage, chunk,
                                [(c.base, c.base)] + [(c.base, r.rules) for r in todo], info)
            if got is None:
                return
            if chunk >= self._base_chunks[stage]:
                base.add(got[(c.base, c.base)][0])
                self._base_chunks[stage] = chunk + 1
            for r in todo:
                getattr(r, attr).add(*got[(c.base, r.rules)])
            chunk += 1
            todo = [r for r in todo if chunk < cap and not done(getattr(r, attr))]
            self._show(dict(info, stage=label or stage, chunk=chunk - 1, playing=len(todo)),
                       cap - chunk if todo else 0, 1 + len(todo), role)

    def stop(self) -> None:
        """Ctrl-C: what was still playing is unfinished."""
        self.unfinished = True
        for x in [*self.singles, *self.interactions, *self.entries]:
            if x.status == PLAYING:
                x.status = UNFINISHED

    def result(self) -> BalanceResult:
        if not self.results and self.entries:
            self._collect()
        played = sum(p.played for p in self.players.values())
        return BalanceResult(self.config, self.base, self.singles, self.interactions,
                             self.generation, self.results, self.tau,
                             played_records=played, elapsed=time.perf_counter() - self.t0,
                             notes=self.notes, complete=not self.unfinished,
                             read_only=not self.play,
                             played_games=sum(p.games for p in self.players.values()),
                             results_file=None if self.store is None else self.store.path)


def _searches_in(store: Store, max_moves: int | None = None
                 ) -> list[tuple[str, str, int, int]]:
    """The searches a results file holds whole chunks of: (base, policy, seed, chunk
    size) of each, read from its base's own games in the first stage (a record of the
    base alone, which the screening plays; not a check's), in the file's order (with
    `max_moves`, only those of that move cap); [] for a file without a record.  (An
    atlas's runs, in a file an earlier version let both commands fill, are not
    searches: `Store.whose`.)"""
    return list(dict.fromkeys((k[0], k[2][0], k[3], k[5]) for k in store.index
                              if k[0] == k[1] and k[-1] < first_chunk(STAGES["race"], k[-2])
                              and max_moves in (None, k[4]) and store.whose(k) == "balance"))


def _unscreened(store: Store, run: _Run) -> list[str]:
    """The labels of the single changes of `run`'s search whose first screening chunk
    the file lacks, when it holds the base's (the file is of this search's run, but
    its space is another: a flag added to the rules since, other flags or deals); []
    when it lacks the base's too."""
    player = run.players[SEARCHING]
    chunk = first_chunk(STAGES["screen"], player.chunk_size)
    base = run.config.base
    if player.key(base, base, chunk) not in store:
        return []
    return [s.variant.label for s in run.singles
            if player.key(base, s.variant.rules, chunk) not in store]


def _check_the_search_in(store: Store, config: BalanceConfig) -> None:
    """A check plays the winners of the search `config` makes, read back from the file
    (a file without it, none: searched first).  A file holding games, but none of this
    search's (reading it only finds no games: what --report-only warns of), holds
    other searches: OtherSearchError, where the check would start this one anew beside
    them."""
    runs = _searches_in(store)
    if not runs:
        return
    reading = _Run(config, store, None, _Status(False, ""), play=False, warn=False)
    reading.run()
    if not reading.result().n_games:
        raise OtherSearchError(store.path, runs)


def _warn_degenerate(base: Rules, held: dict[Rules, str]) -> None:
    """One DegenerateRulesWarning for the degenerate rule sets of a search's space
    (`held`: {rules: why}), where each was one: none when the base is degenerate (it
    was said where the base was made, and its changes inherit it), else the first and
    how many more."""
    if not held or base.degenerate():
        return
    first, why = next(iter(held.items()))
    more = (f" and {quantity(len(held) - 1, 'other rule set')} of the search"
            if len(held) > 1 else "")
    warnings.warn(f"degenerate rules ({first}){more}: {why}; a rule set whose games are "
                  f"all draws is not ranked", DegenerateRulesWarning, stacklevel=4)


def _half(e):
    w = (e.high - e.low) / 2
    return w if w == w else float("inf")


def balance(base: Rules | str | None = "classic", policy: str = "expert", *, k: int = 3,
            flags: Iterable[str] | str | None = None,
            exclude: Iterable[str] | str | None = None,
            deals: Iterable[tuple[int, int]] | None = None, max_draws: float | None = None,
            moves: tuple[float, float] | None = None,
            budget: Budget | dict[str, Any] | None = None, check: str | None = None,
            check_games: int = 2000, seed: int = DEFAULT_SEED,
            results: str | PathLike[str] | None = None, max_moves: int = DEFAULT_MAX_MOVES,
            confidence: float = 0.95, threads: int | None = None, client: Client | None = None,
            progress: bool | Callable[[dict[str, Any]], object] | None = None,
            play: bool = True, quick: bool = False) -> BalanceResult:
    """Search the rule space for rule sets that make the game fair under self-play of
    `policy`: the first player's score (wins plus half the draws) nearest 50%.

    base: the rules changes are made to (a Rules, rule text or None for classic).
    policy: plays both seats (any policy name, "ismcts:N" included).  k: at most that
    many changed flags (default 3).  flags / exclude: the flags the search may change
    (names, a list or comma-separated; default every flag of `cuttle.rules.FLAGS`);
    deals: the deals tried (pairs (first, second); default the `deal` flag's own).
    max_draws: a largest draw rate (a fraction; 0: no draws); moves: (low, high), the range of the
    mean game length in moves.  budget: a `Budget` or a dict of some of its settings
    (defaults: `CHEAP`, `SEARCH` for a search policy, `QUICK` with quick=True, which
    also limits the flags to `QUICK_FLAGS` unless `flags` is given).  check: a policy
    (typically the strongest search bot, "ismcts:1000") that plays the winners and the
    base again, `check_games` games each: the winners of the search in the results
    file (the same call with `check` added reads the search back and plays only the
    check; a file holding games of other searches only is refused with an
    `OtherSearchError`, a ValueError, before anything is played).  results: a
    JSON-lines file every finished chunk is appended to; the chunks it holds are not
    played again, so the same call continues an interrupted search and gives the same
    result; a file of an atlas's runs is refused (`cuttle.variants.errors.ResultsFileError`,
    a ValueError) before anything is played: each command keeps its runs in files of its
    own.  play=False plays nothing: the search as far as the file holds it (a file
    holding no games of it: `cuttle.variants.errors.NothingToReport`, a ValueError
    naming the runs the file holds).
    client: a dask.distributed Client.  threads, max_moves, seed, confidence as for
    `cuttle.simulate`.  Ctrl-C raises `BalanceInterrupted` (a `cuttle.Interrupted`)
    with the search so far.

    The method and why its intervals hold: docs/balance.md and `cuttle.balancing`.
    """
    # (every argument is checked before anything is played or any file is opened)
    quick = check_bool(quick, "quick")
    play = check_bool(play, "play")
    check_progress(progress)
    config = make_config(base, policy, k, flags, exclude, deals, max_draws, moves, budget,
                     check, check_games, seed, max_moves, confidence, threads, quick)
    check_results(results, play)
    check_client(client)
    store = None if results is None else Store(results, write=play, command="balance")
    status = _Status(progress, f"balance, {config.policy} self-play, {config.base}")
    run = _Run(config, store, client, status, play)
    try:
        if store is not None and play and config.check:
            _check_the_search_in(store, config)
        run.run()
        if not play and not run.result().n_games:
            # (reading with other options than the search's finds nothing, and the same
            # call again would play nothing: no unfinished search to continue)
            raise NothingToReport(store.path, _searches_in(store), store.notes,
                                  _unscreened(store, run),
                                  _searches_in(store, config.max_moves))
        return run.result()
    except KeyboardInterrupt:
        status.close()
        run.stop()
        raise BalanceInterrupted(run.result(), None if store is None else store.path,
                                 max(p.cut for p in run.players.values())) from None
    finally:
        status.close()
        if store is not None:
            store.close()
