"""Every symbol is proven to print before the layout: SVGs svglib draws wrongly print as
resvg's raster, symbols with no visible ink are refused; checked from the rendered PDF."""

from __future__ import annotations

import io
import warnings
from pathlib import Path

import numpy as np
import pypdfium2 as pdfium
import pytest
from reportlab.pdfgen.canvas import Canvas

from printdeck.errors import PrintdeckError
from printdeck.model import Placement, SymbolSpec
from printdeck.render.artwork import ArtLibrary
from printdeck.render.proof import VectorWarning, proof, prove_symbols
from printdeck.theme import load_theme

SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">{}</svg>'
DRAWN_WRONG = {  # svglib leaves these out or fails on them; resvg draws them
    "css-variable": '<rect style="fill: var(--c, #0080ff)" width="8" height="8"/>',
    "class-variable": '<style>.a{fill: var(--c, #0080ff)}</style><rect class="a" width="10" height="10"/>',
    "path-without-move": '<path d="1 2 3 4"/><circle cx="5" cy="5" r="3" fill="#0080ff"/>',
    "nan-path": '<path d="M nan nan L 5 5"/><circle cx="5" cy="5" r="3" fill="#0080ff"/>',
    "huge-exponent": '<path d="M 1e999 0 L 5 5"/><circle cx="5" cy="5" r="3" fill="#0080ff"/>',
    "mask": '<mask id="m"><rect width="10" height="10" fill="#fff"/><circle cx="7" cy="5" r="4"/></mask>'
            '<circle cx="5" cy="5" r="4" fill="#0080ff" mask="url(#m)"/>',
}
INVISIBLE = {
    "white-on-white": '<circle cx="5" cy="5" r="4" fill="#ffffff"/>',
    "outside-the-viewbox": '<circle cx="500" cy="500" r="4" fill="#000"/>',
    "transparent": '<circle cx="5" cy="5" r="4" fill="#000" fill-opacity="0.01"/>',
    "microscopic": '<circle cx="5" cy="5" r="0.001" fill="#000"/>',
}


def _svg(tmp_path: Path, name: str, body: str) -> SymbolSpec:
    path = tmp_path / f"{name}.svg"
    path.write_text(SVG.format(body))
    return SymbolSpec(id=0, name=name, kind="svg", source=path.name, path=path)


def _printed_ink(symbol: SymbolSpec) -> float:
    """Share of a page showing ink where the symbol's PDF form is stretched over it."""
    buf = io.BytesIO()
    canvas = Canvas(buf, pagesize=(120, 120), invariant=1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ArtLibrary(canvas, [symbol]).place(Placement(0, (0.0, 0.0), 0.0, (120 / 72 * 25.4,) * 2), (60, 60))
    canvas.showPage()
    canvas.save()
    doc = pdfium.PdfDocument(buf.getvalue())
    pixels = np.asarray(doc[0].render(scale=2).to_pil().convert("RGB"), dtype=int)
    doc.close()
    return float(((255 - pixels).max(axis=2) > 40).mean())


@pytest.mark.parametrize("name", sorted(DRAWN_WRONG))
def test_svgs_svglib_draws_wrongly_print_as_their_raster(tmp_path: Path, name: str) -> None:
    symbol = _svg(tmp_path, name, DRAWN_WRONG[name])
    assert not proof(symbol).vector_ok or name == "mask"  # masks are caught by name before the proof
    with pytest.warns(UserWarning, match="printed as a .* image"):
        ArtLibrary(Canvas(io.BytesIO()), [symbol]).art(0)
    assert _printed_ink(symbol) > 0.1  # the PDF shows the blue shape, not nothing


def test_ordinary_svgs_keep_their_vectors(tmp_path: Path) -> None:
    symbols = [s for s in load_theme(None).symbols if s.kind == "svg"][:25]
    symbols.append(_svg(tmp_path, "plain", '<circle cx="5" cy="5" r="4" fill="#c00"/>'))
    assert all(proof(s).vector_ok for s in symbols), [s.name for s in symbols if not proof(s).vector_ok]


@pytest.mark.parametrize("name", sorted(INVISIBLE))
def test_symbols_with_no_visible_ink_are_refused(tmp_path: Path, name: str) -> None:
    symbol = _svg(tmp_path, name, INVISIBLE[name])
    with pytest.raises(PrintdeckError, match=r"^symbols\.4\.image: .* shows no visible ink on the card background"):
        prove_symbols([symbol], "#ffffff", ["symbols.4.image"])


def test_visibility_is_judged_against_the_card_background(tmp_path: Path) -> None:
    dark = _svg(tmp_path, "navy", '<circle cx="5" cy="5" r="4" fill="#1d3557"/>')
    prove_symbols([dark], "#ffffff")
    with pytest.raises(PrintdeckError, match="#1d3557"):
        prove_symbols([dark], "#1d3557")
    word = SymbolSpec(id=0, name="cat", kind="text", source="text:cat", text="cat", color="#ffffff")
    with pytest.raises(PrintdeckError, match="no visible ink"):
        prove_symbols([word], "#ffffff")


def test_a_vector_failure_warns_once_when_proven(tmp_path: Path) -> None:
    symbol = _svg(tmp_path, "var", DRAWN_WRONG["css-variable"])
    with pytest.warns(VectorWarning, match="var.svg: the PDF's vector drawing"):
        prove_symbols([symbol], "#ffffff")
