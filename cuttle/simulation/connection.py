"""Reaching a dask scheduler by its address (the command line's ``--scheduler
tcp://HOST:PORT``): `parse_address` checks the address at once (scheme, host, port) and
`connect` fails fast on a refused connection and gives up after its timeout even against
a listener that accepts and never answers (dask's own handshake would wait forever).
The runs on the cluster are `cuttle.simulation.cluster`'s.
"""

from __future__ import annotations

import contextlib
import socket
import time
import urllib.parse
from typing import TYPE_CHECKING

from .cluster import DEFAULT_PORT, _distributed

if TYPE_CHECKING:
    from distributed import Client

__all__ = ["connect", "parse_address"]


def parse_address(address: str) -> tuple[str, int]:
    """(host, port) of a scheduler address ``tcp://HOST:PORT`` (the port defaults to
    8786); ValueError saying what is wrong.  Other transports (tls://, ucx://, ...)
    need settings the command line does not take: connect a dask Client in Python and
    pass it as ``client=``."""
    text = str(address).strip()
    scheme, sep, rest = text.partition("://")
    if not sep:
        raise ValueError(f"expected a scheduler address like tcp://HOST:{DEFAULT_PORT}, "
                         f"not {address!r}")
    if scheme.lower() != "tcp":
        raise ValueError(f"{address!r}: only tcp://HOST:PORT addresses are supported here; "
                         f"to use {scheme}://, connect a dask.distributed.Client in Python "
                         f"(with its security settings) and pass it as client=")
    try:
        parts = urllib.parse.urlsplit(f"tcp://{rest}")
        host, port = parts.hostname, parts.port
    except ValueError:
        parts, host, port = None, None, -1
    if parts is None or port == -1 or not host or parts.path or parts.query \
            or parts.fragment or parts.username is not None:
        raise ValueError(f"{address!r}: expected tcp://HOST:PORT with a port from 1 to "
                         f"65535")
    if port == 0:
        raise ValueError(f"{address!r}: the port must be from 1 to 65535, not 0")
    return host, DEFAULT_PORT if port is None else port


def connect(address: str, timeout: float = 10.0) -> Client:
    """A Client of the scheduler at `address` (``tcp://HOST:PORT``, see
    `parse_address`: ValueError if it is malformed).  OSError (ConnectionRefusedError
    at once, TimeoutError after `timeout` seconds) naming the address if the scheduler
    cannot be reached, does not answer, or answers as no dask scheduler does."""
    host, port = parse_address(address)
    distributed = _distributed()        # without dask, say which extra before connecting
    deadline = time.monotonic() + timeout
    try:
        socket.create_connection((host, port), timeout=timeout).close()
    except socket.gaierror as e:
        raise OSError(f"cannot reach the dask scheduler at {address}: unknown host "
                      f"{host!r} ({e.strerror})") from None
    except TimeoutError:
        raise TimeoutError(f"the dask scheduler at {address} did not accept a connection "
                           f"within {timeout:g} s") from None
    except OSError as e:        # e.g. ConnectionRefusedError, at once
        raise type(e)(f"cannot reach the dask scheduler at {address}: "
                      f"{(e.strerror or str(e)).lower()}") from None
    left = max(0.5, deadline - time.monotonic())
    where = f"tcp://[{host}]:{port}" if ":" in host else f"tcp://{host}:{port}"   # IPv6
    try:
        return _bounded_client(distributed)(where, timeout=f"{left}s")
    except (OSError, TimeoutError) as e:
        if isinstance(e, TimeoutError) or "Timed out" in str(e):
            raise TimeoutError(f"the dask scheduler at {address} did not answer within "
                               f"{timeout:g} s (is it a dask scheduler?)") from None
        # (dask's own text names the connection's local port, not the address)
        raise OSError(f"the server at {address} closed the connection without answering "
                      f"as a dask scheduler (is it one?)") from None
    except Exception as e:      # noqa: BLE001 (dask read an answer that made no sense)
        # e.g. a web server's "HTTP/1.0 ..." read as frame lengths: a MemoryError
        raise OSError(f"the server at {address} is not a dask scheduler: dask could not "
                      f"read its answer ({type(e).__name__})") from None


def _bounded_client(distributed):
    """A Client class whose start-up gives up after its timeout.  dask's own timeout
    covers the TCP connection, not the handshake after it, which waits forever on a
    listener that never answers; the start-up as a whole is bounded here."""
    class BoundedClient(distributed.Client):
        def start(self, **kwargs):
            # (sync() takes callback_timeout: it waits that long, then cancels the
            # start-up and raises TimeoutError)
            kwargs.setdefault("callback_timeout", kwargs.get("timeout"))
            try:
                return super().start(**kwargs)
            except BaseException:
                # Closed here, not left to the garbage collector: its __del__ closes
                # it wherever a collection runs, such as the first moments of the
                # next client's event-loop thread, whose start holds the lock that
                # closing needs (the next client waited 10 s, then failed).
                with contextlib.suppress(Exception):
                    self.close()
                raise
    return BoundedClient
