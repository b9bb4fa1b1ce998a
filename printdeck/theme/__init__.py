"""printdeck.theme: the YAML theme, validated and resolved."""

from printdeck.theme.load import load_theme
from printdeck.theme.model import Theme, ThemeSpec

__all__ = ["Theme", "ThemeSpec", "load_theme"]
