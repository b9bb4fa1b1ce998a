"""Distance fields bound distances from above, so the placement's cuts never drop a pose that fits."""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely
from hypothesis import given, settings as hsettings, strategies as st
from test_layout_support import AWKWARD

from printdeck.artwork import silhouette
from printdeck.layout.packing import PackInput
from printdeck.layout.packing.card_field import CardField
from printdeck.layout.packing.card_state import CardState
from printdeck.layout.packing.first_placement import poses
from printdeck.layout.packing.whole_card import WholeCard
from printdeck.theme import load_theme

NAMES = ("ring 0", "ring 11", "bar 9", "ell 2", "crescent 4", "diagonal 3", "Mississippi", "kangaroo")


@pytest.fixture(scope="module")
def sils():
    by_name = {s.name: s for s in load_theme(str(AWKWARD)).symbols}
    default = load_theme(None).symbols[:4]
    return [silhouette(by_name[n]) for n in NAMES] + [silhouette(s) for s in default]


@hsettings(max_examples=60, deadline=None)
@given(k=st.integers(0, 11), seed=st.integers(0, 2**32 - 1))
def test_shape_field_bounds_the_distance_from_above(sils, k, seed) -> None:
    sil = sils[k]
    f = sil.field
    rng = np.random.default_rng(seed)
    ny, nx = f.bound.shape
    z = f.origin + f.step * (rng.uniform(0, nx - 1, 400) + 1j * rng.uniform(0, ny - 1, 400))
    node = np.rint((z - f.origin).real / f.step).astype(int), np.rint((z - f.origin).imag / f.step).astype(int)
    true = shapely.distance(shapely.points(z.real, z.imag), sil.outline)
    assert (f.bound[node[1], node[0]] >= true - 1e-9).all()
    assert (f.bound[node[1], node[0]] <= true + 3 * f.step).all()  # and not by much


def test_inner_discs_lie_inside_their_outline(sils) -> None:
    for sil in sils:
        f = sil.field
        assert len(f.disc_radii) >= 1 and f.disc_radii[0] > 0
        discs = shapely.buffer(shapely.points(f.disc_centres.real, f.disc_centres.imag), f.disc_radii * 0.999)
        assert shapely.contains(sil.outline, discs).all()


def _card(sils, rng, placed: int) -> tuple[CardState, CardField]:
    prob = PackInput(
        silhouettes=tuple(sils),
        targets=np.ones(len(sils)),
        rotatable=np.ones(len(sils), bool),
        radius_mm=39.5,
        gap_mm=1.0,
        max_rotation_deg=None,
        attempts=1,
    )
    card = CardState(prob, rng)
    field = CardField(card.radius_mm)
    for j in range(placed):  # some symbols, anywhere valid
        for _ in range(60):
            c, th, h = rng.uniform(-30, 30, 2), rng.uniform(0, 2 * math.pi), rng.uniform(8, 25)
            g = card.valid(j, c, th, h)
            if g is not None:
                card.put(j, c, th, h, g)
                field.add(card.shape_fields[j], complex(*c), th, h, card.radius_box[j] * h + 20.0)
                break
    return card, field


@hsettings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), k=st.integers(0, 11), h=st.floats(4, 30))
def test_card_field_cuts_never_drop_a_pose_that_fits(sils, seed, k, h) -> None:
    """Poles and inner discs the field puts too near placed ink belong to poses the exact
    test refuses too; and the field does cut."""
    rng = np.random.default_rng(seed)
    order = list(rng.permutation(len(sils)))
    order.remove(k)
    card, field = _card([sils[j] for j in order[:5]] + [sils[k]], rng, placed=5)
    i = card.n_symbols - 1
    cs, ths = rng.uniform(-40, 40, (400, 2)), rng.uniform(0, 2 * math.pi, 400)
    f = card.shape_fields[i]
    at = (cs[:, 0] + 1j * cs[:, 1])[:, None] + (h * np.exp(1j * ths))[:, None] * f.disc_centres
    cut = field.near(at, h * f.disc_radii + card.gap_mm).any(axis=1)
    valid, _ = card.valid_poses(i, cs, ths, h)
    assert not cut[valid].any()
    near = shapely.distance(shapely.points(at.real.ravel(), at.imag.ravel()), card.placed_union(without=i))
    flagged = field.near(at, h * f.disc_radii + card.gap_mm).ravel()
    assert (near[flagged] < np.broadcast_to(h * f.disc_radii + card.gap_mm, at.shape).ravel()[flagged]).all()


def test_poses_land_in_the_free_room(sils) -> None:
    """With most of the card taken, the drawn poles still lie where the field allows."""
    rng = np.random.default_rng(11)
    card, field = _card(sils[:7] + [sils[4]], rng, placed=7)
    i, h = card.n_symbols - 1, 10.0
    c, th = poses(card, i, h, 64, field)
    assert len(c) > 0
    pole = c[:, 0] + 1j * c[:, 1] + h * np.exp(1j * th) * card.pole_z[i]
    assert not field.near(pole, card.pole_radius_box[i] * h + card.gap_mm).any()
    assert (np.abs(pole) <= card.radius_mm - card.pole_radius_box[i] * h + 1e-9).all()


