"""Raster, photo and text symbols in the PDF and the PNGs; resolution limits; SVG safety."""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from pypdf import PdfReader
from test_render_support import (
    ART,
    BACKGROUND,
    PageImage,
    close,
    fano_layouts,
    print_job,
    symbols_of,
    tiny_theme,
)

from printdeck.errors import PrintdeckError
from printdeck.model import CardLayout, Placement, SymbolSpec
from printdeck.render import impose, paper_size_mm, render_pdf, render_pngs
from printdeck.render.forms import ResolutionWarning, SvgImageWarning, check_raster_resolution
from printdeck.render.svg_features import svg_undrawn_feature
from printdeck.render.svg_forms import load_svg_drawing
from printdeck.theme import Theme


def _mixed_theme(tmp: Path, px: int = 400) -> Theme:
    """Red square PNG, blue JPEG photo (rounded), a green word, plus four SVGs."""
    Image.new("RGB", (px, px), "#e00000").save(tmp / "red.png")
    Image.new("RGB", (px, px), "#0000e0").save(tmp / "blue.jpg", quality=95)
    symbols = [
        {"image": "red.png", "name": "red"},
        {"photo": "blue.jpg", "shape": "rounded", "name": "blue"},
        {"text": "Hi", "color": "#00a000"},
        "@assets/twemoji/bee.svg",
        "@assets/twemoji/bell.svg",
        "@assets/twemoji/bicycle.svg",
        "@assets/twemoji/broom.svg",
    ]
    return tiny_theme(tmp, symbols=symbols)


def _one_card(box_mm: float = 20.0) -> list[CardLayout]:
    placements = (
        Placement(0, (-20.0, 0.0), 0.0, (box_mm, box_mm)),
        Placement(1, (20.0, 0.0), 0.0, (box_mm, box_mm)),
        Placement(2, (0.0, 20.0), 0.0, (box_mm, box_mm * 0.5)),
    )
    return [CardLayout(0, placements, 0.3, 2.0, 1.0)]


def test_raster_photo_and_text_symbols_draw_in_pdf_and_png(tmp_path: Path) -> None:
    theme = _mixed_theme(tmp_path)
    layouts = _one_card()
    imp = impose(paper_size_mm("a4"), 85.0, 3.0, 5.0, 4.0, 1)
    out = tmp_path / "mixed.pdf"
    with warnings.catch_warnings():
        warnings.simplefilter("error", ResolutionWarning)  # 400 px over 20 mm = 508 dpi: no warning
        warnings.simplefilter("error", SvgImageWarning)  # plain SVGs stay vectors
        render_pdf(print_job(theme), symbols_of(theme), layouts, imp, out)
    cx, cy = imp.slots[0].center_mm
    img = PageImage(out, 0, dpi=100)
    assert close(img.at(cx - 20.0, cy), "#e00000", tol=30)
    assert close(img.at(cx + 20.0, cy), "#0000e0", tol=30)
    assert close(img.at(cx + 29.8, cy + 9.8), "#ffd000", tol=30)  # rounded corner cut off the photo
    pngs = render_pngs(print_job(theme), symbols_of(theme), layouts, tmp_path / "png", dpi=100)
    card = Image.open(pngs[0]).convert("RGB")
    mid = card.width / 2.0
    px = 100 / 25.4
    assert close(card.getpixel((round(mid - 20 * px), round(mid))), "#e00000", tol=30)
    assert close(card.getpixel((round(mid + 20 * px), round(mid))), "#0000e0", tol=30)
    above = card.getpixel((round(mid), round(mid - 20 * px)))
    assert above[1] > above[0]
    box = (round(mid - 10 * px), round(mid - 25 * px), round(mid + 10 * px), round(mid - 15 * px))
    word = np.asarray(card.crop(box))
    assert ((word[..., 1] > 120) & (word[..., 0] < 80)).sum() > 20  # the green word
    fonts = [f.get_object() for page in PdfReader(out).pages for f in page["/Resources"]["/Font"].values()]
    assert all(
        "/FontFile2" in f["/DescendantFonts"][0].get_object()["/FontDescriptor"]
        if "/DescendantFonts" in f
        else "/FontFile2" in f["/FontDescriptor"]
        for f in fonts
    )


def test_low_resolution_warns_then_refuses(tmp_path: Path) -> None:
    theme = _mixed_theme(tmp_path, px=100)
    symbols = symbols_of(theme)
    with pytest.warns(ResolutionWarning, match="dpi"):
        dpi = check_raster_resolution(symbols, _one_card(box_mm=10.0))  # 100 px over 10 mm = 254 dpi
    assert round(dpi[0]) == 254
    with pytest.raises(PrintdeckError, match=r"red\.png.*dpi"):
        check_raster_resolution(symbols, _one_card(box_mm=20.0))  # 127 dpi


