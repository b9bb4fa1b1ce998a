"""A teacher's journey in the studio (issue 28: undo and the bundled-art picker), driven
in Debian's Chromium as a person would: a new deck, words typed, pictures found in
printdeck's own art by searching (keyboard and mouse), a setting changed and undone with
Ctrl+Z and with the button, redone, a symbol removed and its removal undone (the file and
the tile come back), and the build. The picker's screenshot is kept beside the deck
(``picker.png``) to look at.
"""

from __future__ import annotations

from pathlib import Path

from test_studio_browser import page, studio, sync_api, theme, wait_for
from test_studio_journeys import serious_violations

import printdeck
from printdeck.studio.workspace import LIBRARY_LOCK

__all__ = ["page", "studio", "sync_api"]  # the module's fixtures and its skip


def idle(page: object) -> None:
    """No request in flight and no change waiting."""
    page.wait_for_function("document.body.style.cursor === '' && !document.querySelector('[data-dirty]')")


def test_a_teacher_picks_pictures_undoes_and_builds(page: object, studio: tuple[str, Path], tmp_path: Path) -> None:
    folder = studio[1]
    assert page.is_disabled("#undo") and page.is_disabled("#redo")  # a new deck: nothing to undo

    page.fill("#words", "sun\nmoon\nstar")
    page.click("#words-form button[type=submit]")
    page.wait_for_function("document.querySelectorAll('#grid .tile').length === 3")
    assert page.is_enabled("#undo") and page.get_attribute("#undo", "title") == "Undo: added 'sun', 'moon' and 'star'"

    page.click("#art-open")
    page.wait_for_selector("#art-picker[open]")
    assert page.evaluate("document.activeElement.id") == "art-search"
    page.keyboard.type("shoe")  # the trainer is found by its emoji's name
    page.wait_for_function("document.getElementById('art-count').textContent.startsWith('1 picture')")
    page.keyboard.press("ArrowDown")
    assert page.evaluate("document.activeElement.getAttribute('aria-label')") == "Add trainer"
    page.keyboard.press("Enter")
    page.wait_for_selector("#art-note:has-text('Added trainer to the deck')")
    for word, name in (("eggplant", "aubergine"), ("cat", "cat"), ("rocket", "rocket")):
        page.fill("#art-search", word)
        page.click(f"#art-grid button[aria-label='Add {name}']")
        page.wait_for_selector(f"#art-note:has-text('Added {name} to the deck')")
    page.fill("#art-search", "\U0001f422")  # an emoji pasted: its picture, not the whole catalogue
    page.wait_for_function("document.getElementById('art-count').textContent.startsWith('1 picture')")
    assert page.eval_on_selector_all("#art-grid button", "bs => bs.map(b => b.getAttribute('aria-label'))") == [
        "Add turtle"
    ]
    page.fill("#art-search", "\U0001fa90")  # one printdeck has no picture of (a ringed planet)
    page.wait_for_function("document.getElementById('art-count').textContent.startsWith('0 pictures')")
    page.fill("#art-search", "")
    page.wait_for_function("document.querySelectorAll('#art-grid button').length > 150")
    page.fill("#art-search", "b")
    page.wait_for_function("document.querySelectorAll('#art-grid img[src]').length > 5")
    page.screenshot(path=str(folder / "picker.png"))
    page.fill("#art-search", "cat")
    page.click("#art-grid button[aria-label='cat (in the deck)']")  # again: refused as an upload would be
    page.wait_for_selector("#art-note:has-text('cat was not added: this is the same picture as Symbol 6, “cat”')")
    assert "symbols." not in page.inner_text("#art-note") and ".svg" not in page.inner_text("#art-note")  # plain words
    page.keyboard.press("Escape")
    page.wait_for_function("!document.getElementById('art-picker').open")
    assert page.evaluate("document.activeElement.id") == "art-open"  # back where the person was
    page.wait_for_function("document.querySelectorAll('#grid .tile:not(.rejected)').length >= 7")
    symbols = theme(folder)["symbols"]
    assert [s.get("text") or s.get("image") for s in symbols] == [
        "sun", "moon", "star", "images/trainer.svg", "images/aubergine.svg", "images/cat.svg", "images/rocket.svg",
    ]  # fmt: skip
    assert (folder / "images" / "trainer.svg").is_file()
    assert "Twemoji" in theme(folder)["extras"]["attribution"]

    for typed in ("90", "85"):
        page.fill("#set-card-diameter", typed)
        page.press("#set-card-diameter", "Tab")
        wait_for(lambda typed=typed: (theme(folder).get("card") or {}).get("diameter") == f"{typed}mm", "saved")
        idle(page)
    page.focus("#symbols-h")  # out of the text boxes: Ctrl+Z is the studio's undo
    page.keyboard.press("Control+z")
    page.wait_for_selector("#saved:has-text('Undid: Diameter 90 mm → 85 mm')")
    assert theme(folder)["card"] == {"diameter": "90mm"} and page.input_value("#set-card-diameter") == "90mm"
    page.click("#undo")
    page.wait_for_selector("#saved:has-text('Undid: Diameter default → 90 mm')")
    assert "card" not in theme(folder) and page.input_value("#set-card-diameter") == ""
    page.focus("#symbols-h")
    page.keyboard.press("Control+Shift+z")
    page.wait_for_selector("#saved:has-text('Redid: Diameter default → 90 mm')")
    assert theme(folder)["card"] == {"diameter": "90mm"}

    page.click("#set-paper-margin")  # in a text box the browser's own undo takes back the typing
    page.keyboard.type("7")
    page.keyboard.press("Control+z")
    assert page.input_value("#set-paper-margin") == ""
    assert theme(folder)["card"] == {"diameter": "90mm"}  # the studio's history was not touched
    page.focus("#symbols-h")

    page.click("#grid .tile[data-uid] button[aria-label='Remove trainer']")
    page.wait_for_function("!document.querySelector(\"#grid button[aria-label='Remove trainer']\")")
    wait_for(lambda: not (folder / "images" / "trainer.svg").exists(), "the picture taken out of the folder")
    page.click("#undo")
    page.wait_for_selector("#saved:has-text(\"Undid: removed 'trainer'\")")
    page.wait_for_selector("#grid button[aria-label='Remove trainer']")  # the tile comes back...
    assert (folder / "images" / "trainer.svg").is_file()  # ...and so does its file
    assert [s.get("image") for s in theme(folder)["symbols"]][3] == "images/trainer.svg"

    page.click("#build")
    page.wait_for_selector("#downloads:not([hidden])", timeout=120_000)
    with page.expect_download() as download:
        page.click("#pdf-link")
    pdf = Path(download.value.path()).read_bytes()
    with LIBRARY_LOCK:
        assert printdeck.build(folder, out=tmp_path / "cli.pdf").pdf_path.read_bytes() == pdf


