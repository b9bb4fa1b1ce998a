"""Rounds of growth: every symbol grows in place, jammed ones grow while moving.

An inflate-and-shake packer in the spirit of Lubachevsky and Stillinger (1990,
"Geometric properties of random disk packings") run on polygon silhouettes. Every
symbol grows about its centre by the largest factor that is *provably* valid: if a
shape whose farthest vertex is ``r`` from its centre grows by ``f``, no point moves
more than ``(f - 1) r``, so ``f = 1 + (distance - gap) / r`` keeps every gap; the
safe-disc bound is solved exactly per vertex (:func:`_grow`). Growth is capped to keep
the card's size ratio (smallest over largest ink size) within ``[ratio_low,
ratio_high]`` (see :func:`~.size_ratio.growth_caps`); symbols grow smallest first. A
symbol that could not grow tries to grow while moving: a batch of poses around its own
(small shifts and turns), each at a few growth factors, is checked exactly at once and
the biggest valid growth wins (:func:`_wiggle`); the provable bound is far too cautious
for long or hollow shapes, and this exact search is what packs bars, rings and words.
When the card's smallest symbol is jammed it is moved, a little larger, to the roomiest
free spot among random tries (:func:`_relocate`). Rounds stop after ``rounds`` or when
the ink area stalls (:func:`grow_rounds`).

Every accepted state is valid. Lengths are mm in card coordinates (origin at the card
centre, y up); angles are radians, counter-clockwise.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import shapely

from printdeck.layout.packing.card_state import SAFETY_MM, CardState
from printdeck.layout.packing.first_placement import candidates
from printdeck.layout.packing.size_ratio import growth_caps

MAX_STEP = 1.25  # largest growth factor per round (MAX_STEP - 1 bounds a step)
GROW_EPS = 1e-3  # growth below this counts as blocked
JAMMED_BELOW = 1.02  # a symbol that grew less than this in a round is jammed
WIGGLE_FACTORS = np.array([1.005, 1.02, 1.05, 1.1])  # growth factors a wiggled pose is tried at (see _wiggle)
UNJAM_REACH = 0.5  # a move frees the symbols within this many radii of the old spot
RELOCATE_GROWTH = 1.2  # a jammed smallest symbol is moved at this times its size
RELOCATE_TRIES = 256  # ... to the roomiest of this many random poses
RELOCATE_FAILS = 2  # ... but no more once this many moves have found no free pose on the card
STALL_ROUNDS = 3  # stop when the ink grew less than STALL_GAIN over this many rounds
STALL_GAIN = 0.01


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


WIGGLE = Moves(tries=16, step=0.12, turn=0.25)


def grow_rounds(card: CardState, rounds: int) -> None:
    """Grow a placed card in place: up to ``rounds`` rounds (:func:`_round`), until the
    card is jammed or its ink grew less than :data:`STALL_GAIN` over :data:`STALL_ROUNDS`
    rounds."""
    history = [_ink(card)]
    for _ in range(rounds):
        if not _round(card):
            break
        history.append(_ink(card))
        if len(history) > STALL_ROUNDS and history[-1] < history[-1 - STALL_ROUNDS] * (1.0 + STALL_GAIN):
            break


def _ink(card: CardState) -> float:
    """Total ink area of the card's symbols (mm²)."""
    return float(np.sum(card.ink_sizes_mm() ** 2))


def _round(card: CardState, moves: Moves = WIGGLE) -> bool:
    """One round over all symbols, smallest first; False once jammed.

    Each symbol grows about its centre (:func:`_grow`); one that is jammed (and has
    room under its cap) tries to grow while moving and turning (:func:`_wiggle`),
    unless its last try failed and no neighbour has moved away since. Afterwards the
    card's smallest symbol, if it could not grow, is moved to the roomiest free spot
    at a larger size (:func:`_relocate`): it holds back the others' growth (see
    :func:`~.size_ratio.growth_caps`).
    """
    moved = 0
    grown = np.ones(card.n_symbols)
    caps = growth_caps(card)
    for i in np.argsort(card.ink_sizes_mm(), kind="stable"):  # smallest first: they hold the others back
        f = _grow(card, int(i), float(caps[i]))
        grown[i] = f
        if f > 1.0 + GROW_EPS:
            card.wiggle_futile[i] = False
        if f < JAMMED_BELOW and caps[i] / f > WIGGLE_FACTORS[0] and not card.wiggle_futile[i]:
            old = card.centers_mm[i].copy(), card.radius_box[i] * card.heights_mm[i]
            if _wiggle(card, int(i), float(caps[i]) / f, moves):
                moved += 1
                _unjam_near(card, int(i), *old)
            else:
                card.wiggle_futile[i] = True
    small = int(np.argmin(np.where(card.free, card.ink_sizes_mm(), np.inf)))  # a pinned symbol never moves
    if grown[small] < JAMMED_BELOW and caps[small] > 1.0 + GROW_EPS and card.relocate_fails < RELOCATE_FAILS:
        old = card.centers_mm[small].copy(), card.radius_box[small] * card.heights_mm[small]
        if _relocate(card, small):
            moved += 1
            _unjam_near(card, small, *old)
        else:
            card.relocate_fails += 1
    return float((grown - 1.0).sum()) >= GROW_EPS or moved > 0


