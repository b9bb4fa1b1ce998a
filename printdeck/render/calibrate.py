"""Duplex alignment test sheet: crosshairs on the front, mm scales on the back.

Page 1 (front) carries five crosshair targets; page 2 (back) carries, at the
mirrored positions (on a portrait page long-edge: x -> W - x, short-edge: y -> H - y;
landscape swaps them, as :func:`printdeck.render.backs.mirror_mm` does) plus the
current offset, a crosshair with -10..+10 mm scales. Printed duplex and held
against the light from the back, the front crosshair falls on the back's scales
at the printer's error; adding the readings (x, y) to the current
``backs.offset_x`` / ``offset_y`` lines the backs up.

Why adding works: with offset o and drift d (back-page coordinates) the back
scale is centred at mirror(f) + o + d while the front cross sits behind
mirror(f), so the reading is -(o + d); the new offset o + reading = -d cancels d.
"""

from __future__ import annotations

from pathlib import Path

from reportlab.lib.colors import HexColor
from reportlab.pdfgen.canvas import Canvas

from printdeck.choices import Duplex
from printdeck.errors import PrintdeckError, path_error
from printdeck.fileio import atomic_output
from printdeck.output_record import check_not_a_deck, check_pdf_path
from printdeck.render import pdf_fonts
from printdeck.render.backs import mirror_mm
from printdeck.render.canvas import new_canvas
from printdeck.render.sheet import INK, draw_ruler
from printdeck.theme import length_fix, paper_size
from printdeck.units import mm_to_pt, paper_size_mm

SCALE_HALF_MM = 10
TARGET_INSET_MM = (35.0, 50.0)
"""Corner targets sit this far (x, y) from the paper edges, mm."""
BACK_INK = HexColor("#c1121f")


def calibration_targets_mm(page_size_mm: tuple[float, float]) -> list[tuple[float, float]]:
    """Front target centres: the page centre and four near the corners, mm."""
    w, h = page_size_mm
    ix, iy = TARGET_INSET_MM
    return [(w / 2.0, h / 2.0), (ix, iy), (w - ix, iy), (ix, h - iy), (w - ix, h - iy)]


def write_calibration(
    out_path: Path,
    paper: str | tuple[float, float] = "a4",
    duplex: str = "long-edge",
    offset_mm: tuple[float | str, float | str] = (0.0, 0.0),
) -> int:
    """Write the two-page duplex alignment test and return its page count (2).

    Args:
        out_path: PDF to write (atomically).
        paper: ``a4``, ``letter``, ``a3``, ``WIDTHxHEIGHT`` (``"210mmx297mm"``) or
            (width, height) in mm, as ``paper.size`` reads it.
        duplex: ``long-edge`` or ``short-edge``, as the printer will be set.
        offset_mm: The offset (x, y) currently in the theme, applied to the back: mm, or
            lengths as ``backs.offset_x`` reads them (``"1.5mm"``, ``"0.06in"``).

    Raises:
        PrintdeckError: Unknown paper, an output not named ``.pdf`` (nothing else is ever
            written over) or a PDF there that printdeck did not write, an offset that is no
            length (said with its fix: ``"5"``, write its unit) or outside the range
            ``backs.offset_x`` takes (keyed ``offset_x`` / ``offset_y``), or an unwritable output.
        ValueError: Unknown duplex mode.
    """
    if Path(out_path).suffix.lower() != ".pdf":
        raise path_error("out", Path(out_path), "the calibration must be a .pdf file name")
    check_pdf_path(Path(out_path))  # a user's own PDF of that name is not replaced
    check_not_a_deck(Path(out_path), "the calibration")  # nor a deck, its manifest beside it
    offset_mm = (_offset("offset_x", offset_mm[0]), _offset("offset_y", offset_mm[1]))
    try:
        size = paper_size_mm(paper_size(paper) if isinstance(paper, str) else paper)  # text as --paper reads it
    except ValueError as exc:
        raise PrintdeckError(key="paper", is_argument=True, problem=str(exc), fix=length_fix(paper, "paper")) from None
    targets = calibration_targets_mm(size)
    with atomic_output(Path(out_path)) as tmp:
        c = new_canvas(
            tmp,
            size,
            title="printdeck duplex calibration",
            author="printdeck",
            subject=f"Duplex alignment test, {duplex}, offset {offset_mm[0]:g} mm, {offset_mm[1]:g} mm",
            duplex=duplex,
        )
        for t in targets:
            _cross(c, t, INK, 12.0, 0.6)
        _front_text(c, size, duplex)
        c.showPage()
        for t in targets:
            center = mirror_mm(t, size, duplex, offset_mm)
            _cross(c, center, BACK_INK, 3.0, 0.25)
            _scales(c, center)
        _back_text(c, size, offset_mm)
        c.showPage()
        c.save()
    return 2


