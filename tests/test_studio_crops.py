"""printdeck studio: a photo's crop ring is the crop the PDF cuts (issue 28). The page
draws the ring, zoom and mask from the artwork code's own crop (``printdeck.photo_crop``,
served as fractions of the upright photo), and each photo tile carries the badge of what
was found. Photos are phone-style: off-centre subjects, one saved sideways with an EXIF
turn, so a ring at the centre, or in the file's unturned pixels, would be caught.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PIL import Image, ImageOps
from test_studio_browser import drop, page, studio, sync_api, theme, wait_for

import printdeck

__all__ = ["page", "studio", "sync_api"]  # the module's fixtures and its skip

subjects = pytest.importorskip("test_artwork_subjects", reason="skimage's sample pictures are missing")


def phone_photo(name: str, tmp: Path) -> tuple[str, str, bytes]:
    """One of the subjects tests' photos, stored as a phone would (name, type, bytes)."""
    photo = next(p for p in subjects.PHOTOS if p.name == name)
    pixels, _ = subjects.make_scene(photo)
    path = subjects.store(photo, pixels, tmp)
    return path.name, "image/jpeg", path.read_bytes()


def ring_box(page: object) -> list[float]:
    """The ring's square as fractions of the photo shown: [left, top, right, bottom]."""
    handle = page.wait_for_function("""() => {
        const shown = document.querySelector('#detail .crop .ring[data-crop="artwork"]:not([hidden])');
        const photo = document.querySelector('#detail .crop img');
        if (!shown || !photo || !photo.complete || photo.naturalWidth === 0) return null;
        const img = photo.getBoundingClientRect();
        const ring = shown.getBoundingClientRect();
        return [(ring.left - img.left) / img.width, (ring.top - img.top) / img.height,
                (ring.right - img.left) / img.width, (ring.bottom - img.top) / img.height];
    }""")
    return list(handle.json_value())


def test_the_ring_is_the_crop_the_pdf_cuts(page: object, studio: tuple[str, Path], tmp_path: Path) -> None:
    folder = studio[1]
    drop(page, [phone_photo("cat-left", tmp_path), phone_photo("coffee-right", tmp_path)])
    page.wait_for_function("document.querySelectorAll('#grid .tile img.photo').length === 2", timeout=60_000)
    page.fill("#words", "sun\nmoon\nstar\ntree\nfish")  # seven symbols: the smallest deck
    page.click("#words-form button[type=submit]")
    page.wait_for_function("document.querySelectorAll('#grid .tile').length === 7")
    loaded = printdeck.load_theme(folder / "theme.yaml")
    for name in ("cat-left", "coffee-right"):
        page.evaluate(
            "(stem) => Array.from(document.querySelectorAll('#grid .tile')).find((t) =>"
            " t.querySelector('img.photo') && t.querySelector('input.tile-name').value.startsWith(stem))"
            ".querySelector('.tile-face').click()",
            name.split("-")[0],
        )
        page.wait_for_selector("#detail .crop .ring[data-crop='artwork']", timeout=60_000)
        symbol = next(s for s in loaded.symbols if s.kind == "photo" and name.split("-")[0] in s.name)
        report = printdeck.photo_crop(symbol)
        assert report is not None
        badge = report.badge  # the tile says what the artwork code found
        with Image.open(symbol.path) as image:
            w, h = ImageOps.exif_transpose(image).size
        expected = [report.box_px[0] / w, report.box_px[1] / h, report.box_px[2] / w, report.box_px[3] / h]
        shown = ring_box(page)
        assert all(abs(a - b) < 0.01 for a, b in zip(shown, expected, strict=True)), (name, shown, expected)
        centre_x = (shown[0] + shown[2]) / 2
        assert (centre_x < 0.4) if name == "cat-left" else (centre_x > 0.6), (
            f"{name}: the ring is not where its subject is"
        )
        page.wait_for_function(
            "([name, badge]) => Array.from(document.querySelectorAll('#grid .tile')).some((t) =>"
            " t.querySelector('input.tile-name').value.startsWith(name) && t.querySelector('.crop-badge')"
            " && t.querySelector('.crop-badge').textContent === badge)",
            arg=[name.split("-")[0], badge],
            timeout=60_000,
        )
    # Zoom: the served crop shrinks by the zoom, around the same centre the artwork chose.
    page.locator("#detail input[type=range][aria-label='Zoom (crop closer)']").focus()
    before = ring_box(page)
    for _ in range(20):
        page.keyboard.press("ArrowRight")  # 1 -> 2
    wait_for(
        lambda: next(s for s in theme(folder)["symbols"] if "coffee" in s.get("photo", "")).get("zoom") == 2,
        "the zoom saved",
    )
    page.wait_for_function(
        "(() => { const r = document.querySelector('#detail .crop .ring'); return r.dataset.crop === 'artwork'"
        " && r.dataset.zoom === '2'; })()",
        timeout=60_000,
    )
    after = ring_box(page)
    coffee = next(s for s in printdeck.load_theme(folder / "theme.yaml").symbols if "coffee" in s.name)
    report = printdeck.photo_crop(coffee)
    assert report is not None and coffee.zoom == 2
    with Image.open(coffee.path) as image:
        w, h = ImageOps.exif_transpose(image).size
    assert abs((after[2] - after[0]) - (report.box_px[2] - report.box_px[0]) / w) < 0.01
    assert after[2] - after[0] < before[2] - before[0]


