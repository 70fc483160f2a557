"""Hashes of everything the native core decides, to show that a refactor changed no
result: run it on two checkouts and compare the output (same hashes = same games).

    python benchmarks/check_identical.py                      # this checkout
    python benchmarks/check_identical.py --root OTHER         # another checkout's build
    python benchmarks/check_identical.py --quick              # a smaller run

Each section prints one line, `name sha256`; `diff` the outputs of two checkouts.  The
sections: every policy pairing (random, greedy, expert, self-play and mixed: 20,000
games; ismcts:50, ismcts-random:50 and ismcts-infer:50: a few hundred) under classic, cuttle.cards and
variant-heavy rule sets (per-game rows: winner, seat, moves, turns, scores, end
reason), matches, callable (Python) players, compare's paired tallies, VectorEnv and
GymEnv trajectories (native and search opponents, self-play, truncation), `analyse`,
Bot choices (single and root-parallel searches, kept trees), random playouts and the
random sampler's draws.
"""

import argparse
import hashlib
import os
import random
import sys

_root = os.path.join(os.path.dirname(__file__), "..")
if "--root" in sys.argv[1:-1]:                      # hash another checkout's build
    _root = sys.argv[sys.argv.index("--root") + 1]
sys.path.insert(0, os.path.abspath(_root))

import numpy as np  # noqa: E402

import cuttle  # noqa: E402
from cuttle import Bot, Game, Rules  # noqa: E402
from cuttle._play import play_units  # noqa: E402
from cuttle.policies import policy_code  # noqa: E402

RULE_SETS = {
    "classic": Rules("classic"),
    "cards": Rules("cuttle.cards"),
    "joker_four_random": Rules("classic", joker=True, four="random"),
    "no_draw_limit": Rules("classic", hand_limit=6, hand_limit_mode="no_draw",
                           strict_oneoffs=True),
    "blocks_topdeck": Rules("classic", ten_blocks_scuttle=True, nine="topdeck",
                            ten_discards=True, eight_breaks_glasses=True),
    "cards_variants": Rules("cuttle.cards", joker=True, four="draw", queen_stops_scuttles=True,
                            one_queen_each=True, strict_scuttle=True, three_takes_threes=True,
                            sudden_death=True, seven="top1", open_hands=False),
    "open_freeze": Rules("classic", open_hands=True, nine="freeze", nine_targets_points=True,
                         targets_own_side=False, queens_protect_queens=True, five="discard1_draw3",
                         seven="top2"),
}

FAST = ["random", "greedy", "expert"]
PAIRINGS = [(a, b) for i, a in enumerate(FAST) for b in FAST[i:]]
SEARCH_PAIRINGS = [("ismcts:50", "random"), ("greedy", "ismcts-random:50"),
                   ("ismcts:50", "expert"), ("ismcts-infer:50", "ismcts:50")]


def digest(*parts):
    h = hashlib.sha256()
    for p in parts:
        if isinstance(p, np.ndarray):
            h.update(str(p.dtype).encode() + str(p.shape).encode())
            h.update(np.ascontiguousarray(p).tobytes())
        else:
            h.update(repr(p).encode())
    return h.hexdigest()


def rows_digest(rows):
    # A match slot that was not played (winner -2) holds nothing but its winner.
    played = rows["winner"] != -2
    return digest(*(rows[k] if k.startswith("m_") or k == "winner" else rows[k][played]
                    for k in sorted(rows)))


def tally_digest(t):
    return digest(t["counts"], t["lengths"], t["moments"], t["match_counts"], t["match_games"])


def result_digest(r):
    """The per-game rows of a SimulationResult (keep_games=True)."""
    return digest(*(np.asarray(getattr(r, k)) for k in
                    ("winner", "first", "moves", "turns", "scores", "end")))


def section(name, value):
    print(f"{name} {value}", flush=True)


def batch(rules, n, a, b, need=0, slots=1, seed=20240917):
    return play_units([rules], 0, n, seed, policy_code(a), policy_code(b), True, 0, 10000,
                      need, slots, True, True)


