"""Word colours: the words of a card never share a colour while the palette has enough,
the default palette stays distinct for colour-vision deficiencies, and words keep a word
space between them."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import numpy as np
import pytest
import shapely
from shapely import affinity

from printdeck.artwork import WORD_SPACE_EM, drawing, silhouette
from printdeck.assign import card_word_colours, colour_words
from printdeck.model import CardLayout, Placement, SymbolSpec
from printdeck.pipeline import BuildOptions, build
from printdeck.theme import WORD_PALETTE, load_theme

# Machado, Oliveira and Fernandes (2009), "A physiologically-based model for simulation of
# color vision deficiency", severity 1.0, in linear RGB.
CVD = {
    "protanopia": [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216], [-0.003882, -0.048116, 1.051998]],
    "deuteranopia": [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413], [-0.011820, 0.042940, 0.968881]],
    "tritanopia": [[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602], [0.004733, 0.691367, 0.303900]],
    "normal": [[1, 0, 0], [0, 1, 0], [0, 0, 1]],
}
MIN_DELTA_E = 12.0  # CIE76 distance two word colours keep under every vision above


def _lab(hex_colour: str, matrix: list[list[float]]) -> np.ndarray:
    srgb = np.array([int(hex_colour[i : i + 2], 16) for i in (1, 3, 5)]) / 255.0
    linear = np.where(srgb <= 0.04045, srgb / 12.92, ((srgb + 0.055) / 1.055) ** 2.4)
    linear = np.clip(np.asarray(matrix) @ linear, 0.0, 1.0)
    xyz = np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]]) @ linear
    t = xyz / np.array([0.95047, 1.0, 1.08883])
    f = np.where(t > 0.008856, np.cbrt(t), 7.787 * t + 16 / 116)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


@pytest.mark.parametrize("vision", sorted(CVD))
def test_default_palette_is_distinct_for_every_vision(vision: str) -> None:
    assert len(WORD_PALETTE) >= 8
    labs = [_lab(c, CVD[vision]) for c in WORD_PALETTE]
    closest = min(float(np.linalg.norm(a - b)) for a, b in itertools.combinations(labs, 2))
    assert closest >= MIN_DELTA_E, f"{vision}: two colours only {closest:.1f} apart"
    assert all(_lab(c, CVD["normal"])[0] < 80 for c in WORD_PALETTE)  # none too pale for words on white


def _word(i: int, colour: str, fixed: bool = False) -> SymbolSpec:
    return SymbolSpec(
        id=i, name=f"w{i}", kind="text", source=f"text:w{i}", text=f"w{i}", color=colour, color_fixed=fixed
    )


def test_a_card_gets_distinct_colours_keeping_home_colours_where_it_can() -> None:
    palette = ["#111111", "#222222", "#333333", "#444444"]
    words = [_word(0, "#111111"), _word(1, "#111111"), _word(2, "#333333")]
    colours = card_word_colours(words, palette)
    assert len(set(colours)) == 3
    assert colours[2] == "#333333" and "#111111" in colours[:2]  # only one of the two clashing words moves


def test_more_words_than_colours_repeat_as_little_as_possible() -> None:
    palette = ["#111111", "#222222", "#333333"]
    colours = card_word_colours([_word(i, palette[0]) for i in range(7)], palette)
    counts = sorted(colours.count(c) for c in palette)
    assert counts == [2, 2, 3]


def test_a_fixed_colour_is_kept_and_avoided_by_the_others() -> None:
    palette = ["#111111", "#222222"]
    symbols = [_word(0, "#111111", fixed=True), _word(1, "#111111"), _word(2, "#aa0000", fixed=True)]
    card = CardLayout(
        index=0,
        placements=tuple(Placement(s.id, (0.0, 0.0), 0.0, (1.0, 1.0)) for s in symbols),
        coverage=0.5,
        min_gap_mm=1.0,
        size_ratio=0.5,
    )
    (out,) = colour_words([card], symbols, palette)
    assert [p.color for p in out.placements] == ["#111111", "#222222", "#aa0000"]


@pytest.mark.parametrize("theme_name", ["words", "languages"])
def test_bundled_word_decks_give_each_card_distinct_colours(theme_name: str, tmp_path: Path) -> None:
    out = tmp_path / f"{theme_name}.pdf"
    build(theme_name, out, BuildOptions())
    manifest = json.loads(out.with_suffix(".json").read_text(encoding="utf-8"))
    for card in manifest["cards"]:
        colours = [s["color"] for s in card["symbols"]]
        assert len(colours) == len(set(colours)), f"card {card['index']}: {colours}"
    _assert_word_spaces(load_theme(theme_name).symbols, manifest)


def _placed(symbol: SymbolSpec, place: dict) -> shapely.Geometry:
    """The word's traced ink placed on the card (mm)."""
    h = place["box_mm"][1]
    ink = affinity.scale(silhouette(symbol).shape, h, h, origin=(0, 0))
    ink = affinity.rotate(ink, place["rotation_deg"], origin=(0, 0))
    return affinity.translate(ink, *place["center_mm"])


def _assert_word_spaces(symbols: tuple[SymbolSpec, ...], manifest: dict) -> None:
    """Two words on a card stand at least a word space (¼ em of the smaller) apart."""
    table = {s["id"]: s["name"] for s in manifest["symbols"]}
    by_name = {s.name: s for s in symbols}
    for card in manifest["cards"]:
        placed = [(by_name[table[p["id"]]], p) for p in card["symbols"]]
        for (a, pa), (b, pb) in itertools.combinations(placed, 2):
            em_mm = min(p["box_mm"][1] / drawing(s).size[1] for s, p in ((a, pa), (b, pb)))
            gap = shapely.distance(_placed(a, pa), _placed(b, pb))
            assert gap >= WORD_SPACE_EM * em_mm * 0.97, f"card {card['index']}: {a.name} - {b.name} {gap:.2f} mm"
