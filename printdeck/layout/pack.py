"""Packing one card: place the symbols outside-in, then grow and shake them until jammed.

The method combines a greedy constructive start with an inflate-and-shake packer in
the spirit of Lubachevsky and Stillinger (1990, "Geometric properties of random disk
packings"), run on real polygon silhouettes instead of disks:

1. Placement. Symbols are sized from the card's size ladder so their ink would
   cover :data:`START_DENSITY` of the safe disc, and placed biggest first. For each,
   :data:`CANDIDATES` random poses (centre, angle) are tested at once (vectorised
   shapely: inside the disc, not intersecting and not within the gap of the placed
   outlines) and the free pose farthest from the centre is taken (outside-in
   filling, which leaves the middle for later symbols). A symbol with no free pose
   is tried smaller.
2. Rounds. Every symbol grows about its centre by the largest factor that is
   *provably* valid: if a shape whose farthest vertex is ``r`` from its centre grows
   by ``f``, no point moves more than ``(f - 1) r``, so ``f = 1 + (distance - gap) / r``
   keeps every gap; the safe-disc bound is solved exactly per vertex. A bolder
   factor (:data:`BOLD` times larger) is tried first with the exact check. Only
   the smallest ladder slot is capped, relative to the largest symbol, which keeps
   the card's size ratio.
3. A symbol that could not grow is pushed away from its neighbours (nearest points
   from ``shapely.shortest_line`` weighted by closeness, and the safe circle), with a
   small random turn; the move is kept only if the exact check passes
   (``shapely.dwithin`` finds no outline within the gap, every vertex inside the disc).

Every accepted state is valid, so the engine never overlaps or clips to succeed.
All lengths are mm in card coordinates (origin at the card centre, y up); angles are
radians inside this module, counter-clockwise.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

from printdeck.layout.silhouette import Silhouette, sizing_area

START_DENSITY = (0.55, 0.47, 0.4, 0.33, 0.25, 0.15, 0.08, 0.03)  # ink share of the disc to start at
CANDIDATES = 96         # random poses tried at once when placing a symbol
SHRINK_TRIES = 4         # a symbol with no free pose is retried this many times, smaller each
SHRINK = 0.85            # ... by this factor
OUTSIDE_IN_NOISE = 0.1   # randomness of the outside-in choice, in safe radii
MAX_STEP = 1.25          # largest growth factor per round (MAX_STEP - 1 bounds a step)
GROW_EPS = 1e-3          # growth below this counts as blocked
CAP_SLACK = 1.12         # the smallest slot may reach this times its ladder share of the largest
CONTACT_MM = 0.25        # distances within gap + this count as contacts
SHAKE_STEPS = (0.08, 0.03, 0.01)  # shake distances tried, in symbol sizes
JITTER_RAD = 0.3         # spread (radians) of the random turn of a push direction
REACH = 0.5              # neighbours within this many radii push a symbol
SAFETY_MM = 1e-6         # numerical margin on every gap test
BOLD = 3.0               # first try this many times the provable growth
SHAKE_BELOW = 1.02       # symbols that grew less than this in a round get shaken
RELOCATE_GROWTH = (1.2,)  # a jammed smallest symbol is moved at these times its size
RATIO_MARGIN = 0.99      # keep this much inside the size ratio bounds (rounding)


@dataclass(frozen=True)
class PackInput:
    """One card's packing problem.

    Attributes:
        sils: The symbols' silhouettes, in card order.
        targets: ``(n,) float`` relative target sizes (largest about 1).
        rotatable: ``(n,) bool`` whether each symbol may turn.
        radius_mm: Safe-zone radius.
        gap_mm: Minimum distance between silhouettes.
        max_rotation_deg: ``None`` any angle, else ±this (0 = upright).
        attempts: Random positions tried per symbol at the start.
        rounds: Grow-and-shake rounds.
        ratio_low: Smallest allowed size ratio (smallest over largest ink size).
        ratio_high: Largest allowed size ratio.
    """

    sils: tuple[Silhouette, ...]
    targets: np.ndarray
    rotatable: np.ndarray
    radius_mm: float
    gap_mm: float
    max_rotation_deg: float | None
    attempts: int
    rounds: int = 8
    ratio_low: float = 0.0
    ratio_high: float = 1.0


@dataclass(frozen=True)
class PackResult:
    """A packed card. Arrays are ``(n,)`` or ``(n, 2)``, in card order.

    Attributes:
        centers_mm: Box centres.
        angles_deg: Rotations, counter-clockwise.
        heights_mm: Box heights (width = aspect * height).
        outlines: Placed collision outlines (mm).
    """

    centers_mm: np.ndarray
    angles_deg: np.ndarray
    heights_mm: np.ndarray
    outlines: tuple[BaseGeometry, ...]


class PackFailure(Exception):
    """Raised when the symbols cannot even be placed small; carries the reason."""


def _rotation(theta: float) -> np.ndarray:
    c, s = math.cos(theta), math.sin(theta)
    return np.array([[c, -s], [s, c]])


@dataclass(frozen=True)
class _Rings:
    """How an outline's vertex array splits into rings and polygons (to rebuild it fast).

    Attributes:
        vertex_ring: ``(V,) int`` ring number of each vertex.
        ring_poly: ``(rings,) int`` polygon number of each ring (shell first, then holes).
        polys: Number of polygons (parts).
    """

    vertex_ring: np.ndarray
    ring_poly: np.ndarray
    polys: int

    @classmethod
    def of(cls, outline: BaseGeometry) -> _Rings:
        counts: list[int] = []
        ring_poly: list[int] = []
        parts = shapely.get_parts(outline)
        for k, part in enumerate(parts):
            for ring in [part.exterior, *part.interiors]:
                counts.append(len(ring.coords))
                ring_poly.append(k)
        return cls(np.repeat(np.arange(len(counts)), counts), np.array(ring_poly), len(parts))

    def build(self, pts: np.ndarray, copies: int = 1) -> np.ndarray:
        """``(copies,)`` outlines from ``(copies * V, 2)`` stacked placed vertices."""
        n_rings = len(self.ring_poly)
        if n_rings == 1:  # fast path: one simple polygon
            return shapely.polygons(pts.reshape(copies, -1, 2))
        vr = (np.arange(copies)[:, None] * n_rings + self.vertex_ring[None, :]).ravel()
        rp = (np.arange(copies)[:, None] * self.polys + self.ring_poly[None, :]).ravel()
        polys = shapely.polygons(shapely.linearrings(pts, indices=vr), indices=rp)
        if self.polys == 1:
            return polys
        return shapely.multipolygons(polys, indices=np.repeat(np.arange(copies), self.polys))


class _Card:
    """Mutable packing state of one card (see the module docstring)."""

    def __init__(self, prob: PackInput, rng: np.random.Generator) -> None:
        self.p = prob
        self.rng = rng
        n = len(prob.sils)
        self.n = n
        self.V = [s.vertices for s in prob.sils]
        self.rings = [_Rings.of(s.outline) for s in prob.sils]
        self.rad = np.array([s.radius for s in prob.sils])
        self.sqa = np.sqrt([sizing_area(s) for s in prob.sils])
        self.ink = np.sqrt([s.area for s in prob.sils])
        self.c = np.zeros((n, 2))
        self.th = np.zeros(n)
        self.h = np.zeros(n)
        self.polys = np.empty(n, dtype=object)
        self.R = prob.radius_mm
        self.gap = prob.gap_mm

    # --- geometry helpers -------------------------------------------------
    def offsets(self, i: int, th: float, h: float) -> np.ndarray:
        """``(m, 2)`` outline vertices of symbol i relative to its centre, mm."""
        return (self.V[i] @ _rotation(th).T) * h

    def geom(self, i: int, c: np.ndarray, w: np.ndarray) -> BaseGeometry:
        """Symbol i's outline from its placed vertex offsets ``w`` (see :meth:`offsets`) and centre ``c``."""
        return self.rings[i].build(w + c)[0]

    def inside(self, c: np.ndarray, w: np.ndarray) -> bool:
        """Whether every vertex ``c + w`` lies in the safe disc."""
        pts = w + c
        return bool(np.einsum("ij,ij->i", pts, pts).max() <= self.R * self.R)

    def contain_factor(self, c: np.ndarray, w: np.ndarray) -> float:
        """Largest ``f`` with every ``|c + f w_k| <= R`` (exact, per-vertex quadratic)."""
        ww = np.einsum("ij,ij->i", w, w)
        cw = w @ c
        cc = float(c @ c) - self.R * self.R
        disc = np.maximum(cw * cw - ww * cc, 0.0)
        f = (-cw + np.sqrt(disc)) / np.maximum(ww, 1e-12)
        return float(f.min())

    def neighbours(self, i: int, c: np.ndarray, r: float, reach: float) -> np.ndarray:
        """Indices j != i whose bounding circles come within ``reach`` of symbol i's."""
        d = np.hypot(*(self.c - c).T) - r - self.rad * self.h
        d[i] = np.inf
        return np.nonzero(d < reach)[0]

    def valid(self, i: int, c: np.ndarray, th: float, h: float) -> BaseGeometry | None:
        """The placed outline if symbol i fits there (gap kept, inside), else None."""
        w = self.offsets(i, th, h)
        if not self.inside(c, w):
            return None
        g = self.geom(i, c, w)
        nb = self.neighbours(i, c, self.rad[i] * h, self.gap)
        nb = nb[self.h[nb] > 0]
        if len(nb) and shapely.dwithin(g, self.polys[nb], self.gap + SAFETY_MM).any():
            return None
        return g

    def set(self, i: int, c: np.ndarray, th: float, h: float, g: BaseGeometry) -> None:
        self.c[i], self.th[i], self.h[i], self.polys[i] = c, th, h, g

    def angles(self, i: int, m: int) -> np.ndarray:
        """``(m,)`` random starting angles (rad) allowed for symbol i."""
        lim = self.p.max_rotation_deg
        if not self.p.rotatable[i] or lim == 0:
            return np.zeros(m)
        if lim is None:
            return self.rng.uniform(0, 2 * math.pi, m)
        return np.radians(self.rng.uniform(-lim, lim, m))

    def clamp_angle(self, i: int, th: float) -> float:
        m = self.p.max_rotation_deg
        if not self.p.rotatable[i] or m == 0:
            return 0.0
        if m is None:
            return th
        lim = math.radians(m)
        return min(max(th, -lim), lim)


