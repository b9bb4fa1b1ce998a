"""A cold photo deck's per-photo work on worker processes (printdeck/photo_work.py) and the
decodes one photo's work shares (printdeck.artwork.shared_decodes)."""

from __future__ import annotations

import json
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from test_prepare import _only_this_tests_threads  # noqa: F401 - autouse: threads left by earlier tests
from test_speed_caches import cache

import printdeck.artwork.decode as decode
import printdeck.artwork.picture as picture
import printdeck.render.proof as proof
from printdeck.artwork import Crop, crop_square, shared_decodes, upright_file
from printdeck.artwork.drawing import _drawing
from printdeck.artwork.faces import find_faces
from printdeck.artwork.tracing import _cached
from printdeck.photo_work import photos_to_prepare, prepare_photos
from printdeck.pipeline import BuildOptions, build
from printdeck.theme import images, load_theme

__all__ = ["cache"]  # the disk-cache fixture of test_speed_caches
N_PHOTOS = 13  # order 3: 13 symbols, more than the layout's serial minimum (8)


def _forget() -> None:
    """What a new process would not remember."""
    images._RASTER_CHECKS.clear()
    _drawing.cache_clear()
    _cached.cache_clear()
    proof._cached_proof.cache_clear()
    picture.forget_masters()
    sys.modules["printdeck.artwork.drawing"]._KNOWN_REPORTS.clear()  # type: ignore[attr-defined]


def _photo_theme(folder: Path) -> Path:
    """13 small photos (a bright disc off-centre on a gradient, one stored sideways)."""
    rng = np.random.default_rng(29)
    (folder / "photos").mkdir()
    ys, xs = np.mgrid[0:300, 0:400]
    for i in range(N_PHOTOS):
        base = rng.uniform(40, 160, 3)[None, None, :] * (0.7 + 0.3 * xs[..., None] / 400)
        cx, cy = rng.uniform(80, 320), rng.uniform(80, 220)
        disc = ((xs - cx) ** 2 + (ys - cy) ** 2 < 50**2)[..., None]
        pixels = np.where(disc, rng.uniform(180, 255, 3)[None, None, :], base) + rng.normal(0, 5, (300, 400, 3))
        image = Image.fromarray(np.clip(pixels, 0, 255).astype(np.uint8))
        exif = Image.Exif()
        if i == 4:
            exif[0x0112] = 6  # shown turned a quarter
        image.save(folder / "photos" / f"p{i:02d}.jpg", quality=90, exif=exif)
    theme = folder / "theme.yaml"
    theme.write_text(
        "name: photos\ndeck: {symbols_per_card: 4, allow_look_alike: true}\nsymbols:\n  - photo: photos\n",
        encoding="utf-8",
    )
    return theme


