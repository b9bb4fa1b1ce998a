"""A font the theme chose that lacks letters of some words: those words printed in another
font with no word said (a card mixing two typefaces, or a font with no Latin letters
silently replaced for every word). check and build now say it, once a font."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest
import yaml
from fontTools import subset

import printdeck
from printdeck.theme import FontGapWarning

FONTS = Path(__file__).resolve().parent.parent / "assets" / "fonts"
PLAIN = ["gato", "perro", "casa", "sol", "luna", "mesa"]


def _ascii_font(folder: Path) -> Path:
    """Noto Sans cut down to the printable ASCII letters (no ñ, no accents)."""
    out = folder / "ascii.ttf"
    options = subset.Options()
    font = subset.load_font(str(FONTS / "NotoSans-Regular.ttf"), options)
    cutter = subset.Subsetter(options)
    cutter.populate(unicodes=range(0x20, 0x7F))
    cutter.subset(font)
    subset.save_font(font, str(out), options)
    return out


def _theme(folder: Path, words: list[object], font: str | None = "ascii.ttf") -> Path:
    theme = {"name": "fonts", "deck": {"symbols_per_card": 3}, "symbols": words}
    if font:
        theme["text"] = {"font": font}
    path = folder / "theme.yaml"
    path.write_text(yaml.safe_dump(theme, allow_unicode=True), encoding="utf-8")
    return path


def test_words_the_chosen_font_cannot_print_are_named_with_its_missing_letters(tmp_path: Path) -> None:
    _ascii_font(tmp_path)
    words: list[object] = [{"text": w} for w in ["niño", *PLAIN]]
    theme = _theme(tmp_path, words)
    said = r"text.font: ascii.ttf has no 'ñ' \(U\+00F1\), so 'niño' prints in another font; choose a font"
    with pytest.warns(FontGapWarning, match=said):
        printdeck.check_theme(theme)
    with pytest.warns(FontGapWarning, match=said):
        printdeck.build(theme, out=tmp_path / "deck.pdf")
    words[0] = {"text": "niño", "font": "ascii.ttf"}  # the word's own font: its own key
    theme = _theme(tmp_path, words, font=None)
    with pytest.warns(FontGapWarning, match=r"symbols.0.font: ascii.ttf has no 'ñ'"):
        printdeck.check_theme(theme)


def test_a_font_with_none_of_the_letters_is_said_once_with_a_few_words(tmp_path: Path) -> None:
    (tmp_path / "thai.ttf").write_bytes((FONTS / "NotoSansThai-Regular.ttf").read_bytes())
    theme = _theme(tmp_path, [{"text": w} for w in [*PLAIN, "libro"]], font="thai.ttf")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        printdeck.check_theme(theme)
    said = [str(w.message) for w in caught if issubclass(w.category, FontGapWarning)]
    assert len(said) == 1 and "so 'gato', 'perro', 'casa' and 4 more print in another font" in said[0]


def test_a_font_that_has_every_letter_is_not_warned_about(tmp_path: Path) -> None:
    _ascii_font(tmp_path)
    with warnings.catch_warnings():
        warnings.simplefilter("error", FontGapWarning)
        printdeck.check_theme(_theme(tmp_path, [{"text": w} for w in [*PLAIN, "tree"]]))
        printdeck.check_theme(_theme(tmp_path, [{"text": w} for w in ["niño", *PLAIN]], font=None))  # no font chosen
