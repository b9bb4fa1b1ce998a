"""Contacts: where the symbols of a packed card meet each other and the rim.

Two outlines that keep a distance are nearest at a vertex of one of them, so a card's
contacts are its vertices near another outline, each with its nearest edge there
(:func:`contacts`): the vertex ``p``, the nearest point ``q`` on the edge, the unit normal
``n = (p - q) / |p - q|`` and the slack ``|p - q| - gap``. Near the rim a vertex gets
a contact with the safe zone's sides near it (a polygon's own sides; on a disc, the chord
across the vertex's direction at the apothem of a regular polygon inscribed in it; see
:meth:`~.safe_zone.SafeZone.rim_contacts`).
The compaction (:mod:`~.compaction`) linearises these. Lengths are mm,
points complex ``x + iy`` in card coordinates (origin at the centre, y up).
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from printdeck.layout.packing.card_field import clip_ufunc
from printdeck.layout.packing.card_state import CardState
from printdeck.layout.packing.whole_card import WholeCard

CENTRE_CONTACT = -2  # Contacts.b of a vertex's contact with the free centre (see CardState.centre_free_mm)
REACH_MM = 2.0  # vertices within gap + this of another symbol (or this of the rim) are contacts
CHUNK_PAIRS = 8192  # point-edge pairs searched at once (see nearest_edge_of)
_clip = clip_ufunc()


@dataclass(frozen=True)
class Contacts:
    """A card's contacts (see the module docstring). Arrays are ``(k,)``.

    Attributes:
        a: Symbol owning the vertex ``p``.
        b: Symbol owning the nearest point ``q``; -1 for the rim, :data:`CENTRE_CONTACT`
            for the free centre (its normal points away from the centre).
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


def joined(cons: Sequence[Contacts], first: np.ndarray) -> tuple[Contacts, Contacts]:
    """Several cards' contacts end to end: as they are (each card's symbols numbered from
    0) and with their symbols numbered across the cards (card k's from ``first[k]``; the
    rim's and free centre's negative ``b`` kept)."""
    con = Contacts(*(np.concatenate([getattr(c, f.name) for c in cons]) for f in dataclasses.fields(Contacts)))
    offset = np.concatenate([np.full(len(c.a), first[k]) for k, c in enumerate(cons)])
    return con, dataclasses.replace(con, a=con.a + offset, b=np.where(con.b >= 0, con.b + offset, con.b))


def contacts(card: CardState, whole: WholeCard | None = None, reach: float | None = None) -> Contacts:
    """Each vertex's nearest edge on every other symbol within ``gap + reach``, and
    every vertex within ``reach`` of the rim.

    Args:
        card: A card with every symbol placed.
        whole: The card's :class:`~.whole_card.WholeCard` (made here if None).
        reach: How far beyond the gap to look, mm (default :data:`REACH_MM`).

    Returns:
        The contacts (see :class:`Contacts`), symbol pairs first (by the symbol owning
        the edge, then by vertex), rim last.
    """
    reach = REACH_MM if reach is None else reach
    whole = WholeCard(card) if whole is None else whole
    reach = REACH_MM if reach is None else reach
    whole = WholeCard(card) if whole is None else whole
    allz = whole.placed(card.centers_mm, card.angles_rad, card.heights_mm)
    parts = [_nearest_edges(card, whole, allz, reach), rim_parts(card, allz, whole.owner, reach)[0]]
    a, b, p, q, normal, dist, e0, e1 = (np.concatenate(x) for x in zip(*parts))
    return Contacts(a=a.astype(int), b=b.astype(int), p=p, q=q, normal=normal, slack=dist - card.gap_mm, e0=e0, e1=e1)


def rim_parts(
    card: CardState, allz: np.ndarray, owner: np.ndarray, reach: float
) -> tuple[tuple[np.ndarray, ...], np.ndarray]:
    """Rim contacts of the vertices ``allz`` within ``reach`` of the rim (see
    :meth:`~.safe_zone.SafeZone.rim_contacts`: a polygon's side stays exact under a shift, a
    disc's chord keeps the vertex inside the disc while it moves along the chord less than
    ``R sin(π / n)``, and the exact check decides the rest), and of
    those within ``reach`` of the free centre (``b`` = :data:`CENTRE_CONTACT`, the normal
    pointing away from the centre: ``u . p' >= K`` keeps ``|p'| >= K``).
    Returns ``(a, b, p, q, normal, distance, e0, e1)`` arrays, ``b`` = -1, ``q``, ``e0``
    and ``e1`` the vertex itself; and each contact's index into ``allz``."""
    which, normal, slack = card.zone.rim_contacts(allz, reach)
    owners = np.full(len(which), -1)
    if card.centre_free_mm > 0:  # the free centre: keep each vertex near it that far out
        keep_out = card.centre_free_mm + card.gap_mm
        close = np.nonzero(np.abs(allz) < keep_out + reach)[0]
        r = np.maximum(np.abs(allz[close]), 1e-12)
        which = np.concatenate([which, close])
        normal = np.concatenate([normal, allz[close] / r])
        slack = np.concatenate([slack, r - keep_out])
        owners = np.concatenate([owners, np.full(len(close), CENTRE_CONTACT)])
    pp, a = allz[which], owner[which]
    return (a, owners, pp, pp, normal, slack + card.gap_mm, pp, pp), which


