"""Helpers of the pin tests: a PDF page's ink rasterised, and one symbol's ink stamped
where it was pinned by resvg (not by printdeck's drawing code)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pypdfium2
from PIL import Image
from test_layout_support import _art

import printdeck
from printdeck.artwork import silhouette

PX_PER_MM = 8.0
DARK = 128  # a pixel darker than this (0-255 grey) is ink


def page_ink(pdf: Path, page: int) -> np.ndarray:
    """``(H, W) bool`` the ink of a PDF page, rasterised by PDFium at :data:`PX_PER_MM`."""
    document = pypdfium2.PdfDocument(str(pdf))
    try:
        image = document[page - 1].render(scale=PX_PER_MM * 25.4 / 72.0).to_pil().convert("L")
    finally:
        document.close()
    return np.asarray(image) < DARK


def stamp_at(
    symbol: printdeck.SymbolSpec, page_shape: tuple[int, ...], card_mm: list[float], pin_pose: Any
) -> np.ndarray:
    """``(H, W) bool`` the symbol's ink alone, drawn by resvg at ``pin_pose`` (box centre
    from the card's centre, degrees, box width and height mm) on a page of ``page_shape``
    pixels whose card centre is ``card_mm`` (from the page's bottom-left corner)."""
    (x, y), angle, (w, h) = pin_pose
    art = _art(symbol, round(w * PX_PER_MM), round(h * PX_PER_MM))
    art = art.rotate(angle, resample=Image.Resampling.BICUBIC, expand=True)
    canvas = Image.new("RGBA", (page_shape[1], page_shape[0]), (0, 0, 0, 0))
    left = (card_mm[0] + x) * PX_PER_MM - art.width / 2
    top = page_shape[0] - (card_mm[1] + y) * PX_PER_MM - art.height / 2
    canvas.alpha_composite(art, (round(left), round(top)))
    return np.asarray(canvas.getchannel("A")) > 128


def dilate(mask: np.ndarray, px: int) -> np.ndarray:
    """``mask`` grown by ``px`` pixels each way (a square's reach)."""
    out = mask.copy()
    for dy in range(-px, px + 1):
        for dx in range(-px, px + 1):
            out |= np.roll(np.roll(mask, dy, axis=0), dx, axis=1)
    return out


def ink_at_pin(pdf: Path, card_index: int, symbol: printdeck.SymbolSpec, pin: tuple[Any, ...]) -> float:
    """The share of ``symbol``'s ink, stamped at ``pin`` (``((x, y) mm, degrees, size mm)``)
    on card ``card_index`` (0-based) of ``pdf``, that the PDF prints (within 2 pixels);
    the card is found on its page by the manifest beside the PDF."""
    manifest = json.loads(pdf.with_suffix(".json").read_text(encoding="utf-8"))
    card = next(c for c in manifest["cards"] if c["index"] == card_index)
    (x, y), angle, size = pin
    aspect = silhouette(symbol).aspect
    h = size / max(aspect, 1.0)
    ink = page_ink(pdf, card["page"])
    stamp = stamp_at(symbol, ink.shape, card["center_mm"], ((x, y), angle, (aspect * h, h)))
    assert stamp.sum() > 300, "the stamp shows no ink: the pin's symbol is not drawn"
    return float(dilate(ink, 2)[stamp].mean())
