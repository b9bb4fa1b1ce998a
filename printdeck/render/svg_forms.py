"""svglib's vector drawing of an SVG, recorded as a form's PDF operators.

Only :mod:`printdeck.render.vector_code` draws through this module: it keeps the
recorded operators by drawing key, so svglib (and ReportLab's graphics package) is
imported and an SVG parsed only when an artwork's form is not in the cache yet.
"""

from __future__ import annotations

import io
import logging
import re
from collections.abc import Iterator
from pathlib import Path

from reportlab.graphics import renderPDF
from reportlab.graphics.shapes import Circle, Drawing, Ellipse, String
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas
from svglib.svglib import svg2rlg

from printdeck.artwork import Drawing as SymbolDrawing, existing_file, svg_text
from printdeck.errors import PrintdeckError, shown
from printdeck.render import pdf_fonts
from printdeck.render.canvas import end_form
from printdeck.render.svg_opacity import folded_opacity

SVG_MITER_LIMIT = 4
"""SVG's initial ``stroke-miterlimit``: a corner sharper than about 29 degrees is cut flat.
Neither svglib nor ReportLab sets one, so the PDF's own default (10, about 11 degrees)
drew a sharp stroked corner as a long spike that resvg, which the layout traced, cuts
short: ink beyond the silhouette, out to the card's safe zone."""
STROKING = frozenset(["S", "s", "B", "B*", "b", "b*"])
"""PDF operators that stroke a path."""
_MITER = re.compile(r"stroke-miterlimit\s*(?:=\s*[\"']|:)\s*([0-9]*\.?[0-9]+)")


def miter_limit(text: str) -> float:
    """The miter limit a form of the SVG ``text`` strokes with: the smallest ``stroke-miterlimit``
    it declares (an attribute, a style or a stylesheet: Illustrator writes 10 on every
    stroke), else SVG's initial :data:`SVG_MITER_LIMIT`. svglib reads no miter limit, so
    one value serves the whole form; where an SVG declares several, the smallest keeps a
    corner from spiking past what resvg traced (a corner cut shorter than traced loses a
    little ink, which the proof measures).

    Examples:
        >>> miter_limit('<path style="stroke:#000;stroke-miterlimit:10"/>')
        10.0
        >>> miter_limit('<path stroke="#000"/>')
        4
    """
    declared = [float(v) for v in _MITER.findall(text) if float(v) >= 1.0]  # PDF's least is 1
    return min(declared) if declared else SVG_MITER_LIMIT


logging.getLogger("svglib").addHandler(logging.NullHandler())  # its notes ("Can't handle color") are not
# the user's business: an SVG svglib cannot draw faithfully fails its proof and prints as an image


def load_svg_drawing(path: Path) -> Drawing:
    """svglib's drawing of :func:`printdeck.artwork.svg_text` (the SVG as resvg traced it:
    structure-checked, no DTD or entities, CSS variables resolved), never reaching the
    network or files outside the SVG's folder.

    Raises:
        PrintdeckError: The SVG is unsafe or malformed (:func:`~printdeck.artwork.svg_text`),
            or svglib made no drawing of it, or one without a size to scale it by.
    """
    text = folded_opacity(svg_text(path))  # a shape's own opacity, as svglib draws it
    drawing = svg2rlg(
        io.BytesIO(text.encode("utf-8")), resolve_entities=False, external_reference_root=str(path.parent)
    )
    # svglib's own width and height only scale its drawing onto the form's box (the SVG's
    # size, artwork's svg_size); svglib reads no size from some SVGs resvg draws (no viewBox)
    if drawing is None or drawing.width <= 0 or drawing.height <= 0:
        raise PrintdeckError(
            f"{shown(path)}: the PDF's vector path (svglib) finds no size in this SVG; give it a viewBox"
        )
    pdf_fonts.register_bundled()
    drawing.initialFontName = pdf_fonts.SANS
    for node in _nodes(drawing):
        _embed_font(node)
        _round_closed_curve_caps(node)
    return drawing


def _nodes(node: object) -> Iterator[object]:
    """The node and every node under it (a ReportLab drawing's tree)."""
    yield node
    for child in getattr(node, "contents", ()) or ():
        yield from _nodes(child)


def _round_closed_curve_caps(node: object) -> None:
    """Give a stroked circle or ellipse round line caps.

    ReportLab strokes them as open paths (no closepath), so the two butt caps where
    the path starts and ends meet edge to edge and anti-aliasing viewers show a
    hairline seam across the ring. A round cap of a closed curve lies inside the
    stroke (every point of it is within half the width of the centre line), so the
    seam is covered and nothing else changes.
    """
    if isinstance(node, (Circle, Ellipse)):
        node.strokeLineCap = 1


def _embed_font(node: object) -> None:
    """Make SVG text use the embedded sans font unless its font is embedded already.

    ReportLab would otherwise fall back to the standard Helvetica, which is not
    embedded in the file (the drawing's default font is set to the sans font too).
    """
    if isinstance(node, String):
        try:
            embedded = isinstance(pdfmetrics.getFont(node.fontName), TTFont)
        except KeyError:
            embedded = False
        if not embedded:
            node.fontName = pdf_fonts.SANS


def draw_vectors(canvas: Canvas, art: SymbolDrawing, name: str) -> tuple[list[str], dict[str, tuple[str, object]]]:
    """Draw the SVG's vector form (svglib) into the form ``name``, stretched to the
    drawing's box (its viewBox, the box the layout packed); return the form's content
    operators, one string a drawing call, as ReportLab wrote them, and what each graphics
    state they name sets (``{"gRLs0": ("ca", 0.2)}``: ReportLab forgets it at the form's end).

    Raises:
        PrintdeckError: The SVG is unsafe or has no size.
        Exception: Whatever svglib or ReportLab raise on an SVG they cannot draw
            (:mod:`printdeck.render.proof` tries this first and prints such SVGs as images).
    """
    path = existing_file(art.symbol)
    vectors = load_svg_drawing(path)
    w, h = art.size
    canvas.beginForm(name, 0, 0, w, h)
    canvas.scale(w / float(vectors.width), h / float(vectors.height))
    renderPDF.draw(vectors, canvas, 0, 0, showBoundary=False)
    if any(token in STROKING for line in canvas._code for token in str(line).split()):
        canvas._code.insert(0, f"{miter_limit(svg_text(path)):g} M")  # before the first stroke; fills need none
    code = [str(line) for line in canvas._code]
    states = {state_name: t for t, state_name in canvas._extgstate._c.items()}
    end_form(canvas)
    return code, states
