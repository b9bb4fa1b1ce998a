"""The card's size ratio bounds during packing (see :mod:`printdeck.layout.pack`).

A card's size ratio is its smallest over its largest symbol by ink size (``h *
sqrt(area)``, mm); the engine keeps it within ``[ratio_low, ratio_high]`` of the
:class:`~printdeck.layout.cardstate.PackInput` (see ``LayoutSettings.ratio_bounds``).
"""

from __future__ import annotations

import numpy as np

from printdeck.layout.cardstate import CardState

CAP_SLACK = 1.12         # the smallest slot may reach this times its ladder share of the largest
RATIO_MARGIN = 0.99      # keep this much inside the size ratio bounds (rounding)


def small_share(card: CardState) -> float:
    """Largest ink size of the smallest ladder slot, as a share of the card's largest symbol."""
    t = card.p.targets
    return min(CAP_SLACK * float(t.min() / t.max()), card.p.ratio_high * RATIO_MARGIN)


def growth_caps(card: CardState) -> np.ndarray:
    """Growth factor each symbol may still take before leaving the card's size ratio bounds.

    The smallest ladder slot's ink size (``h * sqrt(area)``) may reach
    :func:`small_share` of the card's largest ink size (so the ratio stays at most
    ``ratio_high``); no symbol may grow past the card's smallest ink size over
    ``ratio_low`` (so the ratio stays at least ``ratio_low``: the big symbols wait
    for the small ones). Sizes only grow, so caps taken at a round's start stay safe.
    """
    size = card.h * card.ink
    t = card.p.targets / card.p.targets.max()
    caps = np.full(len(t), np.inf)
    small = t <= t.min() + 1e-9
    if not small.all():
        caps[small] = float(size.max()) * small_share(card) / size[small]
    if card.p.ratio_low > 0:
        caps = np.minimum(caps, float(size.min()) * RATIO_MARGIN / card.p.ratio_low / size)
    return caps


def enforce_floor(card: CardState) -> None:
    """Shrink symbols bigger than the smallest over ``ratio_low`` (where still valid)."""
    if card.p.ratio_low <= 0:
        return
    size = card.h * card.ink
    limit = float(size.min()) * RATIO_MARGIN / card.p.ratio_low
    for i in np.nonzero(size > limit)[0]:
        h = card.h[i] * limit / size[i]
        g = card.valid(int(i), card.c[i], card.th[i], h)
        if g is not None:
            card.set(int(i), card.c[i], card.th[i], h, g)


def keeps_floor(card: CardState) -> bool:
    """After :func:`enforce_floor`: whether the card's size ratio is at least ``ratio_low``."""
    enforce_floor(card)
    return not below_floor(card)


def below_floor(card: CardState) -> bool:
    """Whether the card's size ratio (smallest over largest ink size) is under ``ratio_low``."""
    size = card.h * card.ink
    return float(size.min() / size.max()) < card.p.ratio_low
