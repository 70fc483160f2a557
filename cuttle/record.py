"""Game records: a finished or unfinished game as JSON, written by `cuttle play` (and, for
a game of a seeded simulation run, by `cuttle simulate --record-game` and
`cuttle.simulation.game_record`) and read by `cuttle replay`, `cuttle review` and
`cuttle analyse --record`.  docs/record.md describes the format field by field, with a
worked example that its tests check against this module.

    {"format": "cuttle-game-record", "version": 1,
     "rules": {"preset": "classic", "changed": {"four": "random"}},
     "seed": 7, "position": null,          # or the full starting position text
     "players": ["human", "greedy"], "human_seat": 0, "bot": {"name": "greedy", "seed": 7},
     "moves": ["draw", "points 7H", ...],
     "result": {"status": "over", "winner": 0, "end_reason": "goal", "turns": 12,
                "scores": [21, 9], "text": "player 0 wins (goal)"},
     "created": "2024-01-01T12:00:00", "cuttle_version": "0.1.0"}

A game dealt as game K of a seeded run (`Game.from_run`: its random effects, e.g. a
random 4's discards, go on drawing from that deal's stream, so no position text can
stand for it) names its deal: ``"deal": K`` beside ``"seed"``, in a record of version 2
(a reader of version 1 would ignore the field and deal game 0 of the seed).  A record
without a deal, or with deal 0 (``Game(rules, seed)``), is written as version 1, as
before; a reader takes both versions.  A record of a game between two bots (a simulated
game) has ``"human_seat": null``, ``"bot": null`` (``bot`` is the one bot a person
played and its seed) and ``"simulation": {"players": [A, B], "swap_seats": true,
"max_moves": 10000}``: the run it is a game of (``players`` holds the names by seat).

A record's ``result`` says how its game ended, or why it stopped before the rules ended
it (resigned, quit, eof, ...): `cuttle.record_result` reads, checks and writes it
(`result_of`, `ending`, `resigner`, ...; its names are read here too).
A game an undo dealt again (`cuttle.redeal`: the cards hidden from the person, dealt
anew where the moves taken back had shown them some) starts from the new deal, as
position text, and says so: ``"redealt": [N, ...]``, for each re-deal, in order, how
many of the record's moves were played before it (on an earlier deal, the bot's with
the cards it held there); `redealt_words` puts it in words, which the review shows.
The moves replay from the new deal all the same, and a reader that ignores the field
loses nothing it had: no version changes.
A record file is at most `MAX_RECORD_BYTES` (16 MiB, far above the longest game); a
larger file, or one that is not a regular file (a device, a FIFO), is refused unread.

A record written by hand of a game played elsewhere may give only what its player saw:
``?`` in its position for the cards whose faces they did not see (the other's hand, the
other's draws in the deck).  Its readers deal those cards so that every move can be
played (`redeal.fit_unseen`, from the record's seed: the same deal every time), refuse
a move no deal lets be played by its number, and a player is reviewed or analysed from
it only where it gives everything that player saw (`dealt_view`; the games it replays
know the cards so dealt, ``Game.dealt_unseen``, and `cuttle.analyse`, `cuttle.review`
and the rest refuse the views that are the deal's: `cuttle.game.missing_view` and
`cuttle.game.check_view`, also read here).

A record's moves are its game: a move that cannot be played is refused (ValueError), but
a ``result`` that is not where the moves end (a winner or an ending the replay does not
give, a resignation or a stop in a game the rules ended) is only warned about, since the
moves still say what happened: `cuttle.record_result.check_result` issues a
`RecordResultWarning` saying what the record says and where its moves end, and every
reader goes by the moves (`cuttle replay` and `cuttle review` print the warning and exit
with status 1; `cuttle.review` warns and keeps the words in `Review.record_mismatch`).
"""

from __future__ import annotations

import datetime
import json
import os
from typing import TYPE_CHECKING, Any

from ._version import __version__
from .errors import InvalidMoveError
from .files import read_text, write_text
from .game import Game, check_game, check_view, missing_view
from .moves import Move
from .position import has_unseen as has_unseen_cards
from .position import parse_text, reconcile
from .record_result import (RESIGNED, STATUSES, RecordResultWarning, check_result, ending,
                            ending_text, result_mismatch, result_of, resigner, stopped,
                            validate_result)
