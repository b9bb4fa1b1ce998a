"""How a picture file enters a theme: as a ``photo`` (an opaque raster, cropped to a shape on
the card, kept upright as ``layout.rotate_photos`` says) or an ``image`` (drawn on its own
silhouette, turned freely), and whether an image must stay upright (``rotate: false``): a
cut-out person or pet (a photo whose background was made transparent) would otherwise
print sideways or upside down. An opaque raster showing a subject on a plain background
(clip art on white, a drawing on paper) is an ``image`` with ``remove_background: true``:
printed whole, without its white, not cropped to a circle.

``printdeck init --images`` and the studio's intake both ask here, so a picture given either
way becomes the same entry.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from PIL import Image

PHOTO_ONLY_SUFFIXES = frozenset({".jpg", ".jpeg", ".heic", ".heif", ".avif"})
"""Formats without transparency: photos, or clip art on a plain background."""
PHONE_PHOTO_SUFFIXES = frozenset({".heic", ".heif", ".avif"})
"""Formats of a phone's camera: always photos (not decoded to be classified)."""
DRAFT_PX = 512
"""Longer side, pixels, a JPEG is decoded at to be classified (JPEG draft: a phone photo is
not decoded whole)."""
MAX_CLASSIFIED_PIXELS = 60_000_000
"""A bigger raster is not opened here (the theme's file check refuses it, saying why)."""


@dataclass(frozen=True)
class PictureKind:
    """A picture's theme entry, less its path.

    Attributes:
        key: ``photo`` or ``image``.
        upright: An image showing a face (a person's or a cat's): written ``rotate: false``.
        cut_out: An opaque image whose plain background is left out: written
            ``remove_background: true``.
    """

    key: str
    upright: bool = False
    cut_out: bool = False


def picture_kind(name: str, data: bytes) -> PictureKind:
    """The entry of the picture file called ``name`` whose bytes are ``data``: an SVG is an
    image; an opaque raster a photo, or, showing a subject on a plain background
    (:func:`printdeck.artwork.plain_background`), an image with its background removed; and
    a raster with transparent pixels an image. An image is upright if OpenCV's face cascades
    (:func:`printdeck.artwork.faces.find_faces`, :func:`printdeck.artwork.faces.find_cat_faces`)
    find a face in it on white. A file Pillow cannot open is a photo if its name says JPEG,
    HEIC or AVIF, else an image (the theme's check says what is wrong with it). Never raises.
    """
    suffix = Path(name).suffix.lower()
    if suffix == ".svg":
        return PictureKind("image")
    if suffix in PHONE_PHOTO_SUFFIXES:
        return PictureKind("photo")
    try:
        from PIL import Image, ImageOps  # noqa: PLC0415 - only when a picture comes in

        with Image.open(io.BytesIO(data)) as image:
            if image.width * image.height > MAX_CLASSIFIED_PIXELS:
                return PictureKind("photo" if suffix in PHOTO_ONLY_SUFFIXES else "image")
            opaque = not (image.mode in ("RGBA", "LA", "PA") or (image.mode == "P" and "transparency" in image.info))
            image.draft("RGB", (DRAFT_PX, DRAFT_PX))  # a JPEG decodes only what the probe needs
            rgba = ImageOps.exif_transpose(image).convert("RGBA")  # upright, as a photo is searched
    except Exception:  # noqa: BLE001 - a broken file: the theme's check says what is wrong with it
        return PictureKind("photo" if suffix in PHOTO_ONLY_SUFFIXES else "image")
    if opaque or rgba.getchannel("A").getextrema()[0] == 255:  # no alpha, or every pixel opaque
        if not _plain(rgba):
            return PictureKind("photo")
        return PictureKind("image", upright=_shows_a_face(rgba), cut_out=True)
    return PictureKind("image", upright=_shows_a_face(rgba))


def _plain(rgba: Image.Image) -> bool:
    """:func:`printdeck.artwork.plain_background` of an opaque picture."""
    from printdeck.artwork import plain_background  # noqa: PLC0415 - OpenCV only for pictures

    return plain_background(rgba)


def _shows_a_face(rgba: Image.Image) -> bool:
    """Whether a cut-out (RGBA, upright) shows a person's or a cat's face, on white, searched at
    the size a photo's faces are (:data:`printdeck.artwork.FACE_PROBE_PX`)."""
    from PIL import Image  # noqa: PLC0415

    from printdeck.artwork import FACE_PROBE_PX, find_cat_faces, find_faces, flattened  # noqa: PLC0415 - OpenCV for cut-outs

    rgba.thumbnail((FACE_PROBE_PX, FACE_PROBE_PX), Image.Resampling.BOX)
    rgb = np.asarray(flattened(rgba))
    try:
        return bool(find_faces(rgb) or find_cat_faces(rgb))
    except (ImportError, ValueError):  # no OpenCV: the picture turns as any image
        return False
