"""Every symbol is proven to print before the layout: SVGs svglib draws wrongly print as
resvg's raster, symbols with no visible ink are refused; checked from the rendered PDF."""

from __future__ import annotations

import dataclasses
import io
import warnings
from pathlib import Path

import numpy as np
import pypdfium2 as pdfium
import pytest
from reportlab.pdfgen.canvas import Canvas

import printdeck
from printdeck.errors import PrintdeckError
from printdeck.model import Placement, SymbolSpec
from printdeck.render.forms import ArtLibrary
from printdeck.render.proof import MIN_VISIBLE_SHARE, VectorWarning, proof, prove_symbols
from printdeck.theme import load_theme

SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">{}</svg>'
CSS_VARIABLES = {  # neither svglib nor resvg draws custom properties: printdeck resolves them
    "fallback": '<rect style="fill: var(--c, #0080ff)" width="8" height="8"/>',
    "class": '<style>.a{fill: var(--c, #0080ff)}</style><rect class="a" width="10" height="10"/>',
    "declared": '<style>svg{--c: #0080ff}.a{fill: var(--c)}</style><rect class="a" width="10" height="10"/>',
}
DRAWN_WRONG = {  # svglib leaves these out or fails on them; resvg draws them
    "path-without-move": '<path d="1 2 3 4"/><circle cx="5" cy="5" r="3" fill="#0080ff"/>',
    "mask": '<mask id="m"><rect width="10" height="10" fill="#fff"/><circle cx="7" cy="5" r="4"/></mask>'
    '<circle cx="5" cy="5" r="4" fill="#0080ff" mask="url(#m)"/>',
}
REFUSED = {  # numbers no renderer can draw: refused before any parser sees them
    "nan-path": '<path d="M nan nan L 5 5"/><circle cx="5" cy="5" r="3" fill="#0080ff"/>',
    "huge-exponent": '<path d="M 1e999 0 L 5 5"/><circle cx="5" cy="5" r="3" fill="#0080ff"/>',
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


def _page(symbol: SymbolSpec) -> np.ndarray:
    """``(H, W, 3) int``: a page on which the symbol's PDF form is stretched over the whole page."""
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
    return pixels


def _printed_ink(symbol: SymbolSpec) -> float:
    """Share of the page showing ink."""
    return float(((255 - _page(symbol)).max(axis=2) > 40).mean())


@pytest.mark.parametrize("name", sorted(DRAWN_WRONG))
def test_svgs_svglib_draws_wrongly_print_as_their_raster(tmp_path: Path, name: str) -> None:
    symbol = _svg(tmp_path, name, DRAWN_WRONG[name])
    assert not proof(symbol).vector_ok or name == "mask"  # masks are caught by name before the proof
    with pytest.warns(UserWarning, match="printed as a .* image"):
        ArtLibrary(Canvas(io.BytesIO()), [symbol]).art(0)
    assert _printed_ink(symbol) > 0.1  # the PDF shows the blue shape, not nothing


def _blue_share(symbol: SymbolSpec) -> float:
    px = _page(symbol)
    return float(((px[..., 2] > 200) & (px[..., 0] < 60) & (abs(px[..., 1] - 128) < 40)).mean())


@pytest.mark.parametrize("name", sorted(CSS_VARIABLES))
def test_css_variables_print_in_their_colour_as_vectors(tmp_path: Path, name: str) -> None:
    symbol = _svg(tmp_path, name, CSS_VARIABLES[name])
    assert proof(symbol).vector_ok
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no fallback to the raster
        ArtLibrary(Canvas(io.BytesIO()), [symbol]).art(0)
    assert _blue_share(symbol) > 0.5


def test_ordinary_svgs_keep_their_vectors(tmp_path: Path) -> None:
    symbols = [s for s in load_theme(None).symbols if s.kind == "svg"][:25]
    symbols.append(_svg(tmp_path, "plain", '<circle cx="5" cy="5" r="4" fill="#c00"/>'))
    assert all(proof(s).vector_ok for s in symbols), [s.name for s in symbols if not proof(s).vector_ok]


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_unusable_numbers_are_refused_in_one_line(tmp_path: Path, name: str) -> None:
    with pytest.raises(PrintdeckError, match=rf"^{name}.svg: .* is refused: its d holds"):
        proof(_svg(tmp_path, name, REFUSED[name]))


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
    from printdeck.render import check_word_colours

    check_word_colours(["#0072b2", "#d55e00"], "#ffffff")
    with pytest.raises(PrintdeckError, match=r"^text.colors: #fafafa does not show on the card background #ffffff"):
        check_word_colours(["#0072b2", "#fafafa"], "#ffffff")


def test_a_vector_failure_warns_once_when_proven(tmp_path: Path) -> None:
    symbol = _svg(tmp_path, "nomove", DRAWN_WRONG["path-without-move"])
    with pytest.warns(VectorWarning, match="nomove.svg: the PDF's vector drawing"):
        prove_symbols([symbol], "#ffffff")


def _cli(*args: str, cwd: Path) -> tuple[int, str, str]:
    """The command line in process (click's runner), in ``cwd`` with its own cache."""
    import os

    from test_hostile_support import run_in_process

    done = run_in_process(cwd, *args, environ={**os.environ, "PRINTDECK_CACHE_DIR": str(cwd / "cache")})
    return done.code, done.out, done.err


def _theme_with(tmp_path: Path, body: str) -> Path:
    (tmp_path / "odd.svg").write_text(SVG.format(body))
    words = "".join(f"  - text: word{i}\n" for i in range(6))
    (tmp_path / "theme.yaml").write_text(
        f"name: t\ndeck: {{symbols_per_card: 3}}\nsymbols:\n  - image: odd.svg\n{words}"
    )
    return tmp_path / "theme.yaml"


def test_check_and_build_refuse_an_invisible_symbol_with_the_same_line(tmp_path: Path) -> None:
    _theme_with(tmp_path, INVISIBLE["white-on-white"])
    check = _cli("check", "theme.yaml", cwd=tmp_path)
    build = _cli("build", "theme.yaml", "-o", "deck.pdf", "--quiet", cwd=tmp_path)
    assert check[0] == build[0] == 2
    assert check[2] == build[2] and len(check[2].splitlines()) == 1 and "no visible ink" in check[2]
    assert not (tmp_path / "deck.pdf").exists()


def test_a_masked_svg_is_said_once_by_build_in_the_words_of_check(tmp_path: Path) -> None:
    """A mask, the commonest reason an SVG prints as an image: the proof and the PDF said it
    in two wordings ("differs ... 20 %" and "uses mask ... 1200 x 1200 px")."""
    _theme_with(tmp_path, DRAWN_WRONG["mask"])
    said = {}
    for command in (("check", "theme.yaml"), ("build", "theme.yaml", "-o", "deck.pdf", "--quiet")):
        code, _, err = _cli(*command, cwd=tmp_path)
        said[command[0]] = [line for line in err.splitlines() if "odd.svg" in line]
        assert code == 0, err
    assert said["build"] == said["check"] and len(said["build"]) == 1
    assert said["build"][0].endswith(
        "odd.svg: the SVG uses mask, which the PDF's vector path cannot draw; "
        "printed as a high-resolution image instead"
    )


def test_check_warns_and_build_prints_the_raster_of_an_svg_svglib_cannot_draw(tmp_path: Path) -> None:
    _theme_with(tmp_path, DRAWN_WRONG["path-without-move"])
    code, out, err = _cli("check", "theme.yaml", cwd=tmp_path)
    assert code == 0 and "ok: 7 cards" in out and "odd.svg: the PDF's vector drawing" in err
    code, out, err = _cli("build", "theme.yaml", "-o", "deck.pdf", "--quiet", cwd=tmp_path)
    assert code == 0 and "Can't handle" not in out + err
    assert [line for line in err.splitlines() if "odd.svg" in line] == [  # said once, as check says it
        line for line in _cli("check", "theme.yaml", cwd=tmp_path)[2].splitlines() if "odd.svg" in line
    ]
    doc = pdfium.PdfDocument(str(tmp_path / "deck.pdf"))
    page = np.asarray(doc[0].render(scale=1).to_pil().convert("RGB"), dtype=int)
    doc.close()
    blue = (page[..., 2] > 200) & (page[..., 0] < 60) & (page[..., 1] > 100) & (page[..., 1] < 160)
    assert blue.sum() > 300  # the #0080ff disc prints on its cards


def test_build_check_and_preview_name_the_symbols_no_card_shows(tmp_path: Path) -> None:
    words = "".join(f"  - text: w{i:02d}\n" for i in range(10))
    (tmp_path / "theme.yaml").write_text(f"name: t\ndeck: {{symbols_per_card: 3}}\nsymbols:\n{words}")
    code, out, _ = _cli("build", "theme.yaml", "-o", "deck.pdf", "--quiet", cwd=tmp_path)
    manifest = __import__("json").loads((tmp_path / "deck.json").read_text())
    left = sorted(u["name"] for u in manifest["unused"])
    shown = {s["name"] for s in manifest["symbols"]}
    assert code == 0 and len(left) == 3 and not set(left) & shown
    assert set(left) | shown == {f"w{i:02d}" for i in range(10)}
    assert f"left out 3 symbols no card shows: {', '.join(left)}" in out
    for command in (("check", "theme.yaml"), ("preview", "theme.yaml", "-o", "p.png", "--cards", "1")):
        code, out, _ = _cli(*command, cwd=tmp_path)
        assert code == 0 and f"left out 3 symbols no card shows: {', '.join(left)}" in out


def test_custom_property_at_the_end_of_a_style_attribute_is_resolved() -> None:
    """``style="--c: #08f"`` (no ``;``) ends at the attribute's quote, not at the document's end."""
    from printdeck.artwork import resolve_css_variables

    text = '<svg><g style="--c: #08f"><path style="fill: var(--c)" d="M0 0h9v9z"/></g></svg>'
    assert resolve_css_variables(text) == text.replace("var(--c)", "#08f")


def test_the_proof_grows_ink_by_its_slack_in_a_square() -> None:
    from printdeck.render.proof import SLACK_PX, _grown

    rng = np.random.default_rng(7)
    mask = rng.random((37, 52)) < 0.02
    mask[0, 0] = mask[-1, 20] = True  # ink on the border grows inward only
    grown = _grown(mask)
    side = 2 * SLACK_PX + 1
    padded = np.pad(mask, SLACK_PX)
    expected = np.zeros_like(mask)
    for dy in range(side):
        for dx in range(side):
            expected |= padded[dy : dy + mask.shape[0], dx : dx + mask.shape[1]]
    assert grown.dtype == bool
    assert np.array_equal(grown, expected)


def test_symbols_all_proven_before_are_read_without_threads(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Proofs all in the disk cache are read one by one (threads would only take turns
    with the GIL); one symbol not proven yet brings the threads back, with the same verdicts."""
    from printdeck.render import proof as proof_module

    monkeypatch.setenv("PRINTDECK_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("PRINTDECK_NO_CACHE", raising=False)
    symbols = [_svg(tmp_path, f"disc{k}", f'<circle cx="5" cy="5" r="{k + 2}" fill="#0080ff"/>') for k in range(3)]
    prove_symbols(symbols[:2], "#ffffff")
    proof_module._cached_proof.cache_clear()  # as in a new process: only the disk knows them
    pools: list[int] = []
    real_pool = proof_module.ThreadPoolExecutor

    def counted(*args: object, **kwargs: object) -> object:
        pools.append(1)
        return real_pool(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(proof_module, "ThreadPoolExecutor", counted)
    prove_symbols(symbols[:2], "#ffffff")
    assert not pools
    prove_symbols(symbols, "#ffffff")
    assert pools == [1]
    assert [proof(s).visible_share for s in symbols] == sorted(proof(s).visible_share for s in symbols)


def test_a_renumbered_symbol_finds_its_proof_in_memory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The deck renumbers the symbols the build proved: the render's proof is the one in
    memory, not read from the disk again; a word's colour still makes a proof of its own."""
    from printdeck.render import proof as proof_module

    monkeypatch.setenv("PRINTDECK_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("PRINTDECK_NO_CACHE", raising=False)
    disc = _svg(tmp_path, "disc", '<circle cx="5" cy="5" r="4" fill="#0080ff"/>')
    proof_module._cached_proof.cache_clear()
    first = proof(disc)
    assert proof(dataclasses.replace(disc, id=40)) is first
    word = SymbolSpec(id=0, name="sun", kind="text", source="sun", text="sun", color="#202020")
    on_white = proof(dataclasses.replace(word, color="#fefefe"), "#ffffff")
    assert on_white.visible_share < MIN_VISIBLE_SHARE < proof(word, "#ffffff").visible_share


def test_an_svg_holding_an_embedded_picture_prints_as_its_image(tmp_path: Path) -> None:
    """An SVG that embeds a photo (``<image href="data:image/png;base64,...">``, as Inkscape
    and Canva save one) passed check, then stopped the build with a traceback: svglib drew
    it as an inline image whose binary data ReportLab's form could not hold. It prints as
    resvg's image now, said the same way by check and build, as a symbol and as the backs."""
    import base64

    from PIL import Image

    photo = io.BytesIO()
    Image.new("RGB", (40, 40), (30, 120, 200)).save(photo, "PNG")
    data = base64.b64encode(photo.getvalue()).decode()
    theme = _theme_with(tmp_path, f'<image href="data:image/png;base64,{data}" width="10" height="10"/>')
    said = {}
    for command in (("check", "theme.yaml"), ("build", "theme.yaml", "-o", "deck.pdf", "--quiet")):
        code, _, err = _cli(*command, cwd=tmp_path)
        assert code == 0 and "Traceback" not in err, err
        said[command[0]] = [line for line in err.splitlines() if "odd.svg" in line]
    assert (
        said["build"]
        == said["check"]
        == [
            "printdeck: warning: odd.svg: the SVG uses an embedded picture (<image>), which the PDF's vector path "
            "cannot draw; printed as a high-resolution image instead"
        ]
    )
    page = np.asarray(pdfium.PdfDocument(tmp_path / "deck.pdf")[0].render(scale=1).to_pil().convert("RGB"))
    assert ((np.abs(page[..., :3].astype(int) - (30, 120, 200)).sum(axis=2)) < 30).sum() > 500  # the photo's blue
    theme.write_text(theme.read_text() + "backs: {enabled: true, image: odd.svg}\n")
    code, _, err = _cli("build", "theme.yaml", "-o", "backs.pdf", "--quiet", cwd=tmp_path)
    assert code == 0 and "Traceback" not in err, err


def test_only_a_drawn_embedded_picture_makes_an_svg_print_as_its_image(tmp_path: Path) -> None:
    """An <image> kept unused in <defs> (editors leave them) made the whole SVG print as an
    image: only a picture that is drawn (outside <defs>, or named by a <use>) does."""
    import base64

    from PIL import Image

    from printdeck.render.svg_features import svg_undrawn_feature

    photo = io.BytesIO()
    Image.new("RGB", (4, 4), (30, 120, 200)).save(photo, "PNG")
    href = f"data:image/png;base64,{base64.b64encode(photo.getvalue()).decode()}"
    shape = '<rect x="1" y="1" width="8" height="8" fill="#c33"/>'
    cases = {
        "unused.svg": (f'<defs><image id="p" href="{href}" width="4" height="4"/></defs>{shape}', None),
        "used.svg": (f'<defs><image id="p" href="{href}" width="4" height="4"/></defs><use href="#p"/>', "image"),
        "drawn.svg": (f'<image href="{href}" width="4" height="4"/>{shape}', "image"),
    }
    for name, (body, feature) in cases.items():
        (tmp_path / name).write_text(SVG.format(body))
        assert svg_undrawn_feature(tmp_path / name) == feature, name


def test_a_hairline_drawing_is_refused_as_too_thin_and_keyed_to_its_entry(tmp_path: Path) -> None:
    """An icon drawn only in hairlines (a square's outline 0.02 units wide in a 10-unit
    viewBox) was refused as 'nothing, or ink the colour of the card', which is neither,
    and with no key, so neither a program nor the studio could tell which entry it was."""
    import dataclasses

    hairline = _svg(
        tmp_path, "hairline", '<rect x="1" y="1" width="8" height="8" fill="none" stroke="#000" stroke-width="0.02"/>'
    )
    hairline = dataclasses.replace(hairline, theme_key="symbols.4")
    with pytest.raises(
        PrintdeckError, match=r"or lines too thin to show at print size\); change the artwork"
    ) as caught:
        prove_symbols([hairline], "#ffffff")
    assert (caught.value.key, caught.value.source) == ("symbols.4", None)  # the theme's file is named later
    assert caught.value.problem.startswith("hairline.svg shows no visible ink on the card background #ffffff")
    theme = tmp_path / "hairs.yaml"
    words = "".join(f"  - text: {w}\n" for w in ("sun", "moon", "star", "tree", "fish", "bird"))
    theme.write_text(f"name: hairs\ndeck: {{symbols_per_card: 3}}\nsymbols:\n  - image: hairline.svg\n{words}")
    with pytest.raises(PrintdeckError) as built:
        printdeck.build(theme, out=tmp_path / "hairs.pdf")
    assert str(built.value).startswith(f"{theme}: symbol"), "the theme's file named, as for its other entries"
    assert built.value.key == "symbols.0" and not (tmp_path / "hairs.pdf").exists()