def test_the_ring_stays_up_while_another_symbol_changes(page: object, studio: tuple[str, Path]) -> None:
    """A state change elsewhere (a word added) must not take the ring down and ask for the
    crop again: the ring is the same element throughout, never hidden (CI once read the box
    of a ring rebuilt without its crop)."""
    page.evaluate(
        "() => Array.from(document.querySelectorAll('#grid .tile')).find((t) => t.querySelector('img.photo'))"
        ".querySelector('.tile-face').click()"
    )
    ring_box(page)  # the ring is up
    page.evaluate("""() => {
        const ring = document.querySelector('#detail .crop .ring');
        window.ringLog = [];
        const watch = new MutationObserver(() => {
            const now = document.querySelector('#detail .crop .ring');
            if (now !== ring) window.ringLog.push('replaced');
            else if (now.hidden) window.ringLog.push('hidden');
        });
        watch.observe(document.getElementById('detail'), { subtree: true, childList: true, attributes: true });
        window.ringWatch = watch;
    }""")
    tiles = page.evaluate("document.querySelectorAll('#grid .tile').length")
    page.fill("#words", "kite")
    page.click("#words-form button[type=submit]")
    page.wait_for_function(f"document.querySelectorAll('#grid .tile').length === {tiles + 1}")
    wait_for(lambda: any(s.get("text") == "kite" for s in theme(studio[1])["symbols"]), "the word saved")
    page.wait_for_timeout(500)  # the state that follows the save has arrived
    log = page.evaluate("() => { window.ringWatch.disconnect(); return window.ringLog; }")
    assert log == [], log
    ring_box(page)


def tile_view(page: object, stem: str) -> list[float]:
    """What a photo's tile shows of it: [left, top, right, bottom] as fractions of the photo,
    measured from where the browser draws the picture (its ``object-fit`` counted)."""
    handle = page.wait_for_function(
        """(stem) => {
        const tile = Array.from(document.querySelectorAll('#grid .tile')).find((t) =>
            t.querySelector('img.photo') && t.querySelector('input.tile-name').value.startsWith(stem));
        const img = tile && tile.querySelector('img.photo');
        if (!img || !img.complete || img.naturalWidth === 0) return null;
        const face = tile.querySelector('.tile-face').getBoundingClientRect();
        const r = img.getBoundingClientRect();
        const style = getComputedStyle(img);
        let [x, y, w, h] = [r.left, r.top, r.width, r.height];
        if (style.objectFit === 'cover') {
            const s = Math.max(r.width / img.naturalWidth, r.height / img.naturalHeight);
            const [px, py] = style.objectPosition.split(' ').map(parseFloat);
            [w, h] = [img.naturalWidth * s, img.naturalHeight * s];
            [x, y] = [r.left + (r.width - w) * px / 100, r.top + (r.height - h) * py / 100];
        }
        const clip = [Math.max(face.left, r.left), Math.max(face.top, r.top),
                      Math.min(face.right, r.right), Math.min(face.bottom, r.bottom)];
        return [(clip[0] - x) / w, (clip[1] - y) / h, (clip[2] - x) / w, (clip[3] - y) / h];
    }""",
        arg=stem,
    )
    return list(handle.json_value())


