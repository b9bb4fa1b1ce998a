"""The theme file's typed model (pydantic v2): what a YAML theme may say.

Lengths are written with units in YAML (``diameter: 85mm``) and stored in mm in
fields whose names end in ``_mm``; the YAML key is the field's alias. Bounds on
every number turn absurd sizes (a 1 mm card, a 5 m bleed) into errors that name
the key. Unions carry tags (see ``printdeck.theme.messages``) so that a wrong value
gives one error about the branch the user meant, not one per branch.

The print sections (``paper``, ``backs``, ``extras``) are in :mod:`~.spec_print` and the
building blocks (lengths, colours, seeds, the strict base) in :mod:`~.spec_types`.
"""

from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Annotated, Literal

from pydantic import (
    BeforeValidator,
    Discriminator,
    Field,
    Tag,
    WithJsonSchema,
    model_validator,
)

from printdeck.card_sizes import NAMED_SIZES, resolve_shape, size_names
from printdeck.cardshape import CardShape
from printdeck.choices import (
    PICTURE_FORMATS,
    Orientation,
    PhotoShape,
    RotationWord,
    ShapeKind,
    SymbolChoice,
)
from printdeck.design import MAX_SYMBOLS_PER_CARD, MIN_ORDER, MIN_SYMBOLS_PER_CARD
from printdeck.model import SymbolSpec
from printdeck.theme.palettes import WORD_PALETTE
from printdeck.theme.spec_print import BacksSpec, ExtrasSpec, PaperSpec
from printdeck.theme.spec_types import (
    MAX_WORD_CHARS,
    Color,
    Copies,
    DeckName,
    Language,
    Length,
    NonEmptyText,
    Seed,
    StrictModel,
    by_type,
    form_help,
    worked_out,
)

SCHEMA_FILE_NAME = "theme.schema.json"


class FacesMode(str, Enum):
    """How a deck shows the symbols that have several faces (``deck.faces``)."""

    MIXED = "mixed"
    """One deck; each occurrence shows one face, balanced, a shared symbol in different faces as often as can be."""
    SPLIT = "split"
    """Two decks: A shows every symbol's first face, B its second; a card of A is played against a card of B."""


class DeckSpec(StrictModel):
    """Which design: size, λ, trim, symbol choice."""

    symbols_per_card: int | None = Field(
        default=None,
        ge=MIN_SYMBOLS_PER_CARD,
        le=MAX_SYMBOLS_PER_CARD,
        description="k, symbols on each card; leave out (with order) for the largest deck (up to 8 a card) the "
        "symbols allow",
        json_schema_extra=form_help("left empty: the largest deck the symbols allow, up to 8 a card"),
    )
    order: int | None = Field(
        default=None,
        ge=MIN_ORDER,
        le=MAX_SYMBOLS_PER_CARD - 1,
        description="order n of the design: k = n + match (a plane of order 7 has 8 a card)",
    )
    match: Literal[1, 2] = Field(
        default=1, description="λ: symbols every two cards share", json_schema_extra=form_help("")
    )
    cards: int | None = Field(default=None, ge=1, le=2000, description="trim the deck to this many cards")
    search: bool = Field(default=False, description="search a partial deck when no design exists")
    choose: SymbolChoice = Field(
        default=SymbolChoice.SEEDED,
        validate_default=True,
        description="which symbols to use when more are given than needed",
    )
    drop_unused: bool = Field(default=False, description="after trimming, drop symbols no card uses")
    faces: FacesMode = Field(
        default=FacesMode.MIXED,
        description="symbols with faces: mixed (each card shows one face of each of its symbols, two cards "
        "sharing a symbol mostly in different faces) or split (deck A shows face 1, deck B face 2)",
        json_schema_extra=form_help(
            "for symbols shown two ways (a word and its picture, 3 × 4 and 12): two cards sharing one "
            "mostly show it in different ways"
        ),
    )
    copies: Copies = Field(
        default=1,
        description="a class set: this many decks, each with its own back colour, its letter in a coloured "
        "dot on every card front, and its own layouts",
    )
    allow_look_alike: bool = Field(
        default=False,
        description="print symbols players cannot tell apart (same silhouette up to turn, mirror and size, "
        "in nearly the same colours) with a warning instead of refusing them",
    )


CardLength = Annotated[Length, Field(ge=20.0, le=400.0)]


def _size_tag(value: object) -> str:
    """``card.size``'s branch: a named size, a length, or ``[width, height]``."""
    if isinstance(value, (list, tuple)):
        return "pair"
    if isinstance(value, str) and value.strip().lower() in NAMED_SIZES:
        return "name"
    return "length"


