"""`Game`: a game of Cuttle with push/undo, legal moves, views and printing.

The state and every rule live in the native core: `Game` subclasses
`cuttle._core.CoreGame` and is the only Python module that calls its `_core_*` methods.
It turns card indices into `Card`s and move codes into `Move`s, and checks input.
"""

import numbers

import numpy as np

from ._core import END_NAMES, MOVE_SPACE, PHASE_NAMES, CoreGame
from .cards import CARDS, parse_index
from .errors import IllegalMoveError, InvalidMoveError
from .moves import Move
from .observation import Observation
from .position import layout, parse_text, write_text
from .rules import Rules
from .seeding import check_seed, seed_or_new

__all__ = ["Game", "LegalMoves"]

_OVER = PHASE_NAMES.index("over")

# Which verbs each phase accepts (for error messages; legality itself is the core's).
_PHASE_VERBS = {
    "main": {"draw", "pass", "points", "scuttle", "royal", "glasses", "jack", "oneoff"},
    "counter": {"counter", "resolve"},
    "three": {"take"},
    "four": {"discard"},
    "five": {"discard"},
    "seven": {"points", "scuttle", "royal", "glasses", "jack", "oneoff", "discard"},
    "discard": {"discard"},
    "block": {"block", "resolve"},
    "ten": {"discard"},
    "over": set(),
}


class LegalMoves:
    """The decider's legal moves: sized, iterable, and `in` takes a Move or a string."""

    __slots__ = ("_moves",)

    def __init__(self, codes):
        self._moves = [Move.from_code(c) for c in codes]

    def __len__(self):
        return len(self._moves)

    def __iter__(self):
        return iter(self._moves)

    def __getitem__(self, i):
        return self._moves[i]

    def __contains__(self, move):
        if isinstance(move, str):
            try:
                move = Move.parse(move)
            except InvalidMoveError:
                return False
        return move in self._moves

    def __bool__(self):
        return bool(self._moves)

    def __repr__(self):
        return f"<LegalMoves ({', '.join(map(str, self._moves))})>"


def _as_move(move) -> Move:
    """A Move from a Move, its text, or its integer code (numpy integers too)."""
    if isinstance(move, numbers.Integral) and not isinstance(move, bool):
        return Move.from_code(move)
    return Move.parse(move)


