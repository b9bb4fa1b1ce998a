"""Which concavities of an outline :func:`fill_mouths` fills, checked on the geometry.

Each shape is built from discs, boxes and strokes in normalised box units (the
silhouette's convention: the box about 1 unit tall, centred on the origin), so where its
bay or corner lies is known from the construction: a mouth must cover a point chosen in it
and bring the outline's area near its convex hull's; an ordinary concavity must leave the
outline as it was and a point in it uncovered.
"""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path

import pytest
import shapely
from shapely import affinity
from shapely.geometry import LineString, Point, box
from shapely.geometry.base import BaseGeometry

from printdeck.artwork import silhouette
from printdeck.artwork.mouths import fill_mouths
from printdeck.model import SymbolSpec

RADIUS = 0.45  # the discs' radius: the shapes span 0.9 of the box


def crescent(offset: float, inner: float = RADIUS) -> BaseGeometry:
    """A disc of :data:`RADIUS` at the origin less a disc of radius ``inner`` at
    ``(offset, 0)``: a crescent whose bay opens to the right."""
    return Point(0, 0).buffer(RADIUS, quad_segs=64).difference(Point(offset, 0).buffer(inner, quad_segs=64))


def bay_point(offset: float, inner: float = RADIUS) -> Point:
    """The middle of the crescent's bay on its axis: halfway from the bay's deepest point
    (the inner disc's leftmost point) to its opening (the line through the horns' tips)."""
    horns_x = (offset**2 + RADIUS**2 - inner**2) / (2 * offset)  # where the two circles cross
    return Point(((offset - inner) + horns_x) / 2, 0.0)


def stroke(points: list[tuple[float, float]], width: float) -> BaseGeometry:
    """A round-capped stroke of ``width`` along ``points``."""
    return LineString(points).buffer(width / 2, quad_segs=16)


def arc(radius: float, start_deg: float, end_deg: float, count: int = 96) -> list[tuple[float, float]]:
    """``count`` points on a circle about the origin, from ``start_deg`` to ``end_deg``."""
    steps = [math.radians(start_deg + (end_deg - start_deg) * k / (count - 1)) for k in range(count)]
    return [(radius * math.cos(t), radius * math.sin(t)) for t in steps]


def person(spread_deg: float, gap: float) -> BaseGeometry:
    """A pictogram: head, torso, arms and two legs hung from the hips, ``gap`` apart at the
    top, each turned ``spread_deg`` outward."""
    parts = [Point(0, 0.36).buffer(0.09), box(-0.13, -0.08, 0.13, 0.25)]
    parts += [box(-0.2, -0.05, -0.14, 0.23), box(0.14, -0.05, 0.2, 0.23)]
    for side in (-1, 1):
        leg = affinity.rotate(box(-0.055, -0.42, 0.055, 0.0), side * spread_deg, origin=(0, 0))
        parts.append(affinity.translate(leg, side * (gap / 2 + 0.055), -0.06))
    return shapely.union_all(parts)


def star() -> BaseGeometry:
    """A five-pointed star, its inner corners at 0.45 of its points' radius."""
    radii = [RADIUS if k % 2 == 0 else 0.45 * RADIUS for k in range(10)]
    turns = [math.pi / 2 + k * math.pi / 5 for k in range(10)]
    return shapely.Polygon([(r * math.cos(t), r * math.sin(t)) for r, t in zip(radii, turns)])


def hull_share(filled: BaseGeometry, outline: BaseGeometry) -> float:
    """How much of the gap between the outline and its convex hull ``filled`` covers."""
    hull = shapely.convex_hull(outline)
    return (filled.area - outline.area) / (hull.area - outline.area)


@pytest.mark.parametrize("offset", [0.15, 0.25, 0.35, 0.5])
def test_a_crescents_bay_is_filled_whole(offset: float) -> None:
    moon = crescent(offset)
    filled = fill_mouths(moon)
    assert filled.contains(bay_point(offset))
    assert hull_share(filled, moon) > 0.97  # the whole bay, up to the line between the horns


@pytest.mark.parametrize("offset", [0.15, 0.3])
def test_a_deep_bay_cut_by_a_smaller_disc_is_filled(offset: float) -> None:
    moon = crescent(offset, inner=0.33)  # the horns curl round: a wide C
    filled = fill_mouths(moon)
    assert filled.contains(bay_point(offset, inner=0.33))
    assert hull_share(filled, moon) > 0.97


