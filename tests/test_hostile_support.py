"""Helpers for the hostile-input corpus (``tests/test_hostile_*.py``), and their own checks.

Every case runs the ``printdeck`` command line in process (click's runner, in the case's
folder and environment: milliseconds instead of the seconds a new interpreter takes),
except where a real process matters: a folder holding a FIFO, a device or a socket, or an
argument naming one (a blocking read must fail the test after a 30 s timeout instead of
hanging the run), and tests that ask for one (``process=True``: signals, the exit status
of the real interpreter). Each asserts the project's promise: exit 0 with a valid result, or exit 2 with exactly one
line on stderr and no traceback; no input changed (hashed before and after); no debris
(the folder listed before and after).
"""

from __future__ import annotations

import hashlib
import io
import os
import signal
import stat
import subprocess
import sys
import threading
import traceback
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import yaml
from PIL import Image, ImageDraw

ART = ["anchor", "apple", "bee", "bell", "bicycle", "broom", "cactus"]
TIMEOUT_S = 30
SVG_HEAD = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">'
GOOD_SVG = (SVG_HEAD + '<circle cx="5" cy="5" r="4" fill="#c03"/></svg>').encode()


@dataclass(frozen=True)
class Run:
    """What a printdeck subprocess did."""

    code: int
    out: str
    err: str

    @property
    def lines(self) -> list[str]:
        return self.err.strip().splitlines()


def env(tmp: Path, **extra: str) -> dict[str, str]:
    """The environment of a run: a cache folder shared by the session's tests (beside
    their folders, never inside), one process."""
    base = {k: v for k, v in os.environ.items() if not k.startswith("PRINTDECK_")}
    base.update(PRINTDECK_CACHE_DIR=str(tmp.parent / "hostile-cache"), PRINTDECK_JOBS="1", PYTHONDONTWRITEBYTECODE="1")
    base.update(extra)
    return base


def run(
    cwd: Path,
    *args: str,
    environ: dict[str, str] | None = None,
    timeout: float = TIMEOUT_S,
    process: bool = False,
) -> Run:
    """``printdeck ARGS`` in ``cwd`` (stdin closed): in process unless a real process
    matters (``process``, or a special file in ``cwd`` or among the arguments), then
    ``python -m printdeck ARGS`` with at most ``timeout`` seconds."""
    if process or _special_file_near(cwd, args):
        return run_process(cwd, *args, environ=environ, timeout=timeout)
    return run_in_process(cwd, *args, environ=environ)


def run_process(cwd: Path, *args: str, environ: dict[str, str] | None = None, timeout: float = TIMEOUT_S) -> Run:
    """``python -m printdeck ARGS`` in a subprocess, at most ``timeout`` seconds."""
    done = subprocess.run(
        [sys.executable, "-m", "printdeck", *args],
        check=False,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
        env=environ or env(cwd),
        errors="backslashreplace",
    )
    return Run(done.returncode, done.stdout, done.stderr)


_IN_PROCESS = threading.Lock()


def run_in_process(cwd: Path, *args: str, environ: dict[str, str] | None = None) -> Run:
    """The command line's ``main`` run by click's runner in ``cwd`` with ``environ`` (the
    current folder, the environment and the signal handlers restored afterwards); an
    uncaught exception's traceback is put on stderr, as the interpreter would print it."""
    from click.testing import CliRunner

    from printdeck.cli import main

    wanted = environ or env(cwd)
    changes: dict[str, str | None] = {k: v for k, v in wanted.items() if os.environ.get(k) != v}
    changes |= {k: None for k in os.environ if k not in wanted}
    with _IN_PROCESS:
        handlers = {sig: signal.getsignal(sig) for sig in _SIGNALS}
        here = os.getcwd()
        try:
            os.chdir(cwd)
            result = CliRunner(env=changes).invoke(main, list(args), prog_name="python -m printdeck")
        finally:
            os.chdir(here)
            for sig, handler in handlers.items():
                signal.signal(sig, handler)
    err = result.stderr
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        err += "Traceback (most recent call last):\n" + "".join(traceback.format_exception(result.exception))
    return Run(result.exit_code, result.stdout, err)


_SIGNALS = [s for s in (signal.SIGINT, signal.SIGTERM, getattr(signal, "SIGHUP", None)) if s is not None]


def _special_file_near(cwd: Path, args: tuple[str, ...]) -> bool:
    """Whether ``cwd`` holds, or an argument names, a FIFO, a device or a socket."""
    paths = [Path(root) / name for root, dirs, files in os.walk(cwd) for name in dirs + files]
    paths += [cwd / a for a in args if a and not a.startswith("-")]
    for path in paths:
        try:
            mode = path.stat().st_mode
        except (OSError, ValueError):
            continue
        if stat.S_ISFIFO(mode) or stat.S_ISCHR(mode) or stat.S_ISBLK(mode) or stat.S_ISSOCK(mode):
            return True
    return False


@dataclass(frozen=True)
class Case:
    """One prepared case of a table run by :func:`run_cases`: its folder, the command,
    and what the folder held before and after."""

    folder: Path
    result: Run
    before: dict[str, str]
    after: dict[str, str]


