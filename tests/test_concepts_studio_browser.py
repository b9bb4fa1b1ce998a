"""The studio in Chromium (issue 24): dragging a picture's tile onto a word joins them as one
symbol with two faces, a picture file dropped on a word does the same, and look-alikes are
marked on both tiles. Needs ``/usr/bin/chromium`` (skipped, saying so, without it)."""

from __future__ import annotations

import base64
from pathlib import Path

from test_studio_api import png_bytes
from test_studio_browser import TWEMOJI, drop, page, studio, theme, wait_for

__all__ = ["page", "studio"]  # the fixtures, shared with the studio's own browser tests


def _add_word(tab: object, word: str) -> None:
    tab.fill("#words", word)  # type: ignore[attr-defined]
    tab.click("#words-form button[type=submit]")  # type: ignore[attr-defined]


# Counts the page's requests in flight (the watcher's poll aside: it redraws only through a
# request for the state, which is counted) and notes when the page last changed.
_WATCH_THE_PAGE = """() => {
    if (window.testQuiet) return;
    const quiet = { pending: 0, changed: performance.now() };
    const send = window.fetch;
    window.fetch = (url, ...rest) => {
        if (String(url).startsWith("/api/watch")) return send(url, ...rest);
        quiet.pending += 1;
        quiet.changed = performance.now();
        return send(url, ...rest).finally(() => { quiet.pending -= 1; quiet.changed = performance.now(); });
    };
    const mark = () => { quiet.changed = performance.now(); };
    const everything = { childList: true, subtree: true, attributes: true, characterData: true };
    new MutationObserver(mark).observe(document.body, everything);
    window.testQuiet = quiet;
}"""


def _settle(tab: object, quiet_ms: int = 500) -> None:
    """Wait until the page has no request in flight and has not changed for ``quiet_ms``: a
    late answer (the word's state, the look-alikes, which take seconds on a busy machine)
    redraws the grid, and a tile replaced in the middle of a drag ends the drag."""
    tab.evaluate(_WATCH_THE_PAGE)  # type: ignore[attr-defined]
    tab.wait_for_function(  # type: ignore[attr-defined]
        f"window.testQuiet.pending === 0 && performance.now() - window.testQuiet.changed > {quiet_ms}",
        polling=100,
        timeout=90_000,
    )


def _faces(folder: Path) -> list[dict]:
    return [s for s in theme(folder).get("symbols", []) if isinstance(s, dict) and "faces" in s]


def test_drag_a_picture_onto_a_word_and_drop_a_file_on_a_word(page: object, studio: tuple[str, Path]) -> None:
    tab, folder = page, studio[1]
    svgs = sorted(TWEMOJI.glob("*.svg"))[:8]
    drop(tab, [(p.name, "image/svg+xml", p.read_bytes()) for p in svgs])
    wait_for(lambda: len(theme(folder).get("symbols", [])) == 8, "the pictures saved")
    _add_word(tab, "gato")
    wait_for(lambda: any(s == {"text": "gato"} for s in theme(folder)["symbols"]), "the word saved")
    word = tab.locator(".tile", has_text="gato")  # type: ignore[attr-defined]
    word.wait_for()
    _settle(tab)
    picture = tab.locator(".tile").first  # type: ignore[attr-defined]
    picture.drag_to(word.locator(".tile-face"))
    wait_for(lambda: len(_faces(folder)) == 1, "the picture and the word joined")
    joined = _faces(folder)[0]["faces"]
    assert list(joined[0]) == ["image"] and joined[1] == {"text": "gato"}
    tab.wait_for_selector(".tile-face.faces img")  # type: ignore[attr-defined]
    _add_word(tab, "perro")
    wait_for(lambda: any(s == {"text": "perro"} for s in theme(folder)["symbols"]), "the second word saved")
    dog = (TWEMOJI / "dog.svg").read_bytes()
    word_tile = "Array.from(document.querySelectorAll('.tile')).find((t) => t.textContent.includes('perro'))"
    tab.wait_for_function(f"Boolean({word_tile})", timeout=30000)  # type: ignore[attr-defined]
    tab.evaluate(  # type: ignore[attr-defined]
        """([data, findTile]) => {
        const transfer = new DataTransfer();
        const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
        transfer.items.add(new File([bytes], "dog.svg", { type: "image/svg+xml" }));
        const face = eval(findTile).querySelector(".tile-face");
        for (const type of ["dragenter", "dragover", "drop"]) {
            face.dispatchEvent(new DragEvent(type, { dataTransfer: transfer, bubbles: true, cancelable: true }));
        }
    }""",
        [base64.b64encode(dog).decode(), word_tile],
    )
    wait_for(lambda: len(_faces(folder)) == 2, "the dropped file joined to the word")
    assert _faces(folder)[1]["faces"] == [{"image": "images/dog.svg"}, {"text": "perro"}]
    tab.screenshot(path=str(folder / "faces-tiles.png"))  # type: ignore[attr-defined]