CardSize = Annotated[
    Annotated[CardLength, Tag("length")]
    | Annotated[tuple[CardLength, CardLength], Tag("pair")]
    | Annotated[str, WithJsonSchema({"enum": list(NAMED_SIZES)}), Tag("name")],
    Discriminator(_size_tag),
    BeforeValidator(lambda v: v.strip().lower() if isinstance(v, str) and v.strip().lower() in NAMED_SIZES else v),
]


class CardSpec(StrictModel):
    """The card: shape, cut size, bleed, safe zone, background."""

    shape: ShapeKind | None = Field(
        default=None,
        description="circle, square, rectangle or hexagon (default: circle, or the named size's shape)",
        json_schema_extra=form_help(""),
    )
    size: CardSize | None = Field(
        default=None,
        description="cut size: a length (a circle's diameter, a square's side, a hexagon's width across "
        "corners), [width, height] for a rectangle, or a name: " + size_names(),
        json_schema_extra=form_help("a length such as 85mm, or a card's name: " + size_names()),
    )
    diameter_mm: CardLength | None = Field(
        default=None,
        alias="diameter",
        description="a round card's cut diameter (the same as size; default 85mm)",
        json_schema_extra=form_help("a round card's cut size, the same as Card size: give one of the two"),
    )
    corner_radius_mm: Annotated[Length, Field(ge=0.0, le=50.0)] = Field(
        default=0.0, alias="corner_radius", description="rounded corners of a square or rectangle"
    )
    orientation: Orientation | None = Field(
        default=None,
        description="a hexagon's orientation: pointy (a corner at the top, the default) or flat",
        json_schema_extra=form_help(""),
    )
    bleed_mm: Annotated[Length, Field(ge=0.0, le=15.0)] = Field(
        default=3.0, alias="bleed", description="background beyond the cut"
    )
    safe_margin_mm: Annotated[Length, Field(ge=0.0, le=40.0)] = Field(
        default=3.0, alias="safe_margin", description="symbols stay this far inside the cut"
    )
    background: Color = "#ffffff"
    border_color: Color | None = Field(default=None, description="optional line just inside the cut")

    def outline(self) -> CardShape:
        """The card's cut shape (mm), from ``shape``, ``size``, ``diameter``, ``corner_radius``
        and ``orientation``.

        Raises:
            ValueError: The keys disagree (checked when the theme loads).
        """
        size = self.size if self.size is None or isinstance(self.size, (str, float, int)) else tuple(self.size)
        return resolve_shape(self.shape, size, self.diameter_mm, self.corner_radius_mm, self.orientation)


Rotation = Annotated[
    Annotated[RotationWord, Tag("word")] | Annotated[float, Field(ge=0, le=180), Tag("degrees")],
    by_type({str: "word", int: "degrees", float: "degrees"}, "word"),
]


PinLength = Annotated[Length, Field(ge=-1000.0, le=1000.0)]
PIN_SIZE_MAX_MM = 1000.0
"""The largest pinned size (the card's own bounds are checked against the card)."""


class SymbolPin(StrictModel):
    """Where one symbol sits on a pinned card (card coordinates: mm from the card's
    centre, x to the right, y up; the layout checks the card's own bounds)."""

    center_mm: tuple[PinLength, PinLength] = Field(
        alias="center", description="the symbol's centre, [x, y] from the card's centre (y up), e.g. [4mm, -10mm]"
    )
    rotation_deg: float = Field(
        default=0.0, alias="rotation", ge=-360.0, le=360.0, description="turn, degrees counter-clockwise"
    )
    size_mm: Annotated[Length, Field(gt=0.0, le=PIN_SIZE_MAX_MM)] = Field(
        alias="size", description="the longer side of the symbol's box (its drawing's frame), e.g. 22mm"
    )


class CardPins(StrictModel):
    """One card's pinned symbols: they stay where they are put, the card's other symbols
    are laid out around them (the same gap, safe zone and no-nesting rules)."""

    card: int = Field(ge=1, le=1_000_000, description="card number (1 = first, as printed)")
    symbols: list[Annotated[str, Field(min_length=1, max_length=500)]] = Field(
        min_length=1,
        max_length=64,
        description="the card's symbols by name, as the card showed them when pinned (a pin is not applied to a card "
        "that shows others: another seed or other symbols make other cards)",
    )
    place: dict[Annotated[str, Field(min_length=1, max_length=500)], SymbolPin] = Field(
        min_length=1, max_length=64, description="pinned symbols by name: centre, rotation and size"
    )

    @model_validator(mode="after")
    def _on_the_card(self) -> "CardPins":
        if len(set(self.symbols)) != len(self.symbols):
            raise ValueError("expected each of the card's symbols once in symbols (a name is given twice)")
        missing = [name for name in self.place if name not in self.symbols]
        if missing:
            raise ValueError(
                f"expected only the card's symbols in place: {missing[0]!r} is not one of {', '.join(self.symbols)}"
            )
        return self


