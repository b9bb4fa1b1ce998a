"""The theme's own text that prints beside the cards (the title and the credit on every
sheet, the symbols' names in the legend), checked before a build writes anything: each is
set as the cards' words are (PDF text, or outlines in the fallback fonts of
:mod:`printdeck.artwork.fonts`), so a character no font has (an emoji in a title) is
refused by its key, not found by the renderer mid-file with no key to name."""

from __future__ import annotations

from printdeck.artwork import unprintable_text
from printdeck.errors import PrintdeckError, key_error, shown
from printdeck.theme.spec import Theme

__all__ = ["check_names", "check_sheet_text"]


def check_sheet_text(theme: Theme) -> None:
    """Refuse a title or credit line (``extras.attribution``) that cannot be printed.

    Raises:
        PrintdeckError: Naming the key, the characters no font has and the fix.
    """
    spec = theme.spec
    for key, text, what in (("title", spec.title, "title"), ("extras.attribution", spec.extras.attribution, "credit")):
        _check(key, text, f"it prints on every sheet; leave them out of the {what}")


def check_names(theme: Theme) -> None:
    """Refuse a picture's name the legend cannot print (a word's name is the word, set on
    the cards already): an emoji in a file name (``Shelly 🐢.jpg``) or in ``name``.

    Raises:
        PrintdeckError: Naming the theme file, the symbol's key, the name and the fix.
    """
    try:
        for symbol in theme.symbols:
            for face in symbol.all_faces:
                if face.kind != "text":
                    fix = "give it a name without them (name:), or rename its file"
                    _check(symbol.theme_key or "symbols", face.name, f"the legend prints its name; {fix}")
    except PrintdeckError as exc:
        raise (exc.located(shown(theme.path)) if theme.path is not None else exc) from None


def _check(key: str, text: str | None, why_and_fix: str) -> None:
    problem = unprintable_text(text) if text else None
    if problem is not None:
        raise key_error(key, f"{problem}: {why_and_fix}")
