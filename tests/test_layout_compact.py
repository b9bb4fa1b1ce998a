"""Collective compaction (printdeck.layout.packing.compaction): valid, growing, exact in its contacts."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest
import shapely
from hypothesis import given, settings as hsettings, strategies as st
from test_layout_support import AWKWARD, deck_cards

from printdeck.artwork import silhouette
from printdeck.layout import LayoutSettings
from printdeck.layout.packing import PackInput, pack_card
from printdeck.layout.packing.card_state import CardState
from printdeck.layout.packing.compaction import compact
from printdeck.layout.packing.contacts import contacts
from printdeck.layout.packing.safe_zone import RIM_POLYGON
from printdeck.layout.size_plan import ladder
from printdeck.theme import load_theme


@pytest.fixture(scope="module")
def awkward():
    return load_theme(str(AWKWARD))


def _problem(theme, card, **kw) -> PackInput:
    s = LayoutSettings.from_theme(theme)
    low, high = s.ratio_bounds()
    sils = tuple(silhouette(x) for x in card)
    return PackInput(
        silhouettes=sils,
        targets=ladder(len(card), s),
        rotatable=np.ones(len(card), bool),
        radius_mm=s.safe_radius_mm,
        gap_mm=s.gap_mm,
        max_rotation_deg=s.max_rotation_deg,
        attempts=s.attempts,
        rounds=s.rounds,
        ratio_low=low,
        ratio_high=high,
        **kw,
    )


def _state(prob: PackInput, packed) -> CardState:
    card = CardState(prob, np.random.default_rng(0))
    for i in range(card.n_symbols):
        card.put(
            i,
            packed.centers_mm[i],
            math.radians(float(packed.angles_deg[i])),
            float(packed.heights_mm[i]),
            packed.outlines[i],
        )
    return card


def _valid(card: CardState) -> bool:
    """No two outlines within the gap, every vertex inside the safe disc (plain shapely)."""
    arr = np.array(list(card.outlines_mm))
    i, j = np.triu_indices(len(arr), 1)
    far = shapely.distance(arr[i], arr[j]).min() >= card.gap_mm - 1e-6
    return bool(far and np.hypot(*shapely.get_coordinates(arr).T).max() <= card.radius_mm + 1e-6)


@pytest.fixture(scope="module")
def jammed(awkward):
    """Awkward cards after the start and the rounds, before any compaction."""
    out = []
    for k, card in enumerate(deck_cards(awkward.symbols, 7)[:6]):
        prob = _problem(awkward, card, compact_steps=0)
        out.append((prob, pack_card(prob, np.random.default_rng([5, k]))))
    return out


def test_compaction_stays_valid_keeps_ratio_and_adds_ink(jammed) -> None:
    gained = []
    for prob, packed in jammed:
        card = _state(prob, packed)
        ink0 = np.sum((card.heights_mm * card.ink_side_box) ** 2)
        ratio0 = (card.heights_mm * card.ink_side_box).min() / (card.heights_mm * card.ink_side_box).max()
        steps = compact(card, 6)
        assert 1 <= steps <= 6
        assert _valid(card)
        sizes = card.heights_mm * card.ink_side_box
        ratio = sizes.min() / sizes.max()
        assert ratio >= min(prob.ratio_low, ratio0) - 1e-9 and ratio <= max(prob.ratio_high, ratio0) + 1e-9
        gained.append(np.sum(sizes**2) / ink0 - 1)
    assert min(gained) >= 0.0  # no card loses ink (none of these starts under its ratio floor)
    assert np.mean(gained) > 0.02  # jammed cards are far from full: moving all at once finds room


def test_compaction_is_deterministic(jammed) -> None:
    prob, packed = jammed[0]
    a, b = _state(prob, packed), _state(prob, packed)
    compact(a, 4)
    compact(b, 4)
    assert np.array_equal(a.centers_mm, b.centers_mm) and np.array_equal(a.heights_mm, b.heights_mm)
    assert np.array_equal(a.angles_rad, b.angles_rad)


def test_compaction_keeps_rotation_limits(awkward) -> None:
    card = deck_cards(awkward.symbols, 7)[2]
    prob = dataclasses.replace(
        _problem(awkward, card, compact_steps=0), max_rotation_deg=20.0, rotatable=np.arange(8) != 0
    )
    state = _state(prob, pack_card(prob, np.random.default_rng(3)))
    compact(state, 5)
    assert state.angles_rad[0] == 0.0
    assert np.all(np.abs(state.angles_rad) <= math.radians(20.0) + 1e-12)


@hsettings(max_examples=25, deadline=None)
@given(k=st.integers(0, 5))
def test_contacts_find_each_pairs_true_distance(jammed, k) -> None:
    """Two outlines are nearest at a vertex of one, so the closest contact of every pair
    (within reach) is their exact distance; a rim contact is the chord across its vertex's
    direction at the inscribed polygon's apothem."""
    prob, packed = jammed[k]
    card = _state(prob, packed)
    con = contacts(card)
    for a in range(card.n_symbols):
        for b in range(a + 1, card.n_symbols):
            d = float(shapely.distance(card.outlines_mm[a], card.outlines_mm[b]))
            mine = (con.b >= 0) & (((con.a == a) & (con.b == b)) | ((con.a == b) & (con.b == a)))
            if d < card.gap_mm + 2.0:
                assert con.slack[mine].min() + card.gap_mm == pytest.approx(d, abs=1e-9)
            else:
                assert not mine.any() or con.slack[mine].min() + card.gap_mm >= d - 1e-9
    rim = con.b < 0
    apothem = card.radius_mm * math.cos(math.pi / RIM_POLYGON)
    assert np.allclose(con.slack[rim], apothem + (np.conj(con.normal[rim]) * con.p[rim]).real)


def test_solver_prints_nothing(capfd) -> None:
    import printdeck.layout.packing.lp_solve as K

    K._LOCAL.__dict__.pop("solver", None)  # this thread's solver made afresh
    cost = np.array([-1.0, -1.0])
    x = K.solve(cost, np.ones((1, 2)), np.array([1.0]), np.array([[0.0, 1.0], [0.0, np.inf]]))
    assert x is not None and x.sum() == pytest.approx(1.0)
    out, err = capfd.readouterr()
    assert out == "" and err == ""
    assert K.solve(cost, np.ones((1, 2)), np.array([-1.0]), np.array([[0.0, 1.0], [0.0, 1.0]])) is None


def test_only_symbols_ahead_of_their_slots_may_shrink(jammed) -> None:
    """A symbol bigger, beside the card's others, than its planned slot may shrink in a
    step; the others may only grow (so the deck's size balance holds)."""
    from printdeck.layout.packing.compaction import GROWTH, program
    from printdeck.layout.packing.contacts import contacts as find

    prob, packed = jammed[1]
    card = _state(prob, packed)
    _, _, _, bounds = program(card, find(card))
    planned = prob.targets * card.ink_side_box / card.sizing_side_box
    size = card.heights_mm * card.ink_side_box
    ahead = size / size.mean() > planned / planned.mean()
    assert ahead.any() and (~ahead).any()
    assert np.array_equal(bounds[3:-1:4, 0], np.where(ahead, -GROWTH, 0.0))
    assert np.all(bounds[3:-1:4, 1] == GROWTH)
