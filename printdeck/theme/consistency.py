"""What involves several keys of a theme: the card against its margins and the gap, the
paper's options against the card's shape, the card with its bleed against the sheet.

Each key alone is checked by the spec's models (:mod:`~printdeck.theme.spec`); these
checks run once every key is valid, and each refusal names the one key to change.
"""

from __future__ import annotations

import warnings

from printdeck.card_sizes import CardKeyError
from printdeck.cardshape import CardShape
from printdeck.choices import CutLines
from printdeck.errors import PrintdeckError, key_error
from printdeck.sheet_room import keeps_mark_room, sheet_inner_mm, sheet_margin_mm
from printdeck.theme.spec import ThemeSpec
from printdeck.theme.spec_print import PaperSpec
from printdeck.units import paper_size_mm

__all__ = [
    "CARD_OFF_PAPER",
    "PressWarning",
    "UnusedSettingWarning",
    "check_consistency",
    "warn_press_file",
    "warn_unused_settings",
]

SAFE_MARGIN_SHARE = 0.4
"""The largest safe margin, as a share of half the card's shorter side."""
GAPS_IN_ROOM = 6
"""Half the card's shorter side inside the safe margin holds at least this many gaps."""


def check_consistency(spec: ThemeSpec, sheet: bool = True) -> None:
    """Check what involves several keys (safe margin vs. diameter, card vs. paper, ...).

    Args:
        spec: The theme's keys.
        sheet: Check that a card fits the sheet (``paper.layout: sheet``); a build leaves it
            to the check of its options applied.

    Raises:
        PrintdeckError: naming the key to change.
    """
    card = spec.card
    try:
        shape = card.outline()
    except CardKeyError as exc:  # keyed, so a form shows it at its box
        raise key_error(exc.key, exc.said, problem=exc.problem, fix=exc.fix) from None
    except ValueError as exc:
        raise PrintdeckError(str(exc)) from None
    _check_room(spec, shape)
    _check_paper_options(spec, shape)
    if sheet and spec.paper.layout == "sheet":
        _check_sheet_fits(spec, shape)


PRESS_ONLY = "only a CMYK file is written as PDF/X with an ink limit"
"""Why ``pdfx`` and ``ink_limit`` are refused on a file that is not CMYK (the theme's keys
and the command line's options alike)."""


def check_press_keys(spec: ThemeSpec) -> None:
    """Refuse a theme file that asks for PDF/X-1a or another ink limit than the default on a
    file that is not CMYK: they shape a CMYK file only, and were dropped without a word (the
    command line's ``--pdfx`` and ``--ink-limit`` are refused alike; the defaults, written
    out as the reference theme does, change nothing and are taken). Checked of the file as written, so a
    build's ``--color rgb`` (a proof at home of a press theme) is not refused for them.

    Raises:
        PrintdeckError: Keyed ``paper.pdfx`` or ``paper.ink_limit``.
    """
    paper = spec.paper
    fields = type(paper).model_fields
    given = [
        key
        for key in ("pdfx", "ink_limit")
        if key in paper.model_fields_set and getattr(paper, key) != fields[key].default  # asks for something
    ]
    if paper.color != "cmyk" and given:
        raise PrintdeckError(
            key=f"paper.{given[0]}",
            problem=PRESS_ONLY,
            fix="add paper.color: cmyk, or leave it out",
        )


def _check_room(spec: ThemeSpec, shape: CardShape) -> None:
    """The safe margin and the gap against the card's size, and the size ladder's order."""
    half = shape.min_side_mm / 2
    most_mm = half * SAFE_MARGIN_SHARE
    if spec.card.safe_margin_mm > most_mm:
        raise key_error(
            "card.safe_margin",
            f"{spec.card.safe_margin_mm:g}mm leaves little room on a {shape.describe()} card; "
            f"use at most {most_mm:.4g}mm",
        )
    if spec.layout.gap_mm * GAPS_IN_ROOM > half - spec.card.safe_margin_mm:
        raise key_error(
            "layout.gap",
            f"{spec.layout.gap_mm:g}mm is too large for a {shape.describe()} card; use a few millimetres at most",
        )
    sizes = spec.layout.sizes
    if sizes is not None and list(sizes) != sorted(sizes, reverse=True):
        raise key_error("layout.sizes", "list the sizes largest first, e.g. [1, 0.8, 0.6]")


