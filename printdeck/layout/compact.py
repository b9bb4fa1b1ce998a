"""Collective compaction: every symbol moves, turns and grows at once, by linear programming.

A card packed one symbol at a time ends *jammed*: no symbol can grow alone, because
each touches neighbours that would have to move first. This stage moves all of them
together, by sequential linear programming, as in the compaction of non-convex
polygons of Li and Milenkovic (1995, "Compaction and separation algorithms for
non-convex polygons and their applications", European Journal of Operational
Research 84) and the adaptive shrinking cell of Torquato and Jiao (2009, "Dense
packings of the Platonic and Archimedean solids", Nature 460), with growth in place
of a shrinking container. Each step:

1. Contacts (:func:`contacts`). Every outline vertex of a symbol within ``gap +``
   :data:`REACH_MM` of another symbol's outline gives a contact with its nearest edge
   there: the vertex ``p``, its nearest point ``q`` and the unit normal ``n = (p - q) /
   |p - q|``. Every vertex within :data:`REACH_MM` of the rim gives a rim contact. (Two
   outlines are nearest at a vertex of one of them, so these see every way two symbols
   can meet.)
2. Linear program (:func:`program`). Per symbol: a shift ``(dx, dy)`` (mm), a turn ``dθ``
   (rad) and a growth ``g`` (height ``h -> h (1 + g)``). To first order a point at offset
   ``w`` from its symbol's centre moves by ``(dx, dy) + dθ J w + g w`` (``J`` a quarter
   turn). Every contact must keep ``gap`` plus :data:`MARGIN_MM` (the normal component of
   its two points' relative motion may close at most its slack), every rim contact must
   stay inside, and the card's size ratio must stay within its bounds. Each variable
   has a trust region (:data:`SHIFT_MM`, :data:`TURN_RAD`, :data:`GROWTH`). The objective
   is the ink area gained, ``Σ 2 a_i g_i`` (``a_i`` symbol i's ink area). HiGHS solves it
   (Huangfu and Hall 2018, through :func:`scipy.optimize.linprog`).
3. Step. The solution is applied exactly (turns as rotations) and the card is checked
   exactly, as everywhere in the engine: every vertex inside the safe disc, every two
   outlines more than ``gap`` apart. A turn moves points off their linear path (second
   order), so a step can fail; it is then halved, at most :data:`HALVINGS` times (a
   fraction of a solution still satisfies the program: its constraints hold at zero).

It stops after ``steps`` steps, when a step gains less than :data:`MIN_GAIN` of the
disc, or when no fraction of a step passes. Every accepted state is valid and no symbol
shrinks. Lengths are mm in card coordinates (origin at the centre, y up), angles
radians counter-clockwise.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import os
import sys

import highspy
import numpy as np
import shapely

from printdeck.layout.cardstate import SAFETY_MM, CardState
from printdeck.layout.ratio import RATIO_MARGIN, small_share

SHIFT_MM = 1.0       # trust region of a step: shifts up to this in x and in y
TURN_RAD = 0.05      # ... turns up to this
GROWTH = 0.05        # ... growth up to this share of the height
MARGIN_MM = 0.01     # contacts keep this much more than the gap (room for second-order error)
RIM_POLYGON = 64     # the rim is kept as this regular polygon inscribed in the safe disc
RIM_SIDES = 3        # ... whose this many sides nearest a vertex's direction are its rim contacts
REACH_MM = 2.0       # vertices within gap + this of another symbol (or this of the rim) are contacts
HALVINGS = 6         # a step failing the exact check is halved at most this many times
MIN_GAIN = 1e-4      # stop when a step gains less ink than this share of the disc
NV = 4               # variables per symbol: dx, dy, dθ, g


@dataclass(frozen=True)
class Contacts:
    """A card's contacts (see the module docstring). Arrays are ``(k,)``.

    Attributes:
        a: Symbol owning the vertex ``p``.
        b: Symbol owning the nearest point ``q``; -1 for the rim.
        p: The vertex, complex ``x + iy`` mm.
        q: Its nearest point on symbol ``b`` (for the rim: ``p`` itself).
        normal: Unit normal, away from ``b`` (for the rim: towards the centre).
        slack: How far the contact may close before it breaks the gap (or the rim), mm.
        e0: Start of the edge of ``b`` nearest ``p`` (for the rim: ``p``).
        e1: Its end (for the rim: ``p``).
    """

    a: np.ndarray
    b: np.ndarray
    p: np.ndarray
    q: np.ndarray
    normal: np.ndarray
    slack: np.ndarray
    e0: np.ndarray
    e1: np.ndarray


def contacts(card: CardState, reach: float = REACH_MM) -> Contacts:
    """Each vertex's nearest edge on every other symbol within ``gap + reach``, and
    every vertex within ``reach`` of the rim.

    Args:
        card: A card with every symbol placed.
        reach: How far beyond the gap to look, mm.

    Returns:
        The contacts (see :class:`Contacts`), symbol pairs first, rim last.
    """
    z = [card.placed(i, card.c[i:i + 1], card.th[i:i + 1], card.h[i])[0] for i in range(card.n)]
    owner = np.concatenate([np.full(len(zi), i) for i, zi in enumerate(z)])
    allz = np.concatenate(z)
    centre = card.c[:, 0] + 1j * card.c[:, 1]
    rad = card.rad * card.h
    parts = [_nearest_edges(card, b, z[b], allz, owner, centre[b], rad[b] + card.gap + reach)
             for b in range(card.n)]
    parts.append(_rim(card, allz, owner, reach))
    a, b, p, q, normal, dist, e0, e1 = (np.concatenate(x) for x in zip(*parts))
    return Contacts(a=a.astype(int), b=b.astype(int), p=p, q=q, normal=normal, slack=dist - card.gap, e0=e0, e1=e1)


def _rim(card: CardState, allz: np.ndarray, owner: np.ndarray, reach: float) -> tuple[np.ndarray, ...]:
    """Rim contacts of the vertices ``allz`` within ``reach`` of the rim: one for each of the
    :data:`RIM_SIDES` sides nearest the vertex's direction of the regular polygon inscribed
    in the safe disc (inside it is inside the disc, and a side stays exact under a shift).
    Returns ``(a, b, p, q, normal, distance)`` arrays, ``b`` = -1."""
    far = np.abs(allz) > card.R - reach
    p, a = allz[far], owner[far]
    k0 = np.rint(np.angle(p) / (2 * math.pi / RIM_POLYGON)).astype(int)
    sides = k0[:, None] + np.arange(-(RIM_SIDES // 2), RIM_SIDES // 2 + 1)[None, :]
    u = np.exp(2j * math.pi * sides / RIM_POLYGON)
    apothem = card.R * math.cos(math.pi / RIM_POLYGON)
    slack = apothem - (np.conj(u) * p[:, None]).real
    pp = np.repeat(p, sides.shape[1])
    return (np.repeat(a, sides.shape[1]), np.full(len(pp), -1), pp, pp, -u.ravel(), slack.ravel() + card.gap, pp, pp)


def _nearest_edges(card: CardState, b: int, zb: np.ndarray, allz: np.ndarray, owner: np.ndarray,
                   cb: complex, within: float) -> tuple[np.ndarray, ...]:
    """Contacts of the other symbols' vertices with symbol b's outline: per vertex within
    ``within`` of b's centre, its nearest edge of b (kept if closer than ``within - rad_b``).
    Returns ``(a, b, p, q, normal, distance)`` arrays."""
    sel = (owner != b) & (np.abs(allz - cb) < within)
    p = allz[sel]
    ring = card.rings[b].vertex_ring
    same = ring[:-1] == ring[1:]  # consecutive vertices of one ring make an edge
    e0, d = zb[:-1][same], (zb[1:] - zb[:-1])[same]
    t = np.clip(((p[:, None] - e0) * np.conj(d)).real / np.maximum((d * np.conj(d)).real, 1e-18), 0.0, 1.0)
    gap = np.abs(p[:, None] - e0 - t * d)
    k = np.argmin(gap, axis=1) if len(p) else np.zeros(0, dtype=int)
    rows = np.arange(len(p))
    dist = gap[rows, k]
    q = e0[k] + t[rows, k] * d[k]
    keep = dist < within - card.rad[b] * card.h[b]
    p, q, dist, k = p[keep], q[keep], dist[keep], k[keep]
    return (owner[sel][keep], np.full(len(p), b), p, q, (p - q) / np.maximum(dist, 1e-12), dist, e0[k],
            e0[k] + d[k])


def _motion(normal: np.ndarray, w: np.ndarray) -> np.ndarray:
    """``(k, 4)``: the normal component of a point's first-order motion per variable
    ``(dx, dy, dθ, g)`` of its symbol, for points at offsets ``w`` from the centre."""
    return np.stack([normal.real, normal.imag, (np.conj(normal) * 1j * w).real, (np.conj(normal) * w).real], axis=1)


def program(card: CardState, con: Contacts) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A step's linear program: minimise ``c x`` subject to ``A x <= b`` and ``bounds``.

    Variables: ``(dx, dy, dθ, g)`` of each symbol in turn, then ``μ``, a lower bound of
    the card's smallest ink size after the step (see :func:`_ratio_rows`).

    Returns:
        ``(c (4n+1,), A (k, 4n+1), b (k,), bounds (4n+1, 2))``.
    """
    n = card.n
    centre = card.c[:, 0] + 1j * card.c[:, 1]
    k = len(con.a)
    rows = np.zeros((k, NV * n + 1))
    idx = np.arange(k)[:, None]
    rows[idx, NV * con.a[:, None] + np.arange(NV)] = -_motion(con.normal, con.p - centre[con.a])
    pair = con.b >= 0
    b = con.b[pair]
    rows[idx[pair], NV * b[:, None] + np.arange(NV)] = _motion(con.normal[pair], con.q[pair] - centre[b])
    ratio_a, ratio_b = _ratio_rows(card)
    a_ub = np.vstack([rows, ratio_a])
    b_ub = np.concatenate([con.slack - MARGIN_MM, ratio_b])
    cost = np.zeros(NV * n + 1)
    cost[3:NV * n:NV] = -2.0 * (card.h * card.ink) ** 2
    bounds = np.zeros((NV * n + 1, 2))
    bounds[0:NV * n:NV] = bounds[1:NV * n:NV] = (-SHIFT_MM, SHIFT_MM)
    bounds[2:NV * n:NV] = np.stack(_turn_bounds(card), axis=1)
    bounds[3:NV * n:NV, 1] = GROWTH
    bounds[NV * n] = (0.0, np.inf)
    return cost, a_ub, b_ub, bounds


