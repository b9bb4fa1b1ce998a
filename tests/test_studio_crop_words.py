"""What the studio says of a photo's crop after a click: a wide photo clicked near its
bottom at its widest crop cannot centre there (the crop is as tall as the photo); it said
"Cropped where you clicked" while the ring stayed put. Worked out by the artwork's own crop."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PIL import Image

import printdeck
from printdeck.studio.crops import crop_view, upright_size


def _photo_symbol(tmp_path: Path, focus: list[float], zoom: float = 1.0) -> printdeck.SymbolSpec:
    rng = np.random.default_rng(3)
    Image.fromarray(rng.integers(0, 255, (300, 600, 3), dtype=np.uint8)).save(tmp_path / "wide.jpg", quality=90)
    words = [{"text": w} for w in ("sun", "moon", "star", "tree", "fish", "bird")]
    theme = {"deck": {"symbols_per_card": 3}, "symbols": [{"photo": "wide.jpg", "focus": focus, "zoom": zoom}, *words]}
    return printdeck.load_theme(theme, base_dir=tmp_path).symbols[0]


def test_a_click_the_photos_edge_keeps_from_centring_says_so(tmp_path: Path) -> None:
    symbol = _photo_symbol(tmp_path, [0.4, 0.8])
    view = crop_view(printdeck.photo_crop(symbol), upright_size(tmp_path / "wide.jpg"), symbol.focus)
    assert view["box"][1] == 0.0 and view["box"][3] == 1.0  # as tall as the photo: it cannot move down
    assert view["title"] == (
        "Cropped as near where you put its centre as the photo's edge allows; zoom in to centre it there"
    )
    symbol = _photo_symbol(tmp_path, [0.4, 0.5])  # on the crop's own centre line: it centres there
    view = crop_view(printdeck.photo_crop(symbol), upright_size(tmp_path / "wide.jpg"), symbol.focus)
    assert view["title"] == "Cropped where you put its centre"  # by a click or the arrow keys
    symbol = _photo_symbol(tmp_path, [0.4, 0.7], zoom=2.5)  # zoomed in: room to centre it
    view = crop_view(printdeck.photo_crop(symbol), upright_size(tmp_path / "wide.jpg"), symbol.focus)
    assert view["title"] == "Cropped where you put its centre"  # by a click or the arrow keys
