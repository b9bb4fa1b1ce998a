"""Independent checks of laid-out cards: stamp the artwork at the recorded transforms.

Each symbol is rasterised at 8 px/mm with resvg / Pillow (not with the engine's code),
rotated and pasted at its Placement; no pixel may hold two symbols' ink, no ink may
leave the safe disc (1 px antialias tolerance), ink of two symbols must stay more
than half the gap apart, no symbol may lie inside another's holes (a ring, an outline
icon: the stamped ink with its holes filled), and the recorded coverage must match the
stamped ink.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from PIL import Image, ImageFilter
from scipy import ndimage
from test_layout_support import AWKWARD, deck_cards, pixel_radius_mm, stamp_card

from printdeck.layout import LayoutSettings, layout_deck
from printdeck.theme import load_theme

PX_PER_MM = 8.0


def _cards(ref: object, picks: list[int]) -> tuple[list, list, LayoutSettings]:
    theme = load_theme(ref)  # type: ignore[arg-type]
    settings = LayoutSettings.from_theme(theme)
    cards = [deck_cards(theme.symbols, 7)[i] for i in picks]
    return cards, layout_deck(cards, settings, seed=11), settings


def _check(cards: list, layouts: list, settings: LayoutSettings) -> None:
    for syms, lay in zip(cards, layouts):
        layers = stamp_card(lay, syms, settings.safe_radius_mm, PX_PER_MM)
        count = layers.sum(axis=0)
        assert count.max() <= 1, f"card {lay.index}: two symbols' ink on one pixel"
        outside = pixel_radius_mm(count.shape[0], PX_PER_MM) > settings.safe_radius_mm + 1.0 / PX_PER_MM
        assert not (count.astype(bool) & outside).any(), f"card {lay.index}: ink outside the safe disc"
        half_gap_px = int(settings.gap_mm * PX_PER_MM / 2)  # square dilation: reach <= half gap * sqrt(2) < gap
        for k in range(len(layers)):
            grown = Image.fromarray(layers[k].astype(np.uint8) * 255).filter(ImageFilter.MaxFilter(2 * half_gap_px - 1))
            others = count.astype(bool) & ~layers[k]
            assert not (np.asarray(grown) > 0)[others].any(), f"card {lay.index}: symbol {k} within half a gap"
        for k in range(len(layers)):
            inside = ndimage.binary_fill_holes(layers[k]) & ~layers[k]
            others = count.astype(bool) & ~layers[k]
            assert (inside & others).sum() <= 2, f"card {lay.index}: a symbol sits inside symbol {k}'s hole"
        ink_mm2 = count.sum() / PX_PER_MM**2
        stamped = ink_mm2 / (math.pi * settings.safe_radius_mm**2)
        assert stamped == pytest.approx(lay.coverage, abs=0.03)


def test_default_theme_cards_stamp_clean() -> None:
    cards, layouts, settings = _cards(None, [0, 9, 56])
    _check(cards, layouts, settings)


def test_awkward_theme_cards_stamp_clean() -> None:
    # card 56 is the line at infinity: seven wide words and a ring
    cards, layouts, settings = _cards(str(AWKWARD), [3, 30, 56])
    _check(cards, layouts, settings)


ICONS = str(AWKWARD.parent.parent / "icons" / "theme.yaml")


@pytest.mark.parametrize(
    "ref, picks",
    [("junior", [0, 17]), ("double", [0, 20]), ("languages", [0, 30]), ("words", [4]), (ICONS, [0, 5, 12])],
)
def test_bundled_themes_stamp_clean(ref: str, picks: list[int]) -> None:
    theme = load_theme(ref)
    settings = LayoutSettings.from_theme(theme)
    from printdeck.assign import deck_symbols
    from printdeck.deck_plan import deck_design

    design = deck_design(theme)
    symbols = deck_symbols(theme, design, theme.spec.seed)
    cards = [[symbols[p] for p in design.blocks[i]] for i in picks]
    _check(cards, layout_deck(cards, settings, seed=theme.spec.seed), settings)


def test_stamp_check_catches_a_symbol_inside_a_ring() -> None:
    import dataclasses

    from printdeck.model import CardLayout, Placement

    symbols = {s.name: s for s in load_theme(str(AWKWARD)).symbols}
    ring, dot = symbols["ring 0"], next(s for s in symbols.values() if s.kind == "svg" and s.name != "ring 0")
    layout = CardLayout(
        0,
        (Placement(ring.id, (0.0, 0.0), 0.0, (60.0, 60.0)), Placement(dot.id, (0.0, 0.0), 0.0, (6.0, 6.0))),
        0.3,
        1.0,
        0.1,
    )
    settings = dataclasses.replace(LayoutSettings.from_theme(load_theme(str(AWKWARD))), gap_mm=0.25)
    with pytest.raises(AssertionError, match="inside symbol 0's hole"):
        _check([[ring, dot]], [layout], settings)


def test_stamp_check_catches_overlap_and_clipping() -> None:
    import dataclasses

    cards, layouts, settings = _cards(None, [5])
    lay = layouts[0]
    moved = list(lay.placements)
    moved[1] = dataclasses.replace(moved[1], center_mm=moved[0].center_mm)
    with pytest.raises(AssertionError, match="two symbols"):
        _check(cards, [dataclasses.replace(lay, placements=tuple(moved))], settings)
    edge = list(lay.placements)
    edge[0] = dataclasses.replace(edge[0], center_mm=(settings.safe_radius_mm, 0.0))
    with pytest.raises(AssertionError):
        _check(cards, [dataclasses.replace(lay, placements=tuple(edge))], settings)
