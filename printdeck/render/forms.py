"""Symbol drawings stored once as PDF Form XObjects and placed by transformation.

Each symbol's drawing (:func:`printdeck.artwork.drawing`: SVG as vectors, raster or
photo at native resolution, a word as its shaped glyph outlines) becomes one Form
XObject the first time a card uses it; every placement then draws that form with a
translate / rotate / scale, so the file holds each artwork once however many cards
show it. A word's form paints with the current fill colour, which each placement sets
(``Placement.color``), so one form serves every colour the word takes.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence

from reportlab.lib.colors import HexColor
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import FILL_NON_ZERO, Canvas

from printdeck.artwork import Drawing as SymbolDrawing, drawing, existing_file, rasterise
from printdeck.errors import LOW_RESOLUTION, shown
from printdeck.model import CardLayout, CropFound, Placement, SymbolSpec, card_in_deck
from printdeck.render.canvas import end_form
from printdeck.render.pictures import (
    StoredPicture,
    clip_rings,
    draw_picture,
    outline_rings,
    store_picture,
    store_pictures,
)
from printdeck.render.proof import VectorWarning, fallback_line, prints_as_raster, proof
from printdeck.render.svg_features import svg_undrawn_feature
from printdeck.render.vector_code import Art, vector_form
from printdeck.units import MM_PER_UNIT, mm_to_pt

WARN_DPI = 300.0
"""Raster symbols printing below this resolution draw a warning."""
REFUSE_DPI = 150.0
"""Raster symbols printing below this resolution are refused."""
TEXT_FORM_SIZE_PT = 100.0
"""Size of one em in a word's form before scaling, points."""
SVG_IMAGE_PX = 1200
"""Longer side, pixels, of an SVG printed as an image (see :func:`svg_undrawn_feature`):
600 dpi on a 50 mm symbol (a big one on an 85 mm card), more on smaller ones."""


class ResolutionWarning(UserWarning):
    """A raster symbol prints below 300 dpi (still accepted down to 150 dpi)."""


class SvgImageWarning(UserWarning):
    """An SVG uses a feature the vector path cannot draw, so it is printed as an image."""


class ArtLibrary:
    """Forms for the symbols of one document, created on first use.

    Args:
        canvas: The ReportLab canvas of the document.
        symbols: Every symbol the placements name, looked up by ``SymbolSpec.id``.
        max_box_mm: The longest box side (mm) each symbol prints at; pictures are stored
            with the pixels ``max_ppi`` needs there (all their pixels where missing).
        max_ppi: Largest resolution pictures are stored at, pixels an inch.
        background: The flat colour (``#rrggbb``) pictures with transparency are
            composited onto (and clipped to their silhouettes): no soft masks. ``None``
            keeps their alpha.
        prefix: Start of the forms' names (two libraries in one document differ in it).
        opaque: The file holds no transparency (PDF/X-1a): an SVG whose vector form paints
            see-through prints as its image, composited onto ``background``.
    """

    def __init__(
        self,
        canvas: Canvas,
        symbols: Sequence[SymbolSpec],
        max_box_mm: Mapping[int, float] | None = None,
        max_ppi: int = 450,
        background: str | None = None,
        prefix: str = "sym",
        opaque: bool = False,
    ) -> None:
        self._canvas = canvas
        self._background = background
        self._opaque = opaque
        self._prefix = prefix
        self._symbols = by_id(symbols)
        self._forms: dict[int, Art] = {}
        self._max_box_mm = dict(max_box_mm or {})
        self._max_ppi = max_ppi
        self._stored: dict[int, StoredPicture] = {}

    def prepare_pictures(self, symbol_ids: Sequence[int]) -> None:
        """Make the pictures of these symbols ready for the PDF at once, on a few threads
        (the forms are then drawn in order, as before: the file is the same).

        Raises:
            PrintdeckError: A picture cannot be read.
        """
        ids = [i for i in symbol_ids if i not in self._forms and self._symbols[i].kind in ("raster", "photo")]
        jobs = [(drawing(self._symbols[i]), self._max_box_mm.get(i)) for i in ids]
        self._stored.update(zip(ids, store_pictures(jobs, self._max_ppi, self._background)))

    def art(self, symbol_id: int) -> Art:
        """The form of symbol ``symbol_id``, created the first time it is asked for.

        Raises:
            PrintdeckError: The artwork file is missing, unsafe or unreadable.
        """
        if symbol_id not in self._forms:
            if symbol_id not in self._symbols:
                raise ValueError(f"a placement names symbol id {symbol_id}, which is not among the symbols given")
            self._forms[symbol_id] = symbol_form(
                self._canvas,
                self._symbols[symbol_id],
                f"{self._prefix}{symbol_id}",
                self._max_box_mm.get(symbol_id),
                self._max_ppi,
                self._stored.pop(symbol_id, None),
                self._background,
                self._opaque,
            )
        return self._forms[symbol_id]

    def place(self, placement: Placement, card_center_pt: tuple[float, float]) -> None:
        """Draw one placement on the current page.

        Args:
            placement: Symbol, centre (mm from the card centre, y up), rotation
                (degrees, counter-clockwise) and box (mm) of the artwork.
            card_center_pt: The card centre on the page, points.
        """
        art = self.art(placement.symbol_id)
        c = self._canvas
        c.saveState()
        if art.word:
            c.setFillColor(HexColor(placement.color or self._symbols[placement.symbol_id].color))
        c.translate(
            card_center_pt[0] + mm_to_pt(placement.center_mm[0]), card_center_pt[1] + mm_to_pt(placement.center_mm[1])
        )
        if placement.rotation_deg:
            c.rotate(placement.rotation_deg)
        c.scale(mm_to_pt(placement.box_mm[0]) / art.width_pt, mm_to_pt(placement.box_mm[1]) / art.height_pt)
        c.translate(-art.width_pt / 2.0, -art.height_pt / 2.0)
        c.doForm(art.form)
        c.restoreState()


