"""Attacks on printdeck studio from this computer (issue 27): a reusable attack run.

Every case talks to a studio on 127.0.0.1 only; every loop is bounded in count and time.
``python -m pytest tests/test_studio_attacks.py -s`` runs them all and prints the
figures (latencies, times to cut a connection off) that bench/RESULTS.md quotes.

- The token: no cookie, nothing in an address; another user of the computer finds it in
  no process's command line (``/proc/*/cmdline``) and no file, and reads nothing of the
  theme folder (root: ``useradd`` + ``runuser``; skipped otherwise, saying so).
- Folders only the user reads: a new folder 0700, its files 0600; an existing folder
  left alone, with a note.
- Writes that fail: the folder moved away, a full disk (a 1-2 MB tmpfs as root; without
  root, ``ENOSPC`` injected where the operating system would return it), a read-only
  disk (root), names of 4-byte letters and CJK: a 4xx answer of one line, nothing orphaned.
- SVGs with scripts hidden in SMIL, ``data:`` documents and outside references: refused
  by ``printdeck check`` and by the studio.
- Connections: kept-alive requests as quick as new connections (TCP_NODELAY); trickled
  headers and bodies cut off; refused tiles cleared; honest size and spool messages.
"""

from __future__ import annotations

import base64
import contextlib
import dataclasses
import errno
import http.client
import io
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
import yaml
from click.testing import CliRunner
from PIL import Image

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from printdeck.cli import main as cli
from printdeck.studio import uploads
from printdeck.studio.connections import server_config
from printdeck.studio.guard import TOKEN_HEADER, Pass
from printdeck.studio.launch import listening_socket
from printdeck.studio.routes import create_app
from printdeck.studio.theme_folder import privacy_note
from printdeck.studio.workspace import Workspace

REPO = Path(__file__).resolve().parent.parent
TWEMOJI = REPO / "assets" / "twemoji"
TOKEN = "attack-run-token-not-the-real-one-000000000"
ATTACKER = "printdeck-attacker"
AS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0
needs_root = pytest.mark.skipif(not AS_ROOT, reason="needs root (useradd, runuser, mount -t tmpfs); run as root")


# -- helpers ---------------------------------------------------------------------------------


def client_for(folder: Path, **gate: Any) -> TestClient:
    space = Workspace.open(folder)
    return TestClient(
        create_app(space, Pass(TOKEN, frozenset({"testserver"}), 10**9, **gate)), headers={TOKEN_HEADER: TOKEN}
    )


def noise_png(side: int, seed: int = 0) -> bytes:
    """An opaque PNG of random pixels (does not compress: ``side``² × 3 bytes and more)."""
    rng = __import__("random").Random(seed)
    image = Image.frombytes("RGB", (side, side), bytes(rng.getrandbits(8) for _ in range(side * side * 3)))
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=0)
    return out.getvalue()


def svg(name: str = "a") -> tuple[str, bytes]:
    path = sorted(TWEMOJI.glob("*.svg"))[ord(name[0]) % 50]
    return f"{name}.svg", path.read_bytes()


def upload(client: TestClient, files: list[tuple[str, bytes]], drop: str | None = None) -> Any:
    data = {"drop": drop} if drop else None
    return client.post(
        "/api/files?wait=1", files=[("files", (n, d, "application/octet-stream")) for n, d in files], data=data
    )


def everything_in(folder: Path) -> list[str]:
    """Every file and folder under ``folder`` (temporary files included), relative."""
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


def theme_symbols(folder: Path) -> list[Any]:
    return yaml.safe_load((folder / "theme.yaml").read_text(encoding="utf-8"))["symbols"]


@contextlib.contextmanager
def live_studio(
    folder: Path, header_timeout_s: float = 10.0, sock: socket.socket | None = None, **gate: Any
) -> Iterator[tuple[int, str]]:
    """A studio served by uvicorn on a thread: (port, token)."""
    import uvicorn

    sock = sock or listening_socket(0)
    port = sock.getsockname()[1]
    gate_pass = dataclasses.replace(Pass.for_port(port, uploads.MAX_UPLOAD_BYTES), **gate)
    server = uvicorn.Server(server_config(create_app(Workspace.open(folder), gate_pass), header_timeout_s))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    try:
        yield port, gate_pass.token
    finally:
        server.should_exit = True
        thread.join(10)


