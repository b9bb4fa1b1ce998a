"""The artwork credit (CC BY) is never dropped; extra-page headings and legend names fit their room."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest
from pypdf import PdfReader
from reportlab.pdfbase import pdfmetrics
from test_render_support import PageImage, fano_layouts, print_job, symbols_of, tiny_theme

from printdeck.deck_plan import impose_theme
from printdeck.pipeline import BuildOptions, apply_options
from printdeck.render import extras_file, impose, render_pdf
from printdeck.render.extras import (
    LEAST_NAME_PT,
    LEGEND_CELL_MM,
    LEGEND_NAME_PT,
    MIN_NAME_PT,
    NAME_SIDE_MM,
    legend_name_lines,
)
from printdeck.render.pdf_fonts import SANS, register_bundled
from printdeck.render.sheet import CreditWarning, plan_footer
from printdeck.theme import Theme
from printdeck.units import mm_to_pt

CREDIT = "Artwork: Twemoji by Twitter, Inc and other contributors, CC BY 4.0"


def _render(tmp: Path, theme: Theme, n_cards: int = 7, single: bool = False, **extras: bool) -> Path:
    imp = impose_theme(apply_options(theme, BuildOptions(single=single)), n_cards)
    out = tmp / "deck.pdf"
    render_pdf(print_job(theme, **extras), symbols_of(theme), fano_layouts(n_cards), imp, out)
    return out


def _flat(text: str) -> str:
    return " ".join(text.split())


def test_single_layout_puts_its_credits_page_in_its_own_file(tmp_path: Path) -> None:
    theme = tiny_theme(tmp_path, paper={"layout": "single"}, extras={"attribution": CREDIT})
    out = _render(tmp_path, theme, single=True, n_cards=3)
    reader = PdfReader(out)
    assert len(reader.pages) == 3  # the cards only: a print shop prints every page it gets
    assert CREDIT in reader.metadata.subject
    extras = PdfReader(extras_file(out))
    assert len(extras.pages) == 1
    last = extras.pages[-1]
    assert [round(float(v) * 25.4 / 72) for v in last.mediabox] == [0, 0, 210, 297]  # the paper
    text = _flat(last.extract_text())
    assert CREDIT in text and "Tiny Deck" in text


def test_legend_and_rules_pages_carry_the_credit(tmp_path: Path) -> None:
    theme = tiny_theme(tmp_path, extras={"attribution": CREDIT})
    reader = PdfReader(_render(tmp_path, theme, legend=True, rules=True))
    extra_pages = reader.pages[2:]  # two front sheets, then legend and rules
    assert len(extra_pages) >= 2
    assert all(CREDIT in _flat(p.extract_text()) for p in extra_pages)


def test_long_title_heading_stays_on_the_page(tmp_path: Path) -> None:
    title = "The Extraordinarily Long Title Of A Classroom Deck About Animals Plants And Weather Everywhere"
    theme = tiny_theme(tmp_path, title=title)
    out = _render(tmp_path, theme, legend=True, rules=True, n_cards=1)
    for index in (1, 2):  # legend, rules
        page = PageImage(out, index, dpi=100)
        w, h = page.size_mm
        assert page.darkest(w - 11.0, h - 40.0, w - 0.5, h - 0.5) > 200  # right margin stays clear
        assert page.darkest(12.0, h - 40.0, w - 12.0, h - 12.0) < 100  # the heading is there


def test_long_credit_gets_smaller_type_instead_of_vanishing() -> None:
    imp = impose((210.0, 297.0), 85.0, 3.0, 5.0, 4.0, 7)
    credit = "Sheet 2/2 · Tiny Deck · " + "Artwork by many named contributors, " * 13
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        plan = plan_footer(imp, credit)
    assert plan.credit is not None
    assert plan.credit.size_pt >= 4.0
    assert _flat(" ".join(plan.credit.lines)) == _flat(credit)


def test_credit_that_cannot_fit_warns_naming_the_key() -> None:
    imp = impose((120.0, 120.0), 85.0, 3.0, 5.0, 4.0, 1)
    with pytest.warns(CreditWarning, match="extras.attribution"):
        plan = plan_footer(imp, "Sheet 1/1 · " + "Artwork by many named contributors, " * 13)
    assert plan.credit is None


@pytest.mark.parametrize(
    "name",
    [
        "Hippopotamus with a very long descriptive name indeed",
        "Pneumonoultramicroscopicsilicovolcanoconiosis-and-more",
        "a rather long descriptive name",
        "cat",
    ],
)
def test_legend_names_fit_their_cell(name: str) -> None:
    register_bundled()
    lines, size = legend_name_lines(name)
    assert 1 <= len(lines) <= 2 and size >= LEAST_NAME_PT
    room_pt = mm_to_pt(LEGEND_CELL_MM - 2 * NAME_SIDE_MM)
    assert all(pdfmetrics.stringWidth(line, SANS, size) <= room_pt for line in lines)
    if name == "cat":
        assert lines == ["cat"] and size == LEGEND_NAME_PT  # body text
    if name == "a rather long descriptive name":
        assert lines == ["a rather long", "descriptive name"] and size == MIN_NAME_PT  # two lines before smaller


def test_a_heading_round_a_right_to_left_title_reads_left_to_right() -> None:
    """ "<title>: symbol legend (13 symbols)" with an Arabic title: the sentence is English,
    so it is laid out left to right, the title one right-to-left run at its start; read
    alone it would be right to left and its closing bracket would land at the far left."""
    from printdeck.artwork.shaping import bidi_levels
    from printdeck.render.text import ltr_line

    heading = "لعبة الحيوانات: symbol legend (13 symbols)"
    assert bidi_levels(heading)[-1] == 1  # the bracket follows the Arabic paragraph's direction
    levels = bidi_levels(ltr_line(heading))
    assert levels[0] == 0 and levels[-1] == 0 and set(levels[1:15]) == {1}
    assert ltr_line("Animals: symbol legend (13 symbols)") == "Animals: symbol legend (13 symbols)"
    assert ltr_line("Животные: symbol legend") == "Животные: symbol legend"  # left to right already


def test_a_bold_heading_set_as_outlines_is_bold(tmp_path: Path) -> None:
    """A heading the embedded sans cannot set (an Arabic title) is drawn as outlines in a
    face with no bold; in the bold face it is stroked in its own colour, so it prints
    heavier than the regular line, as a Latin heading does (rasterised and counted)."""
    import io

    import numpy as np
    from reportlab.pdfgen.canvas import Canvas

    from printdeck.render import page_image
    from printdeck.render.pdf_fonts import SANS_BOLD
    from printdeck.render.text import draw_string

    register_bundled()

    def ink(font: str, text: str) -> int:
        buffer = io.BytesIO()
        canvas = Canvas(buffer, pagesize=(400, 60), invariant=1)
        canvas.setFont(font, 24)
        canvas.setFillColorRGB(0.2, 0.3, 0.6)
        draw_string(canvas, 10, 20, text)
        canvas.showPage()
        canvas.save()
        path = tmp_path / f"{font}.pdf"
        path.write_bytes(buffer.getvalue())
        pixels = np.asarray(page_image(path, 0, 150 / 72).convert("L"))
        return int((pixels < 200).sum())

    arabic = "حيوانات المزرعة"
    assert ink(SANS_BOLD, arabic) > 1.15 * ink(SANS, arabic)
    latin = ink(SANS_BOLD, "Farm animals") / ink(SANS, "Farm animals")  # Vera Bold, PDF text
    assert ink(SANS_BOLD, arabic) / ink(SANS, arabic) > 0.6 * latin


def test_the_twemoji_credit_stays_beside_a_credit_of_ones_own(tmp_path: Path) -> None:
    """The bundled pictures' licence (CC BY 4.0) asks for their credit: a theme's own
    ``extras.attribution`` used to replace it. It is kept beside it, once; and a bundled
    picture copied into the theme folder (the same bytes) still gets it."""
    from printdeck.api import build, load_theme
    from printdeck.resources import data_root
    from printdeck.theme.load import TWEMOJI_CREDIT

    words = [{"text": w} for w in ("sun", "moon", "star", "tree", "fish", "bird")]
    own = {
        "name": "c",
        "extras": {"attribution": "Photos by us"},
        "symbols": [{"image": "@assets/twemoji/cat.svg"}, *words],
    }
    assert load_theme(own).attribution == f"Photos by us \u00b7 {TWEMOJI_CREDIT}"
    said = {**own, "extras": {"attribution": "Artwork credit: Twemoji, CC BY 4.0"}}  # in the theme's own words
    assert load_theme(said).attribution == "Artwork credit: Twemoji, CC BY 4.0"
    (tmp_path / "pics").mkdir()
    (tmp_path / "pics" / "kitty.svg").write_bytes((data_root("assets") / "twemoji" / "cat.svg").read_bytes())
    lines = "".join(f"  - text: {w['text']}\n" for w in words)
    (tmp_path / "theme.yaml").write_text(f"name: c\nsymbols:\n  - image: pics/kitty.svg\n{lines}", encoding="utf-8")
    assert load_theme(tmp_path / "theme.yaml").attribution == TWEMOJI_CREDIT
    assert load_theme({"name": "w", "symbols": words + [{"text": "boat"}]}).attribution is None
    pdf = tmp_path / "deck.pdf"
    build(own, out=pdf)
    text = "".join(page.extract_text() for page in PdfReader(str(pdf)).pages)
    assert "Photos by us" in text and "Twemoji" in text


def test_the_latin_part_of_a_mixed_bold_heading_is_vera_bold(tmp_path: Path) -> None:
    """A bold heading mixing scripts ("Words كلمات") is set as outlines; its Latin letters
    come from Vera Bold itself (not Vera stroked, which printed lighter), so they print as
    the same word does as PDF text, and only the Arabic, whose face has no bold, is
    stroked (rasterised: the Latin word's ink and place, then the Arabic heavier)."""
    import io

    import numpy as np
    from reportlab.pdfgen.canvas import Canvas

    from printdeck.render import page_image
    from printdeck.render.pdf_fonts import SANS_BOLD
    from printdeck.render.text import draw_string

    register_bundled()

    def pixels(font: str, text: str) -> np.ndarray:
        buffer = io.BytesIO()
        canvas = Canvas(buffer, pagesize=(400, 60), invariant=1)
        canvas.setFont(font, 24)
        draw_string(canvas, 10, 20, text)
        canvas.showPage()
        canvas.save()
        path = tmp_path / f"{font}-{len(text)}.pdf"
        path.write_bytes(buffer.getvalue())
        return np.asarray(page_image(path, 0, 150 / 72).convert("L")) < 128

    mixed, latin = pixels(SANS_BOLD, "Words كلمات"), pixels(SANS_BOLD, "Words")
    columns = np.nonzero(latin.any(axis=0))[0]
    left = slice(0, columns.max() + 2)  # where "Words" prints, in both
    assert abs(int(mixed[:, left].sum()) - int(latin[:, left].sum())) < 0.03 * latin.sum()
    arabic = slice(columns.max() + 2, None)
    assert mixed[:, arabic].sum() > 1.1 * pixels(SANS, "Words كلمات")[:, arabic].sum()