class LayoutSpec(StrictModel):
    """How symbols are placed on a card."""

    gap_mm: Annotated[Length, Field(ge=0.0, le=20.0)] = Field(
        default=1.0, alias="gap", description="minimum gap between symbols (they need only lie inside the safe zone)"
    )
    size_ratio: float = Field(default=0.5, gt=0.05, le=1.0, description="smallest over largest symbol on a card")
    sizes: list[Annotated[float, Field(gt=0.05, le=1.0)]] | None = Field(
        default=None,
        min_length=1,
        max_length=32,
        description="size ladder, largest first, relative (e.g. [1, 0.8, 0.6])",
    )
    rotation: Rotation = Field(
        default=RotationWord.ANY,
        validate_default=True,
        description='"any", "none", or the largest angle in degrees either way (e.g. 30); left out, 30 in a '
        "deck with words (an upside-down word reads badly), else any",
        json_schema_extra=worked_out(
            form_help(
                "how far symbols may turn either way; left unset, 30 degrees in a deck with words, else any angle"
            )
        ),
    )
    attempts: int = Field(default=400, ge=1, le=100000, description="placement tries a symbol before giving up")
    rotate_photos: bool = Field(
        default=False, description="whether photos may turn too (faces print upright by default)"
    )
    nest: bool = Field(
        default=False,
        description="let symbols sit inside other symbols' holes (a ring, an outline "
        "icon); by default holes are filled, so symbols never nest",
    )
    reroll: dict[Annotated[int, Field(ge=1)], Annotated[int, Field(ge=0, le=1_000_000)]] = Field(
        default_factory=dict,
        description="re-roll single cards' layouts: card number (1 = first) -> attempt "
        "(1, 2, ...; 0 = the first layout), e.g. {3: 1}",
    )
    pinned: list[CardPins] = Field(
        default_factory=list,
        max_length=100_000,
        description="touched-up cards: per card, symbols fixed in place (centre, rotation, size); the rest of "
        "the card is laid out around them",
    )

    @model_validator(mode="after")
    def _one_entry_a_card(self) -> "LayoutSpec":
        seen: set[int] = set()
        for pins in self.pinned:
            if pins.card in seen:
                raise ValueError(f"expected one pinned entry a card: card {pins.card} has two")
            seen.add(pins.card)
        return self


class SymbolEntry(StrictModel):
    """One item of ``symbols:``: exactly one of folder, image, text, photo, faces.

    ``faces`` makes one symbol (a concept) with several faces, each an image, photo or
    word of its own (with its own keys), e.g. a picture of a cat and the word "gato":
    two cards that share the symbol may show it in different faces.

    ``image`` and ``photo`` may also name a folder: every picture file in it (an SVG
    only for ``image``), sorted by name.
    """

    folder: NonEmptyText | None = Field(default=None, description=f"folder of images ({PICTURE_FORMATS})")
    image: NonEmptyText | None = Field(default=None, description=f"one image file ({PICTURE_FORMATS}) or a folder")
    text: Annotated[str, Field(min_length=1, max_length=MAX_WORD_CHARS)] | None = Field(
        default=None, description="a word or a character drawn with the theme's font"
    )
    photo: NonEmptyText | None = Field(
        default=None, description="an opaque photo (or folder of them), cropped to shape"
    )
    name: Annotated[str, Field(min_length=1, max_length=80)] | None = Field(
        default=None, description="name in the legend; default: file name or the word"
    )
    scale: float = Field(default=1.0, gt=0.1, le=3.0, description="size multiplier for this symbol")
    rotate: bool | None = Field(
        default=None,
        description=(
            "whether the layout may turn this symbol (default: yes; photos as layout.rotate_photos; a word "
            "with a times or plus sign, which turned reads as the other, stays upright)"
        ),
    )
    shape: PhotoShape = Field(default=PhotoShape.CIRCLE, validate_default=True, description="photo crop")
    focus: tuple[Annotated[float, Field(ge=0.0, le=1.0)], Annotated[float, Field(ge=0.0, le=1.0)]] | None = Field(
        default=None,
        description="photo: the point to centre the crop on, as fractions of width and height, e.g. "
        "[0.5, 0.3] (default: around the faces found, else the centre)",
    )
    zoom: float = Field(default=1.0, ge=1.0, le=10.0, description="photo: crop closer (2 = half the side)")
    remove_background: bool = Field(
        default=False,
        description="photo, or a PNG, JPEG or other raster image: make a plain background around the subject "
        "transparent (clip art on white prints without its white)",
    )
    font: NonEmptyText | None = Field(
        default=None, description="text: font file for this word: .ttf, .otf, or .ttc#N for face N (default: text.font)"
    )
    color: Color | None = Field(
        default=None,
        description="text: colour of this word on every card (default: each card "
        "gives its words different colours of text.colors)",
    )
    lang: Language | None = Field(
        default=None, description="text: language of this word, e.g. ja, zh-Hans (default: text.lang)"
    )
    faces: list["SymbolEntry"] | None = Field(
        default=None,
        min_length=2,
        max_length=8,
        description="one symbol shown in several ways: two or more faces, each an image, photo or text "
        "entry, e.g. [{image: cat.png}, {text: gato}] or [{text: 3 × 4}, {text: '12'}]",
    )