def test_the_open_picker_passes_axe_and_undo_closes_a_panel_of_a_symbol_it_takes_back(page: object) -> None:
    page.click("#art-open")
    page.wait_for_selector("#art-picker[open]")
    page.fill("#art-search", "fish")
    page.wait_for_function("document.querySelectorAll('#art-grid button').length >= 2")  # blowfish, tropical fish
    found = serious_violations(page)
    assert not found, "axe-core: " + "; ".join(found)
    page.click("#art-grid button[aria-label='Add blowfish']")
    page.wait_for_selector("#art-note:has-text('Added blowfish to the deck')")
    page.click("#art-picker button:has-text('Done')")
    page.click("#grid .tile:has(button[aria-label='Remove blowfish']) .tile-face")
    page.wait_for_selector("#detail:not([hidden])")
    page.click("#undo")
    page.wait_for_selector("#saved:has-text(\"Undid: added 'blowfish'\")")
    page.wait_for_function("!document.querySelector(\"#grid button[aria-label='Remove blowfish']\")")
    assert page.evaluate("document.getElementById('redo').disabled") is False


def test_enter_in_the_pickers_search_adds_the_picture_found(page: object) -> None:
    """A teacher typed "caterpillar" and pressed Enter: nothing happened until ArrowDown was
    pressed first. Enter now adds the one picture found, or the one named exactly as typed
    ("cat" beside "caterpillar"), and with several matches goes to the first of them."""
    page.click("#art-open")
    page.wait_for_selector("#art-picker[open]")
    page.fill("#art-search", "caterpillar")
    page.wait_for_function("document.getElementById('art-count').textContent.startsWith('1 picture')")
    page.press("#art-search", "Enter")
    page.wait_for_selector("#art-note:has-text('Added caterpillar to the deck')")
    page.fill("#art-search", "ball")  # balloon, football, rugby ball, tennis ball...: none named "ball"
    page.wait_for_function("document.querySelectorAll('#art-grid button').length >= 2")
    page.press("#art-search", "Enter")
    page.wait_for_selector("#art-note:has-text('pictures match: choose one with the arrow keys, then Enter')")
    assert page.evaluate("document.activeElement.closest('#art-grid') !== null")
    page.fill("#art-search", "cat")
    page.wait_for_function("document.querySelectorAll('#art-grid button').length >= 2")  # cat, caterpillar
    page.press("#art-search", "Enter")  # cat itself is picked (the journey above has it already: refused)
    page.wait_for_function("/^(Added cat to|cat was not added)/.test(document.getElementById('art-note').textContent)")
    page.click("#art-picker button:has-text('Done')")


