"""Players: the native policies by name, and bots that pick a move for a Game.

Names (case-insensitive): ``"random"`` (uniform over legal moves), ``"greedy"`` (one-ply
heuristic: wins at once when it can, weighs points, threats, cards and Queens),
``"expert"`` (a hand-built evaluation with a look-ahead over its own move and the
opponent's best reply, reasoned from the cards the opponent may hold),
``"ismcts:N"`` (information-set Monte Carlo tree search, N iterations, moves tried in
the expert's order, greedy playouts cut short and scored by the expert's evaluation;
plain ``"ismcts"`` means N = 1000), ``"ismcts-random:N"`` (the same with random
playouts) and ``"ismcts-infer:N"`` (the same search dealing the opponent's hidden hand
by how likely its moves were, under a model of the opponent learned from the search's
own games, instead of uniformly, and stopping before its N iterations once its choice is
settled: stronger at the same CPU time, see docs/strength.md; it reads the opponent
from the moves a Bot or a simulated game saw).  Every native
policy but one sees only what its player may know: ISMCTS
searches over determinizations of its view, expert reasons over the cards the opponent
may hold given what its player knows of them, greedy uses the public table, hand sizes
and its own hand (it does not look at an opponent's hand made public by glasses or open
hands).

The exception is ``"cuttle.cards-ai"``, a FULL-INFORMATION reference: the online game's
"vs AI" opponent reproduced from its published behaviour (a depth-2 minimax over the true
game, reading both hands and the deck order, scored by a simple heuristic; see
docs/strength.md, "The anchors").  It is a fixed point of comparison for the strength
ladder, not a fair opponent.

**Python policies.**  A callable ``policy(game) -> move`` or ``policy(game, rng) -> move``
plays too (`cuttle.simulate`, `cuttle.compare`, the Gymnasium env's opponent), but it is
handed the live `Game`: the opponent's hand (``game.hand(1 - p)``) and the deck order
(``game.deck``) included, so a policy that reads them, or searches on ``game.copy()``,
cheats without knowing it.  `fair(policy)` is the same policy seeing only its player's
view: it is called on ``game.determinize(p, seed)``, the hidden cards dealt anew
consistently with what player ``p`` knows, seeded from the run's ``rng`` (reproducible
per seed, whatever the threads or chunks), the moves played so far, all public, its
``game.prior_moves``.  `with_rng(policy)` is the adapter that calls
either form as ``policy(game, rng)``.  An int returned is a ``Move.code``, never a compact
action index of cuttle.rl: return ``cuttle.rl.move_of(action)`` for one of those.
"""

from __future__ import annotations

import inspect
import numbers
import random
import threading
from typing import TYPE_CHECKING

from ._decide import decide, search_trees
from ._policies import POLICIES, POLICY_SHIFT
from .game import Game, check_game
from .moves import Move
from .seeding import check_seed, derive, seed_or_new
from .text import quoted
from .threads import check_threads

if TYPE_CHECKING:
    from collections.abc import Callable

    from ._signals import Cancel

__all__ = ["Bot", "CALLABLE_FORMS", "CALLABLE_PLAYS", "DEFAULT_ISMCTS_ITERATIONS",
           "FULL_INFORMATION", "MAX_ISMCTS_ITERATIONS", "PLAIN_POLICIES", "POLICY_NAMES",
           "canonical_policy", "fair", "forced_move", "is_search", "policy_code",
           "policy_name", "takes_rng", "with_rng"]

DEFAULT_ISMCTS_ITERATIONS = 1000
MAX_ISMCTS_ITERATIONS = 1_000_000
POLICY_NAMES = tuple(f"{name}:N" if takes_n else name
                     for name, (_, takes_n) in POLICIES.items())
# The core's policy table marks its searches (the kinds its `is_search`, in _state.pxd,
# names) as the kinds that take an iteration count.
_SEARCHES = frozenset(name for name, (_, takes_n) in POLICIES.items() if takes_n)


# How a search's name without its count reads, said wherever a name is refused.
_BARE_SEARCH = (f"N iterations, 1 to {MAX_ISMCTS_ITERATIONS:,}; a search named without "
                f"':N' runs {DEFAULT_ISMCTS_ITERATIONS:,}: 'ismcts' is "
                f"'ismcts:{DEFAULT_ISMCTS_ITERATIONS}'")


# Where a Python callable plays as a player, said wherever one is refused.
CALLABLE_PLAYS = ("cuttle.simulate, cuttle.compare, cuttle.compare_players, "
                  "cuttle.simulation.game_record and cuttle.rl.GymEnv(opponent=...)")


