"""PDFium is not thread-safe (no two calls at once in a process, even on different
documents: pypdfium2's "Incompatibility with Threading"), and printdeck draws with it from
threads (a cold deck's proofs, the studio's previews, a program's own threads). Every
PDFium document printdeck opens is open alone, whatever thread asks, and each thread
gets the very picture it gets alone."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from typing import Any

import pypdfium2
import pytest
from test_threads_support import at_once, child_takes

import printdeck
from printdeck.render import pdf_pixels

WORDS = {
    "deck": {"symbols_per_card": 3},
    "symbols": [{"text": w} for w in ("cat", "dog", "owl", "bee", "fox", "elk", "yak")],
}


class _Watched:
    """Stands in for ``pypdfium2.PdfDocument``: counts the documents open at once (from
    opening to closing), holding each open a little while to give threads the chance."""

    open_now = 0
    most = 0
    lock = threading.Lock()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        with _Watched.lock:
            _Watched.open_now += 1
            _Watched.most = max(_Watched.most, _Watched.open_now)
        time.sleep(0.02)
        self._document = _REAL(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._document, name)

    def __getitem__(self, index: int) -> Any:
        return self._document[index]

    def __len__(self) -> int:
        return len(self._document)

    def close(self) -> None:
        self._document.close()
        with _Watched.lock:
            _Watched.open_now -= 1


_REAL = pypdfium2.PdfDocument


@pytest.fixture(scope="module")
def deck() -> tuple[Any, Any]:
    plan = printdeck.plan(WORDS)
    return plan, printdeck.lay_out(plan)


def test_previews_on_four_threads_open_one_document_at_a_time(deck, monkeypatch: pytest.MonkeyPatch) -> None:
    plan, layouts = deck
    calls = {
        "page 1": lambda: printdeck.preview_page(plan, layouts, 1, ppi=30),
        "card 1": lambda: printdeck.preview_card(plan, layouts, 1, ppi=60),
        "card 2": lambda: printdeck.preview_card(plan, layouts, 2, ppi=60),
        "page 2": lambda: printdeck.preview_page(plan, layouts, 2, ppi=30),
    }
    alone = {name: call() for name, call in calls.items()}
    monkeypatch.setattr(pypdfium2, "PdfDocument", _Watched)
    _Watched.most = _Watched.open_now = 0
    start = threading.Barrier(len(calls), timeout=30)  # every call under way at once

    def after_start(call: Callable[[], bytes]) -> Callable[[], bytes]:
        return lambda: (start.wait(), call())[1]

    together = at_once({name: after_start(call) for name, call in calls.items()}, timeout_s=60)
    assert _Watched.most == 1, f"{_Watched.most} PDFium documents were open at once"
    assert _Watched.open_now == 0  # every document closed
    assert together == alone


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork on this platform")
def test_a_process_forked_while_a_thread_draws_can_draw() -> None:
    """A process forked while another thread holds the PDFium lock starts with it free."""
    assert child_takes(lambda: pdf_pixels.PDFIUM_LOCK) == 0
