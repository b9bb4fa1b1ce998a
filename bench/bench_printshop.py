"""Print-shop files (issue 23): each preset and the CMYK PDF/X builds against the RGB build.

Builds the default deck as the RGB sheet PDF (the reference), as CMYK PDF/X-4 sheets with a
die line, and with every preset of ``printdeck presets``; then a photo deck (12 photos from
scikit-image (scaled up three times) and one PNG with real transparency, 13 cards of 4) as RGB, PDF/X-4 and
PDF/X-1a. One run each, in this process, after one warm-up build (the layouts come from
the cache, so the times compare the rendering and the files). Every CMYK file then goes
through Ghostscript's PDF/X conversion (``gs -dPDFX``), the best preflight here (veraPDF is
not available): the exit status and the images a page holds before and after (the same
count: nothing was flattened into one picture).

Usage: python bench/bench_printshop.py [WORK_DIR]
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pikepdf
import yaml
from PIL import Image

import printdeck


def _photo_theme(folder: Path) -> Path:
    """12 photos and one PNG with a soft-edged transparent border, as a theme file."""
    from skimage import data

    folder.mkdir(parents=True, exist_ok=True)
    sources = [data.astronaut(), data.coffee(), data.chelsea(), data.rocket()]
    symbols = []
    for i in range(12):
        picture = np.roll(sources[i % 4], i * 37, axis=1)
        big = Image.fromarray(picture).resize((picture.shape[1] * 3, picture.shape[0] * 3), Image.Resampling.LANCZOS)
        big.save(folder / f"photo-{i:02d}.jpg", quality=92)  # scaled up: 300 dpi on the largest crops
        symbols.append({"photo": f"photo-{i:02d}.jpg", "name": f"photo {i + 1}"})
    yy, xx = np.mgrid[:600, :600]
    alpha = np.clip((280.0 - np.hypot(xx - 300, yy - 300)) * 6, 0, 255).astype(np.uint8)
    star = np.dstack([np.full_like(alpha, 230), np.full_like(alpha, 120), np.full_like(alpha, 20), alpha])
    Image.fromarray(star, "RGBA").save(folder / "sun.png")
    symbols.append({"image": "sun.png", "name": "sun"})
    theme = {"name": "photos", "title": "Photo deck", "deck": {"symbols_per_card": 4}, "symbols": symbols}
    path = folder / "theme.yaml"
    path.write_text(yaml.safe_dump(theme), encoding="utf-8")
    return path


def _size(result: printdeck.BuildResult) -> int:
    files = [
        result.pdf_path,
        *(p for p in [result.extras_path, result.credits_path] if p),
        *result.back_paths,
        *result.png_paths,
    ]
    return sum(p.stat().st_size for p in files)


def _gs_check(pdf: Path) -> str:
    """Ghostscript's PDF/X conversion of ``pdf``: ok / failed, and its largest image before and after."""
    gs = shutil.which("gs")
    if gs is None:
        return "gs not installed"
    out = pdf.with_name(pdf.stem + "-gs.pdf")
    run = subprocess.run(
        [gs, "-q", "-dBATCH", "-dNOPAUSE", "-dSAFER", "-dPDFX", "-sDEVICE=pdfwrite",
         "-sColorConversionStrategy=CMYK", "-sProcessColorModel=DeviceCMYK", f"-sOutputFile={out}", str(pdf)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    if run.returncode != 0:
        return f"FAILED ({run.returncode})"
    before, after = _largest_image(pdf), _largest_image(out)
    return f"ok; largest image {before} -> {after} px"


def _largest_image(pdf: Path) -> int:
    """The most pixels any image of the file has (a page flattened by the conversion
    would be one huge image)."""
    with pikepdf.open(pdf) as doc:
        images = [o for o in doc.objects if isinstance(o, pikepdf.Stream) and o.get("/Subtype") == "/Image"]
        return max((int(o.Width) * int(o.Height) for o in images), default=0)


def main() -> None:
    work = Path(sys.argv[1] if len(sys.argv) > 1 else "output/bench-printshop")
    work.mkdir(parents=True, exist_ok=True)
    runs: list[tuple[str, dict[str, object]]] = [("RGB sheets (reference)", {}), ("CMYK PDF/X-4 + die line", {})]
    runs[1][1].update(color="cmyk", die_line=True)
    runs += [(f"--preset {name}", {"preset": name}) for name in printdeck.presets()]
    printdeck.build(None, out=work / "warm.pdf")  # layouts into the cache
    rows = []
    for label, options in runs:
        out = work / (label.split()[-1].replace("(", "").replace(")", "") + ".pdf")
        start = time.perf_counter()
        result = printdeck.build(None, out=out, backs=True, **options)  # type: ignore[arg-type]
        rows.append((f"default deck, {label}", time.perf_counter() - start, _size(result), result))
    theme = _photo_theme(work / "photos")
    printdeck.build(theme, out=work / "photos-warm.pdf")
    for label, options in [
        ("RGB", {}),
        ("CMYK PDF/X-4", {"color": "cmyk"}),
        ("CMYK PDF/X-1a", {"color": "cmyk", "pdfx": "x-1a"}),
    ]:
        out = work / f"photos-{label.split()[-1].lower().replace('/', '')}.pdf"
        start = time.perf_counter()
        result = printdeck.build(theme, out=out, **options)  # type: ignore[arg-type]
        rows.append((f"photo deck, {label}", time.perf_counter() - start, _size(result), result))
    base_time, base_size = rows[0][1], rows[0][2]
    photo_time, photo_size = rows[len(runs)][1], rows[len(runs)][2]
    print("| build | time s | × RGB | size MB | × RGB | Ghostscript -dPDFX |")
    print("|---|---|---|---|---|---|")
    for i, (label, seconds, size, result) in enumerate(rows):
        t0, s0 = (base_time, base_size) if i < len(runs) else (photo_time, photo_size)
        with pikepdf.open(result.pdf_path) as pdf:
            cmyk = "/OutputIntents" in pdf.Root
        check = _gs_check(result.pdf_path) if cmyk else "-"
        print(f"| {label} | {seconds:.2f} | {seconds / t0:.2f} | {size / 1e6:.2f} | {size / s0:.2f} | {check} |")


if __name__ == "__main__":
    main()
