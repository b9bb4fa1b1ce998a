"""printdeck studio for a teacher on the keyboard and a screen reader, from an empty deck:
what a user check found (the empty deck's note too faint, a refused build losing the
focus, focused settings under the sticky top bar, Arabic and Hindi words read with a
Chinese voice, the faces' setting missing). Needs Chromium and Playwright (see
``test_studio_browser``); axe-core's check needs ``axe-playwright-python``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from test_studio_browser import CHROMIUM, CHROMIUM_ARGS, pytestmark, studio, sync_api
from test_studio_journeys import open_tab, serious_violations

__all__ = ["pytestmark", "studio", "sync_api"]  # the module's fixture and its skips


@pytest.fixture(scope="module")
def tab(studio: tuple[str, Path]) -> Iterator[object]:
    """One tab on a deck that starts empty; the tests run in order, each adding to it."""
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield open_tab(browser, studio[0], 1280, 800)
        browser.close()


def test_the_empty_decks_note_passes_axe(tab: object) -> None:
    """The note over the empty sheet ("as soon as there are enough symbols ...") was grey
    on the sheet's beige at 3.99:1, under WCAG's 4.5:1, where a new teacher reads first."""
    tab.wait_for_selector("#preview-note.waiting")
    found = serious_violations(tab)
    assert not found, "axe-core: " + "; ".join(found)


def test_a_refused_build_keeps_the_keyboards_place(tab: object) -> None:
    """Build pressed by keyboard was disabled as the build started, so the focus fell to
    the page's top; on a refusal it never came back. The focus now goes to the reason."""
    tab.fill("#words", "鸟\n马\nقطة\nबिल्ली")  # simplified Chinese letters: the deck prints in zh-Hans
    tab.click("#words-form button[type=submit]")
    tab.wait_for_function("document.querySelectorAll('#grid .tile').length === 4")
    tab.focus("#build")
    tab.keyboard.press("Enter")
    tab.wait_for_selector("#build-error:not([hidden])", timeout=60_000)
    assert tab.evaluate("document.activeElement.id") == "build-error"
    assert tab.get_attribute("#build", "aria-disabled") == "false" and not tab.is_disabled("#build")


def test_only_words_in_han_letters_take_a_han_decks_language(tab: object) -> None:
    """A deck whose words include Chinese prints them in Chinese letter forms
    (``words_lang``); the page tagged every word so, and a screen reader read Arabic and
    Hindi words with a Chinese voice. Names also take their own direction (``dir=auto``)."""
    tab.fill("#words", "鱼\nكلب\nकुत्ता")  # seven symbols: a deck, whose language the page is told
    tab.click("#words-form button[type=submit]")
    tab.wait_for_function("document.querySelectorAll('#grid .tile .word[lang]').length > 0", timeout=60_000)
    langs = tab.evaluate(
        "[...document.querySelectorAll('#grid .tile .word')].map((w) => [w.textContent, w.getAttribute('lang'), w.dir])"
    )
    by_word = {word: (lang, direction) for word, lang, direction in langs}
    assert by_word["鸟"] == ("zh-Hans", "auto"), by_word
    assert by_word["قطة"] == (None, "auto") and by_word["बिल्ली"] == (None, "auto"), by_word
    assert tab.evaluate("[...document.querySelectorAll('#grid .tile-name')].every((n) => n.dir === 'auto')")


def test_focused_settings_stay_clear_of_the_sticky_top_bar(tab: object) -> None:
    """At 200 % zoom 17 of the settings, focused by Shift+Tab, sat wholly under the top bar:
    the page's scroll padding now follows the bar's height."""
    tab.set_viewport_size({"width": 640, "height": 450})
    try:
        tab.wait_for_function(
            "parseFloat(document.documentElement.style.scrollPaddingTop)"
            " >= document.querySelector('.topbar').offsetHeight"
        )
        tab.wait_for_function("document.getElementById('deck-line').textContent !== ''", timeout=60_000)
        tab.wait_for_timeout(1500)  # the last test's words saved and drawn: the form is not redrawn under the walk
        tab.focus("#build")
        hidden = []
        for _ in range(60):
            tab.keyboard.press("Shift+Tab")
            tab.evaluate("new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
            bottom, in_bar, name = tab.evaluate(
                "(() => { const a = document.activeElement, r = a.getBoundingClientRect(); return"
                " [r.bottom, !!a.closest('.topbar, .skips'), a.id || a.textContent.trim().slice(0, 30)]; })()"
            )
            bar = tab.evaluate("document.querySelector('.topbar').getBoundingClientRect().bottom")
            if not in_bar and bottom <= bar + 1:
                hidden.append(name)
        assert not hidden, f"focused under the top bar: {hidden}"
    finally:
        tab.set_viewport_size({"width": 1280, "height": 800})


def test_a_laptop_zoomed_to_200_percent_keeps_the_page_under_its_top_bar(tab: object) -> None:
    """At 640 x 400 and 683 x 384 (1280 x 800 and 1366 x 768 at 200 %) the sticky top bar
    grew 404 px tall, its status one letter a line, and covered the whole window: the
    panel heading focused after opening a symbol sat under it. The bar now wraps as on a
    phone and, in a short window, scrolls away with the page."""
    try:
        for width, height in ((640, 400), (683, 384)):
            tab.set_viewport_size({"width": width, "height": height})
            tab.evaluate("window.scrollTo(0, 0)")
            bar = tab.evaluate("document.querySelector('.topbar').getBoundingClientRect().height")
            saved = tab.evaluate("document.getElementById('saved').getBoundingClientRect().width")
            assert bar <= 0.3 * height and saved >= 100, (width, bar, saved)
            tab.locator("#grid .tile button.tile-face").first.press("Enter")
            tab.wait_for_function("document.activeElement.id === 'detail-h'")
            top, bottom, bar_bottom = tab.evaluate(
                "(() => { const r = document.activeElement.getBoundingClientRect();"
                " return [r.top, r.bottom, document.querySelector('.topbar').getBoundingClientRect().bottom]; })()"
            )
            assert top >= max(bar_bottom, 0) - 1 and bottom <= height, (width, top, bottom, bar_bottom)
            tab.keyboard.press("Escape")
    finally:
        tab.set_viewport_size({"width": 1280, "height": 800})


def test_the_faces_setting_shows_once_a_symbol_has_faces(tab: object) -> None:
    """A split deck (deck A the first faces, deck B the second) could not be made in the
    studio: ``deck.faces`` was no setting of its form. It shows where a symbol has faces."""
    assert tab.is_hidden("[data-key='deck.faces']")
    tab.fill("#words", "3 × 4 = 12")
    tab.click("#words-form button[type=submit]")
    tab.wait_for_function("document.querySelectorAll('#grid .tile .face-word').length >= 2")
    tab.wait_for_selector("[data-key='deck.faces']:not([hidden])")
    tab.select_option("#set-deck-faces", "split")
    tab.wait_for_function("document.getElementById('saved').textContent.includes('Saved')", timeout=30_000)
    assert tab.evaluate("document.getElementById('set-deck-faces').value") == "split"
