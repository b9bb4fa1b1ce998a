"""A theme value typed the way a designer types it (CMYK in capitals, x-1a:2003, 63x88mm, a
bleed of 3, 300 %, a CMYK colour) is refused with the fix, not only what was expected."""

from __future__ import annotations

from pathlib import Path

import pytest

from printdeck.card_sizes import NAMED_SIZES
from printdeck.errors import PrintdeckError
from printdeck.theme import ThemeSpec, load_theme_data

BASE = {"name": "t", "deck": {"symbols_per_card": 3}, "symbols": [{"text": f"w{i}"} for i in range(7)]}


def _refusal(section: str, key: str, value: object) -> str:
    data = {**BASE, section: {key: value}}
    with pytest.raises(PrintdeckError) as caught:
        load_theme_data(data, Path("."))
    return str(caught.value)


@pytest.mark.parametrize(
    ("section", "key", "value", "fix"),
    [
        ("paper", "color", "CMYK", "did you mean 'cmyk'?"),
        ("paper", "pdfx", "x-1a:2003", "did you mean 'x-1a'?"),
        ("paper", "pdfx", "X-4", "did you mean 'x-4'?"),
        ("card", "shape", "rectangel", "did you mean 'rectangle'?"),
        ("card", "size", "63x88mm", "for a rectangular card give card.shape: rectangle and card.size: [63mm, 88mm]"),
        (
            "card",
            "size",
            "2.5 x 3.5 in",
            "for a rectangular card give card.shape: rectangle and card.size: [2.5in, 3.5in]",
        ),
        ("card", "size", "60x60mm", "for a square card give card.shape: square and card.size: 60mm"),
        ("card", "size", "pokr", "did you mean 'poker'?"),
        ("card", "size", "bridge-card", "did you mean 'bridge'?"),
        ("card", "size", "tgc circle", "did you mean 'tgc-circle'?"),
        ("card", "size", "big", f"give a length, [width, height] or a card's name: {', '.join(NAMED_SIZES)}"),
        ("paper", "size", "8.5in x 11", "give the width and the height as a list: [8.5in, 11in]"),
        ("card", "bleed", 3, 'write its unit: "3mm" (or cm, in, pt)'),
        ("card", "bleed", "3", 'write its unit: "3mm" (or cm, in, pt)'),
        ("card", "diameter", 3.5, 'write its unit: "3.5in" (or mm, cm, pt)'),  # no card is 3.5 mm: inches
        ("card", "diameter", 85, 'write its unit: "85mm" (or cm, in, pt)'),
        ("paper", "size", "8.5x11", "give the width and the height as a list: [8.5in, 11in]"),  # US Letter
        ("paper", "size", "200x280", "give the width and the height as a list: [200mm, 280mm]"),
        ("paper", "ink_limit", "250%", "write the number without its percent sign"),
        ("card", "background", "CMYK(0,0,0,100)", "give colours as RGB (#rrggbb or a name)"),
        ("layout", "rotation", "30°", "write the angle as a number of degrees, without its sign: 30"),
        ("layout", "rotation", "15 degrees", "write the angle as a number of degrees, without its sign: 15"),
    ],
)
def test_a_value_typed_as_people_type_it_is_refused_with_its_fix(
    section: str, key: str, value: object, fix: str
) -> None:
    said = _refusal(section, key, value)
    assert said.startswith(f"<theme>: {section}.{key}: expected ") and f"; {fix}" in said, said


def test_a_width_and_height_on_a_round_card_is_told_to_make_it_a_rectangle() -> None:
    with pytest.raises(PrintdeckError) as caught:
        load_theme_data({**BASE, "card": {"size": ["63mm", "88mm"]}}, Path("."))
    assert str(caught.value).endswith("; for a rectangular card give card.shape: rectangle")


def test_a_section_switched_on_with_true_is_told_its_enabled_key() -> None:
    """A teacher wrote ``backs: true`` (as ``--backs`` reads) and was told only that a
    mapping was expected."""
    with pytest.raises(PrintdeckError) as caught:
        load_theme_data({**BASE, "backs": True}, Path("."))
    assert str(caught.value).endswith("; write backs: then, on the next line indented, enabled: true")
    assert load_theme_data({**BASE, "backs": {"enabled": True}}, Path(".")).spec.backs.enabled  # the fix loads


