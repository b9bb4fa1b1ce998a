"""A grey deck for black-and-white printers: a canvas whose every colour is DeviceGray.

Each colour becomes the grey of the same luminance (:func:`printdeck.artwork.grey_level`), set
with the PDF's ``g`` / ``G`` operators; each picture is stored as a one-channel (DeviceGray)
image (JPEG stays JPEG), its alpha as a DeviceGray soft mask. ReportLab's shadings take RGB
or CMYK colours only, so an SVG gradient is painted in DeviceCMYK black alone (still no RGB).
Words get grey tones of their own (``printdeck.theme.GREY_WORD_PALETTE``), kept apart by lightness.
"""

from __future__ import annotations

import io
from typing import Any

import numpy as np
from PIL import Image
from reportlab.lib.colors import CMYKColor, toColor
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import Canvas

from printdeck.artwork import grey_level

JPEG_QUALITY = 90


def colour_grey(color: Any) -> float:
    """The grey level (0 black .. 1 white) of any ReportLab colour, hex string or RGB tuple."""
    c = toColor(color)
    rgb = np.array(c.rgb()) if isinstance(c, CMYKColor) else np.array([c.red, c.green, c.blue])
    return float(np.round(grey_level(rgb), 4))


def grey_picture(picture: Image.Image) -> Image.Image:
    """``picture`` in grey tones of the same luminance: mode ``L``, or ``LA`` if it has alpha."""
    rgba = np.asarray(picture.convert("RGBA"), dtype=np.float64) / 255.0
    grey = Image.fromarray(np.round(grey_level(rgba[..., :3]) * 255).astype(np.uint8), "L")
    if picture.mode in ("RGBA", "LA", "PA") or "transparency" in picture.info:
        return Image.merge("LA", (grey, Image.fromarray(np.round(rgba[..., 3] * 255).astype(np.uint8), "L")))
    return grey


def grey_image(image: Any) -> ImageReader:
    """A picture (ImageReader, PIL image or file) as one grey channel (and its alpha)."""
    reader = image if isinstance(image, ImageReader) else ImageReader(image)
    grey = grey_picture(reader._image)
    if grey.mode == "L" and reader.jpeg_fh() is not None:
        data = io.BytesIO()
        grey.save(data, "JPEG", quality=JPEG_QUALITY, optimize=True)
        data.seek(0)
        return ImageReader(data)
    return ImageReader(grey)


class GreyCanvas(Canvas):
    """A ReportLab canvas that draws every colour as DeviceGray (see the module)."""

    grey = True
    """Recorded vector forms (:mod:`printdeck.render.vector_code`) are kept apart for grey canvases."""

    def setFillColor(self, aColor: Any, alpha: Any = None) -> None:
        self.setFillGray(colour_grey(aColor), alpha)

    def setStrokeColor(self, aColor: Any, alpha: Any = None) -> None:
        self.setStrokeGray(colour_grey(aColor), alpha)

    def setFillColorRGB(self, r: float, g: float, b: float, alpha: Any = None) -> None:
        self.setFillGray(colour_grey((r, g, b)), alpha)

    def setStrokeColorRGB(self, r: float, g: float, b: float, alpha: Any = None) -> None:
        self.setStrokeGray(colour_grey((r, g, b)), alpha)

    def setFillColorCMYK(self, c: float, m: float, y: float, k: float, alpha: Any = None) -> None:
        self.setFillGray(colour_grey(CMYKColor(c, m, y, k)), alpha)

    def setStrokeColorCMYK(self, c: float, m: float, y: float, k: float, alpha: Any = None) -> None:
        self.setStrokeGray(colour_grey(CMYKColor(c, m, y, k)), alpha)

    def drawImage(self, image: Any, *args: Any, **kwargs: Any) -> Any:
        return super().drawImage(grey_image(image), *args, **kwargs)

    def linearGradient(self, x0: float, y0: float, x1: float, y1: float, colors: Any, *args: Any, **kw: Any) -> None:
        super().linearGradient(x0, y0, x1, y1, [_black(c) for c in colors], *args, **kw)

    def radialGradient(self, x: float, y: float, radius: float, colors: Any, *args: Any, **kw: Any) -> None:
        super().radialGradient(x, y, radius, [_black(c) for c in colors], *args, **kw)


def _black(color: Any) -> CMYKColor:
    """A gradient stop as CMYK black only, of the same grey."""
    return CMYKColor(0, 0, 0, 1.0 - colour_grey(color))
