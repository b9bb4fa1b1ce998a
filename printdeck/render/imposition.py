"""Imposition: where each round card sits on the paper (pure data, no ReportLab).

Packings tried, for a card of outer diameter ``D`` (cut + 2 x bleed) and a centre
spacing ``s = D + gap``: a square grid, a hexagonal packing (rows of c and c - 1
cards, rows ``s * sqrt(3) / 2`` apart), and staggered rows of c cards shifted by
as much as the slack allows (rows ``sqrt(s^2 - dx^2)`` apart) -- each also with
rows and columns swapped. The paper keeps the orientation given; the packing
with the most cards whose footer ruler still finds room wins.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from printdeck.cardshape import CardShape
from printdeck.errors import PrintdeckError, key_error
from printdeck.model import CardSlot
from printdeck.render import shaped
from printdeck.render.freespace import KeepOut, Rect, Segment, find_spot, keepout_zone
from printdeck.sheet_room import (
    MARK_LENGTH_MM,
    MIN_MARGIN_MM,
    ROUND_MARK_OFFSET_MM,
    mark_room_mm,
    sheet_inner_mm,
    used_margin_mm,
)

MARK_OFFSET_MM = ROUND_MARK_OFFSET_MM
"""Cut marks start this far outside the bleed (at its edge, as a press's crop marks do
when the bleed is wider than their offset)."""
MARK_CLEAR_MM = 1.0
"""Cut marks stay at least this far from any other card's bleed (the facing card of a
shared mark aside)."""
SHARED_CLEAR_MM = 0.5
"""A mark shared across a gap keeps this far from both bleeds where the gap is wide enough
(``MARK_LENGTH_MM`` + 2 x this); in a narrower gap it spans the gap, at least ``MARK_LENGTH_MM``."""
RULER_BLOCK_MM = (56.0, 5.0)
"""Footer ruler block: a 50 mm scale bar with mm ticks and labels, mm."""

Points = list[tuple[float, float]]


@dataclass(frozen=True)
class Imposition:
    """Cards placed on sheets.

    Attributes:
        page_size_mm: (width, height) of every front page, mm.
        slots: One per card, in card order: page (1-based) and centre (mm from
            the page's bottom-left corner).
        pages: Number of front sheets.
        per_page: Cards on a full sheet.
        columns: Cards in the widest row.
        rows: Rows on a full sheet.
        diameter_mm: Cut diameter, mm.
        bleed_mm: Bleed beyond the cut, mm.
        margin_mm: Distance kept from the paper edge, mm.
        gap_mm: Least space between neighbouring bleeds, mm.
        single: One card a page, page = trim + bleed (no footer, no marks).
        packing: ``grid``, ``hex`` or ``stagger`` (suffix ``-t``: rows and
            columns swapped), or ``single``.
        ruler_mm: Footer ruler block (x0, y0, x1, y1) in mm, or ``None``.
        shape: The card's outline (``None``: the circle of ``diameter_mm``).
        turned: Every card stands a quarter turn counter-clockwise on the sheet.
        shared: Cards touch and share cut lines, bleed only around the block.
    """

    page_size_mm: tuple[float, float]
    slots: tuple[CardSlot, ...]
    pages: int
    per_page: int
    columns: int
    rows: int
    diameter_mm: float = 85.0
    bleed_mm: float = 3.0
    margin_mm: float = MIN_MARGIN_MM
    gap_mm: float = 4.0
    single: bool = False
    packing: str = "grid"
    ruler_mm: Rect | None = None
    shape: CardShape | None = None
    turned: bool = False
    shared: bool = False
    pattern_mm: tuple[tuple[float, float], ...] = ()
    """A full sheet's card centres, mm, where ``slots`` hold only part of the deck (a
    preview of one sheet): the footer is planned round them, as for the whole deck."""

    def card_shape(self) -> CardShape:
        """The card's outline as designed (``shape``, else the circle of ``diameter_mm``)."""
        return self.shape if self.shape is not None else CardShape.circle(self.diameter_mm)

    def sheet_shape(self) -> CardShape:
        """The card's outline as it stands on the sheet (turned if ``turned``)."""
        return shaped.card_on_sheet(self.card_shape(), self.turned)

    @property
    def rotation_deg(self) -> float:
        """How far each card is turned on the sheet, degrees counter-clockwise."""
        return 90.0 if self.turned else 0.0

    def page_marks(self, page: int) -> list[Segment]:
        """Crop-mark segments (mm) of one front page."""
        return self.marks_of(self.page_centers_mm(page))

    def full_page_marks(self) -> list[Segment]:
        """Crop-mark segments (mm) of a full sheet (:meth:`full_page_centers_mm`)."""
        return self.marks_of(self.full_page_centers_mm())

    def marks_of(self, centers: Points) -> list[Segment]:
        """Crop-mark segments (mm) of cards centred at ``centers`` on one sheet."""
        if self.shape is None or self.shape.is_circle:
            return cut_mark_segments(centers, self.outer_radius_mm, self.inner_rect_mm())
        return shaped.shape_marks(centers, self.sheet_shape(), self.bleed_mm, self.inner_rect_mm(), self.shared)

    def keepout(self, centers: Points, marks: list[Segment], taken: list[Rect] | None = None) -> KeepOut:
        """Where no footer item may go: the cards' bleeds, the marks and ``taken``."""
        if self.shape is None or self.shape.is_circle:
            return keepout_zone(centers, self.outer_radius_mm, marks, taken or [])
        grown = self.sheet_shape().offset(self.bleed_mm)
        hw, hh = grown.width_mm / 2, grown.height_mm / 2
        boxes = [(x - hw, y - hh, x + hw) for x, y in centers]
        rects = [(x0, y - hh, x1, y + hh) for (x0, _, x1), (_, y) in zip(boxes, centers)]
        return keepout_zone([], 0.0, marks, [*rects, *(taken or [])])

    @property
    def outer_radius_mm(self) -> float:
        """Cut radius plus bleed, mm."""
        return self.diameter_mm / 2.0 + self.bleed_mm

    def page_centers_mm(self, page: int) -> Points:
        """Card centres on ``page`` (1-based), mm from the bottom-left corner."""
        return [s.center_mm for s in self.slots if s.page == page]

    def full_page_centers_mm(self) -> Points:
        """Card centres of a full sheet (the first page, or :attr:`pattern_mm`), mm."""
        return list(self.pattern_mm) if self.pattern_mm else self.page_centers_mm(1)

    def inner_rect_mm(self) -> Rect:
        """The area inside the margins, (x0, y0, x1, y1) mm."""
        w, h = self.page_size_mm
        m = self.margin_mm
        return (m, m, w - m, h - m)


