"""The build manifest: a JSON record of the deck beside the PDF, for any tool to check.

Shape (lengths in mm, angles in degrees counter-clockwise)::

    {"theme": str, "seed": int,
     "design": {"order": int, "lambda": int, "points": int, "lines": int},
     "card": {"shape": "circle" | "square" | "rectangle" | "hexagon",
              "width_mm": float, "height_mm": float, "corner_radius_mm": float,
              "orientation": "pointy" | "flat" | null, "diameter_mm": float (circles),
              "bleed_mm": float, "safe_margin_mm": float, "turned_on_sheet": bool},
     "paper": {"size_mm": [w, h], "layout": "sheet" | "single", "sheets": int,
               "backs": bool, "duplex": str | null},
     "symbols": [{"id": int, "name": str, "source": str,
                  "crop": {...} (photos only, see below)}],
     "unused": [{"name": str, "source": str}],
     "cards": [{"index": int, "page": int, "sheet": int, "center_mm": [x, y],
                "coverage": float, "min_gap_mm": float, "size_ratio": float,
                "symbols": [{"id": int, "center_mm": [dx, dy],
                             "rotation_deg": float, "box_mm": [w, h],
                             "color": "#rrggbb" (words only)}]}]}

A deck with symbols of several faces (``faces:`` in the theme) also has
``"faces": {"mode": "mixed" | "split", "different_fraction": float | null,
"different_bound": float | null}``, each symbol its ``"faces": [{"name", "source"}]``,
every placement its ``"face"`` (the index in the symbol's ``faces``), and, when split,
every card its ``"deck"`` (``"A"`` or ``"B"``) and ``"twin"`` (the index of the other
deck's card that shows the same symbols). ``id`` is always the symbol (the concept).

A class set (``deck.copies`` > 1) adds to each card ``"deck": int`` (1..N) and ``"mark":
{"letter": str, "color": "#rrggbb", "center_mm": [dx, dy], "radius_mm": float}`` (the deck
mark, from the card's centre), and at the top ``"decks": [{"deck": int, "letter": str,
"color": str, "seed": int, "sheets": [int]}]``; ``index`` counts each deck's cards from 0.

A build's manifest (not :attr:`printdeck.Deck.manifest`) lists under ``"outputs"`` the
names of the cut files and extras PDF it wrote beside the PDF (``[]`` for none;
:mod:`printdeck.output_record`), for the next build of the same PDF to replace them and
remove those it does not write again.

A photo's ``crop`` says what its crop holds and where it is
(:meth:`printdeck.model.CropReport.as_json`): ``{"found": "face" | "cat face" | "subject" |
"nothing" | "focus", "box_px": [left, top, right, bottom], "faces": int, "cat_faces": int,
"faces_kept": int, "subject_px": [x0, y0, x1, y1] | null, "subject_whole": bool, "check":
bool}``, in pixels of the upright photo (y down).

``page`` is the card's front page in the PDF (1-based; with backs every front sheet is
followed by its back page, so sheet ``n`` is page ``2n - 1``, or, one card a page with
``backs.order: before``, preceded by it: page ``2n``); ``sheet`` counts front sheets only.
A card's ``center_mm`` is on that page, from its bottom-left corner (``turned_on_sheet``:
every card stands a quarter turn counter-clockwise there). The card's safe zone is its
shape (``width_mm`` x ``height_mm``, rounded corners of ``corner_radius_mm``; a hexagon's
corners on its longer axis, ``pointy`` = up) inset by ``safe_margin_mm``; symbol
placements are relative to the card's centre, y up.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from printdeck.artwork import drawing
from printdeck.assign import FacedDeck
from printdeck.choices import SheetSide
from printdeck.design import Design
from printdeck.fileio import atomic_output
from printdeck.model import CardLayout, DeckMark, Placement, SymbolSpec, card_in_deck
from printdeck.render import pdf_page, side_order
from printdeck.theme import Theme

if TYPE_CHECKING:
    from printdeck.render import Imposition


def _r(value: float, digits: int = 4) -> float:
    return round(float(value), digits)


def _placement(p: Placement, faced: FacedDeck | None) -> dict[str, Any]:
    point, face = faced.drawing_faces[p.symbol_id] if faced is not None else (p.symbol_id, 0)
    out: dict[str, Any] = {
        "id": point,
        "center_mm": [_r(p.center_mm[0]), _r(p.center_mm[1])],
        "rotation_deg": _r(p.rotation_deg, 3),
        "box_mm": [_r(p.box_mm[0]), _r(p.box_mm[1])],
    }
    if p.color is not None:
        out["color"] = p.color
    if faced is not None:
        out["face"] = face
    return out


def _symbol(s: SymbolSpec, faced: FacedDeck | None) -> dict[str, Any]:
    out: dict[str, Any] = {"id": s.id, "name": s.name, "source": s.source}
    if faced is not None:
        out["faces"] = [{"name": f.name, "source": f.source} for f in s.all_faces]
    report = drawing(s).crop_report if s.kind == "photo" else None
    if report is not None:
        out["crop"] = report.as_json()
    return out


def _faces_record(faced: FacedDeck) -> dict[str, Any]:
    fraction, bound = faced.different_fraction, faced.different_bound
    return {
        "mode": faced.mode,
        "different_fraction": None if fraction is None else _r(fraction),
        "different_bound": None if bound is None else _r(bound),
    }


def build_manifest(
    theme: Theme,
    seed: int,
    design: Design,
    symbols: Sequence[SymbolSpec],
    layouts: Sequence[CardLayout],
    imposition: Imposition,
    unused: Sequence[SymbolSpec] = (),
    faced: FacedDeck | None = None,
    seeds: Sequence[int] = (),
) -> dict[str, Any]:
    """Assemble the manifest dictionary.

    Args:
        theme: The theme built (its name and card geometry are recorded).
        seed: The seed the build used.
        design: The (trimmed) design; its points are the deck's symbol ids.
        symbols: Deck symbols, ``symbols[i].id == i`` (one per point of the design, with all
            their faces).
        layouts: One per card, in card order (placements name drawings of ``faced``).
        imposition: Where each card sits (one slot a card, in card order) and the paper.
        unused: The theme's symbols no card shows.
        faced: Which face each card shows; recorded when the deck has faces.
        seeds: A class set's layout seeds, deck 1 first (recorded under ``decks``).

    Returns:
        A JSON-serialisable dict of the shape in this module's docstring.
    """
    card, backs = theme.spec.card, theme.spec.backs.enabled
    sides = side_order(backs, theme.spec.backs.back_first, imposition.single)  # as the PDF orders them
    faced = faced if faced is not None and faced.has_faces else None
    shape = imposition.card_shape()
    cards = []
    for layout, slot, index in zip(layouts, imposition.slots, card_in_deck(layouts), strict=True):
        cards.append(
            {
                "index": index,
                **_deck_of(faced, index),
                **({"deck": layout.mark.deck} if layout.mark is not None else {}),
                "page": pdf_page(slot.page, SheetSide.FRONT, sides),
                "sheet": slot.page,
                "center_mm": [_r(slot.center_mm[0]), _r(slot.center_mm[1])],
                "coverage": _r(layout.coverage),
                "min_gap_mm": _r(layout.min_gap_mm),
                "size_ratio": _r(layout.size_ratio),
                "symbols": [_placement(p, faced) for p in layout.placements],
                **({"mark": _mark(layout.mark)} if layout.mark is not None else {}),
            }
        )
    manifest = {
        "theme": theme.name,
        "seed": seed,
        "design": {
            "order": design.order,
            "lambda": design.lam,
            "points": design.n_points,
            "lines": len(design.blocks),
            "construction": design.construction,
        },
        "card": {
            **({"diameter_mm": _r(shape.width_mm)} if shape.is_circle else {}),
            **shape.manifest(),
            "bleed_mm": card.bleed_mm,
            "safe_margin_mm": card.safe_margin_mm,
            "turned_on_sheet": imposition.turned,
        },
        "paper": {
            "size_mm": [_r(v) for v in imposition.page_size_mm],
            "layout": "single" if imposition.single else "sheet",
            "sheets": imposition.pages,
            "backs": backs,
            "duplex": theme.spec.backs.duplex if backs else None,
        },
        **({"faces": _faces_record(faced)} if faced is not None else {}),
        "symbols": [_symbol(s, faced) for s in symbols],
        "unused": [{"name": s.name, "source": s.source} for s in unused],
        "cards": cards,
    }
    decks = _decks(layouts, imposition, seeds)
    if decks:
        manifest["decks"] = decks
    return manifest


def _mark(mark: DeckMark) -> dict[str, Any]:
    return {
        "letter": mark.letter,
        "color": mark.color,
        "center_mm": [_r(v) for v in mark.center_mm],
        "radius_mm": _r(mark.radius_mm),
    }


def _decks(layouts: Sequence[CardLayout], imposition: Imposition, seeds: Sequence[int]) -> list[dict[str, Any]]:
    """A class set's decks: number, letter, colour, layout seed and the sheets holding its cards."""
    out: dict[int, dict[str, Any]] = {}
    for layout, slot in zip(layouts, imposition.slots, strict=True):
        if layout.mark is None:
            continue
        entry = out.setdefault(
            layout.mark.deck,
            {"deck": layout.mark.deck, "letter": layout.mark.letter, "color": layout.mark.color, "sheets": []},
        )
        if slot.page not in entry["sheets"]:
            entry["sheets"].append(slot.page)
    for number, entry in out.items():
        if number <= len(seeds):
            entry["seed"] = seeds[number - 1]
    return [out[n] for n in sorted(out)]


def _deck_of(faced: FacedDeck | None, index: int) -> dict[str, Any]:
    """A split deck's card: its deck (A or B) and its twin in the other deck."""
    if faced is None or not faced.card_decks[index]:
        return {}
    half = len(faced.card_decks) // 2
    return {"deck": faced.card_decks[index], "twin": (index + half) % (2 * half)}


def write_manifest(manifest: dict[str, Any], path: Path) -> None:
    """Write the manifest as indented JSON, atomically.

    Raises:
        PrintdeckError: the path cannot be written.
    """
    with atomic_output(path) as tmp:
        tmp.write_text(json.dumps(manifest, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
