"""What the PDF prints of each symbol stays inside the silhouette the layout packed.

The layout traces SVGs with resvg, words and pictures with Pillow; the PDF draws
them with svglib (vectors), ReportLab's text and clip paths. Were the PDF to draw
ink where the layout saw none (a masked crescent printed as a full disc; a word
whose letters sit a few per cent off), printed symbols could overlap although the
layout kept them apart. Each bundled SVG, awkward-fixture SVG, word, photo crop and
transparent image is drawn through the renderer's own forms, rasterised with
pdfium, and compared with the layout's raster.
"""

from __future__ import annotations

import io
import warnings

import numpy as np
import pypdfium2 as pdfium
import pytest
from PIL import Image, ImageDraw, ImageFilter
from reportlab.pdfgen.canvas import Canvas
from test_layout_support import AWKWARD

from printdeck.artwork import rasterise
from printdeck.model import Placement
from printdeck.render.forms import ArtLibrary
from printdeck.theme import load_theme

PX = 160  # raster side, pixels
SLACK_PX = 2  # anti-aliasing: PDF ink may lie this close to the layout's ink
STRAY_SHARE = 0.002  # ... and a word's hinted pixels this share of its ink beyond that


def _not_white(rgb: np.ndarray) -> np.ndarray:
    return (255 - rgb.astype(int)).max(axis=2) > 40


def _grown(mask: np.ndarray) -> np.ndarray:
    """``mask`` grown by :data:`SLACK_PX` pixels."""
    return np.asarray(Image.fromarray(mask.astype(np.uint8) * 255).filter(ImageFilter.MaxFilter(2 * SLACK_PX + 1))) > 0


def _printed_ink(symbols: list) -> list[np.ndarray]:
    """``(PX, PX) bool`` ink masks of the symbols' PDF forms, each stretched over one page."""
    buf = io.BytesIO()
    side_pt = PX * 72.0 / 96.0
    canvas = Canvas(buf, pagesize=(side_pt, side_pt), invariant=1)
    library = ArtLibrary(canvas, symbols)
    side_mm = side_pt * 25.4 / 72.0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the SVG-as-image notice
        for sym in symbols:  # each stretched over its page, as a card places it
            library.place(Placement(sym.id, (0.0, 0.0), 0.0, (side_mm, side_mm)), (side_pt / 2.0, side_pt / 2.0))
            canvas.showPage()
        canvas.save()
    doc = pdfium.PdfDocument(buf.getvalue())
    masks = []
    for k in range(len(symbols)):
        masks.append(_not_white(np.asarray(doc[k].render(scale=96.0 / 72.0).to_pil().convert("RGB").resize((PX, PX)))))
    doc.close()
    return masks


def _assert_printed_as_laid_out(symbols: list) -> None:
    """No PDF ink outside the layout's (grown) ink; no visible layout ink missing from the PDF."""
    outside, missing = {}, {}
    for sym, printed in zip(symbols, _printed_ink(symbols)):
        art = rasterise(sym, PX, PX)
        traced = np.asarray(art)[..., 3] > 8  # the layout's ink
        on_white = Image.alpha_composite(Image.new("RGBA", art.size, "white"), art).convert("RGB")
        visible = _not_white(np.asarray(on_white))  # the layout's ink that is not white
        if (stray := int((printed & ~_grown(traced)).sum())) > STRAY_SHARE * visible.sum():
            outside[sym.name] = stray
        if (lost := int((visible & ~_grown(printed)).sum())) > 0.01 * visible.sum():
            missing[sym.name] = lost
    assert not outside, f"PDF ink outside the layout's silhouette (pixels): {outside}"
    assert not missing, f"ink the layout draws that the PDF leaves out (pixels): {missing}"


@pytest.mark.parametrize(
    "theme_ref, kind",
    [(None, "svg"), (str(AWKWARD), "svg"), ("words", "text"), (str(AWKWARD), "text")],
    ids=["bundled", "awkward", "words", "wide-words"],
)
def test_printed_ink_stays_inside_the_layout_silhouette(theme_ref: str | None, kind: str) -> None:
    symbols = [s for s in load_theme(theme_ref).symbols if s.kind == kind]
    assert len(symbols) >= (3 if theme_ref == str(AWKWARD) and kind == "text" else 50)
    _assert_printed_as_laid_out(symbols)


def test_printed_photos_and_transparent_images_match_the_layout(tmp_path) -> None:
    """Circle and rounded photo crops (landscape and portrait) and PNGs with alpha."""
    pictures = {
        "wide.jpg": ((640, 480), "#3060c0"),
        "tall.jpg": ((400, 600), "#20a040"),
        "wide2.jpg": ((600, 300), "#c08020"),
        "tall2.jpg": ((300, 700), "#a0a020"),
    }
    for name, (size, colour) in pictures.items():
        im = Image.new("RGB", size, colour)
        ImageDraw.Draw(im).rectangle((0, 0, size[0] // 3, size[1]), fill="#c03020")  # not one flat colour
        im.save(tmp_path / name, quality=95)
    subject = Image.new("RGB", (640, 480), (236, 236, 230))  # a plain wall behind a subject
    ImageDraw.Draw(subject).ellipse((220, 120, 420, 380), fill="#803020")
    ImageDraw.Draw(subject).rectangle((300, 60, 340, 140), fill="#204080")
    subject.save(tmp_path / "subject.jpg", quality=95)
    for name, box in (("tri.png", (500, 500)), ("oval.png", (500, 300))):
        im = Image.new("RGBA", box, (0, 0, 0, 0))
        ImageDraw.Draw(im).polygon([(box[0] // 2, 10), (box[0] - 10, box[1] - 10), (10, box[1] - 10)], fill="#8030a0")
        im.save(tmp_path / name)
    (tmp_path / "theme.yaml").write_text(
        "name: pictures\nsymbols:\n  - photo: wide.jpg\n  - {photo: tall.jpg, shape: rounded}\n"
        "  - {photo: wide2.jpg, shape: rounded}\n  - {photo: subject.jpg, remove_background: true}\n"
        "  - photo: tall2.jpg\n  - image: tri.png\n  - image: oval.png\n"
        "  - text: hello\n"
    )
    symbols = [s for s in load_theme(str(tmp_path / "theme.yaml")).symbols if s.kind in ("photo", "raster")]
    assert len(symbols) == 7
    _assert_printed_as_laid_out(symbols)
