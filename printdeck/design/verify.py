"""Independent check of a deck: every two cards share exactly λ symbols.

The check works on the incidence matrix M (cards x symbols, 0/1): the Gram matrix
G = M @ M.T holds, at (i, j), the number of symbols cards i and j share, and on its
diagonal each card's size. M is sparse (k ones a row), so G is computed in row chunks
as sparse products with ``numpy.bincount``: for a chunk of cards, every symbol of a card
contributes +1 to each card holding that symbol. That is sum_p r_p^2 additions
(r_p = cards holding symbol p) instead of cards^2 * symbols for a dense product.
Everything works block by block (column blocks of the bit-parallel screen, row chunks
and incidence batches of the count), so memory stays bounded whatever the deck (figures:
bench/RESULTS.md). The λ = 1 screen is :mod:`printdeck.design.lambda_screen`'s and the
count's Gram rows :mod:`printdeck.design.gram`'s; this module runs them and reports.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from printdeck.design.gram import _gram_chunk, _Incidence, _row_chunks
from printdeck.design.lambda_screen import _lambda_one_failures
from printdeck.errors import counted

#: How many wrong pairs a report keeps (the count is always exact).
MAX_LISTED_PAIRS = 1000
SUMMARY_PAIRS = 20
"""The most card pairs :meth:`VerifyReport.summary` names (the report keeps up to
:data:`MAX_LISTED_PAIRS`; a failing deck of 465 bad pairs listed every one)."""


@dataclass(frozen=True)
class VerifyReport:
    """What :func:`verify_blocks` found.

    Attributes:
        cards: Number of cards.
        symbols: Number of symbols (max symbol number + 1; unused numbers included; for a
            file, the symbols its cards show, or as many as it says the deck has: see ``unused``).
        lam: λ that was checked.
        card_sizes: (cards,) int64, symbols on each card (duplicates counted once).
        frequencies: (symbols,) int64, cards each symbol is on (for a file, each symbol its
            cards show, in the order of its labels).
        bad_pair_count: Pairs of cards sharing a number of symbols other than λ.
        bad_pairs: Up to :data:`MAX_LISTED_PAIRS` of them as (card_i, card_j, shared), i < j.
        duplicate_cards: Cards listing a symbol more than once, as card indices.
        decks: A class set's decks, each checked on its own: (deck number, its report);
            the fields above then sum them up (card numbers count through the file).
        b_cards: A split deck's deck B: how many cards it has (the fields above are deck
            A's; each B card must show its twin's symbols). 0 for other decks.
        faults: What else is wrong, one line each (a split deck's twins), cards counted
            from 1.
        unused: How many of ``symbols`` no card shows: the numbers below the largest that
            no card lists; for a file (:func:`printdeck.verify_file`), which renumbers its
            symbols, those the file says the deck has beyond the ones its cards show, or
            None when it does not say.
        symbols_said: For a file, how many symbols it says the deck has (its header, a
            design's ``symbols``, a manifest's ``design.points``), or None.
    """

    cards: int
    symbols: int
    lam: int
    card_sizes: np.ndarray
    frequencies: np.ndarray
    bad_pair_count: int
    bad_pairs: tuple[tuple[int, int, int], ...]
    duplicate_cards: tuple[int, ...] = field(default=())
    decks: tuple[tuple[int, VerifyReport], ...] = field(default=())
    b_cards: int = 0
    faults: tuple[str, ...] = field(default=())
    unused: int | None = None
    symbols_said: int | None = None

    @property
    def ok(self) -> bool:
        """True when every pair shares exactly λ, no card repeats a symbol and nothing else
        is wrong (``faults``)."""
        return self.bad_pair_count == 0 and not self.duplicate_cards and self.cards > 0 and not self.faults

    def _verdict(self) -> str:
        """The summary's last line (a deck where no two cards share λ but the pairs named all
        share one other count, 1 or 2, is told which ``--match`` it may be: a biplane's CSV
        holds no λ and is checked for 1)."""
        if not self.ok:
            return "FAILED" + self._other_match()
        if self.b_cards:
            return (
                f"OK: every two cards of deck A share exactly {self.lam}, "
                "and so does a card of A with any card of B but its twin"
            )
        return f"OK: every two cards{' of a deck' if self.decks else ''} share exactly {self.lam}"

    def _other_match(self) -> str:
        """``": ... give --match 2"`` when every pair of cards fails λ and the pairs named all
        share the other of 1 and 2; ``""`` otherwise."""
        every_pair = self.cards * (self.cards - 1) // 2
        shared = {s for _, _, s in self.bad_pairs}
        if self.duplicate_cards or self.faults or self.decks or self.b_cards or self.bad_pair_count != every_pair:
            return ""
        if len(shared) != 1 or (other := shared.pop()) not in (1, 2) or other == self.lam:
            return ""
        named = f"the pairs named share {other}: for a match-{other} deck, give --match {other}"
        return f": no two cards share exactly {self.lam}; {named}"

    def _symbols_line(self) -> str:
        """The summary's symbols: how many, and how many no card shows where that is known."""
        said = self.symbols_said
        if self.unused is None and said is not None:  # the cards' numbers reach past the file's count
            why = (
                "fewer than they show"
                if said < self.symbols
                else f"but a card shows symbol {said} or higher: symbols are numbered from 0"
            )
            return f"symbols: {self.symbols} on the cards (the file says {said}, {why})"
        if self.unused is None:
            return f"symbols: {self.symbols} on the cards (how many the deck has is not known from the file)"
        return f"symbols: {self.symbols} ({self.unused} unused)"

    def summary(self) -> str:
        """Multi-line human summary (used by ``printdeck verify``): cards counted from 1, as
        printed (the fields hold indices from 0), at most :data:`SUMMARY_PAIRS` pairs named."""
        sizes = np.unique(self.card_sizes)
        freq = self.frequencies
        used = freq[freq > 0]
        lines = [
            f"cards: {self.cards}" + (" in deck A" if self.b_cards else ""),
            self._symbols_line(),
            "symbols per card: "
            + ", ".join(f"{int(s)} ({counted(int((self.card_sizes == s).sum()), 'card')})" for s in sizes),
            "symbol frequencies: "
            + (", ".join(f"{int(f)}x{int((used == f).sum())}" for f in np.unique(used)) or "none"),
            f"pairs sharing other than {self.lam}: {self.bad_pair_count}",
        ]
        named = self.bad_pairs[:SUMMARY_PAIRS]
        for i, j, s in named:
            lines.append(f"  cards {i + 1} and {j + 1} share {counted(s, 'symbol')}")
        if self.bad_pair_count > len(named):
            lines.append(f"  ... and {self.bad_pair_count - len(named)} more")
        for c in self.duplicate_cards:
            lines.append(f"  card {c + 1} lists a symbol twice")
        for number, report in self.decks:
            lines.append(f"deck {number}: {counted(report.cards, 'card')}, " + ("OK" if report.ok else "FAILED"))
        if self.b_cards:
            lines.append(f"deck B: {counted(self.b_cards, 'card')}, each showing the symbols of its twin in deck A")
        lines += [f"  {fault}" for fault in self.faults[:SUMMARY_PAIRS]]
        if len(self.faults) > SUMMARY_PAIRS:
            lines.append(f"  ... and {len(self.faults) - SUMMARY_PAIRS} more")
        lines.append(self._verdict())
        return "\n".join(lines)