def request_times_ms(port: int, token: str, count: int, keep_alive: bool) -> list[float]:
    """Times of ``count`` ``GET /api/state``: on one kept-alive connection, or a new one each."""
    times, connection = [], None
    for _ in range(count):
        if connection is None or not keep_alive:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        start = time.perf_counter()
        connection.request("GET", "/api/state", headers={TOKEN_HEADER: token})
        answer = connection.getresponse()
        answer.read()
        times.append((time.perf_counter() - start) * 1000)
        assert answer.status == 200
        if not keep_alive:
            connection.close()
    if connection is not None:
        connection.close()
    return times


def closed_after_s(sock: socket.socket, limit_s: float, drip: bytes = b"", every_s: float = 0.2) -> tuple[float, bytes]:
    """Send ``drip`` every ``every_s`` until the server answers or closes (at most
    ``limit_s``); (seconds it took, what it answered)."""
    start = time.monotonic()
    sock.settimeout(every_s)
    answer = b""
    while time.monotonic() - start < limit_s:
        try:
            if drip:
                sock.sendall(drip)
            chunk = sock.recv(4096)
            answer += chunk
            if not chunk or b"\r\n\r\n" in answer:
                return time.monotonic() - start, answer
        except TimeoutError:
            continue
        except OSError:
            return time.monotonic() - start, answer
    return float("inf"), answer


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 2 MB tmpfs (root only), unmounted afterwards."""
    if not AS_ROOT:
        pytest.skip("a real full disk needs root (mount -t tmpfs); the ENOSPC cases without root run instead")
    mount = tmp_path / "small-disk"
    mount.mkdir()
    made = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=2m,mode=0755", "tmpfs", str(mount)], capture_output=True, text=True
    )
    if made.returncode != 0:
        pytest.skip(f"mount -t tmpfs failed (no CAP_SYS_ADMIN here?): {made.stderr.strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def fill_leaving(folder: Path, free_bytes: int, name: str = "filler.bin") -> None:
    """Fill ``folder``'s file system until about ``free_bytes`` are left."""
    info = os.statvfs(folder)
    filler = info.f_bavail * info.f_frsize - free_bytes
    if filler > 0:
        (folder / name).write_bytes(b"\1" * filler)


# -- 1. the token ------------------------------------------------------------------------------


def test_no_cookie_no_token_in_addresses_and_preflights_refused(tmp_path: Path) -> None:
    with client_for(tmp_path / "deck") as c:
        answers = [c.get("/"), c.get("/api/state"), c.post("/api/words", json={"text": "cat"})]
        assert all(a.status_code == 200 and "set-cookie" not in a.headers for a in answers)
        for attempt in (
            {"headers": {TOKEN_HEADER: ""}, "url": f"/api/state?token={TOKEN}"},
            {"headers": {TOKEN_HEADER: "", "cookie": f"printdeck_studio_1={TOKEN}"}, "url": "/api/state"},
            {"headers": {TOKEN_HEADER: "", "authorization": f"Bearer {TOKEN}"}, "url": "/api/state"},
            {"headers": {TOKEN_HEADER: TOKEN, "host": "127.0.0.1.nip.io:1"}, "url": "/api/state"},
        ):
            assert c.get(attempt["url"], headers=attempt["headers"]).status_code == 403, attempt
        evil = {"origin": "http://127.0.0.1:9999"}  # a page on another port of this computer
        assert c.post("/api/words", json={"text": "dog"}, headers=evil).status_code == 403
        assert c.options("/api/words", headers={**evil, TOKEN_HEADER: ""}).status_code == 403


def test_only_the_page_itself_may_call_the_api(tmp_path: Path) -> None:
    """A review found the origin check read the host only (``https://`` and the studio's own
    host passed), let a GET with another site's ``Origin`` through, and never read
    ``Sec-Fetch-Site``. The token is still needed, but the page alone may call the API."""
    with client_for(tmp_path / "deck") as c:
        for headers in (
            {"origin": "https://testserver"},  # another scheme: another origin
            {"origin": "http://testserver.evil.example"},
            {"origin": "null"},
            {"sec-fetch-site": "cross-site"},
            {"sec-fetch-site": "same-site"},  # another port of 127.0.0.1
        ):
            assert c.post("/api/words", json={"text": "dog"}, headers=headers).status_code == 403, headers
            assert c.get("/api/state", headers=headers).status_code == 403, headers
        assert c.get("/api/state", headers={"origin": "http://evil.example"}).status_code == 403
        page = {"origin": "http://testserver", "sec-fetch-site": "same-origin"}
        assert c.post("/api/words", json={"text": "dog"}, headers=page).status_code == 200
        assert c.get("/", headers={"sec-fetch-site": "cross-site"}).status_code == 200  # the page holds nothing private
        assert [s["text"] for s in theme_symbols(tmp_path / "deck")] == ["dog"]  # the refused ones changed nothing


