"""Words on white pages set as text: every word at one size, whatever its length or script.

The legend and the slides' corner tile fitted a word into a picture's square, so its width
set its size ("ox" and 猫 huge, "summer" and "hippopotamus" tiny). Checked from the PDF:
each word's size read from the page's transformation matrices, its ink rasterised.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pypdfium2
from pypdf import PdfReader
from test_classroom import _form_boxes

import printdeck
from printdeck.render.forms import TEXT_FORM_SIZE_PT  # a word's form: one em is this many pt

PX_PER_MM = 8.0
X_HEIGHT_ONLY = ["ox", "summer", "moon", "ocean", "sun", "we"]  # no ascender, no descender
HAN = ["猫", "狗", "长颈鹿", "鹿"]
WORDS = [*X_HEIGHT_ONLY, *HAN, "hippopotamus", "बिल्ली", "الزرافة"]  # 13: order 3, every word used


def _page_pixels(pdf: Path, index: int) -> np.ndarray:
    """Page ``index`` (from 0; -1 the last) rasterised at :data:`PX_PER_MM`, RGB."""
    document = pypdfium2.PdfDocument(str(pdf))
    try:
        page = document[index if index >= 0 else len(document) + index]
        return np.asarray(page.render(scale=PX_PER_MM * 25.4 / 72).to_pil().convert("RGB"), dtype=int)
    finally:
        document.close()


def _ink_rows(pixels: np.ndarray, box_pt: np.ndarray, page_height_pt: float) -> tuple[int, int]:
    """The first and last pixel row holding ink (not white) in a form's box (pt, PDF
    coordinates) and half a millimetre round it."""
    scale = PX_PER_MM * 25.4 / 72
    (x0, y0), (x1, y1) = box_pt
    pad = 0.5 * 72 / 25.4
    crop = pixels[
        round((page_height_pt - y1 - pad) * scale) : round((page_height_pt - y0 + pad) * scale),
        round((x0 - pad) * scale) : round((x1 + pad) * scale),
    ]
    rows = (crop.min(axis=2) < 200).any(axis=1).nonzero()[0]
    top = round((page_height_pt - y1 - pad) * scale)
    return top + int(rows[0]), top + int(rows[-1])


def test_the_legend_sets_every_word_at_one_text_size(tmp_path: Path) -> None:
    """Every legend word is set at one size (its em read from the page), on its row's
    baseline: words of x-height letters only ("ox", "summer") print equally tall, as do
    Chinese characters (猫, 长颈鹿); only "hippopotamus", too wide for its cell at that
    size, is smaller, and fills the cell's width."""
    data = {"name": "w", "seed": 3, "deck": {"symbols_per_card": 4}, "symbols": [{"text": w} for w in WORDS]}
    result = printdeck.build(data, out=tmp_path / "deck.pdf", legend=True)
    reader = PdfReader(str(result.pdf_path))
    page_height_pt = float(reader.pages[-1].mediabox.height)
    names = {s["id"]: s["name"] for s in json.loads(result.manifest_path.read_text(encoding="utf-8"))["symbols"]}
    drawn = {names[sid]: (box, scale * TEXT_FORM_SIZE_PT) for sid, box, scale in _form_boxes(reader, len(reader.pages))}
    assert sorted(drawn) == sorted(WORDS)
    sizes_pt = {name: round(em_pt, 3) for name, (_, em_pt) in drawn.items()}
    (size_pt,) = {size for name, size in sizes_pt.items() if name != "hippopotamus"}
    assert 16.0 <= size_pt <= 20.0  # a heading's size: read at arm's length, as the pictures are
    (x0, _), (x1, _) = drawn["hippopotamus"][0]
    assert sizes_pt["hippopotamus"] < size_pt and 24.0 < (x1 - x0) * 25.4 / 72 <= 26.01  # the cell's room
    pixels = _page_pixels(result.pdf_path, -1)
    ink = {name: _ink_rows(pixels, drawn[name][0], page_height_pt) for name in X_HEIGHT_ONLY + HAN}
    heights = {name: bottom - top for name, (top, bottom) in ink.items()}
    assert max(heights[n] for n in X_HEIGHT_ONLY) - min(heights[n] for n in X_HEIGHT_ONLY) <= 2, heights
    assert max(heights[n] for n in HAN) - min(heights[n] for n in HAN) <= 3, heights
    assert 0.5 * size_pt * 25.4 / 72 * PX_PER_MM < heights["ox"] < 0.6 * size_pt * 25.4 / 72 * PX_PER_MM
    rows: dict[int, list[int]] = {}
    for name in X_HEIGHT_ONLY:  # on one baseline: the ink's foot, in each row of cells
        (_, y0), (_, y1) = drawn[name][0]
        rows.setdefault(round((y0 + y1) / 2 / (32 * 72 / 25.4)), []).append(ink[name][1])
    assert any(len(feet) > 1 for feet in rows.values())
    assert all(max(feet) - min(feet) <= 1 for feet in rows.values()), rows


