"""The PDF checked from the file itself: boxes, card and back positions, marks, fonts, reuse."""

from __future__ import annotations

import math
import shutil
import subprocess
from pathlib import Path

import pytest
from PIL import Image
from pypdf import PdfReader
from pypdf.generic import IndirectObject
from test_render_support import (
    BACK_COLOR,
    BACKGROUND,
    PageImage,
    close,
    fano_layouts,
    print_job,
    symbols_of,
    tiny_theme,
)

from printdeck.render import extras_file, impose, paper_size_mm, render_pdf
from printdeck.theme import PressWarning, Theme

A4 = (210.0, 297.0)
R, B = 42.5, 3.0


def _render(
    tmp: Path, theme: Theme, name: str, n_cards: int = 7, single: bool = False, **extras: bool
) -> tuple[Path, int]:
    theme_spec = theme.spec
    imp = impose(
        paper_size_mm(theme_spec.paper.size),
        theme_spec.card.diameter_mm,
        theme_spec.card.bleed_mm,
        theme_spec.paper.margin_mm,
        theme_spec.paper.gap_mm,
        n_cards,
        single=single,
    )
    out = tmp / name
    pages = render_pdf(print_job(theme, **extras), symbols_of(theme), fano_layouts(n_cards), imp, out)
    return out, pages


@pytest.fixture(scope="module")
def sheet(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, int, Theme]:
    """7 cards on A4 (6 + 1), long-edge backs shifted (1.5, -1) mm, legend and rules."""
    tmp = tmp_path_factory.mktemp("sheet")
    theme = tiny_theme(tmp, backs={"offset_x": "1.5mm", "offset_y": "-1mm"})
    out, pages = _render(tmp, theme, "deck.pdf", backs=True, legend=True, rules=True)
    return out, pages, theme


def test_page_count_and_boxes(sheet: tuple[Path, int, Theme]) -> None:
    pdf, pages, _ = sheet
    reader = PdfReader(pdf)
    assert pages == len(reader.pages) == 2 * 2 + 1 + 1  # 2 fronts + 2 backs + legend + rules
    for page in reader.pages:
        assert [round(float(v) * 25.4 / 72, 2) for v in page.mediabox] == [0, 0, 210.0, 297.0]


def test_metadata_and_print_dialog_presets(sheet: tuple[Path, int, Theme]) -> None:
    reader = PdfReader(sheet[0])
    meta = reader.metadata
    assert meta.title == "Tiny Deck" and meta.author == "Test Author"
    assert "7 cards" in meta.subject
    prefs = reader.trailer["/Root"]["/ViewerPreferences"]
    assert prefs["/PrintScaling"] == "/None" and prefs["/Duplex"] == "/DuplexFlipLongEdge"


def test_every_font_is_embedded(sheet: tuple[Path, int, Theme]) -> None:
    reader = PdfReader(sheet[0])
    fonts = {}
    for page in reader.pages:
        for ref in page["/Resources"].get("/Font", {}).values():
            font = ref.get_object()
            fonts[font["/BaseFont"]] = font
    assert fonts, "the sheet has text"
    for name, font in fonts.items():
        descendant = font["/DescendantFonts"][0].get_object() if "/DescendantFonts" in font else font
        assert "/FontFile2" in descendant["/FontDescriptor"], f"{name} not embedded"
        assert "Helvetica" not in str(name)


def test_each_symbol_artwork_is_stored_once(sheet: tuple[Path, int, Theme]) -> None:
    reader = PdfReader(sheet[0])
    forms: dict[str, set[int]] = {}
    for page in reader.pages:
        for name, ref in page["/Resources"].get("/XObject", {}).items():
            if isinstance(ref, IndirectObject) and "sym" in name:
                forms.setdefault(name, set()).add(ref.idnum)
    assert len(forms) == 7  # the 7 symbols the cards use
    assert all(len(ids) == 1 for ids in forms.values())
    raw = sheet[0].read_bytes()
    assert raw.count(b"/Subtype /Form") <= 7 + 1  # symbols + the card back


def test_render_is_byte_identical(sheet: tuple[Path, int, Theme], tmp_path: Path) -> None:
    pdf, _, theme = sheet
    again, _ = _render(tmp_path, theme, "again.pdf", backs=True, legend=True, rules=True)
    assert again.read_bytes() == pdf.read_bytes()


