"""Optional extra pages: the symbol legend (answer key) and the rules sheet."""

from __future__ import annotations

from collections.abc import Sequence

from reportlab.pdfgen.canvas import Canvas

from printdeck.model import SymbolSpec
from printdeck.render.forms import ArtLibrary, by_id
from printdeck.render.legend_cells import LEGEND_ART_MM, LEGEND_CELL_MM, cell_frame, draw_cell_faces
from printdeck.render.pdf_fonts import SANS, SANS_BOLD
from printdeck.render.rules_text import FACES_RULES_TEXT, faces_rules, rules_sections
from printdeck.render.sheet import INK
from printdeck.render.text import draw_string, ltr_line, string_width
from printdeck.render.wrap import wrap_text
from printdeck.units import mm_to_pt, pt_to_mm

PAGE_MARGIN_MM = 12.0
HEADING_PT = 14.0
"""Page heading size, points (shrunk down to ``MIN_HEADING_PT``, then wrapped)."""
MIN_HEADING_PT = 10.0
LEGEND_NAME_PT = 10.0
"""A legend name's size, points: body text, read at arm's length on the printed page (it
was 7 pt, shrunk to 5: small print), in any script; smaller only where it must fit."""
MIN_NAME_PT = 8.0
"""Smallest legend name size before it wraps to two lines, points."""
LEAST_NAME_PT = 5.0
"""Smallest size of a legend name's two lines, points (the least a name was set at when
names were small print): only a name too long for two lines at :data:`MIN_NAME_PT` is set
smaller, and one too long even then is cut short."""
NAME_GAP_MM = 1.0
"""From the foot of a legend cell's art box down to its name's first line's top, mm (two
lines at :data:`MIN_NAME_PT` end inside a framed cell)."""
NAME_SIDE_MM = 2.5
"""A legend name keeps this far from each side of its cell, mm: inside a framed cell's
frame, and apart from the next cell's name."""
CREDIT_PT = 7.0
"""Artwork credit size at the foot of legend and rules pages, points."""
ELLIPSIS = "\u2026"