def test_a_bay_with_a_face_in_it_is_filled() -> None:
    nose = Point(-0.16, 0.05).buffer(0.06)  # ink bulging from the bay's wall (at x = -0.197) into it
    moon = crescent(0.25).union(nose)
    filled = fill_mouths(moon)
    assert filled.contains(Point(bay_point(0.25).x + 0.05, -0.12))
    assert hull_share(filled, moon) > 0.97


@pytest.mark.parametrize("gap_deg", [60, 120])
def test_a_thin_c_is_filled_to_its_opening(gap_deg: float) -> None:
    ring = stroke(arc(0.4, gap_deg / 2, 360 - gap_deg / 2), 0.07)
    filled = fill_mouths(ring)
    assert filled.contains(Point(0, 0))  # the middle
    opening_x = 0.4 * math.cos(math.radians(gap_deg / 2))
    assert filled.contains(Point(0.9 * opening_x, 0))  # just inside the line between its tips
    assert hull_share(filled, ring) > 0.9


def test_a_thick_cs_inside_is_filled() -> None:
    ring = Point(0, 0).buffer(0.45, quad_segs=64).difference(Point(0, 0).buffer(0.25, quad_segs=64))
    wedge = shapely.Polygon([(0, 0), (1, math.tan(math.radians(30))), (1, -math.tan(math.radians(30)))])
    c_shape = ring.difference(wedge)
    assert fill_mouths(c_shape).contains(Point(-0.1, 0))


@pytest.mark.parametrize("gap_deg", [60, 80, 100])
def test_a_thick_c_is_filled_up_to_the_line_between_its_tips(gap_deg: float) -> None:
    """As a letter C is drawn: a band of a third of its radius. The part of its mouth from
    the counter out to the tips sees the opening too wide to be surrounded, yet a symbol
    there sits in the C: the whole pocket is filled."""
    ring = stroke(arc(0.35, gap_deg / 2, 360 - gap_deg / 2), 0.2)
    filled = fill_mouths(ring)
    tips_x = 0.25 * math.cos(math.radians(gap_deg / 2))  # the inner corners of the band's ends
    for x in (0.0, 0.5 * tips_x, 0.95 * tips_x):
        assert filled.contains(Point(x, 0)), x
    assert filled.contains(shapely.convex_hull(ring).buffer(-0.01))


def test_a_horseshoe_is_filled_between_its_legs() -> None:
    shoe = stroke([(-0.3, 0.45), (-0.3, 0.0), *arc(0.3, 180, 360, 48), (0.3, 0.0), (0.3, 0.45)], 0.1)
    shoe = affinity.translate(shoe, 0, 0.1)
    filled = fill_mouths(shoe)
    assert filled.contains(shapely.convex_hull(shoe).buffer(-0.01))  # up to the line between its feet


@pytest.mark.parametrize("sweep", [240, 300])
def test_a_shepherds_crook_is_filled_in_its_curl_only(sweep: int) -> None:
    """Its curl is held, but its pocket runs long beside the staff, wider open than deep: the
    side of the staff far below the curl stays open (it was filled whole, a review found)."""
    radius = 0.25
    curl = [
        (radius - radius * math.cos(math.radians(t)), 0.45 - radius + radius * math.sin(math.radians(t)))
        for t in range(0, sweep + 1, 5)
    ]
    crook = stroke([(0, -0.45), *curl], 0.04)
    filled = fill_mouths(crook)
    assert not filled.contains(Point(0.08, -0.3))  # beside the staff, far below the curl
    assert hull_share(filled, crook) < 0.9


def test_a_notch_in_a_solid_body_is_filled_in_its_depth_only() -> None:
    """Surrounded deep down, but a pocket small beside the body (not a band round it): its
    mouth near the opening stays open, as a body's notches are packed into."""
    body = box(-0.45, -0.45, 0.45, 0.45).difference(box(-0.15, -0.05, 0.15, 0.46))
    filled = fill_mouths(body)
    assert filled.contains(Point(0, 0.05))  # deep in the notch
    assert not filled.contains(Point(0, 0.42))  # at its opening


