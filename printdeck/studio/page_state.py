"""Everything the page shows about the deck, as one JSON mapping (``GET /api/state``)."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import printdeck
from printdeck.errors import PrintdeckError
from printdeck.studio.crops import photo_crops
from printdeck.studio.deck_settings import SETTING_KEYS, form_description
from printdeck.studio.workspace import Snapshot, Workspace

_PROBE = {"deck": {"symbols_per_card": 3}, "symbols": [{"text": w} for w in ("a", "b", "c", "d", "e", "f", "g")]}


def state(space: Workspace) -> dict[str, Any]:
    """The deck's settings and symbols with their errors, the values the theme model
    fills in for keys left out (``effective``), what the symbols allow (``sizes``) and the
    form as the theme's JSON Schema defines it (``form``, see ``form_description``)."""
    out = space.view()
    snap = space.snapshot()
    match = _match(snap)
    out["effective"] = effective_values(snap.theme.spec if snap.theme is not None else None)
    out["symbol_count"] = symbol_count(space, snap)
    out["sizes"] = printdeck.deck_sizes_text(out["symbol_count"], match)
    out["symbols_per_card"] = snap.theme.spec.deck.symbols_per_card if snap.theme is not None else None
    out["words_lang"] = printdeck.words_lang(snap.theme.spec) if snap.theme is not None else None  # as it prints
    out["form"] = form_description()  # bounds, choices and deck sizes: the page writes none of its own
    add_crop_badges(out["symbols"], snap, space.folder)
    return out


def add_crop_badges(items: list[dict[str, Any]], snap: Snapshot, folder: Path) -> None:
    """Give each photo tile whose crop is already known (drawn by the preview or a build)
    its ``crop`` (see ``crops.crop_view``): the badge's word (``face``, ``pet``,
    ``subject``, ``your focus``, ``centre: check me``), whether to check it, a sentence for
    its title and the crop square the PDF cuts, as fractions of the upright photo."""
    if snap.theme is None:
        return
    known = photo_crops(snap.theme, folder, compute=False)
    for item in items:
        photo = item.get("kind") == "photo" or item.get("photo_face") is not None  # a photo face's too
        crop = known.get(item.get("file") or "") if photo else None
        if crop is not None:
            item["crop"] = crop


def _match(snap: Snapshot) -> int:
    deck = snap.doc.get("deck")
    match = deck.get("match", 1) if isinstance(deck, dict) else 1
    return match if match in (1, 2) else 1


def symbol_count(space: Workspace, snap: Snapshot) -> int:
    """How many symbols the theme offers (a folder counts its pictures)."""
    if snap.theme is not None:
        return len(snap.theme.symbols)
    if not any(item.group for item in space.items):
        return len(space.items)
    try:
        probe = {"deck": {"symbols_per_card": 3}, "symbols": snap.doc["symbols"]}
        return len(printdeck.load_theme(probe, base_dir=space.folder, check_files=False).symbols)
    except PrintdeckError:
        return len(space.items)


def effective_values(spec: Any) -> dict[str, Any]:
    """The value of every setting as the theme model has it (defaults filled in;
    lengths in mm), by dotted key."""
    model = spec or _default_spec()
    dumped = model.model_dump(by_alias=True, mode="json")
    values = {}
    for key in SETTING_KEYS:
        node: Any = dumped
        for part in key.split("."):
            node = node.get(part) if isinstance(node, dict) else None
        values[key] = node
    if values.get("card.shape") is None:  # the shape a named size gives (poker: a rectangle), else round
        values["card.shape"] = model.card.outline().kind.value
    if spec is None:  # the sample's words turn 30°; a deck not loaded yet shows the key's own default
        values["layout.rotation"] = type(model.layout)().model_dump(by_alias=True, mode="json")["rotation"]
    return values


@functools.lru_cache(maxsize=1)
def _default_spec() -> Any:
    """The theme model's defaults (a theme of seven words)."""
    return printdeck.load_theme(_PROBE, check_files=False).spec
