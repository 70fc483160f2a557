"""Simulations: many games (or matches) between two players, and comparisons of rule
sets, or of players against one opponent, on the same deals.  The entry points are
`simulate`, `compare` and `compare_players` (also exported as `cuttle.simulate`,
`cuttle.compare` and `cuttle.compare_players`); see `cuttle.simulation.api`.

Modules: `api` (the entry points: arguments -> a plan), `players` (player specs ->
native policy codes or Python callables), `runner` (playing ranges of unit indices of a
seeded run, chunking, merging, interruption), `cluster` (the same on a dask.distributed
cluster), `tally` (exact sufficient statistics), `rows` (per-game rows and their CSV),
`results` (`SimulationResult`), `summary` (`Summary`), `compare` (`ComparisonResult`),
`names` (shared names: match formats, player labels, seats, per-game fields),
`recorded` (`game_record`: one game of a seeded run as a game record, for `cuttle
replay` and `cuttle review`).  Their figures are described in `cuttle.figures` and
rendered (text, JSON, CSV, HTML, plots) by `cuttle.render`.
"""

from .api import MAX_THREADS, MAX_UNITS, compare, compare_players, simulate
from .compare import ComparisonResult
from .names import DEFAULT_MAX_MOVES, MATCH_FORMATS
from .players import native_policy_code, player_names
from .recorded import game_record
from .results import GamesNotKept, MatchResults, SimulationResult
from ..errors import Interrupted
from .summary import Summary
from .tally import PairTally, Tally

__all__ = ["ComparisonResult", "DEFAULT_MAX_MOVES", "GamesNotKept", "Interrupted",
           "MATCH_FORMATS", "MAX_THREADS", "MAX_UNITS", "MatchResults", "PairTally",
           "SimulationResult", "Summary", "Tally", "compare", "compare_players", "game_record",
           "native_policy_code", "player_names", "simulate"]
