"""Where a photo is cropped, and why: faces, cats' faces, the subject, or the centre (issue #26).

:func:`decide_crop` is the decision from boxes (pure geometry, any source of boxes);
:func:`photo_framing` finds the boxes on a photo symbol (:mod:`printdeck.artwork.faces`,
:mod:`printdeck.artwork.saliency`) and decides. The result is the crop square in upright
source pixels and a :class:`~printdeck.model.CropReport` saying what it holds, which the
build's summary, the manifest and the studio show.

The rule: every face (people's and cats') is held whole inside the crop's shape if one
crop can hold them all, else the largest group that fits (a face near a corner of the photo,
which the widest crop cannot hold, by a smaller crop that reaches into the corner); then the subject (the salient
object, :func:`~printdeck.artwork.saliency.find_subject`) too, if it fits with them.
The crop then zooms in as far as it can while keeping all of those whole (at most
:data:`AUTO_ZOOM_MAX` times closer than the widest crop the theme's ``zoom`` allows).
With nothing found it is the centred square, as before.
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Sequence

import numpy as np
from shapely.geometry import Point
from shapely.ops import nearest_points

from printdeck.artwork.crop_geometry import (
    CropShape,
    CropWindow,
    FaceBox,
    crop_window,
    holds_all,
    largest_group,
    pad_face,
    smallest_side,
    union_box,
)
from printdeck.artwork.faces import apart_from, find_cat_faces, find_faces
from printdeck.artwork.picture import FACE_PROBE_PX, Crop, upright
from printdeck.artwork.saliency import subject_boxes
from printdeck.choices import PhotoShape
from printdeck.model import CropFound, CropReport, SymbolSpec

__all__ = ["AUTO_ZOOM_MAX", "SUBJECT_PAD", "ZOOM_ROOM", "decide_crop", "photo_framing"]

AUTO_ZOOM_MAX = 3.0
"""The crop zooms in on what it keeps at most this many times closer than the theme's zoom."""
SUBJECT_PAD = 0.06
"""The subject's box is grown by this share of its width and height on each side."""
ZOOM_ROOM = 1.08
"""The zoomed crop's side is the tightest side holding everything kept, times this."""
_SIDE_STEPS = 12  # sides tried for a subject that does not fit the widest crop


def decide_crop(
    size_px: tuple[float, float],
    faces: Sequence[FaceBox],
    cat_faces: Sequence[FaceBox] = (),
    subject: FaceBox | None = None,
    focus: tuple[float, float] | None = None,
    zoom: float = 1.0,
    shape: CropShape = PhotoShape.CIRCLE,
    core: FaceBox | None = None,
    *,
    least_side: float | None = None,
) -> tuple[CropWindow, CropReport]:
    """The crop of a photo from what was found on it, and the report of the decision.

    Args:
        size_px: ``(width, height)`` of the (upright) photo, pixels.
        faces: People's face boxes (:func:`~printdeck.artwork.faces.find_faces`), pixels.
        cat_faces: Cats' face boxes (:func:`~printdeck.artwork.faces.find_cat_faces`).
        subject: The subject's box (:func:`~printdeck.artwork.saliency.find_subject`) or None.
        focus: The theme's ``focus`` (fractions of width and height); when given, the
            crop is centred there (:func:`~printdeck.artwork.crop_geometry.crop_window`)
            and nothing else counts.
        zoom: The theme's ``zoom`` (>= 1): the widest crop's side is ``min(w, h) / zoom``.
        shape: ``circle`` or ``rounded``.
        core: The middle of the subject (:func:`~printdeck.artwork.saliency.subject_boxes`):
            when the whole subject cannot be held, its core is, if it fits.
        least_side: The smallest side the crop zooms in to, pixels (default: the widest
            crop's side over :data:`AUTO_ZOOM_MAX`; a crop decided again at a smaller side,
            for a face in a corner, keeps the theme's).

    Returns:
        ``(window, report)``: the crop square (inside the photo) and what it holds; the
        report's boxes are in the same pixels as the arguments.

    Raises:
        ValueError: as :func:`~printdeck.artwork.crop_geometry.crop_window`.
    """
    cat_faces = apart_from(cat_faces, faces)  # a person's face the cat cascade saw too is counted once
    width, height = float(size_px[0]), float(size_px[1])
    widest = crop_window((width, height), [], focus, zoom, shape)  # validates; the centred crop without focus
    if focus is not None:
        return widest, _report(CropFound.FOCUS, widest)
    size = (width, height)
    padded = [
        (p, k) for k, group in ((0, faces), (1, cat_faces)) for f in group if (p := pad_face(f, size)) is not None
    ]
    counts = {"faces": len(faces), "cat_faces": len(cat_faces)}
    everywhere = holds_all([], size, widest.side, shape)
    largest = max(range(len(padded)), key=lambda i: padded[i][0].area, default=None)
    if largest is not None and holds_all([padded[largest][0]], size, widest.side, shape).is_empty:
        kind = CropFound.CAT_FACE if padded[largest][1] else CropFound.FACE
        side = _largest_side_holding([padded[largest][0]], size, widest.side, shape)
        if side is not None:  # a smaller crop reaches further into the photo's corner: decided at that side
            zoom_in = zoom * widest.side / side
            floor = least_side or widest.side / AUTO_ZOOM_MAX
            return decide_crop(size_px, faces, cat_faces, subject, None, zoom_in, shape, core, least_side=floor)
        return _face_alone(padded[largest][0], (faces, cat_faces), size, (widest.side, zoom, shape), kind)
    held_region, held = largest_group([p for p, _ in padded], everywhere, widest.side / 2, shape)
    targets = [padded[i][0] for i in held]
    found = CropFound.NOTHING
    if targets:
        found = CropFound.FACE if any(padded[i][1] == 0 for i in held) else CropFound.CAT_FACE
    thing = None if subject is None else subject.grown(SUBJECT_PAD).clipped(width, height)
    fits = None if thing is None else _largest_side_holding(targets + [thing], size, widest.side, shape)
    if thing is not None and fits is not None:
        targets = targets + [thing]
        found = CropFound.SUBJECT if found == CropFound.NOTHING else found
    extra = dict(counts, faces_kept=len(held), subject_px=None if subject is None else tuple(subject))
    extra["subject_whole"] = fits is not None
    if thing is not None and fits is None:  # the subject does not fit: as much of it as the faces allow
        window = _partly(targets, held_region if targets else everywhere, (thing, core), size, widest.side, shape)
        bare = None if subject is None else subject.clipped(width, height)  # without its margin, may still fit
        extra["subject_whole"] = bare is not None and _holds(window, bare, size, shape)
        return window, _report(found if targets else CropFound.SUBJECT, window, **extra)
    if not targets:
        return widest, _report(CropFound.NOTHING, widest, **counts)
    floor = min(least_side or widest.side / AUTO_ZOOM_MAX, fits or widest.side)
    window = _zoomed(targets, size, (floor, fits or widest.side), shape)
    return window, _report(found, window, **extra)


