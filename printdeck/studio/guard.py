"""Who may use the studio: the person who started it, through the link it opened.

Every request must name the studio by its own address (the ``Host`` header: a web page
elsewhere that points a name at 127.0.0.1, DNS rebinding, is refused). The page and its
static files hold nothing private and need only that; every ``/api/`` request must also
carry the run's random token in the ``X-Printdeck-Token`` header. The link gives the
token in its ``#fragment``, which a browser never sends to a server nor puts in a
``Referer``; the page keeps it in ``sessionStorage`` (per origin, so per port) and sends
it with each request, pictures and downloads included (fetched as blobs). There is no
cookie: a browser scopes cookies by host, not port, and would hand one to every other
server on 127.0.0.1. A custom header also makes any cross-site request a CORS preflight,
which is refused. Requests that change something, and every ``/api/`` request, must come
from the page itself: an ``Origin`` other than ``http://`` and the studio's own host, or a
``Sec-Fetch-Site`` saying another site (another port of 127.0.0.1 included), is refused. A
request body may not exceed the upload limit, and must keep arriving (:data:`BODY_IDLE_S`,
:data:`BODY_TOTAL_S`).
"""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

SAFE_METHODS = {"GET", "HEAD"}
FETCH_SITES = frozenset({"same-origin", "none"})
"""The ``Sec-Fetch-Site`` values an API request may carry: from the page itself, or opened
by the person (another port of 127.0.0.1 is ``same-site``, another origin all the same)."""
TOKEN_HEADER = "x-printdeck-token"
BODY_IDLE_S = 15.0
"""Longest wait, seconds, for the next part of a request body (a stalled upload is ended)."""
BODY_TOTAL_S = 120.0
"""Longest time, seconds, a whole request body may take (a trickled upload is ended)."""
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
    "connect-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'"
)
SVG_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox"
EXPIRED_LINK = "expired-link"
"""The ``code`` of a request's refusal for want of this run's token: a page opened from an
earlier run's link (the page then says the deck is safe and which link to open)."""


@dataclass(frozen=True)
class Pass:
    """The run's token and the names the studio answers to.

    Attributes:
        token: Random, new every run (``secrets.token_urlsafe(32)``: 43 characters).
        hosts: Accepted ``Host`` headers (``127.0.0.1:PORT``, ``localhost:PORT``).
        max_body_bytes: The largest request body accepted.
        body_idle_s: Longest wait for the next part of a body, seconds.
        body_total_s: Longest time a whole body may take, seconds.
    """

    token: str
    hosts: frozenset[str]
    max_body_bytes: int
    body_idle_s: float = BODY_IDLE_S
    body_total_s: float = BODY_TOTAL_S

    @classmethod
    def for_port(cls, port: int, max_body_bytes: int, token: str | None = None) -> Pass:
        """The pass of a studio listening on ``127.0.0.1:port``."""
        hosts = frozenset({f"127.0.0.1:{port}", f"localhost:{port}"})
        return cls(token or secrets.token_urlsafe(32), hosts, max_body_bytes)

    @property
    def origins(self) -> frozenset[str]:
        """The ``Origin`` headers of the studio's own page: ``http://`` and an accepted host
        (not ``https://``, which is another origin, nor another port)."""
        return frozenset(f"http://{host}" for host in self.hosts)

    def link(self, origin: str) -> str:
        """The address to open: ``http://127.0.0.1:PORT/#token=...`` (the token in the
        fragment, which the browser keeps to itself)."""
        return f"{origin}/#token={self.token}"

    def admits(self, given: str) -> bool:
        """Whether ``given`` (a request's token header) is this run's token (constant time)."""
        return bool(given) and secrets.compare_digest(given.encode("latin-1"), self.token.encode())


