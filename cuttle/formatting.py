"""Numbers as text: the one home of cuttle's number formats.

Every renderer (text tables, markdown, HTML tables and charts, plots, CSV and JSON cells)
prints its numbers through these functions, so a figure reads the same in every output.  Rates are
fractions printed as percentages (``pct``; shares of a whole, which never read 0% or
100% unless they are, ``share``), differences of rates as signed percentage
points (``pp``), means as plain numbers (``num``), Elo differences as signed whole
points (``elo``); the catalogue of statistics
(`cuttle.figures`) says which format each figure takes, the table how many digits.

A missing or non-finite number prints as ``n/a`` (an interval without finite ends as
the empty string).  There is no negative zero: a value that rounds to zero prints
without its minus sign (``+0.00 pp``, ``0.00``), as Python's ``z`` format option
(PEP 682) would print it.  Counts and lists take words: ``quantity``, ``plural`` and
``listed``, a list joined as English joins it.
"""

from __future__ import annotations

import math
import numbers
from decimal import Decimal
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping
    from typing import TypeGuard

    from .stats import Estimate

__all__ = ["FORMATS", "SHARE_RESIDUE", "UNBOUNDED", "csv_number", "elo", "finite", "fixed", "interval",
           "json_number", "level_pct", "listed", "loss_points", "num", "number", "pct", "plural", "pp",
           "quantity", "share", "sign_class", "tick", "value"]

NA = "n/a"


def finite(x: object) -> TypeGuard[float]:
    """Whether `x` is a real number that is not nan or infinite (a bool is not)."""
    return isinstance(x, numbers.Real) and not isinstance(x, bool) and math.isfinite(x)


def fixed(x: float | None, digits: int = 2, sign: bool = False) -> str:
    """`x` with `digits` decimals (a leading sign with `sign`), never ``-0.00``."""
    if not finite(x):
        return NA
    text = f"{x:{'+' if sign else ''}.{digits}f}"
    if text[0] == "-" and not text.strip("-0."):          # rounds to zero: no minus
        text = ("+" if sign else "") + text[1:]
    return text


def pct(x: float | None, digits: int = 2) -> str:
    """A fraction as a percentage: ``0.0741`` -> ``7.41%``."""
    return fixed(100 * x, digits) + "%" if finite(x) else NA


# A share this close to 0 or 1 is one: no count of fewer than 10**12 games makes one,
# so it is the residue of a sum of floats (an atlas variant's base plus its shift).
SHARE_RESIDUE = 1e-12


def share(x: float | None, digits: int = 2) -> str:
    """A share of a whole (how the games ended) as a percentage: `digits` decimals, or
    as many more as it takes for a share above 0 and below 1 not to read as 0% or 100%
    (one significant digit of its distance to the nearer end): ``0.9995`` ->
    ``99.95%``, ``0.99995`` -> ``99.995%``, ``0.00005`` -> ``0.005%``; exactly 0 and 1
    (or within `SHARE_RESIDUE` of them) -> ``0.00%``, ``100.00%``.  Every end share
    printed (a summary's "games ended by", an atlas row's "games end by", the report
    page's bar) is printed by it."""
    if not finite(x):
        return NA
    near = min(x, 1 - x)
    if abs(near) < SHARE_RESIDUE:
        return pct(0.0 if x < 0.5 else 1.0, digits)
    if near < 0:                                        # (not a share)
        return pct(x, digits)
    # (the small term keeps 1 - 0.9999999, 9.99999999e-8 in floats, at one digit: 1 - x
    # is off by up to 1.1e-16, a relative 1.1e-4 at SHARE_RESIDUE, 5e-5 in its log10)
    return pct(x, max(digits, -math.floor(math.log10(100 * near) + 1e-4)))


def level_pct(x: float | None) -> str:
    """A confidence level as a percentage, with the digits it needs: ``0.95`` -> ``95%``,
    ``0.975`` -> ``97.5%``, ``0.999`` -> ``99.9%``; a level without a short decimal form
    (a simultaneous level, 1 - 0.05/540) to 4 decimals (``99.9907%``), or more near 0%
    and 100% (two significant digits of its distance to the nearer end), so that no level
    reads as 0% or 100%.  The label of every interval's level."""
    if not finite(x):
        return NA
    exact = Decimal(repr(float(x))).scaleb(2)       # the level's shortest decimal, in %
    near = 100 * min(x, 1 - x)
    digits = max(4, 1 - math.floor(math.log10(near))) if near > 0 else 4
    text = f"{exact:.{min(digits, max(0, -exact.normalize().as_tuple().exponent))}f}"
    return (text.rstrip("0").rstrip(".") if "." in text else text) + "%"


def pp(x: float | None, digits: int = 2, unit: bool = True) -> str:
    """A difference of fractions in signed percentage points: ``+1.59 pp``."""
    if not finite(x):
        return NA
    return fixed(100 * x, digits, True) + (" pp" if unit else "")


def num(x: float | None, digits: int = 2, sign: bool = False) -> str:
    """A plain number (a mean): ``38.81``, or ``+0.25`` with `sign`."""
    return fixed(x, digits, sign)


def elo(x: float | None, digits: int = 0) -> str:
    """An Elo difference, signed, in whole points (`digits` is taken for the formats'
    sake and ignored): ``+43``; ``+inf`` and ``-inf`` for a certain result (a score of
    100% or 0%, or an interval's end there)."""
    if isinstance(x, numbers.Real) and not isinstance(x, bool) and math.isinf(x):
        return "+inf" if x > 0 else "-inf"
    return fixed(x, 0, True)


