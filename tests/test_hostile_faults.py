"""Faults from outside: signals mid-build, a killed build's debris, two builds at once, a
full disk, broken or unusable caches. Outputs stay whole, temporary files go away."""

from __future__ import annotations

import errno
import importlib.util
import json
import os
import signal
import subprocess
import sys
import time
import warnings
from pathlib import Path

import pytest
from pypdf import PdfReader
from test_hostile_support import assert_refused, dead_pid, env, run, snapshot, svg_theme
from test_theme_support import old_deck_pdf

import printdeck.cache as cache_module
import printdeck.pipeline as pipeline_module
from printdeck.cache import cache_dir, read_entry, write_entry
from printdeck.errors import PrintdeckError
from printdeck.fileio import STALE_AFTER_S, atomic_output, remove_stale_temps
from printdeck.layout import stored_cards as layout_cache
from printdeck.model import CardLayout, Placement
from printdeck.pipeline import BuildOptions, build


def _debris(folder: Path) -> list[str]:
    return sorted(os.fsdecode(p.relative_to(folder)) for p in folder.rglob("*") if p.name.endswith(".tmp"))


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_mid_build_leaves_the_old_outputs_and_no_debris(tmp_path: Path, signum: int) -> None:
    svg_theme(tmp_path / "t")
    (tmp_path / "deck.pdf").write_bytes(old_deck_pdf())  # an earlier build's
    before = snapshot(tmp_path)
    child = subprocess.Popen(
        [sys.executable, "-m", "printdeck", "build", "t", "-o", "deck.pdf", "-q", "--png-dir", "pngs"],
        cwd=tmp_path,
        env=env(tmp_path),
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and not _debris(tmp_path) and child.poll() is None:
        time.sleep(0.002)  # the temporary PDF exists from the render on
    child.send_signal(signum)
    _, err = child.communicate(timeout=30)
    assert "Traceback" not in err, err
    if child.returncode == 0 or "already written" in err:  # the signal came as the deck was done
        assert PdfReader(tmp_path / "deck.pdf").pages
    else:
        assert child.returncode == 128 + signum and len(err.strip().splitlines()) == 1, err
        assert "stopped by" in err and "left as they were" in err
        assert snapshot(tmp_path) == before
    assert _debris(tmp_path) == []


def test_a_killed_builds_temporary_files_are_cleaned_by_the_next_build(tmp_path: Path) -> None:
    svg_theme(tmp_path / "t")
    old = time.time() - STALE_AFTER_S - 60
    stale = [tmp_path / f".deck.pdf.{dead_pid()}.abcd1234.tmp", tmp_path / f".deck.json.{dead_pid()}.x_y.tmp"]
    live = tmp_path / f".deck.pdf.{os.getpid()}.live0000.tmp"  # a build still running (this process)
    fresh = tmp_path / f".deck.pdf.{dead_pid()}.fresh000.tmp"  # too young to be judged
    staging = tmp_path / f".pngs.{dead_pid()}.stag0000.tmp"
    staging.mkdir()
    (staging / "card-001.png").write_bytes(b"half")
    for path in (*stale, live, fresh):
        path.write_bytes(b"partial")
    for path in (*stale, live, staging):
        os.utime(path, (old, old))
    result = run(tmp_path, "build", "t", "-o", "deck.pdf", "-q", "--png-dir", "pngs")
    assert result.code == 0, result.err
    assert _debris(tmp_path) == sorted(p.name for p in (live, fresh))


def test_stale_files_of_other_outputs_are_left_alone(tmp_path: Path) -> None:
    other = tmp_path / f".notes.txt.{dead_pid()}.abcd.tmp"
    other.write_text("x")
    os.utime(other, (1, 1))
    assert remove_stale_temps(tmp_path, "deck.pdf") == 0 and other.exists()


def test_two_builds_of_one_output_at_once(tmp_path: Path) -> None:
    svg_theme(tmp_path / "t")
    children = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "printdeck",
                "build",
                "t",
                "-o",
                "deck.pdf",
                "-q",
                "--seed",
                str(seed),
                "--png-dir",
                "pngs",
            ],
            cwd=tmp_path,
            env=env(tmp_path),
            stderr=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            text=True,
        )
        for seed in (1, 2)
    ]
    codes = []
    for child in children:
        _, err = child.communicate(timeout=60)
        codes.append(child.returncode)
        assert "Traceback" not in err and (child.returncode == 0 or len(err.strip().splitlines()) == 1), err
    assert 0 in codes and set(codes) <= {0, 2}
    assert len(PdfReader(tmp_path / "deck.pdf").pages) == 1
    manifest = json.loads((tmp_path / "deck.json").read_text())
    assert manifest["seed"] in (1, 2) and len(manifest["cards"]) == 7
    assert _debris(tmp_path) == []


