"""The HTTP side: routes, request checks, errors, and the app (`cuttle.web.app`).

Pages: ``GET /`` (start a game), ``GET /game/{id}`` (play it), ``GET /game/{id}/review``
(the review's replay page, once the game is reviewed).  JSON API, every game
route carrying the game's token in the ``X-Cuttle-Token`` header:

    POST   /api/games                 start a game (header: the start page's token)
    GET    /api/games/{id}            the person's view (state)
    POST   /api/games/{id}/move       {"move": "points 7H", "ply": 12}
    POST   /api/games/{id}/bot        the bot's next decision (waits for it; one at a time)
    POST   /api/games/{id}/stop       stop the bot's search: it plays its best move so far
    POST   /api/games/{id}/undo       take back your last decision (the cards hidden from
                                      you dealt again where those moves had shown some)
    POST   /api/games/{id}/hint       {"rollouts": 1000, "policy": "expert"}
    POST   /api/games/{id}/resign
    GET    /api/games/{id}/record     the game record (once the game is finished)
    GET    /api/games/{id}/review     the review of your moves (once the game is finished)
    POST   /api/games/{id}/review/stop  stop it: the decisions reviewed so far are kept
    DELETE /api/games/{id}            forget the game
    GET    /api/rules?text=...        check rule text (and say whether it decides games)

A refused request gets a 4xx status and ``{"error": "what is wrong"}``; the engine
checks every move.  Rules under which every game is a draw are played, their
``"warning"`` in the rules' check and in the game's state (not a line on the server's
stderr for each request).  Nothing a request sends is ignored: a body field or a query
parameter a route does not take is refused by name (400), not dropped.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import functools
import hmac
import json
import logging
import os
import secrets
from concurrent.futures import ThreadPoolExecutor
from html import escape
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

from .._optional import missing

try:
    from starlette.applications import Starlette
    from starlette.exceptions import HTTPException
    from starlette.middleware import Middleware
    from starlette.requests import Request
    from starlette.responses import HTMLResponse, JSONResponse, Response
    from starlette.routing import Mount, Route
    from starlette.staticfiles import StaticFiles
except ImportError as e:
    raise missing(e, "cuttle.web") from None

from ..errors import Interrupted
from ..game import check_view
from ..hints import DEFAULT_HINT_ROLLOUTS, HINT_POLICY, hint as hint_of
from ..rules import Rules, no_degenerate_warning
from ..text import quoted
from .guard import Guard, host_names
from .review import ReviewJob, page_headers, review_view
from .sessions import (MAX_TEXT, Session, SessionStore, WebError, check_fields,
                       parse_settings, text_field, whole_field)
from .thinking import Control
from .views import analysis_view, game_page, rules_view, start_page, state_view

__all__ = ["TOKEN_HEADER", "app"]

log = logging.getLogger("cuttle.web")

TOKEN_HEADER = "x-cuttle-token"
MAX_BODY = 16 * 1024
MAX_HINT_ROLLOUTS = 5000
# The hint's playouts, as docs/web.md lists them (by default the review's engine's,
# `hints.HINT_POLICY`).  analyse also takes cuttle.cards-ai, some 35 times slower than
# greedy: seconds a hint at 5,000 playouts a move, the game's lock held all along.
HINT_POLICIES = ("random", "greedy", "expert")
# The pages' query: game.js reads ?delay=MS (the pause before each bot move), and the
# start page passes its own query on to the game's page.
PAGE_QUERY = ("delay",)
EXPIRE_EVERY = 60.0             # seconds between sweeps of idle games


class WebState:
    """What the routes share: the games, the worker threads and the start token."""

    def __init__(self, store: SessionStore, workers: int | None) -> None:
        self.store = store
        self.workers = workers or max(2, os.cpu_count() or 2)
        self.start_token = secrets.token_urlsafe(24)
        self.stopping = False
        self._pool: ThreadPoolExecutor | None = None

    @property
    def pool(self) -> ThreadPoolExecutor:
        if self._pool is None:
            self._pool = ThreadPoolExecutor(self.workers, thread_name_prefix="cuttle-web")
        return self._pool

    async def run(self, fn: Callable[..., Any], *args: Any, **kw: Any) -> Any:
        """fn(*args, **kw) in a worker thread; WebError 503 once the server is stopping."""
        if self.stopping:
            raise WebError(503, "the server is stopping")
        loop = asyncio.get_running_loop()
        # (in the request's context, as asyncio.to_thread runs it: `no_degenerate_warning`)
        context = contextvars.copy_context()
        return await loop.run_in_executor(self.pool, functools.partial(
            context.run, fn, *args, **kw))

    def stop_work(self) -> None:
        """The server is stopping: abort every bot decision, review and hint and start no new
        work.  (`cuttle serve` calls it as soon as the server begins to stop, before the
        requests in flight, which wait for that work, are waited for.)"""
        self.stopping = True
        self.store.abort_all()

    def shutdown(self) -> None:
        self.stop_work()
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None


# -- request helpers ------------------------------------------------------------------

def _web(request: Request) -> WebState:
    return request.app.state.cuttle


async def read_json(request: Request, empty_ok: bool = True) -> Any:
    """The request's JSON body (at most MAX_BODY bytes); {} for an empty body."""
    size = request.headers.get("content-length")
    if size is not None and (not size.isdigit() or int(size) > MAX_BODY):
        said = f"{int(size):,} bytes; " if size.isdigit() and len(size) < 20 else ""
        raise WebError(413, f"the request body is too large ({said}at most {MAX_BODY:,} "
                            f"bytes)")
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise WebError(413, f"the request body is too large (more than {MAX_BODY:,} "
                                f"bytes)")
    if not body.strip():
        if empty_ok:
            return {}
        raise WebError(400, "expected a JSON body")
    ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if ctype != "application/json":
        raise WebError(415, "send the body as JSON (Content-Type: application/json)")
    try:
        return json.loads(body)
    except (ValueError, RecursionError) as e:
        raise WebError(400, f"the body is not valid JSON: {e}") from None


