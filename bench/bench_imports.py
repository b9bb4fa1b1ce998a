"""Start-up of a cached build: modules imported and ``-X importtime``, side by side with a baseline.

Each tree builds the default deck once (untimed, filling its own cache folder), then
``N`` rounds alternate the trees: ``python -X importtime -m printdeck build`` (every card,
proof and drawing from the cache) gives the number of modules imported and the sum of
their own import times; a second run with ``-v`` gives the wall time and the time before
the first stage (imports and the command line). The table gives medians (and the
fastest run of each, the least disturbed by other work), the ratio of the import time to
the baseline's measured beside it, and the 1-minute load average: on a shared machine
read the ratio, not the seconds. Issue 29's target: at most 0.15 s in imports on a quiet
machine.

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
    tree: Path, cache: Path, out: Path, python: list[str], build: list[str] | None = None
) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(tree), "PRINTDECK_CACHE_DIR": str(cache)}
    env["PYTHONPYCACHEPREFIX"] = str(cache.parent.parent / "bytecode")  # scratch: the trees stay clean
    for name in ("PRINTDECK_NO_CACHE", "PYTHONDONTWRITEBYTECODE"):
        env.pop(name, None)
    args = [sys.executable, *python, "-m", "printdeck", "build", *(build or []), "-q", "-o", str(out), "--seed", "5"]
    return subprocess.run(args, env=env, cwd=out.parent, capture_output=True, text=True, check=True)


def measure(trees: dict[str, Path], runs: int, scratch: Path) -> dict[str, dict[str, list[float]]]:
    """``runs`` alternating rounds of each tree's cached build; the figures of each."""
    found: dict[str, dict[str, list[float]]] = {
        n: {"modules": [], "imports": [], "wall": [], "before": []} for n in trees
    }
    for name, tree in trees.items():
        _run(tree, scratch / name / "cache", scratch / f"{name}.pdf", [])
    for _ in range(runs):
        for name, tree in trees.items():
            cache, out = scratch / name / "cache", scratch / f"{name}.pdf"
            rows = [
                line
                for line in _run(tree, cache, out, ["-X", "importtime"]).stderr.splitlines()
                if line.startswith("import time:") and "self" not in line
            ]
            found[name]["modules"].append(len(rows))
            found[name]["imports"].append(sum(int(r.split("|")[0].split(":")[1]) for r in rows) / 1e6)
            start = time.perf_counter()
            verbose = _run(tree, cache, out, [], ["-v"])
            wall = time.perf_counter() - start
            found[name]["wall"].append(wall)
            found[name]["before"].append(wall - sum(float(m) for m in STAGE.findall(verbose.stderr)))
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
    for name, figures in found.items():
        imports = statistics.median(figures["imports"])
        print(
            f"  {name:<9} {statistics.median(figures['modules']):7.0f} {imports:9.3f} {min(figures['imports']):9.3f} "
            f"{imports / base_imports:6.2f} {statistics.median(figures['wall']):7.2f} {min(figures['wall']):9.2f} "
            f"{statistics.median(figures['before']):10.2f}"
        )
    imports = statistics.median(found["current"]["imports"])
    verdict = "PASS" if imports <= TARGET_S else "FAIL"
    print(f"target: imports {imports:.3f} s (<= {TARGET_S} s on a quiet machine; load {load:.1f}): {verdict}")


if __name__ == "__main__":
    main()
