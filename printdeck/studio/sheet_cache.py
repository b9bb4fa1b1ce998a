"""Drawing a sheet again after an edit, redrawing only the cards the edit changed.

The first drawing of a sheet is :func:`printdeck.preview_page` (the PDF renderer, then
PDFium). After an edit, a card whose layout and symbols are unchanged has the very same
pixels, so only the changed cards are drawn again, by the same call on a sheet that
holds just them (the same page, the same places), and their discs (cut + bleed) are
laid over the earlier picture. Cards never overlap, so the result is the sheet the full
drawing gives. Anything else that changes (the card size, the paper, the colours, the
title in the footer) draws the whole sheet again.
"""

from __future__ import annotations

import dataclasses
import io
from dataclasses import dataclass, field
from typing import Any

from PIL import Image, ImageDraw

import printdeck
from printdeck.model import drawn_only

MM_PER_INCH = 25.4
EDGE_PX = 2.0
"""Pixels taken beyond each redrawn disc (its anti-aliased edge)."""
_LAYOUT_ONLY_KEYS = ("seed", "deck", "layout", "symbols")
"""Theme keys whose whole effect on a sheet is in its cards' layouts."""


@dataclass
class _Drawn:
    """One sheet as last drawn: what it showed, and its picture."""

    base_key: str
    card_keys: dict[int, str]
    image: Image.Image
    png: bytes


@dataclass
class SheetCache:
    """The last drawing of every sheet, by page; ``redrawn`` counts cards drawn again."""

    ppi: float
    sheets: dict[int, _Drawn] = field(default_factory=dict)
    redrawn: int = 0

    def sheet(self, plan: Any, layouts: list[Any], page: int) -> bytes:
        """Sheet ``page`` (1-based) of ``plan`` as PNG bytes (``layouts`` hold its cards)."""
        by_index = {layout.index: layout for layout in layouts}
        slots = [s for s in plan.imposition.slots if s.page == page]
        base = base_key(plan, page, self.ppi)
        keys = {s.card_index: card_key(plan, by_index[s.card_index]) for s in slots}
        before = self.sheets.get(page)
        if before is not None and before.base_key == base:
            changed = [i for i, key in keys.items() if before.card_keys.get(i) != key]
            if not changed:
                return before.png
            if len(changed) < len(keys):
                return self._redraw(plan, layouts, page, before, changed, keys)
        png = printdeck.preview_page(plan, layouts, page, ppi=self.ppi)
        self.redrawn += len(keys)
        self.sheets[page] = _Drawn(base, keys, Image.open(io.BytesIO(png)).convert("RGB"), png)
        return png

    def _redraw(
        self, plan: Any, layouts: list[Any], page: int, before: _Drawn, changed: list[int], keys: dict[int, str]
    ) -> bytes:
        """Draw only the ``changed`` cards and lay their discs over the earlier picture."""
        imposition = plan.imposition
        slots = tuple(s for s in imposition.slots if s.page != page or s.card_index in changed)
        partial = dataclasses.replace(plan, imposition=dataclasses.replace(imposition, slots=slots))
        fresh = Image.open(io.BytesIO(printdeck.preview_page(partial, layouts, page, ppi=self.ppi))).convert("RGB")
        mask = Image.new("L", fresh.size, 0)
        draw = ImageDraw.Draw(mask)
        px_per_mm = self.ppi / MM_PER_INCH
        height_mm = imposition.page_size_mm[1]
        grown = imposition.sheet_shape().offset(imposition.bleed_mm + EDGE_PX / px_per_mm)
        outline = grown.polyline(0.5 / px_per_mm)
        for slot in (s for s in slots if s.page == page):
            x, y = slot.center_mm[0] * px_per_mm, (height_mm - slot.center_mm[1]) * px_per_mm
            draw.polygon([(x + u * px_per_mm, y - v * px_per_mm) for u, v in outline], fill=255)
        image = before.image.copy()
        image.paste(fresh, (0, 0), mask)
        out = io.BytesIO()
        image.save(out, format="PNG", compress_level=1)
        self.redrawn += len(changed)
        self.sheets[page] = _Drawn(before.base_key, keys, image, out.getvalue())
        return self.sheets[page].png


def base_key(plan: Any, page: int, ppi: float) -> str:
    """What a sheet shows besides its cards' layouts: the theme's drawing settings, the
    places of the cards, the page and the number of pages (the footer)."""
    spec = plan.theme.spec.model_dump(mode="json", exclude=set(_LAYOUT_ONLY_KEYS))
    return repr((spec, plan.theme.name, plan.theme.attribution, plan.imposition, page, plan.pages, ppi))


def card_key(plan: Any, layout: Any) -> str:
    """A card's picture: its layout and the drawing of each symbol it shows."""
    symbols = {s.id: s for s in plan.symbols}
    drawn = [
        (dataclasses.replace(drawn_only(symbols[p.symbol_id]), name="", source=""), symbols[p.symbol_id].color)
        for p in layout.placements
    ]
    return repr((layout, drawn))
