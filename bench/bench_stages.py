"""Where a build's time goes: each stage's wall and CPU time, against the committed baseline
and the ReportLab floor, with issue 29's targets passed or failed.

Every case is a whole ``python -m printdeck build -v`` process (start-up included),
run ``N`` times alternating with the floor (``bench/floor_reportlab.py`` writing the
same placements with plain ReportLab + svglib in a fresh process) and with the same
build from the baseline revision (default: ``bench/BASELINE_STAGES``, the code before
issue 29, checked out as a temporary git worktree as ``bench/compare.py`` does; its
``-v`` gives stage wall times only; ``--baseline none`` skips it). The table gives
medians: total wall and CPU (the process and its layout workers), each stage's wall /
CPU (``start-up`` is what precedes the first stage: imports and the command line), the
ratio to the floor measured beside it, and the machine's 1-minute load average
(``os.getloadavg``) around each side's runs: on a shared machine read the ratios, not
the seconds. The targets (issue 29) close the report, each with the figure measured and
PASS or FAIL: the default deck's new seed at most 3 times the floor and its cold build
at most 6 times; the order-11 deck's new seed at most 2.5 s, the phone photos' new seed
at most 2 s and their cold build at most 8 s, seconds the issue gave beside what the
code before it took on the issue's machine (5.4, 6.1 and 12.1 s). The issue's targets are
ratios in one run, so with a baseline those three are read as the same share of the
baseline's wall time measured beside (order 11: at most 2.5 / 5.4 = 0.46 of it), which
holds on a machine of any speed; without one (``--baseline none``), as seconds, a quiet
machine as fast as the issue's. The baseline has none of the photo checks added since
(look-alike pictures, cats' faces and subjects), so the photo ratios count their cost.

Cases: the default deck with a new seed and every silhouette cached; the same, cold
(an empty cache each run); the same deck again (same seed: every card from the cache; a
build with ``-v`` is never replayed from its record, so this times the pipeline, and
``bench/bench_imports.py`` the replay);
the order-11 deck (133 cards of 12) with a new seed; with ``--photos``, the 57 phone
photos of ``bench/bench_photos.py`` with a new seed (caches warm) and cold; with ``--heic``,
the same 57 photos saved as HEIC (``bench_photos.py --heic``), timed alike, with no target.
``PRINTDECK_CACHE_DIR`` is set to a folder of each side's own (made with ``tempfile``: set
``TMPDIR`` to keep the caches off a folder slow to create files in, as this project's
machine's ``/tmp`` is: see bench/RESULTS.md); ``PRINTDECK_NO_LAYOUT_CACHE`` passes through as set.

Usage: python bench/bench_stages.py [--runs N] [--baseline REV|none] [--photos [DIR]] [--heic [DIR]] [--only WORD ...]
"""

from __future__ import annotations

import argparse
import functools
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
FLOOR = REPO / "bench" / "floor_reportlab.py"
BASELINE_FILE = REPO / "bench" / "BASELINE_STAGES"
STAGE = re.compile(r"printdeck: (\w+): ([\d.]+) s(?: wall, ([\d.]+) s CPU)?")
ORDER11 = "name: order11\ndeck:\n  symbols_per_card: 12\nsymbols:\n  - folder: '@assets/twemoji'\n"


@dataclass
class Run:
    """One timed process: wall and CPU seconds, stages (name -> (wall, CPU or None)), load."""

    wall: float
    cpu: float
    load: float
    stages: dict[str, tuple[float, float | None]] = field(default_factory=dict)


