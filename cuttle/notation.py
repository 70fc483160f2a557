"""A position text format: easy to type, and it round-trips with `Game.from_position`.

A position is a list of ``field: value`` entries separated by ``;`` or by new lines
(``#`` starts a comment that runs to the end of the line).  Field names are
case-insensitive and every field is optional::

    rules: cuttle.cards four=random; hands: 2C 3D 7H / 2H 4S;
    points: TH[JD] 5C / 9D; permanents: QD / 8H; scrap: 3C 4H; deck: 7C JH;
    to_move: 0; rest: deck

| field | value |
|---|---|
| ``hands`` | player 0's cards ``/`` player 1's cards |
| ``points`` | point cards per player (``/`` between players); a card may carry its Jack stack, bottom to top: ``TH[JC,JD]``; the side it is listed on controls it |
| ``permanents`` | Kings, Queens and glasses-8s per player (``/`` between players) |
| ``scrap`` | cards in the scrap |
| ``deck`` | the top cards of the deck, top first |
| ``to_move`` | ``0`` or ``1`` (``P0``/``P1`` also work); default 0 |
| ``rest`` | where every unlisted card goes: ``deck`` (below the listed deck cards, shuffled by the seed; the default) or ``scrap`` |
| ``rules`` | a preset, then ``flag=value`` changes: ``classic``, ``cuttle.cards four=random``, ``quick hand_limit=7``, ``king_goals=15,14,10,7,5`` (preset classic) |
| ``seed`` | the game's seed (shuffles the rest; seeds random effects) |

Cards are written as in moves (``TH`` or ``10h``, ``JK`` for the joker), separated by
spaces or commas; ``-`` (or nothing) stands for an empty list.  Flag values are written
without spaces: ``true``/``false``, ``none``, whole numbers, tuples as ``21,14,10,5,0``.

`position_text(game)` writes the full position of a main-phase game -- every zone,
the whole deck in order, the rules -- so that `game_from_text(position_text(g))`
has the same hands, point cards, Jacks, permanents, scrap, deck and player to move.
The text does not carry the move history, frozen cards, the pass count, a
sudden-death countdown, what each player knows about hidden cards, or the state of
the game's random stream.

    >>> g = game_from_text("hands: 7H 2C / 3D; points: TH[JC] / -; deck: 5H; rest: scrap")
    >>> g.points(0), g.jacks("TH"), g.deck
    ([Card('TH')], [Card('JC')], [Card('5H')])
"""

from .cards import CARDS, JOKER, parse_index
from .game import Game, _split_stack
from .rules import Rules

__all__ = ["FIELDS", "game_from_fields", "game_from_text", "parse_flag_value", "parse_position",
           "parse_rules_text", "parse_sets", "position_text", "rules_from_args", "rules_text"]

FIELDS = ("rules", "hands", "points", "permanents", "scrap", "deck", "to_move", "rest",
          "seed")
_PLAYER_FIELDS = ("hands", "points", "permanents")
_ALIASES = {"hand": "hands", "point": "points", "permanent": "permanents",
            "perms": "permanents", "perm": "permanents", "tomove": "to_move",
            "turn": "to_move", "rule": "rules", "discard": "scrap", "discards": "scrap"}
_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}
_NONE = {"none", "null", "-", ""}


# ---------------------------------------------------------------------------------------
# Rules as text

def parse_flag_value(name: str, text: str):
    """The value of rule flag `name` from its text (``true``, ``none``, ``8``,
    ``21,14,10,5,0``, ``random``); ValueError naming the valid flags or values."""
    if name not in Rules.flag_names:
        raise ValueError(f"unknown rule flag {name!r}; valid flags: {', '.join(Rules.flag_names)}")
    t = str(text).strip()
    low = t.lower()
    default = Rules().flags[name]          # the classic value tells the flag's type
    if isinstance(default, bool):
        if low in _TRUE:
            return True
        if low in _FALSE:
            return False
        raise ValueError(f"flag {name!r} takes true or false, not {text!r}")
    if isinstance(default, tuple):
        parts = [p for p in t.strip("()[] ").replace(" ", ",").split(",") if p]
        try:
            return tuple(int(p) for p in parts)
        except ValueError:
            raise ValueError(f"flag {name!r} takes {len(default)} whole numbers separated by "
                             f"commas, like {','.join(map(str, default))}, not {text!r}") from None
    if default is None or isinstance(default, int):
        if low in _NONE:
            return None
        try:
            return int(t)
        except ValueError:
            raise ValueError(f"flag {name!r} takes none or a whole number, not {text!r}") from None
    return low                              # a choice: Rules names the valid ones


def _flag_name(text):
    return text.strip().lower().replace("-", "_")


def parse_sets(sets) -> dict:
    """{flag: value} from ``FLAG=VALUE`` strings (see `parse_flag_value`)."""
    if isinstance(sets, str):
        sets = [sets]
    flags = {}
    for item in sets or ():
        if not isinstance(item, str) or "=" not in item:
            raise ValueError(f"expected FLAG=VALUE (e.g. four=random), not {item!r}")
        name, value = item.split("=", 1)
        name = _flag_name(name)
        if not name:
            raise ValueError(f"expected FLAG=VALUE (e.g. four=random), not {item!r}")
        flags[name] = parse_flag_value(name, value)
    return flags


