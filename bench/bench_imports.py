"""Start-up of a cached build: modules imported and ``-X importtime``, side by side with a baseline.

Each tree builds the default deck twice (untimed: the first fills its own cache folder,
the second, 2 s later, is recorded for replaying), then ``N`` rounds alternate three
rows: the baseline tree, the current tree (the unchanged build replayed from its record,
:mod:`printdeck.rerun`) and the current tree with ``PRINTDECK_NO_REPLAY=1`` (its pipeline
run with every card, proof and drawing from the cache, as the baseline's is). Each row
gives the modules ``python -X importtime -m printdeck build`` imports and the sum of their
own import times, the wall time of a build, and the time before the first stage of a
build with ``-v`` (imports and the command line; ``-v`` is never replayed). The table
gives medians (and the fastest run of each, the least disturbed by other work), the
ratio of the import time to the baseline's measured beside it, and the 1-minute load
average: on a shared machine read the ratio, not the seconds. Issue 29's target: at most
0.15 s in imports on a quiet machine.

Both trees run from compiled bytecode, as an installed package does: the untimed first
build writes it to a scratch folder (``PYTHONPYCACHEPREFIX``), even where the shell sets
``PYTHONDONTWRITEBYTECODE`` (which would time compiling every module of the tree).

Usage: python bench/bench_imports.py [--runs N] [--baseline REV] (default: bench/BASELINE_STAGES)
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
STAGE = re.compile(r"printdeck: \w+: ([\d.]+) s")
TARGET_S = 0.15


def _run(
    tree: Path, cache: Path, out: Path, python: list[str], build: list[str] | None = None, replay: bool = True
) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(tree), "PRINTDECK_CACHE_DIR": str(cache)}
    env["PYTHONPYCACHEPREFIX"] = str(cache.parent.parent / "bytecode")  # scratch: the trees stay clean
    for name in ("PRINTDECK_NO_CACHE", "PYTHONDONTWRITEBYTECODE", "PRINTDECK_NO_REPLAY"):
        env.pop(name, None)
    if not replay:
        env["PRINTDECK_NO_REPLAY"] = "1"
    args = [sys.executable, *python, "-m", "printdeck", "build", *(build or []), "-q", "-o", str(out), "--seed", "5"]
    return subprocess.run(args, env=env, cwd=out.parent, capture_output=True, text=True, check=True)


VARIANTS = {"baseline": ("baseline", True), "current": ("current", True), "no replay": ("current", False)}
"""Rows: the tree and whether a replay is allowed (``PRINTDECK_NO_REPLAY`` unset): the
current tree replays the unchanged build from its record; ``no replay`` runs its pipeline
from the caches, as the baseline does."""


def measure(trees: dict[str, Path], runs: int, scratch: Path) -> dict[str, dict[str, list[float]]]:
    """``runs`` alternating rounds of each variant's cached build; the figures of each."""
    found: dict[str, dict[str, list[float]]] = {
        n: {"modules": [], "imports": [], "wall": [], "before": []} for n in VARIANTS
    }
    for name, tree in trees.items():
        for _ in range(2):  # the first fills the caches; the second, its files 2 s old, is recorded
            _run(tree, scratch / name / "cache", scratch / f"{name}.pdf", [])
            time.sleep(2.1)
    for _ in range(runs):
        for variant, (name, replay) in VARIANTS.items():
            tree, cache, out = trees[name], scratch / name / "cache", scratch / f"{name}.pdf"
            rows = [
                line
                for line in _run(tree, cache, out, ["-X", "importtime"], replay=replay).stderr.splitlines()
                if line.startswith("import time:") and "self" not in line
            ]
            found[variant]["modules"].append(len(rows))
            found[variant]["imports"].append(sum(int(r.split("|")[0].split(":")[1]) for r in rows) / 1e6)
            start = time.perf_counter()
            _run(tree, cache, out, [], replay=replay)
            found[variant]["wall"].append(time.perf_counter() - start)
            start = time.perf_counter()
            verbose = _run(tree, cache, out, [], ["-v"], replay=replay)  # -v: never replayed
            wall = time.perf_counter() - start
            found[variant]["before"].append(wall - sum(float(m) for m in STAGE.findall(verbose.stderr)))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--baseline", default=None, help="git revision (default: bench/BASELINE_STAGES)")
    args = parser.parse_args()
    baseline = args.baseline or (REPO / "bench" / "BASELINE_STAGES").read_text(encoding="utf-8").split()[0]
    sys.path.insert(0, str(REPO / "bench"))
    from compare import worktree

    with worktree(baseline) as base, tempfile.TemporaryDirectory() as scratch_dir:
        trees = {"baseline": base, "current": REPO}
        found = measure(trees, args.runs, Path(scratch_dir))
    load = os.getloadavg()[0]
    print(f"{args.runs} alternating runs, medians; baseline {baseline}; load {load:.1f} ({os.cpu_count()} CPUs)")
    print(
        f"  {'tree':<9} {'modules':>7} {'imports s':>9} {'(fastest)':>9} {'x base':>6} {'build s':>7} "
        f"{'(fastest)':>9} {'start-up s':>10}"
    )
    base_imports = statistics.median(found["baseline"]["imports"])
    for name, figures in found.items():  # start-up: of a build with -v (never replayed)
        imports = statistics.median(figures["imports"])
        print(
            f"  {name:<9} {statistics.median(figures['modules']):7.0f} {imports:9.3f} {min(figures['imports']):9.3f} "
            f"{imports / base_imports:6.2f} {statistics.median(figures['wall']):7.2f} {min(figures['wall']):9.2f} "
            f"{statistics.median(figures['before']):10.2f}"
        )
    imports = statistics.median(found["current"]["imports"])
    verdict = "PASS" if imports <= TARGET_S else "FAIL"
    print(f"target: imports {imports:.3f} s (<= {TARGET_S} s on a quiet machine; load {load:.1f}): {verdict}")
    piped = statistics.median(found["no replay"]["imports"])
    print(f"  (the pipeline from the caches, PRINTDECK_NO_REPLAY=1: imports {piped:.3f} s)")


if __name__ == "__main__":
    main()
