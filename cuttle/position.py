"""Positions: the one validator behind `Game.from_position`, and the position text format
(`Game.from_text`, `game.position_text()`).

A position is a list of ``field: value`` entries separated by ``;`` or by new lines
(``#`` starts a comment that runs to the end of the line).  Field names are
case-insensitive and every field is optional::

    rules: cuttle.cards four=random; hands: 2C 3D 7H / 2H 4S;
    points: TH[JD] 5C / 9D; permanents: QD / 8H; scrap: 3C 4H; deck: 7C JH;
    to_move: 0; rest: deck

| field | value |
|---|---|
| ``hands`` | player 0's cards ``/`` player 1's cards, ``?`` for a card not seen (below); the player not to move holds at most the hand limit (``hand_limit_mode=discard``: its turn ended there) unless the position is a deal (docs/rules-decisions.md, decision 26) |
| ``frozen`` | per player (``/`` between players), cards of its hand that it may not play in its next turn, which for the player to move is this turn: cards a 9 returned under ``nine=freeze`` (the only rules that freeze), so only cards a 9 returns, the other player's only by its own 9 (``targets_own_side``), one a 9, each 9 in the scrap unless a 3 took one back (docs/rules-decisions.md, decision 3); default none |
| ``points`` | point cards per player (``/`` between players); a card may carry its Jack stack, bottom to top: ``TH[JC,JD]``; the side it is listed on controls it |
| ``permanents`` | Kings, Queens and glasses-8s per player (``/`` between players) |
| ``scrap`` | cards in the scrap |
| ``deck`` | the top cards of the deck, top first, ``?`` for a card not seen (below) |
| ``to_move`` | ``0`` or ``1`` (``P0``/``P1`` also work); default 0 |
| ``rest`` | where every unlisted card goes: ``deck`` (below the listed deck cards, shuffled by the seed; the default) or ``scrap`` |
| ``rules`` | rules text (`Rules.parse`): a preset, then ``flag=value`` changes: ``classic``, ``cuttle.cards four=random``, ``king_goals=15,14,10,7,5`` |
| ``seed`` | the game's seed (shuffles the rest; seeds random effects) |

Cards are written as in moves (``TH`` or ``10h``, ``JK`` for the joker), separated by
spaces or commas; ``-`` (or nothing) stands for an empty list.

**Cards not seen.** In a hand, ``?`` stands for a card whose face is not known, as the
other player's hand in a real game: ``hands: 2C 9H 4D / ? ? ? ? ?`` (five unseen cards).
In the deck it holds a place whose card is not known between cards that are: ``deck: ?
7H ? 9C`` (the other player's draws around one's own).  Nowhere else: every other card
listed (points, Jacks, permanents, the scrap, frozen cards) is known to both players, so
a ``?`` there is refused, saying so.  Each ``?`` is dealt one of the
unlisted cards, shuffled by the seed, the hands' first, then the deck's from the top,
before the rest go to the deck below the listed cards (so ``rest: deck`` only: with
``rest: scrap`` the scrap, which both players see, would hold the cards not dealt).
The game then holds real cards, and knows which (``Game.dealt_unseen``: with a ``?``,
every card not listed, since which of them the ``?`` hold is the seed's;
``Game.dealt_from`` is ``"position"``).  A player knows of the other's hand only what
the position implies, as always, so an analysis or a bot from the other seat's view
deals those cards afresh from what it has seen (``cuttle analyse``, `Bot`): which cards
the seed put there does not change what it sees.  The view of a player who sees a card
so dealt in the position itself (their own hand's ``?``, or the other's shown by a
glasses-8) is the seed's, not the position's: every analysis refuses that player's
decision (`cuttle.game.check_view`), saying to write the cards they see or to analyse
the other player's.  A game played on from the position is its own: what its moves
show later (a draw) is that game's card, as a position's shuffled deck is.
``position_text()`` writes the cards dealt (the game is played with them, and a record
of it holds them); ``position_text(unseen=True)`` writes ``?`` again for each card dealt
that no move has named since and lies hidden, so that the text reads back as the same
position, its cards dealt by the seed and marked again.

`game.position_text()` writes the full position of a main-phase game -- every zone, the
whole deck in order, the frozen cards, the rules -- and `Game.from_text` reads it back as
the same position: the same cards in the same places, the same rule state (freezes
included), legal moves and player to move, and the same text.  A ``frozen`` field is
written only where a card is frozen.  A game won by its goal is written too (its
``to_move`` the winning turn's player): a position with one player at their goal is a
game won by that player, read back over at once, the same winner (docs/rules.md, §4b;
decision 27 of docs/rules-decisions.md); one with both at their goal is refused.

The text describes where the cards are and the rule state, not what each player
remembers.  A game read from text starts the players' knowledge of hidden cards afresh,
with only what its cards imply: a frozen card is known to the other player (a 9's return
is public), a public hand is known, no other card of a hand and no deck card's place is
known.  So its observations are the same but for that knowledge
(`Observation.opponent_known` and ``deck_known``, and the planes of the encoding made
from them: ``opponent_hand_known``, ``deck_known``, ``deck_depth`` and ``unknown``), and
two positions that differ only in what a player remembers (a card it saw in the other's
hand, the place of a deck card) have the same text: as a key, the text names a position,
not what the players know of it.  Nor is the text the game's past: not its move
history, its turn number or the state of its random stream (the ``seed`` field, not
written, seeds the new game).

A game read from text has no pass just played and, with ``sudden_death`` and an empty
deck, ends after the next turn.  `position_text()` refuses, with a ValueError saying
what, a game whose rule state the text cannot carry -- a pass just played (three in a
row end the game), sudden death's last turn, or a countdown while the deck holds cards
(a state no game reaches, which a pickle may hold) -- rather than write a position that
would play on differently or not be read back.  Freezes need no such refusal: which
freezes a 9 makes is checked by the core whenever a state comes in, from text, a
position or a pickle (`_checks.check_freezes`), so a game holds only freezes the text
carries, and a position or a pickle with a freeze no 9 made (or whose 9 is gone from the
scrap with no 3 to have taken it) is refused with the same words, naming the card and
why.

    >>> import cuttle
    >>> g = cuttle.Game.from_text("hands: 7H 2C / 3D; points: TH[JC] / -; deck: 5H; rest: scrap")
    >>> g.points(0), g.jacks("TH"), g.deck
    ([Card('TH')], [Card('JC')], [Card('5H')])
    >>> g = cuttle.Game.from_text("rules: cuttle.cards; hands: 2C 9H / 4H KD; frozen: - / KD; "
    ...                           "to_move: 1; rest: scrap")
    >>> g.frozen(1), g.legal_moves
    ([Card('KD')], <LegalMoves (pass, points 4H, oneoff 4H)>)
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ._core import n_cards
from .cards import CARDS, JOKER, parse_index
from .rules import Rules
from .seeding import SEED_LIMIT, SEED_WORDS, seed_or_new
from .text import quoted
from .validation import check_player

if TYPE_CHECKING:
    from collections.abc import Collection, Iterable, Sequence

    from .cards import Card
    from .game import Game

__all__ = ["FIELDS", "UNSEEN", "Layout", "deal_unseen", "has_unseen", "layout", "parse_text",
           "reconcile", "write_text"]

FIELDS = ("rules", "hands", "frozen", "points", "permanents", "scrap", "deck", "to_move",
          "rest", "seed")
_PLAYER_FIELDS = ("hands", "frozen", "points", "permanents")
_ALIASES = {"hand": "hands", "point": "points", "permanent": "permanents",
            "perms": "permanents", "perm": "permanents", "tomove": "to_move",
            "turn": "to_move", "rule": "rules", "discard": "scrap", "discards": "scrap"}
_TEN, _JACK, _QUEEN, _KING, _GLASSES = 10, 11, 12, 13, 8    # ranks (Card.rank)
UNSEEN = "?"            # a hand's or the deck's card not seen, dealt from the cards not listed
# (a frozen card too is known to both players: a 9's return is public)
_UNSEEN_ONLY = (f"{UNSEEN!r} (a card not seen) is allowed only in the hands and the deck: "
                f"every other card listed is known to both players")


@dataclass(frozen=True)
class Layout:
    """A validated main-phase position as natural card indices, ready for the core
    (which checks, as it loads it, which freezes a 9 makes)."""

    rules: Rules
    seed: int
    hands: tuple[tuple[int, ...], ...]            # per player
    points: tuple[tuple[int, ...], ...]           # per player, by controller
    stacks: dict[int, tuple[int, ...]]            # point card -> its Jacks, bottom to top
    permanents: tuple[tuple[int, ...], ...]       # per player
    scrap: tuple[int, ...]
    deck: tuple[int, ...]     # top first, every card not placed elsewhere included
    to_move: int
    # per player, the hand's cards it may not play in its next turn (this turn for the
    # player to move): cards a 9 returned under nine="freeze"
    frozen: tuple[tuple[int, ...], ...] = ((), ())
    # the cards dealt for the position's '?' (with one, every card not listed: which of
    # them the '?' hold is the seed's), in card order; empty without a '?'
    dealt: tuple[int, ...] = ()


def _seq(cards, name):
    if isinstance(cards, str):
        raise ValueError(f"{name} must be a list of cards, not the string {quoted(cards)}")
    try:
        return list(cards)
    except TypeError:
        raise ValueError(f"{name} must be a list of cards, not {quoted(cards)}") from None


def _pair(value, name):
    if isinstance(value, str) or not hasattr(value, "__len__") or len(value) != 2:
        raise ValueError(f"{name} must be a pair (player 0's, player 1's) of card lists")
    return value


def split_stack(text: str | int) -> tuple[str | int, list[str]]:
    """'TH[JC,JD]' -> ('TH', ['JC', 'JD']); a card without a stack -> (card, [])."""
    if not isinstance(text, str):
        return text, []
    t = text.strip()
    if "[" not in t:
        return t, []
    if not t.endswith("]") or t.startswith("["):
        raise ValueError(f"bad Jack stack {quoted(text)}: write it as 'TH[JC,JD]' "
                         f"(Jacks bottom to top)")
    base, inner = t[:-1].split("[", 1)
    jacks = [j for j in inner.replace(" ", ",").split(",") if j]
    if not jacks:
        raise ValueError(f"empty Jack stack in {quoted(text)}")
    return base, jacks


def layout(rules: Rules | str | None = None, *,
           hands: Sequence[Iterable[str | int]] = ((), ()),
           points: Sequence[Iterable[str | int]] = ((), ()),
           permanents: Sequence[Iterable[str | int]] = ((), ()),
           scrap: Iterable[str | int] = (), deck: Iterable[str | int] = (),
           to_move: int = 0, rest: str = "deck", seed: int | None = None,
           frozen: Sequence[Iterable[str | int]] = ((), ())) -> Layout:
    """Validate a position (the arguments of `Game.from_position`) and place every card.

    ValueError naming the card and the places for a duplicate or unknown card, a card in
    an impossible place, or a bad argument."""
    rules = Rules.coerce(rules)
    seed = seed_or_new(seed)
    to_move = check_player(to_move, "to_move")
    if rest not in ("deck", "scrap"):
        raise ValueError(f"rest must be 'deck' or 'scrap', not {quoted(rest)}")
    seen: dict[int, str] = {}           # card index -> where it was placed

    def place(text, where):
        if _is_unseen(text):
            raise ValueError(f"{where}: {_UNSEEN_ONLY}")
        try:
            i = parse_index(text)
        except ValueError as e:
            raise ValueError(f"{where}: {e}") from None
        if i == JOKER and not rules.joker:
            raise ValueError(f"the joker (JK, in the {where}) needs the rule joker=true")
        if i in seen:
            places = f"in the {where}" if seen[i] == where else f"{seen[i]} and {where}"
            raise ValueError(f"card {CARDS[i]} is listed twice ({places})")
        seen[i] = where
        return i

    given = [_seq(cards, f"hands[{p}]") for p, cards in enumerate(_pair(hands, "hands"))]
    unseen = [sum(map(_is_unseen, g)) for g in given]      # each "?", dealt below
    h = [[place(c, f"hand of player {p}") for c in g if not _is_unseen(c)]
         for p, g in enumerate(given)]
    pts: tuple[list[int], list[int]] = ([], [])
    stacks: dict[int, tuple[int, ...]] = {}
    for p, cards in enumerate(_pair(points, "points")):
        for text in _seq(cards, f"points[{p}]"):
            base, jacks = split_stack(text)
            i = place(base, f"points of player {p}")
            if CARDS[i].is_joker or CARDS[i].rank > _TEN:
                raise ValueError(f"{CARDS[i]} cannot be a point card (only A to T)")
            js = [place(j, f"Jacks on {CARDS[i]}") for j in jacks]
            for j in js:
                if CARDS[j].rank != _JACK:
                    raise ValueError(f"{CARDS[j]} in the stack of {CARDS[i]} is not a Jack")
            pts[p].append(i)
            if js:
                stacks[i] = tuple(js)
    perms: tuple[list[int], list[int]] = ([], [])
    for p, cards in enumerate(_pair(permanents, "permanents")):
        for text in _seq(cards, f"permanents[{p}]"):
            i = place(text, f"permanents of player {p}")
            if CARDS[i].rank not in (_QUEEN, _KING, _GLASSES):
                raise ValueError(f"{CARDS[i]} cannot be a permanent (only Kings, Queens "
                                 f"and 8s as glasses)")
            perms[p].append(i)
        if rules.one_queen_each and sum(CARDS[i].rank == _QUEEN for i in perms[p]) > 1:
            raise ValueError(f"player {p} controls more than one Queen, which "
                             f"one_queen_each forbids")
    scrap_i = [place(c, "scrap") for c in _seq(scrap, "scrap")]
    deck_i = [None if _is_unseen(c) else place(c, "deck") for c in _seq(deck, "deck")]
    unlisted = [i for i in range(n_cards(rules.joker)) if i not in seen]
    frozen_i = _frozen(frozen, h)       # (a frozen card is listed: seen in its hand)
    dealt = tuple(unlisted) if any(unseen) or None in deck_i else ()  # (None: a deck "?")
    if rest == "deck":
        deck_i = _deal_unseen(h, unseen, deck_i, unlisted, seed)
    elif any(unseen) or None in deck_i:
        whose = "a hand's" if any(unseen) else "the deck's"
        raise ValueError(f"{whose} {UNSEEN!r} is dealt one of the cards not listed, the "
                         f"rest going to the deck: not with rest=scrap, where the scrap, "
                         f"which both players see, would hold the others")
    else:
        scrap_i += unlisted
    return Layout(rules, seed, tuple(map(tuple, h)), tuple(map(tuple, pts)), stacks,
                  tuple(map(tuple, perms)), tuple(scrap_i), tuple(deck_i), to_move, frozen_i,
                  dealt)


def _is_unseen(card):
    return isinstance(card, str) and card.strip() == UNSEEN


def _deal_unseen(hands, unseen, deck, unlisted, seed):
    """The deck, whole: the unlisted cards shuffled by `seed`, each hand's cards not
    seen (`unseen`, per player) dealt into it (`hands`, lists) from the top first, then
    the deck's (its None places, top first), the rest below the deck's listed cards
    (with no "?", the deck as it always was)."""
    holes = deck.count(None)
    if sum(unseen) + holes > len(unlisted):
        where = ("the hands and the deck hold" if any(unseen) and holes else
                 "the hands hold" if any(unseen) else "the deck holds")
        raise ValueError(f"{where} {sum(unseen) + holes} cards not seen ({UNSEEN!r}), "
                         f"but only {len(unlisted)} cards are not listed")
    unlisted = list(unlisted)
    random.Random(seed).shuffle(unlisted)
    for p in (0, 1):
        hands[p] += unlisted[:unseen[p]]
        del unlisted[:unseen[p]]
    dealt = iter(unlisted[:holes])
    return [next(dealt) if i is None else i for i in deck] + unlisted[holes:]


def has_unseen(kw: dict[str, Any]) -> bool:
    """Whether position keywords (`parse_text`'s) hold a ``?`` in a hand or the deck."""
    return any(_is_unseen(c) for cards in (*kw["hands"], kw["deck"]) for c in cards)


def deal_unseen(kw: dict[str, Any]) -> tuple[dict[str, Any], list[tuple[int, int]]]:
    """Position keywords (`parse_text`'s, their seed given) with their cards not seen
    dealt as `layout` deals them, and the places so dealt: every ``?`` given its card
    and the deck whole (its unlisted rest in the seed's order), so that
    `Game.from_position` deals nothing more; each place is ``(player, k)``, the k-th
    card of that player's hand, or ``(2, k)``, the k-th of the deck from the top.
    ValueError as `layout`'s."""
    if kw.get("seed") is None:
        raise ValueError("the cards not seen are dealt by the position's seed: give one")
    lay = layout(**kw)
    hands = tuple([str(CARDS[i]) for i in h] for h in lay.hands)
    places = [(p, k) for p in (0, 1) for k in
              range(len(hands[p]) - sum(map(_is_unseen, kw["hands"][p])), len(hands[p]))]
    places += [(2, k) for k in range(len(lay.deck))
               if k >= len(kw["deck"]) or _is_unseen(kw["deck"][k])]
    return dict(kw, hands=hands, deck=[str(CARDS[i]) for i in lay.deck]), places


def _frozen(frozen, hands):
    """Per player, the indices of its frozen cards, each in its hand.  Which freezes a
    9 makes (the rules that freeze, the cards a 9 returns, how many the 9s of the last
    two turns return: rules-decisions.md, decision 3) the core checks, as it checks a
    pickle's (`_checks.check_freezes`)."""
    out = []
    for p, cards in enumerate(_pair(frozen, "frozen")):
        mine: list[int] = []
        for text in _seq(cards, f"frozen[{p}]"):
            if _is_unseen(text):
                raise ValueError(f"frozen cards of player {p}: {_UNSEEN_ONLY}")
            try:
                i = parse_index(text)
            except ValueError as e:
                raise ValueError(f"frozen cards of player {p}: {e}") from None
            if i in mine:
                raise ValueError(f"card {CARDS[i]} is listed twice (in the frozen cards "
                                 f"of player {p})")
            if i not in hands[p]:
                raise ValueError(f"frozen card {CARDS[i]} is not in the hand of player {p} "
                                 f"(a card is frozen in its holder's hand)")
            mine.append(i)
        out.append(tuple(mine))
    return tuple(out)


# ---------------------------------------------------------------------------------------
# Reading position text

def _fields(text):
    """[(name, value)] from the text, in order; ValueError for a malformed entry."""
    if not isinstance(text, str):
        raise ValueError(f"a position is text, not {type(text).__name__}")
    if text.lstrip().startswith("{"):
        raise ValueError("this is JSON, not position text (a game record is read by "
                         "`cuttle replay` or `cuttle review`)")
    out = []
    for line in text.splitlines():
        line = line.split("#", 1)[0]
        for chunk in line.split(";"):
            chunk = chunk.strip()
            if not chunk:
                continue
            if ":" not in chunk:
                raise ValueError(f"expected 'field: value' (fields: {', '.join(FIELDS)}), "
                                 f"not {quoted(chunk)}")
            name, value = chunk.split(":", 1)
            key = name.strip().lower().replace("-", "_").replace(" ", "_")
            key = _ALIASES.get(key, key)
            if key not in FIELDS:
                raise ValueError(f"unknown field {quoted(name.strip())}; fields: "
                                 f"{', '.join(FIELDS)}")
            out.append((key, value.strip()))
    if not out:
        raise ValueError("the position text is empty (give at least one field, e.g. "
                         "'hands: 2C 3D / 4H')")
    return out


def _tokens(text, field):
    """Card tokens separated by spaces or commas (outside a Jack stack's brackets)."""
    out, cur, depth = [], [], 0
    for ch in text:
        if ch == "[":
            depth += 1
            if depth > 1:
                raise ValueError(f"field {field!r}: nested '[' in {quoted(text.strip())}")
        elif ch == "]":
            depth -= 1
            if depth < 0:
                raise ValueError(f"field {field!r}: ']' without '[' in "
                                 f"{quoted(text.strip())}")
        if depth == 0 and (ch.isspace() or ch == ","):
            if cur:
                out.append("".join(cur))
                cur = []
        else:
            cur.append(ch)
    if depth:
        raise ValueError(f"field {field!r}: '[' without ']' in {quoted(text.strip())}")
    if cur:
        out.append("".join(cur))
    return [] if out == ["-"] else out


def _cards(text, field, stacks=False):
    """Canonical card texts ('TH', 'TH[JC,JD]') of one list."""
    out = []
    for tok in _tokens(text, field):
        if tok == "-":
            raise ValueError(f"field {field!r}: '-' stands for an empty list and cannot "
                             f"be mixed with cards")
        if tok == UNSEEN and field in ("hands", "deck"):
            out.append(UNSEEN)
            continue
        if "[" in tok and not stacks:
            raise ValueError(f"field {field!r}: {quoted(tok)}: only point cards carry "
                             f"Jack stacks")
        try:
            base, jacks = split_stack(tok)
            if UNSEEN in (base, *jacks):
                raise ValueError(_UNSEEN_ONLY)
            names = [str(CARDS[parse_index(c)]) for c in [base] + jacks]
        except ValueError as e:
            raise ValueError(f"field {field!r}: {e}") from None
        out.append(f"{names[0]}[{','.join(names[1:])}]" if jacks else names[0])
    return out


def _player_pair(text, field):
    parts = text.split("/")
    if len(parts) != 2:
        raise ValueError(f"field {field!r} lists both players' cards separated by one '/' "
                         f"(player 0's / player 1's; '-' for none), not {quoted(text)}")
    return tuple(_cards(p, field, stacks=(field == "points")) for p in parts)


def reconcile(text: str, rules: Rules | None, seed: int | None
              ) -> tuple[Rules | None, int | None]:
    """The rules and seed of a game from position `text` given others' (None: not
    given): the text's own ``rules:`` and ``seed:`` fields where the others are None;
    ValueError when the two disagree, so that neither is dropped silently (a game
    record's rules against its position's, the browser's choice against a pasted
    position's).  ValueError for malformed text too."""
    kw = parse_text(text)
    if any(key == "rules" for key, _ in _fields(text)):
        if rules is not None and rules != kw["rules"]:
            raise ValueError(f"its rules ({kw['rules']}) are not the rules chosen "
                             f"({rules}): choose its rules, or take the rules field out "
                             f"of the position")
        rules = kw["rules"]
    if kw["seed"] is not None:
        if seed is not None and seed != kw["seed"]:
            raise ValueError(f"its seed ({kw['seed']}) is not the seed given ({seed}): "
                             f"give no seed, or take the seed field out of the position")
        seed = kw["seed"]
    return rules, seed


def parse_text(text: str) -> dict[str, Any]:
    """The keyword arguments of `Game.from_position` (``rules`` a Rules, ``seed`` None
    unless the text has one) read from position text; ValueError naming the field and
    the problem for malformed text.  Card places are checked by `layout`."""
    kw = {"rules": Rules(), "hands": ([], []), "frozen": ([], []), "points": ([], []),
          "permanents": ([], []), "scrap": [], "deck": [], "to_move": 0, "rest": "deck",
          "seed": None}
    done = set()
    for key, value in _fields(text):
        if key in done:
            raise ValueError(f"field {key!r} is given twice")
        done.add(key)
        if key == "rules":
            try:
                kw["rules"] = Rules.parse(value)
            except ValueError as e:
                raise ValueError(f"field 'rules': {e}") from None
        elif key in _PLAYER_FIELDS:
            kw[key] = _player_pair(value, key)
        elif key in ("scrap", "deck"):
            if "/" in value:
                raise ValueError(f"field {key!r} is one list for both players: no '/' "
                                 f"({quoted(value)})")
            kw[key] = _cards(value, key)
        elif key == "to_move":
            v = value.strip().lower().removeprefix("p")
            if v not in ("0", "1"):
                raise ValueError(f"field 'to_move' takes 0 or 1, not {quoted(value)}")
            kw["to_move"] = int(v)
        elif key == "rest":
            v = value.strip().lower()
            if v not in ("deck", "scrap"):
                raise ValueError(f"field 'rest' takes deck or scrap, not {quoted(value)}")
            kw["rest"] = v
        elif key == "seed":
            v = value.strip().replace("_", "")
            # (no int() of thousands of digits: Python refuses it in its own words)
            if not (v.isascii() and v.isdigit()) or len(v) > 20 or int(v) >= SEED_LIMIT:
                raise ValueError(f"field 'seed' takes {SEED_WORDS}, not {quoted(value)}")
            kw["seed"] = int(v)
    return kw


# ---------------------------------------------------------------------------------------
# Writing position text

def _list(cards):
    return " ".join(str(c) for c in cards) or "-"


def write_text(game: Game, multiline: bool = False, rules: bool = True,
               frozen: Sequence[Sequence[Card]] = ((), ()),
               gap: tuple[str, int] | None = None, unseen: Collection[Card] = ()) -> str:
    """The full position of a main-phase game, or of one won by its goal, as text (see
    `Game.position_text`):
    `frozen`, per player, its cards frozen for its next turn (this turn for the player
    to move); `gap`, what of the game the text cannot carry (`CoreGame`'s
    ``_core_position_gap``), refused with a ValueError saying what; `unseen`, cards
    written ``?`` where they lie in a hand (after the hand's other cards) or the deck
    (its last ``?`` left out: the unlisted rest, which the seed deals)."""
    at = [p for p in (0, 1) if game.score(p) >= game.goal(p)]
    won = game.end_reason == "goal" and len(at) == 1    # (read back: won at once)
    if game.phase != "main" and not won:
        state = ("the game is over" + (" with both players at their goal, which a "
                                       "position may not hold" if len(at) == 2 else "")
                 if game.is_over else f"it is in the {game.phase} phase")
        raise ValueError(f"position text describes main-phase positions, and those of a "
                         f"game won by its goal, only; {state}")
    if gap is not None and not won:     # (what comes next: nothing, the game is won)
        raise ValueError(f"position text cannot carry this position: {_gap_text(*gap)}")

    def stacks(p):
        out = []
        for c in game.points(p):
            js = game.jacks(c)
            out.append(f"{c}[{','.join(js)}]" if js else str(c))
        return out

    def hand(p):
        held = game.hand(p)
        return [c for c in held if c not in unseen] + [UNSEEN] * sum(c in unseen for c in held)

    deck = [UNSEEN if c in unseen else c for c in game.deck]
    while deck and deck[-1] == UNSEEN:
        deck.pop()
    fields = []
    if rules:
        fields.append(("rules", str(game.rules)))
    fields.append(("hands", f"{_list(hand(0))} / {_list(hand(1))}"))
    if any(frozen):         # (only where a card is frozen: every other text stays as it was)
        fields.append(("frozen", f"{_list(frozen[0])} / {_list(frozen[1])}"))
    fields += [
        ("points", f"{_list(stacks(0))} / {_list(stacks(1))}"),
        ("permanents", f"{_list(game.permanents(0))} / {_list(game.permanents(1))}"),
        ("scrap", _list(game.scrap)),
        ("deck", _list(deck)),
        ("to_move", str(game.turn if won else game.to_move)),
    ]
    return ("\n" if multiline else "; ").join(f"{k}: {v}" for k, v in fields)


def _gap_text(what, count):
    """What of a game position text cannot carry, in words (see `write_text`)."""
    if what == "passes":
        last = "move was a pass" if count == 1 else f"{count} moves were passes"
        return (f"the last {last} (the third pass in a row ends the game), and the text "
                f"carries no passes")
    assert what == "countdown", what
    if count == 0:
        return ("this is sudden death's last turn, and the text carries only the "
                "countdown of an empty deck, which ends after the next turn")
    return ("the sudden-death countdown runs while the deck holds cards, and the text "
            "carries only the countdown of an empty deck")
