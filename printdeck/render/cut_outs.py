"""What a proof measures of a symbol's shape, beyond its ink: whether its outline shows
on the card (a white cut-out on a white card does not) and whether a removed background
left the subject or scattered pieces (a busy background cannot be removed).

:mod:`printdeck.render.proof` stores both measures with the proof, so a build that reads
the proof from the disk cache warns as the one that made it; the one-line messages are
made here too.
"""

from __future__ import annotations

import numpy as np
from PIL import Image

from printdeck.artwork import Drawing, opencv
from printdeck.errors import shown
from printdeck.model import SymbolSpec
from printdeck.theme import visible_ink

FAINT_CONTRAST = 20
"""Largest largest-channel difference from the background at which an edge pixel is
faint: almost the card's colour (a white cat cut out, on a white card)."""
FAINT_EDGE_SHARE = 0.6
"""A symbol whose edge is faint on this share of it or more is warned about: players
would not see its shape."""
EDGE_PX = 2
"""How near, pixels of the proof's raster, to a drawing's outline ink must show."""
BACKGROUND_PIECES = 7
"""A photo whose removed background leaves this many separate parts or more
(:func:`printdeck.artwork.subject_pieces`) is warned about: its background was not plain.
Measured: the user's kitty on a textured wall 10, a white cat on a blue wall 1, a person
with a ball, a small ball, a wand and a hand reaching in 5, two people 2."""


class BackgroundWarning(UserWarning):
    """A photo's background was not plain enough to remove: scattered pieces print, not its subject."""


def faint_edge_share(rgba: Image.Image, background: str) -> float:
    """Share of the drawing's outline with no ink that shows near it: of the pixels on its
    outer ring (any ink, alpha over 8, beside a pixel with none), those with no pixel within
    :data:`EDGE_PX` whose colour, composited onto ``background`` (``#rrggbb``), differs from
    it by more than :data:`FAINT_CONTRAST`; 0.0 for a drawing with no ink. A thin dark
    outline shows beside its own faint antialiased rim; a white cut-out's rim, and a pale
    fringe its removed background left, show nothing."""
    cv2 = opencv()  # imported once, under a lock: OpenCV's bootstrap is not thread-safe

    alpha = np.asarray(rgba.convert("RGBA").getchannel("A"))
    inked = (alpha > 8).astype(np.uint8)
    padded = cv2.copyMakeBorder(inked, 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=0)
    ring = inked.astype(bool) & ~cv2.erode(padded, np.ones((3, 3), dtype=np.uint8))[1:-1, 1:-1].astype(bool)
    count = int(ring.sum())
    if count == 0:
        return 0.0
    shows = visible_ink(rgba, background, FAINT_CONTRAST).astype(np.uint8)
    near = cv2.dilate(shows, np.ones((2 * EDGE_PX + 1,) * 2, dtype=np.uint8)).astype(bool)
    return float((ring & ~near).sum()) / count


def background_pieces(symbol: SymbolSpec, art: Drawing) -> int:
    """How many separate parts a photo with ``remove_background`` prints
    (:func:`printdeck.artwork.subject_pieces`); 0 for any other symbol."""
    if symbol.kind != "photo" or not symbol.remove_background or art.crop is None:
        return 0
    from printdeck.artwork import subject_pieces  # noqa: PLC0415 - OpenCV only when measured

    return subject_pieces(symbol, art.crop)


def faint_message(label: str, symbol: SymbolSpec, background: str, boxed: bool = False) -> str:
    """The one line of a faint-edge warning, with the changes that make the shape show.
    ``boxed``: the picture has no transparency, so its edge is its own plain background
    (a drawing on white): another card colour would only show that box round it."""
    if boxed:
        return (
            f"{label}: {shown(symbol.source)} has no transparency, and its background is almost the card's colour "
            f"{background}: the layout keeps room for its whole box, which players do not see (on a card of "
            "another colour they would see the box); save it as a PNG with a transparent background (a cut-out)"
        )
    fixes = "set card.background to a colour it stands out from"
    if symbol.remove_background:
        fixes += ", or leave out remove_background (its own background then frames it)"
    return (
        f"{label}: most of the edge of {shown(symbol.source)} is almost the card's colour "
        f"{background}, so players may not see its shape; {fixes}"
    )


def background_message(label: str, symbol: SymbolSpec, pieces: int) -> str:
    """The one line of a :class:`BackgroundWarning`: the photo, why, and what to do."""
    return (
        f"{label}: the background of {shown(symbol.source)} is not plain enough to remove: it left "
        f"{pieces} separate pieces, not its subject; leave out remove_background, or use a photo "
        "taken against a plain wall or sky"
    )
