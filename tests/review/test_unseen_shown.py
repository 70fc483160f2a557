"""The cards a replay shows that a record with cards not seen (`?`) did not give: the
deal of them that fits its moves is one of many, so `cuttle replay` marks each such card
(`*`, `cuttle.unseen.dealt_shown`) and says once what the mark means, and the replay page
draws them with a dashed outline and a `?` under a line saying the same; every card it
does not mark is the same whatever the deal."""

import re

import cuttle
from cuttle.record import final_game, game_before, start_game, write_record
from cuttle.report import record_page
from cuttle.svg import table
from cuttle.unseen import DEALT_NOTE, dealt_not_named, dealt_shown
from game.test_unseen_record import MOVES, START, record
from support.helpers import run_cli

NOTE = f"The cards marked * {DEALT_NOTE}."


def replayed(monkeypatch, capsys, tmp_path, rec):
    path = tmp_path / "ann.json"
    write_record(rec, path)
    code, out, err = run_cli(monkeypatch, capsys, ["replay", path])
    assert code == 0 and err == ""
    return out


def test_cuttle_replay_marks_the_cards_the_record_does_not_give(monkeypatch, capsys,
                                                                tmp_path):
    out = replayed(monkeypatch, capsys, tmp_path, record())
    assert out.splitlines()[1] == NOTE and out.count(NOTE) == 1
    # each table (the start's, then one after each move) marks the cards dealt that no
    # move has named yet, wherever it shows them, and no other card
    tables = re.split(r"\n(?=Turn \d+:|Game over:)", out)[1:]
    assert len(tables) == len(MOVES) + 1
    for k, text in enumerate(tables):
        g = game_before(record(), k + 1) if k < len(MOVES) else final_game(record())
        shown = set(g.hand(0) + g.hand(1) + g.scrap + g.revealed)
        lines = "\n".join(line for line in text.splitlines() if line.startswith("  "))
        assert set(re.findall(r"(\w\w)\*", lines)) == dealt_not_named(g) & shown
        assert dealt_not_named(g) & shown       # (the other's hand: never all named)
    # so does what a move did: P1's draws bring cards the record does not give
    drawn = re.findall(r"^P1 draws (\w\w)(\*?)\.$", out, flags=re.M)
    assert len(drawn) == 3 and all(mark == "*" for _, mark in drawn)
    assert "P0 draws 4C.\n" in out             # (ann's own draw: the record gives it)
    # the marked cards are the deal's: another seed marks others, every other card alike
    again = replayed(monkeypatch, capsys, tmp_path, record(seed=2))
    assert again != out

    def unmarked(text):
        return re.sub(r" \w\w\*", "", text.split("\n", 1)[1])
    assert unmarked(again) == unmarked(out)


def test_a_record_giving_every_card_marks_none(monkeypatch, capsys, tmp_path):
    out = replayed(monkeypatch, capsys, tmp_path, record(position=START))
    assert "*" not in out and DEALT_NOTE not in out


POSITION = "hands: AH 5S 9C TD KD / ? ? ? ? ? ?; deck: 3H 7S ?"


def test_a_position_marks_the_cards_its_seed_dealt_where_they_are_shown():
    # a position's '?' are its seed's cards, not given: marked as a record's are, by
    # the same rule, wherever a table shows them and nowhere it hides them
    g = cuttle.Game.from_text(POSITION, seed=1)
    assert g.dealt_from == "position" and dealt_shown(g) == g.dealt_unseen
    hand1 = set(g.hand(1))
    for text in (str(g), g.render(), g.render(1)):
        assert set(re.findall(r"(\w\w)\*", text)) == hand1
    assert "*" not in g.render(0)                   # (P1's hand hidden from P0)
    assert "AH 5S 9C TD KD\n" in str(g)             # (the cards given: unmarked)

    def marked(svg):
        return set(re.findall(r'<g class="card [^"]*\bdealt\b[^"]*" data-card="(\w\w)"',
                              svg))
    assert marked(g._repr_svg_()) == marked(table(g)) == marked(table(g, 1)) == hand1
    assert marked(table(g, 0)) == set()
    # a move that names a card gives it: no longer marked
    g.play("draw")
    g.play(next(m for m in g.legal_moves if m.verb == "points"))
    named = g.moves[-1].card
    assert named in hand1 and named not in dealt_shown(g) and f"{named}*" not in str(g)
    assert set(re.findall(r"(\w\w)\*", g.render(1))) == hand1 - {named}
    # the note says what the mark means for a position as for a record
    assert "'?' in the record or the position" in DEALT_NOTE


def test_the_replay_page_draws_them_apart_and_says_so():
    start = start_game(record())
    svg = table(start)
    dealt = set(re.findall(r'<g class="card [^"]*\bdealt\b[^"]*" data-card="(\w\w)"', svg))
    assert dealt == set(start.hand(1)) == dealt_shown(start) - set(start.deck)
    assert svg.count("(not seen: one deal that fits)</title>") == len(dealt)
    for v in (0, 1):        # (P0 does not see them; P1 sees its own, as the deal has them)
        assert len(re.findall(r'class="card [^"]*\bdealt\b', table(start, v))) == 6 * v
    assert "dealt" not in table(start_game(record(position=START)))
    note = ('class="dealt-note">The cards drawn with a dashed outline and a ? (in the '
            'moves, marked *) were not given')
    page = record_page(record())
    assert note in page and len(re.findall(r"P1 draws \w\w\*\.", page)) == 3
    assert note in cuttle.review(record(), "rollouts:8", seed=1, threads=1).page()
    assert note not in record_page(record(position=START))
