"""A photo's crop kept in the disk cache (``crops/KEY.json``), by its drawing key: the face
and subject search (:func:`printdeck.artwork.framing.photo_framing`) is the slow part of
drawing a photo, done once a photo and a process at a time (:func:`printdeck.cache_claims.claimed`).
"""

from __future__ import annotations

import json
import math
from typing import TYPE_CHECKING

from printdeck.cache import cache_dir, read_entry, write_entry
from printdeck.cache_claims import claimed
from printdeck.model import CropReport, SymbolSpec

if TYPE_CHECKING:
    from printdeck.artwork.picture import Crop

__all__ = ["framed", "stored_crop"]


def framed(symbol: SymbolSpec, key: str, size_px: tuple[int, int]) -> tuple[Crop, CropReport]:
    """A photo's crop square and what it holds: from the disk cache, or found now
    (:func:`~printdeck.artwork.framing.photo_framing`) and kept there. A process or thread
    already finding them (the look-alike check beside a cold deck's photo workers) is
    waited for and its answer read, not found again.

    Args:
        symbol: The photo symbol.
        key: Its drawing key (:func:`~printdeck.artwork.drawing.drawing_key`).
        size_px: ``(width, height)`` of the photo as shown (EXIF-upright), pixels.

    Returns:
        The crop (pixels of the upright photo) and its report.

    Raises:
        PrintdeckError: The photo cannot be read or decoded.
    """
    stored = stored_crop(key, size_px)
    if stored is None:
        with claimed(cache_dir("crops"), key):
            stored = stored_crop(key, size_px)  # found while this one waited
            if stored is None:
                from printdeck.artwork.framing import photo_framing  # noqa: PLC0415 - faces only when framed

                stored = photo_framing(symbol, size_px)
                _store_crop(key, *stored)
    return stored


def stored_crop(key: str, size_px: tuple[int, int]) -> tuple[Crop, CropReport] | None:
    """A photo's crop and its report found by an earlier build or process, if it is on
    disk and valid for a picture of ``size_px`` (``(width, height)``, pixels): its square
    inside the picture; None otherwise (never kept, unreadable or for another size)."""
    folder = cache_dir("crops")
    text = read_entry(folder / f"{key}.json") if folder is not None else None
    try:
        data = json.loads(text or "null")
        left, top, side = (float(v) for v in data["crop"])
        report = CropReport.from_json(data["report"])
    except (TypeError, ValueError, KeyError, IndexError):
        return None
    w, h = size_px
    if (
        all(math.isfinite(v) for v in (left, top, side))
        and 0 < side <= min(w, h) + 1e-6
        and -1e-6 <= left <= w - side + 1e-6
        and -1e-6 <= top <= h - side + 1e-6
    ):
        from printdeck.artwork.picture import Crop  # noqa: PLC0415 - Pillow only for photos

        return Crop(left, top, side), report
    return None


def _store_crop(key: str, crop: Crop, report: CropReport) -> None:
    folder = cache_dir("crops")
    if folder is not None:
        record = {"crop": [crop.left, crop.top, crop.side], "report": report.as_json()}
        write_entry(folder / f"{key}.json", json.dumps(record))
