"""Words side by side stand further apart than the spaces inside them: "5 × 6" beside "42"
must not read as "5 × 6 42". Checked on the printed cards' pixels, and on the silhouette
that the packer keeps apart."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import numpy as np
import pytest
import shapely
import yaml
from PIL import Image

import printdeck
from printdeck.artwork import WORD_SPACE_EM, drawing, silhouette
from printdeck.artwork.drawing import WORD_APART_EM
from printdeck.artwork.tracing import padded, widest_space
from printdeck.model import SymbolSpec
from printdeck.theme import load_theme

WORDS = ["5 × 6", "42", "56", "49", "7 × 8", "3 × 4", "12", "8 × 9", "72", "6 × 7", "36", "4 × 9", "24"]
DPI = 150


def test_widest_space_counts_the_empty_columns_between_ink() -> None:
    mask = np.zeros((4, 20), dtype=bool)
    mask[1:3, 2:5] = True  # ink, 7 empty columns, ink, 3 empty columns, ink
    mask[:, 12:14] = True
    mask[0, 17] = True
    assert widest_space(mask) == 7
    assert widest_space(mask[:, :6]) == 0  # one run of ink: no space inside
    assert widest_space(np.zeros((3, 3), dtype=bool)) == 0


def test_padded_grows_along_x_more_than_across() -> None:
    square = shapely.box(-1.0, -1.0, 1.0, 1.0)
    x0, y0, x1, y1 = padded(square, 0.1, 0.3).bounds
    assert (x0, x1) == pytest.approx((-1.4, 1.4))
    assert (y0, y1) == pytest.approx((-1.1, 1.1))
    assert padded(square, 0.1).bounds == pytest.approx((-1.1, -1.1, 1.1, 1.1))
    with pytest.raises(ValueError, match="across"):
        padded(square, 0.0, 0.3)


THEME = {
    "name": "apart",
    "seed": 3,
    "deck": {"order": 3},
    "card": {"diameter": "70mm"},
    "layout": {"rotation": 0},
    "symbols": [{"text": w} for w in WORDS],
}


@pytest.fixture(scope="module")
def theme_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("apart") / "apart.yaml"
    path.write_text(yaml.safe_dump(THEME, allow_unicode=True), encoding="utf-8")
    return path


def _x_room(symbol: SymbolSpec) -> tuple[float, float]:
    """How far (em) a word's collision outline reaches beyond its ink along x and along y."""
    sil = silhouette(symbol)
    em = 1.0 / drawing(symbol).size[1]  # box units
    ix0, iy0, ix1, iy1 = sil.shape.bounds
    ox0, oy0, ox1, oy1 = sil.outline.bounds
    return min(ix0 - ox0, ox1 - ix1) / em, min(iy0 - oy0, oy1 - iy1) / em


def test_a_words_outline_keeps_more_room_at_its_ends_than_above_it(theme_path: Path) -> None:
    by_name = {s.name: s for s in load_theme(theme_path).symbols}
    plain, spaced = _x_room(by_name["42"]), _x_room(by_name["5 × 6"])
    assert plain[0] >= (WORD_SPACE_EM + WORD_APART_EM) / 2 * 0.98
    assert plain[1] == pytest.approx(WORD_SPACE_EM / 2, abs=0.03)
    assert spaced[0] > plain[0] + 0.15  # half of the space and the × glyph's side bearings on top
    assert spaced[1] == pytest.approx(WORD_SPACE_EM / 2, abs=0.03)


def _ink(rgb: np.ndarray, colour: str) -> np.ndarray:
    """Pixels of ``rgb`` ``(H, W, 3)`` near ``colour`` ("#rrggbb"): one word's ink."""
    want = np.array([int(colour[i : i + 2], 16) for i in (1, 3, 5)])
    return np.abs(rgb - want).max(axis=2) <= 40


def _extent(mask: np.ndarray) -> tuple[int, int, int, int]:
    rows, cols = np.nonzero(mask)
    return int(cols.min()), int(rows.min()), int(cols.max()), int(rows.max())


def test_words_on_one_line_stand_further_apart_than_their_own_spaces(theme_path: Path, tmp_path: Path) -> None:
    result = printdeck.build(theme_path, out=tmp_path / "apart.pdf", png_dir=tmp_path / "png", dpi=DPI)
    manifest = json.loads(result.manifest_path.read_text(encoding="utf-8"))
    by_name = {s.name: s for s in load_theme(theme_path).symbols}
    names = {s["id"]: s["name"] for s in manifest["symbols"]}
    px_per_mm = DPI / 25.4
    side_by_side = 0
    for card, png in zip(manifest["cards"], sorted((tmp_path / "png").glob("card-*.png"))):
        rgb = np.asarray(Image.open(png).convert("RGB")).astype(int)
        words = []
        for place in card["symbols"]:
            mask = _ink(rgb, place["color"])
            em_mm = place["box_mm"][1] / drawing(by_name[names[place["id"]]]).size[1]
            words.append((names[place["id"]], _extent(mask), widest_space(mask), em_mm * px_per_mm))
        for (a, ea, sa, ema), (b, eb, sb, emb) in itertools.combinations(words, 2):
            overlap = min(ea[3], eb[3]) - max(ea[1], eb[1])
            gap = max(eb[0] - ea[2], ea[0] - eb[2]) - 1  # empty columns between the two inks
            if overlap < 0.5 * min(ea[3] - ea[1], eb[3] - eb[1]) or gap <= 0:
                continue  # not on one line
            side_by_side += 1
            where = f"{png.name}: {a!r} beside {b!r}: {gap} px"
            assert gap >= 1.25 * max(sa, sb), f"{where}, spaces inside {sa} and {sb} px"
            assert gap >= 0.95 * (WORD_SPACE_EM + WORD_APART_EM) * min(ema, emb), where
    assert side_by_side >= 3  # the check saw words on one line
