"""Deck sizes known at load time agree with the designs the build makes."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from printdeck.design import (
    BIPLANE_SIZES,
    deck_points,
    feasible_sizes,
    is_prime_power,
    make_design,
    sizes_for_symbols,
)


def _prime_power_brute(n: int) -> bool:
    primes = [p for p in range(2, n + 1) if all(p % d for d in range(2, p))]
    return any(p**e == n for p in primes for e in range(1, 20) if p**e <= n)


@given(st.integers(-5, 600))
def test_prime_power_check_matches_brute_force(n: int) -> None:
    assert is_prime_power(n) == (n >= 2 and _prime_power_brute(n))


@pytest.mark.parametrize("k", [k for k in feasible_sizes(1) if k <= 10])
def test_plane_sizes_match_the_design_stage(k: int) -> None:
    design = make_design(symbols_per_card=k)
    assert design.n_points == deck_points(k, 1) == len(design.blocks)


@pytest.mark.parametrize("k", [3, 4, 5, 6, 9])
def test_biplane_sizes_match_the_design_stage(k: int) -> None:
    design = make_design(symbols_per_card=k, match=2)
    assert design.n_points == deck_points(k, 2) == len(design.blocks)
    assert k in BIPLANE_SIZES


def test_sizes_message_from_the_issue() -> None:
    assert sizes_for_symbols(40) == "order 5, 31 cards of 6; 57 needed for 8 a card"
    assert sizes_for_symbols(5) == "too few for any deck; 7 needed for 3 a card"
    assert sizes_for_symbols(40, match=2) == "37 cards of 9; 56 needed for 11 a card"