def pairings(n_fast, n_search):
    for rname, rules in RULE_SETS.items():
        for a, b in PAIRINGS:
            raw = batch(rules, n_fast, a, b)
            section(f"games/{rname}/{a}-{b}",
                    digest(rows_digest(raw["rows"][0]), tally_digest(raw["tallies"][0])))
    for rname in ("classic", "cards", "blocks_topdeck"):
        for a, b in SEARCH_PAIRINGS:
            raw = batch(RULE_SETS[rname], n_search, a, b)
            section(f"games/{rname}/{a}-{b}", rows_digest(raw["rows"][0]))
    raw = play_units([RULE_SETS["classic"]], 0, 30, 7, policy_code("ismcts:40"),
                     policy_code("ismcts-random:40"), True, 0, 10000, 0, 1, True, True)
    section("games/classic/ismcts-self", rows_digest(raw["rows"][0]))
    # A low move cap: capped games end as draws.
    raw = play_units([RULE_SETS["cards"]], 0, n_fast // 10, 3, policy_code("random"),
                     policy_code("greedy"), True, 0, 40, 0, 1, True, True)
    section("games/cards/capped", rows_digest(raw["rows"][0]))


def matches(n):
    for rname in ("classic", "cards"):
        raw = batch(RULE_SETS[rname], n, "greedy", "expert", need=2, slots=3)
        section(f"matches/{rname}", digest(rows_digest(raw["rows"][0]),
                                           tally_digest(raw["tallies"][0])))


def compare_tallies(n):
    sets = list(RULE_SETS.values())
    for a, b in (("random", "greedy"), ("expert", "greedy")):
        raw = play_units(sets, 0, n, 99, policy_code(a), policy_code(b), True, 0, 10000,
                         0, 1, False, True)
        section(f"compare/{a}-{b}", digest([tally_digest(t) for t in raw["tallies"]],
                                           [(k, v["table"], v["diffs"])
                                            for k, v in sorted(raw["pairs"].items())]))
    r = cuttle.compare(["classic", "cuttle.cards"], n // 4, ("greedy", "expert"), seed=5,
                       keep_games=True)
    section("compare/api", digest(*(result_digest(x) for x in r.results)))


def python_players(n):
    def py_random(game, rng):
        return rng.choice(list(game.legal_moves))

    def py_first(game, rng):
        return game.legal_moves[0]

    for rname in ("classic", "cards", "joker_four_random"):
        r = cuttle.simulate(n, RULE_SETS[rname], (py_random, "greedy"), seed=11,
                            keep_games=True, progress=False)
        section(f"python/{rname}", result_digest(r))
    r = cuttle.simulate(n // 4, "classic", (py_first, py_random), seed=12, keep_games=True,
                        max_moves=30, progress=False)
    section("python/capped", result_digest(r))
    r = cuttle.simulate(n // 4, "classic", (py_random, "expert"), seed=13, keep_games=True,
                        match="best_of_3", progress=False)
    section("python/match", digest(result_digest(r), np.asarray(r.matches.winner)))


def vector_env(steps):
    from cuttle.rl import VectorEnv
    cases = [("classic", None, None, 1000), ("cards", "greedy", 0, 1000),
             ("classic", "random", None, 1000), ("cards_variants", "expert", 1, 1000),
             ("classic", "ismcts:30", None, 1000), ("blocks_topdeck", "ismcts-random:20", 1, 40),
             ("joker_four_random", None, None, 25)]
    for rname, opp, seat, cap in cases:
        n_envs = 8 if opp and opp.startswith("ismcts") else 64
        env = VectorEnv(n_envs, RULE_SETS[rname], opponent=opp, seat=seat, max_moves=cap,
                        threads=2)
        obs, tm = env.reset(seed=31)
        h = hashlib.sha256()
        h.update(obs.tobytes() + tm.tobytes())
        k = steps if n_envs == 64 else steps // 4
        for _ in range(k):
            acts = env.sample_actions()
            if _ % 7 == 3:
                acts[0] = 5                        # an illegal action now and then
            out = env.step(acts)
            for x in out:
                h.update(np.asarray(x).tobytes())
            h.update(env.action_masks().tobytes())
        h.update(env.episodes.tobytes() + env.skipped.tobytes())
        section(f"vector/{rname}/{opp}/{seat}/{cap}", h.hexdigest())


# Info keys GymEnv added after these hashes were first taken, all read from the game
# (its deal seed, and on the last step the outcome and the agent's seat), which the
# observations and rewards hash already: left out, so hashes compare with older builds.
GYM_RESET_ADDED, GYM_STEP_ADDED = ("seed",), ("winner", "end_reason", "seat")


