"""The native cancel token of a decision (`cuttle._signals.Cancel`, `_decide.decide`'s
`cancel`): uncancelled it changes nothing and counts the iterations run; cancelled, from
another thread or before the search, the search stops with a legal move, raising
nothing, its trees kept."""

import threading
import time

import pytest

import cuttle
from cuttle._decide import decide, opponent_belief, search_trees, search_visits
from cuttle._signals import Cancel
from cuttle.policies import Bot, policy_code

from policies.test_expert_and_search import positions


@pytest.mark.parametrize("name", ["ismcts:3000", "ismcts-infer:3000"])
def test_an_uncancelled_token_changes_nothing_and_counts_the_iterations(name):
    code = policy_code(name)
    for i, g in enumerate(positions(51, 4)):
        token = Cancel()
        move = decide(g, code, i, 1, search_trees(1), token)
        assert move == decide(g, code, i, 1, search_trees(1))
        ran = sum(v for _, v in search_visits(g, code, i))     # (a fresh tree's root)
        assert token.done == ran and not token.cancelled
        if name == "ismcts:3000":
            assert ran == 3000
    # root-parallel trees add theirs up; a decision without a search counts none
    token = Cancel()
    decide(positions(51, 1)[0], policy_code("ismcts:3001"), 1, 2, search_trees(2), token)
    assert token.done == 3001
    token = Cancel()
    decide(positions(51, 1)[0], policy_code("expert"), 1, 1, None, token)
    assert token.done == 0


def test_a_token_cancelled_before_the_search_stops_it_at_once_and_keeps_the_trees():
    g = positions(52, 1)[0]
    trees, token = search_trees(1), Cancel()
    token.cancel()
    move = decide(g, policy_code("ismcts:1000000"), 1, 1, trees, token)
    assert token.cancelled and token.done == 0
    assert move in [m.code for m in g.legal_moves]
    # (the trees still follow the game: a Ctrl-C drops them, a cancel does not)
    assert opponent_belief(g, trees, 1) is not None
    with pytest.raises(TypeError, match="cannot be pickled"):
        import pickle
        pickle.dumps(token)


@pytest.mark.parametrize("where", ["worker", "main"])
def test_a_cancel_from_another_thread_stops_a_long_search(where):
    """A million-iteration search (seconds) cancelled by another thread stops with a
    legal move, having run fewer iterations; in a worker thread (whose batch never
    polls Python's signals) as in the main thread."""
    g = cuttle.Game("classic", seed=3)
    g.play("draw")
    bot, token, out = Bot("ismcts:1000000", seed=1, threads=1), Cancel(), []
    if where == "worker":
        t = threading.Thread(target=lambda: out.append(bot._choose(g, token)))
        t.start()
        time.sleep(0.05)                # (in its search by now, or not yet: either way)
        token.cancel()
        t.join(120)
        assert not t.is_alive()
    else:
        threading.Timer(0.05, token.cancel).start()
        out.append(bot._choose(g, token))
    assert g.is_legal(out[0])
    assert token.done < 1_000_000