def _check_paper_options(spec: ThemeSpec, shape: CardShape) -> None:
    """The paper's options that hold for some files or card shapes only."""
    paper = spec.paper
    if paper.die_line and paper.color == "cmyk" and paper.pdfx == "x-1a":
        raise PrintdeckError(
            key="paper.die_line",
            problem="PDF/X-1a has no layers to keep the die line off the print",
            fix="make the file PDF/X-4, or leave the die line out",
        )
    if paper.punch_ring and not shape.is_circle:
        raise key_error(
            "paper.punch_ring",
            f"a circle punch cuts round cards, not a {shape.kind.value}; "
            "leave out paper.punch_ring (or use card.shape: circle)",
        )
    if paper.cuts == "shared" and shape.is_circle:
        raise key_error("paper.cuts", "round cards cannot share cut lines; use paper.cuts: separate")


def _check_sheet_fits(spec: ThemeSpec, shape: CardShape) -> None:
    """A card with its bleed inside the sheet's margins: refused by the margin when the
    default margin would fit it, else by the card's size."""
    card, paper = spec.card, spec.paper
    key = "card.diameter" if shape.is_circle and card.size is None else "card.size"
    margin_mm = sheet_margin_mm(paper.margin_mm, paper.registration_marks)
    marks = keeps_mark_room(paper.cut_marks, paper.registration_marks)
    room = _room(spec, shape, margin_mm, marks)
    need = sorted((shape.width_mm + 2 * card.bleed_mm, shape.height_mm + 2 * card.bleed_mm))
    inside = "inside its margins and the crop marks' room" if marks else "inside its margins"
    too_small = not _fits(need, room)
    if too_small and _fits(need, _room(spec, shape, _default_margin_mm(spec), marks)):  # the margin, not the card
        raise key_error(
            "paper.margin",
            f"{paper.margin_mm:g}mm margins leave {room[0]:g} x {room[1]:g}mm of the paper {inside}, "
            f"and a card with its bleed needs {need[0]:g} x {need[1]:g}mm; use a smaller paper.margin "
            "(or larger paper)",
        )
    if shape.is_circle and need[0] > room[0]:
        raise key_error(
            key,
            f"a {shape.width_mm:g}mm card with {card.bleed_mm:g}mm bleed needs {need[0]:g}mm but the paper has "
            f"{room[0]:g}mm {inside}; make the card smaller or the paper larger{_unmarked_fix(spec, shape, need)}",
            code=CARD_OFF_PAPER,
        )
    if too_small:
        raise key_error(
            key,
            f"a {shape.describe()} card with {card.bleed_mm:g}mm bleed "
            f"needs {need[0]:g} x {need[1]:g}mm but the paper has {room[0]:g} x {room[1]:g}mm {inside}; "
            f"make the card smaller or the paper larger{_unmarked_fix(spec, shape, need)}",
            code=CARD_OFF_PAPER,
        )


def _unmarked_fix(spec: ThemeSpec, shape: CardShape, need: list[float]) -> str:
    """ ", or leave out the crop marks ..." where the card (``need``: its sides with bleed,
    sorted) fits the paper without the crop marks' room; else nothing."""
    paper = spec.paper
    if not paper.cut_marks or keeps_mark_room(False, paper.registration_marks):  # no marks to leave out, or kept
        return ""
    if not _fits(need, _room(spec, shape, sheet_margin_mm(paper.margin_mm, paper.registration_marks), False)):
        return ""
    return ", or leave out the crop marks (paper.cut_marks: false), whose room the card then takes"


def _room(spec: ThemeSpec, shape: CardShape, margin_mm: float, marks: bool) -> list[float]:
    """The paper's room for a card with its bleed (:func:`~printdeck.sheet_room.sheet_inner_mm`),
    its two sides sorted, mm, at the sheet margin ``margin_mm``, ``marks``: with the crop
    marks' room kept."""
    return sorted(sheet_inner_mm(paper_size_mm(spec.paper.size), margin_mm, shape.is_circle, marks))


