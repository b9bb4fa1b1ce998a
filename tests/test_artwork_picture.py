"""The pictures of raster and photo symbols (prepared_picture), and rasterise of every kind."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw

from printdeck.artwork import drawing, prepared_picture as prepared_image, rasterise
from printdeck.artwork.decode import oriented_size, to_rgba
from printdeck.artwork.picture import photo_mask
from printdeck.model import SymbolSpec
from printdeck.resources import data_root


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


def test_photo_is_its_centred_square_masked_to_a_circle(tmp_path: Path) -> None:
    image = prepared_image(_photo(_photo_file(tmp_path), photo_shape="circle"), max_px=200)
    alpha = np.asarray(image.getchannel("A"))
    assert image.size == (200, 200)  # the 200 x 200 square in the middle of the 300 x 200 photo
    assert alpha[100, 100] == 255 and alpha[100, 10] == 255  # inside the circle
    assert alpha[5, 5] == 0 and alpha[195, 195] == 0  # outside: the corners
    assert alpha[2, 100] > 0  # background kept without removal
    red = np.asarray(image)[100, 100]
    assert red[0] > 120 and red[1] < 60  # the red square is in the middle of the crop


def test_rounded_photo_shows_corners_of_the_square_more_than_a_circle(tmp_path: Path) -> None:
    path = _photo_file(tmp_path)
    circle = np.asarray(prepared_image(_photo(path, photo_shape="circle"), 200).getchannel("A"))
    rounded = np.asarray(prepared_image(_photo(path, photo_shape="rounded"), 200).getchannel("A"))
    assert (rounded > 127).sum() > (circle > 127).sum()
    assert rounded[20, 20] == 255 and circle[20, 20] == 0


def test_background_removal_clears_the_plain_background_only(tmp_path: Path) -> None:
    image = prepared_image(_photo(_photo_file(tmp_path), photo_shape="circle", remove_background=True), 200)
    alpha = np.asarray(image.getchannel("A"))
    assert alpha[100, 100] == 255  # the red subject stays
    assert alpha[100, 50] == 0 and alpha[40, 100] == 0  # grey background inside the circle is cleared
    red = np.asarray(image)[100, 100]
    assert red[0] > 120 and red[1] < 60


def test_background_removal_clears_loose_specks_and_keeps_a_second_subject(tmp_path: Path) -> None:
    """A parent's photo on a green wall with small stickers on it: 'Remove a plain
    background' kept the stickers, which printed as loose marks beside the person."""
    image = Image.new("RGB", (400, 400), (60, 160, 80))
    draw = ImageDraw.Draw(image)
    draw.ellipse((120, 80, 280, 340), fill=(200, 150, 120))  # the person
    draw.ellipse((300, 260, 360, 320), fill=(240, 200, 30))  # a ball beside them
    draw.ellipse((40, 300, 62, 322), fill=(230, 230, 240))  # a small ball held apart: 0.24 % of the photo
    draw.rectangle((330, 120, 334, 230), fill=(120, 60, 20))  # a thin wand
    draw.rectangle((180, 0, 200, 14), fill=(200, 150, 120))  # a hand reaching in at the top edge
    draw.rectangle((40, 40, 52, 52), fill=(230, 40, 40))  # stickers on the wall
    draw.rectangle((340, 60, 350, 72), fill=(40, 40, 230))
    path = tmp_path / "photo.jpg"
    image.save(path, "JPEG", quality=95)
    alpha = np.asarray(prepared_image(_photo(path, photo_shape="rounded", remove_background=True), 400).getchannel("A"))
    assert alpha[200, 200] == 255 and alpha[290, 330] == 255  # the person and the ball stay
    assert alpha[311, 51] == 255 and alpha[175, 332] == 255 and alpha[5, 190] == 255  # and the small ones
    assert alpha[46, 46] == 0 and alpha[66, 345] == 0  # the stickers go
    assert alpha[200, 30] == 0  # and the wall


def test_background_removal_keeps_no_rim_of_the_wall_round_the_subject(tmp_path: Path) -> None:
    """A white cat on a blue wall kept the pixels blending its fur with the wall at full
    opacity: they printed as a light-blue outline round it (and blue specks where the wall
    narrows between an ear and the head)."""
    image = Image.new("RGB", (600, 600), (60, 110, 200))
    draw = ImageDraw.Draw(image)
    draw.ellipse((100, 250, 500, 560), fill=(250, 250, 250))  # the body
    draw.polygon([(150, 330), (190, 120), (300, 280)], fill=(250, 250, 250))  # an ear, a notch below it
    path = tmp_path / "photo.jpg"
    image.save(path, "JPEG", quality=92)
    picture = prepared_image(_photo(path, photo_shape="rounded", remove_background=True), 512)
    pixels = np.asarray(picture, dtype=np.int16)
    shown = pixels[..., 3] > 8
    tint = (pixels[..., 2] - pixels[..., 0]) * pixels[..., 3] / 255  # blue over red, as it prints
    assert shown[400, 300] and shown[230, 190]  # the body and the ear stay
    assert int((shown & (tint > 24)).sum()) == 0


