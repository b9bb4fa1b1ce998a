"""Pinned symbols: put where the theme fixes them, each checked as every pose is.

A pinned symbol (:attr:`~.card_state.PackInput.pinned`) is put at its pose before
anything else is placed, by :func:`put_pinned`, with the checks of every other pose of
the engine: every outline vertex inside the safe zone (:meth:`~.card_state.CardState.inside`),
and the gap kept to the symbols put before it and to the free centre
(:meth:`~.card_state.CardState.clear_of`). The stages then pack the other symbols around
them and never move, turn or grow them (their variables are fixed at zero, see
:mod:`.compaction`), and their sizes stay out of the card's size ratio bounds (the person
who pinned chose them; see :mod:`.size_ratio`). Lengths are mm in card coordinates.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import shapely

from printdeck.layout.packing.card_state import SAFETY_MM, CardState, PackInput

OUTSIDE = "outside"
NEAR = "near"


@dataclass(frozen=True)
class PinConflict:
    """Why a pinned symbol cannot be put at its pose.

    Attributes:
        symbol: The pinned symbol (card order).
        reason: :data:`OUTSIDE` (an outline point leaves the safe zone) or :data:`NEAR`
            (within the gap of ``other``).
        other: The pinned symbol it comes too near, or -1 for the card's free centre
            (``PackInput.centre_free_mm``).
    """

    symbol: int
    reason: str
    other: int = -1


def put_pinned(card: CardState) -> PinConflict | None:
    """Put every pinned symbol of ``card`` at its pose, in card order; the first that
    does not fit stops it (see the module docstring). Returns None when all fit."""
    for i in map(int, np.nonzero(card.fixed)[0]):
        pose = card.problem.pinned[i]
        assert pose is not None
        x, y, angle, h = pose
        c, th = np.array([[x, y]]), np.array([angle])
        if not card.inside(i, c, th, h)[0]:
            return PinConflict(i, OUTSIDE)
        outline = card.outlines_from(i, card.placed_vertices(i, c, th, h))[0]
        if not card.clear_of(card.placed_union(without=i), np.array([outline], dtype=object))[0]:
            placed = [j for j in np.nonzero(card.heights_mm > 0)[0] if j != i]
            near = [int(j) for j in placed if shapely.dwithin(card.outlines_mm[j], outline, card.gap_mm + SAFETY_MM)]
            return PinConflict(i, NEAR, near[0] if near else -1)
        card.put(i, c[0], angle, h, outline)
    return None


def pin_conflict(problem: PackInput) -> PinConflict | None:
    """The first pinned symbol of ``problem`` that cannot be put at its pose (see
    :func:`put_pinned`), or None: the check the layout makes before packing a card."""
    return put_pinned(CardState(problem, np.random.default_rng(0)))
