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


# ---------------------------------------------------------------------------------------
# The same scenarios on the pure-Python reference engine: tests that take the `engine`
# fixture (tests/conftest.py) run twice, once on the native core, once on the reference
# engine (the position is laid out by Game.from_position, then every rule runs in the
# reference engine).

def pos(rules=CLASSIC, **kwargs):
    """A position on the native core (Game.from_position, seed 0, the rest to the deck)."""
    kwargs.setdefault("seed", 0)
    kwargs.setdefault("rest", "deck")
    return cuttle.Game.from_position(rules, **kwargs)


class Engine:
    """The `engine` fixture's value: its name and `pos`, which builds a position on it."""

    def __init__(self, name):
        self.name = name

    def pos(self, rules=CLASSIC, **kwargs):
        g = pos(rules, **kwargs)
        return RefAdapter(g) if self.name == "reference" else g

    def deal(self, rules=CLASSIC, seed=0, index=0):
        """Game `index` of a run seeded `seed`, dealt by this engine itself (the
        reference deals by the documented shuffle, not from the core's position)."""
        if self.name == "core":
            return cuttle.Game.from_run(rules, seed=seed, index=index)
        from support.reference import deal
        return RefAdapter(None, rules, deal(dict(rules.flags), seed, index))

    def __repr__(self):
        return self.name


class RefAdapter:
    """The part of the cuttle.Game API the scenarios use, on a ReferenceGame."""

    def __init__(self, game, rules=None, ref=None):
        from support.helpers import reference_from_game
        self.rules = game.rules if game is not None else rules
        self.ref = reference_from_game(game) if game is not None else ref
        self.moves = []

    def _snap(self):
        return self.ref.snapshot()

    def play(self, move):
        move = cuttle.Move.parse(move)
        if str(move) not in self.ref.legal_moves():
            raise cuttle.IllegalMoveError(f"illegal move {move} (reference engine)")
        self.ref.play(str(move))
        self.moves.append(move)
        return move

    @property
    def legal_moves(self):
        return [cuttle.Move.parse(t) for t in self.ref.legal_moves()]

    def copy(self):
        import copy
        return copy.deepcopy(self)

    def _cards(self, texts):
        return [cuttle.Card.parse(t) for t in texts]

    def hand(self, p):
        return self._cards(self._snap()["hands"][p])

    def points(self, p):
        return self._cards(t.split("[")[0] for t in self._snap()["points"][p])

    def jacks(self, card):
        card = str(cuttle.Card.parse(card))
        for side in self._snap()["points"]:
            for t in side:
                base, _, rest = t.partition("[")
                if base == card:
                    return self._cards(j for j in rest.rstrip("]").split(",") if j)
        return []

    def permanents(self, p):
        return self._cards(self._snap()["permanents"][p])

    def frozen(self, p):
        return self._cards(self._snap()["frozen"][p])

    def score(self, p):
        return self._snap()["scores"][p]

    def goal(self, p):
        return self._snap()["goals"][p]

    def is_public_hand(self, p):
        r = self.rules
        s = self._snap()
        return bool(r.open_hands or (r.reveal_on_empty_deck and not s["deck"])
                    or any(c.startswith("8") for c in s["permanents"][1 - p]))

    def __getattr__(self, name):
        views = {"phase": "phase", "turn": "turn", "to_move": "to_move", "winner": "winner",
                 "is_over": "over", "end_reason": "end_reason"}
        if name in views:
            return self._snap()[views[name]]
        if name in ("scrap", "deck", "revealed", "stack"):
            return self._cards(self._snap()[name])
        raise AttributeError(name)
