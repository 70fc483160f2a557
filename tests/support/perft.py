"""Perft: the number of move sequences of each depth from fixed positions.

`python tests/support/perft.py` regenerates tests/support/perft.json from the native core; the test
suite checks the core against it and the reference engine against the core.
"""

import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", ".."))

import cuttle  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
PERFT_FILE = os.path.join(HERE, "perft.json")

# name: (rules preset/flags, how the position is built, depth)
POSITIONS = {
    "classic-deal-1": ({"preset": "classic"}, {"seed": 1}, 5),
    "classic-deal-2": ({"preset": "classic"}, {"seed": 2}, 5),
    "cuttle.cards-deal-1": ({"preset": "cuttle.cards"}, {"seed": 1}, 5),
    "cuttle.cards-deal-2": ({"preset": "cuttle.cards"}, {"seed": 2}, 5),
    "classic-midgame": ({"preset": "classic"}, {"position": dict(
        hands=(["2C", "3D", "7H", "9S", "JC"], ["2H", "4S", "6D", "AS", "QH", "8C"]),
        points=(["TH[JD]", "5C"], ["9D", "6S"]), permanents=(["QD"], ["8H"]),
        scrap=["3C", "4H"], deck=["7C", "JH", "5D", "2S", "TS", "QC", "KD"], rest="scrap")}, 4),
    "cuttle.cards-midgame": ({"preset": "cuttle.cards"}, {"position": dict(
        hands=(["2C", "3D", "7H", "9S", "JC", "5H"], ["2H", "4S", "6D", "AS", "QH", "8C"]),
        points=(["TH[JD]", "5C"], ["9D", "6S"]), permanents=(["QD"], ["8H"]),
        scrap=["3C", "4H"], deck=["7C", "JH", "5D", "2S", "TS", "QC", "KD"], rest="scrap")}, 4),
    "variants-midgame": ({"preset": "classic", "joker": True, "ten_blocks_scuttle": True,
                          "ten_discards": True, "eight_breaks_glasses": True, "four": "random",
                          "nine": "topdeck", "hand_limit": 6},
                         {"position": dict(
        hands=(["JK", "TC", "8D", "4C", "2D", "9C"], ["TD", "2S", "3S", "8S", "KC"]),
        points=(["7D", "3H"], ["9H[JS]", "4D"]), permanents=(["8H"], ["QS"]),
        scrap=["AC"], deck=["7C", "TS", "5D", "2H", "6C"], rest="scrap", seed=3)}, 4),
}


def rules_of(spec):
    spec = dict(spec)
    return cuttle.Rules(spec.pop("preset"), **spec)


def build(name):
    rules_spec, how, depth = POSITIONS[name]
    rules = rules_of(rules_spec)
    if "seed" in how:
        return cuttle.Game(rules, seed=how["seed"]), depth
    pos = dict(how["position"])
    pos.setdefault("seed", 1)
    return cuttle.Game.from_position(rules, **pos), depth


def perft(g, depth):
    """Counts of move sequences of length 1..depth (a finished game has none)."""
    counts = [0] * depth

    def walk(d):
        moves = list(g.legal_moves)
        counts[d] += len(moves)
        if d + 1 < depth:
            for m in moves:
                g.play(m)
                walk(d + 1)
                g.undo()

    walk(0)
    return counts


def main():
    out = {}
    for name in POSITIONS:
        g, depth = build(name)
        out[name] = perft(g, depth)
        print(name, out[name])
    with open(PERFT_FILE, "w") as f:
        json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
