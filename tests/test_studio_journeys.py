"""printdeck studio driven as a person would (issue 28): a keyboard-only journey (skip
link, a setting, an error fixed from its message, Build: no mouse), a phone journey at
360 and 390 px wide (no sideways scroll, build, read a message), and axe-core's check of
the desktop and phone layouts with a sheet built and an error showing (no serious or
critical violation). Screenshots go to ``$PRINTDECK_STUDIO_SHOTS`` when set.

Needs Chromium and Playwright (see ``test_studio_browser``); the axe-core check needs the
``axe-playwright-python`` package (the ``test`` extra), which ships axe-core's script.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_studio_browser import CHROMIUM, CHROMIUM_ARGS, drop, photo_jpeg, pytestmark, studio, sync_api, theme, wait_for

__all__ = ["pytestmark", "studio", "sync_api"]  # the module's fixture and its skips (no Chromium, no Playwright)

ERROR_WORDS = "Diameter must be a length such as 85 mm"
BAD_IMPACTS = ("serious", "critical")


@pytest.fixture(scope="module")
def driver(studio: tuple[str, Path]) -> Iterator[object]:
    """Chromium (after the studio: without Chromium, the studio's fixture skips first)."""
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("PRINTDECK_STUDIO_SHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def open_tab(browser: object, link: str, width: int, height: int, phone: bool = False) -> object:
    context = browser.new_context(
        viewport={"width": width, "height": height},
        bypass_csp=True,
        accept_downloads=True,
        is_mobile=phone,
        has_touch=phone,
    )
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda exc: errors.append(str(exc)))
    tab.page_errors = errors
    tab.goto(link)
    tab.wait_for_selector("body[data-ready]")
    return tab


def active(tab: object) -> dict:
    return tab.evaluate("({ id: document.activeElement.id, text: document.activeElement.textContent.trim() })")


def press_until(tab: object, key: str, wanted: str, most: int = 120) -> int:
    """Press ``key`` until the element with id (or text) ``wanted`` has the focus."""
    for presses in range(1, most + 1):
        tab.keyboard.press(key)
        if wanted in active(tab).values():
            return presses
    raise AssertionError(f"{wanted} never took the focus in {most} presses of {key}")


def on_screen(tab: object, selector: str, width: int) -> dict:
    """The element's box, checked to be inside the page's width (no text off the side)."""
    box = tab.locator(selector).bounding_box()
    assert box is not None and box["width"] > 0, f"{selector} is not shown"
    assert box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5, f"{selector} runs off the screen: {box}"
    return box


def no_sideways_scroll(tab: object) -> None:
    assert tab.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), "the page scrolls sideways"


def test_a_keyboard_only_journey(driver: object, studio: tuple[str, Path], shots: Path) -> None:
    tab = open_tab(driver, studio[0], 1280, 800)
    press_until(tab, "Tab", "Skip to the symbols")
    tab.keyboard.press("Enter")
    press_until(tab, "Tab", "words")
    tab.keyboard.type("sun\nmoon\nstar\ntree\nfish\nbird\nboat")
    tab.keyboard.press("Control+Enter")
    tab.wait_for_function("document.querySelectorAll('#grid .tile').length === 7")

    press_until(tab, "Shift+Tab", "Skip to the settings", most=8)  # back up to the skip links
    tab.keyboard.press("Enter")
    assert active(tab)["id"] == "settings-h"
    press_until(tab, "Tab", "set-card-diameter", most=30)
    tab.keyboard.type("big")
    tab.keyboard.press("Tab")
    tab.wait_for_selector(f"#err-set-card-diameter:has-text('{ERROR_WORDS}')")
    message = tab.inner_text("#err-set-card-diameter")
    described = tab.get_attribute("#set-card-diameter", "aria-describedby").split()
    assert described == ["hint-set-card-diameter", "err-set-card-diameter"]  # the spec's words, then the error
    assert "card.diameter" not in message and "expected" not in message
    tab.screenshot(path=str(shots / "desktop-keyboard-error.png"))

    tab.keyboard.press("Shift+Tab")  # back to the field the message names, and do what it says
    assert active(tab)["id"] == "set-card-diameter"
    tab.keyboard.press("Control+A")
    tab.keyboard.type("85 mm")
    tab.keyboard.press("Tab")
    tab.wait_for_function("document.getElementById('err-set-card-diameter').textContent === ''")
    wait_for(lambda: (theme(studio[1]).get("card") or {}).get("diameter") == "85 mm", "the fixed diameter saved")

    press_until(tab, "Tab", "build", most=80)
    tab.keyboard.press("Enter")
    tab.wait_for_selector("#downloads:not([hidden])", timeout=120_000)
    assert active(tab)["id"] == "pdf-link"  # the focus goes to the download
    with tab.expect_download() as download:
        tab.keyboard.press("Enter")
    assert Path(download.value.path()).read_bytes().startswith(b"%PDF")
    tab.screenshot(path=str(shots / "desktop-keyboard-built.png"), full_page=True)
    assert not tab.page_errors


