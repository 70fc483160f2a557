"""Simulations: many games (or matches) between two players, with summary statistics.

>>> import cuttle
>>> res = cuttle.simulate(100_000, players=("greedy", "random"), seed=1)
>>> print(res.summary())                  # a table; res.summary().as_dict() for JSON
>>> res.summary().win_rate("A")           # (rate, low, high), 95 % Wilson interval
>>> cmp = cuttle.compare(["classic", cuttle.Rules(four="random")], 100_000, seed=1)
>>> print(cmp)                            # each rule set and its difference to the first

**Players.**  A player is a policy name (`player_names()`: "random", "greedy"), played by
the native core over all cores, or a Python callable ``policy(game) -> move`` choosing
one of ``game.legal_moves`` (optionally ``policy(game, rng)``, where ``rng`` is a
`random.Random` seeded per game, for reproducible random choices).  A policy must not
change the game it is given (use ``game.copy()`` to look ahead); it is not consulted when
only one move is legal.  If either player is a callable, the games are played in Python
with `cuttle.Game` (much slower); a named policy then makes the core's own choice for
each position, drawing its randomness from the game's `rng`.  Game ``i`` is dealt
exactly as in a native run, so the deals are the same; the moves are reproducible too.

**Seeds and game indices.**  A run is identified by its ``seed``: game ``i`` is dealt and
played from the pair ``(seed, i)`` alone, so results do not depend on the thread count or
on how the run is cut into chunks (`chunk_size`, used to drive the progress bar), and
the first ``m`` games of a longer run are the games of a run of ``m``.  ``seed=None``
picks a random seed and records it in the result (``result.seed``) so the run can be
repeated.  With ``swap_seats`` (the default) player A moves first in even-numbered games
and B in odd-numbered ones; without it A always moves first.

**Matches.**  ``match="best_of_3"`` (first to 2 game wins) or ``"first_to_3"`` (first to 3
game wins) plays matches instead of games; ``n`` then counts matches.  Drawn games do not
count towards a match, and the first player alternates game by game.  Match ``j`` owns
the game indices ``j*K .. j*K+K-1`` (``K = MATCH_FORMATS[match].slots``: 7 for best of 3,
11 for first to 3; one more without ``swap_seats``) and plays them in order until a
player has won enough games; a match not decided within its ``K`` games is a drawn
match.  Because ``K`` is odd, A moves first in the first game of even-numbered matches
and B in odd-numbered ones (without ``swap_seats``, ``K`` is even and A starts every
match).  The native core plays all ``K`` games of a match (about 2.5 times the games
actually needed; they are cheap), Python players only the games needed.
"""

import inspect
import math
import os
import random
import sys
import time
from collections import namedtuple

import numpy as np

from ._core import END_NAMES
from ._play import decide, play_batch
from .policies import POLICY_NAMES, policy_code
from .report import comparison_html, summary_html
from .errors import IllegalMoveError
from .game import Game
from .moves import Move
from .rules import Rules
from .seeding import derive, seed_or_new
from .stats import (Estimate, mean_difference, mean_interval_from_moments,
                    newcombe_interval, newcombe_paired_interval, paired_mean_difference,
                    wilson_interval, z_value)

__all__ = ["simulate", "compare", "SimulationResult", "ComparisonResult", "MatchResults",
           "Summary", "MATCH_FORMATS", "player_names", "native_policy_code"]

DEFAULT_CHUNK = 1 << 16
DEFAULT_MAX_MOVES = 10000
PLAYER_LABELS = ("A", "B")
SEATS = ("first", "second")

MatchFormat = namedtuple("MatchFormat", "wins slots description")
MATCH_FORMATS = {
    "best_of_3": MatchFormat(2, 7, "best of 3 (first to 2 game wins)"),
    "first_to_3": MatchFormat(3, 11, "first to 3 game wins"),
}


# ---------------------------------------------------------------------------------------
# Players

_CALLABLE_HINT = " (or, from Python, a callable policy(game) -> move)"


def player_names() -> tuple:
    """The names of the native policies ("ismcts:N" stands for a family)."""
    return POLICY_NAMES


def native_policy_code(name: str) -> int:
    """The core's code for the policy `name` (see `cuttle.policies`)."""
    if not isinstance(name, str):
        raise ValueError(f"a player must be a policy name ({', '.join(player_names())}) "
                         f"or a callable policy(game) -> move, not {name!r}")
    try:
        return policy_code(name)
    except ValueError as e:
        raise ValueError(f"player {name!r}: {e}{_CALLABLE_HINT}") from None


class _Player:
    """A resolved player: a native policy code, or a Python function (game, rng) -> move."""

    __slots__ = ("name", "code", "func")

    def __init__(self, spec):
        if callable(spec):
            self.code = None
            self.name = getattr(spec, "__name__", None) or type(spec).__name__
            self.func = _with_rng(spec)
        else:
            self.code = native_policy_code(spec)        # ValueError for a non-name
            self.name = spec.strip().lower()
            self.func = None

    def python_func(self):
        """The player as a function (game, rng) -> move, for games played in Python (a
        named policy makes the core's own choice for the position)."""
        if self.func is not None:
            return self.func
        code = self.code

        def native(game, rng):
            return Move.from_code(decide(game, code, rng.getrandbits(64)))
        return native


def _with_rng(f):
    """Adapt policy(game) or policy(game, rng) to the form (game, rng)."""
    try:
        inspect.signature(f).bind(None, None)
        return f
    except (TypeError, ValueError):      # ValueError: no signature (some builtins)
        return lambda game, rng: f(game)


def _resolve_players(players):
    if isinstance(players, str):
        players = players.split(",")
    try:
        players = list(players)
    except TypeError:
        raise ValueError(f"players must be a pair (player A, player B), not {players!r}") from None
    if len(players) == 1:
        players = players * 2
    if len(players) != 2:
        raise ValueError(f"players must be a pair (player A, player B), not {players!r}")
    return [_Player(p) for p in players]


