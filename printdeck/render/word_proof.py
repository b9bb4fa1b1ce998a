"""The proof of a deck's word colours on its card: refused where they do not show, warned
about where they show but do not read (the theme's :func:`~printdeck.theme.reads_on`)."""

from __future__ import annotations

import warnings
from collections.abc import Sequence

from printdeck.errors import key_error
from printdeck.theme import MIN_WORD_CONTRAST, contrast_ratio, reads_on, shows_on


class PaleWordWarning(UserWarning):
    """Word colours the theme gives show on the card but are too pale (or dark) to read."""


def check_word_colours(colours: Sequence[str], background: str) -> None:
    """Refuse a word colour that would not show on the card's background; warn, once for
    all of them, about colours that show but do not read (:func:`~printdeck.theme.reads_on`).

    Raises:
        PrintdeckError: ``text.colors`` holds a colour within :data:`CONTRAST` of ``background``.

    Warns:
        PaleWordWarning: ``text.colors`` holds colours under the contrast ratio words need.
    """
    for colour in colours:
        if not shows_on(colour, background):
            raise key_error(
                "text.colors",
                f"{colour} does not show on the card background {background}; "
                "choose darker (or lighter) word colours or another card.background",
            )
    pale = [c for c in dict.fromkeys(colours) if not reads_on(c, background)]
    if pale:
        ratios = ", ".join(f"{c} ({contrast_ratio(c, background):.2f}:1)" for c in pale)
        verb = "is" if len(pale) == 1 else "are"
        warnings.warn(
            f"text.colors: {ratios} on the card background {background} {verb} hard to read, under the "
            f"{MIN_WORD_CONTRAST:g}:1 contrast words need; choose darker (or lighter) colours",
            PaleWordWarning,
            stacklevel=2,
        )