def by_id(symbols: Sequence[SymbolSpec]) -> dict[int, SymbolSpec]:
    """Symbols keyed by their ``id`` (the renderer never relies on list positions)."""
    return {s.id: s for s in symbols}


def symbol_form(
    canvas: Canvas,
    symbol: SymbolSpec,
    name: str,
    max_box_mm: float | None = None,
    max_ppi: int = 450,
    stored: StoredPicture | None = None,
    background: str | None = None,
    opaque: bool = False,
) -> Art:
    """Draw a symbol's drawing once into the form ``name`` (see :class:`ArtLibrary`).

    Args:
        canvas: The document's canvas.
        symbol: The symbol (or a back picture made a symbol).
        name: The form's name.
        max_box_mm: Longest box side it prints at, mm (pictures are sized for it).
        max_ppi: Largest resolution pictures are stored at.
        stored: The picture already made ready (:func:`~printdeck.render.pictures.store_pictures`).
        background: Composite pictures with transparency onto this colour (clipped to
            their silhouettes) instead of storing a soft mask.
        opaque: No transparency in the file (PDF/X-1a): an SVG that paints see-through
            prints as its image (on ``background``).

    Raises:
        PrintdeckError: The artwork is missing or unreadable.
    """
    art = drawing(symbol)
    if art.kind == "svg":
        return _svg_form(canvas, name, art, background, opaque)
    if art.kind == "picture":
        return _image_form(canvas, name, art, stored or store_picture(art, max_box_mm, max_ppi, background))
    return _text_form(canvas, name, art)


def drawn_on_background(symbol: SymbolSpec) -> bool:
    """Whether a form of ``symbol`` made with a ``background`` (:class:`ArtLibrary`) has that
    colour in it: a raster picture (its transparency composited onto the colour), or an SVG
    printed as an image; not a photo (its opaque crop, clipped), a word or an SVG printed
    as vectors.

    Raises:
        PrintdeckError: An SVG file is missing or unsafe.
    """
    if symbol.kind == "raster":
        return True
    if symbol.kind != "svg":
        return False
    return svg_undrawn_feature(existing_file(symbol)) is not None or prints_as_raster(symbol)


