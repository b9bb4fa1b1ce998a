"""A card's cut path drawn with ReportLab (the path itself comes from :func:`printdeck.cardshape.card_path`)."""

from __future__ import annotations

from reportlab.pdfgen.canvas import Canvas
from reportlab.pdfgen.pathobject import PDFPathObject

from printdeck.cardshape import Arc, CardShape, Line, PathPiece, card_path
from printdeck.units import mm_to_pt


def pdf_path(canvas: Canvas, pieces: tuple[PathPiece, ...]) -> PDFPathObject:
    """A closed ReportLab path (points) of cut-path ``pieces`` (mm, page or card coordinates)."""
    path = canvas.beginPath()
    first = True
    for piece in pieces:
        if isinstance(piece, Line):
            x, y = mm_to_pt(piece.start[0]), mm_to_pt(piece.start[1])
            if first:
                path.moveTo(x, y)
            else:
                path.lineTo(x, y)
        elif piece.sweep_deg >= 360.0:
            path.circle(mm_to_pt(piece.centre[0]), mm_to_pt(piece.centre[1]), mm_to_pt(piece.radius))
        else:
            cx, cy, r = (mm_to_pt(v) for v in (*piece.centre, piece.radius))
            if first:
                sx, sy = piece.point(piece.start_deg)
                path.moveTo(mm_to_pt(sx), mm_to_pt(sy))
            path.arcTo(cx - r, cy - r, cx + r, cy + r, piece.start_deg, piece.sweep_deg)
        first = False
    path.close()
    return path


def shape_path(canvas: Canvas, shape: CardShape, offset_mm: float = 0.0) -> PDFPathObject:
    """The ReportLab path of ``shape`` centred on the origin, grown by ``offset_mm`` (mm)."""
    return pdf_path(canvas, card_path(shape, (0.0, 0.0), offset_mm))


__all__ = ["Arc", "Line", "pdf_path", "shape_path"]
