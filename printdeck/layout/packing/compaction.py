"""Collective compaction: every symbol moves, turns and grows at once, by linear programming.

A card packed one symbol at a time ends *jammed*: no symbol can grow alone, because
each touches neighbours that would have to move first. This stage moves all of them
together by sequential linear programming, as in the compaction of non-convex
polygons of Li and Milenkovic (1995, "Compaction and separation algorithms for
non-convex polygons and their applications", European Journal of Operational
Research 84) and the adaptive shrinking cell of Torquato and Jiao (2009, "Dense
packings of the Platonic and Archimedean solids", Nature 460), with growth in place of
a shrinking container. Each step:

1. Contacts (:func:`~.contacts.contacts`): each vertex near another
   outline with its nearest edge there, and each vertex near the rim.
2. Linear program (:func:`program`). Per symbol: a shift ``(dx, dy)`` (mm), a turn ``dθ``
   (rad) and a growth ``g`` (height ``h -> h (1 + g)``). To first order a point at offset
   ``w`` from its symbol's centre moves by ``(dx, dy) + dθ J w + g w`` (``J`` a quarter
   turn). No contact may close by more than its slack less :data:`MARGIN_MM` (the normal
   component of its two points' relative motion), and the card's size ratio stays within
   its bounds; on a card whose ratio is under its floor (a start may leave it so) the
   ratio must come back towards the floor by :data:`REPAIR` ``GROWTH`` each step. Each
   variable has a trust region (:data:`SHIFT_MM`, :data:`TURN_RAD`, :data:`GROWTH`).
   A symbol bigger, beside the card's others, than its planned size slot may also
   shrink, when that lets the others gain more (as may every symbol of a card under its
   floor); one at or under its slot may not, so the deck's size balance holds. The
   objective is the card's ink area gained, ``Σ 2 a_i g_i`` (``a_i`` symbol i's ink
   area); HiGHS solves it (:mod:`~.lp_solve`). (What shrinking gains, and why only
   symbols ahead of their slots may: bench/RESULTS.md.)
3. Step. The solution is applied exactly (turns as rotations) and checked exactly, as
   everywhere in the engine: first the contacts themselves, then every vertex inside the
   safe disc and every two outlines more than ``gap`` apart. A turn moves points off
   their linear path (second order), so a step can fail; it is then halved, at most
   :data:`HALVINGS` times (the error falls four times faster than the step).

It stops after ``steps`` steps, when a step gains less than the card's
``compact_min_gain`` share of the safe zone (:class:`~.card_state.PackInput`: a card
that gains little stops early, one still gaining goes on), or when no fraction of a
step passes; a step that would lose ink is not taken,
unless it restores the size ratio floor. Every state is valid. Several cards are
compacted in lockstep by :func:`~.lockstep.compact_many` (each card's steps the same;
:func:`programs` builds their programs at once). Lengths are mm in card coordinates
(origin at the centre, y up), angles radians counter-clockwise.
"""

from __future__ import annotations

import math

import numpy as np
import shapely

from printdeck.layout.packing.card_state import CENTRE, SAFETY_MM, CardState
from printdeck.layout.packing.contacts import Contacts, contacts, joined, kept
from printdeck.layout.packing.lp_solve import SparseRows, solve
from printdeck.layout.packing.size_ratio import RATIO_MARGIN, below_floor, small_share
from printdeck.layout.packing.whole_card import WholeCard, none_by, planned_share

SHIFT_MM = 1.0  # trust region of a step: shifts up to this in x and in y
TURN_RAD = 0.05  # ... turns up to this
GROWTH = 0.05  # ... growth up to this share of the height
MARGIN_MM = 0.01  # contacts keep this much more than the gap (room for second-order error)
HALVINGS = 6  # a step failing the exact check is halved at most this many times
REPAIR = 2.0  # a card under its size ratio floor brings its spread back by this times GROWTH a step
BEND_SHARE = 1.0  # share of the second-order bound kept as extra margin on each contact
NV = 4  # variables per symbol: dx, dy, dθ, g


def _motion(normal: np.ndarray, w: np.ndarray) -> np.ndarray:
    """``(k, 4)``: the normal component of a point's first-order motion per variable
    ``(dx, dy, dθ, g)`` of its symbol, for points at offsets ``w`` from the centre."""
    out = np.empty((len(normal), 4))
    out[:, 0], out[:, 1] = normal.real, normal.imag
    out[:, 2], out[:, 3] = (np.conj(normal) * 1j * w).real, (np.conj(normal) * w).real
    return out


