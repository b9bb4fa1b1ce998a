"""Plain data passed between the pipeline stages: theme -> design -> layout -> render.

Every length carries its unit in its name (``_mm`` or ``_pt``). Nothing here imports
ReportLab; the stages exchange only these frozen dataclasses and numpy arrays.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Literal

from printdeck.choices import PhotoShape
from printdeck.errors import PrintdeckError, shown

SymbolKind = Literal["svg", "raster", "text", "photo"]
NOT_DRAWN = {"drawing": False}
"""Field metadata of :class:`SymbolSpec` fields that do not change the symbol's drawing
(every other field is part of the drawing's cache key, see ``printdeck.artwork.drawing_key``)."""
NAMES_IT = {"drawing": False, "names_it": True}
"""Field metadata of a :class:`SymbolSpec` field that does not change the drawing but names the
symbol in messages, so :func:`drawn_only` keeps it."""


@dataclass(frozen=True)
class SymbolSpec:
    """One symbol of the deck, resolved from the theme.

    Attributes:
        id: Index of the symbol in the theme's resolved symbol list (0-based).
        name: Human name, e.g. ``"horse"`` (from the file name or the theme).
        kind: ``svg`` (vector artwork), ``raster`` (PNG/JPEG/WebP with alpha or
            opaque), ``text`` (a word drawn with a font), ``photo`` (opaque image,
            cropped to a shape).
        source: Manifest form: path relative to the repo root or theme folder,
            or ``text:<word>`` for text symbols.
        path: Absolute path of the artwork file; ``None`` for text symbols.
        text: The word of a text symbol; ``None`` otherwise.
        font_path: The font file (``.ttf``, ``.otf``, ``.ttc``) the theme names for a
            text symbol; ``None``: chosen by coverage from the bundled and the
            machine's fonts (``printdeck.artwork.fonts``).
        font_index: The face of a font collection (``.ttc``) to use, 0 for the first.
        scale: Per-symbol size multiplier (1.0 = as the layout chooses).
        rotate: Whether the layout may rotate this symbol.
        photo_shape: ``circle`` or ``rounded`` crop for photos; ``None`` otherwise.
        color: Home fill colour of a text symbol as ``#rrggbb`` (a card may set the
            word in another colour of the palette, see ``Placement.color``).
        color_fixed: The theme set this word's colour, so every card keeps it.
        lang: BCP 47 language of a text symbol (shaping forms, CJK regional glyphs), or None.
        focus: Photo only: the crop's centre as fractions of the (upright) width and
            height; None: around the faces found, else the centre.
        zoom: Photo only: the crop's side is ``min(w, h) / zoom``.
        nest: Other symbols may sit in this symbol's big holes (``layout.nest``);
            by default its collision outline has no holes.
        remove_background: Photo or raster picture: make a plain background touching
            the corners transparent (see ``printdeck.artwork.prepared_picture``).
        faces: A symbol with several faces (a concept: a picture and its word, "3 × 4"
            and "12"): every face's own symbol, face 0 first; this symbol's drawing
            fields are face 0's. Empty for a symbol with one face (the usual case).
        theme_key: The theme entry the symbol came from (``symbols.3``; a face:
            ``symbols.3.faces.1``), for an error about the symbol to name; ``None`` for a
            symbol made in code.
    """

    id: int = field(metadata=NOT_DRAWN)
    name: str = field(metadata=NOT_DRAWN)
    kind: SymbolKind
    source: str = field(metadata=NOT_DRAWN)
    path: Path | None = None
    text: str | None = None
    font_path: Path | None = None
    font_index: int = 0
    scale: float = field(default=1.0, metadata=NOT_DRAWN)
    rotate: bool = field(default=True, metadata=NOT_DRAWN)
    photo_shape: PhotoShape | None = None
    color: str = field(default="#1a1a1a", metadata=NOT_DRAWN)
    color_fixed: bool = field(default=False, metadata=NOT_DRAWN)
    remove_background: bool = False
    lang: str | None = None
    focus: tuple[float, float] | None = None
    zoom: float = 1.0
    nest: bool = field(default=False, metadata=NOT_DRAWN)
    faces: tuple[SymbolSpec, ...] = field(default=(), metadata=NOT_DRAWN)
    theme_key: str | None = field(default=None, metadata=NAMES_IT)

    def error(self, problem: str, fix: str | None = None, **fields: object) -> PrintdeckError:
        """An error about this symbol, from fields: ``key`` its :attr:`theme_key` (so the studio
        puts it on the symbol's tile), ``source`` its artwork file (if it has one), ``problem``
        and ``fix`` as given; the message ``"symbols.3 'cat' (images/cat.png): <problem>; <fix>"``
        (``"symbol 'cat' ..."`` for a symbol made in code).

        Examples:
            >>> cat = SymbolSpec(0, "cat", "svg", "cat.svg", Path("cat.svg"), theme_key="symbols.3")
            >>> error = cat.error("draws nothing", "give a picture with ink")
            >>> error.key, error.source, str(error)
            ('symbols.3', 'cat.svg', "symbols.3 'cat' (cat.svg): draws nothing; give a picture with ink")
        """
        source = shown(self.source) if self.path is not None else None
        where = f"{self.theme_key or 'symbol'} {self.name!r}" + (f" ({source})" if source else "")
        text = f"{where}: {problem}" + (f"; {fix}" if fix else "")
        return PrintdeckError(text, key=self.theme_key, source=source, problem=problem, fix=fix, **fields)  # type: ignore[arg-type]

    @property
    def all_faces(self) -> tuple[SymbolSpec, ...]:
        """The symbol's faces, face 0 first: ``faces``, or the symbol itself when it has one face."""
        return self.faces or (self,)


def drawn_only(symbol: SymbolSpec, *keep: str) -> SymbolSpec:
    """``symbol`` with its id and the other fields that do not change its drawing
    (``NOT_DRAWN``) reset, name, source and theme key kept for messages, so caches of drawings share
    one entry between a theme's symbol and the same symbol renumbered for the deck.

    Args:
        keep: Fields kept as they are besides: what a cache of more than the drawing also
            depends on (``"nest"`` for a silhouette, ``"color"`` for a word's proof).
    """
    defaults = {
        f.name: f.default
        for f in dataclasses.fields(symbol)
        if not f.metadata.get("drawing", True)
        and not f.metadata.get("names_it", False)
        and f.default is not dataclasses.MISSING
        and f.name not in keep
    }
    return dataclasses.replace(symbol, **defaults, id=0)


class CropFound(str, Enum):
    """What a photo's crop was placed around (the manifest's ``found``)."""

    FACE = "face"
    CAT_FACE = "cat face"
    SUBJECT = "subject"
    NOTHING = "nothing"
    FOCUS = "focus"


@dataclass(frozen=True)
class CropReport:
    """What a photo's crop was decided from, and where it went (issue #26).

    Attributes:
        found: What the crop holds: people's faces (``face``), only cats' faces (``cat
            face``), the subject of a photo with no face (``subject``), ``nothing`` (the
            centre), or the theme's ``focus``.
        box_px: The crop square ``(left, top, right, bottom)``, upright source pixels.
        faces: People's faces found.
        cat_faces: Cats' faces found.
        faces_kept: Faces (both kinds) wholly inside the crop's shape.
        subject_px: The subject's box ``(x0, y0, x1, y1)`` in source pixels, or None.
        subject_whole: The subject's box is wholly inside the crop's shape.
    """

    found: CropFound
    box_px: tuple[float, float, float, float]
    faces: int = 0
    cat_faces: int = 0
    faces_kept: int = 0
    subject_px: tuple[float, float, float, float] | None = None
    subject_whole: bool = False

    @property
    def faces_cut(self) -> int:
        """Faces found but not wholly in the crop (a group too wide for the shape)."""
        return self.faces + self.cat_faces - self.faces_kept

    @property
    def needs_check(self) -> bool:
        """A person should look at this crop: nothing was found, a face is cut, or the
        subject (with no face) does not fit whole."""
        if self.found == CropFound.FOCUS:
            return False
        if self.found == CropFound.SUBJECT:
            return not self.subject_whole
        return self.found == CropFound.NOTHING or self.faces_cut > 0

    @property
    def faces_cut_text(self) -> str:
        """What a crop that cuts a face left out, in words the build's summary and the studio
        share: ``its face is too near the edge ...`` (one face), ``none of its 3 faces ...``,
        ``2 of 5 faces fit the crop, the largest group that does``; empty when none is cut."""
        total = self.faces + self.cat_faces
        if self.faces_cut <= 0:
            return ""
        if total == 1:
            return "its face is too near the edge for the crop to hold it whole"
        if self.faces_kept == 0:
            return f"none of its {total} faces fits the crop whole"
        return f"{self.faces_kept} of {total} faces fit the crop, the largest group that does"

    @property
    def badge(self) -> str:
        """The studio's word for it: ``face``, ``pet``, ``subject``, ``your focus``,
        or ``centre: check me`` (and ``check me`` after the others when :attr:`needs_check`)."""
        word = {
            CropFound.FACE: "face",
            CropFound.CAT_FACE: "pet",
            CropFound.SUBJECT: "subject",
            CropFound.FOCUS: "your focus",
            CropFound.NOTHING: "centre",
        }[self.found]
        return f"{word}: check me" if self.needs_check else word

    def as_json(self) -> dict[str, object]:
        """The manifest's record of this crop (pixels rounded to 0.1)."""
        return {
            "found": self.found.value,
            "box_px": [round(v, 1) for v in self.box_px],
            "faces": self.faces,
            "cat_faces": self.cat_faces,
            "faces_kept": self.faces_kept,
            "subject_px": None if self.subject_px is None else [round(v, 1) for v in self.subject_px],
            "subject_whole": self.subject_whole,
            "check": self.needs_check,
        }

    @classmethod
    def from_json(cls, data: dict[str, object]) -> CropReport:
        """The inverse of :meth:`as_json` (the crop cache).

        Raises:
            ValueError, TypeError, KeyError: the record is malformed.
        """
        box = tuple(float(v) for v in data["box_px"])  # type: ignore[attr-defined]
        subject = data.get("subject_px")
        return cls(
            CropFound(data["found"]),
            (box[0], box[1], box[2], box[3]),
            int(data.get("faces", 0)),  # type: ignore[call-overload]
            int(data.get("cat_faces", 0)),  # type: ignore[call-overload]
            int(data.get("faces_kept", 0)),  # type: ignore[call-overload]
            None if subject is None else tuple(float(v) for v in subject),  # type: ignore[arg-type,attr-defined]
            bool(data.get("subject_whole", False)),
        )


@dataclass(frozen=True)
class Placement:
    """Where one symbol sits on a card (the manifest's placed-symbol record).

    The artwork's whole box (full image, or the SVG's full viewBox) is scaled to
    ``box_mm`` = (width, height), centred at ``center_mm`` relative to the card
    centre (x right, y up, mm), then rotated ``rotation_deg`` degrees
    counter-clockwise about that centre. ``color`` is the fill of a word on this card
    (``#rrggbb``; None for pictures).
    """

    symbol_id: int
    center_mm: tuple[float, float]
    rotation_deg: float
    box_mm: tuple[float, float]
    color: str | None = None


@dataclass(frozen=True)
class DeckMark:
    """A class set's deck mark on a card front: a dot of the deck's colour with its letter.

    Attributes:
        deck: The deck's number, 1..N.
        letter: The deck's letter (``A`` for deck 1).
        color: The deck's colour ``#rrggbb`` (its backs' colour too).
        center_mm: The dot's centre from the card's centre (x right, y up), mm.
        radius_mm: The dot's radius, mm; the layout keeps its place free.
    """

    deck: int
    letter: str
    color: str
    center_mm: tuple[float, float]
    radius_mm: float


@dataclass(frozen=True)
class CardLayout:
    """One laid-out card.

    Attributes:
        index: Card index in the deck (0-based).
        placements: One per symbol on the card, in the card's symbol order.
        coverage: Union of silhouettes over the safe-zone disc area, in [0, 1].
        min_gap_mm: Smallest distance between two symbols' silhouettes (their
            conservative collision outlines); the safe-zone circle does not count
            (symbols must lie inside it, with no gap required).
        size_ratio: Smallest over largest symbol, by square root of silhouette area.
        mark: A class set's deck mark drawn on the front, or None (one deck). In a class
            set ``index`` counts through every deck (deck d's card i is ``(d - 1) * cards + i``).
    """

    index: int
    placements: tuple[Placement, ...]
    coverage: float
    min_gap_mm: float
    size_ratio: float
    mark: DeckMark | None = None


def card_in_deck(layouts: Sequence[CardLayout]) -> list[int]:
    """Each card's index in its own deck (0-based): a class set's deck B starts again at 0
    (its layouts count through every deck, deck d's card i at ``(d - 1) * cards + i``), as
    the manifest, ``printdeck answer`` and the per-card images number them."""
    decks = len({c.mark.deck for c in layouts if c.mark is not None})
    per_deck = max(1, len(layouts) // max(1, decks))
    return [c.index % per_deck if c.mark is not None else c.index for c in layouts]


@dataclass(frozen=True)
class CardSlot:
    """Where a card sits in the imposition: page (1-based) and centre (mm, from
    the page's bottom-left corner)."""

    card_index: int
    page: int
    center_mm: tuple[float, float]