def _enospc(*_args: object, **_kwargs: object) -> None:
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


@pytest.mark.parametrize("where", ["replace", "write"])
def test_a_full_disk_names_the_output_and_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    theme = svg_theme(tmp_path / "t")
    monkeypatch.setenv("PRINTDECK_CACHE_DIR", str(tmp_path.parent / "hostile-cache"))
    (tmp_path / "deck.pdf").write_bytes(old_deck_pdf())  # an earlier build's
    before = snapshot(tmp_path)
    if where == "replace":
        monkeypatch.setattr(os, "replace", _enospc)
    else:

        def half_written(_manifest: object, path: Path) -> None:
            path.write_bytes(b'{"theme": "ti')
            _enospc()

        monkeypatch.setattr(pipeline_module, "write_manifest", half_written)
    with pytest.raises(PrintdeckError) as info:
        build(theme, tmp_path / "deck.pdf", BuildOptions())
    message = str(info.value)
    assert "deck." in message and ".tmp" not in message and "disk is full" in message
    assert snapshot(tmp_path) == before


def test_a_full_disk_while_writing_pngs_names_the_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    theme = svg_theme(tmp_path / "t")
    monkeypatch.setenv("PRINTDECK_CACHE_DIR", str(tmp_path.parent / "hostile-cache"))
    from PIL import Image

    monkeypatch.setattr(Image.Image, "save", _enospc)
    before = snapshot(tmp_path)
    with pytest.raises(PrintdeckError, match="pngs: cannot write it: the disk is full") as info:
        build(theme, tmp_path / "deck.pdf", BuildOptions(png_dir=tmp_path / "pngs"))
    assert ".tmp" not in str(info.value)
    assert snapshot(tmp_path) == before


def test_an_atomic_output_interrupted_leaves_nothing(tmp_path: Path) -> None:
    (tmp_path / "out.txt").write_text("old")

    def interrupted_write() -> None:
        with atomic_output(tmp_path / "out.txt") as tmp:
            tmp.write_text("half")
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        interrupted_write()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.txt"] and (tmp_path / "out.txt").read_text() == "old"


GOOD_CARD = {
    "index": 0,
    "placements": [{"id": 4, "c": [1.0, 2.0], "r": 10.0, "b": [5.0, 6.0]}],
    "coverage": 0.5,
    "min_gap_mm": 1.0,
    "size_ratio": 0.7,
}
BAD_CARDS = {
    "not json": "{nope",
    "a list": "[1, 2, 3]",
    "wrong index": json.dumps({**GOOD_CARD, "index": 3}),
    "wrong symbol": json.dumps({**GOOD_CARD, "placements": [{**GOOD_CARD["placements"][0], "id": 5}]}),
    "string number": json.dumps({**GOOD_CARD, "coverage": "0.5"}),
    "nan": json.dumps(GOOD_CARD).replace("0.5", "NaN"),
    "infinity": json.dumps(GOOD_CARD).replace("1.0, 2.0", "1e999, 2.0"),
    "bool id": json.dumps({**GOOD_CARD, "placements": [{**GOOD_CARD["placements"][0], "id": True}]}),
    "short centre": json.dumps({**GOOD_CARD, "placements": [{**GOOD_CARD["placements"][0], "c": [1.0]}]}),
    "negative box": json.dumps({**GOOD_CARD, "placements": [{**GOOD_CARD["placements"][0], "b": [-5.0, 6.0]}]}),
    "missing key": json.dumps({k: v for k, v in GOOD_CARD.items() if k != "size_ratio"}),
    "binary": "\x00\x01\x02",
}