def rules_from_args(preset=None, sets=()) -> Rules:
    """Rules from a preset name (None: classic) and ``FLAG=VALUE`` strings, e.g.
    ``rules_from_args("classic", ["four=random", "king_goals=15,14,10,7,5"])``.
    ValueError (naming the valid presets, flags or values) for anything wrong."""
    preset = "classic" if preset is None else str(preset).strip()
    return Rules(preset).replace(**parse_sets(sets))      # a bad preset is reported first


def parse_rules_text(text: str) -> Rules:
    """Rules from ``PRESET flag=value ...`` (the preset may be left out: classic)."""
    tokens = text.split()
    preset = None
    if tokens and "=" not in tokens[0]:
        preset, tokens = tokens[0], tokens[1:]
    return rules_from_args(preset, tokens)


def _value_text(value):
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return ",".join(str(v) for v in value)
    return str(value)


def rules_text(rules) -> str:
    """``PRESET flag=value ...``: the preset and the changed flags (read by
    `parse_rules_text`)."""
    rules = Rules.coerce(rules)
    changed = rules.changed()
    return " ".join([rules.preset] + [f"{k}={_value_text(changed[k])}"
                                      for k in Rules.flag_names if k in changed])


# ---------------------------------------------------------------------------------------
# Parsing

def _fields(text):
    """[(name, value)] from the text, in order; ValueError for a malformed entry."""
    if not isinstance(text, str):
        raise ValueError(f"a position is text, not {type(text).__name__}")
    out = []
    for line in text.splitlines():
        line = line.split("#", 1)[0]
        for chunk in line.split(";"):
            chunk = chunk.strip()
            if not chunk:
                continue
            if ":" not in chunk:
                raise ValueError(f"expected 'field: value' (fields: {', '.join(FIELDS)}), "
                                 f"not {chunk!r}")
            name, value = chunk.split(":", 1)
            key = name.strip().lower().replace("-", "_").replace(" ", "_")
            key = _ALIASES.get(key, key)
            if key not in FIELDS:
                raise ValueError(f"unknown field {name.strip()!r}; fields: {', '.join(FIELDS)}")
            out.append((key, value.strip()))
    return out


def _tokens(text, field):
    """Card tokens separated by spaces or commas (outside a Jack stack's brackets)."""
    out, cur, depth = [], [], 0
    for ch in text:
        if ch == "[":
            depth += 1
            if depth > 1:
                raise ValueError(f"field {field!r}: nested '[' in {text.strip()!r}")
        elif ch == "]":
            depth -= 1
            if depth < 0:
                raise ValueError(f"field {field!r}: ']' without '[' in {text.strip()!r}")
        if depth == 0 and (ch.isspace() or ch == ","):
            if cur:
                out.append("".join(cur))
                cur = []
        else:
            cur.append(ch)
    if depth:
        raise ValueError(f"field {field!r}: '[' without ']' in {text.strip()!r}")
    if cur:
        out.append("".join(cur))
    if out == ["-"]:
        return []
    return out


def _card(token, field):
    try:
        return CARDS[parse_index(token)]
    except ValueError as e:
        raise ValueError(f"field {field!r}: {e}") from None


def _cards(text, field, stacks=False):
    """Canonical card texts ('TH', 'TH[JC,JD]') of one list."""
    out = []
    for tok in _tokens(text, field):
        if "[" in tok:
            if not stacks:
                raise ValueError(f"field {field!r}: {tok!r}: only point cards carry Jack stacks")
            if not tok.endswith("]") or tok.startswith("["):
                raise ValueError(f"field {field!r}: bad Jack stack {tok!r}; write it as "
                                 f"TH[JC,JD] (Jacks bottom to top)")
            base, names = _split_stack(tok)
            jacks = [_card(j, field) for j in names]
            if not jacks:
                raise ValueError(f"field {field!r}: empty Jack stack in {tok!r}")
            out.append(f"{_card(base, field)}[{','.join(jacks)}]")
        else:
            if tok == "-":
                raise ValueError(f"field {field!r}: '-' stands for an empty list and cannot "
                                 f"be mixed with cards")
            out.append(str(_card(tok, field)))
    return out


def _pair(text, field):
    parts = text.split("/")
    if len(parts) != 2:
        raise ValueError(f"field {field!r} lists both players' cards separated by one '/' "
                         f"(player 0's / player 1's; '-' for none), not {text!r}")
    return tuple(_cards(p, f"{field}", stacks=(field == "points")) for p in parts)


