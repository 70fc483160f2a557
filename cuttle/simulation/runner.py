"""Playing the games of one seeded run: ranges of game indices, natively (the core's
play_batch over all cores) or in Python for callable players, cut into chunks that
drive the progress bar."""

import random
import time

import numpy as np

from .._core import END_NAMES
from .._play import play_batch
from ..errors import IllegalMoveError
from ..game import Game
from ..seeding import derive
from .formats import FIELDS, MATCH_FORMATS, PLAYER_LABELS, match_slots
from .progress import Progress
from .results import MatchResults, SimulationResult, empty_arrays

__all__ = ["Chunks", "Runner", "play_python_game", "reduce_matches", "run"]

MOVE_CAP = END_NAMES.index("move_cap")


def play_python_game(rules, seed, i, funcs, swap_seats, max_moves, out, k):
    """Play game `i` in Python; write its row `k` of `out`."""
    a_seat = 1 if (swap_seats and i & 1) else 0
    g = Game.from_run(rules, seed=seed, index=i)      # the deal of native game i
    rng = random.Random(derive(seed, 2 * i + 1))
    seat_funcs = (funcs[a_seat], funcs[a_seat ^ 1])
    n = 0
    capped = False
    while not g.is_over:
        if n >= max_moves:
            capped = True
            break
        legal = g.legal_moves
        if len(legal) == 1:
            move = legal[0]
        else:
            seat = g.to_move
            ply = g.ply
            move = seat_funcs[seat](g, rng)
            if g.ply != ply:
                raise RuntimeError(f"the policy of player {PLAYER_LABELS[seat ^ a_seat]} changed "
                                   f"the game it was given (game {i}); look ahead on game.copy()")
            if move is None:
                raise IllegalMoveError(f"the policy of player {PLAYER_LABELS[seat ^ a_seat]} "
                                       f"returned no move (game {i})")
        try:
            g.play(move)
        except IllegalMoveError as e:
            raise IllegalMoveError(f"player {PLAYER_LABELS[g.to_move ^ a_seat]}'s policy chose "
                                   f"an illegal move in game {i}: {e}") from None
        n += 1
    out["first"][k] = a_seat
    out["moves"][k] = n
    out["turns"][k] = g.turn_number              # counts from 1, like the core's rows
    out["scores"][k, 0] = g.score(a_seat)
    out["scores"][k, 1] = g.score(a_seat ^ 1)
    if capped:
        out["winner"][k] = -1
        out["end"][k] = MOVE_CAP
    else:
        w = g.winner
        out["winner"][k] = -1 if w is None else w ^ a_seat
        out["end"][k] = END_NAMES.index(g.end_reason)


class Runner:
    """Plays ranges of game indices of one seeded run, natively or in Python."""

    def __init__(self, rules, seed, players, swap_seats, threads, max_moves):
        self.rules, self.seed, self.swap = rules, seed, swap_seats
        self.threads, self.max_moves = threads, max_moves
        self.native = all(p.code is not None for p in players)
        self.codes = [p.code for p in players]
        self.funcs = None if self.native else [p.python_func() for p in players]

    def games(self, start, count):
        if self.native:
            return play_batch(self.rules, start, count, self.seed, self.codes[0], self.codes[1],
                              self.swap, self.threads, self.max_moves)
        out = empty_arrays(count)
        for k in range(count):
            play_python_game(self.rules, self.seed, start + k, self.funcs, self.swap,
                              self.max_moves, out, k)
        return out

    def match_games(self, first_match, m, fmt_wins, slots):
        """The (m * slots) game rows of matches first_match .. +m-1.  In Python only the
        games a match needs are played; the other rows have winner -2."""
        start = first_match * slots
        if self.native:
            return self.games(start, m * slots)
        out = empty_arrays(m * slots)
        out["winner"][:] = -2
        for j in range(m):
            wins = [0, 0]
            for s in range(slots):
                k = j * slots + s
                play_python_game(self.rules, self.seed, start + k, self.funcs, self.swap,
                                  self.max_moves, out, k)
                w = out["winner"][k]
                if w >= 0:
                    wins[w] += 1
                    if wins[w] >= fmt_wins:
                        break
        return out


