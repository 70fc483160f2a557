"""One record of an atlas results file (`cuttle.variants.store`, whose docstring shows
one): its key, everything that decides its games, and its exact tallies as JSON and
back.  The store writes and reads records through these functions only, so the format
of a record has this one home, and so have its checks.

Every loaded tally is checked for consistency, not only for shape: its end reasons
against its winners, its moments against the move cap and its own length histograms
(each game's moves lie in its histogram bin, so the sums are bounded; the sums of
squares against the squared sums, by Cauchy-Schwarz), and a variant's paired table and
differences against its tally; its key fields and counts must be values a run can play
with (rule text, policy names, a seed below 2**64, games numbered below `MAX_UNITS`).
A record that no set of games could have produced is a ValueError, which the store
turns into a refusal naming its line.
"""

from __future__ import annotations

import functools
import hashlib
import json
from typing import TYPE_CHECKING, Any

import numpy as np

from .._core import END_NAMES
from ..policies import policy_name
from ..rules import Rules, no_degenerate_warning
from ..seeding import check_seed
from ..simulation.api import MAX_CHUNK, MAX_MAX_MOVES, MAX_UNITS
from ..simulation.tally import LENGTH_BINS, MOMENTS, PAIRED_METRICS, PairTally, Tally
from ..text import quoted
from ..validation import check_int, is_int

if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import TypeAlias

    # (base, rules text, players, seed, max_moves, chunk_size, chunk): see `chunk_key`
    ChunkKey: TypeAlias = tuple[str, str, tuple[str, ...], int, int, int, int]

__all__ = ["KEY_FIELDS", "STAGE_GAMES", "chunk_key", "first_chunk", "pair_from_json",
           "pair_to_json", "record_line", "tally_from_json", "tally_to_json"]

KEY_FIELDS = ("base", "rules", "players", "seed", "max_moves", "chunk_size", "chunk")
# Every field a record may have: "engine", the fingerprint of its games
# (`chunks.Stamps`); "check", a hash of the record's other fields as written (from
# version 2 on), so that a line changed anywhere (a garbled byte) is refused rather
# than read as other games.
FIELDS = frozenset(KEY_FIELDS + ("games", "tally", "pair", "engine", "check"))
STAGE_GAMES = 10 ** 12          # game indices of one stage of a run (see first_chunk)
# A score is the sum of a player's point cards, A to 10 counting 1 to 10: at most the
# whole deck's 4 * 55.
MAX_SCORE = 4 * sum(range(1, 11))
# A pair table's rows of single games (win A, win B, draw, first mover), before those
# of matches.
_GAME_ROWS = sum(not m.startswith("match") for m in PAIRED_METRICS)


def chunk_key(base: str, rules: Rules | str, players: Iterable[str], seed: int,
              max_moves: int, chunk_size: int,
              chunk: int) -> tuple[str, str, tuple[str, ...], int, int, int, int]:
    """The key of one chunk's record (strings and ints, hashable)."""
    return (str(base), str(rules), tuple(players), int(seed), int(max_moves),
            int(chunk_size), int(chunk))


