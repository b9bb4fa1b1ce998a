"""The PNG folder: all-or-nothing replacement, no stale cards, text chunks with the credit."""

from __future__ import annotations

import dataclasses
import io
import itertools
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageCms
from test_render_support import fano_layouts, print_job, symbols_of, tiny_theme

import printdeck
from printdeck.errors import PrintdeckError
from printdeck.render import render_pngs


def test_smaller_deck_leaves_no_stale_cards(tmp_path: Path) -> None:
    theme = tiny_theme(tmp_path)
    out = tmp_path / "cards"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    render_pngs(print_job(theme), symbols_of(theme), fano_layouts(5), out, dpi=72)
    paths = render_pngs(print_job(theme), symbols_of(theme), fano_layouts(3), out, dpi=72)
    assert sorted(p.name for p in out.iterdir()) == [
        ".printdeck-pngs.json",
        "CREDITS.txt",  # the Twemoji credit, beside the cards
        "card-001.png",
        "card-002.png",
        "card-003.png",
        "notes.txt",
    ]
    assert [p.name for p in paths] == ["card-001.png", "card-002.png", "card-003.png"]
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".cards")]  # staging folder removed


def test_failed_build_leaves_the_folder_untouched(tmp_path: Path) -> None:
    theme = tiny_theme(tmp_path)
    out = tmp_path / "cards"
    render_pngs(print_job(theme), symbols_of(theme), fano_layouts(4), out, dpi=72)
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    symbols = symbols_of(theme)
    symbols[3] = dataclasses.replace(symbols[3], path=tmp_path / "gone.svg", source="gone.svg")
    with pytest.raises(PrintdeckError, match=r"gone\.svg"):  # card 1 is written, card 2 (symbol 3) fails
        render_pngs(print_job(theme), symbols, fano_layouts(2), out, dpi=72)
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".cards")]


def test_folder_is_created_and_a_file_is_refused(tmp_path: Path) -> None:
    theme = tiny_theme(tmp_path)
    paths = render_pngs(print_job(theme), symbols_of(theme), fano_layouts(1), tmp_path / "a" / "b", dpi=72)
    assert paths[0].is_file()
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(PrintdeckError, match="is a file"):
        render_pngs(print_job(theme), symbols_of(theme), fano_layouts(1), blocker, dpi=72)
    assert blocker.read_text() == "x"


def test_pngs_carry_title_and_artwork_credit(tmp_path: Path) -> None:
    theme = dataclasses.replace(tiny_theme(tmp_path), attribution="Art: Twemoji, CC BY 4.0 — Ünïcode")
    paths = render_pngs(print_job(theme), symbols_of(theme), fano_layouts(1), tmp_path / "out", dpi=72)
    with Image.open(paths[0]) as im:
        assert im.text["Title"] == "Tiny Deck"
        assert im.text["Copyright"] == "Art: Twemoji, CC BY 4.0 — Ünïcode"


