"""Card backs for duplex printing: mirrored positions and the back design.

A back sheet is printed on the other side of its front sheet. Turning a portrait
sheet over its long edge (long-edge duplex) mirrors it about the page's vertical
axis, x -> W - x; turning it over the short edge mirrors it about the horizontal
axis, y -> H - y (landscape sheets: the other way round). The printer's drift is
then corrected by adding the theme's (offset_x, offset_y) in mm.
"""

from __future__ import annotations

import io
import math
import warnings
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from PIL.Image import Image
from reportlab.lib.colors import HexColor
from reportlab.pdfgen.canvas import Canvas

from printdeck.artwork import drawing, reads_turned
from printdeck.assign import SPLIT_DECKS
from printdeck.cardshape import CardShape, ShapeKind
from printdeck.errors import LOW_RESOLUTION
from printdeck.model import CardLayout, DeckMark, SymbolSpec
from printdeck.render.back_title import title_layout
from printdeck.render.canvas import end_form, scratch_canvas
from printdeck.render.cutpath import shape_path
from printdeck.render.forms import REFUSE_DPI, WARN_DPI, Art, ResolutionWarning, symbol_form
from printdeck.render.pdf_fonts import SANS_BOLD
from printdeck.render.pdf_pixels import page_image
from printdeck.render.print_job import BackDesign, PrintJob
from printdeck.render.sheet import CardStyle, contrast_ratio, draw_deck_mark, fill_background_at, mark_ink
from printdeck.render.text import draw_string, string_width
from printdeck.theme import deck_colours
from printdeck.units import MM_PER_UNIT, mm_to_pt

BACK_FORM = "cardback"
BAND_MM = 4.0
"""A class set's (or split deck's) deck-colour band inside the cut around a back picture, mm."""


def mirror_mm(
    center_mm: tuple[float, float],
    page_size_mm: tuple[float, float],
    duplex: str,
    offset_mm: tuple[float, float] = (0.0, 0.0),
) -> tuple[float, float]:
    """Where the back of a card centred at ``center_mm`` must be drawn, mm.

    The sheet turns over its long edge (``long-edge``) or its short edge
    (``short-edge``); the back is the front mirrored about the page axis parallel
    to that edge. Portrait (W <= H): long-edge x -> W - x, short-edge y -> H - y;
    landscape pages swap the two.

    Args:
        center_mm: Front centre, mm from the page's bottom-left corner.
        page_size_mm: (W, H), mm.
        duplex: ``long-edge`` or ``short-edge``.
        offset_mm: Printer-drift correction added afterwards, mm.

    Raises:
        ValueError: Unknown duplex mode.
    """
    x, y = center_mm
    w, h = page_size_mm
    if duplex not in ("long-edge", "short-edge"):
        raise ValueError(f"duplex: expected long-edge or short-edge, got {duplex!r}")
    if (duplex == "long-edge") == (w <= h):
        x = w - x
    else:
        y = h - y
    return (x + offset_mm[0], y + offset_mm[1])


def mirror_turn(turn_deg: float, page_size_mm: tuple[float, float], duplex: str) -> float:
    """How far a back is turned (degrees counter-clockwise) behind a front card turned
    ``turn_deg``: mirroring across the vertical axis reverses the turn, across the
    horizontal axis keeps it (see :func:`mirror_mm`), so the back's top lies behind the
    front's top."""
    w, h = page_size_mm
    return -turn_deg if (duplex == "long-edge") == (w <= h) else turn_deg


