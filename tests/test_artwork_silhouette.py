"""Silhouettes: conservative (every inked pixel inside), right box, cached, clear errors."""

from __future__ import annotations

import dataclasses
import io

import numpy as np
import pytest
import resvg_py
import shapely
from PIL import Image, ImageDraw
from test_layout_support import AWKWARD

from printdeck.artwork import drawing, rasterise, silhouette
from printdeck.artwork.mask_polygons import mask_to_polygon
from printdeck.artwork.tracing import _cached, trace
from printdeck.errors import PrintdeckError
from printdeck.model import SymbolSpec
from printdeck.theme import load_theme


def _ink_centres_outside(sym: SymbolSpec, w: int, h: int, tol_px: float) -> int:
    """Inked pixels (alpha > 8) of an independent w x h render lying > tol_px outside the outline."""
    sil = silhouette(sym)
    if sym.kind == "svg":
        img = Image.open(io.BytesIO(bytes(resvg_py.svg_to_bytes(svg_path=str(sym.path), width=w, height=h))))
    else:
        img = rasterise(sym, w, h)
    alpha = np.asarray(img.convert("RGBA").getchannel("A"))
    rows, cols = np.nonzero(alpha > 8)
    x = (cols + 0.5) / h - sil.aspect / 2
    y = 0.5 - (rows + 0.5) / h
    grown = sil.outline.buffer(tol_px / h)
    return int((~shapely.contains_xy(grown, x, y)).sum())


@pytest.fixture(scope="module")
def symbols() -> list[SymbolSpec]:
    default = load_theme(None).symbols
    awkward = load_theme(str(AWKWARD)).symbols
    picks = [s for s in default if s.name in ("anchor", "spider", "bicycle", "snowflake", "crab")]
    picks += [s for s in awkward if s.name in ("ring 0", "bar 9", "diagonal 0", "crescent 4", "ell 2", "Mississippi")]
    picks.append(SymbolSpec(id=99, name="I", kind="text", source="text:I", text="I"))  # tall, thin word
    return picks


@pytest.mark.parametrize("scale", [1.0, 1.6])
def test_outline_contains_every_inked_pixel(symbols, scale) -> None:
    for sym in symbols:
        sil = silhouette(sym)
        h = int(256 * scale / np.sqrt(sil.aspect))
        w = max(1, round(h * sil.aspect))
        assert _ink_centres_outside(sym, w, h, tol_px=1.0) == 0, sym.name


def test_shape_inside_outline_and_area(symbols) -> None:
    """The traced shape holds the ink (area = inked pixels) and at most a few per cent more."""
    for sym in symbols:
        sil = silhouette(sym)
        assert sil.outline.contains(sil.shape)
        assert sil.area <= sil.shape.area * (1 + 1e-9) <= sil.area * 1.05, sym.name
        assert 0 < sil.area <= sil.aspect * (1 + 1e-9)
        assert sil.radius == pytest.approx(np.hypot(*sil.vertices.T).max())


def test_contours_contain_every_inked_pixel_whole(symbols) -> None:
    """The contour tracing (OpenCV) covers the exact union of the inked pixels, drawn
    independently here as one box a pixel, for real artwork and for checkerboards,
    one-pixel holes and diagonal chains, where a contour cuts corners."""
    rng = np.random.default_rng(29)
    masks = [rng.random((40, 50)) < p for p in (0.2, 0.5, 0.8)]
    masks.append(np.indices((30, 30)).sum(axis=0) % 2 == 0)  # checkerboard: pixels touch at corners only
    ring = np.ones((9, 9), dtype=bool)
    ring[4, 4] = False  # a one-pixel hole
    masks.append(ring)
    for sym in symbols:
        sil_alpha = np.asarray(rasterise(sym, 120, max(8, round(120 / silhouette(sym).aspect))).getchannel("A"))
        masks.append(sil_alpha > 8)
    for mask in masks:
        traced = mask_to_polygon(mask, 0.0)
        rows, cols = np.nonzero(mask)
        pixels = shapely.union_all(shapely.box(cols, rows, cols + 1, rows + 1))
        assert traced.is_valid
        assert pixels.difference(traced).area < 1e-9
        assert traced.difference(pixels.buffer(1.0)).area < 1e-9  # never a pixel beyond the ink


