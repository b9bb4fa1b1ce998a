"""The card keys only some shapes take have one owner: ``printdeck.card_sizes`` publishes
them as data (``printdeck.SHAPE_ONLY_KEYS``) and refuses them by it; the studio's
``SHAPE_KEYS`` and the settings form's ``shapes`` are derived from it, and the page writes
no list of its own."""

from __future__ import annotations

from pathlib import Path

import pytest

import printdeck
from printdeck import card_sizes
from printdeck.choices import ShapeKind
from printdeck.studio import deck_settings

SETTINGS_JS = Path(deck_settings.__file__).parent / "static" / "settings.js"
GIVEN = {"diameter": "80mm", "corner_radius": "3mm", "orientation": "flat"}
"""A value each shape-only key takes on a shape that has it."""
WORDS = [{"text": w} for w in "abcdefg"]


def _takers(key: str) -> tuple[str, ...]:
    return tuple(kind.value for kind, keys in card_sizes.SHAPE_ONLY_KEYS.items() if key in keys)


def test_the_table_is_public_and_names_every_shape() -> None:
    assert printdeck.SHAPE_ONLY_KEYS is card_sizes.SHAPE_ONLY_KEYS
    assert set(card_sizes.SHAPE_ONLY_KEYS) == set(ShapeKind)
    assert set().union(*card_sizes.SHAPE_ONLY_KEYS.values()) == set(GIVEN)  # a new key needs a sample here


def test_the_studio_keys_are_the_tables() -> None:
    keys = {key for keys in card_sizes.SHAPE_ONLY_KEYS.values() for key in keys}
    assert {f"card.{key}": _takers(key) for key in keys} == deck_settings.SHAPE_KEYS
    assert set(deck_settings.SHAPE_KEYS) <= deck_settings.SETTING_KEYS
    fields = deck_settings.form_description()["fields"]
    assert {key: tuple(f["shapes"]) for key, f in fields.items() if "shapes" in f} == deck_settings.SHAPE_KEYS
    assert "shapes:" not in SETTINGS_JS.read_text(encoding="utf-8"), "settings.js: take the shapes from state.form"


@pytest.mark.parametrize("shape", list(ShapeKind))
@pytest.mark.parametrize("key", sorted(GIVEN))
def test_the_theme_refuses_exactly_the_keys_the_table_leaves_out(shape: ShapeKind, key: str) -> None:
    theme = {"card": {"shape": shape.value, key: GIVEN[key]}, "symbols": WORDS}
    if key in card_sizes.SHAPE_ONLY_KEYS[shape]:
        printdeck.load_theme(theme, check_files=False)
        return
    with pytest.raises(printdeck.PrintdeckError) as refused:
        printdeck.load_theme(theme, check_files=False)
    assert refused.value.key == f"card.{key}"
