"""Simulations: many games (or matches) between two players, with summary statistics.

    import cuttle
    res = cuttle.simulate(100_000, players=("greedy", "random"), seed=1)
    print(res.summary())                # a table; res.summary().as_dict() for JSON
    res.summary().win_rate("A")         # (rate, low, high), 95 % Wilson interval
    cmp = cuttle.compare(["classic", cuttle.Rules(four="random")], 100_000, seed=1)
    print(cmp)                          # each rule set and its difference to the first

**Players.**  A player is a policy name (`player_names()`: "random", "greedy"), played by
the native core over all cores and labelled by its full name (a search's with its
iteration count: "ismcts" plays and is labelled "ismcts:1000"), a `cuttle.policies.Bot`
(played natively as its policy's name, so at native speed and reproducible from the
run's seed: the run's seed decides its moves, and the bot's own seed, thread count and
count of decisions are not used), or a Python callable ``policy(game) -> move`` choosing
one of ``game.legal_moves``, or ``policy(game, rng) -> move``, where ``rng`` is a
`random.Random` seeded by the run's seed, the game's index and the player's seat
(`cuttle.seeding.seat_seed`: each seat its own): a policy that draws its random choices
from it (not from the `random` module) plays the same moves in every run of the seed,
whatever the chunks or machines, and the opponent's play does not depend on how many
numbers it draws.  A policy must not change the game it is given (use ``game.copy()`` to
look ahead); it is not consulted when only one move is legal.  A callable that raises,
returns no move (None) or an illegal one, or changes its game stops the run with a
`cuttle.PolicyError` naming the game and the player, which keeps the games before it as
Ctrl-C's `Interrupted` does.  **A callable is handed the live game**, the opponent's
hand (``game.hand(1 - p)``) and the deck order (``game.deck``) included: a policy that
reads them, or searches on ``game.copy()``, cheats.  ``cuttle.policies.fair(policy)`` is
the same policy seeing only its player's view (a determinization of it, seeded from
``rng``), as every named policy but ``cuttle.cards-ai`` plays.  If either player is a
callable, the games are played in Python with `cuttle.Game` (much slower); a named
policy then makes the core's own choice for each position, drawing its randomness from
its seat's `rng`.  Game ``i`` is dealt exactly as in a native run, so the deals are the
same; the moves are reproducible too.

**Seeds and game indices.**  A run is identified by its ``seed``: game ``i`` is dealt and
played from the pair ``(seed, i)`` alone, so results do not depend on the thread count,
on how the run is cut into chunks, or on the machines that play them, and the first
``m`` games of a longer run are the games of a run of ``m``; ``start=k`` plays the
games from index ``k`` on, so a run can be continued later and the parts merged.
``seed=None`` picks a random seed and records it in the result (``result.seed``) so the
run can be repeated.
With ``swap_seats`` (the default) player A moves first in even-numbered games and B in
odd-numbered ones; without it A always moves first.

**Statistics, not rows.**  The core reduces each chunk of games to exact counts and
moments (a `Tally`: outcomes by seat and end reason, sums and sums of squares of
lengths and scores, length histograms; for `compare` also the paired cross-tabulations
of every pair of rule sets), which merge exactly; memory stays flat however many games
are played.  ``keep_games=True`` also keeps one row per game (``res.winner``,
``res.moves``, ...; asking a result without them raises `GamesNotKept`), and
``games_csv=PATH`` streams the rows to a CSV file chunk by chunk without holding them.
Results of disjoint ranges of one run merge: ``a.merge(b)``, ``a + b``, ``sum([...])``.

**Interruption.**  Ctrl-C stops the run within a second and raises `Interrupted` (a
`KeyboardInterrupt`) whose ``result`` is the merged result of the chunks that finished
and, where a chunk's units take long (a searching player, or a Python one), of the
units of the cut chunk that finished before the first one that did not.  A SIGTERM (a job
scheduler's time limit, `timeout`) ends Python at once unless the run is inside
``with cuttle.interrupts.sigterm_as_ctrl_c():``, where it stops the run as Ctrl-C does.

**A cluster.**  ``client=`` a `dask.distributed.Client` plays the chunks on the cluster
(see `cuttle.simulation.cluster`); the result is identical to a local run's.

**Matches.**  ``match="best_of_3"`` (first to 2 game wins) or ``"first_to_3"`` (first to 3
game wins) plays matches instead of games; ``n`` then counts matches.  Drawn games do not
count towards a match, and the first player alternates game by game.  Match ``j`` owns
the game indices ``j*K .. j*K+K-1`` (``K = MATCH_FORMATS[match].slots``: 7 for best of 3,
11 for first to 3; one more without ``swap_seats``) and plays them in order until a
player has won enough games; a match not decided within its ``K`` games is a drawn
match.  Because ``K`` is odd, A moves first in the first game of even-numbered matches
and B in odd-numbered ones (without ``swap_seats``, ``K`` is even and A starts every
match).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._play import MAX_RULE_SETS, MAX_UNITS_PER_CALL
from ..rules import Rules
from ..seeding import seed_or_new
from ..text import quoted
from ..threads import MAX_THREADS, check_threads
from ..validation import check_bool, check_confidence, check_count, check_int, \
    check_output_path
from .compare import ComparisonResult
from .names import DEFAULT_MAX_MOVES, MATCH_FORMATS
from .players import Player, resolve_players
from .results import SimulationResult
from .runner import Chunks, GamesCsv, Plan, run_local

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable
    from os import PathLike
    from typing import TextIO

    from distributed import Client

    from ..moves import Move
    from ..policies import Bot

__all__ = ["MAX_CHUNK", "MAX_THREADS", "MAX_UNITS", "check_distinct", "compare",
           "compare_players", "simulate"]

MAX_UNITS = 10 ** 15          # games (or matches) in one run: ~40 years of one machine
MAX_CHUNK = MAX_UNITS_PER_CALL  # units per native call (keeps every per-call sum in 64 bits)
MAX_MAX_MOVES = 2 ** 31 - 1


def check_distinct(rule_sets: list[Rules], names: list[str]) -> None:
    """ValueError naming the first two of `rule_sets` (called `names`: as given, or their
    labels) that are the same rules: a comparison would play the same games twice."""
    first: dict[Rules, int] = {}
    for i, rules in enumerate(rule_sets):
        j = first.setdefault(rules, i)
        if j != i:
            raise ValueError(f"compare needs different rule sets, but {names[j]!r} and "
                             f"{names[i]!r} (rule sets {j + 1} and {i + 1} of the list) "
                             f"are the same rules ({rules}): they would play the same "
                             f"games; give each rule set once")


def _check_match(match):
    if match is None:
        return None
    if match not in MATCH_FORMATS:
        raise ValueError(f"unknown match format {match!r}; valid formats: "
                         f"{', '.join(MATCH_FORMATS)} (or None for single games)")
    return match


def check_client(client: object) -> None:
    """ValueError unless `client` is None or a dask.distributed Client."""
    if client is not None and not (hasattr(client, "submit") and hasattr(client, "cancel")):
        raise ValueError(f"client must be a dask.distributed.Client, not {client!r}")


def _check_run(n_games, start, confidence, client):
    """(n, start, confidence) of a run's arguments every run takes alike, checked."""
    confidence = check_confidence(confidence)
    n = check_count(n_games, "n_games", MAX_UNITS)
    check_client(client)
    return n, _check_start(start, n), confidence


