"""Benchmark word decks: build time and PDF size of the bundled word themes.

Builds ``words`` (57 English words, order 7) and ``languages`` (31 words in eleven
languages and seven scripts, order 5), and the default picture deck for reference, each
in a child process with every cache off (as a first build on a new computer), a few
times, and prints the median wall time, the child's peak memory and the PDF size.

Usage: python bench/bench_words.py [RUNS]   (default 3)
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

THEMES = ("words", "languages", "default")


def build_once(theme: str, out: Path) -> tuple[float, float]:
    """(wall seconds, peak resident MB) of one ``printdeck build`` in a child process."""
    env = {**os.environ, "PRINTDECK_NO_CACHE": "1"}
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "printdeck", "build", theme, "-o", str(out), "--quiet"],
        check=True,
        env=env,
        stdout=subprocess.DEVNULL,
    )
    wall = time.perf_counter() - start
    return wall, max(before, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss) / 1024.0


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    with tempfile.TemporaryDirectory() as tmp:
        for theme in THEMES:
            out = Path(tmp) / f"{theme}.pdf"
            results = [build_once(theme, out) for _ in range(runs)]
            wall = statistics.median(r[0] for r in results)
            print(
                f"{theme:>10}: median {wall:5.1f} s over {runs} builds (min {min(r[0] for r in results):.1f}), "
                f"peak {max(r[1] for r in results):.0f} MB, PDF {out.stat().st_size / 1e6:.2f} MB"
            )


if __name__ == "__main__":
    main()
