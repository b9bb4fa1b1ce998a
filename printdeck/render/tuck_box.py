"""A tuck box to cut, fold and glue: one flat net a page, sized for the deck.

The net, left to right: a glue tab, the front, a side, the back, a side; above the back
the lid and its tuck flap, above and below each side a dust flap, below the back the
bottom and below the front the bottom's glue flap. Inside, the box is the card plus
:data:`CLEARANCE_MM` wide and high and the deck's thickness (cards x card thickness) plus
:data:`DEPTH_CLEARANCE_MM` deep. Cut lines are solid, fold lines dashed
(:data:`FOLD_DASH_PT`) in :data:`FOLD_GREY`. Geometry in mm from the page's bottom-left corner.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from reportlab.lib.colors import HexColor
from reportlab.pdfgen.canvas import Canvas

from printdeck.errors import key_error
from printdeck.model import CardLayout
from printdeck.render.forms import ArtLibrary
from printdeck.render.pdf_fonts import SANS, SANS_BOLD
from printdeck.render.sheet import INK, draw_card, mark_ink
from printdeck.render.style import CardStyle
from printdeck.render.text import draw_string, shortened, string_width
from printdeck.units import mm_to_pt

CLEARANCE_MM = 2.0
"""The box's inside is this much wider and higher than a card, mm."""
DEPTH_CLEARANCE_MM = 1.5
"""... and this much deeper than the stacked deck, mm."""
GLUE_TAB_MM = 12.0
TUCK_FLAP_MM = 15.0
MARGIN_MM = 8.0
FOLD_DASH_PT = (4.0, 3.0)
FOLD_GREY = "#808080"
CUT_WIDTH_PT = 0.6


@dataclass(frozen=True)
class TuckBox:
    """A tuck box's inside size, mm: ``width`` and ``height`` of the front and back
    panels, ``depth`` of the sides, lid and bottom."""

    width_mm: float
    height_mm: float
    depth_mm: float

    @classmethod
    def for_deck(cls, card_w_mm: float, card_h_mm: float, cards: int, card_thickness_mm: float) -> TuckBox:
        """The box for ``cards`` cards of ``card_w_mm`` x ``card_h_mm`` (cut size), each
        ``card_thickness_mm`` thick."""
        return cls(card_w_mm + CLEARANCE_MM, card_h_mm + CLEARANCE_MM, cards * card_thickness_mm + DEPTH_CLEARANCE_MM)

    def net_size_mm(self) -> tuple[float, float]:
        """The flat net's width and height, mm."""
        w, h, d = self.width_mm, self.height_mm, self.depth_mm
        return GLUE_TAB_MM + 2 * w + 2 * d, TUCK_FLAP_MM + d + h + d


def box_page_size_mm(box: TuckBox, paper_mm: tuple[float, float]) -> tuple[float, float]:
    """The paper turned landscape, if the net fits on it with margins.

    Raises:
        PrintdeckError: The net does not fit (names the size it needs and the fix).
    """
    page = (max(paper_mm), min(paper_mm))
    need = box.net_size_mm()
    if need[0] + 2 * MARGIN_MM > page[0] or need[1] + 2 * MARGIN_MM > page[1]:
        raise key_error(
            "extras.tuck_box",
            f"the box's net needs {need[0] + 2 * MARGIN_MM:.0f} x {need[1] + 2 * MARGIN_MM:.0f} mm "
            f"and the paper is {page[0]:.0f} x {page[1]:.0f} mm; use a larger paper.size (e.g. a3) or leave "
            "out the tuck box",
        )
    return page


