"""The colours a deck's words are printed in, and whether a colour shows on the card.

A theme that leaves ``text.colors`` at its default gets :data:`~printdeck.theme.palettes.WORD_PALETTE`
less the colours that would not read on its ``card.background`` (:func:`reads_on`: the
near-black and the indigo on a black card), topped up with light ones; a grey deck gets
:data:`~printdeck.theme.palettes.GREY_WORD_PALETTE` the same way. Colours the theme gives are
used as given: refused where they do not show, warned about where they show but do not
read (``printdeck.render.check_word_colours``).
"""

from __future__ import annotations

import numpy as np
from PIL import Image

from printdeck.theme.palettes import GREY_WORD_PALETTE, WORD_PALETTE
from printdeck.theme.spec import ThemeSpec

VISIBLE_CONTRAST = 40
"""Ink shows on a card when one of its channels (0-255) differs from the background's by
more than this: the proofs' test of a symbol's ink and the test of a word colour."""
MIN_VISIBLE_SHARE = 0.002
"""A symbol must show visible ink (:func:`visible_ink`) on at least this share of its box."""
PROOF_PX = 160
"""Longer side, pixels, of the raster a symbol's ink is measured on (the proofs, ``init``)."""
MIN_WORD_CONTRAST = 1.8
"""Least contrast ratio (WCAG 2, :func:`contrast_ratio`) a word colour needs on its card to
read at a glance. WCAG asks 3:1 of large text (success criterion 1.4.3), but the default
palette's colour-blind-safe orange and sky blue sit near 2.3:1 on white and 1.9:1 on a
cream card, and read; yellow on white (1.07:1), gold (1.40:1), khaki (1.28:1), near-black on
black (1.21:1) and indigo on black (1.73:1) do not."""
LIGHT_WORD_PALETTE = ("#ffffff", "#f0e442")
"""Word colours added, in this order, where the default ones do not show (a dark card):
white and Okabe and Ito's yellow."""
LIGHT_GREY_WORD_PALETTE = ("#ffffff", "#c2c2c2", "#a3a3a3")
"""Grey word tones added, in this order, where the default ones do not show."""


def shows_on(colour: str, background: str) -> bool:
    """Whether ``colour`` (``#rrggbb``) shows on ``background``: a channel differs by more
    than :data:`VISIBLE_CONTRAST`.

    Raises:
        ValueError: A colour is not ``#rrggbb``.
    """
    ink, ground = (_channels(c) for c in (colour, background))
    return max(abs(a - b) for a, b in zip(ink, ground)) > VISIBLE_CONTRAST


def contrast_ratio(colour: str, background: str) -> float:
    """WCAG 2's contrast ratio of two ``#rrggbb`` colours, from 1 (the same) to 21 (black on
    white): ``(L1 + 0.05) / (L2 + 0.05)`` of their relative luminances, the lighter over the
    darker (W3C, Web Content Accessibility Guidelines 2.1, "contrast ratio" and "relative
    luminance", sRGB).

    Raises:
        ValueError: A colour is not ``#rrggbb``.
    """
    lighter, darker = sorted((_luminance(colour), _luminance(background)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def reads_on(colour: str, background: str) -> bool:
    """Whether words in ``colour`` read on ``background``: they show (:func:`shows_on`) with
    a contrast ratio of at least :data:`MIN_WORD_CONTRAST`.

    Raises:
        ValueError: A colour is not ``#rrggbb``.
    """
    return shows_on(colour, background) and contrast_ratio(colour, background) >= MIN_WORD_CONTRAST


def _luminance(colour: str) -> float:
    """WCAG 2's relative luminance of an sRGB ``#rrggbb`` colour, 0 (black) to 1 (white)."""
    linear = [
        (v / 255) / 12.92 if v / 255 <= 0.04045 else ((v / 255 + 0.055) / 1.055) ** 2.4 for v in _channels(colour)
    ]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def visible_ink(rgba: Image.Image, background: str, contrast: int = VISIBLE_CONTRAST) -> np.ndarray:
    """``(H, W) bool``: the pixels of the RGBA drawing ``rgba`` whose colour, composited onto
    ``background`` (``#rrggbb``), differs from it by more than ``contrast`` in a channel
    (and that are not nearly transparent): the proofs' test of a symbol's ink (and, with a
    lower contrast, of its outline), and ``init``'s of a picture's."""
    base = Image.new("RGBA", rgba.size, background)
    shown_rgb = np.asarray(Image.alpha_composite(base, rgba.convert("RGBA")).convert("RGB"), dtype=np.int16)
    ground = np.array(_channels(background), dtype=np.int16)
    opaque = np.asarray(rgba.convert("RGBA").getchannel("A")) > 8
    visible: np.ndarray = (np.abs(shown_rgb - ground).max(axis=2) > contrast) & opaque
    return visible


def word_colours(spec: ThemeSpec) -> tuple[str, ...]:
    """The colours the deck's words take (``#rrggbb``, the first for a card's first word):
    a grey deck's tones, the theme's ``text.colors`` as given, or, where it keeps the
    default palette, that palette as it shows on ``card.background`` (see the module)."""
    background = spec.card.background
    if spec.paper.grayscale:  # against the grey the card prints as: a blue card is a dark grey
        grey = _grey_of(background)
        return _showing(GREY_WORD_PALETTE + LIGHT_GREY_WORD_PALETTE, grey, len(GREY_WORD_PALETTE))
    given = tuple(spec.text.colors)
    if given != WORD_PALETTE:
        return given
    return _showing(WORD_PALETTE + LIGHT_WORD_PALETTE, background, len(WORD_PALETTE))


def _showing(candidates: tuple[str, ...], background: str, most: int) -> tuple[str, ...]:
    """The first ``most`` of ``candidates`` that read on ``background`` (:func:`reads_on`)."""
    return tuple(c for c in candidates if reads_on(c, background))[:most]


def _grey_of(colour: str) -> str:
    """The grey ``#vvvvvv`` a grey deck prints ``colour`` as (:func:`printdeck.artwork.grey_level`)."""
    from printdeck.artwork import grey_level  # noqa: PLC0415 - numpy's colour maths only for a grey deck

    level = round(float(grey_level(np.array(_channels(colour), dtype=float) / 255.0)) * 255)
    return f"#{level:02x}{level:02x}{level:02x}"


def _channels(colour: str) -> tuple[int, int, int]:
    if len(colour) != 7 or colour[0] != "#":
        raise ValueError(f"expected a colour #rrggbb, got {colour!r}")
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)