def _turn_bounds(card: CardState) -> tuple[np.ndarray, np.ndarray]:
    """``(lo, hi)`` ``(n,)``: the turn each symbol may take in a step (rotation limits kept)."""
    lim = card.p.max_rotation_deg
    lo, hi = np.full(card.n, -TURN_RAD), np.full(card.n, TURN_RAD)
    if lim is not None and lim > 0:
        cap = math.radians(lim)
        lo, hi = np.minimum(np.maximum(lo, -cap - card.th), 0.0), np.maximum(np.minimum(hi, cap - card.th), 0.0)
    fixed = ~card.p.rotatable | (lim == 0)
    lo[fixed], hi[fixed] = 0.0, 0.0
    return lo, hi


def _ratio_rows(card: CardState) -> tuple[np.ndarray, np.ndarray]:
    """Rows that keep the card's size ratio within its bounds after the step.

    Ink sizes after the step are ``s_i (1 + g_i)``. Floor: ``μ <= s_i (1 + g_i)`` and
    ``s_i (1 + g_i) <= μ m / ratio_low`` for every i (``m`` =
    :data:`~printdeck.layout.ratio.RATIO_MARGIN`). Ceiling: each symbol of the smallest
    ladder slot stays at most :func:`~printdeck.layout.ratio.small_share` of the one
    that is now the largest. A card already past a bound may not go further past it.
    """
    n = card.n
    s = card.h * card.ink
    eye = np.eye(n)
    g_cols = NV * np.arange(n) + 3
    lower = np.zeros((n, NV * n + 1))
    lower[:, g_cols], lower[:, -1] = -s * eye, 1.0
    rows, rhs = [lower], [s]
    low = card.p.ratio_low
    if low > 0:
        upper = np.zeros((n, NV * n + 1))
        upper[:, g_cols], upper[:, -1] = s * eye, -max(RATIO_MARGIN / low, float(s.max() / s.min()))
        rows.append(upper)
        rhs.append(-s)
    t = card.p.targets
    big = int(np.argmax(s))
    small = np.nonzero((t <= t.min() + 1e-9) & (np.arange(n) != big))[0] if t.min() < t.max() else np.zeros(0, int)
    if len(small):
        share = small_share(card)
        cap = np.zeros((len(small), NV * n + 1))
        cap[np.arange(len(small)), g_cols[small]] = s[small]
        cap[:, g_cols[big]] = -share * s[big]
        rows.append(cap)
        rhs.append(np.maximum(share * s[big] - s[small], 0.0))
    return np.vstack(rows), np.concatenate(rhs)


