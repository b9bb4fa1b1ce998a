"""The packer's speed and density on the default deck, against issue 29's target.

    python bench/bench_packer.py [--seeds N] [--shapes] [--profile FILE] [--set MODULE.NAME=VALUE ...] [--steps N]
                                 [--baseline REV|none] [--runs N]

Lays out the default theme (55 cards of 8 Twemoji symbols, an 85 mm round card) serially
in this process, with the layout cache off and every silhouette traced first, and prints
the CPU milliseconds a card (the process's own time, ``time.process_time``: steady on a
shared machine), the coverage (mean and lowest card), and the ratios against the target
of issue 29: at most :data:`TARGET_MS` ms a card with a mean coverage of at least
:data:`TARGET_COVERAGE`. Coverage depends on the random stream, so the deck is laid out
from ``--seeds`` theme seeds (2026 first: each seed also draws its own cards' symbols)
and the averages over them are the figures to compare. ``--shapes`` adds the card
shapes of ``bench_shapes.py`` (seed 2026 only). ``--profile FILE`` writes a cProfile of
the seeds' layouts to FILE. ``--set compaction.GROWTH=0.1`` changes a constant of a module
of ``printdeck.layout.packing`` for the run (repeatable; how bench/RESULTS.md tried other
trust regions and candidate counts), ``--steps N`` the compaction's linear programs a
card. The machine's load average is printed beside the figures.

The issue's target is a ratio: 27 ms a card on its machine then, 12 ms wanted, so at most
:data:`TARGET_RATIO` of the code before issue 29 measured beside it (a shared machine can
be half as fast as the issue's, and its milliseconds say little alone). ``--baseline REV``
(default: the revision in ``bench/BASELINE_STAGES``; ``none`` to skip) lays the same decks
out with the code of ``REV`` (a temporary git worktree, as ``compare.py`` makes) and the
current code, each in a process of its own, ``--runs`` times alternating, and prints the
medians, current / baseline and the verdict. ``--set`` and ``--steps`` apply to the
current code only; ``--shapes`` and ``--profile`` lay the decks out in this process alone,
as ``--baseline none`` does.
"""

from __future__ import annotations

import argparse
import cProfile
import dataclasses
import importlib
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import yaml

os.environ["PRINTDECK_NO_LAYOUT_CACHE"] = "1"  # time the packing, not the cache

import printdeck
from printdeck.artwork import silhouette

ROOT = Path(__file__).resolve().parent.parent
TARGET_MS = 12.0  # issue 29: CPU ms a card, serial, default deck
TARGET_COVERAGE = 0.60  # ... at this mean coverage or more
ISSUE_MS = 27.0  # issue 29: the code before it, on the issue's machine
TARGET_RATIO = TARGET_MS / ISSUE_MS  # the target beside the code before issue 29, measured in one run
BASELINE_FILE = ROOT / "bench" / "BASELINE_STAGES"
TREE = Path(printdeck.__file__).resolve().parent.parent  # the tree printdeck is imported from: its own default deck
SHAPES = {
    "circle 85mm": {"diameter": "85mm"},
    "square 70mm": {"shape": "square", "size": "70mm"},
    "poker 63x88": {"size": "poker"},
    "hexagon 80mm": {"shape": "hexagon", "size": "80mm"},
}


def theme_for(seed: int, card: dict[str, object] | None = None) -> dict[str, object]:
    """The default theme with its seed set to ``seed`` (and ``card`` as its card section)."""
    raw = yaml.safe_load((TREE / "themes" / "default.yaml").read_text())
    raw["seed"] = seed
    if card is not None:
        raw["card"] = {"bleed": "3mm", "safe_margin": "3mm", **card}
    return raw


def measure(raw: dict[str, object], profiler: cProfile.Profile | None) -> tuple[float, np.ndarray]:
    """CPU ms a card and the cards' coverages of one serial layout of the theme ``raw``."""
    deck = printdeck.plan(printdeck.load_theme(raw, base_dir=TREE))
    for symbol in deck.symbols:  # traced (or read from the cache) before timing
        _ = silhouette(symbol).field
    if profiler is not None:
        profiler.enable()
    t0 = time.process_time()
    layouts = printdeck.lay_out(deck, jobs=1)
    ms = 1000 * (time.process_time() - t0) / len(layouts)
    if profiler is not None:
        profiler.disable()
    return ms, np.array([lay.coverage for lay in layouts])


