"""One card close up, for touching it up: its picture as it prints, where each symbol
sits, and whether its pins (``layout.pinned``) pass the layout's checks.

Cards are numbered as printed (1 = first; in a class set deck B's first card follows deck
A's last). A pin names the card within its deck (``(number - 1) % cards a deck + 1``): every
deck of a class set has the same cards. Lengths are mm in card coordinates (origin at the
card's centre, x to the right, y up), angles degrees counter-clockwise.
"""

from __future__ import annotations

import dataclasses
import io
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from printdeck.artwork import silhouette
from printdeck.deck_plan import DeckPlan
from printdeck.layout import LayoutSettings, PinRefusal, applicable_pins, warn_pins_of_missing_cards
from printdeck.model import CardLayout
from printdeck.units import MM_PER_UNIT, mm_to_pt

MM_PER_IN = MM_PER_UNIT["in"]


def pin_card_number(plan: DeckPlan, card: int) -> int:
    """The card number a pin of printed card ``card`` names: its number within its deck.

    Raises:
        ValueError: no card ``card`` in the deck.
    """
    slots = len(plan.imposition.slots)
    if not 1 <= card <= slots:
        raise ValueError(f"card {card}: the deck has cards 1 to {slots}")
    return (card - 1) % plan.cards_per_deck + 1


def card_places(plan: DeckPlan, layouts: Sequence[CardLayout], card: int) -> dict[str, Any]:
    """Printed card ``card`` laid out (JSON-ready): its size, bleed and safe margin, and per
    symbol its name, centre, rotation, frame (``box_mm`` and ``size_mm``, its longer side),
    the ink's bounding box about its centre before turning (``ink_mm``: x0, y0, x1, y1),
    whether it may turn and whether it is pinned; ``stale_pins``, the symbols its entry of
    ``layout.pinned`` was pinned on when the card no longer shows them (so the entry is not
    applied; ``[]`` otherwise).

    Raises:
        ValueError: no such card, or it has no layout in ``layouts``.
    """
    pin_card = pin_card_number(plan, card)
    layout = next((c for c in layouts if c.index == card - 1), None)
    if layout is None:
        raise ValueError(f"card {card} is not laid out")
    symbols = plan.cards[pin_card - 1]
    entry = next((e for e in plan.theme.spec.layout.pinned if e.card == pin_card), None)
    names = [s.name for s in symbols]
    applies = entry is not None and sorted(entry.symbols) == sorted(names)
    pinned = set(entry.place) if entry is not None and applies else set()
    places = []
    for symbol, place in zip(symbols, layout.placements, strict=True):
        xy = silhouette(symbol).vertices * place.box_mm[1]
        places.append(
            {
                "name": symbol.name,
                "center_mm": list(place.center_mm),
                "rotation_deg": place.rotation_deg,
                "box_mm": list(place.box_mm),
                "size_mm": max(place.box_mm),
                "ink_mm": [*np.min(xy, axis=0).tolist(), *np.max(xy, axis=0).tolist()],
                "rotate": symbol.rotate,
                "pinned": symbol.name in pinned,
            }
        )
    spec = plan.theme.spec
    outline = spec.card.outline()
    return {
        "card": card,
        "pin_card": pin_card,
        "stale_pins": [] if entry is None or applies else list(entry.symbols),
        "symbols": places,
        "names": names,
        "trim_mm": [outline.width_mm, outline.height_mm],
        "bleed_mm": spec.card.bleed_mm,
        "safe_margin_mm": spec.card.safe_margin_mm,
        "shape": getattr(outline.kind, "value", str(outline.kind)),
        "trim_outline_mm": [list(p) for p in outline.polyline(0.05)],
        "safe_outline_mm": [list(p) for p in outline.offset(-spec.card.safe_margin_mm).polyline(0.05)],
        "gap_mm": spec.layout.gap_mm,
    }


def card_pin_refusal(plan: DeckPlan, card: int) -> PinRefusal | None:
    """Why printed card ``card``'s pins in ``plan.theme`` cannot be laid out (see
    :func:`printdeck.layout.pin_refusal`), or None.

    Raises:
        ValueError: no such card.
    """
    from printdeck.layout import pin_refusal  # noqa: PLC0415 - the packer only when pins are checked

    index = pin_card_number(plan, card) - 1
    return pin_refusal(index, plan.cards[index], LayoutSettings.from_theme(plan.theme))


