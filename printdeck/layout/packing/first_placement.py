"""The first placement of a card: every symbol at its slot's size, biggest first, outside-in.

Symbols are sized from the card's size ladder so their ink would cover a share of the
safe disc (a level of :data:`START_DENSITY`) and placed biggest first, each at the
best of :data:`CANDIDATES` random poses that fits: best is farthest from the centre
(plus noise), which fills the rim first and leaves the middle for later symbols. A
symbol with no pose that fits is tried smaller, at most :data:`SHRINK_TRIES` times; a
size too big for the largest free disc the card's field reads (:data:`POLE_ROOM`,
:data:`OUTLINE_ROOM`) is passed over unsearched, as a try that failed.
The densest level at which every symbol fits wins (:func:`start`; optionally only one
that also keeps the card's size ratio floor); a dense start is what the later stages can
least make up for.

Poses are drawn where they can fit. The pose's *pole* (the centre of the symbol's
largest inscribed disc, see ``Silhouette.inscribed``) is drawn uniformly over the part
of the safe zone where the card's distance field (:class:`~.card_field.CardField`, of
the symbols placed so far) does not put it within the disc's radius plus the gap of
placed ink, and while there is such room, where the room is at least :data:`DRAW_ROOM`
times the symbol's bounding radius (poses in tighter spots rarely fit: drawn there, a
search fails more often and the symbol is shrunk). So when little room is left, the
draws still land in it. Kept poses are scored, cut further by the shape's
other inner discs against the same field, then built and checked exactly in score
order, a chunk at a time, until one fits. Every cut only drops poses that cannot fit.

All lengths are mm in card coordinates (origin at the card centre, y up); angles are
radians, counter-clockwise.
"""

from __future__ import annotations

import math

import numpy as np
import shapely

from printdeck.layout.packing.card_field import CardField
from printdeck.layout.packing.card_state import CardState, PackFailure
from printdeck.layout.packing.pinned import put_pinned
from printdeck.layout.packing.size_ratio import below_floor, enforce_floor, small_share

START_DENSITY = (0.6, 0.5, 0.4, 0.3, 0.2, 0.1, 0.05)  # shares of the disc to start at, densest first
CANDIDATES = 256  # random poses scored when placing a symbol
TEST_CHUNK = 2  # poses built and checked exactly at a time, best first (doubling)
SHRINK_TRIES = 4  # a symbol with no pose that fits is tried this many times more, smaller each
SHRINK = 0.85  # ... by this factor
POLE_ROOM = 0.9  # a size whose inscribed disc is over this times the largest free disc's is not searched
OUTLINE_ROOM = 1.5  # ... nor one whose bounding circle is over this times its radius
DRAW_ROOM = 0.7  # poles are drawn where the free room is at least this times the bounding radius, if any is
OUTSIDE_IN_NOISE = 0.1  # randomness of the outside-in score, in safe radii
FLOOR_START = 1.1  # start ink sizes at least this times ratio_low of the largest


def place_first(card: CardState, keep_floor: bool = False) -> None:
    """Place every symbol at the densest of :data:`START_DENSITY` that works, densest first.

    Every placement that works has its big symbols shrunk towards the size ratio floor
    (:func:`~.size_ratio.enforce_floor`, where still valid).

    Args:
        card: The card to place (anything placed is cleared).
        keep_floor: Only accept a level whose placement keeps the card's size ratio at
            least ``ratio_low`` (after that shrinking); if none does, the sparsest
            placement that works. Without it a level whose small symbols had to shrink
            below the floor is taken as it is: the rounds and the compaction usually
            bring the ratio back (see :func:`~.packer.pack_card`).

    Raises:
        PackFailure: The symbols do not fit even at the sparsest level.
    """
    for density in START_DENSITY:
        if place_all(card, density):
            enforce_floor(card)
            if not keep_floor or not below_floor(card):
                return
    for density in reversed(START_DENSITY):
        if place_all(card, density):
            enforce_floor(card)
            return
    raise PackFailure("the symbols do not fit even when small")


