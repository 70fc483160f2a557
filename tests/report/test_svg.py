"""cuttle.svg.table, checked structurally (no browser): well-formed XML, one element per
visible card (a hidden hand's known cards included), face-down cards without identity,
frozen cards marked, the public state in data attributes,
everything inside the 600 px picture."""

import re
import xml.etree.ElementTree as ET

import pytest
from hypothesis import given, settings, strategies as st

import cuttle
from cuttle.svg import CH, CHIP_W, CW, WIDTH, table
from report.conftest import play_random, visible_cards

CARD_TOKEN = re.compile(r"(?<![A-Za-z0-9])(?:[A2-9TJQK][CDHS]|JK)(?![A-Za-z0-9])")
TRANSLATE = re.compile(r"translate\(([-\d.]+),([-\d.]+)\)")


def classes(el):
    return (el.get("class") or "").split()


def card_elements(root):
    return [el for el in root.iter() if "card" in classes(el)]


def hidden_cards(g, viewer):
    """The cards `viewer` cannot know: the opponent's hidden hand less the known ones."""
    if viewer is None or g.is_public_hand(1 - viewer):
        return []
    return sorted(set(g.hand(1 - viewer)) - set(g.observation(viewer).opponent_known))


def marked(root, mark):
    return [el.get("data-card") for el in card_elements(root) if mark in classes(el)]


def check_table(g, viewer):
    """Every structural promise of table(g, viewer); returns the parsed root."""
    svg = table(g, viewer)
    root = ET.fromstring(svg)                           # well-formed XML
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert root.get("width") == str(WIDTH)
    height = float(root.get("height"))
    cards = card_elements(root)
    faces = [el.get("data-card") for el in cards if "back" not in classes(el)]
    assert sorted(faces) == visible_cards(g, viewer)    # each visible card exactly once
    for p in (0, 1):
        backs = [el for el in cards if "back" in classes(el) and f"hand{p}" in classes(el)]
        shown = [el.get("data-card") for el in cards
                 if "back" not in classes(el) and f"hand{p}" in classes(el)]
        hidden = viewer is not None and viewer != p and not g.is_public_hand(p)
        # A hidden hand shows face up exactly what the viewer knows of it, the rest as
        # backs (as many cards as it holds); a shown hand, every card.
        known = g.observation(viewer).opponent_known if hidden else ()
        assert sorted(shown) == sorted(known if hidden else g.hand(p))
        assert len(backs) == (len(g.hand(p)) - len(known) if hidden else 0)
        assert sorted(c for c in marked(root, "known") if c in g.hand(p)) == sorted(known)
        # Every freeze (public) is marked, on either hand, whoever looks.
        o = g.observation(0 if viewer is None else viewer)
        for mark, frozen in (("frozen", o.frozen[p]), ("frozen-next", o.frozen_next[p])):
            assert sorted(c for c in marked(root, mark) if c in g.hand(p)) == sorted(frozen)
    for el in cards:
        if "back" in classes(el):                       # no identity on a face-down card
            assert el.get("data-card") is None
            assert not any(CARD_TOKEN.search(t) for t in el.itertext())
            assert all(not CARD_TOKEN.search(v) for v in el.attrib.values())
    # No hidden card anywhere: the only card names in the picture are visible cards and
    # the (public) text of the last move.
    last = root.get("data-last-move")
    rest = svg.replace(last, "") if last else svg
    assert set(CARD_TOKEN.findall(rest)) <= set(visible_cards(g, viewer))
    for c in hidden_cards(g, viewer):
        assert c.name not in svg
    # The public state, for scripts.
    want = {"data-ply": g.ply, "data-phase": g.phase, "data-turn": g.turn,
            "data-to-move": "" if g.to_move is None else g.to_move,
            "data-winner": "" if g.winner is None else g.winner,
            "data-viewer": "all" if viewer is None else viewer,
            "data-deck": len(g.deck), "data-scrap": len(g.scrap)}
    for p in (0, 1):
        want.update({f"data-hand{p}": len(g.hand(p)), f"data-score{p}": g.score(p),
                     f"data-goal{p}": g.goal(p)})
    assert {k: root.get(k) for k in want} == {k: str(v) for k, v in want.items()}
    # Everything inside the picture.
    for el in cards:
        x, y = map(float, TRANSLATE.search(el.get("transform")).groups())
        w, h = (CHIP_W, 17) if "chip" in classes(el) else (CW, CH)
        assert 0 <= x and x + w <= WIDTH + 0.5 and 0 <= y and y + h <= height, el.attrib
    return root


def normalized(svg):
    """A picture without the move count (a determinized game has no history)."""
    return re.sub(r'data-ply="\d+"', "", re.sub(r"ply \d+", "ply", svg))


