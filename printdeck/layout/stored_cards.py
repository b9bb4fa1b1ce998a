"""Packed cards stored on disk, so a repeated preview or build skips the packing.

A card's entry is named by :func:`card_key` (a :func:`printdeck.cache.entry_key`) from
everything its layout depends on: the layout engine's code (:data:`ENGINE_MODULES`,
through :func:`printdeck.cache.code_digest`, so any change to the engine starts afresh;
the drawing code counts through the silhouettes' keys), the settings, the seed, the
card index, its planned targets, and per symbol its id, ``scale``, ``rotate`` and the
content key of its silhouette (everything that changes its drawing, and the trace, see
:mod:`printdeck.artwork.tracing`). Entries live in the cache folder ``layouts``
(:func:`printdeck.cache.cache_dir`); every entry read is checked (shape, types, finite
numbers, the card and symbols asked for) and a bad one is ignored and written again;
``PRINTDECK_NO_CACHE`` turns every cache off, ``PRINTDECK_NO_LAYOUT_CACHE`` this one only
(benchmarks use it to time the packing itself). Floats are stored with ``repr``
precision, so a stored card equals the computed one exactly.
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import re
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from printdeck.cache import cache_dir, code_digest, entry_key, read_entry, write_entry
from printdeck.model import CardLayout, Placement, SymbolSpec

ENGINE_MODULES = (
    "printdeck.layout.packing",
    "printdeck.layout.card",
    "printdeck.layout.size_plan",
    "printdeck.layout.deck",
    "printdeck.layout.settings",
    "printdeck.layout.workers",
    "printdeck.layout.pins",
    "printdeck.artwork.tracing",
    "printdeck.artwork.mask_polygons",
    "printdeck.artwork.shape_field",
    "printdeck.artwork.edge_cells",
    __name__,
)
"""The modules that decide where symbols go (and how a card is stored): their source is part of every key."""


def layout_cache_on() -> bool:
    """False when ``PRINTDECK_NO_CACHE`` or ``PRINTDECK_NO_LAYOUT_CACHE`` is set."""
    return not (os.environ.get("PRINTDECK_NO_CACHE") or os.environ.get("PRINTDECK_NO_LAYOUT_CACHE"))


def card_key(
    index: int,
    symbols: Sequence[SymbolSpec],
    sil_keys: Sequence[str | None],
    targets: np.ndarray,
    settings: object,
    seed: int,
) -> str | None:
    """The cache key of one card, or None when caching is off or an artwork key is unknown.

    Args:
        index: Card index (0-based).
        symbols: The card's symbols.
        sil_keys: Their silhouettes' content keys (None = unknown: no caching).
        targets: ``(k,) float`` planned relative sizes.
        settings: The :class:`~printdeck.layout.LayoutSettings` (by ``repr``).
        seed: Deck seed.
    """
    if not layout_cache_on() or any(k is None for k in sil_keys):
        return None
    per_symbol = [f"{sym.id}|{sym.scale!r}|{sym.rotate}|{sil}" for sym, sil in zip(symbols, sil_keys)]
    return entry_key(
        code_digest(*ENGINE_MODULES),
        repr(settings),
        seed,
        index,
        np.asarray(targets, dtype="<f8").tobytes(),
        *per_symbol,
    )


def _dir() -> Path | None:
    """The layouts' folder (see :func:`printdeck.cache.cache_dir`), None when off."""
    return cache_dir("layouts")


def _number(value: object) -> float:
    """A finite JSON number (not a bool); ValueError otherwise."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ValueError(f"not a finite number: {value!r:.40}")
    return float(value)


def _pair(value: object, positive: bool = False) -> tuple[float, float]:
    if not isinstance(value, list) or len(value) != 2:
        raise ValueError("not a pair of numbers")
    a, b = _number(value[0]), _number(value[1])
    if positive and not (a > 0 and b > 0):
        raise ValueError("not a positive size")
    return a, b


def _placement(item: object, symbol_id: int | None) -> Placement:
    if not isinstance(item, dict) or not isinstance(item.get("id"), int) or isinstance(item.get("id"), bool):
        raise TypeError("a placement must be an object with an integer id")
    if symbol_id is not None and item["id"] != symbol_id:
        raise ValueError("the placements are not the card's symbols")
    return Placement(
        symbol_id=item["id"],
        center_mm=_pair(item.get("c")),
        rotation_deg=_number(item.get("r")),
        box_mm=_pair(item.get("b"), positive=True),
    )


def parse_entry(text: str, index: int | None = None, symbol_ids: Sequence[int] | None = None) -> CardLayout:
    """A cached card from its JSON text, checked field by field.

    Args:
        text: The entry's text.
        index: The card index expected (None: any).
        symbol_ids: The card's symbol ids, in order (None: any).

    Raises:
        ValueError: Not JSON, NaN or infinite numbers, the wrong shape or types, or a
            card other than the one expected.
    """
    data = json.loads(text, parse_constant=lambda name: _number(float(name)))
    if not isinstance(data, dict) or not isinstance(data.get("placements"), list):
        raise TypeError("not a cached card")
    card_index = data.get("index")
    if not isinstance(card_index, int) or isinstance(card_index, bool) or (index is not None and card_index != index):
        raise ValueError("not the card asked for")
    items = data["placements"]
    if symbol_ids is not None and len(items) != len(symbol_ids):
        raise ValueError("not the card's symbols")
    ids: Sequence[int | None] = symbol_ids if symbol_ids is not None else [None] * len(items)
    places = tuple(_placement(item, sid) for item, sid in zip(items, ids))
    return CardLayout(
        index=card_index,
        placements=places,
        coverage=_number(data.get("coverage")),
        min_gap_mm=_number(data.get("min_gap_mm")),
        size_ratio=_number(data.get("size_ratio")),
    )


def load(key: str, index: int | None = None, symbol_ids: Sequence[int] | None = None) -> CardLayout | None:
    """The cached card for ``key``, or None: missing, unreadable, or failing the checks
    of :func:`parse_entry` (an entry of the wrong shape is ignored and written again)."""
    folder = _dir()
    text = None if folder is None or not re.fullmatch(r"[0-9a-f]{1,64}", key) else read_entry(folder / f"{key}.json")
    if text is None:
        return None
    try:
        return parse_entry(text, index, symbol_ids)
    except (ValueError, TypeError, RecursionError):
        return None


def save(key: str, layout: CardLayout) -> None:
    """Store a card, whole or not at all; errors are ignored (the cache is only a speed-up)."""
    folder = _dir()
    if folder is None or not re.fullmatch(r"[0-9a-f]{1,64}", key):
        return
    data = {f.name: getattr(layout, f.name) for f in dataclasses.fields(layout)}  # asdict's, without its deep copy
    data["placements"] = [
        {"id": p.symbol_id, "c": list(p.center_mm), "r": p.rotation_deg, "b": list(p.box_mm)} for p in layout.placements
    ]
    if layout.mark is not None:
        data["mark"] = dataclasses.asdict(layout.mark)
    try:
        text = json.dumps(data, allow_nan=False)
    except ValueError:  # a NaN in a layout: not worth caching
        return
    write_entry(folder / f"{key}.json", text)