def reduce_matches(d, m, slots, need):
    """Match outcomes from the (m * slots) game rows of m matches, and the played rows."""
    w = d["winner"].reshape(m, slots)
    a = np.cumsum(w == 0, axis=1, dtype=np.int16)
    b = np.cumsum(w == 1, axis=1, dtype=np.int16)
    done = (a >= need) | (b >= need)
    decided = done.any(axis=1)
    last = np.where(decided, done.argmax(axis=1), slots - 1)
    rows = np.arange(m)
    wins = np.stack([a[rows, last], b[rows, last]], axis=1).astype(np.int8)
    winner = np.where(decided, np.where(wins[:, 0] >= need, 0, 1), -1).astype(np.int8)
    first = d["first"].reshape(m, slots)[:, 0].copy()
    games = (last + 1).astype(np.int8)
    mask = (np.arange(slots)[None, :] < games[:, None]).ravel()
    return winner, first, games, wins, mask


class Chunks:
    """Chunk sizes: fixed, or (adaptive) from 1024 doubling while a chunk takes < 0.2 s."""

    def __init__(self, limit, adaptive):
        self.limit = limit
        self.size = min(limit, 1024) if adaptive else limit
        self.adaptive = adaptive

    def took(self, seconds):
        if self.adaptive and seconds < 0.2 and self.size < self.limit:
            self.size = min(self.limit, self.size * 2)



def run(n, rules, pl, seed, nthreads, swap_seats, match, max_moves, chunk, adaptive,
        progress, threads, desc):
    """Play a whole run and return its SimulationResult."""
    names = [p.name for p in pl]
    t0 = time.perf_counter()
    # In a match the first player alternates game by game: game i's first player follows
    # the parity of i (the core's swap_seats), and the parity of the match's number of
    # game slots decides who starts each match.
    runner = Runner(rules, seed, pl, swap_seats or match is not None, nthreads, max_moves)
    names = [p.name for p in pl]
    t0 = time.perf_counter()

    if match is None:
        arrays = empty_arrays(n)
        bar = Progress(n, progress, desc, "game")
        sizes = Chunks(chunk if runner.native else min(chunk, 64), adaptive)
        lo = 0
        try:
            while lo < n:
                cnt = min(sizes.size, n - lo)
                t = time.perf_counter()
                d = runner.games(lo, cnt)
                sizes.took(time.perf_counter() - t)
                for k in FIELDS:
                    arrays[k][lo:lo + cnt] = d[k]
                lo += cnt
                bar.update(cnt)
        finally:
            bar.close()
        return SimulationResult(arrays, players=names, rules=rules, seed=seed,
                                swap_seats=swap_seats, max_moves=max_moves,
                                elapsed=time.perf_counter() - t0, threads=threads)

    fmt = MATCH_FORMATS[match]
    slots = match_slots(match, swap_seats)
    per_chunk = max(1, chunk // slots) if runner.native else min(max(1, chunk // slots), 16)
    sizes = Chunks(per_chunk, adaptive)
    parts = {k: [] for k in FIELDS}
    idx_parts = []
    mparts = ([], [], [], [])
    bar = Progress(n, progress, desc, "match")
    j0 = 0
    try:
        while j0 < n:
            m = min(sizes.size, n - j0)
            t = time.perf_counter()
            d = runner.match_games(j0, m, fmt.wins, slots)
            sizes.took(time.perf_counter() - t)
            mw, mf, mg, mwins, mask = reduce_matches(d, m, slots, fmt.wins)
            for k in FIELDS:
                parts[k].append(d[k][mask])
            idx_parts.append(np.arange(j0 * slots, (j0 + m) * slots, dtype=np.int64)[mask])
            for lst, arr in zip(mparts, (mw, mf, mg, mwins)):
                lst.append(arr)
            j0 += m
            bar.update(m)
    finally:
        bar.close()
    arrays = {k: np.concatenate(v) for k, v in parts.items()}
    matches = MatchResults(match, slots, *(np.concatenate(x) for x in mparts))
    return SimulationResult(arrays, players=names, rules=rules, seed=seed,
                            swap_seats=swap_seats, max_moves=max_moves, match=match,
                            matches=matches, game_index=np.concatenate(idx_parts),
                            elapsed=time.perf_counter() - t0, threads=threads)


