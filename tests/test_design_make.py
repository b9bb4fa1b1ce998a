"""make_design: planes, refusals with reasons, trimming, searched decks."""

from __future__ import annotations

import itertools
import pickle
import time

import numpy as np
import pytest

from printdeck.design import Design, DesignRequestError, NoDesign, Spelling, make_design
from printdeck.design.search import (
    extend_greedy,
    macneish_mols,
    net_deck,
    padded_plane_deck,
    search_deck,
)
from printdeck.design.trim import trim_order
from printdeck.errors import PrintdeckError


def pairwise_ok(blocks: tuple[tuple[int, ...], ...] | list, lam: int = 1) -> bool:
    sets = [set(b) for b in blocks]
    return all(len(a & b) == lam for a, b in itertools.combinations(sets, 2))


def test_default_dobble() -> None:
    d = make_design(symbols_per_card=8, cards=55)
    assert isinstance(d, Design)
    assert (d.order, d.lam, d.n_points, len(d.blocks), d.full_cards) == (7, 1, 57, 55, 57)
    assert d.incidence.shape == (55, 57) and d.incidence.sum() == 55 * 8
    assert all(list(b) == sorted(b) for b in d.blocks)
    assert pairwise_ok(d.blocks)
    freq = np.bincount(np.concatenate(d.blocks), minlength=57)
    assert sorted(np.unique(freq, return_counts=True)[1].tolist()) == [1, 14, 42]  # 6x1, 7x14, 8x42
    assert "PG(2,7)" in d.construction and "trimmed to 55 of 57" in d.construction


def test_order_and_k_agree() -> None:
    assert make_design(order=4).blocks == make_design(symbols_per_card=5).blocks
    with pytest.raises(PrintdeckError, match="give only one"):
        make_design(order=4, symbols_per_card=6)
    with pytest.raises(PrintdeckError, match="symbols_per_card"):
        make_design()


def test_q7_is_fast_in_process() -> None:
    make_design(order=7)
    t = time.perf_counter()
    for _ in range(200):
        make_design(order=7)
    assert (time.perf_counter() - t) / 200 < 1e-3


@pytest.mark.parametrize(
    "k, reason",
    [
        (7, "Bruck–Ryser theorem 1949"),
        (11, "Lam, Thiel & Swiercz 1989"),
        (13, "open problem"),
        (15, "Bruck–Ryser"),
        (16, "open problem"),
    ],
)
def test_no_plane_is_refused_with_reason_and_neighbours(k: int, reason: str) -> None:
    with pytest.raises(PrintdeckError, match=reason) as exc:
        make_design(symbols_per_card=k)
    msg = str(exc.value)
    assert "\n" not in msg and "search" in msg
    near = {
        7: ("6 (order 5", "8 (order 7"),
        11: ("10 (order 9", "12 (order 11"),
        13: ("12 (order 11", "14 (order 13"),
        15: ("14 (order 13", "17 (order 16"),
        16: ("14 (order 13", "17 (order 16"),
    }[k]
    assert all(n in msg for n in near)


def test_too_many_cards_refused() -> None:
    with pytest.raises(PrintdeckError, match="at most 57"):
        make_design(order=7, cards=58)