def make_back_form(
    canvas: Canvas,
    design: BackDesign,
    radius_mm: float,
    bleed_mm: float,
    shape: CardShape | None = None,
    name: str = BACK_FORM,
    band: str | None = None,
) -> None:
    """Draw the back design once into the form ``name`` (default ``cardback``, centred on
    (0, 0)), clipped to the card's outline grown by the bleed (``shape``; ``None``: the disc
    of ``radius_mm``).

    Args:
        band: A deck's colour (a class set's, or a split deck's A or B: :func:`back_decks`):
            the back's colour becomes it, and a band of it
            rings a back picture (so a covering picture still shows the deck).

    Raises:
        PrintdeckError: The back image is missing or unreadable.
    """
    outer = mm_to_pt(_outer_mm(radius_mm, bleed_mm, shape))
    picture = None  # made first: a form cannot be made inside another
    if design.image is not None:
        picture = symbol_form(
            canvas, design.image, name + "-image", 2 * (radius_mm + bleed_mm), background=design.color
        )
    if band is not None:
        design = replace(design, color=band)
    canvas.beginForm(name, -outer, -outer, outer, outer)
    if shape is None:
        clip = canvas.beginPath()
        clip.circle(0, 0, outer)
    else:
        clip = shape_path(canvas, shape, bleed_mm)
    canvas.clipPath(clip, stroke=0, fill=0)
    canvas.setFillColor(HexColor(design.color))
    canvas.rect(-outer, -outer, 2 * outer, 2 * outer, stroke=0, fill=1)
    if picture is not None:
        window_mm = cover_window(radius_mm, bleed_mm, shape, band=band is not None)
        _back_picture(canvas, picture, design, mm_to_pt(radius_mm), (mm_to_pt(window_mm[0]), mm_to_pt(window_mm[1])))
    elif design.pattern == "rings":
        _rings(canvas, design.color, mm_to_pt(radius_mm))
    elif design.pattern == "dots":
        _dots(canvas, design.color, outer)
    elif shows_title(design):
        _title(canvas, design.color, design.title, mm_to_pt(radius_mm), design.letter)
    if band is not None and picture is not None:  # a band of the deck's colour inside the cut
        width = mm_to_pt(bleed_mm + BAND_MM)
        canvas.setStrokeColor(HexColor(band))
        canvas.setLineWidth(width)
        if shape is None:
            canvas.circle(0, 0, outer - width / 2, stroke=1, fill=0)
        else:
            canvas.drawPath(shape_path(canvas, shape, (bleed_mm - BAND_MM) / 2.0), stroke=1, fill=0)
        if design.letter is not None:
            draw_deck_mark(canvas, _band_tab(design.letter, band, radius_mm, bleed_mm, shape), (0.0, 0.0))
    end_form(canvas)


BAND_TAB_SHARE = 0.2
"""A picture back's deck letter: its dot's radius, as a share of the card's smaller half side."""


def _band_tab(letter: str, band: str, radius_mm: float, bleed_mm: float, shape: CardShape | None) -> DeckMark:
    """The deck's letter on a picture back of a class set (or split deck): a dot of the
    band's colour, as the fronts' deck marks are drawn, at the bottom and touching the band
    (a tab of it), large enough to read face down across the table, even in grey, where the
    band alone tells the decks apart by shade only."""
    half_w, half_h = cover_window(radius_mm, bleed_mm, shape, band=True)
    dot_mm = BAND_TAB_SHARE * min(half_w, half_h)
    return DeckMark(deck=0, letter=letter, color=band, center_mm=(0.0, -(half_h - 0.6 * dot_mm)), radius_mm=dot_mm)


def shows_title(design: BackDesign) -> bool:
    """Whether a back shows its title (and with it a deck's letter: :func:`deck_back`): the
    title pattern, with no back picture drawn instead."""
    return design.image is None and design.pattern == "title"


def _outer_mm(radius_mm: float, bleed_mm: float, shape: CardShape | None) -> float:
    """Half the side of the square a back is drawn in, mm: the card's circumradius (a disc of
    ``radius_mm`` when ``shape`` is None) and its bleed (twice it for a hexagon's corners)."""
    outline = shape if shape is not None else CardShape.circle(2.0 * radius_mm)
    return outline.circumradius_mm + bleed_mm * (2.0 if outline.kind == ShapeKind.HEXAGON else 1.0)


def picture_scale(width: float, height: float, design: BackDesign, radius: float, window: tuple[float, float]) -> float:
    """How many times a back picture of ``width`` x ``height`` is enlarged on the back:
    ``contain``, its longer side ``design.size`` times the card's diameter (``2 radius``);
    ``cover``, just enough to cover the box ``2 window[0]`` x ``2 window[1]`` that shows it
    (:func:`cover_window`). Lengths in any one unit (the picture's in its own)."""
    if design.fit == "contain":
        return design.size * 2 * radius / max(width, height)
    return max(2 * window[0] / width, 2 * window[1] / height)


