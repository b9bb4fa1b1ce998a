"""Packing one card: place the symbols outside-in, then grow and wiggle them until jammed.

The method combines a greedy constructive start with an inflate-and-shake packer in
the spirit of Lubachevsky and Stillinger (1990, "Geometric properties of random disk
packings"), run on real polygon silhouettes instead of disks:

1. Placement. Symbols are sized from the card's size ladder so their ink would
   cover a share of the safe disc (a level of :data:`START_DENSITY`), and placed
   biggest first. For each, :data:`FIRST_BATCH` random poses (centre, angle), or up
   to :data:`CANDIDATES` where room is scarce, are tested at once (vectorised
   shapely: inside the disc, not intersecting and not within the gap of the placed
   outlines) and the free pose farthest from the centre is taken (outside-in
   filling, which leaves the middle for later symbols).
   A symbol with no free pose is tried smaller. The densest level that works and
   keeps the size ratio floor is found by bisection (:func:`_start`).
2. Rounds. Every symbol grows about its centre by the largest factor that is
   *provably* valid: if a shape whose farthest vertex is ``r`` from its centre grows
   by ``f``, no point moves more than ``(f - 1) r``, so ``f = 1 + (distance - gap) / r``
   keeps every gap; the safe-disc bound is solved exactly per vertex. Growth is
   capped to keep the card's size ratio (smallest over largest ink size) within
   ``[ratio_low, ratio_high]``: the smallest ladder slot may reach only a share of
   the largest symbol, and no symbol may outgrow the card's smallest over
   ``ratio_low`` (the big symbols wait for the small ones; see
   :func:`~printdeck.layout.ratio.growth_caps`).
   Symbols grow smallest first.
3. A symbol that could not grow tries to grow while moving: a batch of poses
   around its own (small shifts and turns), each at a few growth factors, is
   checked exactly at once (``shapely.intersects`` then ``shapely.dwithin`` against
   the prepared neighbours, every vertex inside the disc) and the biggest valid
   growth wins (:func:`_wiggle`). The provable bound of step 2 is far too cautious
   for long or hollow shapes (``r`` is half a bar's length), so this exact search is
   what packs bars, rings and words. When the card's smallest symbol is jammed it
   is moved, a little larger, to the roomiest free spot among random tries
   (:func:`_relocate`; after :data:`RELOCATE_FAILS` tries that find no free spot,
   a card stops trying: measured, later tries almost never find one). Rounds stop
   after ``rounds`` or when the ink area stalls.
4. Polish (:func:`polish`, which the caller runs on a card that came out sparse, as
   awkward artwork leaves it): up to :data:`POLISH_ROUNDS` more rounds in which a
   jammed symbol tries :data:`POLISH` moves (32 poses, half the shift, a fifth of
   the turn) instead of :data:`WIGGLE` (16). Late in packing, more and finer poses
   find growth that the rounds miss, but they cost, so only sparse cards get them.
   Measured on the awkward deck (57 cards, 4 layout seeds, work counted as
   instructions): coverage 0.427 -> 0.442 for 1.5 times the work; 64 poses as
   coarse as the rounds' gave 0.438 for 1.3 times, 64 fine ones 0.443 for 1.8.

Every accepted state is valid, so the engine never overlaps or clips to succeed.
All lengths are mm in card coordinates (origin at the card centre, y up); angles are
radians inside this module, counter-clockwise.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import shapely

from printdeck.layout.cardstate import (
    SAFETY_MM,
    CardState,
    PackFailure,
    PackInput,
    PackResult,
)
from printdeck.layout.ratio import enforce_floor, growth_caps, keeps_floor, small_share

__all__ = ["PackFailure", "PackInput", "PackResult", "pack", "polish"]

START_DENSITY = (0.6, 0.5, 0.4, 0.3, 0.2, 0.1, 0.05)  # shares of the disc to start at (see _place_initial)
CANDIDATES = 256        # random poses tried at most when placing a symbol
FIRST_BATCH = 96        # poses tried first when placing a symbol; up to CANDIDATES if few are free
ENOUGH_FREE = 8         # ... "few": fewer free poses than this
SHRINK_TRIES = 4         # a symbol with no free pose is retried this many times, smaller each
SHRINK = 0.85            # ... by this factor
OUTSIDE_IN_NOISE = 0.1   # randomness of the outside-in choice, in safe radii
MAX_STEP = 1.25          # largest growth factor per round (MAX_STEP - 1 bounds a step)
GROW_EPS = 1e-3          # growth below this counts as blocked
JAMMED_BELOW = 1.02      # a symbol that grew less than this in a round is jammed
POLISH_ROUNDS = 6        # rounds of the polish pass (more were measured to add nothing)
WIGGLE_FACTORS = np.array([1.005, 1.02, 1.05, 1.1])  # growth factors a wiggled pose is tried at (see _wiggle)
UNJAM_REACH = 0.5        # a move frees the symbols within this many radii of the old spot
RELOCATE_GROWTH = 1.2    # a jammed smallest symbol is moved at this times its size
RELOCATE_TRIES = 256     # ... to the roomiest of this many random poses
RELOCATE_FAILS = 2       # ... but no more once this many moves have found no free pose on the card
STALL_ROUNDS = 3         # stop when the ink grew less than STALL_GAIN over this many rounds
STALL_GAIN = 0.01
FLOOR_START = 1.1        # start ink sizes at least this times ratio_low of the largest


_Card = CardState  # short local name


@dataclass(frozen=True)
class Moves:
    """How a jammed symbol searches for growth (see :func:`_wiggle`).

    Attributes:
        tries: Poses tried around its own.
        step: Shifts up to this many symbol sizes.
        turn: Turns with this spread, radians.
    """

    tries: int
    step: float
    turn: float


WIGGLE = Moves(tries=16, step=0.12, turn=0.25)  # in the rounds
POLISH = Moves(tries=32, step=0.06, turn=0.05)  # in the polish pass: more poses, finer (see the module docstring)


def _candidates(card: _Card, i: int, h: float, m: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``m`` random poses of symbol i at height h: centres ``(k, 2)``, angles ``(k,)``, outlines ``(k,)``.

    Only poses inside the safe disc and clear of the other placed symbols (gap kept)
    are returned. Two cheap cuts go first, both exact: poses whose inscribed disc
    reaches past the rim or has its centre on placed ink (:meth:`CardState.pole_clear`),
    and poses with one of a few outline vertices on placed ink.
    """
    rng = card.rng
    reach = max(card.R - 0.5 * card.rad[i] * h, 0.0)  # centres nearer the rim cannot fit
    rho = reach * np.sqrt(rng.uniform(0, 1, m))
    phi = rng.uniform(0, 2 * math.pi, m)
    c = np.stack([rho * np.cos(phi), rho * np.sin(phi)], axis=1)
    th = card.angles(i, m)
    union = card.placed_union(without=i)
    if union is not None and card.inr[i] > 0:  # first cut: the inscribed disc
        out = card.pole_clear(i, union, c, th, h)
        c, th = c[out], th[out]
    z = card.placed(i, c, th, h)
    ok = card.inside_all(z)
    if union is not None and ok.any():  # second cut: a few outline vertices on placed ink
        zp = z[ok][:, card.probes[i]]
        ok[ok] = ~shapely.contains_xy(union, zp.real, zp.imag).any(axis=1)
    c, th, z = c[ok], th[ok], z[ok]
    if len(c) == 0:
        return c, th, np.empty(0, dtype=object)
    geoms = card.outlines(i, z)
    if union is not None:
        free = card.clear_of(union, geoms)
        c, th, geoms = c[free], th[free], geoms[free]
    return c, th, geoms


