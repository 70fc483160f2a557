"""`cuttle serve`: play any variant against the bots in a browser (a local web app).

    import uvicorn, cuttle.web
    uvicorn.run(cuttle.web.app(), host="127.0.0.1", port=8000)

`app(...)` returns the ASGI app (Starlette) for embedding or testing.  The modules:
`sessions` (one game per session, the store of live games), `thinking` (the bot's
stoppable decision in a worker thread), `views` (the person's view as JSON, built from
their observation, and the pages), `routes` (HTTP: routes, checks, errors, the app),
`review` (the hook for the game review), and `static/` (the pages' script and style).
Needs the ``web`` extra: ``pip install -e ".[web]"`` from a checkout.
"""

from __future__ import annotations

try:
    import starlette  # noqa: F401
except ImportError as e:                        # pragma: no cover - depends on the install
    raise ImportError("cuttle.web needs Starlette and uvicorn: pip install -e \".[web]\" "
                      "from a checkout (or pip install \"pycuttle[web]\")") from e

from .routes import app

__all__ = ["app"]
