"""Partial decks when no projective plane of order n = k - 1 is known.

Every two cards still share exactly one symbol, every card has exactly k symbols;
there are just fewer cards than a plane would have. Deterministic constructions:

* **Net from Latin squares** (Bruck 1951, nets): with t mutually orthogonal Latin
  squares (MOLS) of order n, the n x n cells are symbols; rows, columns and the
  symbol classes of each square are t + 2 parallel classes of n lines of n cells.
  Each class gets a symbol "at infinity" added to its lines (lines of one class then
  share it), and one card holds the symbols at infinity (padded with new symbols).
  MOLS come from MacNeish's product of finite-field squares (MacNeish 1922). For
  n = 6 (one square, t = 1) four transversals of a fixed Latin square, pairwise
  meeting in exactly one cell, each with its own new symbol added to it and to the
  card at infinity, give 3*6 + 4 + 1 = 23 cards.
* **Padded smaller plane**: PG(2, q) for the largest prime power q < n, each card
  padded with n - q symbols of its own (they appear on one card only). It usually
  has the most cards (31 for n = 6, 91 for n = 10) but n - q of each card's symbols
  never match anything.
* **Greedy extension**: a new card meets every card exactly once iff its old
  symbols' card sets partition the deck; an exact-cover search finds one, the rest
  of the card being new symbols. Repeated until none exists or the step budget
  (:data:`GREEDY_STEPS` search nodes) is spent.
* **CP-SAT** (optional ``ortools``): grows the net's parallel classes by a bounded
  number of new cards within a deterministic work budget fixed by the time limit;
  used when it beats the others.

The result is the deck with the most cards; ties go to fewer symbols. Budgets are
counted in steps, not seconds, so the deck is the same on every machine; the time
limit is only a wall-clock safety cap, and hitting it is reported in the description.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Sequence
from dataclasses import dataclass

from printdeck.design.gf import gf, prime_power
from printdeck.design.planes import singer_blocks

#: A Latin square of order 6 with 24 transversals (found by a seeded random search).
LATIN_6 = (
    (3, 1, 0, 5, 4, 2),
    (1, 3, 2, 0, 5, 4),
    (0, 5, 4, 1, 2, 3),
    (4, 2, 5, 3, 0, 1),
    (2, 0, 1, 4, 3, 5),
    (5, 4, 3, 2, 1, 0),
)

Deck = list[tuple[int, ...]]
#: CP-SAT is tried only when beating the best deterministic deck needs at most this many new cards.
MAX_CP_SAT_SLOTS = 16
#: Search nodes the greedy extension may visit (its time: bench/RESULTS.md).
GREEDY_STEPS = 100_000
#: CP-SAT deterministic time per second of time limit: small enough that the search ends
#: well within the wall-clock cap (CP-SAT's units against wall time: bench/RESULTS.md).
CP_SAT_WORK_PER_S = 0.05


@dataclass
class Budget:
    """Work left for a search: ``steps`` (deterministic) and a wall-clock safety cap.

    Attributes:
        steps: Search nodes still allowed.
        deadline: ``time.monotonic()`` value at which to stop regardless.
        capped: Set when the deadline, not the step budget, stopped the search.
    """

    steps: int
    deadline: float
    capped: bool = False

    def spend(self) -> bool:
        """Use one step; False when none is left or the wall-clock cap has passed."""
        if self.steps <= 0:
            return False
        self.steps -= 1
        if self.steps % 1024 == 0 and time.monotonic() > self.deadline:
            self.capped, self.steps = True, 0
            return False
        return True


def macneish_mols(n: int) -> list[list[list[int]]]:
    """Mutually orthogonal Latin squares of order n by MacNeish's product (1922).

    For each prime-power factor p^a of n the squares L_m(x, y) = m*x + y over
    GF(p^a), m != 0, are orthogonal; products of one from each factor stay so.

    Returns:
        min(p^a) - 1 squares, each an n x n list of symbols 0..n-1.
    """
    factors: list[int] = []
    rest = n
    for p in range(2, n + 1):
        if rest % p == 0:
            f = 1
            while rest % p == 0:
                rest //= p
                f *= p
            factors.append(f)
    t = min(factors) - 1
    squares = [[[0] * n for _ in range(n)] for _ in range(t)]
    for m in range(t):
        for x in range(n):
            for y in range(n):
                val, radix, xs, ys = 0, 1, x, y
                for f in factors:
                    field = gf(f)
                    xi, yi = xs % f, ys % f
                    xs, ys = xs // f, ys // f
                    val += radix * int(field.add[field.mul[m + 1, xi], yi])
                    radix *= f
                squares[m][x][y] = val
    return squares


def _transversals(square: Sequence[Sequence[int]]) -> list[frozenset[int]]:
    """All transversals (one cell per row, column and symbol) as sets of cell numbers r*n+c."""
    n = len(square)
    return [
        frozenset(r * n + s[r] for r in range(n))
        for s in itertools.permutations(range(n))
        if len({square[r][s[r]] for r in range(n)}) == n
    ]


def net_deck(n: int) -> Deck:
    """Cards from the (t+2)-net of MacNeish MOLS (+ four transversals for n = 6).

    Symbols: cells 0..n^2-1, then one per parallel class, then transversal symbols,
    then padding on the card at infinity. Every card has n + 1 symbols.
    """
    squares = [list(map(list, LATIN_6))] if n == 6 else macneish_mols(n)
    classes = [[[r * n + c for c in range(n)] for r in range(n)], [[r * n + c for r in range(n)] for c in range(n)]]
    for sq in squares:
        classes.append([[r * n + c for r in range(n) for c in range(n) if sq[r][c] == s] for s in range(n)])
    nxt = n * n
    cards: Deck = []
    infinity: list[int] = []
    for cls in classes:
        cards += [tuple(sorted(line + [nxt])) for line in cls]
        infinity.append(nxt)
        nxt += 1
    if n == 6:
        for t in _four_transversals(LATIN_6):
            cards.append(tuple(sorted(t)) + (nxt,))
            infinity.append(nxt)
            nxt += 1
    while len(infinity) < n + 1:
        infinity.append(nxt)
        nxt += 1
    cards.append(tuple(infinity[: n + 1]))
    return cards


def _four_transversals(square: Sequence[Sequence[int]]) -> list[frozenset[int]]:
    """The first four transversals (in permutation order) pairwise meeting in one cell."""
    ts = _transversals(square)
    for combo in itertools.combinations(ts, 4):
        if all(len(a & b) == 1 for a, b in itertools.combinations(combo, 2)):
            return list(combo)
    raise AssertionError("LATIN_6 has four such transversals")  # pragma: no cover


def padded_plane_deck(n: int) -> Deck | None:
    """PG(2, q), q the largest prime power below n, each card padded with new symbols."""
    q = max((m for m in range(2, n) if prime_power(m)), default=None)
    if q is None:
        return None
    blocks = singer_blocks(q).tolist()
    v = q * q + q + 1
    pad = n - q
    return [tuple(blk) + tuple(range(v + i * pad, v + (i + 1) * pad)) for i, blk in enumerate(blocks)]


def _extension(cards: Deck, k: int, budget: Budget) -> tuple[int, ...] | None:
    """A new card meeting every card exactly once (old symbols whose card sets
    partition the deck, topped up with new symbols), or None. Exact cover search."""
    n_pts = max(max(c) for c in cards) + 1
    pencil = [0] * n_pts
    for i, card in enumerate(cards):
        for p in card:
            pencil[p] |= 1 << i
    full = (1 << len(cards)) - 1

    def solve(covered: int, chosen: list[int]) -> list[int] | None:
        if covered == full:
            return chosen
        if len(chosen) == k or not budget.spend():
            return None
        first = (~covered & full & -(~covered & full)).bit_length() - 1  # lowest uncovered card
        for p in cards[first]:
            if pencil[p] & covered == 0:
                got = solve(covered | pencil[p], chosen + [p])
                if got is not None:
                    return got
        return None

    got = solve(0, [])
    if got is None:
        return None
    return tuple(sorted(got)) + tuple(range(n_pts, n_pts + k - len(got)))


def extend_greedy(cards: Deck, k: int, budget: Budget | None = None) -> Deck:
    """Add cards found by :func:`_extension` until none exists or the budget is spent.

    Args:
        cards: The deck to extend (any two cards share one symbol, k symbols each).
        k: Symbols per card.
        budget: Steps and wall-clock cap (default :data:`GREEDY_STEPS`, one minute);
            ``budget.capped`` tells whether the cap stopped it.

    Returns:
        ``cards`` followed by the new cards.
    """
    budget = budget or Budget(GREEDY_STEPS, time.monotonic() + 60.0)
    cards = list(cards)
    while budget.steps > 0:
        new = _extension(cards, k, budget)
        if new is None:
            break
        cards.append(new)
    return cards


def search_deck(k: int, time_limit_s: float = 10.0) -> tuple[Deck, str]:
    """The largest deck found with exactly k symbols a card, any two sharing one.

    The net is extended greedily (:data:`GREEDY_STEPS` nodes; the padded plane is
    maximal); then, if ``ortools`` is installed, CP-SAT looks for a bigger deck grown
    from the net's parallel classes with ``CP_SAT_WORK_PER_S * time_limit_s`` units of
    deterministic work. The most cards win; ties go to fewer symbols. The result
    depends only on k and ``time_limit_s``, unless the wall clock passes
    ``time_limit_s`` first (a very slow machine): the description then says so.

    Args:
        k: Symbols per card (k - 1 need not be a prime power), k >= 3.
        time_limit_s: Fixes the CP-SAT work budget, and caps the wall-clock time.

    Returns:
        (cards, description naming the construction, cards and symbols).
    """
    n = k - 1
    budget = Budget(GREEDY_STEPS, time.monotonic() + time_limit_s)
    candidates: list[tuple[Deck, str]] = []
    net = net_deck(n)
    note = " + 4 transversals" if n == 6 else ""
    candidates.append((extend_greedy(net, k, budget), f"net of Latin squares of order {n}{note}"))
    padded = padded_plane_deck(n)
    if padded is not None:
        q = max(m for m in range(2, n) if prime_power(m))
        # maximal already: a new card could hold at most one plane point x (two would
        # lie on a common line), so the q^2 lines missing x would need their own
        # padding symbols on it: q^2 > n symbols. No greedy step can succeed.
        extra = "an extra symbol" if n - q == 1 else f"{n - q} extra symbols"
        candidates.append((padded, f"PG(2,{q}) with {extra} of its own on each card"))
    best, how = max(candidates, key=lambda c: (len(c[0]), -_symbols(c[0])))
    core = net[: n * ((len(net) - 1) // n)]  # the parallel classes, without the card at infinity
    slots = len(best) - len(core) + 1  # CP-SAT must place this many cards to win
    capped = budget.capped
    if slots <= MAX_CP_SAT_SLOTS:
        more, hit = _cp_sat_extend(core, k, CP_SAT_WORK_PER_S * time_limit_s, budget.deadline - time.monotonic(), slots)
        capped = capped or hit
        if len(more) > len(best):
            best, how = more, f"CP-SAT grown from the net of order {n}"
    if capped:
        how += (
            f" (stopped by the {time_limit_s:g} s time limit before its fixed work budget: "
            "a faster machine may find a different deck)"
        )
    return best, f"{how}: {len(best)} cards, {_symbols(best)} symbols"


def _symbols(cards: Deck) -> int:
    return len({p for c in cards for p in c})


def _cp_sat_extend(core: Deck, k: int, work: float, wall_cap_s: float, slots: int) -> tuple[Deck, bool]:
    """``core`` plus the cards CP-SAT adds, and whether the wall-clock cap stopped it
    (``ortools`` optional: no-op without it)."""
    from printdeck.design.cpsat import extend_with_cp_sat  # noqa: PLC0415 - ortools only when searching

    return extend_with_cp_sat(core, k, work, wall_cap_s, slots=slots, fresh=slots)
