"""A class set's per-card images and backs, and a grey class set's deck tones, checked on
rasterised output: each deck's fronts carry its mark as the PDF prints it, each deck gets
its own back in its colour, and no two decks of a grey set print in one grey."""

from __future__ import annotations

import io
import itertools
import json
from pathlib import Path

import numpy as np
import pypdfium2
import pytest
from PIL import Image
from test_class_sets import SMALL

import printdeck
from printdeck.model import DeckMark
from printdeck.render import BackDeck, back_image, deck_back, read_png_record
from printdeck.render.print_job import BackDesign
from printdeck.theme import DECK_PALETTE, grey_deck_colours

DPI = 100
PX_PER_MM = DPI / 25.4


def _rgb(hex_colour: str) -> np.ndarray:
    return np.array([int(hex_colour[i : i + 2], 16) for i in (1, 3, 5)])


def _luminance(rgb: np.ndarray) -> np.ndarray:
    """WCAG 2 relative luminance of sRGB values 0..255 (last axis)."""
    c = np.asarray(rgb, dtype=float) / 255.0
    lin = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    return lin @ np.array([0.2126, 0.7152, 0.0722])


def _contrast(a: np.ndarray, b: np.ndarray) -> float:
    la, lb = sorted((float(_luminance(a)), float(_luminance(b))))
    return (lb + 0.05) / (la + 0.05)


@pytest.fixture(scope="module")
def class_set_images(tmp_path_factory: pytest.TempPathFactory) -> tuple[printdeck.BuildResult, dict]:
    out = tmp_path_factory.mktemp("class-images")
    result = printdeck.build(SMALL, out=out / "class.pdf", backs=True, png_dir=out / "png", dpi=DPI)
    return result, json.loads(result.manifest_path.read_text())


def test_every_card_image_is_named_by_its_deck_and_every_deck_has_its_back(
    class_set_images: tuple[printdeck.BuildResult, dict],
) -> None:
    result, manifest = class_set_images
    names = [p.name for p in result.png_paths]
    want = [f"card-{card['index'] + 1:03d}-{card['mark']['letter']}.png" for card in manifest["cards"]]
    assert names == want  # numbered in their own deck, as the manifest and ``answer`` number them
    assert "card-001-B.png" in names and len(set(names)) == len(names)  # deck B's first was card-008-B
    assert [p.name for p in result.back_paths] == ["back-A.png", "back-B.png", "back-C.png"]
    folder = result.png_paths[0].parent
    assert read_png_record(folder) == {*names, "back-A.png", "back-B.png", "back-C.png"}
    assert "the backs as back-A.png ... back-C.png" in result.summary_lines()[0]