def test_png_size_dpi_and_extra_margin(tmp_path: Path) -> None:
    theme = tiny_theme(tmp_path)
    job = print_job(theme)
    paths = render_pngs(job, symbols_of(theme), fano_layouts(2), tmp_path / "out", dpi=150, extra_margin_mm=2.0)
    assert [p.name for p in paths] == ["card-001.png", "card-002.png"]
    with Image.open(paths[0]) as im:
        assert im.size == (round((85 + 6 + 4) * 150 / 25.4),) * 2
        assert round(im.info["dpi"][0]) == 150
        assert close(im.convert("RGB").getpixel((im.width // 2, 3)), "#ffd000")  # background reaches the edge
        assert close(im.convert("RGB").getpixel((2, 2)), "#ffffff")
    again = render_pngs(job, symbols_of(theme), fano_layouts(2), tmp_path / "again", dpi=150, extra_margin_mm=2.0)
    assert again[1].read_bytes() == paths[1].read_bytes()


def test_svg_with_entities_is_refused(tmp_path: Path) -> None:
    evil = tmp_path / "evil.svg"
    evil.write_text(
        '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><text>&x;</text></svg>'
    )
    with pytest.raises(PrintdeckError, match=r"evil\.svg"):
        load_svg_drawing(evil)


MOON = (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><mask id="m">'
    '<rect width="100" height="100" fill="white"/><circle cx="75" cy="50" r="40" fill="black"/></mask>'
    '<circle cx="50" cy="50" r="46" fill="#d00000" mask="url(#m)"/></svg>'
)


def test_svg_with_a_mask_prints_as_the_layout_traced_it(tmp_path: Path) -> None:
    """svglib ignores masks (a crescent would print as a full disc over its neighbours):
    such an SVG is printed as resvg's image, the shape the layout packed."""
    (tmp_path / "moon.svg").write_text(MOON)
    theme = tiny_theme(tmp_path, symbols=["moon.svg", *(f"@assets/twemoji/{n}.svg" for n in ART[1:])])
    imp = impose(paper_size_mm("a4"), 85.0, 3.0, 5.0, 4.0, 1)
    out = tmp_path / "moon.pdf"
    with pytest.warns(SvgImageWarning, match="moon.svg: the SVG uses mask.*high-resolution image"):
        render_pdf(print_job(theme), symbols_of(theme), _one_card(), imp, out)
    cx, cy = imp.slots[0].center_mm
    img = PageImage(out, 0, dpi=150)
    assert close(img.at(cx - 26.0, cy), "#d00000", tol=30)  # the crescent's body (box 20 mm centred at -20)
    assert close(img.at(cx - 16.0, cy), BACKGROUND, tol=12)  # the bite the mask cuts: card, not ink


def test_stroked_ring_has_no_seam(tmp_path: Path) -> None:
    """ReportLab strokes a circle as an open path; with butt caps viewers show a hairline
    seam where it starts (the right-hand side). Round caps cover it."""
    (tmp_path / "ring.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><circle '
        'cx="50" cy="50" r="38" fill="none" stroke="#1d3557" stroke-width="20"/></svg>'
    )
    theme = tiny_theme(tmp_path, symbols=["ring.svg", *(f"@assets/twemoji/{n}.svg" for n in ART[1:])])
    imp = impose(paper_size_mm("a4"), 85.0, 3.0, 5.0, 4.0, 1)
    out = tmp_path / "ring.pdf"
    render_pdf(print_job(theme), symbols_of(theme), _one_card(), imp, out)
    cx, cy = imp.slots[0].center_mm
    img = PageImage(out, 0, dpi=600)
    band = [
        img.at(cx - 20.0 + 7.6 + dx, cy + dy)  # across the ring's right-hand side, where its path starts
        for dx in np.linspace(-1.2, 1.2, 13)
        for dy in np.linspace(-0.3, 0.3, 31)
    ]
    assert all(close(rgb, "#1d3557", tol=8) for rgb in band)  # ring ink everywhere across its start point


@pytest.mark.parametrize(
    "body, feature",
    [
        ('<circle r="4" fill="red"/>', None),
        ('<defs><filter id="f"><feGaussianBlur stdDeviation="1"/></filter></defs><circle r="4"/>', "filter"),
        ('<circle r="4" style="fill: red; filter: url(#f)"/>', "filter"),
        ('<path d="M0 0L5 5" marker-end="url(#a)"/>', "marker"),
        ('<rect width="5" height="5" mask="url(#m)"/>', "mask"),
    ],
)
def test_svg_features_svglib_cannot_draw_are_found(tmp_path: Path, body: str, feature: str | None) -> None:
    path = tmp_path / "a.svg"
    path.write_text(f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">{body}</svg>')
    assert svg_undrawn_feature(path) == feature


def test_svg_with_foreign_object_is_refused_before_drawing(tmp_path: Path) -> None:
    """A foreignObject can carry HTML and script: the one SVG check refuses it outright."""
    path = tmp_path / "a.svg"
    path.write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><foreignObject width="5" height="5"/></svg>'
    )
    with pytest.raises(PrintdeckError, match="foreignObject"):
        svg_undrawn_feature(path)


def test_missing_artwork_names_the_symbol(tmp_path: Path) -> None:
    theme = tiny_theme(tmp_path)
    symbols = symbols_of(theme)
    symbols[0] = SymbolSpec(id=0, name="ghost", kind="svg", source="assets/ghost.svg", path=tmp_path / "ghost.svg")
    imp = impose(paper_size_mm("a4"), 85.0, 3.0, 5.0, 4.0, 7)
    out = tmp_path / "x.pdf"
    with pytest.raises(PrintdeckError, match="ghost"):
        render_pdf(print_job(theme), symbols, fano_layouts(7), imp, out)
    assert not out.exists()  # nothing half-written
