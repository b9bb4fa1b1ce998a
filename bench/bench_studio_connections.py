"""Benchmark printdeck studio's connections (issue 27): a request on a kept-alive connection
against one on a new connection, with the studio's socket (``IPPROTO_TCP``, so asyncio sets
``TCP_NODELAY``) and, side by side, a socket made with protocol 0 as before.

Python's ``http.client`` times ``GET /api/state`` on a new connection each and on one
kept-alive connection; Chromium (``/usr/bin/chromium``, if there) times ``fetch('/api/state')``
from the studio's page, on the connection the page keeps alive.

Usage: python bench/bench_studio_connections.py [--runs N]
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import socket
import statistics
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

from printdeck.studio import uploads
from printdeck.studio.connections import server_config
from printdeck.studio.guard import TOKEN_HEADER, Pass
from printdeck.studio.launch import listening_socket
from printdeck.studio.routes import create_app
from printdeck.studio.workspace import Workspace

CHROMIUM = Path("/usr/bin/chromium")
TWEMOJI = Path(__file__).resolve().parent.parent / "assets" / "twemoji"


@contextlib.contextmanager
def studio(folder: Path, sock: socket.socket) -> Iterator[tuple[int, str]]:
    import uvicorn

    port = sock.getsockname()[1]
    gate = Pass.for_port(port, uploads.MAX_UPLOAD_BYTES)
    server = uvicorn.Server(server_config(create_app(Workspace.open(folder), gate)))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.02)
    try:
        yield port, gate.token
    finally:
        server.should_exit = True
        thread.join(10)


def python_ms(port: int, token: str, runs: int, keep_alive: bool) -> float:
    """Median ms of ``GET /api/state`` (new connection each, or one kept alive)."""
    times, connection = [], None
    for _ in range(runs):
        if connection is None or not keep_alive:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        start = time.perf_counter()
        connection.request("GET", "/api/state", headers={TOKEN_HEADER: token})
        connection.getresponse().read()
        times.append((time.perf_counter() - start) * 1000)
        if not keep_alive:
            connection.close()
    return statistics.median(times)


def chromium_ms(port: int, token: str, runs: int) -> float | None:
    """Median ms of ``fetch('/api/state')`` from the studio's page in Chromium."""
    if not CHROMIUM.exists():
        return None
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox", "--disable-gpu"])
        page = browser.new_page()
        page.goto(f"http://127.0.0.1:{port}/#token={token}")
        page.wait_for_selector("body[data-ready]")
        times = page.evaluate(
            """async (runs) => {
            const token = sessionStorage.getItem('printdeck-studio-token');
            const out = [];
            for (let i = 0; i < runs; i++) {
                const start = performance.now();
                await (await fetch('/api/state', { headers: { 'x-printdeck-token': token } })).arrayBuffer();
                out.push(performance.now() - start);
            }
            return out;
        }""",
            runs,
        )
        browser.close()
    return statistics.median(times)


def plain_socket() -> socket.socket:
    """A listening socket made as the studio made it before issue 27 (protocol 0)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    sock.listen(64)
    return sock


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30)
    runs = parser.parse_args().runs
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "deck"
        for name, make in (("IPPROTO_TCP (now)", lambda: listening_socket(0)), ("protocol 0 (before)", plain_socket)):
            with studio(folder, make()) as (port, token):
                python_ms(port, token, 5, True)  # warm
                new = python_ms(port, token, runs, keep_alive=False)
                kept = python_ms(port, token, runs, keep_alive=True)
                browser = chromium_ms(port, token, runs)
            shown = "no Chromium" if browser is None else f"{browser:.1f} ms"
            print(
                f"{name}: Python new connection {new:.2f} ms, kept-alive {kept:.2f} ms "
                f"({kept / new:.2f}x); Chromium fetch, kept-alive: {shown}"
            )


if __name__ == "__main__":
    main()
