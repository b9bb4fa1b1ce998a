"""Raster, photo and text symbols in the PDF and the PNGs; resolution limits; SVG safety."""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from pypdf import PdfReader
from test_render_support import PageImage, close, fano_layouts, symbols_of, tiny_theme

from printdeck.errors import PrintdeckError
from printdeck.model import CardLayout, Placement, SymbolSpec
from printdeck.render.artwork import (
    ResolutionWarning,
    check_raster_resolution,
    load_svg_drawing,
)
from printdeck.render.imposition import impose, paper_size_mm
from printdeck.render.pdf import RenderOptions, render_pdf
from printdeck.render.png import render_pngs
from printdeck.theme.model import Theme


def _mixed_theme(tmp: Path, px: int = 400) -> Theme:
    """Red square PNG, blue JPEG photo (rounded), a green word, plus four SVGs."""
    Image.new("RGB", (px, px), "#e00000").save(tmp / "red.png")
    Image.new("RGB", (px, px), "#0000e0").save(tmp / "blue.jpg", quality=95)
    symbols = [{"image": "red.png", "name": "red"}, {"photo": "blue.jpg", "shape": "rounded", "name": "blue"},
               {"text": "Hi", "color": "#00a000"},
               "@assets/twemoji/bee.svg", "@assets/twemoji/bell.svg", "@assets/twemoji/bicycle.svg",
               "@assets/twemoji/broom.svg"]
    return tiny_theme(tmp, symbols=symbols)


def _one_card(box_mm: float = 20.0) -> list[CardLayout]:
    placements = (Placement(0, (-20.0, 0.0), 0.0, (box_mm, box_mm)),
                  Placement(1, (20.0, 0.0), 0.0, (box_mm, box_mm)),
                  Placement(2, (0.0, 20.0), 0.0, (box_mm, box_mm * 0.5)))
    return [CardLayout(0, placements, 0.3, 2.0, 1.0)]


def test_raster_photo_and_text_symbols_draw_in_pdf_and_png(tmp_path: Path) -> None:
    theme = _mixed_theme(tmp_path)
    layouts = _one_card()
    imp = impose(paper_size_mm("a4"), 85.0, 3.0, 5.0, 4.0, 1)
    out = tmp_path / "mixed.pdf"
    with warnings.catch_warnings():
        warnings.simplefilter("error", ResolutionWarning)  # 400 px over 20 mm = 508 dpi: no warning
        render_pdf(theme, symbols_of(theme), layouts, imp, out, RenderOptions())
    cx, cy = imp.slots[0].center_mm
    img = PageImage(out, 0, dpi=100)
    assert close(img.at(cx - 20.0, cy), "#e00000", tol=30)
    assert close(img.at(cx + 20.0, cy), "#0000e0", tol=30)
    assert close(img.at(cx + 29.8, cy + 9.8), "#ffd000", tol=30)  # rounded corner cut off the photo
    pngs = render_pngs(theme, symbols_of(theme), layouts, tmp_path / "png", dpi=100)
    card = Image.open(pngs[0]).convert("RGB")
    mid = card.width / 2.0
    px = 100 / 25.4
    assert close(card.getpixel((round(mid - 20 * px), round(mid))), "#e00000", tol=30)
    assert close(card.getpixel((round(mid + 20 * px), round(mid))), "#0000e0", tol=30)
    assert card.getpixel((round(mid), round(mid - 20 * px)))[1] > card.getpixel((round(mid), round(mid - 20 * px)))[0]
    word = np.asarray(card.crop((round(mid - 10 * px), round(mid - 25 * px), round(mid + 10 * px), round(mid - 15 * px))))
    assert ((word[..., 1] > 120) & (word[..., 0] < 80)).sum() > 20  # the green word
    fonts = [f.get_object() for page in PdfReader(out).pages for f in page["/Resources"]["/Font"].values()]
    assert all("/FontFile2" in f["/DescendantFonts"][0].get_object()["/FontDescriptor"] if "/DescendantFonts" in f
               else "/FontFile2" in f["/FontDescriptor"] for f in fonts)


def test_low_resolution_warns_then_refuses(tmp_path: Path) -> None:
    theme = _mixed_theme(tmp_path, px=100)
    symbols = symbols_of(theme)
    with pytest.warns(ResolutionWarning, match="dpi"):
        dpi = check_raster_resolution(symbols, _one_card(box_mm=10.0))  # 100 px over 10 mm = 254 dpi
    assert round(dpi[0]) == 254
    with pytest.raises(PrintdeckError, match="red.png.*dpi"):
        check_raster_resolution(symbols, _one_card(box_mm=20.0))  # 127 dpi


def test_png_size_dpi_and_extra_margin(tmp_path: Path) -> None:
    theme = tiny_theme(tmp_path)
    paths = render_pngs(theme, symbols_of(theme), fano_layouts(2), tmp_path / "out", dpi=150, extra_margin_mm=2.0)
    assert [p.name for p in paths] == ["card-001.png", "card-002.png"]
    with Image.open(paths[0]) as im:
        assert im.size == (round((85 + 6 + 4) * 150 / 25.4),) * 2
        assert round(im.info["dpi"][0]) == 150
        assert close(im.convert("RGB").getpixel((im.width // 2, 3)), "#ffd000")  # background reaches the edge
        assert close(im.convert("RGB").getpixel((2, 2)), "#ffffff")
    again = render_pngs(theme, symbols_of(theme), fano_layouts(2), tmp_path / "again", dpi=150, extra_margin_mm=2.0)
    assert again[1].read_bytes() == paths[1].read_bytes()


def test_svg_with_entities_is_refused(tmp_path: Path) -> None:
    evil = tmp_path / "evil.svg"
    evil.write_text('<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
                    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><text>&x;</text></svg>')
    with pytest.raises(PrintdeckError, match="evil.svg"):
        load_svg_drawing(evil)


def test_missing_artwork_names_the_symbol(tmp_path: Path) -> None:
    theme = tiny_theme(tmp_path)
    symbols = symbols_of(theme)
    symbols[0] = SymbolSpec(id=0, name="ghost", kind="svg", source="assets/ghost.svg", path=tmp_path / "ghost.svg")
    imp = impose(paper_size_mm("a4"), 85.0, 3.0, 5.0, 4.0, 7)
    out = tmp_path / "x.pdf"
    with pytest.raises(PrintdeckError, match="ghost"):
        render_pdf(theme, symbols, fano_layouts(7), imp, out, RenderOptions())
    assert not out.exists()  # nothing half-written
