"""One square PNG a card for print-on-demand services.

The image is (diameter + 2 x bleed + 2 x extra) x dpi / 25.4 pixels square, the
card centred, its bleed disc in the card background colour, white outside, the
border ring where the theme asks for one, the resolution stored in the file (pHYs).
Symbols are the drawings the layout traced (:func:`printdeck.artwork.rasterise`),
their whole box scaled to ``box_mm`` and rotated counter-clockwise, as in the PDF.
A class set's deck mark and each deck's back are the PDF's own drawings rasterised by
PDFium (:mod:`~printdeck.render.class_images`, :func:`~printdeck.render.backs.back_image`);
a class set's files carry their deck's letter (``card-001-B.png``, ``back-B.png``; a
letters deck's decks are numbered: ``back-2.png``), a split deck's backs theirs
(``back-A.png``, ``back-B.png``).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from PIL import Image, ImageChops, ImageDraw
from PIL.PngImagePlugin import PngInfo

from printdeck.artwork import rasterise, srgb_profile_bytes
from printdeck.cardshape import CardShape, card_path, path_points
from printdeck.errors import PrintdeckError, path_error, shown
from printdeck.file_locks import folder_lock
from printdeck.fileio import (
    note_written,
    remove_stale_temps,
    staging_folder,
    write_error,
)
from printdeck.model import CardLayout, Placement, SymbolSpec, card_in_deck
from printdeck.output_record import PNG_SOFTWARE, PNG_SOFTWARE_KEY
from printdeck.render.class_images import card_name, paste_mark
from printdeck.render.grey import grey_picture
from printdeck.render.png_record import card_files, read_png_record, write_png_record
from printdeck.render.print_job import PrintJob
from printdeck.render.style import BORDER_INSET_MM, BORDER_WIDTH_MM, CardStyle
from printdeck.signals import deferred
from printdeck.theme import BuildSettings, parse_settings
from printdeck.units import MM_PER_UNIT


def render_pngs(
    job: PrintJob,
    symbols: Sequence[SymbolSpec],
    layouts: Sequence[CardLayout],
    out_dir: Path,
    dpi: int = 300,
    extra_margin_mm: float = 0.0,
    cut: bool = False,
    image_format: str = "png",
    backs: Mapping[str, Image.Image] | None = None,
) -> list[Path]:
    """Write ``card-001.png`` ... one a card into ``out_dir``, all or nothing (a class
    set's cards numbered in their own deck, with its letter, ``card-001-B.png``: :func:`card_name`).

    With ``image_format="jpg"`` the cards are JPEGs (quality 95, no chroma
    subsampling); ``backs`` (the card backs drawn by
    :func:`printdeck.render.backs.back_image`, by file name stem: ``back``, or a class
    set's or split deck's ``back-A``, ``back-B`` ... from :func:`back_name`) are written as ``back.png``
    (``.jpg``) and so on; the artwork credit, when there is one, as ``CREDITS.txt``
    beside them. Every image is tagged sRGB (an ICC profile) and carries its dpi.

    The PNGs are drawn into a temporary folder beside ``out_dir`` (same file
    system); only when every card is written are the old ``card-*.png`` files of
    ``out_dir`` that this build does not replace removed and the new ones moved
    in, so a smaller deck leaves no stale cards and a failed build leaves the
    folder as it was. Each PNG carries its DPI (pHYs) and iTXt ``Title`` (the
    deck's title), ``Copyright`` (the artwork credit, ``job.attribution``) and
    ``Software``.

    Args:
        job: The card's radius, bleed, background and border (``job.card``), title and credit.
        symbols: The deck's symbols (looked up by ``id``).
        layouts: The laid-out cards.
        out_dir: Output folder (created if missing).
        dpi: Pixels per inch, stored in the files.
        extra_margin_mm: Extra radial margin of background beyond the bleed (for
            services that cut wide), mm.
        cut: Cards at cut size, transparent outside the card's shape, no bleed (for
            print-then-cut machines, which add their own).

    Returns:
        The PNG paths (inside ``out_dir``) in card order.

    Raises:
        PrintdeckError: A dpi or margin outside :class:`~printdeck.theme.BuildSettings`
            ranges (naming ``dpi`` or ``png_margin_mm``), ``out_dir`` is a file or unwritable,
            unusable artwork.
    """
    parse_settings(BuildSettings, {"dpi": dpi, "png_margin_mm": extra_margin_mm})  # the build's ranges
    made = [p for p in (Path(out_dir), *Path(out_dir).parents) if not p.exists()]
    if image_format not in ("png", "jpg"):
        raise ValueError(f"image_format: expected 'png' or 'jpg', got {image_format!r}")
    out_dir = _ensure_folder(Path(out_dir))
    try:
        return _staged(job, symbols, layouts, out_dir, dpi, extra_margin_mm, cut, image_format, backs or {})
    except BaseException:  # an error, Ctrl-C or SIGTERM: no folder left that this call made
        for folder in made:
            with contextlib.suppress(OSError):
                folder.rmdir()  # only while empty
        raise


def _staged(
    job: PrintJob,
    symbols: Sequence[SymbolSpec],
    layouts: Sequence[CardLayout],
    out_dir: Path,
    dpi: int,
    extra_margin_mm: float,
    cut: bool = False,
    image_format: str = "png",
    backs: Mapping[str, Image.Image] | None = None,
) -> list[Path]:
    """Draw the cards into a staging folder beside ``out_dir``, then move them in.

    Raises:
        PrintdeckError: Unusable artwork, or the folder cannot be written (naming
            ``out_dir``, never the staging folder; a full disk says so).
    """
    remove_stale_temps(out_dir.parent, out_dir.name)
    try:
        with staging_folder(out_dir) as staging:
            try:
                names = _write_cards(job, symbols, layouts, staging, dpi, extra_margin_mm, cut, image_format)
                kept = {stem: _cut_back(job, back, dpi) if cut else back for stem, back in (backs or {}).items()}
                names += _write_beside(job, staging, dpi, image_format, kept)
            except PrintdeckError as exc:
                if isinstance(exc.__cause__, OSError):  # name the real folder, not the staging one
                    raise write_error(out_dir, exc.__cause__) from None
                raise
            return [p for p in _move_in(staging, out_dir, names) if p.name.startswith("card-")]
    except OSError as exc:  # the staging folder cannot be made (a full disk, no permission)
        raise write_error(out_dir, exc) from None


def _ensure_folder(out_dir: Path) -> Path:
    """Create ``out_dir`` if missing; refuse a file in its place."""
    if out_dir.exists() and not out_dir.is_dir():
        raise path_error("png_dir", out_dir, "is a file, not a folder", "choose a folder")
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise path_error(
            "png_dir", out_dir, f"cannot create the folder ({exc.strerror})", "choose another folder"
        ) from exc
    return out_dir


def _png_info(job: PrintJob) -> PngInfo:
    """Text chunks of every card PNG: title, artwork credit, software."""
    info = PngInfo()
    info.add_itxt("Title", job.title)
    if job.attribution:
        info.add_itxt("Copyright", job.attribution)
    info.add_itxt(PNG_SOFTWARE_KEY, PNG_SOFTWARE)
    return info


def _write_cards(
    job: PrintJob,
    symbols: Sequence[SymbolSpec],
    layouts: Sequence[CardLayout],
    folder: Path,
    dpi: int,
    extra_margin_mm: float,
    cut: bool = False,
    image_format: str = "png",
) -> list[str]:
    """Draw every card into ``folder``; returns the file names in card order."""
    style = job.card
    px_per_mm = dpi / MM_PER_UNIT["in"]
    radius_mm = style.radius_mm + style.bleed_mm + extra_margin_mm
    side = round(2.0 * radius_mm * px_per_mm)
    info = _png_info(job)
    table = {s.id: s for s in symbols}
    names: list[str] = []
    shaped = cut or style.shape is not None
    for layout, in_deck in zip(layouts, card_in_deck(layouts)):
        if shaped:
            img = _shaped_card(style, style.bleed_mm + extra_margin_mm, px_per_mm, cut)
        else:
            img = Image.new("RGB", (side, side), "#ffffff")
            draw_disc(img, style, radius_mm, px_per_mm)
        for placement in layout.placements:
            _paste(img, table[placement.symbol_id], placement, px_per_mm)
        if layout.mark is not None:
            paste_mark(img, layout.mark, style.background, px_per_mm)
        if cut:
            img.putalpha(ImageChops.multiply(img.getchannel("A"), shape_mask(style.card_shape(), img.size, px_per_mm)))
        name = f"{card_name(layout, in_deck)}.{image_format}"
        if job.grayscale:
            img = grey_picture(img)
        _save(img, folder / name, dpi, info)
        names.append(name)
    return names


def _save(img: Image.Image, path: Path, dpi: int, info: PngInfo) -> None:
    """Save a card image as PNG or JPEG (by ``path``'s suffix), with its dpi; colour images
    tagged sRGB (an ICC profile; a grey one carries none: an RGB profile does not fit it)."""
    icc: dict[str, Any] = {"icc_profile": srgb_profile_bytes()} if img.mode in ("RGB", "RGBA") else {}
    try:
        if path.suffix == ".jpg":
            if img.mode == "RGBA":  # JPEG has no alpha: on white, as the paper
                flat = Image.new("RGB", img.size, "#ffffff")
                flat.paste(img, mask=img.getchannel("A"))
                img = flat
            img.save(path, "JPEG", quality=95, subsampling=0, dpi=(dpi, dpi), **icc)
        else:
            img.save(path, dpi=(dpi, dpi), compress_level=1, pnginfo=info, **icc)
    except OSError as exc:
        raise write_error(path, exc) from exc  # the file as source; a full disk said so


CREDITS_FILE = "CREDITS.txt"
"""The artwork credit written beside the card images when the deck has one."""


def _cut_back(job: PrintJob, back: Image.Image, dpi: int) -> Image.Image:
    """The back picture (:func:`printdeck.render.backs.back_image`, the card's box grown by
    its margins) cut as the fronts are with ``cut``: the card's box, transparent outside
    its shape (RGBA), so a print-then-cut service gets a back the size of the fronts."""
    shape, px_per_mm = job.card.card_shape(), dpi / MM_PER_UNIT["in"]
    size = (round(shape.width_mm * px_per_mm), round(shape.height_mm * px_per_mm))
    left, top = (back.width - size[0]) // 2, (back.height - size[1]) // 2
    cut = back.convert("RGB").crop((left, top, left + size[0], top + size[1])).convert("RGBA")
    cut.putalpha(shape_mask(shape, cut.size, px_per_mm))
    return cut


def _write_beside(
    job: PrintJob, folder: Path, dpi: int, image_format: str, backs: Mapping[str, Image.Image]
) -> list[str]:
    """The back images (by file name stem) and the credits file beside the cards; returns their names."""
    names = []
    for stem, back in backs.items():
        kept = back.convert("RGBA" if back.mode == "RGBA" else "RGB")  # cut backs keep their transparency
        picture = grey_picture(kept) if job.grayscale else kept
        _save(picture, folder / f"{stem}.{image_format}", dpi, _png_info(job))
        names.append(f"{stem}.{image_format}")
    if job.attribution:
        text = f"{job.title}\n\nArtwork credit: {job.attribution}\n\nMade with printdeck.\n"
        try:
            (folder / CREDITS_FILE).write_text(text, encoding="utf-8")
        except OSError as exc:
            raise write_error(folder / CREDITS_FILE, exc) from exc
        names.append(CREDITS_FILE)
    return names


def _move_in(staging: Path, out_dir: Path, names: Sequence[str]) -> list[Path]:
    """Move the new cards into ``out_dir`` and remove the stale cards of an earlier build.

    Only files printdeck recorded writing (:data:`printdeck.render.png_record.PNG_RECORD`) are
    replaced or removed; a ``card-*.png`` the record does not list is refused. The
    record lists old and new cards while files move, then the new ones only, under
    a lock on the folder (two builds into one folder take turns).

    Raises:
        PrintdeckError: A card file in the way was not written by printdeck, or the
            folder cannot be written (a full disk says so).
    """
    with folder_lock(out_dir):
        recorded = read_png_record(out_dir)
        present = set(card_files(out_dir))
        foreign = sorted((present & set(names)) - recorded)
        if foreign:
            raise path_error(
                "png_dir",
                out_dir,
                f"holds {shown(foreign[0])}, which printdeck did not write",
                "move it away or choose an empty folder",
            )
        try:
            with deferred():  # quick; a signal meanwhile stops the build after it
                write_png_record(out_dir, recorded | set(names))
                for name in names:
                    os.replace(staging / name, out_dir / name)
                for old in sorted((recorded & present) - set(names)):
                    if (out_dir / old).is_file() and not (out_dir / old).is_symlink():
                        (out_dir / old).unlink()
                write_png_record(out_dir, names)
                note_written(out_dir)
        except OSError as exc:
            raise write_error(out_dir, exc) from None
    return [out_dir / name for name in names]


MASK_SUPERSAMPLE = 4  # the cut mask is drawn this many times finer, then reduced (a smooth edge)


def _outline_px(shape: CardShape, size: tuple[int, int], px_per_mm: float, offset_mm: float = 0.0) -> list:
    """The shape's outline (grown by ``offset_mm``) in pixels of an image of ``size``, centred."""
    pts = card_path(shape, (0.0, 0.0), offset_mm)
    xy = path_points(pts, 0.25 / px_per_mm)
    return [(size[0] / 2 + x * px_per_mm, size[1] / 2 - y * px_per_mm) for x, y in xy]


def shape_mask(shape: CardShape, size: tuple[int, int], px_per_mm: float) -> Image.Image:
    """An ``L`` mask of ``size`` (pixels), ``shape`` centred at ``px_per_mm``: 255 inside its
    outline (the one cut path, :func:`printdeck.cardshape.card_path`), 0 outside, antialiased."""
    k = MASK_SUPERSAMPLE
    big = Image.new("L", (size[0] * k, size[1] * k), 0)
    ImageDraw.Draw(big).polygon(_outline_px(shape, big.size, px_per_mm * k), fill=255)
    return big.resize(size, Image.Resampling.BOX)


def _shaped_card(style: CardStyle, outer_mm: float, px_per_mm: float, cut: bool) -> Image.Image:
    """A card of any shape: its background out to ``outer_mm`` beyond the cut (or to the
    cut itself, on a transparent image, when ``cut``) and its border, as the PDF draws them."""
    shape = style.card_shape()
    grow = 0.0 if cut else outer_mm
    size = (round((shape.width_mm + 2 * grow) * px_per_mm), round((shape.height_mm + 2 * grow) * px_per_mm))
    img = Image.new("RGBA", size, (255, 255, 255, 0 if cut else 255))
    draw = ImageDraw.Draw(img)
    draw.polygon(_outline_px(shape, size, px_per_mm, grow), fill=style.background)
    if style.border_color:
        inset = -(BORDER_INSET_MM + BORDER_WIDTH_MM / 2.0)
        draw.line(
            _outline_px(shape, size, px_per_mm, inset),
            fill=style.border_color,
            width=max(1, round(BORDER_WIDTH_MM * px_per_mm)),
            joint="curve",
        )
    return img if cut else img.convert("RGB")


def draw_disc(img: Image.Image, style: CardStyle, outer_mm: float, px_per_mm: float) -> None:
    """The card's background disc (radius ``outer_mm``) and its border ring, as the PDF draws them."""
    draw = ImageDraw.Draw(img)
    side = img.width
    draw.ellipse((0, 0, side - 1, side - 1), fill=style.background)
    if style.border_color:
        inset = (outer_mm - style.border_outer_mm) * px_per_mm
        draw.ellipse(
            (inset, inset, side - 1 - inset, side - 1 - inset),
            outline=style.border_color,
            width=max(1, round(BORDER_WIDTH_MM * px_per_mm)),
        )


def _paste(img: Image.Image, symbol: SymbolSpec, p: Placement, px_per_mm: float) -> None:
    w_px = max(1, round(p.box_mm[0] * px_per_mm))
    h_px = max(1, round(p.box_mm[1] * px_per_mm))
    art = symbol_image(symbol, w_px, h_px, p.color)
    if p.rotation_deg:
        art = art.rotate(p.rotation_deg, resample=Image.Resampling.BICUBIC, expand=True)
    cx = img.width / 2.0 + p.center_mm[0] * px_per_mm
    cy = img.height / 2.0 - p.center_mm[1] * px_per_mm
    img.paste(art, (round(cx - art.width / 2.0), round(cy - art.height / 2.0)), art)


@lru_cache(maxsize=256)
def symbol_image(symbol: SymbolSpec, w_px: int, h_px: int, color: str | None = None) -> Image.Image:
    """The symbol's whole box as an RGBA image of exactly ``w_px`` x ``h_px`` pixels: its
    drawing (:func:`printdeck.artwork.rasterise`), a word in ``color``.

    Raises:
        PrintdeckError: The artwork is missing, unsafe or unreadable.
    """
    return rasterise(symbol, w_px, h_px, color)