@pytest.mark.parametrize("name", list(BAD_CARDS))
def test_bad_layout_cache_entries_are_ignored(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    monkeypatch.setenv("PRINTDECK_CACHE_DIR", str(tmp_path))
    (tmp_path / "layouts").mkdir()
    (tmp_path / "layouts" / "abc123.json").write_text(BAD_CARDS[name])
    assert layout_cache.load("abc123", 0, [4]) is None
    (tmp_path / "layouts" / "abc123.json").write_text(json.dumps(GOOD_CARD))
    assert layout_cache.load("abc123", 0, [4]) == CardLayout(
        index=0, placements=(Placement(4, (1.0, 2.0), 10.0, (5.0, 6.0)),), coverage=0.5, min_gap_mm=1.0, size_ratio=0.7
    )


@pytest.mark.parametrize("kind", ["fifo", "folder"])
def test_a_cache_entry_that_is_not_a_file_is_a_miss(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str) -> None:
    monkeypatch.setenv("PRINTDECK_CACHE_DIR", str(tmp_path))
    (tmp_path / "layouts").mkdir()
    entry = tmp_path / "layouts" / "abc123.json"
    os.mkfifo(entry) if kind == "fifo" else entry.mkdir()
    assert layout_cache.load("abc123", 0, [4]) is None


def test_a_build_replaces_corrupt_cache_entries(tmp_path: Path) -> None:
    svg_theme(tmp_path / "t")
    cache = tmp_path.parent / f"{tmp_path.name}-cache"
    environ = env(tmp_path, PRINTDECK_CACHE_DIR=str(cache))
    assert run(tmp_path, "build", "t", "-o", "a.pdf", "-q", environ=environ).code == 0
    entries = sorted((cache / "layouts").glob("*.json"))
    assert len(entries) == 7
    for i, entry in enumerate(entries):
        entry.write_text(list(BAD_CARDS.values())[i])
    result = run(tmp_path, "build", "t", "-o", "b.pdf", "-q", environ=environ)
    assert result.code == 0 and not result.err, result.err
    assert (tmp_path / "a.pdf").read_bytes() == (tmp_path / "b.pdf").read_bytes()
    assert all(layout_cache.parse_entry(e.read_text()) for e in entries)


NO_PASSWD = (
    "import pwd, runpy, sys\n"
    "def nobody(uid): raise KeyError(uid)\n"
    "pwd.getpwuid = nobody\n"  # as if this uid had no password entry
    "sys.argv = ['printdeck', *sys.argv[1:]]\n"
    "runpy.run_module('printdeck', run_name='__main__')\n"
)
SILHOUETTES_USE_THE_CACHE_MODULE = (
    "printdeck.cache" in Path(str(importlib.util.find_spec("printdeck.artwork.tracing").origin)).read_text()
)


def test_a_cache_folder_blocked_by_a_file_warns_once_and_the_build_goes_on(tmp_path: Path) -> None:
    svg_theme(tmp_path / "t")
    (tmp_path.parent / f"{tmp_path.name}-blocker").write_text("x")
    environ = env(tmp_path, PRINTDECK_CACHE_DIR=str(tmp_path.parent / f"{tmp_path.name}-blocker" / "sub"))
    before = snapshot(tmp_path)
    result = run(tmp_path, "build", "t", "-o", "deck.pdf", "-q", environ=environ)
    assert result.code == 0, result.err
    assert len(result.lines) == 1 and "cache disabled" in result.err and "Traceback" not in result.err
    assert set(snapshot(tmp_path)) - set(before) == {"deck.pdf", "deck.json"}


@pytest.mark.skipif(not SILHOUETTES_USE_THE_CACHE_MODULE, reason="silhouette.py finds its own cache folder yet")
def test_no_home_and_no_password_entry_warns_once_and_the_build_goes_on(tmp_path: Path) -> None:
    svg_theme(tmp_path / "t")
    environ = {k: v for k, v in env(tmp_path).items() if k not in ("PRINTDECK_CACHE_DIR", "HOME", "XDG_CACHE_HOME")}
    done = subprocess.run(
        [sys.executable, "-c", NO_PASSWD, "build", "t", "-o", "deck.pdf", "-q"],
        cwd=tmp_path,
        env=environ,
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr.count("cache disabled") == 1 and len(done.stderr.strip().splitlines()) == 1


def test_cache_dir_without_any_home(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("PRINTDECK_CACHE_DIR", "XDG_CACHE_HOME", "PRINTDECK_NO_CACHE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(Path, "home", classmethod(lambda cls: (_ for _ in ()).throw(RuntimeError("no home"))))
    monkeypatch.setattr(cache_module, "_warned", set())
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert cache_dir("layouts") is None and cache_dir("silhouettes") is None
    assert [str(w.message) for w in caught] == [
        (
            "cache disabled: no home folder to keep it in; the build goes on without a cache "
            "(set PRINTDECK_CACHE_DIR to a writable folder)"
        )
    ]


def test_cache_dir_read_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PRINTDECK_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(cache_module, "_warned", set())
    monkeypatch.setattr(os, "access", lambda *_a, **_k: False)  # a read-only file system, as root sees it
    with pytest.warns(cache_module.CacheWarning, match="cache disabled: .* is not a writable folder"):
        assert cache_dir("drawings") is None


def test_write_entry_on_a_full_disk_leaves_no_partial_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "replace", _enospc)
    assert write_entry(tmp_path / "e.json", "x" * 1000) is False
    assert list(tmp_path.iterdir()) == []
    monkeypatch.undo()
    assert write_entry(tmp_path / "e.json", "{}") is True and read_entry(tmp_path / "e.json") == "{}"
    assert [p.name for p in tmp_path.iterdir()] == ["e.json"]


def test_write_entry_interrupted_leaves_no_partial_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupt(*_args: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", interrupt)
    with pytest.raises(KeyboardInterrupt):
        write_entry(tmp_path / "e.json", "{}")
    assert list(tmp_path.iterdir()) == []


_WORKER_STOPPED_MID_WRITE = """
import os, signal, sys
from pathlib import Path
from printdeck.fileio import create_temp_file
from printdeck.signals import install_handlers
folder = Path(sys.argv[1])
install_handlers()
parents = create_temp_file(folder, "parent.json", folder / "parent.json")
pid = os.fork()
if pid == 0:  # a forked worker, half way through writing a cache entry
    create_temp_file(folder, "entry.json", folder / "entry.json")
    os.kill(os.getpid(), signal.SIGTERM)
    os._exit(0)  # not reached: the handler exits
_, status = os.waitpid(pid, 0)
print(os.waitstatus_to_exitcode(status), parents.exists())
"""


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork on this platform")
def test_a_worker_stopped_by_sigterm_removes_its_temporary_file_only(tmp_path: Path) -> None:
    """A layout or checking worker that SIGTERM stops exits at once (status 143), removing
    the cache entry it was half way through writing, and leaves its parent's alone (which
    the parent, exiting without committing it, removes at its own exit)."""
    done = subprocess.run(
        [sys.executable, "-c", _WORKER_STOPPED_MID_WRITE, str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [str(128 + signal.SIGTERM), "True"]  # the parent's file was still there
    assert list(tmp_path.iterdir()) == []  # and the parent removed it as it exited, never having used it


def test_a_refused_theme_exits_2_even_with_a_broken_cache(tmp_path: Path) -> None:
    (tmp_path / "t").mkdir()
    (tmp_path / "t" / "theme.yaml").write_text("deck: [\n")
    result = run(tmp_path, "check", "t", environ=env(tmp_path, PRINTDECK_CACHE_DIR="/dev/null/x"))
    assert_refused(result, "not valid YAML")


_SIGNAL_IN_A_WEAKREF_CALLBACK = """
import os, signal, sys, time, weakref
from printdeck.signals import Interrupted, install_handlers, stopped_by
install_handlers()
class Thing:
    pass
def callback(_ref):  # Python swallows what a weak-reference callback raises
    os.kill(os.getpid(), int(sys.argv[1]))
    sum(range(10))  # a call: the handler runs here, inside the callback
thing = Thing()
ref = weakref.ref(thing, callback)
try:
    del thing
    for _ in range(2000):
        time.sleep(0.001)
    print("went on")
except Interrupted as exc:
    print("stopped", exc.signum, stopped_by())
"""


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_swallowed_by_a_weakref_callback_still_stops_quietly(signum: int) -> None:
    """A signal whose exception lands in a weak-reference callback (where Python prints
    "Exception ignored" and goes on) is delivered again: the code stops, nothing is printed."""
    done = subprocess.run(
        [sys.executable, "-c", _SIGNAL_IN_A_WEAKREF_CALLBACK, str(int(signum))],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.stdout.split() == ["stopped", str(int(signum)), str(int(signum))], done
    assert done.stderr == ""


_SWALLOWED_THEN_WAITING = """
import os, signal, sys, threading, time
from printdeck.signals import Interrupted, install_handlers
install_handlers()
class Slow:
    def __del__(self):  # the signal lands here, and Python swallows what the handler raises
        time.sleep(1.0)
threading.Thread(target=lambda: (time.sleep(0.3), os.kill(os.getpid(), signal.SIGTERM)), daemon=True).start()
start = time.monotonic()
try:
    slow = Slow()
    del slow
    waiting = threading.Event()
    threading.Timer(20, waiting.set).start()
    waiting.wait() if sys.argv[1] == "wait" else time.sleep(20)
    print("went on")
except Interrupted:
    print("stopped", round(time.monotonic() - start))
    os._exit(0)
"""


@pytest.mark.parametrize("waits_in", ["sleep", "wait"])
def test_a_swallowed_signal_wakes_a_main_thread_that_waits(waits_in: str) -> None:
    """After the swallowed signal the main thread sleeps or waits for an event (as a build
    waits for its workers): the signal sent again wakes it at once, not when the wait ends."""
    done = subprocess.run(
        [sys.executable, "-c", _SWALLOWED_THEN_WAITING, waits_in],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    said, seconds = done.stdout.split()
    assert said == "stopped" and int(seconds) <= 3, done  # not after the 20 s wait
    assert done.stderr == ""


_SIGNAL_DURING_AN_IMPORT = """
import importlib.abc, os, signal, sys
target, signum = sys.argv[1], int(sys.argv[2])
class Trip(importlib.abc.MetaPathFinder):  # the signal comes while ``target`` is being imported
    def find_spec(self, name, path=None, target_module=None):
        if name == target:
            sys.meta_path.remove(self)
            os.kill(os.getpid(), signum)
        return None
sys.meta_path.insert(0, Trip())
sys.argv = ["printdeck", "check", "--help"]
from printdeck.command import main
main()
"""


@pytest.mark.parametrize(
    ("module", "signum"),
    [("printdeck.rerun", signal.SIGINT), ("printdeck.cli.build", signal.SIGTERM), ("shapely", signal.SIGINT)],
)
def test_a_signal_while_the_command_line_loads_ends_in_its_one_line(tmp_path: Path, module: str, signum: int) -> None:
    """Ctrl-C in a command's first few tenths of a second printed a traceback: the handlers
    were put in for a replayed build only, and the stop then imported the half-loaded
    command line again (numpy "cannot load module more than once", shapely "partially
    initialized"). Now every command stops with the one line and 128 + the signal's number."""
    done = subprocess.run(
        [sys.executable, "-c", _SIGNAL_DURING_AN_IMPORT, module, str(int(signum))],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env=env(tmp_path),
    )
    name = signal.Signals(signum).name
    assert done.returncode == 128 + signum, done
    assert done.stderr == f"printdeck: stopped by {name}; outputs were left as they were\n", done.stderr
