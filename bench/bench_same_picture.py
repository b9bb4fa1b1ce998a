"""How well the same-picture check tells photos of one picture from photos of others.

    python bench/bench_same_picture.py [WORK_DIR]

Makes two sets of photos from the pictures scikit-image ships (kept in ``WORK_DIR``,
default a temporary folder) and compares every pair as the look-alike check does
(:func:`printdeck.artwork.agreeing_matches` of :func:`printdeck.artwork.picture_features`),
with the cache off:

* **different**: every colour or grey picture scikit-image ships without a download (one
  of two copies of the same cat left out), and each quarter of four of them blown up to
  a whole photo (a quarter and its picture share a picture; quarters of one picture do not);
* **re-crops**: five pictures, each as taken, re-cropped closer (zoom 1.4 about a shifted
  centre), turned 12 degrees (zoom 1.3) and re-saved at JPEG quality 60, as 640 x 480
  photos (the next shot of a burst, an edited copy).

Prints, for pairs of different pictures and for pairs of one picture, how many are found
alike (details agree, :data:`SAME_PICTURE_INLIERS` or more, and once aligned their colours
are within CIEDE2000 10), the range of agreeing matches (counted down to 3 here) and the
colour differences once aligned, and the time a photo's features and a pair's matching
take (CPU ms, this process; a photo's includes finding its crop).
"""

from __future__ import annotations

import itertools
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from PIL import Image
from skimage import data

os.environ["PRINTDECK_NO_CACHE"] = "1"

import printdeck
import printdeck.artwork.same_picture as same_picture
from printdeck.artwork import (
    COLOUR_QUANTILE,
    DELTA_E_ALIKE,
    SAME_PICTURE_INLIERS,
    agreeing_matches,
    aligned_colour_difference,
    drawing,
    look_pixels,
    picture_features,
    shared_scene,
)

RAW_FLOOR = 3
"""The comparison gives up below :data:`SAME_PICTURE_INLIERS` matches; here it counts down
to this many, so the largest count chance gives can be read."""

PICTURES = [
    "astronaut",
    "brick",
    "camera",
    "cell",
    "chelsea",
    "clock",
    "coffee",
    "coins",
    "colorwheel",
    "grass",
    "gravel",
    "horse",
    "hubble_deep_field",
    "immunohistochemistry",
    "logo",
    "microaneurysms",
    "moon",
    "page",
    "retina",
    "rocket",
    "text",
]
QUARTERED = ("astronaut", "hubble_deep_field", "immunohistochemistry", "retina")


def _rgb(name: str) -> np.ndarray:
    pixels = np.asarray(getattr(data, name)())
    if pixels.dtype != np.uint8:
        pixels = (255 * (pixels.astype(float) / max(1.0, float(pixels.max())))).astype(np.uint8)
    if pixels.ndim == 2:
        pixels = np.dstack([pixels] * 3)
    return np.ascontiguousarray(pixels[:, :, :3])


def _recrop(pixels: np.ndarray, zoom: float, shift: tuple[int, int], turn_deg: float) -> Image.Image:
    image = Image.fromarray(pixels).rotate(turn_deg, resample=Image.Resampling.BICUBIC)
    w, h = image.size
    cw, ch = w / zoom, h / zoom
    cx, cy = w / 2 + shift[0], h / 2 + shift[1]
    box = (int(cx - cw / 2), int(cy - ch / 2), int(cx + cw / 2), int(cy + ch / 2))
    return image.crop(box).resize((640, 480), Image.Resampling.LANCZOS)


