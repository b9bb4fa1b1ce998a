"""The card's size ratio bounds during packing (see :mod:`~.packer`).

A card's size ratio is its smallest over its largest symbol by ink size (``h *
sqrt(area)``, mm); the engine keeps it within ``[ratio_low, ratio_high]`` of the
:class:`~.card_state.PackInput` (see ``LayoutSettings.ratio_bounds``).
"""

from __future__ import annotations

import numpy as np

from printdeck.layout.packing.card_state import CardState

CAP_SLACK = 1.12  # the smallest slot may reach this times its ladder share of the largest
RATIO_MARGIN = 0.99  # keep this much inside the size ratio bounds (rounding)


def small_share(card: CardState) -> float:
    """Largest ink size of the smallest ladder slot, as a share of the card's largest symbol."""
    t = card.problem.targets[card.free]
    return min(CAP_SLACK * float(t.min() / t.max()), card.problem.ratio_high * RATIO_MARGIN)


def growth_caps(card: CardState) -> np.ndarray:
    """Growth factor each symbol may still take before leaving the card's size ratio bounds.

    The smallest ladder slot's ink size (``h * sqrt(area)``) may reach
    :func:`small_share` of the card's largest ink size (so the ratio stays at most
    ``ratio_high``); no symbol may grow past the card's smallest ink size over
    ``ratio_low`` (so the ratio stays at least ``ratio_low``: the big symbols wait
    for the small ones). Sizes only grow, so caps taken at a round's start stay safe.
    Pinned symbols (``card.fixed``) have a cap of 1 and count in no bound.
    """
    caps = np.ones(card.n_symbols)
    if not card.free.any():
        return caps
    size = card.ink_sizes_mm()[card.free]
    t = card.problem.targets[card.free] / card.problem.targets[card.free].max()
    free_caps = np.full(len(t), np.inf)
    small = t <= t.min() + 1e-9
    if not small.all():
        free_caps[small] = float(size.max()) * small_share(card) / size[small]
    if card.problem.ratio_low > 0:
        free_caps = np.minimum(free_caps, float(size.min()) * RATIO_MARGIN / card.problem.ratio_low / size)
    caps[card.free] = free_caps
    return caps


def enforce_floor(card: CardState) -> None:
    """Shrink symbols bigger than the smallest over ``ratio_low`` (where still valid)."""
    if card.problem.ratio_low <= 0 or not card.free.any():
        return
    size = card.ink_sizes_mm()
    limit = float(size[card.free].min()) * RATIO_MARGIN / card.problem.ratio_low
    for i in np.nonzero((size > limit) & card.free)[0]:
        h = card.heights_mm[i] * limit / size[i]
        g = card.valid(int(i), card.centers_mm[i], card.angles_rad[i], h)
        if g is not None:
            card.put(int(i), card.centers_mm[i], card.angles_rad[i], h, g)


def below_floor(card: CardState) -> bool:
    """Whether the card's size ratio (smallest over largest ink size, pinned symbols left
    out) is under ``ratio_low``."""
    if not card.free.any():
        return False
    size = card.ink_sizes_mm()[card.free]
    return float(size.min() / size.max()) < card.problem.ratio_low
