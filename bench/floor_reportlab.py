"""The ReportLab floor: a build's placements written with plain ReportLab + svglib.

Reads a printdeck manifest (the JSON beside a built PDF) and draws the same symbols at
the same places, sizes and angles, each artwork once as a form (SVGs with svglib,
pictures with ``drawImage`` of the file), with no checks, proofs, layout, crops or
extras. Run in a fresh process, its time is the least any tool built on these
libraries could take to write that deck: ``bench/bench_stages.py`` reports printdeck's
builds as ratios of it.

Usage: python bench/floor_reportlab.py MANIFEST.json OUT.pdf [ASSETS_BASE]
(sources are resolved against ASSETS_BASE, default: the repository and the manifest's folder)
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from reportlab.graphics import renderPDF
from reportlab.pdfgen.canvas import Canvas
from svglib.svglib import svg2rlg

PT_PER_MM = 72.0 / 25.4
REPO = Path(__file__).resolve().parent.parent


def _source(source: str, bases: list[Path]) -> Path:
    for base in bases:
        if (base / source).is_file():
            return base / source
    raise SystemExit(f"floor: cannot find {source}")


def _form(canvas: Canvas, name: str, path: Path) -> tuple[float, float]:
    """Draw the artwork once into a form; its natural size in points."""
    if path.suffix.lower() == ".svg":
        drawing = svg2rlg(str(path))
        w, h = float(drawing.width), float(drawing.height)
        canvas.beginForm(name, 0, 0, w, h)
        renderPDF.draw(drawing, canvas, 0, 0)
    else:
        w = h = 100.0
        canvas.beginForm(name, 0, 0, w, h)
        canvas.drawImage(str(path), 0, 0, w, h, preserveAspectRatio=True, anchor="c")
    canvas.endForm()
    return w, h


def main(manifest_path: Path, out: Path, bases: list[Path]) -> None:
    try:  # phone photos may be HEIC, which Pillow reads with this plug-in
        import pillow_heif

        pillow_heif.register_heif_opener()
    except ImportError:
        pass
    manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    sources = {s["id"]: _source(s["source"], bases) for s in manifest["symbols"]}
    width_mm, height_mm = manifest["paper"]["size_mm"]
    canvas = Canvas(str(out), pagesize=(width_mm * PT_PER_MM, height_mm * PT_PER_MM), invariant=1)
    radius_pt = manifest["card"]["diameter_mm"] / 2 * PT_PER_MM
    forms: dict[int, tuple[float, float]] = {}
    pages: dict[int, list[dict]] = {}
    for card in manifest["cards"]:
        pages.setdefault(card["page"], []).append(card)
    for page in sorted(pages):
        for card in pages[page]:
            cx, cy = (v * PT_PER_MM for v in card["center_mm"])
            canvas.circle(cx, cy, radius_pt)
            for s in card["symbols"]:
                if s["id"] not in forms:
                    forms[s["id"]] = _form(canvas, f"s{s['id']}", sources[s["id"]])
                w, h = forms[s["id"]]
                canvas.saveState()
                canvas.translate(cx + s["center_mm"][0] * PT_PER_MM, cy + s["center_mm"][1] * PT_PER_MM)
                canvas.rotate(s["rotation_deg"])
                canvas.scale(s["box_mm"][0] * PT_PER_MM / w, s["box_mm"][1] * PT_PER_MM / h)
                canvas.translate(-w / 2, -h / 2)
                canvas.doForm(f"s{s['id']}")
                canvas.restoreState()
        canvas.showPage()
    canvas.save()


if __name__ == "__main__":
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    extra = [Path(sys.argv[3])] if len(sys.argv) > 3 else []
    main(Path(sys.argv[1]), Path(sys.argv[2]), [*extra, REPO, Path(sys.argv[1]).resolve().parent])
