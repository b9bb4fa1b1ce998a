"""A symbol in several parts is one symbol: nothing is packed between its parts.

A teacher's clip art, a picture with its word under it, printed with other symbols between
the picture and its word, and a child named the word under the wrong picture. Checked
independently of the engine: each card's symbols are stamped apart (resvg, as in
tests/test_layout_stamp.py), and the straight line between the two parts of each
two-part symbol (a disc above a bar, its "label") must cross no other symbol's ink.
Also: an SVG of the theme's own that holds text keeps near upright, as a word does.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest
import shapely
import yaml
from test_layout_support import stamp_card

import printdeck
from printdeck.artwork import silhouette
from printdeck.artwork.part_bridges import joined_parts
from printdeck.model import SymbolSpec
from printdeck.theme import load_theme

COLOURS = ["#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#17becf", "#8c564b"]
PX_PER_MM = 6.0


def _labelled(index: int, colour: str) -> str:
    """A disc above a bar, the bar a "label" of its own width, well apart (as clip art with
    its word under it)."""
    r = 22 + 6 * index
    width = 60 + 10 * (index % 3)
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="200" viewBox="0 0 200 200">'
        f'<circle cx="100" cy="70" r="{r}" fill="{colour}"/>'
        f'<rect x="{100 - width // 2}" y="160" width="{width}" height="22" fill="#222222"/></svg>'
    )


def _theme(folder: Path, seed: int) -> Path:
    (folder / "images").mkdir(parents=True, exist_ok=True)
    for k, colour in enumerate(COLOURS):
        (folder / "images" / f"n{k}.svg").write_text(_labelled(k, colour), encoding="utf-8")
    theme = {"name": "labels", "seed": seed, "deck": {"symbols_per_card": 3}, "symbols": [{"folder": "images"}]}
    path = folder / "theme.yaml"
    path.write_text(yaml.safe_dump(theme), encoding="utf-8")
    return path


def test_joined_parts_bridges_the_facing_regions_of_each_pair_of_parts() -> None:
    disc = shapely.Point(0.0, 0.2).buffer(0.2)
    bar = shapely.box(-0.15, -0.45, 0.15, -0.35)
    joined = joined_parts(shapely.union(disc, bar))
    assert joined.geom_type == "Polygon"  # one part
    assert joined.contains(shapely.Point(0.0, -0.2))  # the gap between them, bridged
    assert not joined.contains(shapely.Point(0.3, -0.3))  # not the whole convex hull: beside the bar stays free
    assert joined_parts(disc).equals(disc)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_no_symbol_is_packed_between_a_pictures_parts(tmp_path: Path, seed: int) -> None:
    plan = printdeck.plan(_theme(tmp_path, seed))
    layouts = printdeck.lay_out(plan)
    radius = plan.theme.spec.card.outline().min_side_mm / 2.0
    for layout in layouts:
        placed = [plan.symbols[p.symbol_id] for p in layout.placements]
        layers = stamp_card(layout, placed, radius, PX_PER_MM)
        for k, layer in enumerate(layers):
            count, _, stats, centres = cv2.connectedComponentsWithStats(layer.astype(np.uint8), connectivity=8)
            parts = np.argsort(-stats[1:, cv2.CC_STAT_AREA])[:2] + 1  # the disc and the bar
            assert count - 1 >= 2, f"card {layout.index + 1}: symbol {k} not in two parts"
            (x0, y0), (x1, y1) = centres[parts[0]], centres[parts[1]]
            steps = int(np.hypot(x1 - x0, y1 - y0)) * 2
            xs = np.round(np.linspace(x0, x1, steps)).astype(int)
            ys = np.round(np.linspace(y0, y1, steps)).astype(int)
            others = np.delete(layers, k, axis=0).any(axis=0)
            assert not others[ys, xs].any(), f"card {layout.index + 1}: a symbol between the parts of symbol {k}"


def test_the_silhouette_of_a_two_part_picture_is_one_part(tmp_path: Path) -> None:
    _theme(tmp_path, 1)
    symbol = SymbolSpec(0, "n0", "svg", "images/n0.svg", tmp_path / "images" / "n0.svg")
    assert silhouette(symbol).outline.geom_type == "Polygon"


def test_a_labelled_svg_keeps_near_upright_as_a_word_does(tmp_path: Path) -> None:
    """A picture with its word in it printed "sop" for "dos": a theme of the teacher's own
    SVGs holding text keeps its symbols within 30 degrees of upright unless it says."""
    path = _theme(tmp_path, 1)
    assert load_theme(path).spec.layout.rotation == "any"  # shapes only: any turn
    labelled = _labelled(0, "#d62728").replace("</svg>", '<text x="100" y="150">uno</text></svg>')
    (tmp_path / "images" / "n0.svg").write_text(labelled, encoding="utf-8")
    assert load_theme(path).spec.layout.rotation == 30.0
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    path.write_text(yaml.safe_dump({**data, "layout": {"rotation": "any"}}), encoding="utf-8")
    assert load_theme(path).spec.layout.rotation == "any"  # the theme's own word wins
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    for leftover in (
        '<text x="9" y="9"> </text>',
        '<text style="display:none">uno</text>',
        '<text visibility="hidden">x</text>',
    ):
        (tmp_path / "images" / "n0.svg").write_text(_labelled(0, "#d62728").replace("</svg>", leftover + "</svg>"))
        assert load_theme(path).spec.layout.rotation == "any", leftover  # an editor's empty or hidden text
