"""Optional extra pages: the symbol legend (answer key) and the rules sheet."""

from __future__ import annotations

from collections.abc import Sequence

from reportlab.lib.colors import HexColor
from reportlab.pdfgen.canvas import Canvas

from printdeck.model import SymbolSpec
from printdeck.render.forms import ArtLibrary, by_id
from printdeck.render.page_faces import draw_fitted_symbol, draw_word_face, word_extent_mm, word_width_mm
from printdeck.render.pdf_fonts import SANS, SANS_BOLD, wrap_text
from printdeck.render.rules_text import FACES_RULES_TEXT, faces_rules, rules_sections
from printdeck.render.sheet import INK
from printdeck.render.text import draw_string, ltr_line, string_width
from printdeck.units import mm_to_pt, pt_to_mm

LEGEND_CELL_MM = 32.0
"""Legend grid pitch, mm (artwork box 20 mm, name below)."""
LEGEND_ART_MM = 20.0
LEGEND_WORD_PT = 18.0
"""A word's size in the legend, points: every word as tall as any other, as text is, set
smaller only to fit its cell (a word fitted to a picture's square was tiny when long,
"summer", and huge when short, "ox" or 猫)."""
WORD_BASELINE_EM = 0.35
"""A legend word's baseline sits this far below the middle of its face's box, em (digits,
capitals and Chinese characters stand about the middle; descenders reach below)."""
FACE_GAP_MM = 4.0
"""Space between two faces of one symbol in a legend cell, mm (a thin rule in its middle)."""
CELL_ROOM_MM = 3.0
"""Space kept clear at each side of a legend cell of several faces, mm (its frame in it)."""
FACE_RULE = HexColor("#9a9a9a")
"""Colour of the rule between a symbol's faces in the legend, and of their cell's frame."""
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
            with several faces, its faces side by side under the first face's name
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
    """One legend cell: the symbol's faces in the art box (:func:`face_grid`), its name below.

    A picture fills its face's box; a word is set as text, at the one size every cell sets
    its words at, smaller only to fit (:func:`_cell_word_pt`). A symbol's faces are apart
    with thin rules between them, so "3 × 9" and "27" read as two faces, not as "3 × 927",
    inside a thin rounded frame that keeps them apart from the next cell's."""
    rows, cols, gap_mm, box_mm = face_grid(len(faces))
    art_y_mm = center_mm[1] + 3.0
    if len(faces) > 1:
        _cell_frame(canvas, center_mm)
    face_rows = [faces[row * cols : (row + 1) * cols] for row in range(rows)]
    word_pt = _cell_word_pt(art, face_rows, gap_mm, box_mm)
    for row, row_faces in enumerate(face_rows):
        y_mm = art_y_mm + ((rows - 1) / 2.0 - row) * (box_mm + gap_mm)
        _face_row(canvas, art, row_faces, (center_mm[0], y_mm), (box_mm, gap_mm, word_pt), card_colour)
    if rows > 1:
        _face_rule(canvas, (center_mm[0], art_y_mm), cols * (box_mm + gap_mm) - gap_mm, upright=False)
    _legend_name(canvas, faces[0].name, (center_mm[0], art_y_mm - LEGEND_ART_MM / 2.0 - NAME_GAP_MM))


def _legend_name(canvas: Canvas, name: str, top_mm: tuple[float, float]) -> None:
    """A legend cell's name (:func:`legend_name_lines`), each line centred on ``top_mm[0]``,
    the first line's top at ``top_mm[1]`` (mm on the page), 1.1 lines apart."""
    lines, size = legend_name_lines(name)
    canvas.setFillColor(INK)
    canvas.setFont(SANS, size)
    for i, line in enumerate(lines):
        draw_string(canvas, mm_to_pt(top_mm[0]), mm_to_pt(top_mm[1]) - (i + 1) * size * 1.1, line, "middle")


def _face_row(
    canvas: Canvas,
    art: ArtLibrary,
    faces: Sequence[SymbolSpec],
    centre_mm: tuple[float, float],
    sizes: tuple[float, float, float],
    card_colour: str,
) -> None:
    """One row of a legend cell's faces side by side, centred at ``centre_mm``, a thin rule
    in each gap between two. ``sizes``: ``(box mm, gap mm, word pt)``: a picture fitted
    into a box's square, a word set as text at the word size on the row's baseline
    (:data:`WORD_BASELINE_EM` below its middle), as wide as its letters."""
    box_mm, gap_mm, word_pt = sizes
    is_word = [art.art(face.id).word for face in faces]
    widths = [word_width_mm(f, word_pt) if word else box_mm for f, word in zip(faces, is_word)]
    x_mm = centre_mm[0] - (sum(widths) + (len(faces) - 1) * gap_mm) / 2.0
    baseline_mm = centre_mm[1] - WORD_BASELINE_EM * pt_to_mm(word_pt)
    for k, (face, width) in enumerate(zip(faces, widths)):
        if is_word[k]:
            draw_word_face(canvas, art, face, (x_mm, baseline_mm), word_pt, (LEGEND_CELL_MM, box_mm), card_colour)
        else:
            draw_fitted_symbol(canvas, art, face, (x_mm + width / 2.0, centre_mm[1]), box_mm, card_colour)
        if k:
            _face_rule(canvas, (x_mm - gap_mm / 2.0, centre_mm[1]), box_mm, upright=True)
        x_mm += width + gap_mm


