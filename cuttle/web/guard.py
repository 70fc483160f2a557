"""What every request meets first (`Guard`, the app's outermost middleware): the Host
check against DNS rebinding (a web page cannot reach the server through a DNS name of
its own) and the security headers of every response.  The host names a server answers
to are made here too (`host_names`, from ``cuttle serve --allow-host`` and
``cuttle.web.app(allowed_hosts=...)``).
"""

from __future__ import annotations

import ipaddress
import re
import socket
from typing import TYPE_CHECKING, Any

from starlette.responses import JSONResponse

from ..text import quoted

if TYPE_CHECKING:
    from collections.abc import Iterable

__all__ = ["ANY_HOST", "LOOPBACK_HOSTS", "SECURITY_HEADERS", "Guard", "check_host_name",
           "host_names", "hosts_answered"]

LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")
ANY_HOST = "*"                  # (an allowed host name: any, the Host check off)
_DNS_NAME = re.compile(r"[a-z0-9_-]+(\.[a-z0-9_-]+)*")    # (an IDN in its xn-- form)
_HOST_HEADER = re.compile(r"\[(?P<v6>[^\]]*)\](:\d*)?|(?P<name>[^:\[\]]*)(:\d*)?")
SECURITY_HEADERS = [
    (b"content-security-policy",
     b"default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
     b"img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; "
     b"base-uri 'none'; form-action 'self'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cache-control", b"no-store"),
]


class Guard:
    """ASGI middleware: refuse a Host header this server does not answer to (a web
    page cannot reach the server through a DNS name of its own: no DNS rebinding) and
    add the security headers to every response.  `hosts`: `host_names`' (None: any)."""

    def __init__(self, inner: Any, hosts: frozenset[str] | None) -> None:
        self.inner = inner
        self.hosts = hosts

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.inner(scope, receive, send)
        if self.hosts is not None:
            host = _host_name(dict(scope["headers"]).get(b"host", b"").decode("latin-1"))
            if host not in self.hosts and not _is_ip(host):
                resp = JSONResponse({"error": f"this server does not answer to the host "
                                              f"name {quoted(host)} (against DNS rebinding, it "
                                              f"answers only to its IP addresses, "
                                              f"localhost, this machine's name and the "
                                              f"names given with cuttle serve "
                                              f"--allow-host)"}, 400)
                return await resp(scope, receive, send)

        async def send_secure(message):
            if message["type"] == "http.response.start":
                message = dict(message)
                headers = list(message.get("headers", []))
                own = {k.lower() for k, _ in headers}    # a page's own policy is kept
                message["headers"] = headers + [(k, v) for k, v in SECURITY_HEADERS
                                                if k not in own]
            await send(message)
        await self.inner(scope, receive, send_secure)


def _host_name(host: str) -> str:
    """The name of a Host header without its port ('[::1]:8000' -> '::1'); a header
    of no such form whole (answered to only if it is an IP address, or allowed)."""
    host = host.strip().lower()
    m = _HOST_HEADER.fullmatch(host)
    return host if m is None else m.group("v6") or m.group("name") or ""


def _is_ip(host: str) -> bool:
    """Whether `host` is an IP address (IPv6 with its zone too: 'fe80::1%eth0').  A
    browser sends one only for an address it was given, which no DNS answer can change
    under a page: the Host check answers to any."""
    try:
        ipaddress.ip_address(host.partition("%")[0])
    except ValueError:
        return False
    return True


def check_host_name(name: object, what: str = "allowed_hosts") -> str:
    """`name`, a host name the app may answer to besides its own, in lower case: a DNS
    name (letters, digits, '-', '_' and dots; an international one in its xn-- form),
    an IP address, or ANY_HOST ('*', any); ValueError, saying what `what` takes,
    otherwise (a scheme, a port, a path)."""
    if isinstance(name, str):
        n = name.strip().lower()
        if n == ANY_HOST or _is_ip(n) or (len(n) <= 253 and _DNS_NAME.fullmatch(n)):
            return n
    raise ValueError(f"{what} takes a host name such as mybox.lan (no scheme, port or "
                     f"path) or '*' (any), not {quoted(name)}")


def host_names(allowed: Iterable[str] | str | None = ()) -> frozenset[str] | None:
    """The host names the app answers to (and any IP address besides, always):
    localhost, this machine's name (`socket.gethostname`) and `allowed` (checked by
    `check_host_name`); None, any, when `allowed` is None or holds '*'."""
    if allowed is None:
        return None
    names = {check_host_name(n) for n in ((allowed,) if isinstance(allowed, str)
                                          else allowed)}
    if ANY_HOST in names:
        return None
    own = socket.gethostname().strip().lower()
    return frozenset(names | set(LOOPBACK_HOSTS) | ({own} if own else set()))


def hosts_answered(hosts: frozenset[str] | None) -> str:
    """What a server of `host_names`' `hosts` answers to, in words (the warning of
    `cuttle serve`): "its IP addresses and the names localhost, mybox"."""
    if hosts is None:
        return "any host name"
    names = sorted(h for h in hosts if not _is_ip(h))
    return f"its IP addresses and the names {', '.join(names)}"
