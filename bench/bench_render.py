"""Benchmark the render stage on a default-sized deck (55 cards x 8 Twemoji symbols).

Cards come from the order-7 projective plane (affine plane over Z/7 plus the line
at infinity) with a fixed ring layout, so the figures measure rendering only.
Usage: python bench/bench_render.py [OUT_DIR]   (default /tmp/printdeck-bench)
Writes deck PDFs, 300-dpi PNGs, a calibration sheet and 50-dpi page previews.
"""

from __future__ import annotations

import math
import sys
import time
from pathlib import Path

from printdeck.model import CardLayout, Placement
from printdeck.pipeline import BuildOptions, apply_options
from printdeck.render import PrintJob, impose, paper_size_mm, render_pdf, render_pngs, write_calibration
from printdeck.theme import Theme, load_theme

Q = 7


def plane_lines(q: int) -> list[list[int]]:
    """Lines of PG(2, q) for prime q: points (x, y) -> x*q + y, slope m -> q*q + m, vertical -> q*q + q."""
    lines = [[x * q + (m * x + b) % q for x in range(q)] + [q * q + m] for m in range(q) for b in range(q)]
    lines += [[c * q + y for y in range(q)] + [q * q + q] for c in range(q)]
    lines.append([q * q + m for m in range(q + 1)])
    return lines


def ring_layouts(lines: list[list[int]], symbol_ids: list[int]) -> list[CardLayout]:
    """One symbol in the middle, the rest on a 25 mm ring, varied angles (inside the safe zone)."""
    cards = []
    for i, line in enumerate(lines):
        placements = []
        for j, point in enumerate(line):
            if j == 0:
                center, size = (0.0, 0.0), 24.0
            else:
                a = 2 * math.pi * j / (len(line) - 1) + 0.3 * i
                center, size = (25.0 * math.cos(a), 25.0 * math.sin(a)), 17.0
            placements.append(Placement(symbol_ids[point], center, (41.0 * i + 67.0 * j) % 360, (size, size)))
        cards.append(CardLayout(i, tuple(placements), 0.4, 1.0, 0.7))
    return cards


def print_job(theme: Theme, backs: bool = False, legend: bool = False, rules: bool = False) -> PrintJob:
    """The theme's print job with backs, legend and rules turned on or off."""
    return PrintJob.from_theme(apply_options(theme, BuildOptions(backs=backs, legend=legend, rules=rules)))


def timed(label: str, fn):
    """Run ``fn`` and print its wall time."""
    t0 = time.perf_counter()
    value = fn()
    print(f"{label:<44} {time.perf_counter() - t0:7.2f} s")
    return value