def _place_initial(card: _Card, density: float) -> bool:
    """Place the symbols biggest first at ``density`` of the disc, each at the free
    pose farthest from the centre among random tries (outside-in filling); a symbol
    with no free pose is tried a little smaller (at most :data:`SHRINK_TRIES` times,
    so no symbol starts far below its slot). False if one cannot be placed.

    Start heights come from the sizing areas, but no symbol's ink size starts under
    :data:`FLOOR_START` times ``ratio_low`` of the largest (a word or a hairline ring,
    sized by its outline, would otherwise start below the card's size ratio floor)."""
    p = card.p
    t = p.targets
    unit = math.sqrt(density * math.pi * card.R ** 2 / float(np.sum(t * t)))
    heights = unit * t / card.sqa
    ink = heights * card.ink
    heights = np.maximum(heights, float(ink.max()) * p.ratio_low * FLOOR_START / card.ink)
    card.clear()
    batch = max(8, min(p.attempts, CANDIDATES))
    for i in np.argsort(-t, kind="stable"):
        h = float(heights[i])
        if t[i] <= t.min() + 1e-9 < t.max() and (card.h > 0).any():  # smallest slot: keep the ratio
            h = min(h, float((card.h * card.ink).max()) * small_share(card) / card.ink[i])
        for _ in range(1 + SHRINK_TRIES):
            c, th, geoms = _candidates(card, int(i), h, min(batch, FIRST_BATCH))
            if len(c) < ENOUGH_FREE and batch > FIRST_BATCH:  # room is scarce: look harder
                more = _candidates(card, int(i), h, batch - FIRST_BATCH)
                c, th, geoms = (np.concatenate(pair) for pair in zip((c, th, geoms), more))
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

    The provable factor (see the module docstring) is always valid, so no exact
    check is needed. (Trying a bolder factor first with the exact check was measured
    to succeed in under 10 % of tries, costing a quarter of the time for no coverage.)
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
    if f <= 1.0 + GROW_EPS:
        return 1.0
    g = card.geom(i, card.c[i], w * f)
    card.set(i, card.c[i], card.th[i], h * f, g)
    return f


