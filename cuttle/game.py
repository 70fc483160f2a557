"""`Game`: a game of Cuttle with push/undo, legal moves, views and printing.

The state and every rule live in the native core: `Game` subclasses
`cuttle._core.CoreGame` and is the only Python module that calls its `_core_*` methods.
It turns card indices into `Card`s and move codes into `Move`s, and checks input:
`check_game`, the argument rule of every function that takes a game, and `check_view`,
that of every analysis of a decider's view, which refuses a view made of cards dealt
for a record's or a position's ``?`` (`missing_view`; what that mark means is
`cuttle.unseen`'s).  The legal moves and the words of an illegal one are
`cuttle.legal`'s.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ._core import (END_NAMES, MOVE_SPACE, PHASE_NAMES, CoreGame, FreezeRefused, n_cards,
                    state_refusal)
from ._observe import observation as _observation, observe
from ._playout import PlayStatus
from .cards import CARDS, Card, parse_index
from .display import render
from .errors import IllegalMoveError, InvalidMoveError, NoMoveToUndo
from .freezes import freeze_words
from .legal import LegalMoves, as_move, why_illegal
from .moves import Move, move_codes
from .observation import Observation
from .position import layout, parse_text, write_text
from .rules import Rules
from .seeding import check_game_index, check_seed, seed_or_new
from .unseen import check_dealt, dealt_not_named, sample_mark, view_gap, view_refusal
from .validation import check_move_cap, check_player, is_int

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

__all__ = ["Game", "LegalMoves", "check_game", "check_view", "missing_view"]

_OVER = PHASE_NAMES.index("over")


class Game(CoreGame):
    """A game of Cuttle: a position with its history, every rule in the native core.

    ``Game(rules=None, seed=None, max_moves=None)`` deals a new game: `rules` is a
    `Rules`, rule text as the command line takes it (a preset name, or e.g.
    ``"classic: joker=true"``; see `Rules.coerce`) or None (classic); `seed` an int in [0, 2**64) (None: a
    random one, kept in ``game.seed``); `max_moves` ends a game still running after
    that many moves as a draw (end reason ``"move_cap"``), as simulations do.  Other
    constructors: `Game.from_position`, `Game.from_text`, `Game.from_run`.

    Vocabulary, used the same way everywhere in cuttle:

    - **players** are 0 and 1; player 0 is dealt 5 cards (player 1 six; the `deal` flag
      changes both) and has the first turn.
    - a **turn** belongs to one player (``game.turn``); ``game.turn_number`` counts turns
      from 1.  Within a turn several **decisions** may be made, each in a **phase** with
      exactly one decider, ``game.to_move`` (e.g. the opponent answering a one-off in the
      ``counter`` phase).  ``game.ply`` counts the moves (decisions) played.
    - a finished game has ``is_over``; ``winner`` is 0, 1 or None for a draw
      (simulation arrays, which hold ints, write a draw as -1); ``end_reason`` says how
      it ended: ``goal``, ``passes``, ``sudden_death`` or ``move_cap``.

    Moves are `Move` values, their text (``"points 7H"``) or their 16-bit code; `play`
    accepts exactly ``legal_moves`` and refuses anything else with an
    `IllegalMoveError` (a ValueError), leaving the game unchanged.

    >>> g = Game(seed=1)                  # classic rules, a seeded deal
    >>> g.play("draw")
    Move('draw')
    >>> g.turn, g.turn_number, g.ply
    (1, 2, 1)
    >>> g.undo()
    Move('draw')
    >>> g == Game(seed=1)
    True

    A game whose start had cards not seen (``?``) holds the cards dealt for them,
    ``dealt_unseen``, and ``dealt_from`` says what held the ``?``: ``"record"``, a game
    replayed from a record (`cuttle.record`: dealt to fit its moves), or ``"position"``,
    one read from position text or `from_position` (dealt by the seed).  Any other
    game's are empty and None; `copy` and pickling keep them.  A view that sees such a
    card is the deal's, not what was written, which `cuttle.analyse` and `cuttle.review`
    refuse (`missing_view`, `check_view`): of a record, wherever its player saw one
    before a move named it; of a position, where its player sees one in the position
    itself (their hand's ``?``), the game played on from it being its own (what a move
    shows later is that game's card, as a position's shuffled deck is).
    """

    dealt_unseen: frozenset[Card] = frozenset()
    dealt_from: str | None = None
    _prior = b""            # the codes of `prior_moves`, as the core keeps them (uint32s)

    def __init__(self, rules: Rules | str | None = None, seed: int | None = None,
                 max_moves: int | None = None):
        self._attach(Rules.coerce(rules), seed_or_new(seed), max_moves)
        self._core_deal(self.seed)

    def _attach(self, rules, seed, max_moves=None):
        """Set the rules (Python and core side), the seed and the move cap of a new game."""
        max_moves = check_move_cap(max_moves)
        self._rules = rules
        self.seed = seed
        self.max_moves = max_moves
        self._core_set_rules(rules)

    @classmethod
    def from_run(cls, rules: Rules | str | None = None, *, seed: int, index: int,
                 max_moves: int | None = None) -> Game:
        """The deal of game `index` of a seeded simulation run: ``cuttle.simulate(n,
        rules, seed=seed)`` deals its game i exactly so (``Game(seed=s)`` is game 0 of
        seed s), so any game of a run can be looked at or replayed (`max_moves`: the
        run's cap, as in ``Game``; `index`: 0 to 2**62-1, as a record's ``deal``).

        >>> Game.from_run(seed=1, index=0) == Game(seed=1)
        True
        """
        g = cls.__new__(cls)
        g._attach(Rules.coerce(rules), check_seed(seed), max_moves)
        g._core_deal(g.seed, check_game_index(index, "index"))
        return g

    @classmethod
    def from_position(cls, rules: Rules | str | None = None, *,
                      hands: Sequence[Iterable[str | int]] = ((), ()),
                      points: Sequence[Iterable[str | int]] = ((), ()),
                      permanents: Sequence[Iterable[str | int]] = ((), ()),
                      scrap: Iterable[str | int] = (), deck: Iterable[str | int] = (),
                      to_move: int = 0, rest: str = "deck", seed: int | None = None,
                      frozen: Sequence[Iterable[str | int]] = ((), ())) -> Game:
        """Build a main-phase position from card texts.

        `hands`, `points`, `permanents` and `frozen` are pairs (player 0's, player 1's)
        of card lists.  A point card may carry its Jacks, bottom to top:
        ``"TH[JC,JD]"``, listed on the side of its controller.  `permanents` holds
        Kings, Queens and glasses-8s.
        `deck` lists the top cards, top first.  Every card not listed goes to `rest`:
        ``"deck"`` (below the listed cards, shuffled by `seed`) or ``"scrap"``.
        `frozen` (``nine="freeze"`` only) lists, per player, cards of its hand that it
        may not play in its next turn, which for `to_move` is this turn (`frozen(to_move)`
        and the other's ``observation(p).frozen_next``): cards a 9 returned to its hand,
        publicly, so only cards a 9 returns, the other's by its own 9 (decision 3 of
        docs/rules-decisions.md).  Each player knows of the other's hidden cards only what the position
        implies: its frozen cards, and its whole hand while public (`cuttle.position`).
        ValueError for a duplicate or unknown card, a card in an impossible place, a
        freeze no 9 made (or whose 9 left the scrap with no 3 to take it), a player not
        to move above the hand limit (but at the deal: decision 26), or a position where
        both players are already at their goal.

        >>> g = Game.from_position(hands=(["2C", "9H"], ["4H"]), points=(["TC"], ["7S[JC]"]),
        ...                        rest="scrap")
        >>> g.points(1), g.jacks("7S"), g.score(1)
        ([Card('7S')], [Card('JC')], 7)
        """
        lay = layout(rules, hands=hands, points=points, permanents=permanents, scrap=scrap,
                     deck=deck, to_move=to_move, rest=rest, seed=seed, frozen=frozen)
        g = cls.__new__(cls)
        g._attach(lay.rules, lay.seed)
        try:
            g._core_load(lay)
        except FreezeRefused as e:        # (the core checks which freezes a 9 makes)
            raise ValueError(freeze_words(e.fault, lay.rules)) from None
        if g._core_score(0) >= g._core_goal(0) and g._core_score(1) >= g._core_goal(1):
            raise ValueError("both players are already at their goal in this position")
        if lay.dealt:               # (its '?' dealt by the seed)
            g.dealt_unseen = frozenset(CARDS[i] for i in lay.dealt)
            g.dealt_from = "position"
        return g

    @classmethod
    def from_text(cls, text: str, rules: Rules | str | None = None,
                  seed: int | None = None) -> Game:
        """A game from position text (see `cuttle.position`); `rules` (a Rules or rule
        text) and `seed` replace the text's own fields when given."""
        kw = parse_text(text)
        if rules is not None:
            kw["rules"] = Rules.coerce(rules)
        if seed is not None:
            kw["seed"] = seed
        try:
            return cls.from_position(**kw)
        except ValueError as e:
            raise ValueError(f"invalid position: {e}") from None

    def position_text(self, multiline: bool = False, rules: bool = True,
                      unseen: bool = False) -> str:
        """The full position of a main-phase game as text (every zone, the whole deck,
        top first, and the frozen cards), which `Game.from_text` reads back as the same
        position: the same cards, rule state, freezes, legal moves and player to move,
        but not the players' memory of hidden cards, which starts afresh, nor the
        history, the turn number or the random stream (`cuttle.position` says exactly
        what round-trips); ``multiline``: one field a line; ``rules=False`` leaves the
        rules field out.  A game won by its goal is written as well: read back, it
        is won at once by the same player (decision 27 of docs/rules-decisions.md).
        ValueError outside the main phase otherwise (a game drawn, a move half done),
        for a win that left both players at their goal, and where the game's rule state
        is more than the text carries (a pass just played, sudden death's last turn).

        A game whose ``?`` were dealt (``dealt_unseen``) is written with the cards
        dealt, as any game (it is played with them, and read back they are the
        position's own: its record from `cuttle play` holds them); ``unseen=True``
        writes what was given instead: ``?`` again for each card dealt that no move has
        named since and that lies hidden, in a hand (after its cards given) or the deck
        (the deck's last ones left out: the unlisted rest), so that `Game.from_text`
        reads back the same position as its seed deals it, marked again.  A card drawn
        since from the dealt ones is ``?`` too: the text does not say who saw it."""
        frozen = tuple([CARDS[i] for i in self._core_position_frozen(p)] for p in (0, 1))
        hidden = dealt_not_named(self) - {c for f in frozen for c in f} if unseen else ()
        return write_text(self, multiline, rules, frozen, self._core_position_gap(),
                          hidden)

    # -- moves -------------------------------------------------------------------------

    @property
    def legal_moves(self) -> LegalMoves:
        """The legal moves of the player to decide (empty once the game is over)."""
        return LegalMoves(self._core_legal_codes())

    def is_legal(self, move: Move | str | int) -> bool:
        """Whether `move` (a Move, its text or its code) may be played now."""
        try:
            move = as_move(move)
        except InvalidMoveError:
            return False
        return bool(self._core_is_legal(move.code))

    def next_decision(self, max_moves: int | None = None) -> int | None:
        """The player who must decide now; None once the game is over or, with
        `max_moves`, once that many moves are in its history (the game goes on, not
        ended as a capped draw).  The core's play loop (the one simulations run) for a
        game whose moves are chosen in Python: loop ``while (p := game.next_decision())
        is not None`` on a ``Game(..., max_moves=cap)``, which its cap ends as a draw
        as a simulated game's does."""
        status = self._core_play_until(check_move_cap(max_moves) or 0)
        if status == PlayStatus.PLAY_DECIDE:
            return self._core_to_move
        if status in (PlayStatus.PLAY_OVER, PlayStatus.PLAY_CAP):
            return None
        raise RuntimeError(f"the play loop stopped with status {status}")

    def play(self, move: Move | str | int) -> Move:
        """Play a Move, its text (case-insensitive; ``10H`` reads as ``TH``) or its code
        (an int, numpy integers too), and return it as a Move.  Illegal or malformed:
        `IllegalMoveError` (a ValueError) saying why, the game unchanged."""
        move = as_move(move)
        if not self._core_play(move.code, self.max_moves or 0):
            raise IllegalMoveError(why_illegal(self, move))
        return move

    push = play  # python-chess's name

    def undo(self) -> Move:
        """Take back the last move exactly (the random stream too) and return it;
        `cuttle.NoMoveToUndo` (an IndexError) if no move was played."""
        code = self._core_undo()
        if code is None:
            raise NoMoveToUndo("no move to undo: no move has been played")
        return Move.from_code(code)

    pop = undo

    def copy(self) -> Game:
        """An independent copy: same position, random stream, history and prior moves."""
        g = type(self).__new__(type(self))
        self._core_copy_to(g)
        g._rules, g.seed, g.max_moves = self._rules, self.seed, self.max_moves
        g.dealt_unseen, g.dealt_from = self.dealt_unseen, self.dealt_from
        g._prior = self._prior
        return g

    __copy__ = copy

    def __deepcopy__(self, memo):
        return self.copy()

    def __reduce__(self):
        args = (type(self), self._rules, self.seed, self._core_get_state(), self.max_moves)
        if self.is_over and self.end_reason == "move_cap":
            # The core checks a pickled history by replaying it, and its moves know no
            # cap: a game its cap ended is pickled as it was before its last move, which
            # _unpickle plays again under the cap.
            before = self.copy()
            last = before._core_undo()
            args = args[:3] + (before._core_get_state(), self.max_moves, last)
        # After `last` (None for most): the mark of the cards dealt for '?', then the
        # prior moves; what an older cuttle does not read is written only where needed.
        mark = (sorted(map(str, self.dealt_unseen)), self.dealt_from)
        if self._prior:
            args += (None,) * (6 - len(args)) + mark + (_codes(self._prior),)
        elif self.dealt_unseen:             # ("record", the default, unwritten)
            args += (None,) * (6 - len(args)) + mark[:1 if mark[1] == "record" else 2]
        return (_unpickle, args)

    def __eq__(self, other):
        """Games are equal when their rules, move cap, position, random stream and whole
        history are, `prior_moves` included (the seed only names how a game began)."""
        if not isinstance(other, Game):
            return NotImplemented
        return (self._rules == other._rules and self.max_moves == other.max_moves
                and self._prior == other._prior and self._core_equal(other))

    # A game changes: it is not hashable.  position_text() keys a main-phase position
    # (cards, freezes, to_move, the rule state): games that differ only in what a player
    # remembers of hidden cards share a text (`cuttle.position`).
    __hash__ = None

    @property
    def moves(self) -> list[Move]:
        """The moves played since the game's first position, oldest first."""
        return [Move.from_code(c) for c in self._core_move_codes()]

    @property
    def prior_moves(self) -> tuple[Move, ...]:
        """The moves played before the game's first position, oldest first (read-only):
        none for a new game; for a determinization (`determinize`), the history of the
        game it was drawn from (its `prior_moves`, then its `moves`), which is public:
        no move names a card hidden from either player (a draw names none)."""
        return tuple(map(Move.from_code, _codes(self._prior)))

    @property
    def ply(self) -> int:
        """The number of moves (decisions) played: ``len(game.moves)``."""
        return self._core_ply

    # -- hidden information --------------------------------------------------------------

    def observation(self, player: int) -> Observation:
        """What `player` may know now (docs/rules.md §6): own hand, the table, sizes,
        every card made public, cards known to be in the opponent's hand or on the deck.
        ``.to_array()`` is its fixed-size encoding for learning code."""
        p = check_player(player)
        opp = 1 - p
        target = self._core_target
        return Observation(
            player=p, phase=self.phase, turn=self.turn, to_move=self.to_move,
            hand=tuple(self.hand(p)), opponent_hand_size=len(self._core_hand(opp)),
            opponent_known=tuple(CARDS[i] for i in self._core_known_hand(p)),
            opponent_hand_public=self._core_hand_public(opp),
            points=tuple(tuple((c, tuple(self.jacks(c))) for c in self.points(s))
                         for s in (0, 1)),
            permanents=tuple(tuple(self.permanents(s)) for s in (0, 1)),
            scrap=tuple(self.scrap), deck_size=len(self._core_deck()),
            deck_known=tuple((d, CARDS[c]) for d, c in self._core_known_deck()),
            revealed=tuple(self.revealed), stack=tuple(self.stack),
            target=None if target is None else CARDS[target],
            frozen=tuple(tuple(self.frozen(s)) for s in (0, 1)),
            frozen_next=tuple(tuple(CARDS[i] for i in self._core_frozen_next(s)) for s in (0, 1)),
            scores=(self.score(0), self.score(1)), goals=(self.goal(0), self.goal(1)),
            winner=self.winner, is_over=self.is_over, n_cards=n_cards(self._rules.joker))

    def observation_array(self, player: int, out: np.ndarray | None = None) -> np.ndarray:
        """`observation(player).to_array()`, encoded natively (tens of times faster):
        a float32 vector of OBSERVATION_SIZE.  `out`, a writable float32 array of that
        shape, is filled and returned instead of a new array."""
        p = check_player(player)
        if out is None:
            return _observation(self, p)
        return observe(self, p, out)        # (out checked there, natively)

    def determinize(self, player: int, seed: int | None = None) -> Game:
        """A full game consistent with `player`'s observation: everything the player
        knows is kept; only the cards they cannot know are redistributed among the
        places they cannot see (the opponent's hand, unknown deck positions).  The
        sample has no undo history (undoing would leak the true state): the game's
        moves, all public, are its `prior_moves`; its `seed` is its own (the true
        game's would deal its hidden cards again).  When `player` is to decide, its
        legal moves are the game's.

        Of a game whose ``?`` were dealt (``dealt_unseen``), a sample of a view that is
        given whole (`missing_view`) is a game of its own, as any game's sample; one of
        a view that is the deal's keeps the mark, so that its analysis is refused as the
        game's (`cuttle.unseen.sample_mark`: the dealt cards no move has named and the
        cards the sample dealt)."""
        player = check_player(player)
        seed = seed_or_new(seed)
        g = type(self).__new__(type(self))
        moves = self._core_sample_to(g, player, seed)       # (the codes of self's moves)
        g._rules, g.seed, g.max_moves = self._rules, seed, self.max_moves
        g.dealt_unseen, g.dealt_from = sample_mark(self, player)
        g._prior = self._prior + moves
        return g

    def legal_move_mask(self) -> np.ndarray:
        """A bool array over the 65,536 move codes (`Move.code`), True at legal moves."""
        mask = np.zeros(MOVE_SPACE, bool)
        mask[np.asarray(self._core_legal_codes(), dtype=np.int64)] = True
        return mask

    # -- views -------------------------------------------------------------------------

    @property
    def rules(self) -> Rules:
        """The game's `Rules`."""
        return self._rules

    @property
    def phase(self) -> str:
        """The decision being made: ``main`` (a turn's action), ``counter`` (answering a
        one-off), ``three``, ``four``, ``five``, ``seven`` (a one-off's choice),
        ``discard`` (the hand limit), ``block`` and ``ten`` (variants), or ``over``."""
        return PHASE_NAMES[self._core_phase]

    @property
    def turn(self) -> int:
        """The player whose turn it is (0 or 1); see `to_move` for who decides now."""
        return self._core_turn

    @property
    def to_move(self) -> int | None:
        """The player who must decide now (None once the game is over)."""
        return None if self._core_phase == _OVER else self._core_to_move

    @property
    def turn_number(self) -> int:
        """The number of the current turn, counting from 1 (the last turn's number once
        the game is over; simulation results count turns the same way)."""
        return self._core_turn_number + 1

    @property
    def winner(self) -> int | None:
        """The winner (0 or 1); None while the game runs and for a draw."""
        return self._core_winner

    @property
    def is_over(self) -> bool:
        """Whether the game has ended (see `winner` and `end_reason`)."""
        return self._core_phase == _OVER

    @property
    def end_reason(self) -> str | None:
        """How the game ended: 'goal', 'passes', 'sudden_death', 'move_cap'; None if on."""
        return END_NAMES[self._core_end_reason] if self.is_over else None

    def hand(self, player: int) -> list[Card]:
        """The player's hand, in card order (everything, whatever a player may see)."""
        return [CARDS[i] for i in self._core_hand(check_player(player))]

    def points(self, player: int) -> list[Card]:
        """The point cards the player controls (see `jacks` for their Jack stacks)."""
        return [CARDS[i] for i in self._core_points(check_player(player))]

    def permanents(self, player: int) -> list[Card]:
        """The player's Kings, Queens and glasses-8s."""
        return [CARDS[i] for i in self._core_permanents(check_player(player))]

    def frozen(self, player: int) -> list[Card]:
        """Cards in the player's hand that cannot be played this turn: returned by a 9
        under `nine="freeze"` (a frozen 2 may still counter)."""
        return [CARDS[i] for i in self._core_frozen(check_player(player))]

    def jacks(self, card: str | int) -> list[Card]:
        """The Jacks on a point card (a Card or its text), bottom to top."""
        return [CARDS[i] for i in self._core_jacks(parse_index(card))]

    @property
    def scrap(self) -> list[Card]:
        """The scrap pile (public, unordered: in card order)."""
        return [CARDS[i] for i in self._core_scrap()]

    @property
    def deck(self) -> list[Card]:
        """The deck, top card first."""
        return [CARDS[i] for i in self._core_deck()]

    @property
    def revealed(self) -> list[Card]:
        """The cards a 7 revealed, while it is being resolved (not in `deck` meanwhile)."""
        return [CARDS[i] for i in self._core_revealed()]

    @property
    def stack(self) -> list[Card]:
        """Announced cards whose action is not finished, oldest first: a one-off and its
        2s, a 7 being resolved, a scuttling card awaiting a block."""
        return [CARDS[i] for i in self._core_stack()]

    def score(self, player: int) -> int:
        """The points the player controls."""
        return self._core_score(check_player(player))

    def goal(self, player: int) -> int:
        """The points the player needs now (it falls with each King they control)."""
        return self._core_goal(check_player(player))

    def is_public_hand(self, player: int) -> bool:
        """Whether the player's hand is visible to the opponent (glasses, open hands, or
        `reveal_on_empty_deck` with an empty deck)."""
        return self._core_hand_public(check_player(player))

    # -- printing ----------------------------------------------------------------------

    def __repr__(self):
        state = f"over ({self.end_reason}), winner {self.winner}" if self.is_over else \
            f"turn {self.turn_number}, player {self.to_move} to decide ({self.phase})"
        return f"<cuttle.Game {self._rules!r} {state}, ply {self._core_ply}>"

    def __str__(self):
        return self.render()

    def _repr_svg_(self) -> str:            # Jupyter shows a game as its table (cuttle.svg)
        return render("svg", self)

    def render(self, viewer: int | None = None) -> str:
        """The table as a person would lay it out, `viewer`'s side at the bottom.
        A viewer (0/1) sees the opponent's hand only while it is public, and else the
        cards of it that the viewer knows (`observation(viewer).opponent_known`, e.g. a
        card a 9 sent back: "5 cards (hidden), known: QS"); None shows every card (a
        hand the opponent can see is marked public).  Each hand, hidden or not, ends
        with its frozen cards, which both players know (`nine="freeze"`): "frozen: QS"
        in the turn they may not be played (`frozen`), "frozen next turn: QS" before it
        (`observation(p).frozen_next`).  In a game replayed from a record or played
        from a position with cards not seen, a card dealt for its ``?`` that no move
        has named ends with ``*`` (`cuttle.unseen.dealt_shown`): one deal that fits, not
        the card that was there."""
        return render("text", self, None if viewer is None else check_player(viewer))