@pytest.mark.parametrize("width", [360, 390])
def test_a_phone_journey(driver: object, studio: tuple[str, Path], shots: Path, width: int) -> None:
    tab = open_tab(driver, studio[0], width, 800, phone=True)
    if tab.evaluate("document.querySelectorAll('#grid .tile').length") < 7:
        tab.locator("#words").tap()
        tab.keyboard.type("sun\nmoon\nstar\ntree\nfish\nbird\nboat")
        tab.locator("#words-form button[type=submit]").tap()
        tab.wait_for_function("document.querySelectorAll('#grid .tile').length >= 7")
    drop(tab, [("photo-0.jpg", "image/jpeg", photo_jpeg(0))])
    tab.wait_for_function("document.getElementById('deck-line').textContent !== ''", timeout=60_000)
    no_sideways_scroll(tab)
    on_screen(tab, "#saved", width)
    assert one_line_buttons(tab, ".preview-actions button, #build, #slides") == []

    tab.locator("#set-card-diameter").tap()
    tab.locator("#set-card-diameter").fill("")  # the box emptied, as a person clears it
    tab.keyboard.type("big")
    tab.locator("#set-card-bleed").tap()  # leaving the box sends it
    tab.wait_for_selector(f"#err-set-card-diameter:has-text('{ERROR_WORDS}')")
    on_screen(tab, "#err-set-card-diameter", width)  # the message is read where it is, whole
    on_screen(tab, "#saved", width)
    no_sideways_scroll(tab)
    tab.locator("#set-card-diameter").scroll_into_view_if_needed()
    tab.screenshot(path=str(shots / f"phone-{width}-error.png"))
    tab.locator("#set-card-diameter").fill("85 mm")
    tab.locator("#set-card-bleed").tap()
    tab.wait_for_function("document.getElementById('err-set-card-diameter').textContent === ''")

    tab.locator("#build-top").tap()
    # this build's end (a page opened after another test's build shows that one as "Last build")
    tab.wait_for_function("document.getElementById('build-stage').textContent.startsWith('Done in')", timeout=120_000)
    tab.wait_for_selector("#top-pdf:not([hidden])")
    on_screen(tab, "#top-pdf", width)
    on_screen(tab, "#build-top", width)
    no_sideways_scroll(tab)
    assert "Done in" in tab.inner_text("#build-stage")
    tab.evaluate("window.scrollTo(0, 0)")
    tab.screenshot(path=str(shots / f"phone-{width}-built.png"))
    assert not tab.page_errors


def one_line_buttons(tab: object, selector: str) -> list[str]:
    """The visible buttons of ``selector`` whose words wrap onto a second line (none should:
    on a narrow screen the buttons wrap, never their words), as ``text: lines``."""
    found: list[str] = tab.evaluate(  # type: ignore[attr-defined]
        """(selector) => [...document.querySelectorAll(selector)]
          .filter((b) => b.offsetParent !== null)
          .map((b) => {
            const style = getComputedStyle(b);
            const lines = Math.round((b.clientHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom))
              / parseFloat(style.lineHeight));
            return [b.textContent.trim(), lines];
          })
          .filter(([, lines]) => lines > 1).map(([text, lines]) => `${text}: ${lines}`)""",
        selector,
    )
    return found


def serious_violations(tab: object) -> list[str]:
    """axe-core's serious and critical violations on the page as it is now."""
    axe = pytest.importorskip(
        "axe_playwright_python.sync_playwright",
        reason="axe-playwright-python (axe-core for Playwright) is missing: pip install -e '.[test]'",
    )
    results = axe.Axe().run(tab)
    return [
        f"{v['impact']} {v['id']}: {v['help']} at {[n['target'] for n in v['nodes']][:5]}"
        for v in results.response["violations"]
        if v["impact"] in BAD_IMPACTS
    ]


