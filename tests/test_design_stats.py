"""Shared-symbol odds: exact values from seed 000's analysis, Monte Carlo agreement, plot."""

from __future__ import annotations

import numpy as np
import pytest

from printdeck.design.stats import (
    bags_distribution,
    deck_stats,
    hypergeometric,
    plot_cdf,
)
from printdeck.errors import PrintdeckError


def test_reference_values() -> None:
    x = hypergeometric(57, 8)
    assert round(x[1], 4) == 0.4159 and round(1 - x[0], 4) == 0.7271
    assert x.sum() == pytest.approx(1.0)
    y = bags_distribution(57, 8, 8)
    assert round(y[1], 3) == 0.371 and round(1 - y[0], 3) == 0.648
    assert y.sum() == pytest.approx(1.0)


def test_simulation_agrees_with_formulas() -> None:
    r = deck_stats(57, 8, 55, trials=150, seed=1)
    assert (r.bags, r.cards_per_bag) == (8, 7)
    assert np.abs(r.random_sim - r.random_exact).max() < 0.01
    assert np.abs(r.bags_sim - r.bags_exact).max() < 0.01
    assert r.designed is not None and r.designed[1] == 1.0
    again = deck_stats(57, 8, 55, trials=150, seed=1)
    assert np.array_equal(again.random_sim, r.random_sim)  # deterministic given the seed
    assert "P(shared > 0): random 0.7271, bags 0.6478" in r.text()
    assert r.as_dict()["random"]["exact"][1] == pytest.approx(0.4159, abs=1e-4)


def test_no_designed_deck_without_plane() -> None:
    assert deck_stats(50, 7, 20, trials=5).designed is None


def test_bad_parameters_name_the_argument() -> None:
    with pytest.raises(PrintdeckError) as caught:
        deck_stats(5, 8, 10)
    assert (caught.value.key, caught.value.is_argument, caught.value.value) == ("per_card", True, 8)
    assert str(caught.value) == "per_card: must be between 1 and 5 (the symbols), got 8"
    with pytest.raises(
        PrintdeckError, match=r"^trials: is too much to simulate for these decks, got 10000; give \d+ or fewer$"
    ):
        deck_stats(2000, 8, 500, trials=10_000)


def test_plot(tmp_path) -> None:
    pytest.importorskip("matplotlib")
    r = deck_stats(31, 6, 31, trials=5)
    out = tmp_path / "cdf.png"
    plot_cdf(r, out)
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    pdf = tmp_path / "cdf.pdf"
    plot_cdf(r, pdf)
    assert pdf.read_bytes()[:5] == b"%PDF-"
    plot_cdf(r, pdf)  # its own plot is replaced; a user's own PDF of that name is not
    import matplotlib.pyplot as plt

    older = tmp_path / "older.pdf"  # an older printdeck's plot: Matplotlib its creator
    plt.figure().savefig(older, format="pdf")
    plot_cdf(r, older)
    theirs = tmp_path / "invitation.pdf"
    theirs.write_bytes(b"%PDF-1.4 someone's own")
    with pytest.raises(PrintdeckError, match=r"invitation\.pdf is there already and printdeck did not write it"):
        plot_cdf(r, theirs)
    assert theirs.read_bytes() == b"%PDF-1.4 someone's own"
    with pytest.raises(PrintdeckError, match=r"png or \.pdf"):
        plot_cdf(r, tmp_path / "cdf.svg")
