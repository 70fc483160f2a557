"""Simulations: many games (or matches) between two players, and comparisons of rule
sets on the same deals.  The entry points are `simulate` and `compare` (also exported
as `cuttle.simulate` and `cuttle.compare`); see `cuttle.simulation.api`.

Modules: `players` (player specs -> native policy codes or Python callables), `runner`
(playing ranges of unit indices of a seeded run, chunking, merging, interruption),
`cluster` (the same on a dask.distributed cluster), `progress` (the progress bar),
`tally` (exact sufficient statistics), `results` (`SimulationResult`), `summary`
(`Summary`), `compare` (`ComparisonResult`), `output` (text tables, JSON, CSV), `plot`
(matplotlib figures), `formats` (shared names: match formats, labels).
"""

from .api import MAX_THREADS, MAX_UNITS, compare, simulate
from .compare import ComparisonResult
from .formats import DEFAULT_MAX_MOVES, MATCH_FORMATS
from .players import native_policy_code, player_names
from .results import GamesNotKept, MatchResults, SimulationResult
from ..errors import Interrupted
from .summary import Summary
from .tally import PairTally, Tally

__all__ = ["ComparisonResult", "DEFAULT_MAX_MOVES", "GamesNotKept", "Interrupted",
           "MATCH_FORMATS", "MAX_THREADS", "MAX_UNITS", "MatchResults", "PairTally",
           "SimulationResult", "Summary", "Tally", "compare", "native_policy_code",
           "player_names", "simulate"]
