"""`review()`: a whole game reviewed decision by decision, each from its mover's view."""

from __future__ import annotations

import math
import os
import time
from typing import TYPE_CHECKING, Any, NamedTuple

from .._decide import search_visits as _search_visits
from .._review import hindsight as _hindsight
from ..analysis import SearchAnalysis, search_rows
from ..errors import IllegalMoveError, Interrupted
from ..game import Game, check_view, missing_view
from ..moves import Move
from ..record import play_recorded, read_record, redealt_words, start_game, validate_record
from ..record_result import check_result, resigner, stopped
from ..seeding import derive, seed_or_new
from ..progress import Progress
from ..threads import check_threads
from ..text import quoted
from ..validation import check_cancel, check_int
from .engines import DEFAULT_ENGINE, MoveValues, evaluate, parse_engine, search_engine
from .figures import FORCED, Thresholds, move_accuracy, seat_words
from .result import Decision, MoveScore, Review

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from .engines import Engine

__all__ = ["analyse_search", "judge", "review", "wins_at_once"]

DECISION_KEY = 0            # derive(seed, DECISION_KEY, ply): a decision's samples
HINDSIGHT_KEY = 1           # derive(seed, HINDSIGHT_KEY, step): a hindsight value
VISITS_KEY = 1              # derive(seed, VISITS_KEY): analyse_search's free search


def decision_seed(seed: int, index: int) -> int:
    """The seed of decision `index` of a review seeded `seed` (`index`: its move's place
    among the game's moves from its start, 0 for the first, so a record's move K is
    K - 1): the one home of that rule, which `review` and `analyse_search(decision=)`
    follow."""
    return derive(seed, DECISION_KEY, index)


class _Cancelled(Exception):
    """The caller's cancel said stop."""


class _Source(NamedTuple):
    """What a review reads of a Game, a record (dict) or a record file."""

    start: Game
    texts: list[str]            # the moves
    names: tuple[str, str]
    where: str                  # the record file's path, or ""
    stopped: str | None         # why the record says a game the rules did not end stopped
    deal: int                   # the record's deal index (0 for a Game)
    record: dict[str, Any] | None     # the validated record (None for a Game)


def _load(source: Any) -> _Source:
    """The `_Source` of a Game, a record (dict) or a record file (a Game's has no
    result, a stop nor a deal: the review names its seed alone)."""
    if isinstance(source, Game):
        start = source.copy()
        while start.ply:
            start.undo()
        return _Source(start, [str(m) for m in source.moves], ("player 0", "player 1"), "",
                       None, 0, None)
    if isinstance(source, dict):
        rec, where = validate_record(source), ""
    elif isinstance(source, (str, os.PathLike)):
        rec, where = read_record(source), os.fspath(source)
    else:
        raise ValueError(f"review takes a Game, a game record (dict) or a record file, "
                         f"not {type(source).__name__}")
    players = rec.get("players", ["player 0", "player 1"])
    return _Source(start_game(rec), list(rec["moves"]), tuple(players), where, stopped(rec),
                   rec.get("deal", 0), rec)


# Local argument checks (_players, the names; Thresholds and parse_engine check their
# own; `cancel` is validation.check_cancel's).
def _players(player: Any) -> tuple[int, ...]:
    if player is None or (isinstance(player, str) and player.strip().lower() == "both"):
        return (0, 1)
    if isinstance(player, bool) or player not in (0, 1):
        raise ValueError(f"player must be 0, 1, 'both' or None (both), not {quoted(player)}")
    return (int(player),)


def _seen_whole(players: tuple[int, ...], src: _Source, omniscient: bool,
                names: tuple[str, str]) -> tuple[tuple[int, ...], str | None]:
    """The players to review of `players`: of a record with cards not seen (``?``), or
    a Game replayed from one or from such a position, those whose view it gives whole
    (`game.missing_view`: their decisions then cannot depend on how those cards were
    dealt), and the line saying which of `players` is left out so (`Review.unseen`), or
    None.  ValueError for one player asked whose view it does not give, when neither's
    is given, and for hindsight (`omniscient`), which would read the cards the record
    or the position does not give."""
    if not src.start.dealt_unseen:
        return players, None
    what = "position" if src.start.dealt_from == "position" else "record"
    if omniscient:
        raise ValueError(f"hindsight values each position with every card as it lies, and "
                         f"this {what} does not give every card ("
                         + ("it has" if what == "position" else "its position has")
                         + " cards not seen, '?')")
    end = src.start.copy()
    for i, text in enumerate(src.texts, 1):
        play_recorded(end, i, text)
    gaps = {p: missing_view(end, p) for p in players}
    kept = tuple(p for p in players if gaps[p] is None)
    if len(players) == 1 and not kept:
        raise ValueError(f"player {players[0]} cannot be reviewed from this {what}, which "
                         f"does not give all they saw: {gaps[players[0]]}")
    if not kept:
        raise ValueError(f"neither player can be reviewed from this {what}, which does not "
                         f"give all either saw: {gaps[0]}; {gaps[1]}")
    left = [p for p in players if p not in kept]
    return kept, (f"{seat_words(left[0], names[left[0]])} is not reviewed: this {what} does "
                  f"not show all they saw (cards not seen, '?')." if left else None)


