"""Laying out a whole deck: silhouettes traced once, sizes planned card by card, cards
packed on worker processes (identical to serial).

:func:`layout_deck` is the deck's one entry point: it checks every symbol can be big
enough at all, plans each card's size slots (:class:`~printdeck.layout.size_plan.DeckPlanner`)
and packs the cards (:func:`~printdeck.layout.workers.run_cards`, a few at once by
:func:`~printdeck.layout.card.lay_out_cards`, each card as it packs alone).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Sequence

from printdeck.artwork import Silhouette, silhouette
from printdeck.cache import cache_dir
from printdeck.errors import shown
from printdeck.layout.meanwhile import Meanwhile
from printdeck.layout.pins import applicable_pins
from printdeck.layout.settings import LayoutSettings
from printdeck.layout.size_plan import DeckPlanner
from printdeck.layout.stored_cards import layout_cache_on
from printdeck.layout.workers import run_cards
from printdeck.model import CardLayout, SymbolSpec
from printdeck.units import shown_under


def layout_deck(
    cards: Sequence[Sequence[SymbolSpec]],
    settings: LayoutSettings,
    seed: int,
    progress: Callable[[int], None] | None = None,
    jobs: int | None = None,
    meanwhile: Meanwhile | None = None,
) -> list[CardLayout]:
    """Lay out every card of a deck.

    Silhouettes are traced (or read from the cache) here, once per symbol; the
    size slots are planned card by card (:class:`~printdeck.layout.size_plan.DeckPlanner`);
    each card is packed with its own random stream (``default_rng([seed, index])``, or
    another attempt's for a card in ``settings.reroll``: see :mod:`printdeck.layout.card`),
    in worker processes when there are more than ``PARALLEL_MIN_CARDS`` cards (see
    :mod:`printdeck.layout.workers`). Serial and parallel give identical layouts.

    Args:
        cards: ``cards[i]`` = the symbols on card i, in order.
        settings: Safe zone, gap, size ladder, rotation, attempts and re-rolls.
        seed: Random seed; the same seed gives the same layouts.
        progress: Called with 1 after each card (e.g. ``tqdm.update``), in the
            calling process, as cards finish.
        jobs: Worker processes; ``None`` = ``PRINTDECK_JOBS`` or the CPU count
            (at most :data:`printdeck.layout.workers.MAX_JOBS`); 1 = serial.
        meanwhile: Work of the caller's done once beside the packing, in a worker
            process (see :class:`~printdeck.layout.meanwhile.Meanwhile`); done when this
            returns or raises, unless a symbol or pin was refused before the packing.

    Returns:
        One :class:`CardLayout` per card (card order), placements in the card's symbol order.

    Raises:
        PrintdeckError: A card cannot be laid out (too many symbols for the safe
            zone, or its smallest symbol would fall under ``settings.min_size_mm``);
            the message names the card (the first failing one), its symbols and
            the settings to change. Or a pin (``settings.pins``) leaves the safe zone,
            touches another or is too small: the message names its key. A pin whose card
            shows other symbols than it was pinned on is left out with a ``PinWarning``.
    """
    if settings.pins:
        settings = dataclasses.replace(settings, pins=applicable_pins(cards, settings.pins))
    table: dict[int, Silhouette] = {}
    keys: dict[int, int] = {}
    found: dict[SymbolSpec, Silhouette] = {}  # each symbol's silhouette looked up (its key made) once
    for symbols in cards:
        for symbol in symbols:
            if symbol not in found:
                found[symbol] = silhouette(symbol)
                _check_not_too_thin(symbol, found[symbol], settings)
    sils = [tuple(found[s] for s in symbols) for symbols in cards]
    if layout_cache_on():
        cache_dir("layouts")  # warns here, once, when the cache folder is unusable
    refs = [[keys.setdefault(id(sil), len(keys)) for sil in card] for card in sils]
    for card, card_refs in zip(sils, refs):
        table.update(zip(card_refs, card))
    for sil in table.values():  # found once here, not in every worker process
        _ = sil.inscribed, sil.field
    return run_cards(
        lambda: DeckPlanner(cards, sils, refs, settings, seed),
        len(cards),
        table,
        settings,
        seed,
        progress,
        jobs,
        meanwhile,
    )


def alone_size_mm(sil: Silhouette, settings: LayoutSettings) -> float:
    """The largest size (square root of its ink area, mm) a symbol can have, alone on
    the card: its outline's farthest point on the safe zone's edge."""
    return settings.safe_radius_mm / sil.radius * math.sqrt(sil.area)  # the safe zone's inradius


def _check_not_too_thin(symbol: SymbolSpec, sil: Silhouette, settings: LayoutSettings) -> None:
    """Refuse artwork that stays under the smallest size even alone on the card (a hairline,
    a very long thin strip): the picture is at fault, not the deck's size.

    Raises:
        PrintdeckError: Naming the image (or word) and what to change.
    """
    alone = alone_size_mm(sil, settings)
    if alone < settings.min_size_mm:
        what = f"the word {symbol.text!r}" if symbol.kind == "text" else f"the image {shown(symbol.source)}"
        raise symbol.error(
            f"{what} is too thin (width:height {sil.aspect:.3g}): even alone on the card its ink would be only "
            f"{shown_under(alone, settings.min_size_mm)} mm (square root of its ink area; "
            f"minimum {settings.min_size_mm:g} mm)",
            f"crop it closer or give a rounder picture, or make {settings.card_size_key()} larger",
        )
