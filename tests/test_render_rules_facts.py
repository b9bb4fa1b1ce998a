"""The rules sheet states the deck's facts from its design: a match-2 deck's rules say
two symbols in common and ask for both in every game; a classic deck's say one."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

import printdeck
from printdeck.render.rules_text import LAMBDA_WORDS, RULES_TEXT, games, rules_sections

WORDS = ["sun", "moon", "star", "tree", "leaf", "rock", "wave", "fire", "bird", "fish", "frog"]


def test_every_placeholder_has_words_for_each_lambda() -> None:
    for match in LAMBDA_WORDS:
        assert len(rules_sections(match)) == len(RULES_TEXT)
        assert set(games(match)) == set(games(1))
    assert "exactly one symbol in common" in rules_sections(1)[0][1]
    assert "exactly two symbols in common" in rules_sections(2)[0][1]
    assert all("one symbol" not in body for _, body in rules_sections(2))
    with pytest.raises(ValueError, match="match"):
        rules_sections(3)


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="pdftotext (poppler-utils) is missing")
@pytest.mark.parametrize(("match", "said"), [(1, "exactly one symbol in common"), (2, "exactly two symbols in common")])
def test_the_printed_rules_say_the_designs_lambda(tmp_path: Path, match: int, said: str) -> None:
    theme = {"deck": {"match": match, "symbols_per_card": 3}, "extras": {"rules": True}}
    theme["symbols"] = [{"text": w} for w in WORDS[:7]]
    result = printdeck.build(theme, out=tmp_path / "deck.pdf")
    text = subprocess.run(
        ["pdftotext", "-layout", str(result.pdf_path), "-"], capture_output=True, text=True, check=True
    ).stdout
    flat = " ".join(text.split())
    assert said in flat, flat[-1500:]
    if match == 2:
        assert "one symbol" not in flat and "name both shared symbols" in flat


def test_the_rules_name_as_many_players_as_the_deck_holds() -> None:
    """A 7-card deck's rules said "Two to eight players": eight players cannot each have a
    card and a heap left. The rules name as many as four cards a player allows."""
    from printdeck.render.rules_text import players_text

    assert players_text(None) == players_text(55) == "Two to eight players"
    assert players_text(31) == "Two to seven players"
    assert players_text(13) == "Two or three players"
    assert players_text(7) == "Two players"
    assert "Two players." in rules_sections(1, cards=7)[0][1]