def _svg_form(
    canvas: Canvas, name: str, art: SymbolDrawing, background: str | None = None, opaque: bool = False
) -> Art:
    """The SVG as vectors (svglib), or as a :data:`SVG_IMAGE_PX` image drawn by resvg
    when it uses a feature svglib cannot draw or its vector form failed its proof
    (:func:`printdeck.render.proof.prints_as_raster`), or, in an ``opaque`` file, paints
    see-through; warns :class:`SvgImageWarning` for the feature, or
    :class:`~printdeck.render.proof.VectorWarning` in the proof's words."""
    symbol = art.symbol
    feature = svg_undrawn_feature(existing_file(symbol))
    see_through = opaque and proof(symbol).translucent
    if feature is None and not prints_as_raster(symbol) and not see_through:
        return vector_form(canvas, art, name)
    w, h = art.size
    scale = SVG_IMAGE_PX / max(w, h)
    picture = rasterise(art, max(1, round(w * scale)), max(1, round(h * scale)))
    canvas.beginForm(name, 0, 0, w, h)
    if background is None:
        canvas.drawImage(ImageReader(picture), 0, 0, w, h, mask="auto")
    else:  # no soft mask: on the card's colour, clipped to the silhouette
        clip_rings(canvas, outline_rings(symbol), w, h)
        from printdeck.artwork import flattened  # noqa: PLC0415 - artwork.picture only where a picture is drawn

        canvas.drawImage(ImageReader(flattened(picture.convert("RGBA"), background)), 0, 0, w, h)
    end_form(canvas)
    if not see_through:  # an opaque file's see-through SVG: the proof said it
        category = VectorWarning if feature is None else SvgImageWarning
        warnings.warn(fallback_line(symbol), category, stacklevel=2)  # as the proof says it: said once
    return Art(name, w, h)


def _image_form(canvas: Canvas, name: str, art: SymbolDrawing, stored: StoredPicture) -> Art:
    """A raster or photo (its crop square) sized for print (:mod:`printdeck.render.pictures`)."""
    w, h = art.size
    canvas.beginForm(name, 0, 0, w, h)
    draw_picture(canvas, art, stored)
    end_form(canvas)
    return Art(name, w, h)


def _text_form(canvas: Canvas, name: str, art: SymbolDrawing) -> Art:
    """The word's shaped glyph outlines, its ink box as the form box, filled (non-zero
    winding) with whatever fill colour the placement sets."""
    size = TEXT_FORM_SIZE_PT
    w, h = art.size[0] * size, art.size[1] * size
    canvas.beginForm(name, 0, 0, w, h)
    from printdeck.render.glyph_pen import PathPen  # noqa: PLC0415 - fontTools only for words

    path = canvas.beginPath()
    pen = PathPen(path, size)
    for op, pts in art.word_ops():
        getattr(pen, op)(*pts)
    canvas.drawPath(path, stroke=0, fill=1, fillMode=FILL_NON_ZERO)
    end_form(canvas)
    return Art(name, max(w, 1e-3), max(h, 1e-3), word=True)


_FOUND_WORDS = {CropFound.FACE: "a face", CropFound.CAT_FACE: "a cat's face", CropFound.SUBJECT: "its subject"}


def _low_resolution_fix(symbol: SymbolSpec, dpi: float) -> str:
    """What to do about a picture that prints too coarse (at ``dpi``): a photo cropped close
    round what it found (a face the size of a stamp) may print sharp with its widest crop,
    when that crop would reach :data:`REFUSE_DPI` (a small photo's crop may be its widest
    already)."""
    report = drawing(symbol).crop_report if symbol.kind == "photo" else None
    if report is None or report.found not in _FOUND_WORDS or symbol.zoom > 1:
        return "use a larger image"
    from printdeck.artwork import oriented_size  # noqa: PLC0415 - Pillow only for a refusal

    across = report.box_px[2] - report.box_px[0]
    if dpi * min(oriented_size(existing_file(symbol))) / across < REFUSE_DPI:  # the widest crop: still coarse
        return "use a larger image"
    return (
        f"its crop round {_FOUND_WORDS[report.found]} keeps only {across:.0f} pixels across: give it a focus "
        "(focus: [0.5, 0.5] crops the widest square at the middle), or use a larger image"
    )