SymbolEntry.model_rebuild()


SymbolItem = Annotated[
    Annotated[NonEmptyText, Tag("path")] | Annotated[SymbolEntry, Tag("entry")],
    by_type({str: "path"}, "entry"),
]


class TextSpec(StrictModel):
    """Fonts and colours for text symbols."""

    font: NonEmptyText | None = Field(
        default=None,
        description="font file (.ttf, .otf, or .ttc#N for face N); default: chosen per word from the "
        "bundled fonts (Latin, Greek, Cyrillic, Arabic, Hebrew, Devanagari, Thai) and the "
        "computer's fonts",
        json_schema_extra=form_help(""),
    )
    colors: list[Color] = Field(
        default_factory=lambda: list(WORD_PALETTE),
        min_length=1,
        max_length=64,
        description="word colours; the words of one card get different ones while there are enough",
    )
    lang: Language | None = Field(
        default=None,
        description="language of the words (BCP 47, e.g. ja, zh-Hans, sr): picks regional glyph forms",
        json_schema_extra=form_help("the words' language, e.g. ja, zh-Hans or sr: it picks the letter forms printed"),
    )


class ThemeSpec(StrictModel):
    """A whole theme file."""

    name: DeckName | None = Field(default=None, description="output file name: letters of any script, digits, - _ .")
    title: str = Field(
        default="printdeck",
        max_length=200,
        description="printed on the backs, the sheets' footers and the tuck box; left out, the theme's name "
        "in words (family-deck: Family deck), or its file's or folder's",
        json_schema_extra=worked_out(form_help("printed on the backs, the sheets' footers and the tuck box")),
    )
    author: str = Field(default="", max_length=200)
    seed: Seed = Field(default=1, description="seed for symbol choice, assignment and layout")
    deck: DeckSpec = Field(default_factory=DeckSpec)
    card: CardSpec = Field(default_factory=CardSpec)
    layout: LayoutSpec = Field(default_factory=LayoutSpec)
    paper: PaperSpec = Field(default_factory=PaperSpec)
    backs: BacksSpec = Field(default_factory=BacksSpec)
    extras: ExtrasSpec = Field(default_factory=ExtrasSpec)
    text: TextSpec = Field(default_factory=TextSpec)
    symbols: list[SymbolItem] = Field(default_factory=list, max_length=5000)


@dataclass(frozen=True)
class Theme:
    """A loaded, validated theme with its symbols resolved to files or words.

    Attributes:
        spec: The validated theme file. After ``load_theme``,
            ``spec.deck.symbols_per_card`` is always set (inferred from the number
            of symbols when the file gives neither it nor ``order``).
        name: Theme name (the ``name`` key, else the file or folder stem).
        base_dir: Folder relative paths in the theme resolve against.
        symbols: Every symbol the theme offers, ids 0..len-1 in theme order
            (the deck may use a subset: see ``deck.choose``).
        attribution: Credit line for the artwork, printed on the PDF.
        path: The theme file read (None for a theme made in code).
        unchecked: SVG files read and fingerprinted but not yet structure-checked (a
            build's load, ``defer_svg_checks``), as (file, theme key, theme label):
            :func:`printdeck.theme.check_used_files` checks those its deck uses.
        sized: The deck section was checked against the symbols and its size set
            (False after ``load_theme(..., sized=False)``: the symbols may be too few
            for a deck; :func:`printdeck.theme.sized_theme` sizes or refuses it).
        label: What messages call a theme given as data, in place of a file name
            (``<theme>`` for a mapping, ``<YAML text>`` for text); None for a theme read
            from a file (``path``) or made in code.
    """

    spec: ThemeSpec
    name: str
    base_dir: Path
    symbols: tuple[SymbolSpec, ...]
    attribution: str | None = None
    path: Path | None = None
    unchecked: tuple[tuple[Path, str, str], ...] = ()
    sized: bool = True
    label: str | None = None