def cover_window(radius_mm: float, bleed_mm: float, shape: CardShape | None, band: bool) -> tuple[float, float]:
    """Half the width and half the height of the box a covering back picture shows in, mm:
    the card's outline grown by the bleed, or, inside a deck's band (``band``), the outline
    :data:`BAND_MM` in from the cut. A square or oblong card's picture covers its own box,
    not its circumcircle's (which zoomed a square card's photo 1.4 times, a head cut off)."""
    outline = shape if shape is not None else CardShape.circle(2.0 * radius_mm)
    shown = outline.offset(-BAND_MM) if band else outline.offset(bleed_mm)
    return (shown.width_mm / 2.0, shown.height_mm / 2.0)


def check_back_resolution(job: PrintJob) -> float | None:
    """The print resolution (dpi) of the back picture of ``job`` (a raster or photo; None for
    none, or an SVG), its pixels over its size on the back (:func:`picture_scale`, at its
    largest: a back without a deck's band), held to the symbols' rule: the back prints on
    every card.

    Raises:
        PrintdeckError: Under 150 dpi (``backs.image``), with the pixels that print sharp.

    Warns:
        ResolutionWarning: Under 300 dpi.
    """
    design, card = job.backs, job.card
    if design is None or design.image is None or design.image.kind not in ("raster", "photo"):
        return None
    width_px, height_px = drawing(design.image).size
    window_mm = cover_window(card.radius_mm, card.bleed_mm, card.shape, band=False)  # the largest it prints
    mm_per_px = picture_scale(width_px, height_px, design, card.radius_mm, window_mm)
    dpi = MM_PER_UNIT["in"] / mm_per_px
    sharp = f"{math.ceil(width_px * WARN_DPI / dpi)} x {math.ceil(height_px * WARN_DPI / dpi)} pixels or more"
    if dpi < REFUSE_DPI:
        problem = f"prints at {dpi:.0f} dpi on every back (needs at least {REFUSE_DPI:.0f}, better {WARN_DPI:.0f})"
        raise design.image.error(problem, f"use a larger image ({sharp})", code=LOW_RESOLUTION)
    if dpi < WARN_DPI:
        warnings.warn(
            f"{design.image.source}: the back prints at only {dpi:.0f} dpi; {WARN_DPI:.0f} dpi or more looks sharp "
            f"({sharp})",
            ResolutionWarning,
            stacklevel=2,
        )
    return dpi


def _back_picture(
    canvas: Canvas, art: Art, design: BackDesign, radius_pt: float, window_pt: tuple[float, float]
) -> None:
    """The back picture's form, contain-fitted and centred on (0, 0), or cover-fitted to the
    box of half sides ``window_pt`` (:func:`cover_window`) and centred on its subject
    (:func:`picture_focus`) as far as it still covers that box."""
    w, h = art.width_pt, art.height_pt
    scale = picture_scale(w, h, design, radius_pt, window_pt)
    width, height = w * scale, h * scale
    x0, y0 = -width / 2, -height / 2
    if design.fit != "contain" and design.image is not None:
        across, down = picture_focus(design.image)
        half_w, half_h = window_pt
        x0 = min(max(-across * width, half_w - width), -half_w)  # the picture's left edge, pt
        y0 = min(max(-(1.0 - down) * height, half_h - height), -half_h)  # its bottom edge (y up)
    canvas.saveState()
    canvas.translate(x0, y0)
    canvas.scale(scale, scale)
    canvas.doForm(art.form)
    canvas.restoreState()


def picture_focus(image: SymbolSpec) -> tuple[float, float]:
    """Where a back picture that covers the back is centred: fractions of its width and
    height (x right, y down). A raster picture is framed as a photo symbol is (the faces, a
    pet's face, or the subject it shows: :mod:`printdeck.artwork.framing`), so a family photo
    on the backs keeps its heads; an SVG, its middle.

    Raises:
        PrintdeckError: The picture cannot be read.
    """
    if image.kind not in ("raster", "photo"):
        return (0.5, 0.5)
    width_px, height_px = drawing(image).size
    crop = drawing(replace(image, kind="photo", rotate=False)).crop  # its framing as a photo's
    if crop is None:
        return (0.5, 0.5)
    return ((crop.left + crop.side / 2) / width_px, (crop.top + crop.side / 2) / height_px)