@pytest.mark.parametrize(
    ("section", "key", "value"), [("paper", "color", "purple"), ("card", "bleed", "a lot"), ("paper", "pdfx", "X-3")]
)
def test_nothing_is_guessed_where_nothing_is_close(section: str, key: str, value: object) -> None:
    said = _refusal(section, key, value)
    assert "did you mean" not in said and "write its unit" not in said, said


@pytest.mark.parametrize(
    ("card", "fixed"),
    [
        ({"size": "63x88mm"}, {"shape": "rectangle", "size": ["63mm", "88mm"]}),
        ({"size": "60x60mm"}, {"shape": "square", "size": "60mm"}),
        ({"size": "63x88mm", "shape": "hexagon"}, {"shape": "rectangle", "size": ["63mm", "88mm"]}),
    ],
)
def test_a_size_fix_loads_when_followed(card: dict[str, object], fixed: dict[str, object]) -> None:
    """The fix said for a size written 63x88mm is one the theme then takes."""
    with pytest.raises(PrintdeckError) as caught:
        load_theme_data({**BASE, "card": card}, Path("."))
    shape = str(fixed["shape"])
    assert f"card.shape: {shape}" in str(caught.value)
    theme = load_theme_data({**BASE, "card": fixed}, Path("."))
    assert theme.spec.card.outline().kind.value == shape


def test_a_paper_size_with_its_unit_written_once_is_read() -> None:
    """``4x6in`` (a photo printer's paper, as a parent typed it) is 4 in by 6 in."""
    spec = load_theme_data({**BASE, "paper": {"size": "8.5x11in"}}, Path(".")).spec
    assert spec.paper.size == pytest.approx((215.9, 279.4))
    times = load_theme_data({**BASE, "paper": {"size": "8.5×11in"}}, Path(".")).spec  # the sign a phone types
    assert times.paper.size == pytest.approx((215.9, 279.4))


@pytest.mark.parametrize(("key", "value"), [("pdfx", "x-1a"), ("ink_limit", 240)])
def test_a_press_key_on_a_file_that_is_not_cmyk_is_refused(key: str, value: object) -> None:
    """A designer's theme with ``paper.pdfx: x-1a`` and ``ink_limit: 240`` but no
    ``color: cmyk`` built an RGB file with no PDF/X marks and said nothing (the command
    line's --pdfx and --ink-limit are refused alike)."""
    with pytest.raises(PrintdeckError) as caught:
        load_theme_data({**BASE, "paper": {key: value}}, Path("."))
    assert caught.value.key == f"paper.{key}" and "add paper.color: cmyk" in str(caught.value)
    assert load_theme_data({**BASE, "paper": {key: value, "color": "cmyk"}}, Path(".")).spec.paper.color == "cmyk"


@pytest.mark.parametrize(
    ("section", "value", "size"),
    [("paper", "letter", "letter"), ("card", "poker", "poker"), ("card", "85mm", "85mm"), ("card", 85, "85mm")],
)
def test_a_section_given_one_value_is_told_where_it_goes(section: str, value: object, size: str) -> None:
    """``paper: letter`` said only "expected a mapping of keys" with no fix; the value most
    likely sizes the section (a bare number with its likely unit), and the fix, followed,
    is taken; ``paper: true`` is not told to be a size."""
    with pytest.raises(PrintdeckError) as caught:
        load_theme_data({**BASE, section: value}, Path("."))
    said = str(caught.value)
    assert said.endswith(f"write {section}: then, on the next line indented, size: {size}"), said
    ThemeSpec.model_validate({section: {"size": size}})
    with pytest.raises(PrintdeckError) as caught:
        load_theme_data({**BASE, "paper": True}, Path("."))
    assert "size: True" not in str(caught.value)


@pytest.mark.parametrize(
    ("key", "value", "unit"),
    [("size", 18, "mm"), ("size", 3.5, "in"), ("diameter", 0.5, "mm"), ("diameter", 3, "in"), ("size", 400, "mm")],
)
def test_inches_are_said_only_where_the_key_takes_them(key: str, value: float, unit: str) -> None:
    """``card.size: 18`` was told "18in" (457 mm, over the 400 mm the key takes) and
    ``card.diameter: 0.5`` "0.5in" (12.7 mm, under 20): inches only where they are a size."""
    said = _refusal("card", key, value)
    assert f'write its unit: "{value:g}{unit}"' in said, said