@pytest.mark.parametrize(("width", "height", "phone"), [(1280, 800, False), (390, 844, True)])
def test_axe_finds_no_serious_violation(
    driver: object, studio: tuple[str, Path], shots: Path, width: int, height: int, phone: bool
) -> None:
    tab = open_tab(driver, studio[0], width, height, phone=phone)
    if tab.evaluate("document.querySelectorAll('#grid .tile').length") < 7:
        tab.fill("#words", "sun\nmoon\nstar\ntree\nfish\nbird\nboat")
        tab.click("#words-form button[type=submit]")
        tab.wait_for_function("document.querySelectorAll('#grid .tile').length >= 7")
    drop(tab, [("photo-1.jpg", "image/jpeg", photo_jpeg(1)), ("broken.png", "image/png", b"\x89PNG\r\n\x1a\nbroken")])
    tab.wait_for_selector("#grid .tile.rejected")
    tab.locator("#grid .tile", has=tab.locator("img.photo")).first.locator(".tile-face").click()  # a photo's panel
    tab.wait_for_selector("#detail .crop", timeout=90_000)  # the photo is checked first: slow on a busy machine
    tab.click("#build")
    tab.wait_for_selector("#downloads:not([hidden])", timeout=120_000)
    tab.fill("#set-card-diameter", "big")
    tab.press("#set-card-diameter", "Tab")
    tab.wait_for_selector(f"#err-set-card-diameter:has-text('{ERROR_WORDS}')")
    tab.wait_for_function("document.getElementById('deck-line').textContent !== ''", timeout=60_000)
    tab.screenshot(path=str(shots / f"axe-{width}.png"), full_page=True)
    found = serious_violations(tab)
    assert not found, "axe-core: " + "; ".join(found)
    tab.fill("#set-card-diameter", "")
    tab.press("#set-card-diameter", "Tab")
    tab.wait_for_function("document.getElementById('err-set-card-diameter').textContent === ''")


@pytest.mark.parametrize(("width", "phone"), [(1280, False), (390, True)])
def test_tile_buttons_fit_a_finger_and_a_long_answer_keeps_off_the_buttons(
    driver: object, studio: tuple[str, Path], width: int, phone: bool
) -> None:
    """Each tile's move and remove buttons are at least 24 x 24 px (WCAG 2.5.8), 30 x 30
    under a finger; the top bar's answer, however long, wraps in its own room and never
    runs under Undo, Redo or Build PDF."""
    tab = open_tab(driver, studio[0], width, 800, phone=phone)
    if tab.evaluate("document.querySelectorAll('#grid .tile').length") < 2:
        tab.fill("#words", "sun\nmoon")
        tab.click("#words-form button[type=submit]")
    tab.wait_for_function("document.querySelectorAll('#grid .tile .tile-tools button').length > 0", timeout=60_000)
    sizes = tab.evaluate(
        "[...document.querySelectorAll('#grid .tile .tile-tools button')]"
        ".map((b) => { const r = b.getBoundingClientRect(); return [r.width, r.height]; })"
    )
    least = 30 if phone else 24
    assert min(w for w, _ in sizes) >= least and min(h for _, h in sizes) >= least, sizes
    tab.evaluate(
        "document.getElementById('saved').textContent = 'Not saved: ' + 'photos/IMG_20261129_101010.jpg cannot be "
        "read as a picture; re-export it as PNG or JPEG and drop it again. '.repeat(2)"
    )
    boxes = tab.evaluate(
        "['saved', 'undo', 'redo', 'build-top'].map((id) => { const r = document.getElementById(id)"
        ".getBoundingClientRect(); return [id, r.left, r.top, r.right, r.bottom]; })"
    )
    saved = boxes[0]
    for name, left, top, right, bottom in boxes[1:]:
        apart = saved[3] <= left or right <= saved[1] or saved[4] <= top or bottom <= saved[2]
        assert apart, f"the answer {saved[1:]} runs under {name} {left, top, right, bottom}"
    on_screen(tab, "#saved", width)
    assert not tab.page_errors