def apply_settings(settings: list[str], steps: int | None) -> None:
    """Set each ``MODULE.NAME=VALUE`` of ``printdeck.layout.packing`` (``VALUE`` a Python
    literal of the constant's own type: ``0.1``, ``8``, ``(0.5, 0.4)``), in that module and
    in every packing module that imported the name, and the compaction's steps a card, for
    this process's layouts.

    Raises:
        SystemExit: A module or name that does not exist, or a value of another type.
    """
    import ast
    import sys

    for item in settings:
        target, _, text = item.partition("=")
        module_name, _, name = target.rpartition(".")
        module = importlib.import_module(f"printdeck.layout.packing.{module_name}")
        if not hasattr(module, name):
            raise SystemExit(f"--set {item}: printdeck.layout.packing.{module_name} has no {name}")
        old = getattr(module, name)
        try:
            value = ast.literal_eval(text)
        except (ValueError, SyntaxError):
            raise SystemExit(f"--set {item}: {text!r} is not a Python literal") from None
        if isinstance(old, float) and isinstance(value, int):
            value = float(value)
        if type(value) is not type(old):
            raise SystemExit(f"--set {item}: {name} is a {type(old).__name__}, not a {type(value).__name__}")
        for loaded in list(sys.modules.values()):  # the module's own name, and where it was imported
            packing = getattr(loaded, "__name__", "").startswith("printdeck.layout.packing")
            if packing and getattr(loaded, name, None) is old:
                setattr(loaded, name, value)
    if steps is not None:
        from printdeck.layout.packing import card_state

        made = card_state.CardState.__init__

        def with_steps(self: object, problem: object, rng: object) -> None:
            made(self, dataclasses.replace(problem, compact_steps=steps), rng)  # type: ignore[arg-type, type-var]

        card_state.CardState.__init__ = with_steps  # type: ignore[method-assign]


