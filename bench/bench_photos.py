"""Benchmark a gift deck of phone photos: 57 twelve-megapixel pictures -> PDF.

Makes 57 distinct 4000 x 3000 (or 3000 x 4000) JPEGs from the photographs scikit-image
ships (a few stored sideways with an EXIF orientation, one saved as HEIC), writes a
theme of 57 photos (order 7, 57 cards of 8), and builds it in a child process with
every cache off, as a user would. Prints the wall time, the child's peak memory, the
PDF size and the effective resolution of every picture the PDF places (``pdfimages
-list``, poppler-utils), with the targets of issue 14: PDF <= 40 MB, build <= 25 s,
peak memory <= 1 GB, every photo >= 300 ppi where the source allows.

With ``--heic`` every photo is a HEIC, as an iPhone saves them (made in another folder).

Usage: python bench/bench_photos.py [WORK_DIR] [--remove-background] [--heic]
"""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
from PIL import Image

N_PHOTOS = 57
SIDE_PX = (4000, 3000)


def _sources() -> list[np.ndarray]:
    from skimage import data

    return [data.astronaut(), data.coffee(), data.chelsea(), data.rocket(), np.dstack([data.camera()] * 3)]


def make_photos(folder: Path, heic: bool = False) -> None:
    """Write the 57 photos into ``folder`` (kept between runs); with ``heic``, every one as
    HEIC, as an iPhone saves them (x265's ``ultrafast`` preset, to make them in about a
    minute and a half: decoding costs about what a phone's own HEIC costs, 0.55-0.6 s)."""
    folder.mkdir(parents=True, exist_ok=True)
    if len(list(folder.iterdir())) == N_PHOTOS:
        return
    import pillow_heif

    pillow_heif.register_heif_opener()
    rng = np.random.default_rng(14)
    sources = _sources()
    for i in range(N_PHOTOS):
        base = Image.fromarray(sources[i % len(sources)]).convert("RGB")
        size = SIDE_PX if i % 3 else SIDE_PX[::-1]
        canvas = Image.new("RGB", size, tuple(int(v) for v in rng.integers(60, 200, 3)))
        scale = rng.uniform(0.5, 0.9) * min(size) / max(base.size)
        pic = base.resize((round(base.width * scale), round(base.height * scale)), Image.Resampling.BICUBIC)
        x = int(rng.integers(0, size[0] - pic.width))
        y = int(rng.integers(0, size[1] - pic.height))
        canvas.paste(pic, (x, y))
        noise = rng.normal(0, 6, (size[1], size[0], 1)).astype(np.int16)
        pixels = np.clip(np.asarray(canvas, dtype=np.int16) + noise, 0, 255).astype(np.uint8)
        photo = Image.fromarray(pixels)
        if i == 5 and not heic:  # the JPEG deck's one HEIC
            photo.save(folder / f"photo-{i:02d}.heic", quality=90)
            continue
        exif = Image.Exif()
        if i % 10 == 3:  # stored sideways, shown upright by the EXIF orientation
            photo = photo.transpose(Image.Transpose.ROTATE_90)
            exif[0x0112] = 6
        if heic:
            fast = {"preset": "ultrafast"}
            photo.save(folder / f"photo-{i:02d}.heic", quality=90, exif=exif.tobytes(), enc_params=fast)
        else:
            photo.save(folder / f"photo-{i:02d}.jpg", quality=90, exif=exif)


def write_theme(work: Path, remove_background: bool, name: str = "theme.yaml", look_alike_key: bool = True) -> Path:
    """The deck's theme in ``work`` (file ``name``); without ``look_alike_key``, as the code
    before the look-alike check reads it (it knows no ``allow_look_alike``)."""
    extra = "\n    remove_background: true" if remove_background else ""
    # allow_look_alike: crops of one source picture (every fifth photo) can show the same
    # subject at the same size: true look-alikes, refused otherwise; timed all the same
    allow = "  allow_look_alike: true\n" if look_alike_key else ""
    theme = work / name
    theme.write_text(
        f"name: phones\ntitle: Phone photos\nseed: 1\ndeck:\n  symbols_per_card: 8\n{allow}"
        f"symbols:\n  - photo: photos{extra}\n",
        encoding="utf-8",
    )
    return theme


def build(theme: Path, out: Path) -> tuple[float, float]:
    """Build in a child process; (wall seconds, peak resident MB of the child)."""
    env = {**os.environ, "PRINTDECK_NO_CACHE": "1"}
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "printdeck", "build", str(theme), "-o", str(out), "--quiet"], check=True, env=env
    )
    wall = time.perf_counter() - start
    peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024.0
    return wall, peak_mb


def placed_ppi(pdf: Path) -> list[float]:
    """The lower of x and y ppi of every image placement (``pdfimages -list``)."""
    if not shutil.which("pdfimages"):
        return []
    rows = subprocess.run(["pdfimages", "-list", str(pdf)], capture_output=True, text=True, check=True).stdout
    out = []
    for line in rows.splitlines()[2:]:
        cols = line.split()
        if len(cols) >= 14 and cols[2] == "image":
            out.append(min(float(cols[12]), float(cols[13])))
    return out


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    heic = "--heic" in sys.argv
    work = Path(args[0] if args else "/tmp/printdeck-bench-" + ("heic" if heic else "photos"))
    make_photos(work / "photos", heic)
    source_mb = sum(p.stat().st_size for p in (work / "photos").iterdir()) / 1e6
    theme = write_theme(work, "--remove-background" in sys.argv)
    out = work / "phones.pdf"
    wall, peak = build(theme, out)
    ppi = placed_ppi(out)
    print(
        f"57 phone photos ({source_mb:.0f} MB of JPEG/HEIC) -> {out.stat().st_size / 1e6:.1f} MB PDF "
        f"in {wall:.1f} s, peak {peak:.0f} MB (targets: <= 40 MB, <= 25 s, <= 1024 MB)"
    )
    if ppi:
        print(
            f"placed pictures: {len(ppi)}, effective ppi min {min(ppi):.0f}, median {np.median(ppi):.0f}, "
            f"max {max(ppi):.0f} (target: >= 300 where the source allows)"
        )


if __name__ == "__main__":
    main()