def _moved(card: CardState, x: np.ndarray, who: np.ndarray, z: np.ndarray) -> np.ndarray:
    """Points ``z`` (complex mm) of symbols ``who`` after step ``x``, exactly."""
    v = x[:NV * card.n].reshape(card.n, NV)[who]
    centre = card.c[who, 0] + 1j * card.c[who, 1]
    return centre + v[:, 0] + 1j * v[:, 1] + (1.0 + v[:, 3]) * np.exp(1j * v[:, 2]) * (z - centre)


def _kept(card: CardState, con: Contacts, x: np.ndarray) -> bool:
    """Whether after step ``x`` every contact's vertex is still farther than the gap from
    its edge, and every rim contact's vertex inside the safe disc (exact, cheap: a
    necessary condition of :func:`_apply`)."""
    p = _moved(card, x, con.a, con.p)
    pair = con.b >= 0
    if (np.abs(p[~pair]) > card.R).any():
        return False
    b = con.b[pair]
    e0, e1 = _moved(card, x, b, con.e0[pair]), _moved(card, x, b, con.e1[pair])
    d = e1 - e0
    t = np.clip(((p[pair] - e0) * np.conj(d)).real / np.maximum((d * np.conj(d)).real, 1e-18), 0.0, 1.0)
    return bool((np.abs(p[pair] - e0 - t * d) > card.gap).all())


