"""Lines of the theme's own text (title, author, credit, symbol names) in any script.

Text the embedded sans font can set (Latin) is drawn as PDF text, as before. Text with
letters that font lacks (a Russian title, Arabic or Hindi symbol names in the legend) is
shaped by :func:`printdeck.artwork.shape_word` with the same font fallback as the words
on the cards and drawn as glyph outlines in the current fill colour, so it prints right
to left, joined and with its clusters, instead of as missing-glyph boxes.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Literal

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import FILL_NON_ZERO, Canvas

if TYPE_CHECKING:
    from reportlab.pdfgen.pathobject import PDFPathObject

    from printdeck.artwork import PathOps, ShapedWord

Anchor = Literal["start", "middle"]

SANS = "PrintdeckSans"
"""ReportLab's name for the default face (:func:`printdeck.artwork.default_face`, Bitstream Vera)."""
SANS_BOLD = "PrintdeckSans-Bold"
"""ReportLab's name for its bold (``default_face(bold=True)``)."""
EMBOLDEN_EM = 0.05
"""Outlines set for the bold face are stroked this wide (in their fill colour), a share of
the size: the bundled faces of other scripts have no bold, and Vera Bold's stems are
about this much wider than its regular's (a synthetic bold, as browsers draw)."""
NARROW_NO_BREAKS = "\u2007\u202f"
"""No-break spaces a font may lack (the bundled sans has neither): the figure space, and the
narrow one French typing sets before ``:`` and ``!``; :func:`settable` sets them as U+00A0."""


def font_has(font_name: str, text: str) -> bool:
    """Whether the registered ReportLab font ``font_name`` has a glyph for every character,
    so the text can be PDF text in it (read from ReportLab's metrics of the font, which
    decide how it is set; the words' faces are chosen by :mod:`printdeck.artwork.fonts`)."""
    font = pdfmetrics.getFont(font_name)
    if not isinstance(font, TTFont):
        return all(ord(c) < 128 for c in text)
    widths = font.face.charWidths
    return all(ord(c) in widths or c in " \u00a0" for c in text)


def settable(text: str, font_name: str) -> str:
    """``text`` with the no-break spaces ``font_name`` lacks (:data:`NARROW_NO_BREAKS`) as
    U+00A0, which it has: one such space would make the whole line glyph outlines in a
    fallback face, not PDF text (:func:`draw_string` and :func:`string_width` set every line
    so, the backs' and tuck box's titles as much as the lines ``wrap_text`` makes)."""
    if not any(c in NARROW_NO_BREAKS for c in text):
        return text
    return "".join("\u00a0" if c in NARROW_NO_BREAKS and not font_has(font_name, c) else c for c in text)


@lru_cache(maxsize=512)
def _shaped(text: str, font_name: str) -> ShapedWord:
    """``text`` shaped as :func:`draw_string` draws it in ``font_name``: in the bold face
    first for :data:`SANS_BOLD` (its Latin letters are Vera Bold's), then the fallbacks."""
    from printdeck.artwork import default_face, fallback_chain, shape_word  # noqa: PLC0415 - HarfBuzz only for such text

    first = [default_face(bold=True)] if font_name == SANS_BOLD else []
    return shape_word(text, tuple(fallback_chain(first, text)))


def ltr_line(text: str) -> str:
    """``text`` to be set left to right: a sentence of printdeck's own words round the
    theme's title ("<title>: symbol legend") that would start right to left, because the
    title does (Arabic, Hebrew), gets a left-to-right mark in front, so the title stays one
    right-to-left run at its start and the brackets and words after it keep their places
    (:func:`in_direction`)."""
    return in_direction(text)


def in_direction(text: str, paragraph: str = "") -> str:
    """``text`` set as a line of ``paragraph`` (default: a paragraph running left to right),
    in its direction: where the line's own first strong letter would set it the other way
    (UAX #9 rule P2), a left-to-right mark (U+200E) or right-to-left mark (U+200F) goes in
    front; any other text is returned as it is. A title broken into lines keeps the order of
    its words this way."""
    if text.isascii() and paragraph.isascii():  # nothing right to left
        return text
    from printdeck.artwork import starts_right_to_left  # noqa: PLC0415 - python-bidi only for such text

    right_to_left = starts_right_to_left(paragraph)
    if starts_right_to_left(text) == right_to_left:
        return text
    return ("\u200f" if right_to_left else "\u200e") + text