def _light(canvas: Canvas, base: str, amount: float) -> None:
    """Stroke and fill in ``base`` mixed with white (no transparency in the file)."""
    rgb = [int(base[i : i + 2], 16) for i in (1, 3, 5)]
    mixed = "#" + "".join(f"{round(v + (255 - v) * amount):02x}" for v in rgb)
    canvas.setStrokeColor(HexColor(mixed))
    canvas.setFillColor(HexColor(mixed))


def title_ink(color: str) -> str:
    """The back title's colour on a back of ``color``: the back's colour mixed almost to white
    on a dark back, to black on a light one (a class set's amber, sky blue or mid grey),
    or pure white or black where the mix would read under WCAG's 4.5:1."""
    rgb = [int(color[i : i + 2], 16) for i in (1, 3, 5)]
    pale = "#" + "".join(f"{round(v + (255 - v) * 0.92):02x}" for v in rgb)
    deep = "#" + "".join(f"{round(v * 0.2):02x}" for v in rgb)
    inks = [pale, deep] if mark_ink(color) == "#ffffff" else [deep, pale]
    inks += ["#ffffff", "#000000"]  # a mid grey: only pure black may reach 4.5:1
    readable = [ink for ink in inks if contrast_ratio(ink, color) >= TITLE_CONTRAST]
    return readable[0] if readable else max(inks, key=lambda ink: contrast_ratio(ink, color))


TITLE_CONTRAST = 4.5
"""The least contrast a back's title keeps with the back (WCAG 2's for text)."""


def _rings(canvas: Canvas, color: str, radius_pt: float) -> None:
    _light(canvas, color, 0.35)
    canvas.setLineWidth(radius_pt * 0.035)
    step = radius_pt / 7.0
    for i in range(1, 8):
        canvas.circle(0, 0, i * step - step / 2, stroke=1, fill=0)


def _dots(canvas: Canvas, color: str, outer_pt: float) -> None:
    _light(canvas, color, 0.3)
    pitch = outer_pt / 6.0
    n = 7
    for i in range(-n, n + 1):
        for j in range(-n, n + 1):
            x = (i + 0.5 * (j % 2)) * pitch
            y = j * pitch * 0.866
            canvas.circle(x, y, pitch * 0.22, stroke=0, fill=1)


TITLE_ABOVE_LETTER = 0.7
"""With a deck's letter, the title is set as on a back this share of the radius ..."""
TITLE_RAISED = 0.17
"""... raised by this share of the radius, leaving the ring's lower part to the letter."""
LETTER_OF_RADIUS = 0.3
"""A deck's letter's size, as a share of the radius: read across the table, face down."""
LETTER_BASELINE = -0.64
"""The letter's baseline, as a share of the radius from the centre (below it)."""


def _title(canvas: Canvas, color: str, title: str, radius_pt: float, letter: str | None = None) -> None:
    """The title pattern: a light ring and the title inside it; with a deck's ``letter``
    (a class set's, a split deck's), the title in the ring's upper part and the letter
    large below it, underlined when it reads as another number upside down (6 and 9)."""
    _light(canvas, color, 0.45)
    canvas.setLineWidth(radius_pt * 0.02)
    canvas.circle(0, 0, radius_pt * 0.86, stroke=1, fill=0)
    shown = title.strip() or "printdeck"
    layout = title_layout(shown, radius_pt if letter is None else TITLE_ABOVE_LETTER * radius_pt)
    raised = 0.0 if letter is None else TITLE_RAISED * radius_pt
    ink = HexColor(title_ink(color))
    canvas.setStrokeColor(ink)  # stroke and fill, as the back's rings are drawn: the same bytes as before
    canvas.setFillColor(ink)
    canvas.setFont(SANS_BOLD, layout.size_pt)
    for line, baseline in zip(layout.lines, layout.baselines_pt, strict=True):
        draw_string(canvas, 0, baseline + raised, line, "middle")
    if letter is not None:
        size, baseline = LETTER_OF_RADIUS * radius_pt, LETTER_BASELINE * radius_pt
        canvas.setFont(SANS_BOLD, size)
        draw_string(canvas, 0, baseline, letter, "middle")
        if reads_turned(letter) is not None:
            width = string_width(letter, SANS_BOLD, size)
            canvas.rect(-width / 2, baseline - 0.18 * size, width, 0.08 * size, stroke=0, fill=1)