async def no_body(request: Request) -> None:
    """Refuse a body with any field (400): the route takes none (an empty body or {})."""
    check_fields(await read_json(request), ())


def check_query(request: Request, accepted: tuple[str, ...]) -> None:
    """WebError (400) naming a query parameter the route does not take, or one given
    more than once, with the ones it takes (a misspelt ``?sed=3`` would otherwise do
    nothing, silently)."""
    names = [k for k, _ in request.query_params.multi_items()]
    takes = ", ".join(accepted) or "none"
    unknown = sorted(set(names) - set(accepted))
    if unknown:
        raise WebError(400, f"unknown query parameter(s): {', '.join(map(quoted, unknown))} "
                            f"(this address takes {takes})")
    twice = sorted({k for k in names if names.count(k) > 1})
    if twice:
        raise WebError(400, f"query parameter(s) given more than once: "
                            f"{', '.join(map(quoted, twice))}")


def _query_checked(endpoint: Callable[[Request], Any], accepted: tuple[str, ...],
                   page: bool) -> Callable[[Request], Any]:
    """`endpoint` behind `check_query` (a page's refusal is a page, an API's JSON), run
    without `DegenerateRulesWarning`s (with its work in the worker threads: `WebState.run`):
    the answers carry the warning (`rules_view`, `state_view`), which the server's
    stderr would repeat for every request, unseen by the person."""
    @functools.wraps(endpoint)
    async def checked(request: Request) -> Response:
        try:
            check_query(request, accepted)
        except WebError as e:
            if page:
                return _html_error(e)
            raise
        with no_degenerate_warning():
            return await endpoint(request)
    return checked


def _ply(data: dict) -> int | None:
    """The move a request was made at (None: any); the game's count of moves, 0 or more."""
    return whole_field(data, "ply", None, 0)