# ---------------------------------------------------------------------------------------
# Playing games

def _empty_arrays(n):
    return {"winner": np.empty(n, np.int8), "first": np.empty(n, np.int8),
            "moves": np.empty(n, np.int32), "turns": np.empty(n, np.int32),
            "scores": np.empty((n, 2), np.int8), "end": np.empty(n, np.int8)}


_FIELDS = ("winner", "first", "moves", "turns", "scores", "end")
_MOVE_CAP = END_NAMES.index("move_cap")


def _play_python_game(rules, seed, i, funcs, swap_seats, max_moves, out, k):
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
    out["turns"][k] = g.turn_number
    out["scores"][k, 0] = g.score(a_seat)
    out["scores"][k, 1] = g.score(a_seat ^ 1)
    if capped:
        out["winner"][k] = -1
        out["end"][k] = _MOVE_CAP
    else:
        w = g.winner
        out["winner"][k] = -1 if w is None else w ^ a_seat
        out["end"][k] = END_NAMES.index(g.end_reason)


class _Runner:
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
        out = _empty_arrays(count)
        for k in range(count):
            _play_python_game(self.rules, self.seed, start + k, self.funcs, self.swap,
                              self.max_moves, out, k)
        return out

    def match_games(self, first_match, m, fmt_wins, slots):
        """The (m * slots) game rows of matches first_match .. +m-1.  In Python only the
        games a match needs are played; the other rows have winner -2."""
        start = first_match * slots
        if self.native:
            return self.games(start, m * slots)
        out = _empty_arrays(m * slots)
        out["winner"][:] = -2
        for j in range(m):
            wins = [0, 0]
            for s in range(slots):
                k = j * slots + s
                _play_python_game(self.rules, self.seed, start + k, self.funcs, self.swap,
                                  self.max_moves, out, k)
                w = out["winner"][k]
                if w >= 0:
                    wins[w] += 1
                    if wins[w] >= fmt_wins:
                        break
        return out


def _reduce_matches(d, m, slots, need):
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


class _Chunks:
    """Chunk sizes: fixed, or (adaptive) from 1024 doubling while a chunk takes < 0.2 s."""

    def __init__(self, limit, adaptive):
        self.limit = limit
        self.size = min(limit, 1024) if adaptive else limit
        self.adaptive = adaptive

    def took(self, seconds):
        if self.adaptive and seconds < 0.2 and self.size < self.limit:
            self.size = min(self.limit, self.size * 2)


# ---------------------------------------------------------------------------------------
# Progress

def write_text_file(path_or_file, write):
    """Call write(f) on an open file, or on `path_or_file` opened for writing; if
    writing fails (or is interrupted) the half-written file is removed."""
    if not isinstance(path_or_file, (str, os.PathLike)):
        write(path_or_file)
        return
    f = open(path_or_file, "w", newline="", encoding="utf-8")
    try:
        with f:
            write(f)
    except BaseException:
        if os.path.isfile(path_or_file):
            os.remove(path_or_file)
        raise


class _Progress:
    """A progress bar on stderr: tqdm if installed, else a plain one.  `mode`: True,
    False, None (only when stderr is a terminal), or a callable(done, total)."""

    def __init__(self, total, mode=None, desc="simulate", unit="game"):
        self.total, self.done, self.desc, self.unit = total, 0, desc, unit
        self.callback = mode if callable(mode) else None
        if mode is None:
            mode = _stderr_is_tty()
        self.show = bool(mode) and self.callback is None
        self.bar = None
        self.t0 = self.last = time.monotonic()
        if self.show:
            try:
                from tqdm import tqdm
            except ImportError:
                tqdm = None
            if tqdm is not None:
                self.bar = tqdm(total=total, desc=desc, unit=unit, unit_scale=True,
                                file=sys.stderr, leave=False, dynamic_ncols=True)

    def update(self, n):
        self.done += n
        if self.callback is not None:
            self.callback(self.done, self.total)
        elif self.bar is not None:
            self.bar.update(n)
        elif self.show:
            now = time.monotonic()
            if now - self.last >= 0.1 or self.done >= self.total:
                self.last = now
                self._draw(now)

    def _draw(self, now):
        frac = self.done / self.total if self.total else 1.0
        width = 30
        fill = int(frac * width)
        rate = self.done / max(now - self.t0, 1e-9)
        sys.stderr.write(f"\r{self.desc} |{'#' * fill}{'.' * (width - fill)}| {frac:6.1%} "
                         f"{self.done:,}/{self.total:,} {self.unit}s  {rate:,.0f} {self.unit}s/s ")
        sys.stderr.flush()

    def close(self):
        if self.bar is not None:
            self.bar.close()
        elif self.show:
            sys.stderr.write("\r" + " " * 100 + "\r")
            sys.stderr.flush()


def _stderr_is_tty():
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False


# ---------------------------------------------------------------------------------------
# Argument checks

def _positive_int(x, name):
    if isinstance(x, bool) or not isinstance(x, (int, np.integer)) or x <= 0:
        raise ValueError(f"{name} must be a positive int, not {x!r}")
    return int(x)


def _check_threads(threads):
    if threads is None:
        return 0
    return _positive_int(threads, "threads")


def _check_match(match):
    if match is None:
        return None
    if match not in MATCH_FORMATS:
        raise ValueError(f"unknown match format {match!r}; valid formats: "
                         f"{', '.join(MATCH_FORMATS)} (or None for single games)")
    return match


def _seating(result) -> str:
    """Who moves first in a result's games (or matches), for the table headers."""
    if result.matches is not None:
        return ("the first player alternates; A starts even-numbered matches"
                if result.swap_seats else "the first player alternates; A starts every match")
    return ("seats alternate (A moves first in even-numbered games)" if result.swap_seats
            else "A always moves first")


