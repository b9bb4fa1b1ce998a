"""Card shapes side by side: coverage of the safe shape and ms a card, one run.

    python bench/bench_shapes.py [--cards N]

Builds the layouts of the default theme (Twemoji, 8 a card, seed 2026) as a round
85 mm card, a 70 mm square, a poker card (63 x 88 mm) and an 80 mm hexagon (pointy),
uncached, on one process, and prints each shape's coverage of its safe zone (mean and
lowest card) and CPU milliseconds a card (the process's own time, so other work on the
machine does not count), with the ratio to the circle's.
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

import numpy as np
import yaml

os.environ["PRINTDECK_NO_CACHE"] = "1"

import printdeck

ROOT = Path(__file__).resolve().parent.parent
SHAPES = {
    "circle 85mm": {"diameter": "85mm"},
    "square 70mm": {"shape": "square", "size": "70mm"},
    "poker 63x88": {"size": "poker"},
    "hexagon 80mm": {"shape": "hexagon", "size": "80mm"},
}


def theme_for(card: dict[str, object], n_cards: int | None) -> dict[str, object]:
    """The default theme with ``card`` in place of its card section."""
    raw = yaml.safe_load((ROOT / "themes" / "default.yaml").read_text())
    raw["card"] = {"bleed": "3mm", "safe_margin": "3mm", **card}
    if n_cards:
        raw["deck"]["cards"] = n_cards
    return raw


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=None, help="lay out this many cards (default: the deck's 55)")
    args = parser.parse_args()
    base_ms = None
    # every symbol traced once first, so no shape's time includes tracing
    printdeck.lay_out(
        printdeck.plan(printdeck.load_theme(theme_for(SHAPES["circle 85mm"], None), base_dir=ROOT)), jobs=1
    )
    print(f"{'shape':14} {'cards':>5} {'cov mean':>9} {'cov low':>8} {'cpu ms/card':>11} {'x circle':>8}")
    for name, card in SHAPES.items():
        deck = printdeck.plan(printdeck.load_theme(theme_for(card, args.cards), base_dir=ROOT))
        t0 = time.process_time()  # CPU time of this process (jobs=1): steady on a busy machine
        layouts = printdeck.lay_out(deck, jobs=1)
        ms = 1000 * (time.process_time() - t0) / len(layouts)
        base_ms = base_ms or ms
        cov = np.array([lay.coverage for lay in layouts])
        print(f"{name:14} {len(layouts):5d} {cov.mean():9.3f} {cov.min():8.3f} {ms:11.0f} {ms / base_ms:8.2f}")


if __name__ == "__main__":
    main()