def _session(request: Request) -> Session:
    s = _web(request).store.get(request.path_params["gid"])
    s.check_token(request.headers.get(TOKEN_HEADER))
    return s


def _state(s: Session, status: int = 200) -> JSONResponse:
    return JSONResponse(state_view(s), status)


# -- pages ----------------------------------------------------------------------------

async def home(request: Request) -> Response:
    return HTMLResponse(start_page(_web(request).start_token))


async def game_html(request: Request) -> Response:
    try:
        s = _web(request).store.get(request.path_params["gid"])
    except WebError as e:
        return _html_error(e)
    return HTMLResponse(game_page(s))


# -- the API --------------------------------------------------------------------------

async def check_rules(request: Request) -> Response:
    text = request.query_params.get("text", "")
    if len(text) > MAX_TEXT:
        raise WebError(413, f"the rule text is too long ({len(text):,} characters; at "
                            f"most {MAX_TEXT:,})")
    try:
        return JSONResponse(rules_view(Rules.parse(text or "classic")))
    except ValueError as e:
        raise WebError(400, str(e)) from None


async def create_game(request: Request) -> Response:
    web = _web(request)
    token = request.headers.get(TOKEN_HEADER) or ""
    if not hmac.compare_digest(token.encode(), web.start_token.encode()):
        raise WebError(403, "missing or wrong start token (reload the start page)")
    settings = parse_settings(await read_json(request, empty_ok=False))
    s = web.store.create(settings)
    return JSONResponse({"id": s.id, "url": f"/game/{s.id}"}, 201)


async def get_state(request: Request) -> Response:
    return _state(_session(request))


async def play_move(request: Request) -> Response:
    s = _session(request)
    data = check_fields(await read_json(request, empty_ok=False), ("move", "ply"))
    text = text_field(data, "move", None)
    if text is None:
        raise WebError(400, "expected {\"move\": \"MOVE\"}, e.g. {\"move\": \"draw\"}")
    if len(text) > 64:
        raise WebError(400, "that is not a move (too long)")
    ply = _ply(data)
    s.check_not_thinking()          # (at once: the bot holds the lock while it decides)
    async with s.lock:
        s.play_human(text, ply)
    return _state(s)


async def bot_move(request: Request) -> Response:
    s = _session(request)
    ply = _ply(check_fields(await read_json(request), ("ply",)))
    web = _web(request)
    s.check_not_thinking()          # (at once: one decision at a time, its move untouched)
    async with s.lock:
        if s.finished:
            raise WebError(409, "the game is over")
        if not s.bot_to_move():
            raise WebError(409, "it is your decision, not the bot's")
        s.check_ply(ply)
        control = s.control = Control()
        try:
            move = await web.run(s.thinker.decide, s.game.copy(), control)
        finally:
            s.control = None
        if control.aborted:     # (the state now would be the game before what aborted it)
            raise WebError(503, "the server is stopping") if web.stopping else \
                WebError(409, "the bot's move was dropped: the game was taken back, "
                              "resigned or closed while it thought (reload the state)")
        if move is not None and not s.finished:
            s.play_bot(move)
    return _state(s)


async def stop_bot(request: Request) -> Response:
    s = _session(request)
    await no_body(request)
    return _stop(s.control)


def _stop(work: Control | ReviewJob | None) -> Response:
    """Stop the running work (a bot's search, a review), if any: it keeps what it did."""
    if work is not None:
        work.stop()
    return JSONResponse({"stopping": work is not None})


async def undo(request: Request) -> Response:
    s = _session(request)
    await no_body(request)
    if s.control is not None:
        s.control.abort()                   # the bot's pending move is dropped
    async with s.lock:
        undone, redealt = s.undo()
    d = state_view(s)
    # The bot's moves taken back go back to its hidden hand: only their number is sent,
    # and of a re-deal only how many cards the moves had shown (they are hidden again).
    d["undone"] = [str(m) for p, m in undone if p == s.human]
    d["undone_bot"] = sum(p != s.human for p, _ in undone)
    d["redealt"] = None if redealt is None else {"shown": len(redealt.peeked),
                                                 "dealt": redealt.dealt,
                                                 "hand": redealt.hand}
    return JSONResponse(d)


