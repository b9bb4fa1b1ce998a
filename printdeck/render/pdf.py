"""The print-ready PDF: front sheets, interleaved duplex backs, legend, rules.

Every symbol's artwork is stored once (a Form XObject), all text uses embedded
TrueType fonts, and ``invariant=1`` makes the file byte-identical for the same
input. Single-card pages (``single``) are trim + bleed with TrimBox and BleedBox.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

from reportlab.pdfgen.canvas import Canvas

from printdeck.assign import SPLIT_DECKS
from printdeck.choices import SheetSide
from printdeck.fileio import atomic_output
from printdeck.model import CardLayout, CardSlot, SymbolSpec
from printdeck.render import backs as backs_mod, extras, pdf_fonts
from printdeck.render.canvas import new_canvas
from printdeck.render.forms import ArtLibrary, check_raster_resolution, drawn_on_background
from printdeck.render.imposition import Imposition
from printdeck.render.legend_cells import in_theme_order
from printdeck.render.print_job import DEFAULT_BACK_COLOR, PrintJob
from printdeck.render.registration import draw_registration, registration_zones
from printdeck.render.sheet import (
    draw_card,
    draw_footer,
    draw_marks,
    fill_background_at,
    page_marks,
    plan_footer,
    warn_missing_marks,
)
from printdeck.render.style import CardStyle
from printdeck.render.word_sizes import check_word_heights
from printdeck.units import mm_to_pt


def render_pdf(
    job: PrintJob,
    symbols: Sequence[SymbolSpec],
    layouts: Sequence[CardLayout],
    imposition: Imposition,
    out_path: Path,
    progress: Callable[[int], None] | None = None,
    legend_groups: Sequence[Sequence[int]] | None = None,
    extras_path: Path | None = None,
) -> int:
    """Write the deck's PDF atomically and return its page count.

    Pages: front sheet 1, its back (if ``job.backs``), front sheet 2, ... then the
    legend (if ``job.legend``), the rules (if ``job.rules``) and a tuck box a deck (if
    ``job.tuck_box``; with backs, each box on a front with a blank back, a sheet of its
    own): a print-and-play booklet in the order a copier needs. One card a
    page (``imposition.single``, a print shop's file): each card's front and back (the
    back first with ``job.backs_first``) and nothing else; a credits page, the legend,
    the rules and the tuck boxes go to their own file, ``extras_path``. The credit
    (``job.attribution``) is on every sheet's footer, the legend and rules pages, the
    credits page, and in the document's Subject. A CMYK job's file is PDF/X and a die
    line gets its layer (:func:`printdeck.render.pdfx.finish_pdf`).

    Args:
        job: What is printed besides the cards (:meth:`PrintJob.from_theme`).
        symbols: Every symbol the placements name, looked up by ``SymbolSpec.id``.
        layouts: One per card, ``layouts[i].index == i``, in imposition slot order.
        imposition: From :func:`printdeck.render.impose` (``single``: one card a page).
        out_path: The PDF to write (replaced only on success).
        progress: Called after each front sheet with the number of cards drawn on
            it (increments that add up to ``len(layouts)``).
        legend_groups: The legend's cells as groups of symbol ids (a symbol with several
            faces: all its faces in one cell); default: one cell a symbol the cards show.
        extras_path: One card a page: the PDF for the credits, legend, rules and tuck
            boxes (paper size; written only when there is one of them; default
            ``<out>-extras.pdf``). Ignored for sheets.

    Returns:
        Number of PDF pages in ``out_path``.

    Raises:
        PrintdeckError: Missing or unusable artwork, a raster symbol or back picture
            below 150 dpi, a bad back image or font, an unwritable output path, or transparency left
            in a PDF/X-1a.
        ValueError: Layouts and imposition disagree on the number of cards.
    """
    if len(layouts) != len(imposition.slots):
        raise ValueError(f"{len(layouts)} card layouts but {len(imposition.slots)} imposition slots")
    check_raster_resolution(symbols, layouts)
    backs_mod.check_back_resolution(job)
    check_word_heights(symbols, layouts)
    pdf_fonts.register_bundled()
    by_index = {c.index: c for c in layouts}
    used = sorted({p.symbol_id for c in layouts for p in c.placements})
    cells = in_theme_order(used if legend_groups is None else legend_groups, {s.id: s for s in symbols})
    with atomic_output(Path(out_path)) as tmp:
        canvas = _new_canvas(tmp, job, imposition, len(layouts))
        opaque = job.cmyk and job.pdfx == "x-1a"  # no transparency: see-through SVGs print as images
        art = ArtLibrary(
            canvas, symbols, largest_boxes_mm(layouts), job.max_ppi, background=job.card.background, opaque=opaque
        )
        art.prepare_pictures(used)
        pages = _sheets(canvas, art, job, by_index, imposition, progress)
        if not imposition.single:
            canvas.setTrimBox(None)
            canvas.setBleedBox(None)
            duplex = job.backs is not None  # the file asks for duplex: a tuck box gets a blank back
            pages += _extra_pages(canvas, art, job, symbols, cells, layouts, imposition.page_size_mm, duplex)
        canvas.save()
        if job.cmyk or job.die_line:
            from printdeck.render.pdfx import finish_pdf  # noqa: PLC0415 - pikepdf only for PDF/X or a die line

            finish_pdf(tmp, job)
    if imposition.single and (job.attribution or job.legend or job.rules or job.tuck_box):
        path = Path(extras_path) if extras_path is not None else extras_file(Path(out_path))
        with atomic_output(path) as tmp:
            canvas = _new_canvas(tmp, replace(job, backs=None), replace(imposition, page_size_mm=job.paper_size_mm), 0)
            art = ArtLibrary(canvas, symbols, largest_boxes_mm(layouts), job.max_ppi, prefix="leg")
            if job.attribution:
                canvas.setPageSize((mm_to_pt(job.paper_size_mm[0]), mm_to_pt(job.paper_size_mm[1])))
                extras.credits_page(canvas, job.paper_size_mm, job.title, job.attribution)
            _extra_pages(canvas, art, job, symbols, cells, layouts, job.paper_size_mm, duplex=False)
            canvas.save()
    return pages


def extras_file(out_path: Path) -> Path:
    """Where a one-card-a-page PDF's credits, legend, rules and tuck boxes go: ``<out>-extras.pdf``."""
    return out_path.with_name(f"{out_path.stem}-extras.pdf")


