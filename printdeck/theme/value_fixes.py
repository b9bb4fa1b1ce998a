"""The fix for a theme value as people type it wrong: a choice in capitals or with more after
it (``CMYK``, ``x-1a:2003``), a length without its unit or a size written ``63x88mm``, a
percent sign, a CMYK colour. Each is what :mod:`~printdeck.theme.messages` adds after the
problem (``...; did you mean 'x-1a'?``), or None when there is nothing surer to say.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping
from typing import Any

from printdeck.card_sizes import NAMED_SIZES, size_names
from printdeck.units import MM_PER_UNIT

_CHOICE = re.compile(r"'([^']*)'")
_NUMBER = re.compile(r"\s*(\d+(?:\.\d+)?)\s*")
_PAIR = re.compile(r"\s*(\d+(?:\.\d+)?)\s*(mm|cm|in|pt)?\s*[x×*]\s*(\d+(?:\.\d+)?)\s*(mm|cm|in|pt)?\s*", re.IGNORECASE)
_DECIMAL_COMMA = re.compile(r"\s*(\d+,\d{1,2})\s*(mm|cm|in|pt)?\s*", re.IGNORECASE)
_PERCENT = re.compile(r"\s*(\d+)\s*%\s*")
_DEGREES = re.compile(r"\s*(-?\d+(?:\.\d+)?)\s*(?:°|º|deg|degrees?)\s*", re.IGNORECASE)
_MAPPING_ERRORS = ("dict_type", "model_type", "model_attributes_type")
CLOSE = 0.75
"""How alike a misspelt choice must be (difflib's ratio) to be offered: 'rectangel' is,
'X-3' (another PDF/X standard) is not 'x-4'."""


_SIZED_SECTIONS = ("paper", "card")
"""Sections a value given alone most likely sizes (``paper: letter``, ``card: poker``)."""


def value_fix(err: Mapping[str, Any], key: str) -> str | None:
    """The fix for one pydantic error of the theme key ``key`` (dotted), or None.

    Examples:
        >>> value_fix({"type": "literal_error", "input": "CMYK", "ctx": {"expected": "'rgb' or 'cmyk'"}}, "paper.color")
        "did you mean 'cmyk'?"
        >>> value_fix({"type": "value_error", "input": "63x88mm", "msg": "expected a length"}, "card.size")
        'for a rectangular card give card.shape: rectangle and card.size: [63mm, 88mm]'
        >>> value_fix({"type": "model_type", "input": True}, "backs")
        'write backs: then, on the next line indented, enabled: true'
        >>> value_fix({"type": "model_type", "input": "letter"}, "paper")
        'write paper: then, on the next line indented, size: letter'
        >>> value_fix({"type": "enum", "input": "30°", "ctx": {"expected": "'any' or 'none'"}}, "layout.rotation")
        'write the angle as a number of degrees, without its sign: 30'
    """
    kind, given = err["type"], err.get("input")
    degrees = _DEGREES.fullmatch(given) if isinstance(given, str) else None
    if degrees is not None:
        return f"write the angle as a number of degrees, without its sign: {degrees.group(1)}"
    if kind in _MAPPING_ERRORS and isinstance(given, bool) and key in _switched_sections():
        return f"write {key}: then, on the next line indented, enabled: {str(given).lower()}"
    if kind in _MAPPING_ERRORS and key in _SIZED_SECTIONS and isinstance(given, (str, int, float)):
        if isinstance(given, str):  # paper: letter, card: poker; card: 85 with its likely unit
            return f"write {key}: then, on the next line indented, size: {given}"
        if not isinstance(given, bool):
            return f"write {key}: then, on the next line indented, size: {given:g}{_likely_unit(given, key + '.size')}"
    if kind in ("literal_error", "enum") and isinstance(given, str):
        return _choice_fix(given, _CHOICE.findall(str((err.get("ctx") or {}).get("expected", ""))))
    if kind == "int_parsing" and isinstance(given, str) and _PERCENT.fullmatch(given):
        return "write the number without its percent sign"
    if (
        kind == "string_pattern_mismatch"
        and isinstance(given, str)
        and given.strip().lower().startswith(("cmyk", "device-cmyk"))
    ):
        return (
            "give colours as RGB (#rrggbb or a name): a CMYK file (paper.color: cmyk) converts them; "
            "#000000 prints 100 % K"
        )
    if kind == "value_error" and any(words in str(err.get("msg", "")) for words in ("a length", "width and height")):
        return length_fix(given, key)
    return None


def _choice_fix(given: str, choices: list[str]) -> str | None:
    """``did you mean 'x'?`` for a choice typed in capitals, with more after it, or misspelt."""
    typed = given.strip().lower()
    for choice in choices:
        if typed == choice.lower() or (len(choice) > 1 and typed.startswith(choice.lower())):
            return f"did you mean {choice!r}?"
    close = difflib.get_close_matches(typed, [c.lower() for c in choices], n=1, cutoff=CLOSE)
    if close:
        return f"did you mean {choices[[c.lower() for c in choices].index(close[0])]!r}?"
    return None


INCHES = {"paper": (2.0, 20.0), "paper.size": (2.0, 20.0), "card.size": (0.8, 15.0), "card.diameter": (0.8, 15.0)}
"""Sizes written as a bare number in these ranges are inches (8.5 x 11 paper, a 3.5 card):
no card or sheet printdeck makes is that many millimetres (cards 20-400 mm, paper 50-1500
mm), and each range in inches is a size the key takes."""


def _likely_unit(number: float, key: str) -> str:
    """The unit a person most likely meant for a size ``number`` given without one: inches
    for a card's or paper's size in :data:`INCHES`, else millimetres."""
    low, high = INCHES.get(re.sub(r"\.\d+$", "", key), (0.0, 0.0))  # paper.size.0: one side of the pair
    return "in" if low <= number <= high else "mm"


def _unit_fix(number: str, key: str) -> str:
    """``write its unit: "3mm" (or cm, in, pt)``, the likeliest unit first (:func:`_likely_unit`)."""
    unit = _likely_unit(float(number), key)
    others = ", ".join(u for u in ("mm", "cm", "in", "pt") if u != unit)
    return f'write its unit: "{number}{unit}" (or {others})'


def length_fix(given: object, key: str) -> str | None:
    """The fix for a length or size ``given`` for the theme key ``key`` (or ``paper``, the
    command line's ``--paper``) that is none: its unit left out (``3``, ``"3"``), a size
    written as ``63x88mm`` or ``200x280``, or a card's name misspelt (``pokr``); None when
    there is nothing surer to say.

    The unit said first is the likeliest (:func:`_likely_unit`): a US teacher's ``8.5x11``
    paper and ``3.5`` card are inches.

    Examples:
        >>> length_fix("200x280", "paper")
        "write each side's unit: 200mmx280mm"
        >>> length_fix("8.5x11", "paper")
        "write each side's unit: 8.5inx11in"
        >>> length_fix("10mmx10mm", "paper") is None  # its units written: refused for its size
        True
        >>> length_fix(3, "card.bleed")
        'write its unit: "3mm" (or cm, in, pt)'
        >>> length_fix(3.5, "card.diameter")
        'write its unit: "3.5in" (or mm, cm, pt)'
        >>> length_fix("3,5in", "card.diameter")
        'write a decimal point: "3.5in"'
    """
    if isinstance(given, (int, float)) and not isinstance(given, bool):
        return _unit_fix(f"{given:g}", key)
    if not isinstance(given, str):
        return None
    comma = _DECIMAL_COMMA.fullmatch(given)
    if comma is not None:  # 3,5in: a decimal comma, as much of Europe writes it
        number = comma.group(1).replace(",", ".")
        if comma.group(2):
            return f'write a decimal point: "{number}{comma.group(2)}"'
        return f"write a decimal point and {_unit_fix(number, key).removeprefix('write ')}"
    if _NUMBER.fullmatch(given):
        return _unit_fix(given.strip(), key)
    pair = _PAIR.fullmatch(given)
    if pair is None and key == "card.size":
        return _card_name_fix(given)
    if not (pair and key.endswith(("size", "paper"))):
        return None
    width, unit_w, height, unit_h = pair.groups()
    unit = unit_h or unit_w or _likely_unit(max(float(width), float(height)), key)
    sides = f"{width}{unit_w or unit}", f"{height}{unit}"
    if key == "paper":  # the command line's --paper: one word, refused for its units or (units there) its sizes
        return f"write each side's unit: {sides[0]}x{sides[1]}" if not (unit_w and unit_h) else None
    if key != "card.size":  # the paper's: a [width, height] list
        return f"give the width and the height as a list: [{sides[0]}, {sides[1]}]"
    if float(width) * MM_PER_UNIT[(unit_w or unit).lower()] == float(height) * MM_PER_UNIT[unit.lower()]:
        return f"for a square card give card.shape: square and card.size: {sides[0]}"
    return f"for a rectangular card give card.shape: rectangle and card.size: [{sides[0]}, {sides[1]}]"


def _card_name_fix(given: str) -> str:
    """The fix for a ``card.size`` that is neither a length nor a card's name: the name it
    is a misspelling of (``pokr``), else every name :data:`~printdeck.card_sizes.NAMED_SIZES`
    holds, so a designer who typed a name learns the names there are."""
    return _choice_fix(given, list(NAMED_SIZES)) or f"give a length, [width, height] or a card's name: {size_names()}"


def _switched_sections() -> frozenset[str]:
    """The theme's sections turned on by their ``enabled`` key (``backs: true`` means
    ``backs.enabled: true``), read from the theme's model."""
    from printdeck.theme.spec import ThemeSpec  # noqa: PLC0415 - the model validates with these fixes

    out = set()
    for name, field in ThemeSpec.model_fields.items():
        fields = getattr(field.annotation, "model_fields", {})
        if "enabled" in fields:
            out.add(field.alias or name)
    return frozenset(out)