def _nearest_edges(card: CardState, whole: WholeCard, allz: np.ndarray, reach: float) -> tuple[np.ndarray, ...]:
    """Contacts of every symbol's outline with the other symbols' vertices ``allz``: per
    vertex within ``within = rad_b + gap + reach`` of symbol b's centre (and not put
    farther by b's distance field), its nearest edge of b, kept if closer than
    ``within - rad_b``. Returns ``(a, b, p, q, normal, distance, e0, e1)`` arrays."""
    centre = card.centers_mm[:, 0] + 1j * card.centers_mm[:, 1]
    return edges_near(whole, allz, (centre, card.angles_rad, card.heights_mm), card.gap_mm + reach, *whole.candidates)


def edges_near(
    whole: WholeCard,
    allz: np.ndarray,
    poses: tuple[np.ndarray, np.ndarray, np.ndarray],
    reach: float,
    cand_b: np.ndarray,
    cand_v: np.ndarray,
) -> tuple[np.ndarray, ...]:
    """:func:`_nearest_edges` of the candidate pairs (symbol ``cand_b``, vertex ``cand_v``)
    of ``whole`` (a card's, or a batch's: see :mod:`~.whole_batch`): ``poses`` are the
    symbols' centres (complex mm), angles (rad) and heights (mm), ``reach`` the gap plus
    how far beyond it to look (mm)."""
    centre, angles, h = poses
    rad = whole.radius_box * h
    within = rad + reach
    close = np.abs(allz[cand_v] - centre[cand_b]) < within[cand_b]
    b, v = cand_b[close], cand_v[close]
    turn = np.array([complex(math.cos(-t), math.sin(-t)) for t in angles])
    box = (allz[v] - centre[b]) * turn[b] / h[b]  # in b's box
    far = within - whole.radius_box * h  # farther than this from b: no contact
    sure = whole.lower_at(b, box) * h[b] < far[b]  # not surely too far
    b, v = b[sure], v[sure]
    p = allz[v]
    t, dist, e0, d = nearest_edge_of(whole, allz, b, p, box[sure])
    q = e0 + t * d
    keep = dist < far[b]
    p, q, dist, e0k, dk = p[keep], q[keep], dist[keep], e0[keep], d[keep]
    return (whole.owner[v[keep]], b[keep], p, q, (p - q) / np.maximum(dist, 1e-12), dist, e0k, e0k + dk)


