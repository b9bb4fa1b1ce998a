"""Regenerate the README's pictures: python docs/make_images.py (needs the test extras).

Builds the default deck, the multilingual deck and a deck with backs, legend and rules into
a temporary folder, rasterises pages with pypdfium2 and writes small PNGs to docs/images/,
with layout previews of the default theme, of the tests' awkward artwork and of their
outline icons.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pypdfium2 as pdfium
from PIL import Image

from printdeck import write_preview
from printdeck.pipeline import BuildOptions, build

OUT = Path(__file__).resolve().parent / "images"


def page_image(pdf: Path, index: int, dpi: float) -> Image.Image:
    """Page ``index`` (0-based) of ``pdf`` as an RGB image at ``dpi``."""
    doc = pdfium.PdfDocument(str(pdf))
    return doc[index].render(scale=dpi / 72).to_pil().convert("RGB")


def montage(images: list[Image.Image], height_px: int, gap_px: int = 12) -> Image.Image:
    """Images scaled to one height, side by side on light grey."""
    scaled = [im.resize((round(im.width * height_px / im.height), height_px), Image.LANCZOS) for im in images]
    sheet = Image.new(
        "RGB", (sum(i.width for i in scaled) + gap_px * (len(scaled) + 1), height_px + 2 * gap_px), "#d9d9d9"
    )
    x = gap_px
    for im in scaled:
        sheet.paste(im, (x, gap_px))
        x += im.width + gap_px
    return sheet


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        default = build(None, Path(tmp) / "default.pdf").pdf_path
        page_image(default, 0, 60).save(OUT / "default-sheet.png", optimize=True)
        languages = build("languages", Path(tmp) / "languages.pdf").pdf_path
        page_image(languages, 0, 60).save(OUT / "languages-sheet.png", optimize=True)
        extras = build("junior", Path(tmp) / "junior.pdf", BuildOptions(backs=True, legend=True, rules=True)).pdf_path
        n = len(pdfium.PdfDocument(str(extras)))
        single = build("junior", Path(tmp) / "single.pdf", BuildOptions(single=True)).pdf_path
        pages = [
            page_image(extras, 0, 40),
            page_image(extras, 1, 40),
            page_image(extras, n - 2, 40),
            page_image(extras, n - 1, 40),
            page_image(single, 0, 80),
        ]
        montage(pages, 420).save(OUT / "extras.png", optimize=True)
    write_preview(None, OUT / "preview.png", cards=8, px_per_mm=1.6)
    awkward = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "awkward" / "theme.yaml"
    write_preview(awkward, OUT / "preview-awkward.png", cards=8, px_per_mm=1.6)
    icons = awkward.parent.parent / "icons" / "theme.yaml"
    write_preview(icons, OUT / "preview-icons.png", cards=8, px_per_mm=1.6)


if __name__ == "__main__":
    main()