def _wiggle(card: _Card, i: int, cap: float, moves: Moves = WIGGLE) -> bool:
    """Grow a jammed symbol i while moving and turning it: True if it grew.

    Poses are drawn around the current one (``moves.tries`` shifts up to
    ``moves.step`` symbol sizes, turns of spread ``moves.turn`` radians),
    each at the growth factors of :data:`WIGGLE_FACTORS` (capped by ``cap``). All
    poses are checked exactly at once at the smallest factor (most fail there), the
    ones that pass at every bigger factor; the largest valid factor wins (the
    smallest shift among equals). Every accepted pose is valid: no overlap within the
    gap, every vertex inside the disc.
    """
    h = card.h[i]
    size = h * card.sqa[i]
    m = moves.tries
    fs = WIGGLE_FACTORS[WIGGLE_FACTORS <= cap]
    if not len(fs):
        return False
    rho = moves.step * size * np.sqrt(card.rng.uniform(0, 1, m))
    phi = card.rng.uniform(0, 2 * math.pi, m)
    shift = np.stack([rho * np.cos(phi), rho * np.sin(phi)], axis=1)
    ths = card.clamp_angles(i, card.th[i] + card.rng.normal(0.0, moves.turn, m))
    order = np.argsort(rho)
    cs, ths = card.c[i] + shift[order], ths[order]
    near = card.near(i, cs, h * float(fs[-1]))  # one neighbourhood for both checks below
    idx, geoms = card.valid_poses(i, cs, ths, h * float(fs[0]), near)  # the smallest growth: most fail here
    if not len(idx):
        return False
    k, f, g = int(idx[0]), float(fs[0]), geoms[0]
    if len(fs) > 1:  # the poses that grew a little, at every bigger factor (biggest first)
        big = fs[1:][::-1]
        ok, gs = card.valid_poses(i, np.tile(cs[idx], (len(big), 1)), np.tile(ths[idx], len(big)),
                                  np.repeat(h * big, len(idx)), near)
        if len(ok):
            k, f, g = int(idx[ok[0] % len(idx)]), float(big[ok[0] // len(idx)]), gs[0]
    card.set(i, cs[k], float(ths[k]), h * f, g)
    return True


def _ink(card: _Card) -> float:
    """Total ink area of the card's symbols (mm²)."""
    return float(np.sum((card.h * card.ink) ** 2))


def _start(card: _Card) -> None:
    """Place the symbols at the densest of :data:`START_DENSITY` that works and keeps
    the size ratio at least ``ratio_low`` (after :func:`~printdeck.layout.ratio.enforce_floor`), found by
    bisection over the levels (a success counts as all sparser levels working); if
    no level keeps the ratio, the sparsest placement that works is kept.

    Raises:
        PackFailure: No density works.
    """
    lo, hi = 0, len(START_DENSITY) - 1  # the answer lies in [lo, hi]
    best: tuple[np.ndarray, ...] | None = None
    mid = 0  # the densest level first: compact art starts there
    while lo <= hi:
        if _place_initial(card, START_DENSITY[mid]) and keeps_floor(card):
            best, hi = card.snapshot(), mid - 1
        else:
            lo = mid + 1
        mid = (lo + hi) // 2
    if best is not None:
        card.restore(best)
        return
    for density in reversed(START_DENSITY):
        if _place_initial(card, density):
            enforce_floor(card)
            return
    raise PackFailure("the symbols do not fit even when small")


def _round(card: _Card, moves: Moves = WIGGLE) -> bool:
    """One round over all symbols, smallest first; False once jammed.

    Each symbol grows about its centre (:func:`_grow`); one that is jammed (and has
    room under its cap) tries to grow while moving and turning (:func:`_wiggle`
    with ``moves``),
    unless its last try failed and no neighbour has moved away since.
    Afterwards the card's smallest symbol, if it could not grow, is moved to the
    roomiest free spot at a larger size (:func:`_relocate`): it holds back the
    others' growth (see :func:`~printdeck.layout.ratio.growth_caps`).
    """
    moved = 0
    grown = np.ones(card.n)
    caps = growth_caps(card)
    for i in np.argsort(card.h * card.ink, kind="stable"):  # smallest first: they hold the others back
        f = _grow(card, int(i), float(caps[i]))
        grown[i] = f
        if f > 1.0 + GROW_EPS:
            card.futile[i] = False
        if f < JAMMED_BELOW and caps[i] / f > WIGGLE_FACTORS[0] and not card.futile[i]:
            old = card.c[i].copy(), card.rad[i] * card.h[i]
            if _wiggle(card, int(i), float(caps[i]) / f, moves):
                moved += 1
                _unjam_near(card, int(i), *old)
            else:
                card.futile[i] = True
    small = int(np.argmin(card.h * card.ink))
    if grown[small] < JAMMED_BELOW and caps[small] > 1.0 + GROW_EPS and card.relocate_fails < RELOCATE_FAILS:
        old = card.c[small].copy(), card.rad[small] * card.h[small]
        if _relocate(card, small):
            moved += 1
            _unjam_near(card, small, *old)
        else:
            card.relocate_fails += 1
    return float((grown - 1.0).sum()) >= GROW_EPS or moved > 0


def _unjam_near(card: _Card, i: int, c: np.ndarray, r: float) -> None:
    """Symbol i left the spot ``c`` (bounding radius ``r``): its old neighbours may grow again."""
    card.futile[card.neighbours(i, c, r, card.gap + UNJAM_REACH * r)] = False
    card.futile[i] = False


def _relocate(card: _Card, i: int) -> bool:
    """Move symbol i, :data:`RELOCATE_GROWTH` times larger (within its cap), to the free
    pose (among random tries) farthest from every other symbol; True if it moved."""
    h0 = card.h[i]
    factor = min(RELOCATE_GROWTH, float(growth_caps(card)[i]))
    if factor <= 1.0 + GROW_EPS:
        return False
    c, th, geoms = _candidates(card, i, h0 * factor, RELOCATE_TRIES)
    if not len(c):
        return False
    others = card.placed_union(without=i)  # built for the candidates just now
    k = int(np.argmax(shapely.distance(geoms, others))) if others is not None else 0
    card.set(i, c[k], float(th[k]), h0 * factor, geoms[k])
    return True


def _rounds(card: _Card, rounds: int, moves: Moves) -> None:
    """Run up to ``rounds`` rounds (:func:`_round` with ``moves``) until the
    card is jammed or its ink grew less than :data:`STALL_GAIN` over :data:`STALL_ROUNDS` rounds."""
    history = [_ink(card)]
    for _ in range(rounds):
        if not _round(card, moves):
            break
        history.append(_ink(card))
        if len(history) > STALL_ROUNDS and history[-1] < history[-1 - STALL_ROUNDS] * (1.0 + STALL_GAIN):
            break


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
    _start(card)
    _rounds(card, prob.rounds, WIGGLE)
    return _result(card)


def polish(prob: PackInput, packed: PackResult, rng: np.random.Generator) -> PackResult:
    """Go on packing a packed card with more poses per jammed symbol (step 4 of the
    module docstring): up to :data:`POLISH_ROUNDS` rounds with :data:`POLISH` moves.

    Args:
        prob: The card's problem, as given to :func:`pack`.
        packed: What :func:`pack` returned for it.
        rng: Random source (seeded by the caller for determinism).

    Returns:
        The card with no symbol smaller than in ``packed`` (sizes only grow), every
        gap >= ``gap_mm`` and every outline inside the disc.
    """
    card = _Card(prob, rng)
    for i in range(card.n):
        card.set(i, packed.centers_mm[i], math.radians(float(packed.angles_deg[i])), float(packed.heights_mm[i]),
                 packed.outlines[i])
    _rounds(card, POLISH_ROUNDS, POLISH)
    return _result(card)


def _result(card: _Card) -> PackResult:
    return PackResult(centers_mm=card.c.copy(), angles_deg=np.degrees(card.th),
                      heights_mm=card.h.copy(), outlines=tuple(card.polys))