def test_front_cards_bleed_marks_and_safe_zone(sheet: tuple[Path, int, Theme]) -> None:
    img = PageImage(sheet[0], 0, dpi=150)
    centers = [(57.5, 243.5), (152.5, 243.5), (57.5, 148.5), (152.5, 148.5), (57.5, 53.5), (152.5, 53.5)]
    for cx, cy in centers:
        for dx, dy in ((0.7071, 0.7071), (-0.7071, 0.7071), (0.7071, -0.7071), (-0.7071, -0.7071)):
            assert close(img.at(cx + dx * (R + B - 0.6), cy + dy * (R + B - 0.6)), BACKGROUND)  # bleed
            assert close(img.at(cx + dx * (R + B + 0.8), cy + dy * (R + B + 0.8)), "#ffffff")  # outside
            for r in (R - 2.7, R - 1.0, R + 1.0):  # safe zone and cut: only background
                assert close(img.at(cx + dx * r, cy + dy * r), BACKGROUND)
        # cut marks: a dark line at each tangent point, 1..3 mm beyond the bleed, not on the card
        mark = R + B + 2.0
        assert img.darkest(cx - 0.3, cy + mark - 0.5, cx + 0.3, cy + mark + 0.5) < 160
        assert img.darkest(cx + mark - 0.5, cy - 0.3, cx + mark + 0.5, cy + 0.3) < 160
        assert img.darkest(cx - 0.3, cy + R + B - 0.6, cx + 0.3, cy + R + B - 0.4) > 150  # no mark in the bleed


def test_footer_ruler_is_50_mm(sheet: tuple[Path, int, Theme]) -> None:
    img = PageImage(sheet[0], 0, dpi=300)
    # ruler baseline along y = 10 - 0.3 mm, bar from x = 79 to 129 mm (block centred on the page)
    row = round((297.0 - 9.7) / 25.4 * 300)
    dark = [c for c in range(img.rgb.shape[1]) if img.rgb[row - 1 : row + 2, c].max(axis=1).min() < 128]
    assert dark and abs((dark[-1] - dark[0]) * 25.4 / 300 - 50.0) < 0.3


def test_backs_are_mirrored_and_offset(sheet: tuple[Path, int, Theme]) -> None:
    back = PageImage(sheet[0], 3, dpi=100)  # back of sheet 2: card 7 alone, front at (57.5, 243.5)
    bx, by = 210.0 - 57.5 + 1.5, 243.5 - 1.0
    assert close(back.at(bx + R + B - 0.6, by), BACK_COLOR, tol=40)
    assert close(back.at(bx + R + B + 0.6, by), "#ffffff")
    assert close(back.at(bx, by - (R + B - 0.6)), BACK_COLOR, tol=40)
    assert close(back.at(bx, by - (R + B + 0.6)), "#ffffff")
    assert close(back.at(57.5, 243.5), "#ffffff")  # not at the unmirrored place
    full = PageImage(sheet[0], 1, dpi=50)  # back of sheet 1: all six places (symmetric grid)
    for cx, cy in [(57.5, 243.5), (152.5, 148.5), (57.5, 53.5)]:
        assert close(full.at(cx + 1.5 + R, cy - 1.0), BACK_COLOR, tol=60)


def test_short_edge_backs_flip_vertically(tmp_path: Path) -> None:
    theme = tiny_theme(tmp_path, backs={"duplex": "short-edge"})
    out, _ = _render(tmp_path, theme, "short.pdf", backs=True)
    back = PageImage(out, 3, dpi=50)
    assert close(back.at(57.5, 297.0 - 243.5 + R), BACK_COLOR, tol=60)
    assert close(back.at(57.5, 243.5), "#ffffff")