def test_workers_make_the_same_deck_as_one_process(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A cold build whose photos are worked on by two worker processes writes the same PDF
    bytes and the same crops as a build in one process (``PRINTDECK_JOBS=1``) and as one
    with every cache off (where nothing runs on workers)."""
    theme = _photo_theme(tmp_path)
    outputs = {}
    for name, env in (("serial", {"PRINTDECK_JOBS": "1"}), ("pool", {"PRINTDECK_JOBS": "2"}), ("off", {})):
        _forget()
        monkeypatch.setenv("PRINTDECK_CACHE_DIR", str(tmp_path / f"cache-{name}"))
        monkeypatch.delenv("PRINTDECK_NO_CACHE", raising=False)
        monkeypatch.delenv("PRINTDECK_JOBS", raising=False)
        for key, value in env.items():
            monkeypatch.setenv(key, value)
        if name == "off":
            monkeypatch.setenv("PRINTDECK_NO_CACHE", "1")
        build(theme, tmp_path / f"{name}.pdf", BuildOptions(seed=5))
        manifest = json.loads((tmp_path / f"{name}.json").read_text(encoding="utf-8"))
        outputs[name] = ((tmp_path / f"{name}.pdf").read_bytes(), json.dumps(manifest["symbols"], sort_keys=True))
    assert outputs["pool"] == outputs["serial"] == outputs["off"]
    assert list((tmp_path / "cache-pool" / "crops").glob("*.json"))


def test_prepare_photos_fills_the_cache_for_the_stages(tmp_path: Path, cache: Path) -> None:
    """Every cold photo's crop, proof, silhouette, look and master are in the disk cache once
    :func:`prepare_photos` returns; then no photo is cold, and a second call does nothing.
    OpenCV has run on threads of this process first (as in the studio, or a build before):
    the forked workers must not hang on its thread pool."""
    theme = load_theme(_photo_theme(tmp_path))
    photos = list(theme.symbols)
    _forget()
    gray = np.random.default_rng(1).integers(0, 256, (400, 400, 3), dtype=np.uint8)
    with ThreadPoolExecutor(2) as pool:
        list(pool.map(find_faces, [gray] * 4))
    assert len(photos_to_prepare(photos)) == N_PHOTOS
    assert prepare_photos(photos, "#ffffff", jobs=2) == N_PHOTOS
    for folder in ("crops", "proofs", "silhouettes", "looks"):
        assert len(list((cache / folder).glob("*"))) == N_PHOTOS, folder
    assert len(list((cache / "pictures").glob("*.jpg"))) == N_PHOTOS  # the masters
    assert photos_to_prepare(photos) == []
    assert prepare_photos(photos, "#ffffff", jobs=2) == 0


def test_few_photos_or_one_job_run_here(tmp_path: Path, cache: Path) -> None:
    """With one job, or no more photos than the serial minimum, nothing runs on workers."""
    photos = list(load_theme(_photo_theme(tmp_path)).symbols)
    _forget()
    assert prepare_photos(photos, "#ffffff", jobs=1) == 0
    assert prepare_photos(photos[:8], "#ffffff", jobs=2) == 0
    assert not (cache / "crops").exists() or not list((cache / "crops").glob("*"))


def test_shared_decodes_decode_once_a_size_with_the_same_pixels(tmp_path: Path, monkeypatch) -> None:
    """Inside :func:`shared_decodes` a photo is decoded once for every use at one decoded
    size, and the pixels are the ones a fresh decode gives; outside, every use decodes."""
    _photo_theme(tmp_path)
    path = tmp_path / "photos" / "p04.jpg"
    alone = [np.asarray(upright_file(path, 80, "x")), np.asarray(upright_file(path, 90, "x"))]
    calls = []
    real = decode.open_raster

    def counted(*args: object, **kwargs: object) -> Image.Image:
        calls.append(kwargs.get("draft_px"))
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(decode, "open_raster", counted)
    with shared_decodes():
        inside = [np.asarray(upright_file(path, 80, "x")), np.asarray(upright_file(path, 90, "x"))]
    assert len(calls) == 1  # 160 and 180 pixels asked of a 400-pixel JPEG: both decode it at half size
    assert all(np.array_equal(a, b) for a, b in zip(alone, inside))
    upright_file(path, 100, "x")
    upright_file(path, 100, "x")
    assert len(calls) == 3


def test_a_photo_is_drawn_from_its_master_up_to_its_side(tmp_path: Path, cache: Path, monkeypatch) -> None:
    """A JPEG photo's crop squares up to its master's side are scaled from the master (the
    photo is not decoded for them); larger ones are cut from the photo."""
    from printdeck.model import SymbolSpec

    _photo_theme(tmp_path)
    symbol = SymbolSpec(0, "p", "photo", "p01.jpg", tmp_path / "photos" / "p01.jpg")
    crop = Crop(50.0, 0.0, 300.0)
    master = picture.photo_master(symbol, crop)
    assert master.size == (300, 300)

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the photo was decoded again")

    monkeypatch.setattr(picture, "_source_square", refuse)
    for side in (200, 150, 120, 40):  # over half the master's side: the decoded master scaled; else a scaled decode
        small = crop_square(symbol, crop, side)
        assert small.size == (side, side) and small.mode == "RGB"
        whole = np.asarray(master.resize((side, side), Image.Resampling.LANCZOS), dtype=float)
        if side > 150:
            assert np.array_equal(np.asarray(small), whole)
        else:  # within a level or so of scaling the whole master, and the same every time
            assert np.abs(np.asarray(small, dtype=float) - whole).mean() < 2.0
            picture.forget_masters()
            assert np.array_equal(np.asarray(crop_square(symbol, crop, side)), np.asarray(small))
    monkeypatch.undo()
    assert crop_square(symbol, crop, 600).size == (600, 600)  # past the master: from the photo