@dataclass(frozen=True)
class Target:
    """Issue 29's target for a case: at most ``limit`` times the floor (``per_floor``), or
    ``limit`` seconds of wall time where the issue measured ``issue_s`` seconds with the
    code before it: at most ``limit / issue_s`` of the baseline measured beside, or (no
    baseline) ``limit`` seconds."""

    limit: float
    per_floor: bool
    issue_s: float | None = None

    def verdict(self, wall: float, floor: float, baseline_wall: float | None = None) -> tuple[str, bool]:
        """The figure measured against the target, in words, and whether it holds."""
        if self.per_floor:
            ratio = wall / floor
            return f"{ratio:.2f}x floor (target <= {self.limit:g}x)", ratio <= self.limit
        if baseline_wall is not None and self.issue_s is not None:
            share, ratio = self.limit / self.issue_s, wall / baseline_wall
            return (
                f"{ratio:.2f} of the baseline's {baseline_wall:.2f} s, {wall:.2f} s (target <= {share:.2f}: "
                f"{self.limit:g} s where the issue's machine took {self.issue_s:g} s)"
            ), ratio <= share
        return f"{wall:.2f} s (target <= {self.limit:g} s, a machine as fast as the issue's)", wall <= self.limit


@dataclass(frozen=True)
class Case:
    """A build: its theme argument, whether each run gets a new seed, a new empty cache."""

    name: str
    theme: str | None
    new_seed: bool
    cold: bool
    target: Target | None = None
    floor: bool = True
    """Time the floor beside it (not for photos: it embeds every 12-megapixel file whole,
    HEIC as Flate, in minutes; their targets are read against the baseline, or seconds)."""
    baseline_theme: str | None = None
    """The same deck's theme as the baseline reads it, where its keys differ (the photos':
    no ``allow_look_alike``, a key of the look-alike check the baseline does not make)."""

    def theme_of(self, side: str) -> str | None:
        """The theme argument of ``side``'s builds (``baseline`` or ``current``)."""
        return self.baseline_theme if side == "baseline" and self.baseline_theme else self.theme


def timed(args: list[str], env: dict[str, str], cwd: Path) -> Run:
    """Run one process; its wall time, CPU time (with its children) and ``-v`` stages."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    load = os.getloadavg()[0]
    start = time.perf_counter()
    done = subprocess.run(args, env=env, cwd=cwd, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(args[:4])} failed: {done.stderr.strip()[-400:]}")
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    stages = {m[1]: (float(m[2]), float(m[3]) if m[3] else None) for m in STAGE.finditer(done.stderr)}
    return Run(wall, cpu, max(load, os.getloadavg()[0]), stages)


def warm_silhouettes(env: dict[str, str], cwd: Path, theme: str | None) -> None:
    """Trace and prove every symbol of the theme into the case's cache (not timed)."""
    code = (
        "import sys; from printdeck.theme import load_theme; from printdeck.artwork import silhouettes\n"
        "from printdeck.deck_plan import prove_symbols\n"
        f"t = load_theme({theme!r}); silhouettes(list(t.symbols)); prove_symbols(t)\n"
    )
    subprocess.run([sys.executable, "-c", code], env=env, cwd=cwd, check=True, capture_output=True)


def build_args(theme: str | None, out: Path, seed: int) -> list[str]:
    args = [sys.executable, "-m", "printdeck", "build", *([theme] if theme else [])]
    return [*args, "-v", "-q", "-o", str(out), "--seed", str(seed)]


