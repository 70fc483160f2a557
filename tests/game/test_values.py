"""Cards and moves as values: Python's hash/eq contract, one rule for comparing them with
text (a Card or a Move equals its canonical text and no other spelling, and hashes as
it), reading any spelling with `Card(text)` / `Move(text)`, and reprs that read back."""

import pickle

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import cuttle
from cuttle import CARDS, Card, Move

ALL_MOVES = []
for _code in range(65536):
    try:
        ALL_MOVES.append(Move.from_code(_code))
    except ValueError:
        pass


def test_every_move_code_is_found():
    # every verb, and as many moves as the core's codec has (a guard on ALL_MOVES)
    assert {m.verb for m in ALL_MOVES} == set(cuttle.moves.VERBS)
    assert len({m.code for m in ALL_MOVES}) == len(ALL_MOVES) > 10_000


@st.composite
def card_spellings(draw, card=None):
    """A card and one of its accepted spellings: any case, 10 for T, spaces around."""
    card = draw(st.sampled_from(CARDS)) if card is None else card
    text = str(card)
    if text.startswith("T") and draw(st.booleans()):
        text = "10" + text[1:]
    text = "".join(ch.lower() if draw(st.booleans()) else ch for ch in text)
    if draw(st.booleans()):
        text = " " + text + " "
    return card, text


@st.composite
def move_spellings(draw):
    """A move and one of its accepted spellings (verb and cards in any case, 10 for T,
    the cards of a discard in any order, extra spaces)."""
    move = draw(st.sampled_from(ALL_MOVES))
    verb = "".join(ch.upper() if draw(st.booleans()) else ch for ch in move.verb)
    cards = [draw(card_spellings(c))[1].strip() for c in move.cards]
    if move.verb == "discard":
        cards = draw(st.permutations(cards))
    sep = draw(st.sampled_from([" ", "  ", "\t"]))
    return move, sep.join([verb] + list(cards))


# -- the hash/eq contract -------------------------------------------------------------------

@st.composite
def related_pairs(draw):
    """Two of: a card or a move, itself, its canonical text, another spelling of it, the
    same value rebuilt, or another value or text (so that equal pairs are frequent)."""
    if draw(st.booleans()):
        value, spelling = draw(card_spellings())
        other = draw(st.sampled_from(CARDS))
        rebuilt = Card(spelling)
    else:
        value, spelling = draw(move_spellings())
        other = draw(st.sampled_from(ALL_MOVES))
        rebuilt = Move(spelling)
    pool = [value, str(value), spelling, rebuilt, other, str(other)]
    return draw(st.sampled_from(pool)), draw(st.sampled_from(pool))


@settings(max_examples=300, deadline=None)
@given(related_pairs())
def test_equal_values_hash_equally_and_equality_is_symmetric(pair):
    a, b = pair
    assert (a == b) == (b == a)
    assert (a != b) == (not a == b)
    if a == b:
        assert hash(a) == hash(b)
    assert (a in {b}) == (a == b) and (b in {a: 1}) == (a == b)


@settings(max_examples=500, deadline=None)
@given(card_spellings())
def test_a_card_equals_its_canonical_text_only(card_text):
    card, text = card_text
    canonical = str(card)
    assert Card(text) is card and Card.parse(text) is card
    assert card == canonical and canonical == card and hash(card) == hash(canonical)
    assert (card == text) == (text == canonical)
    assert canonical in {card} and card in {canonical} and {card: 1}[canonical] == 1
    assert (text in {card}) == (text == canonical)


@settings(max_examples=300, deadline=None)
@given(move_spellings())
def test_a_move_equals_its_canonical_text_only(move_text):
    move, text = move_text
    canonical = str(move)
    assert Move(text) == move and Move.parse(text) is not None and Move.parse(text) == move
    assert move == canonical and canonical == move and hash(move) == hash(canonical)
    assert (move == text) == (text == canonical)
    assert canonical in {move} and move in {canonical} and {move: 1}[canonical] == 1
    assert (text in {move}) == (text == canonical)