ATTACK_SCRIPT = r"""
import glob, http.client, json, os, sys
folder, runtime, port = sys.argv[1], sys.argv[2], int(sys.argv[3])
cmdlines = []
for path in glob.glob("/proc/[0-9]*/cmdline"):
    try:
        with open(path, "rb") as f:
            cmdlines.append(f.read().replace(b"\0", b" ").decode("utf-8", "replace"))
    except OSError:
        pass
environs = 0
for path in glob.glob("/proc/[0-9]*/environ"):
    try:
        with open(path, "rb") as f:
            f.read()
            environs += 1
    except OSError:
        pass
read = []
for root in (folder, runtime):
    named = [os.path.join(root, n) for n in ("theme.yaml", "images", "images/cat.png")]
    for candidate in [root] + named + sorted(glob.glob(root + "/*")):
        try:
            if os.path.isdir(candidate):
                os.listdir(candidate)
            else:
                with open(candidate, "rb") as f:
                    f.read(1)
            read.append(candidate)
        except OSError:
            pass
connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
connection.request("GET", "/api/state")
print(json.dumps({"cmdlines": cmdlines, "read": read, "api": connection.getresponse().status, "me": os.getuid()}))
"""

FAKE_BROWSER = """#!{python}
import os, sys, time
with open({record!r}, "w") as out:
    out.write(str(os.getpid()) + "\\n" + " ".join(sys.argv))
time.sleep(30)
"""


@contextlib.contextmanager
def other_user() -> Iterator[str]:
    """A system user of no privilege, made for the run (removed after if it was made here)."""
    made = subprocess.run(["id", ATTACKER], capture_output=True).returncode != 0
    if made:
        add = subprocess.run(
            ["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", ATTACKER],
            capture_output=True,
            text=True,
        )
        if add.returncode != 0:
            pytest.skip(f"useradd failed: {add.stderr.strip()}")
    try:
        yield ATTACKER
    finally:
        if made:
            subprocess.run(["userdel", ATTACKER], check=False, capture_output=True)


@needs_root
def test_another_user_finds_no_token_and_reads_nothing(tmp_path: Path) -> None:
    """The studio started as a person starts it (browser opened), then another user of the
    computer looks at every process's command line and at the folder and runtime files."""
    shared = Path(tempfile.mkdtemp(prefix="printdeck-attack-"))  # 0755 parents: only the studio's modes protect
    os.chmod(shared, 0o755)
    record = shared / "browser-argv.txt"
    browser = shared / "fake-browser"
    browser.write_text(FAKE_BROWSER.format(python=sys.executable, record=str(record)))
    browser.chmod(0o755)
    (shared / "run").mkdir(mode=0o755)
    env = {
        **os.environ,
        "PYTHONPATH": str(REPO),
        "BROWSER": str(browser),
        "XDG_RUNTIME_DIR": str(shared / "run"),
        "HOME": str(shared),
    }
    child = subprocess.Popen(
        [sys.executable, "-m", "printdeck.studio", str(shared / "deck")], stdout=subprocess.PIPE, text=True, env=env
    )
    browser_pid = None
    try:
        assert child.stdout is not None
        link = next(line.split()[1] for line in child.stdout if line.startswith("open "))
        origin, token = link.split("/#token=", 1)
        deadline = time.monotonic() + 20
        while not record.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        browser_pid, argv = record.read_text().split("\n", 1)
        assert token not in argv and "printdeck-studio/studio-" in argv  # the browser got the redirect file
        port = int(origin.rsplit(":", 1)[1])
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        body, boundary = _multipart("cat.png", noise_png(40))
        connection.request(
            "POST", "/api/files?wait=1", body=body, headers={TOKEN_HEADER: token, "content-type": boundary}
        )
        assert connection.getresponse().status == 200
        folder = shared / "deck"
        assert (folder / "images" / "cat.png").is_file()
        with other_user() as user:
            seen = subprocess.run(
                [
                    "runuser",
                    "-u",
                    user,
                    "--",
                    "/usr/bin/python3",
                    "-c",
                    ATTACK_SCRIPT,
                    str(folder),
                    str(shared / "run" / "printdeck-studio"),
                    str(port),
                ],
                capture_output=True,
                text=True,
                timeout=60,
                cwd="/",
            )
        assert seen.returncode == 0, seen.stderr
        found = json.loads(seen.stdout)
        assert found["me"] != 0
        assert any(str(browser) in c for c in found["cmdlines"]), (
            "the browser's command line was not visible: the check proves nothing"
        )
        assert not [c for c in found["cmdlines"] if token in c]
        assert found["read"] == [], found["read"]
        assert found["api"] == 403
        print(
            f"\nanother user: {len(found['cmdlines'])} command lines read, none with the token; "
            "nothing of the folder or the redirect file readable"
        )
    finally:
        child.terminate()
        child.wait(20)
        if browser_pid:
            with contextlib.suppress(OSError):
                os.kill(int(browser_pid), 15)
        left = list((shared / "run" / "printdeck-studio").glob("*.html"))
        shutil.rmtree(shared, ignore_errors=True)
    assert child.returncode == 0 and left == []  # the redirect file went when the studio stopped


