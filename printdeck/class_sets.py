"""Class sets: ``deck.copies`` decks in one job, each its own colour, letter and layouts.

A teacher prints one deck for each group of four to six players. Every deck of a class set
has the same cards (the same design, the same symbol on each point: card 12 of deck A
matches card 31 of deck A with the same symbol as in deck B), but:

- its own layout seed, derived from the theme's (:func:`deck_seed`), so the decks are
  not photocopies of each other;
- its own colour from :func:`printdeck.theme.deck_colours` (the backs' colour) and its
  letter (``A``, ``B``, ...) in a dot of that colour on every front, near the rim, in a
  place the layout keeps free (``LayoutSettings.mark_spot``);
- its own sheets, unless ``paper.pack`` lets the sheets mix decks (fewer sheets).

Cards of a class set count through every deck: deck d's card i (both from 0) has index
``d * cards + i`` in the layouts and the imposition; the manifest writes ``index`` i and
``deck`` d + 1.
"""

from __future__ import annotations

import dataclasses
import warnings
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import numpy as np

from printdeck.artwork import word_skeleton
from printdeck.assign import colour_words
from printdeck.errors import CARD_LAYOUT, LookAlikeWarning, PrintdeckError
from printdeck.layout import LayoutSettings, Meanwhile, layout_deck
from printdeck.model import CardLayout, CardSlot, DeckMark, SymbolSpec
from printdeck.theme import Theme, deck_colours, word_colours

if TYPE_CHECKING:
    from printdeck.render import Imposition

CLASS_SET_STREAM = 0x434C  # the seed sequence's tag for class-set layout seeds ("CL")


@dataclasses.dataclass(frozen=True)
class ClassDeck:
    """One deck of a class set.

    Attributes:
        number: 1..N.
        letter: ``A`` for deck 1, ``B`` for deck 2, ...; ``1``, ``2``, ... for a deck whose
            words read as its letters (:func:`deck_labels`).
        color: Its colour ``#rrggbb`` (:func:`~printdeck.theme.deck_colours`: the deck palette's,
            or a grey deck's greys).
        seed: Its layout seed (:func:`deck_seed`).
    """

    number: int
    letter: str
    color: str
    seed: int


def deck_seed(seed: int, number: int) -> int:
    """Layout seed of deck ``number`` (1-based) of a class set built with theme seed ``seed``:
    a 32-bit word of numpy's ``SeedSequence([seed, CLASS_SET_STREAM, number])`` (distinct
    streams for every deck; the same seed gives the same decks)."""
    return int(np.random.SeedSequence([seed, CLASS_SET_STREAM, number]).generate_state(1)[0])


def class_decks(theme: Theme) -> tuple[ClassDeck, ...]:
    """The decks of the theme's class set (``deck.copies`` of them; ``()`` for one deck)."""
    copies = theme.spec.deck.copies
    if copies <= 1:
        return ()
    colours = deck_colours(copies, theme.spec.paper.grayscale)
    labels = deck_labels(theme.symbols, copies)
    seed = theme.spec.seed
    return tuple(ClassDeck(n, labels[n - 1], colours[n - 1], deck_seed(seed, n)) for n in range(1, copies + 1))


def deck_labels(symbols: Sequence[SymbolSpec], copies: int) -> tuple[str, ...]:
    """The labels that name a class set's ``copies`` decks (:attr:`ClassDeck.letter`: each
    front's mark, its back's title, its file names): ``A``, ``B``, ... unless a word of
    ``symbols`` reads as one of them (:func:`~printdeck.artwork.word_skeleton`: an alphabet
    deck's mark "B" would put a second B on a card of deck B, one every card of the deck
    shares); then ``1``, ``2``, ... if fewer of those read as a word (an alphabet's I and L
    read as 1, so its deck 1 keeps one such mark, not every deck)."""
    letters = tuple(chr(ord("A") + n) for n in range(copies))
    numbers = tuple(str(n) for n in range(1, copies + 1))
    return numbers if len(mark_clashes(symbols, letters)) > len(mark_clashes(symbols, numbers)) else letters


def mark_clashes(symbols: Sequence[SymbolSpec], labels: Sequence[str]) -> list[str]:
    """The deck labels that read as a word of ``symbols`` (:func:`~printdeck.artwork.word_skeleton`):
    a card of that deck may show its mark beside the word, two alike."""
    words = {word_skeleton(face.text) for s in symbols for face in s.all_faces if face.kind == "text" and face.text}
    return [label for label in labels if word_skeleton(label) in words]


