"""The one home of number formats (cuttle.formatting): no negative zero, n/a for what
is missing, the same number in every output."""

import math

from cuttle.formatting import (csv_number, fixed, interval, num, pct, pp, quantity,
                               sign_class, tick, value)
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
