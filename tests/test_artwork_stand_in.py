"""HEIC/HEIF and AVIF photos are decoded whole once a build, then drawn from a JPEG stand-in
(:mod:`printdeck.artwork.stand_in`): counted decodes, the same PDF with and without the
cache, upright pixels, and photos a worker process may draw."""

from __future__ import annotations

import importlib
import io
import shutil
from pathlib import Path

import numpy as np
import pillow_heif
import pytest
from PIL import Image, ImageOps
from test_render_photos import _photo  # a busy, distinct 'photo'

import printdeck
from printdeck.artwork import (
    decode as decode_module,
    decoded_by_threads,
    picture as picture_module,
    stand_in,
    upright_file,
)
from printdeck.photo_work import photos_to_prepare
from printdeck.theme import load_theme
from printdeck.theme.images import check_raster_file

pillow_heif.register_heif_opener()


@pytest.fixture(scope="module")
def photos(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Seven 1200 x 900 photos (``test_render_photos``), three of them HEIC (one stored sideways
    with an EXIF turn)."""
    folder = tmp_path_factory.mktemp("stand-in-photos")
    for i in range(7):
        image = _photo((1200, 900), i)
        if i < 3:
            exif = Image.Exif()
            if i == 2:
                image = image.transpose(Image.Transpose.ROTATE_90)
                exif[0x0112] = 6
            image.save(folder / f"p{i}.heic", quality=90, exif=exif.tobytes(), enc_params={"preset": "ultrafast"})
        else:
            image.save(folder / f"p{i}.jpg", quality=92)
    return folder


def _theme(tmp_path: Path, photos: Path, seed: int = 1) -> Path:
    shutil.copytree(photos, tmp_path / "photos", dirs_exist_ok=True)
    theme = tmp_path / "theme.yaml"
    deck = "{symbols_per_card: 3, allow_look_alike: true}"  # noise photos: alike by mean colour
    theme.write_text(f"name: phones\nseed: {seed}\ndeck: {deck}\nsymbols:\n  - photo: photos\n")
    return theme


def _heic_decodes(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The files libheif decodes from now on in this process (``decode._decode`` of HEIF bytes)."""
    decoded: list[str] = []
    real = decode_module._decode

    def counting(data: bytes, path: Path, where: str, draft_px: int | None) -> Image.Image:
        if stand_in.is_heif_or_avif(data):
            decoded.append(Path(path).name)
        return real(data, path, where, draft_px)

    monkeypatch.setattr(decode_module, "_decode", counting)
    return decoded


@pytest.fixture
def fresh_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty disk cache of the test's own, and no stand-in or decode kept in this process."""
    monkeypatch.setenv("PRINTDECK_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("PRINTDECK_NO_CACHE", raising=False)
    stand_in.forget_stand_ins()
    decode_module.forget_decodes()
    picture_module.forget_masters()
    importlib.import_module(
        "printdeck.artwork.drawing"
    )._KNOWN_REPORTS.clear()  # crops found by drawing key: the same photo bytes in another test
    return tmp_path / "cache"


def test_each_heic_is_decoded_whole_once_in_a_cold_build_and_never_again(
    tmp_path: Path, photos: Path, fresh_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every stage in this process (``PRINTDECK_JOBS=1``): the theme's check decodes each
    HEIC, and the crop search, proof, silhouette, look, master and print draw from its
    stand-in; three HEICs (more than the two whole decodes ``open_raster`` keeps) show it."""
    monkeypatch.setenv("PRINTDECK_JOBS", "1")
    decoded = _heic_decodes(monkeypatch)
    theme = _theme(tmp_path, photos)
    printdeck.build(theme, tmp_path / "deck.pdf")
    assert sorted(decoded) == ["p0.heic", "p1.heic", "p2.heic"]
    assert len(list((fresh_cache / "pictures").glob("*.jpg"))) >= 3 + 7  # three stand-ins, seven masters
    decoded.clear()
    stand_in.forget_stand_ins()
    decode_module.forget_decodes()
    printdeck.build(_theme(tmp_path, photos, seed=2), tmp_path / "deck2.pdf")  # a new seed: all cached
    assert decoded == []


def test_a_heic_deck_is_the_same_with_and_without_the_cache(
    tmp_path: Path, photos: Path, fresh_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A picture is always drawn from its stand-in's bytes (made now or read back), and the
    cold photos go to the worker processes once their stand-ins are on disk: the PDF is
    the same to the byte as one built without any cache, in one process."""
    theme = _theme(tmp_path, photos)
    printdeck.build(theme, tmp_path / "cached.pdf")
    stand_in.forget_stand_ins()
    decode_module.forget_decodes()
    picture_module.forget_masters()
    monkeypatch.setenv("PRINTDECK_NO_CACHE", "1")
    monkeypatch.setenv("PRINTDECK_JOBS", "1")
    printdeck.build(theme, tmp_path / "uncached.pdf")
    assert (tmp_path / "cached.pdf").read_bytes() == (tmp_path / "uncached.pdf").read_bytes()


def test_a_checked_heic_may_be_drawn_in_a_worker(tmp_path: Path, photos: Path, fresh_cache: Path) -> None:
    """Before its check a HEIC would be decoded by libheif (kept out of forked workers);
    once checked, its stand-in is on disk and it is a photo like any other."""
    theme = load_theme(_theme(tmp_path, photos), defer_svg_checks=True)  # checks every photo
    heics = [s for s in theme.symbols if s.path is not None and s.path.suffix == ".heic"]
    assert len(heics) == 3
    assert not any(decoded_by_threads(s.path) for s in heics if s.path is not None)
    assert set(heics) <= set(photos_to_prepare(theme.symbols))
    shutil.rmtree(fresh_cache / "pictures")
    assert all(decoded_by_threads(s.path) for s in heics if s.path is not None)
    assert not set(heics) & set(photos_to_prepare(theme.symbols))


def test_the_stand_in_is_the_upright_picture(tmp_path: Path, photos: Path, fresh_cache: Path) -> None:
    """The sideways HEIC's stand-in is upright (its EXIF turn applied, no EXIF left), its
    size the shown size, its pixels the decode's within a JPEG's error."""
    path = tmp_path / "p2.heic"
    shutil.copy(photos / "p2.heic", path)
    check_raster_file(path, "symbols.0.photo")
    data = path.read_bytes()
    jpeg = stand_in.stand_in_bytes(data, lambda: pytest.fail("decoded again"))
    assert jpeg is not None and jpeg[:3] == b"\xff\xd8\xff"
    with Image.open(io.BytesIO(jpeg)) as image:
        assert image.format == "JPEG" and image.size == (1200, 900)
        assert image.getexif().get(0x0112) is None and "icc_profile" not in image.info
        shown = np.asarray(image.convert("RGB"), dtype=float)
    with Image.open(path) as source:
        expected = np.asarray(ImageOps.exif_transpose(source).convert("RGB"), dtype=float)
    assert expected.shape == shown.shape
    assert np.abs(shown - expected).mean() < 3.0  # q95 of noise (sigma 12): two grey levels; a turn: tens
    drawn = upright_file(path, 600, "symbols.0.photo")
    assert drawn.size == (600, 450)


def test_a_heic_with_transparency_has_no_stand_in_and_keeps_it(tmp_path: Path, fresh_cache: Path) -> None:
    """JPEG holds no alpha: such a picture is decoded whole each time, its transparency kept."""
    rgba = _photo((400, 300), 9).convert("RGBA")
    alpha = np.full((300, 400), 255, dtype=np.uint8)
    alpha[:, :100] = 0
    rgba.putalpha(Image.fromarray(alpha))
    path = tmp_path / "logo.heic"
    rgba.save(path, quality=90, enc_params={"preset": "ultrafast"})
    data = path.read_bytes()
    decoded = decode_module.open_raster(data, path, "symbols.0.image")
    assert stand_in.stand_in_bytes(data, lambda: decode_module._upright(decoded)) is None
    check_raster_file(path, "symbols.0.image")
    assert not list((fresh_cache / "pictures").glob("*.jpg"))
    drawn = np.asarray(upright_file(path, 400, "symbols.0.image"))
    assert drawn[:, :90, 3].max() == 0 and drawn[:, 110:, 3].min() == 255


def test_other_formats_have_no_stand_in(tmp_path: Path, photos: Path, fresh_cache: Path) -> None:
    path = photos / "p3.jpg"
    assert stand_in.stand_in_bytes(path.read_bytes(), lambda: pytest.fail("decoded")) is None
    assert not stand_in.stand_in_stored(path)
    assert not decoded_by_threads(path)
