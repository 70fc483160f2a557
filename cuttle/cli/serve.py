"""`cuttle serve`: the local web app to play any variant against the bots in a browser.

    cuttle serve                      http://127.0.0.1:8000/
    cuttle serve --port 8080 --open   and open it in the browser
    cuttle serve --host 0.0.0.0       reachable from other machines (warned)
    cuttle serve --host 0.0.0.0 --allow-host games.lan   ... also by that name
    cuttle serve --port 0             any free port (the address printed says which)
"""

from __future__ import annotations

import sys
import threading
import webbrowser
from typing import TYPE_CHECKING, Any

from .._optional import missing
from ..text import quoted
from . import options
from .options import CommandError, UsageError

if TYPE_CHECKING:
    import argparse
    from collections.abc import Callable

LOOPBACK = ("127.0.0.1", "localhost", "::1")


def _url(host: str, port: int) -> str:
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    return f"http://[{shown}]:{port}/" if ":" in shown else f"http://{shown}:{port}/"


def _urls(host: str, addresses: list[tuple[str, int]]) -> list[str]:
    """The addresses to open, from the (address, port) of every socket listening: the
    host with its port, or, when a name bound to several addresses took a different
    free port on each (--port 0 on e.g. localhost: 127.0.0.1 and ::1), each address
    with its own port (the name alone could reach the wrong one)."""
    ports = list(dict.fromkeys(port for _, port in addresses))
    if len(ports) == 1:
        return [_url(host, ports[0])]
    return list(dict.fromkeys(_url(address, port) for address, port in addresses))


def open_browser(url: str) -> bool:
    """Open `url` in the browser (--open); without one that could be run, say so on
    stderr with the address to open by hand (the server goes on).  Whether one opened."""
    try:
        opened = webbrowser.open(url)
    except (webbrowser.Error, OSError):
        opened = False
    if not opened:
        print(f"cuttle serve: no browser could be opened: open {url} in one by hand",
              file=sys.stderr, flush=True)
    return opened


def run(args: argparse.Namespace) -> int:
    """`cuttle serve`: run the web app until Ctrl-C; returns the exit status."""
    try:
        import uvicorn

        from ..web import app
        from ..web.guard import check_host_name, host_names, hosts_answered
    except ImportError as e:
        raise CommandError(str(missing(e, "cuttle serve"))) from None
    if not 0 <= args.port <= 65535:
        raise UsageError(f"--port must be from 0 (any free port) to 65535, not {args.port}")
    try:
        allowed = [check_host_name(name, "--allow-host") for name in args.allow_host]
    except ValueError as e:
        raise UsageError(str(e)) from None
    host = _listen_address(args.host, check_host_name)
    hosts = host_names(allowed)
    _warn(host, hosts is None, hosts_answered(hosts))
    application = app(max_sessions=args.max_games, workers=args.workers,
                      allowed_hosts=allowed)

    def listening(addresses: list[tuple[str, int]]) -> None:
        urls = _urls(host, addresses)
        print(f"cuttle serve: open {' or '.join(urls)} (Ctrl-C stops the server)",
              flush=True)
        if args.open:           # (a browser may take a while to start)
            threading.Thread(target=open_browser, args=(urls[0],)).start()

    config = uvicorn.Config(application, host=host, port=args.port, log_level=args.log_level,
                            access_log=args.log_level == "debug")
    server = _server(uvicorn, config, application.state.cuttle, listening)
    try:
        server.run()
    except KeyboardInterrupt:       # uvicorn shuts down cleanly, then passes Ctrl-C on
        print("cuttle serve: stopped")
        return 0
    except OSError as e:
        raise CommandError(f"cannot serve on {host}:{args.port}: {e.strerror or e}") \
            from None
    except SystemExit:              # uvicorn's way to say it could not start
        server.started = False
    if not server.started:
        raise CommandError(f"cannot serve on {host}:{args.port} (see the message above)")
    return 0


def _listen_address(host: str, check_host_name: Callable[..., str]) -> str:
    """--host: an IP address or a host name (`cuttle.web.guard.check_host_name`'s, no
    '*'), refused before the server starts (a name of no such form crashed it)."""
    try:
        name = check_host_name(host, "--host")
    except ValueError:
        name = "*"
    if name == "*" or any(len(label) > 63 for label in name.split(".")):
        raise UsageError(f"--host takes the address to listen on, an IP address or a "
                         f"host name (e.g. 0.0.0.0 or mybox.lan), not {quoted(host)}")
    return host.strip()


def _warn(host: str, any_name: bool, answers: str) -> None:
    """The warnings of a server others may reach (`host` not loopback; `answers`: the
    Host names it answers to, in words), and of one that answers to any name."""
    if host not in LOOPBACK:
        more = "" if any_name else " (--allow-host NAME adds a name)"
        print(f"warning: serving on {host}: other machines can reach this server and play "
              f"on it (anyone who can reach it can start games); use the default "
              f"127.0.0.1 to keep it to this machine. It answers to {answers}{more}",
              file=sys.stderr)
    if any_name:
        print("warning: --allow-host '*' turns the Host check off: a web page you visit "
              "could reach this server through a DNS name of its own (DNS rebinding)",
              file=sys.stderr)


def _server(uvicorn: Any, config: Any, web: Any,
            listening: Callable[[list[tuple[str, int]]], None]) -> Any:
    """uvicorn's server for the app, which calls `listening` with the (address, port)
    of each socket once it listens, and aborts the app's work (`web.stop_work`) as soon
    as it begins to stop."""

    class Server(uvicorn.Server):
        async def startup(self, sockets: Any = None) -> None:
            await super().startup(sockets)
            if self.started:        # only now is the port known (--port 0 picks one)
                listening([sock.getsockname()[:2] for server in self.servers
                           for sock in server.sockets])

        async def shutdown(self, sockets: Any = None) -> None:
            # uvicorn waits for the requests in flight before it tells the app to stop;
            # those waiting for a bot's search or a review would wait for all of it.
            web.stop_work()
            await super().shutdown(sockets)

    return Server(config)


def add_command(sub: argparse._SubParsersAction) -> None:
    """Register `serve` on the sub-parsers."""
    sp = sub.add_parser(
        "serve", help="play in the browser: a local web app against the bots",
        description="Start a local web app to play any rule set against the bots in a "
                    "browser (needs the 'web' extra). It listens on 127.0.0.1 only unless "
                    "--host is given.")
    sp.add_argument("--host", default="127.0.0.1",
                    help="the address to listen on (default 127.0.0.1: this machine only)")
    sp.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                    help="a host name the server answers to besides its IP addresses, "
                         "localhost and this machine's name (repeatable; '*': any name, "
                         "the guard against DNS rebinding off)")
    sp.add_argument("--port", type=int, default=8000,
                    help="the port (default 8000; 0: any free port, the address printed "
                         "says which)")
    sp.add_argument("--open", action="store_true",
                    help="open the page in the browser (where none can be run, stderr says "
                         "so)")
    sp.add_argument("--max-games", type=options.at_most(10_000), default=100, metavar="N",
                    help="games in progress at once (default 100); as many finished "
                         "games are kept besides, for their record and review")
    sp.add_argument("--workers", type=options.at_most(256), default=None, metavar="N",
                    help="threads for the bots' searches and hints (default: the cores, at "
                         "least 2)")
    sp.add_argument("--log-level", default="warning",
                    choices=("critical", "error", "warning", "info", "debug"),
                    help="the server's log level (default warning; debug logs each request)")
    sp.set_defaults(func=run)
