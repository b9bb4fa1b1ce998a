"""How a card face is drawn, shared by the PDF (``sheet``) and the PNGs (``png``); no ReportLab."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from printdeck.cardshape import CardShape

BORDER_WIDTH_MM = 0.8
"""Width of the optional border ring, drawn just inside the cut, mm."""
BORDER_INSET_MM = 0.3
"""Gap between the cut and the outer edge of the border ring, mm (so a slightly off cut keeps the ring)."""
CENTRE_MARK_MM = 3.0
"""The centre mark's width: a cross of two 3 mm strokes (the layout keeps 2 mm about the centre free)."""
CUT_CONTOUR = "CutContour"
"""The die line's spot colour (Separation) name, the one cutting RIPs look for."""
DIE_LINE_PROPERTY = "DieLine"
"""Name of the die line's optional content in the pages' ``/Properties``."""


@dataclass(frozen=True)
class CardStyle:
    """How the card disc is drawn.

    Attributes:
        radius_mm: Cut radius, mm.
        bleed_mm: Bleed beyond the cut, mm.
        background: Disc colour, ``#rrggbb``.
        border_color: Ring just inside the cut, or ``None``.
        cut_guide: Draw the cut line as a hairline.
        shape: The card's outline when it is not round (``None``: the circle of ``radius_mm``).
        punch_ring: Draw a thin ring at the bleed's outer edge (round cards: for a circle punch).
        centre_mark: Draw a small cross at the card's centre (compass cutters; the layout keeps it free).
        die_line: Stroke the cut path in the spot colour ``CutContour`` on its own layer (PDF only).
    """

    radius_mm: float
    bleed_mm: float
    background: str = "#ffffff"
    border_color: str | None = None
    cut_guide: bool = False
    shape: CardShape | None = None
    punch_ring: bool = False
    centre_mark: bool = False

    def card_shape(self) -> CardShape:
        """The card's outline (``shape``, else the circle of ``radius_mm``)."""
        return self.shape if self.shape is not None else CardShape.circle(2.0 * self.radius_mm)

    die_line: bool = False

    @property
    def border_outer_mm(self) -> float:
        """Outer radius of the border ring, mm."""
        return self.radius_mm - BORDER_INSET_MM


def luminance_of(color: str) -> float:
    """The relative luminance (0 black .. 1 white) of ``#rrggbb``
    (:func:`printdeck.artwork.relative_luminance`)."""
    from printdeck.artwork import relative_luminance  # noqa: PLC0415 - numpy's colour maths when asked

    return float(relative_luminance(np.array([int(color[i : i + 2], 16) for i in (1, 3, 5)]) / 255.0))