from .redeal import FitCutOff, Fitted, NoFit, fit_unseen, resolve_hint
from .rules import Rules
from .seeding import check_game_index, check_seed
from .text import quoted
from .validation import check_player, is_int

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence
    from os import PathLike

    from .policies import Bot

__all__ = ["FORMAT", "MAX_RECORD_BYTES", "VERSION", "check_deal", "dealt_view", "final_game",
           "game_before", "has_unseen", "make_record", "play_recorded", "read_record",
           "redealt_words", "seed_of", "seed_words", "start_game", "validate_record",
           "write_record",
           # (the result's, `cuttle.record_result`, and the view checks, `cuttle.game`,
           # are read here too, where they were first)
           "RESIGNED", "STATUSES", "RecordResultWarning", "check_result", "check_view",
           "ending", "ending_text", "missing_view", "result_mismatch", "result_of",
           "resigner", "stopped"]

FORMAT = "cuttle-game-record"
VERSION = 2                   # the newest version read and written (1: no deal index)
DEAL_VERSION = 2              # the first version with a deal index, written only for one
MAX_RECORD_BYTES = 16 << 20
# Why a record that starts from its seed's deal (no 'position') must give the seed.
NO_SEED = ("a record without a 'position' is dealt by its seed: give the seed the game "
           "was dealt with, an integer from 0 to 2**64 - 1 (a game played elsewhere has "
           "none: give its 'position', '?' for the cards not seen, and the seed may be "
           "left out)")


def make_record(game: Game, *, players: Iterable[str], human_seat: int | None = None,
                bot: Bot | None = None, position: str | None = None,
                status: str | None = None, deal: int = 0,
                redealt: Sequence[int] = ()) -> dict[str, Any]:
    """The record of `game` (every move it played from its start), as `read_record`
    reads it back.  The starting position is the game's own: its text is written when
    the game did not start from a deal (`position`, if given, must be that start's
    text).  `deal`: the game is game `deal` of its seed's run (``Game.from_run(rules,
    seed=game.seed, index=deal)``; a record of version 2); it must be that deal.
    `status` says why a game the rules did not end stopped (``resigned``: the person,
    `human_seat`, gave up and the bot wins; ``quit``, ``eof``, ``interrupted``; default
    ``unfinished``); a finished game's is ``over``.  `redealt`: the game's re-deals by
    undos (`cuttle.redeal.Sightings.redealt`: for each, how many of its moves were
    played before it), written only when there were some.  A game replayed from a
    record with cards not seen is written with its ``?`` (``dealt_from`` ``"record"``:
    the cards dealt for them are not the record's to give); one played from a position
    with ``?`` with the cards its seed dealt, that game's own.  ValueError, with
    nothing written, for arguments a record cannot hold."""
    check_game(game)
    deal = check_deal(deal, "deal")
    if deal and position is not None:
        raise ValueError("a record starts from a deal or from a position, not both")
    if status is None:
        status = "over" if game.is_over else "unfinished"
    if status not in STATUSES:
        raise ValueError(f"status {quoted(status)}: one of {', '.join(STATUSES)}")
    if status == "over" and not game.is_over:
        raise ValueError("the game is not over: give the status saying why it stopped "
                         f"({', '.join(STATUSES[1:])})")
    if status == RESIGNED and human_seat is None:
        raise ValueError("status 'resigned' is the person's resignation: give the "
                         "human_seat that resigned")
    rec = {
        "format": FORMAT, "version": DEAL_VERSION if deal else 1, "rules": game.rules.to_json(),
        "seed": game.seed, **({"deal": deal} if deal else {}),
        "position": _start_text(game, position, deal),
        **({"redealt": [int(k) if is_int(k) else k for k in redealt]} if redealt else {}),
        "players": list(players) if not isinstance(players, str) else players,
        "human_seat": human_seat,
        "bot": None if bot is None else {"name": bot.name, "seed": bot.seed},
        "moves": [str(m) for m in game.moves],
        "result": result_of(game, status, resigned=human_seat),
        "created": datetime.datetime.now().isoformat(timespec="seconds"),
        "cuttle_version": __version__,
    }
    return validate_record(rec)           # (the reader's checks: players, human_seat)