def _slack_after(card: CardState, con: Contacts, x: np.ndarray) -> np.ndarray:
    """``(k,)``: each contact's slack after step ``x``, exactly (the vertex to its edge,
    moved; for the rim: to the polygon side)."""
    p = _moved(card, x, con.a, con.p)
    pair = con.b >= 0
    out = np.empty(len(p))
    b = con.b[pair]
    e0, e1 = _moved(card, x, b, con.e0[pair]), _moved(card, x, b, con.e1[pair])
    d = e1 - e0
    t = np.clip(((p[pair] - e0) * np.conj(d)).real / np.maximum((d * np.conj(d)).real, 1e-18), 0.0, 1.0)
    out[pair] = np.abs(p[pair] - e0 - t * d) - card.gap
    apothem = card.R * math.cos(math.pi / RIM_POLYGON)
    out[~pair] = apothem + (np.conj(con.normal[~pair]) * p[~pair]).real
    return out


def _apply(card: CardState, x: np.ndarray) -> list[tuple[np.ndarray, float, float, object]] | None:
    """The card after step ``x``, exactly: ``(centre, angle, height, outline)`` per symbol,
    or None if a vertex leaves the safe disc or two outlines come within the gap."""
    moved = []
    for i in range(card.n):
        dx, dy, dth, g = x[NV * i:NV * i + NV]
        c = card.c[i] + (dx, dy)
        th, h = float(card.th[i] + dth), float(card.h[i] * (1.0 + g))
        z = card.placed(i, c[None, :], np.array([th]), h)
        if not card.inside_all(z)[0]:
            return None
        moved.append((c, th, h, card.outlines(i, z)[0]))
    polys = np.array([m[3] for m in moved], dtype=object)
    centre = np.array([m[0] for m in moved])
    rad = card.rad * np.array([m[2] for m in moved])
    i, j = np.triu_indices(card.n, 1)
    near = np.hypot(*(centre[i] - centre[j]).T) <= rad[i] + rad[j] + card.gap + SAFETY_MM
    if shapely.dwithin(polys[i[near]], polys[j[near]], card.gap + SAFETY_MM).any():
        return None
    return moved


