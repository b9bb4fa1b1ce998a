"""Who may use the studio: the person who started it, through the link it opened.

Every request must name the studio by its own address (the ``Host`` header: a web page
elsewhere that points a name at 127.0.0.1, DNS rebinding, is refused) and carry the
run's random token: in the link's ``?token=`` once, then in a cookie only this address
gets back (``SameSite=Strict``, ``HttpOnly``). Requests that change something must come
from the page itself (``Origin``), and a request body may not exceed the upload limit.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import parse_qs, urlencode

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

SAFE_METHODS = {"GET", "HEAD"}
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
    "connect-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'"
)
SVG_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox"


@dataclass(frozen=True)
class Pass:
    """The run's token and the names the studio answers to.

    Attributes:
        token: Random, new every run (``secrets.token_urlsafe(32)``).
        hosts: Accepted ``Host`` headers (``127.0.0.1:PORT``, ``localhost:PORT``).
        cookie: The cookie's name (with the port: a browser shares cookies across ports).
        max_body_bytes: The largest request body accepted.
    """

    token: str
    hosts: frozenset[str]
    cookie: str
    max_body_bytes: int

    @classmethod
    def for_port(cls, port: int, max_body_bytes: int, token: str | None = None) -> Pass:
        """The pass of a studio listening on ``127.0.0.1:port``."""
        hosts = frozenset({f"127.0.0.1:{port}", f"localhost:{port}"})
        return cls(token or secrets.token_urlsafe(32), hosts, f"printdeck_studio_{port}", max_body_bytes)

    def link(self, origin: str) -> str:
        """The address to open: ``http://127.0.0.1:PORT/?token=...``."""
        return f"{origin}/?{urlencode({'token': self.token})}"


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
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        if scope["method"] in SAFE_METHODS and scope["path"] == "/" and query.get("token"):
            await self._welcome(send)
            return
        size = int(headers.get("content-length", "0") or 0)
        if size > self.gate.max_body_bytes:
            await _plain(send, 413, "the upload is too large; send fewer or smaller files at a time")
            return
        started = False

        async def tracked(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, _capped(receive, self.gate.max_body_bytes), _with_headers(tracked, scope["path"]))
        except BodyTooLarge:
            if not started:
                await _plain(send, 413, "the upload is too large; send fewer or smaller files at a time")

    def _refusal(self, scope: Scope, headers: dict[str, str]) -> tuple[int, str] | None:
        if headers.get("host", "") not in self.gate.hosts:
            return 403, "wrong Host header: open the link printdeck studio printed"
        if not self._has_token(scope, headers):
            return 403, "no valid token: open the link printdeck studio printed (the token changes every run)"
        origin = headers.get("origin")
        if scope["method"] not in SAFE_METHODS and origin is not None and _host_of(origin) not in self.gate.hosts:
            return 403, "this request came from another site"
        return None

    def _has_token(self, scope: Scope, headers: dict[str, str]) -> bool:
        cookie = SimpleCookie()
        try:
            cookie.load(headers.get("cookie", ""))
        except Exception:  # noqa: BLE001 - a malformed cookie header is no token
            cookie = SimpleCookie()
        given = cookie[self.gate.cookie].value if self.gate.cookie in cookie else ""
        if given and secrets.compare_digest(given.encode(), self.gate.token.encode()):
            return True
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        token = (query.get("token") or [""])[0]
        return scope["path"] == "/" and bool(token) and secrets.compare_digest(token.encode(), self.gate.token.encode())

    async def _welcome(self, send: Send) -> None:
        """Trade the link's token for the cookie, and go to the page without it in the address."""
        cookie = f"{self.gate.cookie}={self.gate.token}; Path=/; HttpOnly; SameSite=Strict"
        await send(
            {
                "type": "http.response.start",
                "status": 303,
                "headers": [
                    (b"location", b"/"),
                    (b"set-cookie", cookie.encode()),
                    (b"cache-control", b"no-store"),
                    (b"referrer-policy", b"no-referrer"),
                    (b"content-length", b"0"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": b""})


def _host_of(origin: str) -> str:
    return origin.split("://", 1)[-1].rstrip("/")


def _capped(receive: Receive, limit: int) -> Receive:
    """``receive``, refusing a body that grows past ``limit`` bytes (no Content-Length needed)."""
    seen = 0

    async def wrapped() -> Message:
        nonlocal seen
        message = await receive()
        if message["type"] == "http.request":
            seen += len(message.get("body", b""))
            if seen > limit:
                raise BodyTooLarge(limit)
        return message

    return wrapped


class BodyTooLarge(Exception):
    """A request body went past the limit while it was read."""


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


async def _plain(send: Send, status: int, text: str) -> None:
    body = json.dumps({"error": text}).encode()
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