class Game(CoreGame):
    """A game of Cuttle.

    >>> g = Game(seed=1)                  # classic rules, a seeded deal
    >>> g.play("draw")
    Move('draw')
    >>> g.undo()
    Move('draw')
    """

    def __init__(self, rules=None, seed=None):
        self._attach(Rules.coerce(rules), seed_or_new(seed))
        self._core_deal(self.seed)

    def _attach(self, rules, seed):
        """Set the rules (Python and core side) and the seed of a new game."""
        self._rules = rules
        self.seed = seed
        self._core_set_rules(rules)

    @classmethod
    def from_run(cls, rules=None, *, seed, index: int) -> "Game":
        """The deal of game `index` of a seeded simulation run (`cuttle.simulate(...,
        seed=seed)` deals its game i exactly so; `Game(seed=s)` is game 0 of seed s)."""
        g = cls.__new__(cls)
        g._attach(Rules.coerce(rules), check_seed(seed))
        g._core_deal(g.seed, check_seed(index, "index"))
        return g

    @classmethod
    def from_position(cls, rules=None, *, hands=((), ()), points=((), ()),
                      permanents=((), ()), scrap=(), deck=(), to_move=0, rest="deck",
                      seed=None) -> "Game":
        """Build a main-phase position from card texts.

        A point card may carry its Jacks, bottom to top: `"TH[JC,JD]"`, listed on the side
        of its controller.  `deck` lists the top cards, top first.  Every card not listed
        goes to `rest`: `"deck"` (below the listed cards, shuffled by `seed`) or `"scrap"`.
        ValueError for a duplicate or unknown card or a card in an impossible place.
        """
        lay = layout(rules, hands=hands, points=points, permanents=permanents, scrap=scrap,
                     deck=deck, to_move=to_move, rest=rest, seed=seed)
        g = cls.__new__(cls)
        g._attach(lay.rules, lay.seed)
        g._core_load(lay)
        if g._core_score(0) >= g._core_goal(0) and g._core_score(1) >= g._core_goal(1):
            raise ValueError("both players are already at their goal in this position")
        return g

    @classmethod
    def from_text(cls, text: str, rules=None, seed=None) -> "Game":
        """A game from position text (see `cuttle.position`); `rules` (a Rules or a
        preset name) and `seed` replace the text's own fields when given."""
        kw = parse_text(text)
        if rules is not None:
            kw["rules"] = Rules.coerce(rules)
        if seed is not None:
            kw["seed"] = seed
        try:
            return cls.from_position(**kw)
        except ValueError as e:
            raise ValueError(f"invalid position: {e}") from None

    def position_text(self, multiline: bool = False, rules: bool = True) -> str:
        """The full position of a main-phase game as text (every zone and the whole deck,
        top first), read back by `Game.from_text`; ``multiline``: one field a line;
        ``rules=False`` leaves the rules field out.  ValueError outside the main phase."""
        return write_text(self, multiline, rules)

    # -- moves -------------------------------------------------------------------------

    @property
    def legal_moves(self) -> LegalMoves:
        return LegalMoves(self._core_legal_codes())

    def is_legal(self, move) -> bool:
        try:
            move = _as_move(move)
        except InvalidMoveError:
            return False
        return bool(self._core_is_legal(move.code))

    def play(self, move) -> Move:
        """Play a Move, move text or move code.  Illegal or malformed:
        IllegalMoveError, state unchanged."""
        move = _as_move(move)
        if not self._core_play(move.code):
            raise IllegalMoveError(self._why_illegal(move))
        return move

    push = play  # python-chess's name

    def undo(self) -> Move:
        """Take back the last move exactly and return it."""
        code = self._core_undo()
        if code is None:
            raise IndexError("no move to undo")
        return Move.from_code(code)

    pop = undo

    def copy(self) -> "Game":
        g = type(self).__new__(type(self))
        self._core_copy_to(g)
        g._rules = self._rules
        g.seed = self.seed
        return g

    __copy__ = copy

    def __deepcopy__(self, memo):
        return self.copy()

    def __reduce__(self):
        return (_unpickle, (type(self), self._rules, self.seed, self._core_get_state()))

    @property
    def moves(self) -> list:
        return [Move.from_code(c) for c in self._core_move_codes()]

    @property
    def ply(self) -> int:
        """The number of moves played (len(game.moves))."""
        return self._core_ply

    def _why_illegal(self, move: Move) -> str:
        phase = self.phase
        who = f"player {self._core_to_move}"
        head = f"illegal move {str(move)!r}"
        if phase == "over":
            return f"{head}: the game is over"
        if move.verb not in _PHASE_VERBS[phase]:
            allowed = ", ".join(sorted(_PHASE_VERBS[phase]))
            return f"{head}: in the {phase} phase {who} may only {allowed}"
        own = self.revealed if phase == "seven" else self.hand(self._core_to_move)
        if move.card is not None and move.verb != "take" and move.card not in own:
            where = "among the revealed cards" if phase == "seven" else f"in {who}'s hand"
            return f"{head}: {move.card} is not {where}"
        if move.card is not None and move.card in self.frozen(self._core_to_move):
            return f"{head}: {move.card} is frozen this turn"
        legal = ", ".join(str(m) for m in self.legal_moves)
        return f"{head} for {who} in the {phase} phase; legal moves: {legal}"

    # -- hidden information --------------------------------------------------------------

    def observation(self, player: int) -> Observation:
        """What `player` may know now (docs/rules.md, hidden information)."""
        p = _player(player)
        opp = 1 - p
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
            frozen=tuple(tuple(self.frozen(s)) for s in (0, 1)),
            scores=(self.score(0), self.score(1)), goals=(self.goal(0), self.goal(1)),
            winner=self.winner, is_over=self.is_over, n_cards=53 if self._rules.joker else 52)

    def determinize(self, player: int, seed=None) -> "Game":
        """A full game consistent with `player`'s observation: everything the player
        knows is kept; only the cards they cannot know are redistributed among the
        places they cannot see (the opponent's hand, unknown deck positions).  The
        sample has no move history (undoing into the true state would leak it)."""
        g = self.copy()
        g._core_determinize(_player(player), seed_or_new(seed))
        return g

    def legal_move_mask(self) -> np.ndarray:
        """A bool array over the 65,536 move codes (`Move.code`), True at legal moves."""
        mask = np.zeros(MOVE_SPACE, bool)
        mask[np.asarray(self._core_legal_codes(), dtype=np.int64)] = True
        return mask

    # -- views -------------------------------------------------------------------------

    @property
    def rules(self) -> Rules:
        return self._rules

    @property
    def phase(self) -> str:
        return PHASE_NAMES[self._core_phase]

    @property
    def turn(self) -> int:
        return self._core_turn

    @property
    def to_move(self):
        """The player who must decide now (None once the game is over)."""
        return None if self._core_phase == _OVER else self._core_to_move

    @property
    def turn_number(self) -> int:
        """Turns completed so far (0 on the first turn)."""
        return self._core_turn_number

    @property
    def winner(self):
        return self._core_winner

    @property
    def is_over(self) -> bool:
        return self._core_phase == _OVER

    @property
    def end_reason(self):
        """How the game ended: 'goal', 'passes', 'sudden_death', 'move_cap'; None if on."""
        return END_NAMES[self._core_end_reason] if self.is_over else None

    def hand(self, player: int) -> list:
        return [CARDS[i] for i in self._core_hand(_player(player))]

    def points(self, player: int) -> list:
        return [CARDS[i] for i in self._core_points(_player(player))]

    def permanents(self, player: int) -> list:
        return [CARDS[i] for i in self._core_perm(_player(player))]

    def frozen(self, player: int) -> list:
        """Cards in the player's hand that cannot be played this turn (a frozen 9)."""
        return [CARDS[i] for i in self._core_frozen(_player(player))]

    def jacks(self, card) -> list:
        return [CARDS[i] for i in self._core_jacks(parse_index(card))]

    @property
    def scrap(self) -> list:
        return [CARDS[i] for i in self._core_scrap()]

    @property
    def deck(self) -> list:
        return [CARDS[i] for i in self._core_deck()]

    @property
    def revealed(self) -> list:
        return [CARDS[i] for i in self._core_revealed()]

    @property
    def stack(self) -> list:
        return [CARDS[i] for i in self._core_stack()]

    def score(self, player: int) -> int:
        return self._core_score(_player(player))

    def goal(self, player: int) -> int:
        return self._core_goal(_player(player))

    def is_public_hand(self, player: int) -> bool:
        """Whether the player's hand is visible to the opponent (glasses, open hands, or
        `reveal_on_empty_deck` with an empty deck)."""
        return self._core_hand_public(_player(player))

    # -- printing ----------------------------------------------------------------------

    def __repr__(self):
        state = f"over, winner {self.winner}" if self.is_over else \
            f"turn {self.turn_number}, player {self.to_move} to decide ({self.phase})"
        return f"<cuttle.Game {self._rules!r} {state}, ply {self._core_ply}>"

    def __str__(self):
        return self.render()

    def render(self, viewer=None) -> str:
        """The table as a person would lay it out.  `viewer` (0/1) hides what that
        player may not see; None shows every hand, marked hidden or public."""
        if viewer is not None:
            viewer = _player(viewer)
        lines = []
        if self.is_over:
            head = "draw" if self.winner is None else f"player {self.winner} wins"
            lines.append(f"Game over: {head} ({self.end_reason}) after {self.turn_number + 1} turns")
        else:
            lines.append(f"Turn {self.turn_number + 1}: player {self.turn}'s turn, "
                         f"player {self.to_move} to decide ({self.phase})")
        for p in (1, 0):
            lines.append(self._render_side(p, viewer))
        deck = f"deck {len(self._core_deck())} cards"
        if self.revealed:
            deck += f"  revealed by the 7: {' '.join(self.revealed)}"
        lines.append(f"  {deck}   scrap ({len(self._core_scrap())}): {' '.join(self.scrap) or '-'}")
        if self.stack:
            lines.append(f"  stack: {' '.join(self.stack)}")
        return "\n".join(lines)

    def _render_side(self, p, viewer):
        pts = []
        for c in self.points(p):
            js = self.jacks(c)
            pts.append(f"{c}[{','.join(js)}]" if js else str(c))
        public = self.is_public_hand(p)
        if viewer is not None and viewer != p and not public:
            hand = f"{len(self._core_hand(p))} cards (hidden)"
        else:
            hand = " ".join(self.hand(p)) or "-"
            hand += " (public)" if public else " (hidden from the opponent)"
            frozen = self.frozen(p)
            if frozen:
                hand += f" frozen: {' '.join(frozen)}"
        return (f"  P{p} score {self.score(p)}/{self.goal(p)}  points: {' '.join(pts) or '-'}"
                f"  permanents: {' '.join(self.permanents(p)) or '-'}\n      hand: {hand}")


def _unpickle(cls, rules, seed, state):
    g = cls.__new__(cls)
    g._attach(rules, seed)
    g._core_set_state(*state)
    return g


def _player(p):
    if isinstance(p, bool) or p not in (0, 1):
        raise ValueError(f"player must be 0 or 1, not {p!r}")
    return int(p)
