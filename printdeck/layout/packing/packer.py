"""Packing a card: a dense first placement, then collective compaction (rounds of growth optional).

1. Placement (:func:`~.first_placement.place_first`): every symbol at its slot's size,
   biggest first and outside-in, at the densest level that fits.
2. Rounds of growth (:func:`~.growth.grow_rounds`), ``rounds`` of them (none by
   default: the compaction's first step grows the symbols as far for less): every
   symbol grows in place by a provably valid factor, a jammed one grows while moving
   and turning, and a jammed smallest symbol moves to the roomiest free spot.
3. Compaction (:func:`~.compaction.compact`): linear programs move, turn and grow all
   the symbols at once, until a step gains little (each card on its own).

The first placement may leave a small symbol under the card's size ratio floor (it
had to shrink to fit); the rounds and the compaction usually bring the ratio back, and a
card that still ends under it is packed again with a placement that keeps the floor
(cheaper than trying a sparser level first; see bench/RESULTS.md).

Several cards can be packed at once (:func:`pack_cards`): each is placed and grown
alone, then they are compacted together (:func:`~.lockstep.compact_many`), every card
to the same result as alone.

Every accepted state is valid, so the engine never overlaps or clips to succeed.
Lengths are mm in card coordinates (origin at the card centre, y up); angles are
radians, counter-clockwise.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from printdeck.layout.packing.card_state import CardState, PackFailure, PackInput, PackResult
from printdeck.layout.packing.compaction import compact
from printdeck.layout.packing.first_placement import place_first
from printdeck.layout.packing.growth import grow_rounds
from printdeck.layout.packing.lockstep import compact_many
from printdeck.layout.packing.pinned import put_pinned
from printdeck.layout.packing.size_ratio import below_floor

PINNED_MISFIT = "a pinned symbol does not fit where it is pinned"


def pack_card(problem: PackInput, rng: np.random.Generator) -> PackResult:
    """Pack one card (see the module docstring).

    Args:
        problem: The card's symbols, targets and limits.
        rng: Random source (seeded by the caller for determinism).

    Returns:
        The packed card; every gap >= ``gap_mm``, every outline inside the disc, and the
        size ratio at least ``ratio_low`` unless no placement keeps it.

    Raises:
        PackFailure: The symbols cannot be placed even at a small fraction of the disc.
    """
    result = pack_cards([problem], [rng])[0]
    if isinstance(result, PackFailure):
        raise result
    return result


def pack_cards(problems: Sequence[PackInput], rngs: Sequence[np.random.Generator]) -> list[PackResult | PackFailure]:
    """Pack several cards, each exactly as :func:`pack_card` packs it alone (each from its
    own random source), their compactions in lockstep (:func:`~.lockstep.compact_many`:
    one array operation a step for all the cards, the same steps).

    Args:
        problems: The cards' problems.
        rngs: Their random sources, in the same order.

    Returns:
        Per card its :class:`PackResult`, or the :class:`PackFailure` :func:`pack_card`
        would raise for it.
    """
    cards = [CardState(problem, rng) for problem, rng in zip(problems, rngs)]
    out: dict[int, PackResult | PackFailure] = {}
    placed: list[int] = []
    for k, card in enumerate(cards):
        if not card.free.any():  # every symbol pinned: nothing to pack
            out[k] = _result(card) if put_pinned(card) is None else PackFailure(PINNED_MISFIT)
            continue
        try:
            place_first(card, False)
            grow_rounds(card, card.problem.rounds)
        except PackFailure as exc:
            out[k] = exc
            continue
        placed.append(k)
    for steps in sorted({cards[k].problem.compact_steps for k in placed}):
        compact_many([cards[k] for k in placed if cards[k].problem.compact_steps == steps], steps)
    for k in placed:
        card = cards[k]
        try:
            if below_floor(card):  # again, with a placement that keeps the floor
                place_first(card, True)
                grow_rounds(card, card.problem.rounds)
                compact(card, card.problem.compact_steps)
            out[k] = _result(card)
        except PackFailure as exc:
            out[k] = exc
    return [out[k] for k in range(len(cards))]  # every card has its packing or its failure


def _result(card: CardState) -> PackResult:
    """The card's poses as a :class:`PackResult`."""
    return PackResult(
        centers_mm=card.centers_mm.copy(),
        angles_deg=np.degrees(card.angles_rad),
        heights_mm=card.heights_mm.copy(),
        outlines=tuple(card.outlines_mm),
    )
