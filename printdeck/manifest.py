"""The build manifest: a JSON record of the deck beside the PDF, for any tool to check.

Shape (lengths in mm, angles in degrees counter-clockwise)::

    {"theme": str, "seed": int,
     "design": {"order": int, "lambda": int, "points": int, "lines": int},
     "card": {"diameter_mm": float, "bleed_mm": float, "safe_margin_mm": float},
     "paper": {"size_mm": [w, h], "layout": "sheet" | "single", "sheets": int,
               "backs": bool, "duplex": str | null},
     "symbols": [{"id": int, "name": str, "source": str}],
     "unused": [{"name": str, "source": str}],
     "cards": [{"index": int, "page": int, "sheet": int, "center_mm": [x, y],
                "coverage": float, "min_gap_mm": float, "size_ratio": float,
                "symbols": [{"id": int, "center_mm": [dx, dy],
                             "rotation_deg": float, "box_mm": [w, h],
                             "color": "#rrggbb" (words only)}]}]}

``page`` is the card's front page in the PDF (1-based; with backs every front sheet is
followed by its back page, so sheet ``n`` is page ``2n - 1``); ``sheet`` counts front
sheets only. A card's ``center_mm`` is on that page, from its bottom-left corner.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from printdeck.design import Design
from printdeck.fileio import atomic_output
from printdeck.model import CardLayout, Placement, SymbolSpec
from printdeck.theme import Theme

if TYPE_CHECKING:
    from printdeck.render import Imposition


def _r(value: float, digits: int = 4) -> float:
    return round(float(value), digits)


def _placement(p: Placement) -> dict[str, Any]:
    out = {
        "id": p.symbol_id,
        "center_mm": [_r(p.center_mm[0]), _r(p.center_mm[1])],
        "rotation_deg": _r(p.rotation_deg, 3),
        "box_mm": [_r(p.box_mm[0]), _r(p.box_mm[1])],
    }
    if p.color is not None:
        out["color"] = p.color
    return out


def build_manifest(
    theme: Theme,
    seed: int,
    design: Design,
    symbols: Sequence[SymbolSpec],
    layouts: Sequence[CardLayout],
    imposition: Imposition,
    unused: Sequence[SymbolSpec] = (),
) -> dict[str, Any]:
    """Assemble the manifest dictionary.

    Args:
        theme: The theme built (its name and card geometry are recorded).
        seed: The seed the build used.
        design: The (trimmed) design; its points are the deck's symbol ids.
        symbols: Deck symbols, ``symbols[i].id == i`` (one per point of the design).
        layouts: One per card, in card order.
        imposition: Where each card sits (one slot a card, in card order) and the paper.
        unused: The theme's symbols no card shows.

    Returns:
        A JSON-serialisable dict of the shape in this module's docstring.
    """
    card, backs = theme.spec.card, theme.spec.backs.enabled
    cards = []
    for layout, slot in zip(layouts, imposition.slots, strict=True):
        cards.append(
            {
                "index": layout.index,
                "page": 2 * slot.page - 1 if backs else slot.page,
                "sheet": slot.page,
                "center_mm": [_r(slot.center_mm[0]), _r(slot.center_mm[1])],
                "coverage": _r(layout.coverage),
                "min_gap_mm": _r(layout.min_gap_mm),
                "size_ratio": _r(layout.size_ratio),
                "symbols": [_placement(p) for p in layout.placements],
            }
        )
    return {
        "theme": theme.name,
        "seed": seed,
        "design": {
            "order": design.order,
            "lambda": design.lam,
            "points": design.n_points,
            "lines": len(design.blocks),
            "construction": design.construction,
        },
        "card": {"diameter_mm": card.diameter_mm, "bleed_mm": card.bleed_mm, "safe_margin_mm": card.safe_margin_mm},
        "paper": {
            "size_mm": [_r(v) for v in imposition.page_size_mm],
            "layout": "single" if imposition.single else "sheet",
            "sheets": imposition.pages,
            "backs": backs,
            "duplex": theme.spec.backs.duplex if backs else None,
        },
        "symbols": [{"id": s.id, "name": s.name, "source": s.source} for s in symbols],
        "unused": [{"name": s.name, "source": s.source} for s in unused],
        "cards": cards,
    }


def write_manifest(manifest: dict[str, Any], path: Path) -> None:
    """Write the manifest as indented JSON, atomically.

    Raises:
        PrintdeckError: the path cannot be written.
    """
    with atomic_output(path) as tmp:
        tmp.write_text(json.dumps(manifest, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