def _fits(need: list[float], room: list[float]) -> bool:
    """Whether sides ``need`` fit in ``room`` (both sorted, mm)."""
    return need[0] <= room[0] and need[1] <= room[1]


def _default_margin_mm(spec: ThemeSpec) -> float:
    """The sheet's margin with ``paper.margin`` at its default (the crop marks' room kept)."""
    default = PaperSpec.model_fields["margin_mm"].default
    return sheet_margin_mm(float(default), spec.paper.registration_marks)


CARD_OFF_PAPER = "card-off-paper"
"""The code of a refusal of a card (with its bleed) larger than the paper inside its margins:
said of the paper when the command line chose it (``--paper``)."""


class PressWarning(UserWarning):
    """A press file (CMYK) a print shop would send back as it is set."""


class UnusedSettingWarning(UserWarning):
    """A setting the theme gives that does nothing as the rest of the theme is set."""


def warn_unused_settings(spec: ThemeSpec) -> None:
    """Warn about a setting written in the theme that the rest of it leaves unused: a
    ``backs.pattern`` (title, rings or dots) with a ``backs.image``, which the picture
    replaces (a parent's title never printed, and nothing said so).

    Warns:
        UnusedSettingWarning: naming the key and the fix.
    """
    backs = spec.backs
    if backs.enabled and backs.image is not None and "pattern" in backs.model_fields_set and backs.pattern != "none":
        warnings.warn(
            f"backs.pattern: {backs.pattern} is not drawn: the picture (backs.image) takes the back's face; "
            "leave one of them out (a class set's backs still show each deck's letter)",
            UnusedSettingWarning,
            stacklevel=2,
        )


def warn_press_file(spec: ThemeSpec) -> None:
    """Warn about what a print shop would send back in a CMYK press file: cards with no
    bleed (a cut a little off the line leaves a white edge), and decks whose backs meet at
    a shared cut.

    Warns:
        PressWarning: ``card.bleed`` is 0 in a CMYK file; a class set whose sheets mix
            decks (``paper.pack``) with shared cuts and backs: two decks' backs, each its
            own colour, meet at a cut with no bleed between them; ``paper.cut_files`` or
            ``paper.registration_marks`` asked of one card a page, which has no sheets to
            cut or mark; a backs offset (a home printer's duplex correction) given for one
            card a page, which prints each back centred.
    """
    paper = spec.paper
    if paper.layout == "single":
        backs = spec.backs
        if backs.enabled and (backs.offset_x_mm or backs.offset_y_mm):
            warnings.warn(
                "backs.offset_x/offset_y: they correct a home printer's duplex drift; one card a page "
                "(paper.layout: single, a print shop's file) prints each back centred on its page, so they "
                "are not applied",
                PressWarning,
                stacklevel=2,
            )
        for key in ("cut_files", "registration_marks"):
            if getattr(paper, key):
                warnings.warn(
                    f"paper.{key}: one card a page (paper.layout: single) has no sheets to cut or mark, so "
                    "none are made; a print shop cuts its own, or use paper.layout: sheet",
                    PressWarning,
                    stacklevel=2,
                )
    if paper.pack and paper.cuts == CutLines.SHARED and spec.deck.copies > 1 and spec.backs.enabled:
        warnings.warn(
            "paper.cuts: shared with paper.pack: where two decks meet on a sheet, their backs (each deck its "
            "own colour) share a cut with no bleed between them, so a cut 1 mm off shows the next deck's "
            "colour on the edge; use paper.cuts: separate, or leave out paper.pack",
            PressWarning,
            stacklevel=2,
        )
    if spec.paper.color == "cmyk" and spec.card.bleed_mm == 0:
        warnings.warn(
            "card.bleed: 0mm in a press file: print shops ask for bleed beyond the cut (3 mm, or 1/8 in), "
            "or a cut a little off the line leaves a white edge; set card.bleed: 3mm",
            PressWarning,
            stacklevel=2,
        )