def incidence_matrix(blocks: Sequence[Sequence[int]] | np.ndarray, n_points: int | None = None) -> np.ndarray:
    """Cards x symbols 0/1 matrix.

    Args:
        blocks: Each card's symbol numbers (>= 0).
        n_points: Number of columns; default max symbol + 1.

    Returns:
        (cards, points) bool.
    """
    flat, sizes = _flatten(blocks)
    n = int(flat.max()) + 1 if n_points is None and flat.size else (n_points or 0)
    m = np.zeros((len(sizes), n), dtype=bool)
    m[np.repeat(np.arange(len(sizes)), sizes), flat] = True
    return m


def _flatten(blocks: Sequence[Sequence[int]] | np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Concatenated symbols (int64) and per-card lengths."""
    if isinstance(blocks, np.ndarray) and blocks.ndim == 2:
        return blocks.astype(np.int64).ravel(), np.full(len(blocks), blocks.shape[1], dtype=np.int64)
    sizes = np.fromiter((len(b) for b in blocks), dtype=np.int64, count=len(blocks))
    flat = np.fromiter((x for b in blocks for x in b), dtype=np.int64, count=int(sizes.sum()))
    return flat, sizes


def _dedupe(flat: np.ndarray, sizes: np.ndarray) -> tuple[np.ndarray, np.ndarray, tuple[int, ...]]:
    """Drop repeated symbols within a card; return cards that had repeats."""
    if sizes.size and np.all(sizes == sizes[0]) and sizes[0] > 0:
        grid = flat.reshape(len(sizes), int(sizes[0]))
        if np.all(grid[:, 1:] > grid[:, :-1]):  # rows strictly increasing: no repeats
            return flat, sizes, ()
    rows = np.repeat(np.arange(len(sizes)), sizes)
    n = int(flat.max()) + 1 if flat.size else 1
    key = rows * n + flat
    order = np.argsort(key, kind="stable")
    key = key[order]
    keep = np.ones(key.size, dtype=bool)
    keep[1:] = key[1:] != key[:-1]
    if keep.all():
        return flat, sizes, ()
    dup_rows = tuple(int(r) for r in np.unique(rows[order][~keep]))
    key = key[keep]
    rows, flat = key // n, key % n
    return flat, np.bincount(rows, minlength=len(sizes)), dup_rows


def verify_blocks(blocks: Sequence[Sequence[int]] | np.ndarray, lam: int = 1) -> VerifyReport:
    """Check that every two cards share exactly ``lam`` symbols, exhaustively.

    Args:
        blocks: Each card's symbol numbers (ints >= 0); a (cards, k) int array is fastest.
        lam: λ, the number of symbols every two cards must share (1 or 2).

    Returns:
        The report; ``report.ok`` is the verdict.

    Raises:
        ValueError: A symbol number is negative.
    """
    flat, sizes = _flatten(blocks)
    return verify_flat(flat, sizes, lam)


def verify_decks(flat: np.ndarray, sizes: np.ndarray, decks: Sequence[int], lam: int = 1) -> VerifyReport:
    """:func:`verify_flat` for a class set: the cards of each deck checked on their own.

    Args:
        flat: (n,) int64, every card's symbols one card after another.
        sizes: (cards,) int64, how many symbols each card lists.
        decks: (cards,) each card's deck number (any integers; one value: one deck).
        lam: λ every two cards of a deck must share.

    Returns:
        A report whose ``decks`` holds each deck's own report (by increasing deck number)
        and whose other fields sum them up, card numbers counted through the whole file.
    """
    deck_of = np.asarray(decks, dtype=np.int64)
    starts = np.concatenate([[0], np.cumsum(sizes)])
    parts: list[tuple[int, VerifyReport]] = []
    bad: list[tuple[int, int, int]] = []
    dups: list[int] = []
    symbols = 0
    for number in np.unique(deck_of):
        rows = np.nonzero(deck_of == number)[0]
        mine = np.concatenate([flat[starts[r] : starts[r + 1]] for r in rows]) if len(rows) else flat[:0]
        report = verify_flat(mine, sizes[rows], lam)
        parts.append((int(number), report))
        bad += [(int(rows[i]), int(rows[j]), s) for i, j, s in report.bad_pairs]
        dups += [int(rows[c]) for c in report.duplicate_cards]
        symbols = max(symbols, report.symbols)
    freq = np.zeros(symbols, dtype=np.int64)
    for _, report in parts:
        freq[: len(report.frequencies)] += report.frequencies
    return VerifyReport(
        cards=len(sizes),
        symbols=symbols,
        lam=lam,
        card_sizes=np.concatenate([r.card_sizes for _, r in parts]) if parts else np.zeros(0, np.int64),
        frequencies=freq,
        bad_pair_count=sum(r.bad_pair_count for _, r in parts),
        bad_pairs=tuple(bad[:MAX_LISTED_PAIRS]),
        duplicate_cards=tuple(sorted(dups)),
        decks=tuple(parts),
        unused=int((freq == 0).sum()),
    )


def verify_flat(flat: np.ndarray, sizes: np.ndarray, lam: int = 1) -> VerifyReport:
    """:func:`verify_blocks` for cards given as concatenated symbols and card sizes.

    Work is done in blocks of bounded size: the λ = 1 screen a column block of
    ``64 * _BLOCK_WORDS`` cards at a time, the exact count about ``_CHUNK_SLOTS``
    card pairs and ``_WORK_SLOTS`` symbol incidences at a time, so memory stays
    O(incidences + cards) (about 100 MB at most) whatever the deck; time is
    O(cards² · k / 64) for the screen plus O(suspect cards · cards) for the count.

    Args:
        flat: (n,) int64, every card's symbols one card after another (>= 0).
        sizes: (cards,) int64, how many symbols each card lists.
        lam: λ, the number of symbols every two cards must share.

    Returns:
        The report.

    Raises:
        ValueError: A symbol number is negative.
    """
    flat, sizes = np.asarray(flat, dtype=np.int64), np.asarray(sizes, dtype=np.int64)
    if flat.size and flat.min() < 0:
        raise ValueError("symbol numbers must be >= 0")
    flat, sizes, dups = _dedupe(flat, sizes)
    b = len(sizes)
    v = int(flat.max()) + 1 if flat.size else 0
    card_ptr = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
    freq = np.bincount(flat, minlength=v)
    small = flat.astype(np.int16) if v < (1 << 15) else flat  # 16-bit keys: numpy radix sort
    by_point = np.argsort(small, kind="stable")
    pt_cards = np.repeat(np.arange(b, dtype=np.int64), sizes)[by_point]  # cards holding each point
    pt_ptr = np.concatenate([[0], np.cumsum(freq)]).astype(np.int64)
    suspects = np.arange(b)
    if lam == 1 and b > 1 and sizes.min() > 0:  # bit-parallel screen (empty cards: count all)
        rank = np.empty(flat.size, dtype=np.int64)
        rank[by_point] = np.arange(flat.size)
        later = freq[flat] - 1 - (rank - pt_ptr[flat])
        suspects = _lambda_one_failures(flat, sizes, card_ptr, pt_cards, freq, later)
    graph = _Incidence(flat, sizes, card_ptr, pt_ptr, pt_cards, freq)
    bad_count, bad = _count_bad_pairs(graph, suspects, lam)
    return VerifyReport(b, v, lam, sizes, freq, bad_count, tuple(bad), dups, unused=int((freq == 0).sum()))


def _count_bad_pairs(graph: _Incidence, suspects: np.ndarray, lam: int) -> tuple[int, list[tuple[int, int, int]]]:
    """Count pairs (i, j), i a suspect, j > i, sharing other than ``lam`` symbols; list
    the first :data:`MAX_LISTED_PAIRS` as (i, j, shared)."""
    b = len(graph.sizes)
    bad_count = 0
    bad: list[tuple[int, int, int]] = []
    for rows in _row_chunks(graph, suspects):
        counts = _gram_chunk(graph, rows)
        wrong = (counts != lam) & (np.arange(b)[None, :] > rows[:, None])
        found = int(np.count_nonzero(wrong))
        bad_count += found
        if found and len(bad) < MAX_LISTED_PAIRS:
            for i, j in np.argwhere(wrong)[: MAX_LISTED_PAIRS - len(bad)]:
                bad.append((int(rows[i]), int(j), int(counts[i, j])))
    return bad_count, bad


def verify_difference_set(base: Sequence[int], v: int, lam: int) -> bool:
    """True when ``base`` is a (v, k, λ) difference set in Z_v: every non-zero residue
    is a difference of exactly λ ordered pairs of ``base``. O(k^2)."""
    d = np.asarray(base, dtype=np.int64)
    diff = (d[:, None] - d[None, :]) % v
    counts = np.bincount(diff[~np.eye(len(d), dtype=bool)], minlength=v)
    return bool(np.all(counts[1:] == lam)) and len(set(d.tolist() if d.size else [])) == len(d)