def _parse(name):
    """(kind, code, canonical name) of a policy name: the one parser of policy names."""
    if not isinstance(name, str):
        hint = f" (a Python callable plays in {CALLABLE_PLAYS})" if callable(name) else ""
        raise ValueError(f"a policy is a name like 'greedy' or 'ismcts:1000', not "
                         f"{quoted(name)}{hint}")
    kind, colon, param = name.strip().lower().partition(":")
    if kind not in POLICIES:
        raise ValueError(f"unknown policy {quoted(name)}; valid: {', '.join(POLICY_NAMES)} "
                         f"({_BARE_SEARCH})")
    code, takes_n = POLICIES[kind]
    if not takes_n:
        if colon:
            raise ValueError(f"policy {kind!r} takes no parameter, not {quoted(name)}")
        return kind, code, kind
    if not colon:
        iterations = DEFAULT_ISMCTS_ITERATIONS
    elif param.isascii() and param.isdigit() and 1 <= int(param) <= MAX_ISMCTS_ITERATIONS:
        iterations = int(param)
    else:
        raise ValueError(f"bad iteration count in {quoted(name)}: use e.g. '{kind}:1000' "
                         f"({_BARE_SEARCH})")
    return kind, code | (iterations << POLICY_SHIFT), f"{kind}:{iterations}"


def policy_code(name: str) -> int:
    """The core's code for a policy name (case-insensitive, see the module docstring);
    ValueError naming the valid ones."""
    return _parse(name)[1]


def policy_name(name: str) -> str:
    """A policy name as given, stripped and in lower case, checked (the atlas and the
    balance designer key their results files so: ``"ismcts"`` stays ``"ismcts"``);
    `canonical_policy` is the name a player is labelled by."""
    _parse(name)
    return name.strip().lower()


def canonical_policy(name: str) -> str:
    """A policy's full name, as players are labelled (a `Bot`'s name, the players of
    `simulate` and `compare`): lower case, and a search with its iteration count
    (``"ismcts"`` is ``"ismcts:1000"``, ``"ISMCTS:0100"`` is ``"ismcts:100"``), so that
    one policy has one name.  ValueError for an unknown name."""
    return _parse(name)[2]


def is_search(name: str) -> bool:
    """Whether the policy `name` is a search (ismcts, ismcts-random, ismcts-infer): it
    decides with a tree, runs root-parallel trees in a `Bot`, and is far slower than
    the others.
    ValueError for an unknown name."""
    return _parse(name)[0] in _SEARCHES


# The policies that read hidden cards (both hands and the deck order): references, not
# fair players, said so wherever one is named as a player (simulation.names).
FULL_INFORMATION = frozenset({"cuttle.cards-ai"})


# The policies that do not search (random, greedy, expert): e.g. analyse's playouts.
PLAIN_POLICIES = tuple(name for name in POLICIES if name not in _SEARCHES)


class Bot:
    """A native policy as a player: ``Bot("greedy").choose(game) -> Move``.

    A seeded bot is reproducible in every process: its k-th call uses the seed
    ``derive(seed, k)``.  A search bot (``ismcts``) runs `threads` independent search
    trees in parallel for each decision (root parallelism; None: 1) and sums their
    visits; its choices depend on the seed and on the thread count (each tree draws
    from its own stream of the seed), never on the scheduling.  It keeps its trees from
    one decision to the next of a game and reuses the part that the moves played
    since lead to.  ``ismcts-infer`` also weighs what the opponent did since the bot's
    first decision with a choice in the game: a new bot asked about a game already under
    way reads it back from the game's record, as if it had followed the game.

    A bot may be shared by threads: its decisions are taken one at a time (a lock), in
    the order the threads call (its k-th decision is the k-th call to return).  It
    pickles as the bot its arguments make, with its count of decisions (so a seeded
    bot's next decision draws from the same seed); a search bot's trees are not kept.

    `name` is the policy's full name (`canonical_policy`: ``Bot("ismcts").name`` is
    ``"ismcts:1000"``); its repr shows the seed and the thread count when they were
    given.  As a player of `simulate` or `compare` a bot plays as its policy's name,
    natively: the run's seed decides its moves (game i's players draw from the run's
    streams of (seed, i), as every native player's do), the run's `threads` spread the
    games (one search tree per game), and the bot's own seed, thread count and count
    of decisions are not used, nor changed.
    """

    def __init__(self, name: str = "greedy", seed: int | None = None,
                 threads: int | None = None) -> None:
        if callable(name):
            raise ValueError(f"Bot plays a native policy by its name ('greedy', "
                             f"'ismcts:1000', ...), not {name!r}: a Python callable "
                             f"policy(game) -> move is a player as it is (call it on a "
                             f"game) and plays in {CALLABLE_PLAYS}")
        self.code = policy_code(name)
        self.name = canonical_policy(name)
        self.seed = seed_or_new(seed)
        self.threads = check_threads(threads, "one") or 1
        self._given = (seed is not None, threads is not None)     # (for the repr)
        self._calls = 0
        self._trees = search_trees(self.threads) if is_search(name) else None
        self._lock = threading.Lock()

    def choose(self, game: Game) -> Move:
        """The bot's move for the player to decide in `game` (the game is not changed).

        A game whose cards not seen (``?``) were dealt (``game.dealt_unseen``: a
        position's, a record's) is played on as any game: the bot plays the cards its
        player holds, the deal's included, which is how such a game goes on (`cuttle
        play` from a position with the bot's hand ``?``).  That is play, not analysis:
        a choice from a view that is the deal's says nothing of the position written,
        and `cuttle.analyse` refuses that view (`cuttle.game.check_view`)."""
        return self._choose(game, None)

    def _choose(self, game: Game, cancel: Cancel | None) -> Move:
        """`choose`, its search stoppable from another thread by `cancel` (a
        `cuttle._signals.Cancel`, None: none; uncancelled, the same decision): the web
        app's bot."""
        if check_game(game).is_over:
            raise ValueError("the game is over: there is no move to choose")
        with self._lock:       # (the trees change under the GIL, are searched without it)
            self._calls += 1
            return Move.from_code(decide(game, self.code, derive(self.seed, self._calls),
                                         self.threads, self._trees, cancel))

    def __reduce__(self):
        return _unpickle_bot, (self.name, self.seed, self.threads, self._calls, self._given)

    __call__ = choose

    def __repr__(self):
        seed_given, threads_given = self._given
        return (f"Bot({self.name!r}" + (f", seed={self.seed}" if seed_given else "")
                + (f", threads={self.threads}" if threads_given else "") + ")")


