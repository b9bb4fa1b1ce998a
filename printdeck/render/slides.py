"""Slides for the classroom screen: a 16:9 PDF, two large cards a round, then the answer.

Slide 1 is the title with the rules of the chosen game; then, for each round, a slide
with two cards side by side and the next slide with the same two cards and the symbol
they share ringed on both (``reveal="ring"``), named with its picture in the corner
(``"corner"``), or both; an answer key can close the file. The cards are drawn by
:func:`printdeck.render.sheet.draw_card`, the code that draws them on the print sheets.
Geometry in mm from the slide's bottom-left corner.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
from reportlab.lib.colors import HexColor
from reportlab.pdfgen.canvas import Canvas

from printdeck.artwork import Vision, hex_difference
from printdeck.fileio import atomic_output
from printdeck.model import CardLayout, SymbolSpec
from printdeck.render.answer_ring import ring_path_mm
from printdeck.render.canvas import new_canvas
from printdeck.render.extras import draw_heading
from printdeck.render.forms import ArtLibrary, by_id
from printdeck.render.match_line import corner_answer, fitted_name, words_beside_name_mm
from printdeck.render.page_faces import draw_fitted_symbol, draw_word_face, word_width_mm
from printdeck.render.pdf import largest_boxes_mm
from printdeck.render.pdf_fonts import SANS, SANS_BOLD, register_bundled
from printdeck.render.print_job import PrintJob
from printdeck.render.rules_text import game_rules
from printdeck.render.screen_words import screen_words
from printdeck.render.sheet import draw_card
from printdeck.render.style import CardStyle
from printdeck.render.text import draw_string, string_width
from printdeck.render.wrap import unbroken, wrap_text
from printdeck.units import mm_to_pt

SLIDE_MM = (338.667, 190.5)
"""A 16:9 slide, 13.333 x 7.5 in: presentation programs' default size, mm."""
BACKDROP = "#22313f"
"""Slide background (dark, so the white cards stand out on a projector)."""
PAPER_TEXT = "#f4f4f4"
RING_COLORS = ("#ffb000", "#ffe600", "#7a00ff")
"""The answer ring's colours, with a dark edge: amber, seen on any card and by colour-blind
eyes; else, where a word on the slide is near it, yellow, then violet (:func:`ring_colour`)."""
RING_APART = 12.0
"""The least CIEDE2000 difference a ring keeps from every word on its slide, to every eye
(:class:`~printdeck.artwork.Vision`: each deficiency simulated, and grey) before the next
colour is tried."""
RING_EDGE = "#1a1a1a"
RING_WIDTH_MM = 1.6
CARD_SHARE = 0.46
"""A card's diameter on a round slide, as a share of the slide's width (at most its height less 30 mm)."""
KEY_ROWS = 9
"""Answer-key rows in each of its two columns a page."""
KEY_FACE_GAP = 0.3
"""Between two faces of a match in an answer-key row, in rows (a picture is 0.8 row wide:
"4 × 5" and "20" stay apart, not "4 × 520")."""
KEY_WORD_PT = 14.0
"""A word's size in the answer key, points: every word as tall as any other, as text is,
set smaller only to fit (a word fitted to a picture's square was tiny when long, "summer",
and large when short, "ox")."""
KEY_NAME_PT = (12.0, 7.0)
"""A match's name in the answer key, points: its size, and the least it is set at before
its end gives way to an ellipsis."""


@dataclass(frozen=True)
class SlideRound:
    """One round on the screen.

    Attributes:
        number: 1, 2, ...
        cards: The two cards' indices (0-based; printed as index + 1).
        shared: The drawings (symbol ids) that show the symbols the two cards share (one
            symbol, two for a ``match: 2`` deck; a symbol with faces may show a different
            face on each card: both are listed, a symbol's together).
        names: Each of ``shared``'s symbol's name (a face is named by its symbol: the
            answer key names the match once after its faces); empty: the drawings' own.
    """

    number: int
    cards: tuple[int, int]
    shared: tuple[int, ...]
    names: tuple[str, ...] = ()