def test_images_are_srgb_tagged_and_the_back_is_written_beside_them(tmp_path: Path) -> None:
    from printdeck.render import back_image

    theme = tiny_theme(tmp_path)
    job = print_job(theme, backs=True)
    assert job.backs is not None
    back = back_image(job.backs, job.card.radius_mm, job.card.bleed_mm, 72)
    for fmt in ("png", "jpg"):
        out = tmp_path / fmt
        paths = render_pngs(
            job, symbols_of(theme), fano_layouts(2), out, dpi=72, image_format=fmt, backs={"back": back}
        )
        assert [p.name for p in paths] == [f"card-001.{fmt}", f"card-002.{fmt}"]
        for path in (*paths, out / f"back.{fmt}"):
            with Image.open(path) as im:
                profile = ImageCms.getOpenProfile(io.BytesIO(im.info["icc_profile"]))
                assert "srgb" in ImageCms.getProfileDescription(profile).lower().replace(" ", "")
        with Image.open(out / f"back.{fmt}") as im:  # the back colour at the centre ring's gap, white corners
            rgb = im.convert("RGB")
            assert rgb.getpixel((2, 2)) == (255, 255, 255)
            r, _, b = rgb.getpixel((rgb.width // 2, rgb.height // 8))
            assert b > r + 60  # the blue back, not white


def test_a_long_title_on_the_backs_breaks_into_lines_that_fit_the_ring(tmp_path: Path) -> None:
    """A long title was set on one line, so small it could hardly be read: it breaks between
    words into lines as wide as the ring at their height, larger than the one line; a
    short title keeps its one line. Counted on the rasterised back."""
    from printdeck.render import back_image
    from printdeck.render.back_title import ONE_LINE_ENOUGH, title_layout
    from printdeck.render.pdf_fonts import register_bundled
    from printdeck.render.text import string_width

    register_bundled()
    radius_pt = 120.0
    short = title_layout("Animal Snap", radius_pt)
    assert short.lines == ("Animal Snap",) and short.size_pt >= ONE_LINE_ENOUGH * radius_pt
    long_title = "My Family's Summer Holiday Memories 2026"
    broken = title_layout(long_title, radius_pt)
    one_line = 1.4 * radius_pt / string_width(long_title, "PrintdeckSans-Bold", 1.0)
    assert len(broken.lines) >= 2 and " ".join(broken.lines) == long_title
    assert broken.size_pt >= 1.5 * one_line
    held = title_layout("The Holiday Cards of Dr.\u00a0Jekyll and Mr.\u00a0Hyde, vol.\u00a02", radius_pt)
    assert len(held.lines) >= 2 and not any(line.endswith(("Dr.", "Mr.", "vol.")) for line in held.lines)
    theme = tiny_theme(tmp_path)
    job = print_job(theme, backs=True)
    assert job.backs is not None

    def title_rows(title: str) -> int:
        design = dataclasses.replace(job.backs, title=title, pattern="title")
        rgb = np.asarray(back_image(design, job.card.radius_mm, 0.0, 150).convert("RGB")).astype(int)
        middle = rgb[:, rgb.shape[1] * 3 // 8 : rgb.shape[1] * 5 // 8]
        return int(((middle.min(axis=2) > 200).any(axis=1)).sum())  # rows with the title's light ink

    assert title_rows(long_title) > 2 * title_rows("Supercalifragilisticexpialidocious")


def test_a_long_chinese_or_japanese_title_breaks_between_characters() -> None:
    """A title without spaces in Chinese or Japanese had no break and shrank to one line;
    it breaks between characters, in lines of near equal length, no line starting with a
    small kana or the long-vowel mark."""
    from printdeck.artwork import unprintable_text
    from printdeck.render.back_title import NO_LINE_START, title_layout
    from printdeck.render.pdf_fonts import register_bundled

    register_bundled()
    for title in ("我的动物朋友们大家庭游戏卡片第二版", "どうぶつのなかまたちカードゲーム"):
        if unprintable_text(title) is not None:
            pytest.skip("no Chinese or Japanese font on this machine (fonts-noto-cjk)")
        layout = title_layout(title, 120.0)
        assert len(layout.lines) >= 2 and "".join(layout.lines) == title, layout.lines
        assert not any(line[0] in NO_LINE_START for line in layout.lines[1:]), layout.lines
        assert max(map(len, layout.lines)) - min(map(len, layout.lines)) <= 2


def test_a_japanese_title_with_a_latin_word_breaks_beside_the_japanese() -> None:
    """ "Kanji漢字カードゲーム大会" had no break (not every character was Japanese) and shrank to
    one line: it breaks between its Japanese characters, its Latin word kept whole."""
    from printdeck.artwork import unprintable_text
    from printdeck.render.back_title import NO_LINE_START, title_layout
    from printdeck.render.pdf_fonts import register_bundled

    register_bundled()
    titles = (
        ("Kanji漢字カードゲーム大会", "Kanji"),
        ("Familyかぞくのしゃしんカード", "Family"),
        ("日本語Flashcards", "Flashcards"),  # the Latin word at the end: never "Flashcard / s"
    )
    for title, word in titles:
        if unprintable_text(title) is not None:
            pytest.skip("no Japanese font on this machine (fonts-noto-cjk)")
        lines = title_layout(title, 120.0).lines
        assert len(lines) >= 2 and "".join(lines) == title, lines
        assert any(word in line for line in lines), lines  # the Latin word is never cut
        assert not any(line[0] in NO_LINE_START for line in lines[1:]), lines
    assert title_layout("Supercalifragilistic", 120.0).lines == ("Supercalifragilistic",)


def test_a_broken_mixed_script_title_keeps_its_words_in_order() -> None:
    """A title that mixes directions keeps the order of its words when it breaks into
    lines: each line is set in the title's direction, not its own (a second line starting
    with Arabic would otherwise run right to left and put the Hindi word before it)."""
    from printdeck.render.back_title import title_layout
    from printdeck.render.pdf_fonts import register_bundled
    from printdeck.render.text import SANS_BOLD, _shaped

    register_bundled()
    layout = title_layout("Words كلمات शब्द", 100.0)
    assert [line.lstrip("\u200e") for line in layout.lines] == ["Words", "كلمات शब्द"]
    faces = [face.path.name for face, start, end in _shaped(layout.lines[1], SANS_BOLD).runs if end > start]
    assert faces.index("NotoSansArabic-Regular.ttf") < faces.index("NotoSansDevanagari-Regular.ttf")  # left first
    lines = title_layout("كلمات الحيوانات Animal words", 100.0).lines  # a right-to-left title
    assert lines[0] == "كلمات الحيوانات" and all(line.startswith("\u200f") for line in lines[1:]), lines


def test_a_broken_title_drops_the_separator_where_it_breaks() -> None:
    """A title of two parts joined by a separator ("عائلتنا · हमारा परिवार") broke beside
    the dot, which then stood alone at a line's end (in the right-to-left title, at the far
    end of the Hindi line): a break beside a separator takes it out, and every word stays in
    order; a separator between words on one line stays."""
    from printdeck.render.back_title import SEPARATORS, title_layout
    from printdeck.render.pdf_fonts import register_bundled

    register_bundled()
    for title in ("عائلتنا · हमारा परिवार", "Our Big Family Photo Album – Summer Holidays 2026"):
        lines = [line.strip("\u200e\u200f") for line in title_layout(title, 100.0).lines]
        assert len(lines) >= 2, lines
        assert not any(line.split(" ")[0] in SEPARATORS or line.split(" ")[-1] in SEPARATORS for line in lines)
        words = [word for word in title.split(" ") if word not in SEPARATORS]
        assert [w for line in lines for w in line.split(" ") if w not in SEPARATORS] == words, lines
    assert title_layout("A · B", 100.0).lines == ("A · B",)  # one line: the dot kept


def test_a_japanese_title_breaks_at_its_middle_dot() -> None:
    """A Japanese title without spaces broke evenly with its "・" left at a line's end; it
    breaks at the dot, dropped there, unless that sets it much smaller; a title that starts
    or ends with a dot still breaks (only a break's own ends count)."""
    from printdeck.artwork import unprintable_text
    from printdeck.render.back_title import SEPARATORS, title_layout
    from printdeck.render.pdf_fonts import register_bundled

    register_bundled()
    if unprintable_text("わたしのかぞく・しゃしん") is not None:
        pytest.skip("no Japanese font on this machine (fonts-noto-cjk)")
    assert title_layout("わたしのかぞく・しゃしん", 120.0).lines == ("わたしのかぞく", "しゃしん")
    lines = title_layout("ぼくらのどうぶつ・かぞく", 120.0).lines  # there, too uneven: evenly, the dot inside
    assert len(lines) >= 2 and "".join(lines) == "ぼくらのどうぶつ・かぞく"
    assert not any(a[-1] in SEPARATORS or b[0] in SEPARATORS for a, b in itertools.pairwise(lines))
    for title in ("・わたしのかぞくしゃしんあそびたべもの", "かぞく・しゃしん・あそび・"):
        assert len(title_layout(title, 120.0).lines) >= 2, title


def test_cut_cards_are_refused_as_jpeg_which_has_no_transparency(tmp_path: Path) -> None:
    theme = tiny_theme(tmp_path)
    with pytest.raises(printdeck.PrintdeckError) as caught:
        printdeck.build(theme, out=tmp_path / "d.pdf", png_dir=tmp_path / "cards", png_cut=True, image_format="jpg")
    assert (caught.value.key, caught.value.is_argument) == ("png_cut", True)
    assert "JPEG has no transparency" in str(caught.value)
    assert not (tmp_path / "d.pdf").exists() and not (tmp_path / "cards").exists()


def test_an_image_format_with_no_images_to_write_is_refused(tmp_path: Path) -> None:
    """``--image-format jpg`` without ``--png-dir`` (or a preset that makes images) wrote the
    PDF and no image, without a word, as ``--png-cut`` alone once did."""
    theme = tiny_theme(tmp_path)
    with pytest.raises(printdeck.PrintdeckError) as caught:
        printdeck.build(theme, out=tmp_path / "d.pdf", image_format="jpg")
    assert (caught.value.key, caught.value.is_argument) == ("image_format", True)
    assert "--png-dir" in str(caught.value) and not (tmp_path / "d.pdf").exists()
    printdeck.build(theme, out=tmp_path / "d.pdf", image_format="jpg", png_dir=tmp_path / "cards")
    assert sorted(p.suffix for p in (tmp_path / "cards").glob("card-*")) == [".jpg"] * 7


def test_a_long_class_set_title_breaks_and_its_deck_letter_stays_large(tmp_path: Path) -> None:
    """A teacher's 88-letter title ("Vocabulario de animales de la granja para tercero de
    primaria, clase de la señora García") with a class set's " · A" made 18 words, past the
    words a title was broken at: it printed on one line about 1 mm tall, the deck's letter
    as small. The title now breaks (four lines for so long a title) and the letter prints
    large under it, underlined when it reads as another number upside down. Measured on
    the rasterised backs."""
    from printdeck.render import BackDeck, back_image, deck_back
    from printdeck.render.back_title import title_layout
    from printdeck.render.pdf_fonts import register_bundled

    register_bundled()
    title = "Vocabulario de animales de la granja para tercero de primaria, clase de la señora García"
    layout = title_layout(title, 120.0)
    assert len(layout.lines) == 4 and " ".join(layout.lines) == title
    assert layout.size_pt >= 0.1 * 120.0
    theme = tiny_theme(tmp_path)
    job = print_job(theme, backs=True)
    assert job.backs is not None
    design = dataclasses.replace(job.backs, title=title, pattern="title", color="#2b4c7e")
    radius_px = job.card.radius_mm / 25.4 * 200

    def ink_rows(letter: str) -> tuple[np.ndarray, int]:
        """Rows of the back's light ink (the title's and the letter's, inside the ring)."""
        back = back_image(deck_back(design, BackDeck(1, letter, "#2b4c7e")), job.card.radius_mm, 0.0, 200)
        rgb = np.asarray(back.convert("RGB")).astype(int)
        h, w, _ = rgb.shape
        top, bottom = round(h / 2 - 0.8 * radius_px), round(h / 2 + 0.8 * radius_px)  # inside the ring
        inner = rgb[top:bottom, round(w / 2 - 0.6 * radius_px) : round(w / 2 + 0.6 * radius_px)]
        return (inner.min(axis=2) > 200).any(axis=1), bottom - top

    rows, h = ink_rows("A")
    runs = np.flatnonzero(np.diff(np.concatenate([[0], rows.astype(int), [0]])))
    heights = runs[1::2] - runs[::2]  # each run of inked rows: a title line, or the letter
    assert len(heights) == 5, heights  # four lines, then the letter
    assert heights[-1] >= 2.5 * max(heights[:-1])  # the letter far larger than the title's lines
    assert runs[-2] > h / 2  # the letter below the centre, the title above it
    assert runs[0] < h / 2
    six, _ = ink_rows("6")
    nine_runs = np.flatnonzero(np.diff(np.concatenate([[0], six.astype(int), [0]])))
    assert len(nine_runs) // 2 == 6  # four lines, the 6 and the bar under it