def loss_points(loss: float | None, bounds: Mapping[str, float] | Iterable[float]) -> str:
    """A review's loss (expected score, 0 to 1) in percentage points (the review writes
    "pp" after it), as the review prints it, in its text and on its page: one decimal,
    or as many more (up to four) as it takes for the number shown to lie on the same side
    of each of the labels' `bounds` (their inclusive upper bounds, e.g.
    ``Thresholds().as_dict()``, ``from cuttle.review import Thresholds``, or a review
    JSON's "thresholds") as the loss, so that it carries the loss's label: 5.047 pp
    with an inaccuracy from 5 up would read 5.0, a good move's loss beside
    "inaccuracy": it reads 5.05.  (The name is kept for
    compatibility: its points are percentage points, not a Cuttle score.)

    >>> bounds = {"best": 0.01, "good": 0.05, "inaccuracy": 0.10, "mistake": 0.15}
    >>> loss_points(0.07, bounds), loss_points(0.05047, bounds), loss_points(0.05, bounds)
    ('7.0', '5.05', '5.0')
    """
    if not finite(loss):
        return NA
    limits = [float(b) for b in (bounds.values() if hasattr(bounds, "values") else bounds)]
    for digits in range(1, 5):
        text = f"{100 * loss:.{digits}f}"
        shown = float(text) / 100
        if all((shown <= b) == (loss <= b) for b in limits):
            break
    return text


# The formats of the catalogue (`Figure.format`), each as (value, interval) printers of
# an Estimate with a number of digits.  "num+" is a signed mean (a difference of means).
def _interval_pct(e: Estimate, digits: int) -> str:
    return f"[{pct(e.low, digits)}, {pct(e.high, digits)}]"


def _interval_pp(e: Estimate, digits: int) -> str:
    return f"[{pp(e.low, digits, False)}, {pp(e.high, digits, False)}] pp"


FORMATS: dict[str, tuple[Callable[..., str], Callable[[Estimate, int], str]]] = {
    "pct": (pct, _interval_pct),
    "pp": (pp, _interval_pp),
    "num": (num, lambda e, d: f"[{num(e.low, d)}, {num(e.high, d)}]"),
    "num+": (lambda x, d: num(x, d, True),
             lambda e, d: f"[{num(e.low, d, True)}, {num(e.high, d, True)}]"),
    "elo": (elo, lambda e, d: f"[{elo(e.low)}, {elo(e.high)}]"),
}
# The formats whose values may be infinite (an Elo difference at a score of 0 or 1).
UNBOUNDED = frozenset({"elo"})


def number(x: float | None, fmt: str, digits: int = 2) -> str:
    """`x` in the format `fmt` (pct, pp, num, num+)."""
    return FORMATS[fmt][0](x, digits)


def value(e: Estimate, fmt: str, digits: int = 2) -> str:
    """An estimate's value in the format `fmt` (pct, pp, num, num+)."""
    return number(e.value, fmt, digits)


def interval(e: Estimate, fmt: str, digits: int = 2) -> str:
    """An estimate's interval ``[low, high]`` in the format `fmt`; "" without one (an
    end missing, or infinite but in an UNBOUNDED format)."""
    bounded = finite if fmt not in UNBOUNDED else _defined
    if not (bounded(e.low) and bounded(e.high)):
        return ""
    return FORMATS[fmt][1](e, digits)


def _defined(x: object) -> bool:
    """A real number, infinities included, not nan."""
    return isinstance(x, numbers.Real) and not isinstance(x, bool) and not math.isnan(x)


def sign_class(e: Estimate) -> str:
    """"pos" / "neg" for an interval entirely above / below zero (a clear difference),
    else "" (tables print such a value in bold, charts in colour)."""
    if not (finite(e.low) and finite(e.high)) or e.contains(0):
        return ""
    return "pos" if e.low > 0 else "neg"


def quantity(n: int, unit: str) -> str:
    """A count and its unit, singular or plural: ``1 game``, ``20,000 games``; `unit`
    is the singular (a plural in -es is given as ``match``)."""
    return f"{n:,} {unit if n == 1 else plural(unit)}"


def plural(unit: str) -> str:
    """The plural of a unit given in the singular: ``games``, ``matches``."""
    return unit + ("es" if unit.endswith(("s", "x", "ch", "sh")) else "s")


def listed(items: Iterable[str], last: str = "and") -> str:
    """Items joined as English joins them: ``counter or resolve``, ``a, b and c``."""
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + f" {last} " + items[-1]


def tick(x: float, fmt: str) -> str:
    """A chart's tick value, as short as it goes (``20%``, ``+0.5``, ``0``); `x` is
    already scaled (percent, percentage points)."""
    if abs(x) < 1e-9:
        return "0%" if fmt == "pct" else "0"
    return {"pct": f"{x:g}%", "pp": f"{x:+g}"}.get(fmt, f"{x:g}")


def csv_number(x: float | None) -> str:
    """A number in a CSV cell: its full precision (``repr``), "" if missing or not
    finite."""
    return repr(float(x)) if finite(x) else ""


def json_number(x: float | None) -> float | None:
    """A number for JSON: None where JSON has no number (nan, infinities); a negative
    zero (a shift of nothing, computed as a negated 0) as 0.0."""
    return float(x) + 0.0 if finite(x) else None
