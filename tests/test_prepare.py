"""A cold deck's per-symbol work on worker processes (issue 29): the same PDF, the same
cache bytes and the same one-line errors as one by one, and no workers where they
would not pay."""

from __future__ import annotations

import concurrent.futures
import contextlib
import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import pytest
from pypdf import PdfReader
from test_bundled_proofs import forms_ship
from test_theme_support import write_theme
from test_used_file_checks import BROKEN, COLOURS as USED_FILE_COLOURS, SHAPES as USED_FILE_SHAPES

import printdeck
import printdeck.prepare as prepare
from printdeck.artwork import silhouette_stored, silhouettes
from printdeck.assign import assign_symbols
from printdeck.deck_plan import deck_design
from printdeck.render import proof_stored, vector_code
from printdeck.theme import Theme, load_theme

SHAPES = [  # the seven of the used-file checks' deck, and four more: eleven drawings
    *USED_FILE_SHAPES,
    '<path d="M1 1 L9 1 L9 9 L6 9 L6 4 L1 4 Z"/>',
    '<circle cx="5" cy="5" r="4"/><circle cx="5" cy="5" r="2" fill="#ffffff"/>',
    '<path d="M2 9 L5 1 L8 9 L7 9 L5 4 L3 9 Z"/>',
    '<rect x="1" y="4" width="8" height="2"/><rect x="4" y="1" width="2" height="8"/>',
]
COLOURS = [*USED_FILE_COLOURS, "#b7950b"]
WHITE = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle cx="5" cy="5" r="4" fill="#ffffff"/></svg>'
BUILD = """
import sys, printdeck, printdeck.pipeline as pipeline
calls = []
def counted(theme, symbols, jobs=None):
    calls.append(prepared(theme, symbols, jobs))
    return calls[-1]
prepared, pipeline.prepare_symbols = pipeline.prepare_symbols, counted
printdeck.build(sys.argv[1], sys.argv[2])
print(calls[0])
"""


def _theme(tmp_path: Path, extra: dict[str, str] | None = None) -> Path:
    """A deck of order 3 (13 cards of 4) on eleven SVGs of this test's own (new bytes: no
    cache of this process knows them), two words, and ``extra`` files (sorted first)."""
    pics = tmp_path / "pics"
    pics.mkdir()
    token = uuid.uuid4().hex
    for i, shape in enumerate(SHAPES):
        colour = COLOURS[i % len(COLOURS)]
        (pics / f"s{i:02d}.svg").write_text(
            f'<svg xmlns="http://www.w3.org/2000/svg" id="t{token}" viewBox="0 0 10 10" fill="{colour}">{shape}</svg>'
        )
    for name, text in (extra or {}).items():
        (pics / name).write_text(text)
    symbols = [{"folder": "pics"}, {"text": "cat"}, {"text": "perro"}]
    theme = {"name": "cold", "seed": 3, "deck": {"order": 3, "choose": "first"}, "symbols": symbols}
    return write_theme(tmp_path, theme)


def _deck(path: Path) -> tuple[Theme, list]:
    theme = load_theme(path, defer_svg_checks=True)
    return theme, list(assign_symbols(theme, deck_design(theme).n_points, theme.spec.seed))


def _build(theme: Path, out: Path, cache: Path, jobs: str) -> subprocess.CompletedProcess[str]:
    """A build in a fresh process (no drawing in memory), as the command line runs it."""
    env = {**os.environ, "PRINTDECK_CACHE_DIR": str(cache), "PRINTDECK_JOBS": jobs}
    env.pop("PRINTDECK_NO_CACHE", None)
    return subprocess.run([sys.executable, "-c", BUILD, str(theme), str(out)], env=env, capture_output=True, text=True)


def _entries(cache: Path) -> dict[str, bytes]:
    """The cache's entries, but the record of where each build wrote its deck (``printed``:
    each build here writes another file)."""
    return {
        str(p.relative_to(cache)): p.read_bytes()
        for p in sorted(cache.rglob("*"))
        if p.is_file() and p.relative_to(cache).parts[0] != "printed"
    }