async def hint(request: Request) -> Response:
    s = _session(request)
    data = check_fields(await read_json(request), ("rollouts", "policy"))
    rollouts = whole_field(data, "rollouts", DEFAULT_HINT_ROLLOUTS, 1, MAX_HINT_ROLLOUTS)
    policy = text_field(data, "policy", HINT_POLICY).lower()
    if policy not in HINT_POLICIES:
        raise WebError(400, f"policy must be one of {', '.join(HINT_POLICIES)}, "
                            f"not {quoted(policy)}")
    if s.hinting:
        raise WebError(409, "a hint is already being worked out")
    s.check_not_thinking()          # (at once: it is the bot's decision, not yours)
    async with s.lock:
        if not s.human_to_move():
            raise WebError(409, "a hint is for your own decision")
        game = s.game.copy()
        try:
            check_view(game)    # (a hand of the position's '?', dealt by the seed)
        except ValueError as e:
            raise WebError(409, str(e)) from None
        s.hinting = True
        web = _web(request)
        try:        # (a stopping server cancels it between its native calls)
            a = await web.run(hint_of, game, rollouts, policy=policy, threads=1,
                              cancel=lambda: web.stopping)
        except Interrupted:
            raise WebError(503, "the server is stopping") from None
        finally:
            s.hinting = False
    return JSONResponse(analysis_view(a, game.ply))


async def resign(request: Request) -> Response:
    s = _session(request)
    await no_body(request)
    if s.control is not None:
        s.control.abort()
    async with s.lock:
        s.resign()
    return _state(s)


async def record(request: Request) -> Response:
    s = _session(request)
    if not s.finished:
        raise WebError(409, "the record is given once the game is finished (or resigned)")
    return JSONResponse(s.record(), headers={
        "content-disposition": f'attachment; filename="cuttle-game-{s.id}.json"'})


async def review(request: Request) -> Response:
    """The review of the person's moves: run once (in a worker thread; a second request
    waits for the same run), kept once complete; a stopped one answers with what it
    finished."""
    s = _session(request)
    if not s.finished:
        raise WebError(409, "the review is for a finished game")
    if s.review is not None and s.review.complete:
        return JSONResponse(review_view(s.review, _review_page_url(s)))
    job = s.reviewing
    if job is None:
        job = s.reviewing = ReviewJob.of_game(s.record(), s.human, s.settings.seed)
        job.task = asyncio.ensure_future(_web(request).run(job.run))
        job.task.add_done_callback(functools.partial(_reviewed, s, job))
    r = await asyncio.shield(job.task)
    return JSONResponse(review_view(r, _review_page_url(s)))


def _reviewed(s: Session, job: ReviewJob, task: asyncio.Future) -> None:
    """A review ended: keep it (unless it failed) and free the session's slot."""
    if s.reviewing is job:
        s.reviewing = None
    if not task.cancelled() and task.exception() is None:
        s.review = task.result()


def _review_page_url(s: Session) -> str:
    return f"/game/{s.id}/review"


async def stop_review(request: Request) -> Response:
    s = _session(request)
    await no_body(request)
    return _stop(s.reviewing)


async def review_html(request: Request) -> Response:
    try:
        s = _web(request).store.get(request.path_params["gid"])
    except WebError as e:
        return _html_error(e)
    if s.review is None:
        return _html_error(WebError(409, "this game has not been reviewed yet: review it "
                                         "from its page"), f"/game/{s.id}")
    html = await _web(request).run(s.review.page)
    return HTMLResponse(html, headers=page_headers(html))