def string_width(text: str, font_name: str, size_pt: float) -> float:
    """Advance width of ``text`` in points, as :func:`draw_string` sets it: two measures
    for the two ways it draws, not one fact twice.

    - Text the registered font has (:func:`font_has`) is PDF text, which ReportLab places
      glyph by glyph from the embedded font's own widths, without kerning: its width is
      ReportLab's ``stringWidth``, the only measure that matches where it prints.
    - Other text is drawn as outlines shaped by HarfBuzz (:func:`printdeck.artwork.shape_word`,
      with kerning, joining and reordering, in whatever fallback faces it needs): its
      width is that shaping's ``advance_em``.

    Raises:
        PrintdeckError: No font, bundled or on this machine, has a character.
    """
    text = settable(text, font_name)
    if not text or font_has(font_name, text):
        return float(pdfmetrics.stringWidth(text, font_name, size_pt))
    return _shaped(text, font_name).advance_em * size_pt


def draw_string(canvas: Canvas, x_pt: float, y_pt: float, text: str, anchor: Anchor = "start") -> None:
    """Set one line of text on its baseline at ``(x_pt, y_pt)`` in the canvas's current
    font, size and fill colour; ``anchor`` says whether x is the start or the middle.
    Text drawn as outlines in the bold face (:data:`SANS_BOLD`) is emboldened by
    :data:`EMBOLDEN_EM`.

    Raises:
        PrintdeckError: No font, bundled or on this machine, has a character.
    """
    font_name, size = canvas._fontname, canvas._fontsize
    if not text.strip():
        return
    text = settable(text, font_name)
    if font_has(font_name, text):
        if anchor == "middle":
            canvas.drawCentredString(x_pt, y_pt, text)
        else:
            canvas.drawString(x_pt, y_pt, text)
        return
    word = _shaped(text, font_name)
    left = x_pt - word.advance_em * size / 2.0 if anchor == "middle" else x_pt
    if font_name != SANS_BOLD:
        canvas.drawPath(_outlines(canvas, word.ops, size, left, y_pt), stroke=0, fill=1, fillMode=FILL_NON_ZERO)
        return
    from printdeck.artwork import default_face  # noqa: PLC0415 - as _shaped

    bold = default_face(bold=True)
    plain = [word.ops[start:end] for face, start, end in word.runs if face != bold]  # faces without a bold
    canvas.saveState()  # bold: those faces' outlines grown by a stroke of their own colour
    canvas.setStrokeColor(canvas._fillColorObj)
    canvas.setLineWidth(EMBOLDEN_EM * size)
    canvas.setLineJoin(1)
    if len(plain) == len(word.runs):  # every run synthetic: one path, stroked and filled
        canvas.drawPath(_outlines(canvas, word.ops, size, left, y_pt), stroke=1, fill=1, fillMode=FILL_NON_ZERO)
    else:
        canvas.drawPath(_outlines(canvas, word.ops, size, left, y_pt), stroke=0, fill=1, fillMode=FILL_NON_ZERO)
        if plain:
            ops = tuple(op for run in plain for op in run)
            canvas.drawPath(_outlines(canvas, ops, size, left, y_pt), stroke=1, fill=0)
    canvas.restoreState()


def _outlines(canvas: Canvas, ops: PathOps, size_pt: float, left_pt: float, baseline_pt: float) -> PDFPathObject:
    """A path of shaped outlines ``ops`` (em) set at ``size_pt`` from ``(left_pt, baseline_pt)``."""
    from printdeck.render.glyph_pen import PathPen  # noqa: PLC0415 - fontTools only for outlines

    path = canvas.beginPath()
    pen = PathPen(path, size_pt, left_pt, baseline_pt)
    for op, pts in ops:
        getattr(pen, op)(*pts)
    return path


def shortened(text: str, font_name: str, size_pt: float, room_pt: float) -> str:
    """``text`` as it fits ``room_pt`` points in ``font_name`` at ``size_pt``: whole, or with
    its end replaced by an ellipsis (``…``; a single character where nothing fits).

    Raises:
        PrintdeckError: No font has a character (:func:`string_width`).
    """
    while len(text) > 1 and string_width(text, font_name, size_pt) > room_pt:
        text = text[:-2].rstrip() + "…"
    return text
