"""The deck before and beside the build: plan it and lay it out exactly as
:func:`printdeck.pipeline.build` makes it (the studio, ``check`` and the previews of
:mod:`printdeck.deck_preview` use it)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from printdeck.artwork import drawing, silhouettes
from printdeck.assign import SPLIT_DECKS, FacedDeck, assign_symbols, balance_symbols, colour_words, face_deck
from printdeck.build_result import cards_text
from printdeck.class_sets import class_decks, class_set_imposition, lay_out_class_set, warn_mark_clashes
from printdeck.design import Design, DesignRequestError, make_design, verify_blocks
from printdeck.errors import PrintdeckError
from printdeck.layout import (
    LayoutSettings,
    Meanwhile,
    layout_deck,
    may_pack_too_small,
    warn_pins_of_missing_cards,
    warn_rerolls_of_missing_cards,
)
from printdeck.model import CardLayout, SymbolSpec
from printdeck.photo_work import prepare_photos
from printdeck.sheet_room import keeps_mark_room, sheet_margin_mm
from printdeck.theme import (
    Theme,
    check_printed_text,
    sized_theme,
    theme_errors_located,
    theme_worded,
    warn_font_gaps,
    word_colours,
)
from printdeck.units import MM_PER_UNIT

if TYPE_CHECKING:
    from printdeck.render import Imposition, PrintJob


def deck_design(theme: Theme) -> Design:
    """Build the (trimmed) design the theme's ``deck`` section asks for, verified.

    The deck is checked from its incidence matrix (every two cards share exactly λ
    symbols, no card repeats a symbol) before anything is laid out.

    Raises:
        PrintdeckError: no design of that size (see ``printdeck.design.make_design``).
    """
    deck = sized_theme(theme).spec.deck  # a theme of load_symbols: sized, or refused in load_theme's words
    if deck.order is None and deck.symbols_per_card is None:
        raise PrintdeckError(f"theme {theme.name}: deck: give symbols_per_card (e.g. 8) or order (e.g. 7)")
    try:
        design = make_design(
            order=deck.order,
            symbols_per_card=deck.symbols_per_card,
            match=deck.match,
            cards=deck.cards,
            search=deck.search,
            drop_unused=deck.drop_unused,
        )
    except DesignRequestError as exc:  # worded with the theme's keys: deck.symbols_per_card: ...
        raise theme_worded(exc) from None
    report = verify_blocks(design.blocks, design.lam)
    if not report.ok:  # a construction bug, never a user error: refuse to print a wrong deck
        raise RuntimeError(f"design {design.construction} failed verification: {report.summary()}")
    return design


def prove_symbols(theme: Theme, symbols: Sequence[SymbolSpec] | None = None) -> None:
    """Prove that each symbol (default: every symbol of the theme) prints what its
    silhouette shows, on the card's background (:mod:`printdeck.render.proof`).

    Raises:
        PrintdeckError: a symbol shows no visible ink, a word colour does not show on
            the card's background, or a symbol cannot be drawn.

    Warns:
        VectorWarning: an SVG is printed as its raster instead of its vector form.
        FaintEdgeWarning: a symbol's edge is almost the card's colour (its shape would not show).
        BackgroundWarning: a removed background left scattered pieces, not the subject.
        DarkPhotoWarning: a photo so dark it prints nearly black.
        FontGapWarning: the theme's chosen font lacks letters of some words (set in another).
        LookAlikeWarning: a class set's deck marks read as words of its cards.
    """
    from printdeck.render import prove_symbols as prove  # noqa: PLC0415 - ReportLab only when proving

    chosen = [face for s in (theme.symbols if symbols is None else symbols) for face in s.all_faces]
    with theme_errors_located(theme):  # as every command says them
        check_words_show(theme, chosen)
        warn_font_gaps(theme, chosen)
        warn_mark_clashes(theme, theme.symbols if symbols is None else symbols)
        prepare_photos(chosen, theme.spec.card.background)  # a cold photo's work, once, on every core
        paper = theme.spec.paper
        where = [f"{f.theme_key or 'symbol'} {f.name!r}" for f in chosen]  # as a symbol's errors name it
        prove(chosen, theme.spec.card.background, where, opaque=paper.color == "cmyk" and paper.pdfx == "x-1a")


def may_print_coarse(theme: Theme, symbols: Sequence[SymbolSpec]) -> bool:
    """Whether a raster or photo of ``symbols`` could print under the build's least resolution
    (:data:`printdeck.render.REFUSE_DPI`) at some size a card gives it: its pixels over the
    safe zone's longer side, the most a symbol's box can span. Only then does the printed
    size, which the layout decides, need finding (``printdeck check`` lays such a deck out).

    Raises:
        PrintdeckError: A picture cannot be read (as the proofs would say).
    """
    from printdeck.render import REFUSE_DPI  # noqa: PLC0415 - ReportLab only when rendering

    zone = theme.spec.card.outline().offset(-theme.spec.card.safe_margin_mm)
    longest_in = max(zone.width_mm, zone.height_mm) / MM_PER_UNIT["in"]
    for face in (face for s in symbols for face in s.all_faces):
        if face.kind in ("raster", "photo") and min(drawing(face).size) / longest_in < REFUSE_DPI:
            return True
    return False


def may_pack_small(theme: Theme, symbols: Sequence[SymbolSpec], per_card: int) -> bool:
    """Whether the layout might refuse a card of ``symbols`` (``per_card`` a card) for a symbol
    too small to print (:func:`printdeck.layout.may_pack_too_small`: an estimate from the
    safe zone, the size ladder and the symbols' ink shares). Only then does ``printdeck
    check`` lay the deck out to know.
    """
    faces = [face for s in symbols for face in s.all_faces]
    return may_pack_too_small(silhouettes(faces), per_card, LayoutSettings.from_theme(theme))


def check_words_show(theme: Theme, symbols: Sequence[SymbolSpec]) -> None:
    """Refuse word colours that would not show on the card, when ``symbols`` (faces) hold a
    word the deck colours (:func:`printdeck.render.check_word_colours`).

    Raises:
        PrintdeckError: Keyed ``text.colors``.
    """
    from printdeck.render import check_word_colours  # noqa: PLC0415 - ReportLab only when rendering

    if any(s.kind == "text" and not s.color_fixed for s in symbols):
        check_word_colours(word_colours(theme.spec), theme.spec.card.background)


def unused_symbols(theme: Theme, symbols: Sequence[SymbolSpec], blocks: Sequence[Sequence[int]]) -> list[SymbolSpec]:
    """The theme's symbols no card shows (not chosen for the deck, or on no card after trimming).

    Args:
        theme: The loaded theme.
        symbols: The deck's symbols, indexed by point.
        blocks: The deck's cards (point indices).
    """
    shown_sources = {symbols[p].source for block in blocks for p in block}
    return [s for s in theme.symbols if s.source not in shown_sources]


def impose_theme(theme: Theme, n_cards: int, *, split: bool = False) -> Imposition:
    """Where each of ``n_cards`` cards sits on the theme's paper (see :func:`printdeck.render.impose`).

    ``split``: two decks of ``n_cards / 2`` cards, the second starting on a sheet of its own.
    """
    from printdeck.render import impose, paper_size_mm  # noqa: PLC0415 - ReportLab only when rendering

    spec = theme.spec
    half = impose(
        paper_size_mm(spec.paper.size),
        spec.card.outline(),
        spec.card.bleed_mm,
        sheet_margin_mm(spec.paper.margin_mm, spec.paper.registration_marks),
        spec.paper.gap_mm,
        n_cards // 2 if split else n_cards,
        single=spec.paper.layout == "single",
        shared=spec.paper.cuts == "shared",
        mark_room=keeps_mark_room(spec.paper.cut_marks, spec.paper.registration_marks),
    )
    if not split:
        return half
    second = tuple(
        dataclasses.replace(s, card_index=s.card_index + len(half.slots), page=s.page + half.pages) for s in half.slots
    )
    return dataclasses.replace(half, slots=half.slots + second, pages=2 * half.pages)


@dataclasses.dataclass(frozen=True)
class DeckPlan:
    """A theme's deck before layout: the design and the symbol on each point.

    Attributes:
        theme: The loaded theme (overrides applied).
        design: The verified (trimmed) design; ``design.blocks[i]`` are card i's points.
        symbols: The drawings the cards show, ``symbols[d].id == d`` (what layouts name):
            without faces, the symbol on each point, balanced; with faces, every face of
            every point's symbol (see :class:`printdeck.assign.FacedDeck`).
        cards: ``cards[i]`` = card i's drawings, in the order they are packed (a split
            deck prints the design twice: deck A, then deck B).
        unused_symbols: The theme's symbols no card shows, in theme order.
        imposition: Where each card sits on the sheets (a class set: every deck's cards).
        faced: Which face each card shows, and what each drawing is a face of.
        concepts: ``(n_points,)`` the symbol (with all its faces) on each point.
    """

    theme: Theme
    design: Design
    symbols: tuple[SymbolSpec, ...]
    cards: tuple[tuple[SymbolSpec, ...], ...]
    unused_symbols: tuple[SymbolSpec, ...]
    imposition: Imposition
    faced: FacedDeck | None = None
    concepts: tuple[SymbolSpec, ...] = ()

    @property
    def cards_per_deck(self) -> int:
        """The cards of one deck: every card the imposition places, over a class set's copies
        (``cards`` may hold only the first few, for a preview)."""
        return len(self.imposition.slots) // self.theme.spec.deck.copies

    @property
    def unused(self) -> tuple[str, ...]:
        """Names of the theme's symbols no card shows."""
        return tuple(s.name for s in self.unused_symbols)

    @property
    def pages(self) -> int:
        """Front sheets (or single-card pages) the deck prints on."""
        return self.imposition.pages

    @property
    def split_at(self) -> int | None:
        """A split deck's deck A card count (deck B's cards follow it), else None."""
        if self.faced is None or not is_split(self.faced):
            return None
        return self.faced.card_decks.index(SPLIT_DECKS[1])

    @property
    def deck_letters(self) -> tuple[str, ...]:
        """The letters of the decks the cards print in: a split deck's ``A`` and ``B``, a
        class set's (``A`` to ``L``, or ``1`` to ``12`` for a deck of letters:
        :func:`printdeck.class_sets.deck_labels`); empty for one deck."""
        if self.faced is not None and is_split(self.faced):
            return SPLIT_DECKS
        copies = self.theme.spec.deck.copies
        return tuple(deck.letter for deck in class_decks(self.theme)) if copies > 1 else ()

    @property
    def cards_text(self) -> str:
        """The cards printed, in the build summary's words: ``55 cards``, ``3 decks (A to C)
        of 13 cards`` (a class set prints :attr:`cards` once a deck)."""
        return cards_text(len(self.cards) * self.theme.spec.deck.copies, self.deck_letters)


def plan_deck(theme: Theme, *, prove: bool = True) -> DeckPlan:
    """Make the theme's design and assign its symbols, exactly as :func:`build` does
    (:func:`deck_design`, ``assign_symbols``, :func:`prove_symbols`, :func:`planned_deck`).

    Args:
        theme: A loaded theme (see :func:`printdeck.load_theme`).
        prove: Prove every deck symbol prints what its silhouette shows (as ``build``).

    Raises:
        PrintdeckError: no design of that size, too few symbols, or a symbol that
            cannot be drawn or shows no ink.
    """
    theme = sized_theme(theme)
    with theme_errors_located(theme):  # as the build says them
        design = deck_design(theme)
        symbols = assign_symbols(theme, design.n_points, theme.spec.seed)
        check_printed_text(theme, symbols)
        if prove:
            prove_symbols(theme, symbols)
        return planned_deck(theme, design, symbols)


def plan_print_job(plan: DeckPlan) -> PrintJob:
    """What is printed besides the cards of ``plan`` (:meth:`printdeck.render.PrintJob.from_theme`),
    with what only the plan knows: the rules worded for the design's λ, a split deck's
    deck B first card (its backs differ from deck A's)."""
    from printdeck.render import PrintJob  # noqa: PLC0415 - ReportLab only when rendering

    job = PrintJob.from_theme(plan.theme)
    return dataclasses.replace(job, match=plan.design.lam, split_at=plan.split_at)


def is_split(faced: FacedDeck) -> bool:
    """Whether ``faced`` prints as two decks, A and B (``deck.faces: split`` of symbols with faces)."""
    return faced.mode == "split" and faced.has_faces


def check_class_set(theme: Theme, faced: FacedDeck) -> None:
    """Refuse a class set (``deck.copies`` > 1) of a split deck, which printdeck cannot make.

    Raises:
        PrintdeckError: ``deck.copies`` above 1 with a split deck.
    """
    if theme.spec.deck.copies > 1 and is_split(faced):
        raise PrintdeckError(
            key="deck.copies",
            problem="a class set of a split deck (deck.faces: split) is not supported",
            fix="build one deck, or set deck.faces: mixed",
        )


def planned_deck(theme: Theme, design: Design, symbols: Sequence[SymbolSpec]) -> DeckPlan:
    """The deck of ``design`` with ``symbols`` (indexed by point) on its points: the sheets
    imposed, the points balanced so no card gathers the hard-to-pack artwork (this traces
    the silhouettes), the unused symbols listed."""
    balanced = tuple(balance_symbols(design.blocks, symbols))
    faced = face_deck(design.blocks, balanced, theme.spec.deck.faces, theme.spec.seed)
    split = is_split(faced)
    check_class_set(theme, faced)
    imposition = impose_theme(theme, len(faced.cards), split=split)
    copies = theme.spec.deck.copies
    if copies > 1:  # a class set: every deck's cards (see printdeck.class_sets)
        pack = theme.spec.paper.pack
        every = impose_theme(theme, copies * len(faced.cards)) if pack else imposition
        imposition = class_set_imposition(imposition, copies, pack, every)
    unused = tuple(unused_symbols(theme, balanced, design.blocks))
    return DeckPlan(theme, design, faced.drawings, faced.cards, unused, imposition, faced, balanced)


def lay_out_plan(
    plan: DeckPlan,
    progress: Callable[[int], None] | None = None,
    jobs: int | None = None,
    meanwhile: Meanwhile | None = None,
    decks: int | None = None,
) -> list[CardLayout]:
    """Lay out every card of a planned deck (packed cards come from the disk cache when
    nothing they depend on changed), words coloured as the build colours them; a class
    set's every deck, or its first ``decks`` (:func:`printdeck.class_sets.lay_out_class_set`).

    ``meanwhile``: work done once beside the packing, in a worker process (the build's
    look-alike check: see :class:`printdeck.layout.Meanwhile`).

    Raises:
        PrintdeckError: a card cannot be laid out (the message names it and the fix), or
            ``meanwhile`` raised (its error wins).
    """
    theme = plan.theme
    settings = LayoutSettings.from_theme(theme)
    warn_pins_of_missing_cards(settings.pins, plan.cards_per_deck)
    warn_rerolls_of_missing_cards(settings.reroll, plan.cards_per_deck)
    with theme_errors_located(theme):  # a card that cannot be laid out: as every command says it
        if theme.spec.deck.copies > 1:
            per_deck = plan.cards_per_deck  # plan.cards may be the first few
            return lay_out_class_set(
                theme,
                plan.cards,
                plan.symbols,
                progress=progress,
                jobs=jobs,
                per_deck=per_deck,
                meanwhile=meanwhile,
                decks=decks,
            )
        layouts = layout_deck(plan.cards, settings, theme.spec.seed, progress=progress, jobs=jobs, meanwhile=meanwhile)
    return colour_words(layouts, plan.symbols, word_palette(theme))


def word_palette(theme: Theme) -> tuple[str, ...]:
    """The colours a card's words take (:func:`printdeck.theme.word_colours`)."""
    return word_colours(theme.spec)


def seeded_theme(theme: Theme, seed: int | None) -> Theme:
    """``theme`` with ``seed`` in place of its own (``build --seed``'s deck), or itself for None."""
    return theme if seed is None else dataclasses.replace(theme, spec=theme.spec.model_copy(update={"seed": seed}))
