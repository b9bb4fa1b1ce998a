"""Plain data passed between the pipeline stages: theme -> design -> layout -> render.

Every length carries its unit in its name (``_mm`` or ``_pt``). Nothing here imports
ReportLab; the stages exchange only these frozen dataclasses and numpy arrays.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from printdeck.choices import PhotoShape
from printdeck.errors import shown

SymbolKind = Literal["svg", "raster", "text", "photo"]
NOT_DRAWN = {"drawing": False}
"""Field metadata of :class:`SymbolSpec` fields that do not change the symbol's drawing
(every other field is part of the drawing's cache key, see ``printdeck.artwork.drawing_key``)."""


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
        remove_background: Photo only: make a plain background touching the
            corners transparent (see ``printdeck.artwork.prepared_picture``).
        faces: A symbol with several faces (a concept: a picture and its word, "3 × 4"
            and "12"): every face's own symbol, face 0 first; this symbol's drawing
            fields are face 0's. Empty for a symbol with one face (the usual case).
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

    @property
    def all_faces(self) -> tuple[SymbolSpec, ...]:
        """The symbol's faces, face 0 first: ``faces``, or the symbol itself when it has one face."""
        return self.faces or (self,)


def drawn_only(symbol: SymbolSpec) -> SymbolSpec:
    """``symbol`` with its id and the other fields that do not change its drawing
    (``NOT_DRAWN``) reset, name and source kept for messages, so caches of drawings share
    one entry between a theme's symbol and the same symbol renumbered for the deck."""
    defaults = {
        f.name: f.default
        for f in dataclasses.fields(symbol)
        if not f.metadata.get("drawing", True) and f.default is not dataclasses.MISSING
    }
    return dataclasses.replace(symbol, **defaults, id=0)


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


@dataclass(frozen=True)
class CardSlot:
    """Where a card sits in the imposition: page (1-based) and centre (mm, from
    the page's bottom-left corner)."""

    card_index: int
    page: int
    center_mm: tuple[float, float]


@dataclass
class BuildResult:
    """What ``printdeck.build`` wrote (the command line prints it as its summary)."""

    pdf_path: Path
    manifest_path: Path
    pages: int
    cards: int
    symbols_per_card: int
    size_bytes: int
    png_paths: list[Path] = field(default_factory=list)
    unused: list[str] = field(default_factory=list)
    """Names of the theme's symbols that no card shows."""
    faces: str | None = None
    """A deck with faces: how they are shown (the summary's line), else None."""

    def summary_lines(self, path_text: Callable[[Path], str] = shown) -> list[str]:
        """What a build says when it is done, the same words on the command line and in
        the studio: the PNGs (if any), the PDF with its counts and size, the left-out symbols.

        Args:
            path_text: How a path is written (default: as given, made safe to print).
        """
        lines = []
        if self.png_paths:
            lines.append(f"wrote {len(self.png_paths)} PNG cards to {path_text(self.png_paths[0].parent)}")
        lines.append(
            f"wrote {path_text(self.pdf_path)}: {self.cards} cards, {self.symbols_per_card} symbols a card, "
            f"{self.pages} pages, {size_text(self.size_bytes)} (manifest {self.manifest_path.name})"
        )
        if self.faces:
            lines.append(self.faces)
        if self.unused:
            lines.append(left_out_line(self.unused))
        return lines


def size_text(size_bytes: int) -> str:
    """A file size as printdeck reports it: ``3.40 MB`` from 0.1 MB up, else ``412 kB``."""
    return f"{size_bytes / 1e6:.2f} MB" if size_bytes >= 1e5 else f"{size_bytes / 1e3:.0f} kB"


def left_out_line(names: list[str] | tuple[str, ...], most: int = 12) -> str:
    """``left out 9 symbols no card shows: a, b, ...`` (at most ``most`` names, then how many more)."""
    listed = ", ".join(shown(n) for n in names[:most])
    more = f" and {len(names) - most} more (the manifest lists them)" if len(names) > most else ""
    return f"left out {len(names)} symbol{'s' if len(names) != 1 else ''} no card shows: {listed}{more}"
