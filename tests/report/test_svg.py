"""cuttle.svg.table, checked structurally (no browser): well-formed XML, one element per
visible card, face-down cards without identity, the public state in data attributes,
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
    if viewer is None or g.is_public_hand(1 - viewer):
        return []
    return g.hand(1 - viewer)


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
        hidden = viewer is not None and viewer != p and not g.is_public_hand(p)
        assert len(backs) == (len(g.hand(p)) if hidden else 0)
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


def test_frozen_cards_and_names_are_drawn_safely():
    g = cuttle.Game.from_position("cuttle.cards", hands=(["9C", "4D"], ["KH", "5S"]),
                                  permanents=([], ["QH"]), seed=3)
    g.play("oneoff 9C QH")
    g.play("resolve")
    assert g.frozen(1) == ["QH"]
    root = ET.fromstring(table(g, 1, names=("<b>&", '"x"')))
    frozen = [el.get("data-card") for el in card_elements(root) if "frozen" in classes(el)]
    assert frozen == ["QH"]
    assert "P0 · <b>&" in "".join(root.itertext())
    root = ET.fromstring(table(g, 1, names=("a very long name indeed", "b")))
    assert "P0 · a very long name…" in "".join(root.itertext())
    root = ET.fromstring(table(g, 0))                   # P0 does not see P1's hand
    assert not [el for el in card_elements(root) if "frozen" in classes(el)]


@pytest.mark.parametrize("viewer", [2, -1, "0", True])
def test_bad_viewer(viewer):
    with pytest.raises(ValueError, match="viewer"):
        table(cuttle.Game(seed=1), viewer)