_SOLVER: list[highspy.Highs] = []  # one quiet HiGHS instance per process (see _solver)


def _solver() -> highspy.Highs:
    """This process's HiGHS instance: silent, one thread, no presolve (the programs are small).

    HiGHS prints a banner on standard output as a ``highspy.Highs`` is made, before any
    option can turn logging off (HiGHS issues 1702 and 2749), so it is made with file
    descriptor 1 pointed at ``os.devnull``. One thread keeps it safe in forked workers."""
    if not _SOLVER:
        try:
            saved, null = os.dup(1), os.open(os.devnull, os.O_WRONLY)
        except OSError:  # no standard output to protect
            saved = null = -1
        try:
            if saved >= 0:
                sys.stdout.flush()
                os.dup2(null, 1)
            solver = highspy.Highs()
        finally:
            if saved >= 0:
                os.dup2(saved, 1)
                os.close(saved)
                os.close(null)
        for option, value in (("output_flag", False), ("threads", 1), ("presolve", "off")):
            solver.setOptionValue(option, value)
        _SOLVER.append(solver)
    return _SOLVER[0]


def solve(cost: np.ndarray, a_ub: np.ndarray, b_ub: np.ndarray, bounds: np.ndarray) -> np.ndarray | None:
    """Minimise ``cost x`` subject to ``a_ub x <= b_ub`` and ``bounds`` (``(n, 2)``, ``inf``
    allowed) with HiGHS; the optimal ``x``, or None if there is none."""
    rows, cols = np.nonzero(a_ub)
    lp = highspy.HighsLp()
    lp.num_col_, lp.num_row_ = len(cost), len(b_ub)
    lp.col_cost_ = cost
    lp.col_lower_ = np.where(np.isinf(bounds[:, 0]), -highspy.kHighsInf, bounds[:, 0])
    lp.col_upper_ = np.where(np.isinf(bounds[:, 1]), highspy.kHighsInf, bounds[:, 1])
    lp.row_lower_ = np.full(len(b_ub), -highspy.kHighsInf)
    lp.row_upper_ = b_ub
    lp.a_matrix_.format_ = highspy.MatrixFormat.kRowwise
    lp.a_matrix_.start_ = np.searchsorted(rows, np.arange(len(b_ub) + 1)).astype(np.int32)
    lp.a_matrix_.index_ = cols.astype(np.int32)
    lp.a_matrix_.value_ = a_ub[rows, cols]
    solver = _solver()
    solver.passModel(lp)
    solver.run()
    if solver.getModelStatus() != highspy.HighsModelStatus.kOptimal:
        return None
    return np.array(solver.getSolution().col_value)


def compact(card: CardState, steps: int) -> int:
    """Compact a packed card in place (see the module docstring).

    Args:
        card: Every symbol placed, every gap kept.
        steps: Most linear programs to solve.

    Returns:
        The number of steps taken.
    """
    disc = math.pi * card.R ** 2
    for step in range(steps):
        con = contacts(card)
        cost, a_ub, b_ub, bounds = program(card, con)
        x = solve(cost, a_ub, b_ub, bounds)
        if x is None:  # no step keeps every margin
            return step
        gain = -float(cost @ x)
        for _ in range(HALVINGS + 1):
            moved = _apply(card, x) if _kept(card, con, x) else None
            if moved is not None:
                break
            x, gain = 0.5 * x, 0.5 * gain
        else:
            return step
        for i, (c, th, h, outline) in enumerate(moved):
            card.set(i, c, th, h, outline)
        if gain < MIN_GAIN * disc:
            return step + 1
    return steps
