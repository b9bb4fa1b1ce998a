"""Class sets and the classroom: a class set's build time against one deck's, one run.

    python bench/bench_class_sets.py [--copies 6]

Builds the default theme (Twemoji, 55 cards of 8) uncached, side by side in one run: one
deck, a class set of ``--copies`` decks (each deck on its own sheets, with backs), the same
class set packed (``--pack``), the print-and-play booklet of one deck, and the classroom
slides with the answer key; prints seconds, pages and the ratio to the one deck's build,
and the coverage of the class set's cards (their deck mark's cap is kept free) against
the one deck's.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

os.environ["PRINTDECK_NO_CACHE"] = "1"

import printdeck


def _timed(run: Callable[[], object]) -> tuple[float, object]:
    t0 = time.perf_counter()
    result = run()
    return time.perf_counter() - t0, result


def _coverage(manifest: Path) -> float:
    cards = json.loads(manifest.read_text())["cards"]
    return sum(c["coverage"] for c in cards) / len(cards)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--copies", type=int, default=6, help="decks in the class set")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        runs: list[tuple[str, Callable[[], object]]] = [
            ("one deck, backs", lambda: printdeck.build(None, out / "one.pdf", backs=True)),
            (
                f"class set of {args.copies}, backs",
                lambda: printdeck.build(None, out / "set.pdf", backs=True, copies=args.copies),
            ),
            (
                f"class set of {args.copies}, packed",
                lambda: printdeck.build(None, out / "packed.pdf", backs=True, copies=args.copies, pack=True),
            ),
            ("booklet, one deck", lambda: printdeck.build(None, out / "booklet.pdf", booklet=True)),
            ("slides + answer key", lambda: printdeck.write_slides(None, out / "slides.pdf", answer_key=True)),
        ]
        base = None
        print(f"{'build':28} {'s':>7} {'pages':>6} {'x one deck':>10}")
        for name, run in runs:
            seconds, result = _timed(run)
            base = base or seconds
            pages = getattr(result, "pages", 0)
            print(f"{name:28} {seconds:7.1f} {pages:6d} {seconds / base:10.2f}")
        print(f"coverage: one deck {_coverage(out / 'one.json'):.3f}, class set {_coverage(out / 'set.json'):.3f}")


if __name__ == "__main__":
    main()