def _unpickle_bot(name, seed, threads, calls, given=(True, True)):
    """A pickled Bot, each field checked: ValueError "corrupt pickled bot: ..." else."""
    try:
        bot = Bot(name, seed, threads)
        bot._calls = check_seed(calls, "a bot's count of decisions")
        if not (isinstance(given, tuple) and len(given) == 2
                and all(type(x) is bool for x in given)):
            raise ValueError(f"whether its seed and threads were given must be two bools, "
                             f"not {given!r:.60}")
        if not given[1] and bot.threads != 1:     # (threads not given: one thread)
            raise ValueError(f"its threads, {bot.threads}, are said not to be given, "
                             f"which is one thread")
    except (TypeError, ValueError) as e:
        raise ValueError(f"corrupt pickled bot: {e}") from None
    bot._given = given
    return bot


# -- Python policies ---------------------------------------------------------------------

def _binds(policy, n: int) -> bool | None:
    """Whether `policy` can be called with `n` positional arguments (None: it has no
    signature to tell, as some builtins)."""
    try:
        inspect.signature(policy).bind(*[None] * n)
        return True
    except TypeError:
        return False
    except ValueError:
        return None


def with_rng(policy: Callable[..., Move | str | int],
             what: str = "the policy") -> Callable[..., Move | str | int]:
    """`policy` as a function ``(game, rng) -> move``, as every Python player is called
    (`simulate`, `compare`, `cuttle.rl.GymEnv`'s opponent): `policy` itself if
    `takes_rng`, else a wrapper calling ``policy(game)`` (picklable, as `policy` is).
    ValueError naming `what` for a policy of neither form, before it is ever called."""
    return policy if takes_rng(policy, what) else _GameOnly(policy)


# The two forms of a Python policy, as every error about one says them.
CALLABLE_FORMS = "a callable policy(game) -> move or policy(game, rng) -> move"


def takes_rng(policy: Callable[..., Move | str | int], what: str = "the policy") -> bool:
    """Whether `policy` is handed the rng wherever it plays: the one decision of a
    Python policy's form (`with_rng` calls by it), made before any game.  True if
    `policy` can be called as ``policy(game, rng)`` (an optional rng, ``policy(game,
    rng=None)``, included: it gets the run's rng, as it would write ``rng or random``
    to be reproducible), False if only as ``policy(game)`` (`fair(f)` called so keeps
    its own stream); ValueError naming `what` ("player A", "the opponent") and the two
    forms for neither (not callable, or taking no argument, or three).  A callable
    without a signature to tell (some builtins) is taken as ``policy(game)``."""
    if not callable(policy):
        raise ValueError(f"{what} must be {CALLABLE_FORMS}, not {policy!r}")
    if _binds(policy, 2):
        return True
    if _binds(policy, 1) is not False:
        return False
    raise ValueError(f"{what} must be {CALLABLE_FORMS}: {policy!r} can be called with "
                     f"neither one argument nor two (signature {inspect.signature(policy)})")


