"""The legend lists the symbols in the order the theme lists them: a teacher checks it
against her own list, and the deck's seeded order of symbols ("bravo, golf, alpha") is not one."""

from __future__ import annotations

import re
from pathlib import Path

from pypdf import PdfReader

import printdeck

WORDS = ("alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf")


def _legend_words(pdf: Path) -> list[str]:
    page = PdfReader(pdf).pages[-1]
    text = page.extract_text()
    assert "symbol legend" in text
    return [w for w in re.findall(r"[a-z]+", text.split("symbols)", 1)[1]) if w in WORDS]


def test_the_legend_follows_the_theme_s_list(tmp_path: Path) -> None:
    theme = tmp_path / "ord.yaml"
    entries = ", ".join(f"{{text: {w}}}" for w in WORDS)
    theme.write_text(f"name: ord\ndeck: {{symbols_per_card: 3}}\nsymbols: [{entries}]\n", encoding="utf-8")
    result = printdeck.build(theme, out=tmp_path / "ord.pdf", legend=True, seed=7)
    assert _legend_words(result.pdf_path) == list(WORDS)


def test_a_concept_deck_s_legend_follows_its_list_too(tmp_path: Path) -> None:
    theme = tmp_path / "faces.yaml"
    entries = ", ".join(f"{{faces: [{{text: {w}}}, {{text: {w.upper()}}}]}}" for w in WORDS)
    theme.write_text(
        f"name: faces\ndeck: {{symbols_per_card: 3, faces: mixed}}\nsymbols: [{entries}]\n", encoding="utf-8"
    )
    result = printdeck.build(theme, out=tmp_path / "faces.pdf", legend=True, seed=3)
    assert _legend_words(result.pdf_path) == list(WORDS)
