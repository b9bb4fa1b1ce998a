"""Balancing which symbol sits on which point: a relabelling that lifts the weakest cards."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import assume, given, settings as hsettings, strategies as st
from test_layout_support import AWKWARD, prime_plane

from printdeck.artwork import silhouette
from printdeck.assign import assign_symbols, balance as balance_module, deck_symbols
from printdeck.assign.balance import (
    TEMPERATURE,
    balance_points,
    balance_symbols,
    card_weights,
    shared_cards,
    solidity,
    swap_changes,
    swap_changes_many,
)
from printdeck.design import make_design, verify_blocks
from printdeck.theme import load_theme

ORDERS = st.sampled_from([2, 3, 5])
"""Plane orders the properties are tried on (up to 31 points)."""
SCORES = st.lists(st.floats(0.05, 1.0), min_size=31, max_size=31)
"""A score for each point of the largest of them."""


def _card_scores(blocks, scores) -> np.ndarray:
    return np.array([np.mean([scores[p] for p in b]) for b in blocks])


@hsettings(max_examples=30, deadline=None)
@given(q=ORDERS, trim=st.integers(0, 4), scores=SCORES)
def test_balance_is_a_permutation_that_never_lowers_the_worst_card(q, trim, scores) -> None:
    blocks = prime_plane(q)
    blocks = blocks[: len(blocks) - trim] if trim < len(blocks) - 1 else blocks
    n = q * q + q + 1
    s = np.array(scores[:n])
    perm = balance_points(blocks, s)
    assert sorted(perm.tolist()) == list(range(n))
    before, after = _card_scores(blocks, s), _card_scores(blocks, s[perm])
    assert after.min() >= before.min() - 1e-12
    assert np.sum(np.exp(-after / 0.02)) <= np.sum(np.exp(-before / 0.02)) * (1 + 1e-9)


@hsettings(max_examples=30, deadline=None)
@given(
    q=ORDERS,
    trim=st.integers(0, 5),
    p=st.integers(0, 30),
    scores=SCORES,
)
def test_swap_changes_match_recomputing_the_penalty(q, trim, p, scores) -> None:
    blocks = prime_plane(q)[: q * q + q + 1 - min(trim, q * q)]
    n, k = q * q + q + 1, q + 1
    p = p % n
    s = np.array(scores[:n])
    member = np.zeros((len(blocks), n), dtype=bool)
    for c, block in enumerate(blocks):
        member[c, block] = True
    e = card_weights(member, s, k)
    scale = float(np.exp(-_card_scores(blocks, s).min() / TEMPERATURE))  # card_weights' factor
    delta = swap_changes(member, s, k, p, e)
    before = np.exp(-_card_scores(blocks, s) / TEMPERATURE).sum()
    for other in range(n):
        if other == p:
            assert delta[other] == np.inf
            continue
        t = s.copy()
        t[[p, other]] = t[[other, p]]
        after = np.exp(-_card_scores(blocks, t) / TEMPERATURE).sum()
        assert np.isclose(delta[other] * scale, after - before, rtol=1e-6, atol=1e-9 * before)  # cancellation noise


def _one_point_changes(member, s, k, p, e) -> np.ndarray:
    """The penalty changes of moving point p, one point at a time, as printdeck scored them
    before points were scored together: the reference the batch must equal to the bit."""
    through_p = member[:, p]
    shared = (member[through_p] * e[through_p, None]).sum(axis=0)
    d = (s - s[p]) / (k * TEMPERATURE)
    delta = np.expm1(-d) * (e[through_p].sum() - shared) + np.expm1(d) * (e @ member - shared)
    delta[p] = np.inf
    return delta


def _trimmed_plane(q: int, trim: int, scores: list[float]) -> tuple[np.ndarray, np.ndarray, int]:
    """The plane of order q less its last ``trim`` lines (at most q²): its ``(cards, points)``
    incidence matrix, the points' scores, and k = q + 1."""
    n = q * q + q + 1
    blocks = prime_plane(q)[: n - min(trim, q * q)]
    member = np.zeros((len(blocks), n), dtype=bool)
    for c, block in enumerate(blocks):
        member[c, block] = True
    return member, np.array(scores[:n]), q + 1


