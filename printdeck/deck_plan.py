"""The deck before and beside the build: plan it, lay it out, preview a sheet or a contact
sheet, exactly as :func:`printdeck.pipeline.build` makes it (the studio and ``preview`` use it)."""

from __future__ import annotations

import dataclasses
import io
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from printdeck.assign import assign_symbols, balance_symbols, colour_words, deck_symbols
from printdeck.design import Design
from printdeck.errors import PrintdeckError
from printdeck.fileio import atomic_output
from printdeck.layout import LayoutSettings, layout_deck
from printdeck.model import CardLayout, SymbolSpec
from printdeck.pipeline import deck_design, impose_theme, prove_symbols, unused_symbols
from printdeck.theme import Theme, load_theme

if TYPE_CHECKING:
    from printdeck.render import Imposition


@dataclasses.dataclass(frozen=True)
class DeckPlan:
    """A theme's deck before layout: the design and the symbol on each point.

    Attributes:
        theme: The loaded theme (overrides applied).
        design: The verified (trimmed) design; ``design.blocks[i]`` are card i's points.
        symbols: ``(n_points,)`` the symbol on each point (``symbols[p].id == p``), balanced.
        cards: ``cards[i]`` = card i's symbols, in the order they are packed.
        unused: Names of the theme's symbols no card shows.
        imposition: Where each card sits on the sheets.
    """

    theme: Theme
    design: Design
    symbols: tuple[SymbolSpec, ...]
    cards: tuple[tuple[SymbolSpec, ...], ...]
    unused: tuple[str, ...]
    imposition: Imposition

    @property
    def pages(self) -> int:
        """Front sheets (or single-card pages) the deck prints on."""
        return self.imposition.pages


def plan_deck(theme: Theme, *, prove: bool = True) -> DeckPlan:
    """Make the theme's design and assign its symbols, exactly as :func:`build` does.

    Args:
        theme: A loaded theme (see :func:`printdeck.load_theme`).
        prove: Prove every deck symbol prints what its silhouette shows (as ``build``).

    Raises:
        PrintdeckError: no design of that size, too few symbols, or a symbol that
            cannot be drawn or shows no ink.
    """
    seed = theme.spec.seed
    design = deck_design(theme)
    symbols = assign_symbols(theme, design.n_points, seed)
    if prove:
        prove_symbols(theme, symbols)
    symbols = balance_symbols(design.blocks, symbols)
    cards = tuple(tuple(symbols[p] for p in block) for block in design.blocks)
    unused = tuple(s.name for s in unused_symbols(theme, symbols, design.blocks))
    return DeckPlan(theme, design, tuple(symbols), cards, unused, impose_theme(theme, len(cards)))


def lay_out_plan(
    plan: DeckPlan, progress: Callable[[int], None] | None = None, jobs: int | None = None
) -> list[CardLayout]:
    """Lay out every card of a planned deck (packed cards come from the disk cache when
    nothing they depend on changed), words coloured as the build colours them.

    Raises:
        PrintdeckError: a card cannot be laid out (the message names it and the fix).
    """
    theme = plan.theme
    layouts = layout_deck(plan.cards, LayoutSettings.from_theme(theme), theme.spec.seed, progress=progress, jobs=jobs)
    return colour_words(layouts, plan.symbols, theme.spec.text.colors)


