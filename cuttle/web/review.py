"""The game review in the web app: a finished game reviewed by `cuttle.review` in a
worker thread, stoppable, its progress shown, and its replay page served.

A `ReviewJob` is one review of one session's game: the person's decisions, valued by
`REVIEW_ENGINE` from their own view with a seed derived from the game's (the same game
gets the same review).  `stop()` (the page's stop button, closing the game, its expiry,
the server stopping) sets the review's cancel event: the review ends within a few
tenths of a second with the decisions it finished (`Review.complete` False), which are
kept and shown like a whole review.  The page of a review is `Review.page()`, the page
of ``cuttle replay --html --review``, served with a content security policy that allows
exactly its inline script (by hash) and nothing fetched.
"""

from __future__ import annotations

import base64
import hashlib
import re
import threading
from typing import TYPE_CHECKING, Any

from ..errors import Interrupted
from ..review import review
from ..seeding import derive

if TYPE_CHECKING:
    from ..review import Review

__all__ = ["REVIEW_ENGINE", "REVIEW_KEY", "ReviewJob", "page_headers", "review_view"]

REVIEW_ENGINE = "expert"        # about 9 CPU seconds for a 40-decision game (docs/review.md)
REVIEW_KEY = 0x726576696577     # "review": the review's seed is derive(game seed, REVIEW_KEY)


class ReviewJob:
    """One review of a finished game's record, run by `run()` in a worker thread:
    `progress` is (decisions done, decisions to review), `stop()` ends it early (what is
    done is kept), `result` the `Review` once it returned."""

    def __init__(self, record: dict[str, Any], player: int, seed: int,
                 engine: str = REVIEW_ENGINE, threads: int | None = None) -> None:
        self.record, self.player, self.seed = record, player, seed
        self.engine, self.threads = engine, threads
        self.cancel = threading.Event()
        self.progress: tuple[int, int | None] = (0, None)
        self.result: Review | None = None
        self.task: Any = None           # the future running it (set by the routes)

    @classmethod
    def of_game(cls, record: dict[str, Any], player: int, game_seed: int,
                **kw: Any) -> ReviewJob:
        """The review of `player`'s moves in a game seeded `game_seed`."""
        return cls(record, player, derive(game_seed, REVIEW_KEY), **kw)

    def stop(self) -> None:
        """End the review after the current native call; the finished part is kept."""
        self.cancel.set()

    @property
    def stopped(self) -> bool:
        """Whether a stop was asked."""
        return self.cancel.is_set()

    def _progress(self, done: int, total: int) -> None:
        self.progress = (done, total)

    def run(self) -> Review:
        """The review (complete, or the decisions finished when stopped)."""
        try:
            r = review(self.record, self.engine, player=self.player, seed=self.seed,
                       threads=self.threads, progress=self._progress, cancel=self.cancel)
        except Interrupted as e:
            r = e.result
        self.result = r
        return r


def review_view(r: Review, page_url: str) -> dict[str, Any]:
    """The review as the game page receives it: every figure (`Review.as_dict()`), its
    text (the annotated move list and the figures), and the address of its page."""
    d = r.as_dict()
    d.update(text=str(r), page=page_url)
    return d


_INLINE_SCRIPT = re.compile(r"<script>(.*?)</script>", re.S)


def page_headers(html: str) -> dict[str, str]:
    """The headers of a review page: a content security policy that runs the page's own
    inline scripts (by their SHA-256) and nothing else, fetches nothing, and allows the
    inline styles and data: images the page is made of."""
    scripts = " ".join(
        "'sha256-" + base64.b64encode(hashlib.sha256(s.encode()).digest()).decode() + "'"
        for s in _INLINE_SCRIPT.findall(html)) or "'none'"
    return {"content-security-policy":
            f"default-src 'none'; script-src {scripts}; "
            "style-src 'unsafe-inline'; img-src data:; frame-ancestors 'none'; "
            "base-uri 'none'; form-action 'none'"}
