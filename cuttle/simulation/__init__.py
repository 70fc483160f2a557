"""Simulations: many games (or matches) between two players, and comparisons of rule
sets on the same deals.  The entry points are `simulate` and `compare` (also exported
as `cuttle.simulate` and `cuttle.compare`); see `cuttle.simulation.api`.

Modules: `players` (player specs -> native policy codes or Python callables), `runner`
(playing ranges of game indices of a seeded run, chunking), `progress` (the progress
bar), `tally` (sufficient statistics), `results` (`SimulationResult`), `summary`
(`Summary`), `compare` (`ComparisonResult`), `report` (text tables, JSON, CSV), `plot`
(matplotlib figures), `formats` (shared names: match formats, labels).
"""

from .api import compare, simulate
from .compare import ComparisonResult
from .formats import DEFAULT_MAX_MOVES, MATCH_FORMATS
from .players import native_policy_code, player_names
from .results import MatchResults, SimulationResult
from .summary import Summary

__all__ = ["ComparisonResult", "DEFAULT_MAX_MOVES", "MATCH_FORMATS", "MatchResults",
           "SimulationResult", "Summary", "compare", "native_policy_code", "player_names",
           "simulate"]
