"""`_play.play_logged`, the core's game of a run with its moves: game K of a seeded
run, played alone exactly as the run's batches play it."""

import numpy as np

import cuttle
from cuttle._play import play_batch, play_logged
from cuttle.policies import policy_code


def test_play_logged_is_the_batch_s_game():
    """The core's logged game is play_units' game (its row), and its moves replay to it."""
    rules = cuttle.Rules.parse("cuttle.cards: four=random")
    a, b = policy_code("expert"), policy_code("ismcts:40")
    rows = play_batch(rules, 0, 6, 4, a, b, True, 2)
    for i in range(6):
        row, codes = play_logged(rules, 4, i, a, b)
        assert row == {"winner": rows["winner"][i], "first": rows["first"][i],
                       "moves": rows["moves"][i], "turns": rows["turns"][i],
                       "scores": tuple(rows["scores"][i]), "end": rows["end"][i]}
        assert codes.dtype == np.uint32 and len(codes) == row["moves"]
        g = cuttle.Game.from_run(rules, seed=4, index=i)
        for c in codes.tolist():
            g.play(c)
        assert g.is_over and g.ply == row["moves"] and g.turn_number == row["turns"]
