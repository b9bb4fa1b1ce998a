"""The look-alike check's block-colour prefilter (issue 29) tells pictures apart without
letting look-alikes through: two near-identical photos are still refused, two distinct ones
are not, and the verdicts equal the per-pixel comparison's on the bundled artwork."""

from __future__ import annotations

import dataclasses
import io
from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from test_theme_support import write_theme

import printdeck.artwork.lookalike as lookalike
from printdeck.resources import data_root
from printdeck.theme import load_theme, look_alikes
from printdeck.theme.look_alikes import _look, turn_limit_deg


def _photo(seed: int) -> Image.Image:
    """A photo-like picture: smooth colour fields and sensor noise, 600 x 600."""
    rng = np.random.default_rng(seed)
    field = rng.uniform(0, 255, (6, 6, 3)).astype(np.uint8)
    smooth = np.asarray(Image.fromarray(field).resize((600, 600), Image.Resampling.BICUBIC), dtype=np.int16)
    noise = rng.normal(0, 4, smooth.shape).astype(np.int16)
    return Image.fromarray(np.clip(smooth + noise, 0, 255).astype(np.uint8))


def _theme(folder: Path) -> Path:
    pics = folder / "pics"
    pics.mkdir(parents=True)
    first = _photo(1)
    first.save(pics / "a-first.jpg", quality=92)
    data = io.BytesIO()  # the same picture saved again smaller and recompressed: a near-identical copy
    first.resize((540, 540), Image.Resampling.LANCZOS).save(data, "JPEG", quality=80)
    (pics / "b-copy.jpg").write_bytes(data.getvalue())
    for k, seed in enumerate((2, 3, 4, 5, 6)):
        _photo(seed).save(pics / f"c-other-{k}.jpg", quality=92)
    theme = {
        "name": "prefilter",
        "deck": {"order": 2},
        "symbols": [{"image": f"pics/{p.name}"} for p in sorted(pics.iterdir())],
    }
    return write_theme(folder, theme)


def _pairs(theme: object) -> set[tuple[str, str]]:
    return {tuple(sorted((p.first, p.second))) for p in look_alikes(theme)}  # type: ignore[arg-type]


def test_near_identical_pictures_are_refused_distinct_ones_are_not(tmp_path: Path) -> None:
    theme = load_theme(_theme(tmp_path))
    assert _pairs(theme) == {("a first", "b copy")}


def test_prefilter_tells_distinct_pictures_apart_before_the_pixels(tmp_path: Path) -> None:
    theme = load_theme(_theme(tmp_path))
    looks = [_look(s, 0.0) for s in theme.symbols]
    first, others = looks[0], looks[2:]
    coarse = []
    for other in others:
        lab_a, lab_b = first.lab(0, 0, lookalike.Vision.NORMAL), other.lab(0, 0, lookalike.Vision.NORMAL)
        shared = (lab_a[3] >= 0.5) & (lab_b[3] >= 0.5)
        coarse.append(float(np.quantile(lookalike.ciede2000(lab_a[2][shared], lab_b[2][shared]), 0.75)))
    assert min(coarse) >= lookalike.COLOUR_PREFILTER * lookalike.DELTA_E_ALIKE  # all told apart by blocks


def test_prefilter_keeps_the_verdicts_of_the_bundled_artwork(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every pair of the first 60 Twemoji gets the same verdict (as printed and in grey) with
    and without the prefilter, which spares most pairs with the same silhouette their
    per-pixel comparison."""
    svgs = sorted((data_root("assets") / "twemoji").glob("*.svg"))[:60]
    symbols = [{"image": f"@assets/twemoji/{p.name}"} for p in svgs]
    theme = load_theme(write_theme(tmp_path, {"name": "sixty", "symbols": symbols}))
    visions = (lookalike.Vision.NORMAL, lookalike.Vision.GREY)
    looks = [
        dataclasses.replace(_look(s, turn_limit_deg(theme, s)), label=s.name, group=g)
        for g, s in enumerate(theme.symbols)
    ]
    compared: list[int] = []
    real = lookalike.ciede2000

    def counted(lab1: np.ndarray, lab2: np.ndarray) -> np.ndarray:
        compared.append(len(lab1))
        return real(lab1, lab2)

    monkeypatch.setattr(lookalike, "ciede2000", counted)
    with_prefilter = lookalike.find_look_alikes(looks, visions)
    pixels_with = sum(n for n in compared if n > 256)
    monkeypatch.setattr(lookalike, "COLOUR_PREFILTER", float("inf"))
    compared.clear()
    without = lookalike.find_look_alikes(looks, visions)
    pixels_without = sum(n for n in compared if n > 256)
    assert [(p.groups, p.vision, p.first, p.second) for p in with_prefilter] == [
        (p.groups, p.vision, p.first, p.second) for p in without
    ]
    assert pixels_with < pixels_without / 2