def _stopper(cancel: Any) -> Callable[[], None] | None:
    """A check that raises _Cancelled once `cancel` (`validation.check_cancel`) says so."""
    test = check_cancel(cancel)
    if test is None:
        return None

    def check():
        if test():
            raise _Cancelled
    return check


def judge(game: Game, played: Move | str | int, engine: str | Engine = "expert", *,
          seed: int | None = None, threads: int | None = None,
          thresholds: Thresholds | dict[str, float] | None = None,
          cancel: Any = None) -> Decision:
    """The review of one decision: `played` (a legal move of `game`'s decider) against
    every other legal move, each valued from the decider's own view (determinizations
    of what they may know) by `engine` (as in `review`).  The same seed gives the same
    figures for every game the decider cannot tell apart from this one.  Ctrl-C or
    `cancel` raise `cuttle.Interrupted` (with no result).  ValueError for a game
    replayed from a record that does not give the decider's view (`game.check_view`)."""
    # (a record or a file is no decision: review() reads those)
    if check_view(game).is_over:
        raise ValueError("the game is over: there is no decision to judge")
    legal = list(game.legal_moves)
    move = played if isinstance(played, Move) else \
        Move.from_code(played) if isinstance(played, int) else Move.parse(played)
    if move not in legal:
        raise IllegalMoveError(f"{quoted(str(move))} is not a legal move here; legal: "
                               f"{', '.join(map(str, legal))}")
    args = (parse_engine(engine), seed_or_new(seed), check_threads(threads),
            Thresholds.coerce(thresholds), _stopper(cancel))
    try:
        return _judge(game, move, *args, game.ply)
    except (KeyboardInterrupt, _Cancelled):
        raise Interrupted(None, 0, 1, "decision") from None


def _judge(game: Game, move: Move, eng: Engine, seed: int, threads: int, th: Thresholds,
           check: Callable[[], None] | None, ply: int) -> Decision:
    legal = list(game.legal_moves)
    p, turn, phase = game.to_move, game.turn_number, game.phase
    if len(legal) == 1:
        return Decision(ply, p, turn, phase, move, 1, FORCED)
    i = legal.index(move)
    mv = evaluate(game, i, eng, seed, threads, th, check)
    b = mv.best(i)
    scores = [MoveScore(m, mv.mean(k), mv.n[k]) for k, m in enumerate(legal)]
    cands = tuple(sorted(scores, key=lambda s: (-s.score, -s.samples, legal.index(s.move))))
    loss = 0.0 if b == i else max(0.0, scores[b].score - scores[i].score)
    low, high = mv.loss_bounds(i, b)
    wins = wins_at_once(game)
    missed = None if move in wins else \
        next((c.move for c in cands if c.move in wins), None)
    return Decision(ply, p, turn, phase, move, len(legal), th.label(loss, b == i), legal[b],
                    scores[i].score, scores[b].score, loss, move_accuracy(loss), cands,
                    low, high, th.label(low) == th.label(high), th, missed)


def wins_at_once(game: Game) -> list[Move]:
    """The legal moves of `game`'s decider after which the game is over, won by them:
    what decides it (their cards, the table's scores and goals) is in their view."""
    out = []
    for m in game.legal_moves:
        after = game.copy()
        after.play(m)
        if after.is_over and after.winner == game.to_move:
            out.append(m)
    return out