def _html_error(e: WebError, back: str = "/") -> HTMLResponse:
    link = "start a new game" if back == "/" else "back to the game"
    return HTMLResponse(f"<!DOCTYPE html><title>{escape(e.message)}</title>"
                        f"<p>{escape(e.message)}</p><p><a href=\"{back}\">{link}</a></p>",
                        e.status)


async def close_game(request: Request) -> Response:
    s = _session(request)
    await no_body(request)
    _web(request).store.close(s.id)
    return Response(status_code=204)


# -- errors ---------------------------------------------------------------------------

async def web_error(request: Request, exc: WebError) -> Response:
    return JSONResponse({"error": exc.message}, exc.status)


async def http_error(request: Request, exc: HTTPException) -> Response:
    detail = {404: "no such page", 405: "method not allowed here"}.get(exc.status_code,
                                                                       str(exc.detail))
    return JSONResponse({"error": detail}, exc.status_code, headers=exc.headers)


async def server_error(request: Request, exc: Exception) -> Response:
    log.exception("unexpected error on %s %s", request.method, request.url.path)
    return JSONResponse({"error": "internal error (a bug: please report it)"}, 500)


# -- the app --------------------------------------------------------------------------

def app(*, max_sessions: int = 100, idle_seconds: float = 3600.0,
        finished_seconds: float = 600.0, workers: int | None = None,
        allowed_hosts: Iterable[str] | str | None = (),
        max_finished: int | None = None) -> Any:
    """The web app (an ASGI app, Starlette) that `cuttle serve` runs.

    max_sessions: games in progress at once (a new game past it gets 503; a finished
    game does not count); max_finished: finished games kept besides, for their record
    and review (default: max_sessions; past it the least recently seen is forgotten);
    idle_seconds / finished_seconds: a game (a finished one) untouched that long is
    forgotten; workers: threads for the bots' searches and hints (default: the cores,
    at least 2); allowed_hosts: host names the server answers to besides its IP
    addresses, localhost and this machine's name, against DNS rebinding (`host_names`;
    '*' or None: any; ValueError for one that is no host name).
    """
    hosts = host_names(allowed_hosts)
    web = WebState(SessionStore(max_sessions, idle_seconds, finished_seconds,
                                max_finished), workers)

    @contextlib.asynccontextmanager
    async def lifespan(_app):
        async def sweep():
            while True:
                await asyncio.sleep(EXPIRE_EVERY)
                web.store.expire()
        task = asyncio.create_task(sweep())
        try:
            yield
        finally:
            task.cancel()
            web.shutdown()

    def route(path, endpoint, method=None, query=(), page=False):
        # every route's query checked: only `query` is taken
        return Route(path, _query_checked(endpoint, query, page),
                     methods=None if method is None else [method])

    gid = "/api/games/{gid}"
    routes = [
        route("/", home, query=PAGE_QUERY, page=True),
        route("/game/{gid}", game_html, query=PAGE_QUERY, page=True),
        route("/api/rules", check_rules, query=("text",)),
        route("/api/games", create_game, "POST"),
        route(gid, get_state, "GET"),
        route(gid, close_game, "DELETE"),
        route(gid + "/move", play_move, "POST"),
        route(gid + "/bot", bot_move, "POST"),
        route(gid + "/stop", stop_bot, "POST"),
        route(gid + "/undo", undo, "POST"),
        route(gid + "/hint", hint, "POST"),
        route(gid + "/resign", resign, "POST"),
        route(gid + "/record", record, "GET"),
        route(gid + "/review", review, "GET"),
        route(gid + "/review/stop", stop_review, "POST"),
        route("/game/{gid}/review", review_html, page=True),
        # (static files: any query, such as a cache-buster, is the browser's business)
        Mount("/static", StaticFiles(packages=[("cuttle.web", "static")]), name="static"),
    ]
    application = Starlette(
        routes=routes, lifespan=lifespan,
        middleware=[Middleware(Guard, hosts=hosts)],
        exception_handlers={WebError: web_error, HTTPException: http_error,
                            Exception: server_error})
    application.state.cuttle = web
    return application
