"""Per-photo work done twice in a cold build of the 57 phone photos (issue 29: no work twice).

Builds the deck of ``bench_photos.py`` (its photos made in ``WORK_DIR/photos`` if missing)
once with an empty disk cache, in a child process whose OpenCV cascades, look-alike
rasters and same-picture feature searches each write a line to a log as they run (the
build's worker processes and the look-alike check, forked from it, write theirs too),
then prints how many of each ran, on how many different inputs, how many ran more than
once and the CPU seconds they took. Before the crop claim (bench/RESULTS.md, thirty-third
session) a cold build ran 61 frontal cascades for 57 photos.

Usage: python bench/bench_repeats.py [WORK_DIR] (default: a folder under the temp folder; its
photos are kept for the next run, its cache emptied)
"""

from __future__ import annotations

import collections
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent


def _child(log: Path, theme: Path, out: Path) -> None:
    """In the child: wrap the three kinds of work, then build as ``printdeck build`` does."""
    import printdeck.artwork.faces as faces
    import printdeck.artwork.raster as raster
    import printdeck.artwork.same_picture as same_picture
    from printdeck.cli import main

    def note(kind: str, what: object, seconds: float) -> None:
        with log.open("a", encoding="utf-8") as lines:
            lines.write(f"{kind} {os.getpid()} {what} {seconds:.4f}\n")

    class Counted:
        def __init__(self, cascade: Any, name: str) -> None:
            self.cascade, self.name = cascade, name

        def detectMultiScale(self, gray: Any, *args: Any, **kwargs: Any) -> Any:
            began = time.process_time()
            found = self.cascade.detectMultiScale(gray, *args, **kwargs)
            note(self.name, hash(gray.tobytes()), time.process_time() - began)
            return found

    loaded = faces._cascades

    def counted_cascades() -> tuple[Counted, ...]:
        return tuple(Counted(c, n) for c, n in zip(loaded(), ("frontal", "profile", "cats"), strict=True))

    faces._cascades = counted_cascades
    rasterise = raster.rasterise

    def counted_rasterise(art: Any, *args: Any, **kwargs: Any) -> Any:
        began = time.process_time()
        picture = rasterise(art, *args, **kwargs)
        note("raster", f"{art.key}:{args[:2]}", time.process_time() - began)
        return picture

    raster.rasterise = counted_rasterise
    found = same_picture._found

    def counted_found(art: Any) -> Any:
        began = time.process_time()
        features = found(art)
        note("features", art.key, time.process_time() - began)
        return features

    same_picture._found = counted_found
    sys.argv = ["printdeck", "build", str(theme), "-o", str(out), "--quiet"]
    main()


def main() -> None:
    if sys.argv[1:2] == ["--child"]:
        _child(*(Path(a) for a in sys.argv[2:5]))
        return
    sys.path.insert(0, str(BENCH))
    import bench_photos

    work = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(tempfile.gettempdir()) / "printdeck-bench-repeats"
    bench_photos.make_photos(work / "photos")
    theme = bench_photos.write_theme(work, remove_background=False)
    log, cache = work / "repeats.log", work / "cache"
    log.unlink(missing_ok=True)
    shutil.rmtree(cache, ignore_errors=True)
    env = {**os.environ, "PRINTDECK_CACHE_DIR": str(cache), "PYTHONPATH": str(BENCH.parent)}
    child = [sys.executable, __file__, "--child", str(log), str(theme), str(work / "out.pdf")]
    subprocess.run(child, check=True, env=env, capture_output=True)
    runs: dict[str, list[tuple[str, float]]] = collections.defaultdict(list)
    for line in log.read_text(encoding="utf-8").splitlines():
        kind, _, rest = line.split(" ", 2)  # the kind, the process, then what and its seconds
        what, seconds = rest.rsplit(" ", 1)
        runs[kind].append((what, float(seconds)))
    print(f"one cold build of {bench_photos.N_PHOTOS} phone photos ({work}), load {os.getloadavg()[0]:.1f}")
    print(f"{'work':10} {'runs':>5} {'inputs':>6} {'twice':>5} {'CPU s':>7}")
    for kind in ("frontal", "profile", "cats", "raster", "features"):
        done = runs.get(kind, [])
        counts = collections.Counter(what for what, _ in done)
        twice = sum(1 for n in counts.values() if n > 1)
        print(f"{kind:10} {len(done):5d} {len(counts):6d} {twice:5d} {sum(s for _, s in done):7.2f}")


if __name__ == "__main__":
    main()