def _unjam_near(card: CardState, i: int, c: np.ndarray, r: float) -> None:
    """Symbol i left the spot ``c`` (bounding radius ``r``): its old neighbours may grow again."""
    card.wiggle_futile[card.neighbours(i, c, r, card.gap_mm + UNJAM_REACH * r)] = False
    card.wiggle_futile[i] = False


def _relocate(card: CardState, i: int) -> bool:
    """Move symbol i, :data:`RELOCATE_GROWTH` times larger (within its cap), to the free
    pose (among random tries) farthest from every other symbol; True if it moved."""
    h0 = card.heights_mm[i]
    factor = min(RELOCATE_GROWTH, float(growth_caps(card)[i]))
    if factor <= 1.0 + GROW_EPS:
        return False
    c, th, z = candidates(card, i, h0 * factor, RELOCATE_TRIES)
    if not len(c):
        return False
    geoms = card.outlines_from(i, z)
    others = card.placed_union(without=i)  # built for the candidates just now
    free = card.clear_of(others, geoms)
    if not free.any():
        return False
    c, th, geoms = c[free], th[free], geoms[free]
    k = int(np.argmax(shapely.distance(geoms, others))) if others is not None else 0
    card.put(i, c[k], float(th[k]), h0 * factor, geoms[k])
    return True


def _grow(card: CardState, i: int, cap: float) -> float:
    """Grow symbol i about its centre as far as is valid (<= cap); return the factor.

    The provable factor (see the module docstring) is always valid, so no exact
    check is needed (a bolder factor checked exactly rarely pays: bench/RESULTS.md).
    """
    h, r = card.heights_mm[i], card.radius_box[i] * card.heights_mm[i]
    top = min(MAX_STEP, cap)
    if top <= 1.0 + GROW_EPS:
        return 1.0
    w = card.offsets(i, card.angles_rad[i], h)
    top = min(top, card.contain_factor(card.centers_mm[i], w) - 1e-9)
    f = top
    nb = card.neighbours(i, card.centers_mm[i], r, card.gap_mm + r * (f - 1.0))
    if len(nb):
        d = float(shapely.distance(card.outlines_mm[i], card.outlines_mm[nb]).min())
        f = min(f, 1.0 + (d - card.gap_mm - SAFETY_MM) / r)
    f = min(f, 1.0 + card.centre_room(card.outlines_mm[i]) / r)  # a point moves at most (f - 1) r
    if f <= 1.0 + GROW_EPS:
        return 1.0
    g = card.outline_at(i, card.centers_mm[i], w * f)
    card.put(i, card.centers_mm[i], card.angles_rad[i], h * f, g)
    return f


def _wiggle(card: CardState, i: int, cap: float, moves: Moves = WIGGLE) -> bool:
    """Grow a jammed symbol i while moving and turning it: True if it grew.

    Poses are drawn around the current one (``moves.tries`` shifts up to
    ``moves.step`` symbol sizes, turns of spread ``moves.turn`` radians),
    each at the growth factors of :data:`WIGGLE_FACTORS` (capped by ``cap``). All
    poses are checked exactly at once at the smallest factor (most fail there), the
    ones that pass at every bigger factor; the largest valid factor wins (the
    smallest shift among equals). Every accepted pose is valid: no overlap within the
    gap, every vertex inside the disc.
    """
    h = card.heights_mm[i]
    size = h * card.sizing_side_box[i]
    m = moves.tries
    fs = WIGGLE_FACTORS[cap >= WIGGLE_FACTORS]
    if not len(fs):
        return False
    rho = moves.step * size * np.sqrt(card.rng.uniform(0, 1, m))
    phi = card.rng.uniform(0, 2 * math.pi, m)
    shift = np.empty((m, 2))
    shift[:, 0], shift[:, 1] = rho * np.cos(phi), rho * np.sin(phi)
    ths = card.clamp_angles(i, card.angles_rad[i] + card.rng.normal(0.0, moves.turn, m))
    order = np.argsort(rho)
    cs, ths = card.centers_mm[i] + shift[order], ths[order]
    near = card.near(i, cs, h * float(fs[-1]))  # one neighbourhood for both checks below
    idx, geoms = card.valid_poses(i, cs, ths, h * float(fs[0]), near)  # the smallest growth: most fail here
    if not len(idx):
        return False
    k, f, g = int(idx[0]), float(fs[0]), geoms[0]
    if len(fs) > 1:  # the poses that grew a little, at every bigger factor (biggest first)
        big = fs[1:][::-1]
        ok, gs = card.valid_poses(
            i, np.tile(cs[idx], (len(big), 1)), np.tile(ths[idx], len(big)), np.repeat(h * big, len(idx)), near
        )
        if len(ok):
            k, f, g = int(idx[ok[0] % len(idx)]), float(big[ok[0] // len(idx)]), gs[0]
    card.put(i, cs[k], float(ths[k]), h * f, g)
    return True
