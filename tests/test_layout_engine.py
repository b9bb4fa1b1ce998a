"""The layout engine's promises: deterministic, complete, within limits, refusing clearly."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest
import shapely
from hypothesis import given, settings as hsettings, strategies as st
from test_layout_support import AWKWARD, deck_cards

from printdeck.artwork import silhouette
from printdeck.errors import PrintdeckError
from printdeck.layout import LayoutSettings, layout_deck
from printdeck.layout.card import min_gap
from printdeck.layout.packing import PackInput
from printdeck.layout.packing.card_state import CardState
from printdeck.layout.size_plan import SizeBalancer, ladder
from printdeck.layout.workers import job_count
from printdeck.theme import load_theme


@pytest.fixture(autouse=True)
def _no_layout_cache(monkeypatch):
    """Every test here packs for real (the layout cache has its own test)."""
    monkeypatch.setenv("PRINTDECK_NO_LAYOUT_CACHE", "1")


@pytest.fixture(scope="module")
def theme():
    return load_theme(None)


@pytest.fixture(scope="module")
def cards(theme):
    return deck_cards(theme.symbols, 7)[:4]


def _placed_outline(place, sil):
    th = math.radians(place.rotation_deg)
    h = place.box_mm[1]
    co, si = math.cos(th) * h, math.sin(th) * h
    return shapely.affinity.affine_transform(sil.outline, [co, -si, si, co, *place.center_mm])


def test_same_seed_same_layout_other_seed_differs(theme, cards) -> None:
    s = LayoutSettings.from_theme(theme)
    a = layout_deck(cards[:2], s, seed=3)
    assert a == layout_deck(cards[:2], s, seed=3)
    assert a[0].placements != layout_deck(cards[:2], s, seed=4)[0].placements


def test_layouts_complete_and_within_limits(theme, cards) -> None:
    s = LayoutSettings.from_theme(theme)
    calls: list[int] = []
    layouts = layout_deck(cards, s, seed=1, progress=calls.append)
    assert calls == [1] * len(cards)
    for lay, syms in zip(layouts, cards):
        assert [p.symbol_id for p in lay.placements] == [x.id for x in syms]  # nothing dropped or reordered
        outlines = [_placed_outline(p, silhouette(x)) for p, x in zip(lay.placements, syms)]
        i, j = np.triu_indices(len(outlines), 1)
        gaps = shapely.distance(np.array(outlines)[i], np.array(outlines)[j])
        assert gaps.min() >= s.gap_mm - 1e-6
        assert lay.min_gap_mm == pytest.approx(gaps.min(), abs=1e-6)
        radii = np.hypot(*shapely.get_coordinates(np.array(outlines)).T)
        assert radii.max() <= s.safe_radius_mm + 1e-6
        sizes = [p.box_mm[1] * math.sqrt(silhouette(x).area) for p, x in zip(lay.placements, syms)]
        assert lay.size_ratio == pytest.approx(min(sizes) / max(sizes))
        assert 0.8 * s.size_ratio <= lay.size_ratio <= 0.6
        assert lay.coverage == pytest.approx(sum(z * z for z in sizes) / (math.pi * s.safe_radius_mm**2))
        assert lay.coverage > 0.45


@pytest.mark.parametrize("rotation, limit", [("none", 0.0), (30.0, 30.0)])
def test_rotation_limits(theme, cards, rotation, limit) -> None:
    spec = theme.spec.model_copy(update={"layout": theme.spec.layout.model_copy(update={"rotation": rotation})})
    s = LayoutSettings.from_theme(dataclasses.replace(theme, spec=spec))
    assert s.max_rotation_deg == limit
    for lay in layout_deck(cards[:2], s, seed=2):
        for p in lay.placements:
            signed = (p.rotation_deg + 180.0) % 360.0 - 180.0
            assert abs(signed) <= limit + 1e-9


def test_symbol_rotate_false_and_scale(theme, cards) -> None:
    s = LayoutSettings.from_theme(theme)
    card = [dataclasses.replace(x, rotate=False) if k == 0 else x for k, x in enumerate(cards[0])]
    lay = layout_deck([card], s, seed=5)[0]
    assert lay.placements[0].rotation_deg == 0.0


def test_settings_from_theme(theme) -> None:
    s = LayoutSettings.from_theme(theme)
    assert s.safe_radius_mm == pytest.approx(85 / 2 - 3)
    assert s.max_rotation_deg is None and s.gap_mm == 1.0 and s.size_ratio == 0.5


def test_refuses_too_many_symbols_naming_card_and_setting(theme) -> None:
    s = dataclasses.replace(LayoutSettings.from_theme(theme), safe_radius_mm=12.0, gap_mm=3.0, attempts=40)
    card = list(theme.symbols[:30])
    with pytest.raises(PrintdeckError) as err:
        layout_deck([card], s, seed=1)
    msg = str(err.value)
    assert "card 1" in msg and theme.symbols[0].name in msg and "symbols_per_card" in msg and "\n" not in msg


def test_refuses_symbols_below_minimum_size(theme, cards) -> None:
    s = dataclasses.replace(LayoutSettings.from_theme(theme), min_size_mm=25.0)  # fits alone, not 8 a card
    with pytest.raises(PrintdeckError, match=r"card 1: symbol .* would be only .* mm"):
        layout_deck(cards[:1], s, seed=1)


def test_a_symbol_just_under_the_minimum_is_not_said_to_be_the_minimum(theme) -> None:
    """A 40 mm class-set card was refused with 'would be only 3.0 mm (...; minimum 3 mm)': the
    size rounded to one decimal read as the minimum it fell short of. It is now shown with
    as many decimals as it takes to read as less than the minimum."""
    from printdeck.layout.card import _check_min_size

    s = dataclasses.replace(LayoutSettings.from_theme(theme), min_size_mm=3.0)
    symbols = list(theme.symbols[:3])
    for size, said in ((2.96, "only 2.96 mm"), (2.9999, "only 2.999 mm"), (1.34, "only 1.3 mm")):
        with pytest.raises(PrintdeckError) as err:
            _check_min_size(0, symbols, np.array([10.0, size, 8.0]), s)
        assert said in str(err.value) and "minimum 3 mm" in str(err.value), str(err.value)


def test_ladder_shapes() -> None:
    s = LayoutSettings(safe_radius_mm=40, size_ratio=0.5)
    t = ladder(8, s)
    assert t[0] == 1.0 and t[-1] == pytest.approx(0.5) and np.all(np.diff(t) < 0)
    s2 = dataclasses.replace(s, sizes=(1.0, 0.6, 0.8))
    assert sorted(set(ladder(6, s2).round(6))) == [0.6, 0.8, 1.0]


def test_balancer_gives_big_slots_to_least_served() -> None:
    b = SizeBalancer(seed=0)
    b.record([1, 2, 3], np.array([30.0, 10.0, 20.0]))
    t = b.assign([1, 2, 3], np.array([1.0, 0.8, 0.6]))
    assert list(t) == [0.6, 1.0, 0.8]


def test_deck_sizes_balanced_on_awkward_theme() -> None:
    th = load_theme(str(AWKWARD))
    cards = deck_cards(th.symbols, 5)  # 31 cards of 6
    fast = dataclasses.replace(LayoutSettings.from_theme(th), retries=0, rounds=8)  # balance, not density
    layouts = layout_deck(cards, fast, seed=1)
    sizes: dict[int, list[float]] = {}
    for lay, syms in zip(layouts, cards):
        for p, x in zip(lay.placements, syms):
            sizes.setdefault(x.id, []).append(p.box_mm[1] * math.sqrt(silhouette(x).area))
    means = np.array([np.mean(v) for v in sizes.values()])
    assert np.all(np.abs(means / means.mean() - 1) <= 0.25)
    low, high = LayoutSettings.from_theme(th).ratio_bounds()
    assert (low, high) == (pytest.approx(0.4), 0.6)
    assert all(low <= lay.size_ratio <= high for lay in layouts)


@pytest.mark.parametrize(
    "ratio, sizes, bounds",
    [(0.5, None, (0.4, 0.6)), (0.3, None, (0.24, 0.6)), (0.8, None, (0.64, 1.0)), (0.5, (1.0, 0.7, 0.35), (0.28, 0.6))],
)
def test_ratio_bounds_rule(ratio, sizes, bounds) -> None:
    s = LayoutSettings(safe_radius_mm=40, size_ratio=ratio, sizes=sizes)
    assert s.ratio_bounds() == pytest.approx(bounds)


def test_big_size_ratio_is_honoured(theme, cards) -> None:
    # a junior deck: size_ratio 0.8 means symbols of nearly one size (up to 1.0 allowed)
    s = dataclasses.replace(LayoutSettings.from_theme(theme), size_ratio=0.8)
    for lay in layout_deck(cards[:2], s, seed=4):
        assert 0.64 <= lay.size_ratio <= 1.0


def test_parallel_equals_serial_and_reports_progress(theme) -> None:
    s = LayoutSettings.from_theme(theme)
    cards = deck_cards(theme.symbols, 7)[:10]
    calls: list[int] = []
    par = layout_deck(cards, s, seed=9, progress=calls.append, jobs=2)
    assert calls == [1] * 10
    assert [lay.index for lay in par] == list(range(10))
    assert par == layout_deck(cards, s, seed=9, jobs=1)


def test_parallel_failure_names_first_failing_card(theme) -> None:
    s = dataclasses.replace(LayoutSettings.from_theme(theme), min_size_mm=25.0, rounds=1)
    cards = deck_cards(theme.symbols, 7)[:10]
    with pytest.raises(PrintdeckError, match=r"^card 1: "):
        layout_deck(cards, s, seed=1, jobs=2)


def test_a_symbol_too_thin_even_alone_is_named(theme, cards) -> None:
    s = dataclasses.replace(LayoutSettings.from_theme(theme), min_size_mm=40.0)
    with pytest.raises(
        PrintdeckError, match=r"^symbols\.\d+ '.*' \(.*\): the image .* is too thin .* even alone on the card"
    ) as caught:
        layout_deck(cards[:1], s, seed=1)
    named = next(sym for sym in cards[0] if sym.source == caught.value.source)  # the picture, as a field
    assert caught.value.key == named.theme_key == "symbols.0" and "too thin" in caught.value.problem
    assert caught.value.fix == "crop it closer or give a rounder picture, or make card.diameter larger"


def test_job_count(monkeypatch) -> None:
    assert job_count(3, 100) == 3 and job_count(2, 8) == 1 and job_count(1, 100) == 1
    monkeypatch.setenv("PRINTDECK_JOBS", "1")
    assert job_count(None, 100) == 1
    monkeypatch.setenv("PRINTDECK_JOBS", "two")
    with pytest.raises(PrintdeckError, match="PRINTDECK_JOBS"):
        job_count(None, 100)


@hsettings(max_examples=60, deadline=None)
@given(cx=st.floats(-20, 20), cy=st.floats(-20, 20), ang=st.floats(0, 6.28), h=st.floats(1, 30))
def test_contain_factor_is_exact(theme, cx, cy, ang, h) -> None:
    sil = silhouette(theme.symbols[0])
    prob = PackInput(
        silhouettes=(sil,),
        targets=np.ones(1),
        rotatable=np.ones(1, bool),
        radius_mm=39.5,
        gap_mm=1.0,
        max_rotation_deg=None,
        attempts=1,
    )
    card = CardState(prob, np.random.default_rng(0))
    c = np.array([cx, cy])
    w = card.offsets(0, ang, h)
    f = card.contain_factor(c, w)
    assert np.hypot(*(c + f * w).T).max() == pytest.approx(39.5, rel=1e-9)


def test_layout_cache_returns_identical_cards(theme, monkeypatch, tmp_path) -> None:
    monkeypatch.delenv("PRINTDECK_NO_LAYOUT_CACHE")
    monkeypatch.setenv("PRINTDECK_CACHE_DIR", str(tmp_path))
    s = LayoutSettings.from_theme(theme)
    cards = deck_cards(theme.symbols, 7)[:3]
    first = layout_deck(cards, s, seed=2)
    entries = sorted((tmp_path / "layouts").glob("*.json"))
    assert len(entries) == 3
    assert layout_deck(cards, s, seed=2) == first  # read back exactly
    assert layout_deck(cards, s, seed=3) != first  # another seed is another key
    assert len(list((tmp_path / "layouts").glob("*.json"))) == 6
    entries[0].write_text("{broken")  # a damaged entry is recomputed
    assert layout_deck(cards, s, seed=2) == first


def test_falls_back_to_serial_when_processes_cannot_start(theme, monkeypatch) -> None:
    import concurrent.futures  # the workers import the pool where they start it

    def refuse(*args, **kwargs):
        raise OSError("no processes here")

    s = dataclasses.replace(LayoutSettings.from_theme(theme), rounds=4)
    cards = deck_cards(theme.symbols, 7)[:9]
    serial = layout_deck(cards, s, seed=6, jobs=1)
    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", refuse)
    assert layout_deck(cards, s, seed=6, jobs=2) == serial


def _every_pair_gap(outlines: list[shapely.Geometry]) -> float:
    """The smallest distance over every pair of outlines, measured one by one."""
    return min(float(shapely.distance(a, b)) for k, a in enumerate(outlines) for b in outlines[k + 1 :])


@given(st.integers(0, 2**32 - 1), st.integers(2, 13))
@hsettings(max_examples=300, deadline=None)
def test_min_gap_is_the_nearest_pair_exactly(seed: int, n: int) -> None:
    """min_gap measures only the pairs whose bounding boxes may be nearest: the same number,
    to the bit, as measuring every pair (touching and identical outlines included)."""
    rng = np.random.default_rng(seed)
    outlines: list[shapely.Geometry] = []
    for _ in range(n):
        if outlines and rng.random() < 0.1:  # a copy: distance 0
            outlines.append(outlines[-1])
            continue
        centre, radius = rng.uniform(-40, 40, 2), rng.uniform(1, 12)
        angles = np.sort(rng.uniform(0, 2 * np.pi, int(rng.integers(3, 30))))
        reach = radius * rng.uniform(0.3, 1.0, len(angles))
        ring = np.c_[centre[0] + reach * np.cos(angles), centre[1] + reach * np.sin(angles)]
        outlines.append(shapely.make_valid(shapely.Polygon(ring)))
    assert min_gap(outlines) == _every_pair_gap(outlines)


def test_min_gap_of_packed_cards_is_every_pair_s(theme, cards) -> None:
    """On packed cards' outlines (real silhouettes, neighbours at the gap), the same figure
    as every pair gives."""
    for lay, syms in zip(layout_deck(cards[:6], LayoutSettings.from_theme(theme), seed=5), cards):
        outlines = [_placed_outline(p, silhouette(x)) for p, x in zip(lay.placements, syms)]
        assert min_gap(outlines) == _every_pair_gap(outlines)


def test_a_retry_compacts_on_past_the_cards_step_budget(theme, cards, monkeypatch) -> None:
    """A card under ``retry_below`` is packed again compacting longer; once the compaction
    stopped a card whose step gained little (``compact_min_gain``), a retry stopped as early
    as the try it was to improve on. A retry now goes on while a step gains anything worth it."""
    import printdeck.layout.card as card_module

    asked: list[PackInput] = []
    packed = card_module.pack_card

    def recording(problem: PackInput, rng: np.random.Generator):  # type: ignore[no-untyped-def]
        asked.append(problem)
        return packed(problem, rng)

    monkeypatch.setattr(card_module, "pack_card", recording)
    s = dataclasses.replace(LayoutSettings.from_theme(theme), retry_below=1.0, retries=1)
    layout_deck(cards[:1], s, seed=3, jobs=1)
    (retry,) = asked
    assert retry.compact_steps == card_module.RETRY_STEPS * s.compact_steps
    assert retry.compact_min_gain == card_module.RETRY_MIN_GAIN < s.compact_min_gain
