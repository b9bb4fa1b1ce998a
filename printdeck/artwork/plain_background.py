"""Pictures that are a subject on a plain background: clip art, a drawing scanned or
photographed on white paper, a product shot. Such an opaque picture is printed whole, its
background left out (``remove_background`` on an ``image``), rather than as a photo cropped
to a circle, which would cut a wide car's ends off and print the white paper round it.

``printdeck init --images`` and the studio's intake ask :func:`plain_background` of every
opaque raster (:func:`printdeck.theme.picture_kind`).
"""

from __future__ import annotations

import numpy as np
from PIL import Image

from printdeck.artwork.picture import background_alpha

PROBE_PX = 256
"""Longer side, pixels, of the copy a picture is judged on."""
PLAIN_BORDER_SHARE = 0.97
"""Least share of the copy's border pixels within :data:`BORDER_TOLERANCE` of the border's
median colour: the picture is framed by one plain colour all round. A photo's subject, or
its scenery, reaches its edges somewhere."""
BORDER_TOLERANCE = 16
"""Largest per-channel difference from the border's median colour of a plain border's
pixels: a JPEG's white stays within a few levels; a wall's texture and a photo's noise do
not (a brick or grass wall behind a pet: 0.81 of its border within 16, 0.95-0.98 within
:data:`BACKGROUND_TOLERANCE`, bench/RESULTS.md)."""
SUBJECT_SHARE = (0.02, 0.9)
"""The share of the picture its subject (what :func:`background_alpha` keeps) must cover:
less is a speck on a blank page, more a picture with a thin plain frame."""
FRAMED_SHARE = 0.9
"""A subject filling at least this share of its own bounding box is a rectangle: a photo
printed with a white margin, or a photo held up against a plain wall, which stays a photo.
The subject is what is left once the border's colour within :data:`BORDER_TOLERANCE` is
taken away. At the looser :data:`~printdeck.artwork.picture.BACKGROUND_TOLERANCE` that
removes a background, a photo's own pixels near the wall's colour went with it, and the
rectangle, eaten in, passed for clip art. Photos on plain walls fill 0.94-1.00 of their
box; clip art, scikit-image's horse, logo and retina 0.37-0.82 (bench/RESULTS.md)."""


def plain_background(picture: Image.Image) -> bool:
    """Whether ``picture`` (opaque, any mode) shows a subject on a plain background: at
    least :data:`PLAIN_BORDER_SHARE` of its border within :data:`BORDER_TOLERANCE` of one
    colour, and what removing that
    background keeps (:func:`~printdeck.artwork.picture.background_alpha`) within
    :data:`SUBJECT_SHARE` of the picture and not a filled rectangle (:data:`FRAMED_SHARE`).
    Judged on a copy of :data:`PROBE_PX` pixels.

    Examples: a red car drawn on white, or a scanned drawing on white paper: True; a
    phone photo of a person, whose body or room reaches the edges: False.
    """
    small = picture.convert("RGB")
    small.thumbnail((PROBE_PX, PROBE_PX), Image.Resampling.BOX)
    pixels = np.asarray(small, dtype=np.int16)
    if min(pixels.shape[:2]) < 8:
        return False
    border = np.concatenate([pixels[0], pixels[-1], pixels[1:-1, 0], pixels[1:-1, -1]])
    near = np.abs(border - np.median(border, axis=0)).max(axis=1) <= BORDER_TOLERANCE
    if near.mean() < PLAIN_BORDER_SHARE:
        return False
    kept = background_alpha(small, BORDER_TOLERANCE) > 127  # the plain colour's own tolerance
    share = float(kept.mean())
    if not SUBJECT_SHARE[0] <= share <= SUBJECT_SHARE[1]:
        return False
    rows, cols = np.nonzero(kept)
    box_px = (rows.max() - rows.min() + 1) * (cols.max() - cols.min() + 1)
    return bool(kept.sum() < FRAMED_SHARE * box_px)
