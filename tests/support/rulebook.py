"""Helpers of the rule checks written from the rulebook alone, through the public API
(tests/rules/test_rulebook_scenarios.py, test_audit_independent.py): a position from its
zones, and moves and cards as sets of strings."""

import cuttle


def pos(rules="classic", hands=((), ()), points=((), ()), perms=((), ()), scrap=(),
        deck=(), to_move=0, rest="deck", seed=1):
    """The position of these zones (`rest`: where the cards not listed go)."""
    return cuttle.Game.from_position(
        rules, hands=tuple(list(h) for h in hands), points=tuple(list(p) for p in points),
        permanents=tuple(list(p) for p in perms), scrap=list(scrap), deck=list(deck),
        to_move=to_move, rest=rest, seed=seed)


def LM(g):
    """The legal moves of `g`, as strings."""
    return {str(m) for m in g.legal_moves}


def S(cards):
    """Cards as a set of strings."""
    return {str(c) for c in cards}