def program(
    card: CardState,
    con: Contacts,
    whole: WholeCard | None = None,
    turns: tuple[np.ndarray, np.ndarray] | None = None,
) -> tuple[np.ndarray, SparseRows, np.ndarray, np.ndarray]:
    """A step's linear program: minimise ``c x`` subject to ``A x <= b`` and ``bounds``.

    Variables: ``(dx, dy, dθ, g)`` of each symbol in turn, then ``μ``, a lower bound of
    the card's smallest ink size after the step (see :func:`_ratio_rows`). ``A`` is
    built by its nonzeros (a contact's row touches only its one or two symbols).
    ``turns``: :func:`turn_bounds` of the card (found here if None).

    Returns:
        ``(c (4n+1,), A (k, 4n+1) as SparseRows, b (k,), bounds (4n+1, 2))``.
    """
    centre = card.centers_mm[:, 0] + 1j * card.centers_mm[:, 1]
    turns = turn_bounds(card) if turns is None else turns
    rows = _contact_rows(con, centre, NV * card.n_symbols + 1)
    return _assembled(card, whole, turns, rows, _room(card, con, centre, turns))


def programs(
    cards: list[CardState], cons: list[Contacts], wholes: list[WholeCard], turns: list[tuple[np.ndarray, np.ndarray]]
) -> list[tuple[np.ndarray, SparseRows, np.ndarray, np.ndarray]]:
    """Each card's :func:`program`, its contact rows and their room made for all the cards
    at once (element by element as :func:`program` makes them: the same programs).

    Args:
        cards: The cards, every symbol placed.
        cons: Each card's contacts (:func:`~.contacts.contacts`).
        wholes: Each card's :class:`~.whole_card.WholeCard`.
        turns: Each card's :func:`turn_bounds`.

    Returns:
        Per card ``(c (4n+1,), A (k, 4n+1) as SparseRows, b (k,), bounds (4n+1, 2))``.
    """
    first = np.concatenate([[0], np.cumsum([card.n_symbols for card in cards])])
    centre = np.concatenate([card.centers_mm[:, 0] + 1j * card.centers_mm[:, 1] for card in cards])
    con, glob = joined(cons, first)
    value, col, keep = _contact_entries(con, glob, centre)
    counts = np.concatenate([[0], np.cumsum(keep.sum(axis=1))])
    col, value = col[keep], value[keep]
    bend = np.concatenate([_bend(card, turn) for card, turn in zip(cards, turns)])
    room = _room_of(glob, centre, bend)
    row = np.concatenate([[0], np.cumsum([len(c.a) for c in cons])])
    out = []
    for k, card in enumerate(cards):
        r0, r1 = row[k], row[k + 1]
        nz0, nz1 = counts[r0], counts[r1]
        rows = SparseRows(counts[r0:r1] - nz0, col[nz0:nz1], value[nz0:nz1], (r1 - r0, NV * card.n_symbols + 1))
        out.append(_assembled(card, wholes[k], turns[k], rows, room[r0:r1]))
    return out