def draw_tuck_box(
    canvas: Canvas,
    art: ArtLibrary,
    box: TuckBox,
    page_mm: tuple[float, float],
    front: CardLayout,
    style: CardStyle,
    title: str,
    color: str,
    letter: str | None = None,
) -> None:
    """Draw one tuck box net on a page of ``page_mm`` and end the page.

    Args:
        front: The card drawn on the box's front (the deck's art).
        style: How a card is drawn.
        title: The deck's title (front, sides and lid).
        color: The box's colour (the backs' colour; a class set's or split deck's deck colour).
        letter: A class set's or split deck's deck letter (on the back and the lid), or None.
    """
    canvas.setPageSize((mm_to_pt(page_mm[0]), mm_to_pt(page_mm[1])))
    net_w, net_h = box.net_size_mm()
    x0, y0 = (page_mm[0] - net_w) / 2.0, (page_mm[1] - net_h) / 2.0
    w, h, d = box.width_mm, box.height_mm, box.depth_mm
    xs = [x0, x0 + GLUE_TAB_MM, x0 + GLUE_TAB_MM + w, x0 + GLUE_TAB_MM + w + d, x0 + GLUE_TAB_MM + 2 * w + d]
    x_end = xs[-1] + d
    yb, yt = y0 + d, y0 + d + h  # the main row's bottom and top
    ink = HexColor(color)
    panels = [(xs[1], yb, w, h), (xs[2], yb, d, h), (xs[3], yb, w, h), (xs[4], yb, d, h)]
    panels += [(xs[3], yt, w, d), (xs[3], y0, w, d)]  # lid, bottom
    canvas.setFillColor(ink)
    for x, y, pw, ph in panels:
        canvas.rect(mm_to_pt(x), mm_to_pt(y), mm_to_pt(pw), mm_to_pt(ph), stroke=0, fill=1)
    _front(canvas, art, front, style, (xs[1] + w / 2, yb + h / 2), min(w, h) - 8.0, title, color)
    _labels(canvas, box, xs, yb, yt, title, color, letter)
    _outline(canvas, xs, x_end, y0, yb, yt, w, d)
    _folds(canvas, xs, x_end, yb, yt, w, d)
    canvas.setFillColor(INK)
    canvas.setFont(SANS, 8)
    rest = f": cut the solid lines, fold the dashed ones, glue the tabs. Inside {w:.1f} x {h:.1f} x {d:.1f} mm."
    room_pt = mm_to_pt(page_mm[0] - 2 * MARGIN_MM) - string_width(f"Tuck box for {rest}", SANS, 8)
    note = f"Tuck box for {shortened(title, SANS, 8, room_pt)}{rest}"  # a long title never runs off the page
    draw_string(canvas, mm_to_pt(MARGIN_MM), mm_to_pt(MARGIN_MM / 2), note)
    canvas.showPage()


def _front(
    canvas: Canvas,
    art: ArtLibrary,
    card: CardLayout,
    style: CardStyle,
    centre: tuple[float, float],
    size_mm: float,
    title: str,
    color: str,
) -> None:
    """The deck's art (a card face, shrunk) and its title on the front panel."""
    shape = style.card_shape()
    scale = 0.8 * size_mm / max(shape.width_mm, shape.height_mm)
    canvas.saveState()
    canvas.translate(mm_to_pt(centre[0]), mm_to_pt(centre[1] + 0.08 * size_mm))
    canvas.scale(scale, scale)
    draw_card(canvas, art, card, (0.0, 0.0), replace(style, bleed_mm=0.0, cut_guide=False, punch_ring=False))
    canvas.restoreState()
    canvas.setFillColor(HexColor(mark_ink(color)))
    size = min(14.0, 0.8 * mm_to_pt(size_mm) / max(string_width(title, SANS_BOLD, 1.0), 1e-6))
    canvas.setFont(SANS_BOLD, size)
    draw_string(canvas, mm_to_pt(centre[0]), mm_to_pt(centre[1] - 0.45 * size_mm), title, "middle")


