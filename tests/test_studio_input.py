"""printdeck studio keeps what a person types (issue 28): answers that arrive while the
next box is being typed in do not redraw it, a slider sends its final value, and an
answer older than the state the page shows is ignored. Driven in Debian's Chromium as a
fast typist would (Playwright's keyboard, no waits between keys).
"""

from __future__ import annotations

from pathlib import Path

from test_studio_browser import page, studio, sync_api, theme, wait_for

__all__ = ["page", "studio", "sync_api"]  # the module's fixtures and its skip


def settled(page: object) -> None:
    """Wait until the page has no request in flight and no change waiting for its answer
    (a refused box stays as typed, marked invalid)."""
    page.wait_for_function("""document.body.style.cursor === '' && Array.from(document.querySelectorAll('[data-dirty]'))
        .every((n) => n.querySelector('[aria-invalid=true]'))""")


def test_fast_typing_across_fields_keeps_every_key(page: object, studio: tuple[str, Path]) -> None:
    folder = studio[1]
    page.click("#set-card-diameter")
    page.keyboard.type("90mm")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "set-card-bleed"  # the round card's next box
    page.keyboard.type("4")
    page.keyboard.press("Tab")
    wait_for(lambda: (theme(folder).get("card") or {}) == {"diameter": "90mm", "bleed": "4mm"}, "both lengths saved")
    settled(page)
    assert page.input_value("#set-card-diameter") == "90mm"
    assert page.input_value("#set-card-bleed") == "4mm"


def test_a_refused_value_stays_as_typed_beside_its_error(page: object, studio: tuple[str, Path]) -> None:
    folder = studio[1]
    page.click("#set-card-safe_margin")
    page.keyboard.type("wide")
    page.keyboard.press("Tab")
    page.wait_for_function("document.getElementById('err-set-card-safe_margin').textContent !== ''")
    page.click("#set-paper-margin")  # another box, typed while the refusal is shown
    page.keyboard.type("7")
    page.keyboard.press("Tab")
    wait_for(lambda: (theme(folder).get("paper") or {}).get("margin") == "7mm", "the other box saved")
    settled(page)
    assert page.input_value("#set-card-safe_margin") == "wide"
    assert page.get_attribute("#set-card-safe_margin", "aria-invalid") == "true"
    assert "safe_margin" not in (theme(folder).get("card") or {})
    page.fill("#set-card-safe_margin", "")
    page.press("#set-card-safe_margin", "Tab")
    page.wait_for_function("document.getElementById('err-set-card-safe_margin').textContent === ''")


def test_ten_arrow_presses_on_a_slider_end_on_the_tenth_step(page: object, studio: tuple[str, Path]) -> None:
    folder = studio[1]
    page.fill("#words", "sun\nmoon\nstar\ntree\nfish\nbird\nboat")
    page.click("#words-form button[type=submit]")
    page.wait_for_function("document.querySelectorAll('#grid .tile').length === 7")
    page.locator("#grid .tile", has_text="moon").locator(".tile-face").click()
    size = page.locator("#detail input[type=range][aria-label='Size on the cards']")
    size.focus()
    for _ in range(10):
        page.keyboard.press("ArrowRight")
    moon = lambda: next(s for s in theme(folder)["symbols"] if s.get("text") == "moon")  # noqa: E731
    wait_for(lambda: moon().get("scale") == 1.5, "the slider's final value saved")
    settled(page)
    assert size.input_value() == "1.5"
    assert page.inner_text("#detail output") == "1.50×"
    assert page.evaluate("document.activeElement.getAttribute('aria-label')") == "Size on the cards"


def test_an_older_answer_never_overwrites_a_newer_state(page: object) -> None:
    shown = page.evaluate("""async () => {
        const { store } = await import('/static/api.js');
        const now = store.state;
        const older = { ...now, rev: now.rev - 1, settings: { ...now.settings, 'card.bleed': '9mm' } };
        store.set(older);
        return [store.state.rev === now.rev, document.getElementById('set-card-bleed').value];
    }""")
    assert shown == [True, "4mm"]


def test_a_focused_box_the_answer_emptied_shows_it_empty(page: object, studio: tuple[str, Path]) -> None:
    """A Card size typed after a Diameter takes its place in the theme; Tab moved the focus
    into the Diameter box, which was never redrawn while focused and kept showing 70mm.
    A focused box nothing was typed in now shows the state."""
    folder = studio[1]
    page.fill("#set-card-diameter", "70mm")
    page.press("#set-card-diameter", "Tab")
    wait_for(lambda: (theme(folder).get("card") or {}).get("diameter") == "70mm", "the diameter saved")
    settled(page)
    page.click("#set-card-size")
    page.keyboard.type("80mm")
    page.keyboard.press("Tab")
    card = lambda: theme(folder).get("card") or {}  # noqa: E731 - read afresh each time
    wait_for(lambda: card().get("size") == "80mm" and "diameter" not in card(), "the size in the diameter's place")
    settled(page)
    assert page.evaluate("document.activeElement.id") == "set-card-diameter"
    assert page.input_value("#set-card-diameter") == ""