class Guard:
    """ASGI middleware enforcing a :class:`Pass` on every HTTP request."""

    def __init__(self, app: ASGIApp, gate: Pass) -> None:
        self.app = app
        self.gate = gate

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Refuse the request (403, 413) or pass it on with safe response headers."""
        if scope["type"] != "http":
            if scope["type"] == "lifespan":
                await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        refusal = self._refusal(scope, headers)
        if refusal is not None:
            await _plain(send, *refusal)
            return
        size = int(headers.get("content-length", "0") or 0) if headers.get("content-length", "").isdigit() else 0
        if size > self.gate.max_body_bytes:
            await _plain(send, 413, too_large(size, self.gate.max_body_bytes))
            return
        started = False

        async def tracked(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, _capped(receive, self.gate), _with_headers(tracked, scope["path"]))
        except BodyTooLarge as exc:
            if not started:
                await _plain(send, 413, too_large(exc.seen, exc.limit))
        except BodyTooSlow as exc:
            if not started:
                await _plain(send, 408, str(exc))

    def _refusal(self, scope: Scope, headers: dict[str, str]) -> tuple[int, str, str | None] | None:
        if headers.get("host", "") not in self.gate.hosts:
            return 403, "wrong Host header: open the link printdeck studio printed", None
        public = scope["method"] in SAFE_METHODS and (scope["path"] == "/" or scope["path"].startswith("/static/"))
        if not public and not self.gate.admits(headers.get(TOKEN_HEADER, "")):
            message = "no valid token: open the link printdeck studio printed (the token changes every run)"
            return 403, message, EXPIRED_LINK
        origin = headers.get("origin")
        foreign = origin is not None and origin.rstrip("/") not in self.gate.origins
        if (foreign and (not public or scope["method"] not in SAFE_METHODS)) or (
            not public and headers.get("sec-fetch-site", "same-origin") not in FETCH_SITES
        ):
            return 403, "this request came from another site", None
        return None


def too_large(size: int, limit: int) -> str:
    """The one line for a request body over ``limit`` bytes (``size``: bytes seen so far)."""

    def amount(count: int) -> str:
        return f"{count / 1e6:.1f} MB" if count >= 1e6 else f"{count / 1e3:.1f} kB"

    got = f"{amount(size)} is" if size > limit else "it is"
    return (
        f"the upload is too large ({got} more than the {amount(limit)} a request may hold); "
        "send fewer or smaller files at a time"
    )


def _capped(receive: Receive, gate: Pass) -> Receive:
    """``receive``, refusing a body that grows past the pass's limit (no Content-Length
    needed) or that stalls or trickles (each part within ``body_idle_s``, the whole body
    within ``body_total_s``). Once the body is in, ``receive`` is passed through as it is
    (waiting for a disconnect is not a body)."""
    seen = 0
    ended = False
    deadline = time.monotonic() + gate.body_total_s

    async def wrapped() -> Message:
        nonlocal seen, ended
        if ended:
            return await receive()
        wait = min(gate.body_idle_s, deadline - time.monotonic())
        try:
            message = await asyncio.wait_for(receive(), timeout=max(wait, 0.0))
        except asyncio.TimeoutError:
            raise BodyTooSlow(
                f"the request body stalled or came too slowly (more than {gate.body_idle_s:g} s between parts "
                f"or {gate.body_total_s:g} s in all); send it again"
            ) from None
        if message["type"] == "http.request":
            seen += len(message.get("body", b""))
            if seen > gate.max_body_bytes:
                raise BodyTooLarge(seen, gate.max_body_bytes)
            ended = not message.get("more_body", False)
        else:
            ended = True
        return message

    return wrapped


class BodyTooLarge(Exception):
    """A request body went past the limit while it was read (``seen``: bytes so far;
    ``limit``: the most allowed, bytes)."""

    def __init__(self, seen: int, limit: int) -> None:
        super().__init__(seen, limit)
        self.seen = seen
        self.limit = limit


class BodyTooSlow(Exception):
    """A request body stalled or trickled past the pass's time limits."""


def _with_headers(send: Send, path: str) -> Send:
    """``send``, adding the security headers to the response."""

    async def wrapped(message: Message) -> None:
        if message["type"] == "http.response.start":
            headers = list(message.get("headers", []))
            names = {k.lower() for k, _ in headers}
            svg = any(k.lower() == b"content-type" and v.startswith(b"image/svg") for k, v in headers)
            extra = [
                (b"content-security-policy", (SVG_CSP if svg else CSP).encode()),
                (b"x-content-type-options", b"nosniff"),
                (b"referrer-policy", b"no-referrer"),
                (b"x-frame-options", b"DENY"),
                (b"cross-origin-resource-policy", b"same-origin"),
            ]
            if b"cache-control" not in names:
                extra.append((b"cache-control", b"no-store" if path.startswith("/api/") else b"no-cache"))
            message = {**message, "headers": headers + [h for h in extra if h[0] not in names]}
        await send(message)

    return wrapped


async def _plain(send: Send, status: int, text: str, code: str | None = None) -> None:
    body = json.dumps({"error": text, **({"code": code} if code else {})}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"cache-control", b"no-store"),
                (b"x-content-type-options", b"nosniff"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
