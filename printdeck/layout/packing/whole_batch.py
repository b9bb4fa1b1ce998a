"""Several cards' symbols at once: their contacts and exact step checks in one pass.

A compaction step (:mod:`~.compaction`) runs a few dozen array operations of a few
hundred elements per card, where numpy's cost per call, not the arithmetic, is most of
the time. :class:`WholeBatch` lays the :class:`~.whole_card.WholeCard` arrays of a
batch of cards end to end (their symbols, vertices, edges and rings numbered across the
batch), so the contact search (:func:`batch_contacts`) and the exact check of a step
(:func:`batch_check`) make each call once for every card of the batch.

Every value is computed by the same element-wise operations, on the same inputs, as
:func:`~.contacts.contacts`, :func:`~.contacts.kept` and :func:`~.compaction.apply_step` compute
it for one card, and every card's contacts come out in the same order, so each card's
linear programs and steps are the same to the bit as when it is compacted alone
(``tests/test_layout_batch.py``). The cards of a batch share their safe zone, gap and
free centre (one deck's cards do; :func:`shares_zone` tells). Lengths are mm, points
complex ``x + iy`` in card coordinates (origin at each card's centre, y up).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np

from printdeck.layout.packing.card_state import CardState
from printdeck.layout.packing.compaction import checked_poses, stepped
from printdeck.layout.packing.contacts import REACH_MM, Contacts, broken, edges_near, joined, rim_parts
from printdeck.layout.packing.symbol_geometry import lower_fields
from printdeck.layout.packing.whole_card import WholeCard, multipart, none_by

After = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]  # centres, angles, heights, outlines


def shares_zone(cards: Sequence[CardState]) -> bool:
    """Whether ``cards`` have one safe zone (the same sides, cuts and radius), gap and free
    centre, so they can be checked as one batch."""

    def key(card: CardState) -> tuple:
        return (*card.zone.key(), card.gap_mm, card.centre_free_mm)

    first = key(cards[0])
    return all(key(card) == first for card in cards[1:])


class WholeBatch(WholeCard):
    """The :class:`~.whole_card.WholeCard` arrays of several cards, end to end.

    Symbols, vertices, edges, rings and polygons are numbered across the batch (card 0's
    first); ``sym_first[k]`` is card k's first symbol, ``vertex_card`` the card of each
    vertex. The arrays mean what :class:`~.whole_card.WholeCard`'s of the same name mean,
    so its methods (placing vertices and hulls, building outlines, reading the lower
    fields) serve the batch as they serve one card.

    Args:
        cards: The cards (sharing their zone, see :func:`shares_zone`).
        wholes: Their :class:`~.whole_card.WholeCard`, in the same order.
    """

    def __init__(self, cards: Sequence[CardState], wholes: Sequence[WholeCard]) -> None:
        self.cards, self.wholes = list(cards), list(wholes)
        counts = np.array([c.n_symbols for c in cards])
        self.sym_first = np.concatenate([[0], np.cumsum(counts)])
        vfirst = np.concatenate([[0], np.cumsum([len(w.vertices_z) for w in wholes])])
        efirst = np.concatenate([[0], np.cumsum([len(w.edge_start) for w in wholes])])
        rfirst = np.concatenate([[0], np.cumsum([len(w._ring_poly) for w in wholes])])
        pfirst = np.concatenate([[0], np.cumsum([len(w._poly_owner) for w in wholes])])
        self.n_cards = len(cards)
        self.symbol_card = np.repeat(np.arange(len(cards)), counts)
        self.vertices_z = np.concatenate([w.vertices_z for w in wholes])
        self.owner = np.concatenate([w.owner + self.sym_first[k] for k, w in enumerate(wholes)])
        self.vertex_card = self.symbol_card[self.owner]
        self.hull_z = np.concatenate([w.hull_z for w in wholes])
        self.hull_owner = np.concatenate([w.hull_owner + self.sym_first[k] for k, w in enumerate(wholes)])
        self.edge_start = np.concatenate([w.edge_start + vfirst[k] for k, w in enumerate(wholes)])
        self.edge_first = np.concatenate([*(w.edge_first[:-1] + efirst[k] for k, w in enumerate(wholes)), efirst[-1:]])
        self._ring_ids = np.concatenate([w._ring_ids + rfirst[k] for k, w in enumerate(wholes)])
        self._ring_poly = np.concatenate([w._ring_poly + pfirst[k] for k, w in enumerate(wholes)])
        self._poly_owner = np.concatenate([w._poly_owner + self.sym_first[k] for k, w in enumerate(wholes)])
        self._single = np.concatenate([w._single for w in wholes])
        self._first_poly = np.concatenate([w._first_poly + pfirst[k] for k, w in enumerate(wholes)])
        self._multi, self._multi_owners, self._multi_group = multipart(self._single, self._poly_owner)
        self.pair_a = np.concatenate([w.pair_a + self.sym_first[k] for k, w in enumerate(wholes)])
        self.pair_b = np.concatenate([w.pair_b + self.sym_first[k] for k, w in enumerate(wholes)])
        self.radius_box = np.concatenate([w.radius_box for w in wholes])
        self.candidates = (
            np.concatenate([w.candidates[0] + self.sym_first[k] for k, w in enumerate(wholes)]),
            np.concatenate([w.candidates[1] + vfirst[k] for k, w in enumerate(wholes)]),
        )
        self._batch_fields()
        self._edge_cells([g.edge_cells for card in cards for g in card.geometry])

    def _batch_fields(self) -> None:
        """Every symbol's lower field in one atlas (see ``WholeCard._fields``)."""
        sils = [s for card in self.cards for s in card.problem.silhouettes]
        self.lower, start = lower_fields(sils)
        field_at = np.concatenate([w._field_at for w in self.wholes])
        field_at[:, 5] = start
        self._field_at = field_at

    def poses(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The cards' ``(centres (S, 2), angles (S,), heights (S,))`` now, symbol by symbol."""
        return (
            np.concatenate([c.centers_mm for c in self.cards]),
            np.concatenate([c.angles_rad for c in self.cards]),
            np.concatenate([c.heights_mm for c in self.cards]),
        )


def batch_contacts(batch: WholeBatch) -> list[Contacts]:
    """Each card's :func:`~.contacts.contacts` (default reach), found for the batch at once:
    the same contacts, in the same order, as for each card alone."""
    card0 = batch.cards[0]
    gap, reach = card0.gap_mm, REACH_MM
    centres_xy, angles, h = batch.poses()
    allz = batch.placed(centres_xy, angles, h)
    centre = centres_xy[:, 0] + 1j * centres_xy[:, 1]
    pair = edges_near(batch, allz, (centre, angles, h), gap + reach, *batch.candidates)
    bk = pair[1]
    rim, rim_vertex = rim_parts(card0, allz, batch.owner, reach)
    card = np.concatenate([batch.symbol_card[bk], batch.vertex_card[rim_vertex]])
    is_rim = np.concatenate([np.zeros(len(bk), dtype=int), np.ones(len(rim[0]), dtype=int)])
    order = np.argsort(2 * card + is_rim, kind="stable")
    a_all, b_all, p_all, q_all, n_all, dist_all, e0_all, e1_all = (np.concatenate(x)[order] for x in zip(pair, rim))
    card, is_rim = card[order], is_rim[order]
    sym0 = batch.sym_first[card]
    a_all = a_all.astype(int) - sym0
    b_all = np.where(is_rim == 1, b_all.astype(int), b_all.astype(int) - sym0)
    slack = dist_all - gap
    cut = np.searchsorted(card, np.arange(len(batch.cards) + 1))
    return [
        Contacts(
            a=a_all[s:e],
            b=b_all[s:e],
            p=p_all[s:e],
            q=q_all[s:e],
            normal=n_all[s:e],
            slack=slack[s:e],
            e0=e0_all[s:e],
            e1=e1_all[s:e],
        )
        for s, e in itertools.pairwise(cut)
    ]


def batch_check(
    batch: WholeBatch,
    steps: Sequence[np.ndarray],
    cons: Sequence[Contacts],
    turns: Sequence[tuple[np.ndarray, np.ndarray]],
) -> list[After | None]:
    """Each card after its step, checked exactly: what :func:`~.compaction.apply_step` gives for it
    when :func:`~.contacts.kept` holds, else None, for every card of the batch at once.

    Args:
        batch: The cards.
        steps: Per card ``(n, 4)``: each symbol's shift ``dx, dy`` mm, turn rad and growth.
        cons: Per card, its contacts the step was made for.
        turns: Per card, the ``(lo, hi)`` turn bounds of its step.

    Returns:
        Per card ``(centres (n, 2), angles (n,), heights (n,), outlines (n,))``, or None.
    """
    card0 = batch.cards[0]
    step = np.concatenate(steps)
    centres_xy, angles0, heights0 = batch.poses()
    bounds = (np.concatenate([t[0] for t in turns]), np.concatenate([t[1] for t in turns]))
    centres, angles, heights = stepped(centres_xy, angles0, heights0, step, bounds)
    ok, polys = checked_poses(card0, batch, centres, angles, heights)
    ok &= _kept(batch, step, cons, centres_xy)
    first = batch.sym_first
    return [
        (
            centres[first[k] : first[k + 1]],
            angles[first[k] : first[k + 1]],
            heights[first[k] : first[k + 1]],
            polys[first[k] : first[k + 1]],
        )
        if ok[k]
        else None
        for k in range(batch.n_cards)
    ]


def _kept(batch: WholeBatch, step: np.ndarray, cons: Sequence[Contacts], centres_xy: np.ndarray) -> np.ndarray:
    """``(n_cards,) bool``: :func:`~.contacts.kept` of each card's step, for the batch at once."""
    glob = joined(cons, batch.sym_first)[1]
    bad = broken(batch.cards[0], centres_xy[:, 0] + 1j * centres_xy[:, 1], step, glob)
    return none_by(bad, batch.symbol_card[glob.a], batch.n_cards)