def analyse_search(game: Game, engine: str | Engine = "ismcts", *,
                   seed: int | None = None, threads: int | None = None,
                   cancel: Any = None, played: Move | str | None = None,
                   decision: int | None = None) -> SearchAnalysis:
    """Value every legal move of the player to decide by the strong search, from that
    player's view: the review's search engines, the machinery and budget of `judge`,
    with no move played (``cuttle analyse --engine``).

    engine: "ismcts:N" or "ismcts-infer:N" (N iterations a search; "ismcts" alone is
    ismcts:1000).  Each move gets searches from determinizations of the decider's view
    whose root may only play it, 2 to start, doubling for the best move and the moves
    within two standard errors of it, up to 16; a move's value is the mean of its
    searches' results for the decider (the search's estimate, its cut-off playouts
    included: its scale is its own, not a playout win rate's).  Search k of every move
    is dealt from stream k of `seed`, as `judge(game, move, engine, seed=seed)` deals
    them.  An ``ismcts-infer`` search weighs the opponent's hand by its decisions in
    the game's history, as the decider saw them.  Beside the values, one free search
    of the same engine (seeded from `seed`) gives each move's root visits: the bot's
    own choice is its most visited move.  No hidden card is read.
    played: a legal move, refined as the review refines the move played (while its
    label under the default thresholds is not settled): the figures are then `judge`'s.
    decision: the index of this decision's move among the game's moves from its start (a
    record's move K is K - 1): the searches are then dealt from the seed the review
    gives that decision (`decision_seed`), so that with `played` the figures are
    exactly those of ``review(record, engine, seed=seed)``'s decision; None: from `seed`
    itself, as `judge`'s.  The free search is seeded from `seed` either way.
    cancel: a threading.Event (or a callable returning True) checked before the free
    search and before each native call of the forced searches; Ctrl-C or cancel raise
    `cuttle.Interrupted` whose `result` is the `SearchAnalysis` of the searches
    finished (None if the free search had not finished).  The same seed gives the same
    analysis, whatever the thread count.  ValueError for a game replayed from a record
    that does not give the decider's view (`cuttle.game.check_view`).
    """
    if check_view(game).is_over:
        raise ValueError("the game is over: there is nothing to analyse")
    eng = search_engine(engine)
    threads = check_threads(threads)
    seed = seed_or_new(seed)
    searched = seed if decision is None else \
        decision_seed(seed, check_int(decision, "decision", minimum=0))
    stop = check_cancel(cancel)
    moves = list(game.legal_moves)
    i = None
    if played is not None:
        move = played if isinstance(played, Move) else Move.parse(played)
        if move not in moves:
            raise IllegalMoveError(f"{quoted(str(move))} is not a legal move here; legal: "
                                   f"{', '.join(map(str, moves))}")
        i = moves.index(move)
    values = MoveValues([m.code for m in moves], eng.step)
    start = time.perf_counter()
    visits = None

    def check():
        if stop is not None and stop():
            raise KeyboardInterrupt         # (kept as Ctrl-C keeps it, below)

    def result():
        return SearchAnalysis(game, game.to_move, search_rows(moves, values, dict(visits)),
                              eng, seed, time.perf_counter() - start,
                              sum(n for _, n in visits), None if i is None else moves[i])

    try:
        check()
        visits = _search_visits(game, eng.code, derive(seed, VISITS_KEY))
        evaluate(game, i, eng, searched, threads, Thresholds(), check, values)
    except KeyboardInterrupt:
        raise Interrupted(None if visits is None else result(), sum(values.n), None,
                          "search") from None
    return result()