def place_all(card: CardState, density: float) -> bool:
    """Place the symbols biggest first at ``density`` of the disc (see the module
    docstring); False if one does not fit even after :data:`SHRINK_TRIES` shrinks.

    Heights come from the sizing areas, but no symbol's ink size starts under
    :data:`FLOOR_START` times ``ratio_low`` of the largest (a word or a hairline ring,
    sized by its outline, would otherwise start below the card's size ratio floor),
    and the smallest slot starts at most at its share of the largest placed symbol.
    """
    problem = card.problem
    t = problem.targets
    unit = math.sqrt(density * card.zone.area_mm2 / float(np.sum(t * t)))
    heights = unit * t / card.sizing_side_box
    heights = np.maximum(
        heights, float((heights * card.ink_side_box).max()) * problem.ratio_low * FLOOR_START / card.ink_side_box
    )
    card.clear()
    field = CardField(card.zone.half_extent_mm, card.zone)
    reach = float((card.pole_radius_box * heights).max()) + card.gap_mm  # the farthest any pole test looks
    batch = max(8, min(problem.attempts, CANDIDATES))
    if put_pinned(card) is not None:
        raise PackFailure("a pinned symbol does not fit where it is pinned")
    for pinned in np.nonzero(card.fixed)[0]:
        _add(field, card, int(pinned), reach)
    for i in np.argsort(-t, kind="stable"):
        i = int(i)
        if card.fixed[i]:
            continue
        h = float(heights[i])
        if t[i] <= t.min() + 1e-9 < t.max() and (card.heights_mm > 0).any():  # smallest slot: keep the ratio
            h = min(h, float(card.ink_sizes_mm().max()) * small_share(card) / card.ink_side_box[i])
        if not _place_shrinking(card, i, h, batch, field, reach):
            return False
    return True


def _place_shrinking(card: CardState, i: int, h: float, m: int, field: CardField, reach: float) -> bool:
    """Place symbol i at box height h (mm) by :func:`place_best` (``m`` poses), or if no
    pose fits, :data:`SHRINK` times smaller, at most :data:`SHRINK_TRIES` times; add it to
    ``field`` (out to ``reach`` mm) once placed. A size the card's free room rules out
    (:func:`_may_fit`) counts as a try that failed, without a search. False if none fits."""
    room = field.free_room(card.gap_mm)
    for _ in range(1 + SHRINK_TRIES):
        if _may_fit(card, i, h, room) and place_best(card, i, h, m, field):
            _add(field, card, i, reach)
            return True
        h *= SHRINK
    return False


def _may_fit(card: CardState, i: int, h: float, room: float) -> bool:
    """Whether symbol i at box height h (mm) is worth a search, by the radius ``room`` (mm)
    of the largest free disc (:meth:`~.card_field.CardField.free_room`): its inscribed
    disc at most :data:`POLE_ROOM` times it, its bounding circle at most :data:`OUTLINE_ROOM`
    times it. Bigger, a search almost never finds a pose (about 1 in 10; bench/RESULTS.md)."""
    return bool(card.pole_radius_box[i] * h <= POLE_ROOM * room and card.radius_box[i] * h <= OUTLINE_ROOM * room)


def _add(field: CardField, card: CardState, i: int, reach: float) -> None:
    """Add placed symbol i to ``field``, as far out as a pole test ``reach`` can look."""
    field.add(
        card.shape_fields[i],
        complex(*card.centers_mm[i]),
        float(card.angles_rad[i]),
        float(card.heights_mm[i]),
        card.radius_box[i] * card.heights_mm[i] + reach,
    )


