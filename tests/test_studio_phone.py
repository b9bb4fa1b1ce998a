"""printdeck studio on a phone (issue 28): at 390 x 844 the page does not scroll sideways,
the panels stack, and the status line never runs under the Build button."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from test_studio_browser import CHROMIUM, CHROMIUM_ARGS, studio, sync_api

__all__ = ["studio", "sync_api"]  # the module's fixture and its skip


@pytest.fixture(scope="module")
def phone(studio: tuple[str, Path]) -> Iterator[object]:
    with sync_api.sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        context = browser.new_context(viewport={"width": 390, "height": 844}, bypass_csp=True, is_mobile=True)
        tab = context.new_page()
        tab.goto(studio[0])
        tab.wait_for_selector("body[data-ready]")
        yield tab
        browser.close()


def overlap(a: dict, b: dict) -> bool:
    return (
        a["x"] < b["x"] + b["width"]
        and b["x"] < a["x"] + a["width"]
        and a["y"] < b["y"] + b["height"]
        and b["y"] < a["y"] + a["height"]
    )


def test_a_phone_sees_the_whole_page_width_and_the_build_button(phone: object) -> None:
    phone.fill("#words", "sun\nmoon\nstar\ntree\nfish\nbird\nboat")
    phone.click("#words-form button[type=submit]")
    phone.wait_for_function("document.querySelectorAll('#grid .tile').length === 7")
    phone.locator("#grid .tile-face").first.click()  # the symbol's panel open too
    phone.wait_for_selector("#detail:not([hidden])")
    assert phone.evaluate("document.documentElement.scrollWidth <= innerWidth")
    build = phone.locator("#build-top").bounding_box()
    assert build["x"] + build["width"] <= 390
    for other in ("#saved", "#folder", ".brand"):
        box = phone.locator(other).bounding_box()
        if box and box["width"]:
            assert not overlap(box, build), f"{other} runs under the Build button"
            assert box["x"] + box["width"] <= 390 + 0.5, f"{other} runs off the screen"
    slider = phone.locator("#detail input[type=range]").first.bounding_box()
    assert slider["width"] > 150  # not squeezed beside a fixed column
    left = phone.locator(".left").bounding_box()
    right = phone.locator(".right").bounding_box()
    assert right["y"] >= left["y"] + left["height"] - 1  # the panels stack


def test_a_phone_opened_after_a_build_shows_it_and_keeps_the_buttons_words_whole(phone: object) -> None:
    """A page opened after a build ended showed nothing of it; shown as the last build, its
    status line pushed the Build buttons into two lines of words each. Now the status goes
    below them."""
    phone.click("#build-top")
    phone.wait_for_selector("#downloads:not([hidden]) #pdf-link", timeout=120_000)
    phone.reload()
    phone.wait_for_selector("body[data-ready]")
    phone.wait_for_selector("#downloads:not([hidden]) #pdf-link")
    assert phone.inner_text("#build-stage").startswith("Last build: done in ")
    one_line = phone.evaluate("parseFloat(getComputedStyle(document.getElementById('build')).lineHeight)")
    for button in ("#build", "#slides"):
        text = phone.evaluate(f"document.querySelector('{button}').getBoundingClientRect().height")
        assert text < 2 * one_line, f"{button}'s words run over two lines"
    assert phone.evaluate("document.documentElement.scrollWidth <= innerWidth")
    # With a build's downloads the right column is taller than the screen: the page scrolls
    # to the Build panel's end, and no box of its own (the desktop's sticky column, its
    # height and its scrollbar kept) cuts it off half-way through its buttons.
    column = "document.querySelector('.right')"
    assert phone.evaluate(f"{column}.scrollHeight <= {column}.clientHeight + 1")
    phone.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    slides = phone.locator("#slides").bounding_box()
    assert slides["y"] + slides["height"] <= 844, "the Slides button is below the end of the page"


def test_a_refused_build_shows_its_reason_on_the_phones_screen(phone: object) -> None:
    """Build from the top bar with two words that read the same: the refusal is scrolled
    into sight (it was below the screen's foot, the page looking as if nothing happened)."""
    before = phone.locator("#grid .tile").count()  # the page is shared with the other tests
    words = "lamp\nkite\nfrog\nbell\nrose\nleaf\nship\ncoca\nсоса"  # enough for a deck alone
    phone.fill("#words", words)  # the last in Cyrillic letters
    phone.click("#words-form button[type=submit]")
    phone.wait_for_function(f"document.querySelectorAll('#grid .tile').length >= {before + 9}")
    phone.evaluate("window.scrollTo(0, 0)")
    phone.click("#build-top")
    phone.wait_for_selector("#build-error:not([hidden])", timeout=60_000)
    phone.wait_for_function(
        """() => { const r = document.getElementById('build-error').getBoundingClientRect();
                   return r.top >= 0 && r.bottom <= innerHeight + 1; }""",
        timeout=30_000,  # a smooth scroll, slow on a busy machine (10 s ran out in a full run)
    )
    reason = phone.locator("#build-error").inner_text()
    assert "look alike" in reason and "symbols.7" not in reason  # the page's words, no theme keys
