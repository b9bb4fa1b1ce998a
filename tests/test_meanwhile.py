"""The look-alike check done beside the packing (issue 29): in a process of its own
started before the layout, or in the first layout worker while the others pack; it is
done exactly once, its warnings reach the caller, and its refusal wins over the layout's
results and errors (same message, exit status 2, nothing written), serial or parallel."""

from __future__ import annotations

import contextlib
import dataclasses
import os
import signal
import threading
import time
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_concepts_lookalikes import _disc
from test_layout_support import deck_cards
from test_theme_support import write_theme

import printdeck
from printdeck.assign import assign_symbols
from printdeck.cli import main as cli_main
from printdeck.deck_plan import deck_design
from printdeck.errors import Listing, LookAlikeWarning, PrintdeckError
from printdeck.layout import LayoutSettings, Meanwhile, layout_deck, meanwhile as meanwhile_module
from printdeck.theme import check_look_alikes, load_theme

TWEMOJI = ("apple", "anchor", "ant", "bee", "cactus", "fir-tree", "blowfish", "banana", "bell", "books", "burger")


class Noted:
    """Work that notes each run (process id) in a file, warns, and raises if told to."""

    def __init__(self, folder: Path, error: str | None = None) -> None:
        self.log = folder / "runs.txt"
        self.error = error

    def __call__(self) -> None:
        with self.log.open("a", encoding="utf-8") as f:
            f.write(f"{os.getpid()}\n")
        warnings.warn("symbols: noted", LookAlikeWarning, stacklevel=2)
        if self.error is not None:
            raise PrintdeckError(self.error)

    def runs(self) -> list[int]:
        return [int(line) for line in self.log.read_text(encoding="utf-8").split()] if self.log.exists() else []


@contextlib.contextmanager
def warned() -> Iterator[list[tuple[str, type[Warning]]]]:
    """Each ``warnings.warn`` call made in this process meanwhile, as (text, category).

    Kept by standing in for ``warnings.warn``, not by ``warnings.catch_warnings``: that is
    not thread-safe, and a thread an earlier test of this process left at work (a studio's
    picture check drawing its preview) entering and leaving it meanwhile took the record
    away once in CI."""
    calls: list[tuple[str, type[Warning]]] = []
    here, real = os.getpid(), warnings.warn

    def keep(message: object, category: type[Warning] | None = None, *args: object, **kwargs: object) -> None:
        if os.getpid() != here:  # a forked process: warned as ever, for it to send them over
            real(message, category, *args, **kwargs)  # type: ignore[arg-type]
            return
        kind = category or (type(message) if isinstance(message, Warning) else UserWarning)
        calls.append((str(message), kind))

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(warnings, "warn", keep)
        yield calls


@pytest.fixture(autouse=True)
def _fresh_layouts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every card packed (none read from a layout cache), every cache in the test's folder."""
    monkeypatch.setenv("PRINTDECK_NO_LAYOUT_CACHE", "1")
    monkeypatch.setenv("PRINTDECK_CACHE_DIR", str(tmp_path / "cache"))


@pytest.fixture(scope="module")
def theme():
    return load_theme(None)


def _cards(theme, n: int):
    return deck_cards(theme.symbols, 7)[:n]


@pytest.mark.parametrize("jobs", [1, 2])
def test_the_work_is_done_once_and_its_warnings_reach_the_caller(theme, tmp_path: Path, jobs: int) -> None:
    settings = dataclasses.replace(LayoutSettings.from_theme(theme), rounds=4)
    cards = _cards(theme, 12)
    work = Noted(tmp_path)
    meanwhile = Meanwhile(work)
    with warned() as caught:
        layouts = layout_deck(cards, settings, seed=5, jobs=jobs, meanwhile=meanwhile)
    assert meanwhile.done and len(work.runs()) == 1
    assert (work.runs()[0] != os.getpid()) == (jobs > 1)  # beside the packing: in a worker
    assert [text for text, kind in caught if kind is LookAlikeWarning] == ["symbols: noted"]
    assert layouts == layout_deck(cards, settings, seed=5, jobs=1)  # the layout does not change


