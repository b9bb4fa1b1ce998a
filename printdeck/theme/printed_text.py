"""The theme's own text that a deck prints beside the cards, checked before a build writes
anything: the credit (each sheet's foot, or the credits page), the title where it prints
(each sheet's foot, the backs' title, the legend, rules, tuck box and credits page) and,
with a legend, the names of the deck's symbols. Each is set as the cards' words are (PDF
text, or outlines in the fallback fonts of :mod:`printdeck.artwork.fonts`), so a character
no font has (an emoji in a title) is refused by its key, not found by the renderer
mid-file with no key to name."""

from __future__ import annotations

from collections.abc import Sequence

from printdeck.artwork import unprintable_text
from printdeck.errors import PrintdeckError, key_error, shown
from printdeck.model import SymbolSpec
from printdeck.theme.spec import Theme

__all__ = ["check_printed_text", "title_prints"]


def title_prints(theme: Theme) -> bool:
    """Whether the deck prints its title: on every sheet's foot (sheets), on the backs
    (``backs.pattern: title``), on the legend, rules and tuck box pages, and on the credits
    page a one-card-a-page file gets with a credit."""
    spec = theme.spec
    extras = spec.extras
    return (
        spec.paper.layout == "sheet"
        or (spec.backs.enabled and spec.backs.pattern == "title")
        or extras.legend
        or extras.rules
        or extras.tuck_box
        or bool(theme.attribution)
    )


def check_printed_text(theme: Theme, symbols: Sequence[SymbolSpec]) -> None:
    """Refuse text the deck prints that no font can: the credit line, the title where it
    prints (:func:`title_prints`), and with a legend the names of ``symbols`` (the deck's:
    the legend names each as the theme does, a symbol of several faces by its own name).

    Raises:
        PrintdeckError: Naming the theme file, the key, the characters no font has and the fix.
    """
    spec = theme.spec
    try:
        _check("extras.attribution", spec.extras.attribution, "it prints on every sheet; leave them out of the credit")
        if title_prints(theme):
            _check("title", spec.title, "the deck prints its title; leave them out of the title")
        if spec.extras.legend:
            fix = "give it a name without them (name:), or rename its file"
            for symbol in symbols:
                _check(symbol.theme_key or "symbols", symbol.name, f"the legend prints its name; {fix}")
    except PrintdeckError as exc:
        raise (exc.located(shown(theme.path)) if theme.path is not None else exc) from None


def _check(key: str, text: str | None, why_and_fix: str) -> None:
    problem = unprintable_text(text) if text else None
    if problem is not None:
        raise key_error(key, f"{problem}: {why_and_fix}")