def review(game_or_record: Game | dict[str, Any] | str | os.PathLike[str],
           engine: str | Engine = DEFAULT_ENGINE, *, player: int | str | None = None,
           seed: int | None = None, threads: int | None = None,
           thresholds: Thresholds | dict[str, float] | None = None,
           omniscient: bool = False,
           progress: bool | Callable[[int, int], object] | None = False,
           cancel: Any = None, names: Sequence[str] | None = None) -> Review:
    """Review a game move by move: each decision of `player` (0, 1, or None/"both")
    with more than one legal move is valued from the mover's own view and labelled (best,
    near best, ..., blunder: `LABELS`; a missed win flagged); forced moves are listed.

    game_or_record: a `Game` (reviewed from its first move), a game record (dict) or
    the path of a record file (what ``cuttle play --record`` and the replay write).
    engine: "expert" (expert playouts), "rollouts:N" (random playouts), "ismcts:N"
    (searches with the move forced at the root) or "ismcts-infer:N" (the same with the
    search that weighs the opponent's hand by its decisions in the game before, as the
    mover saw them); see docs/review.md.
    thresholds: a `Thresholds` or a dict of some of its bounds.
    omniscient: also value every position with every card known (hindsight).
    progress: True/False/None (a bar on stderr; None: if it is a terminal) or a
    callable(done, total) called after each decision.
    cancel: a threading.Event (or a callable returning True) checked between native
    calls.  Ctrl-C or cancel raise `cuttle.Interrupted` whose `result` is the `Review`
    of the decisions finished (``complete=False``).
    names: the players' names (P0, P1) in the text and the page (default: the record's,
    or "player 0" and "player 1").

    A record's moves are its game: a record whose stated result they do not give (its
    winner, its ending) is reviewed by its moves, with a `RecordResultWarning`
    (`cuttle.record_result`) saying both, kept in `Review.record_mismatch`.  A record of a
    game an undo dealt again says so (`cuttle.record.redealt_words`, `Review.redealt`).
    A record with cards not seen (``?``), or a Game replayed from one, is reviewed for
    the players whose view it gives whole (`cuttle.game.missing_view`; `Review.unseen`).

    The same seed gives the same review, whatever the thread count.
    """
    src = _load(game_or_record)
    start = src.start
    names = _names(names, src.names)
    eng = parse_engine(engine)
    th = Thresholds.coerce(thresholds)
    players, unseen = _seen_whole(_players(player), src, omniscient, names)
    threads = check_threads(threads)
    seed = seed_or_new(seed)
    check = _stopper(cancel)
    moves, total, mismatch, resigned = _replay(src, players)
    omni: list[float | None] | None = [None] * (len(moves) + 1) if omniscient else None
    decisions: list[Decision] = []
    t0, c0 = time.perf_counter(), time.process_time()
    bar = Progress(total, progress, desc="review", unit="decision")

    def result(complete: bool) -> Review:
        return Review(start=start, moves=moves, names=names, players=players, engine=eng,
                      seed=seed, thresholds=th, decisions=decisions, omniscient=omni,
                      total=total, seconds=time.perf_counter() - t0,
                      cpu_seconds=time.process_time() - c0, complete=complete,
                      source=src.where, stopped=src.stopped, resigned=resigned,
                      deal=src.deal, record_mismatch=mismatch,
                      redealt=None if src.record is None else redealt_words(src.record),
                      unseen=unseen)

    g = start.copy()
    try:
        for i, m in enumerate(moves):
            if omni is not None:
                omni[i] = _hindsight_value(g, eng, derive(seed, HINDSIGHT_KEY, i), threads,
                                           check)
            if g.to_move in players:
                decisions.append(_judge(g, m, eng, decision_seed(seed, i), threads, th,
                                        check, i))
                bar.update(1)
            g.play(m)
        if omni is not None:
            omni[len(moves)] = _hindsight_value(g, eng, derive(seed, HINDSIGHT_KEY,
                                                               len(moves)), threads, check)
    except (KeyboardInterrupt, _Cancelled):
        bar.close()
        raise Interrupted(result(False), len(decisions), total, "decision") from None
    bar.close()
    return result(True)


def _names(names: Any, own: tuple[str, str]) -> tuple[str, str]:
    """The players' names: `names` (two strings), or the source's own."""
    if names is None:
        return own
    if isinstance(names, str) or len(names) != 2 or \
            not all(isinstance(n, str) for n in names):
        raise ValueError(f"names must be two strings (P0, P1), not {quoted(names)}")
    return tuple(names)


def _replay(src: _Source, players: tuple[int, ...]) -> tuple[list[Move], int, str | None,
                                                              int | None]:
    """The source's moves replayed once: (the moves, each checked; how many decisions
    of `players` there are to review; a record's stated result that the moves do not
    give, in words (`record_result.check_result`: warned of, at review()'s caller); the seat
    that resigned a game the moves did not end, or None)."""
    g = src.start.copy()
    moves: list[Move] = []
    total = 0
    for i, text in enumerate(src.texts, 1):
        if g.to_move in players:
            total += 1
        moves.append(play_recorded(g, i, text))
    if src.record is None:
        return moves, total, None, None
    return (moves, total, check_result(src.record, g, src.where, stacklevel=3),
            resigner(src.record, g))


def _hindsight_value(g: Game, eng: Engine, seed: int, threads: int,
                     check: Callable[[], None] | None) -> float:
    """Player 0's expected score of `g` with every card as it lies."""
    if g.is_over:
        return 0.5 if g.winner is None else float(g.winner == 0)
    if check is not None:
        check()
    w = _hindsight(g, 0, eng.hindsight_samples, seed, eng.hindsight_code, threads)
    return float(((w == 0) + 0.5 * (w < 0)).mean()) if len(w) else math.nan
