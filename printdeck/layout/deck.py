"""Laying out a whole deck: size slots balanced across the deck, one packed card each.

Size balance: every card gets the same size ladder (targets from 1 down to
``size_ratio``, or the theme's ``sizes``). The slots are handed out card by card:
each symbol keeps a running mean of its ink sizes (relative to its card's mean;
measured for cards at least :data:`FEEDBACK_LAG` back, planned for the more recent
ones), and on the next card the symbols with the smallest running mean take the
biggest slots. No symbol is therefore always small, and up to ``FEEDBACK_LAG``
cards can be packed at once (in parallel) with the same result as one by one. Sizes are by square root of
silhouette (ink) area, so thin or spindly artwork gets a bigger box and reads as
large as compact artwork.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Mapping, Sequence

import numpy as np
import shapely

from printdeck.cache import cache_dir
from printdeck.errors import PrintdeckError, shown
from printdeck.layout.cache import card_key, layout_cache_on
from printdeck.layout.pack import PackFailure, PackInput, PackResult, pack
from printdeck.layout.parallel import CardTask, run_cards
from printdeck.layout.settings import LayoutSettings
from printdeck.layout.silhouette import Silhouette, content_key, ink_share, silhouette
from printdeck.model import CardLayout, Placement, SymbolSpec

FEEDBACK_LAG = 8  # card i's size slots use the measured sizes of cards before i - FEEDBACK_LAG
RETRY_RELATIVE = 0.85  # retry a card under this times the deck's median coverage so far (see DeckPlanner)
RETRY_STEPS = 3  # a retry compacts this many times as long as the first try (low cards gain the most from it)


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
        """Remember the sizes the symbols got (planned or measured), relative to the card's mean."""
        rel = sizes_mm / float(np.mean(sizes_mm))
        for i, r in zip(ids, rel):
            self.sum[i] = self.sum.get(i, 0.0) + float(r)
            self.count[i] = self.count.get(i, 0) + 1

    def adjust(self, ids: Sequence[int], delta: np.ndarray) -> None:
        """Correct already recorded relative sizes by ``delta`` (``(k,)``), e.g. planned -> measured."""
        for i, d in zip(ids, delta):
            self.sum[i] = self.sum.get(i, 0.0) + float(d)


class DeckPlanner:
    """Hands out each card's size slots just before the card is packed.

    Card i's slots go to its symbols by their running mean relative ink size
    (see :class:`SizeBalancer`): for cards up to ``i - FEEDBACK_LAG - 1`` the sizes
    they actually got, for the cards in between the sizes planned for them (slot
    times :func:`ink_share`). The plan of card i therefore depends only on earlier
    cards' results, never on how many cards are being packed at once, and up to
    :data:`FEEDBACK_LAG` cards can be packed in parallel. The same measured cards
    set the coverage under which a card is packed again (:meth:`retry_below`).

    Args:
        cards: ``cards[i]`` = the symbols on card i.
        sils: Their silhouettes, same shape.
        sil_refs: Keys of those silhouettes in the shared table, same shape.
        settings: Gives the ladder (:func:`ladder`).
        seed: Deck seed (breaks ties between equally served symbols).
    """

    def __init__(self, cards: Sequence[Sequence[SymbolSpec]], sils: Sequence[Sequence[Silhouette]],
                 sil_refs: Sequence[Sequence[int]], settings: LayoutSettings, seed: int) -> None:
        self.cards, self.sils, self.refs, self.settings = cards, sils, sil_refs, settings
        self.balancer = SizeBalancer(seed)
        self.seed = seed
        unique = {s.id: s for card in cards for s in card}
        self.content_keys = {i: content_key(s) for i, s in unique.items()} if layout_cache_on() else {}
        self.planned: dict[int, np.ndarray] = {}
        self.committed = 0  # cards whose measured sizes are in the balancer
        self.coverages: list[float] = []  # their coverages, in card order

    def ready(self, i: int, done: Mapping[int, CardLayout]) -> bool:
        """Whether card i can be planned: every card before ``i - FEEDBACK_LAG`` is done."""
        return all(j in done for j in range(self.committed, i - FEEDBACK_LAG))

    def task(self, i: int, done: Mapping[int, CardLayout]) -> CardTask:
        """Plan card i (cards must be planned in order; :meth:`ready` must hold)."""
        while self.committed < i - FEEDBACK_LAG:
            self._commit(self.committed, done[self.committed])
            self.committed += 1
        symbols = self.cards[i]
        ids = [s.id for s in symbols]
        targets = self.balancer.assign(ids, ladder(len(symbols), self.settings))
        planned = targets * np.array([ink_share(sil) for sil in self.sils[i]])
        self.balancer.record(ids, planned)
        self.planned[i] = planned / float(np.mean(planned))
        retry = self.retry_below()
        key = card_key(i, symbols, [self.content_keys.get(s.id) for s in symbols], targets,
                       dataclasses.replace(self.settings, retry_below=retry), self.seed)
        return CardTask(index=i, symbols=tuple(symbols), sil_refs=tuple(self.refs[i]), targets=targets,
                        cache_key=key, retry_below=retry)

    def retry_below(self) -> float:
        """Coverage under which the next card is packed again: :data:`RETRY_RELATIVE` times
        the median coverage of the cards measured so far (the deck's weakest cards, whatever
        its artwork), or ``settings.retry_below`` before any is measured."""
        if not self.coverages:
            return self.settings.retry_below
        return RETRY_RELATIVE * float(np.median(self.coverages))

    def _commit(self, j: int, layout: CardLayout) -> None:
        self.coverages.append(layout.coverage)
        sizes = np.array([p.box_mm[1] * math.sqrt(sil.area) for p, sil in zip(layout.placements, self.sils[j])])
        self.balancer.adjust([s.id for s in self.cards[j]], sizes / float(np.mean(sizes)) - self.planned.pop(j))


