"""Press files read back: CMYK PDF/X (colour spaces, OutputIntent, XMP, boxes), the die line's
layer and separation, no soft masks, Ghostscript's PDF/X conversion, presets, sRGB PNGs."""

from __future__ import annotations

import json
import shutil
import subprocess
import warnings
from pathlib import Path

import numpy as np
import pikepdf
import pytest
from pikepdf import Name
from PIL import Image
from test_render_support import fano_layouts, print_job, symbols_of, tiny_theme, write_theme

import printdeck
from printdeck.artwork import cmyk_profile_bytes, to_srgb
from printdeck.render import extras_file, impose, paper_size_mm, render_pdf

GS = shutil.which("gs")


def _render(tmp_path: Path, name: str = "deck.pdf", single: bool = False, **paper: object) -> Path:
    theme = tiny_theme(tmp_path, paper={"layout": "single" if single else "sheet", **paper})
    imp = impose(paper_size_mm("a4"), 85.0, 3.0, 5.0, 4.0, 7, single=single)
    out = tmp_path / name
    render_pdf(print_job(theme, backs=True), symbols_of(theme), fano_layouts(7), imp, out)
    return out


def _ops(stream: pikepdf.Object) -> list[tuple[list[object], str]]:
    return [(list(o), str(op)) for o, op in pikepdf.parse_content_stream(stream)]


def _page_images(page: pikepdf.Page) -> int:
    xobjects = page.Resources.get("/XObject", {})
    return sum(1 for x in xobjects.values() if x.get("/Subtype") == Name.Image)


def _all_streams(pdf: pikepdf.Pdf) -> list[pikepdf.Stream]:
    return [o for o in pdf.objects if isinstance(o, pikepdf.Stream)]


def _no_device_rgb(pdf: pikepdf.Pdf) -> None:
    for obj in pdf.objects:
        if isinstance(obj, (pikepdf.Dictionary, pikepdf.Stream)):
            assert obj.get("/ColorSpace") != Name.DeviceRGB
    for page in pdf.pages:
        assert not any(op in ("rg", "RG") for _, op in _ops(page))
    for stream in _all_streams(pdf):
        if stream.get("/Subtype") == Name.Form:
            assert not any(op in ("rg", "RG") for _, op in _ops(stream))
            assert b"/DeviceRGB" not in stream.read_bytes()