def main(out_dir: Path) -> None:
    """Print timings and file sizes for the render stage."""
    out_dir.mkdir(parents=True, exist_ok=True)
    theme = timed("load default theme", lambda: load_theme(None))
    symbols = list(theme.symbols)
    ids = list(range(0, len(symbols), max(1, len(symbols) // 57)))[:57]
    layouts = ring_layouts(plane_lines(Q)[:55], ids)
    card = theme.spec.card
    for paper in ("a4", "letter", "a3"):
        imp = timed(
            f"impose 55 cards on {paper}",
            lambda p=paper: impose(paper_size_mm(p), card.diameter_mm, card.bleed_mm, 5.0, 4.0, 55),
        )
        print(f"  {paper}: {imp.per_page} a sheet ({imp.packing}), {imp.pages} sheets")
    imp = impose(paper_size_mm("a4"), card.diameter_mm, card.bleed_mm, 5.0, 4.0, 55)
    runs = {
        "fronts": print_job(theme),
        "fronts+backs": print_job(theme, backs=True),
        "all (backs, legend, rules)": print_job(theme, backs=True, legend=True, rules=True),
    }
    for name, job in runs.items():
        pdf = out_dir / f"deck-{name.split()[0].replace('+', '-')}.pdf"
        pages = timed(f"render_pdf {name}", lambda j=job, p=pdf: render_pdf(j, symbols, layouts, imp, p))
        print(f"  {pages} pages, {pdf.stat().st_size / 1e6:.3f} MB -> {pdf}")
    single = impose(paper_size_mm("a4"), card.diameter_mm, card.bleed_mm, 5.0, 4.0, 55, single=True)
    pdf = out_dir / "deck-single.pdf"
    timed(
        "render_pdf single (55 trim+bleed pages)", lambda: render_pdf(print_job(theme), symbols, layouts, single, pdf)
    )
    print(f"  {pdf.stat().st_size / 1e6:.3f} MB")
    pngs = timed(
        "render_pngs 55 cards at 300 dpi", lambda: render_pngs(print_job(theme), symbols, layouts, out_dir / "png")
    )
    print(f"  {sum(p.stat().st_size for p in pngs) / 1e6:.1f} MB in {len(pngs)} files")
    timed("calibration sheet", lambda: write_calibration(out_dir / "calibrate.pdf"))
    _previews(out_dir)
    timed("vector fidelity (svglib PDF vs resvg)", lambda: fidelity(symbols, out_dir / "fidelity.pdf"))


def fidelity(symbols: list, pdf: Path, dpi: int = 254, box_mm: float = 20.0) -> None:
    """Compare each SVG as drawn in the PDF (svglib forms, rasterised by pdfium) with
    resvg's rendering (what the layout traces): intersection over union of the ink."""
    import io

    import numpy as np
    import pypdfium2 as pdfium
    import resvg_py
    from PIL import Image

    from printdeck.model import Placement
    from printdeck.render.canvas import new_canvas
    from printdeck.render.forms import ArtLibrary
    from printdeck.units import MM_PER_UNIT, mm_to_pt

    svgs = [s for s in symbols if s.kind == "svg"]
    cell, cols = box_mm + 5.0, 8  # dpi 254 = 10 px/mm: cells fall on whole pixels
    rows = -(-len(svgs) // cols)
    canvas = new_canvas(pdf, (cell * cols, cell * rows), title="symbol fidelity", author="printdeck", subject="bench")
    art = ArtLibrary(canvas, svgs)
    aspects = []
    for k, s in enumerate(svgs):
        a = art.art(s.id)
        aspects.append(a.height_pt / a.width_pt)
        r, c = divmod(k, cols)
        centre = (mm_to_pt(cell * (c + 0.5)), mm_to_pt(cell * (rows - r - 0.5)))
        art.place(Placement(s.id, (0.0, 0.0), 0.0, (box_mm, box_mm * aspects[-1])), centre)
    canvas.showPage()
    canvas.save()
    doc = pdfium.PdfDocument(str(pdf))
    page = np.asarray(doc[0].render(scale=dpi / 72).to_pil().convert("RGB")).astype(int)
    doc.close()
    px = dpi / MM_PER_UNIT["in"]
    ious = []
    for k, s in enumerate(svgs):
        w, h = round(box_mm * px), round(box_mm * aspects[k] * px)
        r, c = divmod(k, cols)
        x0 = round((c * cell + 2.5) * px)
        y0 = round((r * cell + (cell - box_mm * aspects[k]) / 2) * px)
        ink_pdf = (255 - page[y0 : y0 + h, x0 : x0 + w]).max(axis=2) > 40
        im = Image.open(io.BytesIO(bytes(resvg_py.svg_to_bytes(svg_path=str(s.path), width=w)))).convert("RGBA")
        flat = Image.new("RGB", im.size, "white")
        flat.paste(im, mask=im.getchannel("A"))
        ink_svg = (255 - np.asarray(flat.resize((w, h))).astype(int)).max(axis=2) > 40
        ious.append(((ink_pdf & ink_svg).sum() / max(1, (ink_pdf | ink_svg).sum()), s.name))
    ious.sort()
    print(
        f"  {len(ious)} SVGs at {dpi} dpi: mean ink IoU {np.mean([v for v, _ in ious]):.3f}, "
        f"worst " + ", ".join(f"{n} {v:.3f}" for v, n in ious[:3])
    )


def _previews(out_dir: Path) -> None:
    """50-dpi PNG previews of one page of each kind (for the README), if pypdfium2 is present."""
    try:
        import pypdfium2 as pdfium
    except ImportError:
        return
    shots = {
        "sheet-front": ("deck-all.pdf", 0),
        "sheet-back": ("deck-all.pdf", 1),
        "legend": ("deck-all.pdf", 20),
        "rules": ("deck-all.pdf", -1),
        "single": ("deck-single.pdf", 0),
        "calibrate-front": ("calibrate.pdf", 0),
        "calibrate-back": ("calibrate.pdf", 1),
    }
    for name, (pdf, index) in shots.items():
        doc = pdfium.PdfDocument(str(out_dir / pdf))
        doc[index % len(doc)].render(scale=50 / 72).to_pil().save(out_dir / f"preview-{name}.png")
        doc.close()
    print(f"previews in {out_dir}")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path("/tmp/printdeck-bench"))