def test_each_deck_back_image_is_in_its_colour_with_a_title_that_reads(
    class_set_images: tuple[printdeck.BuildResult, dict],
) -> None:
    result, manifest = class_set_images
    for deck, path in zip(manifest["decks"], result.back_paths, strict=True):
        with Image.open(path) as im:
            back = np.asarray(im.convert("RGB")).astype(int)
        h, w, _ = back.shape
        colour = _rgb(deck["color"])
        assert np.abs(back[round(0.08 * h), w // 2] - colour).max() <= 10, path.name  # inside the card, off the ring
        middle = back[round(0.42 * h) : round(0.58 * h), round(0.2 * w) : round(0.8 * w)].reshape(-1, 3)
        far = middle[np.argmax(np.abs(_luminance(middle) - _luminance(colour)))]
        assert _contrast(far, colour) >= 4.5, f"{path.name}: the title's ink {far} on {deck['color']}"


def test_each_front_image_shows_its_deck_mark_as_the_pdf_prints_it(
    class_set_images: tuple[printdeck.BuildResult, dict],
) -> None:
    result, manifest = class_set_images
    doc = pypdfium2.PdfDocument(str(result.pdf_path))
    try:
        for path, card in list(zip(result.png_paths, manifest["cards"], strict=True))[::4]:
            mark = card["mark"]
            with Image.open(path) as im:
                png = np.asarray(im.convert("RGB")).astype(int)
            page = np.asarray(doc[card["page"] - 1].render(scale=PX_PER_MM * 25.4 / 72).to_pil().convert("RGB"))
            png_at = (
                png.shape[1] / 2 + mark["center_mm"][0] * PX_PER_MM,
                png.shape[0] / 2 - mark["center_mm"][1] * PX_PER_MM,
            )
            pdf_x = (card["center_mm"][0] + mark["center_mm"][0]) * PX_PER_MM
            pdf_at = (pdf_x, page.shape[0] - (card["center_mm"][1] + mark["center_mm"][1]) * PX_PER_MM)
            r = mark["radius_mm"] * PX_PER_MM
            beside = png[round(png_at[1]), round(png_at[0] + 0.75 * r)]
            assert np.abs(beside - _rgb(mark["color"])).max() <= 12, f"{path.name}: no dot of deck {mark['letter']}"
            png_letter, pdf_letter = (
                _letter(_window(img, at, r), mark["color"]) for img, at in ((png, png_at), (page.astype(int), pdf_at))
            )
            assert png_letter.sum() >= 4, f"{path.name}: the dot shows no letter"
            assert 0.75 <= png_letter.sum() / pdf_letter.sum() <= 1.33, f"{path.name}: not the PDF's letter"
            apart = np.hypot(*(np.argwhere(png_letter).mean(axis=0) - np.argwhere(pdf_letter).mean(axis=0)))
            assert apart <= 1.5, f"{path.name}: the letter is {apart:.1f} px from where the PDF puts it"
    finally:
        doc.close()


def _letter(window: np.ndarray, dot_colour: str) -> np.ndarray:
    """``bool``: the pixels of a deck mark's window far from its dot's colour (its letter)."""
    return np.abs(window - _rgb(dot_colour)).max(axis=2) > 60


def _window(image: np.ndarray, at: tuple[float, float], r: float) -> np.ndarray:
    """The square of side ``1.4 r`` centred ``at`` (x, y pixels): the dot's middle, its letter."""
    half = max(2, round(0.7 * r))
    x, y = round(at[0]), round(at[1])
    return image[y - half : y + half, x - half : x + half]


@pytest.mark.parametrize("copies", [2, 6, 12])
def test_grey_deck_tones_are_evenly_apart_in_lightness(copies: int) -> None:
    from skimage.color import rgb2lab

    tones = grey_deck_colours(copies)
    lightness = rgb2lab(np.array([[_rgb(t) / 255.0 for t in tones]]))[0, :, 0]
    assert len(tones) == copies and np.all(np.diff(lightness) > 0)  # deck A darkest
    gaps = [abs(a - b) for a, b in itertools.combinations(lightness, 2)]
    assert min(gaps) >= 63.0 / (copies - 1) - 0.6


def test_a_grey_class_set_prints_every_deck_back_in_its_own_grey(tmp_path: Path) -> None:
    theme = {**SMALL, "deck": {**SMALL["deck"], "copies": 6}, "paper": {"grayscale": True}}
    result = printdeck.build(theme, out=tmp_path / "grey.pdf", backs=True)
    manifest = json.loads(result.manifest_path.read_text())
    assert [d["color"] for d in manifest["decks"]] == list(grey_deck_colours(6))
    doc = pypdfium2.PdfDocument(str(result.pdf_path))
    greys = []
    try:
        for deck in manifest["decks"]:
            card = next(c for c in manifest["cards"] if c["deck"] == deck["deck"])
            page = np.asarray(doc[card["page"]].render(scale=2.0).to_pil().convert("L")).astype(int)  # its backs
            greys.append(int(np.median(page[page < 250])))  # the backs' ground (white paper left out)
    finally:
        doc.close()
    assert min(abs(a - b) for a, b in itertools.combinations(greys, 2)) >= 15, greys


@pytest.mark.parametrize("colour", sorted({*DECK_PALETTE, *grey_deck_colours(12), *grey_deck_colours(5), "#808080"}))
def test_a_deck_back_title_reads_on_every_deck_colour(colour: str) -> None:
    design = deck_back(BackDesign(color=colour, pattern="title", title="My deck"), BackDeck(1, "A", colour))
    back = np.asarray(back_image(design, 30.0, 0.0, 120, band=colour).convert("RGB")).astype(int)
    h, w, _ = back.shape
    middle = back[round(0.4 * h) : round(0.6 * h), round(0.15 * w) : round(0.85 * w)].reshape(-1, 3)
    far = middle[np.argmax(np.abs(_luminance(middle) - _luminance(_rgb(colour))))]
    assert _contrast(far, _rgb(colour)) >= 4.5, f"title ink {far} on {colour}"


def test_a_numbered_decks_6_and_9_are_underlined_on_their_marks() -> None:
    """A round card is read at any turn: a mark "6" upside down reads "9". Their marks are
    underlined, as on dice; other labels are not. Counted on the mark rasterised by PDFium."""
    from printdeck.render.canvas import scratch_canvas
    from printdeck.render.pdf_fonts import register_bundled
    from printdeck.render.pdf_pixels import page_image
    from printdeck.render.sheet import draw_deck_mark

    register_bundled()

    def rows_of_ink_under_the_label(label: str) -> int:
        buffer = io.BytesIO()
        canvas = scratch_canvas(buffer, (40.0, 40.0))
        draw_deck_mark(canvas, DeckMark(1, label, "#2b4c7e", (0.0, 0.0), 5.0), (20.0, 20.0))
        canvas.showPage()
        canvas.save()
        grey = np.asarray(page_image(buffer.getvalue(), 0, 10.0).convert("L")).astype(int)
        h, w = grey.shape
        band = grey[round(h * 0.68) : round(h * 0.74), round(w * 0.4) : round(w * 0.6)]  # under the baseline
        return int((band > 200).any(axis=1).sum())  # the label's white ink, below its glyph

    assert rows_of_ink_under_the_label("6") > 0 and rows_of_ink_under_the_label("9") > 0
    assert rows_of_ink_under_the_label("8") == 0 and rows_of_ink_under_the_label("B") == 0


@pytest.mark.parametrize("grey", [False, True])
def test_a_picture_back_of_a_class_set_shows_its_decks_letter(tmp_path: Path, grey: bool) -> None:
    """A teacher's class set with a logo on the backs: each deck's backs had only a ring of
    its colour, no letter; printed grey, decks told apart by a shade only. A covering
    picture's back now shows its deck's letter in a tab of the band at the bottom, drawn
    as the fronts' marks are: checked on each deck's back PNG (the PDF's own form)."""
    picture = np.zeros((900, 900, 3), np.uint8)
    picture[:, :, 1] = 170  # a green, far from every deck colour and its grey
    picture[::40] = 255
    Image.fromarray(picture).save(tmp_path / "logo.png")
    theme = {**SMALL, "deck": {"symbols_per_card": 4, "copies": 3}, "card": {"diameter": "70mm", "bleed": "3mm"}}
    theme["backs"] = {"enabled": True, "image": "logo.png", "fit": "cover"}
    theme["paper"] = {"grayscale": grey}
    (tmp_path / "theme.yaml").write_text(json.dumps(theme), encoding="utf-8")
    result = printdeck.build(tmp_path / "theme.yaml", out=tmp_path / "class.pdf", png_dir=tmp_path / "pngs", dpi=DPI)
    manifest = json.loads(result.manifest_path.read_text(encoding="utf-8"))
    letters = []
    for deck, path in zip(manifest["decks"], result.back_paths, strict=True):
        with Image.open(path) as im:
            back = np.asarray(im.convert("RGB")).astype(int)
        half_mm = 35.0 - 4.0  # inside the band: the card's radius less BAND_MM
        dot_mm = 0.2 * half_mm
        at = (back.shape[1] / 2, back.shape[0] / 2 + (half_mm - 0.6 * dot_mm) * PX_PER_MM)
        r = dot_mm * PX_PER_MM
        beside = back[round(at[1]), round(at[0] + 0.8 * r)]
        assert np.abs(beside - _rgb(deck["color"])).max() <= 12, f"{path.name}: no tab of deck {deck['letter']}"
        letter = _letter(_window(back, at, r), deck["color"])
        assert letter.sum() >= 0.08 * letter.size, f"{path.name}: the tab shows no letter"
        letters.append(letter)
    assert all((a != b).sum() > 0.05 * a.size for a, b in itertools.combinations(letters, 2))  # A, B, C differ
