"""The theme's print sections: the paper and imposition (``paper``), the card backs
(``backs``) and the optional pages (``extras``).
"""

import re
from typing import Annotated

from pydantic import (
    AfterValidator,
    BeforeValidator,
    Field,
    Tag,
    WithJsonSchema,
)

from printdeck.choices import (
    INK_LIMITS,
    PICTURE_FORMATS,
    BackFit,
    BackOrder,
    BackPattern,
    ColourMode,
    CutGuide,
    CutLines,
    Duplex,
    PaperLayout,
    PaperName,
    PdfX,
)
from printdeck.theme.spec_types import COLOUR_FORMAT, Color, Length, StrictModel, by_type, form_help, worked_out
from printdeck.units import LengthError, parse_length_mm

PaperLength = Annotated[Length, Field(ge=50.0, le=1500.0)]


_ONE_UNIT = re.compile(r"(\d+(?:\.\d+)?)\s*[x×]\s*(\d+(?:\.\d+)?)\s*(mm|cm|in|pt)")


def _paper_words(value: object) -> object:
    """A paper size written as text: a name (``"A4"`` is a4), or ``WIDTHxHEIGHT``
    (``"200mmx280mm"``, or ``"4x6in"`` with the unit once) as the pair ``[width, height]``
    is written; the theme file and ``--paper`` both read it here.

    Raises:
        ValueError: Text that is neither a name nor two lengths joined by ``x``.
    """
    if not isinstance(value, str):
        return value
    text = value.strip().lower()
    if text in tuple(PaperName):
        return text
    one_unit = _ONE_UNIT.fullmatch(text)  # "4x6in": the unit written once, after both numbers
    if one_unit is not None:
        return (one_unit.group(1) + one_unit.group(3), one_unit.group(2) + one_unit.group(3))
    parts = [part.strip() for part in text.replace("×", "x").split("x")]
    if len(parts) == 2 and all(parts):
        try:
            for part in parts:
                parse_length_mm(part)
        except LengthError:
            raise ValueError(f"expected a width and height with units such as 210mmx297mm, got {value!r}") from None
        return (parts[0], parts[1])
    raise ValueError(
        f"expected {', '.join(PaperName)}, or a width and height with units such as 200mmx280mm "
        f"(in a theme also [200mm, 280mm]), got {value!r}"
    )


PaperSize = Annotated[
    Annotated[PaperName, Tag("name")] | Annotated[tuple[PaperLength, PaperLength], Tag("size")],
    by_type({str: "name", list: "size", tuple: "size"}, "name"),
    BeforeValidator(_paper_words),
]


def paper_size(value: object) -> str | tuple[float, float]:
    """A paper size as ``paper.size`` and ``--paper`` read it: a name (``"a4"``), or
    ``(width_mm, height_mm)`` from ``"200mmx280mm"`` or a pair of lengths.

    Raises:
        ValueError: Neither, or a side outside 50-1500 mm (the message says what is expected).
    """
    from pydantic import TypeAdapter, ValidationError  # noqa: PLC0415 - only for a size given alone

    try:
        size: str | tuple[float, float] = TypeAdapter(PaperSize).validate_python(value)
    except ValidationError as exc:
        err = exc.errors()[0]
        bounds = err.get("ctx") or {}
        if "ge" in bounds or "le" in bounds:  # a side out of range: said in mm, as given
            limit = f"at least {bounds['ge']:g}mm" if "ge" in bounds else f"at most {bounds['le']:g}mm"
            raise ValueError(f"each side must be {limit}, got {value!r}") from None
        raise ValueError(err["msg"].removeprefix("Value error, ")) from None
    return size


def _ink_limit(value: int) -> int:
    if value not in INK_LIMITS:
        raise ValueError(f"expected one of {', '.join(map(str, INK_LIMITS))} (percent), got {value}")
    return value


InkLimit = Annotated[int, AfterValidator(_ink_limit), WithJsonSchema({"type": "integer", "enum": list(INK_LIMITS)})]