def warn_mark_clashes(theme: Theme, symbols: Sequence[SymbolSpec]) -> None:
    """Warn when a class set's deck marks read as words of its cards even as
    :func:`deck_labels` chose them (letters and numbers both among the words).

    Warns:
        LookAlikeWarning: naming the marks.
    """
    labels = [deck.letter for deck in class_decks(theme)]
    clashing = mark_clashes(symbols, labels)
    if clashing:
        shown_marks = ", ".join(clashing)
        warnings.warn(
            f"deck.copies: the decks' marks {shown_marks} read as words of the deck, which holds both letters "
            f"and numbers: a card of deck {clashing[0]} may show two {clashing[0]}s; tell the decks apart by their "
            'colour, or write those words another way ("two", not "2")',
            LookAlikeWarning,
            stacklevel=2,
        )


def lay_out_class_set(
    theme: Theme,
    cards: Sequence[Sequence[SymbolSpec]],
    symbols: Sequence[SymbolSpec],
    progress: Callable[[int], None] | None = None,
    jobs: int | None = None,
    per_deck: int | None = None,
    meanwhile: Meanwhile | None = None,
    decks: int | None = None,
) -> list[CardLayout]:
    """Lay out every deck of the theme's class set, deck after deck (or its first ``decks``).

    Args:
        theme: A theme with ``deck.copies`` > 1.
        cards: One deck's cards (their symbols, in packing order), or its first few.
        symbols: The deck's symbols by point (for word colours).
        progress: Advanced by one a card laid out (copies x cards in all).
        jobs: Worker processes (see :func:`printdeck.layout.layout_deck`).
        per_deck: The whole deck's cards (default ``len(cards)``): deck d's card i has
            index ``(d - 1) * per_deck + i``, so the first few cards of every deck (a
            preview's) keep the indices the whole class set gives them.
        meanwhile: Work done once beside the first deck's packing (see
            :func:`printdeck.layout.layout_deck`).
        decks: Only the first this many decks (a preview's deck A: the layouts the
            whole set gives it); None for every deck.

    Returns:
        ``copies * len(cards)`` layouts (``decks * len(cards)`` with ``decks``), deck 1
        first, each with its :class:`DeckMark`.

    Raises:
        PrintdeckError: A card cannot be laid out around its deck mark (a card named by
            its deck too: ``deck B, card 24: ...``).
    """
    settings = LayoutSettings.from_theme(theme)
    spot = settings.mark_spot()
    assert spot is not None  # a class set keeps room for its mark
    out: list[CardLayout] = []
    for deck in class_decks(theme)[:decks]:
        try:
            layouts = layout_deck(cards, settings, deck.seed, progress=progress, jobs=jobs, meanwhile=meanwhile)
        except PrintdeckError as exc:
            raise _of_deck(exc, deck.letter) from None
        layouts = colour_words(layouts, symbols, word_colours(theme.spec))
        mark = DeckMark(deck.number, deck.letter, deck.color, spot[0], spot[1])
        base = (deck.number - 1) * (len(cards) if per_deck is None else per_deck)
        out += [dataclasses.replace(c, index=base + c.index, mark=mark) for c in layouts]
    return out


def _of_deck(exc: PrintdeckError, letter: str) -> PrintdeckError:
    """``exc`` with the card it names (``card 24: ...``) named as deck ``letter``'s: every deck
    of a class set has its own layouts and numbers its cards from 1."""
    return exc.prefixed(f"deck {letter}, ") if exc.code == CARD_LAYOUT else exc


def class_set_imposition(one_deck: Imposition, decks: int, pack: bool, impose_all: Imposition) -> Imposition:
    """Where every card of a class set sits.

    Args:
        one_deck: One deck's imposition.
        decks: The number of decks.
        pack: Sheets may mix decks: ``impose_all`` is used as it is.
        impose_all: The imposition of every card of every deck in a row.

    Returns:
        Without ``pack``, each deck on sheets of its own: deck d's sheets follow deck
        d - 1's, laid out as ``one_deck``; with ``pack``, ``impose_all``.
    """
    if pack:
        return impose_all
    n = len(one_deck.slots)
    slots = tuple(
        CardSlot(d * n + s.card_index, d * one_deck.pages + s.page, s.center_mm)
        for d in range(decks)
        for s in one_deck.slots
    )
    return dataclasses.replace(one_deck, slots=slots, pages=decks * one_deck.pages)
