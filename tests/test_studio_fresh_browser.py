"""A new workspace in a real browser: the page asks the studio for nothing it cannot get,
so no request fails and the console stays clean while the deck has too few symbols for a
sheet (a browser test of its own module: it starts its own studio and Chromium, which the
module-wide tab of ``test_studio_browser`` would share a thread with)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_studio_browser import MISSING, browser_tab, serving


def test_a_fresh_workspace_asks_for_nothing_it_cannot_get(tmp_path: Path) -> None:
    """Loading a new folder and adding symbols one by one: every answer is a success and
    no console error is logged; the page still says the deck needs more symbols, and draws
    the sheet once it has them."""
    if MISSING is not None:
        pytest.skip(MISSING)
    failed: list[str] = []

    def listen(tab: Any) -> None:
        tab.on("response", lambda r: r.status < 400 or failed.append(f"{r.status} {r.request.method} {r.url}"))
        tab.on("console", lambda m: m.type != "error" or failed.append(f"console error: {m.text}"))

    with serving(tmp_path / "new-deck") as (link, _), browser_tab(link, before=listen) as tab:
        tab.wait_for_selector("#preview-note.waiting")
        assert "needs 7 symbols and has 0" in tab.inner_text("#preview-note")
        tab.wait_for_load_state("networkidle")
        assert not failed, f"on loading a new workspace: {failed}"

        tab.fill("#words", "sun")
        tab.click("#words-form button[type=submit]")
        tab.wait_for_function("document.querySelectorAll('#grid .tile').length === 1")
        tab.wait_for_function("document.getElementById('preview-note').textContent.includes('and has 1')")
        assert tab.is_visible("#preview-note.waiting")
        tab.wait_for_load_state("networkidle")
        assert not failed, f"after adding the first symbol: {failed}"

        tab.fill("#words", "moon\nstar\ntree\nfish\nbird\nboat")
        tab.click("#words-form button[type=submit]")
        tab.wait_for_function("document.getElementById('deck-line').textContent.startsWith('7 cards')", timeout=60_000)
        assert not tab.is_visible("#preview-note.waiting")
        assert not failed, f"on reaching a deck: {failed}"
