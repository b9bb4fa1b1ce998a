"""No symbol in another's open mouth: open rings (C shapes, thin and thick) and horseshoes,
every card shape.

Independent of the engine: each card's symbols are stamped (resvg / Pillow rasters, as in
tests/test_layout_stamp.py) and, for every two symbols, the share of directions (64
bins) from one's ink centre in which the other's ink lies is measured; a symbol sitting in
a C's mouth is surrounded over most of a turn (the engine keeps it under three quarters
of a turn at every point of it; a centre inside the mouth measures well above). No ink of
another symbol may enter a C's or a horseshoe's convex hull either (the stamped ink's hull,
less a pixel): not even a corner poking in between a C's tips.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest
from shapely.geometry import Point
from test_layout_support import deck_cards, stamp_card

import printdeck
from printdeck.artwork import silhouette
from printdeck.layout import LayoutSettings, layout_deck

MOUTHS = Path(__file__).parent / "fixtures" / "mouths"
PX_PER_MM = 6.0
SURROUNDED = 0.85  # a symbol whose centre sees another's ink over this share of a turn sits in its mouth


def surrounded_share(centre: np.ndarray, ink: np.ndarray, bins: int = 64) -> float:
    """Share of ``bins`` directions from ``centre`` (row, col) in which ``ink`` (a mask) lies."""
    r, c = np.nonzero(ink)
    angles = np.arctan2(-(r - centre[0]), c - centre[1])
    hit = np.unique(((angles + np.pi) / (2 * np.pi) * bins).astype(int) % bins)
    return len(hit) / bins


def hull_inside(ink: np.ndarray) -> np.ndarray:
    """``bool`` like ``ink``: the inside of its convex hull, one pixel in from its edge."""
    mask = np.zeros(ink.shape, dtype=np.uint8)
    cv2.fillConvexPoly(mask, cv2.convexHull(cv2.findNonZero(ink.astype(np.uint8))), 1)
    return cv2.erode(mask, np.ones((3, 3), np.uint8)).astype(bool)


def test_open_mouths_are_filled_in_the_collision_outline() -> None:
    theme = printdeck.load_theme(MOUTHS / "theme.yaml")
    nest = printdeck.load_theme({**_raw(), "layout": {"nest": True}}, base_dir=MOUTHS)
    open_outline = {s.name: silhouette(s).outline for s in nest.symbols}  # layout.nest: mouths stay open
    for sym in theme.symbols:
        outline = silhouette(sym).outline
        if sym.name.startswith(("ring", "horseshoe")):
            assert outline.area > 1.3 * open_outline[sym.name].area, sym.name
        else:
            assert outline.area == pytest.approx(open_outline[sym.name].area), sym.name  # convex: nothing to fill
    for name in ("ring 1", "ring 2", "ring 3", "ring thick", "horseshoe 1"):
        sym = next(s for s in theme.symbols if s.name == name)
        assert silhouette(sym).outline.contains(Point(0.0, 0.0)), name  # the middle of the mouth
        assert not open_outline[name].contains(Point(0.0, 0.0))
    for name in ("ring thick", "horseshoe 1", "horseshoe 2"):  # filled up to the line between the tips
        sym = next(s for s in theme.symbols if s.name == name)
        hull = silhouette(sym).shape.convex_hull
        assert silhouette(sym).outline.contains(hull.buffer(-0.01)), name


def _raw() -> dict[str, object]:
    return {"name": "mouths", "seed": 5, "deck": {"symbols_per_card": 4}, "symbols": [{"folder": "."}]}


@pytest.mark.parametrize(
    "card",
    [{}, {"shape": "square", "size": "60mm"}, {"size": "poker"}, {"shape": "hexagon", "size": "70mm"}],
)
def test_no_symbol_sits_in_an_open_mouth(card: dict[str, object]) -> None:
    theme = printdeck.load_theme({**_raw(), "card": {"safe_margin": "3mm", **card}}, base_dir=MOUTHS)
    settings = LayoutSettings.from_theme(theme)
    cards = deck_cards(theme.symbols, 3)
    layouts = layout_deck(cards, settings, seed=5)
    reach = settings.zone_shape().circumradius_mm
    worst = 0.0
    for syms, lay in zip(cards, layouts):
        layers = stamp_card(lay, syms, reach, PX_PER_MM)
        for k in range(len(layers)):
            if not syms[k].name.startswith(("ring", "horseshoe")):
                continue
            hull = hull_inside(layers[k])
            for j in range(len(layers)):
                if j == k:
                    continue
                where = f"card {lay.index}: {syms[j].name} in the mouth of {syms[k].name}"
                share = surrounded_share(np.argwhere(layers[j]).mean(axis=0), layers[k])
                worst = max(worst, share)
                assert share < SURROUNDED, where
                assert not (layers[j] & hull).any(), where
    assert worst > 0.25  # the rings and horseshoes did sit beside the others (a quarter turn)
