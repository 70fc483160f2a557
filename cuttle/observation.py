"""What one player may know (docs/rules.md §6), and a fixed-size numpy encoding of it.

Public: every point card, permanent and Jack stack, the scrap, the deck size, both hand
sizes, the stack and what its waiting move targets, a 7's revealed cards and both
players' frozen cards (a 9's return: unplayable this turn, or in the player's next
one).  Private: the opponent's hand, except the cards the player knows are there (a 3's
pick, a 9's return, a swapped hand, a drawn card whose place on the deck was public,
everything while it is public through glasses, open hands or cuttle.cards' empty deck),
and the deck order, except cards whose place is public (a 9 put on top, a 7's unchosen
card).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._core import PHASE_NAMES, n_cards
from ._observe import OBSERVATION_SIZE
from .cards import CARDS, Card

# A plane has a slot per card of the largest deck (the joker's too, 0 without it).
CARD_SLOTS = n_cards(joker=True)
# Planes of the encoding, one row of CARD_SLOTS each, from the observer's point of view.
PLANES = ("own_hand", "opponent_hand_known", "own_points", "opponent_points",
          "own_permanents", "opponent_permanents", "jack_own_side", "jack_opponent_side",
          "scrap", "deck_known", "revealed", "stack", "own_frozen", "unknown")
SCALARS = ("deck_size", "own_hand_size", "opponent_hand_size", "own_score",
           "opponent_score", "own_goal", "opponent_goal", "stack_size", "is_own_turn",
           "is_own_decision")
# More planes, after the phase: added later, and there so that the entries before them
# kept their meaning (a trained input layer widened with zero weights computes as before).
LATE_PLANES = ("opponent_frozen", "own_frozen_next", "opponent_frozen_next", "deck_depth")
# Then where each of the JACKS lies (the planes say only on whose side): a one-hot over
# the POINT_SLOTS point cards (Aces to 10s, by natural index) per Jack, then each Jack's
# height in its stack (read them with `jack_places`).  Last, the plane "target": the
# card the move waiting on the stack targets (`Observation.target`).
JACKS = tuple(c for c in CARDS if c.rank == 11)     # by suit: JC, JD, JH, JS
POINT_SLOTS = JACKS[0].index                        # the point cards come first
# Where each block starts; OBSERVATION_SIZE is the core's (cuttle/_observe.pxd), and a
# test checks that the blocks fill it.
SCALARS_AT = CARD_SLOTS * len(PLANES)
PHASE_AT = SCALARS_AT + len(SCALARS)
LATE_PLANES_AT = PHASE_AT + len(PHASE_NAMES)
JACK_ON_AT = LATE_PLANES_AT + CARD_SLOTS * len(LATE_PLANES)
JACK_HEIGHT_AT = JACK_ON_AT + len(JACKS) * POINT_SLOTS
TARGET_AT = JACK_HEIGHT_AT + len(JACKS)
_PLANE_AT = {**{name: CARD_SLOTS * i for i, name in enumerate(PLANES)},
             **{name: LATE_PLANES_AT + CARD_SLOTS * i for i, name in enumerate(LATE_PLANES)},
             "target": TARGET_AT}


def plane(array: np.ndarray, name: str) -> np.ndarray:
    """The CARD_SLOTS entries of plane `name` (of PLANES, LATE_PLANES, or "target") in
    an encoding (a view); ValueError for another name, or an array whose last axis is
    not OBSERVATION_SIZE long."""
    if name not in _PLANE_AT:
        raise ValueError(f"no plane {name!r}; the planes are {', '.join(_PLANE_AT)}")
    _check_encoding(array)
    return array[..., _PLANE_AT[name]:_PLANE_AT[name] + CARD_SLOTS]


def _check_encoding(array) -> None:
    # An array of another length (an older encoding's 762 or 1,138, OpenSpiel's public
    # view) would be sliced at the wrong places without a word.
    shape = np.shape(array)
    if not shape or shape[-1] != OBSERVATION_SIZE:
        raise ValueError(f"an encoding's last axis holds OBSERVATION_SIZE = "
                         f"{OBSERVATION_SIZE} values, not an array of shape {shape}")


def jack_places(array: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Where each of the JACKS lies in an encoding (views): `on`, shape (..., 4,
    POINT_SLOTS), 1 at the point card a Jack lies on, and `height`, shape (..., 4), its
    height in that stack (1 the bottom, to 4) / 4; zeros for a Jack not on the table.
    ValueError for an array whose last axis is not OBSERVATION_SIZE long."""
    _check_encoding(array)
    on = array[..., JACK_ON_AT:JACK_HEIGHT_AT]
    return (on.reshape(on.shape[:-1] + (len(JACKS), POINT_SLOTS)),
            array[..., JACK_HEIGHT_AT:JACK_HEIGHT_AT + len(JACKS)])


