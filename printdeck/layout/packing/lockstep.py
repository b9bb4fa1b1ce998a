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

from collections.abc import Sequence

import numpy as np

from printdeck.layout.packing.card_state import CardState
from printdeck.layout.packing.compaction import (
    HALVINGS,
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
    """:func:`~.compaction.compact` each of ``cards`` in place, in lockstep: every card's
    step is made and checked with the others' (:mod:`~.whole_batch`), so each array
    operation is made once a step for all of them. Each card's steps, and so its result,
    are the same to the bit as :func:`~.compaction.compact` alone gives; cards with
    different safe zones go one by one.

    Args:
        cards: Every symbol of each placed, every gap kept.
        steps: Most linear programs to solve for each card.

    Returns:
        Per card, the number of steps taken.
    """
    if len(cards) <= 1 or not shares_zone(cards):
        return [compact(card, steps) for card in cards]
    run = _Lockstep(cards)
    for step in range(steps):
        if not run.step(step):
            break
    return [steps if t is None else t for t in run.taken]


class _Lockstep:
    """The cards compacted together, their :class:`~.whole_card.WholeCard` and the steps
    each took (None while it goes on)."""

    def __init__(self, cards: list[CardState]) -> None:
        self.cards = cards
        self.wholes = [WholeCard(card) for card in cards]
        self.taken: list[int | None] = [None] * len(cards)
        self._batches: dict[tuple[int, ...], WholeBatch] = {}

    def batch_of(self, ks: list[int]) -> WholeBatch:
        """The :class:`~.whole_batch.WholeBatch` of cards ``ks`` (made once for each set)."""
        key = tuple(ks)
        if key not in self._batches:
            self._batches[key] = WholeBatch([self.cards[k] for k in ks], [self.wholes[k] for k in ks])
        return self._batches[key]

    def step(self, step: int) -> bool:
        """Step ``step`` of every card still going (as :func:`~.compaction.compact` makes
        it); False when none was left to step."""
        active = [k for k, t in enumerate(self.taken) if t is None]
        if not active:
            return False
        turns = {k: turn_bounds(self.cards[k]) for k in active}
        if len(active) > 1:
            cons = dict(zip(active, batch_contacts(self.batch_of(active))))
        else:
            cons = {active[0]: contacts(self.cards[active[0]], self.wholes[active[0]])}
        progs = programs(
            [self.cards[k] for k in active],
            [cons[k] for k in active],
            [self.wholes[k] for k in active],
            [turns[k] for k in active],
        )
        moves: dict[int, tuple[np.ndarray, float]] = {}
        for k, prog in zip(active, progs):
            move = _solved_move(self.cards[k], prog)
            if move is None:
                self.taken[k] = step
            else:
                moves[k] = move
        self._take(step, moves, cons, turns)
        return True

    def _take(
        self,
        step: int,
        moves: dict[int, tuple[np.ndarray, float]],
        cons: dict[int, Contacts],
        turns: dict[int, tuple[np.ndarray, np.ndarray]],
    ) -> None:
        """Check each card's move exactly, halving it until it passes (at most
        :data:`~.compaction.HALVINGS` times), and put the cards where it takes them."""
        pending = list(moves)
        for _ in range(HALVINGS + 1):
            if not pending:
                break
            afters = self._checked(pending, moves, cons, turns)
            for k, after in zip(pending, afters):
                if after is None:
                    continue
                self.cards[k].put_all(*after)
                if moves[k][1] < self.cards[k].problem.compact_min_gain * self.cards[k].zone.area_mm2:
                    self.taken[k] = step + 1
            pending = [k for k, after in zip(pending, afters) if after is None]
            for k in pending:
                moves[k] = (0.5 * moves[k][0], 0.5 * moves[k][1])
        for k in pending:  # no fraction of its step passed
            self.taken[k] = step

    def _checked(
        self,
        pending: list[int],
        moves: dict[int, tuple[np.ndarray, float]],
        cons: dict[int, Contacts],
        turns: dict[int, tuple[np.ndarray, np.ndarray]],
    ) -> Sequence[tuple[np.ndarray, ...] | None]:
        """Each pending card after its move, or None (see :func:`~.compaction.apply_step`)."""
        if len(pending) == 1:
            k = pending[0]
            card, move = self.cards[k], moves[k][0]
            return [apply_step(card, self.wholes[k], move, turns[k]) if kept(card, cons[k], move) else None]
        return batch_check(
            self.batch_of(pending),
            [moves[k][0] for k in pending],
            [cons[k] for k in pending],
            [turns[k] for k in pending],
        )


def _solved_move(
    card: CardState, prog: tuple[np.ndarray, SparseRows, np.ndarray, np.ndarray]
) -> tuple[np.ndarray, float] | None:
    """A card's step as :func:`~.compaction.compact` solves its program ``prog``
    (:func:`~.compaction.program`): ``((n, 4) move, ink gained)``, or None where
    :func:`~.compaction.compact` stops (no step keeps every margin, or it would lose ink)."""
    cost, a_ub, b_ub, bounds = prog
    x = solve(cost, a_ub, b_ub, bounds)
    if x is None:
        return None
    gain = -float(cost @ x)
    if gain < 0 and not below_floor(card):
        return None
    return x[: NV * card.n_symbols].reshape(card.n_symbols, NV), gain