def _check_places(kw, rules):
    """Duplicates, the joker and cards in impossible places, naming the field."""
    seen = {}

    def place(card, where):
        i = parse_index(card)
        if i == JOKER and not rules.joker:
            raise ValueError(f"the joker (JK, in the {where}) needs the rule joker=true "
                             f"(e.g. 'rules: classic joker=true')")
        if i in seen:
            raise ValueError(f"card {CARDS[i]} is listed twice ({seen[i]} and {where})")
        seen[i] = where
        return i

    for p in (0, 1):
        for c in kw["hands"][p]:
            place(c, f"hand of player {p}")
        for c in kw["points"][p]:
            base, jacks = _split_stack(c)
            i = place(base, f"points of player {p}")
            if not i < 40:
                raise ValueError(f"field 'points': {CARDS[i]} cannot be a point card "
                                 f"(only A to T)")
            for j in jacks:
                k = place(j, f"the Jacks on {base}")
                if not 40 <= k < 44:
                    raise ValueError(f"field 'points': {CARDS[k]} in the stack of {base} "
                                     f"is not a Jack")
        for c in kw["permanents"][p]:
            i = place(c, f"permanents of player {p}")
            if not (44 <= i < 52 or 28 <= i < 32):
                raise ValueError(f"field 'permanents': {CARDS[i]} cannot be a permanent "
                                 f"(only Kings, Queens and 8s as glasses)")
    for c in kw["scrap"]:
        place(c, "scrap")
    for c in kw["deck"]:
        place(c, "deck")


def parse_position(text: str) -> dict:
    """The keyword arguments of `Game.from_position` (``rules`` included, as a Rules;
    ``seed`` None unless the text has one) read from position text.

    ValueError naming the field and the problem for malformed text."""
    kw = {"rules": Rules(), "hands": ([], []), "points": ([], []),
          "permanents": ([], []), "scrap": [], "deck": [], "to_move": 0, "rest": "deck",
          "seed": None}
    done = set()
    for key, value in _fields(text):
        if key in done:
            raise ValueError(f"field {key!r} is given twice")
        done.add(key)
        if key == "rules":
            try:
                kw["rules"] = parse_rules_text(value)
            except ValueError as e:
                raise ValueError(f"field 'rules': {e}") from None
        elif key in _PLAYER_FIELDS:
            kw[key] = _pair(value, key)
        elif key in ("scrap", "deck"):
            if "/" in value:
                raise ValueError(f"field {key!r} is one list for both players: no '/' "
                                 f"({value!r})")
            kw[key] = _cards(value, key)
        elif key == "to_move":
            v = value.strip().lower().lstrip("p")
            if v not in ("0", "1"):
                raise ValueError(f"field 'to_move' takes 0 or 1, not {value!r}")
            kw["to_move"] = int(v)
        elif key == "rest":
            v = value.strip().lower()
            if v not in ("deck", "scrap"):
                raise ValueError(f"field 'rest' takes deck or scrap, not {value!r}")
            kw["rest"] = v
        elif key == "seed":
            v = value.strip().replace("_", "")
            if not v.isdigit() or int(v) >= 2**64:
                raise ValueError(f"field 'seed' takes a whole number from 0 to 2**64-1, "
                                 f"not {value!r}")
            kw["seed"] = int(v)
    _check_places(kw, kw["rules"])
    return kw


def game_from_text(text: str, rules=None, seed=None):
    """A Game from position text.  `rules` (a Rules or a preset name) replaces the text's
    ``rules`` field and `seed` its ``seed`` field when given."""
    return game_from_fields(parse_position(text), rules=rules, seed=seed)


def game_from_fields(kw: dict, rules=None, seed=None, to_move=None):
    """A Game from `parse_position`'s fields, with the rules, seed or player to move
    replaced when given."""
    kw = dict(kw)
    if rules is not None:
        kw["rules"] = Rules.coerce(rules)
        _check_places(kw, kw["rules"])
    if seed is not None:
        kw["seed"] = seed
    if to_move is not None:
        kw["to_move"] = to_move
    try:
        return Game.from_position(**kw)
    except ValueError as e:
        raise ValueError(f"invalid position: {e}") from None


# ---------------------------------------------------------------------------------------
# Writing

def _list(cards):
    return " ".join(str(c) for c in cards) or "-"


def position_text(game, multiline: bool = False, rules: bool = True) -> str:
    """The full position of a main-phase game as text (every zone and the whole deck,
    top first), so that `game_from_text` rebuilds it.  ``multiline``: one field a line
    instead of ``; `` between fields; ``rules=False`` leaves the rules field out.
    ValueError outside the main phase."""
    if game.phase != "main":
        state = "the game is over" if game.is_over else f"it is in the {game.phase} phase"
        raise ValueError(f"position text describes main-phase positions only; {state}")

    def stacks(p):
        out = []
        for c in game.points(p):
            js = game.jacks(c)
            out.append(f"{c}[{','.join(js)}]" if js else str(c))
        return out

    fields = []
    if rules:
        fields.append(("rules", rules_text(game.rules)))
    fields += [
        ("hands", f"{_list(game.hand(0))} / {_list(game.hand(1))}"),
        ("points", f"{_list(stacks(0))} / {_list(stacks(1))}"),
        ("permanents", f"{_list(game.permanents(0))} / {_list(game.permanents(1))}"),
        ("scrap", _list(game.scrap)),
        ("deck", _list(game.deck)),
        ("to_move", str(game.to_move)),
    ]
    return ("\n" if multiline else "; ").join(f"{k}: {v}" for k, v in fields)