def _unpickle(cls, rules, seed, state, max_moves=None, last=None, dealt=(),
              dealt_from="record", prior=()):
    """A pickled Game, validated whole: ValueError for one that contradicts itself.
    `last`: the code of the move its move cap ended the game on, played again here
    (`state` is then the game before it); `dealt`, its ``dealt_unseen`` as card texts,
    `dealt_from` what held their ``?`` (none: a record), `prior` its prior moves' codes."""
    # pickle.loads calls this with whatever a pickle holds: anything but what
    # __reduce__ writes is refused here, before the native code sees it
    if not (isinstance(cls, type) and issubclass(cls, Game)):
        raise ValueError(f"corrupt pickled game: its class is {cls!r}, not a cuttle.Game")
    if not isinstance(rules, Rules):
        raise ValueError(f"corrupt pickled game: its rules are {rules!r}")
    if (why := state_refusal(state)) is not None:
        raise ValueError(f"corrupt pickled game: {why}")
    g = cls.__new__(cls)
    try:
        g._attach(rules, check_seed(seed, "a pickled game's seed"), max_moves)
    except ValueError as e:
        raise ValueError(f"corrupt pickled game: {e}") from None
    try:
        g._core_set_state(*state)
    except FreezeRefused as e:
        raise ValueError(f"{e.fault['where']}: {freeze_words(e.fault, rules)}") from None
    cap = g.max_moves
    if last is not None:
        if not (cap is not None and is_int(last) and 0 <= last <= 65535
                and g.ply + 1 == cap and not g.is_over and g._core_play(int(last), cap)
                and g.end_reason == "move_cap"):
            raise ValueError(f"corrupt pickled game: its last move {last!r} is not one "
                             f"that its move cap ({cap}) ended it on")
    if cap is not None and (g.ply > cap or (g.ply == cap and not g.is_over)):
        raise ValueError(f"corrupt pickled game: {g.ply} moves played, yet its move cap "
                         f"is {cap} and it is {'over' if g.is_over else 'not over'}")
    try:
        g.dealt_unseen, g.dealt_from = check_dealt(g, dealt, dealt_from)
        g._prior = np.array(move_codes(prior, rules.n_cards, "its prior moves"),
                            np.uint32).tobytes()
    except ValueError as e:
        raise ValueError(f"corrupt pickled game: {e}") from None
    return g