@pytest.mark.filterwarnings("ignore::printdeck.errors.LookAlikeWarning")
def test_its_error_wins_over_the_cards(theme, tmp_path: Path) -> None:
    settings = dataclasses.replace(LayoutSettings.from_theme(theme), rounds=4, min_size_mm=15.0)
    cards = _cards(theme, 12)
    with pytest.raises(PrintdeckError, match=r"^card 1: "):  # packed, then too small
        layout_deck(cards, settings, seed=5, jobs=2)
    for jobs in (1, 2):
        work = Noted(tmp_path / str(jobs), error="symbols: alike")
        (tmp_path / str(jobs)).mkdir()
        meanwhile = Meanwhile(work)
        with pytest.raises(PrintdeckError, match=r"^symbols: alike$"):
            layout_deck(cards, settings, seed=5, jobs=jobs, meanwhile=meanwhile)
        assert meanwhile.done and len(work.runs()) == 1
        meanwhile.run_here()  # done: not again
        assert len(work.runs()) == 1


@pytest.mark.filterwarnings("ignore::printdeck.errors.LookAlikeWarning")
def test_a_deck_read_whole_from_the_cache_does_the_work_here(theme, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.delenv("PRINTDECK_NO_LAYOUT_CACHE", raising=False)
    monkeypatch.setenv("PRINTDECK_CACHE_DIR", str(tmp_path / "cache"))
    settings = dataclasses.replace(LayoutSettings.from_theme(theme), rounds=4)
    cards = _cards(theme, 10)
    layout_deck(cards, settings, seed=8, jobs=2)
    work = Noted(tmp_path)
    layout_deck(cards, settings, seed=8, jobs=2, meanwhile=Meanwhile(work))
    assert work.runs() == [os.getpid()]


def _look_alike_deck(folder: Path) -> Path:
    """13 cards of 4 (parallel packing): two red discs alike, eleven distinct Twemoji."""
    folder.mkdir(parents=True, exist_ok=True)
    _disc(folder / "disc-big.png", 600, (200, 30, 30))
    _disc(folder / "disc-small.png", 500, (200, 30, 30))
    pictures = [{"image": "disc-big.png"}, {"image": "disc-small.png"}]
    pictures += [{"image": f"@assets/twemoji/{n}.svg"} for n in TWEMOJI]
    return write_theme(folder, {"deck": {"symbols_per_card": 4}, "symbols": pictures})


def test_a_build_refuses_look_alikes_as_before_serial_or_parallel(tmp_path: Path, monkeypatch) -> None:
    path = _look_alike_deck(tmp_path / "theme")
    theme = load_theme(path)
    symbols = assign_symbols(theme, deck_design(theme).n_points, theme.spec.seed)
    with pytest.raises(PrintdeckError) as expected:  # as the build checked them before the layout
        check_look_alikes(theme, symbols)
    assert "'disc big' and 'disc small' look alike" in str(expected.value)
    for jobs in ("1", "2"):
        monkeypatch.setenv("PRINTDECK_JOBS", jobs)
        (tmp_path / jobs).mkdir()
        out = tmp_path / jobs / "deck.pdf"
        refused = CliRunner().invoke(cli_main, ["build", str(path), "-o", str(out)])
        assert refused.exit_code == 2, refused.output
        assert refused.output.strip() == f"printdeck: error: {expected.value}"
        assert list(out.parent.iterdir()) == []  # no PDF, no manifest, no temporary file
        with warned() as caught:
            result = printdeck.build(path, out=out, allow_look_alike=True)
        assert result.cards == 13 and out.exists()
        alike = [text for text, kind in caught if kind is LookAlikeWarning]
        assert alike == [f"symbols: {expected.value.problem}"]  # the refusal's pairs (it names the file too)
        assert str(expected.value).startswith(f"{path}: symbols: ")


def test_a_look_alike_refusal_wins_over_a_layout_refused_before_the_packing(tmp_path: Path) -> None:
    path = _look_alike_deck(tmp_path / "theme")
    first = [s.name for s in printdeck.plan(printdeck.load_theme(path)).cards[0]]  # card 1's symbols
    far = {"center": ["200mm", "0mm"], "size": "5mm"}  # off the card: the layout refuses it before packing
    pin = {"card": 1, "symbols": first, "place": {first[0]: far}}
    pictures = [{"image": "disc-big.png"}, {"image": "disc-small.png"}]
    pictures += [{"image": f"@assets/twemoji/{n}.svg"} for n in TWEMOJI]
    doc = {"deck": {"symbols_per_card": 4}, "layout": {"pinned": [pin]}, "symbols": pictures}
    write_theme(tmp_path / "theme", doc)
    out = tmp_path / "deck.pdf"
    allowed = CliRunner().invoke(cli_main, ["build", str(path), "-o", str(out), "--allow-look-alike"])
    assert allowed.exit_code == 2 and "layout.pinned" in allowed.output  # the layout refuses the pin
    refused = CliRunner().invoke(cli_main, ["build", str(path), "-o", str(out)])
    assert refused.exit_code == 2 and "'disc big' and 'disc small' look alike" in refused.output
    assert not out.exists()


# ----------------------------------------------------------------- the work aside


@pytest.fixture
def forkable(monkeypatch: pytest.MonkeyPatch) -> None:
    """A fork allowed here though earlier tests of this process left threads behind (idle
    pools): the build forks only when it runs no other thread, which the next test checks."""
    monkeypatch.setattr(meanwhile_module, "_fork_safe", lambda: True)


def test_the_work_aside_runs_in_its_own_process_once(theme, tmp_path: Path, forkable: None) -> None:
    """Started aside before the layout, the work runs in a process of its own, once; its
    warnings reach the caller when the layout takes its result; the layout is unchanged."""
    settings = dataclasses.replace(LayoutSettings.from_theme(theme), rounds=4)
    cards = _cards(theme, 12)
    work = Noted(tmp_path)
    meanwhile = Meanwhile(work)
    meanwhile.start_aside(2)
    assert meanwhile.aside and not meanwhile.done
    with warned() as caught:
        layouts = layout_deck(cards, settings, seed=5, jobs=2, meanwhile=meanwhile)
    assert meanwhile.done and not meanwhile.aside
    assert len(work.runs()) == 1 and work.runs()[0] != os.getpid()
    assert [text for text, kind in caught if kind is LookAlikeWarning] == ["symbols: noted"]
    assert layouts == layout_deck(cards, settings, seed=5, jobs=1)
    with pytest.raises(ChildProcessError):  # the process aside was waited for: no zombie left
        os.waitpid(work.runs()[0], os.WNOHANG)


@pytest.mark.filterwarnings("ignore::printdeck.errors.LookAlikeWarning")
def test_an_error_aside_wins_over_the_cards(theme, tmp_path: Path, forkable: None) -> None:
    settings = dataclasses.replace(LayoutSettings.from_theme(theme), rounds=4, min_size_mm=15.0)
    cards = _cards(theme, 12)
    work = Noted(tmp_path, error="symbols: alike")
    meanwhile = Meanwhile(work)
    meanwhile.start_aside(2)
    with pytest.raises(PrintdeckError, match=r"^symbols: alike$"):  # not card 1's own error
        layout_deck(cards, settings, seed=5, jobs=2, meanwhile=meanwhile)
    assert meanwhile.done and len(work.runs()) == 1 and work.runs()[0] != os.getpid()


@pytest.mark.filterwarnings("ignore::printdeck.errors.LookAlikeWarning")
def test_no_process_aside_with_one_job_or_other_threads(tmp_path: Path) -> None:
    work = Noted(tmp_path)
    one_job = Meanwhile(work)
    one_job.start_aside(1)
    assert not one_job.aside
    release = threading.Event()
    other = threading.Thread(target=release.wait)
    other.start()
    try:
        threaded = Meanwhile(work)
        threaded.start_aside(2)  # a fork would inherit the locks the other thread holds
        assert not threaded.aside
    finally:
        release.set()
        other.join()
    one_job.run_here()
    threaded.run_here()
    assert work.runs() == [os.getpid(), os.getpid()]


def test_a_process_aside_that_ends_without_a_word_leaves_the_work_to_the_caller(tmp_path: Path, forkable: None) -> None:
    parent = os.getpid()
    log = tmp_path / "runs.txt"

    def dies_aside() -> None:
        if os.getpid() != parent:
            os.kill(os.getpid(), signal.SIGKILL)  # killed, as by the out-of-memory killer
        log.write_text("here")

    meanwhile = Meanwhile(dies_aside)
    meanwhile.start_aside(2)
    assert meanwhile.aside
    meanwhile.run_here()
    assert meanwhile.done and log.read_text() == "here"


def test_abandoned_work_aside_is_stopped(tmp_path: Path, forkable: None) -> None:
    meanwhile = Meanwhile(lambda: time.sleep(60))
    meanwhile.start_aside(2)
    assert meanwhile.aside
    pid = meanwhile._aside[0]  # type: ignore[index]
    started = time.monotonic()
    meanwhile.abandon()
    assert time.monotonic() - started < 10 and not meanwhile.aside
    with pytest.raises(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)


def test_a_proof_refusal_still_comes_before_a_look_alike_refusal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, forkable: None
) -> None:
    """The check starts aside before the proofs; a symbol the proofs refuse is still the
    error said (as when the check came after them), and the process aside is stopped."""
    folder = tmp_path / "theme"
    _look_alike_deck(folder)
    (folder / "white.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle cx="5" cy="5" r="4" fill="#fff"/></svg>'
    )
    pictures = [{"image": "disc-big.png"}, {"image": "disc-small.png"}, {"image": "white.svg"}]
    pictures += [{"image": f"@assets/twemoji/{n}.svg"} for n in TWEMOJI[:10]]
    path = write_theme(folder, {"deck": {"symbols_per_card": 4}, "symbols": pictures})
    monkeypatch.setenv("PRINTDECK_JOBS", "2")
    started: list[tuple[Meanwhile, bool]] = []
    real_start = Meanwhile.start_aside

    def noted(self: Meanwhile, jobs: int) -> None:
        real_start(self, jobs)
        started.append((self, self.aside))

    monkeypatch.setattr(Meanwhile, "start_aside", noted)
    out = tmp_path / "deck.pdf"
    refused = CliRunner().invoke(cli_main, ["build", str(path), "-o", str(out)])
    assert refused.exit_code == 2 and "shows no visible ink" in refused.output, refused.output
    assert "look alike" not in refused.output and not out.exists()
    assert [aside for _, aside in started] == [True] and not started[0][0].aside  # started, then stopped


def test_a_warning_aside_keeps_its_listing(theme, tmp_path: Path, forkable: None) -> None:
    """A look-alike warning given aside reaches the caller with every pair its line only
    counts (a build with --allow-look-alike listed none of the pairs past the third)."""
    listing = Listing("the 5 pairs that look alike", tuple(f"pair {k}" for k in range(5)))

    def work() -> None:
        warnings.warn(LookAlikeWarning("symbols: five pairs", listing), stacklevel=2)

    settings = dataclasses.replace(LayoutSettings.from_theme(theme), rounds=4)
    meanwhile = Meanwhile(work)
    meanwhile.start_aside(2)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        layout_deck(_cards(theme, 12), settings, seed=5, jobs=2, meanwhile=meanwhile)
    given = [w.message for w in caught if w.category is LookAlikeWarning]
    assert [str(m) for m in given] == ["symbols: five pairs"]
    assert getattr(given[0], "listing", None) == listing
