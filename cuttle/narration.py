"""What a move did, in words, as one player saw it (or an onlooker who sees every card).

A move's text says what its player chose ("resolve", "draw"); its effect can be much
more: a random discard under ``four="random"``, the card a draw brought, a 6 scrapping
every royal, the Jacks that went with a scuttled card.  `narrate` says it, from the
positions before and after the move, compared card by card through the public `Game`
API: it never applies a rule itself (the engine is the one home of the rules), it reads
where each card went.

A viewer (0 or 1) is told only what that seat may know after the move: a card is named
only if it is not among ``game.observation(viewer).unknown_cards`` then; any other card
is counted ("P1 draws a card").  ``viewer=None`` names every card (a replay with all
cards shown).  A card a record or a position did not give (`cuttle.unseen.dealt_shown`:
one deal of its ``?`` that fits it) is marked as the table marks it (``P1 draws 4S*``).

>>> from cuttle import Game
>>> g = Game.from_position(hands=(["4C", "9H"], ["3C", "7H", "JD"]), deck=["KS"],
...                        rules="classic: four=random", seed=1)
>>> before = g.copy(); _ = g.play("oneoff 4C")
>>> narrate(before, g, viewer=1)
''
>>> before = g.copy(); _ = g.play("resolve")
>>> narrate(before, g, viewer=1)
'4C resolves: you discard 7H and JD.'
>>> before = g.copy(); _ = g.play("draw")          # P1's turn
>>> narrate(before, g, viewer=1), narrate(before, g, viewer=0), narrate(before, g)
('You draw KS.', 'P1 draws a card.', 'P1 draws KS.')
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from .cards import CARDS
from .formatting import listed
from .game import check_game
from .unseen import DEALT_MARK, dealt_shown
from .validation import check_player

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

    from .cards import Card
    from .game import Game
    from .moves import Move

__all__ = ["as_yours", "narrate", "narrate_game"]

_TABLE = ("points", "jack", "permanent")        # the places on the table


class _Scene:
    """Where every card lies at one moment of a game (its place: ("hand", p),
    ("points", p), ("jack", point card), ("permanent", p), ("scrap",), ("deck",),
    ("revealed",), ("stack",)), and what each seat cannot see then."""

    __slots__ = ("where", "unknown", "public", "phase", "stack", "dealt")

    def __init__(self, game: Game) -> None:
        where: dict[Card, tuple] = {}
        for p in (0, 1):
            for c in game.hand(p):
                where[c] = ("hand", p)
            for c in game.points(p):
                where[c] = ("points", p)
                for j in game.jacks(c):
                    where[j] = ("jack", c)       # (a Jack rides with its point card)
            for c in game.permanents(p):
                where[c] = ("permanent", p)
        for zone in ("scrap", "deck", "revealed", "stack"):
            for c in getattr(game, zone):
                where[c] = (zone,)
        self.where = where
        self.unknown = tuple(frozenset(game.observation(p).unknown_cards) for p in (0, 1))
        self.public = (game.is_public_hand(0), game.is_public_hand(1))
        self.phase = game.phase
        self.stack = tuple(game.stack)
        self.dealt = dealt_shown(game)          # (the cards not given: marked)

    def side(self, card: Card) -> int | None:
        """The side of a card on the table (a Jack: its point card's), else None."""
        place = self.where.get(card)
        if place is None or place[0] not in _TABLE:
            return None
        if place[0] == "jack":
            return self.where[place[1]][1]
        return place[1]


class _Words:
    """How the narration names the players and the cards for one viewer."""

    def __init__(self, viewer: int | None, names: Mapping[int, str] | None,
                 after: _Scene) -> None:
        if names is None:
            names = {0: "P0", 1: "P1"}
            if viewer is not None:
                names[viewer] = "you"
        self.names = names
        self.hidden = frozenset() if viewer is None else after.unknown[viewer]
        self.dealt = after.dealt
        self.why = ""           # what a discard answers (_why)

    def who(self, p: int, verb: str) -> str:
        """'you draw' / 'P1 draws'."""
        name = self.names[p]
        return f"{name} {verb}" if name == "you" else f"{name} {verb}s"

    def whose(self, p: int) -> str:
        """'your' / "P1's"."""
        name = self.names[p]
        return "your" if name == "you" else f"{name}'s"

    def cards(self, cards: Iterable[Card]) -> tuple[str, bool]:
        """The cards in words, those hidden from the viewer only counted ('9S and an
        unseen card', '2 cards'), and whether they are more than one."""
        cards = sorted(cards, key=lambda c: c.index)
        named = [str(c) + (DEALT_MARK if c in self.dealt else "") for c in cards
                 if c not in self.hidden]
        n = len(cards) - len(named)
        unseen = ("" if not n else "a card" if n == 1 and not named else
                  f"{n} cards" if not named else
                  "an unseen card" if n == 1 else f"{n} unseen cards")
        parts = named + ([unseen] if unseen else [])
        if not parts:
            return "no card", False
        text = listed(parts)
        return text, len(cards) > 1


def _moved(before: _Scene, after: _Scene, move: Move, mover: int) -> list[tuple]:
    """(card, place before, place after) of each card that moved, but for the card the
    move played (from a hand or a 7's reveal) and a 3's pick, which its text places
    (a discard's cards are told, with what made the player discard them)."""
    out = []
    for c in CARDS:
        a, b = before.where.get(c), after.where.get(c)
        if a == b:
            continue
        if c in move.cards and move.verb != "discard" and (
                a in (("hand", mover), ("revealed",))
                or (move.verb == "take" and a == ("scrap",))):
            continue
        out.append((c, a, b))
    return out


def _kind(a: tuple, b: tuple, before: _Scene, card: Card) -> tuple | None:
    """What a card's move from place `a` to `b` was, as (kind, key); None for the cards
    a one-off's action leaves on the stack for the scrap (the one-off and its 2s)."""
    fa, fb = a[0], b[0]
    if fa == "deck" and fb == "hand":
        return "draw", b[1]
    if fa == "hand" and fb == "scrap":
        return "discard", a[1]
    if fa == "hand" and fb == "hand":
        return "swap", None
    if fa == "scrap" and fb == "hand":
        return "take", b[1]
    if fa == "deck" and fb == "revealed":
        return "reveal", None
    if fa == "revealed" and fb == "deck":
        return "back", None
    if fa in _TABLE and fb == "points":
        return "control", b[1]
    if fa in _TABLE and fb == "hand":
        return "return", b[1]
    if fa in _TABLE and fb == "deck":
        return "topdeck", None
    if fb == "scrap":
        if fa == "stack" and before.phase != "block":
            return None             # (a scuttle's card, blocked or not, is told)
        side = before.side(card)
        return "scrap", fa if side is None else side
    return "move", b


def _phrase(kind: str, key, cards: list, w: _Words) -> str:
    """One effect in words."""
    text, many = w.cards(cards)
    go = "go" if many else "goes"
    if kind == "draw":
        return f"{w.who(key, 'draw')} {text}"
    if kind == "discard":
        return f"{w.who(key, 'discard')} {text}{w.why}"
    if kind == "take":
        return f"{w.who(key, 'take')} {text} from the scrap"
    if kind == "control":
        return f"{w.who(key, 'now control')} {text}"
    if kind == "return":
        return f"{text} {go} back to {w.whose(key)} hand"
    if kind == "topdeck":
        return f"{text} {go} on top of the deck"
    if kind == "reveal":
        return f"{text} {'are' if many else 'is'} revealed from the deck"
    if kind == "back":
        return f"{text} {go} back on top of the deck"
    if kind == "scrap":
        where = {"deck": " from the deck", "revealed": " (revealed)"}.get(key, "")
        owner = f"{w.whose(key)} " if key in (0, 1) else ""
        return f"{owner}{text}{where} {go} to the scrap"
    zone = key[0]
    place = (f"{w.whose(key[1])} {zone}" if zone in ("hand", "points", "permanent")
             else f"a Jack on {key[1]}" if zone == "jack" else f"the {zone}")
    return f"{text} {go} to {place}"


def _hand(scene: _Scene, p: int) -> list[Card]:
    return [c for c, place in scene.where.items() if place == ("hand", p)]


def _swap(after: _Scene, w: _Words) -> str:
    """A joker's swap: what each hand holds now (the viewer's first)."""
    held = [f"{w.who(p, 'now hold')} {w.cards(_hand(after, p))[0]}"
            for p in sorted((0, 1), key=lambda p: w.names[p] != "you")]
    return "the hands are swapped: " + ", and ".join(held)


def _openings(before: _Scene, after: _Scene, viewer: int | None, w: _Words) -> list[str]:
    """A hand that became visible to the other player, or hidden again."""
    out = []
    for p in (0, 1):
        if before.public[p] == after.public[p]:
            continue
        if not after.public[p]:
            out.append(f"{w.whose(p)} hand is hidden again")
        elif viewer is None:
            out.append(f"{w.whose(p)} hand is now public")
        elif p == viewer:
            out.append(f"{w.whose(p)} hand is now open to {w.names[1 - p]}")
        else:
            hand = _hand(after, p)
            out.append(f"{w.whose(p)} hand is now open to you"
                       + (f": {w.cards(hand)[0]}" if hand else ""))
    return out


_ORDER = ("scrap", "control", "return", "topdeck", "discard", "take", "reveal", "back",
          "draw", "move")


def _why(before: _Scene, move: Move) -> str:
    """What a discard move answers, by the phase it was made in: the hand limit, or
    the one-off waiting on the stack (a 4, a 5, a variant 10)."""
    if move.verb != "discard":
        return ""           # (a 4's random discards: its resolve is told)
    if before.phase == "discard":
        return " down to the hand limit"
    if before.phase in ("four", "five", "ten") and before.stack:
        return f" for {before.stack[-1]}"
    return ""


def _effects(before: _Scene, after: _Scene, move: Move, mover: int,
             viewer: int | None, w: _Words) -> list[str]:
    """Every effect of the move in words, in a fixed order of kinds."""
    w.why = _why(before, move)
    groups: dict[tuple, list] = {}
    swapped = False
    for c, a, b in _moved(before, after, move, mover):
        kind = _kind(a, b, before, c)
        if kind is None:
            continue
        if kind[0] == "swap":
            swapped = True
            continue
        groups.setdefault(kind, []).append(c)
    out = [_swap(after, w)] if swapped else []
    for kind, key in sorted(groups, key=lambda k: (_ORDER.index(k[0]), str(k[1]))):
        out.append(_phrase(kind, key, groups[kind, key], w))
    return out + _openings(before, after, viewer, w)


def _header(before: _Scene, move: Move) -> str | None:
    """How a counter chain ended: the one-off resolves, or fizzles under an odd number
    of 2s (the stack holds the one-off and its 2s; docs/rules.md §4)."""
    if before.phase != "counter" or move.verb != "resolve":
        return None
    oneoff, counters = before.stack[0], len(before.stack) - 1
    return f"{oneoff} is countered and fizzles" if counters % 2 else f"{oneoff} resolves"


def _sentence(before: _Scene, after: _Scene, move: Move, mover: int,
              viewer: int | None, names: Mapping[int, str] | None) -> str:
    w = _Words(viewer, names, after)
    effects = _effects(before, after, move, mover, viewer, w)
    head = _header(before, move)
    if head is None and not effects:
        return ""
    text = "; ".join(effects)
    text = f"{head}: {text}" if head and text else head or text
    return text[0].upper() + text[1:] + "."


def _check_names(names: object) -> dict[int, str] | None:
    """{0: name, 1: name} from a mapping (or a pair) of texts; ValueError otherwise."""
    if names is None:
        return None
    try:
        out = {p: names[p] for p in (0, 1)}
    except (KeyError, IndexError, TypeError):
        out = None
    if out is None or not all(isinstance(n, str) and n for n in out.values()):
        raise ValueError(f"names must give seats 0 and 1 a name each, not {names!r}")
    return out


def _follows(before: Game, move: Move, after: Game) -> bool:
    """Whether `after` is `before` with `move` played (the same game, move by move)."""
    g = before.copy()
    if not g.is_legal(move):
        return False
    g.play(move)
    return g == after


def narrate(before: Game, after: Game, viewer: int | None = None,
            names: Mapping[int, str] | None = None) -> str:
    """What the last move of `after` did, `before` being the game just before it (a
    copy: ``before = game.copy(); game.play(move); narrate(before, game, ...)``), in
    one sentence, or "" when the move did nothing its own text does not say (``points
    7H``, a one-off announced, a counter).

    `viewer`: the seat whose view is told (0 or 1), who is "you" and is told only the
    cards it may know after the move; None names every card.  `names`: {seat: name}
    ("you" is spoken to); by default "you" for the viewer and P0 / P1.  ValueError when
    `after` is not `before` with one more move."""
    viewer = check_player(viewer, "viewer", none="every card")
    names = _check_names(names)
    check_game(before, "before")
    check_game(after, "after")
    move = after.moves[-1] if after.ply == before.ply + 1 else None
    if move is None or not _follows(before, move, after):
        raise ValueError(f"after must be the game before with one more move (before "
                         f"has {before.ply} moves, after {after.ply})")
    return _sentence(_Scene(before), _Scene(after), move, before.to_move, viewer, names)


def narrate_game(start: Game, moves: Iterable[Move | str], viewer: int | None = None,
                 names: Mapping[int, str] | None = None) -> list[str]:
    """`narrate` for each of `moves` played from `start` (not changed): one sentence
    per move (a replay's).  IllegalMoveError for a move that cannot be played."""
    viewer = check_player(viewer, "viewer", none="every card")
    names = _check_names(names)
    g = check_game(start, "start").copy()
    scene = _Scene(g)
    out = []
    for m in moves:
        mover = g.to_move
        move = g.play(m)
        now = _Scene(g)
        out.append(_sentence(scene, now, move, mover, viewer, names))
        scene = now
    return out


def as_yours(message: str, seat: int) -> str:
    """The engine's words for a seat as its player reads them (the terminal game and
    the game page alike): "player 0's hand" -> "your hand", "player 0 may only" -> "you
    may only"."""
    return re.sub(rf"\bplayer {seat}('s)?\b",
                  lambda m: "your" if m.group(1) else "you", message)