@pytest.fixture(autouse=True)
def _only_this_tests_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    """Threads that earlier tests in this pytest process left behind (a pytest-xdist
    worker's own, a finished server's) are not this test's: ``prepare`` counts only the
    main thread and the threads started since the test began, as a fresh command would."""
    before = {t for t in threading.enumerate() if t is not threading.main_thread()}
    monkeypatch.setattr(threading, "active_count", lambda: sum(t not in before for t in threading.enumerate()))


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("PRINTDECK_CACHE_DIR", str(folder))
    monkeypatch.delenv("PRINTDECK_NO_CACHE", raising=False)
    monkeypatch.delenv("PRINTDECK_JOBS", raising=False)
    return folder


@pytest.mark.skipif("fork" not in __import__("multiprocessing").get_all_start_methods(), reason="no fork here")
def test_workers_give_the_same_pdf_and_cache_bytes_as_one_by_one(tmp_path: Path) -> None:
    """Cold builds, one with the symbols' work on two worker processes and one without:
    the same PDF bytes, and the same entries in the disk cache, byte for byte (each
    silhouette, proof, vector form, look-alike raster and card); a build reading that
    cache again prints the same bytes."""
    theme = _theme(tmp_path)
    serial = _build(theme, tmp_path / "serial.pdf", tmp_path / "cache1", "1")
    shared = _build(theme, tmp_path / "shared.pdf", tmp_path / "cache2", "2")
    assert serial.returncode == 0 and shared.returncode == 0, serial.stderr + shared.stderr
    assert serial.stdout.split()[-1] == "0"  # PRINTDECK_JOBS=1: nothing shared out
    assert shared.stdout.split()[-1] == "13"  # eleven SVGs and two words, each on a worker
    assert (tmp_path / "serial.pdf").read_bytes() == (tmp_path / "shared.pdf").read_bytes()
    one_by_one, on_workers = _entries(tmp_path / "cache1"), _entries(tmp_path / "cache2")
    assert {Path(k).parts[0] for k in on_workers} >= {"silhouettes", "proofs", "vectorforms", "looks", "svgchecks"}
    assert one_by_one.keys() == on_workers.keys()
    assert [k for k in one_by_one if one_by_one[k] != on_workers[k]] == []
    again = _build(theme, tmp_path / "again.pdf", tmp_path / "cache2", "2")
    assert again.returncode == 0 and again.stdout.split()[-1] == "0"  # all cached: no workers
    assert (tmp_path / "again.pdf").read_bytes() == (tmp_path / "serial.pdf").read_bytes()


@pytest.mark.parametrize(
    ("name", "text", "said"),
    [
        ("a0-broken.svg", BROKEN, r"a0-broken\.svg is not a well-formed SVG"),
        ("a0-white.svg", WHITE, "shows no visible ink on the card background"),
    ],
)
def test_a_bad_file_gives_the_same_one_line_error(tmp_path: Path, name: str, text: str, said: str) -> None:
    """A file that fails its check or its proof on a worker is left to the build, which
    refuses it with the one line it gives without workers (exit status 2, nothing written)."""
    theme = _theme(tmp_path, {name: text})
    runs = []
    for jobs in ("1", "2"):
        env = {**os.environ, "PRINTDECK_CACHE_DIR": str(tmp_path / f"cache{jobs}"), "PRINTDECK_JOBS": jobs}
        out = tmp_path / f"deck{jobs}.pdf"
        command = [sys.executable, "-m", "printdeck", "build", str(theme), "-q", "-o", str(out)]
        runs.append(subprocess.run(command, env=env, capture_output=True, text=True))
        assert not out.exists()
    assert [r.returncode for r in runs] == [2, 2]
    assert runs[0].stderr == runs[1].stderr
    lines = runs[1].stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in runs[1].stderr
    assert __import__("re").search(said, lines[0]) and name in lines[0]


