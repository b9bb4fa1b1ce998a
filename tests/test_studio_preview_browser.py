"""The preview's facts go with its sheet: when a preview fails after a good sheet, what that
sheet left out and its warnings are not left on the page (a browser test of its own module:
it starts its own studio and Chromium, which the module-wide tab of
``test_studio_browser`` would share a thread with)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image
from test_studio_browser import MISSING, browser_tab, drop, serving


def test_a_failed_preview_leaves_no_facts_of_the_sheet_before(tmp_path: Path) -> None:
    """When the preview fails after a good sheet, the lines about that sheet (what it left
    out, its warnings) go with it: they would describe a deck that is no longer there."""
    if MISSING is not None:
        pytest.skip(MISSING)
    tiny = io.BytesIO()
    Image.new("RGB", (40, 32), (200, 120, 40)).save(tiny, "JPEG")  # prints far under 150 dpi: the layout refuses
    with serving(tmp_path / "deck") as (link, _), browser_tab(link) as tab:
        tab.fill("#words", "sun\nmoon\nstar\ntree\nfish\nbird\nboat\nrain")  # a deck of 7, 1 left out
        tab.click("#words-form button[type=submit]")
        tab.wait_for_function("document.getElementById('left-out').textContent.startsWith('Left out of this deck (1)')")
        drop(tab, [("coins.jpg", "image/jpeg", tiny.getvalue())])
        tab.wait_for_function("document.querySelectorAll('#grid .tile').length === 9")
        for word in ("rain", "boat"):  # 7 symbols left, the photo among them
            tab.click(f"#grid button[aria-label='Remove {word}']")
            tab.wait_for_function(
                f"![...document.querySelectorAll('#grid .tile')].some(t => t.textContent.includes('{word}'))"
            )
        tab.wait_for_selector("#preview-note.error", timeout=60_000)
        assert tab.inner_text("#left-out") == "" and tab.is_hidden("#sheet-warnings")