def test_the_corner_tile_sets_every_word_at_one_text_size(tmp_path: Path) -> None:
    """``--reveal corner``: every answer slide's tile sets its word at one size (its em read
    from the page), whatever its length or script, on white inside its tile and left of its
    name; words of x-height letters print equally tall from slide to slide."""
    from printdeck.render.slides import card_centres_mm, card_diameter_mm

    data = {"name": "w", "seed": 3, "deck": {"symbols_per_card": 4}, "symbols": [{"text": w} for w in WORDS]}
    result = printdeck.write_slides(printdeck.load_theme(data), tmp_path / "slides.pdf", reveal="corner")
    reader = PdfReader(str(result.pdf_path))
    height_pt = float(reader.pages[0].mediabox.height)
    band_pt = (max(y for _, y in card_centres_mm()) + card_diameter_mm() / 2.0) * 72 / 25.4  # the cards' top
    sizes_pt, heights, names_after = set(), {}, 0
    for n, (_, _, (name,)) in enumerate(result.rounds, start=1):
        (form,) = [f for f in _form_boxes(reader, 2 * n + 1) if f[1][0][1] > band_pt]  # the tile's word
        sizes_pt.add(round(form[2] * TEXT_FORM_SIZE_PT, 3))
        pixels = _page_pixels(result.pdf_path, 2 * n)
        top, bottom = _ink_rows(pixels, form[1], height_pt)
        (x0, _), (x1, _) = form[1]
        scale = PX_PER_MM * 25.4 / 72
        around = pixels[top - 4 : bottom + 5, round(x0 * scale) - 4 : round(x1 * scale) + 5].min(axis=2)
        assert min(around[0].min(), around[-1].min(), around[:, 0].min(), around[:, -1].min()) > 240  # white
        if name in X_HEIGHT_ONLY:
            heights[name] = bottom - top
        text = [box for box in _text_boxes(result.pdf_path, 2 * n) if box[1] > band_pt and box[2] > x0]  # the name
        names_after += bool(text)
        assert all(left > x1 for left, *_ in text), (name, text, x1)
    assert len(sizes_pt) == 1 and 20.0 <= sizes_pt.pop() <= 28.0, sizes_pt
    assert len(heights) >= 2 and max(heights.values()) - min(heights.values()) <= 2, heights
    assert names_after >= 2


def _text_boxes(pdf: Path, index: int) -> list[tuple[float, float, float, float]]:
    """The boxes of page ``index``'s PDF text characters, ``(left, bottom, right, top)`` in pt."""
    document = pypdfium2.PdfDocument(str(pdf))
    try:
        text = document[index].get_textpage()
        return [text.get_charbox(i) for i in range(text.count_chars()) if text.get_text_range(i, 1).strip()]
    finally:
        document.close()


def _runs(flags: np.ndarray, join: int) -> list[tuple[int, int]]:
    """The runs of true ``flags`` (first, last index), runs less than ``join`` apart joined."""
    runs: list[tuple[int, int]] = []
    for i in flags.nonzero()[0]:
        if runs and i - runs[-1][1] <= join:
            runs[-1] = (runs[-1][0], int(i))
        else:
            runs.append((int(i), int(i)))
    return runs


