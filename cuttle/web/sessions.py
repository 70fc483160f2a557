"""Web games: one `Session` per game (a person against a bot), kept by a `SessionStore`.

A session owns its `Game`, the bot (`Thinker`), who played each move, and the person's
decisions and what they have seen (for undo, which deals the cards hidden from them
again where the moves taken back had shown them some: `cuttle.redeal`).  Every change happens on the event loop; the bot's search and
the hint run in worker threads on copies of the game, so a worker never reads a game
that is changing.  The store caps the number of games in progress (and, apart, of
finished ones) and forgets idle ones; a finished game drops its bot (and its search
trees) at once.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import secrets
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..game import Game
from ..narration import as_yours, narrate
from ..policies import MAX_ISMCTS_ITERATIONS, canonical_policy, is_search
from ..position import reconcile
from ..record import make_record
from ..redeal import NoRedeal, Redealt, Sightings
from ..rules import Rules
from ..seeding import SEED_LIMIT, SEED_WORDS, derive, seed_or_new
from ..text import quoted
from ..validation import read_whole
from .thinking import Control, Thinker

if TYPE_CHECKING:
    from ..moves import Move
    from ..review import Review
    from .review import ReviewJob

__all__ = ["BOTS", "GameSettings", "MAX_WEB_ITERATIONS", "Session", "SessionStore",
           "WebError", "check_fields", "parse_settings", "text_field", "whole_field"]

BOTS = ("random", "greedy", "expert", "ismcts", "ismcts-infer")
SEARCH_BOTS = tuple(b for b in BOTS if is_search(b))     # (they take a strength: ismcts:N)
_BOT_NAMES = [f"{b}:N" if b in SEARCH_BOTS else b for b in BOTS]
_BOT_CHOICES = ", ".join(_BOT_NAMES[:-1]) + " or " + _BOT_NAMES[-1]   # (in errors)
MAX_WEB_ITERATIONS = 100_000    # ~0.35 s a move; the ladder shows no gain past ~10,000
MAX_TEXT = 4000                 # rule or position text, characters


class WebError(Exception):
    """A request the server refuses: an HTTP status and a message for the person."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message

    def __reduce__(self):
        return type(self), (self.status, self.message)


@dataclass(frozen=True)
class GameSettings:
    """What the start page asks: the rules, the bot, the person's seat, a seed and an
    optional starting position (text)."""

    rules: Rules
    bot: str
    seat: int
    seed: int
    position: str | None = None


SETTINGS_FIELDS = ("rules", "bot", "seat", "seed", "position")


def check_fields(d: Any, fields: tuple[str, ...]) -> dict:
    """`d`, a request's JSON body, if it is an object of no other fields than `fields`;
    WebError (400) naming the unknown ones (every body the server reads is checked
    so: a misspelt field is refused, not dropped)."""
    takes = ", ".join(fields) or "none"
    if not isinstance(d, dict):
        raise WebError(400, f"expected a JSON object (fields: {takes})")
    unknown = sorted(set(d) - set(fields))
    if unknown:
        raise WebError(400, f"unknown field(s): {', '.join(map(quoted, unknown))} (this "
                            f"request takes {takes})")
    return d


def text_field(d: dict, key: str, default: str | None = "") -> str | None:
    """Field `key` of a request's body, text, the spaces around it stripped; left out or
    null: `default`.  WebError 400 if it is not text, 413 past `MAX_TEXT` characters."""
    v = d.get(key)
    if v is None:
        return default
    if not isinstance(v, str):
        raise WebError(400, f"{key} must be text, not {_as_json(v)}")
    if len(v) > MAX_TEXT:
        raise WebError(413, f"{key} is too long ({len(v):,} characters; at most "
                            f"{MAX_TEXT:,})")
    return v.strip()


def whole_field(d: dict, key: str, default: int | None = None, minimum: int | None = None,
                maximum: int | None = None, words: str | None = None) -> int | None:
    """Field `key` of a request's body, a whole number (seat, seed, ply, rollouts): the
    one reader of them all.  A JSON number that is whole, or its text as ``--seed``
    reads it (``"12"``, ``"1_000"``, ``" 0x1F "``: a seed may pass JavaScript's whole
    numbers), from `minimum` to `maximum`; left out, null or empty text: `default`.
    WebError (400) "KEY must be WORDS, not VALUE" otherwise (``1.0`` and ``true`` are
    no whole numbers), VALUE as the body spelt it (`cuttle.validation.read_whole`)."""
    v = d.get(key)
    if v is None or (isinstance(v, str) and not v.strip()):
        return default
    try:
        return read_whole(v, key, minimum, maximum, words, spell=_as_json)
    except ValueError as e:
        raise WebError(400, str(e)) from None


