"""One place that opens a deterministic, metadata-carrying ReportLab canvas, and that ends
a form XObject with the resources it names."""

from __future__ import annotations

import io
from pathlib import Path

from reportlab import rl_config
from reportlab.pdfbase.pdfdoc import PDFResourceDictionary, xObjectName
from reportlab.pdfgen.canvas import Canvas

from printdeck.render import pdf_fonts
from printdeck.render.grey import GreyCanvas
from printdeck.units import mm_to_pt


def new_canvas(
    path: Path,
    page_size_mm: tuple[float, float],
    *,
    title: str,
    author: str,
    subject: str,
    duplex: str | None = None,
    grey: bool = False,
) -> Canvas:
    """A canvas whose output is byte-identical for the same drawing calls.

    ``invariant=1`` (no dates, fixed IDs), compressed binary streams, the embedded
    sans font as the initial font (never the non-embedded Helvetica), title /
    author / subject / creator set, the print dialog preset to actual size
    (``/PrintScaling /None``) and, with ``duplex``, to that flip.

    Args:
        path: The PDF file the canvas will write on ``save()``.
        page_size_mm: (width, height) of the first page, mm.
        title: Document title.
        author: Document author.
        subject: Document subject (a description, may carry the artwork credit).
        duplex: ``long-edge``, ``short-edge`` or ``None`` (no duplex preset).
        grey: Draw every colour and picture in DeviceGray (:class:`printdeck.render.grey.GreyCanvas`).
    """
    pdf_fonts.register_bundled()
    rl_config.useA85 = 0  # binary streams, smaller than ASCII85 text (bench/RESULTS.md)
    canvas = (GreyCanvas if grey else Canvas)(
        str(path),
        pagesize=(mm_to_pt(page_size_mm[0]), mm_to_pt(page_size_mm[1])),
        invariant=1,
        pageCompression=1,
        initialFontName=pdf_fonts.SANS,
        initialFontSize=10,
        initialLeading=12,
    )
    canvas.setTitle(title)
    canvas.setAuthor(author)
    canvas.setSubject(subject)
    canvas.setCreator("printdeck")
    canvas.setViewerPreference("PrintScaling", "None")
    # PDF 1.4 from the start: svglib raises a canvas to 1.4 as it draws a vector form (its
    # alpha), a form replayed from its recording does not, so a grey deck (whose cards do not
    # raise it) was 1.4 when built cold and 1.3 warm; now the same bytes either way
    canvas._doc.ensureMinPdfVersion("transparency")
    if duplex is not None:
        canvas.setViewerPreference("Duplex", "DuplexFlipLongEdge" if duplex == "long-edge" else "DuplexFlipShortEdge")
    return canvas


def scratch_canvas(buffer: io.BytesIO, page_size_pt: tuple[float, float]) -> Canvas:
    """An in-memory, deterministic one-off canvas (for proofs that a drawing prints), pt."""
    pdf_fonts.register_bundled()
    return Canvas(buffer, pagesize=page_size_pt, invariant=1, initialFontName=pdf_fonts.SANS)


def end_form(canvas: Canvas) -> None:
    """End the form begun by ``canvas.beginForm`` (``canvas.endForm()``) and give it every
    resource its content names.

    ReportLab (5.x) writes a form's ``/Resources`` with its fonts, procedure sets and
    XObjects only: a form that paints a gradient (``sh``, an SVG's ``linearGradient``) or
    sets a graphics state (``gs``: an SVG's ``opacity``) names a shading or state that is
    nowhere in the file, which poppler and Ghostscript draw as solid black or opaque (and a
    print shop's preflight refuses). Forms that name neither are left as ReportLab writes
    them (the same bytes).
    """
    name = canvas._formData[0]
    shadings = dict(canvas._shadingUsed)  # reset by endForm: taken before
    colours = dict(canvas._colorsUsed)
    canvas.endForm()
    form = canvas._doc.idToObject[xObjectName(name)]
    if not (shadings or colours or form.ExtGState):
        return
    resources = PDFResourceDictionary()
    resources.basicFonts()
    resources.allProcs()
    if form.XObjects:
        resources.XObject = form.XObjects
    if form.ExtGState:
        resources.ExtGState = form.ExtGState
    resources.setShading(shadings)
    resources.setColorSpace(colours)
    form.Resources = resources
