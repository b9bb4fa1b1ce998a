"""Class sets and the classroom: a class set's build time against one deck's, one run.

    python bench/bench_class_sets.py [--copies 6]

Builds the default theme (Twemoji, 55 cards of 8) uncached and on one process, side by side in one run: one
deck, a class set of ``--copies`` decks (each deck on its own sheets, with backs), the same
class set packed (``--pack``), the print-and-play booklet of one deck, and the classroom
slides with the answer key; prints seconds, pages and the ratio to the one deck's build,
and the coverage of the class set's cards (their deck mark's cap is kept free) against
the one deck's. An untimed build of the default deck (another seed) first loads the
libraries and fonts and the drawings the process keeps in memory, so every timed build
pays the same: its layouts (uncached), its render and its writes.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

os.environ["PRINTDECK_NO_CACHE"] = "1"
os.environ["PRINTDECK_JOBS"] = "1"  # one process: its CPU time is the whole build's

import printdeck


def _cpu_s() -> float:
    """CPU seconds of this process and its finished workers (steadier than the wall clock
    on a shared machine)."""
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def _timed(run: Callable[[], object]) -> tuple[float, float, object]:
    t0, c0 = time.perf_counter(), _cpu_s()
    result = run()
    return time.perf_counter() - t0, _cpu_s() - c0, result


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
            ("one deck, backs", lambda: printdeck.build(None, out / "one.pdf", backs=True, seed=11)),
            (
                f"class set of {args.copies}, backs",
                lambda: printdeck.build(None, out / "set.pdf", backs=True, copies=args.copies, seed=12),
            ),
            (
                f"class set of {args.copies}, packed",
                lambda: printdeck.build(None, out / "packed.pdf", backs=True, copies=args.copies, pack=True, seed=13),
            ),
            ("booklet, one deck", lambda: printdeck.build(None, out / "booklet.pdf", booklet=True, seed=14)),
            ("slides + answer key", lambda: printdeck.write_slides(None, out / "slides.pdf", answer_key=True)),
        ]
        printdeck.build(None, out / "warm.pdf", seed=99)  # libraries, fonts and the drawings kept in memory
        base = None
        print(f"{'build':28} {'wall s':>7} {'cpu s':>7} {'pages':>6} {'cpu x one deck':>15}")
        for name, run in runs:
            wall, cpu, result = _timed(run)
            base = base or cpu
            pages = getattr(result, "pages", 0)
            print(f"{name:28} {wall:7.1f} {cpu:7.1f} {pages:6d} {cpu / base:15.2f}")
        print(f"coverage: one deck {_coverage(out / 'one.json'):.3f}, class set {_coverage(out / 'set.json'):.3f}")


if __name__ == "__main__":
    main()