def _cell_word_pt(art: ArtLibrary, rows: Sequence[Sequence[SymbolSpec]], gap_mm: float, box_mm: float) -> float:
    """The size a legend cell sets its words at, pt: :data:`LEGEND_WORD_PT`, as every other
    cell's, or smaller where a row of its faces (``rows``, pictures ``box_mm`` wide,
    ``gap_mm`` apart) would be wider than the cell less :data:`CELL_ROOM_MM` a side, or a
    word's ink would reach out of its row's ``box_mm`` (from the row's baseline)."""
    size_pt = LEGEND_WORD_PT
    drop_mm = WORD_BASELINE_EM * pt_to_mm(LEGEND_WORD_PT)
    for line in rows:
        words = [face for face in line if art.art(face.id).word]
        if not words:
            continue
        room_mm = LEGEND_CELL_MM - 2 * CELL_ROOM_MM - (len(line) - len(words)) * box_mm - (len(line) - 1) * gap_mm
        natural_mm = sum(word_width_mm(w, LEGEND_WORD_PT) for w in words)
        size_pt = min(size_pt, LEGEND_WORD_PT * room_mm / max(natural_mm, 1e-6))
        for word in words:
            bottom_mm, top_mm = word_extent_mm(word, LEGEND_WORD_PT)
            size_pt = min(size_pt, LEGEND_WORD_PT * box_mm / 2.0 / max(top_mm - drop_mm, drop_mm - bottom_mm, 1e-6))
    return size_pt


def face_grid(n_faces: int) -> tuple[int, int, float, float]:
    """How a legend cell sets a symbol's ``n_faces`` faces (1 to 8): ``(rows, columns, gap
    between faces mm, face box mm)``; one face fills :data:`LEGEND_ART_MM`, two sit side by
    side :data:`FACE_GAP_MM` apart, three and more in two rows (4 faces: 8 mm boxes, 8
    faces: 4.6 mm), the cell's sides :data:`CELL_ROOM_MM` clear.

    Examples:
        >>> face_grid(2)
        (1, 2, 4.0, 11.0)
        >>> face_grid(8)[:2]
        (2, 4)
    """
    if n_faces <= 1:
        return 1, 1, 0.0, LEGEND_ART_MM
    rows = 1 if n_faces == 2 else 2
    cols = -(-n_faces // rows)
    gap_mm = FACE_GAP_MM if cols <= 2 else FACE_GAP_MM / 1.6
    across = (LEGEND_CELL_MM - 2 * CELL_ROOM_MM - (cols - 1) * gap_mm) / cols
    return rows, cols, gap_mm, min(across, (LEGEND_ART_MM - (rows - 1) * gap_mm) / rows)


def _cell_frame(canvas: Canvas, center_mm: tuple[float, float]) -> None:
    """The thin rounded frame round a legend cell of several faces (art and name), centred at ``center_mm``."""
    side_mm = LEGEND_CELL_MM - 3.0
    canvas.saveState()
    canvas.setStrokeColor(FACE_RULE)
    canvas.setLineWidth(0.5)
    x_pt, y_pt = mm_to_pt(center_mm[0] - side_mm / 2.0), mm_to_pt(center_mm[1] - side_mm / 2.0 - 1.0)
    canvas.roundRect(x_pt, y_pt, mm_to_pt(side_mm), mm_to_pt(side_mm), mm_to_pt(2.0), stroke=1, fill=0)
    canvas.restoreState()


def _face_rule(canvas: Canvas, centre_mm: tuple[float, float], box_mm: float, *, upright: bool) -> None:
    """A thin grey rule between faces of a legend cell, centred at ``centre_mm``: upright
    (between two faces of a row, 0.7 of ``box_mm`` long) or across (between two rows,
    ``box_mm`` long)."""
    half_pt = mm_to_pt(box_mm * (0.35 if upright else 0.5))
    x_pt, y_pt = mm_to_pt(centre_mm[0]), mm_to_pt(centre_mm[1])
    canvas.saveState()
    canvas.setStrokeColor(FACE_RULE)
    canvas.setLineWidth(0.6)
    if upright:
        canvas.line(x_pt, y_pt - half_pt, x_pt, y_pt + half_pt)
    else:
        canvas.line(x_pt - half_pt, y_pt, x_pt + half_pt, y_pt)
    canvas.restoreState()


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
) -> int:
    """Draw the rules of five mini-games and tournament scoring; returns pages drawn.

    Headings are fitted to the column (shrunk, then wrapped); the artwork credit,
    if given, is at the foot of every page. ``faces`` (``mixed`` or ``split``, for a deck
    whose symbols have several faces) adds :data:`FACES_RULES`' note after the first section;
    ``match`` is the design's λ, which every section's words follow (:data:`~.rules_text.LAMBDA_WORDS`);
    ``cards``, a deck's cards, sets how many players the rules name (``None``: eight);
    ``faces_example`` is the deck's own example of a match in two faces.
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
        sections.insert(1, faces_rules(faces, match, faces_example))
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
