"""An SVG's gradients and opacity print: every form XObject holds the shadings and graphics
states its content names (ReportLab gives a form fonts and XObjects only, so a gradient
printed solid black and see-through circles opaque in poppler, Ghostscript and a print
shop's RIP), a CMYK press file converts the gradients and keeps X-1a free of opacity, and
a sharp stroked corner is cut at SVG's miter limit, as the silhouette was traced."""

from __future__ import annotations

import shutil
import subprocess
import warnings
from pathlib import Path

import numpy as np
import pikepdf
import pytest
from pikepdf import Name
from PIL import Image

import printdeck

GS = shutil.which("gs")
SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">{}</svg>'
PINK, BLUE = (247, 37, 133), (67, 97, 238)
ICONS = {
    "pill": '<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="0"><stop offset="0" stop-color="#f72585"/>'
    '<stop offset="1" stop-color="#4361ee"/></linearGradient></defs>'
    '<rect x="5" y="25" width="90" height="50" rx="25" fill="url(#g)"/>',
    "ball": '<defs><radialGradient id="r" cx="0.4" cy="0.4" r="0.6"><stop offset="0" stop-color="#ffffff"/>'
    '<stop offset="1" stop-color="#0077b6"/></radialGradient></defs><circle cx="50" cy="50" r="45" fill="url(#r)"/>',
    "bubbles": '<circle cx="35" cy="40" r="30" fill="#e63946" opacity="0.5"/>'
    '<circle cx="65" cy="60" r="30" fill="#06d6a0" fill-opacity="0.5"/>',
    "square": '<rect x="10" y="10" width="80" height="80" fill="#264653"/>',
    "triangle": '<polygon points="50,5 95,95 5,95" fill="#e9c46a"/>',
    "cross": '<path d="M40 5h20v35h35v20h-35v35h-20v-35h-35v-20h35z" fill="#2a9d8f"/>',
    "ring": '<circle cx="50" cy="50" r="40" fill="none" stroke="#8338ec" stroke-width="14"/>',
}


def _theme(folder: Path, leave_out: tuple[str, ...] = ()) -> Path:
    (folder / "icons").mkdir(exist_ok=True)
    for name, body in ICONS.items():
        if name not in leave_out:
            (folder / "icons" / f"{name}.svg").write_text(SVG.format(body))
    extra = "  - '@assets/twemoji/apple.svg'\n" if leave_out else ""
    (folder / "theme.yaml").write_text(
        f"name: paint\ndeck: {{symbols_per_card: 3}}\ncard: {{diameter: 60mm}}\nsymbols:\n  - folder: icons\n{extra}"
    )
    return folder / "theme.yaml"


def _named(stream: pikepdf.Stream, operator: str) -> set[str]:
    """The resource names ``operator`` (``sh``, ``gs``) takes in a content stream."""
    return {str(ops[0]) for ops, op in pikepdf.parse_content_stream(stream) if str(op) == operator}


def _forms(pdf: pikepdf.Pdf) -> list[pikepdf.Stream]:
    return [o for o in pdf.objects if isinstance(o, pikepdf.Stream) and o.get("/Subtype") == Name.Form]