def _multipart(name: str, data: bytes) -> tuple[bytes, str]:
    boundary = "printdeck-attack-boundary"
    body = (
        (
            f'--{boundary}\r\nContent-Disposition: form-data; name="files"; filename="{name}"\r\n'
            "Content-Type: application/octet-stream\r\n\r\n"
        ).encode()
        + data
        + f"\r\n--{boundary}--\r\n".encode()
    )
    return body, f"multipart/form-data; boundary={boundary}"


# -- 2. folders only the user reads ---------------------------------------------------------------


def test_a_new_folder_and_its_files_are_the_users_alone(tmp_path: Path) -> None:
    with client_for(tmp_path / "deck") as c:
        assert upload(c, [("cat.png", noise_png(40)), svg("b")]).status_code == 200
        assert (
            c.post("/api/backs-image", files=[("file", ("logo.png", noise_png(64, 2), "image/png"))]).status_code == 200
        )
    folder = tmp_path / "deck"
    modes = {p.relative_to(folder).as_posix(): p.stat().st_mode & 0o777 for p in [folder, *folder.rglob("*")]}
    assert modes == {
        ".": 0o700,
        "theme.yaml": 0o600,
        "images": 0o700,
        "images/cat.png": 0o600,
        "images/b.svg": 0o600,
        "backs": 0o700,
        "backs/logo.png": 0o600,
    }, modes


def test_an_existing_folder_keeps_its_modes_with_a_note(tmp_path: Path) -> None:
    folder = tmp_path / "shared-deck"
    folder.mkdir(mode=0o755)
    folder.chmod(0o755)
    Workspace.open(folder)
    assert folder.stat().st_mode & 0o777 == 0o755
    note = privacy_note(folder)
    assert note is not None and "other users of this computer can read" in note and "0755" in note
    folder.chmod(0o700)
    assert privacy_note(folder) is None


# -- 3. writes that fail -------------------------------------------------------------------------


def test_the_folder_moved_away_answers_409_and_keeps_nothing(tmp_path: Path) -> None:
    folder = tmp_path / "deck"
    with client_for(folder) as c:
        assert upload(c, [svg("a")]).status_code == 200
        before = (folder / "theme.yaml").read_text(encoding="utf-8")
        folder.rename(tmp_path / "moved")  # the USB stick is pulled
        words = c.post("/api/words", json={"text": "cat\ndog"})
        pictures = upload(c, [("cat.png", noise_png(40)), svg("c")])
        setting = c.patch("/api/settings", json={"changes": {"title": "New"}})
        backs = c.post("/api/backs-image", files=[("file", ("logo.png", noise_png(64, 2), "image/png"))])
        for answer in (words, pictures, setting, backs):
            assert answer.status_code == 409, answer.text
            line = answer.json()["error"]
            assert "the theme folder is gone" in line and "nothing was saved" in line and "\n" not in line
        assert c.get("/api/state").status_code == 200
    moved = tmp_path / "moved"
    assert (moved / "theme.yaml").read_text(encoding="utf-8") == before
    assert everything_in(moved) == ["images", "images/a.svg", "theme.yaml"]
    assert not folder.exists()