def _extra_pages(
    canvas: Canvas,
    art: ArtLibrary,
    job: PrintJob,
    symbols: Sequence[SymbolSpec],
    cells: Sequence[int] | Sequence[Sequence[int]],
    layouts: Sequence[CardLayout],
    page_size_mm: tuple[float, float],
    duplex: bool,
) -> int:
    """The legend, the rules and the tuck boxes (as the job asks); returns pages drawn. The
    legend draws its pictures on white: forms of their own when the cards' background is
    not (a picture with transparency, or an SVG printed as an image, is composited onto the
    background it is drawn on: :func:`~printdeck.render.forms.drawn_on_background`).
    ``duplex`` (a file printed on both sides): each tuck box alone on a sheet
    (:func:`_tuck_boxes`)."""
    pages = 0
    if job.legend:
        if job.card.background.lower() != "#ffffff" and any(drawn_on_background(s) for s in symbols):
            boxes_mm = largest_boxes_mm(layouts)  # the pixels the cards' pictures have, not the whole files
            opaque = job.cmyk and job.pdfx == "x-1a"
            art = ArtLibrary(canvas, symbols, boxes_mm, job.max_ppi, background="#ffffff", prefix="leg", opaque=opaque)
        pages += extras.legend_pages(
            canvas, art, symbols, cells, page_size_mm, job.title, job.attribution, job.card.background
        )
    if job.rules:
        decks = {backs_mod.back_deck_of(job, card) for card in layouts}  # a class set's, a split deck's A and B
        per_deck = len(layouts) // max(1, len(decks))  # the players share one deck's cards
        pages += extras.rules_pages(
            canvas,
            page_size_mm,
            job.title,
            job.attribution,
            job.faces,
            job.match,
            per_deck,
            job.faces_example,
            backs=_backs_marked(job),
        )
    if job.tuck_box:
        pages += _tuck_boxes(canvas, art, job, layouts, duplex)
    return pages


