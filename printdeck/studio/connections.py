"""The studio's connections: a listening socket that sends small answers at once, and
an HTTP protocol that ends connections whose request headers do not arrive in time.

A socket made with protocol 0 works, but asyncio sets ``TCP_NODELAY`` only on sockets
whose protocol is ``IPPROTO_TCP``: on a kept-alive connection every answer would then
wait for the client's delayed ACK (Nagle's algorithm, ~40 ms a request). The listening
socket is made with ``IPPROTO_TCP`` and ``TCP_NODELAY`` (accepted sockets inherit both).

uvicorn ends idle kept-alive connections (``timeout_keep_alive``) but lets a client take
as long as it likes to send a request's headers; :class:`TimedH11Protocol` closes a
connection whose request line and headers are not all in within :data:`HEADER_TIMEOUT_S`
(the body's own limits are the guard's: :mod:`printdeck.studio.guard`).
"""

from __future__ import annotations

import asyncio
import socket
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

HEADER_TIMEOUT_S = 10.0
"""Longest time, seconds, from a connection (or the end of its last answer) to the end of
the next request's headers."""
KEEP_ALIVE_S = 5.0
"""How long an idle kept-alive connection stays open, seconds."""


def tcp_socket() -> socket.socket:
    """An IPv4 TCP socket with ``IPPROTO_TCP`` and ``TCP_NODELAY`` (see the module's note)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return sock


class TimedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol, closing a connection whose request headers are late.

    The timer starts when the connection is made and again when an answer is complete;
    it stops when a request's headers are in. ``header_timeout_s`` is a class attribute
    (:func:`timed_protocol` makes a class with another value).
    """

    header_timeout_s = HEADER_TIMEOUT_S

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._headers_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        """Start the connection and the clock for its first request's headers."""
        super().connection_made(transport)
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        """Stop the clock with the connection."""
        self._disarm()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        """Take the bytes; stop the clock once a request's headers are all in."""
        super().data_received(data)
        if self.conn.their_state is not h11.IDLE:
            self._disarm()

    def on_response_complete(self) -> None:
        """After an answer, the next request's headers are timed again."""
        super().on_response_complete()
        if not self.transport.is_closing() and self.conn.their_state is h11.IDLE:
            self._arm()

    def _arm(self) -> None:
        self._disarm()
        self._headers_timer = self.loop.call_later(self.header_timeout_s, self._headers_late)

    def _disarm(self) -> None:
        if self._headers_timer is not None:
            self._headers_timer.cancel()
            self._headers_timer = None

    def _headers_late(self) -> None:
        self._headers_timer = None
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            self.transport.close()


def timed_protocol(header_timeout_s: float) -> type[TimedH11Protocol]:
    """:class:`TimedH11Protocol` with another header timeout (seconds)."""
    return type("TimedH11Protocol", (TimedH11Protocol,), {"header_timeout_s": header_timeout_s})


def server_config(app: Any, header_timeout_s: float = HEADER_TIMEOUT_S) -> Any:
    """The uvicorn configuration the studio runs with (quiet, header timeout, keep-alive)."""
    import uvicorn  # noqa: PLC0415 - only when serving

    return uvicorn.Config(
        app,
        http=timed_protocol(header_timeout_s),
        log_level="warning",
        access_log=False,
        lifespan="off",
        timeout_keep_alive=int(KEEP_ALIVE_S),
    )
