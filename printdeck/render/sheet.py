"""Drawing a front sheet: card discs with bleed, symbols, cut marks, guide, footer.

Geometry (mm, page origin bottom-left): a card of cut radius ``r`` and bleed
``b`` is a disc of radius ``r + b`` in the card background colour; cut marks are
radial ticks at its four tangent points outside the bleed (see
:func:`printdeck.render.round_marks.cut_mark_segments`).
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from dataclasses import dataclass

from reportlab.lib.colors import CMYKColorSep, HexColor
from reportlab.pdfgen.canvas import Canvas

from printdeck.artwork import reads_turned
from printdeck.cardshape import CardShape
from printdeck.model import CardLayout, DeckMark
from printdeck.render.cutpath import shape_path
from printdeck.render.forms import ArtLibrary
from printdeck.render.freespace import Rect, Segment, find_spot
from printdeck.render.imposition import Imposition
from printdeck.render.pdf_fonts import SANS, SANS_BOLD, register_bundled
from printdeck.render.round_marks import MARK_LENGTH_MM, missing_marks
from printdeck.render.round_packing import RULER_BLOCK_MM
from printdeck.render.style import (
    BORDER_INSET_MM,
    BORDER_WIDTH_MM,
    CENTRE_MARK_MM,
    CUT_CONTOUR,
    DIE_LINE_PROPERTY,
    CardStyle,
    luminance_of,
)
from printdeck.render.text import draw_string, string_width
from printdeck.render.wrap import wrap_text
from printdeck.units import mm_to_pt, pt_to_mm

MARK_WIDTH_PT = 0.25
"""Cut-mark and cut-guide line width, points."""
INK = HexColor("#1a1a1a")
"""Marks, rules and sheet text: 100 % K in a CMYK file (:func:`printdeck.artwork.cmyk_of_rgb`)."""
GUIDE = HexColor("#7f7f7f")
MIN_CREDIT_PT = 4.0
"""Smallest type the credit line is set in, points."""
FOOTER_SIZES_PT = (6.0, 5.0, 4.5, MIN_CREDIT_PT)
"""Type sizes tried for footer texts, largest first, points."""
EDGE_CLEAR_MM = 2.5
"""A credit pushed into the page margins stays this far from the paper edge, mm."""
SCALE_NOTE = 'Print at 100 % (actual size), not "fit to page": the scale bar on this sheet measures 50 mm'
RULER_EDGE_MM = 5.0
"""A scale bar pushed into the page margins stays this far from the paper edge, mm (where
registration marks print: a printer that drops it would drop them too)."""
ACTUAL_SIZE_NOTE = 'Print at 100 % (actual size), not "fit to page"'
"""The scale note of a sheet with no room for the scale bar."""


class CreditWarning(UserWarning):
    """The artwork credit could not be placed on the sheets."""


class MarkWarning(UserWarning):
    """Some cut marks do not fit whole (3 mm) between the cards and are left out."""


def warn_missing_marks(imposition: Imposition) -> None:
    """Say how many cut marks a full sheet of round cards leaves out, and what gives them room.

    Warns:
        MarkWarning: A mark would be shorter than ``MARK_LENGTH_MM`` (names ``paper.gap``).
    """
    if not imposition.card_shape().is_circle:
        return
    missing = missing_marks(imposition.full_page_centers_mm(), imposition.outer_radius_mm, imposition.inner_rect_mm())
    if missing:
        warnings.warn(
            f"paper.gap: {missing} cut marks a sheet are left out: a {imposition.gap_mm:g} mm gap between "
            f"bleeds has no room for a whole {MARK_LENGTH_MM:g} mm mark; set paper.gap: {MARK_LENGTH_MM:g}mm or more",
            MarkWarning,
            stacklevel=3,
        )


def draw_card(
    canvas: Canvas,
    art: ArtLibrary,
    layout: CardLayout,
    center_mm: tuple[float, float],
    style: CardStyle,
    rotation_deg: float = 0.0,
    background: bool = True,
) -> None:
    """Draw one card face: background out to the bleed, optional border, punch ring and
    cut guide, every symbol.

    Args:
        canvas: Target canvas (current page).
        art: The document's symbol forms.
        layout: The card's placements (mm from the card centre).
        center_mm: Card centre on the page, mm from the bottom-left corner.
        style: The card's shape and colours.
        rotation_deg: The card's turn on the sheet, degrees counter-clockwise.
        background: Fill the background (False when the sheet filled every card's
            background first: cards sharing cut lines).
    """
    if style.shape is None and not rotation_deg:
        _draw_round_card(canvas, art, layout, center_mm, style, background)
        return
    shape = style.card_shape()
    canvas.saveState()
    canvas.translate(mm_to_pt(center_mm[0]), mm_to_pt(center_mm[1]))
    if rotation_deg:
        canvas.rotate(rotation_deg)
    if background:
        fill_background(canvas, style)
    if style.border_color:
        canvas.setStrokeColor(HexColor(style.border_color))
        canvas.setLineWidth(mm_to_pt(BORDER_WIDTH_MM))
        canvas.drawPath(shape_path(canvas, shape, -(BORDER_INSET_MM + BORDER_WIDTH_MM / 2.0)), stroke=1, fill=0)
    for placement in layout.placements:
        art.place(placement, (0.0, 0.0))
    if layout.mark is not None:
        draw_deck_mark(canvas, layout.mark, (0.0, 0.0))
    _guides(canvas, style, shape)
    canvas.restoreState()


def fill_background(canvas: Canvas, style: CardStyle) -> None:
    """Fill the card's outline grown by the bleed, centred on the origin, in its background colour."""
    canvas.setFillColor(HexColor(style.background))
    canvas.drawPath(shape_path(canvas, style.card_shape(), style.bleed_mm), stroke=0, fill=1)


