"""Words that print small on every card are said before the deck is printed."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest
from test_theme_support import write_theme

import printdeck
from printdeck.render import SmallWordWarning
from printdeck.render.word_sizes import SMALL_WORD_MM

LONG = [
    "hippopotomonstrosesquippedaliophobia",
    "Donaudampfschifffahrtsgesellschaft",
    "supercalifragilisticexpialidocious",
]


def test_a_long_word_small_on_every_card_is_warned_about(tmp_path: Path) -> None:
    """A 36-letter word printed 3 to 4 mm tall on every card, and nothing said so."""
    words = [*LONG, "cat", "dog", "sun", "moon", "tree", "fish", "bird", "frog", "hen", "cow"]
    theme = write_theme(tmp_path, {"deck": {"symbols_per_card": 4}, "symbols": [{"text": w} for w in words]})
    with pytest.warns(SmallWordWarning) as caught:
        result = printdeck.build(theme, out=tmp_path / "deck.pdf")
    manifest = json.loads(result.manifest_path.read_text(encoding="utf-8"))
    ids = {s["name"]: s["id"] for s in manifest["symbols"]}
    tallest = {
        name: max(p["box_mm"][1] for c in manifest["cards"] for p in c["symbols"] if p["id"] == i)
        for name, i in ids.items()
    }
    small = sorted(name for name, height in tallest.items() if height < SMALL_WORD_MM)
    assert small, tallest  # the case this test is about
    (warning,) = [w for w in caught if w.category is SmallWordWarning]
    text = str(warning.message)
    assert all(f"{name!r}" in text for name in small) and "cat" not in text
    assert text.endswith("shorten them, or give fewer symbols a card or larger cards")


def test_no_bundled_word_deck_is_warned_about(tmp_path: Path) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error", SmallWordWarning)
        printdeck.build("words", out=tmp_path / "words.pdf")