def forced_move(game: Game) -> Move | None:
    """The move of a decision without a choice: the only legal move of the player to
    decide, None when it has more than one (or the game is over).  A Python policy is
    asked only for a choice: `simulate` plays this move without calling it, and so does
    `cuttle.rl.GymEnv` for its opponent, so a policy's draws from its rng (and a `Bot`'s
    count of decisions) are the same in both (the native play loop, `choose_move`,
    skips such decisions alike)."""
    legal = game.legal_moves
    return legal[0] if len(legal) == 1 else None


class _GameOnly:
    """policy(game) called as policy(game, rng)."""

    __slots__ = ("f",)

    def __init__(self, f):
        self.f = f

    def __getstate__(self):
        return self.f

    def __setstate__(self, f):
        self.f = f

    def __call__(self, game, rng):
        return self.f(game)


def code_hint(move: object) -> str:
    """For the error of a callable's illegal choice: an int is a Move.code, and the
    compact action index learning code returns by habit is not one (mostly no move at
    all, sometimes another move), so say how to convert it.  "" for anything else."""
    if isinstance(move, numbers.Integral) and not isinstance(move, bool):
        return (f" ({int(move)} was read as a Move.code, as a policy's int always is; "
                f"to play a compact action index of cuttle.rl (legal_actions, "
                f"action_mask), return cuttle.rl.move_of(action))")
    return ""


def fair(policy: Callable[..., Move | str | int],
         seed: int | None = None) -> Callable[..., Move | str | int]:
    """`policy` (a callable ``policy(game)`` or ``policy(game, rng)``) as a player that
    sees only what its player may know, for ``cuttle.simulate(..., players=(fair(policy),
    "expert"))`` and wherever a callable plays.

    A callable player is handed the live game, the opponent's hand and the deck order
    included.  The policy returned calls `policy` instead on ``game.determinize(p, s)``
    for the player ``p`` to decide: everything ``p`` knows kept, the cards ``p`` cannot
    place (the opponent's unknown hand cards, the deck's unknown positions) dealt anew
    among those places, the game's random stream reseeded, no undo history (``moves``,
    ``ply`` and ``undo`` start there; `seed` is the sample's ``s``, not the true deal's):
    the moves played before, every one public, are the sample's ``prior_moves``, the
    true game's (its ``prior_moves``, then its ``moves``), so a policy may read the
    whole game so far.
    The decider's legal moves in that sample are the true game's (tests check it at every
    phase of random games under random rules), so the move it returns is legal in the
    real game.  The sample's seed ``s`` is drawn from the ``rng`` the run passes (a
    `random.Random` seeded by the run's seed, game index and seat, then passed on to
    `policy` if it takes it), so a run stays reproducible per seed, whatever the threads
    or chunks (`cuttle.rl.GymEnv` passes its opponent the episode's rng likewise).
    Called as ``f(game)`` alone, it draws from a stream of its own, seeded by `seed`
    (None: a fresh seed).

    A native policy name already plays from its player's view (all but
    ``cuttle.cards-ai``) and needs no wrapper.  A `Bot` that reads the history
    (``ismcts-infer``) reads the game's own record, which the sample starts afresh: it
    sees none through this one (``prior_moves`` are moves, not the positions they led
    to).

    >>> import random
    >>> seen = []
    >>> peek = fair(lambda game: seen.append(game) or game.legal_moves[0])
    >>> g = Game(seed=1)
    >>> peek(g, random.Random(5)) in g.legal_moves
    True
    >>> seen[0].hand(0) == g.hand(0), seen[0].hand(1) == g.hand(1)
    (True, False)
    >>> _ = g.play("draw"); _ = peek(g, random.Random(6))
    >>> seen[1].prior_moves, seen[1].moves        # the game so far; its own moves start here
    ((Move('draw'),), [])
    """
    if isinstance(policy, str):
        raise ValueError(f"fair() takes a Python callable policy(game) -> move, not the "
                         f"policy name {policy!r}: a named policy plays from its "
                         f"player's view already")
    takes_rng(policy, "fair()'s policy")
    return _Fair(policy, random.Random(seed_or_new(seed)))


class _Fair:
    """`fair`'s player: `policy` called on a determinization of the decider's view."""

    def __init__(self, policy, own):
        self.policy = policy
        self.call = with_rng(policy)
        self.own = own                   # the stream of the f(game) form
        name = getattr(policy, "__name__", None) or type(policy).__name__
        self.__name__ = f"fair({name})"  # (the player's name in a simulation's result)

    def __call__(self, game: Game, rng: random.Random | None = None) -> Move | str | int:
        if check_game(game).is_over:
            raise ValueError("the game is over: there is no move to choose")
        rng = self.own if rng is None else rng
        return self.call(game.determinize(game.to_move, rng.getrandbits(64)), rng)

    def __repr__(self):
        return self.__name__
