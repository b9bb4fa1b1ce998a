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


def test_a_link_from_an_earlier_run_says_the_deck_is_safe_and_which_link_to_open(tmp_path: Path) -> None:
    """A parent reopened a bookmarked link after restarting the studio: the page looked
    empty ('No symbols yet') with a line in green about a token, as if the deck were gone."""
    if MISSING is not None:
        pytest.skip(MISSING)
    from playwright import sync_api
    from test_studio_browser import CHROMIUM, CHROMIUM_ARGS

    with serving(tmp_path / "family-deck") as (link, _), sync_api.sync_playwright() as driver:
        old_link = link.split("#token=")[0] + "#token=" + "A" * 43  # an earlier run's token
        browser = driver.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        tab = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
        errors: list[str] = []
        tab.on("pageerror", lambda exc: errors.append(str(exc)))
        tab.goto(old_link)
        tab.wait_for_selector("body[data-expired]")
        notice = tab.inner_text("#expired")
        assert "Your deck is safe" in notice and "printdeck studio" in notice
        assert tab.is_visible("#expired")
        assert tab.evaluate("document.activeElement.id") == "expired-h"  # read out, and the keyboard is not lost
        assert tab.evaluate("[...document.querySelectorAll('body > :not(#expired)')].every((part) => part.inert)")
        tab.screenshot(path=str(tmp_path / "expired.png"))
        browser.close()
        assert not errors, errors


def test_ticking_remove_background_shows_the_cut_out_as_it_prints(tmp_path: Path) -> None:
    """The photo's panel showed the same photo and ring whether or not the background was
    removed: ticking the box now shows the cut-out the PDF prints, beside the crop."""
    if MISSING is not None:
        pytest.skip(MISSING)
    from PIL import Image, ImageDraw

    folder = tmp_path / "family-deck"
    folder.mkdir()
    photo = Image.new("RGB", (400, 300), (60, 160, 80))
    ImageDraw.Draw(photo).ellipse((150, 80, 250, 220), fill=(200, 150, 120))
    photo.save(folder / "kid.jpg", quality=92)
    words = "".join(f"  - text: {w}\n" for w in ("sun", "moon", "star", "tree", "fish", "boat"))
    (folder / "theme.yaml").write_text(
        f"name: family-deck\ndeck: {{symbols_per_card: 3}}\nsymbols:\n  - photo: kid.jpg\n{words}"
    )
    with serving(folder) as (link, _), browser_tab(link) as tab:
        tab.locator("#grid .tile", has=tab.locator("img.photo")).first.locator(".tile-face").click()
        tab.wait_for_selector("#detail .crop img")
        assert not tab.is_visible("#detail .printed-box")
        tab.get_by_label("Remove a plain background").check()
        tab.wait_for_function(
            "document.querySelector('#detail .printed-box img.printed').naturalWidth > 0", timeout=30_000
        )
        assert tab.is_visible("#detail .printed-box")
        tab.screenshot(path=str(tmp_path / "printed.png"))


def test_a_sheet_gone_before_it_was_fetched_is_asked_for_again(tmp_path: Path) -> None:
    """Under load a sheet's picture was dropped (a newer change came) between its facts and
    its fetch: the page showed the facts over no sheet. It now asks again."""
    if MISSING is not None:
        pytest.skip(MISSING)
    folder = tmp_path / "words-deck"
    folder.mkdir()
    words = "".join(f"  - text: {w}\n" for w in ("sun", "moon", "star", "tree", "fish", "boat", "bird"))
    (folder / "theme.yaml").write_text(f"name: words-deck\ndeck: {{symbols_per_card: 3}}\nsymbols:\n{words}")
    refused: list[str] = []

    def lose_the_first_sheet(tab: Any) -> None:
        def answer(route: Any) -> None:
            if not refused:
                refused.append(route.request.url)
                route.fulfill(status=404, body="{}", content_type="application/json")
            else:
                route.continue_()

        tab.route("**/api/sheets/**", answer)

    with serving(folder) as (link, _), browser_tab(link, before=lose_the_first_sheet) as tab:
        tab.wait_for_function("document.getElementById('sheet').naturalWidth > 500", timeout=30_000)
        assert refused and tab.inner_text("#deck-line").startswith("7 cards")


def test_a_pdf_built_before_a_change_is_not_offered_as_the_deck_shown(tmp_path: Path) -> None:
    """A grandparent built the PDF, then made the cards poker-sized: the top bar's Download
    PDF still gave the round cards built before, nothing said it was an older PDF. Once
    the deck changes the top bar offers Build PDF alone, and the build's own link says
    it was made before the latest changes; a new build offers its PDF again."""
    if MISSING is not None:
        pytest.skip(MISSING)
    folder = tmp_path / "gift"
    folder.mkdir()
    words = ", ".join(f"{{text: {w}}}" for w in ("sun", "moon", "star", "tree", "fish", "bird", "boat"))
    (folder / "theme.yaml").write_text(f"symbols: [{words}]\n", encoding="utf-8")
    with serving(folder) as (link, _), browser_tab(link) as tab:
        tab.click("#build")
        tab.wait_for_selector("#downloads:not([hidden]) #pdf-link", timeout=120_000)
        assert tab.is_visible("#top-pdf") and not tab.is_visible("#pdf-outdated")
        tab.fill("#set-seed", "7")
        tab.press("#set-seed", "Tab")
        tab.wait_for_selector("#pdf-outdated:not([hidden])")
        assert tab.is_hidden("#top-pdf")
        assert "before your latest changes" in tab.inner_text("#pdf-outdated")
        tab.reload()  # a page opened later knows it too
        tab.wait_for_selector("body[data-ready]")
        tab.wait_for_selector("#pdf-outdated:not([hidden])")
        assert tab.is_hidden("#top-pdf")
        tab.click("#build")
        tab.wait_for_selector("#pdf-outdated[hidden]", state="attached", timeout=120_000)
        tab.wait_for_selector("#top-pdf:not([hidden])")
