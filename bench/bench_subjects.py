"""Benchmark photo crops that keep the subject (issue 26): a 57-photo deck of people, cats and
objects, built by today's code and by a baseline side by side in one run.

Makes 57 distinct 4000 x 3000 (or 3000 x 4000) phone-style photos from the pictures
scikit-image ships (the astronaut and the cameraman: people; ``chelsea``: a cat; ``coffee``
and ``rocket``: objects), each pasted off-centre at a random place and size into a busy
frame (brick, grass or a plain colour, all with sensor noise); some are stored sideways
with an EXIF turn, one as HEIC. Each photo's subject has a hand-labelled box (the face,
the cat's face, the cup, the rocket). A theme of them (order 7, 57 cards of 8; circles,
every fourth photo rounded) is built by the baseline revision and by the current tree,
each in a child process with every cache off, alternating, ``--runs`` times.

Then each PDF is rasterised (pypdfium2, 100 dpi) and every photo's printed crop located
in its photo by template matching (OpenCV, normalised cross-correlation): a subject
"prints whole" when its box lies inside the printed circle or rounded square (within 1 %
of the crop's side). Prints: the photos and placements whose subject prints whole, for
each side, and the build times with their ratio (current / baseline).

Usage: python bench/bench_subjects.py [WORK_DIR] [--baseline REV] [--runs N]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
from PIL import Image, ImageOps

sys.path.insert(0, str(Path(__file__).resolve().parent))
from compare import REPO, check_imports_from, worktree  # bench/ is not a package

N_PHOTOS = 57
SIDE_PX = (4000, 3000)
CORNER = 0.15  # a rounded crop's corner radius, a fraction of its side
DPI = 100.0
CPU_SECONDS: dict[str, list[float]] = {}
# Each source picture, what its subject is, and the subject's box in its pixels.
SOURCES = [
    ("astronaut", "person", (180.0, 75.0, 272.0, 178.0)),
    ("chelsea", "cat", (80.0, 50.0, 380.0, 290.0)),
    ("coffee", "object", (170.0, 15.0, 425.0, 310.0)),
    ("camera", "person", (178.0, 120.0, 254.0, 200.0)),
    ("rocket", "object", (300.0, 125.0, 345.0, 410.0)),
]


def _picture(name: str) -> np.ndarray:
    from skimage import data

    pixels = getattr(data, name)()
    return np.dstack([pixels] * 3) if pixels.ndim == 2 else pixels


def _frame(kind: int, size: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    from skimage import data

    w, h = size
    if kind == 2:
        frame = np.zeros((h, w, 3), np.float32) + rng.integers(60, 200, 3).astype(np.float32)
    else:
        texture = data.brick() if kind == 0 else data.grass()
        tile = np.asarray(Image.fromarray(texture).resize((w // 3, h // 3)).resize((w, h)), np.float32)
        tint = (0.6, 0.5, 0.4) if kind == 0 else (0.4, 0.7, 0.3)
        frame = np.stack([tile * t + 40 for t in tint], axis=-1)
    frame += rng.normal(0, 6, (h, w, 1)).astype(np.float32)
    return frame


def make_photos(folder: Path) -> list[dict]:
    """Write the 57 photos into ``folder`` (kept between runs) and return their truth."""
    folder.mkdir(parents=True, exist_ok=True)
    truth_file = folder / "truth.json"
    if truth_file.is_file():
        return json.loads(truth_file.read_text())
    import pillow_heif

    pillow_heif.register_heif_opener()
    rng = np.random.default_rng(26)
    truth = []
    for i in range(N_PHOTOS):
        name, kind, box = SOURCES[i % len(SOURCES)]
        source = _picture(name)
        size = SIDE_PX if i % 3 else SIDE_PX[::-1]
        frame = _frame(i % 3, size, rng)
        scale = rng.uniform(0.4, 0.75) * min(size) / max(source.shape[:2])
        pic = Image.fromarray(source).resize((round(source.shape[1] * scale), round(source.shape[0] * scale)))
        x = int(rng.integers(0, size[0] - pic.width))
        y = int(rng.integers(0, size[1] - pic.height))
        frame[y : y + pic.height, x : x + pic.width] = np.asarray(pic, np.float32)
        photo = Image.fromarray(np.clip(frame, 0, 255).astype(np.uint8))
        subject = [x + box[0] * scale, y + box[1] * scale, x + box[2] * scale, y + box[3] * scale]
        shape = "rounded" if i % 4 == 3 else "circle"
        stem = f"photo-{i:02d}"
        if i == 5:
            photo.save(folder / f"{stem}.heic", quality=90)
            file = f"{stem}.heic"
        else:
            exif = Image.Exif()
            if i % 10 == 3:  # stored sideways, shown upright by the EXIF orientation
                photo = photo.transpose(Image.Transpose.ROTATE_90)
                exif[0x0112] = 6
            photo.save(folder / f"{stem}.jpg", quality=90, exif=exif)
            file = f"{stem}.jpg"
        truth.append({"file": file, "name": stem, "kind": kind, "shape": shape, "subject": subject})
    truth_file.write_text(json.dumps(truth, indent=1))
    return truth


def write_theme(work: Path, truth: list[dict]) -> Path:
    lines = [f"  - photo: photos/{t['file']}\n    name: {t['name']}\n    shape: {t['shape']}\n" for t in truth]
    theme = work / "theme.yaml"
    theme.write_text(
        "name: subjects\ntitle: Pets and things\nseed: 1\ndeck:\n  symbols_per_card: 8\nsymbols:\n" + "".join(lines),
        encoding="utf-8",
    )
    return theme


def build(tree: Path, theme: Path, out: Path) -> float:
    """Build with printdeck imported from ``tree``, every cache off; wall seconds (the
    build's CPU seconds are added to :data:`CPU_SECONDS` under ``tree``)."""
    env = {**os.environ, "PYTHONPATH": str(tree), "PRINTDECK_NO_CACHE": "1"}
    # Five source pictures make 57 photos: those from one picture on one kind of frame are
    # look-alikes to printdeck's check (issue 24) where the tree has it; build them anyway.
    options = ["--allow-look-alike"] if (tree / "printdeck" / "theme" / "look_alikes.py").is_file() else []
    start = time.perf_counter()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(
        [sys.executable, "-m", "printdeck", "build", str(theme), "-o", str(out), "--quiet", *options],
        env=env,
        cwd=out.parent,  # not the repository: ``-m`` would import printdeck from there
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        raise SystemExit(f"build failed in {tree}: {done.stderr.strip()[-400:]}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    CPU_SECONDS.setdefault(str(tree), []).append(cpu)
    return time.perf_counter() - start


def printed_crops(pdf: Path, photos: Path, truth: list[dict]) -> tuple[dict[str, tuple], dict[str, int]]:
    """Each photo's printed crop (left, top, side) located in the photo, and its placements."""
    import cv2
    import pillow_heif
    import pypdfium2

    pillow_heif.register_heif_opener()

    manifest = json.loads(pdf.with_suffix(".json").read_text())
    names = {s["id"]: s["name"] for s in manifest["symbols"]}
    doc = pypdfium2.PdfDocument(str(pdf))
    pages = [np.asarray(doc[i].render(scale=DPI / 72).to_pil().convert("L")) for i in range(len(doc))]
    doc.close()
    files = {t["name"]: t["file"] for t in truth}
    crops: dict[str, tuple] = {}
    counts: dict[str, int] = {}
    px = DPI / 25.4
    for card in manifest["cards"]:
        page = pages[card["page"] - 1]
        for p in card["symbols"]:
            name = names[p["id"]]
            counts[name] = counts.get(name, 0) + 1
            half = p["box_mm"][0] * px / 2
            if name in crops and half < crops[name][3]:
                continue  # located already, on a larger print of it
            cx = (card["center_mm"][0] + p["center_mm"][0]) * px
            cy = page.shape[0] - (card["center_mm"][1] + p["center_mm"][1]) * px
            square = page[round(cy - half) : round(cy + half), round(cx - half) : round(cx + half)]
            with Image.open(photos / files[name]) as im:
                gray = np.asarray(ImageOps.exif_transpose(im).convert("L"))
            crops[name] = (*_locate(cv2, gray, square), half)
    return {k: v[:3] for k, v in crops.items()}, counts


def _locate(cv2, gray: np.ndarray, square: np.ndarray) -> tuple[float, float, float]:
    """(left, top, side) in ``gray`` of the printed ``square``'s middle, over crop sides."""
    n = square.shape[0]
    inner = np.ascontiguousarray(square[round(0.3 * n) : round(0.7 * n), round(0.3 * n) : round(0.7 * n)])
    best = (0.0, 0.0, 0.0, -1.0)
    for side in np.geomspace(min(gray.shape) / 3.3, min(gray.shape), 40):
        k = n / side
        small = cv2.resize(gray, (round(gray.shape[1] * k), round(gray.shape[0] * k)), interpolation=cv2.INTER_AREA)
        if small.shape[0] < inner.shape[0] or small.shape[1] < inner.shape[1]:
            continue
        _, score, _, (x, y) = cv2.minMaxLoc(cv2.matchTemplate(small, inner, cv2.TM_CCOEFF_NORMED))
        if score > best[3]:
            best = ((x - 0.3 * n) / k, (y - 0.3 * n) / k, side, score)
    return best[0], best[1], best[2]


def whole(box: list[float], crop: tuple[float, float, float], shape: str) -> bool:
    """Whether the box's corners lie inside the crop's shape (1 % of its side of slack)."""
    left, top, side = crop
    r, tol = side / 2, 0.01 * side
    cx, cy = left + r, top + r
    for x in (box[0], box[2]):
        for y in (box[1], box[3]):
            dx, dy = abs(x - cx), abs(y - cy)
            if shape == "circle":
                if math.hypot(dx, dy) > r + tol:
                    return False
            elif dx > r + tol or dy > r + tol:
                return False
            else:
                rr = CORNER * side
                if math.hypot(max(dx - (r - rr), 0), max(dy - (r - rr), 0)) > rr + tol:
                    return False
    return True


def report(side: str, pdf: Path, photos: Path, truth: list[dict]) -> str:
    crops, counts = printed_crops(pdf, photos, truth)
    lines = []
    kept_photos = kept_places = 0
    by_kind: dict[str, list[int]] = {}
    for t in truth:
        ok = whole(t["subject"], crops[t["name"]], t["shape"])
        kept_photos += ok
        kept_places += counts[t["name"]] if ok else 0
        tally = by_kind.setdefault(t["kind"], [0, 0])
        tally[0] += ok
        tally[1] += 1
    kinds = ", ".join(f"{k}s {v[0]}/{v[1]}" for k, v in sorted(by_kind.items()))
    lines.append(
        f"{side:<9} subjects whole: {kept_photos} of {len(truth)} photos, {kept_places} of "
        f"{sum(counts.values())} placements ({kinds})"
    )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("work", nargs="?", default="/tmp/printdeck-bench-subjects")
    parser.add_argument("--baseline", default=(REPO / "bench" / "BASELINE_SUBJECTS").read_text().split()[0])
    parser.add_argument("--runs", type=int, default=1)
    args = parser.parse_args()
    work = Path(args.work)
    truth = make_photos(work / "photos")
    theme = write_theme(work, truth)
    times: dict[str, list[float]] = {"baseline": [], "current": []}
    with worktree(args.baseline) as base:
        trees = {"baseline": base, "current": REPO}
        for tree in trees.values():
            check_imports_from(tree)
        for _ in range(args.runs):
            for side, tree in trees.items():
                times[side].append(build(tree, theme, work / f"{side}.pdf"))
    b, c = statistics.median(times["baseline"]), statistics.median(times["current"])
    print(f"57 photos (people, cats, objects), caches off, {args.runs} run(s) each, baseline {args.baseline}")
    print(f"build, wall: baseline {b:.1f} s, current {c:.1f} s, ratio {c / b:.2f}")
    cb, cc = (statistics.median(CPU_SECONDS[str(t)]) for t in (base, REPO))
    print(f"build, CPU: baseline {cb:.1f} s, current {cc:.1f} s, ratio {cc / cb:.2f}")
    for side in ("baseline", "current"):
        print(report(side, work / f"{side}.pdf", work / "photos", truth))


if __name__ == "__main__":
    main()