def _start_text(game: Game, position: str | None, deal: int) -> str | None:
    # The record's `position`: None for a game dealt from its seed (as its deal `deal`),
    # else the text of the position it started from (checked to give that start back).
    start = game.copy()
    while start.moves:
        start.undo()
    dealt = Game.from_run(game.rules, seed=game.seed, index=deal, max_moves=start.max_moves)
    if position is None and start == dealt:
        return None
    if deal:
        raise ValueError(f"the game does not start from deal {deal} of seed {game.seed}")
    # (a record's '?' stay '?': the cards dealt for them are not the record's to give)
    text = start.position_text(unseen=start.dealt_from == "record") if position is None \
        else position
    same = _position_start(text, game.rules, game.seed, game.moves, start.max_moves)[0]
    if same != start:
        raise ValueError("the starting position does not give this game's start back"
                         if position is not None else
                         "this game's start cannot be written as position text (a game "
                         "dealt by Game.from_run(..., index=K) is recorded with deal=K)")
    return text


def write_record(record: dict[str, Any], path: str | PathLike[str]) -> None:
    """Write a record to `path` whole or not at all."""
    write_text(path, json.dumps(record, indent=2) + "\n")


def check_deal(deal: object, name: str = "'deal'") -> int:
    """A deal index of a seed's run (game `deal` of it, as simulate deals it): an int
    from 0 to 2**62-1, the game indices a run has (`cuttle.seeding.check_game_index`);
    ValueError otherwise."""
    return check_game_index(deal, name)


def validate_record(rec: object) -> dict[str, Any]:
    """Check a game record's shape (not yet its moves); ValueError saying what is wrong."""
    if not isinstance(rec, dict):
        raise ValueError("a game record is a JSON object")
    if rec.get("format") != FORMAT:
        raise ValueError(f"not a cuttle game record ('format' should be {FORMAT!r})")
    if not is_int(rec.get("version")) or not 1 <= rec["version"] <= VERSION:
        raise ValueError(f"unsupported record version {quoted(rec.get('version'))} "
                         f"(this cuttle reads versions 1 to {VERSION})")
    missing = [k for k in ("rules", "moves") if k not in rec]
    if missing:
        raise ValueError(f"bad record: no {', '.join(map(repr, missing))}")
    if rec.get("position") is not None and not isinstance(rec["position"], str):
        raise ValueError("'position' must be position text or null")
    if "seed" not in rec and rec.get("position") is None:
        raise ValueError(f"bad record: no 'seed': {NO_SEED}")
    try:
        Rules.from_json(rec.get("rules"))
        if "seed" in rec:
            check_seed(rec["seed"], "'seed'")
    except ValueError as e:
        raise ValueError(f"bad record: {e}") from None
    _check_deal_field(rec)
    moves = rec.get("moves")
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise ValueError("'moves' must be a list of move texts")
    _check_redealt(rec)
    players = rec.get("players", ["player 0", "player 1"])
    if not (isinstance(players, list) and len(players) == 2
            and all(isinstance(p, str) for p in players)):
        raise ValueError("'players' must be a list of two names")
    check_player(rec.get("human_seat"), "'human_seat'", none="null: no human")
    validate_result(rec)
    return rec


def _check_deal_field(rec: dict[str, Any]) -> None:
    # A deal other than 0 needs DEAL_VERSION (a reader of version 1 would deal game 0),
    # and a position has no deal (its random effects draw from the seed's game 0).
    deal = rec.get("deal", 0)
    if "deal" in rec:
        check_deal(deal)
    if deal and rec["version"] < DEAL_VERSION:
        raise ValueError(f"'deal' {deal} needs a record of version {DEAL_VERSION}, not "
                         f"version {rec['version']} (whose readers deal game 0 of the seed)")
    if deal and rec.get("position") is not None:
        raise ValueError("a record starts from a deal or from a position, not both: "
                         "'deal' and 'position' are both given")


