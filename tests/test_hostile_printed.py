"""Odd but usable files build (exit 0) and every symbol visibly prints, checked from the PDF.

Each case is one odd symbol beside six plain words (order 2: 7 cards of 3, so it shows on
three cards). The deck is built through the command line; the PDF's pages are rasterised
with pdfium and every placement the manifest records must show ink there.
"""

from __future__ import annotations

import base64
import io
import json
import math
import os
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pypdfium2 as pdfium
import pytest
from PIL import Image, ImageDraw
from test_hostile_support import run_in_process

PX_PER_MM = 4.0
MIN_INK_SHARE = 0.03  # of the placement's box
SVG_HEAD = '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10">'


def _png(mode: str) -> bytes:
    image = Image.new("RGBA", (640, 640), (0, 0, 0, 0))  # enough pixels for 300 dpi on the card
    ImageDraw.Draw(image).ellipse((80, 80, 560, 560), fill=(30, 90, 160, 255))
    if mode == "I;16":
        grey = (np.asarray(image.convert("L"), dtype=np.uint16) * 200).astype(np.uint16)  # mid greys, 16 bit
        image = Image.fromarray((grey + 4000).astype(np.uint16))  # mode I;16
    elif mode == "CMYK-jpeg":
        out = io.BytesIO()
        Image.new("RGB", (640, 640), (30, 90, 160)).convert("CMYK").save(out, "JPEG")
        return out.getvalue()
    else:
        image = image.convert(mode) if mode != "RGBA" else image
    out = io.BytesIO()
    image.save(out, "PNG", transparency=0 if mode == "P" else None) if mode == "P" else image.save(out, "PNG")
    return out.getvalue()


def _data_uri_svg() -> bytes:
    pixel = base64.b64encode(_png("RGBA")).decode()
    return f'{SVG_HEAD}<image width="10" height="10" xlink:href="data:image/png;base64,{pixel}"/></svg>'.encode()


CASES: dict[str, tuple[str, Callable[[], bytes] | str]] = {
    "16-bit grey PNG": ("odd.png", lambda: _png("I;16")),
    "palette PNG with transparency": ("odd.png", lambda: _png("P")),
    "grey and alpha PNG": ("odd.png", lambda: _png("LA")),
    "bilevel PNG": ("odd.png", lambda: _png("1")),
    "CMYK JPEG": ("odd.jpg", lambda: _png("CMYK-jpeg")),
    "SVG coloured by a CSS variable": (
        "odd.svg",
        lambda: (SVG_HEAD + '<circle cx="5" cy="5" r="4" style="fill: var(--c, #08f)"/></svg>').encode(),
    ),
    "SVG with an embedded PNG": ("odd.svg", _data_uri_svg),
    "SVG path without a move": (
        "odd.svg",
        lambda: (SVG_HEAD + '<path d="1 2 3 4"/><circle cx="5" cy="5" r="4" fill="#c00"/></svg>').encode(),
    ),
    "SVG with a mask": (
        "odd.svg",
        lambda: (
            SVG_HEAD + '<mask id="m"><rect width="10" height="10" fill="#fff"/>'
            '<circle cx="7" cy="5" r="4"/></mask><circle cx="5" cy="5" r="4" '
            'fill="#c00" mask="url(#m)"/></svg>'
        ).encode(),
    ),
    "SVG with width and height in mm": (
        "odd.svg",
        lambda: (
            b'<svg xmlns="http://www.w3.org/2000/svg" width="30mm" '
            b'height="10mm" viewBox="0 0 30 10"><rect width="30" height="10"/></svg>'
        ),
    ),
    "word of combining marks": ("text", "\u0301\u0323\u0306"),
    "word with a joiner": ("text", "\u0915\u094d\u200d\u0937"),
    "right-to-left word with digits": ("text", "\u0639\u0627\u0645 2024"),
    "word in two scripts": ("text", "cat \u0642\u0637\u0629"),
    "word with an emoji variation selector": ("text", "star\ufe0f"),
}


def _theme(folder: Path, name: str) -> Path:
    kind, content = CASES[name]
    words = "".join(f"  - text: plain{i}\n" for i in range(6))
    if kind == "text":
        odd = f"  - text: {json.dumps(content)}\n    name: odd\n"
    else:
        (folder / kind).write_bytes(content())  # type: ignore[operator]
        odd = f"  - {'photo' if kind.endswith('.jpg') else 'image'}: {kind}\n    name: odd\n"
    theme = folder / "theme.yaml"
    theme.write_text(
        f"name: odd\ndeck: {{symbols_per_card: 3}}\nlayout: {{rotation: none}}\nsymbols:\n{odd}{words}",
        encoding="utf-8",
    )
    return theme


def _box_mask(
    shape: tuple[int, int], page_h_mm: float, centre_mm: tuple[float, float], box_mm: list[float], rotation_deg: float
) -> np.ndarray:
    """``(H, W) bool``: the placement's rotated box on the page raster."""
    a = math.radians(rotation_deg)
    corners = []
    for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
        x, y = sx * box_mm[0] / 2, sy * box_mm[1] / 2
        px = centre_mm[0] + x * math.cos(a) - y * math.sin(a)
        py = centre_mm[1] + x * math.sin(a) + y * math.cos(a)
        corners.append((px * PX_PER_MM, (page_h_mm - py) * PX_PER_MM))
    mask = Image.new("L", (shape[1], shape[0]), 0)
    ImageDraw.Draw(mask).polygon(corners, fill=255)
    return np.asarray(mask) > 0


def _assert_every_placement_inked(pdf: Path, manifest: dict) -> None:
    doc = pdfium.PdfDocument(str(pdf))
    pages = {}
    try:
        for card in manifest["cards"]:
            page = card["page"] - 1
            if page not in pages:
                pages[page] = np.asarray(
                    doc[page].render(scale=PX_PER_MM * 25.4 / 72).to_pil().convert("RGB"), dtype=int
                )
            pixels = pages[page]
            page_h_mm = pixels.shape[0] / PX_PER_MM
            ink = (255 - pixels).max(axis=2) > 40
            for placed in card["symbols"]:
                centre = (card["center_mm"][0] + placed["center_mm"][0], card["center_mm"][1] + placed["center_mm"][1])
                box = _box_mask(ink.shape, page_h_mm, centre, placed["box_mm"], placed["rotation_deg"])
                share = float((ink & box).sum()) / max(int(box.sum()), 1)
                assert share >= MIN_INK_SHARE, f"card {card['index']}: symbol {placed['id']} prints {share:.3f} ink"
    finally:
        doc.close()


@pytest.mark.parametrize("name", sorted(CASES))
def test_odd_but_usable_symbols_print_visibly(tmp_path: Path, name: str) -> None:
    theme = _theme(tmp_path, name)
    # one cache for the session's cases (beside their folders): the odd symbol's content is its key
    env = {**os.environ, "PRINTDECK_CACHE_DIR": str(tmp_path.parent / "printed-cache")}
    done = run_in_process(tmp_path, "build", str(theme), "-o", "deck.pdf", "--quiet", environ=env)
    assert done.code == 0, done.err
    assert "Traceback" not in done.err and "Can't handle" not in done.out + done.err
    manifest = json.loads((tmp_path / "deck.json").read_text(encoding="utf-8"))
    odd_id = next(s["id"] for s in manifest["symbols"] if s["name"] == "odd")
    assert sum(p["id"] == odd_id for c in manifest["cards"] for p in c["symbols"]) == 3
    _assert_every_placement_inked(tmp_path / "deck.pdf", manifest)