def _whole(sils, rng) -> WholeCard:
    card, _ = _card(sils, rng, 0)
    return WholeCard(card)


def test_a_card_reads_each_lower_field_as_the_shape_field_gives_it(sils) -> None:
    """The card's lower bounds, read from the fields laid end to end, equal each
    silhouette's own ``at_least`` (on its grid, off it and on its edges)."""
    rng = np.random.default_rng(5)
    whole = _whole(sils, rng)
    for k, sil in enumerate(sils):
        f = sil.field
        ny, nx = f.lower.shape
        q = f.origin + f.step * (rng.uniform(-3, nx + 2, 500) + 1j * rng.uniform(-3, ny + 2, 500))
        got = whole.lower_at(np.full(len(q), k), q)
        assert np.array_equal(got, f.at_least(q))


def test_the_lower_field_atlas_starts_again_when_full_and_stays_right(sils, monkeypatch) -> None:
    """Past its size limit the atlas starts again; arrays handed out before still hold
    their fields, and a card made after reads the same bounds."""
    import printdeck.layout.packing.symbol_geometry as geo

    rng = np.random.default_rng(6)
    first = _whole(sils[:6], rng)
    size = sum(len(geo.symbol_geometry(s).lower_flat) for s in sils)
    monkeypatch.setattr(geo, "ATLAS_VALUES", 8)
    monkeypatch.setattr(geo, "ATLAS_MOST", size - 1)  # the twelve fields do not fit at once
    monkeypatch.setattr(geo, "_ATLAS", geo._Atlas())
    a = _whole(sils[:6], rng)
    b = _whole(sils[6:], rng)  # past the limit: a new atlas
    c = _whole(sils[:6], rng)  # the first six again, into a new one
    assert b.lower is not a.lower
    for k, sil in enumerate(sils):
        f = sil.field
        q = f.origin + f.step * (rng.uniform(-3, 40, 200) + 1j * rng.uniform(-3, 40, 200))
        cards = ((first, k), (a, k), (c, k)) if k < 6 else ((b, k - 6),)
        for whole, at in cards:
            assert np.array_equal(whole.lower_at(np.full(len(q), at), q), f.at_least(q))


def test_symbol_geometry_is_made_once_and_read_only(sils) -> None:
    from printdeck.layout.packing.symbol_geometry import symbol_geometry

    g = symbol_geometry(sils[0])
    assert symbol_geometry(sils[0]) is g
    v = sils[0].vertices
    assert np.array_equal(g.vertices_z, v[:, 0] + 1j * v[:, 1])
    with pytest.raises(ValueError, match="read-only"):
        g.vertices_z[0] = 0


def _brute_distance_to_false(mask: np.ndarray) -> np.ndarray:
    """Every point's Euclidean distance (grid steps) to the nearest False point, by brute force."""
    ys, xs = np.nonzero(~mask)
    gy, gx = np.mgrid[: mask.shape[0], : mask.shape[1]]
    squared = (gy[..., None] - ys) ** 2 + (gx[..., None] - xs) ** 2
    return np.sqrt(squared.min(axis=-1).astype(np.float64))


@hsettings(max_examples=80, deadline=None)
@given(ny=st.integers(1, 40), nx=st.integers(1, 40), share=st.floats(0.3, 0.999), seed=st.integers(0, 2**32 - 1))
def test_distance_to_false_is_the_exact_euclidean_transform(ny, nx, share, seed) -> None:
    from printdeck.artwork.shape_field import distance_to_false

    mask = np.random.default_rng(seed).random((ny, nx)) < share
    mask.flat[seed % mask.size] = False  # at least one False point
    distances, err = distance_to_false(mask)
    assert err == 0.0
    assert distances.dtype == np.float64
    assert np.array_equal(distances, _brute_distance_to_false(mask))  # to the bit


def test_distance_to_false_far_points_bound_their_error() -> None:
    from printdeck.artwork.shape_field import EXACT_DISTANCE_MOST, distance_to_false

    side = 1600  # a corner 2262 steps from the one False point: beyond the exact range
    mask = np.ones((side, side), dtype=bool)
    mask[0, 0] = False
    distances, err = distance_to_false(mask)
    gy, gx = np.mgrid[:side, :side]
    true = np.hypot(gy, gx)
    assert float(true.max()) > EXACT_DISTANCE_MOST
    assert 0.0 < err < 0.01
    assert np.all(np.abs(distances - true) <= err)


def test_distance_to_false_refuses_a_mask_with_no_false_point() -> None:
    from printdeck.artwork.shape_field import distance_to_false

    with pytest.raises(ValueError, match="no False point"):
        distance_to_false(np.ones((4, 5), dtype=bool))
