"""The balance designer's report read as a designer reads it: the columns of a table
agree with each other and with the atlas's way of giving a change's figures."""

import html as htmllib
import json

import pytest

import cuttle
from cuttle.formatting import pct

# Random self-play, chunks of 1,000 games: sudden death changes few random games, so its
# shift is known within the first chunk and it stops there, while the deal plays on (and
# the base with it) to the cap.
SCREEN = dict(chunk_size=1000, screen_games=4000, screen_target=0.01, pairs=1,
              interaction_games=1000, per_size=1, race_games=1000, confirm_games=1000)


@pytest.fixture(scope="module")
def screened():
    return cuttle.balance("classic", "random", k=1, flags="deal,sudden_death,strict_scuttle",
                          deals=[(6, 6)], budget=SCREEN, progress=False)


def singles_rows(text):
    """{change: its line's cells} of the text report's single changes."""
    table = text.split("Single changes (screening)\n\n")[1].split("\n\n")[0]
    rows = {}
    for line in table.splitlines()[2:]:
        label = line.split("  ")[0]
        rows[label] = line
    return rows


def test_a_single_changes_first_score_is_the_base_plus_its_shift(screened):
    """The base scored 42.90% and strict scuttles shifted it by -0.38 points, but the
    column said 43.08%: each change's own games' score, of 2,000 games where the base
    had 4,000.  The column is the base's plus the shift, as the atlas gives a variant,
    and the JSON gives both."""
    res = screened
    base = res.base["screen"]
    early = [s for s in res.singles if s.measure.n < base.n]
    assert early, "no change stopped before the base: the test shows nothing"
    own = {s.variant.label: s.measure.estimate("first_score").value for s in res.singles}
    wanted = {s.variant.label: base.estimate("first_score").value + s.shift.value
              for s in res.singles}
    # (the two figures differ for a change that stopped first: what the user saw)
    assert any(pct(own[s.variant.label]) != pct(wanted[s.variant.label]) for s in early)
    rows = singles_rows(str(res))
    for label, value in wanted.items():
        cells = rows[label].split()
        assert pct(value) in cells, (label, rows[label])
        assert pct(own[label]) == pct(value) or pct(own[label]) not in cells
    md = res.markdown()
    table = md.split("#### Single changes (screening)")[1].split("####")[0]
    for label, value in wanted.items():
        assert f"| {pct(value)} |" in table.split(f"| {label} |")[1].splitlines()[0]
    html = htmllib.unescape(res._repr_html_())
    assert all(pct(value) in html for value in wanted.values())
    note = "first score: the base's (all its games) plus the shift, as the atlas gives"
    for text in (str(res), md, html):
        assert note in text
    d = json.loads(json.dumps(res.as_dict()))
    for s in d["singles"]:
        assert s["base_plus_shift"] == pytest.approx(wanted[s["label"]], abs=1e-12)
        assert s["first_score"]["value"] == pytest.approx(own[s["label"]], abs=1e-12)


def test_an_unfinished_search_says_what_it_has_not_reached():
    """Stopped in its screening, the report printed the Pareto front, the race and the
    search space as headers without rows, and the race's note sent the reader to "the
    search space below", as empty: each says instead that nothing was measured there
    yet, in every format, and what was measured (the base, the singles) is shown."""
    def stop(info):
        if info.get("stage") == "screen" and info.get("done") is not None and \
                info.get("chunk", 0) >= 1:
            raise KeyboardInterrupt
    with pytest.raises(cuttle.Interrupted) as ex:
        cuttle.balance("classic", "random", k=2, flags="deal,joker,four", deals=[(6, 6)],
                       budget=dict(SCREEN, per_size=2), progress=stop)
    res = ex.value.result
    assert not res.complete and not res.candidates and not res.generation
    text, md = str(res), res.markdown()
    page = htmllib.unescape(res._repr_html_())
    for out in (text, md, page):
        assert "search space below" not in out
        assert out.count("nothing measured here yet: the search is unfinished and has "
                         "raced no candidate") == 2
        assert "nothing here yet: the search is unfinished and has not finished " \
               "screening the single changes" in out
    # (no header of an empty table; the base's and the singles' tables are whole)
    assert "changes  rule set  first score  moves  from" not in text
    assert "| changes | rule set | first score | moves | from |" not in md
    assert "<th>not combined</th>" not in page
    assert "classic (base)" in text.split("Single changes (screening)")[1]
    assert "| deal=6,6 |" in md.split("#### Single changes (screening)")[1]


def test_the_race_note_counts_in_words(screened):
    """It said "1 statistic(s)": each count of the Bonferroni correction agrees with its
    noun (one candidate, one look of 1,000 games, one statistic)."""
    note = cuttle.render.balance_tables.balance_race_note(screened)
    assert "(Bonferroni over 1 candidate, 1 look and 1 statistic)" in note, note
    assert "(s)" not in str(screened)
