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
"""

from __future__ import annotations

from dataclasses import dataclass
from math import ceil, comb
from pathlib import Path

import numpy as np

from printdeck.design.gf import is_prime_power
from printdeck.errors import PrintdeckError


@dataclass(frozen=True)
class StatsResult:
    """Distributions of shared symbols between two cards, index j = shared count.

    Attributes:
        symbols, per_card, cards: S, s, N.
        bags, cards_per_bag: b, p of the bags deck.
        random_exact, bags_exact: (s + 1,) float probabilities.
        random_sim, bags_sim: (s + 1,) float Monte Carlo frequencies over all card pairs.
        designed: (s + 1,) float (one at j = 1) or None when no plane of order s - 1 is known
            or S is below s^2 - s + 1.
        trials: Monte Carlo decks per kind.
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

    def as_dict(self) -> dict:
        """JSON-ready form."""
        def r(a: np.ndarray | None) -> list[float] | None:
            return None if a is None else [round(float(x), 6) for x in a]
        return {"symbols": self.symbols, "per_card": self.per_card, "cards": self.cards,
                "bags": self.bags, "cards_per_bag": self.cards_per_bag, "trials": self.trials,
                "random": {"exact": r(self.random_exact), "simulated": r(self.random_sim)},
                "bags_deck": {"exact": r(self.bags_exact), "simulated": r(self.bags_sim)},
                "designed": r(self.designed)}

    def text(self) -> str:
        """Table: shared j, then P for each kind (exact / simulated)."""
        rows = [(f"S={self.symbols} symbols, s={self.per_card} per card, N={self.cards} cards; "
                 f"bags: {self.bags} bags of {self.cards_per_bag} cards; {self.trials} simulated decks each"),
                f"{'shared':>6}  {'random':>8} {'(sim)':>8}  {'bags':>8} {'(sim)':>8}  {'designed':>8}"]
        for j in range(self.per_card + 1):
            d = "-" if self.designed is None else f"{self.designed[j]:.4f}"
            rows.append(f"{j:>6}  {self.random_exact[j]:8.4f} {self.random_sim[j]:8.4f}  "
                        f"{self.bags_exact[j]:8.4f} {self.bags_sim[j]:8.4f}  {d:>8}")
        rows.append(f"P(shared > 0): random {1 - self.random_exact[0]:.4f}, bags {1 - self.bags_exact[0]:.4f}"
                    + ("" if self.designed is None else ", designed 1.0000"))
        return "\n".join(rows)


def hypergeometric(symbols: int, per_card: int) -> np.ndarray:
    """P(X = j), j = 0..s: shared symbols of two independent random cards.

    Returns:
        (s + 1,) float64, sums to 1.
    """
    total = comb(symbols, per_card)
    return np.array([comb(per_card, j) * comb(symbols - per_card, per_card - j) / total
                     for j in range(per_card + 1)])


def bags_distribution(symbols: int, per_card: int, bags: int) -> np.ndarray:
    """P(Y = j) for the bags deck with ``bags`` bags of floor(S/s) cards (see module doc)."""
    p = symbols // per_card
    x = hypergeometric(symbols, per_card)
    other = (bags - 1) / (bags - 1 / p)
    y = other * x
    y[0] = (1 - 1 / p) / (bags - 1 / p) + other * x[0]
    return y


def _pair_histogram(decks: np.ndarray, symbols: int, per_card: int) -> np.ndarray:
    """Shared-count histogram over all card pairs of (trials, N, s) decks, normalised."""
    t, n, _ = decks.shape
    inc = np.zeros((t, n, symbols), dtype=np.float32)
    np.put_along_axis(inc, decks, 1.0, axis=2)
    gram = inc @ inc.transpose(0, 2, 1)
    iu = np.triu_indices(n, 1)
    shared = gram[:, iu[0], iu[1]].astype(np.int64).ravel()
    return np.bincount(shared, minlength=per_card + 1)[: per_card + 1] / shared.size


def simulate(symbols: int, per_card: int, cards: int, bags: int, trials: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Monte Carlo: shared-count frequencies for random decks and bags decks.

    Returns:
        (random (s+1,), bags (s+1,)) frequencies over all pairs of all decks.
    """
    rng = np.random.default_rng(seed)
    keys = rng.random((trials, cards, symbols))
    random_decks = np.argsort(keys, axis=2)[:, :, :per_card]
    p = symbols // per_card
    shuffled = np.argsort(rng.random((trials, bags, symbols)), axis=2)[:, :, : p * per_card]
    bag_decks = shuffled.reshape(trials, bags * p, per_card)
    return _pair_histogram(random_decks, symbols, per_card), _pair_histogram(bag_decks, symbols, per_card)


def deck_stats(symbols: int = 57, per_card: int = 8, cards: int = 55, trials: int = 200, seed: int = 0) -> StatsResult:
    """Exact and simulated shared-symbol distributions for random, bags and designed decks.

    Args:
        symbols: S, symbols in the pool.
        per_card: s, symbols on each card.
        cards: N, cards in the deck.
        trials: Simulated decks of each kind.
        seed: Random seed (results are deterministic given it).

    Raises:
        PrintdeckError: Impossible parameters (s > S, fewer than 2 cards, ...).
    """
    if not 1 <= per_card <= symbols:
        raise PrintdeckError(f"stats: --per-card {per_card} must be between 1 and --symbols {symbols}")
    if cards < 2 or trials < 1:
        raise PrintdeckError("stats: --cards must be at least 2 and --trials at least 1")
    p = symbols // per_card
    bags = max(2, ceil(cards / p))
    designed = None
    if is_prime_power(per_card - 1) and symbols >= per_card * per_card - per_card + 1:
        designed = np.zeros(per_card + 1)
        designed[1] = 1.0
    rnd, bag = simulate(symbols, per_card, cards, bags, trials, seed)
    return StatsResult(symbols, per_card, cards, bags, p, hypergeometric(symbols, per_card),
                       bags_distribution(symbols, per_card, bags), rnd, bag, designed, trials)


def plot_cdf(result: StatsResult, path: Path) -> None:
    """Cumulative distribution of shared symbols, one line per deck kind; the designed
    deck is a single point at (1, 1). PNG or PDF by the file suffix.

    Raises:
        PrintdeckError: matplotlib is missing, or the suffix is not .png / .pdf.
    """
    path = Path(path)
    if path.suffix.lower() not in (".png", ".pdf"):
        raise PrintdeckError(f"--plot {path}: use a .png or .pdf file name")
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as exc:
        raise PrintdeckError('stats --plot needs matplotlib: pip install "printdeck[plot]"') from exc
    from printdeck.fileio import atomic_output

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
    with atomic_output(path) as tmp:
        fig.savefig(tmp, format=path.suffix[1:].lower())
    plt.close(fig)
