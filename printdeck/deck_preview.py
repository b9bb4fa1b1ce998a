"""Previews of a theme's deck, drawn by the code that prints it: one sheet of the PDF as a
PNG (the studio's sheet view), and a contact sheet of the first cards (``printdeck preview``)."""

from __future__ import annotations

import dataclasses
import io
import tempfile
from collections.abc import Sequence
from pathlib import Path

from printdeck.choices import SheetSide
from printdeck.deck_plan import DeckPlan, check_words_show, lay_out_plan, plan_deck, plan_print_job, seeded_theme
from printdeck.errors import PrintdeckError, path_error
from printdeck.fileio import atomic_output
from printdeck.layout import LayoutSettings
from printdeck.model import CardLayout, SymbolSpec
from printdeck.output_record import check_png_path, own_png_info
from printdeck.theme import Theme, load_theme, theme_errors_located

__all__ = ["PreviewSheet", "preview_cards", "preview_page_png", "write_preview", "write_preview_sheet"]


def preview_page_png(
    plan: DeckPlan, layouts: Sequence[CardLayout], page: int, ppi: float = 96.0, side: str = "front"
) -> bytes:
    """Sheet ``page`` (1-based) as the PDF prints it, its front or its back, rasterised to a PNG.

    The sheet is drawn by the PDF renderer (only that sheet's cards, same footer and
    marks; a back as the duplex PDF prints it, mirrored to meet its front), then
    rasterised by PDFium, so what the preview shows is what prints.

    Args:
        plan: From :func:`plan_deck`.
        layouts: From :func:`lay_out_plan` (at least the cards of that page, by index).
        page: 1 .. ``plan.pages``.
        ppi: Resolution of the PNG, pixels per inch.
        side: ``front`` or ``back`` (:class:`~printdeck.choices.SheetSide`).

    Raises:
        ValueError: ``page`` is out of range, a card of the page has no layout, ``side``
            is not a side, or it is ``back`` and the deck has no backs (``backs.enabled``).
    """
    from printdeck.render import page_image, pdf_page, render_pdf  # noqa: PLC0415 - ReportLab only when rendering

    try:
        wanted = SheetSide(side)
    except ValueError:
        raise ValueError(f"side: expected 'front' or 'back', got {side!r}") from None
    if not 1 <= page <= plan.pages:
        raise ValueError(f"page {page} is not between 1 and {plan.pages}")
    slots = tuple(s for s in plan.imposition.slots if s.page == page)
    by_index = {layout.index: layout for layout in layouts}
    missing = [s.card_index for s in slots if s.card_index not in by_index]
    if missing:
        raise ValueError(f"cards {missing} of page {page} have no layout")
    full = plan.imposition  # the footer is planned round a full sheet, as in the PDF
    one_page = dataclasses.replace(full, slots=slots, pattern_mm=tuple(full.full_page_centers_mm()))
    job = plan_print_job(plan)  # a split deck's backs: deck A's and B's, as the PDF prints them
    sheet_only = dataclasses.replace(
        job, backs=job.backs if wanted is SheetSide.BACK else None, legend=False, rules=False
    )
    index = pdf_page(page, wanted, sheet_only.sides(full.single)) - 1  # a front without backs: page - 1
    with tempfile.TemporaryDirectory(prefix="printdeck-preview-") as tmp:
        pdf_path = Path(tmp) / "page.pdf"
        render_pdf(sheet_only, plan.symbols, [by_index[s.card_index] for s in slots], one_page, pdf_path)
        image = page_image(pdf_path, index, ppi / 72.0)
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def preview_cards(theme: Theme, count: int, seed: int) -> list[list[SymbolSpec]]:
    """The first ``count`` cards of the theme's deck with ``seed``, symbols as the build assigns them.

    Raises:
        PrintdeckError: The theme's deck cannot be made.
    """
    return [list(card) for card in _seeded_plan(theme, seed).cards[:count]]


def _seeded_plan(theme: Theme, seed: int) -> DeckPlan:
    """The theme's deck (unproven) as it is with ``seed`` in place of the theme's."""
    return plan_deck(seeded_theme(theme, seed), prove=False)


@dataclasses.dataclass(frozen=True)
class PreviewSheet:
    """What :func:`write_preview_sheet` wrote: the PNG, the cards drawn on it, and the names
    of the theme's symbols no card of the whole deck shows."""

    path: Path
    cards: int
    unused: tuple[str, ...]


def write_preview(
    theme_ref: str | Path | Theme | None,
    out_path: Path,
    count: int = 12,
    seed: int | None = None,
    px_per_mm: float = 3.0,
) -> tuple[Path, int]:
    """:func:`write_preview_sheet`, returning (``out_path``, cards drawn)."""
    sheet = write_preview_sheet(theme_ref, out_path, count, seed, px_per_mm)
    return sheet.path, sheet.cards


def write_preview_sheet(
    theme_ref: str | Path | Theme | None,
    out_path: Path,
    count: int = 12,
    seed: int | None = None,
    px_per_mm: float = 3.0,
) -> PreviewSheet:
    """Lay out the first ``count`` cards of a theme and write them as a PNG contact sheet
    (:func:`printdeck.render.contact_sheet`).

    Args:
        theme_ref: Theme name, file or folder (``None`` = default theme), or a loaded theme.
        out_path: The ``.png`` to write (atomically; a file there printdeck did not write
            is refused, :func:`~printdeck.output_record.check_png_path`).
        count: Cards to draw (>= 1).
        seed: Overrides the theme's seed.
        px_per_mm: Resolution of the sheet.

    Returns:
        The PNG, the cards drawn (``count``, or the whole deck if it is smaller) and the
        symbols no card of the whole deck shows.

    Raises:
        PrintdeckError: Bad theme, impossible deck or layout, unwritable output, a file
            at ``out_path`` printdeck did not write (:data:`~printdeck.errors.FOREIGN_OUTPUT`).
    """
    from printdeck.render import contact_sheet, older_preview  # noqa: PLC0415 - ReportLab only when rendering

    if count < 1:
        raise PrintdeckError(key="cards", value=count, problem="expected 1 or more", is_argument=True)
    if Path(out_path).suffix.lower() != ".png":
        raise path_error("out", out_path, "the preview must be a .png file name")
    check_png_path(Path(out_path), older_look=older_preview)  # a user's own picture of that name is not replaced
    theme = load_theme(theme_ref)
    seed = theme.spec.seed if seed is None else seed
    plan = _seeded_plan(theme, seed)
    cards = [list(card) for card in plan.cards[:count]]
    settings = LayoutSettings.from_theme(theme)
    with theme_errors_located(theme):  # as the build says it
        check_words_show(theme, [face for card in cards for s in card for face in s.all_faces])
    # laid out as the build lays them out: a class set's deck A with its seed and its mark
    layouts = lay_out_plan(dataclasses.replace(plan, cards=plan.cards[:count]), decks=1)
    card = theme.spec.card
    sheet = contact_sheet(layouts, cards, card.outline(), settings.zone_shape(), px_per_mm, background=card.background)
    with atomic_output(Path(out_path)) as tmp:
        sheet.save(tmp, format="PNG", optimize=False, pnginfo=own_png_info())
    return PreviewSheet(Path(out_path), len(layouts), plan.unused)
