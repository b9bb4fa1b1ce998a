"""Silhouette-style registration marks for print-then-cut (ReportLab).

A cutting machine's optical eye finds the printed sheet by three marks (the layout
Silhouette Studio calls type 1): a filled :data:`SQUARE_MM` square in the top-left
corner and L marks of :data:`ARM_MM` arms, :data:`THICK_MM` thick, in the top-right and
bottom-left corners, each :data:`INSET_MM` from the paper's edges. Set the machine's
software to the same figures; the cut files (:mod:`.cutfile`) are page-sized, so their
paths line up with the marks. Lengths are mm, page origin bottom-left.
"""

from __future__ import annotations

from reportlab.lib.colors import black
from reportlab.pdfgen.canvas import Canvas

from printdeck.units import mm_to_pt

INSET_MM = 5.0
SQUARE_MM = 5.0
ARM_MM = 20.0
THICK_MM = 0.5

Rect = tuple[float, float, float, float]


def registration_rects(page_mm: tuple[float, float]) -> list[Rect]:
    """The marks as filled rectangles ``(x, y, w, h)`` mm on a page of ``page_mm``."""
    w, h = page_mm
    i, a, t = INSET_MM, ARM_MM, THICK_MM
    return [
        (i, h - i - SQUARE_MM, SQUARE_MM, SQUARE_MM),  # the square, top left
        (w - i - a, h - i - t, a, t),  # top right: along the top edge
        (w - i - t, h - i - a, t, a),  # ... and down the right edge
        (i, i, a, t),  # bottom left: along the bottom edge
        (i, i, t, a),  # ... and up the left edge
    ]


CLEAR_MM = 2.0
"""Room kept free of print round each mark's square (the area the machine's eye scans), mm."""


def registration_zones(page_mm: tuple[float, float]) -> list[Rect]:
    """The squares ``(x0, y0, x1, y1)`` mm round each mark (an L's whole square, not only its
    arms), grown by :data:`CLEAR_MM`: nothing else is printed there."""
    w, h = page_mm
    i, a, c = INSET_MM, ARM_MM, CLEAR_MM
    return [
        (i - c, h - i - SQUARE_MM - c, i + SQUARE_MM + c, h - i + c),  # the square, top left
        (w - i - a - c, h - i - a - c, w - i + c, h - i + c),  # the L, top right
        (i - c, i - c, i + a + c, i + a + c),  # the L, bottom left
    ]


def draw_registration(canvas: Canvas, page_mm: tuple[float, float]) -> None:
    """Fill the registration marks of a page (black)."""
    canvas.saveState()
    canvas.setFillColor(black)
    for x, y, w, h in registration_rects(page_mm):
        canvas.rect(mm_to_pt(x), mm_to_pt(y), mm_to_pt(w), mm_to_pt(h), stroke=0, fill=1)
    canvas.restoreState()
