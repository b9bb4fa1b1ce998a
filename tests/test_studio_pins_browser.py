"""A designer touches up a card in the studio (issue 28, part 4), in Chromium driven by
Playwright as a person would: open the studio on an outline-icon deck, choose a card on
the sheet and zoom it, resize, turn and move a symbol with the keyboard and the mouse, see
a refusal when dragging it onto a neighbour, release a pin, build; the PDF the page offers
is the command line's build of the folder, and it prints the symbol where it was put (the
PDF rasterised, the icon stamped there by resvg).

Needs ``/usr/bin/chromium`` and the ``playwright`` package (skipped, saying so, without them).
"""

from __future__ import annotations

import math
import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_pins_support import ink_at_pin
from test_studio_browser import CHROMIUM, CHROMIUM_ARGS, pytestmark, serving, sync_api, theme
from test_studio_journeys import serious_violations

import printdeck

__all__ = ["pytestmark", "sync_api"]  # the browser module's skips (no Chromium, no Playwright)

ICONS = Path(__file__).parent / "fixtures" / "icons"
WARNINGS = "document.querySelector('#sheet-warnings').textContent"
SHOTS = os.environ.get("PRINTDECK_SCREENSHOTS")  # a folder to keep the card view's screenshots in


@pytest.fixture(scope="module")
def studio(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """A studio on the icon deck, on a free port of 127.0.0.1: (link with token, folder)."""
    if not CHROMIUM.exists():
        pytest.skip(pytestmark.kwargs["reason"])
    folder = tmp_path_factory.mktemp("pins-browser") / "icons"
    shutil.copytree(ICONS, folder)
    with serving(folder) as served:
        yield served


def _pins(folder: Path) -> dict:
    """Card 2's pinned places in theme.yaml ({} without)."""
    entries = (theme(folder).get("layout") or {}).get("pinned") or []
    return next((e["place"] for e in entries if e["card"] == 2), {})


def _shot(page: object, name: str, tmp_path: Path) -> Path:
    folder = Path(SHOTS) if SHOTS else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    page.locator("#card-view").screenshot(path=str(path))  # type: ignore[attr-defined]
    return path


def _frames(page: object) -> dict[str, tuple[float, float, float]]:
    """Each symbol's frame on the screen, read at once: name -> (centre x, centre y, area)."""
    return {
        name: (x, y, area)
        for name, x, y, area in page.eval_on_selector_all(  # type: ignore[attr-defined]
            "#card-view g.cv-symbol",
            """gs => gs.map((g) => { const r = g.querySelector('rect.cv-box').getBoundingClientRect();
                return [g.dataset.name, r.x + r.width / 2, r.y + r.height / 2, r.width * r.height]; })""",
        )
    }


def _centre_on_screen(page: object, name: str) -> tuple[float, float]:
    """Where a symbol's frame is on the screen (the middle of its box)."""
    x, y, _ = _frames(page)[name]
    return x, y


def _answered(page: object) -> str:
    """Wait for the card view's answer to the last change; its state (saved, refused...)."""
    page.wait_for_selector("#cv-status[data-state]:not([data-state='checking']):not([data-state=''])")  # type: ignore[attr-defined]
    page.wait_for_selector("#card-view:not([data-loading])", state="attached")  # type: ignore[attr-defined]
    return str(page.get_attribute("#cv-status", "data-state"))  # type: ignore[attr-defined]


def _reset(page: object) -> None:
    page.eval_on_selector("#cv-status", "s => { s.dataset.state = ''; }")  # type: ignore[attr-defined]


def test_a_designer_touches_up_a_card(studio: tuple[str, Path], tmp_path: Path) -> None:
    link, folder = studio
    with sync_api.sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        context = browser.new_context(viewport={"width": 1280, "height": 900}, accept_downloads=True)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(link)
        page.wait_for_selector("body[data-ready]")
        page.wait_for_selector('#hotspots button[data-card="2"]', timeout=60_000)

        page.click('#hotspots button[data-card="2"]')
        assert page.inner_text("#touch-up") == "Zoom card 2"
        page.click("#touch-up")
        page.wait_for_selector("#card-view[open] g.cv-symbol")
        page.wait_for_selector("#card-view img.cv-print[src^='blob:']")
        names = page.eval_on_selector_all("#card-view g.cv-symbol", "gs => gs.map((g) => g.dataset.name)")
        assert len(names) == 4
        star = names[0]
        found = serious_violations(page)  # the open card view: axe-core's serious and critical violations
        assert not found, "axe-core: " + "; ".join(found)

        # larger where the layout left no room: as large as it fits, and said so
        grown = names[1]
        page.click(f'#card-view .cv-pick[data-name="{grown}"]')
        for _ in range(3):
            page.keyboard.press("+")
        assert _answered(page) == "saved", page.inner_text("#cv-status")
        said = page.inner_text("#cv-status")
        assert said.startswith(f"Saved: {grown} as large as it fits there (") and "it would touch " in said, said
        _shot(page, "card-view-fitted.png", tmp_path)
        _reset(page)

        # the keyboard: choose the symbol, make it smaller, turn it
        page.click(f'#card-view .cv-pick[data-name="{star}"]')
        for _ in range(8):  # a third smaller: room to turn it whatever its neighbours
            page.keyboard.press("-")
        page.keyboard.press("[")
        assert _answered(page) == "saved", page.inner_text("#cv-status")
        place = _pins(folder)
        assert set(place) == set(names) and place[star]["rotation"] != 0
        _shot(page, "card-view-keyboard.png", tmp_path)

        # the mouse: drag the symbol a little towards the card's middle
        _reset(page)
        x, y = _centre_on_screen(page, star)
        middle = page.locator("#card-view .cv-stage").bounding_box()
        cx, cy = middle["x"] + middle["width"] / 2, middle["y"] + middle["height"] / 2
        before = dict(_pins(folder)[star])
        page.mouse.move(x, y)
        page.mouse.down()
        page.mouse.move(x + (cx - x) * 0.05, y + (cy - y) * 0.05, steps=5)
        page.mouse.up()
        assert _answered(page) == "saved", page.inner_text("#cv-status")
        moved = _pins(folder)[star]
        assert moved["center"] != before["center"] and moved["size"] == before["size"]

        # onto a neighbour: refused, in plain words, nothing saved
        saved_text = (folder / "theme.yaml").read_text(encoding="utf-8")
        _reset(page)
        frames = _frames(page)
        mover = min(names, key=lambda n: frames[n][2])  # the smallest: it stays on the card
        x, y, _ = frames[mover]
        neighbour = min((n for n in names if n != mover), key=lambda n: math.dist((x, y), frames[n][:2]))
        nx, ny, _ = frames[neighbour]
        page.mouse.move(x, y)
        page.mouse.down()
        page.mouse.move(x + (nx - x) * 0.6, y + (ny - y) * 0.6, steps=8)  # over the neighbour's ink
        page.mouse.up()
        assert _answered(page) == "refused"
        refusal = page.inner_text("#cv-status")
        assert refusal.startswith(f"{mover} would touch ") and "move it away" in refusal, refusal
        assert (folder / "theme.yaml").read_text(encoding="utf-8") == saved_text
        shot = _shot(page, "card-view-refused.png", tmp_path)
        assert shot.stat().st_size > 10_000

        # the print in the card view is the card as it prints: the star pinned where it was put
        pin = _pins(folder)[star]
        other = next(n for n in names if n != star)
        page.click(f'#card-view .cv-pick[data-name="{other}"]')
        _reset(page)
        page.click("#card-view button:text-is('Release pin')")
        assert _answered(page) == "released"
        assert other not in _pins(folder) and star in _pins(folder)
        page.click("#card-view button:text-is('Back to the sheet')")

        page.click("#build")
        page.wait_for_selector("#downloads:not([hidden])", timeout=120_000)
        with page.expect_download() as download:
            page.click("#pdf-link")
        pdf = Path(download.value.path()).read_bytes()
        assert not errors, f"errors in the page: {errors}"
        browser.close()

    cli = printdeck.build(folder, out=tmp_path / "cli.pdf")
    assert cli.pdf_path.read_bytes() == pdf
    symbol = next(s for s in printdeck.load_theme(folder / "theme.yaml").symbols if s.name == star)
    at = (float(pin["center"][0][:-2]), float(pin["center"][1][:-2]))
    assert ink_at_pin(cli.pdf_path, 1, symbol, (at, float(pin["rotation"]), float(pin["size"][:-2]))) > 0.97


def test_touch_ups_a_new_seed_outgrew_are_said_and_forgotten(studio: tuple[str, Path], tmp_path: Path) -> None:
    """Card 3 touched up, then new seeds until it shows other symbols: the sheet says so in
    the page's words, the zoomed card says what it was touched up on, and Release card
    (enabled though nothing on the card is pinned now) forgets the entry."""
    link, folder = studio
    with sync_api.sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(link)
        page.wait_for_selector('#hotspots button[data-card="3"]', timeout=60_000)
        page.click('#hotspots button[data-card="3"]')
        page.click("#touch-up")
        page.wait_for_selector("#card-view[open] g.cv-symbol")
        names = page.eval_on_selector_all("#card-view g.cv-symbol", "gs => gs.map((g) => g.dataset.name)")
        page.click(f'#card-view .cv-pick[data-name="{names[0]}"]')
        page.keyboard.press("-")
        assert _answered(page) == "saved", page.inner_text("#cv-status")
        page.click("#card-view button:text-is('Back to the sheet')")

        def pinned_on() -> list[str]:
            entries = (theme(folder).get("layout") or {}).get("pinned") or []
            return next((sorted(e["symbols"]) for e in entries if e["card"] == 3), [])

        assert pinned_on() == sorted(names)
        deck = printdeck.plan(printdeck.load_theme(folder / "theme.yaml"))
        for _ in range(10):
            seed = theme(folder)["seed"]
            page.click("#reseed")
            page.wait_for_function("() => !document.querySelector('#reseed').disabled")
            for _ in range(100):
                if theme(folder)["seed"] != seed:
                    break
                page.wait_for_timeout(50)
            deck = printdeck.plan(printdeck.load_theme(folder / "theme.yaml"))
            if sorted(s.name for s in deck.cards[2]) != sorted(names):
                break
        assert sorted(s.name for s in deck.cards[2]) != sorted(names), "ten seeds dealt card 3 the same symbols"
        page.wait_for_selector("#sheet-warnings:not([hidden])", timeout=60_000)
        page.wait_for_function(f"() => /touch-ups of cards? [^:]*\\b3\\b[^:]*are not used/.test({WARNINGS})")
        said = page.inner_text("#sheet-warnings")
        assert re.search(r"touch-ups of cards? [^:]*\b3\b[^:]*are not used", said) and "layout.pinned" not in said, said

        if page.get_attribute('#hotspots button[data-card="3"]', "aria-pressed") != "true":
            page.click('#hotspots button[data-card="3"]')  # a second click would let it go
        page.click("#touch-up")
        page.wait_for_selector("#card-view[open] #cv-stale:not([hidden])")
        note = page.inner_text("#cv-stale")
        assert all(name in note for name in names) and "Release card forgets them" in note, note
        assert page.is_enabled("#card-view button:text-is('Release card')")
        _shot(page, "card-view-stale.png", tmp_path)
        _reset(page)
        page.click("#card-view button:text-is('Release card')")
        assert _answered(page) == "released"
        assert pinned_on() == []
        page.wait_for_selector("#card-view #cv-stale[hidden]", state="attached")
        page.click("#card-view button:text-is('Back to the sheet')")
        page.wait_for_function(  # card 2 of the test before may still be said
            f"() => !/touch-ups of cards? [^:]*\\b3\\b[^:]*are not used/.test({WARNINGS})"
        )
        assert not errors, f"errors in the page: {errors}"
        browser.close()