def _candidates(card: _Card, i: int, h: float, m: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``m`` random poses of symbol i at height h: centres ``(k, 2)``, angles ``(k,)``, outlines ``(k,)``.

    Only poses inside the safe disc and clear of the placed symbols (gap kept) are
    returned; poses whose box centre falls on placed ink are dropped untested.
    """
    rng = card.rng
    reach = max(card.R - 0.5 * card.rad[i] * h, 0.0)  # centres nearer the rim cannot fit
    rho = reach * np.sqrt(rng.uniform(0, 1, m))
    phi = rng.uniform(0, 2 * math.pi, m)
    c = np.stack([rho * np.cos(phi), rho * np.sin(phi)], axis=1)
    th = card.angles(i, m)
    placed = card.polys[card.h > 0]
    union = None
    if len(placed):
        union = shapely.multipolygons(shapely.get_parts(placed))  # disjoint: no union needed
        shapely.prepare(union)
        out = ~shapely.contains_xy(union, c[:, 0], c[:, 1])  # cheap first cut: centre on ink
        c, th = c[out], th[out]
    cos, sin = np.cos(th), np.sin(th)
    v = card.V[i] * h
    x = v[None, :, 0] * cos[:, None] - v[None, :, 1] * sin[:, None] + c[:, :1]
    y = v[None, :, 0] * sin[:, None] + v[None, :, 1] * cos[:, None] + c[:, 1:]
    ok = (x * x + y * y).max(axis=1) <= card.R * card.R
    c, th, x, y = c[ok], th[ok], x[ok], y[ok]
    k = len(c)
    if k == 0:
        return c, th, np.empty(0, dtype=object)
    geoms = card.rings[i].build(np.stack([x, y], axis=2).reshape(-1, 2), k)
    if union is not None:
        free = ~shapely.intersects(geoms, union)
        idx = np.nonzero(free)[0]
        if len(idx):
            free[idx] = ~shapely.dwithin(geoms[idx], union, card.gap + SAFETY_MM)
        c, th, geoms = c[free], th[free], geoms[free]
    return c, th, geoms


def _place_initial(card: _Card, density: float) -> bool:
    """Place the symbols biggest first at ``density`` of the disc, each at the free
    pose farthest from the centre among random tries (outside-in filling); a symbol
    with no free pose is tried a little smaller (at most :data:`SHRINK_TRIES` times,
    so no symbol starts far below its slot). False if one cannot be placed."""
    p = card.p
    t = p.targets
    unit = math.sqrt(density * math.pi * card.R ** 2 / float(np.sum(t * t)))
    card.h[:] = 0.0
    batch = max(8, min(p.attempts, CANDIDATES))
    for i in np.argsort(-t, kind="stable"):
        h = unit * t[i] / card.sqa[i]
        if t[i] <= t.min() + 1e-9 < t.max() and (card.h > 0).any():  # smallest slot: keep the ratio
            h = min(h, float((card.h * card.ink).max()) * _small_share(card) / card.ink[i])
        for _ in range(1 + SHRINK_TRIES):
            c, th, geoms = _candidates(card, int(i), h, batch)
            if len(c):
                score = np.hypot(c[:, 0], c[:, 1]) + card.rng.uniform(0, OUTSIDE_IN_NOISE * card.R, len(c))
                k = int(np.argmax(score))
                card.set(int(i), c[k], float(th[k]), h, geoms[k])
                break
            h *= SHRINK
        else:
            return False
    return True


def _grow(card: _Card, i: int, cap: float) -> float:
    """Grow symbol i about its centre as far as is valid (<= cap); return the factor.

    The provable factor (see the module docstring) is always valid; a bolder
    factor :data:`BOLD` times larger is tried first and kept if the exact check passes.
    """
    h, r = card.h[i], card.rad[i] * card.h[i]
    top = min(MAX_STEP, cap)
    if top <= 1.0 + GROW_EPS:
        return 1.0
    w = card.offsets(i, card.th[i], h)
    top = min(top, card.contain_factor(card.c[i], w) - 1e-9)
    f = top
    nb = card.neighbours(i, card.c[i], r, card.gap + r * (f - 1.0))
    if len(nb):
        d = float(shapely.distance(card.polys[i], card.polys[nb]).min())
        f = min(f, 1.0 + (d - card.gap - SAFETY_MM) / r)
    bold = min(top, 1.0 + BOLD * (f - 1.0))
    if bold > f + GROW_EPS:
        g = card.valid(i, card.c[i], card.th[i], h * bold)
        if g is not None:
            card.set(i, card.c[i], card.th[i], h * bold, g)
            return bold
    if f <= 1.0 + GROW_EPS:
        return 1.0
    g = card.geom(i, card.c[i], w * f)
    card.set(i, card.c[i], card.th[i], h * f, g)
    return f


def _push_direction(card: _Card, i: int) -> np.ndarray:
    """Unit vector pushing symbol i away from its contacts (random if balanced)."""
    c, r = card.c[i], card.rad[i] * card.h[i]
    push = np.zeros(2)
    reach = card.gap + REACH * r
    nb = card.neighbours(i, c, r, reach)
    if len(nb):
        lines = shapely.shortest_line(card.polys[i], card.polys[nb])
        pts = shapely.get_coordinates(lines).reshape(-1, 2, 2)
        vec = pts[:, 0] - pts[:, 1]
        dist = np.hypot(vec[:, 0], vec[:, 1])
        w = 1.0 / (np.maximum(dist - card.gap, 0.0) + 0.05 * r) ** 2
        push += (vec / np.maximum(dist, 1e-9)[:, None] * w[:, None]).sum(axis=0)
    pts = card.offsets(i, card.th[i], card.h[i]) + c
    norm = np.hypot(pts[:, 0], pts[:, 1])
    k = int(np.argmax(norm))
    push -= pts[k] / norm[k] / (card.R - norm[k] + 0.05 * r) ** 2
    n = float(np.hypot(*push))
    if n < 1e-6:
        phi = card.rng.uniform(0, 2 * math.pi)
        return np.array([math.cos(phi), math.sin(phi)])
    phi = card.rng.normal(0.0, JITTER_RAD)
    return _rotation(phi) @ (push / n)


def _shake(card: _Card, i: int) -> bool:
    """Move (and slightly turn) a jammed symbol i away from its contacts; True if moved.

    Steps of :data:`SHAKE_STEPS` symbol sizes are tried, longest first, each with
    its own small random turn; the first valid one is kept.
    """
    d = _push_direction(card, i)
    size = card.h[i] * card.sqa[i]
    for step in SHAKE_STEPS:
        c = card.c[i] + d * step * size * card.rng.uniform(0.5, 1.5)
        th = card.clamp_angle(i, card.th[i] + card.rng.normal(0.0, 0.15))
        g = card.valid(i, c, th, card.h[i])
        if g is not None:
            card.set(i, c, th, card.h[i], g)
            return True
    return False


def _small_share(card: _Card) -> float:
    """Largest ink size of the smallest ladder slot, as a share of the card's largest symbol."""
    t = card.p.targets
    return min(CAP_SLACK * float(t.min() / t.max()), card.p.ratio_high * RATIO_MARGIN)


def _caps(card: _Card) -> np.ndarray:
    """Growth factor each symbol may still take before leaving the card's size ratio bounds.

    The smallest ladder slot's ink size (``h * sqrt(area)``) may reach
    :func:`_small_share` of the card's largest ink size (so the ratio stays at most
    ``ratio_high``); no symbol may grow past the card's smallest ink size over
    ``ratio_low`` (so the ratio stays at least ``ratio_low``: the big symbols wait
    for the small ones). Sizes only grow, so caps taken at a round's start stay safe.
    """
    size = card.h * card.ink
    t = card.p.targets / card.p.targets.max()
    caps = np.full(len(t), np.inf)
    small = t <= t.min() + 1e-9
    if not small.all():
        caps[small] = float(size.max()) * _small_share(card) / size[small]
    if card.p.ratio_low > 0:
        caps = np.minimum(caps, float(size.min()) * RATIO_MARGIN / card.p.ratio_low / size)
    return caps


def _enforce_floor(card: _Card) -> None:
    """Shrink symbols bigger than the smallest over ``ratio_low`` (where still valid)."""
    if card.p.ratio_low <= 0:
        return
    size = card.h * card.ink
    limit = float(size.min()) * RATIO_MARGIN / card.p.ratio_low
    for i in np.nonzero(size > limit)[0]:
        h = card.h[i] * limit / size[i]
        g = card.valid(int(i), card.c[i], card.th[i], h)
        if g is not None:
            card.set(int(i), card.c[i], card.th[i], h, g)


def _round(card: _Card) -> bool:
    """One grow-and-shake round over all symbols (random order); False once jammed.

    Afterwards the card's smallest symbol, if it could not grow, is moved to the
    roomiest free spot at a larger size (:func:`_relocate`): it holds back the
    others' growth (see :func:`_caps`).
    """
    moved = 0
    grown = np.ones(card.n)
    caps = _caps(card)
    for i in card.rng.permutation(card.n):
        f = _grow(card, int(i), float(caps[i]))
        grown[i] = f
        if f < SHAKE_BELOW and caps[i] / f > 1.0 + GROW_EPS and _shake(card, int(i)):
            moved += 1
    small = int(np.argmin(card.h * card.ink))
    if grown[small] < SHAKE_BELOW and caps[small] > 1.0 + GROW_EPS and _relocate(card, small):
        moved += 1
    return float((grown - 1.0).sum()) >= GROW_EPS or moved > 0


def _relocate(card: _Card, i: int) -> bool:
    """Move symbol i, larger by one of :data:`RELOCATE_GROWTH`, to the free pose (among
    random tries) farthest from every other symbol; True if it moved."""
    h0 = card.h[i]
    cap = float(_caps(card)[i])
    for factor in RELOCATE_GROWTH:
        factor = min(factor, cap)
        if factor <= 1.0 + GROW_EPS:
            return False
        card.h[i] = 0.0  # out of the way of its own candidates
        c, th, geoms = _candidates(card, i, h0 * factor, CANDIDATES)
        card.h[i] = h0
        if len(c):
            others = np.delete(card.polys, i)
            room = shapely.distance(geoms, shapely.multipolygons(shapely.get_parts(others)))
            k = int(np.argmax(room))
            card.set(i, c[k], float(th[k]), h0 * factor, geoms[k])
            return True
    return False


def pack(prob: PackInput, rng: np.random.Generator) -> PackResult:
    """Pack one card (see the module docstring for the method).

    Args:
        prob: The card's symbols, targets and limits.
        rng: Random source (seeded by the caller for determinism).

    Returns:
        The packed card; every gap >= ``gap_mm`` and every outline inside the disc.

    Raises:
        PackFailure: The symbols cannot be placed even at a small fraction of the disc.
    """
    card = _Card(prob, rng)
    for density in START_DENSITY:
        if _place_initial(card, density):
            break
    else:
        raise PackFailure("the symbols do not fit even when small")
    _enforce_floor(card)
    for _ in range(prob.rounds):
        if not _round(card):
            break
    return PackResult(centers_mm=card.c.copy(), angles_deg=np.degrees(card.th),
                      heights_mm=card.h.copy(), outlines=tuple(card.polys))