@pytest.fixture(scope="module")
def rgb_deck(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("paint")
    printdeck.build(_theme(folder), folder / "deck.pdf")
    return folder / "deck.pdf"


def test_every_form_holds_the_shadings_and_states_it_names(rgb_deck: Path) -> None:
    with pikepdf.open(rgb_deck) as pdf:
        painting = 0
        for form in _forms(pdf):
            resources = form.get("/Resources", pikepdf.Dictionary())
            for operator, kind in (("sh", "/Shading"), ("gs", "/ExtGState")):
                names = _named(form, operator)
                held = set(resources.get(kind, pikepdf.Dictionary()).keys())
                assert names <= held, (operator, names, held)
                painting += len(names)
        assert painting >= 3  # the two gradients and the bubbles' opacity
        shadings = [o for o in pdf.objects if isinstance(o, pikepdf.Dictionary) and "/ShadingType" in o]
        assert len(shadings) >= 2


@pytest.mark.skipif(GS is None, reason="Ghostscript (gs) is not installed")
def test_ghostscript_draws_the_gradients_in_colour_and_the_bubbles_see_through(rgb_deck: Path, tmp_path: Path) -> None:
    png = tmp_path / "page.png"
    done = subprocess.run(
        [str(GS), "-q", "-dNOPAUSE", "-dBATCH", "-sDEVICE=png16m", "-r40", f"-sOutputFile={png}", str(rgb_deck)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0 and "Error" not in done.stdout + done.stderr, done.stdout + done.stderr
    rgb = np.asarray(Image.open(png).convert("RGB"), dtype=int)
    near = lambda colour, tol=40: (np.abs(rgb - np.array(colour)).max(axis=2) < tol).sum()  # noqa: E731
    assert near(PINK) > 20 and near(BLUE) > 20  # the pill's two ends, not a black pill
    cards = rgb[: int(0.85 * rgb.shape[0])]  # above the footer's words and scale bar
    assert (np.abs(cards).max(axis=2) < 30).sum() < 300  # crop marks only: a black pill or ball is 400+
    blended = near((0x7C, 0xB9, 0xA1), 30)  # green over red at half opacity each, on white
    assert blended > 10


def test_a_press_file_converts_the_gradients_to_cmyk(tmp_path: Path) -> None:
    out = tmp_path / "x4.pdf"
    printdeck.build(_theme(tmp_path), out, color="cmyk", pdfx="x-4")
    with pikepdf.open(out) as pdf:
        shadings = [o for o in pdf.objects if isinstance(o, pikepdf.Dictionary) and "/ShadingType" in o]
        assert shadings and all(s.ColorSpace == Name.DeviceCMYK for s in shadings)
        for shading in shadings:
            assert len(shading.Function.C0) == len(shading.Function.C1) == 4
        states = [s for form in _forms(pdf) for s in form.Resources.get("/ExtGState", pikepdf.Dictionary()).values()]
        assert any(float(s.get("/ca", 1)) < 1 for s in states)  # X-4 keeps the opacity


def test_pdfx_1a_prints_an_svg_with_opacity_as_its_image_and_takes_gradients(tmp_path: Path) -> None:
    """PDF/X-1a holds no transparency. A see-through SVG was refused (which stopped a default
    deck of the bundled pictures, three of which have an opacity, at DriveThruCards): it is
    now printed as its image on the card's colour, said by name by check and build, and the
    file holds no transparency at all."""
    from printdeck.render import VectorWarning

    said = r"bubbles\.svg is partly see-through \(an opacity\), which PDF/X-1a cannot hold: printed as a high-res"
    with pytest.warns(VectorWarning, match=said):
        printdeck.build(_theme(tmp_path), tmp_path / "x1a.pdf", color="cmyk", pdfx="x-1a")
    with pikepdf.open(tmp_path / "x1a.pdf") as pdf:
        assert str(pdf.trailer.Info.GTS_PDFXConformance) == "PDF/X-1a:2003"
        states = [o for o in pdf.objects if isinstance(o, pikepdf.Dictionary) and ("/ca" in o or "/CA" in o)]
        assert all(float(o.get("/ca", 1)) == 1 and float(o.get("/CA", 1)) == 1 for o in states)
        assert not any(isinstance(o, pikepdf.Stream) and "/SMask" in o for o in pdf.objects)
        assert all(
            o.ColorSpace == Name.DeviceCMYK
            for o in pdf.objects
            if isinstance(o, pikepdf.Dictionary) and "/ShadingType" in o
        )
    x1a = tmp_path / "x1a.yaml"
    x1a.write_text((tmp_path / "theme.yaml").read_text() + "paper: {color: cmyk, pdfx: x-1a}\n")
    with pytest.warns(VectorWarning, match=said):
        printdeck.check_theme(x1a)


SHARP = {  # stroked corners of 25 and 20 degrees, mitred (SVG's default join)
    "bolt": '<polygon points="55,5 20,55 45,55 35,95 80,40 55,40 65,5" fill="#ffd60a" stroke="#000" stroke-width="2"/>',
    "chevron": '<path d="M10 38 L80 50 L10 62" fill="none" stroke="#222" stroke-width="8"/>',
    "illustrator-chevron": "<style>.st0{fill:none;stroke:#222;stroke-width:6;stroke-miterlimit:10}</style>"
    '<path class="st0" d="M10 38 L80 50 L10 62"/>',  # its own limit, 10: the spike is drawn, as resvg draws it
}


@pytest.mark.parametrize("name", sorted(SHARP))
def test_a_sharp_stroked_corner_prints_as_traced_not_as_a_spike(
    tmp_path: Path, name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SVG cuts a corner sharper than its miter limit (4) flat; the PDF's default limit (10)
    drew it as a spike past the silhouette (the chevron printed as a raster, the bolt's
    spike, too small for the proof, reached 1.9 mm from a poker card's trim)."""
    from printdeck.model import SymbolSpec
    from printdeck.render.proof import forget_proofs, proof

    monkeypatch.setenv("PRINTDECK_CACHE_DIR", str(tmp_path / "cache"))  # measured, not remembered
    forget_proofs()
    path = tmp_path / f"{name}.svg"
    path.write_text(SVG.format(SHARP[name]))
    proved = proof(SymbolSpec(id=0, name=name, kind="svg", source=path.name, path=path))
    assert proved.vector_ok and proved.stray_share < 0.0005 and proved.lost_share < 0.002, proved


def test_the_legend_shows_an_svg_printed_as_an_image_on_white_not_on_the_card_colour(tmp_path: Path) -> None:
    """An SVG printed as an image is composited onto the card's colour on the cards (no soft
    mask); the legend, on white, showed that colour inside and round it (light-blue blobs)."""
    import pypdfium2 as pdfium

    masked = (
        '<mask id="m"><rect width="100" height="100" fill="#fff"/><circle cx="50" cy="50" r="20"/></mask>'
        '<circle cx="50" cy="50" r="45" fill="#d62828" mask="url(#m)"/>'
    )
    (tmp_path / "icons").mkdir()
    (tmp_path / "icons" / "ring.svg").write_text(SVG.format(masked))
    plain = ("apple", "anchor", "ant", "banana", "bell", "drum")
    (tmp_path / "theme.yaml").write_text(
        "name: blue\ndeck: {symbols_per_card: 3}\ncard: {diameter: 60mm, background: '#8ecae6'}\nsymbols:\n"
        "  - image: icons/ring.svg\n" + "".join(f"  - '@assets/twemoji/{n}.svg'\n" for n in plain)
    )
    out = tmp_path / "deck.pdf"
    with pytest.warns(UserWarning, match="ring.svg"):
        printdeck.build(tmp_path / "theme.yaml", out, legend=True, color="cmyk")
    doc = pdfium.PdfDocument(str(out))
    legend = np.asarray(doc[len(doc) - 1].render(scale=1).to_pil().convert("RGB"), dtype=int)
    first = np.asarray(doc[0].render(scale=1).to_pil().convert("RGB"), dtype=int)
    doc.close()
    card_blue = lambda rgb: (np.abs(rgb - np.array([0x8E, 0xCA, 0xE6])).max(axis=2) < 24).sum()  # noqa: E731
    assert card_blue(first) > 1000  # the cards are blue (CMYK, converted back: near, not exact)
    assert card_blue(legend) == 0


def test_the_legend_shows_a_white_icon_on_a_tile_of_the_card_colour(tmp_path: Path) -> None:
    """A white cloud made for light-blue cards was invisible on the legend's white page; it
    now sits on a tile of the cards' colour, and icons that show on white get none."""
    import pypdfium2 as pdfium

    card = np.array([0x8E, 0xCA, 0xE6])
    plain = ("apple", "anchor", "ant", "banana", "bell", "drum")

    def legend_card_colour(with_cloud: bool) -> int:
        folder = tmp_path / ("cloud" if with_cloud else "plain")
        (folder / "icons").mkdir(parents=True)
        (folder / "icons" / "cloud.svg").write_text(SVG.format('<circle cx="50" cy="50" r="40" fill="#fff"/>'))
        first = "  - image: icons/cloud.svg\n" if with_cloud else "  - '@assets/twemoji/key.svg'\n"
        (folder / "theme.yaml").write_text(
            "name: sky\ndeck: {symbols_per_card: 3}\ncard: {diameter: 60mm, background: '#8ecae6'}\nsymbols:\n"
            + first
            + "".join(f"  - '@assets/twemoji/{n}.svg'\n" for n in plain)
        )
        printdeck.build(folder / "theme.yaml", folder / "deck.pdf", legend=True)
        doc = pdfium.PdfDocument(str(folder / "deck.pdf"))
        page = np.asarray(doc[len(doc) - 1].render(scale=2).to_pil().convert("RGB"), dtype=int)
        doc.close()
        return int((np.abs(page - card).max(axis=2) < 12).sum())

    assert legend_card_colour(with_cloud=False) < 50  # no tile: every icon shows on white
    assert legend_card_colour(with_cloud=True) > 1500  # the cloud's tile (13 mm square at 2 px a point)

    slides = tmp_path / "slides.pdf"  # the answer key, white as the legend: the same tile
    printdeck.write_slides(tmp_path / "cloud" / "theme.yaml", slides, answer_key=True)
    doc = pdfium.PdfDocument(str(slides))
    key = np.asarray(doc[len(doc) - 1].render(scale=2).to_pil().convert("RGB"), dtype=int)
    doc.close()
    assert int((np.abs(key - card).max(axis=2) < 12).sum()) > 300


def test_a_shapes_own_opacity_prints_see_through(rgb_deck: Path) -> None:
    """svglib reads no ``opacity``: the bubbles' red circle (``opacity="0.5"``) printed
    opaque, and a Twemoji target's 20 % shadow solid black. A shape's own opacity is
    folded into its fill's, which the form then paints at half."""
    with pikepdf.open(rgb_deck) as pdf:
        alphas = {
            float(state.ca)
            for form in _forms(pdf)
            for state in form.get("/Resources", pikepdf.Dictionary()).get("/ExtGState", pikepdf.Dictionary()).values()
            if "/ca" in state
        }
    assert 0.5 in alphas
    from printdeck.render.svg_forms import load_svg_drawing

    target = Path(printdeck.__file__).parent.parent / "assets" / "twemoji" / "target.svg"
    from printdeck.render.svg_forms import _nodes

    shadow = [n for n in _nodes(load_svg_drawing(target)) if (getattr(n, "fillOpacity", 1) or 1) < 1]
    assert [round(float(n.fillOpacity), 2) for n in shadow] == [0.2]


@pytest.mark.parametrize(
    ("body", "feature"),
    [
        ('<g opacity="0.5"><rect x="10" y="10" width="80" height="80" fill="#8338ec"/></g>', "opacity"),
        ('<rect x="10" y="10" width="80" height="80" fill="#8338ec" stroke="#000" opacity="0.5"/>', "opacity"),
        (
            '<defs><linearGradient id="g"><stop offset="0" stop-color="#f00" stop-opacity="0.3"/>'
            '<stop offset="1" stop-color="#00f"/></linearGradient></defs><rect width="90" height="90" fill="url(#g)"/>',
            "stop-opacity",
        ),
        ('<rect width="90" height="90" fill="#f00" style="mix-blend-mode:multiply"/>', "mix-blend-mode"),
        ('<style>.a{opacity:.4}</style><rect class="a" width="90" height="90" fill="#f00"/>', "opacity"),
        ('<style>.a{fill:none;stroke:#000}</style><rect class="a" width="90" height="90" opacity=".5"/>', "opacity"),
    ],
)
def test_an_opacity_svglib_cannot_draw_prints_as_the_image(tmp_path: Path, body: str, feature: str) -> None:
    """A group's opacity, a gradient stop's, a blend mode and a stylesheet's opacity printed
    opaque (a designer's lavender came out solid purple, and PDF/X-1a let it through): the
    SVG is printed as resvg's image, which draws them."""
    from printdeck.render.svg_features import svg_undrawn_feature

    (tmp_path / "a.svg").write_text(SVG.format(body), encoding="utf-8")
    assert svg_undrawn_feature(tmp_path / "a.svg") == feature


def test_pdfx_1a_says_all_its_see_through_pictures_in_one_line(tmp_path: Path) -> None:
    """The default pictures at DriveThruCards gave one warning a see-through picture, each
    advising ``paper.pdfx: x-4``, a file the service does not take; now one line names
    them all, and its hint leaves the choice of file to the printer."""
    from printdeck.render import VectorWarning

    theme = tmp_path / "t.yaml"
    names = ("target", "ice-cube", "popcorn")
    symbols = "".join(f'  - image: "@assets/twemoji/{n}.svg"\n' for n in names)
    words = "".join(f"  - text: w{k}\n" for k in range(4))
    theme.write_text(f"name: t\ndeck: {{order: 2}}\nsymbols:\n{symbols}{words}")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        printdeck.build(theme, tmp_path / "d.pdf", preset="drivethrucards")
    lines = [str(w.message) for w in caught if issubclass(w.category, VectorWarning)]
    assert len(lines) == 1, lines
    assert all(f"{n}.svg" in lines[0] for n in names)
    assert " are partly see-through" in lines[0] and "paper.pdfx" not in lines[0]