def _as_json(v: object) -> str:
    """`v` as JSON spells it (true, null, "text"), quoted as any input is (`quoted`)."""
    return quoted(v, spell=lambda x: json.dumps(x, ensure_ascii=False))


def parse_settings(d: Any) -> GameSettings:
    """The settings of a new game from the start page's JSON; WebError (400) saying
    what is wrong.  A field left out, null or (a text) empty takes its default: classic,
    greedy, seat 0, a new seed, no position.  The seat and the seed are whole numbers
    (`whole_field`)."""
    d = check_fields(d, SETTINGS_FIELDS)
    try:
        rules = Rules.parse(text) if (text := text_field(d, "rules")) else None
    except ValueError as e:
        raise WebError(400, f"rules: {e}") from None
    bot = (text_field(d, "bot") or "greedy").lower()
    if bot.partition(":")[0] not in BOTS:   # (before the library's, naming all its policies)
        raise WebError(400, f"bot: choose one of {_BOT_CHOICES}, not {quoted(bot)}")
    try:
        bot = canonical_policy(bot)         # (a search's name with its count)
    except ValueError as e:
        raise WebError(400, f"bot: {e}") from None
    kind, _, param = bot.partition(":")
    if kind in SEARCH_BOTS and int(param) > MAX_WEB_ITERATIONS:
        raise WebError(400, f"bot: at most {kind}:{MAX_WEB_ITERATIONS} here "
                            f"(the policy itself takes up to {MAX_ISMCTS_ITERATIONS:,})")
    seat = whole_field(d, "seat", 0, 0, 1, "0 or 1")
    seed = whole_field(d, "seed", None, 0, SEED_LIMIT - 1, SEED_WORDS)
    position = text_field(d, "position") or None
    if position is not None:
        rules, seed = _position_settings(position, rules, seed)
    return GameSettings(Rules() if rules is None else rules, bot, seat, seed_or_new(seed),
                        position)


def _position_settings(position: str, rules: Rules | None,
                       seed: int | None) -> tuple[Rules | None, int | None]:
    """The rules and seed of a game from `position`, given the request's (None: not
    given), as `cuttle.position.reconcile` settles them; WebError (400) when the two
    disagree."""
    try:
        return reconcile(position, rules, seed)
    except ValueError as e:
        raise WebError(400, f"position: {e}") from None


def bot_seed(s: GameSettings) -> int:
    """The bot's seed: derived from the game's, so a seeded game replays exactly."""
    return derive(s.seed, 1)


def new_game(s: GameSettings) -> Game:
    """The starting Game of the settings (a deal, or the position with the settings'
    rules and seed, which `parse_settings` reconciled with the position's own)."""
    if s.position is None:
        return Game(s.rules, s.seed)
    try:
        g = Game.from_text(s.position, rules=s.rules, seed=s.seed)
    except ValueError as e:
        raise WebError(400, f"position: {e}") from None
    if g.is_over:
        raise WebError(400, "position: the game is already over there")
    return g