def check_raster_resolution(symbols: Sequence[SymbolSpec], layouts: Sequence[CardLayout]) -> dict[int, float]:
    """Lowest print resolution of every raster or photo symbol, warning or refusing.

    Effective dpi = pixels / (printed size in mm / 25.4), the lower of the two axes; a
    photo's pixels are those of its crop square.

    Args:
        symbols: The deck's symbols (looked up by ``id``).
        layouts: The laid-out cards.

    Returns:
        ``{symbol_id: lowest dpi}`` for raster and photo symbols that are used.

    Raises:
        PrintdeckError: A symbol prints below 150 dpi (names the symbol and card).

    Warns:
        ResolutionWarning: once per symbol printing below 300 dpi.
    """
    lowest: dict[int, tuple[float, str]] = {}  # symbol id -> (lowest dpi, the card it is on, in words)
    sizes: dict[int, tuple[int, int]] = {}  # pixels of the drawing's box
    table = by_id(symbols)
    for card, in_deck in zip(layouts, card_in_deck(layouts)):
        for p in card.placements:
            sym = table[p.symbol_id]
            if sym.kind not in ("raster", "photo"):
                continue
            if p.symbol_id not in sizes:
                w, h = drawing(sym).size
                sizes[p.symbol_id] = (int(w), int(h))
            px_w, px_h = sizes[p.symbol_id]
            mm_per_in = MM_PER_UNIT["in"]
            dpi = min(px_w / (p.box_mm[0] / mm_per_in), px_h / (p.box_mm[1] / mm_per_in))
            if p.symbol_id not in lowest or dpi < lowest[p.symbol_id][0]:
                lowest[p.symbol_id] = (dpi, _card_said(card, in_deck))
    coarse = [(sid, dpi, card_said) for sid, (dpi, card_said) in lowest.items() if dpi < REFUSE_DPI]
    coarse.sort(key=lambda found: _theme_order(table[found[0]]))  # as the theme lists them
    if coarse:
        sid, dpi, card_said = coarse[0]
        problem = (
            f"prints at {dpi:.0f} dpi on {card_said} (needs at least "
            f"{REFUSE_DPI:.0f}, better {WARN_DPI:.0f}){_also_coarse(coarse[1:], table)}"
        )
        fix = _low_resolution_fix(table[sid], dpi) if len(coarse) == 1 else "use larger images"
        also = tuple(shown(table[other].source) for other, _, _ in coarse[1:])
        raise table[sid].error(problem, fix, code=LOW_RESOLUTION, also=also)
    for sid, (dpi, card_said) in sorted(lowest.items()):
        src = table[sid].source
        if dpi < WARN_DPI:
            warnings.warn(
                f"{src}: prints at only {dpi:.0f} dpi on {card_said}; {WARN_DPI:.0f} dpi or more looks sharp",
                ResolutionWarning,
                stacklevel=2,
            )
    return {sid: v[0] for sid, v in lowest.items()}


def _card_said(card: CardLayout, in_deck: int) -> str:
    """``card 5``, or in a class set (each deck numbers its cards from 1) ``card 5 of deck B``;
    ``in_deck``: the card's index in its own deck (:func:`~printdeck.model.card_in_deck`)."""
    return f"card {in_deck + 1}" + (f" of deck {card.mark.letter}" if card.mark is not None else "")


def _theme_order(symbol: SymbolSpec) -> tuple[int, ...]:
    """Where ``symbol`` comes in the theme (its key's numbers: ``symbols.3.faces.1`` is
    ``(3, 1)``); a symbol of no key last."""
    numbers = tuple(int(part) for part in (symbol.theme_key or "").split(".") if part.isdigit())
    return numbers or (1 << 30,)


SAID_COARSE = 5
"""The most other pictures a resolution refusal names (then how many more)."""


def _also_coarse(others: Sequence[tuple[int, float, str]], table: Mapping[int, SymbolSpec]) -> str:
    """``; so do 2 more pictures: b.jpg (130 dpi), c.jpg (140 dpi)``: the other pictures a
    refusal finds under :data:`REFUSE_DPI` (``(symbol id, dpi, its card in words)``), so all are
    fixed in one go; empty for none."""
    if not others:
        return ""
    named = ", ".join(f"{shown(table[sid].source)} ({dpi:.0f} dpi)" for sid, dpi, _ in others[:SAID_COARSE])
    more = f" and {len(others) - SAID_COARSE} more" if len(others) > SAID_COARSE else ""
    noun = "picture" if len(others) == 1 else "pictures"
    return f"; so do {len(others)} more {noun}: {named}{more}"
