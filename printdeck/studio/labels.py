"""The label of each control of the studio's settings form, by theme key: one owner for
the words the page shows beside a control and the words its messages name it by
(``Card size must be a length such as 85 mm``). Served in the form description
(``form.fields[key].label``); the page writes none of its own."""

from __future__ import annotations

FIELD_LABELS: dict[str, str] = {
    "deck.symbols_per_card": "Symbols a card",
    "deck.match": "Two cards share",
    "deck.cards": "Cards (trim the deck)",
    "deck.choose": "When there are extra symbols",
    "deck.faces": "Symbols with several faces",
    "seed": "Seed (same seed, same deck)",
    "deck.copies": "Decks (a class set: each its colour and letter)",
    "deck.allow_look_alike": "Allow look-alike symbols (warn only)",
    "card.shape": "Card shape",
    "card.size": "Card size",
    "card.diameter": "Diameter",
    "card.corner_radius": "Corner radius",
    "card.orientation": "Hexagon",
    "card.bleed": "Bleed",
    "card.safe_margin": "Safe margin",
    "card.background": "Card background",
    "card.border_color": "Border ring",
    "layout.gap": "Gap between symbols",
    "layout.size_ratio": "Smallest / largest symbol",
    "layout.rotation": "Turning",
    "layout.rotate_photos": "Photos may turn too",
    "layout.nest": "Symbols may sit in holes",
    "paper.size": "Paper",
    "paper.layout": "Cards a page",
    "paper.margin": "Paper margin",
    "paper.gap": "Gap between cards",
    "paper.cut_marks": "Cut marks",
    "paper.cuts": "Cut lines",
    "paper.cut_guide": "Cut line (for scissors)",
    "paper.registration_marks": "Registration marks (print then cut)",
    "paper.punch_ring": "Ring for a circle punch",
    "paper.centre_mark": "Centre mark (compass cutters)",
    "paper.cut_files": "Cut files (SVG, DXF) for cutting machines",
    "paper.scale_note": "“Print at 100 %” note and ruler",
    "paper.pack": "Class sets: sheets may mix decks",
    "backs.enabled": "Print backs (duplex)",
    "backs.color": "Back colour",
    "backs.pattern": "Back pattern",
    "backs.image": "Picture or logo",
    "backs.fit": "Picture fit",
    "backs.size": "Picture size (contain)",
    "backs.duplex": "Printer turns the sheet on its",
    "backs.offset_x": "Shift backs right",
    "backs.offset_y": "Shift backs up",
    "text.font": "Font",
    "text.colors": "Word colours",
    "text.lang": "Language (e.g. en, ja, zh-Hans)",
    "deck.order": "Plane order (symbols a card less one)",
    "deck.search": "Search for a deck where no plane exists",
    "deck.drop_unused": "Drop symbols no card uses",
    "layout.sizes": "Symbol sizes on a card (largest first)",
    "layout.attempts": "Placements tried a symbol",
    "paper.grayscale": "Grey deck (for a black-and-white printer)",
    "paper.color": "Colour for the printer (RGB, or CMYK for a print shop)",
    "paper.pdfx": "Print-shop PDF standard (PDF/X)",
    "paper.ink_limit": "Ink limit (CMYK, percent)",
    "paper.die_line": "Die line (cut path for a print shop)",
    "paper.max_ppi": "Largest picture resolution kept (ppi)",
    "extras.legend": "Legend page (every symbol named)",
    "extras.rules": "Rules sheet",
    "extras.tuck_box": "Tuck box to fold (one a deck)",
    "extras.attribution": "Credit line",
    "title": "Title",
    "author": "Author",
    "name": "Short name (names the PDF)",
}
"""The settings form's label of each key it lists in its groups."""


def label_of(key: str) -> str:
    """The label of the setting ``key``: the form's own, or (a key added to the spec that
    the form's groups do not list yet, drawn under "More settings" with its help) the key."""
    return FIELD_LABELS.get(key, key)
