"""The words' colours on the card's background: the default palette keeps to the colours
that show on it (a black card drops the near-black and gains white), colours a theme gives
are used as given and refused where they do not show, and the printed words show."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pypdfium2
import pytest
from test_theme_support import small_theme

import printdeck
from printdeck.render import PaleWordWarning
from printdeck.theme import GREY_WORD_PALETTE, MIN_WORD_CONTRAST, WORD_PALETTE, contrast_ratio, shows_on, word_colours


def _spec(**overrides: object):
    return printdeck.load_theme(small_theme(**overrides)).spec


def test_the_default_palette_is_unchanged_on_a_white_card() -> None:
    assert word_colours(_spec()) == WORD_PALETTE
    assert word_colours(_spec(paper={"grayscale": True})) == GREY_WORD_PALETTE


@pytest.mark.parametrize("background", ["#000000", "#1a1a1a", "#2b4c7e", "#ffffff", "#f0e442", "#ffe8c0", "#808080"])
def test_the_default_palette_keeps_the_colours_that_read_on_the_card(background: str) -> None:
    """A teacher's deck on a black card printed "canard" in near-black and indigo, which
    pass a channel's difference but are hardly seen: the default palette keeps the colours
    whose contrast reads (:data:`MIN_WORD_CONTRAST`), not merely those that show."""
    for grey in (False, True):
        colours = word_colours(_spec(card={"background": background}, paper={"grayscale": grey}))
        assert colours and len(colours) <= len(GREY_WORD_PALETTE if grey else WORD_PALETTE)
        assert all(shows_on(c, background) for c in colours), (background, grey, colours)
        if not grey:
            assert all(contrast_ratio(c, background) >= MIN_WORD_CONTRAST for c in colours), (background, colours)
        assert len(set(colours)) == len(colours)


def test_contrast_ratio_is_wcag_2s() -> None:
    """WCAG 2's contrast ratio of relative luminances (W3C's worked values)."""
    assert contrast_ratio("#000000", "#ffffff") == pytest.approx(21.0)
    assert contrast_ratio("#ffffff", "#ffffff") == pytest.approx(1.0)
    assert contrast_ratio("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)
    assert contrast_ratio("#ffff00", "#ffffff") == contrast_ratio("#ffffff", "#ffff00") == pytest.approx(1.07, abs=0.01)


@pytest.mark.parametrize("background", ["#0000ff", "#ff0000", "#1d3557"])
def test_a_grey_decks_words_show_on_the_grey_its_card_prints_as(background: str) -> None:
    from printdeck.theme.word_colours import _grey_of

    grey = _grey_of(background)
    colours = word_colours(_spec(card={"background": background}, paper={"grayscale": True}))
    assert len(colours) == len(GREY_WORD_PALETTE) and all(shows_on(c, grey) for c in colours), (grey, colours)


def test_colours_the_theme_gives_are_used_as_given_and_refused_where_they_do_not_show(tmp_path: Path) -> None:
    given = ["#ffffff", "#ffff00"]
    assert word_colours(_spec(card={"background": "#000000"}, text={"colors": given})) == tuple(given)
    with pytest.raises(printdeck.PrintdeckError, match=r"text\.colors: #1a1a1a does not show on the card background"):
        printdeck.build(
            small_theme(card={"background": "#000000"}, text={"colors": ["#ffffff", "#1a1a1a"]}),
            out=tmp_path / "deck.pdf",
        )
    assert not (tmp_path / "deck.pdf").exists()


def test_pale_word_colours_a_theme_gives_are_warned_about_by_check_and_build(tmp_path: Path) -> None:
    """A teacher's yellow, pale yellow, khaki and gold words on white cards passed check and
    build without a word, and printed almost invisible: each colour under the contrast
    that reads is named, with its ratio and the fix, once; the deck is still made."""
    pale = ["#0072b2", "#ffff00", "#ffff99", "#f0e68c", "#ffd700"]
    theme = small_theme(text={"colors": pale})
    with pytest.warns(PaleWordWarning) as check_warned:
        printdeck.check_theme(theme)
    with pytest.warns(PaleWordWarning) as build_warned:
        result = printdeck.build(theme, out=tmp_path / "deck.pdf")
    assert result.pdf_path.exists()
    for warned in (check_warned, build_warned):
        lines = [str(w.message) for w in warned if "text.colors" in str(w.message)]
        assert len(lines) == 1, lines
        assert all(c in lines[0] for c in pale[1:]) and "#0072b2" not in lines[0], lines
        assert "1.07:1" in lines[0] and "darker" in lines[0] and " are hard to read" in lines[0]
    with pytest.warns(PaleWordWarning, match=r"#ffff00 \(1\.07:1\) on the card background #ffffff is hard to read"):
        printdeck.check_theme(small_theme(text={"colors": ["#0072b2", "#ffff00"]}))


def test_words_on_a_black_card_print_in_colours_that_show(tmp_path: Path) -> None:
    result = printdeck.build(small_theme(card={"background": "#000000"}), out=tmp_path / "deck.pdf")
    doc = pypdfium2.PdfDocument(str(result.pdf_path))
    try:
        page = np.asarray(doc[0].render(scale=1.0).to_pil().convert("RGB")).astype(int)
    finally:
        doc.close()
    card = page[(page.max(axis=2) < 250)]  # the cards (and marks), not the white paper
    black = (card.max(axis=1) <= 8).mean()
    ink = card[card.max(axis=1) > 40 + 8]  # the words, with their antialiased edges less
    assert black > 0.5 and len(ink) > 200, (black, len(ink))
    near_black = np.array([0x1A, 0x1A, 0x1A])
    assert not np.all(np.abs(ink - near_black).max(axis=1) <= 20, axis=0).any()  # no word in the near-black