def _backs_marked(job: PrintJob) -> str | None:
    """How a split deck's backs tell A from B in this file (:data:`~.rules_text.DECK_A_MARKED`):
    ``lettered`` (the title pattern gains the deck's letter), ``coloured`` (a picture, rings or
    dots: only the deck's colour), None without backs."""
    if job.backs is None:
        return None
    return "lettered" if backs_mod.shows_title(job.backs) else "coloured"


def _tuck_boxes(canvas: Canvas, art: ArtLibrary, job: PrintJob, layouts: Sequence[CardLayout], duplex: bool) -> int:
    """One tuck box a deck (a class set's, or a split deck's A and B, in its deck's colour, with
    its letter, as its backs: :func:`~printdeck.render.backs.back_decks`); returns pages.

    A net is cut out of its sheet, so in a ``duplex`` file each box has a sheet of its own:
    it starts on a front (a blank back for the page before it, the rules' last, if need
    be) and gets a blank back, so that no box prints on the back of another box or of
    the rules."""
    decks: dict[int, list[CardLayout]] = {}
    for card in layouts:
        decks.setdefault(backs_mod.back_deck_of(job, card), []).append(card)
    backs = {deck.number: deck for deck in backs_mod.back_decks(job, layouts)}
    pages = 0
    for number in sorted(decks):
        if duplex and canvas.getPageNumber() % 2 == 0:  # the open page is a back
            pages += _blank_page(canvas)
        _tuck_box(canvas, art, job, sorted(decks[number], key=lambda c: c.index), backs[number])
        pages += 1 + (_blank_page(canvas) if duplex else 0)
    return pages


def _tuck_box(
    canvas: Canvas, art: ArtLibrary, job: PrintJob, cards: Sequence[CardLayout], deck: backs_mod.BackDeck
) -> None:
    """Draw one deck's tuck box (``cards``: the deck's, in index order; ``deck``: its colour and
    letter, as its backs have them) on a page of its own."""
    from printdeck.render.tuck_box import TuckBox, box_page_size_mm, draw_tuck_box  # noqa: PLC0415 - asked for rarely

    shape = job.card.card_shape()
    box = TuckBox.for_deck(shape.width_mm, shape.height_mm, len(cards), job.card_thickness_mm)
    page = box_page_size_mm(box, job.paper_size_mm)
    color = deck.color or (job.backs.color if job.backs is not None else DEFAULT_BACK_COLOR)
    canvas.setTrimBox(None)
    draw_tuck_box(canvas, art, box, page, cards[0], job.card, job.title, color, deck.letter)


def _blank_page(canvas: Canvas) -> int:
    """End an empty page, the size of the page before it (whose back it is); returns 1."""
    canvas.showPage()
    return 1


def largest_boxes_mm(layouts: Sequence[CardLayout]) -> dict[int, float]:
    """The longest box side (mm) each symbol is printed at, over the deck."""
    out: dict[int, float] = {}
    for card in layouts:
        for p in card.placements:
            out[p.symbol_id] = max(out.get(p.symbol_id, 0.0), *p.box_mm)
    return out


