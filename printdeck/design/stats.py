"""How much better a designed deck is than chance: shared-symbol distributions.

Three kinds of deck with N cards of s symbols drawn from S:

* **random**: each card an independent uniform s-subset. For two cards the number X
  of shared symbols is hypergeometric: P(X = j) = C(s, j) C(S - s, s - j) / C(S, s).
* **bags** (evenly distributed): b bags each hold all S symbols, shuffled and cut into
  p = floor(S / s) cards; two cards from the same bag share nothing. With
  b = ceil(N / p), a second card comes from another bag with probability
  (N' - p)/(N' - 1) = (b - 1)/(b - 1/p) (N' = b p), so P(Y = j) = that * P(X = j) for
  j > 0 and P(Y = 0) = (1 - 1/p)/(b - 1/p) + (b - 1)/(b - 1/p) * P(X = 0).
* **designed**: a projective plane (when s - 1 is a prime power): P(shared = 1) = 1.

Exact values come from these formulas; :func:`simulate` checks them by Monte Carlo.
The simulation never builds (trials x cards x symbols) arrays: random cards are drawn
as index arrays by Floyd's algorithm (Bentley & Floyd 1987), bags as row permutations
of (bags, S), and shared counts come from the sparse incidence, one deck at a time.
Arguments are bounded (:data:`MAX_SYMBOLS`, :data:`MAX_SIM_CARDS`, :data:`MAX_WORK`)
so that no request can hang or exhaust memory.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import ceil, comb
from pathlib import Path
from typing import TypedDict

import numpy as np

from printdeck.design.gram import _gram_rows
from printdeck.design.reasons import plane_status
from printdeck.design.sizes import deck_points, design_known
from printdeck.errors import PrintdeckError, shown
from printdeck.fileio import atomic_output
from printdeck.output_record import PNG_SOFTWARE, PNG_SOFTWARE_KEY, check_pdf_path, check_png_path

#: Largest symbol pool S accepted.
MAX_SYMBOLS = 100_000
#: Most symbols a card s accepted.
MAX_PER_CARD = 200
#: Most cards in one simulated deck (random: N; bags: bags x cards per bag).
MAX_SIM_CARDS = 2_000
#: Most simulated decks of each kind.
MAX_TRIALS = 100_000
#: Most elementary steps of the whole simulation (its time: bench/RESULTS.md).
MAX_WORK = 1e8
#: A BLAS multiply-add costs about this fraction of a numpy element step.
_BLAS_SPEEDUP = 15


class KindDict(TypedDict):
    """Exact and simulated distributions of one deck kind (index = shared symbols)."""

    exact: list[float]
    simulated: list[float]


class StatsDict(TypedDict):
    """JSON form of :class:`StatsResult`."""

    symbols: int
    per_card: int
    cards: int
    bags: int
    cards_per_bag: int
    trials: int
    random: KindDict
    bags_deck: KindDict
    designed: list[float] | None
    designed_note: str | None


@dataclass(frozen=True)
class StatsResult:
    """Distributions of shared symbols between two cards, index j = shared count.

    Attributes:
        symbols, per_card, cards: S, s, N.
        bags, cards_per_bag: b, p of the bags deck.
        random_exact, bags_exact: (s + 1,) float probabilities.
        random_sim, bags_sim: (s + 1,) float Monte Carlo frequencies over all card pairs.
        designed: (s + 1,) float (one at j = 1), or None when no such deck exists
            (see ``designed_note``).
        trials: Monte Carlo decks per kind.
        designed_note: Why there is no designed deck (None when there is one).
    """

    symbols: int
    per_card: int
    cards: int
    bags: int
    cards_per_bag: int
    random_exact: np.ndarray
    bags_exact: np.ndarray
    random_sim: np.ndarray
    bags_sim: np.ndarray
    designed: np.ndarray | None
    trials: int
    designed_note: str | None = None

    def as_dict(self) -> StatsDict:
        """JSON-ready form."""

        def r(a: np.ndarray) -> list[float]:
            return [round(float(x), 6) for x in a]

        return {
            "symbols": self.symbols,
            "per_card": self.per_card,
            "cards": self.cards,
            "bags": self.bags,
            "cards_per_bag": self.cards_per_bag,
            "trials": self.trials,
            "random": {"exact": r(self.random_exact), "simulated": r(self.random_sim)},
            "bags_deck": {"exact": r(self.bags_exact), "simulated": r(self.bags_sim)},
            "designed": None if self.designed is None else r(self.designed),
            "designed_note": self.designed_note,
        }

    def text(self) -> str:
        """Table: shared j, then P for each kind (exact / simulated)."""
        rows = [
            (
                f"S={self.symbols} symbols, s={self.per_card} per card, N={self.cards} cards; "
                f"bags: {self.bags} bags of {self.cards_per_bag} cards; {self.trials} simulated decks each"
            ),
            f"{'shared':>6}  {'random':>8} {'(sim)':>8}  {'bags':>8} {'(sim)':>8}  {'designed':>8}",
        ]
        for j in range(self.per_card + 1):
            d = "-" if self.designed is None else f"{self.designed[j]:.4f}"
            rows.append(
                f"{j:>6}  {self.random_exact[j]:8.4f} {self.random_sim[j]:8.4f}  "
                f"{self.bags_exact[j]:8.4f} {self.bags_sim[j]:8.4f}  {d:>8}"
            )
        rows.append(
            f"P(shared > 0): random {1 - self.random_exact[0]:.4f}, bags {1 - self.bags_exact[0]:.4f}"
            + (f"; no designed deck: {self.designed_note}" if self.designed is None else ", designed 1.0000")
        )
        return "\n".join(rows)


def hypergeometric(symbols: int, per_card: int) -> np.ndarray:
    """P(X = j), j = 0..s: shared symbols of two independent random cards.

    Returns:
        (s + 1,) float64, sums to 1.
    """
    total = comb(symbols, per_card)
    return np.array([comb(per_card, j) * comb(symbols - per_card, per_card - j) / total for j in range(per_card + 1)])


def bags_distribution(symbols: int, per_card: int, bags: int) -> np.ndarray:
    """P(Y = j) for the bags deck with ``bags`` bags of floor(S/s) cards (see module doc)."""
    p = symbols // per_card
    x = hypergeometric(symbols, per_card)
    other = (bags - 1) / (bags - 1 / p)
    y = other * x
    y[0] = (1 - 1 / p) / (bags - 1 / p) + other * x[0]
    return y


def random_cards(rng: np.random.Generator, n: int, symbols: int, per_card: int) -> np.ndarray:
    """n independent uniform s-subsets of 0..S-1 by Floyd's algorithm (Bentley & Floyd
    1987), vectorised over cards: O(n s^2) work, no (n, S) array.

    Returns:
        (n, s) int64, distinct symbols on each row (not sorted).
    """
    out = np.empty((n, per_card), dtype=np.int64)
    for i, j in enumerate(range(symbols - per_card, symbols)):
        t = rng.integers(0, j + 1, size=n)
        taken = (out[:, :i] == t[:, None]).any(axis=1)
        out[:, i] = np.where(taken, j, t)
    return out


def bag_cards(rng: np.random.Generator, bags: int, symbols: int, per_card: int) -> np.ndarray:
    """The bags deck: each bag a shuffled 0..S-1 cut into floor(S/s) cards.

    Returns:
        (bags * floor(S/s), s) int64, bag by bag.
    """
    p = symbols // per_card
    perms = rng.permuted(np.broadcast_to(np.arange(symbols), (bags, symbols)), axis=1)
    return perms[:, : p * per_card].reshape(bags * p, per_card)


def shared_histogram(deck: np.ndarray, symbols: int) -> np.ndarray:
    """How many card pairs share j symbols, from the sparse incidence of one deck.

    Args:
        deck: (n, s) int64, distinct symbols a row.
        symbols: S (symbols are 0..S-1).

    Returns:
        (s + 1,) int64 pair counts, summing to n (n - 1) / 2.
    """
    n, s = deck.shape
    if _dense_is_cheaper(n, symbols, s):
        inc = np.zeros((n, symbols), dtype=np.float32)
        np.put_along_axis(inc, deck, 1.0, axis=1)
        gram = np.rint(inc @ inc.T).astype(np.int64)  # exact: small integer sums
    else:
        gram = _sparse_gram(deck, symbols)
    hist = np.bincount(gram.ravel(), minlength=s + 1)
    hist[s] -= n  # the diagonal: each card shares s with itself
    return hist // 2


def _dense_is_cheaper(n: int, symbols: int, per_card: int) -> bool:
    """Dense (n, S) float32 incidence + BLAS product when small and cheaper than sparse."""
    return n * symbols <= 1 << 22 and symbols < _BLAS_SPEEDUP * (1 + per_card * per_card / symbols)


def _sparse_gram(deck: np.ndarray, symbols: int) -> np.ndarray:
    """(n, n) int64 shared counts from the sparse incidence (sum r_p^2 steps)."""
    n, s = deck.shape
    flat = deck.ravel()
    freq = np.bincount(flat, minlength=symbols)
    holders = np.argsort(flat, kind="stable") // s  # cards holding each symbol, by symbol
    ptr = np.concatenate([[0], np.cumsum(freq)])
    return _gram_rows(flat, np.full(n, s), ptr, holders, freq, n)


def simulate(
    symbols: int, per_card: int, cards: int, bags: int, trials: int, seed: int
) -> tuple[np.ndarray, np.ndarray]:
    """Monte Carlo: shared-count frequencies for random decks and bags decks.

    Returns:
        (random (s+1,), bags (s+1,)) frequencies over all pairs of all decks.
    """
    rng = np.random.default_rng(seed)
    rnd = np.zeros(per_card + 1, dtype=np.int64)
    bag = np.zeros(per_card + 1, dtype=np.int64)
    for _ in range(trials):
        rnd += shared_histogram(random_cards(rng, cards, symbols, per_card), symbols)
        bag += shared_histogram(bag_cards(rng, bags, symbols, per_card), symbols)
    return rnd / rnd.sum(), bag / bag.sum()


def simulation_work(symbols: int, per_card: int, cards: int, bags: int, trials: int) -> float:
    """Estimated elementary steps of :func:`simulate`: per deck, n^2 (pair counts) +
    n^2 s^2 / S (shared incidences) + n s^2 (Floyd) + bags S (permutations)."""
    n_bag = bags * (symbols // per_card)
    s2 = per_card * per_card
    per_deck = float(bags * symbols)
    for n in (cards, n_bag):
        pairs = (
            n * n * symbols / _BLAS_SPEEDUP if _dense_is_cheaper(n, symbols, per_card) else n * n * (1 + s2 / symbols)
        )
        per_deck += pairs + n * s2
    return trials * per_deck


def _argument(name: str, value: int, problem: str, fix: str | None = None) -> PrintdeckError:
    """An error about :func:`deck_stats`' argument ``name`` (the command line words it as its
    option, ``per_card`` -> ``--per-card``)."""
    return PrintdeckError(key=name, value=value, problem=problem, fix=fix, is_argument=True)


def _check_args(symbols: int, per_card: int, cards: int, trials: int, bags: int) -> None:
    """Raise PrintdeckError (its key the argument at fault, its problem the limit) for
    impossible or too large requests."""
    if not 2 <= symbols <= MAX_SYMBOLS:
        raise _argument("symbols", symbols, f"must be between 2 and {MAX_SYMBOLS}")
    if not 1 <= per_card <= min(symbols, MAX_PER_CARD):
        most = f"{symbols} (the symbols)" if symbols <= MAX_PER_CARD else str(MAX_PER_CARD)
        raise _argument("per_card", per_card, f"must be between 1 and {most}")
    if not 2 <= cards <= MAX_SIM_CARDS:
        raise _argument("cards", cards, f"must be between 2 and {MAX_SIM_CARDS}")
    if not 1 <= trials <= MAX_TRIALS:
        raise _argument("trials", trials, f"must be between 1 and {MAX_TRIALS}")
    p = symbols // per_card
    if bags * p > MAX_SIM_CARDS:
        problem = (
            f"the bags deck would have {bags * p} cards ({bags} bags of {p}); at most {MAX_SIM_CARDS} can be simulated"
        )
        raise _argument("symbols", symbols, problem, "give fewer symbols or more per card")
    work = simulation_work(symbols, per_card, cards, bags, trials)
    if work / trials > MAX_WORK:
        problem = f"decks of {cards} cards of {per_card} from {symbols} symbols are too large to simulate"
        raise _argument("cards", cards, problem, "give fewer cards or fewer symbols per card")
    if work > MAX_WORK:
        fewer = max(1, int(trials * MAX_WORK / work))
        raise _argument("trials", trials, "is too much to simulate for these decks", f"give {fewer} or fewer")


def designed_deck(symbols: int, per_card: int, cards: int) -> tuple[np.ndarray | None, str | None]:
    """The designed deck's distribution (all mass at 1), or None and why there is none.

    A designed deck is (part of) a projective plane of order s - 1: s^2 - s + 1 cards
    and symbols; planes are known when s - 1 is a prime power (Veblen & Bussey 1906).
    """
    if per_card < 3:
        return None, "a designed deck needs at least 3 symbols a card"
    if not design_known(per_card, 1):
        return None, plane_status(per_card - 1)
    full = deck_points(per_card, 1)
    if symbols < full:
        return None, f"the plane of order {per_card - 1} needs {full} symbols, not {symbols}"
    if cards > full:
        return None, f"the plane of order {per_card - 1} has only {full} cards, not {cards}"
    dist = np.zeros(per_card + 1)
    dist[1] = 1.0
    return dist, None


def deck_stats(symbols: int = 57, per_card: int = 8, cards: int = 55, trials: int = 200, seed: int = 0) -> StatsResult:
    """Exact and simulated shared-symbol distributions for random, bags and designed decks.

    Args:
        symbols: S, symbols in the pool (2..MAX_SYMBOLS).
        per_card: s, symbols on each card (1..min(S, MAX_PER_CARD)).
        cards: N, cards in the deck (2..MAX_SIM_CARDS).
        trials: Simulated decks of each kind (1..MAX_TRIALS).
        seed: Random seed (results are deterministic given it).

    Raises:
        PrintdeckError: Impossible parameters (s > S, fewer than 2 cards, ...) or a
            simulation over the limits (the message says what to lower).
    """
    if not 1 <= per_card <= symbols:
        raise _argument("per_card", per_card, f"must be between 1 and {symbols} (the symbols)")
    p = symbols // per_card
    bags = max(2, ceil(cards / p))
    _check_args(symbols, per_card, cards, trials, bags)
    designed, note = designed_deck(symbols, per_card, cards)
    rnd, bag = simulate(symbols, per_card, cards, bags, trials, seed)
    return StatsResult(
        symbols,
        per_card,
        cards,
        bags,
        p,
        hypergeometric(symbols, per_card),
        bags_distribution(symbols, per_card, bags),
        rnd,
        bag,
        designed,
        trials,
        note,
    )


def plot_cdf(result: StatsResult, path: Path) -> None:
    """Cumulative distribution of shared symbols, one line per deck kind; the designed
    deck is a single point at (1, 1). PNG or PDF by the file suffix.

    Raises:
        PrintdeckError: matplotlib is missing, the suffix is not .png / .pdf, or a file
            printdeck did not write is at ``path`` (:data:`~printdeck.errors.FOREIGN_OUTPUT`).
    """
    path = Path(path)
    if path.suffix.lower() not in (".png", ".pdf"):
        raise PrintdeckError(
            source=shown(path),
            key="path",
            problem="is not a .png or .pdf file name",
            fix="name a .png or .pdf file",
            is_argument=True,
        )
    try:
        import matplotlib  # noqa: PLC0415 - optional, and slow to import

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt  # noqa: PLC0415
    except ImportError as exc:
        problem, fix = "a plot needs matplotlib", 'pip install "printdeck[plot]"'
        raise PrintdeckError(key="path", problem=problem, fix=fix, is_argument=True) from exc
    fmt = path.suffix[1:].lower()
    check = check_pdf_path if fmt == "pdf" else check_png_path
    check(path, "path", "--plot", older=("Matplotlib",))  # a user's own file of that name is not replaced
    j = np.arange(result.per_card + 1)
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.step(j, np.cumsum(result.random_exact), where="post", label="random cards")
    ax.step(j, np.cumsum(result.bags_exact), where="post", label=f"{result.bags} bags")
    if result.designed is not None:
        ax.plot([1], [1], "o", label="designed deck")
    ax.set_xlabel("symbols shared by two cards")
    ax.set_ylabel("cumulative probability")
    ax.set_ylim(0, 1.05)
    ax.legend()
    mark = {"Creator": "printdeck"} if fmt == "pdf" else {PNG_SOFTWARE_KEY: PNG_SOFTWARE}
    with atomic_output(path) as tmp:
        fig.savefig(tmp, format=fmt, metadata=mark)
    plt.close(fig)
