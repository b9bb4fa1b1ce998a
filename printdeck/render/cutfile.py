"""Cut files for print-then-cut machines: each sheet's cut paths as SVG and DXF.

Each front sheet gets ``<stem>-cut-NN.svg`` and ``<stem>-cut-NN.dxf``: the page's
size, and every card's cut path (:func:`printdeck.cardshape.card_path`, the path the
PDF's cut guide strokes) at the card's position on the PDF page, in millimetres. The
SVG's y axis points down (``y_svg = H - y``); the DXF keeps the PDF's (origin at the
page's bottom-left corner, ``$INSUNITS`` = mm), with LWPOLYLINE (arcs as bulges) and
CIRCLE entities written by ezdxf. Cards that share cut lines (``paper.cuts: shared``) have each shared
line once, as lines of their own (:func:`sheet_cut_pieces`): a machine given a closed path
a card would cut every shared edge twice, which can tear the paper. No ReportLab here.
"""

from __future__ import annotations

import math
from pathlib import Path

from printdeck.cardshape import Arc, Line, PathPiece, card_path
from printdeck.render.imposition import Imposition

CUT_LAYER = "CUT"


def sheet_cut_paths(imposition: Imposition, page: int) -> list[tuple[PathPiece, ...]]:
    """The cut path of every card on front ``page`` (1-based), page mm, in slot order."""
    shape = imposition.sheet_shape()
    return [card_path(shape, slot.center_mm) for slot in imposition.slots if slot.page == page]


def sheet_cut_pieces(imposition: Imposition, page: int) -> list[tuple[PathPiece, ...]]:
    """What the cut files of front ``page`` hold: each card's closed cut path, or for cards
    that share cut lines, every straight piece once (a line two cards share, whichever way
    each card runs it) as a path of its own, lines that continue each other in a straight
    row joined into one (a grid of square cards: a cut across the sheet, not the blade
    lifted at every card's corner), pieces that meet end to end chained (:func:`_chained`)."""
    paths = sheet_cut_paths(imposition, page)
    if not imposition.shared:
        return paths
    kept: list[Line] = []
    pieces: list[tuple[PathPiece, ...]] = []
    for piece in (p for path in paths for p in path):
        if isinstance(piece, Line):
            if any(_same_line(piece, other) for other in kept):
                continue
            kept.append(piece)
        pieces.append((piece,))
    return _chained(_rows_joined(pieces))


def _rows_joined(pieces: list[tuple[PathPiece, ...]]) -> list[tuple[PathPiece, ...]]:
    """``pieces`` (one piece each) with every two lines that continue each other in a
    straight row (an end of one is an end of the other, both on one line) made one line,
    until none do; the others as they were, in their order."""
    out = list(pieces)
    joined = True
    while joined:
        joined = False
        for i, (a,) in enumerate(out):
            if not isinstance(a, Line):
                continue
            for j in range(i + 1, len(out)):
                b = out[j][0]
                row = _row_of(a, b) if isinstance(b, Line) else None
                if row is not None:
                    out[i], joined = (row,), True
                    del out[j]
                    break
            if joined:
                break
    return out


def _chained(pieces: list[tuple[PathPiece, ...]]) -> list[tuple[PathPiece, ...]]:
    """``pieces`` (one piece each) with the lines and arcs that meet end to end chained into
    open paths, each piece turned to run on from the one before (a hexagon grid's zigzag,
    or a rounded card's edge and its corner, is one cut, not a lift of the blade at every
    corner); a whole circle kept as it was, after them."""
    loose = [piece for (piece,) in pieces if not _whole_circle(piece)]
    chains: list[tuple[PathPiece, ...]] = []
    while loose:
        chain = [loose.pop(0)]
        for at_end in (True, False):  # grow forward from its end, then back from its start
            while True:
                tip = _ends(chain[-1])[1] if at_end else _ends(chain[0])[0]
                k = next((i for i, piece in enumerate(loose) if _meets(piece, tip)), None)
                if k is None:
                    break
                piece = loose.pop(k)
                near_start = math.dist(_ends(piece)[0], tip) <= SAME_MM
                if at_end:
                    chain.append(piece if near_start else _reversed(piece))
                else:
                    chain.insert(0, _reversed(piece) if near_start else piece)
        chains.append(tuple(chain))
    return chains + [piece for piece in pieces if _whole_circle(piece[0])]