@settings(max_examples=30, deadline=None)
@given(preset=st.sampled_from(cuttle.Rules.presets), seed=st.integers(0, 2**32),
       plies=st.integers(0, 150))
def test_tables_of_random_positions(preset, seed, plies):
    g = play_random(cuttle.Game(preset, seed=seed), plies, seed,
                    ("points", "jack", "royal", "glasses", "oneoff", "scuttle", "counter"))
    for viewer in (None, 0, 1):
        check_table(g, viewer)
    # A player's picture depends only on what that player may know: a game that differs
    # in the cards they cannot see (the opponent's hand, the deck) draws the same.
    for viewer in (0, 1):
        other = g.determinize(viewer, seed=seed)
        assert normalized(table(g, viewer, lastmove=False)) == \
            normalized(table(other, viewer, lastmove=False))


def test_a_busy_table(busy_game):
    g = busy_game
    assert any(g.jacks(c) for p in (0, 1) for c in g.points(p)) and g.scrap
    root = check_table(g, 0)
    check_table(g, None)
    assert g._repr_svg_() == table(g)


def test_the_last_move_is_highlighted():
    g = cuttle.Game(seed=1)
    root = ET.fromstring(table(g))
    assert root.get("data-last-move") == "" and not any(
        "last" in classes(el) for el in card_elements(root))
    g.play("points 7H")
    root = ET.fromstring(table(g))
    assert root.get("data-last-move") == "points 7H" and root.get("data-last-player") == "0"
    hot = [el.get("data-card") for el in card_elements(root) if "last" in classes(el)]
    assert hot == ["7H"]
    assert "P0 points 7H" in "".join(root.itertext())
    root = ET.fromstring(table(g, lastmove=False))
    assert root.get("data-last-move") == "" and "points 7H" not in "".join(root.itertext())


def test_what_the_header_says():
    g = cuttle.Game(seed=1)
    g.play("oneoff 3H")
    text = " ".join(ET.fromstring(table(g, 1)).itertext())
    assert "P1 to decide: counter" in text and "seen by P1" in text
    g = cuttle.Game.from_position(hands=(["2C"], ["3D"]), points=(["TC", "2D"], []),
                                  permanents=(["KD"], []), rest="scrap", seed=1)
    g.play("points 2C")
    root = ET.fromstring(table(g))
    assert root.get("data-winner") == "0" and "Game over: P0 wins (goal)" in \
        "".join(root.itertext())
    with pytest.raises(ValueError, match="the rules have ended this game"):
        table(g, resigned=1)
    # a resignation: the result, not whose decision it was (the game stopped mid-turn)
    g = cuttle.Game(seed=1)
    g.play("oneoff 3H")
    for seat in (0, 1):
        root = ET.fromstring(table(g, resigned=seat))
        text = " ".join(root.itertext())
        assert f"Game over: P{1 - seat} wins (P{seat} resigned), turn 1" in text, text
        assert "to decide" not in text and text.count("WINS") == 1
        assert (root.get("data-winner"), root.get("data-resigned")) == (str(1 - seat),
                                                                          str(seat))
    assert ET.fromstring(table(g)).get("data-resigned") == ""
    with pytest.raises(ValueError, match="resigned"):
        table(g, resigned=2)


def titles(root, card):
    """The tooltip of `card`'s element."""
    [el] = [el for el in card_elements(root) if el.get("data-card") == card]
    return el.find("{http://www.w3.org/2000/svg}title").text


def test_frozen_cards_and_names_are_drawn_safely():
    g = cuttle.Game.from_position("cuttle.cards", hands=(["9C", "4D"], ["KH", "5S"]),
                                  permanents=([], ["QH"]), seed=3)
    g.play("oneoff 9C QH")
    g.play("resolve")
    assert g.frozen(1) == ["QH"]
    root = ET.fromstring(table(g, 1, names=("<b>&", '"x"')))
    assert marked(root, "frozen") == ["QH"] and titles(root, "QH") == "Queen of Hearts (frozen)"
    assert "P0 · <b>&" in "".join(root.itertext())
    root = ET.fromstring(table(g, 1, names=("a very long name indeed", "b")))
    assert "P0 · a very long name…" in "".join(root.itertext())


