"""The print-ready PDF: front sheets, interleaved duplex backs, legend, rules.

Every symbol's artwork is stored once (a Form XObject), all text uses embedded
TrueType fonts, and ``invariant=1`` makes the file byte-identical for the same
input. Single-card pages (``single``) are trim + bleed with TrimBox and BleedBox.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from reportlab.pdfgen.canvas import Canvas

from printdeck.fileio import atomic_output
from printdeck.model import CardLayout, SymbolSpec
from printdeck.render import backs as backs_mod
from printdeck.render import extras, fonts
from printdeck.render.artwork import ArtLibrary, check_raster_resolution
from printdeck.render.canvas import new_canvas
from printdeck.render.imposition import Imposition, paper_size_mm
from printdeck.render.sheet import (
    draw_card,
    draw_footer,
    draw_marks,
    page_marks,
    plan_footer,
)
from printdeck.render.style import CardStyle
from printdeck.theme.model import Theme
from printdeck.theme.symbols import resolve_path
from printdeck.units import mm_to_pt


@dataclass(frozen=True)
class RenderOptions:
    """What goes into the PDF besides the front sheets.

    Attributes:
        backs: Interleave a back sheet after each front sheet.
        legend: Add the symbol legend page(s).
        rules: Add the rules sheet.
        single: One card a page (the imposition must be ``single`` too).
    """

    backs: bool = False
    legend: bool = False
    rules: bool = False
    single: bool = False


def render_pdf(theme: Theme, symbols: Sequence[SymbolSpec], layouts: Sequence[CardLayout], imposition: Imposition,
               out_path: Path, options: RenderOptions, progress: Callable[[int], None] | None = None) -> int:
    """Write the deck's PDF atomically and return its page count.

    Pages: front sheet 1, its back (if backs), front sheet 2, ... then, for
    single-card pages with an artwork credit, a credits page of the card's size,
    then the legend (if asked) and the rules (if asked). The credit
    (``theme.attribution``) is on every sheet's footer, the credits page, the
    legend and rules pages, and in the document's Subject.

    Args:
        theme: The loaded theme (card style, backs, paper, title, attribution).
        symbols: Every symbol the placements name, looked up by ``SymbolSpec.id``.
        layouts: One per card, ``layouts[i].index == i``, in imposition slot order.
        imposition: From :func:`printdeck.render.imposition.impose`.
        out_path: The PDF to write (replaced only on success).
        options: Backs, legend, rules, single.
        progress: Called after each front sheet with the number of cards drawn on
            it (increments that add up to ``len(layouts)``).

    Returns:
        Number of PDF pages.

    Raises:
        PrintdeckError: Missing or unusable artwork, a raster symbol below 150 dpi,
            a bad back image or font, or an unwritable output path.
        ValueError: Layouts and imposition disagree on the number of cards.
    """
    if len(layouts) != len(imposition.slots):
        raise ValueError(f"{len(layouts)} card layouts but {len(imposition.slots)} imposition slots")
    check_raster_resolution(symbols, layouts)
    fonts.register_bundled()
    by_index = {c.index: c for c in layouts}
    with atomic_output(Path(out_path)) as tmp:
        canvas = _new_canvas(tmp, theme, imposition, len(layouts), theme.spec.backs.duplex if options.backs else None)
        art = ArtLibrary(canvas, symbols, largest_boxes_mm(layouts), theme.spec.paper.max_ppi)
        art.prepare_pictures(sorted({p.symbol_id for c in layouts for p in c.placements}))
        pages = _sheets(canvas, art, theme, by_index, imposition, options, progress)
        if imposition.single and theme.attribution:
            _page_setup(canvas, imposition)
            pages += extras.credits_page(canvas, imposition.page_size_mm, theme.spec.title, theme.attribution)
        extra_size = paper_size_mm(theme.spec.paper.size) if imposition.single else imposition.page_size_mm
        canvas.setTrimBox(None)
        canvas.setBleedBox(None)
        used = sorted({p.symbol_id for c in layouts for p in c.placements})
        if options.legend:
            pages += extras.legend_pages(canvas, art, symbols, used, extra_size, theme.spec.title, theme.attribution)
        if options.rules:
            pages += extras.rules_pages(canvas, extra_size, theme.spec.title, theme.attribution)
        canvas.save()
    return pages


def largest_boxes_mm(layouts: Sequence[CardLayout]) -> dict[int, float]:
    """The longest box side (mm) each symbol is printed at, over the deck."""
    out: dict[int, float] = {}
    for card in layouts:
        for p in card.placements:
            out[p.symbol_id] = max(out.get(p.symbol_id, 0.0), *p.box_mm)
    return out


def _new_canvas(path: Path, theme: Theme, imposition: Imposition, n_cards: int, duplex: str | None) -> Canvas:
    """The document canvas; its Subject carries the artwork credit (kept in every layout)."""
    subject = (f"Spot-the-match card deck, {n_cards} cards of {imposition.diameter_mm:g} mm "
               f"(theme {theme.name}), made with printdeck")
    if theme.attribution:
        subject += f". Artwork credit: {theme.attribution}"
    return new_canvas(path, imposition.page_size_mm, title=theme.spec.title, author=theme.spec.author or "printdeck",
                      subject=subject, duplex=duplex)


def _card_style(theme: Theme, imposition: Imposition) -> CardStyle:
    card, paper = theme.spec.card, theme.spec.paper
    return CardStyle(radius_mm=imposition.diameter_mm / 2.0, bleed_mm=imposition.bleed_mm,
                     background=card.background, border_color=card.border_color,
                     cut_guide=paper.cut_guide and not imposition.single)


def _back_design(theme: Theme) -> backs_mod.BackDesign:
    b = theme.spec.backs
    image = None
    if b.image:
        path = resolve_path(b.image, theme.base_dir, "backs.image")[0]
        image = SymbolSpec(id=-1, name="card back", kind="svg" if path.suffix.lower() == ".svg" else "raster",
                           source=b.image, path=path, rotate=False)
    return backs_mod.BackDesign(color=b.color, pattern=b.pattern, title=theme.spec.title, image=image, fit=b.fit,
                                size=b.size, duplex=b.duplex, offset_mm=(b.offset_x_mm, b.offset_y_mm))


def _sheets(canvas: Canvas, art: ArtLibrary, theme: Theme, layouts: dict[int, CardLayout], imposition: Imposition,
            options: RenderOptions, progress: Callable[[int], None] | None) -> int:
    """Draw the front sheets (and their backs); returns pages drawn."""
    style = _card_style(theme, imposition)
    design = _back_design(theme)
    if options.backs:
        backs_mod.make_back_form(canvas, design, style.radius_mm, style.bleed_mm)
    plan = None
    if not imposition.single:
        credit = " · ".join(x for x in ("Sheet {n}/{n}", theme.spec.title, theme.attribution or "") if x)
        widest = f"{imposition.pages}/{imposition.pages}"
        plan = plan_footer(imposition, credit.replace("{n}", str(imposition.pages)))
    pages = 0
    for page in range(1, imposition.pages + 1):
        _page_setup(canvas, imposition)
        slots = [s for s in imposition.slots if s.page == page]
        for slot in slots:
            draw_card(canvas, art, layouts[slot.card_index], slot.center_mm, style)
        if plan is not None:
            if theme.spec.paper.cut_marks:
                draw_marks(canvas, page_marks(imposition, page))
            draw_footer(canvas, plan, widest, f"{page}/{imposition.pages}")
        canvas.showPage()
        pages += 1
        if options.backs:
            _page_setup(canvas, imposition)
            for slot in slots:
                center = backs_mod.mirror_mm(slot.center_mm, imposition.page_size_mm, design.duplex, design.offset_mm)
                backs_mod.draw_back(canvas, center)
            canvas.showPage()
            pages += 1
        if progress is not None:
            progress(len(slots))
    return pages


def _page_setup(canvas: Canvas, imposition: Imposition) -> None:
    """Page size, and for single-card pages the TrimBox (cut square) and BleedBox."""
    w, h = (mm_to_pt(v) for v in imposition.page_size_mm)
    canvas.setPageSize((w, h))
    if imposition.single:
        b = mm_to_pt(imposition.bleed_mm)
        canvas.setTrimBox((b, b, w - b, h - b))
        canvas.setBleedBox((0, 0, w, h))
