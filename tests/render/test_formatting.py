"""The one home of number formats (cuttle.formatting): no negative zero, n/a for what
is missing, the same number in every output."""

import math
import re

from hypothesis import example, given, settings, strategies as st

from cuttle.formatting import (csv_number, fixed, interval, level_pct, num, pct, pp,
                               quantity, share, sign_class, tick, value)
from cuttle.stats import Estimate


def test_no_negative_zero():
    assert fixed(-0.004) == "0.00" and fixed(-0.004, 2, True) == "+0.00"
    assert pp(-0.00001) == "+0.00 pp" and pp(-0.0004, 1) == "+0.0 pp"
    assert num(-1e-9) == "0.00" and pct(-1e-7) == "0.00%" and fixed(-0.4, 0) == "0"
    assert fixed(-0.005001) == "-0.01" and pp(-0.01) == "-1.00 pp"   # real minus signs stay
    e = Estimate(-0.00001, -0.0004, -0.00001)
    assert value(e, "pp") == "+0.00 pp" and interval(e, "pp") == "[-0.04, +0.00] pp"
    assert interval(Estimate(-1e-6, -1e-6, 1e-6), "num+") == "[+0.00, +0.00]"
    assert tick(-1e-12, "pp") == "0" and tick(-0.0, "pct") == "0%"


def test_formats():
    e = Estimate(0.0741, 0.0736, 0.0746)
    assert (value(e, "pct"), interval(e, "pct")) == ("7.41%", "[7.36%, 7.46%]")
    d = Estimate(0.0159, 0.0151, 0.0166)
    assert (value(d, "pp"), interval(d, "pp")) == ("+1.59 pp", "[+1.51, +1.66] pp")
    m = Estimate(38.814, 38.7, 38.9)
    assert (value(m, "num"), interval(m, "num")) == ("38.81", "[38.70, 38.90]")
    assert (value(m, "num+", 1), interval(m, "num+", 1)) == ("+38.8", "[+38.7, +38.9]")
    assert pct(0.0741, 1) == "7.4%" and tick(20.0, "pct") == "20%" and tick(0.5, "pp") == "+0.5"


def test_what_is_missing():
    nothing = Estimate(math.nan, math.nan, math.nan)
    assert value(nothing, "pct") == "n/a" and interval(nothing, "pp") == ""
    assert pct(None) == pp(math.inf) == num(math.nan) == "n/a"
    assert csv_number(math.nan) == csv_number(None) == "" and csv_number(0.1) == "0.1"
    assert sign_class(nothing) == "" and sign_class(Estimate(0.1, 0.0, 0.2)) == ""
    assert sign_class(Estimate(0.1, 0.01, 0.2)) == "pos"
    assert sign_class(Estimate(-0.1, -0.2, -0.01)) == "neg"


def test_quantities():
    assert quantity(1, "turn") == "1 turn" and quantity(2, "turn") == "2 turns"
    assert quantity(1, "match") == "1 match" and quantity(20_000, "match") == "20,000 matches"
    assert quantity(0, "game") == "0 games"


def test_confidence_levels_show_the_digits_they_need():
    """Levels were rounded to whole percents: 0.999 read "100%", 0.975 "98%", 1e-9 "0%"."""
    assert level_pct(0.95) == "95%" and level_pct(0.5) == "50%"
    assert level_pct(0.975) == level_pct(97.5 / 100) == "97.5%"
    assert level_pct(0.999) == level_pct(99.9 / 100) == "99.9%"     # (0.9990000000000001)
    assert level_pct(0.995) == "99.5%" and level_pct(0.9999) == "99.99%"
    assert level_pct(0.6827) == "68.27%" and level_pct(0.99999999) == "99.999999%"
    assert level_pct(1e-9) == "0.0000001%"
    assert level_pct(0.9999999999999997) == "99.99999999999997%"
    # a simultaneous level (1 - 0.05/540): four decimals, more only near the ends
    assert level_pct(1 - 0.05 / 540) == "99.9907%" and level_pct(1 / 3) == "33.3333%"
    assert level_pct(1 - 1e-10 / 3) == "99.9999999967%"
    assert level_pct(math.nan) == level_pct(None) == "n/a"