def layout_deck(cards: Sequence[Sequence[SymbolSpec]], settings: LayoutSettings, seed: int,
                progress: Callable[[int], None] | None = None, jobs: int | None = None) -> list[CardLayout]:
    """Lay out every card of a deck.

    Silhouettes are traced (or read from the cache) here, once per symbol; the
    size slots are planned here, card by card (:class:`DeckPlanner`); each card is
    packed with its own random stream ``default_rng([seed, index])``, in worker
    processes when there are more than ``PARALLEL_MIN_CARDS`` cards (see
    :mod:`printdeck.layout.parallel`). Serial and parallel give identical layouts.

    Args:
        cards: ``cards[i]`` = the symbols on card i, in order.
        settings: Safe zone, gap, size ladder, rotation and attempts.
        seed: Random seed; the same seed gives the same layouts.
        progress: Called with 1 after each card (e.g. ``tqdm.update``), in the
            calling process, as cards finish.
        jobs: Worker processes; ``None`` = ``PRINTDECK_JOBS`` or the CPU count
            (at most :data:`printdeck.layout.parallel.MAX_JOBS`); 1 = serial.

    Returns:
        One :class:`CardLayout` per card (card order), placements in the card's symbol order.

    Raises:
        PrintdeckError: A card cannot be laid out (too many symbols for the safe
            zone, or its smallest symbol would fall under ``settings.min_size_mm``);
            the message names the card (the first failing one), its symbols and
            the settings to change.
    """
    table: dict[int, Silhouette] = {}
    keys: dict[int, int] = {}
    sils = [tuple(silhouette(s) for s in symbols) for symbols in cards]
    for symbols, card_sils in zip(cards, sils):
        for symbol, sil in zip(symbols, card_sils):
            _check_not_too_thin(symbol, sil, settings)
    if layout_cache_on():
        cache_dir("layouts")  # warns here, once, when the cache folder is unusable
    refs = [[keys.setdefault(id(sil), len(keys)) for sil in card] for card in sils]
    for card, card_refs in zip(sils, refs):
        table.update(zip(card_refs, card))
    for sil in table.values():  # found once here, not in every worker process
        _ = sil.inscribed, sil.field
    return run_cards(lambda: DeckPlanner(cards, sils, refs, settings, seed), len(cards), table, settings, seed,
                     progress, jobs)


