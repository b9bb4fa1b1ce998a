"""printdeck studio stays usable while it checks a drop of phone photos (issue 28, part 7),
driven in Chromium as a parent would: drop 20 phone photos (people, a cat, a cup, a rocket,
off-centre, some stored sideways or as HEIC) and a broken file, watch each file's progress,
change a setting while the photos are checked, get the first sheet, build the PDF.

Needs ``/usr/bin/chromium`` and the ``playwright`` package (skipped, saying so, without
them), and scikit-image's sample pictures for the photos. ``PRINTDECK_SHOTS=DIR`` keeps the
screenshot taken while the photos are checked.
"""

from __future__ import annotations

import os
import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pypdfium2
import pytest
from test_studio_browser import drop, page, pytestmark, studio, sync_api, theme, wait_for

from printdeck.studio.workspace import Workspace

__all__ = ["page", "pytestmark", "studio", "sync_api"]  # the browser module's fixtures and its skips

subjects = pytest.importorskip("test_artwork_subjects", reason="skimage's sample pictures are missing")

HELD_AT = 6
"""The photo whose check waits until the test has used the page (so it is still checking)."""
MORE = [  # seven more phone photos beside the subjects tests' thirteen
    ("cat-bottom", "cat", "circle", (0.35, 0.97), 0.5, "jpeg", False, "grass"),
    ("astronaut-top", "astronaut", "rounded", (0.6, 0.03), 0.5, "exif8", True, "brick"),
    ("coffee-top", "coffee", "circle", (0.1, 0.05), 0.45, "exif3", False, "brick"),
    ("rocket-left", "rocket", "rounded", (0.03, 0.2), 0.65, "jpeg", False, "grass"),
    ("cat-corner", "cat", "rounded", (0.97, 0.97), 0.45, "exif6", False, "brick"),
    ("astronaut-bottom", "astronaut", "circle", (0.25, 0.95), 0.6, "jpeg", False, "grass"),
    ("coffee-tall", "coffee", "rounded", (0.5, 0.5), 0.7, "jpeg", True, "grass"),
]


def phone_photos(folder: Path) -> list[tuple[str, str, bytes]]:
    """Twenty phone photos as (name, type, bytes): subjects off-centre, some sideways, HEIC."""
    photos = list(subjects.PHOTOS)
    photos += [subjects.Photo(n, s, sh, w, sc, st, portrait=p, background=b) for n, s, sh, w, sc, st, p, b in MORE]
    out = []
    for photo in photos:
        pixels, _ = subjects.make_scene(photo)
        path = subjects.store(photo, pixels, folder)
        out.append((path.name, "image/heic" if path.suffix == ".heic" else "image/jpeg", path.read_bytes()))
    return out


@pytest.fixture
def held(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[int, threading.Event]]:
    """The checks of photos number 1 and :data:`HELD_AT` wait until the test sets their
    event (so the page is seen showing both, however fast the machine checks)."""
    going_on = {1: threading.Event(), HELD_AT: threading.Event()}
    real = Workspace.check_alone
    seen = [0]

    def check_alone(self: Workspace, item: Any) -> Any:
        seen[0] += 1
        if seen[0] in going_on:
            assert going_on[seen[0]].wait(120), "the test never let the checks go on"
        return real(self, item)

    monkeypatch.setattr(Workspace, "check_alone", check_alone)
    yield going_on
    for event in going_on.values():
        event.set()


def progress_seen(page: Any, total: int, until: int) -> list[tuple[str, int]]:
    """The progress lines the page shows (file, n of ``total``), until it shows n = ``until``."""
    seen: list[tuple[str, int]] = []
    deadline = time.monotonic() + 120
    while (not seen or seen[-1][1] < until) and time.monotonic() < deadline:
        found = re.fullmatch(rf"Checking (.+) \((\d+) of {total}\)…", page.inner_text("#busy"))
        if found and (found[1], int(found[2])) not in seen:
            seen.append((found[1], int(found[2])))
        time.sleep(0.03)
    return seen