def different_set(folder: Path) -> dict[str, str]:
    """Photo file -> its picture: every picture once, and quarters of four."""
    folder.mkdir(parents=True, exist_ok=True)
    source = {}
    for name in PICTURES:
        pixels = _rgb(name)
        Image.fromarray(pixels).save(folder / f"{name}.jpg", quality=92)
        source[f"{name}.jpg"] = name
        if name in QUARTERED:
            h, w = pixels.shape[:2]
            for k, (y, x) in enumerate(((0, 0), (0, w // 2), (h // 2, 0), (h // 2, w // 2))):
                Image.fromarray(pixels[y : y + h // 2, x : x + w // 2]).save(folder / f"{name}-q{k}.jpg", quality=92)
                source[f"{name}-q{k}.jpg"] = f"{name} quarter {k}"
    return source


def recrop_set(folder: Path) -> dict[str, str]:
    """Photo file -> its picture: five pictures, four photos each."""
    folder.mkdir(parents=True, exist_ok=True)
    source = {}
    for name in ("astronaut", "coffee", "chelsea", "rocket", "camera"):
        pixels = _rgb(name)
        variants = {
            "taken": _recrop(pixels, 1.0, (0, 0), 0.0),
            "closer": _recrop(pixels, 1.4, (-25, -20), 0.0),
            "turned": _recrop(pixels, 1.3, (10, 5), 12.0),  # zoomed enough to hide the turn's corners
        }
        for kind, image in variants.items():
            image.save(folder / f"{name}-{kind}.jpg", quality=92)
            source[f"{name}-{kind}.jpg"] = name
        variants["taken"].save(folder / f"{name}-resaved.jpg", quality=60)
        source[f"{name}-resaved.jpg"] = name
    return source


def _same(a: str, b: str) -> bool:
    """Whether two pictures' names (a picture, or a quarter of one) share a picture."""
    return a == b or ((" quarter " in a) != (" quarter " in b) and a.split(" quarter ")[0] == b.split(" quarter ")[0])


def measure(folder: Path, source: dict[str, str]) -> None:
    """Print how the pairs of the photos in ``folder`` (file -> picture) are told apart."""
    theme = printdeck.load_symbols({"symbols": [{"photo": f} for f in sorted(source)]}, base_dir=folder)
    t0 = time.process_time()
    features = [(source[Path(s.path or "").name], picture_features(drawing(s))) for s in theme.symbols]
    per_photo = 1000 * (time.process_time() - t0) / len(features)
    pixels = [look_pixels(s) for s in theme.symbols]
    t0 = time.process_time()
    for fa, fb in itertools.combinations([f for _, f in features], 2):
        agreeing_matches(fa, fb)
    per_pair = 1000 * (time.process_time() - t0) / (len(features) * (len(features) - 1) // 2)
    same: list[tuple[int, float | None]] = []
    different: list[tuple[int, float | None]] = []
    same_picture.SAME_PICTURE_INLIERS = RAW_FLOOR  # counts under the line too (not timed)
    try:
        for (i, (a, fa)), (j, (b, fb)) in itertools.combinations(enumerate(features), 2):
            matches, transform = shared_scene(fa, fb)
            delta = None
            if matches >= SAME_PICTURE_INLIERS and transform is not None:
                delta = aligned_colour_difference(fa, fb, transform, pixels[i], pixels[j], COLOUR_QUANTILE)
            (same if _same(a, b) else different).append((matches, delta))
    finally:
        same_picture.SAME_PICTURE_INLIERS = SAME_PICTURE_INLIERS
    print(f"{folder.name}: {len(features)} photos, features {per_photo:.1f} ms a photo, {per_pair:.2f} ms a pair")
    for name, pairs in (("different pictures", different), ("one picture", same)):
        if not pairs:
            continue
        alike = [m >= SAME_PICTURE_INLIERS and d is not None and d < DELTA_E_ALIKE for m, d in pairs]
        counts = sorted(m for m, _ in pairs)
        deltas = sorted(round(d, 1) for _, d in pairs if d is not None)
        print(f"  {len(pairs)} pairs of {name}: {sum(alike)} found alike; matches from {counts[0]} to {counts[-1]}")
        print(f"    colours once aligned (CIEDE2000, where details agree): {deltas}")


def main() -> None:
    work = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(tempfile.mkdtemp(prefix="printdeck-same-"))
    print(f"SAME_PICTURE_INLIERS = {SAME_PICTURE_INLIERS}; load average {os.getloadavg()[0]:.1f}")
    measure(work / "different", different_set(work / "different"))
    measure(work / "recrops", recrop_set(work / "recrops"))


if __name__ == "__main__":
    main()