def draw_back(
    canvas: Canvas,
    center_mm: tuple[float, float],
    rotation_deg: float = 0.0,
    name: str = BACK_FORM,
    clip_pt: Sequence[tuple[float, float]] = (),
) -> None:
    """Place the back form ``name`` at a (mirrored, offset) centre in mm, turned
    ``rotation_deg`` counter-clockwise (the card's turn on the sheet, mirrored); with
    ``clip_pt`` (a polygon on the page, pt: its cell of a block on shared cuts,
    :func:`cells_pt`), only inside it, so its bleed runs out past the block's edge but
    not over a neighbour across a cut they share."""
    canvas.saveState()
    if clip_pt:
        _clip_to(canvas, clip_pt)
    canvas.translate(mm_to_pt(center_mm[0]), mm_to_pt(center_mm[1]))
    if rotation_deg:
        canvas.rotate(rotation_deg)
    canvas.doForm(name)
    canvas.restoreState()


@dataclass(frozen=True)
class BackDeck:
    """One back design of a PDF: the deck's one back, a class set's deck's, or deck A's or
    B's of a split deck (``deck.faces: split``), whose two piles then tell apart face down.

    Attributes:
        number: 0 for a deck's one back; a class set's deck number (1..N); 1 and 2 for
            decks A and B of a split deck.
        letter: The letter the back's title gains (:func:`deck_back`), or None.
        color: The colour the back takes (``band`` of :func:`make_back_form`), or None.
    """

    number: int
    letter: str | None = None
    color: str | None = None


def back_decks(job: PrintJob, layouts: Iterable[CardLayout]) -> list[BackDeck]:
    """The PDF's back designs, in deck order: a class set's decks, each in its colour and
    with its letter (from the cards' :class:`~printdeck.model.DeckMark`); a split deck's A
    and B in the first two colours a class set gives (greys on a grey deck), so a pile of A
    is not taken for one of B; else the one back."""
    marks = {card.mark.deck: card.mark for card in layouts if card.mark is not None}
    if marks:
        return [BackDeck(deck, mark.letter, mark.color) for deck, mark in sorted(marks.items())]
    if job.split_at is not None:
        colours = deck_colours(2, job.grayscale)
        return [BackDeck(n, letter, colour) for n, (letter, colour) in enumerate(zip(SPLIT_DECKS, colours), 1)]
    return [BackDeck(0)]


def back_deck_of(job: PrintJob, card: CardLayout) -> int:
    """The :attr:`BackDeck.number` of ``card``'s back (a split deck's cards before
    ``job.split_at`` are deck A's: see :func:`back_decks`)."""
    if card.mark is not None:
        return card.mark.deck
    if job.split_at is not None:
        return 1 if card.index < job.split_at else 2
    return 0


def deck_back(design: BackDesign, deck: BackDeck) -> BackDesign:
    """The back of one of several decks (:func:`back_decks`): ``design`` titled with the
    deck's letter (its colour is given to :func:`make_back_form` as ``band``); the one
    back of a deck as it is. The PDF and the back images both take it from here."""
    return design if deck.letter is None else replace(design, letter=deck.letter)


