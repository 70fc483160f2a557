"""Golden playthroughs (as OpenSpiel keeps them): whole seeded games, each move followed by
the table, stored in tests/support/golden/.  Any change to the rules, the deal, the random stream
or the printing shows up as a diff.  After an intended change, regenerate with

    python tests/support/golden.py

and review the diff before committing it.
"""

import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", ".."))

import cuttle  # noqa: E402

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "golden")

# name: (rules, deal seed, move-choice seed)
GAMES = {
    "classic-1": (cuttle.Rules(), 1, 1),
    "classic-2": (cuttle.Rules(), 2, 2),
    "cuttle.cards-1": (cuttle.Rules("cuttle.cards"), 1, 1),
    "cuttle.cards-2": (cuttle.Rules("cuttle.cards"), 2, 2),
    "variants-1": (cuttle.Rules(joker=True, four="random", nine="topdeck",
                                ten_blocks_scuttle=True, ten_discards=True,
                                eight_breaks_glasses=True, hand_limit=6, sudden_death=True,
                                king_goals=(30, 25, 20, 15, 10)), 3, 3),
}


def playthrough(name) -> str:
    rules, seed, move_seed = GAMES[name]
    rng = random.Random(move_seed)
    g = cuttle.Game(rules, seed=seed)
    out = [f"# {name}: {rules!r}, seed {seed}, random moves from random.Random({move_seed})",
           str(g)]
    while not g.is_over and len(g.moves) < 400:
        moves = sorted(str(m) for m in g.legal_moves)
        move = rng.choice(moves)
        out.append(f"> {move}    (of {len(moves)}: {', '.join(moves)})")
        g.play(move)
        out.append(str(g))
    return "\n".join(out) + "\n"


def path(name):
    return os.path.join(HERE, f"{name}.txt")


def main():
    os.makedirs(HERE, exist_ok=True)
    for name in GAMES:
        with open(path(name), "w") as f:
            f.write(playthrough(name))
        print("wrote", path(name))


if __name__ == "__main__":
    main()
