"""Each photo's crop as the PDF cuts it, for the page: the badge of what the crop holds and
the crop square as fractions of the upright picture, so the ring, zoom and mask the page
draws over a photo are the artwork code's own crop (``printdeck.photo_crop``), never a
guess of the page's."""

from __future__ import annotations

import functools
import io
from pathlib import Path
from typing import Any

from PIL import Image, UnidentifiedImageError

import printdeck
from printdeck.errors import PrintdeckError
from printdeck.studio.symbol_list import photo_face
from printdeck.studio.workspace import Workspace

_TURNED = {5, 6, 7, 8}  # EXIF orientations that swap width and height
EXIF_ORIENTATION = 0x0112


def crop_title(report: printdeck.CropReport) -> str:
    """One sentence on what a photo's crop holds, for the badge's tooltip."""
    kept = report.faces_kept
    if report.found == "focus":
        return "Cropped where you put its centre"
    if report.faces_cut:
        text = report.faces_cut_text
        return f"{text[:1].upper()}{text[1:]}; click the photo to choose"
    if report.found in ("face", "cat face"):
        return f"Cropped around {kept} face{'s' if kept != 1 else ''}" + (
            " and the subject" if report.subject_whole else ""
        )
    if report.found == "subject":
        whole = "the subject" if report.subject_whole else "the middle of a subject too big to keep whole"
        return f"No face found: cropped around {whole}" + ("" if report.subject_whole else "; check it")
    return "Nothing found: the centre is shown; click the photo where the crop should centre"


FOCUS_MISSED = 0.02
"""A crop whose centre is further than this (a share of the photo's side) from where it was
clicked did not centre there: the photo's edge stopped it."""


def crop_view(
    report: printdeck.CropReport, size_px: tuple[int, int] | None, focus: tuple[float, float] | None = None
) -> dict[str, Any]:
    """The page's facts about a crop: ``badge`` (face, pet, subject, your focus, centre:
    check me), ``check`` (a person should look), ``title`` (a sentence) and ``box``: the
    crop square ``[left, top, right, bottom]`` as fractions (0..1) of the upright
    picture of ``size_px`` (width, height in pixels), or None when the size is unknown.
    A crop clicked (``focus``, fractions) that the photo's edge kept from centring there
    (:data:`FOCUS_MISSED`) says so, and that zooming in lets it."""
    box = None
    title = crop_title(report)
    if size_px is not None:
        w, h = size_px
        left, top, right, bottom = report.box_px
        box = [round(left / w, 4), round(top / h, 4), round(right / w, 4), round(bottom / h, 4)]
        centre = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
        if (
            report.found == "focus"
            and focus is not None
            and max(abs(a - b) for a, b in zip(centre, focus)) > FOCUS_MISSED
        ):
            title = "Cropped as near where you put its centre as the photo's edge allows; zoom in to centre it there"
    return {"badge": report.badge, "check": report.needs_check, "title": title, "box": box}


def upright_size(path: Path) -> tuple[int, int] | None:
    """A picture file's (width, height) in pixels once turned upright as its EXIF says
    (read from its header only); None when Pillow cannot read it."""
    try:
        stat = path.stat()
    except OSError:
        return None
    return _upright_size(path, stat.st_mtime_ns, stat.st_size)


@functools.lru_cache(maxsize=1024)
def _upright_size(path: Path, mtime_ns: int, size: int) -> tuple[int, int] | None:
    printdeck.upright_picture  # noqa: B018 - printdeck's decoders (HEIC, AVIF) are registered on import
    try:
        with Image.open(path) as image:
            w, h = image.size
            turned = image.getexif().get(EXIF_ORIENTATION) in _TURNED
    except (OSError, UnidentifiedImageError, ValueError):
        return None
    return (h, w) if turned else (w, h)


def photo_crops(theme: printdeck.Theme, folder: Path, compute: bool) -> dict[str, dict[str, Any]]:
    """Each photo symbol's crop view by its file (as ``theme.yaml`` names it); with
    ``compute`` False only the crops already known (drawn by the preview or a build)."""
    out = {}
    for symbol in (face for s in theme.symbols for face in s.all_faces):  # a photo face's crop too
        if symbol.kind != "photo" or not symbol.source:
            continue
        try:
            report = printdeck.photo_crop(symbol, compute=compute)
        except PrintdeckError:
            report = None
        if report is not None:
            out[symbol.source] = crop_view(report, upright_size(_file_of(symbol, folder)), symbol.focus)
    return out


def item_crop(space: Workspace, uid: int) -> dict[str, Any] | None:
    """The crop view of photo ``uid`` of the saved deck, searched now if not known (about
    a second a large photo); None when ``uid`` is no photo of a deck that loads.

    Raises:
        PrintdeckError: The photo cannot be read.
    """
    symbol = _photo_symbol(space, uid)
    report = printdeck.photo_crop(symbol) if symbol is not None else None
    if report is None or symbol is None:
        return None
    return crop_view(report, upright_size(_file_of(symbol, space.folder)), symbol.focus)


PRINTED_PX = 240
"""Longer side, pixels, of a photo shown as it prints (:func:`item_printed`)."""


def item_printed(space: Workspace, uid: int) -> bytes | None:
    """Photo ``uid`` as it prints (its crop, its shape, its background removed or not), a
    PNG :data:`PRINTED_PX` pixels across: what "Remove a plain background" leaves is seen
    before a card shows it. None when ``uid`` is no photo of a deck that loads.

    Raises:
        PrintdeckError: The photo cannot be read.
    """
    symbol = _photo_symbol(space, uid)
    if symbol is None:
        return None
    out = io.BytesIO()
    printdeck.symbol_picture(symbol, PRINTED_PX).save(out, format="PNG")
    return out.getvalue()


def _photo_symbol(space: Workspace, uid: int) -> Any:
    """The photo symbol of item ``uid`` in the saved deck (or, while the deck does not load,
    in a theme of the photo alone); for a symbol with faces, its photo face whose picture its
    tile shows; None when it is no photo or is refused."""
    snap = space.snapshot()
    with space.lock:
        try:
            item = space.items[space.find(uid)]
        except KeyError:
            return None
    if item.file is None:
        return None
    data = item.faces()[number] if (number := photo_face(item)) is not None else item.data
    theme = snap.theme if snap.theme is not None else alone_theme(data, space.folder)
    symbols = [face for s in theme.symbols for face in s.all_faces] if theme is not None else []
    return next((s for s in symbols if s.kind == "photo" and s.source == item.file), None)


def alone_theme(data: dict[str, Any], folder: Path) -> printdeck.Theme | None:
    """A theme of one picture (a photo, or an image) and six words: the picture's symbol while
    the deck does not load yet (too few symbols), or apart from it; None when the picture
    itself is refused."""
    words = [{"text": f"_{k}"} for k in range(1, 7)]  # a picture's name has no "_": no word takes it
    try:
        return printdeck.load_theme({"deck": {"symbols_per_card": 3}, "symbols": [data, *words]}, base_dir=folder)
    except PrintdeckError:
        return None


def _file_of(symbol: Any, folder: Path) -> Path:
    path = getattr(symbol, "path", None)
    return Path(path) if path is not None else folder / symbol.source
