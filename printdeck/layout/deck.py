"""Laying out a whole deck: size slots balanced across the deck, one packed card each.

Size balance: every card gets the same size ladder (targets from 1 down to
``size_ratio``, or the theme's ``sizes``). Cards are laid out in order; each
symbol keeps a running mean of the sizes it actually got (relative to its card's
mean), and on the next card the symbols with the smallest running mean take the
biggest slots. No symbol is therefore always small. Sizes are by square root of
silhouette (ink) area, so thin or spindly artwork gets a bigger box and reads as
large as compact artwork.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np
import shapely

from printdeck.errors import PrintdeckError
from printdeck.layout.pack import PackFailure, PackInput, PackResult, pack
from printdeck.layout.settings import LayoutSettings
from printdeck.layout.silhouette import Silhouette, silhouette
from printdeck.model import CardLayout, Placement, SymbolSpec


def ladder(k: int, settings: LayoutSettings) -> np.ndarray:
    """Return the ``(k,)`` relative target sizes of a card's slots, largest first.

    With ``settings.sizes`` the ladder's steps are spread over the k slots in
    order; otherwise sizes fall geometrically from 1 to ``settings.size_ratio``.
    """
    if settings.sizes:
        steps = np.array(sorted(settings.sizes, reverse=True), dtype=float)
        steps = steps / steps[0]
        return steps[np.minimum((np.arange(k) * len(steps)) // max(k, 1), len(steps) - 1)]
    if k == 1:
        return np.ones(1)
    return settings.size_ratio ** (np.arange(k) / (k - 1))


class SizeBalancer:
    """Hands out a card's size slots so each symbol's mean size evens out over the deck."""

    def __init__(self, seed: int) -> None:
        self.sum: dict[int, float] = {}
        self.count: dict[int, int] = {}
        self.rng = np.random.default_rng([seed, 0x5A17])

    def assign(self, ids: Sequence[int], slots: np.ndarray) -> np.ndarray:
        """Return ``(k,)`` targets for the symbols ``ids`` (biggest slot to the least served)."""
        means = np.array([self.sum.get(i, 0.0) / self.count[i] if self.count.get(i) else 1.0 for i in ids])
        jitter = self.rng.uniform(0, 1e-6, len(ids))
        order = np.argsort(means + jitter, kind="stable")
        out = np.empty(len(ids))
        out[order] = slots
        return out

    def record(self, ids: Sequence[int], sizes_mm: np.ndarray) -> None:
        """Remember the sizes the symbols got, relative to the card's mean size."""
        rel = sizes_mm / float(np.mean(sizes_mm))
        for i, r in zip(ids, rel):
            self.sum[i] = self.sum.get(i, 0.0) + float(r)
            self.count[i] = self.count.get(i, 0) + 1


def layout_deck(cards: Sequence[Sequence[SymbolSpec]], settings: LayoutSettings, seed: int,
                progress: Callable[[int], None] | None = None) -> list[CardLayout]:
    """Lay out every card of a deck.

    Args:
        cards: ``cards[i]`` = the symbols on card i, in order.
        settings: Safe zone, gap, size ladder, rotation and attempts.
        seed: Random seed; the same seed gives the same layouts.
        progress: Called with 1 after each card (e.g. ``tqdm.update``).

    Returns:
        One :class:`CardLayout` per card, placements in the card's symbol order.

    Raises:
        PrintdeckError: A card cannot be laid out (too many symbols for the safe
            zone, or its smallest symbol would fall under ``settings.min_size_mm``);
            the message names the card, its symbols and the settings to change.
    """
    balancer = SizeBalancer(seed)
    out: list[CardLayout] = []
    for index, symbols in enumerate(cards):
        sils = tuple(silhouette(s) for s in symbols)
        ids = [s.id for s in symbols]
        targets = balancer.assign(ids, ladder(len(symbols), settings))
        result = layout_card(index, symbols, sils, targets, settings, seed)
        layout = card_layout(index, symbols, sils, result, settings.safe_radius_mm)
        sizes = result.heights_mm * np.sqrt([s.area for s in sils])
        _check_min_size(index, symbols, sizes, settings)
        balancer.record(ids, sizes)
        out.append(layout)
        if progress is not None:
            progress(1)
    return out