def legend_pages(
    canvas: Canvas,
    art: ArtLibrary,
    symbols: Sequence[SymbolSpec],
    used_ids: Sequence[int] | Sequence[Sequence[int]],
    page_size_mm: tuple[float, float],
    title: str,
    credit: str | None = None,
    card_colour: str = "#ffffff",
) -> int:
    """Draw a grid of every used symbol with its name; returns pages drawn.

    Args:
        canvas: Target canvas (a fresh page is open; pages are ended here).
        art: The document's symbol forms (artwork is reused, not stored again).
        symbols: The deck's symbols (looked up by ``id``).
        used_ids: Symbol ids to list, in order; or groups of ids, one cell each: a symbol
            with several faces, its faces together (:mod:`~printdeck.render.legend_cells`) under the first face's name
            (the symbol's).
        page_size_mm: (W, H) of the legend pages, mm.
        title: Deck title for the page heading (shrunk, then wrapped, to fit).
        credit: Artwork credit printed at the foot of every page, or ``None``.
        card_colour: The cards' background (``#rrggbb``): a symbol that would not show on
            the white page (a white icon on a coloured card) is drawn on a tile of it.
    """
    w, h = page_size_mm
    heading = f"{title}: symbol legend ({len(used_ids)} symbols)"
    head_mm = pt_to_mm(fit_lines(heading, SANS_BOLD, HEADING_PT, MIN_HEADING_PT, _text_width_pt(w))[2]) + 4.0
    foot_mm = pt_to_mm(_credit_lines(credit, w)[1]) + 2.0 if credit else 0.0
    cols = max(1, int((w - 2 * PAGE_MARGIN_MM) // LEGEND_CELL_MM))
    rows = max(1, int((h - 2 * PAGE_MARGIN_MM - head_mm - foot_mm) // LEGEND_CELL_MM))
    per_page = cols * rows
    pages = max(1, -(-len(used_ids) // per_page))
    x_start = (w - cols * LEGEND_CELL_MM) / 2.0
    table = by_id(symbols)
    for page in range(pages):
        canvas.setPageSize((mm_to_pt(w), mm_to_pt(h)))
        draw_heading(canvas, heading, page_size_mm)
        cells: Sequence[int | Sequence[int]] = used_ids
        for k, sid in enumerate(cells[page * per_page : (page + 1) * per_page]):
            r, c = divmod(k, cols)
            cx = x_start + (c + 0.5) * LEGEND_CELL_MM
            cy = h - PAGE_MARGIN_MM - head_mm - (r + 0.5) * LEGEND_CELL_MM
            group = [table[i] for i in sid] if isinstance(sid, Sequence) else [table[sid]]
            _legend_cell(canvas, art, group, (cx, cy), card_colour)
        _credit_foot(canvas, credit, page_size_mm)
        canvas.showPage()
    return pages


def _text_width_pt(page_width_mm: float) -> float:
    """Width of the text column between the page margins, points."""
    return mm_to_pt(page_width_mm - 2 * PAGE_MARGIN_MM)


def fit_lines(text: str, font: str, max_pt: float, min_pt: float, width_pt: float) -> tuple[list[str], float, float]:
    """Shrink ``text`` from ``max_pt`` towards ``min_pt`` to fit ``width_pt``, then wrap it.

    Returns:
        (lines, size in pt, block height in pt at 1.2 leading); a single word
        wider than the column is ellipsised.
    """
    size = max_pt
    while size > min_pt and string_width(text, font, size) > width_pt:
        size = max(min_pt, size - 0.5)
    lines = wrap_text(text, font, size, width_pt) or [""]
    lines = [_ellipsise(line, font, size, width_pt) for line in lines]
    return lines, size, len(lines) * size * 1.2


def _ellipsise(text: str, font: str, size_pt: float, width_pt: float) -> str:
    """``text``, cut and ended with an ellipsis if wider than ``width_pt``."""
    if string_width(text, font, size_pt) <= width_pt:
        return text
    while text and string_width(text + ELLIPSIS, font, size_pt) > width_pt:
        text = text[:-1]
    return text.rstrip() + ELLIPSIS


def draw_heading(
    canvas: Canvas,
    text: str,
    page_size_mm: tuple[float, float],
    size_pt: tuple[float, float] = (HEADING_PT, MIN_HEADING_PT),
    margins_mm: tuple[float, float] = (PAGE_MARGIN_MM, PAGE_MARGIN_MM),
) -> float:
    """Draw a page heading at the top of a page, shrunk (from ``size_pt[0]`` down to
    ``size_pt[1]``) then wrapped to the width between the side margins; returns its height,
    points. ``margins_mm``: the side margins and the top one. A heading is printdeck's English
    round the theme's title: each of its lines is set left to right
    (:func:`~printdeck.render.text.ltr_line`), whatever script the title is in."""
    side_mm, top_mm = margins_mm
    lines, size, height = fit_lines(text, SANS_BOLD, *size_pt, mm_to_pt(page_size_mm[0] - 2 * side_mm))
    canvas.setFillColor(INK)
    canvas.setFont(SANS_BOLD, size)
    top = mm_to_pt(page_size_mm[1] - top_mm)
    for i, line in enumerate(lines):
        draw_string(canvas, mm_to_pt(side_mm), top - (i + 1) * size * 1.2 + 0.2 * size, ltr_line(line))
    return height


def _credit_lines(credit: str | None, page_width_mm: float) -> tuple[list[str], float]:
    """The credit wrapped to the column at ``CREDIT_PT``, and its height, points."""
    if not credit:
        return [], 0.0
    lines = wrap_text(credit, SANS, CREDIT_PT, _text_width_pt(page_width_mm))
    return lines, len(lines) * CREDIT_PT * 1.2


def _credit_foot(canvas: Canvas, credit: str | None, page_size_mm: tuple[float, float]) -> None:
    """The artwork credit in small type above the bottom margin."""
    lines, _ = _credit_lines(credit, page_size_mm[0])
    canvas.setFillColor(INK)
    canvas.setFont(SANS, CREDIT_PT)
    bottom = mm_to_pt(PAGE_MARGIN_MM)
    for i, line in enumerate(reversed(lines)):
        draw_string(canvas, mm_to_pt(PAGE_MARGIN_MM), bottom + i * CREDIT_PT * 1.2, line)


def _legend_cell(
    canvas: Canvas,
    art: ArtLibrary,
    faces: Sequence[SymbolSpec],
    center_mm: tuple[float, float],
    card_colour: str = "#ffffff",
) -> None:
    """One legend cell: the symbol's faces in the art box
    (:func:`~printdeck.render.legend_cells.draw_cell_faces`), its name below; a symbol of
    several faces inside a thin rounded frame that keeps them apart from the next cell's."""
    art_y_mm = center_mm[1] + 3.0
    if len(faces) > 1:
        cell_frame(canvas, center_mm)
    draw_cell_faces(canvas, art, faces, (center_mm[0], art_y_mm), card_colour)
    _legend_name(canvas, faces[0].name, (center_mm[0], art_y_mm - LEGEND_ART_MM / 2.0 - NAME_GAP_MM))


def _legend_name(canvas: Canvas, name: str, top_mm: tuple[float, float]) -> None:
    """A legend cell's name (:func:`legend_name_lines`), each line centred on ``top_mm[0]``,
    the first line's top at ``top_mm[1]`` (mm on the page), 1.1 lines apart."""
    lines, size = legend_name_lines(name)
    canvas.setFillColor(INK)
    canvas.setFont(SANS, size)
    for i, line in enumerate(lines):
        draw_string(canvas, mm_to_pt(top_mm[0]), mm_to_pt(top_mm[1]) - (i + 1) * size * 1.1, line, "middle")


def legend_name_lines(name: str) -> tuple[list[str], float]:
    """A legend name fitted to its cell: shrunk from :data:`LEGEND_NAME_PT` to
    :data:`MIN_NAME_PT` to fit one line, else set in two lines, shrunk on to
    :data:`LEAST_NAME_PT` where they need it, then ellipsised.

    Returns:
        (one or two lines, each no wider than the cell less :data:`NAME_SIDE_MM` a side;
        font size, pt).
    """
    width_pt = mm_to_pt(LEGEND_CELL_MM - 2 * NAME_SIDE_MM)
    size = LEGEND_NAME_PT
    while size > MIN_NAME_PT and string_width(name, SANS, size) > width_pt:
        size -= 0.5
    while size > LEAST_NAME_PT and not _in_two_lines(name, size, width_pt):
        size -= 0.5
    lines = wrap_text(name, SANS, size, width_pt) or [""]
    if len(lines) > 2:
        lines = [lines[0], " ".join(lines[1:])]
    return [_ellipsise(line, SANS, size, width_pt) for line in lines], size


def _in_two_lines(name: str, size_pt: float, width_pt: float) -> bool:
    """Whether ``name`` wraps (:func:`wrap_text`) to at most two lines no wider than ``width_pt`` at ``size_pt``."""
    lines = wrap_text(name, SANS, size_pt, width_pt)
    return len(lines) <= 2 and all(string_width(line, SANS, size_pt) <= width_pt for line in lines)


def credits_page(canvas: Canvas, page_size_mm: tuple[float, float], title: str, credit: str) -> int:
    """A page (the size of a single-card page) with the deck title and the artwork credit.

    The text is kept inside the central square of the card's circle, so the
    page can go to a print service with the cards. Returns pages drawn (1).
    """
    w, h = page_size_mm
    width_pt = mm_to_pt(min(w, h) * 0.62)
    blocks = [
        fit_lines(title, SANS_BOLD, 12.0, 6.0, width_pt),
        fit_lines("Artwork credit", SANS_BOLD, 7.0, 5.0, width_pt),
        fit_lines(credit, SANS, 7.0, 4.0, width_pt),
        fit_lines("Made with printdeck", SANS, 5.0, 4.0, width_pt),
    ]
    fonts_used = (SANS_BOLD, SANS_BOLD, SANS, SANS)
    total = sum(b[2] for b in blocks) + 3 * 4.0
    y = mm_to_pt(h) / 2.0 + total / 2.0
    canvas.setFillColor(INK)
    for (lines, size, height), font in zip(blocks, fonts_used, strict=True):
        canvas.setFont(font, size)
        for i, line in enumerate(lines):
            draw_string(canvas, mm_to_pt(w) / 2.0, y - (i + 1) * size * 1.2 + 0.2 * size, line, "middle")
        y -= height + 4.0
    canvas.showPage()
    return 1


def rules_pages(
    canvas: Canvas,
    page_size_mm: tuple[float, float],
    title: str,
    credit: str | None = None,
    faces: str | None = None,
    match: int = 1,
    cards: int | None = None,
    faces_example: tuple[str, str] | None = None,
    backs: str | None = None,
) -> int:
    """Draw the rules of five mini-games and tournament scoring; returns pages drawn.

    Headings are fitted to the column (shrunk, then wrapped); the artwork credit,
    if given, is at the foot of every page. ``faces`` (``mixed`` or ``split``, for a deck
    whose symbols have several faces) adds :data:`FACES_RULES`' note after the first section;
    ``match`` is the design's λ, which every section's words follow (:data:`~.rules_text.LAMBDA_WORDS`);
    ``cards``, a deck's cards, sets how many players the rules name (``None``: eight);
    ``faces_example`` is the deck's own example of a match in two faces; ``backs``: how the
    file prints the cards' backs, ``lettered`` or ``coloured`` (a split deck's note then says
    how deck A's backs tell it apart; :data:`~.rules_text.DECK_A_MARKED`), or None.
    """
    w, h = page_size_mm
    width_pt = _text_width_pt(w)
    left = mm_to_pt(PAGE_MARGIN_MM)
    bottom = mm_to_pt(PAGE_MARGIN_MM) + _credit_lines(credit, w)[1] + (6.0 if credit else 0.0)
    pages = 1
    canvas.setPageSize((mm_to_pt(w), mm_to_pt(h)))
    y = mm_to_pt(h - PAGE_MARGIN_MM) - draw_heading(canvas, f"{title}: how to play", page_size_mm) - 20
    sections = list(rules_sections(match, split=faces == "split", cards=cards))
    if faces in FACES_RULES_TEXT:
        sections.insert(1, faces_rules(faces, match, faces_example, backs))
    for heading, body in sections:
        head_lines, head_pt, head_h = fit_lines(heading, SANS_BOLD, 12.0, 9.0, width_pt)
        lines = wrap_text(body, SANS, 10, width_pt)
        if y - head_h - len(lines) * 13 < bottom:
            _credit_foot(canvas, credit, page_size_mm)
            canvas.showPage()
            pages += 1
            y = mm_to_pt(h - PAGE_MARGIN_MM) - 14
        canvas.setFillColor(INK)
        canvas.setFont(SANS_BOLD, head_pt)
        for line in head_lines:
            draw_string(canvas, left, y, line)
            y -= head_pt * 1.2
        y -= 16 - 12 * 1.2
        canvas.setFont(SANS, 10)
        for line in lines:
            draw_string(canvas, left, y, line)
            y -= 13
        y -= 10
    _credit_foot(canvas, credit, page_size_mm)
    canvas.showPage()
    return pages