def first_chunk(stage: int, chunk_size: int) -> int:
    """The index of the first chunk of `stage` (0, 1, 2, ...): stage s plays the games
    from s * 10**12 on, so the stages of a run play disjoint games (fresh deals), and
    each stays a whole number of chunks.  A balance search plays in stages; an atlas
    plays in the first only (a variant's cap is at most 10**12 games)."""
    return stage * (STAGE_GAMES // chunk_size)


# ---------------------------------------------------------------------------------------
# Tallies as JSON (exact ints; histograms without their trailing zeros)

def _trim(row):
    nz = np.flatnonzero(row)
    return row[:nz[-1] + 1 if nz.size else 0].tolist()


def tally_to_json(t: Tally) -> dict[str, Any]:
    """A Tally of single games as JSON (exact ints; histograms without trailing zeros)."""
    if t.match_counts is not None:
        raise ValueError("the atlas plays single games, not matches")
    return {"counts": t.counts.tolist(), "moments": {k: list(t.moments[k]) for k in MOMENTS},
            "lengths": [_trim(row) for row in t.lengths]}


def _ints(x, shape, what):
    a = np.array(x, dtype=object)
    # Bounded before the int64 arrays are made, so that neither a count nor a sum of
    # them overflows: no run plays more than MAX_UNITS games.
    if a.shape != shape or not all(is_int(v) and 0 <= v <= MAX_UNITS for v in a.ravel()):
        raise ValueError(f"{what} must be {shape} counts (ints from 0 to {MAX_UNITS:,})")
    return a.astype(np.int64)


def _pairs_of_ints(x, n, what, signed=False):
    if not (isinstance(x, list) and len(x) == n):
        raise ValueError(f"{what} must be {n} pairs of ints")
    out = []
    for p in x:
        if not (isinstance(p, list) and len(p) == 2 and
                all(isinstance(v, int) and not isinstance(v, bool) for v in p) and
                p[1] >= 0 and (signed or p[0] >= 0)):
            raise ValueError(f"{what} must be {n} pairs of ints")
        out.append((p[0], p[1]))
    return out


def _check_moments(s, q, n, lo, hi, what):
    """ValueError unless (s, q) can be the sum and the sum of squares of n integers,
    each from lo to hi."""
    if n == 0:
        ok = s == q == 0
    else:
        ok = (lo * n <= s <= hi * n
              and s * s <= q * n                        # Cauchy-Schwarz
              and q <= (lo + hi) * s - n * lo * hi      # sum of (x - lo)(hi - x) >= 0
              and (q - s) % 2 == 0)                     # x^2 - x is even
    if not ok:
        raise ValueError(f"{what} ({s}, {q}) cannot be the sum and the sum of squares of "
                         f"{n} values from {lo} to {hi}")


def _check_lengths(moments, hist, cap, what):
    """The moments of moves or turns against their histogram (bins 0..LENGTH_BINS-2
    exact, the last one every longer game) and the cap on their values."""
    top = LENGTH_BINS - 1
    if cap < top and hist[cap + 1:].any():
        raise ValueError(f"tally {what} histogram counts games longer than {cap}")
    b = np.arange(top, dtype=object)
    exact = hist[:top].astype(object)
    s, q = moments
    _check_moments(s - int((b * exact).sum()), q - int((b * b * exact).sum()),
                   int(hist[top]), top, max(cap, top), f"tally {what} beyond the histogram's "
                   f"exact bins")


def _check_tally(t, max_moves):
    """ValueError unless `t` can be the tally of single games under the move cap."""
    counts, n = t.counts, t.n_games
    goal, cap_end = END_NAMES.index("goal"), END_NAMES.index("move_cap")
    # A game ends (never "none"); at the goal it has a winner, any other way it is a draw.
    if counts[:, :, END_NAMES.index("none")].any() or counts[0, :, goal].any() or \
            np.delete(counts[1:], goal, axis=2).any():
        raise ValueError("tally counts do not match their end reasons (a game at its "
                         "goal has a winner, any other end is a draw)")
    hist = t.lengths
    _check_lengths(t.moments["moves"], hist[0], max_moves, "moves")
    _check_lengths(t.moments["turns"], hist[1], max_moves + 1, "turns")
    # A game stopped by the cap played max_moves moves.
    capped = int(counts[:, :, cap_end].sum())
    at_cap = int(hist[0][min(max_moves, LENGTH_BINS - 1)])
    if capped > at_cap:
        raise ValueError(f"tally counts {capped} games stopped at the move cap, but only "
                         f"{at_cap} that long")
    for k in ("score_a", "score_b"):
        _check_moments(*t.moments[k], n, 0, MAX_SCORE, f"tally {k}")


def tally_from_json(d: object, n_games: int | None = None,
                    max_moves: int | None = None) -> Tally:
    """A Tally from `tally_to_json`'s form; ValueError if anything is off: its shape,
    its consistency (module docstring) under the move cap `max_moves` (default the
    largest allowed), and the number of games, if `n_games` is given."""
    if not isinstance(d, dict):
        raise ValueError("tally must be an object")
    counts = _ints(d.get("counts"), (3, 2, len(END_NAMES)), "tally counts")
    m = d.get("moments")
    if not isinstance(m, dict) or set(m) != set(MOMENTS):
        raise ValueError(f"tally moments must name {', '.join(MOMENTS)}")
    moments = dict(zip(MOMENTS, _pairs_of_ints([m[k] for k in MOMENTS], len(MOMENTS),
                                               "tally moments")))
    rows = d.get("lengths")
    if not (isinstance(rows, list) and len(rows) == 2):
        raise ValueError("tally lengths must be two histograms")
    lengths = np.zeros((2, LENGTH_BINS), np.int64)
    n = int(counts.sum())
    for i, row in enumerate(rows):
        if not isinstance(row, list) or len(row) > LENGTH_BINS:
            raise ValueError("tally lengths must be two histograms")
        lengths[i, :len(row)] = _ints(row, (len(row),), "tally lengths")
        if lengths[i].sum() != n:
            raise ValueError("tally lengths do not count every game")
    if n_games is not None and n != n_games:
        raise ValueError(f"tally counts {n} games, not {n_games}")
    t = Tally(counts, moments, lengths)
    _check_tally(t, MAX_MAX_MOVES if max_moves is None else max_moves)
    return t


def pair_to_json(p: PairTally) -> dict[str, Any]:
    """A PairTally as JSON: its 2x2 tables and the sums of the length differences."""
    return {"table": p.table.tolist(), "diffs": [list(x) for x in p.diffs]}


def pair_from_json(d: object, n_games: int | None = None, tally: Tally | None = None,
                   max_moves: int | None = None) -> PairTally:
    """A PairTally of single games from `pair_to_json`'s form; ValueError if anything
    is off: its shape, its tables against `n_games` games, its second side against
    `tally` (the second rule set's own tally, if given), and its differences against the
    move cap `max_moves` (default the largest allowed)."""
    if not isinstance(d, dict):
        raise ValueError("pair must be an object")
    table = _ints(d.get("table"), (len(PAIRED_METRICS), 4), "pair table")
    diffs = tuple(_pairs_of_ints(d.get("diffs"), 2, "pair diffs", signed=True))
    single = _GAME_ROWS
    n = int(table[0].sum())
    if any(int(table[m].sum()) != n for m in range(single)) or table[single:].any() or \
            (n_games is not None and n != n_games):
        raise ValueError(f"pair table does not count {n if n_games is None else n_games} "
                         f"single games")
    both, only_i, only_j = table[:single, 3], table[:single, 2], table[:single, 1]
    for side in (both + only_i, both + only_j):     # win_A, win_B, draw, first_mover
        if side[0] + side[1] + side[2] != n or side[3] > side[0] + side[1]:
            raise ValueError("pair table: wins and draws do not add up to the games")
    if tally is not None:
        c = tally.counts
        own = [c[1].sum(), c[2].sum(), c[0].sum(), c[1, 0].sum() + c[2, 1].sum()]
        if list(both + only_j) != [int(x) for x in own]:
            raise ValueError("pair table does not match the rule set's own tally")
    cap = MAX_MAX_MOVES if max_moves is None else max_moves
    for k, (what, top) in enumerate((("moves", cap), ("turns", cap + 1))):
        s, q = diffs[k]
        _check_moments(s, q, n, -top, top, f"pair {what} differences")
        if tally is not None and not 0 <= s + tally.moments[what][0] <= top * n:
            raise ValueError(f"pair {what} differences do not match the rule set's tally")
    return PairTally(table, diffs)


def _digest(rec):
    """The "check" of a record: a hash of its fields but "check", as `record_line`
    writes them."""
    body = json.dumps({k: v for k, v in rec.items() if k != "check"}, separators=(",", ":"))
    return hashlib.sha256(body.encode()).hexdigest()[:16]


def record_line(rec: dict[str, Any]) -> bytes:
    """The line of a record (a dict of its fields but "check") in the results file, its
    "check" added last."""
    return json.dumps({**rec, "check": _digest(rec)}, separators=(",", ":")).encode() + b"\n"


def _record_key(rec):
    if not isinstance(rec, dict) or not all(k in rec for k in KEY_FIELDS + ("games", "tally")):
        raise ValueError(f"a record needs {', '.join(KEY_FIELDS)}, games and tally")
    if not rec.keys() <= FIELDS:
        unknown = sorted(rec.keys() - FIELDS)
        raise ValueError(f"unknown fields {', '.join(map(quoted, unknown))}")
    # (a record of version 1 has none; tests leave it out to reach the checks below)
    if "check" in rec and rec["check"] != _digest(rec):
        raise ValueError("its check does not match its content: the line was changed")
    players = rec["players"]
    ok = (isinstance(rec["base"], str) and isinstance(rec["rules"], str) and
          isinstance(players, list) and len(players) == 2 and
          all(isinstance(p, str) for p in players))
    if not ok:
        raise ValueError("bad key fields")
    _check_names(rec["base"], rec["rules"], tuple(players))
    # The values a run can play with: its games are numbered below MAX_UNITS.
    check_seed(rec["seed"])
    check_int(rec["max_moves"], "max_moves", 1, MAX_MAX_MOVES)
    size = check_int(rec["chunk_size"], "chunk_size", 1, MAX_CHUNK)
    check_int(rec["chunk"], "chunk", 0, MAX_UNITS // size - 1)
    engine = rec.get("engine")
    if engine is not None and not (isinstance(engine, str) and len(engine) == 16 and
                                   set(engine) <= set("0123456789abcdef")):
        raise ValueError("engine must be a fingerprint of 16 hexadecimal digits")
    key = chunk_key(*(rec[k] for k in KEY_FIELDS))
    lo, hi = key[-1] * key[-2], (key[-1] + 1) * key[-2]
    games = rec["games"]
    if not (isinstance(games, list) and len(games) == 2 and
            all(isinstance(g, int) and not isinstance(g, bool) for g in games) and
            games[0] == lo and lo < games[1] <= hi):
        raise ValueError(f"games must be [{lo}, {hi}] for chunk {key[-1]} (or [{lo}, n], "
                         f"n below {hi}, for the first games of a chunk cut short)")
    return key


@functools.lru_cache(maxsize=1024)
def _check_names(base, rules, players):
    """ValueError unless a key's names are ones a run writes: its base (a preset's name
    or rule text) and rule set as rule text, its players policy names.  Garbage there
    (``"rules": "x"``, ``"players": ["x", ...]``) was read as another configuration's
    record and ignored without a word; a real other configuration is still kept."""
    for what, text in (("base", base), ("rules", rules)):
        try:
            if not text.strip():
                raise ValueError(f"not {quoted(text)}")
            with no_degenerate_warning():
                Rules.parse(text)
        except ValueError as e:
            raise ValueError(f"{what} must be rule text: {e}") from None
    for p in players:
        try:
            policy_name(p)
        except ValueError as e:
            raise ValueError(f"players: {e}") from None


def _games(rec):
    """How many games a valid record holds."""
    return rec["games"][1] - rec["games"][0]


def _tallies(rec):
    """(Tally, PairTally or None) of a record whose key fields are valid; ValueError
    if they are damaged or inconsistent."""
    n, cap = rec["games"][1] - rec["games"][0], rec["max_moves"]
    tally = tally_from_json(rec["tally"], n, cap)
    pair = rec.get("pair")
    if pair is None and rec["base"] != rec["rules"]:
        raise ValueError("a rule set's record against another holds their pair")
    return tally, None if pair is None else pair_from_json(pair, n, tally, cap)