@dataclass(eq=False)
class Session:
    """One web game.  Read `game` only on the event loop; workers get copies."""

    id: str
    token: str
    settings: GameSettings
    game: Game
    thinker: Thinker | None
    position: str | None                     # the starting position's text, if any
    movers: list[int] = field(default_factory=list)        # who played each move
    # what each move did, as the person saw it (cuttle.narration)
    effects: list[str] = field(default_factory=list)
    decisions: list[tuple[int, bool]] = field(default_factory=list)  # (ply, forced)
    status: str = "playing"                  # playing, over, resigned
    last_seen: float = field(default_factory=time.monotonic)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    control: Control | None = None           # the running bot decision, if any
    hinting: bool = False
    reviewing: ReviewJob | None = None       # the running review of the finished game
    review: Review | None = None             # its last review (complete or stopped)
    # what the person has seen, for undo (its re-deals drawn from the game's seed)
    sightings: Sightings = field(init=False)

    def __post_init__(self) -> None:
        self.sightings = Sightings(self.game, self.settings.seat, self.settings.seed)

    @property
    def human(self) -> int:
        """The person's seat."""
        return self.settings.seat

    @property
    def bot_name(self) -> str:
        """The bot's policy name, e.g. ``ismcts:1000``."""
        return self.settings.bot

    @property
    def finished(self) -> bool:
        """Whether the game is over or resigned."""
        return self.status != "playing"

    def stop_work(self) -> None:
        """Abort the bot's decision and stop the review, if running (the game is closed,
        expired, or the server is stopping)."""
        if self.control is not None:
            self.control.abort()
        if self.reviewing is not None:
            self.reviewing.stop()

    def check_token(self, token: str | None) -> None:
        """WebError (403) unless `token` is this game's token."""
        if not token or not hmac.compare_digest(token.encode(), self.token.encode()):
            raise WebError(403, "missing or wrong game token (reload the game's page)")

    def human_to_move(self) -> bool:
        """Whether the person decides now."""
        return not self.finished and self.game.to_move == self.human

    def bot_to_move(self) -> bool:
        """Whether the bot decides now."""
        return not self.finished and self.game.to_move == 1 - self.human

    # -- changes (event loop only) ----------------------------------------------------

    def check_not_thinking(self) -> None:
        """WebError (409) while the bot decides: nothing else may change the game, and no
        second decision starts (the one home of these words)."""
        if self.control is not None:
            raise WebError(409, "the bot is thinking: wait for its move or stop it")

    def check_ply(self, ply: int | None) -> None:
        """WebError (409) when a request made at move `ply` (None: any) comes after the
        game moved on."""
        if ply is not None and ply != self.game.ply:
            raise WebError(409, f"the game has moved on (it is at move {self.game.ply}, not "
                                f"{ply}): reload the state")

    def play_human(self, text: str, ply: int | None) -> Move:
        """The person's move, checked by the engine; WebError saying why it is refused."""
        g = self.game
        if self.finished:
            raise WebError(409, "the game is over")
        self.check_not_thinking()
        self.check_ply(ply)
        if g.to_move != self.human:
            raise WebError(409, "it is not your decision: the bot is to move")
        forced = len(g.legal_moves) == 1
        before = g.copy()
        try:
            move = g.play(text)
        except ValueError as e:             # IllegalMoveError and InvalidMoveError
            raise WebError(422, as_yours(str(e), self.human)) from None
        self.movers.append(self.human)
        self.decisions.append((g.ply - 1, forced))
        self._after_move(before)
        return move

    def play_bot(self, move: Move) -> None:
        """Play the bot's move (chosen on a copy of the game)."""
        before = self.game.copy()
        self.game.play(move)
        self.movers.append(1 - self.human)
        self._after_move(before)

    def _after_move(self, before: Game) -> None:
        self.effects.append(narrate(before, self.game, viewer=self.human))
        if self.game.is_over:
            self.status = "over"
            self.thinker = None                 # free the search trees now

    def undo(self) -> tuple[list[tuple[int, Move]], Redealt | None]:
        """Take back the person's last real decision (forced ones before it too) and
        every bot move after it; returns the (player, move) taken back, oldest first,
        and what was dealt again (None: nothing; `cuttle.redeal.Sightings.take_back`).
        WebError (409), the game untouched, where no new deal agrees with what the
        person saw."""
        if self.finished:
            raise WebError(409, "the game is over: it cannot be taken back")
        self.check_not_thinking()
        if not self.decisions:
            raise WebError(409, "nothing to undo: you have not made a move yet")
        keep = len(self.decisions) - 1
        while keep > 0 and self.decisions[keep][1]:     # (forced: taken back too)
            keep -= 1
        target = self.decisions[keep][0]
        try:
            back, redealt = self.sightings.take_back(self.game, target)
        except NoRedeal as e:
            raise WebError(409, f"that cannot be taken back: {e}") from None
        undone = list(zip(self.movers[target:], self.game.moves[target:]))
        del self.decisions[keep:], self.movers[target:], self.effects[target:]
        self.game = back
        if redealt is not None:          # (the record starts from the new deal)
            start = back.copy()
            while start.ply:
                start.undo()
            self.position = start.position_text(rules=False)
        return undone, redealt

    def resign(self) -> None:
        """The person gives up: the game is finished (its bot's work aborted)."""
        if self.finished:
            raise WebError(409, "the game is over")
        if self.control is not None:
            self.control.abort()
        self.status = "resigned"
        self.thinker = None

    # -- the record ------------------------------------------------------------------

    def stop_status(self) -> str:
        """The record's status of the game now: over, resigned, or quit (closed)."""
        if self.game.is_over:
            return "over"
        return "resigned" if self.status == "resigned" else "quit"

    def record(self) -> dict[str, Any]:
        """The game record (`cuttle.record`), read by `cuttle replay`."""
        players = ["human", "human"]
        players[1 - self.human] = self.bot_name
        rec = make_record(self.game, players=players, human_seat=self.human,
                          position=self.position, status=self.stop_status(),
                          redealt=self.sightings.redealt)
        rec["bot"] = {"name": self.bot_name, "seed": bot_seed(self.settings)}
        return rec