@settings(max_examples=500, deadline=None)
@given(card_spellings(), st.sampled_from(["points", "royal", "glasses", "counter", "take"]))
def test_cards_and_moves_compare_with_text_by_the_same_rule(card_text, verb):
    card, text = card_text
    move = Move(verb, card)
    assert (card == text) == (move == f"{verb} {text}")
    assert (hash(card) == hash(text)) == (hash(move) == hash(f"{verb} {text}"))


def test_sets_and_dicts_mix_values_and_their_texts():
    m = Move("points 7h")
    assert m == "points 7H" and m != "points 7h" and m != "POINTS 7H"
    assert "points 7H" in {m} and "points 7h" not in {m}
    assert len({m, "points 7H", Move.parse("points 7H")}) == 1
    assert {m: "x"}["points 7H"] == "x" and {"points 7H": "y"}[m] == "y"
    c = Card("7h")
    assert c == "7H" and c != "7h" and "7H" in {c} and "7h" not in {c}
    assert len({c, "7H", CARDS[c.index]}) == 1
    # Any spelling is read by the constructors, or by `in legal_moves`.
    g = cuttle.Game(seed=1)
    assert "DRAW" in g.legal_moves and "draw" in g.legal_moves and Move("DRAW") in g.legal_moves
    assert "DRAW" not in list(g.legal_moves) and "draw" in list(g.legal_moves)
    # `cuttle.cards`' rule for text (docs/reference/game.md): hands compare with lists
    # of card texts.
    assert g.hand(0) == [str(c) for c in g.hand(0)]


def test_move_is_not_equal_to_other_types():
    m = Move("draw")
    assert m != 0 and m != m.code and m != Card("AC") and m != ["draw"] and m is not None
    assert Move("points AC") != Card("AC") and Card("AC") != Move("points AC")


# -- reading and repr -----------------------------------------------------------------------

def test_every_move_repr_reads_back_and_pickles():
    for m in ALL_MOVES:
        assert eval(repr(m), {"Move": Move}) == m
        assert Move(str(m)) == m and Move(m) == m
        assert pickle.loads(pickle.dumps(m)) == m


def test_every_card_repr_reads_back():
    for c in CARDS:
        assert eval(repr(c), {"Card": Card}) is c
        assert Card(c.index) is c and Card(np.int64(c.index)) is c


def test_move_text_constructor_matches_the_parts_constructor():
    assert Move("points 7H") == Move("points", "7H") == Move.parse("points 7h")
    assert repr(Move("scuttle 10h 9c")) == "Move('scuttle TH 9C')"
    assert Move("Discard 3c 2d") == Move("discard", "2D", "3C") == "discard 2D 3C"
    assert Move("  resolve ") == Move("resolve")
    with pytest.raises(cuttle.InvalidMoveError, match="empty move text"):
        Move("   ")
    with pytest.raises(cuttle.InvalidMoveError, match="unknown move verb 'fly'"):
        Move("fly AS")
    with pytest.raises(cuttle.InvalidMoveError, match="takes 1 card"):
        Move("points 7H 8H")
    with pytest.raises(cuttle.InvalidMoveError, match="text like 'points 7H'"):
        Move(7)
    # a verb that is not text, even an unhashable one (was TypeError)
    for verb in (["7H"], {}, None, 5):
        with pytest.raises(cuttle.InvalidMoveError, match="unknown move verb"):
            Move(verb, "8H")
    # only ASCII verbs: the Kelvin sign lowers to 'k'
    with pytest.raises(cuttle.InvalidMoveError, match="unknown move verb"):
        Move("ta\u212ae 3C")


def test_card_from_index_is_deprecated():
    with pytest.warns(DeprecationWarning, match="Card\\(index\\)"):
        assert Card.from_index(51) is Card("KS")