def _face_alone(
    padded: FaceBox,
    found_faces: tuple[Sequence[FaceBox], Sequence[FaceBox]],
    size: tuple[float, float],
    crop: tuple[float, float, CropShape],
    found: CropFound,
) -> tuple[CropWindow, CropReport]:
    """The crop of a photo whose largest face with its hair and chin (``padded``) no crop
    holds: the face itself, whole, at the largest side that holds it (a face so near a corner
    that its padding reaches past it), else centred on the faces (:func:`crop_window`'s rule),
    the face not held.

    Args:
        padded: The largest face, padded (:func:`~printdeck.artwork.crop_geometry.pad_face`).
        found_faces: ``(faces, cat_faces)`` found on the photo, pixels.
        size: The photo's ``(width, height)``, pixels.
        crop: ``(widest side, zoom, shape)`` of the theme's crop.
        found: What the face is (a person's or a cat's).
    """
    faces, cat_faces = found_faces
    widest, zoom, shape = crop
    counts = {"faces": len(faces), "cat_faces": len(cat_faces)}
    face = next(f for f in (*faces, *cat_faces) if pad_face(f, size) == padded)
    side = _largest_side_holding([face], size, widest, shape)
    if side is not None:
        window = _nearest(holds_all([face], size, side, shape), face.centre_point(), side, size)
        return window, _report(found, window, faces_kept=1, **counts)
    window = crop_window(size, [*faces, *cat_faces], None, zoom, shape)
    return window, _report(found, window, **counts)


def _partly(
    targets: list[FaceBox],
    region: object,
    subject: tuple[FaceBox, FaceBox | None],
    size: tuple[float, float],
    widest: float,
    shape: CropShape,
) -> CropWindow:
    """A subject too big or too far in a corner for any crop: its core (grown by
    :data:`SUBJECT_PAD`) held with the faces at the largest side that can, else the widest
    crop holding the faces, each placed as near the whole subject's middle as it can."""
    thing, core = subject
    aim = union_box(targets + [thing]).centre_point()
    middle = None if core is None else core.grown(SUBJECT_PAD).clipped(*size)
    side = None if middle is None else _largest_side_holding(targets + [middle], size, widest, shape)
    if middle is not None and side is not None:
        return _nearest(holds_all(targets + [middle], size, side, shape), aim, side, size)
    return _nearest(region, aim, widest, size)


def _holds(window: CropWindow, box: FaceBox, size: tuple[float, float], shape: CropShape) -> bool:
    """Whether the crop ``window`` holds ``box`` whole (to 1e-6 of its side)."""
    region = holds_all([box], size, window.side, shape)
    return not region.is_empty and region.distance(Point(window.cx, window.cy)) <= 1e-6 * window.side


