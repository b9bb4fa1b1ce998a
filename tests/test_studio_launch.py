"""Starting printdeck studio (issue 17): the command, the port, the link, a new folder."""

from __future__ import annotations

import http.client
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import printdeck
from printdeck.cli import main
from printdeck.studio.guard import TOKEN_HEADER, Pass
from printdeck.studio.launch import HOST, listening_socket
from printdeck.studio.theme_folder import default_folder


def test_the_command_is_listed_with_its_options() -> None:
    result = CliRunner().invoke(main, ["studio", "--help"])
    assert result.exit_code == 0
    assert "--port" in result.output and "--no-browser" in result.output and "FOLDER" in result.output


def test_it_listens_on_loopback_only_and_a_taken_port_is_one_line() -> None:
    sock = listening_socket(0)
    try:
        host, port = sock.getsockname()
        assert host == HOST == "127.0.0.1" and port > 0
        with pytest.raises(printdeck.PrintdeckError, match=rf"^--port {port}: cannot listen on 127\.0\.0\.1:{port}"):
            listening_socket(port)
    finally:
        sock.close()


@pytest.mark.skipif(os.name != "posix", reason="SO_REUSEADDR is set on POSIX only")
def test_a_studio_started_again_on_its_port_listens_at_once() -> None:
    """Stopped with a page's connection closed on the studio's side, the port was refused for
    about a minute (TIME-WAIT): 'cannot listen on 127.0.0.1:8733 (Address already in use)'."""
    import socket

    first = listening_socket(0)
    port = first.getsockname()[1]
    client = socket.create_connection((HOST, port))
    served, _ = first.accept()
    served.close()  # the studio closes first: its side of the connection waits (TIME-WAIT)
    client.close()
    first.close()
    again = listening_socket(port)
    assert again.getsockname()[1] == port
    with pytest.raises(printdeck.PrintdeckError, match=f"--port {port}: cannot listen"):
        listening_socket(port)  # a second studio on a port in use is still refused
    again.close()


def test_every_run_has_its_own_token_and_names() -> None:
    one, two = Pass.for_port(8123, 10), Pass.for_port(8123, 10)
    assert one.token != two.token and len(one.token) >= 40
    assert one.hosts == {"127.0.0.1:8123", "localhost:8123"}
    assert one.link("http://127.0.0.1:8123") == f"http://127.0.0.1:8123/#token={one.token}"  # never sent


def test_a_new_folder_gets_a_free_name(tmp_path: Path) -> None:
    assert default_folder(tmp_path) == tmp_path / "my-deck"
    (tmp_path / "my-deck").mkdir()
    assert default_folder(tmp_path) == tmp_path / "my-deck-2"


def test_the_studio_runs_and_answers_only_its_link(tmp_path: Path) -> None:
    """``python -m printdeck.studio FOLDER --no-browser``, as a user starts it."""
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
    child = subprocess.Popen(
        [sys.executable, "-m", "printdeck.studio", str(tmp_path / "deck"), "--no-browser"],
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        assert child.stdout is not None
        lines = [child.stdout.readline(), child.stdout.readline()]
        assert lines[0].startswith("printdeck studio: editing ") and lines[1].startswith("open http://127.0.0.1:")
        link = lines[1].split()[1]
        address, fragment = link.removeprefix("http://").split("/#token=", 1)
        host, port = address.split(":")
        connection = http.client.HTTPConnection(host, int(port), timeout=30)
        connection.request("GET", "/")
        page = connection.getresponse()
        page.read()
        assert page.status == 200 and page.getheader("set-cookie") is None
        for headers, status in (
            ({TOKEN_HEADER: fragment}, 200),
            ({}, 403),
            ({TOKEN_HEADER: fragment, "host": "evil.example"}, 403),
        ):
            connection.request("GET", "/api/state", headers=headers)
            answer = connection.getresponse()
            answer.read()
            assert answer.status == status, headers
        assert (tmp_path / "deck" / "theme.yaml").is_file()
    finally:
        child.terminate()
        child.wait(20)


def test_work_under_way_on_a_studio_thread_ends_before_the_process(tmp_path: Path) -> None:
    """A daemon thread still inside a C++ library when Python finalises is stopped by an
    unwinding C++ cannot pass: the process aborted (status 134, "terminate called without
    an active exception") after a test left a sheet being drawn. Work inside
    ``background.working()`` is waited for at exit: here it ends and leaves its mark."""
    done = tmp_path / "done"
    script = f"""
import threading, shapely
from printdeck.studio import background
started = threading.Event()
def draw():
    with background.working():
        started.set()
        disc = shapely.Point(0, 0).buffer(10.0)
        for _ in range(300):
            disc = disc.buffer(0.01).simplify(0.001)
        open({str(done)!r}, "w").write("drawn")
threading.Thread(target=draw, daemon=True).start()
started.wait()
"""
    finished = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert finished.returncode == 0, finished.stderr
    assert done.read_text() == "drawn"


def test_no_work_starts_once_the_process_is_ending(tmp_path: Path) -> None:
    """Once the end's wait began (``wait_idle(closing=True)``: the studio stopped, or the
    process exits), work about to start waits for the end instead of entering a C++
    library that finalisation would stop: the check queued next must not run."""
    started = tmp_path / "started"
    script = f"""
import threading
from printdeck.studio import background
assert background.wait_idle(closing=True)
def check():
    with background.working():
        open({str(started)!r}, "w").write("started")
thread = threading.Thread(target=check, daemon=True)
thread.start()
thread.join(0.5)
assert thread.is_alive()  # waiting for the end, not working
"""
    finished = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert finished.returncode == 0, finished.stderr
    assert not started.exists()