def layout_one(index: int, symbols: Sequence[SymbolSpec], sils: Sequence[Silhouette], targets: np.ndarray,
               settings: LayoutSettings, seed: int) -> CardLayout:
    """Pack card ``index`` and return its manifest record (see :func:`layout_card`).

    Raises:
        PrintdeckError: The card cannot be packed, or its smallest symbol is too small.
    """
    result = layout_card(index, symbols, sils, targets, settings, seed)
    sizes = result.heights_mm * np.sqrt([s.area for s in sils])
    _check_min_size(index, symbols, sizes, settings)
    return card_layout(index, symbols, sils, result, settings.safe_radius_mm)


def layout_card(index: int, symbols: Sequence[SymbolSpec], sils: Sequence[Silhouette], targets: np.ndarray,
                settings: LayoutSettings, seed: int) -> PackResult:
    """Pack one card (see :mod:`printdeck.layout.pack`).

    A card whose coverage stays under ``settings.retry_below`` is packed again from
    another random stream (``default_rng([seed, index, retry])``, at most
    ``settings.retries`` times) and the densest packing is kept.

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
    low, high = settings.ratio_bounds()
    prob = PackInput(sils=tuple(sils), targets=targets * scale,
                     rotatable=np.array([s.rotate for s in symbols], dtype=bool),
                     radius_mm=settings.safe_radius_mm, gap_mm=settings.gap_mm,
                     max_rotation_deg=settings.max_rotation_deg, attempts=settings.attempts,
                     rounds=settings.rounds, compact_steps=settings.compact_steps, ratio_low=low, ratio_high=high)
    ink = np.array([s.area for s in sils]) / (math.pi * settings.safe_radius_mm ** 2)

    def coverage(packed: PackResult) -> float:
        return float(np.sum(packed.heights_mm ** 2 * ink))

    deeper = dataclasses.replace(prob, compact_steps=RETRY_STEPS * prob.compact_steps)
    try:
        best = pack(prob, np.random.default_rng([seed, index]))
        for retry in range(1, settings.retries + 1):
            if coverage(best) >= settings.retry_below:
                break
            again = pack(deeper, np.random.default_rng([seed, index, retry]))
            if coverage(again) > coverage(best):
                best = again
        return best
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


def alone_size_mm(sil: Silhouette, settings: LayoutSettings) -> float:
    """The largest size (square root of its ink area, mm) a symbol can have, alone on
    the card: its outline's farthest point on the safe zone's edge."""
    return settings.safe_radius_mm / sil.radius * math.sqrt(sil.area)


def _check_not_too_thin(symbol: SymbolSpec, sil: Silhouette, settings: LayoutSettings) -> None:
    """Refuse artwork that stays under the smallest size even alone on the card (a hairline,
    a very long thin strip): the picture is at fault, not the deck's size.

    Raises:
        PrintdeckError: Naming the image (or word) and what to change.
    """
    alone = alone_size_mm(sil, settings)
    if alone < settings.min_size_mm:
        what = f"the word {symbol.text!r}" if symbol.kind == "text" else f"the image {shown(symbol.source)}"
        raise PrintdeckError(
            f"symbol {symbol.name!r}: {what} is too thin (width:height {sil.aspect:.3g}): even alone on the card "
            f"its ink would be only {alone:.1f} mm (square root of its ink area; minimum {settings.min_size_mm:g} "
            "mm); crop it closer or give a rounder picture, or make card.diameter larger")


def _check_min_size(index: int, symbols: Sequence[SymbolSpec], sizes: np.ndarray, settings: LayoutSettings) -> None:
    k = int(np.argmin(sizes))
    if sizes[k] < settings.min_size_mm:
        names = ", ".join(s.name for s in symbols)
        raise PrintdeckError(
            f"card {index + 1}: symbol {symbols[k].name!r} would be only {sizes[k]:.1f} mm "
            f"(square root of its ink area; minimum {settings.min_size_mm:g} mm) among {len(symbols)} "
            f"symbols ({names}); use fewer deck.symbols_per_card, a smaller layout.gap, a larger "
            "card.diameter, or a larger layout.size_ratio")
