"""Playing an atlas: for each player pairing and base preset, the base and every
variant on the same games, chunk after chunk, each variant until its interval is
narrow enough (sequential stopping) or it reaches its cap; every finished chunk goes to
the results file at once, so a stopped run continues where it stopped.

Chunk ``c`` of a pairing is the games ``c * chunk_size .. (c + 1) * chunk_size - 1`` of
the seeded run.  In chunk ``c`` the base and every variant still playing are played on
those games (one `cuttle.compare` call: the same deals, the pairs tallied in the core);
a chunk already in the results file is read instead of played (a variant's missing
chunk is played again together with the base, whose record is not written twice).
After each chunk every variant still playing checks its interval: it stops once the
half-width of its first-player win-rate shift is at most the target, or once it has
played its cap.  The decisions depend only on the chunks' exact tallies, so an
interrupted and resumed run takes the very same decisions and gives the very same
result as one uninterrupted run; so does a run on a cluster.  Every record is stamped
with the fingerprint of its own games (`chunks.Stamps`: the first games of the seeded
run under its two rule sets), and a run playing into a results file refuses a record
whose games this cuttle plays otherwise (another version of the engine or policy), so
old and new games never mix.  A record's fingerprint covers nothing else, so a group
with more variants than the file holds (a flag or a value added to the rules since it
was filled) re-uses every record the file has and plays only the variants it lacks,
with the base on their games (a file of an earlier format, stamped by the whole group,
is upgraded first: `cuttle.variants.upgrade`).

Once every variant of a group has finished, its interactions are measured
(`cuttle.variants.interactions`): the pairs of the variants with the clearest shifts of
the first player's score (interval excluding 0) of `interactions` flags, one value of
each, the largest shift, are played with the base and the two variants on the same games, from
chunk 0 on (the records of the base and the variants are read back), until the
interaction's half-width is at most twice the pairing's target or the cap.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from ..policies import is_search, policy_code, policy_name
from ..rules import Rules
from ..seeding import check_seed
from ..progress import Line, note, show_by_default
from ..simulation import DEFAULT_MAX_MOVES, Tally
from ..simulation.api import MAX_CHUNK, MAX_MAX_MOVES, check_client
from ..text import printable
from ..threads import check_threads
from ..validation import check_bool, check_confidence, check_count, check_int, check_target
from .chunks import ChunkPlayer, RunInterrupted, Stamps
from .errors import NothingToReport, check_results
from .interactions import Interaction, clear_changes, measure, pairs_of, score_shift
from .records import chunk_key
from .results import AtlasResult, AtlasRow, GroupResult, first_shift, half_width
from .rulesets import BASES, variants
from .store import Store
from .upgrade import upgrade

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable
    from os import PathLike

    from distributed import Client

__all__ = ["AtlasInterrupted", "DEFAULT_SEED", "Pairing", "QUICK", "atlas", "default_pairings"]

DEFAULT_SEED = 1
# (target half-width, cap in games, chunk size) by kind of player
CHEAP = (0.0025, 1_000_000, 20_000)
SEARCH = (0.015, 20_000, 200)
# --quick: a small atlas in under a minute on two cores
QUICK: dict[str, Any] = {"pairings": ("random", "greedy"), "target": 0.005,
                         "max_games": 200_000, "chunk_size": 10_000}
INTERACTIONS = 6           # flags whose clearest variants' pairs a group measures (0: none)
MAX_INTERACTIONS = 20      # the most `interactions` takes
PLAYING, CONVERGED, CAPPED, UNFINISHED = "playing", "converged", "capped", "unfinished"
MAX_GAMES = 10 ** 12                            # a variant's cap


class Pairing:
    """One player pairing of the atlas: `policy` plays both seats (self-play; the same
    policy moves first in every game, so that the first- and second-player win rates
    and the draws are each paired between rule sets); each variant plays until the
    half-width of its first-player win-rate shift is at most `target` (a fraction:
    0.0025 = 0.25 percentage points) or it has played `max_games` (rounded up to whole
    chunks of `chunk_size` games).  A `chunk_size` larger than `max_games` is refused;
    left out, it is the default chunk or `max_games`, whichever is smaller."""

    __slots__ = ("policy", "target", "max_games", "chunk_size")

    def __init__(self, policy: str, target: float | None = None, max_games: int | None = None,
                 chunk_size: int | None = None):
        if not isinstance(policy, str) or "," in policy:
            raise ValueError(f"a pairing is one policy name, played by both players "
                             f"(self-play), not {policy!r}")
        self.policy = policy_name(policy)               # ValueError naming the valid ones
        # A search is slow: looser defaults.
        d_target, d_cap, d_chunk = SEARCH if is_search(self.policy) else CHEAP
        self.target = check_target(d_target if target is None else target)
        self.max_games = check_count(d_cap if max_games is None else max_games, "max_games",
                                     MAX_GAMES)
        self.chunk_size = check_count(min(d_chunk, self.max_games) if chunk_size is None
                                      else chunk_size, "chunk_size", MAX_CHUNK)
        # Games are played in whole chunks: a larger chunk would play past the cap
        # (--max-games 1000 --chunk-size 5000 played 5,000 games "at the cap of 1,000").
        if self.chunk_size > self.max_games:
            raise ValueError(f"chunk_size {self.chunk_size:,} is larger than max_games "
                             f"{self.max_games:,} for {self.policy} (the games are played "
                             f"in whole chunks); give a chunk size of at most the cap")

    @property
    def players(self) -> tuple[str, str]:
        """(policy, policy): the players A and B."""
        return (self.policy, self.policy)

    @property
    def max_chunks(self) -> int:
        """The cap in whole chunks."""
        return -(-self.max_games // self.chunk_size)

    def as_dict(self) -> dict[str, Any]:
        """The settings as JSON."""
        return {"policy": self.policy, "target": self.target, "max_games": self.max_games,
                "chunk_size": self.chunk_size}

    def __eq__(self, other):
        return isinstance(other, Pairing) and self.as_dict() == other.as_dict()

    __hash__ = None

    def __repr__(self):
        return (f"Pairing({self.policy!r}, target={self.target}, max_games={self.max_games}, "
                f"chunk_size={self.chunk_size})")


def _per_policy(value, policy):
    """A setting for `policy` from one value for all, or a {policy: value} dict."""
    if isinstance(value, dict):
        keys = {str(k).strip().lower(): v for k, v in value.items()}
        return keys.get(policy)
    return value


def _pairings(pairings, target, max_games, chunk_size):
    if pairings is None:
        pairings = default_pairings()
    if isinstance(pairings, (str, Pairing)):
        pairings = [pairings]
    out = []
    for p in pairings:
        if not isinstance(p, Pairing):
            name = p.strip().lower() if isinstance(p, str) else p
            p = Pairing(p, _per_policy(target, name), _per_policy(max_games, name),
                        _per_policy(chunk_size, name))
        if any(q.policy == p.policy for q in out):
            raise ValueError(f"pairing {p.policy!r} is given twice")
        out.append(p)
    if not out:
        raise ValueError("the atlas needs at least one pairing")
    for name, value in (("target", target), ("max_games", max_games),
                        ("chunk_size", chunk_size)):
        extra = set(value) - {p.policy for p in out} if isinstance(value, dict) else ()
        if extra:
            raise ValueError(f"{name} names {', '.join(sorted(extra))}, which is not a pairing")
    return tuple(out)


def default_pairings() -> tuple[str, ...]:
    """Self-play of random, greedy and expert (when this cuttle has it)."""
    out = []
    for name in ("random", "greedy", "expert"):
        try:
            policy_code(name)
        except ValueError:
            continue
        out.append(name)
    return tuple(out)


def _bases(bases):
    if isinstance(bases, (str, Rules)):
        bases = [bases]
    out = []
    for b in bases:
        rules = Rules.coerce(b)                         # ValueError naming the presets
        if rules.changed() or b is None:
            raise ValueError(f"a base is a preset (the atlas varies its flags one at a "
                             f"time), not {b!r}; presets: {', '.join(Rules.presets)}")
        name = rules.preset
        if name in out:
            raise ValueError(f"base {name!r} is given twice")
        out.append(name)
    if not out:
        raise ValueError("the atlas needs at least one base preset")
    return tuple(out)


class AtlasConfig:
    """What an atlas plays: base presets, pairings, seed, move cap (the chunks' key),
    and the confidence level and threads."""

    def __init__(self, bases: tuple[str, ...], pairings: tuple[Pairing, ...], seed: int,
                 max_moves: int, confidence: float, threads: int | None,
                 interactions: int = INTERACTIONS):
        self.bases, self.pairings = bases, pairings
        self.seed, self.max_moves = seed, max_moves
        self.confidence, self.threads = confidence, threads
        self.interactions = interactions

    def as_dict(self) -> dict[str, Any]:
        return {"bases": list(self.bases), "pairings": [p.as_dict() for p in self.pairings],
                "seed": self.seed, "max_moves": self.max_moves,
                "confidence": self.confidence, "interactions": self.interactions}


class AtlasInterrupted(RunInterrupted):
    """Ctrl-C stopped an atlas: `result` is the atlas so far (every finished chunk; the
    variants still playing are marked unfinished), and every finished chunk is in the
    results file, if there is one: `atlas()` called again with the same arguments and
    results file continues."""

    function = "atlas()"


class _Status:
    """Progress: a `cuttle.progress.Line` on stderr (rewritten in place on a terminal,
    else only each chunk's final line), or a callable given each step as a dict."""

    def __init__(self, mode):
        self.callback = mode if callable(mode) else None
        tty = show_by_default()
        show = self.callback is None and (tty if mode is None else bool(mode))
        self.line = Line(inplace=tty) if show else None

    def __call__(self, info, final=False):
        if self.callback is not None:
            self.callback(dict(info))
        elif self.line is not None:
            self.line.show(lambda: _status_text(info), final)

    @property
    def shown(self):
        """Whether the status is shown on stderr (not given to a callable)."""
        return self.line is not None

    def note(self, text):
        """`text` on a line of its own above the status line, where that is shown."""
        if self.shown:
            note(printable(text))

    def close(self):
        if self.line is not None:
            self.line.clear()


def _group_head(players, base):
    return f"atlas, {players[0]} self-play, {base}"


def _chunk_done(read, played):
    """A finished chunk: "done", or what of it was read from the results file."""
    if not read:
        return "done"
    return "read from the file" if not played else \
        f"done ({played} played, {read} read from the file)"


def _status_text(info):
    # (a chunk's records the results file holds are read, not played: `read` of them;
    # the line counts what is played)
    head = f"{_group_head(info['players'], info['base'])}: chunk {info['chunk']}"
    what, total = "variants", info.get("variants")
    if info.get("stage") == "interactions":
        head = f"{_group_head(info['players'], info['base'])}: interactions, " \
               f"chunk {info['chunk']}"
        what, total = "pairs", info["total"]
    read, played = info.get("read", 0), info.get("played")
    if info.get("finished"):
        still = "still " if what == "variants" else ""
        return (f"{head} {_chunk_done(read, played)}, {info['playing']} of {total} "
                f"{what} {still}playing")
    done = info.get("done")
    pct = f" {done / info['count']:4.0%}" if done is not None and info.get("count") else ""
    sep = "," if what == "variants" else ""
    also = f" ({read} read from the file)" if read else ""
    return (f"{head}{pct}{sep} {info['playing'] if played is None else played} of "
            f"{total} {what} playing{also}")


class _VariantRun:
    __slots__ = ("variant", "tally", "pair", "base_tally", "chunks", "status")

    def __init__(self, variant):
        self.variant = variant
        self.tally = self.pair = self.base_tally = None
        self.chunks = 0
        self.status = PLAYING

    def add(self, tally, pair, base_tally):
        self.tally = tally if self.tally is None else self.tally + tally
        self.pair = pair if self.pair is None else self.pair + pair
        self.base_tally = base_tally          # the base over the same chunks
        self.chunks += 1

    def decide(self, pairing, confidence):
        if half_width(first_shift(self.pair, confidence)) <= pairing.target:
            self.status = CONVERGED
        elif self.chunks >= pairing.max_chunks:
            self.status = CAPPED


class _GroupRun:
    """One base preset under one pairing, chunk by chunk."""

    def __init__(self, config, pairing, base):
        self.config, self.pairing = config, pairing
        self.base = Rules(base)
        self.runs = [_VariantRun(v) for v in variants(base)]
        self.base_tally = Tally()
        self.chunks = 0
        self.played = 0               # records played (and written) by this run
        self.games = 0                # games played by this run (every rule set's)
        self.cut = 0                  # games of the chunk Ctrl-C cut short (parts)
        self.engine = None            # the fingerprint, when playing into a file
        self.interactions: list[Interaction] = []

    def key(self, rules, chunk):
        c, p = self.config, self.pairing
        return chunk_key(self.base.preset, rules, p.players, c.seed, c.max_moves,
                         p.chunk_size, chunk)

    def stamps(self):
        """The fingerprints of the group's records (`chunks.Stamps`), the first games of
        the base and every variant played at once."""
        c = self.config
        stamps = Stamps(self.pairing.policy, c.seed, c.max_moves, c.threads)
        stamps.prime([self.base, *(r.variant.rules for r in self.runs)])
        return stamps

    def run(self, store, client, status, play):
        if store is not None and play:
            if store.legacy:                # (the first group upgrades the whole file)
                upgrade(store, self.config.threads)
            self.engine = self.stamps()
            if status.shown:
                status.note(self.held_text(store))
        p = self.pairing
        # The base's and the variants' records are keyed by the base preset's name: a
        # record against Rules(base) is the atlas's (see ChunkPlayer).
        player = ChunkPlayer(store, p.players, self.config.seed, self.config.max_moves,
                             p.chunk_size, threads=self.config.threads, client=client,
                             engine=self.engine, play=play)
        try:
            self.play_variants(store, player, status, play)
            if self.config.interactions and all(r.status in (CONVERGED, CAPPED)
                                                for r in self.runs):
                self.play_interactions(player, status)
        finally:
            self.played, self.cut = player.played, player.cut
            self.games = player.games

    def held_text(self, store):
        """What the file holds of the group's variants, in words: those its records
        play out (as a reading without playing finds them) and those left to play."""
        c, p = self.config, self.pairing
        dry = _GroupRun(c, p, self.base.preset)
        reader = ChunkPlayer(store, p.players, c.seed, c.max_moves, p.chunk_size, play=False)
        dry.play_variants(store, reader, lambda info, final=False: None, play=False)
        done = sum(r.status in (CONVERGED, CAPPED) for r in dry.runs)
        begun = sum(r.status == UNFINISHED and r.chunks > 0 for r in dry.runs)
        text = (f"{_group_head(p.players, self.base.preset)}: {done} of {len(dry.runs)} "
                f"variants already played in {store.path}, {len(dry.runs) - done} to play")
        return text + (f" ({begun} of them partly played)" if begun else "")

    def play_interactions(self, player, status):
        """The interactions of the variants with the clearest score shifts."""
        conf = self.config.confidence
        shifts = [(r.variant, score_shift(r.tally, r.pair, conf)) for r in self.runs]
        clear = clear_changes(shifts, self.config.interactions)
        self.interactions = [Interaction(self.base, a, b, ab, conf)
                             for a, b, ab in pairs_of(clear, self.base)]
        info = {"players": self.pairing.players, "base": self.base.preset}
        measure(self.interactions, player, target=2 * self.pairing.target,
                max_chunks=self.pairing.max_chunks,
                status=lambda d: status(dict(info, **d), final=bool(d.get("finished"))))

    def play_variants(self, store, player, status, play):
        while True:
            active = [r for r in self.runs if r.status == PLAYING]
            if store is not None and not play:
                # reading only: a variant whose chunk the file lacks stops there, the
                # others go on (an interrupted file shows each variant as far as it got)
                for r in active:
                    if self.key(r.variant.rules, self.chunks) not in store:
                        r.status = UNFINISHED
                active = [r for r in active if r.status == PLAYING]
            if not active:
                return
            # (the variants whose records of the chunk the file holds are read)
            read = sum(player.holds(self.chunks, [(self.base, r.variant.rules)])
                       for r in active)
            info = {"players": self.pairing.players, "base": self.base.preset,
                    "chunk": self.chunks, "playing": len(active), "variants": len(self.runs),
                    "read": read, "played": len(active) - read}
            wanted = [(self.base, self.base)] + [(self.base, r.variant.rules) for r in active]
            got = player.records(self.chunks, wanted, lambda done, total: status(
                dict(info, done=done, count=total)))
            if got is None:                  # not playing, and the file lacks the chunk
                for r in active:
                    r.status = UNFINISHED
                return
            self.base_tally = self.base_tally + got[wanted[0]][0]
            self.chunks += 1
            for r, w in zip(active, wanted[1:]):
                tally, pair = got[w]
                r.add(tally, pair, self.base_tally)
                r.decide(self.pairing, self.config.confidence)
            status(dict(info, playing=sum(r.status == PLAYING for r in self.runs),
                        finished=True), final=True)

    def result(self):
        p, conf = self.pairing, self.config.confidence
        common = dict(players=p.players, seed=self.config.seed,
                      max_moves=self.config.max_moves, confidence=conf)
        rows = [AtlasRow(None, self.base, self.base_tally, None, None, self.chunks,
                         "base", **common)]
        for r in self.runs:
            status = UNFINISHED if r.status == PLAYING else r.status
            rows.append(AtlasRow(r.variant, r.variant.rules, r.tally, r.pair, r.base_tally,
                                 r.chunks, status, **common))
        for x in self.interactions:
            if x.status == "playing":
                x.status = UNFINISHED
        return GroupResult(self.base.preset, p, rows, self.interactions)


def atlas(pairings: str | Pairing | Iterable[str | Pairing] | None = None,
          bases: str | Rules | Iterable[str | Rules] = BASES, *, seed: int = DEFAULT_SEED,
          target: float | dict[str, float] | None = None,
          max_games: int | dict[str, int] | None = None,
          chunk_size: int | dict[str, int] | None = None,
          results: str | PathLike[str] | None = None, max_moves: int = DEFAULT_MAX_MOVES,
          confidence: float = 0.95, threads: int | None = None, client: Client | None = None,
          progress: bool | Callable[[dict[str, Any]], object] | None = None,
          play: bool = True, quick: bool = False,
          interactions: int = INTERACTIONS) -> AtlasResult:
    """The variant atlas: how each house rule shifts the game against its base preset.

    For each pairing (a policy name playing both seats; default: random, greedy and,
    when available, expert self-play) and each base preset (default classic and
    cuttle.cards), the base and each of its variants (`cuttle.variants.rulesets.variants`: every
    flag value of `cuttle.rules.FLAGS` alone on the base, and the named presets on their
    own base) are played on the same games, chunk by chunk, until each variant's
    first-player win-rate shift is known to within `target` (a half-width, as a
    fraction: 0.0025 = 0.25 percentage points; default 0.0025, and 0.015 for a search
    like ismcts:N) or it reaches `max_games` games (default 1,000,000; 20,000 for a
    search).  `target`, `max_games` and `chunk_size` (games per chunk, at most
    `max_games`; default 20,000, 200 for a search, or `max_games` if smaller) take one
    value for all pairings or a {policy: value} dict; a pairing may also be given as a
    `Pairing`, which carries its own settings.

    results: a path: every finished chunk is appended to this JSON-lines file (see
    `cuttle.variants.store`), and the chunks it holds are not played again, so running
    the same call again continues an interrupted atlas (to the result of one run), or
    extends a file of fewer variants with the new ones (one of the earlier format is
    upgraded: `cuttle.variants.upgrade`; a search's refused: `ResultsFileError`).  play=False plays nothing: the atlas
    of what the file holds (variants it lacks chunks for are "unfinished"; a file
    holding no games of these options: `cuttle.variants.errors.NothingToReport`, a
    ValueError naming the runs it holds).  quick=True: a small atlas in under a minute
    (random and greedy, 0.5 points, small caps), unless those options are given.
    interactions: how many flags of each group have their variant with the clearest
    shift of the first player's score (an interval excluding 0) in the pairs measured
    once the group's variants are done; a variant changing two flags (hand_limit_mode
    with its hand_limit) counts for both (`cuttle.variants.interactions`; 0: none).
    client: a dask.distributed Client to play the chunks on.
    progress: a status line on stderr (None: on a terminal; True, False) counting the
    variants a chunk plays, not those it reads from `results`, and at a group's start
    how many of its variants the file holds played out; or a callable given each step
    as a dict (players, base, chunk, playing: the variants still playing, variants; done
    and count as a chunk plays; finished; read and played: how many of those playing
    the chunk reads and plays; stage "interactions", total: the interactions' pairs).
    threads, max_moves, seed, confidence as for `cuttle.simulate`.  Ctrl-C raises
    `AtlasInterrupted` (a `cuttle.Interrupted`) with the atlas so far.
    """
    quick, play = check_bool(quick, "quick"), check_bool(play, "play")
    config = _config(pairings, bases, seed, target, max_games, chunk_size, max_moves,
                     confidence, threads, quick, interactions)
    check_results(results, play)
    check_client(client)
    t0 = time.perf_counter()
    store = None if results is None else Store(results, write=play, command="atlas")
    status = _Status(progress)
    groups: list[_GroupRun] = []

    def result():
        return AtlasResult(config, [g.result() for g in groups],
                           played_records=sum(g.played for g in groups),
                           played_games=sum(g.games for g in groups),
                           elapsed=time.perf_counter() - t0,
                           notes=[] if store is None else list(store.notes))
    try:
        for pairing in config.pairings:
            for base in config.bases:
                groups.append(_GroupRun(config, pairing, base))
                groups[-1].run(store, client, status, play)
        return _read_some(result(), store, config, play)
    except KeyboardInterrupt:
        status.close()
        raise AtlasInterrupted(result(), None if store is None else store.path,
                               max((g.cut for g in groups), default=0)) from None
    finally:
        status.close()
        if store is not None:
            store.close()


def _read_some(res, store, config, play):
    """`res`, unless a reading without playing found nothing of these options to read
    (nor would the same call play any): NothingToReport."""
    if not play and not res.n_games:
        raise NothingToReport(store.path, store.runs(), store.notes,
                              capped=store.runs(config.max_moves))
    return res


def _quick_defaults(pairings, target, max_games, chunk_size):
    """The quick atlas's settings for those not given."""
    pairings = QUICK["pairings"] if pairings is None else pairings
    target = QUICK["target"] if target is None else target
    max_games = QUICK["max_games"] if max_games is None else max_games
    if chunk_size is None:
        # (a smaller cap than the quick chunk's takes chunks of the cap)
        chunk_size = QUICK["chunk_size"] if not isinstance(max_games, int) else \
            min(QUICK["chunk_size"], max_games)
    return pairings, target, max_games, chunk_size


def _config(pairings, bases, seed, target, max_games, chunk_size, max_moves, confidence,
            threads, quick, interactions):
    if quick:
        pairings, target, max_games, chunk_size = _quick_defaults(pairings, target,
                                                                  max_games, chunk_size)
    if seed is None:
        raise ValueError("the atlas needs a fixed seed (its chunks are keyed by it), "
                         "not None")
    seed = check_seed(seed)
    confidence = check_confidence(confidence)
    max_moves = check_count(max_moves, "max_moves", MAX_MAX_MOVES)
    check_threads(threads)
    config = AtlasConfig(_bases(bases), _pairings(pairings, target, max_games, chunk_size),
                         seed, max_moves, confidence, threads)
    config.interactions = check_int(interactions, "interactions", 0, MAX_INTERACTIONS)
    return config