def _new_canvas(path: Path, job: PrintJob, imposition: Imposition, n_cards: int) -> Canvas:
    """The document canvas; its Subject carries the artwork credit (kept in every layout)."""
    subject = (
        f"Spot-the-match card deck, {n_cards} cards ({imposition.card_shape().describe()}) "
        f"(theme {job.name}), made with printdeck"
    )
    if job.attribution:
        subject += f". Artwork credit: {job.attribution}"
    return new_canvas(
        path,
        imposition.page_size_mm,
        title=job.title,
        author=job.author,
        subject=subject,
        duplex=job.backs.duplex if job.backs is not None else None,
        grey=job.grayscale,
    )


def _sheets(
    canvas: Canvas,
    art: ArtLibrary,
    job: PrintJob,
    layouts: dict[int, CardLayout],
    imposition: Imposition,
    progress: Callable[[int], None] | None,
) -> int:
    """Draw the front sheets (and their backs); returns pages drawn."""
    style = replace(job.card, cut_guide=False) if imposition.single else job.card  # a single page is trimmed
    back_forms = _back_forms(canvas, job, layouts, style)  # with their bleed: shared cuts clip them (_back_page)
    plan, widest = None, ""
    if not imposition.single:
        deck = f", deck {SPLIT_DECKS[0]}" if job.split_at is not None else ""
        widest = f"{imposition.pages}/{imposition.pages}{deck}" + _widest_decks(layouts, imposition)
        credit = " · ".join(x for x in ("Sheet {n}", job.title, job.attribution or "") if x)
        keep_clear = registration_zones(imposition.page_size_mm) if job.registration_marks else []
        plan = plan_footer(imposition, credit.replace("{n}", widest), keep_clear, job.scale_note)
        if job.cut_marks:
            warn_missing_marks(imposition)
    pages = 0
    for page in range(1, imposition.pages + 1):
        slots = [s for s in imposition.slots if s.page == page]
        drawers = {SheetSide.FRONT: _front_page, SheetSide.BACK: _back_page}
        for side in (drawers[s] for s in job.sides(imposition.single)):
            _page_setup(canvas, imposition)
            side(canvas, art, layouts, imposition, slots, style, job, back_forms)
            if side is _front_page and plan is not None:
                if job.cut_marks:
                    draw_marks(canvas, page_marks(imposition, page))
                if job.registration_marks:
                    draw_registration(canvas, imposition.page_size_mm)
                cards = [layouts[s.card_index] for s in slots]
                label = f"{page}/{imposition.pages}" + _deck_label(job, cards)
                draw_footer(canvas, plan, widest, label + _decks_label(cards))
            canvas.showPage()
            pages += 1
        if progress is not None:
            progress(len(slots))
    return pages


def _front_page(
    canvas: Canvas,
    art: ArtLibrary,
    layouts: dict[int, CardLayout],
    imposition: Imposition,
    slots: Sequence[CardSlot],
    style: CardStyle,
    job: PrintJob,
    back_forms: dict[int, str],
) -> None:
    """The cards of one front page."""
    turn = imposition.rotation_deg
    if imposition.shared:  # every background first: a card's bleed runs under its neighbours
        for slot in slots:
            fill_background_at(canvas, style, slot.center_mm, turn)
    for slot in slots:
        draw_card(canvas, art, layouts[slot.card_index], slot.center_mm, style, turn, not imposition.shared)