def _whole_circle(piece: PathPiece) -> bool:
    return isinstance(piece, Arc) and abs(piece.sweep_deg) >= 360.0


def _ends(piece: PathPiece) -> tuple[tuple[float, float], tuple[float, float]]:
    """Where ``piece`` starts and ends, mm."""
    if isinstance(piece, Line):
        return piece.start, piece.end
    return piece.point(piece.start_deg), piece.point(piece.start_deg + piece.sweep_deg)


def _reversed(piece: PathPiece) -> PathPiece:
    """``piece`` run the other way (an arc turning clockwise: a negative sweep)."""
    if isinstance(piece, Line):
        return Line(piece.end, piece.start)
    return Arc(piece.centre, piece.radius, piece.start_deg + piece.sweep_deg, -piece.sweep_deg)


def _meets(piece: PathPiece, point: tuple[float, float]) -> bool:
    """Whether either end of ``piece`` is ``point`` (within :data:`SAME_MM`)."""
    return any(math.dist(end, point) <= SAME_MM for end in _ends(piece))


def _row_of(a: Line, b: Line) -> Line | None:
    """The one line ``a`` and ``b`` make when they continue each other in a straight row (an
    end of each within :data:`SAME_MM`, every end within it of the row's line), else None."""
    ends_a, ends_b = (a.start, a.end), (b.start, b.end)
    touching = [(p, q) for p in ends_a for q in ends_b if math.dist(p, q) <= SAME_MM]
    if not touching:
        return None
    (x0, y0), (x1, y1) = a.start, a.end
    length = math.hypot(x1 - x0, y1 - y0)
    if length <= SAME_MM:
        return None
    across = [abs((x1 - x0) * (y0 - y) - (x0 - x) * (y1 - y0)) / length for x, y in ends_b]
    if max(across) > SAME_MM:
        return None
    shared = touching[0][0]
    far_a = a.end if math.dist(a.start, shared) <= SAME_MM else a.start
    far_b = b.end if math.dist(b.start, touching[0][1]) <= SAME_MM else b.start
    return Line(far_a, far_b)


SAME_MM = 1e-4
"""Two cards' computations of one corner agree to within this, mm (float rounding)."""


def _same_line(a: Line, b: Line) -> bool:
    """Whether ``a`` and ``b`` are one segment, run either way (ends within :data:`SAME_MM`)."""

    def near(p: tuple[float, float], q: tuple[float, float]) -> bool:
        return abs(p[0] - q[0]) <= SAME_MM and abs(p[1] - q[1]) <= SAME_MM

    return (near(a.start, b.start) and near(a.end, b.end)) or (near(a.start, b.end) and near(a.end, b.start))


def cut_file_names(stem: Path, pages: int) -> list[Path]:
    """``[<stem>-cut-01.svg, <stem>-cut-01.dxf, ...]``: the cut files of ``pages`` sheets."""
    return [stem.with_name(f"{stem.name}-cut-{n:02d}{ext}") for n in range(1, pages + 1) for ext in (".svg", ".dxf")]


def write_svg(imposition: Imposition, page: int, path: Path) -> None:
    """Write front ``page``'s cut paths as an SVG the size of the page (mm).

    Raises:
        OSError: The file cannot be written.
    """
    w, h = imposition.page_size_mm
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w:.4f}mm" height="{h:.4f}mm" viewBox="0 0 {w:.4f} {h:.4f}">',
        f'<g id="{CUT_LAYER.lower()}" fill="none" stroke="#ff0000" stroke-width="0.1">',
    ]
    for pieces in sheet_cut_pieces(imposition, page):
        parts.append(_svg_element(pieces, h))
    parts.append("</g></svg>\n")
    path.write_text("\n".join(parts), encoding="utf-8")