@pytest.mark.parametrize("q, cards", [(3, 5), (4, 10), (7, 30), (8, 70)])
def test_trim_keeps_frequencies_even(q: int, cards: int) -> None:
    d = make_design(order=q, cards=cards)
    assert len(d.blocks) == cards and pairwise_ok(d.blocks)
    freq = np.bincount(np.concatenate(d.blocks), minlength=d.n_points)
    assert freq.sum() == cards * (q + 1)
    # never worse than one symbol above the even share
    assert freq.max() <= -(-cards * (q + 1) // d.n_points) + 1


def test_trim_rule_details() -> None:
    blocks = np.array(make_design(order=2).blocks)
    kept = trim_order(blocks, 7, 5)
    assert kept.tolist() == [2, 3, 4, 5, 6]  # ties go to the lowest index: cards 0, 1 removed
    assert trim_order(blocks, 7, 7).tolist() == list(range(7))


def test_drop_unused_renumbers() -> None:
    d = make_design(order=7, cards=3, drop_unused=True)
    used = sorted({p for b in d.blocks for p in b})
    assert used == list(range(d.n_points)) and d.n_points == 3 * 8 - 3
    assert pairwise_ok(d.blocks) and "unused symbols dropped" in d.construction


def test_order_6_net_gives_23_cards_fast_without_ortools() -> None:
    t = time.perf_counter()
    cards = net_deck(6)
    assert time.perf_counter() - t < 1.0
    assert len(cards) == 23 and all(len(c) == 7 for c in cards)
    assert pairwise_ok(cards)
    assert len({p for c in cards for p in c}) == 43


@pytest.mark.parametrize("n", [10, 12, 14, 15])
def test_macneish_nets_are_valid(n: int) -> None:
    squares = macneish_mols(n)
    for a, b in itertools.combinations(squares, 2):  # orthogonal: all n^2 pairs occur
        assert len({(a[r][c], b[r][c]) for r in range(n) for c in range(n)}) == n * n
    cards = net_deck(n)
    assert len(cards) == (len(squares) + 2) * n + 1 and pairwise_ok(cards)
    assert all(len(c) == n + 1 for c in cards)


def test_padded_plane_and_greedy_extension() -> None:
    cards = padded_plane_deck(6)
    assert len(cards) == 31 and pairwise_ok(cards) and all(len(c) == 7 for c in cards)
    # a plane minus one line is extended back to a full plane by the exact-cover step
    plane = [tuple(b) for b in make_design(order=3).blocks]
    grown = extend_greedy(plane[:-1], 4)
    assert len(grown) == 13 and pairwise_ok(grown)


def test_search_design(monkeypatch: pytest.MonkeyPatch) -> None:
    from printdeck.design import search

    monkeypatch.setattr(search, "_cp_sat_extend", lambda core, k, work, cap, slots: (list(core), False))
    t = time.perf_counter()
    d = make_design(symbols_per_card=7, search=True, time_limit_s=5)
    assert time.perf_counter() - t < 1.0
    assert d.order is None and len(d.blocks) >= 23 and all(len(b) == 7 for b in d.blocks)
    assert pairwise_ok(d.blocks)
    assert f"{len(d.blocks)} cards, {d.n_points} symbols" in d.construction
    d = make_design(symbols_per_card=11, search=True, cards=40, time_limit_s=1)
    assert len(d.blocks) == 40 and pairwise_ok(d.blocks)


def test_cp_sat_grows_the_order_6_net() -> None:
    pytest.importorskip("ortools")
    from printdeck.design.cpsat import extend_with_cp_sat

    core = net_deck(6)[:18]
    cards, capped = extend_with_cp_sat(core, 7, 1.0, 30.0, slots=3, fresh=3)
    assert not capped and len(cards) == 21 and pairwise_ok(cards) and all(len(c) == 7 for c in cards)


def test_search_deck_reports_counts() -> None:
    cards, how = search_deck(7, time_limit_s=0.1)
    assert f"{len(cards)} cards" in how and pairwise_ok(cards)


def naive_trim(blocks: np.ndarray, v: int, cards: int) -> list[int]:
    """The documented rule, recomputed from scratch at every step."""
    alive = list(range(len(blocks)))
    while len(alive) > cards:

        def key(c: int) -> tuple[int, int, int]:
            rest = [blocks[i] for i in alive if i != c]
            freq = np.bincount(np.concatenate(rest), minlength=v)
            return int(freq.max()), int((freq**2).sum()), c

        alive.remove(min(alive, key=key))
    return alive


@pytest.mark.parametrize("q, cards", [(2, 3), (3, 7), (4, 9), (5, 17)])
def test_trim_matches_the_documented_rule(q: int, cards: int) -> None:
    blocks = np.array(make_design(order=q).blocks)
    v = q * q + q + 1
    assert trim_order(blocks, v, cards).tolist() == naive_trim(blocks, v, cards)


def test_trim_large_deck_is_fast() -> None:
    blocks = np.array(make_design(order=31).blocks)
    t = time.perf_counter()
    kept = trim_order(blocks, 993, 400)
    assert time.perf_counter() - t < 2.0 and len(kept) == 400


def test_refusal_names_the_key_given() -> None:
    with pytest.raises(NoDesign, match=r"^order=6: 7 symbols a card needs a projective plane of order 6") as plane:
        make_design(order=6)
    assert (plane.value.symbols_per_card, plane.value.match, plane.value.argument) == (7, 1, "order")
    assert [k for k, _ in plane.value.nearest] == [6, 8] and "Bruck–Ryser" in plane.value.reason
    with pytest.raises(NoDesign, match=r"^order=6: no biplane with 8 symbols") as biplane:
        make_design(order=6, match=2)
    assert "with match=2 use 6 or 9 symbols a card" in str(biplane.value)
    with pytest.raises(NoDesign, match=r"^symbols_per_card=7: .*or pass search=True"):
        make_design(symbols_per_card=7)


THEME = Spelling(label="deck.{name}", setting="{name}: {value}", switch_on="set {name}: true")
CLI = Spelling(
    names={"symbols_per_card": "-k", "order": "--order", "match": "--match", "search": "--search", "cards": "--cards"},
    label="{name} {value}",
    setting="{name} {value}",
    switch_on="add {name}",
)


@pytest.mark.parametrize(
    "kwargs, theme, cli",
    [
        ({"symbols_per_card": 7}, "deck.symbols_per_card: 7 symbols a card needs", "-k 7: 7 symbols a card needs"),
        ({"order": 6, "match": 2}, "deck.order: no biplane with 8", "--order 6: no biplane with 8"),
        ({"order": 1}, "deck.order: 1 is too small; use at least 2", "--order 1: 1 is too small; use at least 2"),
        (
            {"order": 3, "symbols_per_card": 5},
            "deck.order: order 3 means 4 symbols a card with match 1, but symbols_per_card is 5",
            "--order 3: order 3 means 4 symbols a card with match 1, but -k is 5",
        ),
        ({"match": 3, "order": 3}, "deck.match: 3 is not supported", "--match 3: 3 is not supported"),
        ({}, "give symbols_per_card (e.g. 8) or order (e.g. 7)", "give -k (e.g. 8) or --order (e.g. 7)"),
        ({"order": 2, "cards": 8}, "deck.cards: 8 is more than the 7 cards", "--cards 8: 8 is more than the 7 cards"),
    ],
)
def test_refusals_are_worded_by_the_caller(kwargs: dict, theme: str, cli: str) -> None:
    with pytest.raises(DesignRequestError) as caught:
        make_design(**kwargs)
    assert caught.value.worded(THEME).startswith(theme) and caught.value.worded(CLI).startswith(cli)
    assert "deck." not in str(caught.value) and "--" not in str(caught.value)
    assert pickle.loads(pickle.dumps(caught.value)).worded(CLI) == caught.value.worded(CLI)


def test_plane_refusal_offers_the_search_in_the_callers_words() -> None:
    with pytest.raises(NoDesign) as caught:
        make_design(symbols_per_card=7)
    assert caught.value.worded(THEME).endswith("or set search: true for the largest partial deck printdeck can build")
    assert "or add --search for the largest" in caught.value.worded(CLI)