class SessionStore:
    """The web games: at most `max_sessions` in progress (a new one past it is refused);
    a finished game (over or resigned) no longer counts among those, but stays (its
    state, record and review) until it expires, at most `max_finished` of them (the
    least recently seen forgotten first past that).  A game idle for `idle_seconds` (a
    finished one: `finished_seconds`) is forgotten."""

    def __init__(self, max_sessions: int = 100, idle_seconds: float = 3600.0,
                 finished_seconds: float = 600.0, max_finished: int | None = None) -> None:
        self.max_sessions = max_sessions
        self.max_finished = max_sessions if max_finished is None else max_finished
        self.idle_seconds = idle_seconds
        self.finished_seconds = finished_seconds
        self._sessions: dict[str, Session] = {}

    def __len__(self) -> int:
        return len(self._sessions)

    @property
    def playing(self) -> int:
        """The number of games in progress (not finished), the ones the cap counts."""
        return sum(not s.finished for s in self._sessions.values())

    def create(self, settings: GameSettings) -> Session:
        """A new game of `settings`; WebError 503 when `max_sessions` games are in
        progress."""
        self.expire()
        if self.playing >= self.max_sessions:
            n = self.max_sessions
            raise WebError(503, f"{n} {'game is' if n == 1 else 'games are'} in progress, "
                                f"the most this server keeps: finish or close one, or try "
                                f"again later")
        game = new_game(settings)
        position = game.position_text(rules=False) if settings.position else None
        sid = secrets.token_urlsafe(12)
        s = Session(id=sid, token=secrets.token_urlsafe(24), settings=settings, game=game,
                    thinker=Thinker(settings.bot, bot_seed(settings)),
                    position=position)
        self._sessions[sid] = s
        return s

    def get(self, sid: str) -> Session:
        """The live game `sid` (marked as seen now); WebError 404 if none."""
        s = self._sessions.get(sid)
        if s is None:
            raise WebError(404, "no such game: it has ended or expired (start a new one)")
        s.last_seen = time.monotonic()
        return s

    def close(self, sid: str) -> None:
        """Forget game `sid`, aborting its bot's work and its review."""
        s = self._sessions.pop(sid, None)
        if s is not None:
            s.stop_work()

    def expire(self, now: float | None = None) -> int:
        """Forget idle games and the finished ones past `max_finished`, least recently
        seen first (aborting their bot's work and reviews); returns how many.  (Run
        before each new game and every minute: the games kept never number more than
        `max_sessions` + `max_finished`.)"""
        now = time.monotonic() if now is None else now
        old = [sid for sid, s in self._sessions.items()
               if now - s.last_seen > (self.finished_seconds if s.finished
                                       else self.idle_seconds)]
        finished = sorted((s for s in self._sessions.values()
                           if s.finished and s.id not in old), key=lambda s: s.last_seen)
        old += [s.id for s in finished[:max(0, len(finished) - self.max_finished)]]
        for sid in old:
            self.close(sid)
        return len(old)

    def abort_all(self) -> None:
        """Abort every running bot decision and review (the server is stopping)."""
        for s in self._sessions.values():
            s.stop_work()
