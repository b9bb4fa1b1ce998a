"""Planning a deck's sizes: each card's size slots, balanced across the deck.

Every card gets the same size ladder (targets from 1 down to
``size_ratio``, or the theme's ``sizes``). The slots are handed out card by card:
each symbol keeps a running mean of its ink sizes (relative to its card's mean;
measured for cards at least :data:`FEEDBACK_LAG` back, planned for the more recent
ones), and on the next card the symbols with the smallest running mean take the
biggest slots. No symbol is therefore always small, and up to ``FEEDBACK_LAG``
cards can be packed at once (in parallel) with the same result as one by one. Sizes
are by square root of silhouette (ink) area, so thin or spindly artwork gets a bigger
box and reads as large as compact artwork.

A card's plan depends on the results of the cards at least ``FEEDBACK_LAG + 1`` before
it: re-rolling card ``j`` (``LayoutSettings.reroll``) changes card ``j`` and may change
cards ``j + FEEDBACK_LAG + 1`` on, never the cards in between or before.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence

import numpy as np

from printdeck.artwork import Silhouette, ink_share, silhouette_key
from printdeck.layout.pins import for_one_card
from printdeck.layout.settings import LayoutSettings
from printdeck.layout.stored_cards import card_key, layout_cache_on
from printdeck.layout.workers import CardTask
from printdeck.model import CardLayout, SymbolSpec

FEEDBACK_LAG = 8  # card i's size slots use the measured sizes of cards before i - FEEDBACK_LAG
RETRY_RELATIVE = 0.85  # retry a card under this times the deck's median coverage so far (see DeckPlanner)


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


PACKED_SIZE_SHARE = 0.4
"""Under the least share of :func:`smallest_size_estimate_mm` a card's smallest symbol was
packed at, over the bundled themes and crowded variants of them (0.429 to 0.809 since words
keep room along their baseline: bench/RESULTS.md, ``bench/calibrate_small_sizes.py``)."""
ELONGATED = 2.0
"""A safe zone this many times longer than wide is always laid out by ``check``: the
estimate, from its area, was calibrated on round, square and poker cards (a 30 x 140 mm card
packed its smallest symbol at 0.45 of it, a 24 x 300 mm card refused one it called safe)."""
SMALL_SIZE_MARGIN = 1.5
"""How far above the least symbol size the estimate must stay for a deck to be taken as
safe without laying it out (:func:`may_pack_too_small`)."""


def smallest_size_estimate_mm(sils: Sequence[Silhouette], per_card: int, settings: LayoutSettings) -> float:
    """A rough size (square root of ink area, mm) of a card's smallest symbol: the size ladder's
    last slot when the slots fill the safe zone's area, times the least ink share of ``sils``
    (a long word's ink is a small part of the box it is sized by). The layout packs the
    smallest symbol at :data:`PACKED_SIZE_SHARE` of this or more.

    Args:
        sils: The deck's symbols' silhouettes (every face).
        per_card: Symbols on a card.
        settings: The deck's layout settings (safe zone, size ratio or sizes).
    """
    steps = ladder(per_card, settings)
    area_mm2 = settings.zone_area_mm2()
    share = min((ink_share(sil) for sil in sils), default=1.0)
    return float(steps[-1] * math.sqrt(area_mm2 / float(np.square(steps).sum())) * share)


def may_pack_too_small(sils: Sequence[Silhouette], per_card: int, settings: LayoutSettings) -> bool:
    """Whether a card of the deck might be refused for a symbol under ``settings.min_size_mm``
    (which only laying the deck out tells): the smallest symbol's size, estimated low
    (:data:`PACKED_SIZE_SHARE` of :func:`smallest_size_estimate_mm`), is within
    :data:`SMALL_SIZE_MARGIN` times the least size, or the card is a long strip
    (:data:`ELONGATED`). The bundled picture themes are far from it; the bundled word lists,
    whose words keep room along their baseline, are laid out, as a word list on a 50 mm card is.

    Args:
        sils: The deck's symbols' silhouettes (every face).
        per_card: Symbols on a card.
        settings: The deck's layout settings.
    """
    zone = settings.zone_shape()
    if max(zone.width_mm, zone.height_mm) > ELONGATED * min(zone.width_mm, zone.height_mm):
        return True  # a long strip of a card: its area says little of the room a symbol has
    low_mm = PACKED_SIZE_SHARE * smallest_size_estimate_mm(sils, per_card, settings)
    return low_mm < SMALL_SIZE_MARGIN * settings.min_size_mm


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

    in_flight = FEEDBACK_LAG + 1
    """Cards ``i .. i + FEEDBACK_LAG`` can be planned before card ``i`` is done (see :meth:`ready`)."""

    def __init__(
        self,
        cards: Sequence[Sequence[SymbolSpec]],
        sils: Sequence[Sequence[Silhouette]],
        sil_refs: Sequence[Sequence[int]],
        settings: LayoutSettings,
        seed: int,
    ) -> None:
        self.cards, self.sils, self.refs, self.settings = cards, sils, sil_refs, settings
        self.balancer = SizeBalancer(seed)
        self.seed = seed
        unique = {s.id: s for card in cards for s in card}
        self.silhouette_keys = {i: silhouette_key(s) for i, s in unique.items()} if layout_cache_on() else {}
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
        attempt = self.settings.reroll.get(i, 0)  # the card's own attempt only: a re-roll keeps the others cached
        key = card_key(
            i,
            symbols,
            [self.silhouette_keys.get(s.id) for s in symbols],
            targets,
            dataclasses.replace(
                self.settings,
                retry_below=retry,
                reroll={i: attempt} if attempt else {},
                pins=for_one_card(self.settings.pins, i),  # the card's own pins only, as its re-roll
            ),
            self.seed,
        )
        return CardTask(
            index=i,
            symbols=tuple(symbols),
            sil_refs=tuple(self.refs[i]),
            targets=targets,
            cache_key=key,
            retry_below=retry,
        )

    def retry_below(self) -> float:
        """Coverage under which the next card is packed again: :data:`RETRY_RELATIVE` times
        the median coverage of the cards measured so far (the deck's weakest cards, whatever
        its artwork), or ``settings.retry_below`` before any is measured."""
        if not self.coverages:
            return self.settings.retry_below
        ordered, mid = sorted(self.coverages), len(self.coverages) // 2
        # the median as np.median gives it, bit for bit (which would load numpy.ma, 6 ms, in a cached build)
        median = ordered[mid] if len(ordered) % 2 else (ordered[mid - 1] + ordered[mid]) / 2.0
        return RETRY_RELATIVE * float(median)

    def _commit(self, j: int, layout: CardLayout) -> None:
        self.coverages.append(layout.coverage)
        sizes = np.array([p.box_mm[1] * math.sqrt(sil.area) for p, sil in zip(layout.placements, self.sils[j])])
        self.balancer.adjust([s.id for s in self.cards[j]], sizes / float(np.mean(sizes)) - self.planned.pop(j))