def test_a_batch_is_all_or_nothing_when_the_theme_cannot_be_saved(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without root: the pictures fit, then writing theme.yaml meets a full disk (ENOSPC
    where the operating system gives it, renaming the new theme.yaml into place)."""
    import printdeck.fileio as fileio

    folder = tmp_path / "deck"
    real_replace = os.replace

    def full(src: Any, dst: Any) -> None:
        if str(dst).endswith("theme.yaml"):
            raise OSError(errno.ENOSPC, "No space left on device", str(src))
        real_replace(src, dst)

    with client_for(folder) as c:
        assert upload(c, [svg("a")]).status_code == 200
        before = everything_in(folder)
        monkeypatch.setattr(fileio.os, "replace", full)
        pictures = upload(c, [("cat.png", noise_png(40)), svg("d"), ("broken.png", b"not a png")])
        words = c.post("/api/words", json={"text": "sun\nmoon"})
        monkeypatch.setattr(fileio.os, "replace", real_replace)
        for answer in (pictures, words):
            assert answer.status_code == 409 and "the disk is full" in answer.json()["error"], answer.text
        assert answer.json()["state"]["rejected"] == []  # the batch's refusals went with it
    assert everything_in(folder) == before  # the pictures that fit were removed again
    assert len(theme_symbols(folder)) == 1


def test_a_batch_whose_picture_cannot_be_written_keeps_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without root: the third picture of a batch meets a full disk."""
    folder = tmp_path / "deck"
    real_write = Path.write_bytes
    written: list[int] = []

    def third_is_full(self: Path, data: bytes) -> int:
        written.append(1)
        if len(written) == 3:
            raise OSError(errno.ENOSPC, "No space left on device", str(self))
        return real_write(self, data)

    with client_for(folder) as c:
        monkeypatch.setattr(Path, "write_bytes", third_is_full)
        answer = upload(c, [svg("a"), svg("b"), ("cat.png", noise_png(40)), svg("e")])
        monkeypatch.setattr(Path, "write_bytes", real_write)
        assert answer.status_code == 409 and "the disk is full" in answer.json()["error"]
    assert everything_in(folder) in (["images", "theme.yaml"], ["theme.yaml"])
    assert theme_symbols(folder) == []


def test_a_real_full_disk_answers_409_and_keeps_nothing(small_disk: Path) -> None:
    folder = small_disk / "deck"
    with client_for(folder) as c:
        assert upload(c, [svg("a")]).status_code == 200
        picture = noise_png(300, 1)  # about 270 kB
        pages = -(-len(picture) // 4096)
        fill_leaving(small_disk, pages * 4096)  # room for the picture, none for theme.yaml
        before = everything_in(folder)
        fits_then_full = upload(c, [("cat.png", picture)])
        too_big = upload(c, [("big.png", noise_png(600, 2))])
        fill_leaving(small_disk, 0, "filler-2.bin")  # the picture went again: its room is taken now
        words = c.post("/api/words", json={"text": "sun"})
        for answer in (fits_then_full, too_big, words):
            assert answer.status_code == 409 and "the disk is full" in answer.json()["error"], answer.text
    assert everything_in(folder) == before
    assert len(theme_symbols(folder)) == 1


def test_a_read_only_disk_answers_409(small_disk: Path) -> None:
    folder = small_disk / "deck"
    with client_for(folder) as c:
        assert upload(c, [svg("a")]).status_code == 200
        subprocess.run(["mount", "-o", "remount,ro", str(small_disk)], check=True)
        try:
            for answer in (c.post("/api/words", json={"text": "sun"}), upload(c, [svg("b")])):
                assert answer.status_code == 409 and "read-only disk" in answer.json()["error"], answer.text
        finally:
            subprocess.run(["mount", "-o", "remount,rw", str(small_disk)], check=True)
    assert everything_in(folder) == ["images", "images/a.svg", "theme.yaml"]


def test_long_names_in_any_script_are_cut_by_bytes_and_kept(tmp_path: Path) -> None:
    folder = tmp_path / "deck"
    names = ["𝒜" * 80 + ".png", "猫" * 80 + ".png", "a" * 300 + ".png", "ü" * 200 + ".svg"]
    files = [
        (names[0], noise_png(40, 1)),
        (names[1], noise_png(40, 2)),
        (names[2], noise_png(40, 3)),
        (names[3], svg("f")[1]),
    ]
    with client_for(folder) as c:
        first = upload(c, files)
        again = upload(c, files[:2])  # the same names again: -2 added, still within 255 bytes
    assert first.status_code == 200 and all(r["ok"] for r in first.json()["results"]), first.text
    assert again.status_code == 200
    stored = [p.name for p in (folder / "images").iterdir()]
    assert len(stored) == 4 and all(len(n.encode()) <= 255 for n in stored)
    assert not [n for n in stored if n.startswith(".")]  # no temporary file left
    assert len(theme_symbols(folder)) == 4


# -- 4. one SVG check ----------------------------------------------------------------------------


def _b64(text: str) -> str:
    return base64.b64encode(text.encode()).decode()


SVG_HEAD = '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10">'
_SVG_IN_SVG = SVG_HEAD + '<image href="data:image/svg+xml,' + quote(SVG_HEAD + "</svg>") + '"/></svg>'
SVG_ATTACKS = {
    "script": ("<script>alert(1)</script>", "holds a script (<script>)"),
    "handler": ('<circle r="4" onclick="alert(1)"/>', "holds a script (onclick)"),
    "smil-set": ('<a><set attributeName="href" to="javascript:alert(1)"/><circle r="4"/></a>', "holds a script"),
    "smil-set-link": ('<a><set attributeName="xlink:href" to="#x"/><circle r="4"/></a>', "changing xlink:href"),
    "smil-animate": (
        '<a><animate attributeName="href" values="javascript:alert(1)"/><circle r="4"/></a>',
        "holds a script",
    ),
    "spaced-javascript": (
        '<a href=" java&#9;script:alert(1)"><circle r="4"/></a>',
        "holds a script (a javascript:",
    ),
    "data-document": (
        '<a href="data:text/html,&lt;script&gt;alert(1)&lt;/script&gt;"><circle r="4"/></a>',
        "data: document",
    ),
    "data-svg-link": ('<a xlink:href="data:image/svg+xml,&lt;svg/&gt;"><circle r="4"/></a>', "data: document"),
    "data-not-picture": ('<image href="data:text/html,hi" width="5" height="5"/><circle r="4"/>', "not a picture"),
    "outside-image": (
        '<image href="https://evil.example/x.png" width="5" height="5"/>',
        "outside resource 'https://evil",
    ),
    "outside-file": ('<image xlink:href="../secret.png" width="5" height="5"/>', "outside resource '../secret.png'"),
    "outside-css": ('<style>circle{fill:url( "http://evil.example/p" )}</style><circle r="4"/>', "outside resource"),
    "css-import": ("<style>@import 'x.css';</style><circle r=\"4\"/>", "outside resource (an @import)"),
    "data-svg-script": (  # an SVG in a data: link is checked as a file of its own
        f'<image href="data:image/svg+xml;base64,{_b64(SVG_HEAD + "<script>alert(1)</script></svg>")}"'
        ' width="5" height="5"/>',
        "the SVG inside it holds a script (<script>)",
    ),
    "data-svg-outside": (
        '<image href="data:image/svg+xml,'
        + quote(SVG_HEAD + '<image href="http://127.0.0.1:9911/leak.png" width="5" height="5"/></svg>')
        + '" width="5" height="5"/>',
        "the SVG inside it refers to an outside resource",
    ),
    "data-svg-in-svg": (
        f'<image href="data:image/svg+xml;base64,{_b64(_SVG_IN_SVG)}" width="5" height="5"/>',
        "an SVG inside an SVG inside it",
    ),
    "foreign-object": (
        "<foreignObject><div xmlns='http://www.w3.org/1999/xhtml'>x</div></foreignObject>",
        "<foreignObject>",
    ),
}


@pytest.mark.parametrize("case", sorted(SVG_ATTACKS))
def test_svg_attacks_are_refused_by_printdeck_check(case: str, tmp_path: Path) -> None:
    body, words = SVG_ATTACKS[case]
    (tmp_path / "images").mkdir()
    (tmp_path / "images" / f"{case}.svg").write_text(SVG_HEAD + body + "</svg>", encoding="utf-8")
    (tmp_path / "theme.yaml").write_text(
        f"symbols:\n  - image: images/{case}.svg\n" + "".join(f"  - text: w{i}\n" for i in range(6))
    )
    result = CliRunner().invoke(cli, ["check", str(tmp_path / "theme.yaml")])
    assert result.exit_code == 2, result.output
    assert (
        words in result.output and "symbols.0.image" in result.output and len(result.output.strip().splitlines()) == 1
    )


def test_svg_attacks_are_refused_by_init_and_the_studio(tmp_path: Path) -> None:
    pictures = tmp_path / "pictures"
    pictures.mkdir()
    (pictures / "smil.svg").write_text(SVG_HEAD + SVG_ATTACKS["smil-animate"][0] + "</svg>", encoding="utf-8")
    result = CliRunner().invoke(cli, ["init", str(tmp_path / "new"), "--images", str(pictures)])
    assert result.exit_code == 2 and "holds a script" in result.output, result.output
    with client_for(tmp_path / "deck") as c:
        files = [(f"{case}.svg", (SVG_HEAD + body + "</svg>").encode()) for case, (body, _) in SVG_ATTACKS.items()]
        answer = upload(c, files).json()
    assert [r["ok"] for r in answer["results"]] == [False] * len(SVG_ATTACKS)
    for result_of, (_, words) in zip(answer["results"], SVG_ATTACKS.values()):
        assert words in result_of["error"], result_of
    assert not list((tmp_path / "deck" / "images").glob("*"))


# -- 5. connections, tiles and messages ------------------------------------------------------------


def test_kept_alive_requests_are_as_quick_as_new_connections(tmp_path: Path) -> None:
    """The listening socket has IPPROTO_TCP, so every accepted one gets TCP_NODELAY: an
    answer on a kept-alive connection does not wait for a delayed ACK (~40 ms)."""
    with live_studio(tmp_path / "deck") as (port, token):
        request_times_ms(port, token, 3, keep_alive=True)  # warm
        new = statistics.median(request_times_ms(port, token, 20, keep_alive=False))
        kept = statistics.median(request_times_ms(port, token, 20, keep_alive=True))
    plain = socket.socket(socket.AF_INET, socket.SOCK_STREAM)  # protocol 0: what the studio had
    plain.bind(("127.0.0.1", 0))
    plain.listen(8)
    with live_studio(tmp_path / "deck", sock=plain) as (port, token):
        request_times_ms(port, token, 3, keep_alive=True)
        kept_before = statistics.median(request_times_ms(port, token, 10, keep_alive=True))
    print(
        f"\nGET /api/state, medians: new connection {new:.2f} ms, kept-alive {kept:.2f} ms; "
        f"kept-alive with a protocol-0 socket {kept_before:.2f} ms"
    )
    assert kept <= 2 * new + 1.0, (kept, new)


def test_trickled_headers_are_cut_off(tmp_path: Path) -> None:
    with live_studio(tmp_path / "deck", header_timeout_s=1.0) as (port, _):
        socks = [socket.create_connection(("127.0.0.1", port), timeout=5) for _ in range(40)]
        try:
            for s in socks:
                s.sendall(b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            first, _ = closed_after_s(socks[0], 5.0, drip=b"X-Slow: 1\r\n", every_s=0.2)
            rest = [closed_after_s(s, 3.0)[0] for s in socks[1:]]
        finally:
            for s in socks:
                s.close()
    print(
        f"\n40 connections trickling headers: the first cut off after {first:.2f} s, "
        f"all within {max(rest) + first:.2f} s"
    )
    assert first < 2.5 and all(t < 3.0 for t in rest)


def test_trickled_and_stalled_bodies_are_refused_with_408(tmp_path: Path) -> None:
    with live_studio(tmp_path / "deck", body_idle_s=1.0, body_total_s=2.0) as (port, token):
        head = (
            f"POST /api/words HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n{TOKEN_HEADER}: {token}\r\n"
            "content-type: application/json\r\ncontent-length: 1000\r\n\r\n"
        )
        trickle = socket.create_connection(("127.0.0.1", port), timeout=5)
        trickle.sendall(head.encode() + b'{"text": "')
        took, answer = closed_after_s(trickle, 6.0, drip=b"a", every_s=0.3)
        trickle.close()
        stall = socket.create_connection(("127.0.0.1", port), timeout=5)
        stall.sendall(head.encode())
        stalled, stall_answer = closed_after_s(stall, 6.0)
        stall.close()
    print(f"\na trickled body answered 408 after {took:.2f} s, a stalled one after {stalled:.2f} s")
    assert answer.startswith(b"HTTP/1.1 408") and took < 3.5, answer[:200]
    assert stall_answer.startswith(b"HTTP/1.1 408") and stalled < 2.5


def test_bodies_over_the_limit_are_refused_with_or_without_a_length(tmp_path: Path) -> None:
    with live_studio(tmp_path / "deck", max_body_bytes=10_000) as (port, token):
        answers = []
        for framing in ("content-length: 20000", "transfer-encoding: chunked"):
            sock = socket.create_connection(("127.0.0.1", port), timeout=5)
            head = f"POST /api/words HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n{TOKEN_HEADER}: {token}\r\n{framing}\r\n\r\n"
            body = (
                b"x" * 20_000
                if "length" in framing
                else b"".join(b"1000\r\n" + b"x" * 4096 + b"\r\n" for _ in range(5))
            )
            with contextlib.suppress(OSError):
                sock.sendall(head.encode() + body)
            answer = closed_after_s(sock, 5.0)[1]
            with contextlib.suppress(OSError):
                answer += sock.recv(4096)  # the body after the headers
            answers.append(answer)
            sock.close()
    for answer in answers:
        assert answer.startswith(b"HTTP/1.1 413"), answer[:300]
    assert b"more than the 10.0 kB a request may hold" in answers[0] + answers[1]


def test_refused_tiles_go_on_dismiss_and_with_the_next_drop(tmp_path: Path) -> None:
    with client_for(tmp_path / "deck") as c:
        one = upload(c, [("bad-1.png", b"x"), svg("a")], drop="one").json()["state"]["rejected"]
        two = upload(c, [("bad-2.png", b"x")], drop="one").json()["state"]["rejected"]  # the same drop's next batch
        assert [r["file"] for r in one] == ["bad-1.png"] and [r["file"] for r in two] == ["bad-1.png", "bad-2.png"]
        three = upload(c, [("bad-3.png", b"x"), svg("b")], drop="two").json()["state"]["rejected"]
        assert [r["file"] for r in three] == ["bad-3.png"]  # the earlier drop's tiles went
        assert c.delete(f"/api/rejected/{three[0]['uid']}").json()["state"]["rejected"] == []
        many = [(f"bad-{i}.png", b"x") for i in range(200)]
        for _ in range(3):  # 600 refused files in one drop
            state = upload(c, many, drop="big").json()["state"]
        assert len(state["rejected"]) == 200 and len(json.dumps(state)) < 100_000


def test_sizes_over_the_limit_show_different_numbers(tmp_path: Path) -> None:
    with client_for(tmp_path / "deck") as c:
        results = upload(c, [("huge.png", b"\0" * 81_000_000)]).json()["results"]
    assert "81.0 MB is larger than the 80.0 MB a picture may be" in results[0]["error"], results


def test_a_full_temporary_folder_is_named_as_such(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without root: the spooled upload meets ENOSPC where the file system would give it."""
    import starlette.formparsers as formparsers

    class FullSpool(tempfile.SpooledTemporaryFile):  # type: ignore[type-arg]
        def rollover(self) -> None:
            raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(formparsers, "SpooledTemporaryFile", FullSpool)
    with client_for(tmp_path / "deck") as c:
        answer = upload(c, [("big.png", noise_png(700))])
    assert answer.status_code == 409, answer.text
    assert "does not fit in the temporary folder" in answer.json()["error"] and "disk is full" in answer.json()["error"]
    assert not (tmp_path / "deck" / "images").exists()


def test_a_really_full_temporary_folder_is_named_as_such(small_disk: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(small_disk))
    fill_leaving(small_disk, 100_000)
    with client_for(small_disk.parent / "deck") as c:
        answer = upload(c, [("big.png", noise_png(700))])
    assert answer.status_code == 409 and "does not fit in the temporary folder" in answer.json()["error"], answer.text


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-s", "-q", *sys.argv[1:]]))
