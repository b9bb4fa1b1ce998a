"""verify_blocks against a pure-Python pairwise reference, on valid and broken decks."""

from __future__ import annotations

import itertools

import numpy as np
from hypothesis import given, settings, strategies as st

from printdeck.design.planes import singer_blocks
from printdeck.design.verify import (
    incidence_matrix,
    verify_blocks,
    verify_difference_set,
)


def reference_bad_pairs(blocks: list[list[int]], lam: int) -> list[tuple[int, int, int]]:
    sets = [set(b) for b in blocks]
    return [
        (i, j, len(sets[i] & sets[j]))
        for i, j in itertools.combinations(range(len(sets)), 2)
        if len(sets[i] & sets[j]) != lam
    ]


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.lists(st.integers(0, 12), min_size=1, max_size=6, unique=True), min_size=2, max_size=14),
    st.sampled_from([1, 2]),
)
def test_matches_pure_python_on_random_decks(blocks: list[list[int]], lam: int) -> None:
    rep = verify_blocks(blocks, lam)
    ref = reference_bad_pairs(blocks, lam)
    assert rep.bad_pair_count == len(ref)
    assert sorted(rep.bad_pairs) == ref
    assert rep.ok == (not ref)
    assert rep.frequencies.tolist() == np.bincount([p for b in blocks for p in b]).tolist()


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([2, 3, 4, 5, 7, 8]), st.data())
def test_any_single_symbol_change_breaks_a_plane(q: int, data: st.DataObject) -> None:
    blocks = singer_blocks(q).tolist()
    n = q * q + q + 1
    card = data.draw(st.integers(0, n - 1))
    slot = data.draw(st.integers(0, q))
    new = data.draw(st.integers(0, n - 1).filter(lambda p: p not in blocks[card]))
    blocks[card][slot] = new
    rep = verify_blocks(blocks, 1)
    assert not rep.ok
    assert rep.bad_pair_count == len(reference_bad_pairs(blocks, 1))


def test_duplicates_and_subsets() -> None:
    blocks = singer_blocks(3).tolist()
    assert verify_blocks(blocks[:5], 1).ok  # any subset of a plane is a deck
    blocks[2] = blocks[2] + [blocks[2][0]]
    rep = verify_blocks(blocks, 1)
    assert not rep.ok and rep.duplicate_cards == (2,)
    assert "card 3 lists a symbol twice" in rep.summary()


def test_summary_and_incidence() -> None:
    rep = verify_blocks([[0, 1], [1, 2], [0, 2]], 1)
    assert rep.ok and "OK: every two cards share exactly 1" in rep.summary()
    assert "symbol frequencies: 2x3" in rep.summary()
    assert incidence_matrix([[0, 1], [2]]).tolist() == [[True, True, False], [False, False, True]]


def test_difference_set_check() -> None:
    assert verify_difference_set((0, 1, 3), 7, 1)
    assert not verify_difference_set((0, 1, 2), 7, 1)
    assert verify_difference_set((1, 3, 4, 5, 9), 11, 2)


def test_empty_cards_and_empty_deck() -> None:
    rep = verify_blocks([[0, 1], [1, 2], []], 1)
    assert not rep.ok and rep.bad_pairs == ((0, 2, 0), (1, 2, 0))
    assert not verify_blocks([], 1).ok
    assert verify_blocks([[0, 1]], 1).ok


def test_corruption_found_in_a_large_deck() -> None:
    """Several column blocks and row chunks (q = 47: 2257 cards): a swapped symbol in a
    late card is found, with exactly the pairs a direct count gives."""
    blocks = singer_blocks(47).copy()
    card, other = 2200, 5
    blocks[card, 3] = next(p for p in blocks[other] if p not in blocks[card])
    blocks[card].sort()
    rep = verify_blocks(blocks, 1)
    sets = [set(b) for b in blocks.tolist()]
    expect = sorted(
        (min(card, j), max(card, j), len(sets[card] & sets[j]))
        for j in range(len(sets))
        if j != card and len(sets[card] & sets[j]) != 1
    )
    assert not rep.ok and sorted(rep.bad_pairs) == expect and rep.bad_pair_count == len(expect)


def test_the_summary_counts_cards_as_printed_and_names_a_few_pairs() -> None:
    blocks = singer_blocks(5).tolist()  # 31 cards of 6
    for k in range(1, 31):
        blocks[k] = list(blocks[0])  # every card a copy of the first: hundreds of bad pairs
    rep = verify_blocks(blocks, 1)
    text = rep.summary()
    assert "  cards 1 and 2 share 6 symbols" in text and "cards 0 and" not in text
    named = [line for line in text.splitlines() if line.startswith("  cards ")]
    assert len(named) == 20 and f"  ... and {rep.bad_pair_count - 20} more" in text