def test_a_card_a_nine_returned_is_known_to_its_player_and_frozen():
    g = cuttle.Game.from_position("cuttle.cards", hands=(["9C", "4D"], ["KH", "5S"]),
                                  permanents=([], ["QH"]), seed=3)
    g.play("oneoff 9C QH")
    g.play("resolve")
    assert g.observation(0).opponent_known == ("QH",) and g.frozen(1) == ["QH"]
    assert "known: QH" in g.render(0) and "frozen: QH" in g.render(0)
    # P0 sent it back: face up in P1's otherwise hidden hand, frozen, the count unchanged.
    root = check_table(g, 0)
    hand1 = [el for el in card_elements(root) if "hand1" in classes(el)]
    assert [el.get("data-card") for el in hand1] == ["QH", None, None]
    assert classes(hand1[0]) == ["card", "hand1", "known", "frozen"]
    assert titles(root, "QH") == "Queen of Hearts (known, frozen)"
    assert "hand 3 · 1 known" in "".join(root.itertext())
    assert "KH" not in table(g, 0) and "5S" not in table(g, 0)
    for viewer in (1, None):                            # its own hand, and every card
        root = check_table(g, viewer)
        assert marked(root, "frozen") == ["QH"] and not marked(root, "known")
    g.play("draw")                                      # P1's turn over: thawed
    assert marked(check_table(g, 0), "frozen") == [] and \
        marked(check_table(g, 0), "known") == ["QH"]


def test_a_card_frozen_for_the_next_turn_is_marked_apart():
    # P0's 9 returns its own King (classic's 9, frozen): P0 may not play it in its
    # next turn.
    g = cuttle.Game.from_position(cuttle.Rules(nine="freeze"), hands=(["9C", "AH"], ["TH"]),
                                  permanents=(["KS"], ["KD"]), deck=["5C", "6C", "7C"],
                                  seed=1)
    g.play("oneoff 9C KS"), g.play("resolve")
    assert g.observation(1).frozen_next == (("KS",), ()) and "frozen next turn: KS" in \
        g.render(1)
    for viewer in (1, 0, None):
        root = check_table(g, viewer)
        assert marked(root, "frozen-next") == ["KS"] and not marked(root, "frozen")
        assert titles(root, "KS").endswith("(known, frozen next turn)" if viewer == 1
                                          else "(frozen next turn)")
    assert 'stroke-dasharray="4 3"/></g>' in table(g, 1)
    g.play("draw")                                      # P0's turn: frozen now
    root = check_table(g, 1)
    assert marked(root, "frozen") == ["KS"] and not marked(root, "frozen-next")


def test_a_card_taken_with_a_three_is_known():
    g = cuttle.Game.from_position(hands=(["3C", "4D"], ["KH", "5S"]), scrap=["7H", "2D"],
                                  seed=2)
    g.play("oneoff 3C"), g.play("resolve"), g.play("take 7H")
    assert g.observation(1).opponent_known == ("7H",)
    root = check_table(g, 1)
    assert marked(root, "known") == ["7H"] and not marked(root, "frozen")
    assert table(g, 1).count("<g class=\"card back hand0\"") == 1
    # the same picture as before knowledge, but for the known card
    assert marked(check_table(g, 0), "known") == [] and 'known' not in table(g, None)


@settings(max_examples=40, deadline=None)
@given(preset=st.sampled_from(cuttle.Rules.presets), seed=st.integers(0, 2**32),
       plies=st.integers(0, 150))
def test_a_hidden_hand_shows_only_what_the_viewer_knows(preset, seed, plies):
    """Over random positions, with 3s and 9s preferred (the moves that make cards known):
    every face-up card of a hidden hand is one the viewer's observation knows."""
    g = play_random(cuttle.Game(preset, seed=seed), plies, seed, ("oneoff", "take", "royal"))
    for viewer in (0, 1):
        root = check_table(g, viewer)
        o = g.observation(viewer)
        hidden = 1 - viewer
        faces = [el.get("data-card") for el in card_elements(root)
                 if f"hand{hidden}" in classes(el) and "back" not in classes(el)]
        if not o.opponent_hand_public:
            assert set(faces) <= set(o.opponent_known)
            assert set(o.frozen[hidden]) | set(o.frozen_next[hidden]) <= set(faces)


@pytest.mark.parametrize("viewer", [2, -1, "0", True])
def test_bad_viewer(viewer):
    with pytest.raises(ValueError, match="viewer"):
        table(cuttle.Game(seed=1), viewer)


def test_the_seat_at_the_bottom():
    """The viewer's seat is at the bottom (player 0's with every card) unless `bottom`
    says otherwise: a person's own seat, their finished game shown with every card."""
    g = play_random(cuttle.Game(seed=4), 9, 4)

    def order(svg):     # the seats' labels, top to bottom
        return [int(t[1]) for t in re.findall(r">(P[01])(?: ·[^<]*)?</text>", svg)]

    assert order(table(g, 1)) == [0, 1] and order(table(g, None)) == [1, 0]
    assert order(table(g, None, bottom=1)) == [0, 1]
    assert order(table(g, 0, bottom=1)) == [0, 1]
    assert table(g, None, bottom=0) == table(g, None)
    check_table(g, None)
    with pytest.raises(ValueError, match="bottom must be 0 or 1"):
        table(g, None, bottom=2)