@dataclass(frozen=True)
class SlideText:
    """The words on the slides: the title slide's heading and rules, and the labels
    (:func:`slide_text` makes them in the theme's language)."""

    title: str
    game: str
    rules: str
    round_label: str = "Round {n} of {total}"
    card_label: str = "card {n}"
    answer_label: str = "Answer"
    key_title: str = "Answer key"

    @classmethod
    def of(cls, title: str, game: str, lang: str | None, match: int) -> SlideText:
        """The slides' words for the deck ``title``: the rules of ``game`` and the labels in
        ``lang`` where they are written in it, else English, for cards sharing ``match``
        symbols (see :func:`printdeck.render.rules_text.game_rules`, :mod:`.screen_words`).

        Raises:
            ValueError: Unknown game, or ``match`` not 1 or 2.
        """
        heading, rules = game_rules(game, lang, match)
        words = screen_words(lang)
        return cls(title, heading, rules, words.round_label, words.card_label, words.answer_label, words.key_title)


def card_diameter_mm() -> float:
    """The diameter a card is drawn at on a round slide, mm."""
    return min(CARD_SHARE * SLIDE_MM[0], SLIDE_MM[1] - 30.0)


def card_centres_mm() -> tuple[tuple[float, float], tuple[float, float]]:
    """The two cards' centres on a round slide, mm."""
    w, h = SLIDE_MM
    return (w * 0.25 + 2.0, h / 2.0 - 4.0), (w * 0.75 - 2.0, h / 2.0 - 4.0)


def render_slides(
    job: PrintJob,
    symbols: Sequence[SymbolSpec],
    layouts: Sequence[CardLayout],
    rounds: Sequence[SlideRound],
    text: SlideText,
    out_path: Path,
    *,
    reveal: str = "ring",
    answer_key: bool = False,
    progress: Callable[[int], None] | None = None,
) -> int:
    """Write the slides PDF atomically; returns its page count.

    Args:
        job: The theme's print job (card style, title, credit).
        symbols: The deck's symbols (looked up by id).
        layouts: The deck's cards, ``layouts[i].index == i``.
        rounds: The rounds, in order.
        text: The words (rules of the chosen game in the theme's language).
        out_path: The PDF to write.
        reveal: ``ring``, ``corner`` or ``both``: how the answer slide shows the match.
        answer_key: Add answer-key pages at the end.
        progress: Called with 1 after each round.

    Raises:
        PrintdeckError: Unusable artwork or an unwritable output.
        ValueError: ``reveal`` is not one of the three.
    """
    if reveal not in ("ring", "corner", "both"):
        raise ValueError(f"reveal: expected ring, corner or both, got {reveal!r}")
    register_bundled()
    by_index = {c.index: c for c in layouts}
    style = replace(job.card, bleed_mm=0.0, cut_guide=False, punch_ring=False)
    with atomic_output(Path(out_path)) as tmp:
        canvas = new_canvas(
            tmp, SLIDE_MM, title=f"{job.title}: slides", author=job.author, subject=_subject(job, len(rounds))
        )
        art = ArtLibrary(canvas, symbols, _slide_boxes(layouts, _half_size_mm(style)), job.max_ppi)
        pages = _title_slide(canvas, text, job.attribution)
        for r in rounds:
            cards = (by_index[r.cards[0]], by_index[r.cards[1]])
            for answer in (False, True):
                _round_slide(canvas, art, style, cards, r, len(rounds), text, answer, reveal, symbols)
                pages += 1
            if progress is not None:
                progress(1)
        if answer_key:
            pages += answer_key_pages(canvas, art, rounds, symbols, text, style.background)
        canvas.save()
    return pages


def _subject(job: PrintJob, rounds: int) -> str:
    subject = f"Spot-the-match slides, {rounds} rounds (theme {job.name}), made with printdeck"
    return subject + (f". Artwork credit: {job.attribution}" if job.attribution else "")


def _slide_boxes(layouts: Sequence[CardLayout], radius_mm: float) -> dict[int, float]:
    """The longest box side each symbol is shown at on the slides (pictures get the pixels it needs)."""
    scale = card_diameter_mm() / (2.0 * radius_mm)  # radius_mm: half the card's longer side
    return {k: v * scale for k, v in largest_boxes_mm(layouts).items()}


def _half_size_mm(style: CardStyle) -> float:
    """Half the card's longer side (a round card's radius): the card fills ``card_diameter_mm``."""
    shape = style.card_shape()
    return max(shape.width_mm, shape.height_mm) / 2.0