@dataclass(frozen=True)
class Observation:
    """One player's view of a game (`Game.observation(player)`); equal views compare
    equal."""

    player: int
    phase: str
    turn: int
    to_move: int | None
    hand: tuple[Card, ...]
    opponent_hand_size: int
    opponent_known: tuple[Card, ...]    # cards known to be in the opponent's hand
    opponent_hand_public: bool  # all of it is visible
    points: tuple               # per player: (card, jacks bottom to top) pairs
    permanents: tuple
    scrap: tuple[Card, ...]
    deck_size: int
    deck_known: tuple[tuple[int, Card], ...]    # (depth from the top, card), place public
    revealed: tuple[Card, ...]
    stack: tuple[Card, ...]
    # The card the move waiting on the stack targets: an announced one-off's (a 2, a 9,
    # a glasses-breaking 8) until its counters end, a scuttle's while its victim may
    # block it with a 10 (ten_blocks_scuttle); None otherwise.
    target: Card | None
    frozen: tuple               # per player: cards that cannot be played this turn
    frozen_next: tuple          # per player: cards that cannot be played in its next turn
    scores: tuple[int, int]
    goals: tuple[int, int]
    winner: int | None
    is_over: bool
    n_cards: int                # 52, or 53 with the joker

    @property
    def unknown_cards(self) -> tuple[Card, ...]:
        """Cards whose place this player cannot tell (the opponent's hand or the deck)."""
        seen = set(self.hand) | set(self.opponent_known) | set(self.scrap)
        seen |= set(self.revealed) | set(self.stack) | {c for _, c in self.deck_known}
        for side in (0, 1):
            seen |= set(self.permanents[side])
            for c, jacks in self.points[side]:
                seen.add(c)
                seen |= set(jacks)
        return tuple(c for c in CARDS[:self.n_cards] if c not in seen)

    def to_array(self) -> np.ndarray:
        """The fixed-size float32 encoding (length OBSERVATION_SIZE): the PLANES, 53 cards
        each, by natural index, then the SCALARS (sizes / 52, scores and goals / 21),
        then the phase one-hot in PHASE_NAMES order, then the LATE_PLANES, then where
        each Jack lies (`jack_places`), then the plane "target" (`target`, if any).  A
        plane holds 1 for its cards, except deck_depth: (depth from the top + 1) / 52
        for each deck card whose place is public."""
        me, opp = self.player, 1 - self.player
        planes = {name: np.zeros(CARD_SLOTS, np.float32) for name in _PLANE_AT}
        jack_on = np.zeros((len(JACKS), POINT_SLOTS), np.float32)
        jack_height = np.zeros(len(JACKS), np.float32)

        def mark(name, cards):
            for c in cards:
                planes[name][c.index] = 1.0

        mark("own_hand", self.hand)
        mark("opponent_hand_known", self.opponent_known)
        for side, pts, perm, jk in ((me, "own_points", "own_permanents", "jack_own_side"),
                                    (opp, "opponent_points", "opponent_permanents",
                                     "jack_opponent_side")):
            mark(pts, [c for c, _ in self.points[side]])
            mark(jk, [j for _, js in self.points[side] for j in js])
            mark(perm, self.permanents[side])
            for c, js in self.points[side]:
                for height, j in enumerate(js, 1):      # bottom first
                    jack_on[JACKS.index(j), c.index] = 1.0
                    jack_height[JACKS.index(j)] = height / len(JACKS)
        mark("scrap", self.scrap)
        mark("deck_known", [c for _, c in self.deck_known])
        for depth, c in self.deck_known:
            planes["deck_depth"][c.index] = (depth + 1) / 52
        mark("revealed", self.revealed)
        mark("stack", self.stack)
        mark("target", [] if self.target is None else [self.target])
        mark("own_frozen", self.frozen[me])
        mark("opponent_frozen", self.frozen[opp])
        mark("own_frozen_next", self.frozen_next[me])
        mark("opponent_frozen_next", self.frozen_next[opp])
        mark("unknown", self.unknown_cards)
        scalars = np.array([
            self.deck_size / 52, len(self.hand) / 52, self.opponent_hand_size / 52,
            self.scores[me] / 21, self.scores[opp] / 21, self.goals[me] / 21,
            self.goals[opp] / 21, len(self.stack) / 52, float(self.turn == me),
            float(self.to_move == me)], np.float32)
        phase = np.zeros(len(PHASE_NAMES), np.float32)
        phase[PHASE_NAMES.index(self.phase)] = 1.0
        return np.concatenate([*(planes[n] for n in PLANES), scalars, phase,
                               *(planes[n] for n in LATE_PLANES), jack_on.ravel(),
                               jack_height, planes["target"]])