# ---------------------------------------------------------------------------------------
# Results

class MatchResults:
    """Per-match arrays: `winner` (0 = A, 1 = B, -1 = undecided), `first` (who moved
    first in the match's first game), `games` (games played), `wins` (n, 2) games won
    by A and B."""

    def __init__(self, fmt, slots, winner, first, games, wins):
        self.format = fmt
        self.need = MATCH_FORMATS[fmt].wins
        self.slots = slots
        self.winner, self.first, self.games, self.wins = winner, first, games, wins

    @property
    def n_matches(self):
        return len(self.winner)

    def __len__(self):
        return len(self.winner)

    def __repr__(self):
        return f"<MatchResults {self.format}: {self.n_matches:,} matches>"


class SimulationResult:
    """The outcome of `simulate`: one row per game played, in game-index order.

    Arrays: `winner` int8 (0 = player A, 1 = player B, -1 = draw), `first` int8 (the
    player who moved first), `moves` int32, `turns` int32, `scores` int8 (n, 2) final
    points of (A, B), `end` int8 (index into `END_NAMES`: none, goal, passes,
    sudden_death, move_cap).  `game_index` gives each row's game index in the run.
    With matches, `matches` holds the per-match arrays.
    """

    END_NAMES = END_NAMES

    def __init__(self, arrays, *, players, rules, seed, swap_seats, max_moves,
                 match=None, matches=None, game_index=None, elapsed=None, threads=None):
        for k in _FIELDS:
            setattr(self, k, arrays[k])
        self.players = tuple(players)
        self.rules = rules
        self.seed = seed
        self.swap_seats = swap_seats
        self.max_moves = max_moves
        self.match = match
        self.matches = matches
        self._game_index = game_index
        self.elapsed = elapsed
        self.threads = threads
        self._summaries = {}

    @property
    def n_games(self) -> int:
        return len(self.winner)

    @property
    def n_matches(self):
        return None if self.matches is None else self.matches.n_matches

    @property
    def game_index(self):
        if self._game_index is None:
            return np.arange(self.n_games, dtype=np.int64)
        return self._game_index

    def __len__(self):
        return self.n_games

    def __repr__(self):
        m = f", {self.n_matches:,} {self.match} matches" if self.matches is not None else ""
        return (f"<SimulationResult {self.n_games:,} games{m}, {self.rules}, "
                f"A={self.players[0]} B={self.players[1]}, seed={self.seed}>")

    def summary(self, confidence=0.95) -> "Summary":
        if confidence not in self._summaries:
            self._summaries[confidence] = Summary(self, confidence)
        return self._summaries[confidence]

    def __str__(self):
        return str(self.summary())

    def _repr_html_(self):
        return summary_html(self.summary())

    # Shortcuts to the summary's estimates (95 %).
    def win_rate(self, player):
        return self.summary().win_rate(player)

    def draw_rate(self):
        return self.summary().draw_rate()

    def first_player_advantage(self):
        return self.summary().first_player_advantage()

    def as_dict(self):
        return self.summary().as_dict()

    def to_csv(self, path_or_file):
        """Write one row per game: game, [match,] winner (A/B/draw), first (A/B), moves,
        turns, score_a, score_b, end."""
        write_text_file(path_or_file, self._write_csv)

    def _write_csv(self, f):
        labels = np.array(["draw", "A", "B"])
        ends = np.array(END_NAMES)
        match_col = self.matches is not None
        f.write("game," + ("match," if match_col else "") +
                "winner,first,moves,turns,score_a,score_b,end\n")
        step = 100_000
        gi = self.game_index
        for lo in range(0, self.n_games, step):
            hi = min(self.n_games, lo + step)
            cols = [gi[lo:hi].tolist()]
            if match_col:
                cols.append((gi[lo:hi] // self.matches.slots).tolist())
            cols += [labels[self.winner[lo:hi] + 1].tolist(),
                     labels[self.first[lo:hi] + 1].tolist(),
                     self.moves[lo:hi].tolist(), self.turns[lo:hi].tolist(),
                     self.scores[lo:hi, 0].tolist(), self.scores[lo:hi, 1].tolist(),
                     ends[self.end[lo:hi]].tolist()]
            f.write("".join(",".join(map(str, row)) + "\n" for row in zip(*cols)))


def _pct(x):
    return "n/a" if x is None or not math.isfinite(x) else f"{100 * x:.2f}%"


def _interval_pct(e):
    if not (math.isfinite(e.low) and math.isfinite(e.high)):
        return ""
    return f"[{100 * e.low:.2f}%, {100 * e.high:.2f}%]"


def _pp(x, sign=True):
    if x is None or not math.isfinite(x):
        return "n/a"
    return f"{100 * x:+.2f} pp" if sign else f"{100 * x:.2f} pp"


def _interval_pp(e):
    if not (math.isfinite(e.low) and math.isfinite(e.high)):
        return ""
    return f"[{100 * e.low:+.2f}, {100 * e.high:+.2f}] pp"


def _num(x, digits=2, sign=False):
    if x is None or not math.isfinite(x):
        return "n/a"
    return f"{x:+.{digits}f}" if sign else f"{x:.{digits}f}"


def _interval_num(e, digits=2, sign=False):
    if not (math.isfinite(e.low) and math.isfinite(e.high)):
        return ""
    return f"[{_num(e.low, digits, sign)}, {_num(e.high, digits, sign)}]"


def _est_dict(e, count=None, n=None):
    d = e.as_dict()
    if count is not None:
        d["count"] = int(count)
    if n is not None:
        d["n"] = int(n)
    return d


class Summary:
    """Statistics of a `SimulationResult`, each with a confidence interval.

    Rates (`win_rate`, `draw_rate`, `seat_win_rate`, ...) are ``(rate, low, high)``
    `Estimate`s with the Wilson score interval; `first_player_advantage` is
    P(first mover wins) - P(second mover wins) with Newcombe's paired interval (both are
    measured on the same games); means (`mean_moves`, `mean_turns`, `mean_score`) use
    the normal interval.  `str(summary)` is a table, `as_dict()` its JSON form,
    `to_csv(path_or_file)` writes the per-game rows.
    """

    def __init__(self, result, confidence=0.95):
        z_value(confidence)
        self.result = result
        self.confidence = confidence
        w, f = result.winner, result.first
        self.n = n = result.n_games
        self.wins = np.bincount((w + 1).astype(np.intp), minlength=3)  # draw, A, B
        self.draws = int(self.wins[0])
        decisive = w >= 0
        self.first_wins = int(np.count_nonzero(decisive & (w == f)))
        self.second_wins = int(np.count_nonzero(decisive & (w != f)))
        # games[p][s], won[p][s]: games where player p sat in seat s (0 = moved first).
        a_first = int(np.count_nonzero(f == 0))
        self.seat_games = ((a_first, n - a_first), (n - a_first, a_first))
        aw_first = int(np.count_nonzero((w == 0) & (f == 0)))
        bw_first = int(np.count_nonzero((w == 1) & (f == 1)))
        self.seat_wins = ((aw_first, int(self.wins[1]) - aw_first),
                          (bw_first, int(self.wins[2]) - bw_first))
        self.end_counts = np.bincount(result.end.astype(np.intp), minlength=len(END_NAMES))
        self._moments = {}
        for name, x in (("moves", result.moves), ("turns", result.turns),
                        ("score_a", result.scores[:, 0]), ("score_b", result.scores[:, 1])):
            xf = x.astype(np.float64)
            self._moments[name] = (float(xf.sum()), float(np.dot(xf, xf)))
        self.matches = result.matches

    # -- lookups -------------------------------------------------------------------------

    def player_index(self, player) -> int:
        """0 or 1 from 0/1, "A"/"B", or a player's name when the two names differ."""
        if isinstance(player, (int, np.integer)) and not isinstance(player, bool) \
                and player in (0, 1):
            return int(player)
        if isinstance(player, str):
            if player.upper() in PLAYER_LABELS:
                return PLAYER_LABELS.index(player.upper())
            names = self.result.players
            if names.count(player) == 1:
                return names.index(player)
            if names.count(player) == 2:
                raise ValueError(f"both players are {player!r}; say 'A' or 'B'")
        raise ValueError(f"unknown player {player!r}; use 0/'A' ({self.result.players[0]}) "
                         f"or 1/'B' ({self.result.players[1]})")

    @staticmethod
    def seat_index(seat) -> int:
        if seat in (0, 1) and not isinstance(seat, bool):
            return int(seat)
        if isinstance(seat, str) and seat.lower() in SEATS:
            return SEATS.index(seat.lower())
        raise ValueError(f"unknown seat {seat!r}; use 'first' (0) or 'second' (1)")

    # -- estimates -----------------------------------------------------------------------

    def win_rate(self, player) -> Estimate:
        """The share of all games won by `player` (0/'A' or 1/'B')."""
        return wilson_interval(int(self.wins[self.player_index(player) + 1]), self.n,
                               self.confidence)

    def loss_rate(self, player) -> Estimate:
        return self.win_rate(1 - self.player_index(player))

    def draw_rate(self) -> Estimate:
        return wilson_interval(self.draws, self.n, self.confidence)

    def seat_win_rate(self, seat) -> Estimate:
        """The share of games won by whoever moved first (seat 'first') or second."""
        k = self.first_wins if self.seat_index(seat) == 0 else self.second_wins
        return wilson_interval(k, self.n, self.confidence)

    def player_seat_win_rate(self, player, seat) -> Estimate:
        """`player`'s win rate in the games where they moved first (or second)."""
        p, s = self.player_index(player), self.seat_index(seat)
        return wilson_interval(self.seat_wins[p][s], self.seat_games[p][s], self.confidence)

    def first_player_advantage(self) -> Estimate:
        """P(first mover wins) - P(second mover wins), Newcombe's paired interval."""
        return newcombe_paired_interval(0, self.first_wins, self.second_wins, self.draws,
                                        self.confidence)

    def decisive_first_share(self) -> Estimate:
        """The share of decisive games won by the first mover (0.5: no advantage)."""
        return wilson_interval(self.first_wins, self.first_wins + self.second_wins,
                               self.confidence)

    def end_rate(self, reason) -> Estimate:
        if reason not in END_NAMES:
            raise ValueError(f"unknown end reason {reason!r}; valid: {', '.join(END_NAMES)}")
        return wilson_interval(int(self.end_counts[END_NAMES.index(reason)]), self.n,
                               self.confidence)

    def _mean(self, name):
        total, sq = self._moments[name]
        return mean_interval_from_moments(self.n, total, sq, self.confidence)

    def mean_moves(self) -> Estimate:
        return self._mean("moves")

    def mean_turns(self) -> Estimate:
        return self._mean("turns")

    def mean_score(self, player) -> Estimate:
        return self._mean(("score_a", "score_b")[self.player_index(player)])

    # -- matches -------------------------------------------------------------------------

    def _need_matches(self):
        if self.matches is None:
            raise ValueError("this simulation played single games, not matches")
        return self.matches

    def match_win_rate(self, player) -> Estimate:
        m = self._need_matches()
        k = int(np.count_nonzero(m.winner == self.player_index(player)))
        return wilson_interval(k, m.n_matches, self.confidence)

    def match_draw_rate(self) -> Estimate:
        m = self._need_matches()
        return wilson_interval(int(np.count_nonzero(m.winner < 0)), m.n_matches, self.confidence)

    def match_starter_win_rate(self) -> Estimate:
        """The share of matches won by the player who moved first in the first game."""
        m = self._need_matches()
        k = int(np.count_nonzero((m.winner >= 0) & (m.winner == m.first)))
        return wilson_interval(k, m.n_matches, self.confidence)

    def mean_match_games(self) -> Estimate:
        m = self._need_matches()
        g = m.games.astype(np.float64)
        return mean_interval_from_moments(len(g), float(g.sum()), float(np.dot(g, g)),
                                          self.confidence)

    # -- output --------------------------------------------------------------------------

    def to_csv(self, path_or_file):
        """The per-game rows of the simulation (see `SimulationResult.to_csv`)."""
        self.result.to_csv(path_or_file)

    def as_dict(self) -> dict:
        r = self.result
        names = dict(zip(PLAYER_LABELS, r.players))
        d = {
            "n_games": self.n,
            "seed": r.seed,
            "players": names,
            "rules": r.rules.to_json(full=True),
            "swap_seats": r.swap_seats,
            "max_moves": r.max_moves,
            "confidence": self.confidence,
            "interval_methods": {"rates": "wilson", "differences": "newcombe (paired)",
                                 "means": "normal"},
            "win_rate": {lab: _est_dict(self.win_rate(i), self.wins[i + 1], self.n)
                         for i, lab in enumerate(PLAYER_LABELS)},
            "draw_rate": _est_dict(self.draw_rate(), self.draws, self.n),
            "win_rate_by_seat": {
                lab: {s: _est_dict(self.player_seat_win_rate(i, j), self.seat_wins[i][j],
                                   self.seat_games[i][j]) for j, s in enumerate(SEATS)}
                for i, lab in enumerate(PLAYER_LABELS)},
            "first_mover_win_rate": _est_dict(self.seat_win_rate(0), self.first_wins, self.n),
            "second_mover_win_rate": _est_dict(self.seat_win_rate(1), self.second_wins, self.n),
            "first_player_advantage": self.first_player_advantage().as_dict(),
            "mean_moves": self.mean_moves().as_dict(),
            "mean_turns": self.mean_turns().as_dict(),
            "mean_score": {lab: self.mean_score(i).as_dict()
                           for i, lab in enumerate(PLAYER_LABELS)},
            "end": {name: {"count": int(c), "rate": (int(c) / self.n if self.n else None)}
                    for name, c in zip(END_NAMES, self.end_counts)},
            "elapsed_seconds": r.elapsed,
            "match": None,
        }
        if self.matches is not None:
            m = self.matches
            d["match"] = {
                "format": m.format, "description": MATCH_FORMATS[m.format].description,
                "n_matches": m.n_matches, "max_games": m.slots,
                "win_rate": {lab: _est_dict(self.match_win_rate(i)) for i, lab
                             in enumerate(PLAYER_LABELS)},
                "draw_rate": _est_dict(self.match_draw_rate()),
                "starter_win_rate": _est_dict(self.match_starter_win_rate()),
                "mean_games": self.mean_match_games().as_dict(),
            }
        return d

    def __repr__(self):
        return f"<Summary of {self.result!r}>"

    def _repr_html_(self):
        return summary_html(self)

    def __str__(self):
        r = self.result
        conf = f"{self.confidence:.0%}"
        a, b = (f"{lab} ({name})" for lab, name in zip(PLAYER_LABELS, r.players))
        head = []
        if r.matches is not None:
            head.append(f"cuttle simulation: {r.matches.n_matches:,} matches, "
                        f"{MATCH_FORMATS[r.match].description}, {self.n:,} games")
        else:
            head.append(f"cuttle simulation: {self.n:,} games")
        head[0] += f", seed {r.seed}"
        if r.elapsed:
            head[0] += f" ({r.elapsed:.2f} s, {self.n / max(r.elapsed, 1e-9):,.0f} games/s)"
        head.append(f"rules: {r.rules}")
        head.append(f"players: A = {r.players[0]}, B = {r.players[1]}; {_seating(r)}")

        rows = []   # (label, count/n text, value text, interval text)

        def rate(label, e, k=None, n=None):
            cnt = "" if k is None else f"{k:,}/{n:,}"
            rows.append((label, cnt, _pct(e.value), _interval_pct(e)))

        if r.matches is not None:
            m = r.matches
            for i, lab in enumerate((a, b)):
                k = int(np.count_nonzero(m.winner == i))
                rate(f"{lab} wins the match", self.match_win_rate(i), k, m.n_matches)
            rate("undecided matches", self.match_draw_rate(),
                 int(np.count_nonzero(m.winner < 0)), m.n_matches)
            rate("match starter wins", self.match_starter_win_rate())
            e = self.mean_match_games()
            rows.append(("games per match (mean)", "", _num(e.value), _interval_num(e)))
            rows.append(None)
        rate(f"{a} wins", self.win_rate(0), int(self.wins[1]), self.n)
        rate(f"{b} wins", self.win_rate(1), int(self.wins[2]), self.n)
        rate("draws", self.draw_rate(), self.draws, self.n)
        for i, lab in enumerate(PLAYER_LABELS):
            for j, s in enumerate(SEATS):
                rate(f"  {lab} wins moving {s}", self.player_seat_win_rate(i, j),
                     self.seat_wins[i][j], self.seat_games[i][j])
        rate("first mover wins", self.seat_win_rate(0), self.first_wins, self.n)
        rate("second mover wins", self.seat_win_rate(1), self.second_wins, self.n)
        e = self.first_player_advantage()
        rows.append(("first-player advantage", "", _pp(e.value), _interval_pp(e)))
        rows.append(None)
        for label, e in (("moves per game (mean)", self.mean_moves()),
                         ("turns per game (mean)", self.mean_turns()),
                         ("final score A (mean)", self.mean_score(0)),
                         ("final score B (mean)", self.mean_score(1))):
            rows.append((label, "", _num(e.value), _interval_num(e)))

        w0 = max(len(x[0]) for x in rows if x) + 2
        w1 = max([len(x[1]) for x in rows if x] + [5]) + 2
        w2 = max(len(x[2]) for x in rows if x) + 2
        lines = head + [""]
        lines.append(f"{'':{w0}}{'count':>{w1}}{'estimate':>{w2}}   {conf} interval")
        for x in rows:
            if x is None:
                lines.append("")
            else:
                lines.append(f"{x[0]:{w0}}{x[1]:>{w1}}{x[2]:>{w2}}   {x[3]}".rstrip())
        ends = ", ".join(f"{name} {c / self.n:.2%}" for name, c
                         in zip(END_NAMES, self.end_counts) if name != "none" and c)
        lines.append("")
        lines.append(f"games ended by: {ends or 'n/a'}")
        lines.append("rates: Wilson intervals; advantage: first minus second mover, Newcombe "
                     "paired interval; means: normal intervals")
        return "\n".join(lines)


# ---------------------------------------------------------------------------------------
# simulate

def simulate(n_games, rules=None, players=("random", "greedy"), seed=None, threads=None,
             swap_seats=True, progress=None, *, match=None, max_moves=DEFAULT_MAX_MOVES,
             chunk_size=None, _desc="simulate") -> SimulationResult:
    """Play `n_games` games (or matches, with `match`) and return a `SimulationResult`.

    rules: a `Rules`, a preset name or None (classic).  players: (A, B), each a policy
    name ("random", "greedy") or a callable ``policy(game) -> move``.  seed: an int, or
    None for a random seed (recorded in the result).  threads: cores for the native core
    (None: all).  swap_seats: A moves first in even-numbered games (else always).
    progress: True / False / None (a bar on stderr only if it is a terminal) / a
    callable(done, total).  match: None, "best_of_3" or "first_to_3".  max_moves: a game
    still running after this many moves ends as a draw ("move_cap").  chunk_size: games
    per native call (with matches, as many whole matches as fit, at least one); None:
    start small and grow while a call takes under 0.2 s, up to 65536 games (so slow
    policies still move the progress bar).  Chunking affects only the progress bar's
    steps, never the results.
    """
    n = _positive_int(n_games, "n_games")
    rules = Rules.coerce(rules)
    pl = _resolve_players(players)
    seed = seed_or_new(seed)
    nthreads = _check_threads(threads)
    match = _check_match(match)
    max_moves = _positive_int(max_moves, "max_moves")
    if max_moves > 2**31 - 1:
        raise ValueError("max_moves must be below 2**31")
    adaptive = chunk_size is None
    chunk = DEFAULT_CHUNK if adaptive else _positive_int(chunk_size, "chunk_size")
    swap_seats = bool(swap_seats)
    # In a match the first player alternates game by game: game i's first player follows
    # the parity of i (the core's swap_seats), and the parity of the match's number of
    # game slots decides who starts each match.
    runner = _Runner(rules, seed, pl, swap_seats or match is not None, nthreads, max_moves)
    names = [p.name for p in pl]
    t0 = time.perf_counter()

    if match is None:
        arrays = _empty_arrays(n)
        bar = _Progress(n, progress, _desc, "game")
        sizes = _Chunks(chunk if runner.native else min(chunk, 64), adaptive)
        lo = 0
        try:
            while lo < n:
                cnt = min(sizes.size, n - lo)
                t = time.perf_counter()
                d = runner.games(lo, cnt)
                sizes.took(time.perf_counter() - t)
                for k in _FIELDS:
                    arrays[k][lo:lo + cnt] = d[k]
                lo += cnt
                bar.update(cnt)
        finally:
            bar.close()
        return SimulationResult(arrays, players=names, rules=rules, seed=seed,
                                swap_seats=swap_seats, max_moves=max_moves,
                                elapsed=time.perf_counter() - t0, threads=threads)

    fmt = MATCH_FORMATS[match]
    slots = fmt.slots if swap_seats else fmt.slots + 1
    per_chunk = max(1, chunk // slots) if runner.native else min(max(1, chunk // slots), 16)
    sizes = _Chunks(per_chunk, adaptive)
    parts = {k: [] for k in _FIELDS}
    idx_parts = []
    mparts = ([], [], [], [])
    bar = _Progress(n, progress, _desc, "match")
    j0 = 0
    try:
        while j0 < n:
            m = min(sizes.size, n - j0)
            t = time.perf_counter()
            d = runner.match_games(j0, m, fmt.wins, slots)
            sizes.took(time.perf_counter() - t)
            mw, mf, mg, mwins, mask = _reduce_matches(d, m, slots, fmt.wins)
            for k in _FIELDS:
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


# ---------------------------------------------------------------------------------------
# compare

_METRICS = ("win_A", "win_B", "draw", "first_mover", "moves", "turns")
_MATCH_METRICS = ("match_win_A", "match_win_B", "match_draw")


class ComparisonResult:
    """The outcome of `compare`: one `SimulationResult` per rule set, all played on the
    same deals (same seed and game indices), and their differences to the baseline.

    `estimate(metric, i)` is rule set i's value, `difference(metric, i, baseline=0)` the
    difference (i minus baseline) with its interval.  Metrics: "win_A", "win_B", "draw",
    "first_mover" (the first mover's win rate), "moves", "turns" (mean game length), and
    with matches "match_win_A", "match_win_B", "match_draw".  Rate differences use
    Newcombe's interval for paired proportions (the same game index under both rule sets
    is one pair; with matches, the same match index), mean differences the normal
    interval of the per-game differences.  With matches the games played differ between
    rule sets, so game-level differences use the independent-samples intervals.
    """

    def __init__(self, results, labels, confidence=0.95):
        self.results = list(results)
        self.labels = list(labels)
        self.confidence = confidence

    @property
    def rules(self):
        return [r.rules for r in self.results]

    @property
    def seed(self):
        return self.results[0].seed

    @property
    def players(self):
        return self.results[0].players

    @property
    def match(self):
        return self.results[0].match

    @property
    def n_games(self):
        """Games (matches, with `match`) per rule set."""
        return self.results[0].n_games if self.match is None else self.results[0].n_matches

    @property
    def unit(self):
        return "matches" if self.match else "games"

    def __len__(self):
        return len(self.results)

    def __getitem__(self, i):
        return self.results[i]

    def metrics(self):
        return _METRICS + (_MATCH_METRICS if self.match else ())

    def _check_metric(self, metric):
        if metric not in self.metrics():
            raise ValueError(f"unknown metric {metric!r}; valid: {', '.join(self.metrics())}")

    @staticmethod
    def _indicator(res, metric):
        if metric == "win_A":
            return res.winner == 0
        if metric == "win_B":
            return res.winner == 1
        if metric == "draw":
            return res.winner < 0
        if metric == "first_mover":
            return (res.winner >= 0) & (res.winner == res.first)
        m = res.matches
        if metric == "match_win_A":
            return m.winner == 0
        if metric == "match_win_B":
            return m.winner == 1
        return m.winner < 0

    def estimate(self, metric, i) -> Estimate:
        """Rule set i's value of `metric`, with its interval."""
        self._check_metric(metric)
        res = self.results[i]
        if metric in ("moves", "turns"):
            s = res.summary(self.confidence)
            return s.mean_moves() if metric == "moves" else s.mean_turns()
        x = self._indicator(res, metric)
        return wilson_interval(int(np.count_nonzero(x)), len(x), self.confidence)

    def difference(self, metric, i, baseline=0) -> Estimate:
        """Rule set i minus the baseline rule set, with its interval."""
        self._check_metric(metric)
        r1, r0 = self.results[i], self.results[baseline]
        paired = self.match is None or metric in _MATCH_METRICS
        if metric in ("moves", "turns"):
            x1, x0 = getattr(r1, metric), getattr(r0, metric)
            if paired:
                return paired_mean_difference(x1, x0, self.confidence)
            return mean_difference(x1, x0, self.confidence)
        x1, x0 = self._indicator(r1, metric), self._indicator(r0, metric)
        if paired:
            both = int(np.count_nonzero(x1 & x0))
            only1 = int(np.count_nonzero(x1)) - both
            only0 = int(np.count_nonzero(x0)) - both
            return newcombe_paired_interval(both, only1, only0, len(x1) - both - only1 - only0,
                                            self.confidence)
        return newcombe_interval(int(np.count_nonzero(x1)), len(x1),
                                 int(np.count_nonzero(x0)), len(x0), self.confidence)

    def differences(self, i, baseline=0) -> dict:
        return {m: self.difference(m, i, baseline) for m in self.metrics()}

    def _metric_label(self, metric):
        a, b = (f"{lab} ({name})" for lab, name in zip(PLAYER_LABELS, self.players))
        return {"win_A": f"{a} wins", "win_B": f"{b} wins", "draw": "draws",
                "first_mover": "first mover wins", "moves": "moves per game (mean)",
                "turns": "turns per game (mean)", "match_win_A": f"{a} wins the match",
                "match_win_B": f"{b} wins the match", "match_draw": "undecided matches"}[metric]

    def rows(self):
        """(metric, index, label, estimate, difference or None) for every metric and rule set."""
        out = []
        for metric in self.metrics():
            for i, lab in enumerate(self.labels):
                diff = None if i == 0 else self.difference(metric, i)
                out.append((metric, i, lab, self.estimate(metric, i), diff))
        return out

    def __str__(self):
        head = [f"cuttle comparison: {len(self.results)} rule sets, {self.n_games:,} "
                f"{self.unit} each, the same deals (seed {self.seed})"]
        if self.match:
            head.append(f"matches: {MATCH_FORMATS[self.match].description}")
        head.append(f"players: A = {self.players[0]}, B = {self.players[1]}; "
                    f"{_seating(self.results[0])}")
        for i, lab in enumerate(self.labels):
            head.append(f"  [{i + 1}] {lab}" + ("  (baseline)" if i == 0 else ""))
        conf = f"{self.confidence:.0%}"
        w0 = max(len(f"  [{i + 1}]") for i in range(len(self.labels))) + 2
        lines = head + ["", f"{'':{w0}}{'estimate':>10}   {conf + ' interval':22}"
                            f"{'vs [1]':>11}   {conf} interval"]
        for metric in self.metrics():
            lines.append(self._metric_label(metric))
            is_mean = metric in ("moves", "turns")
            for i in range(len(self.labels)):
                e = self.estimate(metric, i)
                if is_mean:
                    v, iv = _num(e.value), _interval_num(e)
                else:
                    v, iv = _pct(e.value), _interval_pct(e)
                line = f"{'  [' + str(i + 1) + ']':{w0}}{v:>10}   {iv:22}"
                if i:
                    d = self.difference(metric, i)
                    if is_mean:
                        line += f"{_num(d.value, 2, True):>11}   {_interval_num(d, 2, True)}"
                    else:
                        line += f"{_pp(d.value):>11}   {_interval_pp(d)}"
                lines.append(line.rstrip())
        lines.append("")
        if self.match:
            lines.append("rates: Wilson intervals; differences: Newcombe's paired interval for "
                         "matches (same deals),")
            lines.append("Newcombe's independent interval for games (the games played differ); "
                         "means: normal intervals; pp = percentage points")
        else:
            lines.append("rates: Wilson intervals; differences: Newcombe's paired interval "
                         "(same deals), means: normal intervals; pp = percentage points")
        return "\n".join(lines)

    def summary(self):
        """The comparison itself (its `str()` is the table, `as_dict()` the JSON form)."""
        return self

    def _repr_html_(self):
        return comparison_html(self)

    def as_dict(self) -> dict:
        return {
            "seed": self.seed,
            "n": self.n_games,
            "unit": self.unit,
            "match": self.match,
            "players": dict(zip(PLAYER_LABELS, self.players)),
            "confidence": self.confidence,
            "baseline": self.labels[0],
            "rule_sets": [
                {"label": lab, **r.rules.to_json(),
                 "summary": r.summary(self.confidence).as_dict(),
                 "difference_vs_baseline": (None if i == 0 else
                                            {m: d.as_dict() for m, d
                                             in self.differences(i).items()})}
                for i, (lab, r) in enumerate(zip(self.labels, self.results))],
        }

    def to_csv(self, path_or_file):
        """One row per rule set and metric: rule_set, label, metric, value, low, high,
        diff, diff_low, diff_high (differences to the baseline, empty for it)."""
        write_text_file(path_or_file, self._write_csv)

    def _write_csv(self, f):
        import csv
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["rule_set", "label", "metric", "value", "low", "high", "diff",
                    "diff_low", "diff_high"])
        for metric, i, lab, e, d in self.rows():
            w.writerow([i + 1, lab, metric, *(_csv_num(x) for x in e),
                        *((_csv_num(x) for x in d) if d is not None else ("", "", ""))])

    def plot(self, path, title=None):
        """Save a bar chart (win and draw rates per rule set with their intervals, and the
        differences to the baseline) to `path`.  Needs matplotlib."""
        plt = pyplot()
        metrics = ["win_A", "win_B", "draw", "first_mover"]
        k = len(self.labels)
        fig, axes = plt.subplots(1, 2, figsize=(max(8, 2.2 * k + 6), 4.8))
        width = 0.8 / len(metrics)
        for ax, diff in ((axes[0], False), (axes[1], True)):
            for mi, metric in enumerate(metrics):
                xs, vals, lo, hi = [], [], [], []
                for i in range(k):
                    if diff and i == 0:
                        continue
                    e = self.difference(metric, i) if diff else self.estimate(metric, i)
                    xs.append(i + (mi - (len(metrics) - 1) / 2) * width)
                    vals.append(100 * e.value)
                    lo.append(100 * (e.value - e.low))
                    hi.append(100 * (e.high - e.value))
                if xs:
                    ax.bar(xs, vals, width, yerr=[lo, hi], capsize=3,
                           label=self._metric_label(metric))
            ticks = list(range(1 if diff else 0, k))
            ax.set_xticks(ticks)
            ax.set_xticklabels([f"[{i + 1}]" for i in ticks])
            if diff:
                ax.axhline(0, color="black", linewidth=0.8)
                ax.set_ylabel("difference to [1] (percentage points)")
                ax.set_title(f"vs baseline [1], {self.confidence:.0%} Newcombe intervals")
            else:
                ax.set_ylabel("rate (%)")
                ax.set_title(f"rates, {self.confidence:.0%} Wilson intervals")
        handles, names = axes[0].get_legend_handles_labels()
        fig.legend(handles, names, loc="upper center", ncol=len(metrics), fontsize="small",
                   bbox_to_anchor=(0.5, 0.94), frameon=False)
        caption = "\n".join(f"[{i + 1}] {lab}" for i, lab in enumerate(self.labels))
        fig.suptitle(title or f"cuttle: {self.n_games:,} {self.unit} per rule set, "
                              f"A = {self.players[0]}, B = {self.players[1]}")
        fig.text(0.01, 0.01, caption, fontsize="small", va="bottom")
        fig.tight_layout(rect=(0, 0.04 + 0.03 * k, 1, 0.89))
        fig.savefig(path)
        plt.close(fig)


def _csv_num(x):
    return "" if x is None or not math.isfinite(x) else repr(float(x))


def pyplot():
    try:
        import matplotlib
    except ImportError:
        raise ImportError("plotting needs matplotlib, which is not installed; "
                          "install it with: pip install matplotlib") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def compare(rule_sets, n_games, players=("random", "greedy"), seed=None, threads=None,
            swap_seats=True, progress=None, *, match=None, max_moves=DEFAULT_MAX_MOVES,
            chunk_size=None, labels=None, confidence=0.95) -> ComparisonResult:
    """Play the same `n_games` deals (or matches) under each rule set and compare.

    Common random numbers: every rule set is played with the same seed and game indices,
    so the deals are identical, and the differences between rule sets come with paired
    (tighter) intervals.  Rule sets are `Rules`, preset names or None; the first is the
    baseline.  Other arguments as for `simulate`; `seed=None` picks one seed for all.
    """
    if isinstance(rule_sets, (str, Rules)) or rule_sets is None:
        raise ValueError("compare needs a list of rule sets (at least two)")
    rule_sets = [Rules.coerce(r) for r in rule_sets]
    if len(rule_sets) < 2:
        raise ValueError(f"compare needs at least two rule sets, not {len(rule_sets)}")
    if labels is None:
        labels = [str(r) for r in rule_sets]
    else:
        labels = [str(x) for x in labels]
        if len(labels) != len(rule_sets):
            raise ValueError(f"{len(labels)} labels for {len(rule_sets)} rule sets")
    z_value(confidence)
    seed = seed_or_new(seed)        # one seed for all (the first run checks the rest)
    results = []
    for i, r in enumerate(rule_sets):
        results.append(simulate(n_games, r, players, seed, threads, swap_seats, progress,
                                match=match, max_moves=max_moves, chunk_size=chunk_size,
                                _desc=f"[{i + 1}/{len(rule_sets)}]"))
    return ComparisonResult(results, labels, confidence)
