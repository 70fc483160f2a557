"""What a dask cluster's workers run for `cuttle.simulation.cluster`: a chunk's task
(`play_checked`), played in pieces that stop once it is cancelled (`play_pieces`), a
policy in Python that fails in it handed back with the chunk's units before its game
(`FailedChunk`), and the build each worker must run (`build`), which every task checks
and `cluster.check_cluster` asks each worker for.

Nothing here imports dask at module level: the client's process imports this module
whether it has dask or not (`cluster` does, once a client is given)."""

from __future__ import annotations

import functools
import hashlib
import json
import time
from typing import TYPE_CHECKING

from ..errors import ClusterError, PolicyError
from .names import DEFAULT_MAX_MOVES
from .players import resolve_players
from .runner import Chunks, Plan, play_chunk

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from .compare import ComparisonResult
    from .results import SimulationResult

__all__ = ["ChunkCancelled", "FailedChunk", "build", "play_checked", "play_pieces"]

BUILD_GAMES = 32              # games of `build`'s digest of the engine
BUILD_PYTHON_GAMES = 4        # games of its digest of games played in Python
PIECE_SECONDS = 0.05          # a chunk's pieces grow while quicker (so: < 0.2 s each)


def _uniform(game, rng):
    """`build`'s player in Python: a legal move drawn from its seat's rng."""
    moves = game.legal_moves
    return moves[rng.randrange(len(moves))]


def _digest(players, n: int) -> str:
    """A digest of the tally of the first `n` games of seed 0 under classic rules
    between `players`."""
    from ..rules import Rules
    plan = Plan([Rules()], resolve_players(players), 0, True, DEFAULT_MAX_MOVES, None, 1,
                False)
    state = [x.tolist() if hasattr(x, "tolist") else x
             for x in play_chunk(plan, 0, n).tally.__getstate__()]
    return hashlib.sha256(json.dumps(state, sort_keys=True).encode()).hexdigest()[:16]


@functools.cache
def build() -> tuple[str, int, str, str]:
    """This process's cuttle, as the cluster checks it: (version, games revision, a
    digest of the engine: the tally of the first BUILD_GAMES games of random against
    greedy, and one of games played in Python: of BUILD_PYTHON_GAMES games of a
    player in Python against random, each seat drawing from its own stream,
    `seeding.seat_seed`).  A worker of another build would play other games (the
    digests are a cheap guard against a build that plays otherwise under the same
    version and revision, not a proof; the streams of games with a player in Python
    are no part of the games revision)."""
    from .._version import GAME_REVISION, __version__
    return (__version__, GAME_REVISION, _digest(("random", "greedy"), BUILD_GAMES),
            _digest((_uniform, "random"), BUILD_PYTHON_GAMES))


def _described(b: Sequence[object]) -> str:
    # (a worker of an older build says no digest of games in Python)
    return f"version {b[0]}, games revision {b[1]}, engine {b[2]}" + \
        (f", games in Python {b[3]}" if len(b) > 3 else "")


def another_build(worker: str, theirs: Sequence[object],
                  ours: Sequence[object]) -> ClusterError:
    """The error of `worker`, which runs the build `theirs`, not ours."""
    return ClusterError(f"the dask worker {worker} runs another cuttle ({_described(theirs)} "
                        f"there; {_described(ours)} here): install the same pycuttle on every "
                        f"machine of the cluster, so that no game depends on the machine")


class ChunkCancelled(Exception):
    """A chunk's task was cancelled while it played (`play_pieces`): nobody waits for
    its result any more."""


class FailedChunk:
    """What a chunk's task hands back when a policy in Python failed in it: the
    `PolicyError` (`raised`), and `part`, the result of the chunk's units before the
    game it failed in (None if none).  Handed back, not raised: a task's exception is
    logged by its worker with a long traceback, and crosses to the client without the
    chunk's finished part (`PolicyError.__reduce__`)."""

    def __init__(self, error: PolicyError):
        self.part = error.__dict__.pop("part", None)
        self.error = _shippable(error)

    def raised(self) -> PolicyError:
        """The PolicyError, carrying the chunk's finished part as a local chunk's does
        (`collect` keeps it)."""
        self.error.part = self.part
        return self.error