def _info(info, added):
    return {k: v for k, v in info.items() if k not in added}


def gym_env(episodes):
    from cuttle.rl import GymEnv
    for opp, rname, cap in (("greedy", "classic", 1000), ("ismcts:20", "cards", 1000),
                            ("expert", "cards_variants", 30),
                            (lambda g: g.legal_moves[-1], "classic", 1000)):
        env = GymEnv(opp, RULE_SETS[rname], seat=None, max_moves=cap)
        h = hashlib.sha256()
        rng = random.Random(4)
        for ep in range(episodes):
            obs, info = env.reset(seed=100 + ep)
            h.update(obs.tobytes() + repr(_info(info, GYM_RESET_ADDED)).encode())
            done = False
            while not done:
                legal = np.flatnonzero(env.action_masks())
                obs, rew, term, trunc, info = env.step(int(rng.choice(list(legal))))
                h.update(obs.tobytes()
                         + repr((rew, term, trunc, _info(info, GYM_STEP_ADDED))).encode())
                done = term or trunc
        section(f"gym/{rname}/{opp if isinstance(opp, str) else 'callable'}", h.hexdigest())


def analyses():
    for rname in ("classic", "cards", "blocks_topdeck"):
        g = Game(RULE_SETS[rname], seed=77)
        rng = random.Random(5)
        for _ in range(6):
            g.play(rng.choice(list(g.legal_moves)))
        for policy, n in (("random", 400), ("greedy", 200), ("expert", 60)):
            a = cuttle.analyse(g, rollouts=n, policy=policy, seed=3, threads=2)
            section(f"analyse/{rname}/{policy}",
                    digest([(str(r.move), r.rollouts, r.wins, r.draws) for r in a.rows]))
        a = cuttle.analyse(g, rollouts=300, policy="greedy", seed=4, threads=2, adaptive=True)
        section(f"analyse/{rname}/adaptive",
                digest([(str(r.move), r.rollouts, r.wins, r.draws) for r in a.rows]))


def bots(games):
    for name, threads in (("random", 1), ("greedy", 1), ("expert", 1), ("ismcts:60", 1),
                          ("ismcts:60", 2), ("ismcts-random:40", 1), ("ismcts:61", 3),
                          ("ismcts-infer:60", 1), ("ismcts-infer:60", 2)):
        h = hashlib.sha256()
        for rname in ("classic", "cards", "open_freeze"):
            for i in range(games):
                g = Game(RULE_SETS[rname], seed=1000 + i)
                b0 = Bot(name, seed=i, threads=threads)
                b1 = Bot("greedy", seed=i + 1)
                while not g.is_over and g.ply < 400:
                    m = (b0 if g.to_move == 0 else b1).choose(g)
                    h.update(str(m).encode())
                    g.play(m)
                h.update(repr((g.winner, g.end_reason, g.ply)).encode())
        section(f"bot/{name}/{threads}", h.hexdigest())


def legal_moves():
    h = hashlib.sha256()
    for rname, rules in RULE_SETS.items():
        for i in range(60):
            g = Game(rules, seed=i)
            rng = random.Random(i)
            while not g.is_over:
                h.update(np.asarray(g._core_legal_codes(), np.uint32).tobytes())
                g.play(rng.choice(list(g.legal_moves)))
    section("legal_moves", h.hexdigest())


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", default=None, help="the checkout to import cuttle from")
    ap.add_argument("--quick", action="store_true", help="fewer games (a smoke test)")
    ap.add_argument("--only", default=None, help="run the sections whose name contains this")
    args = ap.parse_args()
    q = args.quick
    print(f"# cuttle from {os.path.dirname(cuttle.__file__)}", flush=True)
    steps = [("pairings", lambda: pairings(2000 if q else 20000, 60 if q else 300)),
             ("matches", lambda: matches(500 if q else 4000)),
             ("compare", lambda: compare_tallies(1000 if q else 8000)),
             ("python", lambda: python_players(40 if q else 200)),
             ("vector", lambda: vector_env(40 if q else 200)),
             ("gym", lambda: gym_env(3 if q else 8)),
             ("analyse", analyses),
             ("bots", lambda: bots(1 if q else 3)),
             ("legal", legal_moves)]
    for name, fn in steps:
        if args.only is None or args.only in name:
            fn()


if __name__ == "__main__":
    main()
