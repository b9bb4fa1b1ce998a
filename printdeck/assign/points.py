"""Which of the theme's symbols the deck shows, and on which point of the design each sits."""

from __future__ import annotations

import dataclasses

import numpy as np

from printdeck.assign.balance import balance_symbols
from printdeck.design import Design
from printdeck.errors import PrintdeckError
from printdeck.model import SymbolSpec
from printdeck.theme import TOO_FEW_SYMBOLS, Theme


def assign_symbols(theme: Theme, n_points: int, seed: int) -> list[SymbolSpec]:
    """Choose the deck's symbols and assign them to the design's points.

    ``deck.choose: first`` takes the theme's first ``n_points`` symbols, ``seeded`` a seeded
    random choice; either way a seeded shuffle then maps point ``p`` to a symbol, and the
    returned list is indexed by point (``result[p].id == p``).

    Raises:
        PrintdeckError: the theme has fewer symbols than the design has points.
    """
    pool = list(theme.symbols)
    if len(pool) < n_points:
        raise PrintdeckError(
            f"theme {theme.name}: symbols: the deck needs {n_points} symbols but the theme "
            f"gives {len(pool)}; add {n_points - len(pool)} more or choose a smaller deck",
            source=f"theme {theme.name}",
            key="symbols",
            value=len(pool),
            code=TOO_FEW_SYMBOLS,
        )
    rng = np.random.default_rng([seed, 0x5EED])
    if theme.spec.deck.choose == "seeded":
        picked = sorted(rng.choice(len(pool), size=n_points, replace=False).tolist())
        pool = [pool[i] for i in picked]
    else:
        pool = pool[:n_points]
    order = rng.permutation(n_points)
    return [dataclasses.replace(pool[int(j)], id=p) for p, j in enumerate(order)]


def deck_symbols(theme: Theme, design: Design, seed: int) -> list[SymbolSpec]:
    """The deck's symbols indexed by point: :func:`assign_symbols`, then balanced so no
    card gathers the hard-to-pack artwork (:func:`~printdeck.assign.balance.balance_symbols`).

    Raises:
        PrintdeckError: the theme has fewer symbols than the design has points.
    """
    return balance_symbols(design.blocks, assign_symbols(theme, design.n_points, seed))