@hsettings(max_examples=30, deadline=None)
@given(
    q=ORDERS,
    trim=st.integers(0, 5),
    chunk=st.sampled_from([1, 40, 1 << 20]),
    scores=SCORES,
)
def test_many_points_score_as_each_alone_to_the_bit(q, trim, chunk, scores) -> None:
    # a trimmed plane has points on q + 1 cards and points on fewer: scored in groups, in chunks
    member, s, k = _trimmed_plane(q, trim, scores)
    n = member.shape[1]
    e = card_weights(member, s, k)
    points = np.arange(n)[::-1]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(balance_module, "CHUNK_ELEMENTS", chunk)
        many = swap_changes_many(member, s, k, points, e)
    for row, p in zip(many, points):
        assert np.array_equal(row, _one_point_changes(member, s, k, int(p), e))
        assert np.array_equal(swap_changes(member, s, k, int(p), e), row)


@hsettings(max_examples=30, deadline=None)
@given(q=ORDERS, trim=st.integers(0, 5), scores=SCORES)
def test_shared_cards_looked_up_score_as_summed_to_the_bit(q, trim, scores) -> None:
    # a plane's two points share at most one card: its term is looked up, not summed
    member, s, k = _trimmed_plane(q, trim, scores)
    n = member.shape[1]
    common = shared_cards(member, k)
    assert common is not None
    e = card_weights(member, s, k)
    points = np.arange(n)
    looked_up = swap_changes_many(member, s, k, points, e, None, common)
    assert np.array_equal(looked_up, swap_changes_many(member, s, k, points, e))


def test_shared_cards_refuses_points_on_two_cards_and_balance_still_sums() -> None:
    blocks = [[0, 1, 2], [0, 1, 3], [2, 3, 4], [1, 4, 5], [0, 5, 2]]  # points 0 and 1 share two cards
    member = np.zeros((5, 6), dtype=bool)
    for c, block in enumerate(blocks):
        member[c, block] = True
    assert shared_cards(member, 3) is None
    perm = balance_points(blocks, np.array([0.9, 0.2, 0.3, 0.8, 0.25, 0.7]))
    assert sorted(perm.tolist()) == list(range(6))


def test_balanced_deck_keeps_one_shared_symbol_and_every_symbol() -> None:
    theme = load_theme(None)
    design = make_design(order=7, cards=55)
    plain = assign_symbols(theme, design.n_points, theme.spec.seed)
    balanced = deck_symbols(theme, design, theme.spec.seed)
    assert [s.id for s in balanced] == list(range(design.n_points))
    assert sorted(s.source for s in balanced) == sorted(s.source for s in plain)  # none dropped or doubled
    cards = [[balanced[p] for p in block] for block in design.blocks]
    for a, b in itertools.combinations(cards, 2):
        assert len({s.source for s in a} & {s.source for s in b}) == 1
    assert verify_blocks(design.blocks, design.lam).ok
    assert deck_symbols(theme, design, theme.spec.seed) == balanced  # deterministic


def test_balance_lifts_the_least_solid_card_of_the_awkward_theme() -> None:
    theme = load_theme(str(AWKWARD))
    design = make_design(order=7)
    plain = assign_symbols(theme, design.n_points, theme.spec.seed)
    balanced = balance_symbols(design.blocks, plain)
    score = {s.source: solidity(silhouette(s)) for s in plain}
    before = _card_scores(design.blocks, [score[s.source] for s in plain])
    after = _card_scores(design.blocks, [score[s.source] for s in balanced])
    assert after.min() > before.min() + 0.05
    assert np.isclose(after.mean(), before.mean())


def test_solidity_of_simple_shapes() -> None:
    theme = load_theme(str(AWKWARD))
    by_name = {s.name: solidity(silhouette(s)) for s in theme.symbols}
    assert by_name["bar 0"] > 0.9  # a filled rectangle is its own hull
    assert min(v for k, v in by_name.items() if k.startswith("ring")) < 0.5
    assert all(0 < v <= 1 for v in by_name.values())


@hsettings(max_examples=30, deadline=None)
@given(q=ORDERS, kept=st.integers(1, 6), scores=SCORES)
def test_a_point_on_no_card_keeps_its_symbol(q, kept, scores) -> None:
    """A deck trimmed until some points are on no card: balancing never moves a symbol onto
    or off those points, so the symbols a deck leaves out are the assignment's (what
    ``printdeck check`` names) whatever the artwork; the points on cards are still balanced."""
    blocks = prime_plane(q)[:kept]
    n = q * q + q + 1
    off = sorted(set(range(n)) - {p for b in blocks for p in b})
    assume(off)  # the trim leaves points on no card
    s = np.array(scores[:n])
    s[off] = 1.0  # the most solid artwork: the old balance pulled it onto the weakest card
    perm = balance_points(blocks, s)
    assert perm[off].tolist() == off
    before, after = _card_scores(blocks, s), _card_scores(blocks, s[perm])
    assert after.min() >= before.min() - 1e-12