def test_inscribed_disc_lies_inside_the_outline(symbols) -> None:
    for sym in symbols:
        sil = silhouette(sym)
        centre, r = sil.inscribed
        assert r > 0, sym.name
        disc = shapely.Point(centre.real, centre.imag).buffer(r * 0.999, quad_segs=32)
        assert sil.outline.contains(disc), sym.name
        # as big as GEOS finds: no vertex-free bigger disc around the centre fits
        assert not sil.outline.contains(shapely.Point(centre.real, centre.imag).buffer(r * 1.01)), sym.name


def test_ring_is_filled_unless_symbols_may_nest_and_bar_keeps_its_aspect() -> None:
    by_name = {s.name: s for s in load_theme(str(AWKWARD)).symbols}
    ring = silhouette(by_name["ring 0"])
    assert ring.outline.contains(shapely.Point(0, 0))  # no symbol is placed inside a ring
    nesting = silhouette(dataclasses.replace(by_name["ring 0"], nest=True))
    assert not nesting.outline.contains(shapely.Point(0, 0))  # layout.nest: true keeps the hole open
    assert nesting.area == ring.area  # the ink is the same
    bar = silhouette(by_name["bar 9"])
    assert bar.aspect == pytest.approx(7.5)


def test_text_box_is_the_word_ink_extent() -> None:
    word = SymbolSpec(id=0, name="wide", kind="text", source="text:Mississippi", text="Mississippi")
    art = drawing(word)
    _, y0, _, y1 = art.word.ink_em
    assert art.aspect > 4 and y0 < 0 < y1  # descender below the baseline
    alpha = np.asarray(rasterise(word, 400, round(400 / art.aspect)).getchannel("A"))
    assert alpha[:, 0].max() > 0 and alpha[:, -1].max() > 0 and alpha[0].max() > 0 and alpha[-1].max() > 0


def test_raster_alpha_and_photo_crop(tmp_path) -> None:
    img = Image.new("RGBA", (200, 100), (0, 0, 0, 0))
    ImageDraw.Draw(img).rectangle((20, 30, 79, 69), fill=(200, 0, 0, 255))
    (tmp_path / "r.png").write_bytes(b"")
    img.save(tmp_path / "r.png")
    raster = silhouette(SymbolSpec(id=0, name="r", kind="raster", source="r.png", path=tmp_path / "r.png"))
    assert raster.aspect == pytest.approx(2.0)
    assert raster.area == pytest.approx(0.6 * 0.4, rel=0.08)  # resampling blur counts as ink (conservative)
    photo_img = Image.new("RGB", (120, 120), (10, 120, 200))
    photo_img.save(tmp_path / "p.jpg")
    photo = silhouette(
        SymbolSpec(id=1, name="p", kind="photo", source="p.jpg", path=tmp_path / "p.jpg", photo_shape="circle")
    )
    assert photo.area == pytest.approx(np.pi / 4, rel=0.03)


def test_transparent_and_missing_artwork_refused(tmp_path) -> None:
    Image.new("RGBA", (50, 50), (0, 0, 0, 0)).save(tmp_path / "blank.png")
    blank = SymbolSpec(id=0, name="blank", kind="raster", source="blank.png", path=tmp_path / "blank.png")
    with pytest.raises(PrintdeckError, match=r"blank.*transparent"):
        trace(blank)
    gone = SymbolSpec(id=0, name="gone", kind="svg", source="gone.svg", path=tmp_path / "gone.svg")
    with pytest.raises(PrintdeckError, match=r"gone.*not found"):
        silhouette(gone)


def test_disk_cache_round_trip(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("PRINTDECK_CACHE_DIR", str(tmp_path))
    sym = load_theme(str(AWKWARD)).symbols[0]
    _cached.cache_clear()
    first = silhouette(sym)
    files = list((tmp_path / "silhouettes").glob("*.sil"))
    assert len(files) == 1
    _cached.cache_clear()
    again = silhouette(sym)
    assert again.area == first.area and again.outline.equals(first.outline)
    assert silhouette(sym) is again  # in-memory cache
