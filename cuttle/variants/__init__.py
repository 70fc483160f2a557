"""The variant atlas: how every house rule changes the game, under weak and competent
play.  `atlas(...)` plays, for each player pairing and base preset (classic,
cuttle.cards), the base and each variant (every flag value of `cuttle.rules.FLAGS` alone
on the base, and the named presets) on the same games, until each variant's shift in
the first player's win rate is known to a target half-width, and reports the shifts of
the win, draw and end rates and of the game length, with paired intervals.

    import cuttle
    res = cuttle.atlas(["random", "greedy"], results="atlas.jsonl")
    print(res)                        # markdown tables
    res.group("classic", "greedy").row("four=random").shift("first_mover_win_rate")
    res.plot("plots/")                # one forest plot per base and pairing

`cuttle.atlas` is `cuttle.variants.atlas`.

Modules: `rulesets` (the variants, from FLAGS), `run` (chunks, sequential stopping,
resuming), `chunks` (reading, playing and stamping chunks), `store` (the JSON-lines
results file), `errors` (its refusals), `upgrade` (a file of the earlier format),
`records` (its records and their checks), `interactions`, `results` (`AtlasResult`).  Its figures are described in `cuttle.figures` and
rendered (markdown, JSON, CSV, HTML, forest plots) by `cuttle.render`.
"""

from .results import AtlasResult, AtlasRow, GroupResult
from .run import AtlasInterrupted, DEFAULT_SEED, QUICK, Pairing, atlas, default_pairings
from .rulesets import BASES, Variant, variants
from .errors import ResultsFileError

__all__ = ["AtlasInterrupted", "AtlasResult", "AtlasRow", "BASES", "DEFAULT_SEED",
           "GroupResult", "Pairing", "QUICK", "ResultsFileError", "Variant", "atlas",
           "default_pairings", "variants"]