def _check_start(start, n):
    start = check_int(start, "start", 0)
    if start + n > MAX_UNITS:
        raise ValueError(f"start + n_games must be at most {MAX_UNITS:,}, not {start + n:,}")
    return start


def _check_games_csv(games_csv):
    # A path is checked now (an open file is the caller's); the file is made by the run.
    if isinstance(games_csv, str) or hasattr(games_csv, "__fspath__"):
        check_output_path(games_csv, "games_csv")


def _execute(plan, n, chunk_size, progress, games_csv, client, desc, start=0):
    """Play units start..start+n-1 of `plan` locally or on `client`'s cluster."""
    adaptive = chunk_size is None
    if adaptive:
        limit = plan.largest_chunk
    else:
        limit = max(1, check_count(chunk_size, "chunk_size", MAX_CHUNK) // plan.slots)
    sink = None if games_csv is None else GamesCsv(games_csv, plan)
    try:
        if client is not None:
            from .cluster import run_on_cluster
            return run_on_cluster(client, plan, n, None if adaptive else limit, progress,
                                  sink, desc, start)
        return run_local(plan, n, Chunks(limit, adaptive, first=plan.first_chunk), progress,
                         sink, desc, start)
    except BaseException:
        if sink is not None:
            sink.close(ok=False)
        raise


def _plan(rule_sets, players, seed, threads, swap_seats, match, max_moves, keep_games,
          games_csv, client, labels=None, confidence=0.95, arms=None):
    pl = resolve_players(players) if arms is None else arms[0]
    nthreads = check_threads(threads)
    match = _check_match(match)
    max_moves = check_count(max_moves, "max_moves", MAX_MAX_MOVES)
    keep_games = check_bool(keep_games, "keep_games")
    _check_games_csv(games_csv)
    if client is not None and threads is None:
        nthreads = 1          # a dask worker runs one chunk per worker thread
    return Plan(rule_sets, pl, seed_or_new(seed), check_bool(swap_seats, "swap_seats"),
                max_moves, match, nthreads, keep_games, games_csv is not None, labels,
                confidence, arms)


def simulate(n_games: int, rules: Rules | str | None = None,
             players: str | Iterable[str | Bot | Callable[..., Move | str | int]]
             = ("random", "greedy"),
             seed: int | None = None, threads: int | None = None, swap_seats: bool = True,
             progress: bool | Callable[[int, int], object] | None = None, *,
             match: str | None = None, max_moves: int = DEFAULT_MAX_MOVES,
             chunk_size: int | None = None, keep_games: bool = False,
             games_csv: str | PathLike[str] | TextIO | None = None,
             client: Client | None = None, start: int = 0,
             confidence: float = 0.95) -> SimulationResult:
    """Play `n_games` games (or matches, with `match`) and return a `SimulationResult`.

    rules: a `Rules`, rule text (a preset name, or e.g. "classic: four=random", as the
    command line takes it) or None (classic).  players: (A, B), each a policy
    name ("random", "greedy"), a `Bot` (played as its policy's name, from the run's
    seed) or a callable ``policy(game) -> move`` or ``policy(game, rng) -> move``
    (``rng``: a `random.Random` seeded by the seed, the game's index and the player's
    seat, for reproducible random choices; a fault of the callable is a
    `cuttle.PolicyError` keeping the games before it; it is handed the live game, hidden
    cards included: ``cuttle.policies.fair(policy)`` sees only its player's view, see
    the module's notes).  seed: an int, or
    None for a random seed (recorded in the result).  threads: cores for the native core
    (None: all; with a client, cores per chunk, default 1).  swap_seats: A moves first in
    even-numbered games (else always).  progress: True / False / None (a bar on stderr
    only if it is a terminal) / a callable(done, total).  match: None, "best_of_3" or
    "first_to_3".  max_moves: a game still running after this many moves ends as a draw
    ("move_cap").  chunk_size: games per chunk (with matches, as many whole matches as
    fit, at least one); None: start small and grow while a chunk takes under 0.2 s (1 s
    on a cluster), so slow policies still move the progress bar.  keep_games: keep one
    row per game in the result.  games_csv: a path (or open text file) to stream one CSV
    row per game to.  client: a dask.distributed Client to play the chunks on.  Neither
    chunking nor threads nor the cluster changes the results.  start: play the games
    (matches) start .. start+n_games-1 of the run instead of the first ones (a later
    part of a longer run; results of disjoint parts merge).  confidence: the level of
    the intervals of the result's summary (`summary()`, `str()`, `as_dict()`, `plot()`;
    each also takes another), as `compare`'s.

    Ctrl-C raises `Interrupted`, whose ``result`` holds the finished games (see the
    module's notes); in a script under a job scheduler, run it inside
    ``cuttle.interrupts.sigterm_as_ctrl_c()`` for SIGTERM to do the same.

    A Python player that draws from the run's ``rng`` plays the same games in every run
    of the seed (one drawing from the `random` module does not):

    >>> def pick(game, rng):
    ...     return rng.choice(game.legal_moves)
    >>> a = simulate(40, players=(pick, "greedy"), seed=1, keep_games=True)
    >>> b = simulate(40, players=(pick, "greedy"), seed=1, keep_games=True, chunk_size=9)
    >>> bool((a.moves == b.moves).all() and (a.winner == b.winner).all())
    True
    """
    rules = Rules.coerce(rules)
    n, start, confidence = _check_run(n_games, start, confidence, client)
    plan = _plan([rules], players, seed, threads, swap_seats, match, max_moves, keep_games,
                 games_csv, client, confidence=confidence)
    return _execute(plan, n, chunk_size, progress, games_csv, client, "simulate", start)


def compare(rule_sets: Iterable[Rules | str | None], n_games: int,
            players: str | Iterable[str | Bot | Callable[..., Move | str | int]]
            = ("random", "greedy"),
            seed: int | None = None, threads: int | None = None, swap_seats: bool = True,
            progress: bool | Callable[[int, int], object] | None = None, *,
            match: str | None = None, max_moves: int = DEFAULT_MAX_MOVES,
            chunk_size: int | None = None, labels: Iterable[str] | None = None,
            confidence: float = 0.95, keep_games: bool = False,
            games_csv: str | PathLike[str] | TextIO | None = None,
            client: Client | None = None, start: int = 0) -> ComparisonResult:
    """Play the same `n_games` deals (or matches) under each rule set and compare.

    Common random numbers: every rule set is played with the same seed and game indices,
    so the deals are identical, and the differences between rule sets come with paired
    (tighter) intervals, as long as the rule sets shuffle as many cards: a rule set with
    ``joker=true`` shuffles 53, so its game i is dealt otherwise than a 52-card rule
    set's (they share no deal: `ComparisonResult.other_deals`, and the text output says
    so in a note); its differences are still paired by game index, validly, but no
    tighter than unpaired ones.  The ``deal`` flag (the hand sizes) cuts the same
    shuffle at other places, so its games are partly paired (`cut_deals`, said in a
    note too); no other flag changes the deal (`Rules.deal_relation`).  Each chunk of
    games is played under every rule set in turn, and the pairs are tallied in the
    core, so no per-game rows are needed.  Rule sets are `Rules`, rule text (e.g.
    "classic: joker=true") or None; the first is the baseline.  Other arguments as
    for `simulate` (a Python callable player is handed the live game: see
    ``cuttle.policies.fair``; games_csv rows carry a rule_set column, 1 for the baseline, and
    come by game index, each game's rule sets in turn, whatever the chunks);
    `seed=None` picks one seed for all; `start` as for `simulate` (the same games
    under every rule set).
    """
    if isinstance(rule_sets, (str, Rules)) or rule_sets is None:
        raise ValueError("compare needs a list of rule sets (at least two)")
    given = list(rule_sets)
    rule_sets = [Rules.coerce(r) for r in given]
    if not 2 <= len(rule_sets) <= MAX_RULE_SETS:
        raise ValueError(f"compare needs at least two rule sets (at most {MAX_RULE_SETS}), not "
                         f"{len(rule_sets)}")
    if labels is None:
        labels = [str(r) for r in rule_sets]
        names = [r if isinstance(r, str) else str(Rules.coerce(r)) for r in given]
    else:
        labels = names = [str(x) for x in labels]
        if len(labels) != len(rule_sets):
            raise ValueError(f"{len(labels)} labels for {len(rule_sets)} rule sets")
    check_distinct(rule_sets, names)
    n, start, confidence = _check_run(n_games, start, confidence, client)
    plan = _plan(rule_sets, players, seed, threads, swap_seats, match, max_moves, keep_games,
                 games_csv, client, labels, confidence)
    return _execute(plan, n, chunk_size, progress, games_csv, client, "compare", start)


def compare_players(players: Iterable[str | Bot | Callable[..., Move | str | int]],
                    n_games: int,
                    opponent: str | Bot | Callable[..., Move | str | int],
                    rules: Rules | str | None = None,
                    seed: int | None = None, threads: int | None = None,
                    swap_seats: bool = True,
                    progress: bool | Callable[[int, int], object] | None = None, *,
                    match: str | None = None, max_moves: int = DEFAULT_MAX_MOVES,
                    chunk_size: int | None = None, labels: Iterable[str] | None = None,
                    confidence: float = 0.95, keep_games: bool = False,
                    games_csv: str | PathLike[str] | TextIO | None = None,
                    client: Client | None = None, start: int = 0) -> ComparisonResult:
    """Play each of `players` (the candidates: say your bot's versions) as player A
    against the same `opponent` (B) on the same `n_games` deals and seats, and compare
    them: a `ComparisonResult` whose entries are the candidates (``compared ==
    "players"``), the first the baseline, each one's differences to it with paired
    intervals, exactly as `compare` pairs rule sets.

    Common random numbers: game i is dealt, seated and its players' streams drawn from
    (seed, i) for every candidate alike, so a difference comes from the candidates'
    play, and game i's outcomes under two candidates are a pair (the per-game
    differences of scores, the 2x2 tables of wins): ``cmp.difference("score_A", 1)`` is
    candidate 2's score minus the first's, with an interval far tighter than unpaired
    runs' when the candidates often agree.  Two copies of the same deterministic player
    play the very same games: every difference is exactly 0, its interval the narrowest
    the paired statistics give (the same as an entry against itself).

    players: at least two, each as `simulate` takes a player (a policy name, a `Bot`, a
    callable ``policy(game)`` or ``policy(game, rng)``: see `cuttle.policies.fair` for
    one that should not see hidden cards), "A,B,..." text too; the same one may be given
    twice.  opponent: one player of the same kinds.  rules: one rule set for every
    game (a `Rules`, rule text or None: classic).  labels: a name per candidate (default:
    their names).  Other arguments as for `compare` (games_csv rows carry a candidate
    column, 1 for the baseline).  Played natively over all cores when every player is
    a name or a `Bot`, else in Python.  Results depend only on the seed and the game
    indices, never on threads, chunks or machines; memory stays flat; Ctrl-C raises
    `Interrupted` carrying the finished games of every candidate.
    """
    if isinstance(players, str):
        players = [p.strip() for p in players.split(",")]
    try:
        given = list(players)
    except TypeError:
        raise ValueError(f"compare_players needs a list of players (at least two), not "
                         f"{quoted(players)}") from None
    if not 2 <= len(given) <= MAX_RULE_SETS:
        raise ValueError(f"compare_players needs at least two players (at most "
                         f"{MAX_RULE_SETS}), not {len(given)}")
    candidates = [Player(p, f"candidate {i + 1}") for i, p in enumerate(given)]
    against = Player(opponent, "the opponent")
    rules = Rules.coerce(rules)
    if labels is None:
        labels = [p.name for p in candidates]
    else:
        labels = [str(x) for x in labels]
        if len(labels) != len(candidates):
            raise ValueError(f"{len(labels)} labels for {len(candidates)} players")
    n, start, confidence = _check_run(n_games, start, confidence, client)
    arms = [(p, against) for p in candidates]
    plan = _plan([rules] * len(arms), None, seed, threads, swap_seats, match, max_moves,
                 keep_games, games_csv, client, labels, confidence, arms)
    return _execute(plan, n, chunk_size, progress, games_csv, client, "compare", start)