def _backdrop(canvas: Canvas) -> None:
    canvas.setPageSize((mm_to_pt(SLIDE_MM[0]), mm_to_pt(SLIDE_MM[1])))
    canvas.setFillColor(HexColor(BACKDROP))
    canvas.rect(0, 0, mm_to_pt(SLIDE_MM[0]), mm_to_pt(SLIDE_MM[1]), stroke=0, fill=1)
    canvas.setFillColor(HexColor(PAPER_TEXT))


def _title_slide(canvas: Canvas, text: SlideText, credit: str | None) -> int:
    """The title, the chosen game's name and its rules, wrapped to the slide."""
    _backdrop(canvas)
    w, h = SLIDE_MM
    left, width = mm_to_pt(22.0), mm_to_pt(w - 44.0)
    y = mm_to_pt(h - 30.0)
    canvas.setFont(SANS_BOLD, 34)
    for line in wrap_text(text.title, SANS_BOLD, 34, width):
        draw_string(canvas, left, y, line)
        y -= 40
    y -= 12
    canvas.setFont(SANS_BOLD, 22)
    draw_string(canvas, left, y, text.game)
    y -= 34
    size = 17.0
    lines = wrap_text(text.rules, SANS, size, width)
    while len(lines) * size * 1.3 > y - mm_to_pt(18.0) and size > 9:
        size -= 1.0
        lines = wrap_text(text.rules, SANS, size, width)
    canvas.setFont(SANS, size)
    for line in lines:
        draw_string(canvas, left, y, line)
        y -= size * 1.3
    if credit:
        canvas.setFont(SANS, 8)
        draw_string(canvas, left, mm_to_pt(8.0), credit)
    canvas.showPage()
    return 1


def _round_slide(
    canvas: Canvas,
    art: ArtLibrary,
    style: CardStyle,
    cards: tuple[CardLayout, CardLayout],
    r: SlideRound,
    total: int,
    text: SlideText,
    answer: bool,
    reveal: str,
    symbols: Sequence[SymbolSpec],
) -> None:
    """One round's slide: the two cards (and, on the answer slide, the match shown)."""
    _backdrop(canvas)
    _w, h = SLIDE_MM
    canvas.setFont(SANS_BOLD, 16)
    head = text.round_label.format(n=r.number, total=total) + (f" · {text.answer_label}" if answer else "")
    draw_string(canvas, mm_to_pt(10.0), mm_to_pt(h - 12.0), head)
    diameter = card_diameter_mm()
    scale = diameter / (2.0 * _half_size_mm(style))
    table = by_id(symbols)
    words = [
        p.color or table[p.symbol_id].color for c in cards for p in c.placements if table[p.symbol_id].kind == "text"
    ]
    ring = ring_colour(words)
    for card, centre in zip(cards, card_centres_mm()):
        canvas.saveState()
        canvas.translate(mm_to_pt(centre[0]), mm_to_pt(centre[1]))
        canvas.scale(scale, scale)
        draw_card(canvas, art, card, (0.0, 0.0), style)
        canvas.restoreState()
        if answer and reveal in ("ring", "both"):
            for p in card.placements:
                if p.symbol_id in r.shared:
                    _ring(canvas, np.asarray(centre) + scale * ring_path_mm(table[p.symbol_id], p), ring)
        canvas.setFillColor(HexColor(PAPER_TEXT))  # the card's number over a ring that reaches it
        canvas.setFont(SANS, 12)
        label = text.card_label.format(n=card.index + 1)
        draw_string(canvas, mm_to_pt(centre[0]), mm_to_pt(centre[1] - diameter / 2.0 - 6.0), label, "middle")
    if answer and reveal in ("corner", "both"):
        in_card_order = dict.fromkeys(p.symbol_id for card in cards for p in card.placements if p.symbol_id in r.shared)
        shared = [by_id(symbols)[sid] for sid in in_card_order]
        corner_answer(canvas, art, shared, style.background, _corner_band_mm(), BACKDROP)
    canvas.showPage()


def ring_colour(word_colours: Sequence[str]) -> str:
    """The answer ring's colour on a slide whose words are ``word_colours`` (``#rrggbb``):
    the first of :data:`RING_COLORS` at least :data:`RING_APART` from each of them to every
    eye, else the one farthest from the nearest. A teacher's amber word beside an amber
    ring left the class unsure which word was ringed."""
    if not word_colours:
        return RING_COLORS[0]

    def nearest(ring: str) -> float:
        return min(hex_difference(ring, word, vision) for word in word_colours for vision in Vision)

    apart = {ring: nearest(ring) for ring in RING_COLORS}
    return next((ring for ring in RING_COLORS if apart[ring] >= RING_APART), max(RING_COLORS, key=apart.__getitem__))


