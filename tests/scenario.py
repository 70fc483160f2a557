"""Helpers of the rule scenario tests: build a position, play moves, read the result."""

import pytest

import cuttle

RANKS = "A23456789TJQK"
SUITS = "CDHS"

CLASSIC = cuttle.Rules()
CC = cuttle.Rules("cuttle.cards")
BOTH = pytest.mark.parametrize("rules", [CLASSIC, CC], ids=["classic", "cuttle.cards"])


def idx(card):
    """Natural index, computed here independently of the engine."""
    card = str(card)
    if card == "JK":
        return 52
    return RANKS.index(card[0]) * 4 + SUITS.index(card[1])


def srt(cards):
    return sorted(cards, key=idx)


def pos(rules=CLASSIC, *, hands=((), ()), points=((), ()), permanents=((), ()),
        scrap=(), deck=(), to_move=0, rest="deck", seed=0):
    return cuttle.Game.from_position(
        rules, hands=hands, points=points, permanents=permanents, scrap=scrap,
        deck=deck, to_move=to_move, rest=rest, seed=seed)


def legal(g):
    return {str(m) for m in g.legal_moves}


def play(g, *moves):
    for m in moves:
        g.play(m)
    return g


def assert_main(g, player):
    assert g.phase == "main"
    assert g.turn == player
    assert g.to_move == player
    assert list(g.stack) == []
    assert list(g.revealed) == []


def all_cards(g):
    cards = []
    for p in (0, 1):
        cards += g.hand(p) + g.points(p) + g.permanents(p)
        for c in g.points(p):
            cards += g.jacks(c)
    cards += g.scrap + g.deck + g.revealed + g.stack
    return [str(c) for c in cards]