def measure(case: Case, trees: dict[str, Path], runs: int, scratch: Path) -> dict[str, list[Run]]:
    """``runs`` rounds; each round runs every tree's build and then the floor on its manifest.

    The trees take turns going first (the order is reversed every other round): the first
    build of a round ran about 0.1-0.2 s slower in the cold case, whichever tree it was
    (bench/RESULTS.md, ninth session), which a fixed order put on one side every time."""
    results: dict[str, list[Run]] = {side: [] for side in [*trees, "floor"]}
    for side, tree in trees.items():
        env = _env(tree, scratch / side / "cache")
        (scratch / side).mkdir(parents=True, exist_ok=True)
        if not case.cold:
            warm_silhouettes(env, scratch / side, case.theme_of(side))
            subprocess.run(
                build_args(case.theme_of(side), scratch / side / "deck.pdf", 1),
                env=env,
                cwd=scratch / side,
                check=True,
                capture_output=True,
            )
    for k in range(runs):
        seed = 1000 + k if case.new_seed else 1
        for side, tree in list(trees.items())[:: -1 if k % 2 else 1]:
            cache = scratch / side / "cache"
            if case.cold:
                shutil.rmtree(cache, ignore_errors=True)
            out = scratch / side / "deck.pdf"
            results[side].append(timed(build_args(case.theme_of(side), out, seed), _env(tree, cache), scratch / side))
        if not case.floor:
            continue
        manifest = scratch / next(iter(trees)) / "deck.json"
        floor_args = [sys.executable, str(FLOOR), str(manifest), str(scratch / "floor.pdf"), str(_base(case))]
        results["floor"].append(timed(floor_args, dict(os.environ), scratch))
    return results


def _base(case: Case) -> Path:
    return Path(case.theme).resolve().parent if case.theme and case.theme.endswith(".yaml") else REPO


def _env(tree: Path, cache: Path) -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": str(tree), "PRINTDECK_CACHE_DIR": str(cache)}
    env.pop("PRINTDECK_NO_CACHE", None)
    return env


def report(case: Case, results: dict[str, list[Run]]) -> tuple[str, bool] | None:
    """Print the case's table; return its target's verdict for the current tree (None: no target)."""
    floors = results["floor"]
    floor = statistics.median(r.wall for r in floors) if floors else float("nan")
    floor_load = statistics.median(r.load for r in floors) if floors else float("nan")
    print(f"\n{case.name}: floor {floor:.2f} s (load {floor_load:.1f})" if floors else f"\n{case.name}: (no floor)")
    print(f"  {'tree':<9} {'wall':>6} {'CPU':>6} {'x floor':>7} {'load':>5}  stages: wall / CPU (s)")
    for side, runs in results.items():
        if side == "floor":
            continue
        wall, cpu = statistics.median(r.wall for r in runs), statistics.median(r.cpu for r in runs)
        load = statistics.median(r.load for r in runs)
        print(f"  {side:<9} {wall:6.2f} {cpu:6.2f} {wall / floor:7.2f} {load:5.1f}  " + _stages(runs))
    if case.target is None:
        return None
    current, base = results["current"], results.get("baseline")
    base_wall = statistics.median(r.wall for r in base) if base else None
    text, held = case.target.verdict(statistics.median(r.wall for r in current), floor, base_wall)
    print(f"  target: {text}: {'PASS' if held else 'FAIL'}")
    return text, held


def _stages(runs: list[Run]) -> str:
    """Each stage's median wall / CPU (``-`` where only the wall is known), start-up first."""
    names = list(dict.fromkeys(n for r in runs for n in r.stages))
    start_up = statistics.median(r.wall - sum(w for w, _ in r.stages.values()) for r in runs)
    parts = [f"start-up {start_up:.2f}"]
    for n in names:
        walls = [r.stages[n][0] for r in runs if n in r.stages]
        cpus = [c for r in runs if n in r.stages and (c := r.stages[n][1]) is not None]
        cpu_text = f"{statistics.median(cpus):.2f}" if cpus else "-"
        parts.append(f"{n} {statistics.median(walls):.2f}/{cpu_text}")
    return ", ".join(parts)