def test_single_card_pages_have_trim_and_bleed_boxes(tmp_path: Path) -> None:
    theme = tiny_theme(tmp_path, paper={"layout": "single"})
    out, pages = _render(tmp_path, theme, "single.pdf", single=True, backs=True, legend=True)
    reader = PdfReader(out)
    assert pages == len(reader.pages) == 7 * 2  # fronts + backs; nothing else among the cards
    extras = PdfReader(extras_file(out))
    assert len(extras.pages) == 1 + 1  # the credits page, the legend
    mm = [
        [round(float(v) * 25.4 / 72, 3) for v in box]
        for box in (reader.pages[0].mediabox, reader.pages[0].trimbox, reader.pages[0].bleedbox)
    ]
    assert mm == [[0, 0, 91.0, 91.0], [3.0, 3.0, 88.0, 88.0], [0, 0, 91.0, 91.0]]
    assert [round(float(v) * 25.4 / 72) for v in extras.pages[-1].mediabox] == [0, 0, 210, 297]  # legend on A4
    img = PageImage(out, 0, dpi=100)
    assert close(img.at(45.5 + R + 2.0, 45.5), BACKGROUND)  # bleed reaches the page edge
    assert close(img.at(2.0, 2.0), "#ffffff")  # square corners outside the disc


def test_a_backs_offset_is_not_applied_to_one_card_a_page(tmp_path: Path) -> None:
    """A home printer's duplex correction (backs.offset_x 5 mm) shifted a print shop's back
    page: white showed 1.9 mm inside the cut. One card a page centres its back (a warning
    says the offset is not applied); sheets still take it."""
    offset = {"offset_x": "5mm", "offset_y": "1mm"}
    theme = tiny_theme(tmp_path, paper={"layout": "single"}, backs=offset)
    with pytest.warns(PressWarning, match=r"backs\.offset_x/offset_y: .*not applied"):  # as --backs turns them on
        out, _ = _render(tmp_path, theme, "single.pdf", single=True, n_cards=1, backs=True)
    back = PageImage(out, 1, dpi=100)
    for x, y in ((0.5, 45.5), (90.5, 45.5), (45.5, 0.5), (45.5, 90.5), (14.0, 14.0), (77.0, 77.0), (14.0, 77.0)):
        assert close(back.at(x, y), BACK_COLOR, tol=30), (x, y, back.at(x, y))  # the bleed, edge to edge


@pytest.mark.skipif(shutil.which("qpdf") is None, reason="qpdf not installed")
def test_qpdf_check_is_clean(sheet: tuple[Path, int, Theme]) -> None:
    run = subprocess.run(["qpdf", "--check", str(sheet[0])], capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "No syntax or stream encoding errors" in run.stdout


def test_progress_counts_cards(tmp_path: Path) -> None:
    theme = tiny_theme(tmp_path)
    imp = impose(A4, 85.0, 3.0, 5.0, 4.0, 7)
    steps: list[int] = []
    render_pdf(print_job(theme), symbols_of(theme), fano_layouts(7), imp, tmp_path / "p.pdf", steps.append)
    assert steps == [6, 1]


def test_cut_guide_border_and_back_image(tmp_path: Path) -> None:
    back = Image.new("RGB", (2400, 1200), "#e00000")
    back.paste("#0000e0", (1200, 0, 2400, 1200))  # left half red, right half blue; over 300 dpi on the back
    back.save(tmp_path / "back.png")
    theme = tiny_theme(
        tmp_path, card={"border_color": "#00a000"}, paper={"cut_guide": True}, backs={"image": "back.png"}
    )
    out, _ = _render(tmp_path, theme, "guide.pdf", backs=True, n_cards=1)
    front = PageImage(out, 0, dpi=300)
    cx, cy = 57.5, 243.5
    assert close(front.at(cx - R + 0.7, cy), "#00a000", tol=40)  # border ring just inside the cut
    hits = sum(
        front.darkest(
            cx + R * math.cos(a) - 0.1,
            cy + R * math.sin(a) - 0.1,
            cx + R * math.cos(a) + 0.1,
            cy + R * math.sin(a) + 0.1,
        )
        < 200
        for a in (math.radians(d) for d in range(200, 340, 2))
    )
    assert 15 < hits < 65  # a dashed circle on the cut line: some dashes, some gaps
    img = PageImage(out, 1, dpi=100)
    bx = 210.0 - cx  # cover-fitted image, clipped to the bleed disc, not mirrored itself
    assert close(img.at(bx - 20.0, cy), "#e00000", tol=30)
    assert close(img.at(bx + 20.0, cy), "#0000e0", tol=30)
    assert close(img.at(bx, cy + R + B + 0.7), "#ffffff")