def test_the_legend_names_print_at_body_text_size(tmp_path: Path) -> None:
    """Rasterised: a legend name printed at 7 pt, shrunk to 5 pt, in every script: too small
    to read at arm's length. Under each word its name (the same text, shaped alike) is set
    at body-text size: its ink is 9/18 to 11/18 as tall as the word's at 18 pt, in Latin,
    Arabic, Devanagari and Chinese. A name too wide for its cell wraps to two lines, at
    no less than 8 pt, and every name stays inside its cell."""
    mm = PX_PER_MM
    long_name = "a rather long descriptive name"
    scripts = ["summer", "ox", "猫", "长颈鹿", "قطة", "الزرافة", "बिल्ली", "घोड़ा", "window", "moon", "we", "sun"]
    symbols = [{"text": w} for w in scripts] + [{"image": "@assets/twemoji/cat.svg", "name": long_name}]
    data = {"name": "n", "seed": 3, "deck": {"symbols_per_card": 4}, "symbols": symbols}
    result = printdeck.build(data, out=tmp_path / "deck.pdf", legend=True)
    reader = PdfReader(str(result.pdf_path))
    page_height_pt = float(reader.pages[-1].mediabox.height)
    names = {s["id"]: s["name"] for s in json.loads(result.manifest_path.read_text(encoding="utf-8"))["symbols"]}
    ink = _page_pixels(result.pdf_path, -1).min(axis=2) < 160
    to_px = mm * 25.4 / 72
    for sid, ((x0, y0), (x1, y1)), scale in _form_boxes(reader, len(reader.pages)):
        centre = round((x0 + x1) / 2 * to_px)
        cell = ink[:, centre - round(16 * mm) : centre + round(16 * mm)]  # a cell is 32 mm wide
        art_top, art_bottom = round((page_height_pt - y1) * to_px), round((page_height_pt - y0) * to_px)
        below = cell[art_bottom + 2 : art_bottom + round(18 * mm)].any(axis=1)  # its name, not the next row's art
        first, last = _runs(below, round(1.2 * mm))[0]  # the name: its lines, its letters' dots, together
        caption = cell[art_bottom + 2 + first : art_bottom + 3 + last]
        columns = caption.any(axis=0).nonzero()[0]
        assert columns[0] >= round(2 * mm) and columns[-1] <= round(30 * mm), (names[sid], columns)  # in its cell
        if names[sid] == long_name:
            cell_bottom = (art_top + art_bottom) / 2 + 19 * mm  # the picture's middle is 3 mm above the cell's
            assert art_bottom + 3 + last < cell_bottom and columns[-1] - columns[0] > 20 * mm
            assert (last - first + 1) / mm >= (1.1 + 0.8) * 8 * 25.4 / 72  # two lines at 8 pt or more
            continue
        name_px = last - first + 1
        word_px = cell[art_top:art_bottom].any(axis=1).sum()
        name_pt = scale * TEXT_FORM_SIZE_PT * name_px / word_px
        assert 9.0 <= name_pt <= 11.5, (names[sid], round(name_pt, 2))  # 10 pt, read from pixels


VOCABULARY = [("carrot", "zanahoria"), ("cat", "gato"), ("dog", "perro"), ("umbrella", "paraguas")]
VOCABULARY += [("apple", "manzana"), ("snail", "caracol"), ("butterfly", "mariposa")]


def test_the_legend_sets_a_picture_above_its_word_across_the_cell(tmp_path: Path) -> None:
    """A vocabulary deck's legend set each picture and its word side by side, the word in
    11 mm: these words printed at 9 pt or less. Now the word is under its picture, centred
    with it, across the cell, at 15 to 18 pt; rasterised, its ink stays below the picture,
    above the name under it and inside its own box."""
    symbols = [{"name": p, "faces": [{"image": f"@assets/twemoji/{p}.svg"}, {"text": w}]} for p, w in VOCABULARY]
    data = {"name": "v", "seed": 3, "deck": {"symbols_per_card": 3, "faces": "mixed"}, "symbols": symbols}
    result = printdeck.build(data, out=tmp_path / "deck.pdf", legend=True)
    reader = PdfReader(str(result.pdf_path))
    page_height_pt = float(reader.pages[-1].mediabox.height)
    forms = _form_boxes(reader, len(reader.pages))  # drawn cell by cell: the picture, then its word
    assert len(forms) == 2 * len(VOCABULARY)
    names = _text_boxes(result.pdf_path, len(reader.pages) - 1)
    rgb = _page_pixels(result.pdf_path, -1)
    light_grey = (rgb.max(axis=2) - rgb.min(axis=2) < 16) & (rgb.min(axis=2) > 100)  # white, the rule under it
    ink = (rgb.min(axis=2) < 235) & ~light_grey  # every word's colour, the palette's pink and yellow too
    to_px = PX_PER_MM * 25.4 / 72
    for (_, picture, _), (_, word, scale) in zip(forms[::2], forms[1::2]):
        assert 15.0 <= scale * TEXT_FORM_SIZE_PT <= 18.0  # its em, pt
        assert abs(picture.mean(axis=0)[0] - word.mean(axis=0)[0]) < 0.5 * 72 / 25.4  # centred under it
        (x0, y0), (x1, y1) = word
        under = [top for left, _, right, top in names if left < x1 and x0 < right and top < y0]
        assert under and picture[0][1] > y1  # below its picture, above its name
        below = round((page_height_pt - picture[0][1]) * to_px) + 3  # under the picture's box
        band = ink[below : round((page_height_pt - max(under)) * to_px), round(x0 * to_px) - 4 : round(x1 * to_px) + 4]
        columns = band.any(axis=0)
        assert columns[:3].sum() == 0 and columns[-3:].sum() == 0  # the word's ink ends inside its box
        assert band.any() and not band[-2:].any()  # the word drawn, clear of the name under it
