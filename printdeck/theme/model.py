"""The theme file's typed model (pydantic v2): what a YAML theme may say.

Lengths are written with units in YAML (``diameter: 85mm``) and stored in mm in
fields whose names end in ``_mm``; the YAML key is the field's alias.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Literal, Union

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, WithJsonSchema

from printdeck.model import SymbolSpec
from printdeck.units import parse_length_mm

LENGTH_PATTERN = r"^\s*[+-]?(\d+(\.\d*)?|\.\d+)\s*(mm|cm|in|pt)\s*$"

Length = Annotated[
    float,
    BeforeValidator(parse_length_mm),
    WithJsonSchema({"type": "string", "pattern": LENGTH_PATTERN, "examples": ["85mm", "3.15in"]}),
]
Color = Annotated[str, Field(pattern=r"^#[0-9a-fA-F]{6}$", examples=["#ffffff"])]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True, frozen=True)


class DeckSpec(_Strict):
    """Which design: size, λ, trim, symbol choice."""

    symbols_per_card: int | None = Field(None, ge=2, le=200, description="k, symbols on each card")
    order: int | None = Field(None, ge=2, le=199, description="order q of the plane (k = q + 1)")
    match: Literal[1, 2] = Field(1, description="λ: symbols every two cards share")
    cards: int | None = Field(None, ge=1, description="trim the deck to this many cards")
    search: bool = Field(False, description="search a partial deck when no design exists")
    choose: Literal["first", "seeded"] = Field(
        "seeded", description="which symbols to use when more are given than needed")
    drop_unused: bool = Field(False, description="after trimming, drop symbols no card uses")


class CardSpec(_Strict):
    """The round card: cut diameter, bleed, safe zone, background."""

    diameter_mm: Length = Field(85.0, alias="diameter", description="cut diameter")
    bleed_mm: Length = Field(3.0, alias="bleed", description="background beyond the cut")
    safe_margin_mm: Length = Field(3.0, alias="safe_margin", description="symbols stay this far inside the cut")
    background: Color = "#ffffff"
    border_color: Color | None = Field(None, description="optional ring just inside the cut")


class LayoutSpec(_Strict):
    """How symbols are placed on a card."""

    gap_mm: Length = Field(1.0, alias="gap", description="minimum gap between symbols and to the safe zone")
    size_ratio: float = Field(0.5, gt=0.05, le=1.0, description="smallest over largest symbol on a card")
    sizes: list[float] | None = Field(None, description="size ladder, largest first, relative (e.g. [1, 0.8, 0.6])")
    rotation: Union[Literal["any", "none"], Annotated[float, Field(ge=0, le=180)]] = Field(
        "any", description='"any", "none", or the largest angle in degrees either way (e.g. 30)')
    attempts: int = Field(400, ge=1, le=100000, description="placement tries a symbol before giving up")


class PaperSpec(_Strict):
    """The sheet the cards are imposed on."""

    size: Union[Literal["a4", "letter", "a3"], tuple[Length, Length]] = Field(
        "a4", description='"a4", "letter", "a3", or [width, height]')
    margin_mm: Length = Field(5.0, alias="margin", description="distance from the paper edge")
    gap_mm: Length = Field(4.0, alias="gap", description="space between neighbouring bleeds")
    layout: Literal["sheet", "single"] = "sheet"
    cut_marks: bool = True
    cut_guide: bool = Field(False, description="draw the cut circle (for scissors)")


class BacksSpec(_Strict):
    """Card backs for duplex printing."""

    enabled: bool = False
    image: str | None = Field(None, description="image file for the back (relative to the theme)")
    color: Color = "#2b4c7e"
    pattern: Literal["none", "title", "rings", "dots"] = "title"
    duplex: Literal["long-edge", "short-edge"] = "long-edge"
    offset_x_mm: Length = Field(0.0, alias="offset_x", description="shift backs right to correct printer drift")
    offset_y_mm: Length = Field(0.0, alias="offset_y", description="shift backs up to correct printer drift")


class ExtrasSpec(_Strict):
    """Optional pages."""

    legend: bool = Field(False, description="a page of every symbol with its name")
    rules: bool = Field(False, description="a rules sheet for five mini-games")
    attribution: str | None = Field(None, description="credit line printed in small type")


class SymbolEntry(_Strict):
    """One item of ``symbols:``: exactly one of folder, image, text, photo."""

    folder: str | None = None
    image: str | None = None
    text: str | None = None
    photo: str | None = None
    name: str | None = None
    scale: float = Field(1.0, gt=0.1, le=3.0)
    rotate: bool = True
    shape: Literal["circle", "rounded"] = "circle"
    color: Color | None = None


class TextSpec(_Strict):
    """Fonts and colours for text symbols."""

    font: str | None = Field(None, description="TTF/OTF file; default is the bundled Vera font")
    colors: list[Color] = Field(
        default_factory=lambda: ["#d62828", "#1d3557", "#2a9d8f", "#e76f51", "#6a4c93", "#f4a261"])


class ThemeSpec(_Strict):
    """A whole theme file."""

    name: str | None = None
    title: str = "printdeck"
    author: str = ""
    seed: int = Field(1, ge=0, le=2**32 - 1)
    deck: DeckSpec = Field(default_factory=DeckSpec)
    card: CardSpec = Field(default_factory=CardSpec)
    layout: LayoutSpec = Field(default_factory=LayoutSpec)
    paper: PaperSpec = Field(default_factory=PaperSpec)
    backs: BacksSpec = Field(default_factory=BacksSpec)
    extras: ExtrasSpec = Field(default_factory=ExtrasSpec)
    text: TextSpec = Field(default_factory=TextSpec)
    symbols: list[Union[str, SymbolEntry]] = Field(default_factory=list)


@dataclass(frozen=True)
class Theme:
    """A loaded, validated theme with its symbols resolved to files or words.

    Attributes:
        spec: The validated theme file.
        name: Theme name (the ``name`` key, else the file or folder stem).
        base_dir: Folder relative paths in the theme resolve against.
        symbols: Every symbol the theme offers, ids 0..len-1 in theme order
            (the deck may use a subset: see ``deck.choose``).
        attribution: Credit line for the artwork, printed on the PDF.
    """

    spec: ThemeSpec
    name: str
    base_dir: Path
    symbols: tuple[SymbolSpec, ...]
    attribution: str | None = None