def _cross(c: Canvas, center_mm: tuple[float, float], color: HexColor, half_mm: float, width_pt: float) -> None:
    x, y = mm_to_pt(center_mm[0]), mm_to_pt(center_mm[1])
    c.setStrokeColor(color)
    c.setLineWidth(width_pt)
    c.line(x - mm_to_pt(half_mm), y, x + mm_to_pt(half_mm), y)
    c.line(x, y - mm_to_pt(half_mm), x, y + mm_to_pt(half_mm))
    c.circle(x, y, mm_to_pt(min(3.0, half_mm / 2.0)), stroke=1, fill=0)


def _scales(c: Canvas, center_mm: tuple[float, float]) -> None:
    """-10..+10 mm scales along x and y through the centre, ticks each mm."""
    x, y = mm_to_pt(center_mm[0]), mm_to_pt(center_mm[1])
    c.setStrokeColor(BACK_INK)
    c.setFillColor(BACK_INK)
    c.setLineWidth(0.25)
    c.setFont(pdf_fonts.SANS, 4.5)
    for mm in range(-SCALE_HALF_MM, SCALE_HALF_MM + 1):
        tick = mm_to_pt(2.0 if mm % 5 == 0 else 1.0)
        d = mm_to_pt(mm)
        c.line(x + d, y - tick, x + d, y + tick)
        c.line(x - tick, y + d, x + tick, y + d)
        if mm % 5 == 0 and mm:
            c.drawCentredString(x + d, y - tick - 5.5, f"{mm:+d}")
            c.drawString(x + tick + 1.0, y + d - 1.5, f"{mm:+d}")
    c.drawString(x + mm_to_pt(SCALE_HALF_MM) + 2, y - 1.5, "x mm")
    c.drawCentredString(x, y + mm_to_pt(SCALE_HALF_MM) + 3, "y mm")


def _text_lines(c: Canvas, lines: list[str], x_mm: float, top_mm: float) -> None:
    c.setFillColor(INK)
    for i, line in enumerate(lines):
        c.setFont(pdf_fonts.SANS_BOLD if i == 0 else pdf_fonts.SANS, 9 if i == 0 else 7.5)
        c.drawString(mm_to_pt(x_mm), mm_to_pt(top_mm) - i * 10.5, line)


def _front_text(c: Canvas, size: tuple[float, float], duplex: str) -> None:
    _text_lines(
        c,
        [
            "printdeck duplex calibration: FRONT",
            f"Print both pages on one sheet, at 100 % (actual size), duplex {duplex} ('{Duplex(duplex).flip}').",
            "Check the scale bar below measures 50 mm. Then turn the sheet over and follow the steps on the back.",
        ],
        15.0,
        size[1] / 2.0 - 25.0,
    )
    draw_ruler(c, (size[0] / 2.0 - 28.0, 8.0, size[0] / 2.0 + 28.0, 13.0))


def _back_text(c: Canvas, size: tuple[float, float], offset_mm: tuple[float, float]) -> None:
    _text_lines(
        c,
        [
            "printdeck duplex calibration: BACK",
            "Hold the sheet against a window or lamp, looking at THIS side. The black crosshairs of the",
            "front show through: read where each one falls on the red x and y scales (mm, right and up positive).",
            f"New backs.offset_x = {offset_mm[0]:g}mm + x reading; new backs.offset_y = {offset_mm[1]:g}mm + y reading",
            "(average the five targets). Put them in the theme's backs: section and print this test again to check.",
        ],
        15.0,
        size[1] / 2.0 - 25.0,
    )


def _offset(name: str, value: float | str) -> float:
    """The offset ``value`` in mm (a number of mm, or a length as ``backs.<name>`` reads
    it), if the theme's ``backs.<name>`` takes it (its range is the theme's: the spec's
    ``Offset``, read from its schema).

    Raises:
        PrintdeckError: Keyed ``name``, an argument: no length (with the theme's fix), or
            outside the range (naming it).
    """
    from pydantic import TypeAdapter, ValidationError  # noqa: PLC0415

    from printdeck.theme import LENGTHS_IN_MM, Offset, length_fix  # noqa: PLC0415
    from printdeck.units import parse_length_mm  # noqa: PLC0415

    if isinstance(value, str):
        try:
            value = parse_length_mm(value)
        except ValueError as exc:
            raise PrintdeckError(
                key=name, problem=str(exc), fix=length_fix(value, f"backs.{name}"), is_argument=True
            ) from None
    adapter = TypeAdapter(Offset)
    try:
        return float(adapter.validate_python(value, context=LENGTHS_IN_MM))
    except ValidationError:
        schema = adapter.json_schema()
        low, high = schema["x-minimum-mm"], schema["x-maximum-mm"]
        raise PrintdeckError(
            key=name,
            value=f"{value:g}mm",
            problem=f"expected a length from {low:g}mm to {high:g}mm, as backs.{name} takes",
            is_argument=True,
        ) from None