def _check_redealt(rec: dict[str, Any]) -> None:
    # Each re-deal's count of the moves played before it: those still in the record,
    # so at most its moves, and in order (a later undo keeps fewer moves, never more).
    marks = rec.get("redealt", [])
    n = len(rec["moves"])
    if not (isinstance(marks, list) and all(is_int(k) and 0 <= k <= n for k in marks)
            and marks == sorted(marks)):
        raise ValueError(f"'redealt' must be a list of move counts from 0 to the record's "
                         f"{n} moves, in order, not {quoted(marks)}")


def redealt_words(rec: dict[str, Any]) -> str | None:
    """What a validated record's ``redealt`` says, in one line ("Dealt again by an undo
    after move 6: moves 1 to 6 were played on an earlier deal, P1 greedy's with the
    cards it held then."), or None: the game was not dealt again."""
    marks = rec.get("redealt") or []
    if not marks:
        return None
    last, n = marks[-1], len(marks)
    by = "an undo" if n == 1 else f"{n} undos" + (", the last" if last else "")
    if not last:
        return f"Dealt again by {by} before move 1: every move was played on this deal."
    moves = {1: "move 1 was", 2: "moves 1 and 2 were"}.get(last, f"moves 1 to {last} were")
    said = f"Dealt again by {by} after move {last}: {moves} played on " + \
        ("an earlier deal" if n == 1 else "earlier deals")
    human = rec.get("human_seat")
    if human is None:
        return said + "."
    bot = 1 - human
    name = rec.get("players", ["player 0", "player 1"])[bot]
    return f"{said}, P{bot} {name}'s with the cards it held then."


def read_record(path: str | PathLike[str]) -> dict[str, Any]:
    """A validated game record from a JSON file; ValueError, its message starting with
    the path ("game.json: not valid JSON: ..."), or OSError otherwise."""
    try:
        text = read_text(path, MAX_RECORD_BYTES, "game record")
        try:
            rec = json.loads(text)
        except json.JSONDecodeError as e:
            raise ValueError(f"not valid JSON: {e}") from None
        except RecursionError:
            raise ValueError("not a game record: the JSON is nested too deeply") from None
        return validate_record(rec)
    except ValueError as e:
        raise ValueError(f"{os.fspath(path)}: {e}") from None


def seed_of(rec: dict[str, Any]) -> int:
    """A validated record's seed: its ``seed``, or for a record starting from a
    position that leaves it out, the position text's own ``seed:`` if it gives one,
    else 0 (a position's seed deals only its cards not seen, ``?``, and draws its
    random effects, a random 4's discards)."""
    if "seed" in rec:
        return rec["seed"]
    try:
        own = parse_text(rec["position"])["seed"]
    except ValueError:              # (refused where the position is read: start_game)
        own = None
    return 0 if own is None else own


def seed_words(seed: int, deal: int = 0) -> str:
    """How a game was dealt, for headers: "seed 7", or "seed 7, game 1234" for deal
    1234 of the seed's run (a record's ``seed`` and ``deal``)."""
    return f"seed {seed}" + (f", game {deal}" if deal else "")


def start_game(rec: dict[str, Any]) -> Game:
    """The starting Game of a validated record.  A record keeps no move cap (it is no
    rule); a game its cap ended says so in its result, and the cap fell at its last
    move, where the replay ends it too.  A position with cards not seen (``?``) starts
    the game their deal fitted to the record's moves (`redeal.fit_unseen`): ValueError
    naming the first move that no deal of them lets be played (`redeal.NoFit`), or the
    furthest the search for one reached before it was cut off (`redeal.FitCutOff`)."""
    rules = Rules.from_json(rec["rules"])
    if rec.get("position"):
        return _position_start(rec["position"], rules, seed_of(rec), _parsed(rec),
                               _cap(rec))[0]
    g = Game.from_run(rules, seed=rec["seed"], index=rec.get("deal", 0))
    g.max_moves = _cap(rec)
    return g


def _cap(rec: dict[str, Any]) -> int | None:
    """The move cap a validated record's game is replayed under: its number of moves
    where its result says the cap ended it, else none."""
    res = rec.get("result")
    if isinstance(res, dict) and res.get("end_reason") == "move_cap" and rec["moves"]:
        return len(rec["moves"])
    return None


