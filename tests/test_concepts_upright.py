"""A word with a times or a plus sign stays upright: turned about an eighth of a turn, "7 × 8"
reads as "7 + 8" (a teacher's times-table deck showed "7 × 8" as "7 + 8" above "15").

Checked on what the build writes: each placement's turn in the manifest, which the PDF, the
PNGs and the preview all draw from.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_theme_support import write_theme

import printdeck
from printdeck.theme.symbols import turns_into_another_sign

SUMS = ["3 × 4", "2 + 5", "6 x 7", "12", "7", "42", "ten"]


@pytest.mark.parametrize(
    ("word", "turns"),
    [
        ("7 × 8", True),
        ("7+8", True),
        ("3 x 4", True),
        ("3X4", True),
        ("2 ✕ 3", True),
        ("box", False),
        ("x", False),
        ("taxi 4", False),
        ("12", False),
        ("7 − 3", False),
        ("7 ÷ 7", False),
    ],
)
def test_signs_that_read_as_another_when_turned(word: str, turns: bool) -> None:
    assert turns_into_another_sign(word) is turns


def _built(tmp_path: Path, symbols: list[dict[str, object]]) -> dict:
    theme = write_theme(
        tmp_path,
        {"seed": 3, "deck": {"symbols_per_card": 3}, "layout": {"rotation": 30}, "symbols": symbols},
    )
    out = tmp_path / "deck.pdf"
    printdeck.build(printdeck.load_theme(theme), out=out)
    return json.loads(out.with_suffix(".json").read_text(encoding="utf-8"))


def test_sums_stay_upright_and_other_words_turn(tmp_path: Path) -> None:
    manifest = _built(tmp_path, [{"text": word} for word in SUMS])
    named = {symbol["id"]: symbol["name"] for symbol in manifest["symbols"]}  # the deck's ids, not the theme's order
    turns: dict[str, list[float]] = {word: [] for word in SUMS}
    for card in manifest["cards"]:
        for placed in card["symbols"]:
            angle = placed["rotation_deg"] % 360
            turns[named[placed["id"]]].append(min(angle, 360 - angle))
    assert all(len(seen) == 3 for seen in turns.values())  # order 2: each symbol on three cards
    for word in SUMS[:3]:
        assert max(turns[word]) == 0.0, (word, turns[word])
    assert max(max(turns[word]) for word in SUMS[3:]) > 1.0  # the others still turn (up to 30 degrees)


def test_rotate_true_still_turns_a_sum(tmp_path: Path) -> None:
    symbols = [{"text": word, "rotate": True} if word == "3 × 4" else {"text": word} for word in SUMS]
    manifest = _built(tmp_path, symbols)
    (sum_id,) = [symbol["id"] for symbol in manifest["symbols"] if symbol["name"] == "3 × 4"]
    angles = [p["rotation_deg"] % 360 for c in manifest["cards"] for p in c["symbols"] if p["id"] == sum_id]
    assert max(min(a, 360 - a) for a in angles) > 1.0