def place_best(card: CardState, i: int, h: float, m: int, field: CardField) -> bool:
    """Put symbol i at height h at the best-scoring of ``m`` random poses that fits
    (:func:`poses`, score: distance from the centre plus noise of :data:`OUTSIDE_IN_NOISE`
    safe radii); False if none fits.

    Args:
        card: The card, the symbols placed so far in ``field``.
        i: The symbol to place.
        h: Its box height, mm.
        m: Poses to score.
        field: Distance field of the placed symbols.
    """
    c, th, turn = _drawn(card, i, h, m, field)
    centre = c[:, 0] + 1j * c[:, 1]  # each pose's, with its turn, for every cut below
    score = card.zone.outwardness(centre) + card.rng.uniform(0, OUTSIDE_IN_NOISE * card.zone.inradius_mm, len(c))
    f = card.shape_fields[i]  # the shape's other inner discs, surely too near placed ink (the cheapest cut first)
    discs = centre[:, None] + turn[:, None] * f.disc_centres
    keep = np.asarray(~field.near(discs, h * f.disc_radii + card.gap_mm).any(axis=1))
    keep[keep] = card.inside_turned(i, centre[keep], turn[keep])
    c, th, score, centre, turn = c[keep], th[keep], score[keep], centre[keep], turn[keep]
    z = card.placed_turned(i, centre, turn)
    free = ~field.near(z, card.gap_mm).any(axis=1)  # a vertex surely within the gap of placed ink
    c, th, score, z = c[free], th[free], score[free], z[free]
    if not len(c):
        return False
    order = np.argsort(-score, kind="stable")
    union = card.placed_union(without=i)
    lo, chunk = 0, TEST_CHUNK
    while lo < len(order):
        idx = order[lo : lo + chunk]
        lo, chunk = lo + chunk, 2 * chunk
        geoms = card.outlines_from(i, z[idx])
        ok = card.clear_of(union, geoms).nonzero()[0]
        if len(ok):
            k = int(ok[0])
            card.put(i, c[idx[k]], float(th[idx[k]]), h, geoms[k])
            return True
    return False


def poses(card: CardState, i: int, h: float, m: int, field: CardField | None) -> tuple[np.ndarray, np.ndarray]:
    """Up to ``m`` random poses of symbol i at height h whose inscribed disc lies inside
    the safe zone and, by ``field`` (if given), may keep the gap to the placed symbols:
    centres ``(k, 2)`` mm, angles ``(k,)`` rad.

    The disc's centre (the pole) is drawn uniformly in the zone inset by the disc's
    radius ``r``; with a field, only where it does not put the pole within ``r + gap``
    of placed ink (:meth:`~.card_field.CardField.sample_free`: no draw is wasted on
    places already taken, and none come back when the room is gone), nor within
    :data:`DRAW_ROOM` times the symbol's bounding radius plus the gap while any such
    room is left (a pose there rarely fits).
    """
    c, th, _ = _drawn(card, i, h, m, field)
    return c, th


def _drawn(
    card: CardState, i: int, h: float, m: int, field: CardField | None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`poses` and each pose's turn ``h e^{i angle}`` ``(k,) complex`` (mm)."""
    r = float(card.pole_radius_box[i]) * h
    if card.zone.inradius_mm - r <= 0:
        return np.empty((0, 2)), np.empty(0), np.empty(0, dtype=complex)
    if field is not None and r > 0:
        roomy = max(r, DRAW_ROOM * float(card.radius_box[i]) * h)
        pole = field.sample_free(card.rng, roomy + card.gap_mm, r, m)
        if not len(pole) and roomy > r:  # no such room: anywhere the disc itself may go
            pole = field.sample_free(card.rng, r + card.gap_mm, r, m)
        if field.zone is None:  # a field made without the zone draws over its whole grid
            pole = pole[card.zone.depth(pole) >= r]
    else:
        pole = card.zone.sample(card.rng, r, m)
    th = card.random_angles(i, len(pole))
    turn = h * np.exp(1j * th)
    c = pole - turn * card.pole_z[i]
    return np.ascontiguousarray(c).view(np.float64).reshape(-1, 2), th, turn  # (x, y) rows, no copy


def candidates(card: CardState, i: int, h: float, m: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``m`` random poses of symbol i at height h (:func:`poses`, no field) that pass the
    cheap cuts: the pole off placed ink, every vertex inside the safe disc, a few outline
    vertices off placed ink. Returns centres ``(k, 2)``, angles ``(k,)`` and placed
    vertices ``(k, V) complex``; the exact test is left to the caller."""
    union = card.placed_union(without=i)
    c, th = poses(card, i, h, m, None)
    if union is not None:
        pole = c[:, 0] + 1j * c[:, 1] + h * np.exp(1j * th) * card.pole_z[i]
        off = ~shapely.contains_xy(union, pole.real, pole.imag)
        c, th = c[off], th[off]
    z = card.placed_vertices(i, c, th, h)
    ok = card.inside(i, c, th, h)  # the hull's vertices decide (exact)
    if union is not None and ok.any():
        ok[ok] = card.probes_off(i, z[ok], union)
    return c[ok], th[ok], z[ok]
