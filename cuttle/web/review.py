"""The hook for the game review (issue "Game review"), kept apart so it can be wired
when `cuttle.review` exists.

`review_available()` is the feature check; `review_game(record)` runs the review of a
finished game's record and returns JSON-ready data.  Until the library has
`cuttle.review`, the route answers 501 "review not available in this version".
"""

from __future__ import annotations

from typing import Any, Callable

__all__ = ["REVIEW_ENGINE", "review_available", "review_function", "review_game"]

REVIEW_ENGINE = "expert"


def review_function() -> Callable[..., Any] | None:
    """`cuttle.review` if this version of the library has it, else None."""
    import cuttle
    fn = getattr(cuttle, "review", None)
    return fn if callable(fn) else None


def review_available() -> bool:
    """Whether this version of the library can review a game."""
    return review_function() is not None


def review_game(record: dict[str, Any]) -> Any:
    """The review of a game record as JSON-ready data (runs in a worker thread).
    RuntimeError when this version has no review."""
    fn = review_function()
    if fn is None:
        raise RuntimeError("review not available in this version")
    result = fn(record, engine=REVIEW_ENGINE)
    for attr in ("as_dict", "to_json"):
        conv = getattr(result, attr, None)
        if callable(conv):
            return conv()
    return result