@pytest.fixture(scope="module")
def cmyk_sheet(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _render(tmp_path_factory.mktemp("cmyk"), color="cmyk", die_line=True)


def test_cmyk_sheet_is_pdfx4_with_output_intent_xmp_and_boxes(cmyk_sheet: Path) -> None:
    with pikepdf.open(cmyk_sheet) as pdf:
        assert pdf.pdf_version == "1.6"
        _no_device_rgb(pdf)
        intent = pdf.Root.OutputIntents[0]
        assert intent.S == Name.GTS_PDFX and str(intent.OutputConditionIdentifier) == "FOGRA39"
        profile = intent.DestOutputProfile
        assert int(profile.N) == 4 and profile.read_bytes() == cmyk_profile_bytes(300)
        assert str(pdf.trailer.Info.GTS_PDFXVersion) == "PDF/X-4"
        assert pdf.trailer.Info.Trapped == Name("/False")
        xmp = pdf.Root.Metadata.read_bytes().decode("utf-8")
        assert "<pdfxid:GTS_PDFXVersion>PDF/X-4</pdfxid:GTS_PDFXVersion>" in xmp and "Trapped>False<" in xmp
        for page in pdf.pages:
            media = [float(v) for v in page.MediaBox]
            assert [float(v) for v in page.TrimBox] == media and [float(v) for v in page.BleedBox] == media


def test_the_info_dictionary_and_the_xmp_say_the_same(cmyk_sheet: Path) -> None:
    """Preflight (PitStop) flagged "metadata inconsistent": Info's Producer was ReportLab's,
    the XMP's printdeck's, and the XMP had no description for Info's Subject. Read with
    pikepdf's own XMP reader."""
    with pikepdf.open(cmyk_sheet) as pdf:
        info = {key: str(pdf.trailer.Info.get(f"/{key}", "")) for key in ("Title", "Author", "Subject", "Keywords")}
        info["Producer"], info["Creator"] = str(pdf.trailer.Info.Producer), str(pdf.trailer.Info.Creator)
        meta = pdf.open_metadata()
        xmp = {
            "Title": meta.get("dc:title"),
            "Author": ", ".join(meta.get("dc:creator") or []),
            "Subject": meta.get("dc:description"),
            "Keywords": meta.get("pdf:Keywords"),
            "Producer": meta.get("pdf:Producer"),
            "Creator": meta.get("xmp:CreatorTool"),
        }
    assert info["Subject"] and info["Producer"].startswith("printdeck")
    assert xmp == info


def test_marks_and_sheet_text_are_100_percent_black(cmyk_sheet: Path) -> None:
    with pikepdf.open(cmyk_sheet) as pdf:
        ops = _ops(pdf.pages[0])
    strokes = [[float(v) for v in o] for o, op in ops if op == "K"]
    fills = [[float(v) for v in o] for o, op in ops if op == "k"]
    assert [0.0, 0.0, 0.0, 1.0] in strokes  # the cut marks
    assert [0.0, 0.0, 0.0, 1.0] in fills  # the footer text
    assert all(sum(c) <= 3.0 + 1e-6 for c in strokes + fills)  # total ink 300 %


def test_die_line_is_an_overprinting_cutcontour_separation_on_its_own_layer(cmyk_sheet: Path) -> None:
    with pikepdf.open(cmyk_sheet) as pdf:
        ocgs = pdf.Root.OCProperties.OCGs
        assert [str(g.Name) for g in ocgs] == ["Die line (CutContour)"]
        page = pdf.pages[0]
        assert page.Resources.Properties.DieLine.objgen == ocgs[0].objgen
        spaces = page.Resources.ColorSpace
        separations = [cs for cs in spaces.values() if isinstance(cs, pikepdf.Array) and cs[0] == Name.Separation]
        assert [str(cs[1]) for cs in separations] == ["/CutContour"]
        assert separations[0][2] == Name.DeviceCMYK
        assert any(bool(gs.get("/OP", False)) for gs in page.Resources.ExtGState.values())
        ops = _ops(page)
        start = next(i for i, (o, op) in enumerate(ops) if op == "BDC" and o[0] == Name.OC)
        inside = [op for _, op in ops[start : start + 40]]
        assert "SCN" in inside or "SC" in inside
        assert inside.index("EMC") > inside.index("S")  # the stroke is inside the marked content
        assert sum(1 for o, op in ops if op == "BDC" and o[0] == Name.OC) == 6  # one a card on the sheet
        dashes = [list(o[0]) for o, op in ops if op == "d" and len(o[0])]
        assert not dashes  # no scissors' hairline on the die's path: a die that drifts would show it


def _alpha_theme(folder: Path) -> printdeck.Theme:
    """The tiny theme with one PNG symbol that has real transparency (a soft-edged disc)."""
    size = 400
    yy, xx = np.mgrid[:size, :size]
    alpha = np.clip((190.0 - np.hypot(xx - 200, yy - 200)) * 8, 0, 255).astype(np.uint8)
    rgba = np.dstack([np.full_like(alpha, 200), np.full_like(alpha, 30), np.full_like(alpha, 60), alpha])
    Image.fromarray(rgba, "RGBA").save(folder / "disc.png")
    art = [f"@assets/twemoji/{n}.svg" for n in ("anchor", "apple", "bee", "bell", "bicycle", "broom")]
    return tiny_theme(folder, symbols=["disc.png", *art])


def test_picture_with_alpha_is_composited_no_smask_in_x1a(tmp_path: Path) -> None:
    theme = _alpha_theme(tmp_path)
    spec = theme.spec.model_copy(
        update={"paper": theme.spec.paper.model_copy(update={"color": "cmyk", "pdfx": "x-1a", "ink_limit": 240})}
    )
    theme = type(theme)(**{**theme.__dict__, "spec": spec})
    out = tmp_path / "x1a.pdf"
    imp = impose(paper_size_mm("a4"), 85.0, 3.0, 5.0, 4.0, 7)
    render_pdf(print_job(theme), symbols_of(theme), fano_layouts(7), imp, out)
    with pikepdf.open(out) as pdf:
        assert pdf.pdf_version == "1.4"
        assert str(pdf.trailer.Info.GTS_PDFXVersion) == "PDF/X-1:2003"  # ISO 15930-4: the version ...
        assert str(pdf.trailer.Info.GTS_PDFXConformance) == "PDF/X-1a:2003"  # ... and its conformance level
        xmp = bytes(pdf.Root.Metadata.read_bytes()).decode("utf-8")
        assert "<pdfx:GTS_PDFXVersion>PDF/X-1:2003<" in xmp and "<pdfx:GTS_PDFXConformance>PDF/X-1a:2003<" in xmp
        assert "/OCProperties" not in pdf.Root
        _no_device_rgb(pdf)
        images = [s for s in _all_streams(pdf) if s.get("/Subtype") == Name.Image]
        assert images and all("/SMask" not in s for s in images)
        assert all(s.ColorSpace == Name.DeviceCMYK for s in images)
        cmyk = np.asarray(pikepdf.PdfImage(images[0]).as_pil_image(), dtype=float)
        assert (cmyk.sum(axis=2) / 255.0 * 100.0).max() <= 240.0 + 2.0  # the ink limit, rounding aside


def test_single_pages_have_trim_and_bleed_and_extras_elsewhere(tmp_path: Path) -> None:
    out = _render(tmp_path, single=True, color="cmyk")
    with pikepdf.open(out) as pdf:
        assert len(pdf.pages) == 14
        for page in pdf.pages:
            trim = [round(float(v) / 72 * 25.4, 2) for v in page.TrimBox]
            assert trim == [3.0, 3.0, 88.0, 88.0]
    with pikepdf.open(extras_file(out)) as extras:  # the Twemoji credit: a page of its own, in its own file
        assert len(extras.pages) == 1


@pytest.mark.skipif(GS is None, reason="Ghostscript (gs) not installed")
@pytest.mark.parametrize("alpha", [False, True])
def test_ghostscript_pdfx_conversion_keeps_marks_as_vectors(tmp_path: Path, alpha: bool) -> None:
    """The best preflight available here (no veraPDF): Ghostscript converts the file as
    PDF/X without errors and without turning the sheet into one image."""
    theme = _alpha_theme(tmp_path) if alpha else tiny_theme(tmp_path)
    spec = theme.spec.model_copy(update={"paper": theme.spec.paper.model_copy(update={"color": "cmyk"})})
    theme = type(theme)(**{**theme.__dict__, "spec": spec})
    src, out = tmp_path / "in.pdf", tmp_path / "gs.pdf"
    imp = impose(paper_size_mm("a4"), 85.0, 3.0, 5.0, 4.0, 7)
    render_pdf(print_job(theme), symbols_of(theme), fano_layouts(7), imp, src)
    run = subprocess.run(
        [GS or "gs", "-q", "-dBATCH", "-dNOPAUSE", "-dSAFER", "-dPDFX", "-sDEVICE=pdfwrite",
         "-sColorConversionStrategy=CMYK", "-sProcessColorModel=DeviceCMYK", f"-sOutputFile={out}", str(src)],
        capture_output=True, text=True, check=False, timeout=300,
    )  # fmt: skip
    assert run.returncode == 0 and "error" not in (run.stdout + run.stderr).lower(), run.stdout + run.stderr
    with pikepdf.open(src) as before, pikepdf.open(out) as after:
        for page_in, page_out in zip(before.pages, after.pages):
            images_in, images_out = _page_images(page_in), _page_images(page_out)
            assert images_out <= max(images_in, 0) + 1  # not flattened into one big image
            ops = [op for _, op in _ops(page_out)]
            assert ops.count("S") + ops.count("l") >= 10  # the cut marks are still strokes


def test_embedded_cmyk_profile_of_a_jpeg_is_honoured(tmp_path: Path) -> None:
    path = tmp_path / "cyan.jpg"
    Image.new("CMYK", (8, 8), (255, 0, 0, 0)).save(path, "JPEG", icc_profile=cmyk_profile_bytes(300))
    with Image.open(path) as im:
        im.load()
        rgb = to_srgb(im).convert("RGB").getpixel((4, 4))
    assert rgb[0] < 40 and 120 < rgb[1] < 190 and rgb[2] > 200  # press cyan, not Pillow's naive (0, 255, 255)


def test_presets_build_and_deliver_what_each_service_asks(tmp_path: Path) -> None:
    theme = tiny_theme(tmp_path, extras={"attribution": "Twemoji, CC BY 4.0"})
    got = {}
    for name in printdeck.presets():
        result = printdeck.build(theme, out=tmp_path / f"{name}.pdf", preset=name, seed=4)
        got[name] = result
        assert result.pdf_path.is_file()
    dtc = got["drivethrucards"]
    with pikepdf.open(dtc.pdf_path) as pdf:
        assert len(pdf.pages) == 2 * 7 and str(pdf.trailer.Info.GTS_PDFXConformance) == "PDF/X-1a:2003"
        first = _ops(pdf.pages[0])
        assert not any(op == "BT" for _, op in first)  # page 1 is a back (the rings pattern), page 2 a front
    assert [c["page"] for c in json.loads(dtc.manifest_path.read_text())["cards"]] == list(range(2, 15, 2))
    assert dtc.extras_path is not None and dtc.extras_path.is_file()
    tgc = got["tgc-circle"]
    assert len(tgc.png_paths) == 7 and tgc.back_paths and tgc.back_path == tgc.back_paths[0]  # as in 0.2.0
    with Image.open(tgc.png_paths[0]) as im:
        assert im.size == (1125, 1125) and im.info.get("icc_profile")
    assert (tgc.png_paths[0].parent / "CREDITS.txt").read_text(encoding="utf-8").count("CC BY 4.0") == 1
    jpgs = got["meinspiel-jpg"].png_paths
    assert jpgs[0].suffix == ".jpg"
    with pikepdf.open(got["offset-pdfx4"].pdf_path) as pdf:
        assert "/OCProperties" in pdf.Root and str(pdf.trailer.Info.GTS_PDFXVersion) == "PDF/X-4"


def test_same_theme_gives_the_same_pdfx_bytes(tmp_path: Path) -> None:
    first = _render(tmp_path, "a.pdf", single=True, color="cmyk", die_line=True)
    second = _render(tmp_path, "b.pdf", single=True, color="cmyk", die_line=True)
    assert first.read_bytes() == second.read_bytes()


def test_presets_are_listed_with_sources_and_a_wrong_name_is_refused() -> None:
    from click.testing import CliRunner

    from printdeck.cli import main

    listed = CliRunner().invoke(main, ["presets"])
    assert listed.exit_code == 0
    for name in ("tgc-circle", "drivethrucards", "meinspiel", "printplaygames", "offset-pdfx4"):
        assert f"{name}: " in listed.output
    assert listed.output.count("source: ") == len(printdeck.presets())
    wrong = CliRunner().invoke(main, ["build", "--preset", "kinkos"])
    assert wrong.exit_code == 2 and "--preset" in wrong.output


@pytest.mark.parametrize(
    "card",
    [
        {"diameter": None, "size": "poker", "corner_radius": "3mm"},  # refused: "card.diameter: only round cards"
        {"diameter": None, "size": "80mm"},  # card.size silently won: 80 mm cards, not 3.5 in
        {"diameter": None, "shape": "hexagon", "size": "80mm", "orientation": "flat"},
    ],
)
def test_a_round_preset_makes_its_own_cards_whatever_the_themes_shape(tmp_path: Path, card: dict) -> None:
    from printdeck.cardshape import ShapeKind
    from printdeck.pipeline import BuildOptions, apply_options
    from printdeck.theme.presets import PresetWarning

    theme = tiny_theme(tmp_path, card=card)
    round_theme = theme.spec.card.outline().kind == ShapeKind.CIRCLE
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        outline = apply_options(theme, BuildOptions(preset="tgc-circle")).spec.card.outline()
    assert outline.kind == ShapeKind.CIRCLE and outline.width_mm == pytest.approx(3.5 * 25.4)
    assert not round_theme or theme.spec.card.outline().width_mm == 80.0
    said = [str(w.message) for w in caught if issubclass(w.category, PresetWarning)]  # another shape: said
    theme_card = theme.spec.card.outline().describe()
    assert said == (
        []
        if round_theme
        else [
            "preset tgc-circle: the cards are a 88.9 mm circle (The Game Crafter, circle deck (3.5 in)), "
            f"not the theme's {theme_card}; choose another preset or leave it out to keep the theme's cards"
        ]
    )


@pytest.mark.parametrize(
    ("card", "preset", "want_mm"),
    [
        ({"diameter": None, "size": "poker"}, "drivethrucards", (2.5 * 25.4, 3.5 * 25.4)),  # the template's poker
        ({"diameter": None, "size": "bridge"}, "drivethrucards", (2.25 * 25.4, 3.5 * 25.4)),
        ({"diameter": None, "size": "poker"}, "meinspiel", (63.0, 88.0)),  # a metric press: printdeck's poker
        ({"diameter": None, "shape": "rectangle", "size": ["63mm", "88mm"]}, "drivethrucards", (63.0, 88.0)),
    ],
)
def test_a_named_size_is_the_service_s_own(tmp_path: Path, card: dict, preset: str, want_mm: tuple) -> None:
    """``card.size: poker`` is the metric 63 x 88 mm, which DriveThruCards' 2.5 x 3.5 in
    template refused (a page 0.5 mm too narrow): a preset cuts a named size to the
    service's own; a size the theme gives in millimetres stays the theme's."""
    from printdeck.pipeline import BuildOptions, apply_options

    theme = tiny_theme(tmp_path, card=card)
    outline = apply_options(theme, BuildOptions(preset=preset)).spec.card.outline()
    assert (outline.width_mm, outline.height_mm) == pytest.approx(want_mm)
    assert outline.kind == theme.spec.card.outline().kind


def test_a_drivethrucards_poker_page_is_the_template_s(tmp_path: Path) -> None:
    result = printdeck.build(
        tiny_theme(tmp_path, card={"diameter": None, "size": "poker"}), out=tmp_path / "p.pdf", preset="drivethrucards"
    )
    with pikepdf.open(result.pdf_path) as pdf:
        page = pdf.pages[1]
        assert [round(float(v), 2) for v in page.MediaBox] == [0, 0, 2.75 * 72, 3.75 * 72]  # 825 x 1125 px at 300 dpi
        assert [round(float(v), 2) for v in page.TrimBox] == [9.0, 9.0, 9.0 + 2.5 * 72, 9.0 + 3.5 * 72]


@pytest.mark.parametrize(("option", "value"), [("--pdfx", "x-1a"), ("--ink-limit", "240")])
def test_pdfx_options_on_an_rgb_build_are_refused_not_dropped(tmp_path: Path, option: str, value: str) -> None:
    # `build --pdfx x-1a` wrote a plain RGB PDF, no PDF/X and no word said
    from click.testing import CliRunner

    from printdeck.cli import main

    out = tmp_path / "deck.pdf"
    result = CliRunner().invoke(main, ["build", str(write_theme(tmp_path)), "-o", str(out), option, value])
    assert result.exit_code == 2 and not out.exists() and not out.with_suffix(".json").exists()
    lines = [line for line in result.output.splitlines() if line]
    assert len(lines) == 1 and option in lines[0] and "--color cmyk" in lines[0] and "Traceback" not in result.output
    cmyk = CliRunner().invoke(
        main, ["build", str(write_theme(tmp_path)), "-o", str(out), option, value, "--color", "cmyk"]
    )
    assert cmyk.exit_code == 0 and out.is_file()


def test_a_die_line_on_pdfx_1a_is_said_of_the_option_typed(tmp_path: Path) -> None:
    """``--die-line`` with ``--pdfx x-1a`` was refused as ``paper.die_line``, a key the user
    never wrote; the clash is now said of the option, with a fix in either's words."""
    from click.testing import CliRunner

    from printdeck.cli import main

    out = tmp_path / "deck.pdf"
    args = ["build", str(write_theme(tmp_path)), "-o", str(out), "--color", "cmyk", "--pdfx", "x-1a", "--die-line"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2 and not out.exists()
    assert result.output.strip() == (
        "printdeck: error: --die-line: PDF/X-1a has no layers to keep the die line off the print; "
        "make the file PDF/X-4, or leave the die line out"
    )
    theme = write_theme(tmp_path, paper={"die_line": True, "color": "cmyk"})  # the die line the theme's
    result = CliRunner().invoke(main, ["build", str(theme), "-o", str(out), "--pdfx", "x-1a"])
    assert result.exit_code == 2 and f"error: {theme}: paper.die_line: PDF/X-1a has no layers" in result.output


def test_a_cmyk_photos_pixels_stay_within_the_ink_limit(tmp_path: Path) -> None:
    """A print shop's preflight reads a JPEG's pixels: JPEG compression after the ink limit
    raised the darkest edges to 247 % where the file declared 240 %. Every decoded pixel of
    every picture now holds the limit."""
    import io

    from test_theme_support import write_theme as write_yaml

    rng = np.random.default_rng(5)
    pixels = np.full((480, 640, 3), 250, np.uint8)
    for _ in range(60):  # sharp-edged dark, saturated blocks on white: JPEG's worst case
        x, y = rng.integers(0, 600), rng.integers(0, 440)
        pixels[y : y + 40, x : x + 40] = rng.choice([(10, 10, 60), (60, 0, 20), (0, 30, 10), (5, 5, 5)])
    Image.fromarray(pixels).save(tmp_path / "night.jpg", quality=95)
    theme = write_yaml(
        tmp_path,
        {
            "deck": {"symbols_per_card": 3},
            "symbols": [{"photo": "night.jpg"}]
            + [{"text": w} for w in ("sun", "moon", "star", "tree", "fish", "bird")],
        },
    )
    out = tmp_path / "deck.pdf"
    printdeck.build(theme, out=out, color="cmyk", ink_limit=240)
    with pikepdf.open(out) as pdf:
        jpegs = [s for s in _all_streams(pdf) if s.get("/Subtype") == Name.Image and s.get("/Filter") == Name.DCTDecode]
        assert jpegs
        for stream in jpegs:
            with Image.open(io.BytesIO(stream.read_raw_bytes())) as decoded:
                ink = np.asarray(decoded.convert("CMYK"), dtype=float).sum(axis=2) / 255.0 * 100.0
            assert str(stream.ColorSpace) == "/DeviceCMYK"
            assert ink.max() <= 240.0, ink.max()


@pytest.mark.parametrize(
    ("color", "bleed", "warned"), [("cmyk", "0mm", True), ("rgb", "0mm", False), ("cmyk", "3mm", False)]
)
def test_a_press_file_without_bleed_is_warned_about_by_build_and_check(
    tmp_path: Path, color: str, bleed: str, warned: bool
) -> None:
    """A designer's CMYK PDF/X-4 with ``bleed: 0`` was written without a word; a print shop
    sends such a file back (a cut a little off the line leaves a white edge)."""
    from printdeck.pipeline import BuildOptions, apply_options
    from printdeck.theme import PressWarning

    theme = tiny_theme(tmp_path, card={"bleed": bleed}, paper={"color": color})
    for call in (lambda: apply_options(theme, BuildOptions()), lambda: printdeck.check_theme(theme)):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            call()
        said = [str(w.message) for w in caught if issubclass(w.category, PressWarning)]
        assert said == (
            [
                "card.bleed: 0mm in a press file: print shops ask for bleed beyond the cut (3 mm, or 1/8 in), "
                "or a cut a little off the line leaves a white edge; set card.bleed: 3mm"
            ]
            if warned
            else []
        )


def test_cut_files_or_marks_asked_of_one_card_a_page_are_warned_about(tmp_path: Path) -> None:
    """A designer's cut files and registration marks were dropped without a word when the
    deck was printed one card a page (a preset, or --layout single)."""
    from printdeck.pipeline import BuildOptions, apply_options
    from printdeck.theme import PressWarning

    theme = tiny_theme(tmp_path, paper={"cut_files": True, "registration_marks": True})
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        apply_options(theme, BuildOptions(layout="single"))
    said = [str(w.message) for w in caught if issubclass(w.category, PressWarning)]
    assert [line.split(":")[0] for line in said] == ["paper.cut_files", "paper.registration_marks"], said
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        apply_options(theme, BuildOptions())  # on sheets: both are made
    assert not [w for w in caught if issubclass(w.category, PressWarning)]


@pytest.mark.parametrize(
    "deck, paper, warned",
    [
        ({"copies": 3}, {"cuts": "shared", "pack": True}, True),
        ({"copies": 3}, {"cuts": "shared"}, False),  # each deck on sheets of its own
        ({"copies": 3}, {"pack": True}, False),  # each card its own bleed
        ({}, {"cuts": "shared", "pack": True}, False),  # one deck, one back colour
    ],
)
def test_decks_whose_backs_meet_at_a_shared_cut_are_warned_about(
    tmp_path: Path, deck: dict[str, object], paper: dict[str, object], warned: bool
) -> None:
    """A class set packed on sheets with shared cuts put deck A's back beside deck B's with
    no bleed between them (a cut 1 mm off shows the other colour), without a word."""
    from printdeck.pipeline import BuildOptions, apply_options
    from printdeck.theme import PressWarning

    card = {"diameter": None, "shape": "square", "size": "60mm"}
    theme = tiny_theme(tmp_path, card=card, deck=deck, paper=paper)
    for call in (lambda: apply_options(theme, BuildOptions()), lambda: printdeck.check_theme(theme)):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            call()
        said = [str(w.message) for w in caught if issubclass(w.category, PressWarning)]
        assert [line.startswith("paper.cuts: shared with paper.pack") for line in said] == ([True] if warned else [])


def test_a_preset_that_says_no_marks_turns_every_mark_off(tmp_path: Path) -> None:
    """printplaygames ("no marks or cut guides") turned off the crop marks and the cut guide
    only: a theme's registration marks, punch rings, centre marks and cut files stayed on the
    file sent to the service."""
    from printdeck.pipeline import BuildOptions, apply_options

    marks = {"cut_marks", "cut_guide", "registration_marks", "punch_ring", "centre_mark", "cut_files"}
    theme = tiny_theme(tmp_path, paper=dict.fromkeys(marks, True))
    assert all(getattr(theme.spec.paper, key) for key in marks)
    for name, chosen in printdeck.presets().items():
        if "no marks" not in chosen.makes or chosen.theme.get("paper", {}).get("layout") == "single":
            continue  # one card a page draws no marks at all (see test_single_card_pages_...)
        paper = apply_options(theme, BuildOptions(preset=name)).spec.paper
        assert [key for key in sorted(marks) if getattr(paper, key)] == [], name


def test_an_option_that_undoes_a_presets_key_is_warned_about(tmp_path: Path) -> None:
    """``--preset drivethrucards --color rgb`` wrote an RGB file that is not PDF/X, exit 0 and
    not a word, though the service takes only a CMYK PDF/X-1a file. The options still win."""
    from printdeck.pipeline import BuildOptions, apply_options
    from printdeck.theme.presets import PresetWarning

    theme = tiny_theme(tmp_path, card={"diameter": None, "shape": "rectangle", "size": "poker"})  # DTC's template
    with pytest.warns(PresetWarning, match=r"preset drivethrucards: the build's options made paper\.color rgb \(it"):
        spec = apply_options(theme, BuildOptions(preset="drivethrucards", color="rgb")).spec
    assert spec.paper.color == "rgb"
    with warnings.catch_warnings():
        warnings.simplefilter("error", PresetWarning)
        apply_options(theme, BuildOptions(preset="drivethrucards"))  # the preset alone: nothing to say
        apply_options(theme, BuildOptions(preset="printplaygames", paper="215.9mmx279.4mm"))  # letter, in mm
    with pytest.warns(PresetWarning, match=r"made paper\.size 210mm x 297mm \(it asks for letter\)"):
        apply_options(theme, BuildOptions(preset="printplaygames", paper="210mmx297mm"))


def test_a_print_services_sheets_carry_no_home_printing_note_and_unshifted_backs(tmp_path: Path) -> None:
    """printplaygames' sheets kept the home printer's "Print at 100 %" note and 50 mm scale
    bar, and shifted the backs by the theme's duplex offsets (1.5 mm, 2 mm): the service
    registers its own duplex, so its backs came 2 mm off. Neither now, and the offsets
    dropped are said. Read from the PDF's text and its back page's pixels."""
    from pypdf import PdfReader

    from printdeck.theme.presets import PresetWarning

    backs = {"enabled": True, "color": "#2b4c7e", "pattern": "none", "offset_x": "1.5mm", "offset_y": "2mm"}
    write_theme(tmp_path, backs=backs, card={"background": "#f5cd79"})
    theme = tmp_path / "theme.yaml"
    home = printdeck.build(theme, out=tmp_path / "home.pdf").pdf_path
    with pytest.warns(PresetWarning, match=r"backs.offset_x/offset_y \(1.5mm, 2mm\) correct a home printer's"):
        shop = printdeck.build(theme, out=tmp_path / "shop.pdf", preset="printplaygames").pdf_path
    assert 'not "fit to page"' in PdfReader(home).pages[0].extract_text()
    assert 'not "fit to page"' not in PdfReader(shop).pages[0].extract_text()
    assert "0 1 2 3 4 5 cm" not in PdfReader(shop).pages[0].extract_text().replace("\n", " ")

    def blue_box(pdf: Path, page: int) -> tuple[int, int, int, int]:
        """The back colour's bounding box on ``page`` (0-based), pixels at 50 dpi."""
        rgb = np.asarray(printdeck.render.page_image(pdf.read_bytes(), page, 50 / 72).convert("RGB")).astype(int)
        ys, xs = np.nonzero(np.abs(rgb - (0x2B, 0x4C, 0x7E)).max(axis=2) < 12)
        return int(xs.min()), int(ys.min()), int(xs.max()), int(ys.max())

    fronts = np.asarray(printdeck.render.page_image(shop.read_bytes(), 0, 50 / 72).convert("RGB")).astype(int)
    ys, xs = np.nonzero(np.abs(fronts - (0xF5, 0xCD, 0x79)).max(axis=2) < 12)
    width = fronts.shape[1]
    mirrored = (width - 1 - int(xs.max()), int(ys.min()), width - 1 - int(xs.min()), int(ys.max()))
    assert all(abs(a - b) <= 1 for a, b in zip(blue_box(shop, 1), mirrored, strict=True))  # long-edge flip, unshifted


def test_a_card_off_the_services_templates_and_a_class_set_are_warned_about(tmp_path: Path) -> None:
    """A poker theme written as [63mm, 88mm] went to DriveThruCards at 63 x 88 mm, not its
    2.5 x 3.5 in template (only card.size: poker is made that), and --copies 2 put two decks
    in the one file the service takes a deck in; neither was said."""
    from printdeck.pipeline import BuildOptions, apply_options
    from printdeck.theme.presets import PresetWarning

    card = {"diameter": None, "shape": "rectangle", "size": ["63mm", "88mm"]}
    theme = tiny_theme(tmp_path, card=card)
    with pytest.warns(
        PresetWarning, match=r"a 63 x 88 mm card is none of DriveThruCards .*set card.size to one of poker"
    ):
        apply_options(theme, BuildOptions(preset="drivethrucards"))
    theme = tiny_theme(tmp_path, card={**card, "size": "poker"})
    with warnings.catch_warnings():
        warnings.simplefilter("error", PresetWarning)
        apply_options(theme, BuildOptions(preset="drivethrucards"))  # its template: nothing to say
    with pytest.warns(PresetWarning, match=r"takes one deck a file, and deck.copies makes one file of 3 decks"):
        apply_options(theme, BuildOptions(preset="drivethrucards", copies=3))


def test_each_embedded_font_subset_has_a_tag_of_its_own(tmp_path: Path) -> None:
    """ReportLab tagged every font's first subset AAAAAA+ (Vera and Vera Bold alike), though
    ISO 32000-1 (9.6.4) asks different subsets for different tags, which a preflight checks.
    A press file's subsets now carry distinct tags, the same on every build."""
    out = _render(tmp_path, "tags.pdf", color="cmyk")
    with pikepdf.open(out) as pdf:
        fonts = [o for o in pdf.objects if isinstance(o, pikepdf.Dictionary) and o.get("/Type") == Name.Font]
        names = [str(f.BaseFont)[1:] for f in fonts]
        assert len(names) >= 2, names  # the footer's two faces, at least
        tags = [name.split("+")[0] for name in names]
        assert len(set(tags)) == len(tags) and all(len(t) == 6 and t.isupper() for t in tags), names
        assert "AAAAAA" not in tags
        for font in fonts:
            assert font.FontDescriptor.FontName == font.BaseFont
    again = _render(tmp_path, "tags-again.pdf", color="cmyk")
    assert out.read_bytes() == again.read_bytes()