def test_workers_fill_the_cache_the_build_reads(tmp_path: Path, cache: Path) -> None:
    theme, symbols = _deck(_theme(tmp_path))
    background = theme.spec.card.background
    assert not any(silhouette_stored(s) or proof_stored(s, background) for s in symbols)
    assert prepare.prepare_symbols(theme, symbols, jobs=2) == 13
    assert all(silhouette_stored(s) and proof_stored(s, background) for s in symbols)
    assert prepare.prepare_symbols(theme, symbols, jobs=2) == 0  # nothing left to do


@pytest.mark.skipif("fork" not in __import__("multiprocessing").get_all_start_methods(), reason="no fork here")
def test_a_deck_of_bundled_pictures_draws_no_look(tmp_path: Path) -> None:
    """Every pair of bundled pictures has its look-alike verdict shipped, so a cold build of
    a deck of them (the default theme's kind; a fresh process, nothing in memory) draws no
    look-alike raster: not on the workers, and not in the build's check after them; its
    own pictures' deck draws them (above). Their proofs, vector forms and file checks ship
    too (tests/test_bundled_proofs.py, tests/test_bundled_checks.py): none is made or
    written, and neither svglib nor PDFium is loaded, before the workers or after."""
    theme = {"name": "bundled", "seed": 5, "deck": {"order": 3}, "symbols": [{"folder": "@assets/twemoji"}]}
    cache = tmp_path / "cache"
    script = tmp_path / "build.py"
    script.write_text(BUILD + 'print("svglib" in sys.modules, "pypdfium2" in sys.modules)\n')
    env = {**os.environ, "PRINTDECK_CACHE_DIR": str(cache), "PRINTDECK_JOBS": "2"}
    env.pop("PRINTDECK_NO_CACHE", None)
    args = [sys.executable, str(script), str(write_theme(tmp_path, theme)), str(tmp_path / "deck.pdf")]
    built = subprocess.run(args, env=env, capture_output=True, text=True)
    assert built.returncode == 0, built.stderr
    loaded = str(not forms_ship())  # forms made with other ReportLab or svglib versions: drawn here
    assert built.stdout.split()[-3:] == ["13", loaded, loaded]  # each drawing traced on a worker
    assert len(list(cache.glob("silhouettes/*"))) >= 13
    assert not list(cache.glob("looks/**/*.*"))
    assert not list(cache.glob("svgchecks/*"))  # shipped, none written
    assert bool(list(cache.glob("vectorforms/*"))) == (not forms_ship())


def test_proofs_ready_only_where_nothing_is_drawn(tmp_path: Path, cache: Path, monkeypatch) -> None:
    """A cold deck of bundled pictures on white loads no proof library before its workers
    fork; a cream card, a word or a picture of one's own does."""
    monkeypatch.setattr(vector_code, "_MEMORY", {})  # no form recorded in this process: a new one
    bundled = printdeck.load_theme({"name": "b", "symbols": [{"folder": "@assets/twemoji"}]}).symbols[:5]
    assert prepare._proofs_ready(bundled, "#ffffff") == forms_ship()
    assert not prepare._proofs_ready(bundled, "#fff3d6")
    own, _ = _deck(_theme(tmp_path))
    assert not prepare._proofs_ready([*bundled, own.symbols[0]], "#ffffff")
    word = printdeck.load_theme({"name": "w", "symbols": [{"text": w} for w in "abcdefg"]}).symbols[:1]
    assert not prepare._proofs_ready(word, "#ffffff")


def _no_workers(*args: object, **kwargs: object) -> None:
    raise AssertionError("a worker process was started")