def _parsed(rec: dict[str, Any]) -> list[Move]:
    """A validated record's moves up to the first that does not parse (its replay
    refuses it, naming it)."""
    moves = []
    for text in rec["moves"]:
        try:
            moves.append(Move(text))
        except InvalidMoveError:
            break
    return moves


def _position_start(text: str, rules: Rules, seed: int, moves: list[Move],
                    cap: int | None) -> tuple[Game, Fitted | None]:
    """The start of a game from position `text` (whose own rules and seed, if any, must
    be `rules` and `seed`) and what its cards not seen (``?``) were dealt to fit
    `moves` (None: it has none); ValueError for a bad position and for moves no deal
    fits (`redeal.NoFit`, naming the move, or `redeal.FitCutOff` when the search for
    one was cut off)."""
    try:
        reconcile(text, rules, seed)
        kw = dict(parse_text(text), rules=rules, seed=seed)
        if not has_unseen_cards(kw):
            g = Game.from_text(text, rules=rules, seed=seed)
            g.max_moves = cap
            return g, None
        fitted = fit_unseen(kw, moves, cap)
    except (NoFit, FitCutOff):
        raise
    except ValueError as e:
        raise ValueError(f"bad starting position: {e}") from None
    return fitted.start, fitted


def has_unseen(rec: dict[str, Any]) -> bool:
    """Whether a validated record's start holds cards not seen (``?`` in its position:
    dealt to fit its moves, `start_game`); False for a position that does not read."""
    try:
        return bool(rec.get("position")) and has_unseen_cards(parse_text(rec["position"]))
    except ValueError:
        return False


def dealt_view(rec: dict[str, Any], player: int, move: int | None = None) -> str | None:
    """`missing_view` of a validated record's game, before its move `move`
    (`game_before`'s game; default: at its end), up to the first move that does not
    parse: None when the record gives `player`'s view whole there, else where it does
    not, in words.  ValueError as `start_game`'s."""
    player = check_player(player)
    if move is not None and (not is_int(move) or move < 1):
        raise ValueError(f"move must be a move's number, from 1, not {quoted(move)}")
    if not rec.get("position"):
        return None
    count = len(_parsed(rec))
    return missing_view(_replayed(rec, count if move is None else min(move - 1, count)),
                        player)


def play_recorded(game: Game, i: int, text: str) -> Move:
    """Play the record's move `i` (1-based) on `game`; ValueError naming it if it cannot
    be played."""
    try:
        return game.play(text)
    except InvalidMoveError as e:           # (names the part that does not parse)
        raise ValueError(f"move {i} ({quoted(text)}) cannot be played: {e}") from None
    except ValueError as e:                 # (IllegalMoveError: names the move)
        raise ValueError(f"move {i}: {e}{resolve_hint(game, Move.parse(text))}") from None


def final_game(rec: dict[str, Any]) -> Game:
    """The Game at the end of a record (every move replayed)."""
    return _replayed(rec, len(rec["moves"]))


def game_before(rec: dict[str, Any], move: int) -> Game:
    """The Game of a validated record just before its move `move` is played: the
    position its mover decided in, the moves before it replayed.  Moves are numbered
    from 1 over the whole record, both players and every window (a counter, a
    discard) alike, as `cuttle replay` and the review number them: move 1 is played
    from the start, and the move played at `move` is ``rec["moves"][move - 1]`` (not
    played here: `play_recorded` plays it and checks it).  Of a record with cards not
    seen, an analysis refuses the game where it does not give its mover's view
    (`check_view`).  ValueError, saying the record's range, for a number outside 1 to
    the record's move count, and naming the move for one before it that cannot be
    played."""
    n = len(rec["moves"])
    if not n:
        raise ValueError("the record has no moves")
    if not is_int(move) or not 1 <= move <= n:
        raise ValueError(f"there is no move {quoted(move)}: the record's moves are 1 to "
                         f"{n}")
    return _replayed(rec, move - 1)


def _replayed(rec: dict[str, Any], count: int) -> Game:
    """The Game of a record after its first `count` moves, each checked."""
    g = start_game(rec)
    for i, m in enumerate(rec["moves"][:count], 1):
        play_recorded(g, i, m)
    return g
