"""How much of a sheet the cards may take, one rule for the theme's check and the imposition.

The paper less its margin (at least :data:`MIN_MARGIN_MM`; :data:`REGISTRATION_MARGIN_MM`
with registration marks) and, all round, the room a crop mark needs outside the cards'
bleed: its offset (:data:`ROUND_MARK_OFFSET_MM` for round cards, whose marks start at the
bleed's edge; :data:`SHAPED_MARK_OFFSET_MM` for straight edges) and its length
(:data:`MARK_LENGTH_MM`), unless the sheets print no crop marks (``paper.cut_marks:
false``) nor registration marks: then the cards may take that room too
(:func:`keeps_mark_room`). All lengths mm.
"""

from __future__ import annotations

__all__ = [
    "MARK_LENGTH_MM",
    "MIN_MARGIN_MM",
    "REGISTRATION_MARGIN_MM",
    "ROUND_MARK_OFFSET_MM",
    "SHAPED_MARK_OFFSET_MM",
    "keeps_mark_room",
    "mark_room_mm",
    "sheet_edge_mm",
    "sheet_inner_mm",
    "sheet_margin_mm",
    "used_margin_mm",
]

MIN_MARGIN_MM = 5.0
"""Nothing is printed closer than this to the paper edge."""
REGISTRATION_MARGIN_MM = 12.0
"""Paper margin while registration marks are printed: they lie within 10.5 mm of the edges
(``printdeck.render.registration``), and the cards' crop marks keep 1.5 mm from them."""
MARK_LENGTH_MM = 3.0
"""Every crop mark is this long, never shorter (a mark with no room is left out, never cut short)."""
ROUND_MARK_OFFSET_MM = 0.0
"""A round card's marks start this far outside its bleed (at its edge, as a press's crop
marks do when the bleed is wider than their offset)."""
SHAPED_MARK_OFFSET_MM = 1.0
"""A straight-edged card's crop marks start this far outside its bleed."""


def sheet_margin_mm(margin_mm: float, registration_marks: bool = False) -> float:
    """The margin the cards keep from the paper's edge: the theme's ``paper.margin``
    (``margin_mm``), at least :data:`REGISTRATION_MARGIN_MM` with registration marks."""
    return max(margin_mm, REGISTRATION_MARGIN_MM) if registration_marks else margin_mm


def keeps_mark_room(cut_marks: bool, registration_marks: bool) -> bool:
    """Whether a sheet keeps the crop marks' room: where they print (``paper.cut_marks``),
    and with registration marks, whose margin (:data:`REGISTRATION_MARGIN_MM`) keeps the
    cards clear of them only with that room added."""
    return cut_marks or registration_marks


def mark_room_mm(round_cards: bool, marks: bool = True) -> float:
    """The room a crop mark takes outside the cards' bleed, mm (none without ``marks``)."""
    if not marks:
        return 0.0
    return (ROUND_MARK_OFFSET_MM if round_cards else SHAPED_MARK_OFFSET_MM) + MARK_LENGTH_MM


def used_margin_mm(margin_mm: float) -> float:
    """The margin kept from the paper's edge for a wanted ``margin_mm``: at least :data:`MIN_MARGIN_MM`."""
    return max(margin_mm, MIN_MARGIN_MM)


def sheet_edge_mm(margin_mm: float, round_cards: bool, marks: bool = True) -> float:
    """How far the cards' bleeds keep from the paper's edge: :func:`used_margin_mm` and
    :func:`mark_room_mm` (``marks``: the sheet keeps the crop marks' room, :func:`keeps_mark_room`)."""
    return used_margin_mm(margin_mm) + mark_room_mm(round_cards, marks)


def sheet_inner_mm(
    page_mm: tuple[float, float], margin_mm: float, round_cards: bool, marks: bool = True
) -> tuple[float, float]:
    """``(width, height)`` of the paper the cards' bleeds may take: ``page_mm`` less
    :func:`sheet_edge_mm` on every side.

    Examples:
        >>> sheet_inner_mm((210.0, 297.0), 5.0, True)
        (194.0, 281.0)
        >>> sheet_inner_mm((210.0, 297.0), 5.0, True, marks=False)
        (200.0, 287.0)
    """
    edge = sheet_edge_mm(margin_mm, round_cards, marks)
    return page_mm[0] - 2.0 * edge, page_mm[1] - 2.0 * edge
