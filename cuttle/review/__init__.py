"""Game review: where a game was won and lost, move by move.

`review(game_or_record, engine="expert")` values every decision of the chosen
player(s) from the mover's own view (determinizations of what they could know, never
the opponent's hidden cards or the deck order): the move played and the best move, the
loss between them, and a label (best, near best, good, inaccuracy, mistake, blunder),
with a win at once the mover missed flagged whatever its loss; forced moves are listed,
not judged.  Per player: the average loss, counts per label (and of the
labels not settled: their loss's bounds span a threshold) and an accuracy figure; around the
moves no label judges (the opponent's, the cards drawn), each reviewed player's chances
after a valued move and before their next (`Review.between()`).  Losses print in pp,
percentage points of expected score.
`Review.headline` says where the game was lost in one sentence (`Review.where_lost()`,
read from those figures), first in every output.  `Review.page()` is the replay page
with the review (an evaluation graph under the table), `str(review)` the annotated move
list.  A record's moves are its game: a stated result they do not give is warned of
(`cuttle.record_result.RecordResultWarning`) and the moves reviewed.  docs/review.md has the
method.

* `engines`: how a decision's moves are valued (expert or random playouts, forced
  searches) and the adaptive budget;
* `figures`: the labels, their thresholds, accuracy and the per-player figures;
* `result`: `Decision`, `Review`, their text and JSON;
* `headline`: where the game was lost, in one sentence (`Review.where_lost()`);
* `markdown`: the review as markdown (`Review.markdown()`), its moves and figures as
  tables;
* `run`: `review()`, `judge()` (one decision), `wins_at_once()` (the moves that win on
  the spot) and `analyse_search()` (a position's moves valued by a search engine, no
  move played: ``cuttle analyse --engine``).

`cuttle.review` is the function `review`, which hides this package from attribute
access: its names are imported, ``from cuttle.review import judge, Thresholds``
(`analyse_search` is also `cuttle.analyse_search`, beside `cuttle.analyse`).
"""

from __future__ import annotations

from .engines import ENGINE_NAMES, SEARCH_ENGINES, Engine, parse_engine, search_engine
from .figures import ANNOTATIONS, FORCED, LABELS, PLAYER_FIGURES, Thresholds, move_accuracy
from .result import Decision, MoveScore, Review
from .run import analyse_search, judge, review, wins_at_once
from . import markdown  # noqa: F401  (registers the review's markdown: cuttle.display)

__all__ = ["ANNOTATIONS", "ENGINE_NAMES", "FORCED", "LABELS", "PLAYER_FIGURES",
           "SEARCH_ENGINES", "Decision", "Engine", "MoveScore", "Review", "Thresholds",
           "analyse_search", "judge", "move_accuracy", "parse_engine", "review",
           "search_engine", "wins_at_once"]
