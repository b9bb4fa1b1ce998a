"""Helpers for the layout tests (and bench/bench_layout.py), plus checks of the helpers.

``prime_plane`` is a tiny projective plane of prime order for tests only (the library's
designs live in printdeck.design). ``stamp_card`` rasterises placed symbols at their
manifest transforms with resvg / Pillow directly, independently of the layout engine.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import resvg_py
from PIL import Image, ImageDraw, ImageFont

from printdeck.artwork import drawing
from printdeck.model import CardLayout, SymbolSpec

REPO = Path(__file__).resolve().parent.parent
AWKWARD = REPO / "tests" / "fixtures" / "awkward" / "theme.yaml"
INK = 8  # alpha above this counts as ink


def prime_plane(q: int) -> list[list[int]]:
    """The q^2 + q + 1 cards (point indices) of the projective plane of prime order q.

    Points: (x, y) in Z_q^2 plus q + 1 directions at infinity; lines y = m x + b,
    x = c, and the line at infinity (completion of the affine plane AG(2, q)).
    """

    def pt(x: int, y: int) -> int:
        return x * q + y

    inf = q * q
    cards = [[pt(x, (m * x + b) % q) for x in range(q)] + [inf + m] for m in range(q) for b in range(q)]
    cards += [[pt(c, y) for y in range(q)] + [inf + q] for c in range(q)]
    cards.append([inf + m for m in range(q + 1)])
    return cards


def deck_cards(symbols: Sequence[SymbolSpec], q: int) -> list[list[SymbolSpec]]:
    """Cards of the order-q plane over the first q^2 + q + 1 symbols."""
    return [[symbols[p] for p in card] for card in prime_plane(q)]


def _art(symbol: SymbolSpec, w: int, h: int) -> Image.Image:
    """The symbol's whole box at w x h pixels, drawn without printdeck's own code."""
    if symbol.kind == "svg":
        png = resvg_py.svg_to_bytes(svg_path=str(symbol.path), width=w, height=h)
        return Image.open(io.BytesIO(bytes(png))).convert("RGBA").resize((w, h))
    if symbol.kind == "text":  # Pillow + libraqm in the font printdeck chose for the word
        (face,) = drawing(symbol).word.faces
        font = ImageFont.truetype(str(face.path), 4 * max(h, 16), index=face.index, layout_engine=ImageFont.Layout.RAQM)
        img = Image.new("RGBA", (font.getbbox(symbol.text or "")[2] + 40, 8 * max(h, 16)), (0, 0, 0, 0))
        ImageDraw.Draw(img).text((20, 6 * max(h, 16)), symbol.text or "", font=font, fill="#000000", anchor="ls")
        return img.crop(img.getbbox()).resize((w, h), Image.Resampling.LANCZOS)
    return Image.open(symbol.path).convert("RGBA").resize((w, h), Image.Resampling.LANCZOS)


def stamp_card(
    layout: CardLayout, symbols: Sequence[SymbolSpec], radius_mm: float, px_per_mm: float = 8.0
) -> np.ndarray:
    """Stamp each placed symbol's ink into its own layer.

    Returns:
        ``(n, S, S) bool``: layer k = ink of placement k on a square of side
        ``2 * radius_mm`` (+ 2 mm) at ``px_per_mm``, card centre in the middle, y up.
    """
    side = math.ceil((2 * radius_mm + 2) * px_per_mm)
    layers = np.zeros((len(symbols), side, side), dtype=bool)
    for k, (place, sym) in enumerate(zip(layout.placements, symbols)):
        w = max(1, round(place.box_mm[0] * px_per_mm))
        h = max(1, round(place.box_mm[1] * px_per_mm))
        art = _art(sym, w, h).rotate(place.rotation_deg, resample=Image.Resampling.BICUBIC, expand=True)
        canvas = Image.new("RGBA", (side, side), (0, 0, 0, 0))
        x = side / 2 + place.center_mm[0] * px_per_mm - art.width / 2
        y = side / 2 - place.center_mm[1] * px_per_mm - art.height / 2
        canvas.alpha_composite(art, (round(x), round(y)))
        layers[k] = np.asarray(canvas.getchannel("A")) > INK
    return layers


def pixel_radius_mm(side: int, px_per_mm: float) -> np.ndarray:
    """``(S, S)`` distance of each pixel centre from the image centre, in mm."""
    yy, xx = np.mgrid[0:side, 0:side] + 0.5
    return np.hypot(xx - side / 2, yy - side / 2) / px_per_mm


def test_prime_plane_is_a_projective_plane() -> None:
    cards = prime_plane(5)
    assert len(cards) == 31 and all(len(c) == 6 for c in cards)
    sets = [set(c) for c in cards]
    assert all(len(a & b) == 1 for i, a in enumerate(sets) for b in sets[i + 1 :])
