"""Colour management through LittleCMS (Pillow's ``ImageCms``): sRGB in, CMYK for the press out.

Pictures arrive in whatever space their file says (an embedded ICC profile: Adobe RGB,
Display P3, a CMYK JPEG's press profile) and are drawn in sRGB, the space every screen,
PNG and RGB PDF of printdeck uses (:func:`to_srgb`). A CMYK build converts that sRGB
through a bundled output profile (``assets/icc/``, built from the free FOGRA39
characterization data with ArgyllCMS: ``assets/icc/README.md``) with a total ink limit
(:data:`printdeck.choices.INK_LIMITS`, percent), perceptual intent.

Vector colours take the same transform (:func:`cmyk_of_rgb`), except neutral greys,
which print on the black plate alone (text, marks and thin rules stay sharp however the
plates register): ``#1a1a1a`` (printdeck's ink black) and darker at 100 % K.
"""

from __future__ import annotations

import io
from functools import lru_cache
from pathlib import Path

import numpy as np
from PIL import Image, ImageCms

from printdeck.choices import INK_LIMITS
from printdeck.resources import data_root

DEFAULT_INK_LIMIT = 300
INK_BLACK_LEVEL = 0x1A
"""A neutral grey this dark or darker (0..255) prints as 100 % K."""
OUTPUT_CONDITION = "FOGRA39"
"""The characterized printing condition of the bundled profiles (ISO 12647-2:2004/Amd 1,
offset, coated paper), the ICC registry's name for it."""
OUTPUT_CONDITION_TEXT = "Offset printing, ISO 12647-2:2004/Amd 1, coated paper (FOGRA39), total ink {limit} %"


def cmyk_profile_path(ink_limit: int = DEFAULT_INK_LIMIT) -> Path:
    """The bundled CMYK output profile for ``ink_limit`` (percent, one of :data:`~printdeck.choices.INK_LIMITS`).

    Raises:
        ValueError: ``ink_limit`` is not one of :data:`~printdeck.choices.INK_LIMITS`.
    """
    if ink_limit not in INK_LIMITS:
        raise ValueError(f"ink_limit: expected one of {INK_LIMITS}, got {ink_limit!r}")
    return data_root("assets") / "icc" / f"printdeck-fogra39-tac{ink_limit}.icc"


@lru_cache(maxsize=8)
def cmyk_profile_bytes(ink_limit: int = DEFAULT_INK_LIMIT) -> bytes:
    """The ICC bytes of :func:`cmyk_profile_path` (the PDF's OutputIntent embeds them)."""
    return cmyk_profile_path(ink_limit).read_bytes()


@lru_cache(maxsize=1)
def srgb_profile() -> ImageCms.ImageCmsProfile:
    """LittleCMS's built-in sRGB (IEC 61966-2-1) profile."""
    return ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB"))


@lru_cache(maxsize=1)
def srgb_profile_bytes() -> bytes:
    """The sRGB profile as ICC bytes (tagged into PNGs)."""
    return bytes(srgb_profile().tobytes())


@lru_cache(maxsize=8)
def _to_cmyk(ink_limit: int) -> ImageCms.ImageCmsTransform:
    cmyk = ImageCms.getOpenProfile(io.BytesIO(cmyk_profile_bytes(ink_limit)))
    return ImageCms.buildTransform(srgb_profile(), cmyk, "RGB", "CMYK", ImageCms.Intent.PERCEPTUAL)


def image_to_cmyk(picture: Image.Image, ink_limit: int = DEFAULT_INK_LIMIT) -> Image.Image:
    """An sRGB picture (``RGB`` or ``L``) converted to press CMYK within ``ink_limit`` percent.

    Raises:
        ValueError: ``picture`` has alpha (composite it first) or an unknown ink limit.
    """
    if picture.mode not in ("RGB", "L"):
        raise ValueError(f"picture: expected an RGB or L image, got mode {picture.mode}")
    out = ImageCms.applyTransform(picture.convert("RGB"), _to_cmyk(ink_limit))
    assert out is not None  # not in place: a new image
    return out


@lru_cache(maxsize=4096)
def cmyk_of_rgb(rgb: tuple[float, float, float], ink_limit: int = DEFAULT_INK_LIMIT) -> tuple[float, ...]:
    """The CMYK (each 0..1) of an sRGB colour (each 0..1): the picture transform, except
    that a neutral grey prints on the black plate alone (``#1a1a1a`` and darker: 100 % K).
    """
    levels = tuple(round(min(max(v, 0.0), 1.0) * 255) for v in rgb)
    if levels[0] == levels[1] == levels[2]:
        grey = levels[0]
        black = 1.0 if grey <= INK_BLACK_LEVEL else round(1.0 - grey / 255.0, 4)
        return (0.0, 0.0, 0.0, black)
    pixel = Image.new("RGB", (1, 1), levels)
    converted = ImageCms.applyTransform(pixel, _to_cmyk(ink_limit))
    assert converted is not None
    out = converted.getpixel((0, 0))
    assert isinstance(out, tuple)
    return tuple(round(float(v) / 255.0, 4) for v in out)


def total_ink(picture: Image.Image) -> np.ndarray:
    """Total ink (percent, C + M + Y + K) of each pixel of a CMYK picture, shape (h, w)."""
    return np.asarray(picture, dtype=np.float64).sum(axis=2) / 255.0 * 100.0


def to_srgb(image: Image.Image) -> Image.Image:
    """The picture in sRGB: an embedded ICC profile honoured (RGB and CMYK, alpha kept);
    a CMYK picture without one is read as the bundled FOGRA39 press CMYK. Other modes
    and untagged RGB come back unchanged (untagged RGB is taken as sRGB).
    """
    icc = image.info.get("icc_profile")
    if image.mode not in ("RGB", "RGBA", "CMYK") or (not icc and image.mode != "CMYK"):
        return image
    try:
        source = ImageCms.getOpenProfile(io.BytesIO(icc)) if icc else None
    except (OSError, ImageCms.PyCMSError):
        source = None  # a broken profile: the pixels as they are
    if image.mode == "CMYK":
        src = source or ImageCms.getOpenProfile(io.BytesIO(cmyk_profile_bytes()))
        return _converted(image, src, "CMYK", "RGB")
    if source is None:
        return image
    if image.mode == "RGBA":
        rgb = _converted(image.convert("RGB"), source, "RGB", "RGB")
        rgb.putalpha(image.getchannel("A"))
        return rgb
    return _converted(image, source, "RGB", "RGB")


def _converted(image: Image.Image, source: ImageCms.ImageCmsProfile, in_mode: str, out_mode: str) -> Image.Image:
    """``image`` through ``source`` -> sRGB (relative colorimetric, black point compensation)."""
    try:
        transform = ImageCms.buildTransform(
            source,
            srgb_profile(),
            in_mode,
            out_mode,
            ImageCms.Intent.RELATIVE_COLORIMETRIC,
            flags=ImageCms.Flags.BLACKPOINTCOMPENSATION,
        )
        out = ImageCms.applyTransform(image, transform)
    except ImageCms.PyCMSError:  # a profile of another colour space than the pixels
        return image.convert(out_mode)
    assert out is not None
    out.info.pop("icc_profile", None)
    return out