def card_pin_fit(plan: DeckPlan, card: int, symbol: str) -> float | None:
    """The largest size (mm) at most the pinned one at which ``symbol``'s pin on printed
    card ``card`` (in ``plan.theme``) passes the layout's checks, its centre and turn kept
    (see :func:`printdeck.layout.fitted_pin_size`), or None.

    Raises:
        ValueError: no such card.
    """
    from printdeck.layout import fitted_pin_size  # noqa: PLC0415 - the packer only when pins are checked

    index = pin_card_number(plan, card) - 1
    return fitted_pin_size(index, plan.cards[index], LayoutSettings.from_theme(plan.theme), symbol)


def check_deck_pins(plan: DeckPlan) -> None:
    """Check every pin of ``plan.theme`` (``layout.pinned``) as the layout will: a card the
    deck has, showing the symbols it was pinned on (else a ``PinWarning``: it will not be
    applied), every pin inside the safe zone, apart from the others and big enough.

    Raises:
        PrintdeckError: A pin the build would refuse, naming its key.
    """
    settings = LayoutSettings.from_theme(plan.theme)
    if not settings.pins:
        return
    per_deck = plan.cards_per_deck
    warn_pins_of_missing_cards(settings.pins, per_deck)
    from printdeck.layout import pin_refusal  # noqa: PLC0415 - the packer only when pins are checked

    applied = applicable_pins(plan.cards[:per_deck], settings.pins)
    for index in sorted(applied):
        refusal = pin_refusal(index, plan.cards[index], settings)
        if refusal is not None:
            raise refusal.error


def card_png(plan: DeckPlan, layouts: Sequence[CardLayout], card: int, ppi: float) -> bytes:
    """Printed card ``card`` (its bleed's bounding box) drawn by the PDF renderer on its
    sheet and rasterised by PDFium at ``ppi``: PNG bytes, the card as it prints, clear
    (transparent) outside its bleed, upright as :func:`card_places` gives it (a card
    standing turned on its sheet, poker cards on A4, is turned back).

    Raises:
        ValueError: no such card, or it has no layout in ``layouts``.
    """
    from printdeck.render import PrintJob, page_image, render_pdf, shape_mask  # noqa: PLC0415 - ReportLab only when rendering

    slot = next((s for s in plan.imposition.slots if s.card_index == card - 1), None)
    layout = next((c for c in layouts if c.index == card - 1), None)
    if slot is None or layout is None:
        raise ValueError(f"card {card} is not laid out")
    imposition = dataclasses.replace(plan.imposition, slots=(slot,))
    fronts = dataclasses.replace(PrintJob.from_theme(plan.theme), backs=None, legend=False, rules=False)
    grown = imposition.sheet_shape().offset(imposition.bleed_mm)
    page_w, page_h = imposition.page_size_mm
    x0, y0 = slot.center_mm[0] - grown.width_mm / 2, slot.center_mm[1] - grown.height_mm / 2
    crop_mm = (x0, y0, page_w - x0 - grown.width_mm, page_h - y0 - grown.height_mm)
    with tempfile.TemporaryDirectory(prefix="printdeck-card-") as tmp:
        pdf_path = Path(tmp) / "card.pdf"
        render_pdf(fronts, plan.symbols, [layout], imposition, pdf_path)
        crop_pt = (mm_to_pt(crop_mm[0]), mm_to_pt(crop_mm[1]), mm_to_pt(crop_mm[2]), mm_to_pt(crop_mm[3]))
        image = page_image(pdf_path, slot.page - 1, ppi / 72.0, crop_pt)
    image = image.convert("RGBA")  # clear outside the bleed: the sheet's footer or marks are not the card's
    image.putalpha(shape_mask(grown, image.size, ppi / MM_PER_IN))
    if imposition.rotation_deg:  # turned counter-clockwise on the sheet: turned back
        image = image.rotate(-imposition.rotation_deg, expand=True)
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()