def _svg_element(pieces: tuple[PathPiece, ...], page_h: float) -> str:
    """One card's cut path as an SVG element (a circle, or a closed path of lines and arcs),
    or a chain of shared lines as an open path (closed where it comes back to its start)."""
    first = pieces[0]
    if isinstance(first, Arc) and first.sweep_deg >= 360.0:
        return f'<circle cx="{first.centre[0]:.4f}" cy="{page_h - first.centre[1]:.4f}" r="{first.radius:.4f}"/>'
    start = first.start if isinstance(first, Line) else first.point(first.start_deg)
    d = [f"M {start[0]:.4f} {page_h - start[1]:.4f}"]
    for piece in pieces:
        if isinstance(piece, Line):
            d.append(f"L {piece.end[0]:.4f} {page_h - piece.end[1]:.4f}")
        else:
            x, y = piece.point(piece.start_deg + piece.sweep_deg)
            large = 1 if abs(piece.sweep_deg) > 180 else 0
            sweep = 0 if piece.sweep_deg > 0 else 1  # counter-clockwise with y up is clockwise with y down
            d.append(f"A {piece.radius:.4f} {piece.radius:.4f} 0 {large} {sweep} {x:.4f} {page_h - y:.4f}")
    last = pieces[-1]
    end = last.end if isinstance(last, Line) else last.point(last.start_deg + last.sweep_deg)
    closed = len(pieces) > 1 and math.dist(start, end) <= SAME_MM  # a card's path; a chain of shared lines may not be
    return f'<path d="{" ".join(d)}{" Z" if closed else ""}"/>'


def write_dxf(imposition: Imposition, page: int, path: Path) -> None:
    """Write front ``page``'s cut paths as a DXF (R2010, mm, the page's bottom-left at the origin).

    A round card is a CIRCLE; every other card's cut path, and every chain of shared lines,
    is one LWPOLYLINE (closed where it comes back to its start), its arcs as bulges: one
    cut each, as in the SVG, so the blade is not lifted at every corner.

    Raises:
        OSError: The file cannot be written.
    """
    import ezdxf  # noqa: PLC0415 - only when a DXF cut file is asked for (a 0.1 s import)

    doc = ezdxf.new("R2010", units=4)  # 4 = millimetres
    doc.header["$INSUNITS"] = 4
    doc.layers.add(CUT_LAYER, color=1)
    msp = doc.modelspace()
    attribs = {"layer": CUT_LAYER}
    for pieces in sheet_cut_pieces(imposition, page):
        first = pieces[0]
        if isinstance(first, Arc) and first.sweep_deg >= 360.0:
            msp.add_circle(first.centre, first.radius, dxfattribs=attribs)
            continue
        vertices, closed = polyline_vertices(pieces)
        msp.add_lwpolyline(vertices, format="xyb", close=closed, dxfattribs=attribs)
    doc.saveas(path)


def polyline_vertices(pieces: tuple[PathPiece, ...]) -> tuple[list[tuple[float, float, float]], bool]:
    """A path of lines and arcs (none a whole circle) as polyline vertices ``(x, y, bulge)``
    (mm; the bulge of the piece that starts there: ``tan(sweep / 4)``, positive counter-
    clockwise, 0 for a line) and whether the path is closed (its end at its start: the
    start is then not repeated)."""
    vertices: list[tuple[float, float, float]] = []
    for piece in pieces:
        if isinstance(piece, Line):
            vertices.append((piece.start[0], piece.start[1], 0.0))
        else:
            x, y = piece.point(piece.start_deg)
            vertices.append((x, y, math.tan(math.radians(piece.sweep_deg) / 4)))
    last = pieces[-1]
    end = last.end if isinstance(last, Line) else last.point(last.start_deg + last.sweep_deg)
    closed = len(pieces) > 1 and math.dist(vertices[0][:2], end) <= SAME_MM
    if not closed:
        vertices.append((end[0], end[1], 0.0))
    return vertices, closed


def write_cut_files(imposition: Imposition, paths: list[Path]) -> None:
    """Write every sheet's SVG and DXF to ``paths`` (as :func:`cut_file_names` orders them)."""
    for page in range(1, imposition.pages + 1):
        write_svg(imposition, page, paths[2 * (page - 1)])
        write_dxf(imposition, page, paths[2 * (page - 1) + 1])