# Pictures unlike each other and the red discs: with them the deck loads on its own (the
# smallest deck takes 7 symbols), so the test does not lean on the symbols of the test before.
UNLIKE = ("rocket", "snowman", "tractor", "violin", "watermelon")


def test_look_alikes_marked_on_both_tiles(page: object, studio: tuple[str, Path]) -> None:
    tab, folder = page, studio[1]
    drop(tab, [(f"{name}.svg", "image/svg+xml", (TWEMOJI / f"{name}.svg").read_bytes()) for name in UNLIKE])
    wanted = {f"images/{name}.svg" for name in UNLIKE}
    wait_for(lambda: wanted <= {str(s.get("image")) for s in theme(folder)["symbols"]}, "the pictures saved")
    drop(tab, [("red.png", "image/png", png_bytes((200, 30, 30), 300, alpha=True))])
    drop(tab, [("red-again.png", "image/png", png_bytes((201, 30, 30), 220, alpha=True))])
    tab.wait_for_function("document.querySelectorAll('.tile.alike').length === 2", timeout=30000)  # type: ignore[attr-defined]
    notes = tab.locator(".tile.alike .tile-warning").all_inner_texts()  # type: ignore[attr-defined]
    assert sorted(notes) == ["⚠ looks like 'red again'", "⚠ looks like 'red'"]
    tab.screenshot(path=str(studio[1] / "look-alike-tiles.png"))  # type: ignore[attr-defined]


def test_a_sums_keep_upright_box_says_what_prints_and_can_let_it_turn(page: object, studio: tuple[str, Path]) -> None:
    """A word with × stays upright unless told (it would read as +): its box showed "Keep
    upright" unticked, and unticking it could not make the word turn (it saved no key)."""
    _add_word(page, "3 × 4")
    page.wait_for_selector("#grid .tile:has-text('3 × 4') .tile-face")
    _settle(page)
    page.click("#grid .tile:has-text('3 × 4') .tile-face")
    page.wait_for_selector("#detail:not([hidden])")
    box = page.locator("#detail label.check:has-text('Keep upright') input")
    assert box.is_checked()  # as it prints
    box.uncheck()
    wait_for(
        lambda: any(s.get("text") == "3 × 4" and s.get("rotate") is True for s in theme(studio[1])["symbols"]),
        "rotate: true saved",
    )
    page.wait_for_function(
        "!document.querySelector(\"#detail label.check input\").checked"
    )  # fmt: skip
    page.keyboard.press("Escape")


def test_a_faces_sum_has_a_keep_upright_box_a_face(page: object, studio: tuple[str, Path]) -> None:
    """A symbol with faces had no "Keep upright" box (a word alone has one): its sum face
    stayed upright and only theme.yaml could let it turn. Each face now has its box, ticked
    as it prints, and unticking or ticking one saves that face's ``rotate``."""
    folder = studio[1]
    _add_word(page, "6 × 7 = 42")
    wait_for(lambda: len([s for s in _faces(folder) if s["faces"][0].get("text") == "6 × 7"]) == 1, "the sum saved")
    page.wait_for_selector("#grid .tile:has-text('6 × 7') .tile-face")
    _settle(page)
    page.click("#grid .tile:has-text('6 × 7') .tile-face")
    group = page.locator("#detail fieldset:has(legend:has-text('Keep upright'))")
    group.wait_for()
    sums, answer = group.get_by_label("6 × 7"), group.get_by_label("42")
    assert sums.is_checked() and not answer.is_checked()  # as it prints: the sum upright, 42 turning
    page.screenshot(path=str(folder / "faces-upright.png"))

    def saved() -> list[object]:
        entry = next(s for s in _faces(folder) if s["faces"][0].get("text") == "6 × 7")
        return [face.get("rotate") for face in entry["faces"]]

    sums.focus()
    page.keyboard.press("Space")  # by keyboard: the sum may turn now
    wait_for(lambda: saved() == [True, None], "rotate: true saved on the sum's face")
    answer.check()
    wait_for(lambda: saved() == [True, False], "rotate: false saved on 42's face")
    page.wait_for_function("!document.querySelector('#detail [data-dirty]') && document.body.style.cursor === ''")
    assert not sums.is_checked() and answer.is_checked()  # the page shows what was saved
    page.set_viewport_size({"width": 390, "height": 844})
    group.scroll_into_view_if_needed()
    page.screenshot(path=str(folder / "faces-upright-phone.png"))
    page.set_viewport_size({"width": 1280, "height": 800})
    page.keyboard.press("Escape")