def _pick(page: object, name: str, said: str) -> None:
    """Pick picture ``name`` in the open picker and wait until its note says ``said``."""
    page.fill("#art-search", name)
    page.click(f"#art-grid button[data-art='{name}']")
    page.wait_for_function(
        "([name, said]) => new RegExp(said).test(document.getElementById('art-note').textContent)",
        arg=[name, said],
    )


def test_a_refused_copys_tile_goes_with_the_symbol_it_copied(page: object, studio: tuple[str, Path]) -> None:
    """The cat picked again was refused ("the same picture as another symbol"); removing the
    cat it copied left the red tile saying so until dismissed. It goes with that symbol now,
    and with it the status line's refusal; the cat picked once more is added with no red
    tile left."""
    refused = "#grid .tile.rejected:has-text('cat.svg')"
    page.click("#art-open")
    page.wait_for_selector("#art-picker[open]")
    _pick(page, "cat", "^(Added cat to|cat was not added)")  # in the deck now, if it was not
    _pick(page, "cat", "^cat was not added: this is the same picture as Symbol \\d+, “cat”")
    page.click("#art-picker button:has-text('Done')")
    page.wait_for_selector(refused)
    assert page.inner_text("#busy").startswith("cat was not added")
    page.screenshot(path=str(studio[1] / "refused-copy.png"))
    page.click("#grid .tile[data-uid] button[aria-label='Remove cat']")
    page.wait_for_function("!document.querySelector(\"#grid button[aria-label='Remove cat']\")")
    page.wait_for_selector(refused, state="detached")  # the refusal no longer applies
    assert "was not added" not in page.inner_text("#busy")  # nor does the status line say it
    assert page.evaluate("document.activeElement.closest('#grid') !== null")  # the focus stays in the grid
    page.click("#art-open")
    page.wait_for_selector("#art-picker[open]")
    _pick(page, "cat", "^Added cat to the deck")
    page.click("#art-picker button:has-text('Done')")
    page.wait_for_selector("#grid button[aria-label='Remove cat']")
    assert page.locator("#grid .tile.rejected").count() == 0
    page.set_viewport_size({"width": 390, "height": 844})
    page.locator("#grid button[aria-label='Remove cat']").scroll_into_view_if_needed()
    page.screenshot(path=str(studio[1] / "re-added-phone.png"))
    page.set_viewport_size({"width": 1280, "height": 800})