def _room(card: CardState, con: Contacts, centre: np.ndarray, turns: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    """``(k,)`` how far each contact may close in a step: its slack less :data:`MARGIN_MM`
    and the second-order error of its points (:func:`_bend`)."""
    return _room_of(con, centre, _bend(card, turns))


def _room_of(con: Contacts, centre: np.ndarray, bend: np.ndarray) -> np.ndarray:
    """:func:`_room` from each symbol's ``bend`` (``con``'s symbols index ``centre`` and ``bend``)."""
    pair = con.b >= 0
    b = con.b[pair]
    room = con.slack - MARGIN_MM - bend[con.a] * np.abs(con.p - centre[con.a])
    room[pair] -= bend[b] * np.abs(con.q[pair] - centre[b])
    return room


def _assembled(
    card: CardState,
    whole: WholeCard | None,
    turns: tuple[np.ndarray, np.ndarray],
    rows: SparseRows,
    room: np.ndarray,
) -> tuple[np.ndarray, SparseRows, np.ndarray, np.ndarray]:
    """The program from its contact ``rows`` and their ``room``: the size ratio rows, the
    objective and the bounds added (see :func:`program`)."""
    n = card.n_symbols
    ratio_a, ratio_b = _ratio_rows(card, None if whole is None else whole.ratio_shapes)
    a_ub = rows.stacked(ratio_a)
    b_ub = np.concatenate([room, ratio_b])
    cost = np.zeros(NV * n + 1)
    cost[3 : NV * n : NV] = -2.0 * card.ink_sizes_mm() ** 2
    bounds = np.zeros((NV * n + 1, 2))
    bounds[0 : NV * n : NV] = bounds[1 : NV * n : NV] = (-SHIFT_MM, SHIFT_MM)
    bounds[2 : NV * n : NV, 0], bounds[2 : NV * n : NV, 1] = turns
    share = None if whole is None else whole.planned_share
    bounds[3 : NV * n : NV, 0] = np.where(_ahead(card, share) | below_floor(card), -GROWTH, 0.0)
    bounds[3 : NV * n : NV, 1] = GROWTH
    bounds[NV * n] = (0.0, np.inf)
    for i in card.fixed.nonzero()[0]:  # a pinned symbol: no shift, turn or growth
        bounds[NV * i : NV * i + NV] = 0.0
    return cost, a_ub, b_ub, bounds


def _contact_rows(con: Contacts, centre: np.ndarray, width: int) -> SparseRows:
    """The contacts' rows of the program, ``width`` columns: per contact, how far each
    variable of its two symbols closes it (``-motion`` of ``p`` for symbol ``a``,
    ``+motion`` of ``q`` for ``b``; only ``a`` for the rim), nonzeros by column."""
    value, col, keep = _contact_entries(con, con, centre)
    start = np.concatenate([[0], np.cumsum(keep.sum(axis=1))[:-1]]) if len(con.a) else np.zeros(0, dtype=int)
    return SparseRows(start, col[keep], value[keep], (len(con.a), width))


def _contact_entries(con: Contacts, glob: Contacts, centre: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The contacts' rows as ``(value (k, 2 NV), column (k, 2 NV), nonzero (k, 2 NV))``
    (see :func:`_contact_rows`); ``glob``: the same contacts with their symbols numbered
    as ``centre`` numbers them (``con`` itself for one card)."""
    pair = con.b >= 0
    first = (~pair | (con.a < con.b))[:, None]  # the lower symbol's columns first
    span = np.arange(NV)
    own = -_motion(con.normal, con.p - centre[glob.a])
    other = _motion(con.normal, con.q - centre[glob.b])  # the rim's rows (b < 0) take none of it
    other[~pair] = 0.0
    value = np.concatenate([np.where(first, own, other), np.where(first, other, own)], axis=1)
    own_col, other_col = NV * con.a[:, None] + span, NV * con.b[:, None] + span
    col = np.concatenate([np.where(first, own_col, other_col), np.where(first, other_col, own_col)], axis=1)
    return value, col, value != 0.0


def _bend(card: CardState, turns: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    """``(n,)``: a bound, per mm of offset from its centre, of how far a point of each symbol
    strays from its linearised motion in a step (turn ``θ`` and growth ``g`` within the trust
    region: ``|(1 + g) e^{iθ} - 1 - g - iθ| <= (1 + g) θ² / 2 + |g θ|``; ``turns``:
    :func:`turn_bounds`)."""
    lo, hi = turns
    turn = np.maximum(np.abs(lo), np.abs(hi))
    bend = BEND_SHARE * ((1.0 + GROWTH) * turn * turn / 2.0 + GROWTH * turn)
    bend[card.fixed] = 0.0  # a pinned symbol does not move
    return bend


def _ahead(card: CardState, share: np.ndarray | None = None) -> np.ndarray:
    """``(n,) bool``: the symbols bigger, relative to the card's others, than their size
    slots planned (see ``printdeck.layout.size_plan.DeckPlanner``; ``share``:
    :attr:`~.whole_card.WholeCard.planned_share`, found here if None)."""
    if share is None:
        share = planned_share(card)
    size = card.ink_sizes_mm()
    return size / size.mean() > share


def turn_bounds(card: CardState) -> tuple[np.ndarray, np.ndarray]:
    """``(lo, hi)`` ``(n,)``: the turn each symbol may take in a step (rotation limits kept)."""
    lim = card.problem.max_rotation_deg
    lo, hi = np.full(card.n_symbols, -TURN_RAD), np.full(card.n_symbols, TURN_RAD)
    if lim is not None and lim > 0:
        cap = math.radians(lim)
        angles = card.angles_rad
        lo, hi = np.minimum(np.maximum(lo, -cap - angles), 0.0), np.maximum(np.minimum(hi, cap - angles), 0.0)
    fixed = ~card.problem.rotatable | (lim == 0)
    lo[fixed], hi[fixed] = 0.0, 0.0
    return lo, hi


def _spread_bound(card: CardState) -> float:
    """The largest over the smallest ink size the step may leave: the floor's
    ``m / ratio_low``, or for a card below the floor a spread :data:`REPAIR` times
    closer to it than now (see :func:`program`: such a card's symbols may shrink)."""
    s = card.ink_sizes_mm()[card.free]
    floor, now = RATIO_MARGIN / card.problem.ratio_low, float(s.max() / s.min())
    return floor if now <= floor else max(floor, now / (1.0 + REPAIR * GROWTH))


def _ratio_rows(card: CardState, shapes: dict[int, tuple] | None = None) -> tuple[SparseRows, np.ndarray]:
    """Rows that keep the card's size ratio within its bounds after the step.

    Ink sizes after the step are ``s_i (1 + g_i)``. Floor: ``μ <= s_i (1 + g_i)`` and
    ``s_i (1 + g_i) <= μ m / ratio_low`` for every i (``m`` =
    :data:`~.size_ratio.RATIO_MARGIN`). Ceiling: each symbol of the smallest
    ladder slot stays at most :func:`~.size_ratio.small_share` of the one
    that is now the largest. A card already past a bound may not go further past it.
    Pinned symbols (``card.fixed``) count in no bound.

    Every row has two entries: a symbol's ``g`` and ``μ`` (floor), or a small symbol's
    and the largest one's ``g`` (ceiling). Where they sit depends only on which symbol is
    the largest, so ``shapes`` (one dict per card, filled here) keeps them by it.
    """
    s = card.ink_sizes_mm()
    big = int(np.argmax(np.where(card.free, s, -np.inf)))
    shape = shapes.get(big) if shapes is not None else None
    if shape is None:
        shape = _ratio_shape(card, big)
        if shapes is not None:
            shapes[big] = shape
    free, small, start, index, width, share = shape
    f = len(free)
    value = np.empty((len(start), 2))
    value[:f, 0], value[:f, 1] = -s[free], 1.0
    rhs = [s[free]]
    if card.problem.ratio_low > 0:
        value[f : 2 * f, 0], value[f : 2 * f, 1] = s[free], -_spread_bound(card)
        rhs.append(-s[free])
    if len(small):
        ahead = (small < big)[:, None]  # the small symbol's column comes first
        pair = np.empty((len(small), 2))
        pair[:, 0], pair[:, 1] = s[small], -share * s[big]
        value[len(start) - len(small) :] = np.where(ahead, pair, pair[:, ::-1])
        rhs.append(np.maximum(share * s[big] - s[small], 0.0))
    flat = value.ravel()
    if not flat.all():  # a zero is no entry
        keep = flat != 0.0
        start = np.concatenate([[0], np.cumsum(keep.reshape(-1, 2).sum(axis=1))[:-1]])
        index, flat = index[keep], flat[keep]
    return SparseRows(start, index, flat, (len(start), width)), np.concatenate(rhs)


def _ratio_shape(card: CardState, big: int) -> tuple:
    """Where :func:`_ratio_rows`' entries sit when symbol ``big`` is the largest:
    ``(free symbols, small symbols, row starts, columns, width, small_share)``."""
    n = card.n_symbols
    free = np.nonzero(card.free)[0]
    g_cols, mu = NV * np.arange(n) + 3, NV * n
    t = np.where(card.free, card.problem.targets, np.inf)
    t_max = float(card.problem.targets[card.free].max())
    small = np.nonzero((t <= t.min() + 1e-9) & (np.arange(n) != big))[0] if t.min() < t_max else np.zeros(0, int)
    floor = np.stack([g_cols[free], np.full(len(free), mu)], axis=1)
    cap = np.sort(np.stack([g_cols[small], np.full(len(small), g_cols[big])], axis=1), axis=1)
    cols = [floor, floor, cap] if card.problem.ratio_low > 0 else [floor, cap]
    index = np.concatenate(cols).ravel()
    return free, small, 2 * np.arange(len(index) // 2), index, NV * n + 1, small_share(card)


def apply_step(
    card: CardState, whole: WholeCard, step: np.ndarray, turns: tuple[np.ndarray, np.ndarray]
) -> tuple[np.ndarray, ...] | None:
    """The card after ``step`` (``(n, 4)``, see :func:`~.contacts.moved`), exactly:
    ``(centres (n, 2), angles (n,), heights (n,), outlines (n,))``, or None if a vertex
    leaves the safe zone or two outlines come within the gap (``turns``: :func:`turn_bounds`)."""
    centres, angles, heights = stepped(card.centers_mm, card.angles_rad, card.heights_mm, step, turns)
    ok, polys = checked_poses(card, whole, centres, angles, heights)
    return (centres, angles, heights, polys) if ok[0] else None


def stepped(
    centers_mm: np.ndarray,
    angles_rad: np.ndarray,
    heights_mm: np.ndarray,
    step: np.ndarray,
    turns: tuple[np.ndarray, np.ndarray],
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The poses ``(centres (n, 2) mm, angles (n,) rad, heights (n,) mm)`` after ``step``
    (``(n, 4)``), the turns held within ``turns`` (``(lo, hi)``, each ``(n,)``)."""
    turn = np.clip(step[:, 2], *turns)  # the dual's ~1e-17 turn of an upright symbol is 0
    return centers_mm + step[:, :2], angles_rad + turn, heights_mm * (1.0 + step[:, 3])


def checked_poses(
    card: CardState, whole: WholeCard, centres: np.ndarray, angles: np.ndarray, heights: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Which of ``whole``'s cards (one card's, or a batch's: :mod:`~.whole_batch`) are valid
    with their symbols at these poses, exactly: every hull vertex in the safe zone (the
    hulls decide), every two outlines more than the gap apart, none on the free centre
    (``card`` gives the zone, gap and free centre). Returns ``((n_cards,) bool, outlines (S,))``."""
    n_cards = whole.n_cards
    inside = card.zone.inside(whole.hulls_placed(centres, angles, heights))
    ok = none_by(~inside, whole.symbol_card[whole.hull_owner], n_cards)
    polys = whole.outlines(whole.placed(centres, angles, heights))
    rad = whole.radius_box * heights
    a, b = whole.pair_a, whole.pair_b
    near = (np.hypot(*(centres[a] - centres[b]).T) <= rad[a] + rad[b] + card.gap_mm + SAFETY_MM).nonzero()[0]
    touch = shapely.dwithin(polys[a[near]], polys[b[near]], card.gap_mm + SAFETY_MM)
    ok &= none_by(touch, whole.symbol_card[a[near]], n_cards)
    if card.centre_free_mm > 0:  # as CardState.clear_of keeps the free centre
        on_centre = shapely.dwithin(CENTRE, polys, card.centre_free_mm + card.gap_mm + SAFETY_MM)
        ok &= none_by(on_centre, whole.symbol_card, n_cards)
    return ok, polys


def compact(card: CardState, steps: int) -> int:
    """Compact a packed card in place (see the module docstring).

    Args:
        card: Every symbol placed, every gap kept.
        steps: Most linear programs to solve.

    Returns:
        The number of steps taken.
    """
    disc = card.zone.area_mm2
    whole = WholeCard(card)
    for step in range(steps):
        turns = turn_bounds(card)  # the same for the program and its exact check
        con = contacts(card, whole)
        cost, a_ub, b_ub, bounds = program(card, con, whole, turns)
        x = solve(cost, a_ub, b_ub, bounds)
        if x is None:  # no step keeps every margin
            return step
        gain = -float(cost @ x)
        if gain < 0 and not below_floor(card):  # only restoring the size ratio floor may cost ink
            return step
        move = x[: NV * card.n_symbols].reshape(card.n_symbols, NV)
        for _ in range(HALVINGS + 1):
            after = apply_step(card, whole, move, turns) if kept(card, con, move) else None
            if after is not None:
                break
            move, gain = 0.5 * move, 0.5 * gain
        else:
            return step
        card.put_all(*after)
        if gain < card.problem.compact_min_gain * disc:
            return step + 1
    return steps