def _codes(prior: bytes) -> list[int]:
    """The move codes of a game's `_prior`."""
    return np.frombuffer(prior, np.uint32).tolist()


def check_game(value: object, name: str = "game") -> Game:
    """`value` if it is a Game; ValueError otherwise, saying how to make one (the
    argument rule of every function that takes a game: cuttle.validation)."""
    if isinstance(value, Game):
        return value
    hint = " (position text: cuttle.Game.from_text(text))" if isinstance(value, str) else ""
    raise ValueError(f"{name} must be a cuttle.Game, not {type(value).__name__}{hint}")


def missing_view(game: Game, player: int, activity: str = "review") -> str | None:
    """What the record or position `game` started from does not give of `player`'s view
    of it, in words, or None when it gives it whole (and for a game whose start had no
    cards not seen, ``?``: ``game.dealt_unseen``): where `player` first sees a card
    dealt for them that is not given (their hand's ``?``, a draw the deck does not
    list, ...), which another deal could make another card: of a record, from its start
    on; of a position, in the position itself (`cuttle.unseen.view_gap`).
    `check_view` refuses it, and the review leaves it out; `activity` (``"review"``,
    ``"analysis"``) names what is done with the view in a record's words."""
    player = check_player(player)
    return view_gap(check_game(game), player, activity)


def check_view(game: Game, activity: str = "analysis") -> Game:
    """`game` (`check_game`'s rule), unless the view of its player to decide, which an
    analysis takes (`cuttle.analyse`, `cuttle.analyse_search`, `judge`), is not the
    record's or the position's to give (`missing_view`): ValueError then, in the words
    of `cuttle analyse` (`cuttle.unseen.view_refusal`): of a record, ``move K is player
    P's, whose view the record does not give whole: ...`` (K: the move decided in
    `game`'s position, as `cuttle.record.game_before` numbers them); of a position,
    ``player P is to decide in this position, which does not give their view whole:
    ...``, and what to do (`activity`, what is refused, as `missing_view` names it)."""
    words = view_refusal(check_game(game), activity)
    if words is not None:
        raise ValueError(words)
    return game
