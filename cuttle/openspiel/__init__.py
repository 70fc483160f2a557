"""OpenSpiel: `import cuttle.openspiel` registers the game `python_cuttle` with pyspiel.

    import pyspiel, cuttle.openspiel
    game = pyspiel.load_game("python_cuttle")                 # classic rules
    game = pyspiel.load_game("python_cuttle(rules=cuttle.cards;four:random,max_moves=500)")
    game = pyspiel.load_game(cuttle.openspiel.game_string(rules, max_moves=500))

The `rules` parameter takes the rule text of the command line (`str(rules)`,
"classic: four=random") when it is given in a parameter dict
(`pyspiel.load_game("python_cuttle", {"rules": "classic: joker=true"})`).  Inside a game
string, where OpenSpiel reserves "=" and ",", it is a preset followed by `;flag:value`
changes, with "/" between the five King goals (`classic;king_goals:15/14/10/7/5;joker:true`);
`game_string` writes that form.

Every random event is an explicit chance node, so a state is a function of its
history: the deal (one node per card, uniform over the cards not yet dealt: player 0's
cards, player 1's, as many as the rules' `deal` gives each, five and six by default,
then the deck from the top) and, under `four=random`, the
4's discards (one node, uniform over the victim's pairs of cards; its outcome is the
compact discard action).  Player actions are the compact actions of cuttle.rl
(docs/rl.md); every one of them is public.

Observers (`make_py_observer`, pyspiel's `make_observation`) honour every
IIGObservationType (docs/rl.md, "OpenSpiel"): the public view is what both players see
(assembled from the parts of the core's encodings that are public, plus the hand cards
whose identity is public), a single player's view adds what only that player knows,
the all-players view adds both; perfect recall gives a digest of the sequence of those
views since the deal, a string only (so there is no information-state tensor:
`information_state_tensor()` raises SpielError, naming the observation tensor, the
player's view now).  `resample_from_infostate(p)` returns a state with a whole
history consistent with p's information state (deal resampled, the same actions
replayed), so every view of it, the other player's included, is a real state's.

OpenSpiel's bots as cuttle players: `state_of(game)` is a state at a Game's position
(without the history before it: resampling deals anew the cards the player cannot
place, Game.determinize), and `ISMCTSPlayer(iterations)` is OpenSpiel's generic Python
ISMCTSBot (random rollouts) as a policy(game, rng) -> Move for cuttle.simulate, Game
loops and the strength ladder's anchors (benchmarks/bench_strength.py --anchors).

Modules: `game` (the game type and its parameters, `CuttleGame`, `CuttleState` with
its chance nodes and `resample_from_infostate`, the registration with pyspiel),
`observers` (`CuttleObserver`: the views of every IIGObservationType, their text and
perfect-recall digests), `players` (`state_of`, `ISMCTSPlayer`: OpenSpiel's bots as
cuttle players).
"""

from __future__ import annotations

from .._optional import missing

try:
    import pyspiel  # noqa: F401  (the submodules import it; its absence is named here)
except ImportError as e:
    raise missing(e, "cuttle.openspiel") from None

from .game import GAME_TYPE, SHORT_NAME, CuttleGame, CuttleState, game_string, rules_from_param
from .observers import CuttleObserver
from .players import ISMCTSPlayer, state_of

__all__ = ["GAME_TYPE", "CuttleGame", "CuttleObserver", "CuttleState", "ISMCTSPlayer",
           "game_string", "rules_from_param", "state_of"]
