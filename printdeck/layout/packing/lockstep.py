"""Compaction of several cards in lockstep: each card's steps as :func:`~.compaction.compact`
makes them alone, every array operation of a step made once for all the cards.

Each step, the cards still compacting find their contacts together
(:func:`~.whole_batch.batch_contacts`), build their programs together
(:func:`~.compaction.programs`), solve them one by one (HiGHS), and check their steps
together (:func:`~.whole_batch.batch_check`); a card whose step fails its check is
halved and checked again with the others that failed. Element by element the arithmetic
is the arithmetic of one card alone, so every card ends where :func:`~.compaction.compact`
takes it (``tests/test_layout_batch.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from printdeck.layout.packing.card_state import CardState
from printdeck.layout.packing.compaction import (
    HALVINGS,
    MIN_GAIN,
    NV,
    apply_step,
    compact,
    programs,
    turn_bounds,
)
from printdeck.layout.packing.contacts import Contacts, contacts, kept
from printdeck.layout.packing.lp_solve import SparseRows, solve
from printdeck.layout.packing.size_ratio import below_floor
from printdeck.layout.packing.whole_batch import WholeBatch, batch_check, batch_contacts, shares_zone
from printdeck.layout.packing.whole_card import WholeCard


def compact_many(cards: list[CardState], steps: int) -> list[int]:
    """:func:`compact` each of ``cards`` in place, in lockstep: every card's step is made
    and checked with the others' (:mod:`~.whole_batch`), so each array operation is made
    once a step for all of them. Each card's steps, and so its result, are the same to the
    bit as :func:`compact` alone gives; cards with different safe zones go one by one.

    Returns:
        Per card, the number of steps taken.
    """
    if len(cards) <= 1 or not shares_zone(cards):
        return [compact(card, steps) for card in cards]
    wholes = [WholeCard(card) for card in cards]
    taken: list[int | None] = [None] * len(cards)
    batches: dict[tuple[int, ...], WholeBatch] = {}

    def batch_of(ks: list[int]) -> WholeBatch:
        key = tuple(ks)
        if key not in batches:
            batches[key] = WholeBatch([cards[k] for k in ks], [wholes[k] for k in ks])
        return batches[key]

    for step in range(steps):
        active = [k for k in range(len(cards)) if taken[k] is None]
        if not active:
            break
        turns = {k: turn_bounds(cards[k]) for k in active}
        cons = (
            dict(zip(active, batch_contacts(batch_of(active))))
            if len(active) > 1
            else {active[0]: contacts(cards[active[0]], wholes[active[0]])}
        )
        progs = programs(
            [cards[k] for k in active],
            [cons[k] for k in active],
            [wholes[k] for k in active],
            [turns[k] for k in active],
        )
        moves: dict[int, tuple[np.ndarray, float]] = {}
        for k, prog in zip(active, progs):
            move = _solved_move(cards[k], prog)
            if move is None:
                taken[k] = step
            else:
                moves[k] = move
        pending = list(moves)
        for _ in range(HALVINGS + 1):
            if not pending:
                break
            afters = _checked(pending, batch_of, cards, wholes, moves, cons, turns)
            for k, after in zip(pending, afters):
                if after is None:
                    continue
                for i, (c, th, h, outline) in enumerate(zip(*after)):
                    cards[k].put(i, c, float(th), float(h), outline)
                if moves[k][1] < MIN_GAIN * cards[k].zone.area_mm2:
                    taken[k] = step + 1
            pending = [k for k, after in zip(pending, afters) if after is None]
            for k in pending:
                moves[k] = (0.5 * moves[k][0], 0.5 * moves[k][1])
        for k in pending:  # no fraction of its step passed
            taken[k] = step
    return [steps if t is None else t for t in taken]


def _solved_move(
    card: CardState, prog: tuple[np.ndarray, SparseRows, np.ndarray, np.ndarray]
) -> tuple[np.ndarray, float] | None:
    """A card's step as :func:`compact` solves its program ``prog`` (:func:`program`):
    ``((n, 4) move, ink gained)``, or None where :func:`compact` stops (no step keeps every
    margin, or it would lose ink)."""
    cost, a_ub, b_ub, bounds = prog
    x = solve(cost, a_ub, b_ub, bounds)
    if x is None:
        return None
    gain = -float(cost @ x)
    if gain < 0 and not below_floor(card):
        return None
    return x[: NV * card.n_symbols].reshape(card.n_symbols, NV), gain


def _checked(
    pending: list[int],
    batch_of: Callable[[list[int]], WholeBatch],
    cards: list[CardState],
    wholes: list[WholeCard],
    moves: dict[int, tuple[np.ndarray, float]],
    cons: dict[int, Contacts],
    turns: dict[int, tuple[np.ndarray, np.ndarray]],
) -> Sequence[tuple[np.ndarray, ...] | None]:
    """Each pending card after its move, or None (see :func:`apply_step`)."""
    if len(pending) == 1:
        k = pending[0]
        move = moves[k][0]
        return [apply_step(cards[k], wholes[k], move, turns[k]) if kept(cards[k], cons[k], move) else None]
    return batch_check(
        batch_of(pending), [moves[k][0] for k in pending], [cons[k] for k in pending], [turns[k] for k in pending]
    )
