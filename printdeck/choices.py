"""Every option that is a choice, as a ``StrEnum``: one place names the words a theme,
the command line, the library and the studio accept.

A member is its word (``PaperName.A4 == "a4"``); the theme spec stores the plain word
(its models use ``use_enum_values``), so output bytes and messages stay as they were.
"""

from __future__ import annotations

import sys
from enum import Enum

if sys.version_info >= (3, 11):
    from enum import StrEnum
else:  # pragma: no cover - Python 3.10

    class StrEnum(str, Enum):
        """A str-valued enum whose ``str()`` is its value (as Python 3.11's ``enum.StrEnum``)."""

        def __str__(self) -> str:
            return str(self.value)


class PaperName(StrEnum):
    """A named paper size (portrait sizes: :data:`printdeck.units.PAPER_SIZES_MM`)."""

    A4 = "a4"
    LETTER = "letter"
    A3 = "a3"


class PaperLayout(StrEnum):
    """How cards are imposed: several a sheet, or one a page (trim + bleed)."""

    SHEET = "sheet"
    SINGLE = "single"


class PhotoShape(StrEnum):
    """The crop of a photo symbol."""

    CIRCLE = "circle"
    ROUNDED = "rounded"


PHOTO_CORNER_FRACTION = 0.15
"""Corner radius of a :attr:`PhotoShape.ROUNDED` crop, as a fraction of the square's side
(the print, the silhouette and the studio's thumbnails all use it)."""

FONT_SUFFIXES = (".ttf", ".otf", ".ttc", ".otc")
"""Font files printdeck reads (TrueType, OpenType and their collections)."""

PHOTO_FORMATS = "PNG, JPEG, WebP, HEIC, AVIF"
"""The raster picture formats printdeck reads (a photo's, a picture with transparency's), in words."""
PICTURE_FORMATS = f"{PHOTO_FORMATS}, SVG"
"""Every picture format printdeck reads, in words (help texts, the schema and messages say them)."""

MAX_IMAGE_BYTES = 80_000_000
"""Largest raster or photo file accepted (a 48-megapixel phone photo fits); here, not in
:mod:`printdeck.artwork.decode`, so code that only checks a size loads no image decoder."""


class BackFit(StrEnum):
    """How a back image fills the back: all of it, or the whole image on the colour."""

    COVER = "cover"
    CONTAIN = "contain"


class BackPattern(StrEnum):
    """What is drawn on a back without an image."""

    NONE = "none"
    TITLE = "title"
    RINGS = "rings"
    DOTS = "dots"


class Duplex(StrEnum):
    """The edge a duplex printer turns the sheet on."""

    LONG_EDGE = "long-edge"
    SHORT_EDGE = "short-edge"

    @property
    def flip(self) -> str:
        """This edge as a print dialog names it: ``flip on long edge``, ``flip on short edge``."""
        return f"flip on {self.value.removesuffix('-edge')} edge"


class SymbolChoice(StrEnum):
    """Which symbols a deck uses when the theme gives more than it needs."""

    FIRST = "first"
    SEEDED = "seeded"


class RotationWord(StrEnum):
    """``layout.rotation`` as a word: turn freely, or never."""

    ANY = "any"
    NONE = "none"


class ShapeKind(StrEnum):
    """A card's outline."""

    CIRCLE = "circle"
    SQUARE = "square"
    RECTANGLE = "rectangle"
    HEXAGON = "hexagon"


class Orientation(StrEnum):
    """A hexagon's orientation: ``pointy`` has a corner at the top, ``flat`` a side."""

    POINTY = "pointy"
    FLAT = "flat"


class CutLines(StrEnum):
    """How cards sit on a sheet: each with its own bleed, or touching and sharing cut lines."""

    SEPARATE = "separate"
    SHARED = "shared"


class CutGuide(StrEnum):
    """The cut guide's automatic setting (``true`` / ``false`` force it)."""

    AUTO = "auto"


class SlideReveal(StrEnum):
    """How a classroom slide shows the match: ringed on both cards, named with its picture
    in the corner, or both."""

    RING = "ring"
    CORNER = "corner"
    BOTH = "both"


class SlideGame(StrEnum):
    """The game whose rules the slides' title shows: the whole-class screen game, or one of
    the rules sheet's table games."""

    SCREEN = "screen"
    HEAP = "heap"
    EMPTY_YOUR_PILE = "empty-your-pile"
    PASS_THE_PARCEL = "pass-the-parcel"
    RING_AROUND = "ring-around"
    GIFT_GIVER = "gift-giver"


class SaveKind(StrEnum):
    """What ``Deck.save`` writes (``printdeck.make(...).save(out, kind)``)."""

    PDF = "pdf"
    """The print-ready PDF (sheets, backs, legend, rules, as the theme asks)."""
    PNG_ZIP = "png-zip"
    """A zip of one PNG a card (``card-001.png`` ...), at the deck's dpi and margin."""
    MANIFEST = "manifest"
    """The manifest as indented JSON (what :attr:`Deck.manifest` holds)."""


class ColourMode(StrEnum):
    """How a PDF's colours are written: ``rgb`` (sRGB, for screens and office printers) or
    ``cmyk`` (press CMYK through the bundled FOGRA39 profile, as PDF/X)."""

    RGB = "rgb"
    CMYK = "cmyk"


class PdfX(StrEnum):
    """The PDF/X standard a CMYK file follows: ``x-4`` (PDF/X-4, PDF 1.6: layers and live
    transparency allowed) or ``x-1a`` (PDF/X-1a:2003, PDF 1.4: no transparency, no layers)."""

    X4 = "x-4"
    X1A = "x-1a"


INK_LIMITS = (240, 260, 280, 300, 320)
"""Total ink limits (percent of C + M + Y + K) that bundled CMYK profiles exist for."""


class BackOrder(StrEnum):
    """Where a card's back page goes in one-card-a-page files: ``after`` or ``before`` its front."""

    AFTER = "after"
    BEFORE = "before"


class SheetSide(StrEnum):
    """A printed sheet's side: its cards' fronts, or their backs (mirrored for duplex)."""

    FRONT = "front"
    BACK = "back"


class ImageFormat(StrEnum):
    """The per-card images' file format."""

    PNG = "png"
    JPG = "jpg"