@st.composite
def counts(draw):
    n = draw(st.integers(1, 10**11))
    k = draw(st.one_of(st.integers(0, n), st.integers(0, min(n, 30)),
                       st.integers(max(0, n - 30), n)))      # (the ends, most of all)
    return k, n


@settings(max_examples=500, deadline=None)
@given(counts())
@example((40006, 40010))
def test_a_share_reads_0_or_100_percent_only_when_it_is(kn):
    # An atlas row read "goal 100.0%, passes 0.1%" for 1 game of 2,000 ending by passes.
    k, n = kn
    text = share(k / n)
    digits = re.fullmatch(r"(?:100|[1-9]?[0-9])\.([0-9]+)%", text).group(1)
    shown = float(text[:-1])
    assert (shown == 0) == (k == 0) and (shown == 100) == (k == n)
    assert len(digits) >= 2 and abs(shown - 100 * k / n) <= 0.5 * 10.0 ** -len(digits) + 1e-9
    # more than two decimals only near the ends: one significant digit of the distance
    near, d = 100 * min(k, n - k) / n, len(digits)
    # (near the next power of ten, within the float error of 1 - k/n, one digit fewer;
    # just below one, as 4 of 40,010 = 0.0099975%, all the digits it needs)
    assert d == 2 or 10.0 ** -d <= near * (1 + 1e-3) and near * (1 + 1e-9) < 10.0 ** (1 - d)


def test_a_share_a_float_error_short_of_a_power_of_ten_takes_one_digit():
    # 1 - 999999972/999999973 is 9.9999997e-10 in floats, not 1.00000003e-9: 99.9999999%
    assert share(999999972 / 999999973) == "99.9999999%"


def test_shares():
    assert share(0.9995) == "99.95%" and share(0.0005) == "0.05%"        # 1 in 2,000
    assert share(1 - 1 / 40_000) == "99.997%" and share(1 / 40_000) == "0.003%"
    assert share(0.999999) == "99.9999%" and share(1e-7) == "0.00001%"
    assert share(0.9999999) == "99.99999%"          # (1 - x: 9.99999995e-08 in floats)
    assert share(0) == "0.00%" and share(1) == "100.00%" and share(0.5, 1) == "50.0%"
    # a float sum's residue is no share (no count of fewer than 10**12 games gives one)
    assert share(1 - 1e-15) == "100.00%" and share(3e-17) == share(-3e-17) == "0.00%"
    assert share(math.nan) == share(None) == "n/a"


def test_plain_text_marks_the_clear_shifts_a_note_says_are_in_bold():
    # Markdown and HTML set a clear shift's value (a cell of class pos/neg) in bold;
    # text has no bold, so where a note promises bold it marks the value with a star and
    # the note says so.  A table whose notes promise nothing is left as it was.
    from cuttle.render.tables import IN_BOLD, Cell, Column, Table, interactions_note
    from cuttle.render.text import table_text
    rows = [[Cell("four=draw"), Cell("+2.55 [+0.97, +4.13]", "pos")],
            [Cell("joker=true"), Cell("-0.40 [-1.10, +0.30]")],
            [Cell("deal=4,6"), Cell("-15.09 [-16.92, -13.24]", "neg")]]
    cols = [Column("variant", "<", fit=True, pad=2), Column("shift", fit=True)]
    text = table_text(Table(["t"], cols, rows, [f"shift, {IN_BOLD} when it excludes 0"]))
    assert "+2.55* [+0.97, +4.13]" in text and "-15.09* [-16.92, -13.24]" in text
    assert "-0.40 [-1.10, +0.30]" in text and "-0.40*" not in text
    assert "marked * when it excludes 0" in text and IN_BOLD not in text
    assert IN_BOLD in interactions_note(0.95)          # (the notes say it in one way)
    plain = table_text(Table(["t"], cols, rows, ["shift"]))
    assert "*" not in plain and "+2.55 [+0.97, +4.13]" in plain
