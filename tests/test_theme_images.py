"""prepared_image: the one RGBA picture of a symbol that layout and render share."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw

from printdeck.model import SymbolSpec
from printdeck.resources import data_root
from printdeck.theme.fonts import default_font_path, missing_glyphs, text_ink_box_em
from printdeck.theme.images import photo_mask, prepared_image


def _photo_file(tmp_path: Path, exif_rotate: bool = False) -> Path:
    """A 300x200 JPEG: plain light-grey background, a dark red square in the middle."""
    image = Image.new("RGB", (300, 200), (235, 235, 235))
    ImageDraw.Draw(image).rectangle((120, 70, 180, 130), fill=(150, 20, 20))
    path = tmp_path / "photo.jpg"
    exif = Image.Exif()
    if exif_rotate:
        exif[0x0112] = 6  # rotate 90 degrees clockwise when shown
    image.save(path, "JPEG", quality=95, exif=exif)
    return path


def _photo(path: Path, **kw: object) -> SymbolSpec:
    return SymbolSpec(id=0, name="p", kind="photo", source="photo.jpg", path=path, **kw)  # type: ignore[arg-type]


def test_photo_keeps_the_whole_box_and_masks_a_centred_circle(tmp_path: Path) -> None:
    image = prepared_image(_photo(_photo_file(tmp_path), photo_shape="circle"), max_px=300)
    alpha = np.asarray(image.getchannel("A"))
    assert image.size == (300, 200)
    assert alpha[100, 150] == 255 and alpha[100, 60] == 255      # inside the circle of diameter 200
    assert alpha[100, 20] == 0 and alpha[5, 60] == 0             # outside: sides and corners
    assert alpha[100, 148] == 255 and alpha[2, 150] > 0          # background kept without removal


def test_rounded_photo_shows_corners_of_the_square_more_than_a_circle(tmp_path: Path) -> None:
    path = _photo_file(tmp_path)
    circle = np.asarray(prepared_image(_photo(path, photo_shape="circle"), 300).getchannel("A"))
    rounded = np.asarray(prepared_image(_photo(path, photo_shape="rounded"), 300).getchannel("A"))
    assert (rounded > 127).sum() > (circle > 127).sum()
    assert rounded[20, 70] == 255 and circle[20, 70] == 0


def test_background_removal_clears_the_plain_background_only(tmp_path: Path) -> None:
    image = prepared_image(_photo(_photo_file(tmp_path), photo_shape="circle", remove_background=True), 300)
    alpha = np.asarray(image.getchannel("A"))
    assert alpha[100, 150] == 255                   # the red subject stays
    assert alpha[100, 100] == 0 and alpha[40, 150] == 0  # grey background inside the circle is cleared
    red = np.asarray(image)[100, 150]
    assert red[0] > 120 and red[1] < 60


def test_exif_orientation_is_applied(tmp_path: Path) -> None:
    image = prepared_image(_photo(_photo_file(tmp_path, exif_rotate=True)), 300)
    assert image.size == (200, 300)


def test_raster_keeps_alpha_and_aspect(tmp_path: Path) -> None:
    path = tmp_path / "a.png"
    source = Image.new("RGBA", (100, 50), (0, 0, 0, 0))
    ImageDraw.Draw(source).rectangle((10, 10, 40, 40), fill=(0, 0, 255, 255))
    source.save(path)
    image = prepared_image(SymbolSpec(id=0, name="a", kind="raster", source="a.png", path=path), 200)
    assert image.size == (200, 100) and image.mode == "RGBA"
    alpha = np.asarray(image.getchannel("A"))
    assert alpha[50, 50] == 255 and alpha[50, 150] == 0


def test_svg_is_rendered_at_its_viewbox_aspect() -> None:
    path = data_root("assets") / "twemoji" / "horse.svg"
    image = prepared_image(SymbolSpec(id=0, name="horse", kind="svg", source="x", path=path), 128)
    assert image.size == (128, 128) and np.asarray(image.getchannel("A")).max() == 255


def test_text_is_cropped_to_its_ink_box_in_its_colour() -> None:
    symbol = SymbolSpec(id=0, name="tiger", kind="text", source="text:tiger", text="tiger", color="#d62828")
    image = prepared_image(symbol, 256)
    x0, y0, x1, y1 = text_ink_box_em(default_font_path(), "tiger")
    assert image.width == pytest.approx(256, abs=3)
    assert image.width / image.height == pytest.approx((x1 - x0) / (y1 - y0), rel=0.05)
    assert image.getchannel("A").getbbox() is not None
    pixels = np.asarray(image)
    inked = pixels[pixels[..., 3] == 255]
    assert np.all(np.abs(inked[:, :3].astype(int) - [0xD6, 0x28, 0x28]) <= 1)


def test_text_ink_box_has_a_descender_below_the_baseline() -> None:
    x0, y0, x1, y1 = text_ink_box_em(default_font_path(), "gy")
    assert y0 < 0 < y1 and x1 > x0


def test_missing_glyphs_of_the_default_font() -> None:
    assert missing_glyphs(default_font_path(), "café") == []
    assert missing_glyphs(default_font_path(), "日本 ok") == ["日", "本"]


def test_photo_mask_is_symmetric() -> None:
    mask = photo_mask("circle", 90, 60)
    assert mask.shape == (60, 90) and np.array_equal(mask, mask[:, ::-1]) and np.array_equal(mask, mask[::-1])


def test_unreadable_photo_at_prepare_time(tmp_path: Path) -> None:
    path = tmp_path / "gone.jpg"
    path.write_bytes(io.BytesIO(b"x").getvalue())
    from printdeck.errors import PrintdeckError

    with pytest.raises(PrintdeckError, match="gone.jpg"):
        prepared_image(_photo(path))
