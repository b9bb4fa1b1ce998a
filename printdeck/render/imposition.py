"""Imposition: where each round card sits on the paper (pure data, no ReportLab).

The paper keeps the orientation given; of the packings tried
(:mod:`printdeck.render.round_packing`: a square grid, a hexagonal packing and staggered
rows, each also with rows and columns swapped) the one with the most cards whose footer
ruler still finds room wins. Round cards' cut marks are :mod:`printdeck.render.round_marks`'s;
square, rectangular and hexagonal cards are packed and marked by :mod:`printdeck.render.shaped`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from printdeck.cardshape import CardShape
from printdeck.errors import PrintdeckError, key_error
from printdeck.model import CardSlot
from printdeck.render import shaped
from printdeck.render.freespace import KeepOut, Rect, Segment, find_spot, keepout_zone
from printdeck.render.round_marks import Points, cut_mark_segments
from printdeck.render.round_packing import RULER_BLOCK_MM, _best_packing
from printdeck.sheet_room import MIN_MARGIN_MM, mark_room_mm, sheet_inner_mm, used_margin_mm


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
        mark_room: The sheet keeps the crop marks' room (:func:`impose`'s ``mark_room``);
            without it no crop mark is planned for (:meth:`marks_of` gives none).
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
    mark_room: bool = True
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
        """Crop-mark segments (mm) of cards centred at ``centers`` on one sheet (none on a
        sheet without their room: the footer need not keep clear of marks never printed)."""
        if not self.mark_room:
            return []
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
    mark_room: bool = True,
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
        mark_room: The sheet keeps the crop marks' room from the margins
            (:func:`~printdeck.sheet_room.mark_room_mm`; see
            :func:`~printdeck.sheet_room.keeps_mark_room`); without, the cards may take it
            and the footer plans round no mark.

    Returns:
        The imposition (slots in card order, sheets filled row by row from the top).

    Raises:
        PrintdeckError: Non-positive sizes, or a card (with bleed and mark room)
            larger than the paper inside its margins.
    """
    if isinstance(diameter_mm, CardShape):
        if not diameter_mm.is_circle:
            return _impose_shape(
                page_size_mm, diameter_mm, bleed_mm, margin_mm, gap_mm, n_cards, single, shared, mark_room
            )
        diameter_mm = diameter_mm.width_mm
    if diameter_mm <= 0 or bleed_mm < 0 or gap_mm < 0 or n_cards < 0:
        raise PrintdeckError("card.diameter must be positive and card.bleed, paper.gap not negative")
    if single:
        return _impose_single(diameter_mm, bleed_mm, n_cards)
    margin, room_mm = used_margin_mm(margin_mm), mark_room_mm(round_cards=True, marks=mark_room)
    outer_d_mm = diameter_mm + 2.0 * bleed_mm
    inner_mm = sheet_inner_mm(page_size_mm, margin_mm, round_cards=True, marks=mark_room)
    if outer_d_mm > min(inner_mm):
        raise key_error(
            "card.diameter",
            f"a {diameter_mm:g} mm card with {bleed_mm:g} mm bleed needs "
            f"{outer_d_mm + 2 * (margin + room_mm):g} mm of paper each way; use larger paper.size or a smaller card",
        )
    best = _best_packing(page_size_mm, inner_mm, outer_d_mm, gap_mm, margin, room_mm, mark_room)
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
        mark_room=mark_room,
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
    mark_room: bool = True,
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
    margin, room_mm = used_margin_mm(margin_mm), mark_room_mm(round_cards=False, marks=mark_room)
    inner = sheet_inner_mm(page_mm, margin_mm, round_cards=False, marks=mark_room)
    found = []
    for turned in (False, True):
        on_sheet = shaped.card_on_sheet(shape, turned)
        for name, pts, cols, rows in shaped.packings(on_sheet, bleed_mm, gap_mm, inner, shared):
            if not pts:
                continue
            centers = shaped.place_on_page(pts, on_sheet, bleed_mm, page_mm, margin + room_mm)
            trial = Imposition(page_mm, (), 1, len(centers), cols, rows, shape.width_mm, bleed_mm, margin, gap_mm,
                               shape=shape, turned=turned, shared=shared, mark_room=mark_room)  # fmt: skip
            marks = trial.marks_of(centers)
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
        mark_room=mark_room,
    )
