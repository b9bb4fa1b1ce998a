"""A photo's crop is found by one process at a time (printdeck/cache_claims.py): the
look-alike check and a cold deck's photo workers, reaching one photo together, searched
it for faces twice."""

from __future__ import annotations

import multiprocessing
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from test_photo_work import _forget, _photo_theme
from test_speed_caches import cache

import printdeck.artwork.framing as framing
from printdeck.artwork import drawing
from printdeck.cache_claims import claimed
from printdeck.theme import load_theme

__all__ = ["cache"]  # the disk-cache fixture of test_speed_caches


def _slow_counted_framing(log: Path) -> None:
    """Make every face search of this process (and of those forked from it) take half a
    second longer, so two searches of one photo would overlap, and write when it began and
    when that half second ended (``time.monotonic``) as a line of ``log``."""
    real = framing.photo_framing

    def counted(*args: object, **kwargs: object) -> object:
        began = time.monotonic()
        time.sleep(0.5)
        with log.open("a", encoding="utf-8") as out:
            out.write(f"{began} {time.monotonic()}\n")
        return real(*args, **kwargs)  # type: ignore[arg-type]

    framing.photo_framing = counted  # type: ignore[assignment]


def _crop_in_child(theme_file: Path, index: int, start: float, answers: multiprocessing.Queue) -> None:
    symbol = load_theme(theme_file).symbols[index]
    time.sleep(max(0.0, start - time.time()))
    answers.put(drawing(symbol).crop)


def test_two_processes_reaching_one_photo_search_it_once(
    tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    theme_file = _photo_theme(tmp_path)
    _forget()
    log = tmp_path / "searches.log"
    monkeypatch.setattr(framing, "photo_framing", framing.photo_framing)  # put back after the test
    _slow_counted_framing(log)
    context = multiprocessing.get_context("fork")
    answers = context.Queue()
    start = time.time() + 0.5  # both ask at once
    children = [context.Process(target=_crop_in_child, args=(theme_file, 3, start, answers)) for _ in range(2)]
    for child in children:
        child.start()
    crops = [answers.get(timeout=60) for _ in children]
    for child in children:
        child.join(timeout=60)
        assert child.exitcode == 0
    assert len(log.read_text(encoding="utf-8").splitlines()) == 1
    assert crops[0] == crops[1] and crops[0] is not None
    assert not list((cache / "crops").glob("*.lock"))  # nothing left behind
    assert len(list((cache / "crops").glob("*.json"))) == 1


def test_threads_reaching_one_photo_search_it_once(
    tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The studio's threads alike; another photo is searched meanwhile, not held up."""
    photos = load_theme(_photo_theme(tmp_path)).symbols
    _forget()
    log = tmp_path / "searches.log"
    monkeypatch.setattr(framing, "photo_framing", framing.photo_framing)
    _slow_counted_framing(log)
    with ThreadPoolExecutor(4) as pool:
        crops = list(pool.map(lambda s: drawing(s).crop, [photos[2], photos[2], photos[2], photos[5]]))
    searches = [tuple(map(float, line.split())) for line in log.read_text(encoding="utf-8").splitlines()]
    assert len(searches) == 2  # photo 2 once, photo 5 once
    assert crops[0] == crops[1] == crops[2] is not None
    (a0, a1), (b0, b1) = searches
    assert a0 < b1 and b0 < a1  # at the same time: a claim holds back only its own photo


def test_a_claim_holds_others_back_until_it_ends(tmp_path: Path) -> None:
    order: list[str] = []
    inside = threading.Event()

    def second() -> None:
        inside.wait(10)
        with claimed(tmp_path, "k"):
            order.append("second")

    other = threading.Thread(target=second)
    other.start()
    with claimed(tmp_path, "k"):
        inside.set()
        time.sleep(0.3)
        with claimed(tmp_path, "k"):  # made again inside its own: passes
            order.append("first")
    other.join(10)
    assert order == ["first", "second"]
    assert list(tmp_path.iterdir()) == []


def test_no_folder_or_an_unwritable_one_claims_nothing(tmp_path: Path) -> None:
    with claimed(None, "k"):
        pass
    missing = tmp_path / "gone"
    with claimed(missing, "k"):  # the lock file cannot be made: the work runs all the same
        pass
    assert not missing.exists()


def _claim_in_child(folder: Path, answers: multiprocessing.Queue) -> None:
    with claimed(folder, "k"):
        answers.put("claimed")


def test_a_child_forked_during_a_claim_waits_only_for_the_claim(tmp_path: Path) -> None:
    """The layout forks its workers while other threads run (the studio's requests): a
    worker forked while another thread held a claim kept a copy of its lock, so the lock
    outlived the claim and the worker, asking for the same entry, waited for itself
    forever (and the build with it). A forked child now lets go of the claims it inherited:
    it waits for the thread's claim to end, then has its own."""
    holding, release = threading.Event(), threading.Event()

    def holder() -> None:
        with claimed(tmp_path, "k"):
            holding.set()
            release.wait(20)

    thread = threading.Thread(target=holder)
    thread.start()
    assert holding.wait(10)
    context = multiprocessing.get_context("fork")
    answers = context.Queue()
    child = context.Process(target=_claim_in_child, args=(tmp_path, answers))
    child.start()  # forked while the thread holds its claim
    time.sleep(0.5)
    assert answers.empty()  # the child waits for the thread's claim...
    release.set()
    thread.join(10)
    try:
        assert answers.get(timeout=20) == "claimed"  # ...and no longer once it ends
    finally:
        child.join(5)
        if child.is_alive():
            child.kill()
    assert child.exitcode == 0
