"""A class set's per-card images: the deck mark on each front, as the PDF draws it, and the
file names that carry each deck's letter (``card-001-B.png``, ``back-B.png``), so each deck
can be uploaded to a print-on-demand service as its own product.
"""

from __future__ import annotations

import io
from functools import lru_cache

from PIL import Image, ImageDraw

from printdeck.model import CardLayout, DeckMark
from printdeck.units import MM_PER_UNIT

MARK_PAD_MM = 0.4
"""The deck mark's picture reaches this far beyond its dot (its edge's blend), mm."""
DOT_SUPERSAMPLE = 4
"""The dot's mask is drawn this many times finer, then reduced (a smooth edge)."""


def card_name(layout: CardLayout, in_deck: int) -> str:
    """A card image's file name stem: ``card-014``, or in a class set ``card-001-B`` (its
    number in its own deck, ``in_deck`` from 0: :func:`printdeck.model.card_in_deck`, and
    its deck's letter), as the manifest and ``printdeck answer`` number it."""
    return f"card-{in_deck + 1:03d}" + (f"-{layout.mark.letter}" if layout.mark is not None else "")


def back_name(letter: str | None) -> str:
    """A back image's file name stem: ``back``, or of deck ``letter`` (a class set's, or a
    split deck's A and B: :func:`~printdeck.render.backs.back_decks`) ``back-B``."""
    return "back" if letter is None else f"back-{letter}"


def paste_mark(img: Image.Image, mark: DeckMark, background: str, px_per_mm: float) -> None:
    """Paste a class set's deck mark, drawn by the PDF's own code
    (:func:`~printdeck.render.sheet.draw_deck_mark`) on the card's ``background`` and
    rasterised by PDFium, where the layout kept its place free, into ``img`` (a card's
    image at ``px_per_mm``)."""
    centred = DeckMark(mark.deck, mark.letter, mark.color, (0.0, 0.0), mark.radius_mm)
    patch, disc = _mark_picture(centred, background, px_per_mm)
    cx = img.width / 2.0 + mark.center_mm[0] * px_per_mm
    cy = img.height / 2.0 - mark.center_mm[1] * px_per_mm
    at = (round(cx - patch.width / 2.0), round(cy - patch.height / 2.0))
    img.paste(patch, at, disc)


@lru_cache(maxsize=64)
def _mark_picture(mark: DeckMark, background: str, px_per_mm: float) -> tuple[Image.Image, Image.Image]:
    """The deck mark (centred) on ``background`` and its disc's mask, ``px_per_mm``: drawn once
    a deck, every card of it showing the same mark (PDFium takes about 2 ms a drawing)."""
    from reportlab.lib.colors import HexColor  # noqa: PLC0415 - ReportLab only for a class set

    from printdeck.render.canvas import scratch_canvas  # noqa: PLC0415
    from printdeck.render.pdf_pixels import page_image  # noqa: PLC0415
    from printdeck.render.sheet import draw_deck_mark  # noqa: PLC0415

    side_mm = 2.0 * mark.radius_mm + 2.0 * MARK_PAD_MM
    side_pt = side_mm / MM_PER_UNIT["in"] * 72.0
    buffer = io.BytesIO()
    canvas = scratch_canvas(buffer, (side_pt, side_pt))
    canvas.setFillColor(HexColor(background))
    canvas.rect(0, 0, side_pt, side_pt, stroke=0, fill=1)
    draw_deck_mark(canvas, mark, (side_pt / 2.0, side_pt / 2.0))
    canvas.showPage()
    canvas.save()
    size = max(1, round(side_mm * px_per_mm))
    patch = page_image(buffer.getvalue(), 0, size / side_pt).convert("RGB").resize((size, size))
    disc = Image.new("L", (size * DOT_SUPERSAMPLE,) * 2, 0)
    grown = (mark.radius_mm + 0.5 * MARK_PAD_MM) / side_mm * size * DOT_SUPERSAMPLE  # the dot and its edge's blend
    middle = size * DOT_SUPERSAMPLE / 2.0
    ImageDraw.Draw(disc).ellipse((middle - grown, middle - grown, middle + grown, middle + grown), fill=255)
    return patch, disc.resize((size, size), Image.Resampling.BOX)