def preview_page_png(plan: DeckPlan, layouts: Sequence[CardLayout], page: int, ppi: float = 96.0) -> bytes:
    """Front sheet ``page`` (1-based) as the PDF prints it, rasterised to a PNG.

    The sheet is drawn by the PDF renderer (only that sheet's cards, same footer and
    marks), then rasterised by PDFium, so what the preview shows is what prints.

    Args:
        plan: From :func:`plan_deck`.
        layouts: From :func:`lay_out_plan` (at least the cards of that page, by index).
        page: 1 .. ``plan.pages``.
        ppi: Resolution of the PNG, pixels per inch.

    Raises:
        ValueError: ``page`` is out of range or a card of the page has no layout.
    """
    import pypdfium2  # noqa: PLC0415

    from printdeck.render import PrintJob, render_pdf  # noqa: PLC0415 - ReportLab only when rendering

    if not 1 <= page <= plan.pages:
        raise ValueError(f"page {page} is not between 1 and {plan.pages}")
    slots = tuple(s for s in plan.imposition.slots if s.page == page)
    by_index = {layout.index: layout for layout in layouts}
    missing = [s.card_index for s in slots if s.card_index not in by_index]
    if missing:
        raise ValueError(f"cards {missing} of page {page} have no layout")
    one_page = dataclasses.replace(plan.imposition, slots=slots)
    fronts_only = dataclasses.replace(PrintJob.from_theme(plan.theme), backs=None, legend=False, rules=False)
    with tempfile.TemporaryDirectory(prefix="printdeck-preview-") as tmp:
        pdf_path = Path(tmp) / "page.pdf"
        render_pdf(fronts_only, plan.symbols, [by_index[s.card_index] for s in slots], one_page, pdf_path)
        document = pypdfium2.PdfDocument(str(pdf_path))
        try:
            bitmap = document[page - 1].render(scale=ppi / 72.0)
            image = bitmap.to_pil()
        finally:
            document.close()
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def preview_cards(theme: Theme, count: int, seed: int) -> list[list[SymbolSpec]]:
    """The first ``count`` cards of the theme's deck, with symbols as the build assigns them.

    Raises:
        PrintdeckError: The theme's deck cannot be made.
    """
    design = deck_design(theme)
    symbols = deck_symbols(theme, design, seed)
    return [[symbols[p] for p in block] for block in list(design.blocks)[:count]]


def unused_in_deck(theme: Theme, seed: int) -> list[str]:
    """Names of the theme's symbols no card of its deck shows (as ``build`` reports them)."""
    design = deck_design(theme)
    return [s.name for s in unused_symbols(theme, deck_symbols(theme, design, seed), design.blocks)]


def write_preview(
    theme_ref: str | Path | Theme | None,
    out_path: Path,
    count: int = 12,
    seed: int | None = None,
    px_per_mm: float = 3.0,
) -> tuple[Path, int]:
    """Lay out the first ``count`` cards of a theme and write them as a PNG contact sheet
    (:func:`printdeck.render.contact_sheet`).

    Args:
        theme_ref: Theme name, file or folder (``None`` = default theme), or a loaded theme.
        out_path: The ``.png`` to write (atomically).
        count: Cards to draw (>= 1).
        seed: Overrides the theme's seed.
        px_per_mm: Resolution of the sheet.

    Returns:
        (``out_path``, cards drawn: ``count`` or the whole deck if it is smaller).

    Raises:
        PrintdeckError: Bad theme, impossible deck or layout, unwritable output.
    """
    from printdeck.render import contact_sheet  # noqa: PLC0415 - ReportLab only when rendering

    if count < 1:
        raise PrintdeckError(f"--cards: expected 1 or more, got {count}")
    if Path(out_path).suffix.lower() != ".png":
        raise PrintdeckError(f"{out_path}: the preview must be a .png file name")
    theme = load_theme(theme_ref)
    seed = theme.spec.seed if seed is None else seed
    cards = preview_cards(theme, count, seed)
    settings = LayoutSettings.from_theme(theme)
    layouts = layout_deck(cards, settings, seed)
    layouts = colour_words(layouts, [s for card in cards for s in card], theme.spec.text.colors)
    sheet = contact_sheet(layouts, cards, theme.spec.card.diameter_mm, settings.safe_radius_mm, px_per_mm)
    with atomic_output(Path(out_path)) as tmp:
        sheet.save(tmp, format="PNG", optimize=False)
    return Path(out_path), len(layouts)