def test_a_parent_drops_phone_photos_and_keeps_using_the_page(
    page: Any, studio: tuple[str, Path], tmp_path: Path, held: dict[int, threading.Event]
) -> None:
    folder = studio[1]
    files = phone_photos(tmp_path)
    files.insert(3, ("broken.jpg", "image/jpeg", b"this is not a photo"))
    names = [n for n, _, _ in files]
    drop(page, files)

    # Each file's check is shown as it happens: its name, n of 21, and a progress bar.
    seen = progress_seen(page, len(files), 1)
    held[1].set()
    seen += progress_seen(page, len(files), HELD_AT)
    assert len(seen) >= 2 and seen[-1] == (names[HELD_AT - 1], HELD_AT), seen  # the held one: "(6 of 21)"
    assert all(name in names for name, _ in seen) and [n for _, n in seen] == sorted(n for _, n in seen)
    assert page.is_visible("#check-progress")
    shots = Path(os.environ.get("PRINTDECK_SHOTS") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(shots / "studio-checking.png"))

    # The page is used meanwhile: a setting is changed and saved while photo 6 is checked.
    page.fill("#set-card-diameter", "80")
    page.press("#set-card-diameter", "Tab")
    wait_for(lambda: theme(folder).get("card") == {"diameter": "80mm"}, "the card size saved while checking", 20)
    assert theme(folder)["symbols"] == [] and page.is_visible("#check-progress")  # still checking
    assert page.input_value("#set-card-diameter") in ("80", "80mm")

    # A page reloaded meanwhile follows the check from where it is, and says so over the empty grid.
    page.reload()
    page.wait_for_function(
        f"document.getElementById('busy').textContent === 'Checking {names[HELD_AT - 1]} ({HELD_AT} of 21)…'",
        timeout=30_000,
    )
    assert page.is_visible("#check-progress") and page.inner_text("#grid-empty") == "Checking the pictures…"
    held[HELD_AT].set()

    # Every photo becomes a tile, the broken file a refused tile with its reason; the sheet comes.
    page.wait_for_function("document.querySelectorAll('#grid .tile').length === 21", timeout=180_000)
    assert re.fullmatch(r"Added 20 pictures; 1 refused \(see the red tiles\)", page.inner_text("#busy"))
    assert page.is_hidden("#check-progress")
    refused = page.locator("#grid .tile", has_text="broken.jpg")
    assert refused.count() == 1 and "cannot be read as a picture" in refused.inner_text()
    page.wait_for_function(
        "document.getElementById('deck-line').textContent.startsWith('13 cards, 4 symbols a card')"
        " && document.getElementById('preview-note').textContent.startsWith('drawn')",
        timeout=180_000,
    )
    assert len(theme(folder)["symbols"]) == 20 and theme(folder)["card"] == {"diameter": "80mm"}
    assert theme(folder)["title"] == "Family deck"  # named after its folder, as its backs print it
    badges = page.locator("#grid .tile .crop-badge")
    page.wait_for_function("document.querySelectorAll('#grid .tile .crop-badge').length === 20", timeout=60_000)
    assert badges.count() == 20

    # A card chosen for a re-roll is forgotten when its sheet is gone (a deck too big for 20 photos).
    page.click("#hotspots button[data-card='2']")
    assert page.inner_text("#reroll") == "Re-roll card 2" and page.is_enabled("#reroll")
    page.select_option("#set-deck-symbols_per_card", "8")
    page.wait_for_function("document.getElementById('sheet-wrap').classList.contains('empty')", timeout=60_000)
    assert page.is_disabled("#reroll") and page.inner_text("#reroll") == "Re-roll card"
    assert page.locator("#hotspots button").count() == 0
    page.select_option("#set-deck-symbols_per_card", "")
    page.wait_for_function(
        "document.getElementById('preview-note').textContent.startsWith('drawn')"
        " && document.querySelectorAll('#hotspots button').length > 0",
        timeout=120_000,
    )

    # Several photos show one picture (the same cat three times, cropped apart): their tiles say
    # so, and the parent lets them through (printdeck refuses them unless told).
    page.wait_for_function(
        "[...document.querySelectorAll('#grid .tile')].filter(t => t.textContent.includes('looks like')).length >= 2",
        timeout=180_000,
    )
    allow = page.get_by_label(re.compile("Allow look-alike"))
    allow.scroll_into_view_if_needed()
    allow.check()
    wait_for(lambda: theme(folder).get("deck", {}).get("allow_look_alike") is True, "the box saved", 20)
    page.click("#build")
    page.wait_for_selector("#downloads:not([hidden])", timeout=300_000)
    assert "13 cards, 4 symbols a card" in page.inner_text("#summary")
    pdf = next((folder / "output").glob("*.pdf"))
    document = pypdfium2.PdfDocument(pdf)
    first = document[0].render(scale=0.5).to_pil().convert("L")
    assert len(document) >= 1 and first.getextrema()[0] < 100  # a sheet with ink on it