def _back_page(
    canvas: Canvas,
    art: ArtLibrary,
    layouts: dict[int, CardLayout],
    imposition: Imposition,
    slots: Sequence[CardSlot],
    style: CardStyle,
    job: PrintJob,
    back_forms: dict[int, str],
) -> None:
    """The backs of one front page's cards, mirrored for duplex and offset by the home printer's
    drift correction (not on one card a page: a print shop's page is the card, its back centred)."""
    assert job.backs is not None
    back_turn = backs_mod.mirror_turn(imposition.rotation_deg, imposition.page_size_mm, job.backs.duplex)
    offset_mm = (0.0, 0.0) if imposition.single else job.backs.offset_mm
    centers = [backs_mod.mirror_mm(s.center_mm, imposition.page_size_mm, job.backs.duplex, offset_mm) for s in slots]
    decks = [backs_mod.back_deck_of(job, layouts[s.card_index]) for s in slots]
    if imposition.shared:  # the block's bleed first, each card's in its back's colour; then each back, clipped
        colours = {d.number: d.color or job.backs.color for d in backs_mod.back_decks(job, layouts.values())}
        backs_mod.fill_shared_bleed(
            canvas, style, centers, [colours[deck] for deck in decks], back_turn, imposition.page_size_mm
        )
        cells = backs_mod.cells_pt(centers, imposition.page_size_mm)
        for deck, center, cell in zip(decks, centers, cells, strict=True):
            backs_mod.draw_back(canvas, center, back_turn, back_forms[deck], clip_pt=cell)
        return
    for deck, center in zip(decks, centers):
        backs_mod.draw_back(canvas, center, back_turn, back_forms[deck])


def _deck_label(job: PrintJob, cards: Sequence[CardLayout]) -> str:
    """A split deck's sheets say which deck they hold (deck B starts on a sheet of its own):
    the deck of its ``cards``, as their backs have it (:func:`~printdeck.render.backs.back_deck_of`)."""
    if job.split_at is None or not cards:
        return ""
    return f", deck {SPLIT_DECKS[backs_mod.back_deck_of(job, cards[0]) - 1]}"


def _back_forms(canvas: Canvas, job: PrintJob, layouts: dict[int, CardLayout], style: CardStyle) -> dict[int, str]:
    """Make the back forms (:func:`~printdeck.render.backs.back_decks`: one a deck of a class
    set or of a split deck, in its colour): deck number -> form name."""
    if job.backs is None:
        return {}
    names = {}
    for deck in backs_mod.back_decks(job, layouts.values()):
        names[deck.number] = backs_mod.BACK_FORM if deck.letter is None else f"{backs_mod.BACK_FORM}-{deck.letter}"
        design = backs_mod.deck_back(job.backs, deck)
        backs_mod.make_back_form(
            canvas, design, style.radius_mm, style.bleed_mm, style.shape, names[deck.number], band=deck.color
        )
    return names


def _decks_label(cards: Sequence[CardLayout]) -> str:
    """`` · deck A`` (or `` · decks A, B``; numbered decks ``9, 10`` in their order) for a class
    set's sheet; empty for one deck."""
    by_deck = {c.mark.deck: c.mark.letter for c in cards if c.mark is not None}
    letters = [by_deck[deck] for deck in sorted(by_deck)]
    if not letters:
        return ""
    return f" · deck{'s' if len(letters) > 1 else ''} " + ", ".join(letters)


def _widest_decks(layouts: dict[int, CardLayout], imposition: Imposition) -> str:
    """The widest :func:`_decks_label` a sheet may get (its footer is planned with it): as many
    labels as a sheet holds decks, each as wide as a "W" for each character of the longest
    (a class set of 12 numbered decks: ``10``)."""
    labels = {c.mark.letter for c in layouts.values() if c.mark is not None}
    if not labels:
        return ""
    decks_on: dict[int, set[int]] = {}
    for slot in imposition.slots:
        mark = layouts[slot.card_index].mark
        decks_on.setdefault(slot.page, set()).add(mark.deck if mark is not None else 0)
    most = max(map(len, decks_on.values()))
    return f" · deck{'s' if most > 1 else ''} " + ", ".join(["W" * max(map(len, labels))] * most)


def _page_setup(canvas: Canvas, imposition: Imposition) -> None:
    """Page size, and for single-card pages the TrimBox (cut square) and BleedBox."""
    w, h = (mm_to_pt(v) for v in imposition.page_size_mm)
    canvas.setPageSize((w, h))
    if imposition.single:
        b = mm_to_pt(imposition.bleed_mm)
        canvas.setTrimBox((b, b, w - b, h - b))
        canvas.setBleedBox((0, 0, w, h))