def parse_args() -> argparse.Namespace:
    """The command line (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=3, help="theme seeds 2026, 2027, ... (default 3)")
    parser.add_argument("--shapes", action="store_true", help="also the other card shapes (seed 2026)")
    parser.add_argument("--profile", type=Path, default=None, help="write a cProfile of the layouts here")
    parser.add_argument("--set", action="append", default=[], help="MODULE.NAME=VALUE of layout.packing")
    parser.add_argument("--steps", type=int, default=None, help="the compaction's linear programs a card")
    parser.add_argument(
        "--baseline", default=None, help="git revision laid out beside (default: bench/BASELINE_STAGES; none: skip)"
    )
    parser.add_argument("--runs", type=int, default=3, help="alternating runs of each tree with --baseline (default 3)")
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)  # a child's one line for --baseline
    return parser.parse_args()


def main() -> None:
    args = parse_args()
    baseline = BASELINE_FILE.read_text(encoding="utf-8").split()[0] if args.baseline is None else args.baseline
    if baseline != "none" and not (args.json or args.profile or args.shapes):  # those lay out here alone
        compare_with(baseline, args)
        return
    apply_settings(args.set, args.steps)
    profiler = cProfile.Profile() if args.profile else None
    if args.json:
        runs = [measure(theme_for(seed), None) for seed in range(2026, 2026 + args.seeds)]
        ms, cov_mean, cov_low = summary(runs)
        print(json.dumps({"ms": ms, "coverage_mean": cov_mean, "coverage_low": cov_low}))
        return
    print(f"load average at start: {load()}")
    print(f"{'deck':22} {'cards':>5} {'cov mean':>9} {'cov low':>8} {'cpu ms/card':>11}")
    runs = []
    for seed in range(2026, 2026 + args.seeds):
        ms, cov = measure(theme_for(seed), profiler)
        runs.append((ms, cov))
        print(f"{'default seed ' + str(seed):22} {len(cov):5d} {cov.mean():9.3f} {cov.min():8.3f} {ms:11.1f}")
    ms, cov_mean, cov_low = summary(runs)
    print(f"{'default, all seeds':22} {'':5} {cov_mean:9.3f} {cov_low:8.3f} {ms:11.1f}")
    print(
        f"target: <= {TARGET_MS:g} ms a card at mean coverage >= {TARGET_COVERAGE:.2f} (the issue's machine; "
        f"--baseline gives the ratio that holds anywhere); time / target {ms / TARGET_MS:.2f}, "
        f"coverage / target {cov_mean / TARGET_COVERAGE:.3f} ({'met' if cov_mean >= TARGET_COVERAGE else 'not met'})"
    )
    if args.shapes:
        for name, card in SHAPES.items():
            ms, cov = measure(theme_for(2026, card), profiler)
            print(f"{name:22} {len(cov):5d} {cov.mean():9.3f} {cov.min():8.3f} {ms:11.1f}")
    print(f"load average at end: {load()}")
    if profiler is not None:
        profiler.dump_stats(args.profile)


def summary(runs: list[tuple[float, np.ndarray]]) -> tuple[float, float, float]:
    """CPU ms a card (mean over the seeds), mean coverage and lowest card of ``runs``."""
    ms = float(np.mean([r[0] for r in runs]))
    return ms, float(np.mean([r[1].mean() for r in runs])), float(min(r[1].min() for r in runs))


def load() -> str:
    """The machine's load averages (1, 5, 15 minutes)."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def compare_with(baseline: str, args: argparse.Namespace) -> None:
    """Lay the decks out with ``baseline``'s code and the current code, ``args.runs`` times
    alternating, each run a process of its own, and print the medians, the ratio and the
    verdict against :data:`TARGET_RATIO`."""
    sys.path.insert(0, str(ROOT / "bench"))
    from compare import worktree

    tuning = [f"--set={item}" for item in args.set] + ([f"--steps={args.steps}"] if args.steps else [])
    found: dict[str, list[dict[str, float]]] = {"baseline": [], "current": []}
    with worktree(baseline) as old:
        trees = {"baseline": (old, []), "current": (ROOT, tuning)}
        print(f"{args.runs} alternating runs of {args.seeds} seeds; baseline {baseline}; load at start {load()}")
        for _ in range(args.runs):
            for name, (tree, extra) in trees.items():
                found[name].append(child_run(tree, args.seeds, extra))
                print(
                    f"  {name:8} {found[name][-1]['ms']:6.1f} ms a card, coverage "
                    f"{found[name][-1]['coverage_mean']:.3f}, load {load()}"
                )
    ms = {name: statistics.median(run["ms"] for run in runs) for name, runs in found.items()}
    coverage = found["current"][0]["coverage_mean"]
    ratio = ms["current"] / ms["baseline"]
    met = ratio <= TARGET_RATIO and coverage >= TARGET_COVERAGE
    print(
        f"median ms a card: baseline {ms['baseline']:.1f}, current {ms['current']:.1f}; "
        f"current / baseline {ratio:.3f} (target <= {TARGET_RATIO:.3f}: {TARGET_MS:g} of the issue's {ISSUE_MS:g} ms), "
        f"coverage {coverage:.3f} (target >= {TARGET_COVERAGE:.2f}): {'PASS' if met else 'FAIL'}"
    )


def child_run(tree: Path, seeds: int, extra: list[str]) -> dict[str, float]:
    """One layout of the decks with printdeck imported from ``tree`` (a process of its own):
    its CPU ms a card and coverages."""
    env = {**os.environ, "PYTHONPATH": str(tree), "PRINTDECK_NO_LAYOUT_CACHE": "1"}
    done = subprocess.run(
        [sys.executable, __file__, "--json", f"--seeds={seeds}", "--baseline=none", *extra],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"the layout with {tree} failed: {done.stderr.strip()[-400:]}")
    result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


if __name__ == "__main__":
    main()