def _ring(canvas: Canvas, path_mm: np.ndarray, colour: str = RING_COLORS[0]) -> None:
    """A thick ring of ``colour`` with dark edges along ``path_mm`` (``(N, 2)``, slide mm, closed)."""
    canvas.saveState()
    canvas.setLineJoin(1)
    path = canvas.beginPath()
    path.moveTo(mm_to_pt(path_mm[0, 0]), mm_to_pt(path_mm[0, 1]))
    for x, y in path_mm[1:]:
        path.lineTo(mm_to_pt(x), mm_to_pt(y))
    path.close()
    for ink, width_mm in ((RING_EDGE, RING_WIDTH_MM + 1.0), (colour, RING_WIDTH_MM)):
        canvas.setStrokeColor(HexColor(ink))
        canvas.setLineWidth(mm_to_pt(width_mm))
        canvas.drawPath(path, stroke=1, fill=0)
    canvas.restoreState()


CORNER_HEADING_MM = 90.0
"""The band's left part the round's heading keeps ("Round 12 of 28 · Answer")."""


def _corner_band_mm() -> tuple[float, float, float, float]:
    """The band above the cards the answer's corner tiles fill from its right: ``(left,
    bottom, right, top)``, mm (the round's heading keeps its left part, :data:`CORNER_HEADING_MM`)."""
    w, h = SLIDE_MM
    cards_top_mm = max(y for _, y in card_centres_mm()) + card_diameter_mm() / 2.0
    return CORNER_HEADING_MM, cards_top_mm + 1.0, w - 6.0, h - 2.0