def fill_background_at(canvas: Canvas, style: CardStyle, center_mm: tuple[float, float], turn_deg: float) -> None:
    """Fill one card's background out to its bleed (:func:`fill_background`), centred at
    ``center_mm`` on the page and turned ``turn_deg`` counter-clockwise (cards sharing cut
    lines: drawn first)."""
    canvas.saveState()
    canvas.translate(mm_to_pt(center_mm[0]), mm_to_pt(center_mm[1]))
    canvas.rotate(turn_deg)
    fill_background(canvas, style)
    canvas.restoreState()


def _draw_round_card(
    canvas: Canvas, art: ArtLibrary, layout: CardLayout, center_mm: tuple[float, float], style: CardStyle, bg: bool
) -> None:
    cx, cy = mm_to_pt(center_mm[0]), mm_to_pt(center_mm[1])
    if bg:
        canvas.setFillColor(HexColor(style.background))
        canvas.circle(cx, cy, mm_to_pt(style.radius_mm + style.bleed_mm), stroke=0, fill=1)
    if style.border_color:
        canvas.setStrokeColor(HexColor(style.border_color))
        canvas.setLineWidth(mm_to_pt(BORDER_WIDTH_MM))
        canvas.circle(cx, cy, mm_to_pt(style.border_outer_mm - BORDER_WIDTH_MM / 2.0), stroke=1, fill=0)
    for placement in layout.placements:
        art.place(placement, (cx, cy))
    if layout.mark is not None:
        draw_deck_mark(canvas, layout.mark, (cx, cy))
    canvas.saveState()
    canvas.translate(cx, cy)
    _guides(canvas, style, style.card_shape())
    canvas.restoreState()