def test_a_photos_tile_shows_the_crop_the_pdf_cuts(page: object, studio: tuple[str, Path]) -> None:
    """The tile cut its photo's middle square whatever the crop: a cat at the photo's edge,
    kept whole by the card, was cut in half on its tile (and a crop centred by a click
    never showed there). The tile shows the crop square the PDF prints."""
    cat = next(s for s in printdeck.load_theme(studio[1] / "theme.yaml").symbols if "cat" in s.name)
    report = printdeck.photo_crop(cat)
    assert report is not None
    with Image.open(cat.path) as image:
        w, h = ImageOps.exif_transpose(image).size
    expected = [report.box_px[0] / w, report.box_px[1] / h, report.box_px[2] / w, report.box_px[3] / h]
    shown = tile_view(page, "cat")
    assert all(abs(a - b) < 0.01 for a, b in zip(shown, expected, strict=True)), (shown, expected)


def test_a_photos_sliders_reach_what_the_theme_allows(page: object) -> None:
    """The page wrote its own bounds (zoom 1-4, size 0.5-2) where the theme allows zoom up
    to 10 and size up to 3: a photo zoomed to 6 in theme.yaml showed the slider at its end,
    and a nudge of it saved 4. The sliders' bounds are the theme spec's."""
    entry = json.loads(printdeck.schema_json())["$defs"]["SymbolEntry"]["properties"]
    page.locator("#grid .tile:has(img.photo) .tile-face[aria-pressed='false']").first.click()  # a photo's panel
    for label, key in (("Zoom (crop closer)", "zoom"), ("Size on the cards", "scale")):
        slider = page.locator(f"#detail input[type=range][aria-label='{label}']")
        spec = entry[key]
        assert float(slider.get_attribute("max")) == spec["maximum"], label
        least = spec.get("minimum", spec.get("exclusiveMinimum"))
        assert least <= float(slider.get_attribute("min")) <= least + float(slider.get_attribute("step")), label


def small_face_photo() -> tuple[str, str, bytes]:
    """A phone photo of a person small in its top-right corner (name, type, bytes): the
    crop printdeck finds is closer than the widest one, to hold her face."""
    import io

    import numpy as np
    import skimage.data

    frame = np.full((1000, 1500, 3), (170, 60, 70), np.uint8)
    frame = (frame + np.random.default_rng(1).normal(0, 5, frame.shape)).clip(0, 255).astype(np.uint8)
    frame[100:500, 1100:1500] = np.asarray(Image.fromarray(skimage.data.astronaut()).resize((400, 400)))
    out = io.BytesIO()
    Image.fromarray(frame).save(out, format="JPEG", quality=90)
    return "nana.jpg", "image/jpeg", out.getvalue()