def test_an_ls_inside_corner_is_left_open() -> None:
    ell = box(-0.45, -0.45, 0.45, -0.2).union(box(-0.45, -0.45, -0.2, 0.45))
    filled = fill_mouths(ell)
    assert filled.area == pytest.approx(ell.area)
    assert not filled.contains(Point(-0.15, -0.15))  # just off the inside corner


def test_a_corner_rounded_to_a_quarter_arc_is_left_open() -> None:
    rounded = box(-0.45, -0.45, 0.45, 0.45).difference(Point(0.45, 0.45).buffer(0.65, quad_segs=64))
    filled = fill_mouths(rounded)
    assert filled.area == pytest.approx(rounded.area)
    assert not filled.contains(Point(0.45 - 0.65 / math.sqrt(2) + 0.03, 0.45 - 0.65 / math.sqrt(2) + 0.03))


@pytest.mark.parametrize("offset", [0.7, 0.8])
def test_a_shallow_bite_is_left_open(offset: float) -> None:
    bitten = crescent(offset)
    filled = fill_mouths(bitten)
    assert filled.area == pytest.approx(bitten.area)
    assert not filled.contains(bay_point(offset))


def test_the_slot_between_a_persons_legs_is_left_open() -> None:
    figure = person(spread_deg=0, gap=0.06)
    filled = fill_mouths(figure)
    assert not filled.contains(Point(0, -0.3))  # between the legs
    assert filled.area == pytest.approx(figure.area)


def test_a_round_dent_in_a_body_is_left_open() -> None:
    body = Point(0, 0).buffer(RADIUS, quad_segs=64).difference(Point(0.5, 0).buffer(0.2, quad_segs=64))
    filled = fill_mouths(body)  # round and deep enough, but small beside the body: not a band round a bay
    assert filled.area == pytest.approx(body.area)
    assert not filled.contains(Point(0.36, 0))


@pytest.mark.parametrize(
    "shape",
    [
        star(),
        box(-0.45, 0.25, 0.45, 0.45).union(box(-0.1, -0.45, 0.1, 0.25)),  # a T
        Point(0, 0).buffer(0.45).intersection(box(-1, 0, 1, 1)).union(box(-0.03, -0.45, 0.03, 0.0)),  # an umbrella
        stroke([(-0.45, 0.1), (0.0, -0.4), (0.45, 0.1)], 0.12),  # a V opening over 80 degrees
    ],
    ids=["star", "T", "umbrella", "V"],
)
def test_corners_and_wedges_are_left_open(shape: BaseGeometry) -> None:
    assert fill_mouths(shape).area == pytest.approx(shape.area)


def test_a_u_is_filled_up_to_its_opening() -> None:
    bottom = [(x, y - 0.15) for x, y in arc(0.3, 180, 360, 48)]
    cup = stroke([(-0.3, 0.45), *bottom, (0.3, 0.45)], 0.1)
    filled = fill_mouths(cup)
    assert filled.contains(Point(0, -0.1))
    assert filled.contains(Point(0, 0.4))


def test_a_moon_pictures_bay_is_filled_in_its_silhouette(tmp_path: Path) -> None:
    """Through tracing: the crescent of an SVG (a disc less an offset disc, as a moon is
    drawn) gets its bay filled, unless the symbol may nest."""
    horns = 50 - math.sqrt(45**2 - 12.5**2), 50 + math.sqrt(45**2 - 12.5**2)  # the circles about (50, 50) and (75, 50)
    crescent_path = f"M62.5 {horns[0]:.3f}A45 45 0 1 0 62.5 {horns[1]:.3f}A45 45 0 0 1 62.5 {horns[0]:.3f}Z"
    svg = f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><path fill="#ccd" d="{crescent_path}"/></svg>'
    (tmp_path / "moon.svg").write_text(svg, encoding="utf-8")
    shown = SymbolSpec(id=0, name="moon", kind="svg", source="moon.svg", path=tmp_path / "moon.svg")
    nesting = dataclasses.replace(shown, nest=True)
    bay = Point((-0.2 + 0.125) / 2, 0.0)  # box units: the inner circle's leftmost point to the horns' line
    assert silhouette(shown).outline.contains(bay)
    assert not silhouette(nesting).outline.contains(bay)
    assert silhouette(shown).outline.area > 1.5 * silhouette(nesting).outline.area