@pytest.mark.parametrize("case", ["one job", "PRINTDECK_JOBS=1", "cache off", "few symbols", "other threads"])
def test_no_workers_where_they_would_not_pay(tmp_path: Path, cache: Path, monkeypatch, case: str) -> None:
    """One job asked for, the disk cache off (nowhere to leave the results), a few cold
    drawings (start-up would cost more) or a process running other threads (a lock one
    of them holds would never be released in a fork): the build does the work itself."""
    theme, symbols = _deck(_theme(tmp_path))
    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", _no_workers)
    jobs = 1 if case == "one job" else 2
    if case == "PRINTDECK_JOBS=1":
        monkeypatch.setenv("PRINTDECK_JOBS", "1")
        jobs = None
    if case == "cache off":
        monkeypatch.setenv("PRINTDECK_NO_CACHE", "1")
    if case == "few symbols":
        symbols = symbols[:5]
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    if case == "other threads":
        other.start()
    try:
        assert prepare.prepare_symbols(theme, symbols, jobs=jobs) == 0
    finally:
        stop.set()
        if other.is_alive():
            other.join()


def _dies(index: int) -> bool:
    os._exit(3)


def _fails(index: int) -> bool:
    raise RuntimeError("not a drawing's failure: the worker's own")


@pytest.mark.parametrize("worker", [_dies, _fails])
def test_a_worker_that_dies_leaves_the_work_to_the_build(tmp_path: Path, cache: Path, monkeypatch, worker) -> None:
    theme, symbols = _deck(_theme(tmp_path))
    monkeypatch.setattr(prepare, "_prepare", worker)
    assert prepare.prepare_symbols(theme, symbols, jobs=2) == 0
    assert not all(silhouette_stored(s) for s in symbols)  # the worker's drawings were not done
    assert len(silhouettes(symbols)) == len(symbols)  # the build does them


def test_a_bad_jobs_setting_is_refused(tmp_path: Path, cache: Path, monkeypatch) -> None:
    theme, symbols = _deck(_theme(tmp_path))
    monkeypatch.setenv("PRINTDECK_JOBS", "two")
    with pytest.raises(Exception, match="PRINTDECK_JOBS='two': expected a whole number"):
        prepare.prepare_symbols(theme, symbols)


@pytest.mark.skipif("fork" not in __import__("multiprocessing").get_all_start_methods(), reason="no fork here")
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_while_workers_draw_stops_cleanly(tmp_path: Path, signum: int) -> None:
    """SIGTERM or Ctrl-C (to the whole process group, as a terminal sends it) while the
    workers check and trace: one line, status 128 + signal, no traceback, no process left,
    no temporary file in the cache."""
    cache = tmp_path / "cache"
    env = {**os.environ, "PRINTDECK_CACHE_DIR": str(cache), "PRINTDECK_JOBS": "2"}
    env.pop("PRINTDECK_NO_CACHE", None)
    command = [sys.executable, "-m", "printdeck", "build", "-q", "-o", str(tmp_path / "deck.pdf")]
    child = subprocess.Popen(command, env=env, stderr=subprocess.PIPE, text=True, start_new_session=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and child.poll() is None and not list(cache.glob("silhouettes/*.sil")):
        time.sleep(0.005)  # the workers have traced a first drawing: they are at work
    os.killpg(child.pid, signum)
    _, err = child.communicate(timeout=60)
    assert "Traceback" not in err, err
    if child.returncode == 0 or "already written" in err:  # the signal came as the deck was done
        assert PdfReader(tmp_path / "deck.pdf").pages  # whole, as the line says
    else:
        assert child.returncode == 128 + signum and len(err.strip().splitlines()) == 1, err
        assert "stopped by" in err and not (tmp_path / "deck.pdf").exists()
    with contextlib.suppress(ProcessLookupError):
        time.sleep(0.5)
        os.killpg(child.pid, 0)  # any process left in the group?
        pytest.fail("a worker process outlived the build")
    assert [p for p in cache.rglob("*") if p.name.endswith(".tmp")] == [], (child.pid, err)
