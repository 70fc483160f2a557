"""The differential check shared by tests/engine/test_differential*.py: random games
played through the native core and the reference engine together, compared after every
move.  CUTTLE_DIFF_GAMES sets the number of games per test (default below; CI uses it)."""

import os

from support.helpers import reference_from_game, snapshot

N_GAMES = int(os.environ.get("CUTTLE_DIFF_GAMES", "4000"))   # (4,000: every decision met)


def _compare(g, ref, context):
    """Both engines list the same legal moves and show the same state; returns the
    core's legal moves (in its order).  `context()` says where, when they differ."""
    moves = list(g.legal_moves)
    assert sorted(str(m) for m in moves) == sorted(ref.legal_moves()), \
        f"legal moves differ {context()}\n{g}"
    core_snap, ref_snap = snapshot(g), ref.snapshot()
    for key in core_snap:
        assert core_snap[key] == ref_snap[key], f"{key} differs {context()}\n{g}"
    return moves


def play_both(g, rng, max_moves=600, seen=None):
    """Play random moves through both engines, comparing after each; `seen` collects the
    (phase, verb) pairs met, to show what the games covered."""
    ref = reference_from_game(g)
    moves = _compare(g, ref, lambda: "at the start")
    while not g.is_over and g.ply < max_moves:
        move = rng.choice(moves)
        if seen is not None:
            seen.add((g.phase, move.verb))
        g.play(move)
        ref.play(str(move))
        moves = _compare(g, ref, lambda: f"after {[str(m) for m in g.moves[-8:]]} "
                                          f"(rules {g.rules!r})")
    return g.ply


# Every (phase, verb) pair that the rules allow: the random games must meet them all.
ALL_DECISIONS = {("main", v) for v in ("draw", "pass", "points", "scuttle", "royal",
                                       "glasses", "jack", "oneoff")} | {
    ("counter", "counter"), ("counter", "resolve"), ("three", "take"), ("four", "discard"),
    ("five", "discard"), ("discard", "discard"), ("block", "block"), ("block", "resolve"),
    ("ten", "discard"), ("seven", "discard")} | {
    ("seven", v) for v in ("points", "scuttle", "royal", "glasses", "jack", "oneoff")}