def layout_card(index: int, symbols: Sequence[SymbolSpec], sils: Sequence[Silhouette], targets: np.ndarray,
                settings: LayoutSettings, seed: int) -> PackResult:
    """Pack one card (see :mod:`printdeck.layout.pack`).

    Args:
        index: Card index (0-based), for the random stream and messages.
        symbols: The card's symbols.
        sils: Their silhouettes.
        targets: ``(k,)`` relative target sizes (before each symbol's ``scale``).
        settings: Layout settings.
        seed: Deck seed.

    Raises:
        PrintdeckError: The symbols cannot be placed even small.
    """
    scale = np.array([s.scale for s in symbols], dtype=float)
    prob = PackInput(sils=tuple(sils), targets=targets * scale,
                     rotatable=np.array([s.rotate for s in symbols], dtype=bool),
                     radius_mm=settings.safe_radius_mm, gap_mm=settings.gap_mm,
                     max_rotation_deg=settings.max_rotation_deg, attempts=settings.attempts,
                     rounds=settings.rounds)
    try:
        return pack(prob, np.random.default_rng([seed, index]))
    except PackFailure as exc:
        names = ", ".join(s.name for s in symbols)
        raise PrintdeckError(
            f"card {index + 1}: cannot fit its {len(symbols)} symbols ({names}) in a "
            f"{2 * settings.safe_radius_mm:g} mm safe zone with layout.gap {settings.gap_mm:g}mm ({exc}); "
            "use fewer deck.symbols_per_card, a smaller layout.gap or card.safe_margin, "
            "a larger card.diameter, or raise layout.attempts") from exc


def card_layout(index: int, symbols: Sequence[SymbolSpec], sils: Sequence[Silhouette],
                result: PackResult, radius_mm: float) -> CardLayout:
    """Turn a packed card into the manifest record with its measured figures.

    ``coverage`` = total silhouette (ink) area over the safe disc's area (the
    silhouettes never overlap, so this is the union's share); ``min_gap_mm`` =
    smallest distance between two placed collision outlines (a lower bound of the
    ink-to-ink distance); ``size_ratio`` = smallest over largest ``sqrt(area)``.
    """
    sqa = np.sqrt([s.area for s in sils])
    sizes = result.heights_mm * sqa
    disc = math.pi * radius_mm ** 2
    placements = tuple(
        Placement(symbol_id=sym.id, center_mm=(float(c[0]), float(c[1])), rotation_deg=float(a % 360.0),
                  box_mm=(float(h * sil.aspect), float(h)))
        for sym, sil, c, a, h in zip(symbols, sils, result.centers_mm, result.angles_deg, result.heights_mm))
    return CardLayout(index=index, placements=placements, coverage=float(np.sum(sizes ** 2) / disc),
                      min_gap_mm=min_gap(result.outlines), size_ratio=float(sizes.min() / sizes.max()))


def min_gap(outlines: Sequence[shapely.Geometry]) -> float:
    """Smallest distance between any two of the placed outlines (mm); inf if fewer than two."""
    n = len(outlines)
    if n < 2:
        return math.inf
    i, j = np.triu_indices(n, 1)
    arr = np.asarray(outlines, dtype=object)
    return float(shapely.distance(arr[i], arr[j]).min())


def _check_min_size(index: int, symbols: Sequence[SymbolSpec], sizes: np.ndarray, settings: LayoutSettings) -> None:
    k = int(np.argmin(sizes))
    if sizes[k] < settings.min_size_mm:
        names = ", ".join(s.name for s in symbols)
        raise PrintdeckError(
            f"card {index + 1}: symbol {symbols[k].name!r} would be only {sizes[k]:.1f} mm "
            f"(square root of its ink area; minimum {settings.min_size_mm:g} mm) among {len(symbols)} "
            f"symbols ({names}); use fewer deck.symbols_per_card, a smaller layout.gap, a larger "
            "card.diameter, or a larger layout.size_ratio")