def _shippable(e: PolicyError) -> PolicyError:
    """`e` as it may cross to the client: with the exception the policy raised and its
    traceback (`__cause__`, whose frames the command line prints), pickled as dask
    pickles a task's error; without them where they cannot be (an exception of the
    user's that does not pickle, say: the message names it)."""
    import tblib.pickling_support
    from distributed.protocol import pickle
    causes, c = [], e.__cause__
    while c is not None and len(causes) < 8:
        causes.append(c)
        c = c.__cause__
    tblib.pickling_support.install(e, *causes)
    try:
        pickle.loads(pickle.dumps(e))
    except Exception:           # noqa: BLE001 (whatever the user's exception does)
        e.__cause__ = e.__context__ = None
    return e


def play_checked(expected: tuple[str, ...], plan: Plan, start: int,
                 count: int) -> SimulationResult | ComparisonResult | FailedChunk:
    """A cluster task: units start..start+count-1 of `plan` on a worker, which must
    run the client's build `expected` (ClusterError if it does not), played in pieces
    that stop once the task is cancelled (`play_pieces`); a policy in Python that fails
    is handed back as a `FailedChunk`."""
    from distributed import get_worker
    try:
        worker = get_worker()
    except ValueError:              # (called outside a worker)
        worker = None
    here = build()
    if tuple(here) != tuple(expected):
        raise another_build("(none)" if worker is None else worker.address, here, expected)
    try:
        if worker is None:
            return play_chunk(plan, start, count)
        key = worker.get_current_task()

        def cancelled() -> bool:
            task = worker.state.tasks.get(key)
            return task is None or task.state == "cancelled"
        return play_pieces(plan, start, count, cancelled)
    except PolicyError as e:
        return FailedChunk(e)


def play_pieces(plan: Plan, start: int, count: int, cancelled: Callable[[], bool],
                first: int | None = None) -> SimulationResult | ComparisonResult:
    """`play_chunk(plan, start, count)`, played in pieces (from `first` units, or the
    plan's first chunk, growing x4 while a piece takes under PIECE_SECONDS) and merged:
    the same result, exactly.  Between two pieces, ChunkCancelled if `cancelled()`.
    (dask lets a running task whose future was cancelled run to its end: a whole chunk
    went on playing for seconds after Ctrl-C, minutes with a large chunk_size.)  A
    PolicyError carries the chunk's units before the failing game, as `play_chunk`'s
    does: the pieces before it and its piece's."""
    t0 = time.perf_counter()
    pieces = Chunks(count, True, target=PIECE_SECONDS, factor=4,
                    first=plan.first_chunk if first is None else first)
    parts = []
    lo, stop = start, start + count
    while lo < stop:
        if parts and cancelled():
            raise ChunkCancelled(f"units {start}..{stop - 1}: cancelled after {lo - start}")
        n = min(pieces.size, stop - lo)
        try:
            parts.append(play_chunk(plan, lo, n))
        except PolicyError as e:
            before = parts + ([e.part] if e.part is not None else [])
            e.part = _merged(before, t0) if before else None
            raise
        pieces.took(parts[-1].elapsed, n)
        lo += n
    return _merged(parts, t0)


def _merged(parts: list, t0: float) -> SimulationResult | ComparisonResult:
    """The merged result of a chunk's pieces, timed from `t0`."""
    while len(parts) > 1:           # (pairwise: merging rows copies them)
        parts = [parts[i].merge(parts[i + 1]) if i + 1 < len(parts) else parts[i]
                 for i in range(0, len(parts), 2)]
    return parts[0].with_elapsed(time.perf_counter() - t0)