@pytest.mark.parametrize("edge_px", [2, 3, 6])
def test_background_removal_keeps_a_subject_inside_a_thin_outline(edge_px: int) -> None:
    """A white mug with a thin grey edge on a white wall (and a blue shirt in a dark outline
    on a blue wall) was cleared whole: the low-resolution fill, scaled up, reached past the
    edge and the subject's run of wall-like pixels went with the wall."""
    from printdeck.artwork.picture import background_alpha

    for wall, edge, inside in (
        ((250, 250, 250), (150, 150, 150), (245, 245, 245)),
        ((60, 110, 200), (20, 20, 20), (62, 112, 198)),
    ):
        im = Image.new("RGB", (512, 512), wall)
        d = ImageDraw.Draw(im)
        d.rounded_rectangle((120, 140, 390, 420), 30, fill=edge)
        d.rounded_rectangle((120 + edge_px, 140 + edge_px, 390 - edge_px, 420 - edge_px), 30, fill=inside)
        alpha = background_alpha(im, 24)
        assert (alpha[160:400, 140:370] == 255).mean() > 0.99, (wall, edge_px)
        assert (alpha[:100, :] == 0).all()  # the wall itself goes


def test_exif_orientation_is_applied(tmp_path: Path) -> None:
    path = _photo_file(tmp_path, exif_rotate=True)
    assert oriented_size(path) == (200, 300)
    raster = SymbolSpec(id=0, name="p", kind="raster", source="photo.jpg", path=path)
    assert prepared_image(raster, 300).size == (200, 300)


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
    image = rasterise(SymbolSpec(id=0, name="horse", kind="svg", source="x", path=path), 128, 128)
    assert image.size == (128, 128) and np.asarray(image.getchannel("A")).max() == 255


def test_text_is_its_ink_box_in_its_colour() -> None:
    symbol = SymbolSpec(id=0, name="tiger", kind="text", source="text:tiger", text="tiger", color="#d62828")
    art = drawing(symbol)
    image = rasterise(symbol, 256, round(256 / art.aspect))
    x0, y0, x1, y1 = art.word.ink_em
    assert image.width / image.height == pytest.approx((x1 - x0) / (y1 - y0), rel=0.02)
    assert image.getchannel("A").getbbox() == (0, 0, image.width, image.height)  # ink touches every side
    pixels = np.asarray(image)
    inked = pixels[pixels[..., 3] == 255]
    assert np.all(np.abs(inked[:, :3].astype(int) - [0xD6, 0x28, 0x28]) <= 1)
    blue = np.asarray(rasterise(symbol, 256, round(256 / art.aspect), "#0072b2"))
    assert np.array_equal(blue[..., 3], pixels[..., 3])  # another colour, the same ink
    assert np.all(np.abs(blue[blue[..., 3] == 255][:, :3].astype(int) - [0x00, 0x72, 0xB2]) <= 1)


def test_text_ink_box_has_a_descender_below_the_baseline() -> None:
    x0, y0, x1, y1 = drawing(SymbolSpec(id=0, name="gy", kind="text", source="text:gy", text="gy")).word.ink_em
    assert y0 < 0 < y1 and x1 > x0


@pytest.mark.parametrize("mode", ["I;16", "I", "L", "LA", "P", "PA", "CMYK", "1", "F", "RGBA"])
def test_every_image_mode_keeps_its_tones(mode: str) -> None:
    """16-bit grey, palette with transparency, CMYK...: mid grey stays mid grey (a 16-bit
    PNG converted by Pillow alone clips to near-white)."""
    values = {"I;16": 32768, "I": 32768, "F": 0.5, "1": 0}
    if mode in ("I;16", "I", "F"):
        image = Image.new(mode, (4, 4), values[mode])
    elif mode == "1":
        image = Image.new("1", (4, 4), 0)
    else:
        image = Image.new("RGBA", (4, 4), (128, 128, 128, 255)).convert(mode)
    rgba = np.asarray(to_rgba(image))
    expected = 0 if mode == "1" else 128
    assert rgba.shape == (4, 4, 4) and rgba[..., 3].min() == 255
    assert np.abs(rgba[..., :3].astype(int) - expected).max() <= 2, mode


def test_photo_mask_is_symmetric() -> None:
    mask = photo_mask("circle", 90, 60)
    assert mask.shape == (60, 90) and np.array_equal(mask, mask[:, ::-1]) and np.array_equal(mask, mask[::-1])


def test_unreadable_photo_at_prepare_time(tmp_path: Path) -> None:
    path = tmp_path / "gone.jpg"
    path.write_bytes(io.BytesIO(b"x").getvalue())
    from printdeck.errors import PrintdeckError

    with pytest.raises(PrintdeckError, match=r"gone\.jpg"):
        prepared_image(_photo(path))


def test_photo_mask_is_made_once_and_cannot_be_changed() -> None:
    """Every photo of a deck is masked at the same few sizes: the mask is made once a
    process, so no caller may change the shared array."""
    mask = photo_mask("rounded", 64, 64)
    assert photo_mask("rounded", 64, 64) is mask
    with pytest.raises(ValueError, match="read-only"):
        mask[0, 0] = 1
