"""Checks without a build: a design verified, a theme checked as the build checks it, its
look-alike symbols, a deck file verified, and the deck sizes symbols allow (exported
from :mod:`printdeck`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from printdeck.artwork import Vision
from printdeck.assign import assign_symbols, face_deck
from printdeck.build_result import cards_text
from printdeck.card_view import check_deck_pins
from printdeck.deck_plan import (
    check_class_set,
    deck_design,
    impose_theme,
    is_split,
    lay_out_plan,
    may_pack_small,
    may_print_coarse,
    planned_deck,
    prove_symbols,
    unused_symbols,
)
from printdeck.design import DeckFile, Design, VerifyReport, verify_blocks
from printdeck.layout import LayoutSettings, warn_rerolls_of_missing_cards
from printdeck.theme import (
    check_look_alikes,
    check_printed_text,
    look_alikes as _look_alikes,
    theme_errors_located,
    warn_press_file,
    warn_unused_settings,
    warn_vision_look_alikes,
)

if TYPE_CHECKING:
    from printdeck.artwork import LookAlike
    from printdeck.model import SymbolSpec
    from printdeck.theme import Theme


from printdeck.api.building import ThemeSource, load_symbols, load_theme


def verify(deck: Design | Sequence[Sequence[int]], lam: int | None = None) -> VerifyReport:
    """Check a deck from its incidence matrix: every two cards share exactly λ symbols
    and no card shows a symbol twice.

    Args:
        deck: A :class:`Design`, or cards as lists of symbol numbers (``[[0, 1, 2], ...]``).
        lam: λ to check (default: the design's, else 1).

    Returns:
        The report: ``ok``, the counts, and the first offending pairs of cards.

    Raises:
        ValueError: ``lam`` is not 1 or more.

    Examples:
        >>> import printdeck
        >>> printdeck.verify(printdeck.make_design(symbols_per_card=4)).ok
        True
        >>> report = printdeck.verify([[0, 1, 2], [0, 3, 4], [1, 2, 5]])
        >>> report.ok, report.bad_pair_count
        (False, 2)
    """
    if lam is not None and lam < 1:
        raise ValueError(f"lam: expected 1 or more, got {lam}")
    if isinstance(deck, Design):
        return verify_blocks(deck.blocks, deck.lam if lam is None else lam)
    return verify_blocks(deck, 1 if lam is None else lam)


def deck_sizes_text(n_symbols: int, match: int = 1) -> str:
    """What ``n_symbols`` symbols allow, in one line, e.g.
    ``"40 symbols: 31 cards of 6; add 17 for 57 cards of 8"``: the largest full deck
    that fits, then the next larger deck and how many more symbols it needs (``"(match
    2)"`` follows the count for λ = 2).

    Raises:
        ValueError: ``match`` is not 1 or 2, or ``n_symbols`` is negative.
    """
    from printdeck.design import deck_points, largest_deck, next_larger_deck  # noqa: PLC0415

    if match not in (1, 2) or n_symbols < 0:
        raise ValueError(f"deck_sizes_text: expected match 1 or 2 and 0 or more symbols, got {match}, {n_symbols}")
    fit = largest_deck(n_symbols, match)
    bigger = next_larger_deck(n_symbols, match)
    parts = [] if fit is None else [f"{deck_points(fit, match)} cards of {fit}"]
    if bigger is not None:
        needed = deck_points(bigger, match)
        parts.append(f"add {needed - n_symbols} for {needed} cards of {bigger}")
    head = f"{n_symbols} symbol{'' if n_symbols == 1 else 's'}{' (match 2)' if match == 2 else ''}"
    return f"{head}: {'; '.join(parts)}"


def deck_size_table(match: int = 1) -> list[dict[str, int]]:
    """Every full deck printdeck builds for λ = ``match``, smallest first, as the studio's
    size menu lists them: ``{"symbols_per_card": k, "cards": n, "order": k - match}``
    (the cards of a deck are its symbols: k² - k + 1 for λ = 1, 1 + k(k - 1)/2 for λ = 2).

    Raises:
        ValueError: ``match`` is not 1 or 2.
    """
    from printdeck.design import deck_points, feasible_sizes  # noqa: PLC0415

    if match not in (1, 2):
        raise ValueError(f"match: expected 1 or 2, got {match!r}")
    return [{"symbols_per_card": k, "cards": deck_points(k, match), "order": k - match} for k in feasible_sizes(match)]


@dataclass(frozen=True)
class CheckReport:
    """What :func:`check_theme` found: the deck a build of the theme makes.

    Attributes:
        name: The theme's name.
        cards: Cards in the deck.
        symbols_per_card: Symbols on each card.
        match: Symbols every two cards share.
        symbols_used: Symbols the cards show (the design's points, less those a trimmed deck
            leaves on no card).
        symbols_offered: Symbols the theme gives.
        unused: Names of the theme's symbols no card shows, in theme order.
        copies: Decks of a class set (``deck.copies``), each of ``cards`` cards.
        split: The deck prints as decks A and B, each of ``cards`` cards (``deck.faces: split``).
    """

    name: str
    cards: int
    symbols_per_card: int
    match: int
    symbols_used: int
    symbols_offered: int
    unused: tuple[str, ...]
    copies: int = 1
    split: bool = False

    def deck_text(self) -> str:
        """The cards the build prints, in words: ``"55 cards of 8 symbols"``, ``"4 decks of
        55 cards of 8 symbols"``, ``"7 cards of 3 symbols in each of decks A and B"``."""
        cards = f"{cards_text(self.cards)} of {self.symbols_per_card} symbols"
        if self.split:
            return f"{cards} in each of decks A and B"
        return f"{self.copies} decks of {cards}" if self.copies > 1 else cards


def check_theme(
    theme: ThemeSource = None,
    *,
    allow_outside: bool = False,
    allow_look_alike: bool | None = None,
    grayscale: bool | None = None,
) -> CheckReport:
    """Check a theme as :func:`build` does before the layout, writing nothing.

    Every key and file is checked, every symbol of the theme (not only the deck's) is
    proven to print the ink its silhouette shows, the design is made (a searched deck
    is searched, as the build searches it) and the symbols are assigned to it; pinned
    symbols (``layout.pinned``) are checked as the layout checks them. When a picture has few
    enough pixels to print under 150 dpi at some size a card could give it, or a card's
    smallest symbol may come out under the least size a symbol prints at (a crowded small
    card: :func:`printdeck.layout.may_pack_too_small`), the deck is laid out as the build
    lays it out (the layout decides the sizes; the build then reuses the cards) and held to
    the build's rules.

    Symbols players cannot tell apart are refused (warned about with ``allow_look_alike``);
    those that look alike only in grey are warned about, and in a colour deck those alike
    for colour-blind players (protanopia, deuteranopia, tritanopia) too (a grey deck is
    grey to every player).

    Raises:
        PrintdeckError: Anything :func:`build` would refuse before the layout, as one line.

    Warns:
        VectorWarning: An SVG will print as its raster instead of its vector form.
        PressWarning: A CMYK press file has no bleed.
        FaintEdgeWarning: A symbol's edge is almost the card's colour (its shape would not show).
        DarkPhotoWarning: A photo so dark it prints nearly black.
        BackgroundWarning: A removed background left scattered pieces, not the subject.
        LookAlikeWarning: Symbols that look alike in grey or for colour-blind players.
        ResolutionWarning: The backs' picture prints under 300 dpi (under 150: refused).
    """
    loaded = load_theme(theme, allow_outside=allow_outside)
    warn_press_file(loaded.spec)
    warn_unused_settings(loaded.spec)
    with theme_errors_located(loaded):  # as the build says them
        prove_symbols(loaded)  # every symbol: the same refusals as any deck of the theme
        spec = loaded.spec
        grey = spec.paper.grayscale if grayscale is None else grayscale
        allow = spec.deck.allow_look_alike if allow_look_alike is None else allow_look_alike
        check_look_alikes(loaded, allow=allow, grey=grey)  # a grey deck: warns about pairs alike in grey
        if not grey:  # colour-blind players, and black-and-white printers, of a colour deck
            warn_vision_look_alikes(loaded, grey=True)
        design = deck_design(loaded)
        symbols = assign_symbols(loaded, design.n_points, loaded.spec.seed)  # refuses too few symbols
        faced = face_deck(design.blocks, symbols, spec.deck.faces, spec.seed)  # refuses a split of 3 faces
        check_class_set(loaded, faced)
        check_printed_text(loaded, symbols)  # the title, credit and legend names it prints
        _check_back_picture(loaded)
        _warn_missing_marks(loaded, len(design.blocks))
        warn_rerolls_of_missing_cards(LayoutSettings.from_theme(loaded).reroll, len(design.blocks))  # as the build
        unused = unused_symbols(loaded, symbols, design.blocks)  # balancing permutes only points on cards
        if loaded.spec.layout.pinned:  # touched-up cards: their pins checked as the layout checks them
            check_deck_pins(planned_deck(loaded, design, symbols))
        per_card = design.symbols_per_card
        if may_print_coarse(loaded, symbols) or may_pack_small(loaded, symbols, per_card):
            _check_printed_sizes(loaded, design, symbols)  # laid out to find the printed sizes, as the build does
    return CheckReport(
        name=loaded.name,
        cards=len(design.blocks),
        copies=spec.deck.copies,
        split=is_split(faced),
        symbols_per_card=len(design.blocks[0]),
        match=design.lam,
        symbols_used=len(loaded.symbols) - len(unused),
        symbols_offered=len(loaded.symbols),
        unused=tuple(s.name for s in unused),
    )


def look_alikes(theme: ThemeSource = None, *, colour_blind: bool = False) -> list[LookAlike]:
    """The pairs of the theme's symbols (or faces of two symbols) that players cannot tell
    apart, as :func:`check_theme` and :func:`build` refuse them (see
    ``printdeck.artwork.lookalike``): each names both (``first``, ``second``), their positions
    in ``theme.symbols`` (``groups``), how they were seen (``vision``) and why (``reason()``).

    Args:
        theme: Anything :func:`load_theme` takes; its symbols may be too few for a deck
            yet (see :func:`load_symbols`).
        colour_blind: Also the pairs alike only printed in grey or for colour-blind players
            (``vision`` says which; ``check`` warns about them).

    Raises:
        PrintdeckError: The theme cannot be loaded or a symbol cannot be drawn.
    """
    loaded = load_symbols(theme)
    grey = (Vision.GREY,) if loaded.spec.paper.grayscale else ()
    if colour_blind:
        extra = (Vision.PROTANOPIA, Vision.DEUTERANOPIA, Vision.TRITANOPIA)
        return _look_alikes(loaded, visions=(*(grey or (Vision.NORMAL, Vision.GREY)), *extra))
    return _look_alikes(loaded, visions=grey)


def verify_file(path: str | Path, match: int | None = None) -> tuple[DeckFile, VerifyReport]:
    """Read a deck file (design JSON or CSV, or a build's manifest) and check it as
    :func:`verify` does (every two cards share exactly λ symbols, no card repeats one).

    Args:
        path: The file (limits: :func:`printdeck.design.read_deck`).
        match: λ to check, overriding the file's (default: the file's, else 1).

    Returns:
        The deck as read (symbols renumbered, their labels, λ) and the report.

    Raises:
        PrintdeckError: The file is missing, not a regular file, too large or malformed.

    A class set's manifest (cards with a ``deck``) is checked deck by deck
    (``VerifyReport.decks``): copies of one card in two decks are not a fault. A split
    deck's manifest (decks "A" and "B") is checked as deck A, each card of B against its
    twin (``VerifyReport.faults``: a B card showing other symbols, an A card with no twin
    or with two).
    """
    from printdeck.design import read_deck, verify_decks, verify_flat  # noqa: PLC0415

    deck = read_deck(Path(path), match)
    if deck.decks:  # a class set: each deck on its own
        report = verify_decks(deck.flat, deck.sizes, deck.decks, deck.lam)
    else:  # a split deck: deck A, its twins in deck.twin_faults
        report = replace(verify_flat(deck.flat, deck.sizes, deck.lam), b_cards=deck.b_cards, faults=deck.twin_faults)
    symbols = len(deck.labels) + (deck.unused or 0)  # renumbered: the file's count, where it gives one
    return deck, replace(report, symbols=symbols, unused=deck.unused, symbols_said=deck.symbols_said)


def _check_printed_sizes(theme: Theme, design: Design, symbols: Sequence[SymbolSpec]) -> None:
    """Lay the deck out and hold its pictures to the build's resolution (and its cards to the
    layout's least symbol size), as :func:`build` does before it writes.

    Raises:
        PrintdeckError: A picture prints under 150 dpi, or a card cannot be laid out.

    Warns:
        ResolutionWarning: A picture prints under 300 dpi.
    """
    from printdeck.render import check_raster_resolution  # noqa: PLC0415 - ReportLab only when rendering

    plan = planned_deck(theme, design, symbols)
    check_raster_resolution(plan.symbols, lay_out_plan(plan))


def _check_back_picture(theme: Theme) -> None:
    """Hold the backs' picture to the build's resolution, as :func:`build` does.

    Raises:
        PrintdeckError: It prints under 150 dpi.

    Warns:
        ResolutionWarning: It prints under 300 dpi.
    """
    if theme.spec.backs.enabled and theme.spec.backs.image is not None:
        from printdeck.render import PrintJob, check_back_resolution  # noqa: PLC0415 - ReportLab only when asked

        check_back_resolution(PrintJob.from_theme(theme))


def _warn_missing_marks(theme: Theme, n_cards: int) -> None:
    """The sheets' cut marks a gap leaves no room for, as the build warns of them."""
    if theme.spec.paper.cut_marks and theme.spec.paper.layout != "single":
        from printdeck.render import warn_missing_marks  # noqa: PLC0415 - ReportLab only when asked

        warn_missing_marks(impose_theme(theme, n_cards))