def answer_key_pages(
    canvas: Canvas,
    art: ArtLibrary,
    rounds: Sequence[SlideRound],
    symbols: Sequence[SymbolSpec],
    text: SlideText,
    card_colour: str = "#ffffff",
) -> int:
    """The referee's sheet: each round's two cards and the symbols they share, by name
    and picture, :data:`KEY_ROWS` rows a slide-sized page, in two columns when each round
    shows one drawing (one column for a ``match: 2`` deck or a match shown in two faces, so
    all fit); a symbol's faces stand side by side with its name after them (a word set as
    text, all words at one size, :func:`_key_match`), and a name too long for its place is
    set smaller, then cut short. Returns pages drawn."""
    table = by_id(symbols)
    w, h = SLIDE_MM
    shared_most = max((len(r.shared) for r in rounds), default=1)
    columns = 2 if shared_most <= 1 else 1
    per_page = columns * KEY_ROWS
    pages = max(1, -(-len(rounds) // per_page))
    row_mm = (h - 34.0) / KEY_ROWS
    labels = [_key_label(text, r, len(rounds)) for r in rounds]
    label_mm = max((string_width(t, SANS, 12) for t in labels), default=0.0) / mm_to_pt(1.0) + 4.0
    groups = [_key_groups(r, table) for r in rounds]
    slot_mm = ((w - 28.0) / columns - 4.0 - label_mm) / max((len(g) for g in groups), default=1)
    for page in range(pages):
        canvas.setPageSize((mm_to_pt(w), mm_to_pt(h)))
        _key_heading(canvas, f"{text.title}: {unbroken(text.key_title)}")
        for k in range(page * per_page, min(len(rounds), (page + 1) * per_page)):
            col, row = divmod(k - page * per_page, KEY_ROWS)
            x = 14.0 + col * (w - 28.0) / columns
            y = h - 30.0 - (row + 0.5) * row_mm
            canvas.setFillColor(HexColor("#1a1a1a"))
            canvas.setFont(SANS, 12)
            draw_string(canvas, mm_to_pt(x), mm_to_pt(y - 1.5), labels[k])
            for g, (drawings, name) in enumerate(groups[k]):
                at_mm = (x + label_mm + g * slot_mm, y)
                _key_match(canvas, art, [table[sid] for sid in drawings], name, at_mm, (row_mm, slot_mm), card_colour)
        canvas.showPage()
    return pages


KEY_HEADING_PT = (18.0, 11.0)
"""The answer key's heading's size, points: largest, and smallest it shrinks to before it wraps."""


def _key_heading(canvas: Canvas, heading: str) -> None:
    """The answer key's heading ("<title>: Answer key") at the page's top, shrunk and wrapped
    to the page's width (:func:`~printdeck.render.extras.draw_heading`), above the rows (a
    200-letter title takes two lines at 11 pt; "Answer key" stays together, see
    :func:`~printdeck.render.wrap.unbroken`)."""
    draw_heading(canvas, heading, SLIDE_MM, KEY_HEADING_PT, (14.0, 10.0))


def _key_match(
    canvas: Canvas,
    art: ArtLibrary,
    faces: Sequence[SymbolSpec],
    name: str,
    at_mm: tuple[float, float],
    row_slot_mm: tuple[float, float],
    card_colour: str,
) -> None:
    """One match in an answer-key row: its faces side by side from the slot's start
    ``at_mm`` (its left, the row's middle), :data:`KEY_FACE_GAP` rows apart, then its name.
    A picture is 0.8 row wide; a word is set as text on the row's baseline, at
    :data:`KEY_WORD_PT` where it and the name fit the slot, else smaller
    (:func:`~.match_line.words_beside_name_mm`). ``row_slot_mm``: the row's height and the
    slot's width, mm."""
    row_mm, slot_mm = row_slot_mm
    gap_mm, picture_mm = row_mm * KEY_FACE_GAP, row_mm * 0.8
    is_word = [art.art(face.id).word for face in faces]
    natural_mm = sum(word_width_mm(f, KEY_WORD_PT) for f, word in zip(faces, is_word) if word)
    fixed_mm = is_word.count(False) * picture_mm + (len(faces) - 1) * gap_mm + row_mm * 0.1 + 2.0
    words_mm = words_beside_name_mm(natural_mm, name[:40], slot_mm - fixed_mm, KEY_NAME_PT)
    word_pt = KEY_WORD_PT * words_mm / max(natural_mm, 1e-6)
    x_mm, baseline_mm = at_mm[0], at_mm[1] - 1.5
    for j, face in enumerate(faces):
        x_mm += gap_mm if j else 0.0
        if is_word[j]:
            x_mm += draw_word_face(canvas, art, face, (x_mm, baseline_mm), word_pt, (slot_mm, picture_mm), card_colour)
        else:
            draw_fitted_symbol(canvas, art, face, (x_mm + picture_mm / 2.0, at_mm[1]), picture_mm, card_colour)
            x_mm += picture_mm
    name_mm = x_mm + row_mm * 0.1
    _key_name(canvas, name[:40], (name_mm, baseline_mm), at_mm[0] + slot_mm - name_mm - 2.0)


def _key_groups(r: SlideRound, table: dict[int, SymbolSpec]) -> list[tuple[list[int], str]]:
    """A key row's matches: each shared symbol's drawings (its faces, one or two; a
    ``match: 2`` round has two symbols) with the symbol's name, in ``r.shared``'s order
    (where a symbol's drawings stand together)."""
    names = r.names or tuple(table[sid].name for sid in r.shared)
    groups: list[tuple[list[int], str]] = []
    for sid, name in zip(r.shared, names):
        if groups and groups[-1][1] == name:
            groups[-1][0].append(sid)
        else:
            groups.append(([sid], name))
    return groups


def _key_name(canvas: Canvas, name: str, at_mm: tuple[float, float], room_mm: float) -> None:
    """A symbol's name in the answer key at ``at_mm`` (its baseline's start), set smaller
    (:data:`KEY_NAME_PT`) to fit ``room_mm``, and cut short where even that is too wide."""
    canvas.setFillColor(HexColor("#1a1a1a"))
    name, size_pt = fitted_name(name, mm_to_pt(room_mm), KEY_NAME_PT)
    canvas.setFont(SANS_BOLD, size_pt)
    draw_string(canvas, mm_to_pt(at_mm[0]), mm_to_pt(at_mm[1]), name)


def _key_label(text: SlideText, r: SlideRound, total: int) -> str:
    """An answer-key row's words: the round and its two cards (counted from 1)."""
    cards = " + ".join(text.card_label.format(n=c + 1) for c in r.cards)
    return f"{text.round_label.format(n=r.number, total=total)}: {cards}"