class PaperSpec(StrictModel):
    """The sheet the cards are imposed on."""

    size: PaperSize = Field(
        default=PaperName.A4,
        validate_default=True,
        description=f"{', '.join(PaperName)}, or a width and height: 200mmx280mm or [200mm, 280mm]",
        json_schema_extra=form_help(""),
    )
    margin_mm: Annotated[Length, Field(ge=0.0, le=100.0)] = Field(
        default=5.0,
        alias="margin",
        description="distance from the paper edge (left out, 12 mm with registration marks)",
        json_schema_extra=worked_out(),
    )
    gap_mm: Annotated[Length, Field(ge=0.0, le=100.0)] = Field(
        default=4.0, alias="gap", description="space between neighbouring bleeds"
    )
    layout: PaperLayout = Field(
        default=PaperLayout.SHEET,
        validate_default=True,
        description="sheet: several cards a page; single: one card a page (trim + bleed)",
        json_schema_extra=form_help(""),
    )
    cuts: CutLines = Field(
        default=CutLines.SEPARATE,
        validate_default=True,
        description="separate: each card its own bleed; shared: square, rectangular and hexagonal cards touch "
        "and share cut lines, with bleed only around the block (more cards a sheet)",
        json_schema_extra=form_help("shared: straight-edged cards touch, one cut between two (more cards a sheet)"),
    )
    cut_marks: bool = Field(
        default=True,
        description="crop marks outside the bleed (corner marks for straight edges); "
        "false: none, and the cards may take their room (more may fit a sheet)",
        json_schema_extra=form_help(
            "short lines outside the bleed that show where to cut; without them more cards may fit"
        ),
    )
    cut_guide: CutGuide | bool = Field(
        default=CutGuide.AUTO,
        validate_default=True,
        description="draw the cut line as a hairline (for scissors); auto: on sheets whose card background "
        "is light or whose cards share cut lines, off for single pages, PNGs and a die line's sheets",
        json_schema_extra=form_help("a thin line along each card's cut, to follow with scissors"),
    )
    punch_ring: bool = Field(
        default=False, description="a thin ring at the bleed's outer edge, for centring a circle punch (round cards)"
    )
    centre_mark: bool = Field(
        default=False,
        description="a small cross at each card's centre, for compass and rotary cutters; the layout keeps it free",
    )
    cut_files: bool = Field(
        default=False,
        description="also write each sheet's cut paths as <out>-cut-NN.svg and .dxf, at the PDF's positions "
        "(for cutting machines)",
        json_schema_extra=form_help("also save each sheet's cut paths as SVG and DXF files, for cutting machines"),
    )
    pack: bool = Field(
        default=False,
        description="class sets: sheets may mix decks (fewer sheets); each sheet's footer names its decks",
    )
    registration_marks: bool = Field(
        default=False,
        description="Silhouette-style registration marks on the front sheets (a 5 mm square top left, 20 mm "
        "L marks top right and bottom left, 5 mm from the edges) for print-then-cut; cards keep clear of them",
        json_schema_extra=form_help(
            "marks a print-then-cut machine reads to find the cards (Silhouette style); the cards keep clear of them"
        ),
    )
    scale_note: bool = Field(
        default=True,
        description='a note on each sheet to print at 100 % (not "fit to page") and a 50 mm scale bar to '
        "check it by; false: neither (a print service's sheets)",
        json_schema_extra=form_help('the "print at 100 %" note and a 50 mm ruler on each sheet, for a home printer'),
    )
    grayscale: bool = Field(
        default=False,
        description="print in grey, for a black-and-white printer: words in grey tones kept apart by "
        "lightness, symbols whose outlines match in the same grey warned about (the PDF is DeviceGray)",
    )
    max_ppi: int = Field(
        default=450,
        ge=150,
        le=2400,
        description="pictures are stored with this many pixels an inch at their largest printed size (up to 9 % "
        "more: stored sizes come in steps, so another seed finds them made), or all the source has",
    )
    color: ColourMode = Field(
        default=ColourMode.RGB,
        validate_default=True,
        description="rgb: sRGB for screens and office printers; cmyk: press CMYK through the bundled FOGRA39 "
        "profile, written as PDF/X",
    )
    pdfx: PdfX = Field(
        default=PdfX.X4,
        validate_default=True,
        description="with color: cmyk, the PDF/X standard: x-4 (PDF/X-4) or x-1a (PDF/X-1a:2003, no layers or "
        "transparency)",
    )
    ink_limit: InkLimit = Field(
        default=300, description="with color: cmyk, the total ink limit, percent of C + M + Y + K"
    )
    die_line: bool = Field(
        default=False,
        description="stroke each card's cut path in the overprinting spot colour CutContour on its own layer "
        "(for die cutters)",
    )


Offset = Annotated[Length, Field(ge=-20.0, le=20.0)]


class BacksSpec(StrictModel):
    """Card backs for duplex printing."""

    enabled: bool = False
    image: str | None = Field(
        default=None,
        min_length=1,
        description=f"picture or logo for the back: {PICTURE_FORMATS} (relative to the theme)",
        json_schema_extra=form_help("a picture or logo on every back"),
    )
    fit: BackFit = Field(
        default=BackFit.COVER,
        validate_default=True,
        description="cover: the image fills the back; contain: the whole image shows, centred on the colour",
        json_schema_extra=form_help(""),
    )
    size: float = Field(
        default=0.6,
        gt=0.05,
        le=1.0,
        description="contain: the image's longer side, as a share of the card's diameter",
        json_schema_extra=form_help("the whole picture on the colour: its longer side, as a share of the card"),
    )
    color: Color = Field(
        default="#2b4c7e",
        description=f"{COLOUR_FORMAT}; a class set's decks, and a split deck's A and B, take colours of their own, "
        "to tell apart face down",
    )
    pattern: BackPattern = Field(
        default=BackPattern.TITLE,
        validate_default=True,
        description="the back's face without an image: the title (and a class set's letter), rings, dots or none",
    )
    duplex: Duplex = Field(default=Duplex.LONG_EDGE, validate_default=True)
    order: BackOrder = Field(
        default=BackOrder.AFTER,
        validate_default=True,
        description="layout: single: each card's back page after its front, or before it (DriveThruCards)",
    )
    offset_x_mm: Offset = Field(default=0.0, alias="offset_x", description="shift backs right to correct printer drift")
    offset_y_mm: Offset = Field(default=0.0, alias="offset_y", description="shift backs up to correct printer drift")

    @property
    def back_first(self) -> bool:
        """One card a page: whether each back page comes before its front (``order: before``)."""
        return bool(self.order == BackOrder.BEFORE)


class ExtrasSpec(StrictModel):
    """Optional pages."""

    legend: bool = Field(default=False, description="a page of every symbol with its name")
    rules: bool = Field(default=False, description="a rules sheet for five mini-games")
    attribution: str | None = Field(default=None, max_length=500, description="credit line printed in small type")
    tuck_box: bool = Field(
        default=False, description="a tuck box template to cut, fold and glue (one a deck), sized for the deck"
    )
    card_thickness_mm: Annotated[Length, Field(ge=0.05, le=3.0)] = Field(
        default=0.3, alias="card_thickness", description="thickness of one printed card, for the tuck box's depth"
    )