def _guides(canvas: Canvas, style: CardStyle, shape: CardShape) -> None:
    """The die line, the cut guide (a dashed hairline on the cut), the punch ring (a
    hairline at the bleed's outer edge) and the centre mark (a small cross), about the origin."""
    if style.die_line:
        draw_die_line(canvas, shape)
    if not (style.cut_guide or style.punch_ring or style.centre_mark):
        return
    canvas.saveState()
    canvas.setStrokeColor(GUIDE)
    canvas.setLineWidth(MARK_WIDTH_PT)
    if style.punch_ring:
        canvas.drawPath(shape_path(canvas, shape, style.bleed_mm), stroke=1, fill=0)
    if style.centre_mark:
        arm = mm_to_pt(CENTRE_MARK_MM / 2.0)
        canvas.setStrokeColor(INK)
        canvas.line(-arm, 0.0, arm, 0.0)
        canvas.line(0.0, -arm, 0.0, arm)
        canvas.setStrokeColor(GUIDE)
    if style.cut_guide:
        canvas.setDash(2, 2)
        canvas.drawPath(shape_path(canvas, shape), stroke=1, fill=0)
    canvas.restoreState()


def mark_ink(color: str) -> str:
    """The letter's colour on a deck mark of ``color``: white or near-black, whichever
    contrasts more (:func:`contrast_ratio`)."""
    return "#ffffff" if contrast_ratio("#ffffff", color) >= contrast_ratio("#1a1a1a", color) else "#1a1a1a"


