"""Plain data passed between the pipeline stages: theme -> design -> layout -> render.

Every length carries its unit in its name (``_mm`` or ``_pt``). Nothing here imports
ReportLab; the stages exchange only these frozen dataclasses and numpy arrays.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

SymbolKind = Literal["svg", "raster", "text", "photo"]


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
        font_path: TTF/OTF used for a text symbol; ``None`` means the bundled font.
        scale: Per-symbol size multiplier (1.0 = as the layout chooses).
        rotate: Whether the layout may rotate this symbol.
        photo_shape: ``circle`` or ``rounded`` crop for photos; ``None`` otherwise.
        color: Fill colour of a text symbol as ``#rrggbb``.
        remove_background: Photo only: make a plain background touching the
            corners transparent (see ``printdeck.theme.images.prepared_image``).
    """

    id: int
    name: str
    kind: SymbolKind
    source: str
    path: Path | None = None
    text: str | None = None
    font_path: Path | None = None
    scale: float = 1.0
    rotate: bool = True
    photo_shape: Literal["circle", "rounded"] | None = None
    color: str = "#1a1a1a"
    remove_background: bool = False


@dataclass(frozen=True)
class Placement:
    """Where one symbol sits on a card (the manifest's placed-symbol record).

    The artwork's whole box (full image, or the SVG's full viewBox) is scaled to
    ``box_mm`` = (width, height), centred at ``center_mm`` relative to the card
    centre (x right, y up, mm), then rotated ``rotation_deg`` degrees
    counter-clockwise about that centre.
    """

    symbol_id: int
    center_mm: tuple[float, float]
    rotation_deg: float
    box_mm: tuple[float, float]


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
    """

    index: int
    placements: tuple[Placement, ...]
    coverage: float
    min_gap_mm: float
    size_ratio: float


@dataclass(frozen=True)
class CardSlot:
    """Where a card sits in the imposition: page (1-based) and centre (mm, from
    the page's bottom-left corner)."""

    card_index: int
    page: int
    center_mm: tuple[float, float]


@dataclass
class BuildResult:
    """What ``printdeck.pipeline.build`` produced (for the CLI's summary line)."""

    pdf_path: Path
    manifest_path: Path
    pages: int
    cards: int
    symbols_per_card: int
    size_bytes: int
    png_paths: list[Path] = field(default_factory=list)
    timings_s: dict[str, float] = field(default_factory=dict)
