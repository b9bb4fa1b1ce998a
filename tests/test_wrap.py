"""Page text wraps at white space, never at a no-break space, and never starts a line with a
separator standing alone between two parts of a title."""

from __future__ import annotations

import pytest

from printdeck.errors import PrintdeckError
from printdeck.render.pdf_fonts import SANS_BOLD, register_bundled
from printdeck.render.text import string_width
from printdeck.render.wrap import SEPARATORS, unbroken, wrap_text


@pytest.fixture(autouse=True)
def _fonts() -> None:
    register_bundled()


@pytest.mark.parametrize("separator", ["·", "–", "|", "/", "・"])
def test_a_lone_separator_ends_a_line_and_never_starts_one(separator: str) -> None:
    try:
        string_width(separator, SANS_BOLD, 18)
    except PrintdeckError:  # Japanese's middle dot: no bundled font has it, only a CJK font installed
        pytest.skip(f"no font installed has {separator!r} (U+{ord(separator):04X})")
    title = f"Times tables {separator} Tablas de multiplicar {separator} A"
    before = string_width(f"Times tables {separator}", SANS_BOLD, 18)
    for width_pt in (before + 0.5, string_width("Times tables", SANS_BOLD, 18) + 1, 120.0, 200.0):
        lines = wrap_text(title, SANS_BOLD, 18, width_pt)
        assert " ".join(lines) == title, lines  # nothing dropped, nothing added
        assert not any(line.split(" ")[0] in SEPARATORS for line in lines), (width_pt, lines)
    assert wrap_text(title, SANS_BOLD, 18, before + 0.5)[0] == f"Times tables {separator}"


def test_a_separator_inside_a_word_and_a_leading_one_stay_as_written() -> None:
    assert wrap_text("· dots first", SANS_BOLD, 12, 1000) == ["· dots first"]
    assert wrap_text("well-known e-mail", SANS_BOLD, 12, 1) == ["well-known", "e-mail"]  # too narrow: words whole


def test_no_break_spaces_still_hold_and_blank_text_has_no_lines() -> None:
    lines = wrap_text(f"A long deck title {unbroken('Answer key')}", SANS_BOLD, 12, 80)
    assert lines[-1].endswith("Answer\u00a0key") and all(line for line in lines)
    assert wrap_text("   ", SANS_BOLD, 12, 80) == []