def run_cases(jobs: dict[str, tuple[Path, tuple[str, ...]]], workers: int = 4) -> dict[str, Case]:
    """Run many prepared cases (in process one by one; those that need a real process in
    subprocesses side by side), snapshotting
    each case's folder before and after; the table's tests then check one case each."""
    before = {name: snapshot(folder) for name, (folder, _) in jobs.items()}
    special = {name for name, (folder, args) in jobs.items() if _special_file_near(folder, args)}
    with ThreadPoolExecutor(max_workers=workers) as pool:  # real processes, side by side
        futures = {name: pool.submit(run_process, jobs[name][0], *jobs[name][1]) for name in special}
        results = {name: run_in_process(folder, *args) for name, (folder, args) in jobs.items() if name not in special}
        results |= {name: future.result() for name, future in futures.items()}
    return {name: Case(folder, results[name], before[name], snapshot(folder)) for name, (folder, _) in jobs.items()}


def snapshot(folder: Path) -> dict[str, str]:
    """Every entry under ``folder`` -> a hash of its content (``dir``, ``link:target``, ``fifo``...)."""
    found: dict[str, str] = {}
    for root, dirs, files in os.walk(folder):
        for name in dirs + files:
            path = Path(root) / name
            rel = os.fsdecode(path.relative_to(folder))
            if path.is_symlink():
                found[rel] = f"link:{os.readlink(path)}"
            elif path.is_dir():
                found[rel] = "dir"
            elif path.is_file() and path.stat().st_size > 50_000_000:  # a sparse giant: never read it
                found[rel] = f"size:{path.stat().st_size}:mtime:{path.stat().st_mtime_ns}"
            elif path.is_file():
                found[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
            else:
                found[rel] = "special"
    return found


def assert_refused(result: Run, *fragments: str) -> None:
    """Exit 2, exactly one stderr line naming every fragment, no traceback, nothing on stdout."""
    assert result.code == 2, (result.code, result.err)
    assert len(result.lines) == 1, result.err
    assert "Traceback" not in result.err and result.err.startswith("printdeck: error: ")
    for fragment in fragments:
        assert fragment in result.err, (fragment, result.err)
    assert result.err.isprintable() or (result.err.endswith("\n") and result.err[:-1].isprintable())


def assert_clean(
    result: Run, before: dict[str, str], after: dict[str, str], *fragments: str, new: set[str] | None = None
) -> None:
    """A refusal (exit 2, one line) that changed nothing, or a success (exit 0) that left
    every input as it was and added only ``new`` (any names if ``new`` is None)."""
    assert "Traceback" not in result.err, result.err
    if result.code == 2:
        assert_refused(result, *fragments)
        assert after == before
        return
    assert result.code == 0, (result.code, result.err)
    assert {k: v for k, v in after.items() if k in before} == before
    if new is not None:
        assert set(after) - set(before) == new, sorted(set(after) - set(before))


def svg_theme(folder: Path, **overrides: object) -> Path:
    """A 7-symbol theme (3 a card, 7 cards, 60 mm) of bundled Twemoji in ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    spec: dict = {
        "name": "tiny",
        "seed": 3,
        "deck": {"symbols_per_card": 3},
        "card": {"diameter": "60mm"},
        "layout": {"attempts": 60},
        "symbols": [f"@assets/twemoji/{name}.svg" for name in ART],
    }
    spec.update(overrides)
    path = folder / "theme.yaml"
    path.write_text(yaml.safe_dump(spec, sort_keys=False), encoding="utf-8")
    return path


def theme_with(folder: Path, name: str, content: bytes | None, key: str = "image") -> Path:
    """The tiny theme with its first symbol replaced by ``folder/name`` (written if content given)."""
    folder.mkdir(parents=True, exist_ok=True)
    if content is not None:
        (folder / name).write_bytes(content)
    symbols: list = [{key: name}] + [f"@assets/twemoji/{n}.svg" for n in ART[1:]]
    return svg_theme(folder, symbols=symbols)


def png_bytes(colour: tuple[int, int, int], size: tuple[int, int] = (64, 64)) -> bytes:
    """A small opaque PNG: a coloured disc on white."""
    image = Image.new("RGB", size, (255, 255, 255))
    m = min(size) // 8
    ImageDraw.Draw(image).ellipse((m, m, size[0] - 1 - m, size[1] - 1 - m), fill=colour)
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def special_file(path: Path, kind: str) -> bool:
    """Make ``path`` a file no reader may block on or swallow: ``fifo``, ``device``
    (a link to /dev/zero), ``folder`` or a sparse terabyte (``huge``, ``sparse terabyte``);
    False for any other kind (left to the caller)."""
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "device":
        path.symlink_to("/dev/zero")
    elif kind == "folder":
        path.mkdir()
    elif kind in ("huge", "sparse terabyte"):
        with open(path, "wb") as handle:
            handle.truncate(10**12)  # sparse: a terabyte that is never read
    else:
        return False
    return True


def dead_pid() -> int:
    """The id of a process that has exited (and been reaped)."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_snapshot_sees_content_links_and_folders(tmp_path: Path) -> None:
    (tmp_path / "a").write_text("x")
    (tmp_path / "d").mkdir()
    (tmp_path / "l").symlink_to("a")
    first = snapshot(tmp_path)
    assert first == {"a": hashlib.sha256(b"x").hexdigest(), "d": "dir", "l": "link:a"}
    (tmp_path / "a").write_text("y")
    assert snapshot(tmp_path) != first


def test_the_tiny_theme_checks(tmp_path: Path) -> None:
    svg_theme(tmp_path / "t")
    result = run(tmp_path, "check", "t")
    assert result.code == 0 and "7 cards of 3 symbols" in result.out, result.err
