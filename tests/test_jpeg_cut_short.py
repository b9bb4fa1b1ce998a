"""A JPEG cut short is refused even with its end marker put back (issue 14's broken files):
libjpeg decodes such a file without an error and fills the lost part grey, so the check
decodes JPEGs with its warnings as errors (``simplejpeg``), at the scale and to the very
pixels Pillow's decode gives, so a sound photo's check and fingerprint are unchanged."""

from __future__ import annotations

import hashlib
import io
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from test_theme_support import image_folder, small_theme, write_theme

from printdeck.artwork import open_jpeg_strict, open_raster
from printdeck.errors import PrintdeckError
from printdeck.theme import load_theme
from printdeck.theme.images import CHECK_DRAFT_PX, _decoded_check

EOI = b"\xff\xd9"


def _photo(mode: str = "RGB", progressive: bool = False, size: tuple[int, int] = (1200, 900)) -> bytes:
    """A photo-like JPEG: smooth colour with noise, so every part of it holds data."""
    rng = np.random.default_rng(7)
    y, x = np.mgrid[0 : size[1], 0 : size[0]]
    base = np.stack([x * 255 // size[0], y * 255 // size[1], (x + y) * 255 // sum(size)], axis=2)
    pixels = np.clip(base + rng.normal(0, 20, base.shape), 0, 255).astype(np.uint8)
    out = io.BytesIO()
    Image.fromarray(pixels).convert(mode).save(out, "JPEG", quality=90, progressive=progressive)
    return out.getvalue()


def _cut(data: bytes) -> bytes:
    """The first half of ``data`` with an end marker put back (a broken copy)."""
    return data[: len(data) // 2] + EOI


def test_pillow_alone_would_print_the_lost_half_grey() -> None:
    """Why the check is needed: Pillow decodes the cut file without a word (a cut
    progressive JPEG, whose later scans are lost, prints blurred instead)."""
    image = Image.open(io.BytesIO(_cut(_photo())))
    image.load()
    bottom = np.asarray(image.convert("RGB"))[-50:].astype(int)
    assert bottom.std() < 12  # flat: the lost part, filled in


@pytest.mark.parametrize("progressive", [False, True])
def test_a_jpeg_cut_short_is_refused_in_one_line(tmp_path: Path, progressive: bool) -> None:
    image_folder(tmp_path / "pics", 6)
    (tmp_path / "pics" / "broken.jpg").write_bytes(_cut(_photo(progressive=progressive)))
    theme = write_theme(tmp_path, small_theme(symbols=[{"folder": "pics"}]))
    with pytest.raises(PrintdeckError) as info:
        load_theme(theme)
    message = str(info.value)
    assert "\n" not in message and "symbols.0.folder" in message and "broken.jpg" in message
    assert "its image data ends early" in message and "copy the file again" in message


def test_a_jpeg_cut_without_its_end_marker_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "cut.jpg"
    path.write_bytes(_photo()[:20_000])
    with pytest.raises(PrintdeckError, match="truncated or corrupt"):
        _decoded_check(path, "symbols.0.image")


@pytest.mark.parametrize("mode", ["RGB", "L"])
@pytest.mark.parametrize("progressive", [False, True])
def test_a_sound_jpeg_decodes_to_the_pixels_pillow_gives(tmp_path: Path, mode: str, progressive: bool) -> None:
    """The strict decode is Pillow's decode, pixel for pixel, at the same reduced scale, so
    the checks (and fingerprints) kept in the disk cache stay valid."""
    data = _photo(mode, progressive, size=(4000, 3000))
    path = tmp_path / "p.jpg"
    strict = open_jpeg_strict(data, path, "k", CHECK_DRAFT_PX)
    pillow = open_raster(data, path, "k", CHECK_DRAFT_PX)
    assert strict is not None and strict.size == pillow.size == (500, 375)
    assert strict.mode == pillow.mode == mode
    assert hashlib.sha256(strict.tobytes()).digest() == hashlib.sha256(pillow.tobytes()).digest()


def test_a_cmyk_jpeg_cut_short_is_refused_too(tmp_path: Path) -> None:
    """A print shop's CMYK JPEG is decoded by Pillow, but checked all the same."""
    path = tmp_path / "print.jpg"
    path.write_bytes(_cut(_photo("CMYK")))
    with pytest.raises(PrintdeckError, match="its image data ends early"):
        _decoded_check(path, "symbols.0.image")


def _coded(data: bytes, frame: int) -> bytes:
    """``data`` (a baseline JPEG) with its frame marker (SOF0) changed to ``frame``."""
    at = data.index(b"\xff\xc0")
    return data[:at] + bytes([0xFF, frame]) + data[at + 2 :]


def test_a_frame_pillow_does_not_decode_is_left_to_it(tmp_path: Path) -> None:
    """An arithmetic-coded or lossless JPEG (SOF9, SOF3) is not decoded by the strict
    check, which could read what the build's decoder, Pillow, cannot: Pillow judges it, as
    before the check was strict (a real one below)."""
    for frame in (0xC9, 0xC3):
        assert (
            open_jpeg_strict(_coded(_photo(size=(200, 150)), frame), tmp_path / "odd.jpg", "k", CHECK_DRAFT_PX) is None
        )


@pytest.mark.skipif(shutil.which("cjpeg") is None, reason="no cjpeg (libjpeg-turbo-progs) to make an arithmetic JPEG")
def test_a_real_arithmetic_jpeg_is_judged_by_pillow(tmp_path: Path) -> None:
    """A large arithmetic-coded JPEG (Pillow's decoder cannot suspend on one) is refused with
    the theme key, as the build would; a small one, which Pillow reads, passes."""
    rng = np.random.default_rng(3)
    for side, refused in ((320, True), (64, False)):
        Image.fromarray((rng.random((side, side, 3)) * 255).astype(np.uint8)).save(tmp_path / "n.ppm")
        made = subprocess.run(["cjpeg", "-arithmetic", "-quality", "90", str(tmp_path / "n.ppm")], capture_output=True)
        path = tmp_path / f"arith{side}.jpg"
        path.write_bytes(made.stdout)
        if refused:
            with pytest.raises(PrintdeckError, match=r"symbols\.0\.image"):
                _decoded_check(path, "symbols.0.image")
        else:
            assert _decoded_check(path, "symbols.0.image").size_px == (float(side), float(side))


def test_what_it_does_not_decode_is_left_to_pillow(tmp_path: Path) -> None:
    """A sound CMYK JPEG (print files) and a PNG are decoded by Pillow, as before."""
    path = tmp_path / "p.jpg"
    assert open_jpeg_strict(_photo("CMYK"), path, "k", CHECK_DRAFT_PX) is None
    png = io.BytesIO()
    Image.new("RGB", (40, 40), (1, 2, 3)).save(png, "PNG")
    assert open_jpeg_strict(png.getvalue(), path, "k", CHECK_DRAFT_PX) is None
    path.write_bytes(_photo("CMYK"))
    assert _decoded_check(path, "symbols.0.image").size_px == (1200.0, 900.0)


def test_the_studio_refuses_a_photo_cut_short(tmp_path: Path) -> None:
    """Dropped on the studio, the broken photo is refused in one line and not kept."""
    from test_studio_api import make_client, upload

    with make_client(tmp_path / "deck") as client:
        results = upload(client, [("holiday.jpg", _cut(_photo())), ("beach.jpg", _photo())])["results"]
        errors = {r["file"]: r.get("error") for r in results}
        assert errors["beach.jpg"] is None
        assert "holiday.jpg" in errors["holiday.jpg"] and "its image data ends early" in errors["holiday.jpg"]
        folder = Path(client.get("/api/state").json()["state"]["folder"])
        assert sorted(p.name for p in (folder / "images").iterdir()) == ["beach.jpg"]
