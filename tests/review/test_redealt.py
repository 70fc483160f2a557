"""A record of a game an undo dealt again (its ``redealt``, `cuttle.redeal`): the review
says so in one line, under the headline of its text and its markdown, in its JSON and
at the top of its page; `cuttle review` prints it; a record without one says nothing."""

import json

import cuttle
from cuttle.record import make_record, redealt_words, write_record
from cuttle.redeal import Sightings
from support.helpers import run_cli

ENGINE = "rollouts:8"


def redealt_game():
    """ann (seat 0) against greedy: two draws each, the second taken back (it showed
    ann cards hidden from her again: dealt again), then played again; its record, and
    the same game's without the note."""
    bot = cuttle.Bot("greedy", seed=7)
    g = cuttle.Game(seed=7)
    seen = Sightings(g, 0, 7)
    for m in ("draw", bot, "draw", bot):
        g.play(bot.choose(g) if m is bot else m)
    g, redealt = seen.take_back(g, 2)
    assert redealt is not None
    for m in ("draw", bot):
        g.play(bot.choose(g) if m is bot else m)
    kw = dict(players=["ann", "greedy"], human_seat=0, bot=bot)
    return make_record(g, **kw, redealt=seen.redealt), make_record(g, **kw)


LINE = ("Dealt again by an undo after move 2: moves 1 and 2 were played on an earlier deal, "
        "P1 greedy's with the cards it held then.")


def test_the_review_says_the_game_was_dealt_again():
    rec, plain = redealt_game()
    assert redealt_words(rec) == LINE
    r = cuttle.review(rec, ENGINE, seed=1)
    assert r.redealt == LINE and r.as_dict()["redealt"] == LINE
    assert str(r).splitlines()[:2] == [r.headline, LINE]
    assert f"**{r.headline}**\n\n{LINE}\n\n" in r.markdown()
    page = r.page()
    assert f'<p class="review-redealt">{LINE.replace(chr(39), "&#x27;")}</p>' in page
    assert page.index('class="review-redealt"') < page.index('class="replay"')
    # the same game without the note: the same review, without the line
    other = cuttle.review(plain, ENGINE, seed=1)
    assert other.redealt is None and other.as_dict()["redealt"] is None
    assert LINE not in str(other) and LINE not in other.markdown()
    assert 'class="review-redealt"' not in other.page()
    assert other.as_dict()["decisions"] == r.as_dict()["decisions"]


def test_cuttle_review_prints_it(monkeypatch, capsys, tmp_path):
    rec, _ = redealt_game()
    path = tmp_path / "game.json"
    write_record(rec, path)
    code, out, err = run_cli(monkeypatch, capsys, ["review", path, "--engine", ENGINE,
                                                   "--seed", "1"])
    assert code == 0, err
    assert out.splitlines()[1] == LINE
    code, out, err = run_cli(monkeypatch, capsys, ["review", path, "--engine", ENGINE,
                                                   "--seed", "1", "--json"])
    assert code == 0 and json.loads(out)["redealt"] == LINE, err
