"""Which face of each symbol every card shows (symbols with ``faces:``, ``deck.faces``).

A symbol with faces is one point of the design (a concept); only the drawing each
occurrence shows changes, so the design and its one-shared-symbol property stay as they are.

``mixed``: the cards through point p show its F faces in counts that differ by at most
one. Every two cards through p share p (and, with λ = 1, nothing else), so of the
C(r, 2) pairs of the r cards through p, sum_f C(n_f, 2) show p in the same face; that
sum is smallest exactly when the counts n_f are balanced (it is convex in the counts).
Hence the best fraction of (card pair, shared symbol) incidences that show the symbol
in different faces is::

    bound = sum_p [C(r_p, 2) - sum_f C(n_pf, 2)] / sum_p C(r_p, 2),  n_pf balanced,

and any balanced assignment reaches it. With two faces on every symbol of the full plane
of order q (r = q + 1) it is (q + 1) / (2q) for odd q and (q + 2) / (2(q + 1)) for even
q: 0.6 for order 5, 4/7 = 0.571 for order 7. Among the balanced assignments the seeded
choice also spreads the faces over each card (no card all words, another all pictures).

``split``: the deck prints twice, deck A with every symbol's face 1 and deck B with its
face 2; card i of A and card j of B (i != j) share exactly the one (λ) symbol the design's
cards i and j share, shown in two faces where the symbol has two. Card i of A and card i
of B are twins (they show the same symbols).
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Sequence
from math import comb

import numpy as np

from printdeck.errors import key_error
from printdeck.model import SymbolSpec

MIXED, SPLIT = "mixed", "split"
SPLIT_DECKS = ("A", "B")
"""A split deck's two decks' letters, deck A (every symbol's first face) first."""


@dataclasses.dataclass(frozen=True)
class FacedDeck:
    """The cards of a deck as drawings: each occurrence of a symbol in the face it shows.

    Attributes:
        drawings: ``drawings[d].id == d``; drawing ``p`` (for ``p < n_points``) is face 0
            of the symbol on point p, further faces follow. A deck without faces has one
            drawing per point, the symbol itself.
        cards: ``cards[c]`` = card c's drawings, in the order the design lists its points.
        drawing_faces: ``drawing_faces[d] = (point, face)``.
        card_blocks: ``card_blocks[c]`` = the design card (block) card c prints.
        card_decks: ``card_decks[c]`` = ``"A"`` or ``"B"`` (split), else ``""``.
        mode: ``mixed`` or ``split`` (as ``deck.faces``).
        has_faces: Some symbol of the deck has more than one face.
        different_fraction: Of the (card pair, shared symbol) incidences, the share
            showing the symbol in different faces (mixed decks with faces; else None).
        different_bound: The largest such share the design allows (see the module).
    """

    drawings: tuple[SymbolSpec, ...]
    cards: tuple[tuple[SymbolSpec, ...], ...]
    drawing_faces: tuple[tuple[int, int], ...]
    card_blocks: tuple[int, ...]
    card_decks: tuple[str, ...]
    mode: str
    has_faces: bool
    different_fraction: float | None = None
    different_bound: float | None = None


def _drawings(symbols: Sequence[SymbolSpec]) -> tuple[list[SymbolSpec], dict[tuple[int, int], int]]:
    """Every face of every point's symbol as a drawing numbered as :class:`FacedDeck` says."""
    drawings = [dataclasses.replace(s, faces=()) if s.faces else s for s in symbols]
    index = {(p, 0): p for p in range(len(symbols))}
    for p, symbol in enumerate(symbols):
        for f, face in enumerate(symbol.faces[1:], start=1):
            index[(p, f)] = len(drawings)
            drawings.append(dataclasses.replace(face, id=len(drawings), faces=()))
    return drawings, index


def balanced_counts(occurrences: int, faces: int) -> list[int]:
    """``occurrences`` split over ``faces`` as evenly as can be (the first ones get the extra)."""
    base, extra = divmod(occurrences, faces)
    return [base + (1 if f < extra else 0) for f in range(faces)]


def different_face_bound(blocks: Sequence[Sequence[int]], face_counts: Sequence[int]) -> float | None:
    """The largest share of (card pair, shared symbol) incidences that can show the symbol in
    different faces (see the module), or None for a deck with fewer than two cards.

    Args:
        blocks: The design's cards (points).
        face_counts: ``face_counts[p]`` = faces of the symbol on point p.
    """
    r = np.bincount([p for b in blocks for p in b], minlength=len(face_counts))
    total = sum(comb(int(n), 2) for n in r)
    if total == 0:
        return None
    same = sum(comb(n, 2) for p, rp in enumerate(r) for n in balanced_counts(int(rp), face_counts[p]))
    return (total - same) / total


def _mixed_faces(blocks: Sequence[Sequence[int]], face_counts: Sequence[int], seed: int) -> list[list[int]]:
    """``faces[c][i]``: the face card c shows of its i-th point, balanced per point, and each
    card's faces spread (a face goes where the card shows it least so far; seeded ties)."""
    rng = np.random.default_rng([seed, 0xFACE])
    faces = [[0] * len(b) for b in blocks]
    on_card = np.zeros((len(blocks), max(face_counts, default=1)), dtype=np.int64)
    through: dict[int, list[tuple[int, int]]] = {}
    for c, block in enumerate(blocks):
        for i, p in enumerate(block):
            through.setdefault(p, []).append((c, i))
    for p in rng.permutation(len(face_counts)).tolist():
        n_faces = face_counts[p]
        if n_faces < 2 or p not in through:
            continue
        left = balanced_counts(len(through[p]), n_faces)
        order = rng.permutation(n_faces).tolist()
        left = [left[order.index(f)] for f in range(n_faces)]  # which faces get the extra: seeded
        for j in rng.permutation(len(through[p])).tolist():
            c, i = through[p][j]
            f = min((f for f in range(n_faces) if left[f] > 0), key=lambda f: (on_card[c, f], order[f]))
            faces[c][i] = f
            left[f] -= 1
            on_card[c, f] += 1
    _spread_swaps(faces, on_card, through)
    return faces


def _spread_swaps(faces: list[list[int]], on_card: np.ndarray, through: dict[int, list[tuple[int, int]]]) -> None:
    """Swap two cards' faces of one point while that evens out both cards' faces (the sum of
    squared face counts a card falls); the counts per point stay as they are."""
    improved = True
    while improved:
        improved = False
        for occurrences in through.values():
            for (c1, i1), (c2, i2) in itertools.combinations(occurrences, 2):
                a, b = faces[c1][i1], faces[c2][i2]
                if a == b:
                    continue
                change = (on_card[c1, b] - on_card[c1, a] + 1) + (on_card[c2, a] - on_card[c2, b] + 1)
                if change < 0:
                    faces[c1][i1], faces[c2][i2] = b, a
                    on_card[c1, a] -= 1
                    on_card[c1, b] += 1
                    on_card[c2, b] -= 1
                    on_card[c2, a] += 1
                    improved = True


def _reached(blocks: Sequence[Sequence[int]], faces: list[list[int]], n_points: int) -> float | None:
    """The share of (card pair, shared symbol) incidences showing different faces, counted per point."""
    counts: dict[tuple[int, int], int] = {}
    r = [0] * n_points
    for block, card_faces in zip(blocks, faces):
        for p, f in zip(block, card_faces):
            counts[(p, f)] = counts.get((p, f), 0) + 1
            r[p] += 1
    total = sum(comb(n, 2) for n in r)
    return None if total == 0 else (total - sum(comb(n, 2) for n in counts.values())) / total


def face_deck(blocks: Sequence[Sequence[int]], symbols: Sequence[SymbolSpec], mode: str, seed: int) -> FacedDeck:
    """The cards as drawings: which face of each symbol each card shows.

    Args:
        blocks: The design's cards (points).
        symbols: ``(n_points,)`` the symbol on each point (``symbols[p].id == p``).
        mode: ``mixed`` or ``split`` (``deck.faces``).
        seed: The theme's seed (the mixed assignment is seeded and deterministic).

    Raises:
        PrintdeckError: ``split`` with a symbol of more than two faces (deck A shows face 1,
            deck B face 2; a third face would never print).
    """
    mode = str(getattr(mode, "value", mode))
    drawings, index = _drawings(symbols)
    face_counts = [len(s.all_faces) for s in symbols]
    has_faces = max(face_counts, default=1) > 1
    drawing_faces = tuple(sorted(((d, key) for key, d in index.items())))
    if mode == SPLIT and has_faces:
        wide = next((s for s in symbols if len(s.all_faces) > 2), None)
        if wide is not None:
            raise key_error(
                "deck.faces",
                f"split prints face 1 on deck A and face 2 on deck B, but symbol "
                f"{wide.name!r} has {len(wide.all_faces)} faces; give it two faces or use faces: mixed",
            )
        cards = [
            tuple(drawings[index[(p, min(side, face_counts[p] - 1))]] for p in b) for side in (0, 1) for b in blocks
        ]
        return FacedDeck(
            tuple(drawings),
            tuple(cards),
            tuple(key for _, key in drawing_faces),
            tuple(range(len(blocks))) * 2,
            tuple(d for d in SPLIT_DECKS for _ in blocks),
            SPLIT,
            True,
        )
    faces = _mixed_faces(blocks, face_counts, seed) if has_faces else [[0] * len(b) for b in blocks]
    cards = [tuple(drawings[index[(p, f)]] for p, f in zip(b, fs)) for b, fs in zip(blocks, faces)]
    return FacedDeck(
        tuple(drawings),
        tuple(cards),
        tuple(key for _, key in drawing_faces),
        tuple(range(len(blocks))),
        ("",) * len(blocks),
        mode,
        has_faces,
        _reached(blocks, faces, len(symbols)) if has_faces else None,
        different_face_bound(blocks, face_counts) if has_faces else None,
    )
