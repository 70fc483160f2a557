"""What a balance search plays, and the checks of `balance()`'s arguments: the `Budget`
of each stage (`CHEAP`, `SEARCH`, `QUICK`), the check's chunks, the constraints, and
`BalanceConfig`, made by `make_config` before anything is played or any file opened
(`cuttle.balancing.search` runs it).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from typing import TYPE_CHECKING, Any

from ..formatting import plural, quantity
from ..policies import is_search, policy_name
from ..rules import FLAGS, Rules
from ..seeding import check_seed
from ..simulation.api import MAX_CHUNK, MAX_MAX_MOVES
from ..threads import check_threads
from ..validation import check_confidence, check_count, check_int, check_target
from ..variants.records import STAGE_GAMES
from .constraints import check_constraints
from .space import flag_names

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

__all__ = ["BUDGET_OPTIONS", "BalanceConfig", "Budget", "CHEAP", "CHECK_CHUNK",
           "DEFAULT_SEED", "MAX_CHECK_GAMES", "MAX_GAMES", "MAX_K", "MAX_PAIRS",
           "MAX_PER_SIZE", "QUICK", "QUICK_CAVEAT", "QUICK_FLAGS", "SEARCH",
           "check_check_games", "check_progress", "make_config", "resolve_budget"]

DEFAULT_SEED = 1
MAX_GAMES = STAGE_GAMES     # a cap in games of a stage (its games: one stage's indices)
MAX_CHECK_GAMES = 10 ** 9   # the cap of check_games
MAX_PAIRS = 64              # the cap of Budget.pairs
MAX_PER_SIZE = 64           # the cap of Budget.per_size
MAX_K = 6                   # the most changes a rule set may combine (k)


@dataclass(frozen=True)
class Budget:
    """How much each stage plays (games; targets are half-widths as fractions: 0.005 =
    0.5 percentage points).  `chunk_size`: games per chunk (the unit of the results file,
    of stopping and of Ctrl-C); `screen_target`, `screen_games`: a single change stops
    once the interval of its score shift is that narrow, or at that many games;
    `negligible`: a change whose shift interval lies within ``±negligible`` is not
    combined; `pairs`: how many pairs of changes have their interaction measured;
    `interaction_target`,
    `interaction_games`: each interaction's; `per_size`: candidates raced per size;
    `race_target`, `race_games`: a raced candidate stops once its score interval (at
    the race's simultaneous level) is that narrow, or at that many games;
    `confirm_target`, `confirm_games`: a winner's confirmation (95% interval);
    `allowance`: the smallest allowance for an unmeasured interaction (score);
    `moves_allowance`: the same for the mean length, in moves."""

    chunk_size: int
    screen_target: float
    screen_games: int
    negligible: float
    pairs: int
    interaction_target: float
    interaction_games: int
    per_size: int
    race_target: float
    race_games: int
    confirm_target: float
    confirm_games: int
    allowance: float = 0.01
    moves_allowance: float = 2.0

    def checked(self, name: Callable[[str], str] = str, defaults: Iterable[str] = ()
                ) -> Budget:
        """The same budget, every field checked (ValueError naming the bad one, as
        `name(field)` gives it, "(the default)" after the fields of `defaults`): each
        cap in games (`screen_games`, `interaction_games`, `race_games`,
        `confirm_games`) a whole number of chunks, since the search plays whole chunks
        (a cap of 1 game with chunks of 2,000 played 2,000)."""
        defaults = set(defaults)

        def said(f, inside=False):
            if f not in defaults:
                return name(f)
            return name(f) + (", the default" if inside else " (the default)")
        for f in fields(self):
            v = getattr(self, f.name)
            if f.name.endswith(("target", "allowance", "negligible")) and \
                    f.name != "moves_allowance":
                check_target(v, f.name)
            elif f.name == "moves_allowance":
                if not (isinstance(v, (int, float)) and not isinstance(v, bool) and v >= 0):
                    raise ValueError(f"moves_allowance must be a number of moves >= 0, "
                                     f"not {v!r}")
            elif f.name == "chunk_size":
                check_count(v, f.name, MAX_CHUNK)
            elif f.name == "pairs":
                check_int(v, f.name, 1, MAX_PAIRS)
            elif f.name == "per_size":
                check_int(v, f.name, 1, MAX_PER_SIZE)
            else:
                check_count(v, f.name, MAX_GAMES)
        size = self.chunk_size
        for cap in GAME_CAPS:
            v = getattr(self, cap)
            if v % size:
                low, high = v - v % size, v - v % size + size
                nearest = f"{low:,} or {high:,}" if low else f"{high:,}"
                raise ValueError(
                    f"{said(cap)} is {quantity(v, 'game')}, not a whole number of chunks of "
                    f"{size:,} ({said('chunk_size', True)}): the search plays whole chunks, so it "
                    f"would play {high:,}; give {nearest}, or a chunk size that divides it")
        return self

    def chunks(self, games: int) -> int:
        """`games` in whole chunks (at least one)."""
        return max(1, -(-games // self.chunk_size))


GAME_CAPS = ("screen_games", "interaction_games", "race_games", "confirm_games")

# The command line's option of each Budget field that has one (`cuttle balance`'s budget
# options are made from it): three are named otherwise in Python, so that a budget
# written after the command (max_games=) is told its Python key, not merely refused.
BUDGET_OPTIONS = {"chunk_size": "--chunk-size", "screen_games": "--screen-games",
                  "screen_target": "--screen-target", "negligible": "--negligible",
                  "pairs": "--pairs", "per_size": "--candidates", "race_target": "--target",
                  "race_games": "--max-games", "confirm_target": "--confirm-target",
                  "confirm_games": "--confirm-games"}

# Cheap policies (random, greedy, expert) and searches; --quick: under a minute.
CHEAP = Budget(chunk_size=10_000, screen_target=0.005, screen_games=100_000,
               negligible=0.0025, pairs=15, interaction_target=0.01,
               interaction_games=100_000, per_size=6, race_target=0.01, race_games=300_000,
               confirm_target=0.005, confirm_games=200_000)
SEARCH = Budget(chunk_size=200, screen_target=0.03, screen_games=4_000, negligible=0.0025,
                pairs=6, interaction_target=0.05, interaction_games=4_000, per_size=3,
                race_target=0.04, race_games=8_000, confirm_target=0.02,
                confirm_games=10_000)
QUICK = Budget(chunk_size=2_000, screen_target=0.015, screen_games=4_000, negligible=0.0025,
               pairs=3, interaction_target=0.03, interaction_games=4_000, per_size=2,
               race_target=0.03, race_games=6_000, confirm_target=0.015, confirm_games=6_000)
QUICK_FLAGS = ("king_goals", "four", "strict_scuttle", "joker", "sudden_death", "deal")
# What every output of a quick search says of it (text, markdown, HTML, JSON).
QUICK_CAVEAT = ("a quick search (--quick, quick=True): a low-precision demonstration (a "
                "few flags, small caps, wide intervals) whose winners may differ from a "
                "full run's; docs/balance.md in the source distribution publishes a "
                "full run")
# The chunk size of the check, by search: fixed, so that a run with more check games
# reads the chunks of one with fewer; the check's games are a whole number of chunks.
CHECK_CHUNK = {False: 1_000, True: 100}


class BalanceConfig:
    """What a search plays: `base` (Rules), `policy`, `k`, the flags it may change
    (`flags`), `deals` (None: the deal flag's own values), the constraints (`max_draws`,
    `moves`), `budget`, `check` (a policy, or None) and `check_games`, `seed`,
    `max_moves`, `confidence`, `threads`, `quick` (a quick search: `QUICK_CAVEAT`)."""

    quick = False           # (a configuration pickled before it was kept)

    def __init__(self, base: Rules, policy: str, k: int, flags: list[str],
                 deals: list[tuple[int, int]] | None, max_draws: float | None,
                 moves: tuple[float, float] | None, budget: Budget, check: str | None,
                 check_games: int, seed: int, max_moves: int, confidence: float,
                 threads: int | None, quick: bool = False):
        self.base, self.policy, self.k, self.flags, self.deals = base, policy, k, flags, deals
        self.max_draws, self.moves, self.budget = max_draws, moves, budget
        self.check, self.check_games = check, check_games
        self.seed, self.max_moves, self.confidence, self.threads = (seed, max_moves,
                                                                    confidence, threads)
        self.quick = quick

    @property
    def statistics(self) -> int:
        """How many statistics the race tests per look (the score, and the constraints)."""
        return 1 + (self.max_draws is not None) + (self.moves is not None)

    def as_dict(self) -> dict[str, Any]:
        """The settings as JSON."""
        return {"base": str(self.base), "policy": self.policy, "k": self.k,
                "flags": self.flags, "deals": None if self.deals is None else
                [list(d) for d in self.deals],
                "max_draws": self.max_draws,
                "moves": None if self.moves is None else list(self.moves),
                "budget": asdict(self.budget), "check": self.check,
                "check_games": self.check_games if self.check else None,
                "seed": self.seed, "max_moves": self.max_moves,
                "confidence": self.confidence, "quick": self.quick}


def resolve_budget(policy: str, budget: Budget | dict[str, Any] | None, quick: bool,
                   name: Callable[[str], str] = str) -> Budget:
    """The budget a search of `policy` plays (`balance`'s `budget` and `quick`), checked
    (`Budget.checked`, naming a field as `name(field)` gives it; the defaults `name`
    as well, " (the default)" added)."""
    default = QUICK if quick else (SEARCH if is_search(policy) else CHEAP)
    given: set[str] = set()
    if isinstance(budget, Budget):
        out, given = budget, {f.name for f in fields(Budget)}
    elif isinstance(budget, dict):
        unknown = set(budget) - {f.name for f in fields(Budget)}
        if unknown:
            raise ValueError(_unknown_settings(unknown))
        out, given = replace(default, **budget), set(budget)
    elif budget is None:
        out = default
    else:
        raise ValueError(f"budget must be a Budget or a dict of its settings, not {budget!r}")
    return out.checked(name, {f.name for f in fields(Budget)} - given)


def _unknown_settings(unknown: set[object]) -> str:
    """The error of budget settings Budget has no field for: each that names an option
    of the command line (`max_games`, `--max-games`) is told that option's key here
    (`race_games`)."""
    fields_of = {option: field for field, option in BUDGET_OPTIONS.items()}
    names = sorted(unknown, key=repr)
    hints = []
    for key in names:
        option = "--" + str(key).lstrip("-").replace("_", "-")
        field = fields_of.get(option)
        if field is not None:
            hints.append(f"{key} is the command line's {option}; in Python: {field}")
    noun = "budget setting" if len(names) == 1 else plural("budget setting")
    return (f"unknown {noun} {', '.join(str(k) for k in names)}" +
            (f" ({'; '.join(hints)})" if hints else "") +
            f"; valid: {', '.join(f.name for f in fields(Budget))}")


def check_check_games(check: str | None, check_games: object,
                      name: str = "check_games") -> int:
    """`check_games`, checked (ValueError naming it `name`): a count, and with a check
    policy a whole number of the check's chunks (`CHECK_CHUNK`)."""
    check_games = check_count(check_games, name, MAX_CHECK_GAMES)
    if check is not None:
        size = CHECK_CHUNK[is_search(check)]
        if check_games % size:
            raise ValueError(
                f"{name} must be a whole number of the check's chunks of {size:,} games "
                f"({CHECK_CHUNK[True]:,} for a search policy, {CHECK_CHUNK[False]:,} for "
                f"another; fixed, so that a run with more check games reads these), not "
                f"{check_games:,}")
    return check_games


def _deals(deals, base, names):
    """The deals to try, each checked as the deal flag checks a value; ValueError if
    one is the base's own deal (no change: `--flags deal --deal 5,6` searched nothing),
    if there are none, or if the search does not change the deal flag."""
    if isinstance(deals, (str, bytes, dict)) or not hasattr(deals, "__iter__"):
        raise ValueError(f"deals must be a list of deals (first, second), not {deals!r}")
    flag = FLAGS["deal"]
    out = [flag.check(d) for d in deals]
    for d in out:
        if d == base.deal:
            raise ValueError(f"deals: {d[0]},{d[1]} is the base's own deal ({base} deals "
                             f"{d[0]} cards to the first player and {d[1]} to the "
                             f"second), not a change")
    if not out:
        raise ValueError("deals is empty: give at least one deal, or None for the deal "
                         "flag's own values")
    if "deal" not in names:
        raise ValueError("deals are given, but the search does not change the deal flag "
                         "(flags and exclude leave it out): add deal to the flags, or give "
                         "no deals")
    return out


def check_progress(progress: object) -> Any:
    """`balance()`'s progress, checked: None, a bool or a callable."""
    if not (progress is None or isinstance(progress, bool) or callable(progress)):
        raise ValueError(f"progress must be None (on a terminal), True, False or a callable "
                         f"given each step, not {progress!r}")
    return progress


def make_config(base: Rules | str | None, policy: str, k: int,
                flags: Iterable[str] | str | None, exclude: Iterable[str] | str | None,
                deals: Iterable[tuple[int, int]] | None, max_draws: float | None,
                moves: tuple[float, float] | None, budget: Budget | dict[str, Any] | None,
                check: str | None, check_games: int, seed: int, max_moves: int,
                confidence: float, threads: int | None, quick: bool) -> BalanceConfig:
    """The `BalanceConfig` of `balance()`'s arguments, each checked (ValueError naming
    the bad one), before anything is played or any file opened."""
    base = Rules.coerce(base)
    policy = policy_name(policy)
    k = check_int(k, "k", 1, MAX_K)
    if quick and flags is None:
        flags = QUICK_FLAGS
    names = flag_names(flags, exclude)
    if deals is not None:
        deals = _deals(deals, base, names)
    max_draws, moves = check_constraints(max_draws, moves)
    if seed is None:
        raise ValueError("the search needs a fixed seed (its chunks are keyed by it), "
                         "not None")
    if check is not None:
        check = policy_name(check)
    check_games = check_check_games(check, check_games)
    check_threads(threads)
    return BalanceConfig(base, policy, k, names, deals, max_draws, moves,
                         resolve_budget(policy, budget, quick), check, check_games,
                         check_seed(seed), check_count(max_moves, "max_moves", MAX_MAX_MOVES),
                         check_confidence(confidence), threads, quick)