def nearest_edge_of(
    whole: WholeCard, allz: np.ndarray, b: np.ndarray, p: np.ndarray, box: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Each point ``p`` ``(P,) complex`` against the edges of its symbol ``b`` ``(P,)`` (the
    card's vertices placed at ``allz``) that may be nearest to it (by where it lies in
    ``b``'s box, ``box`` ``(P,) complex`` box units: :meth:`~.whole_card.WholeCard.cell_edges`):
    the nearest edge's ``(t, distance, e0, d)`` as :func:`to_segments` gives them (the
    first such edge on a tie, as ``np.argmin`` over every edge of ``b``).

    The point-edge pairs are laid out flat, each point's run as long as its cell's list
    of edges (not padded to the longest), at
    most about :data:`CHUNK_PAIRS` of them at a time (a batch of cards has many more: a
    larger temporary costs more in page faults than the calls it saves)."""
    if not len(p):
        return np.zeros(0), np.zeros(0), np.zeros(0, complex), np.zeros(0, complex)
    first, lengths = whole.cell_edges(b, box)
    total = int(lengths.sum())
    start = allz[whole.edge_start]  # every edge's start, direction and squared length, once a search
    direction = allz[whole.edge_start + 1] - start
    edges = (start, direction, (direction * np.conj(direction)).real)
    if total <= CHUNK_PAIRS:
        return _nearest_run(whole, edges, b, p, (first, lengths))
    ends = np.searchsorted(np.cumsum(lengths), np.arange(CHUNK_PAIRS, total, CHUNK_PAIRS), side="right")
    cuts = [0, *sorted(set(ends[ends > 0].tolist())), len(p)]  # (not np.unique: it loads numpy.ma)
    parts = [
        _nearest_run(whole, edges, b[i:j], p[i:j], (first[i:j], lengths[i:j]))
        for i, j in itertools.pairwise(cuts)
        if j > i
    ]
    return tuple(np.concatenate(x) for x in zip(*parts))  # type: ignore[return-value]


def _nearest_run(
    whole: WholeCard,
    edges: tuple[np.ndarray, np.ndarray, np.ndarray],
    b: np.ndarray,
    p: np.ndarray,
    cells: tuple[np.ndarray, np.ndarray],
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """:func:`nearest_edge_of` of one run of points (``cells``: where each point's edges
    to search start in ``whole.cell_edge_list`` and how many; ``edges``: every edge's start,
    direction (complex mm) and squared length (mm²), ``(E,)`` each), each pair as
    :func:`to_segments` finds it."""
    first, lengths = cells
    run = np.concatenate([[0], np.cumsum(lengths)[:-1]])  # where each point's run starts
    at = np.arange(int(lengths.sum())) + np.repeat(first - run, lengths)
    edge = np.repeat(whole.edge_first[b], lengths) + whole.cell_edge_list[at]
    e0, d, dd = edges[0][edge], edges[1][edge], edges[2][edge]
    off = np.repeat(p, lengths) - e0
    t = _clip((off * np.conj(d)).real / np.maximum(dd, 1e-18), 0.0, 1.0)
    dist = np.abs(off - t * d)
    least = np.minimum.reduceat(dist, run)
    hit = (dist == np.repeat(least, lengths)).nonzero()[0]
    k = hit[np.searchsorted(hit, run)]  # the first nearest edge of each point (every run has one)
    return t[k], dist[k], e0[k], d[k]


def to_segments(p: np.ndarray, e0: np.ndarray, d: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Points ``p`` against segments from ``e0`` along ``d`` (complex, broadcast together):
    ``(t, distance)``, ``e0 + t d`` the segment's point nearest ``p``."""
    off = p - e0
    t = _clip((off * np.conj(d)).real / np.maximum((d * np.conj(d)).real, 1e-18), 0.0, 1.0)
    return t, np.abs(off - t * d)


def moved(centre: np.ndarray, step: np.ndarray, who: np.ndarray, z: np.ndarray) -> np.ndarray:
    """Points ``z`` (complex mm) of symbols ``who`` after ``step`` (``(n, 4)``: each
    symbol's shift ``dx, dy`` mm, turn ``dθ`` rad and growth ``g``), exactly; ``centre``:
    ``(n,) complex`` the symbols' centres before it."""
    moved_centre, turn = centre + step[:, 0] + 1j * step[:, 1], (1.0 + step[:, 3]) * np.exp(1j * step[:, 2])
    return moved_centre[who] + turn[who] * (z - centre[who])


def kept(card: CardState, con: Contacts, step: np.ndarray) -> bool:
    """Whether after ``step`` (see :func:`moved`) every contact's vertex is still farther
    than the gap from its edge, and every rim contact's vertex inside the safe disc:
    exact for these points, so a cheap first check of a step (not a whole one: other
    points may meet)."""
    centre = card.centers_mm[:, 0] + 1j * card.centers_mm[:, 1]
    return not broken(card, centre, step, con).any()


def broken(card: CardState, centre: np.ndarray, step: np.ndarray, con: Contacts) -> np.ndarray:
    """``(k,) bool``: which contacts ``con`` a ``step`` breaks (see :func:`kept`), for
    symbols whose centres are ``centre`` (``con``'s symbols index it and ``step``: one
    card's, or a batch's numbered across it); ``card`` gives the zone, gap and free centre."""
    pair = con.b >= 0
    b = con.b[pair]
    k, m = len(con.a), len(b)
    everyone = moved(  # the contacts' points, then their edges' ends: one pass
        centre, step, np.concatenate([con.a, b, b]), np.concatenate([con.p, con.e0[pair], con.e1[pair]])
    )
    p, e0, e1 = everyone[:k], everyone[k : k + m], everyone[k + m :]
    bad = np.zeros(k, dtype=bool)
    rim, mid = con.b == -1, con.b == CENTRE_CONTACT
    bad[rim] = ~card.zone.inside(p[rim])
    bad[mid] = np.abs(p[mid]) <= card.centre_free_mm + card.gap_mm
    bad[pair] = ~(to_segments(p[pair], e0, e1 - e0)[1] > card.gap_mm)
    return bad