def cases(photos: Path | None, heics: Path | None = None) -> list[Case]:
    order11 = Path(tempfile.mkdtemp(prefix="printdeck-order11-")) / "theme.yaml"
    order11.write_text(ORDER11, encoding="utf-8")
    found = [
        Case("default deck, new seed, silhouettes cached", None, True, False, Target(3.0, True)),
        Case("default deck, cold (empty caches)", None, True, True, Target(6.0, True)),
        Case("default deck, same seed (cached deck)", None, False, False),
        Case("order 11 (133 cards of 12), new seed", str(order11), True, False, Target(2.5, False, 5.4)),
    ]
    if photos is not None:
        theme, before = str(photos / "theme.yaml"), str(photos / "theme-baseline.yaml")
        photo_case = functools.partial(Case, floor=False, baseline_theme=before)  # no floor: see Case.floor
        found += [
            photo_case("57 phone photos, new seed", theme, True, False, Target(2.0, False, 6.1)),
            photo_case("57 phone photos, cold", theme, True, True, Target(8.0, False, 12.1)),
        ]
    if heics is not None:  # no target of issue 29's: timed beside the JPEG deck above
        theme, before = str(heics / "theme.yaml"), str(heics / "theme-baseline.yaml")
        found += [
            Case("57 HEIC phone photos, new seed", theme, True, False, floor=False, baseline_theme=before),
            Case("57 HEIC phone photos, cold", theme, True, True, floor=False, baseline_theme=before),
        ]
    return found


def committed_baseline() -> str:
    """The revision in ``bench/BASELINE_STAGES`` (its first word)."""
    return BASELINE_FILE.read_text(encoding="utf-8").split()[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument(
        "--baseline", default=None, help="git revision to time beside (default: bench/BASELINE_STAGES; none: skip)"
    )
    parser.add_argument(
        "--photos", nargs="?", const="", default=None, help="add the phone-photo deck (made in DIR, by bench_photos.py)"
    )
    parser.add_argument(
        "--heic", nargs="?", const="", default=None, help="add the same deck, every photo a HEIC (made in DIR)"
    )
    parser.add_argument("--only", nargs="*", default=None, help="case names containing these words")
    args = parser.parse_args()
    baseline = committed_baseline() if args.baseline is None else (None if args.baseline == "none" else args.baseline)
    photos, heics = None, None
    sys.path.insert(0, str(REPO / "bench"))
    if args.photos is not None:
        import bench_photos

        photos = Path(args.photos or Path(tempfile.gettempdir()) / "printdeck-bench-photos")
        bench_photos.make_photos(photos / "photos")
        bench_photos.write_theme(photos, False)
        bench_photos.write_theme(photos, False, "theme-baseline.yaml", look_alike_key=False)
    if args.heic is not None:
        import bench_photos

        heics = Path(args.heic or Path(tempfile.gettempdir()) / "printdeck-bench-heic")
        bench_photos.make_photos(heics / "photos", heic=True)
        bench_photos.write_theme(heics, False)
        bench_photos.write_theme(heics, False, "theme-baseline.yaml", look_alike_key=False)
    trees = {"current": REPO}
    verdicts: list[tuple[str, str, bool]] = []
    with tempfile.TemporaryDirectory() as scratch_dir:
        if baseline:
            from compare import worktree

            stack = worktree(baseline)
            trees = {"baseline": stack.__enter__(), "current": REPO}
        try:
            for tree in trees.values():  # no run pays for compiling the sources
                subprocess.run(
                    [sys.executable, "-m", "compileall", "-q", str(tree / "printdeck")],
                    env={k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"},
                    check=False,
                )
            print(f"{args.runs} alternating runs, medians; load = 1-minute load average ({os.cpu_count()} CPUs)")
            print(f"baseline: {baseline or 'none'}; floor: bench/floor_reportlab.py")
            for case in cases(photos, heics):
                if args.only and not any(w in case.name for w in args.only):
                    continue
                verdict = report(
                    case, measure(case, trees, args.runs, Path(scratch_dir) / case.name.split(",")[0][:12])
                )
                if verdict is not None:
                    verdicts.append((case.name, *verdict))
        finally:
            if baseline:
                stack.__exit__(None, None, None)
    if verdicts:
        print("\nTargets (issue 29), current tree:")
        for name, text, held in verdicts:
            print(f"  {'PASS' if held else 'FAIL'}  {name}: {text}")


if __name__ == "__main__":
    main()
