"""A disk cache of packed cards, so a repeated preview or build skips the packing.

A card's entry is keyed by everything its layout depends on: the layout code itself
(a hash of the source of the ``pack``, ``place``, ``compact``, ``contacts``, ``lpsolve``,
``distfield``, ``cardstate``, ``ratio``, ``deck``, ``settings``, ``silhouette``, ``artwork`` and
``parallel`` modules, so any change to the engine starts afresh),
the settings, the seed, the card index, its planned targets, and per symbol its id,
``scale``, ``rotate`` and the content key of its silhouette (artwork bytes and trace
parameters, see :mod:`printdeck.layout.silhouette`). Entries live next to the
silhouette cache (``$PRINTDECK_CACHE_DIR`` or ``~/.cache/printdeck``, folder
``layouts``); ``PRINTDECK_NO_CACHE`` turns every cache off, ``PRINTDECK_NO_LAYOUT_CACHE``
this one only (benchmarks use it to time the packing itself). Floats are stored with
``repr`` precision, so a cached card equals the computed one exactly.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

import numpy as np

from printdeck.model import CardLayout, Placement, SymbolSpec


@lru_cache(maxsize=1)
def code_hash() -> str:
    """Hash of the layout engine's source (its modules that decide where symbols go)."""
    import importlib

    h = hashlib.sha256()
    for name in ("pack", "place", "compact", "contacts", "lpsolve", "distfield", "cardstate", "ratio", "deck",
                 "settings", "silhouette", "artwork", "parallel"):
        h.update(Path(str(importlib.import_module(f"printdeck.layout.{name}").__file__)).read_bytes())
    return h.hexdigest()[:16]


def layout_cache_on() -> bool:
    """False when ``PRINTDECK_NO_CACHE`` or ``PRINTDECK_NO_LAYOUT_CACHE`` is set."""
    return not (os.environ.get("PRINTDECK_NO_CACHE") or os.environ.get("PRINTDECK_NO_LAYOUT_CACHE"))


def card_key(index: int, symbols: Sequence[SymbolSpec], sil_keys: Sequence[str | None], targets: np.ndarray,
             settings: object, seed: int) -> str | None:
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
    h = hashlib.sha256(f"{code_hash()}|{settings!r}|{seed}|{index}".encode())
    h.update(np.asarray(targets, dtype="<f8").tobytes())
    for sym, key in zip(symbols, sil_keys):
        h.update(f"|{sym.id}|{sym.scale!r}|{sym.rotate}|{key}".encode())
    return h.hexdigest()[:32]


def _dir() -> Path:
    root = os.environ.get("PRINTDECK_CACHE_DIR")
    base = Path(root) if root else Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "printdeck"
    return base / "layouts"


def load(key: str) -> CardLayout | None:
    """The cached card for ``key``, or None (missing or unreadable)."""
    try:
        data = json.loads((_dir() / f"{key}.json").read_text())
        places = tuple(Placement(symbol_id=p["id"], center_mm=tuple(p["c"]), rotation_deg=p["r"],
                                 box_mm=tuple(p["b"])) for p in data["placements"])
        return CardLayout(index=data["index"], placements=places, coverage=data["coverage"],
                          min_gap_mm=data["min_gap_mm"], size_ratio=data["size_ratio"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def save(key: str, layout: CardLayout) -> None:
    """Store a card (atomically; errors are ignored: the cache is only a speed-up)."""
    data = dataclasses.asdict(layout)
    data["placements"] = [{"id": p.symbol_id, "c": list(p.center_mm), "r": p.rotation_deg, "b": list(p.box_mm)}
                          for p in layout.placements]
    path = _dir() / f"{key}.json"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(data))
        os.replace(tmp, path)
    except OSError:
        pass
