"""Look-alike messages in plain words: a teacher was told two symbols are "in colours less
than 10 apart (CIEDE2000 3.2)" and did not know the term. Every message printdeck shows (the
command line's refusals and warnings, the theme's option help, the studio's tiles) says the
colours are too close to tell apart; the colour science's names stay in docstrings and
comments, where the code is explained."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from printdeck.artwork import LookAlike, Vision
from printdeck.theme.spec import DeckSpec

PACKAGE = Path(__file__).resolve().parent.parent / "printdeck"
JARGON = ("CIEDE", "ΔE", "delta E", "Delta E")


def _pair(**fields: object) -> LookAlike:
    base: dict[str, object] = {
        "first": "red ball",
        "second": "red apple",
        "similarity": 0.94,
        "delta_e": 3.2,
        "turned_deg": 0.0,
        "mirrored": False,
        "vision": Vision.NORMAL,
    }
    return LookAlike(**{**base, **fields})  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("fields", "said"),
    [
        ({}, "'red ball' and 'red apple' look alike: the same silhouette up to size (94% overlap) in colours too "
         "close to tell apart"),
        ({"vision": Vision.GREY, "turned_deg": 90.0, "mirrored": True}, "'red ball' and 'red apple' look alike when "
         "printed in grey: the same silhouette up to size, mirrored and turned 90° (94% overlap) in colours too "
         "close to tell apart"),
        ({"delta_e": None}, "'red ball' and 'red apple' look alike: the same silhouette up to size (94% overlap), "
         "and colour cannot tell them apart (words take the card's colours)"),
        ({"vision": Vision.DEUTERANOPIA}, "'red ball' and 'red apple' look alike for colour-blind players "
         "(red-green, deuteranopia): the same silhouette up to size (94% overlap) in colours too close to tell apart"),
        ({"same_picture": 12}, "'red ball' and 'red apple' look alike: they show the same picture, one cropped, "
         "zoomed or turned from the other (12 details match, and laid over each other their colours match)"),
    ],
)  # fmt: skip
def test_a_look_alike_pair_is_said_in_plain_words(fields: dict[str, object], said: str) -> None:
    assert _pair(**fields).reason() == said


def test_the_allow_look_alike_help_says_it_plainly() -> None:
    help_text = DeckSpec.model_fields["allow_look_alike"].description or ""
    assert "nearly the same colours" in help_text and not any(term in help_text for term in JARGON)


def _docstrings(tree: ast.Module) -> set[int]:
    """The ids of a module's docstrings: its own, its classes' and functions', and the
    strings standing just after an assignment (a constant's docstring)."""
    found = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if not isinstance(body, list):
            continue
        for k, statement in enumerate(body):
            if not (isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant)):
                continue
            first = k == 0 and isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
            if first or (k > 0 and isinstance(body[k - 1], (ast.Assign, ast.AnnAssign))):
                found.add(id(statement.value))
    return found


def _strings_shown(path: Path) -> list[tuple[int, str]]:
    """Every string a module may show (its literals and f-strings' text), docstrings left out."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = _docstrings(tree)
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
    ]


def test_no_message_names_the_colour_difference_formula() -> None:
    found = [
        f"{path.relative_to(PACKAGE.parent)}:{line}: {text!r}"
        for path in sorted(PACKAGE.rglob("*.py"))
        for line, text in _strings_shown(path)
        if any(term in text for term in JARGON)
    ]
    assert not found, "colour jargon in a message (say 'colours too close to tell apart'):\n" + "\n".join(found)
