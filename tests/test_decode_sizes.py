"""How large a picture printdeck decodes: a phone's 108-megapixel JPEG is read scaled down
(libjpeg's DCT scaling), other pictures up to 60 megapixels; larger ones are refused with
their size, before a pixel is decoded."""

from __future__ import annotations

import io
import warnings
from pathlib import Path

import pytest
from PIL import Image

import printdeck
from printdeck.artwork import decode


def _encoded(size: tuple[int, int], kind: str) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, "#3070c0").save(out, kind)
    return out.getvalue()


def test_a_jpeg_over_the_decoded_limit_is_read_scaled_down(monkeypatch: pytest.MonkeyPatch) -> None:
    """A parent's 64-megapixel photo (9248 x 6936) was refused as over 60 megapixels though it
    is only ever decoded scaled down: here with the limits scaled down a thousandfold."""
    monkeypatch.setattr(decode, "MAX_PIXELS", 60_000)
    monkeypatch.setattr(decode, "MAX_DRAFTED_PIXELS", 89_000)
    jpeg = _encoded((344, 258), "JPEG")  # 88,752 pixels: 64 MP at a thousandth
    image = decode.open_raster(jpeg, Path("big.jpg"), "symbols.0", draft_px=160)
    assert image.width * image.height <= 60_000 and image.size == (172, 129)  # half size
    with pytest.raises(printdeck.PrintdeckError, match=r"big.jpg is 344x258 pixels, more than 0 megapixels"):
        decode.open_raster(jpeg, Path("big.jpg"), "symbols.0")  # decoded whole: refused
    with pytest.raises(printdeck.PrintdeckError, match=r"big.png is 344x258 pixels"):
        decode.open_raster(_encoded((344, 258), "PNG"), Path("big.png"), "symbols.0", draft_px=200)


def test_a_jpeg_over_the_drafted_limit_is_refused_by_its_size(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(decode, "MAX_DRAFTED_PIXELS", 89_000)
    jpeg = _encoded((400, 300), "JPEG")
    with pytest.raises(printdeck.PrintdeckError, match=r"huge.jpg is 400x300 pixels, more than 0 megapixels"):
        decode.open_raster(jpeg, Path("huge.jpg"), "symbols.0", draft_px=100)


def test_the_drafted_limit_stays_under_pillows_bomb_error() -> None:
    """Pillow refuses a picture over twice its decompression-bomb mark before printdeck can
    say its size: a JPEG printdeck accepts is always under it."""
    assert decode.MAX_PIXELS < Image.MAX_IMAGE_PIXELS < decode.MAX_DRAFTED_PIXELS < 2 * Image.MAX_IMAGE_PIXELS


def test_a_108_megapixel_phone_jpeg_is_read_scaled_down(monkeypatch: pytest.MonkeyPatch) -> None:
    """A parent's 108-megapixel phone photo (12000 x 9000) was refused as over 89 megapixels,
    though it is only ever decoded scaled down; here with every limit a thousandth, Pillow's
    mark too (it warns over it: a RuntimeWarning the command line does not show)."""
    monkeypatch.setattr(decode, "MAX_PIXELS", 60_000)
    monkeypatch.setattr(decode, "MAX_DRAFTED_PIXELS", 178_000)
    monkeypatch.setattr(Image, "MAX_IMAGE_PIXELS", 89_478)
    jpeg = _encoded((384, 282), "JPEG")  # 108,288 pixels
    with pytest.warns(Image.DecompressionBombWarning):
        image = decode.open_raster(jpeg, Path("phone.jpg"), "symbols.0", draft_px=300)
    assert image.size == (192, 141)  # half size: under the decoded limit
    png = _encoded((384, 282), "PNG")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Image.DecompressionBombWarning)
        with pytest.raises(printdeck.PrintdeckError, match=r"phone.png is 384x282 pixels"):  # not a JPEG: whole
            decode.open_raster(png, Path("phone.png"), "symbols.0", draft_px=300)


def test_a_jpeg_over_the_decoded_limit_cropped_close_is_read_at_half_size(monkeypatch: pytest.MonkeyPatch) -> None:
    """The 64-megapixel photo with ``zoom: 8`` asked for more than half its pixels, so it was
    decoded whole and refused: such a JPEG is decoded at half size at most."""
    monkeypatch.setattr(decode, "MAX_PIXELS", 60_000)
    monkeypatch.setattr(decode, "MAX_DRAFTED_PIXELS", 89_000)
    jpeg = _encoded((344, 258), "JPEG")
    image = decode.open_raster(jpeg, Path("big.jpg"), "symbols.0", draft_px=1000)
    assert image.size == (172, 129)


def test_a_picture_over_pillows_bomb_mark_is_refused_by_its_size(monkeypatch: pytest.MonkeyPatch) -> None:
    """A 20000 x 20000 PNG was refused as "claims a huge size (a decompression bomb?)", with
    no size or limit, where a 9000 x 9000 one was told its size and to scale it down."""
    monkeypatch.setattr(Image, "MAX_IMAGE_PIXELS", 40_000)  # Pillow's error at twice its mark
    png = _encoded((300, 300), "PNG")  # 90,000 pixels
    with pytest.raises(printdeck.PrintdeckError) as said:
        decode.open_raster(png, Path("huge.png"), "symbols.0")
    assert "huge.png is 0 megapixels, more than 178 megapixels; scale it down" in str(said.value)


def test_a_length_with_a_decimal_comma_is_told_to_take_a_point(tmp_path: Path) -> None:
    """A European teacher's "3,5in" was only said not to be a length."""
    words = "".join(f"  - text: w{i}\n" for i in range(7))
    for given, fix in (("3,5in", 'write a decimal point: "3.5in"'), ("8,5", 'decimal point and its unit: "8.5')):
        (tmp_path / "theme.yaml").write_text(f'card: {{diameter: "{given}"}}\nsymbols:\n{words}', encoding="utf-8")
        with pytest.raises(printdeck.PrintdeckError, match=r"card\.diameter") as said:
            printdeck.check_theme(tmp_path / "theme.yaml")
        assert fix in str(said.value)
