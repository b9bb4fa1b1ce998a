"""printdeck.theme: the YAML theme, validated and resolved (and starter themes)."""

from printdeck.theme.load import (
           bundled_theme_names,
           bundled_theme_path,
           deck_size,
           load_theme,
)
from printdeck.theme.model import Theme, ThemeSpec
from printdeck.theme.sizes import DeckSize, deck_size_requirements

__all__ = ["DeckSize", "Theme", "ThemeSpec", "bundled_theme_names", "bundled_theme_path", "deck_size",
           "deck_size_requirements", "load_theme"]
