"""The balance designer: which house rules make Cuttle fair for strong players?

`balance(...)` searches the rule space, combinations of up to `k` changes of a base
(every value of every flag of the rule table, `cuttle.rules.FLAGS`, as the variant atlas
plays them, the deal included), for rule sets whose first player scores nearest 50%
(wins plus half the draws) under self-play of a policy, within the designer's
constraints (draw rate, game length)::

    import cuttle
    res = cuttle.balance("classic", "expert", k=3, results="balance.jsonl")
    print(res)                        # the winners, the candidates, the Pareto front
    res.best(2).label, res.best(2).estimate("first_score")
    res.as_dict()                     # {"base", "policy", "candidates": [...], ...}

`cuttle.balance` is `cuttle.balancing.balance` (the package is named for the activity
so that the function keeps the short name).

Modules, one per concern: `space` (the changes and their combinations), `model`
(predicting combinations from single changes and measured interactions; pruning),
`racing` (the race: simultaneous intervals, elimination), `constraints` (the limits on
draws and length: checked, and read from intervals), `config` (the budget, the
settings and the checks of `balance()`'s arguments), `search` (`balance()`, stage by
stage through the results file), `results` (`BalanceResult` and its parts).  The
interactions of two changes are `cuttle.variants.interactions` (the atlas measures
them too); the figures are described in `cuttle.figures.BALANCE` and rendered by
`cuttle.render`.  docs/balance.md is the method and a real run.
"""

from .results import BalanceResult, CandidateResult, Measure, Single
from .config import CHEAP, DEFAULT_SEED, QUICK, QUICK_FLAGS, SEARCH, BalanceConfig, Budget
from .search import BalanceInterrupted, OtherSearchError, balance
from .space import Candidate

__all__ = ["BalanceConfig", "BalanceInterrupted", "BalanceResult", "Budget", "CHEAP",
           "Candidate", "CandidateResult", "DEFAULT_SEED", "Measure", "OtherSearchError",
           "QUICK", "QUICK_FLAGS", "SEARCH", "Single", "balance"]
