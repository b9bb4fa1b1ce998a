"""A fontTools pen that draws glyph outlines into a ReportLab path (words as outlines).

Kept apart from :mod:`printdeck.render.text` so that fontTools loads only when a word
or a line of text is drawn as outlines, not with every canvas.
"""

from __future__ import annotations

from fontTools.pens.basePen import BasePen
from reportlab.pdfgen.pathobject import PDFPathObject


class PathPen(BasePen):
    """A fontTools pen drawing into a ReportLab path: ``(x, y)`` becomes
    ``(dx + x * scale, dy + y * scale)``; quadratic curves become cubic ones exactly
    (fontTools' ``BasePen``)."""

    def __init__(self, path: PDFPathObject, scale: float, dx: float = 0.0, dy: float = 0.0) -> None:
        super().__init__(None)
        self._path, self._s, self._dx, self._dy = path, scale, dx, dy

    def _xy(self, pt: tuple[float, float]) -> tuple[float, float]:
        return self._dx + pt[0] * self._s, self._dy + pt[1] * self._s

    def _moveTo(self, pt: tuple[float, float]) -> None:
        self._path.moveTo(*self._xy(pt))

    def _lineTo(self, pt: tuple[float, float]) -> None:
        self._path.lineTo(*self._xy(pt))

    def _curveToOne(self, p1: tuple[float, float], p2: tuple[float, float], p3: tuple[float, float]) -> None:
        self._path.curveTo(*self._xy(p1), *self._xy(p2), *self._xy(p3))

    def _closePath(self) -> None:
        self._path.close()