def contrast_ratio(a: str, b: str) -> float:
    """WCAG 2's contrast ratio of two colours ``#rrggbb``, 1 (the same) to 21 (black on white)."""
    lighter, darker = sorted((luminance_of(a), luminance_of(b)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def draw_deck_mark(canvas: Canvas, mark: DeckMark, card_center_pt: tuple[float, float]) -> None:
    """A class set's deck mark: a dot of the deck's colour with its letter, at
    ``mark.center_mm`` from the card's centre (a place the layout kept free). A numbered
    deck's 6 and 9 are underlined (:func:`printdeck.artwork.reads_turned`), as on dice and pool
    balls: a round card is read at any turn."""
    x = card_center_pt[0] + mm_to_pt(mark.center_mm[0])
    y = card_center_pt[1] + mm_to_pt(mark.center_mm[1])
    r = mm_to_pt(mark.radius_mm)
    canvas.saveState()
    canvas.setFillColor(HexColor(mark.color))
    canvas.circle(x, y, r, stroke=0, fill=1)
    size = 1.3 * r
    canvas.setFillColor(HexColor(mark_ink(mark.color)))
    canvas.setFont(SANS_BOLD, size)
    draw_string(canvas, x, y - 0.36 * size, mark.letter, "middle")
    if reads_turned(mark.letter) is not None:
        canvas.rect(x - 0.22 * size, y - 0.47 * size, 0.44 * size, 0.07 * size, stroke=0, fill=1)
    canvas.restoreState()


def draw_die_line(canvas: Canvas, shape: CardShape) -> None:
    """Stroke the card's cut path (:func:`printdeck.cardshape.card_path`, about the origin) as
    a die line: 100 % of the spot colour ``CutContour`` (alternate 100 % magenta),
    overprinting, inside the optional content ``DieLine`` (its layer is made by
    :func:`printdeck.render.pdfx.finish_pdf`)."""
    canvas.addLiteral(f"/OC /{DIE_LINE_PROPERTY} BDC")
    canvas.saveState()
    canvas.setStrokeColor(CMYKColorSep(0, 1, 0, 0, spotName=CUT_CONTOUR, density=1))
    canvas.setStrokeOverprint(True)
    canvas.setLineWidth(MARK_WIDTH_PT)
    canvas.setDash()
    canvas.drawPath(shape_path(canvas, shape), stroke=1, fill=0)
    canvas.restoreState()
    canvas.addLiteral("EMC")


def draw_marks(canvas: Canvas, segments: Sequence[Segment]) -> None:
    """Stroke cut marks (mm segments) as ``MARK_WIDTH_PT`` lines."""
    canvas.setStrokeColor(INK)
    canvas.setLineWidth(MARK_WIDTH_PT)
    canvas.setLineCap(0)
    for (x0, y0), (x1, y1) in segments:
        canvas.line(mm_to_pt(x0), mm_to_pt(y0), mm_to_pt(x1), mm_to_pt(y1))


def page_marks(imposition: Imposition, page: int) -> list[Segment]:
    """Cut-mark segments (mm) of one front page."""
    return imposition.page_marks(page)


@dataclass(frozen=True)
class TextBlock:
    """Footer text placed on the sheet: lines, font size (pt) and box (mm)."""

    lines: tuple[str, ...]
    size_pt: float
    rect_mm: Rect


@dataclass(frozen=True)
class FooterPlan:
    """Where the footer items of every front sheet go (same on every sheet)."""

    ruler_mm: Rect | None
    note: TextBlock | None
    credit: TextBlock | None


def plan_footer(
    imposition: Imposition, credit: str, keep_clear: Sequence[Rect] = (), scale_note: bool = True
) -> FooterPlan:
    """Find room for the scale bar, the scale note and the credit line around the
    full-sheet pattern, none of them in ``keep_clear`` (``(x0, y0, x1, y1)`` mm: the
    registration marks' squares); without ``scale_note`` (``paper.scale_note``: a print
    service's sheets), the credit alone.

    The scale bar goes where the imposition found room for it, else in the first free
    spot inside the margins, then in the margins; with no room anywhere the note no longer
    speaks of it.

    Each text tries one line, then narrower wrapped blocks, at 6 pt down to
    ``MIN_CREDIT_PT`` (4 pt), lowest free spot first (see
    :func:`printdeck.render.freespace.find_spot`). The credit (the artwork's
    licence asks for it) then falls back to the page margins (kept
    ``EDGE_CLEAR_MM`` from the paper edge) and is never dropped silently.
    ``credit`` should start with the widest page label (see :func:`draw_footer`).

    Warns:
        CreditWarning: The credit fits nowhere at 4 pt or more (names
            ``extras.attribution``); the sheets then carry no credit.
    """
    register_bundled()
    centers = imposition.full_page_centers_mm()
    marks = imposition.full_page_marks()
    ruler = _ruler_spot(imposition, centers, marks, list(keep_clear)) if scale_note else None
    taken: list[Rect] = [*keep_clear, *([ruler] if ruler else [])]
    text = SCALE_NOTE if ruler else ACTUAL_SIZE_NOTE
    note = (
        _place_text(text, imposition.inner_rect_mm(), centers, imposition, marks, taken, bold=True)
        if scale_note
        else None
    )
    if note:
        taken.append(note.rect_mm)
    block = None
    if credit:
        w, h = imposition.page_size_mm
        for area in (imposition.inner_rect_mm(), (EDGE_CLEAR_MM, EDGE_CLEAR_MM, w - EDGE_CLEAR_MM, h - EDGE_CLEAR_MM)):
            block = _place_text(credit, area, centers, imposition, marks, taken, bold=False)
            if block is not None:
                break
        else:
            warnings.warn(
                f"extras.attribution: the credit line ({len(credit)} characters) does not fit on the "
                f"sheets at {MIN_CREDIT_PT:g} pt or more, so the sheets carry none; shorten "
                "extras.attribution (it is still in the PDF's Subject and on the legend and rules pages)",
                CreditWarning,
                stacklevel=2,
            )
    return FooterPlan(ruler, note, block)


def _ruler_spot(
    imposition: Imposition, centers: Sequence[tuple[float, float]], marks: Sequence[Segment], keep_clear: list[Rect]
) -> Rect | None:
    """Where the scale bar goes: the imposition's spot unless it meets ``keep_clear``, else
    the first free spot inside the margins, then in the margins (:data:`RULER_EDGE_MM` from
    the edge); None when there is none."""
    found = imposition.ruler_mm
    if found is not None and not any(_overlap(found, rect) for rect in keep_clear):
        return found
    w, h = imposition.page_size_mm
    zone = imposition.keepout(list(centers), list(marks), keep_clear)
    for area in (imposition.inner_rect_mm(), (RULER_EDGE_MM, RULER_EDGE_MM, w - RULER_EDGE_MM, h - RULER_EDGE_MM)):
        spot = find_spot(RULER_BLOCK_MM, area, zone)
        if spot is not None:
            return spot
    return None


def _overlap(a: Rect, b: Rect) -> bool:
    """Whether two rectangles ``(x0, y0, x1, y1)`` share any area."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _place_text(
    text: str,
    area_mm: Rect,
    centers: Sequence[tuple[float, float]],
    imposition: Imposition,
    marks: Sequence[Segment],
    taken: list[Rect],
    *,
    bold: bool,
) -> TextBlock | None:
    """The first text block (size, wrap width) that finds a free spot inside ``area_mm``."""
    font = SANS_BOLD if bold else SANS
    zone = imposition.keepout(list(centers), list(marks), taken)
    for size in FOOTER_SIZES_PT:
        full = string_width(text, font, size)
        for width_pt in (full, 255.0, 170.0, 115.0, 80.0, 55.0):
            if width_pt > full:
                continue
            lines = wrap_text(text, font, size, width_pt)
            w = max(string_width(ln, font, size) for ln in lines)
            box = (pt_to_mm(w) + 0.5, pt_to_mm(len(lines) * size * 1.2) + 0.3)
            rect = find_spot(box, area_mm, zone)
            if rect is not None:
                return TextBlock(tuple(lines), size, rect)
    return None


def draw_footer(canvas: Canvas, plan: FooterPlan, widest_label: str = "", page_label: str = "") -> None:
    """Draw the ruler, the scale note and the credit block.

    The credit block was planned with ``widest_label`` in its first line; it is
    replaced by this sheet's ``page_label`` (never wider).
    """
    if plan.ruler_mm:
        draw_ruler(canvas, plan.ruler_mm)
    for block, font in ((plan.note, SANS_BOLD), (plan.credit, SANS)):
        if block is None:
            continue
        canvas.setFillColor(INK)
        canvas.setFont(font, block.size_pt)
        x0, _, _, y1 = block.rect_mm
        for i, line in enumerate(block.lines):
            if i == 0 and widest_label:
                line = line.replace(widest_label, page_label, 1)
            draw_string(canvas, mm_to_pt(x0), mm_to_pt(y1) - (i + 1) * block.size_pt * 1.2 + 0.25 * block.size_pt, line)


def draw_ruler(canvas: Canvas, rect_mm: Rect) -> None:
    """A 50 mm scale bar with 1 / 5 / 10 mm ticks and cm labels inside ``rect_mm``.

    The bar starts 2 mm right of the rect's left edge (rect at least 56 x 5 mm).
    """
    x0, y0, _, y1 = rect_mm
    left, top = mm_to_pt(x0 + 2.0), mm_to_pt(y1 - 0.3)
    canvas.setStrokeColor(INK)
    canvas.setLineWidth(0.4)
    canvas.line(left, top, left + mm_to_pt(50.0), top)
    canvas.setLineWidth(MARK_WIDTH_PT)
    for mm in range(51):
        tick = 2.2 if mm % 10 == 0 else (1.5 if mm % 5 == 0 else 0.9)
        x = left + mm_to_pt(mm)
        canvas.line(x, top, x, top - mm_to_pt(tick))
    canvas.setFillColor(INK)
    canvas.setFont(SANS, 4.5)
    base = mm_to_pt(y0 + 0.4)
    for cm in range(6):
        text = f"{cm} cm" if cm == 5 else str(cm)
        draw_string(canvas, left + mm_to_pt(10 * cm), base, text, "middle")