def back_image(
    design: BackDesign,
    radius_mm: float,
    bleed_mm: float,
    dpi: int,
    extra_margin_mm: float = 0.0,
    shape: CardShape | None = None,
    band: str | None = None,
) -> Image:
    """The card back as an RGB picture for print-on-demand services: the PDF's own back form
    drawn on a page of the card's box grown by the bleed (plus ``extra_margin_mm`` a side),
    rasterised by PDFium at ``dpi``, white outside the card's shape grown by the bleed and
    that margin, as the card PNGs: the margin is the back's colour, as the fronts' is
    theirs; ``band``: a deck's colour (a class set's or a split deck's:
    :func:`back_decks`), as :func:`make_back_form` takes it (with :func:`deck_back`).

    Raises:
        PrintdeckError: The back image is missing or unreadable.
    """
    outline = shape if shape is not None else CardShape.circle(2.0 * radius_mm)
    w_mm, h_mm = (v + 2.0 * (bleed_mm + extra_margin_mm) for v in (outline.width_mm, outline.height_mm))
    buffer = io.BytesIO()
    canvas = scratch_canvas(buffer, (mm_to_pt(w_mm), mm_to_pt(h_mm)))
    if extra_margin_mm > 0:  # beyond the bleed, as a front's background reaches: the back's colour
        canvas.saveState()
        canvas.translate(mm_to_pt(w_mm / 2.0), mm_to_pt(h_mm / 2.0))
        canvas.setFillColor(HexColor(band if band is not None else design.color))
        canvas.drawPath(shape_path(canvas, outline, bleed_mm + extra_margin_mm), stroke=0, fill=1)
        canvas.restoreState()
    make_back_form(canvas, design, radius_mm, bleed_mm, shape, band=band)
    draw_back(canvas, (w_mm / 2.0, h_mm / 2.0))
    canvas.showPage()
    canvas.save()
    size_px = (round(w_mm / MM_PER_UNIT["in"] * dpi), round(h_mm / MM_PER_UNIT["in"] * dpi))
    picture = page_image(buffer.getvalue(), 0, size_px[0] / mm_to_pt(w_mm)).convert("RGB")
    return picture.resize(size_px) if picture.size != size_px else picture


def fill_shared_bleed(
    canvas: Canvas,
    style: CardStyle,
    centers_mm: Sequence[tuple[float, float]],
    colours: Sequence[str],
    turn_deg: float,
    page_size_mm: tuple[float, float],
) -> None:
    """Fill the bleed of a block of cards that share cut lines, each card's in ``colours``
    (``#rrggbb``, one a card). Where the colours differ (a packed class set's decks side by
    side), each card's fill is drawn again clipped to the points nearer its centre than any
    other's (its Voronoi cell: shapely), so a card's bleed never shows past a cut it shares
    in its neighbour's strip of bleed, where a cut a little off would show the wrong
    colour; the first, whole fills keep a colour wherever no cell's fill reaches (a short
    row of rectangles' inside corner)."""
    for center, colour in zip(centers_mm, colours, strict=True):
        fill_background_at(canvas, replace(style, background=colour), center, turn_deg)
    if len(set(colours)) <= 1:
        return
    for center, colour, ring in zip(centers_mm, colours, cells_pt(centers_mm, page_size_mm), strict=True):
        if not ring:
            continue
        canvas.saveState()
        _clip_to(canvas, ring)
        fill_background_at(canvas, replace(style, background=colour), center, turn_deg)
        canvas.restoreState()


def _clip_to(canvas: Canvas, ring: Sequence[tuple[float, float]]) -> None:
    """Clip what is drawn next (until the state is restored) to the polygon ``ring``, pt."""
    clip = canvas.beginPath()
    clip.moveTo(*ring[0])
    for point in ring[1:]:
        clip.lineTo(*point)
    clip.close()
    canvas.clipPath(clip, stroke=0, fill=0)


def cells_pt(
    centers_mm: Sequence[tuple[float, float]], page_size_mm: tuple[float, float]
) -> list[list[tuple[float, float]]]:
    """Each centre's Voronoi cell on the page, its outline's points in pt (empty: none on
    the page): in a block of cards on shared cuts, a card's own rectangle, out to the page's
    edge on the block's outer sides."""
    import shapely  # noqa: PLC0415 - only for backs on shared cuts

    page = shapely.box(0.0, 0.0, *page_size_mm)
    cells = list(shapely.voronoi_polygons(shapely.multipoints(list(centers_mm)), extend_to=page).geoms)
    rings = []
    for x, y in centers_mm:
        cell = next((c for c in cells if c.covers(shapely.Point(x, y))), None)  # its own: it holds the centre
        part = cell.intersection(page) if cell is not None else shapely.Polygon()
        ok = part.geom_type == "Polygon" and not part.is_empty
        rings.append([(mm_to_pt(px), mm_to_pt(py)) for px, py in part.exterior.coords] if ok else [])
    return rings