def test_a_click_centres_the_crop_without_widening_it(page: object, studio: tuple[str, Path]) -> None:
    """A click on the photo centred the widest crop there (zoom 1), not the closer one shown:
    a click on a face at the photo's edge left it small in the crop's corner, cut by the
    circle. A click now keeps the crop the size it was shown, centred where clicked; Reset
    takes back the click's zoom with its centre (it kept the zoom, so printdeck's own crop
    came back closer than it was shown before the click)."""
    drop(page, [small_face_photo()])
    tile = page.locator("#grid .tile", has=page.locator("input.tile-name[value='nana']"))
    tile.locator(".tile-face").click()
    page.wait_for_selector("#detail .crop .ring[data-crop='artwork']:not([hidden])", timeout=60_000)
    before = ring_box(page)
    assert before[2] - before[0] < 0.6  # closer than the widest crop (2/3 of the width)
    centre = ((before[0] + before[2]) / 2, (before[1] + before[3]) / 2)
    shown = page.locator("#detail .crop img")
    box = shown.bounding_box()
    shown.click(position={"x": centre[0] * box["width"], "y": centre[1] * box["height"]})
    wait_for(lambda: any("focus" in s for s in theme(studio[1])["symbols"] if "nana" in s.get("photo", "")), "focus")
    page.wait_for_function(
        "document.querySelector('#detail .crop-found .crop-badge') && "
        "document.querySelector('#detail .crop-found .crop-badge').textContent === 'your focus'",
        timeout=60_000,
    )
    after = ring_box(page)
    assert abs((after[2] - after[0]) - (before[2] - before[0])) < 0.01, (before, after)
    assert all(abs(a - b) < 0.01 for a, b in zip(after, before, strict=True)), (before, after)
    nana = lambda: next(s for s in theme(studio[1])["symbols"] if "nana" in s.get("photo", ""))  # noqa: E731
    assert nana().get("zoom", 1) > 1
    page.click("#undo")  # the click was one step: one Undo takes back its centre and its size
    wait_for(lambda: "focus" not in nana() and "zoom" not in nana(), "the click undone")
    # the theme file is written before the page has the Undo's answer: a click on the old
    # panel (its focus still set) would send a focus without a zoom, so wait for the page
    page.wait_for_function(
        "(() => { const b = document.querySelector('#detail .crop-found .crop-badge');"
        " const r = document.querySelector(\"#detail .crop .ring[data-crop='artwork']\");"
        " return b && b.textContent !== 'your focus' && r && !r.hidden"
        " && !document.querySelector('#detail .crop .dot:not([hidden])'); })()",
        timeout=60_000,
    )
    shown.click(position={"x": centre[0] * box["width"], "y": centre[1] * box["height"]})
    wait_for(lambda: "focus" in nana() and nana().get("zoom", 1) > 1, "clicked again")
    page.locator("#detail button", has_text="Reset").click()  # printdeck's crop again, as before the click
    wait_for(lambda: "focus" not in nana() and "zoom" not in nana(), "the click's centre and zoom reset")
    page.click("#undo")  # the Reset undone: the click's centre and zoom are back, and Reset again takes both
    wait_for(lambda: "focus" in nana() and nana().get("zoom", 1) > 1, "the Reset undone")
    page.locator("#detail button", has_text="Reset").click()
    wait_for(lambda: "focus" not in nana() and "zoom" not in nana(), "reset again after an Undo")


def test_arrow_presses_move_the_crop_as_one_step(page: object, studio: tuple[str, Path]) -> None:
    """Five arrow presses on a crop took five Undos to take back: presses close together
    are one move, saved once, and one Undo puts the crop back where it was."""
    nana = lambda: next(s for s in theme(studio[1])["symbols"] if "nana" in s.get("photo", ""))  # noqa: E731
    if not any("nana" in s.get("photo", "") for s in theme(studio[1])["symbols"]):
        drop(page, [small_face_photo()])
    tile = page.locator("#grid .tile", has=page.locator("input.tile-name[value='nana']"))
    if tile.get_attribute("class") is None or "selected" not in (tile.get_attribute("class") or ""):
        tile.locator(".tile-face").click()  # its panel open (a click on a chosen tile closes it)
    page.wait_for_selector("#detail .crop .ring:not([hidden])", timeout=60_000)
    before = nana().get("focus")
    page.locator("#detail .crop").focus()
    for _ in range(5):
        page.keyboard.press("ArrowRight")
    wait_for(lambda: nana().get("focus") not in (None, before), "the move saved")
    moved = nana()["focus"]
    assert moved[0] == pytest.approx((before or moved)[0] + 0.15, abs=0.2)
    page.wait_for_timeout(600)
    assert nana()["focus"] == moved  # one save, the last press's
    page.click("#undo")
    wait_for(lambda: nana().get("focus") == before, "one Undo takes the whole move back")


def test_a_photos_tile_is_cut_to_its_crop_shape(page: object) -> None:
    """The tile showed the crop's whole square where a round card prints only its circle:
    a group photo's three faces on the tile, one of them on the card. A photo cut to a
    circle shows a round tile (a rounded square, that corner)."""
    radii = page.evaluate(
        "() => Array.from(document.querySelectorAll('#grid .tile')).filter((t) => t.querySelector('img.photo.cropped'))"
        ".map((t) => getComputedStyle(t.querySelector('.tile-face')).borderTopLeftRadius)"
    )
    assert radii and all(r == "50%" for r in radii), radii