def _labels(
    canvas: Canvas,
    box: TuckBox,
    xs: list[float],
    yb: float,
    yt: float,
    title: str,
    color: str,
    letter: str | None,
) -> None:
    """The title along the sides and on the lid; the deck letter big on the back."""
    w, h, d = box.width_mm, box.height_mm, box.depth_mm
    canvas.setFillColor(HexColor(mark_ink(color)))
    size = min(0.6 * mm_to_pt(d), 0.8 * mm_to_pt(h) / max(string_width(title, SANS_BOLD, 1.0), 1e-6), 16.0)
    canvas.setFont(SANS_BOLD, size)
    for x in (xs[2], xs[4]):
        canvas.saveState()
        canvas.translate(mm_to_pt(x + d / 2) + 0.35 * size, mm_to_pt(yb + h / 2))
        canvas.rotate(90)
        draw_string(canvas, 0, 0, title, "middle")
        canvas.restoreState()
    lid = title + (f" · {letter}" if letter else "")
    lid_size = min(0.6 * mm_to_pt(d), 0.8 * mm_to_pt(w) / max(string_width(lid, SANS_BOLD, 1.0), 1e-6), 16.0)
    canvas.setFont(SANS_BOLD, lid_size)
    draw_string(canvas, mm_to_pt(xs[3] + w / 2), mm_to_pt(yt + d / 2) - 0.35 * lid_size, lid, "middle")
    if letter:
        canvas.setFont(SANS_BOLD, 0.45 * mm_to_pt(h))
        draw_string(canvas, mm_to_pt(xs[3] + w / 2), mm_to_pt(yb + h / 2 - 0.16 * h), letter, "middle")


def _outline(
    canvas: Canvas, xs: list[float], x_end: float, y0: float, yb: float, yt: float, w: float, d: float
) -> None:
    """The cut line: the whole net's outline, tabs and flaps included."""
    dust = 0.85 * d
    tuck_top = yt + d + TUCK_FLAP_MM
    pts = [
        (xs[1], yb), (xs[0], yb + 4), (xs[0], yt - 4), (xs[1], yt),  # glue tab
        (xs[2], yt),
        (xs[2] + 1, yt + dust), (xs[3] - 1, yt + dust), (xs[3], yt),  # dust flap
        (xs[3], yt + d), (xs[3] + 3, tuck_top), (xs[4] - 3, tuck_top), (xs[4], yt + d),  # lid and tuck flap
        (xs[4], yt), (xs[4] + 1, yt + dust), (x_end - 1, yt + dust), (x_end, yt),  # dust flap
        (x_end, yb), (x_end - 1, yb - dust), (xs[4] + 1, yb - dust), (xs[4], yb),  # dust flap
        (xs[4], y0), (xs[3], y0),  # bottom
        (xs[3], yb), (xs[3] - 1, yb - dust), (xs[2] + 1, yb - dust), (xs[2], yb),  # dust flap
        (xs[2], yb - 0.8 * d + 3), (xs[2] - 3, yb - 0.8 * d), (xs[1] + 3, yb - 0.8 * d), (xs[1], yb - 0.8 * d + 3),
    ]  # fmt: skip
    path = canvas.beginPath()
    path.moveTo(mm_to_pt(pts[0][0]), mm_to_pt(pts[0][1]))
    for x, y in pts[1:]:
        path.lineTo(mm_to_pt(x), mm_to_pt(y))
    path.close()
    canvas.setStrokeColor(INK)
    canvas.setLineWidth(CUT_WIDTH_PT)
    canvas.setDash()
    canvas.drawPath(path, stroke=1, fill=0)


def _folds(canvas: Canvas, xs: list[float], x_end: float, yb: float, yt: float, w: float, d: float) -> None:
    """The fold lines, each one dashed segment: between the main panels, and where every
    flap, the lid and the bottom meet the main row."""
    segments = [((x, yb), (x, yt)) for x in xs[1:]]
    segments += [((xs[1], yb), (xs[2], yb)), ((xs[2], yb), (xs[3], yb)), ((xs[3], yb), (xs[4], yb))]
    segments += [((xs[4], yb), (x_end, yb)), ((xs[2], yt), (xs[3], yt)), ((xs[3], yt), (xs[4], yt))]
    segments += [((xs[4], yt), (x_end, yt)), ((xs[3], yt + d), (xs[4], yt + d)), ((xs[3], yb - d), (xs[4], yb - d))]
    canvas.saveState()
    canvas.setStrokeColor(HexColor(FOLD_GREY))
    canvas.setLineWidth(0.5)
    canvas.setDash(list(FOLD_DASH_PT), 0)
    for (ax, ay), (bx, by) in segments:
        canvas.line(mm_to_pt(ax), mm_to_pt(ay), mm_to_pt(bx), mm_to_pt(by))
    canvas.restoreState()
