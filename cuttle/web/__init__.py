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

from .routes import app         # (which names the extra when Starlette is missing)

__all__ = ["app"]
