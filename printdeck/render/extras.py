"""Optional extra pages: the symbol legend (answer key) and the rules sheet."""

from __future__ import annotations

from collections.abc import Sequence

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas

from printdeck.model import SymbolSpec
from printdeck.render.artwork import ArtLibrary, by_id
from printdeck.render.fonts import SANS, SANS_BOLD, wrap_text
from printdeck.render.sheet import INK
from printdeck.units import mm_to_pt

LEGEND_CELL_MM = 32.0
"""Legend grid pitch, mm (artwork box 20 mm, name below)."""
LEGEND_ART_MM = 20.0
PAGE_MARGIN_MM = 12.0

RULES: tuple[tuple[str, str], ...] = (
    ("Before you play",
     "Any two cards of this deck show exactly one symbol in common; sizes and angles differ, so look "
     "for the shape, not the size. Say the name of the shared symbol out loud to claim a match. "
     "Shuffle before each game. Two to eight players."),
    ("1. The Heap",
     "Give one card to each player, face down, and put the rest face up in a heap in the middle. "
     "Everyone turns their card over at once. Whoever first names the symbol their own top card "
     "shares with the heap's top card takes that heap card and lays it on their own pile, which "
     "changes their top card. When the heap is gone, the player holding the most cards wins."),
    ("2. Empty Your Pile",
     "Put one card face up in the middle and deal the rest out evenly, face down. Players hold their "
     "pile and turn the top card over. Spot a match between your top card and the middle card, name "
     "it, and drop your card onto the middle: it becomes the new card to match. The first player "
     "with no cards left wins; the last one still holding cards loses the round."),
    ("3. Pass the Parcel",
     "Played in rounds. Each player gets a few face-down cards (three in the first round, more later). "
     "At the signal, everyone turns one card up. When you spot a match between your card and another "
     "player's, name it and put your card on theirs, so that player now has more to get rid of. "
     "The last player left with cards in hand collects every card that was passed and sets them "
     "aside; after the agreed number of rounds, the fewest collected cards wins."),
    ("4. Ring Around",
     "Played in rounds. Put one card face up in the centre and deal cards face up in a circle around "
     "it, one more than there are players. Everyone hunts at the same time for circle cards that "
     "share a symbol with the centre card; name the match and take the card. When no circle card is "
     "left, the round ends. Whoever took the most cards across all rounds wins."),
    ("5. Gift Giver",
     "Give each player one card face down and put the rest face up in the middle. Players turn their "
     "card over. When you spot a match between the middle card and another player's top card, name it "
     "and put the middle card on that player's pile. Your aim is to give cards away: when the middle "
     "runs out, the player with the fewest cards wins."),
    ("Tournament scoring",
     "Play the five games in a row (or any three). After each game rank the players: the winner scores "
     "as many points as there are players, second place one point fewer, and so on down to one point "
     "for last. Ties share the higher score. After the last game, the highest total wins; a tie is "
     "broken by one quick round of Empty Your Pile between the tied players."),
)


def legend_pages(canvas: Canvas, art: ArtLibrary, symbols: Sequence[SymbolSpec], used_ids: Sequence[int],
                 page_size_mm: tuple[float, float], title: str) -> int:
    """Draw a grid of every used symbol with its name; returns pages drawn.

    Args:
        canvas: Target canvas (a fresh page is open; pages are ended here).
        art: The document's symbol forms (artwork is reused, not stored again).
        symbols: The deck's symbols (looked up by ``id``).
        used_ids: Symbol ids to list, in order.
        page_size_mm: (W, H) of the legend pages, mm.
        title: Deck title for the page heading.
    """
    w, h = page_size_mm
    cols = max(1, int((w - 2 * PAGE_MARGIN_MM) // LEGEND_CELL_MM))
    rows = max(1, int((h - 2 * PAGE_MARGIN_MM - 12.0) // LEGEND_CELL_MM))
    per_page = cols * rows
    pages = max(1, -(-len(used_ids) // per_page))
    x_start = (w - cols * LEGEND_CELL_MM) / 2.0
    table = by_id(symbols)
    for page in range(pages):
        canvas.setPageSize((mm_to_pt(w), mm_to_pt(h)))
        _heading(canvas, f"{title}: symbol legend ({len(used_ids)} symbols)", page_size_mm)
        for k, sid in enumerate(used_ids[page * per_page:(page + 1) * per_page]):
            r, c = divmod(k, cols)
            cx = x_start + (c + 0.5) * LEGEND_CELL_MM
            cy = h - PAGE_MARGIN_MM - 12.0 - (r + 0.5) * LEGEND_CELL_MM
            _legend_cell(canvas, art, table[sid], (cx, cy))
        canvas.showPage()
    return pages


def _heading(canvas: Canvas, text: str, page_size_mm: tuple[float, float]) -> None:
    canvas.setFillColor(INK)
    canvas.setFont(SANS_BOLD, 14)
    canvas.drawString(mm_to_pt(PAGE_MARGIN_MM), mm_to_pt(page_size_mm[1] - PAGE_MARGIN_MM) - 14, text)


def _legend_cell(canvas: Canvas, art: ArtLibrary, symbol: SymbolSpec, center_mm: tuple[float, float]) -> None:
    a = art.art(symbol.id)
    scale = mm_to_pt(LEGEND_ART_MM) / max(a.width_pt, a.height_pt)
    canvas.saveState()
    canvas.translate(mm_to_pt(center_mm[0]), mm_to_pt(center_mm[1] + 3.0))
    canvas.scale(scale, scale)
    canvas.translate(-a.width_pt / 2.0, -a.height_pt / 2.0)
    canvas.doForm(a.form)
    canvas.restoreState()
    canvas.setFillColor(INK)
    size = 7.0
    name = symbol.name
    while size > 4.0 and pdfmetrics.stringWidth(name, SANS, size) > mm_to_pt(LEGEND_CELL_MM - 2.0):
        size -= 0.5
    canvas.setFont(SANS, size)
    canvas.drawCentredString(mm_to_pt(center_mm[0]), mm_to_pt(center_mm[1] - LEGEND_ART_MM / 2.0 - 1.0) - size, name)


def rules_pages(canvas: Canvas, page_size_mm: tuple[float, float], title: str) -> int:
    """Draw the rules of five mini-games and tournament scoring; returns pages drawn."""
    w, h = page_size_mm
    width_pt = mm_to_pt(w - 2 * PAGE_MARGIN_MM)
    left = mm_to_pt(PAGE_MARGIN_MM)
    bottom = mm_to_pt(PAGE_MARGIN_MM)
    pages = 1
    canvas.setPageSize((mm_to_pt(w), mm_to_pt(h)))
    _heading(canvas, f"{title}: how to play", page_size_mm)
    y = mm_to_pt(h - PAGE_MARGIN_MM) - 34
    for heading, body in RULES:
        lines = wrap_text(body, SANS, 10, width_pt)
        if y - 16 - len(lines) * 13 < bottom:
            canvas.showPage()
            pages += 1
            y = mm_to_pt(h - PAGE_MARGIN_MM) - 14
        canvas.setFillColor(INK)
        canvas.setFont(SANS_BOLD, 12)
        canvas.drawString(left, y, heading)
        y -= 16
        canvas.setFont(SANS, 10)
        for line in lines:
            canvas.drawString(left, y, line)
            y -= 13
        y -= 10
    canvas.showPage()
    return pages