def _largest_side_holding(
    boxes: list[FaceBox], size: tuple[float, float], widest: float, shape: CropShape
) -> float | None:
    """The largest of :data:`_SIDE_STEPS` sides from ``widest`` down to ``widest /``
    :data:`AUTO_ZOOM_MAX` whose crop holds every box; None if none does (a smaller crop
    reaches further into the photo's corners, so the widest is not always the one)."""
    for step in range(_SIDE_STEPS + 1):
        side = widest / AUTO_ZOOM_MAX ** (step / _SIDE_STEPS)
        if not holds_all(boxes, size, side, shape).is_empty:
            return side
    return None


def _zoomed(
    boxes: list[FaceBox], size: tuple[float, float], sides: tuple[float, float], shape: CropShape
) -> CropWindow:
    """The crop holding every box, as tight as :func:`smallest_side` finds in ``sides = (low,
    high)`` (``high`` holds them) plus :data:`ZOOM_ROOM`, centred as near their middle as it can."""
    tightest = smallest_side(boxes, size, sides, shape)
    for side in (min(sides[1], ZOOM_ROOM * tightest), tightest, sides[1]):
        region = holds_all(boxes, size, side, shape)
        if not region.is_empty:
            return _nearest(region, union_box(boxes).centre_point(), side, size)
    raise AssertionError("the widest side given holds the boxes")  # pragma: no cover


def _nearest(region: object, aim: object, side: float, size: tuple[float, float]) -> CropWindow:
    """The crop of ``side`` centred at the point of ``region`` nearest ``aim``, clamped inside."""
    best = nearest_points(region, aim)[0]
    radius = side / 2.0
    return CropWindow(min(max(best.x, radius), size[0] - radius), min(max(best.y, radius), size[1] - radius), side)


def _report(found: CropFound, window: CropWindow, **fields: object) -> CropReport:
    return CropReport(found, (window.x0, window.y0, window.x1, window.y1), **fields)  # type: ignore[arg-type]


def photo_framing(symbol: SymbolSpec, size_px: tuple[int, int]) -> tuple[Crop, CropReport]:
    """Where a photo symbol is cropped and why, in upright source pixels.

    With the theme's ``focus`` the crop is centred there and nothing is searched for;
    else faces, cats' faces and the subject are found on a copy of the photo
    :data:`~printdeck.artwork.picture.FACE_PROBE_PX` pixels long and
    :func:`decide_crop` decides.

    Args:
        symbol: A photo symbol.
        size_px: The photo's upright ``(width, height)``, pixels.

    Returns:
        ``(crop, report)``: the crop square (inside the photo) and what it holds.

    Raises:
        PrintdeckError: The file cannot be read.
    """
    w, h = size_px
    shape: CropShape = symbol.photo_shape or PhotoShape.CIRCLE
    zoom = max(symbol.zoom, 1.0)
    if symbol.focus is not None:
        window, report = decide_crop((w, h), [], focus=symbol.focus, zoom=zoom, shape=shape)
        return _crop(window, (w, h)), report
    probe = upright(symbol, min(FACE_PROBE_PX, max(w, h)))
    rgb = np.ascontiguousarray(np.asarray(probe.convert("RGB")))
    subject, core = _subject(rgb)
    window, report = decide_crop(probe.size, find_faces(rgb), find_cat_faces(rgb), subject, None, zoom, shape, core)
    sx, sy = w / probe.width, h / probe.height
    side = window.side / min(probe.size) * min(w, h)
    crop = _crop(CropWindow(window.cx * sx, window.cy * sy, side), (w, h))

    def scaled(box: tuple[float, float, float, float] | None) -> tuple[float, float, float, float] | None:
        return None if box is None else (box[0] * sx, box[1] * sy, box[2] * sx, box[3] * sy)

    box_px = (crop.left, crop.top, crop.left + crop.side, crop.top + crop.side)
    return crop, CropReport(
        report.found,
        box_px,
        report.faces,
        report.cat_faces,
        report.faces_kept,
        scaled(report.subject_px),
        report.subject_whole,
    )


def _subject(rgb: np.ndarray) -> tuple[FaceBox | None, FaceBox | None]:
    """:func:`~printdeck.artwork.saliency.subject_boxes`, or (None, None) with one warning
    a process when OpenCV's contrib modules are missing (the plain ``opencv-python-headless``
    wheel installed over ``opencv-contrib-python-headless``): faces are still kept."""
    try:
        return subject_boxes(rgb) or (None, None)
    except ImportError as exc:
        _warn_once(str(exc))
        return None, None


@functools.lru_cache(maxsize=1)
def _warn_once(message: str) -> None:
    warnings.warn(f"{message}; photo crops keep faces only", RuntimeWarning, stacklevel=3)


def _crop(window: CropWindow, size_px: tuple[float, float]) -> Crop:
    """The :class:`~printdeck.artwork.picture.Crop` of ``window``, clamped inside the photo."""
    w, h = size_px
    side = min(window.side, float(min(w, h)))
    left = min(max(window.cx - side / 2.0, 0.0), w - side)
    top = min(max(window.cy - side / 2.0, 0.0), h - side)
    return Crop(left, top, side)
