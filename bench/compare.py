"""Time printdeck against its committed baseline, side by side in one run, and print ratios.

Usage::

    python bench/compare.py [--baseline REV] [--runs N] [--only NAME ...]

The baseline is a git revision (default: the one in ``bench/BASELINE``, committed with the
code). It is checked out into a temporary git worktree and imported from there
(``PYTHONPATH``) with the same Python and libraries, so the two differ only in printdeck's
code. Each case is a whole process (start-up included), run ``N`` times alternating
baseline and current, each side with its own cache folder; the table gives the medians and
current / baseline (under 1 is faster). A ratio over 1.10 is flagged as a slowdown.
``PRINTDECK_NO_REPLAY`` is set: a repeated build runs its pipeline (from the caches, when
warm), as the baseline's does, not a replay of its record (``bench/bench_imports.py``
times those).
Record results in ``bench/RESULTS.md``.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SLOWER = 1.10


@dataclass(frozen=True)
class Case:
    """One timed command: ``args`` after ``python -m printdeck``; ``cache`` = warm or off."""

    name: str
    args: tuple[str, ...]
    cache: str  # "warm": one untimed run first; "off": PRINTDECK_NO_CACHE=1


CASES = (
    Case("start-up (--help)", ("--help",), "warm"),
    Case("check default", ("check", "default"), "warm"),
    Case("design k=12 (json)", ("design", "-k", "12", "--format", "json"), "warm"),
    Case("build default, warm", ("build", "-q", "-o", "{tmp}/default.pdf"), "warm"),
    Case("build default, caches off", ("build", "-q", "-o", "{tmp}/default.pdf"), "off"),
    Case("build words, caches off", ("build", "words", "-q", "-o", "{tmp}/words.pdf"), "off"),
)


@contextmanager
def worktree(rev: str) -> Iterator[Path]:
    """A detached git worktree of ``rev`` in a temporary folder (removed afterwards)."""
    folder = Path(tempfile.mkdtemp(prefix="printdeck-baseline-"))
    subprocess.run(
        ["git", "-C", str(REPO), "worktree", "add", "--detach", str(folder), rev], check=True, capture_output=True
    )
    try:
        yield folder
    finally:
        subprocess.run(["git", "-C", str(REPO), "worktree", "remove", "--force", str(folder)], capture_output=True)
        shutil.rmtree(folder, ignore_errors=True)


def run_once(tree: Path, case: Case, tmp: Path, cache: Path) -> float:
    """Wall time (s) of one run of ``case`` with printdeck imported from ``tree``."""
    env = {**os.environ, "PYTHONPATH": str(tree), "PRINTDECK_CACHE_DIR": str(cache), "PRINTDECK_NO_REPLAY": "1"}
    if case.cache == "off":
        env["PRINTDECK_NO_CACHE"] = "1"
    args = [a.replace("{tmp}", str(tmp)) for a in case.args]
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "printdeck", *args], cwd=tmp, env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{case.name} failed in {tree}: {done.stderr.strip()[-300:]}")
    return elapsed


def check_imports_from(tree: Path) -> None:
    """Refuse to time anything if ``printdeck`` would not be imported from ``tree``."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    found = subprocess.run(
        [sys.executable, "-c", "import printdeck; print(printdeck.__file__)"],
        env=env,
        cwd=tempfile.gettempdir(),
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    if not Path(found).resolve().is_relative_to(tree.resolve()):
        raise SystemExit(f"printdeck imports from {found}, not from {tree}; uninstall other copies first")


def measure(trees: dict[str, Path], case: Case, runs: int) -> dict[str, list[float]]:
    """``runs`` alternating runs of each side; a warm case runs once untimed first."""
    times: dict[str, list[float]] = {side: [] for side in trees}
    with tempfile.TemporaryDirectory() as scratch:
        dirs = {side: Path(scratch) / side for side in trees}
        for side, tree in trees.items():
            (dirs[side] / "cache").mkdir(parents=True)
            if case.cache == "warm":
                run_once(tree, case, dirs[side], dirs[side] / "cache")
        for _ in range(runs):
            for side, tree in trees.items():
                times[side].append(run_once(tree, case, dirs[side], dirs[side] / "cache"))
    return times


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", default=(REPO / "bench" / "BASELINE").read_text().split()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--only", nargs="*", default=None, help="case names containing these words")
    args = parser.parse_args(argv)
    cases = [c for c in CASES if not args.only or any(w in c.name for w in args.only)]
    print(f"baseline {args.baseline} vs current tree, {args.runs} alternating runs, medians (s)")
    print(f"{'case':<28} {'baseline':>9} {'current':>9} {'ratio':>6}")
    slow = []
    with worktree(args.baseline) as base:
        for tree in (base, REPO):
            check_imports_from(tree)
        for case in cases:
            times = measure({"baseline": base, "current": REPO}, case, args.runs)
            b, c = statistics.median(times["baseline"]), statistics.median(times["current"])
            flag = "  slower" if c / b > SLOWER else ""
            print(f"{case.name:<28} {b:9.2f} {c:9.2f} {c / b:6.2f}{flag}", flush=True)
            slow += [case.name] if flag else []
    return 1 if slow else 0


if __name__ == "__main__":
    sys.exit(main())