def impose(
    page_size_mm: tuple[float, float],
    diameter_mm: float | CardShape,
    bleed_mm: float,
    margin_mm: float,
    gap_mm: float,
    n_cards: int,
    *,
    single: bool = False,
    shared: bool = False,
) -> Imposition:
    """Place ``n_cards`` cards on as few sheets as possible.

    Args:
        page_size_mm: Paper (width, height), mm (orientation kept).
        diameter_mm: A round card's cut diameter, mm, or the card's :class:`CardShape`
            (squares, rectangles and hexagons: see :mod:`printdeck.render.shaped`).
        bleed_mm: Background beyond the cut, mm.
        margin_mm: Wanted margin from the paper edge, mm (at least 5 mm is used).
        gap_mm: Least space between neighbouring bleeds, mm.
        n_cards: Cards in the deck.
        single: One card a page; the page is the trim plus bleed (print-shop files).
        shared: Square, rectangular and hexagonal cards share cut lines (bleed only
            around the block).

    Returns:
        The imposition (slots in card order, sheets filled row by row from the top).

    Raises:
        PrintdeckError: Non-positive sizes, or a card (with bleed and mark room)
            larger than the paper inside its margins.
    """
    if isinstance(diameter_mm, CardShape):
        if not diameter_mm.is_circle:
            return _impose_shape(page_size_mm, diameter_mm, bleed_mm, margin_mm, gap_mm, n_cards, single, shared)
        diameter_mm = diameter_mm.width_mm
    if diameter_mm <= 0 or bleed_mm < 0 or gap_mm < 0 or n_cards < 0:
        raise PrintdeckError("card.diameter must be positive and card.bleed, paper.gap not negative")
    if single:
        return _impose_single(diameter_mm, bleed_mm, n_cards)
    margin, room_mm = used_margin_mm(margin_mm), mark_room_mm(round_cards=True)
    outer_d_mm = diameter_mm + 2.0 * bleed_mm
    inner_mm = sheet_inner_mm(page_size_mm, margin_mm, round_cards=True)
    if outer_d_mm > min(inner_mm):
        raise key_error(
            "card.diameter",
            f"a {diameter_mm:g} mm card with {bleed_mm:g} mm bleed needs "
            f"{outer_d_mm + 2 * (margin + room_mm):g} mm of paper each way; use larger paper.size or a smaller card",
        )
    best = _best_packing(page_size_mm, inner_mm, outer_d_mm, gap_mm, margin, room_mm)
    name, centers, cols, rows, ruler = best
    slots = tuple(
        CardSlot(card_index=i, page=i // len(centers) + 1, center_mm=centers[i % len(centers)]) for i in range(n_cards)
    )
    pages = max(1, math.ceil(n_cards / len(centers)))
    return Imposition(
        page_size_mm=page_size_mm,
        slots=slots,
        pages=pages,
        per_page=len(centers),
        columns=cols,
        rows=rows,
        diameter_mm=diameter_mm,
        bleed_mm=bleed_mm,
        margin_mm=margin,
        gap_mm=gap_mm,
        packing=name,
        ruler_mm=ruler,
    )


def _impose_single(diameter_mm: float, bleed_mm: float, n_cards: int) -> Imposition:
    side = diameter_mm + 2.0 * bleed_mm
    slots = tuple(CardSlot(card_index=i, page=i + 1, center_mm=(side / 2.0, side / 2.0)) for i in range(n_cards))
    return Imposition(
        page_size_mm=(side, side),
        slots=slots,
        pages=max(1, n_cards),
        per_page=1,
        columns=1,
        rows=1,
        diameter_mm=diameter_mm,
        bleed_mm=bleed_mm,
        margin_mm=0.0,
        gap_mm=0.0,
        single=True,
        packing="single",
    )


def _impose_shape(
    page_mm: tuple[float, float],
    shape: CardShape,
    bleed_mm: float,
    margin_mm: float,
    gap_mm: float,
    n_cards: int,
    single: bool,
    shared: bool,
) -> Imposition:
    """:func:`impose` for square, rectangular and hexagonal cards (see :mod:`.shaped`)."""
    if bleed_mm < 0 or gap_mm < 0 or n_cards < 0:
        raise PrintdeckError("card.bleed and paper.gap must not be negative")
    if single:
        w, h = shape.width_mm + 2 * bleed_mm, shape.height_mm + 2 * bleed_mm
        slots = tuple(CardSlot(card_index=i, page=i + 1, center_mm=(w / 2.0, h / 2.0)) for i in range(n_cards))
        return Imposition(
            (w, h), slots, max(1, n_cards), 1, 1, 1, shape.width_mm, bleed_mm, 0.0, 0.0, True, "single", shape=shape
        )
    margin, room_mm = used_margin_mm(margin_mm), mark_room_mm(round_cards=False)
    inner = sheet_inner_mm(page_mm, margin_mm, round_cards=False)
    found = []
    for turned in (False, True):
        on_sheet = shaped.card_on_sheet(shape, turned)
        for name, pts, cols, rows in shaped.packings(on_sheet, bleed_mm, gap_mm, inner, shared):
            if not pts:
                continue
            centers = shaped.place_on_page(pts, on_sheet, bleed_mm, page_mm, margin + room_mm)
            trial = Imposition(page_mm, (), 1, len(centers), cols, rows, shape.width_mm, bleed_mm, margin, gap_mm,
                               shape=shape, turned=turned, shared=shared)  # fmt: skip
            marks = shaped.shape_marks(centers, on_sheet, bleed_mm, trial.inner_rect_mm(), shared)
            ruler = find_spot(RULER_BLOCK_MM, trial.inner_rect_mm(), trial.keepout(centers, marks))
            found.append((len(centers), ruler is not None, not turned, name, centers, cols, rows, ruler, turned))
    if not found:
        grown = shape.offset(bleed_mm)
        raise key_error(
            "card.size",
            f"a {shape.describe()} card with {bleed_mm:g} mm bleed needs "
            f"{grown.width_mm + 2 * (margin + room_mm):.4g} x {grown.height_mm + 2 * (margin + room_mm):.4g} mm "
            "of paper; use larger paper.size or a smaller card",
        )
    _, _, _, name, centers, cols, rows, ruler, turned = max(found, key=lambda f: f[:3])
    slots = tuple(
        CardSlot(card_index=i, page=i // len(centers) + 1, center_mm=centers[i % len(centers)]) for i in range(n_cards)
    )
    return Imposition(
        page_size_mm=page_mm,
        slots=slots,
        pages=max(1, math.ceil(n_cards / len(centers))),
        per_page=len(centers),
        columns=cols,
        rows=rows,
        diameter_mm=shape.width_mm,
        bleed_mm=bleed_mm,
        margin_mm=margin,
        gap_mm=gap_mm,
        packing=name + ("-turned" if turned else ""),
        ruler_mm=ruler,
        shape=shape,
        turned=turned,
        shared=shared,
    )


_Candidate = tuple[str, Points, int, int, "Rect | None"]


def _best_packing(
    page_mm: tuple[float, float],
    inner_mm: tuple[float, float],
    outer_d_mm: float,
    gap_mm: float,
    margin_mm: float,
    room_mm: float,
) -> _Candidate:
    """Try every packing; most cards with a footer ruler wins, then fewest rows.

    Args:
        page_mm: Paper (width, height), mm.
        inner_mm: (width, height) the card centres' packing may span, bleeds
            included (paper minus margins and cut-mark room), mm.
        outer_d_mm: Card diameter with bleed, mm.
        gap_mm: Space between neighbouring bleeds, mm.
        margin_mm: Margin from the paper edge, mm.
        room_mm: Cut-mark room kept inside the margins, mm (already in ``inner_mm``).
    """
    pitch_mm = outer_d_mm + gap_mm
    margins = (margin_mm, margin_mm, page_mm[0] - margin_mm, page_mm[1] - margin_mm)
    found: list[_Candidate] = []
    for swapped in (False, True):
        w_mm, h_mm = (inner_mm[1], inner_mm[0]) if swapped else inner_mm
        for name, pts, cols, rows in _packings(w_mm, h_mm, outer_d_mm, pitch_mm):
            if swapped:
                pts = [(y, x) for x, y in pts]
                name, cols, rows = name + "-t", rows, cols
            centers = _centre_on_page(pts, page_mm)
            marks = cut_mark_segments(centers, outer_d_mm / 2.0, margins)
            zone = keepout_zone(centers, outer_d_mm / 2.0, marks)
            ruler = find_spot(RULER_BLOCK_MM, margins, zone)
            found.append((name, centers, cols, rows, ruler))
    return max(found, key=lambda c: (c[4] is not None, len(c[1]), -c[3]))


def _packings(w_mm: float, h_mm: float, d_mm: float, pitch_mm: float) -> list[tuple[str, Points, int, int]]:
    """Centre lists (relative, first card at (0, 0), rows going down) fitting ``w_mm`` x ``h_mm``.

    Args:
        w_mm: Width available to the discs, mm.
        h_mm: Height available to the discs, mm.
        d_mm: Disc diameter (card with bleed), mm.
        pitch_mm: Least centre-to-centre distance (diameter + gap), mm.

    Returns:
        (name, centres in mm, columns, rows) for the square grid, the hexagonal
        packing and a staggered grid (when it differs).
    """
    s = pitch_mm
    cols = int((w_mm - d_mm) // s) + 1
    out: list[tuple[str, Points, int, int]] = []
    grid_rows = int((h_mm - d_mm) // s) + 1
    out.append(("grid", [(c * s, -r * s) for r in range(grid_rows) for c in range(cols)], cols, grid_rows))
    v = s * math.sqrt(3.0) / 2.0
    hex_rows = int((h_mm - d_mm) // v) + 1
    if cols >= 2:
        pts = [(c * s + (s / 2.0 if r % 2 else 0.0), -r * v) for r in range(hex_rows) for c in range(cols - (r % 2))]
        out.append(("hex", pts, cols, hex_rows))
    dx = min(s / 2.0, w_mm - d_mm - (cols - 1) * s)
    if dx > 1e-6:
        v2 = math.sqrt(s * s - dx * dx)
        rows2 = int((h_mm - d_mm) // v2) + 1
        pts = [(c * s + (dx if r % 2 else 0.0), -r * v2) for r in range(rows2) for c in range(cols)]
        out.append(("stagger", pts, cols, rows2))
    return out


def _centre_on_page(pts: Points, page_mm: tuple[float, float]) -> Points:
    """Shift a packing (mm) so its bounding box is centred on the page, rows top to bottom."""
    xs = [p[0] for p in pts]
    ys = [p[1] for p in pts]
    ox = page_mm[0] / 2.0 - (min(xs) + max(xs)) / 2.0
    oy = page_mm[1] / 2.0 - (min(ys) + max(ys)) / 2.0
    ordered = sorted(pts, key=lambda p: (-round(p[1], 6), round(p[0], 6)))
    return [(x + ox, y + oy) for x, y in ordered]


def cut_mark_segments(centers_mm: Points, outer_radius_mm: float, inner_mm: Rect) -> list[Segment]:
    """Radial cut marks at each card's four tangent points (top, bottom, left, right).

    Each mark starts ``MARK_OFFSET_MM`` outside the bleed and is ``MARK_LENGTH_MM`` long,
    never shorter. Where the mark's line meets a neighbour's bleed straight ahead, the
    two cards share one mark spanning the gap between their bleeds (at least
    ``MARK_LENGTH_MM`` wide, else no mark); a mark that would leave the margins or come
    within ``MARK_CLEAR_MM`` of another card's bleed is left out
    (:func:`missing_marks` counts them, so the build can say so).

    Args:
        centers_mm: Card centres on one page, mm, shape (n, 2).
        outer_radius_mm: Cut radius + bleed, mm.
        inner_mm: Printable area inside the margins (x0, y0, x1, y1), mm.

    Returns:
        Segments ((x0, y0), (x1, y1)) in mm, inner end first, each drawn once.
    """
    return _marks(centers_mm, outer_radius_mm, inner_mm)[0]


def missing_marks(centers_mm: Points, outer_radius_mm: float, inner_mm: Rect) -> int:
    """How many of the cards' tangent points get no whole cut mark (see :func:`cut_mark_segments`)."""
    return _marks(centers_mm, outer_radius_mm, inner_mm)[1]


def _marks(centers_mm: Points, outer_radius_mm: float, inner_mm: Rect) -> tuple[list[Segment], int]:
    out: list[Segment] = []
    missing = 0
    start_mm = outer_radius_mm + MARK_OFFSET_MM
    for i, (cx, cy) in enumerate(centers_mm):
        for ux, uy in ((0.0, 1.0), (0.0, -1.0), (-1.0, 0.0), (1.0, 0.0)):
            facing = _facing(centers_mm, i, (ux, uy), outer_radius_mm)
            if facing is not None:  # a neighbour straight ahead: one mark across the gap
                j, dist_mm = facing
                gap_mm = dist_mm - 2.0 * outer_radius_mm
                if gap_mm < MARK_LENGTH_MM - 1e-9:
                    missing += 1
                elif i < j:  # centred in the gap, clear of both bleeds where the gap allows
                    length_mm = max(MARK_LENGTH_MM, gap_mm - 2.0 * SHARED_CLEAR_MM)
                    start = outer_radius_mm + (gap_mm - length_mm) / 2.0
                    p0 = (cx + ux * start, cy + uy * start)
                    out.append((p0, (p0[0] + ux * length_mm, p0[1] + uy * length_mm)))
                continue
            others = [c for j, c in enumerate(centers_mm) if j != i]
            if _mark_clear((cx, cy), (ux, uy), start_mm, others, outer_radius_mm, inner_mm):
                p0 = (cx + ux * start_mm, cy + uy * start_mm)
                out.append((p0, (p0[0] + ux * MARK_LENGTH_MM, p0[1] + uy * MARK_LENGTH_MM)))
            else:
                missing += 1
    return out, missing


def _facing(
    centers_mm: Points, i: int, direction: tuple[float, float], outer_radius_mm: float
) -> tuple[int, float] | None:
    """The nearest card whose centre lies straight ahead of card ``i`` along ``direction``
    within reach of a mark, as (index, centre distance in mm), or None."""
    cx, cy = centers_mm[i]
    best: tuple[int, float] | None = None
    for j, (x, y) in enumerate(centers_mm):
        along = (x - cx) * direction[0] + (y - cy) * direction[1]
        across = abs((x - cx) * direction[1] - (y - cy) * direction[0])
        near = along - 2.0 * outer_radius_mm <= MARK_LENGTH_MM + 2.0 * MARK_CLEAR_MM
        if j != i and along > 0 and across < 1e-6 and near and (best is None or along < best[1]):
            best = (j, along)
    return best


def _mark_clear(
    center_mm: tuple[float, float],
    direction: tuple[float, float],
    start_mm: float,
    others_mm: Points,
    outer_radius_mm: float,
    inner_mm: Rect,
) -> bool:
    """Whether a whole mark from ``start_mm`` along the unit ``direction`` stays inside the
    margins and ``MARK_CLEAR_MM`` from every other card's bleed.

    Args:
        center_mm: The card's centre, mm.
        direction: Unit vector (ux, uy) of the mark, unitless.
        start_mm: Distance from the centre where the mark starts, mm.
        others_mm: The other cards' centres, mm, shape (n, 2).
        outer_radius_mm: Cut radius + bleed, mm.
        inner_mm: Area inside the margins (x0, y0, x1, y1), mm.
    """
    t = start_mm + np.linspace(0.0, MARK_LENGTH_MM, 61)
    x, y = center_mm[0] + direction[0] * t, center_mm[1] + direction[1] * t
    ok = (x >= inner_mm[0] - 1e-6) & (x <= inner_mm[2] + 1e-6) & (y >= inner_mm[1] - 1e-6) & (y <= inner_mm[3] + 1e-6)
    if others_mm:
        o = np.asarray(others_mm, dtype=float)
        dist = np.hypot(x[:, None] - o[None, :, 0], y[:, None] - o[None, :, 1])
        ok &= (dist >= outer_radius_mm + MARK_CLEAR_MM).all(axis=1)
    return bool(ok.all())
