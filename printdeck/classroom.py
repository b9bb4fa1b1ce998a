"""The game on the classroom screen: seeded rounds of two cards, the slides PDF, the answers.

Rounds are drawn so that every card appears: the deck's cards in a seeded random order,
taken two at a time (an odd card out is paired with the first card of the order); a split
deck's rounds put each card of deck A against a card of deck B. Cards are numbered from 1
as printed (the manifest's ``index`` plus one).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from printdeck.deck_plan import (
    DeckPlan,
    deck_design,
    is_split,
    lay_out_plan,
    plan_deck,
    prove_symbols,
    seeded_theme,
)
from printdeck.errors import PrintdeckError, path_error, shown
from printdeck.fileio import check_not_inputs, check_replaceable
from printdeck.model import SymbolSpec
from printdeck.output_record import check_not_a_deck, check_pdf_path
from printdeck.outputs import check_not_in_picture_folder, theme_inputs
from printdeck.printed_answers import check_card_pair
from printdeck.theme import SlidesSettings, Theme, load_theme, parse_settings, theme_errors_located

if TYPE_CHECKING:
    from printdeck.render import SlideRound


def slide_rounds(
    n_cards: int, seed: int, answer: Callable[[int, int], frozenset[int]] | None = None
) -> list[tuple[int, int]]:
    """Pairs of card indices (0-based) such that every card appears, in a seeded order: each
    card not yet shown meets the next one in the order whose ``answer`` with it (the points
    the two cards share) no earlier round had, so the class never looks for the same symbol
    twice (the next one when every answer would repeat). With an odd number of cards the
    last meets a card already shown, chosen the same way (else the first).

    Args:
        n_cards: Cards in the deck (>= 2).
        seed: The random order's seed.
        answer: The design points two cards (0-based) share; None: the order's neighbours.
    """
    waiting = _seeded_order(n_cards, seed)
    first = waiting[0]
    rounds: list[tuple[int, int]] = []
    said: set[int] = set()

    def partner(card: int, among: list[int]) -> int:
        fresh = (c for c in among if answer is not None and not answer(card, c) & said)
        return next(fresh, among[0])

    while len(waiting) >= 2:
        card = waiting.pop(0)
        other = partner(card, waiting)
        waiting.remove(other)
        rounds.append((card, other))
        said |= answer(card, other) if answer is not None else set()
    if waiting:
        shown = [c for pair in rounds for c in pair]
        rounds.append((waiting[0], partner(waiting[0], [first, *(c for c in shown if c != first)])))
    return rounds


def split_rounds(n_pairs: int, seed: int) -> list[tuple[int, int]]:
    """A split deck's rounds: pairs (a card of deck A, a card of deck B), as indices (0-based)
    of a deck whose cards ``0 .. n_pairs - 1`` are deck A and card ``i + n_pairs`` is card
    ``i``'s twin in deck B. Every card of each deck appears once, never beside its twin: deck
    A in a seeded order, each against the twin of the next card of that order.

    Args:
        n_pairs: Cards in each deck (>= 2).
        seed: The random order's seed.
    """
    order = _seeded_order(n_pairs, seed)
    return [(order[k], order[(k + 1) % n_pairs] + n_pairs) for k in range(n_pairs)]


def _seeded_order(n_cards: int, seed: int) -> list[int]:
    """The cards (0-based) in the rounds' seeded random order."""
    return [int(i) for i in np.random.default_rng([seed, 0x5C]).permutation(n_cards)]


def _points(plan: DeckPlan, card: int) -> dict[int, SymbolSpec]:
    """Card ``card``'s (0-based) drawings by the design point they show (a symbol with faces
    shows one of them; see ``printdeck.assign.FacedDeck``)."""
    faces = plan.faced.drawing_faces if plan.faced is not None and plan.faced.has_faces else None
    return {(faces[d.id][0] if faces else d.id): d for d in plan.cards[card]}


def _round(plan: DeckPlan, number: int, a: int, b: int) -> SlideRound:
    """Round ``number`` of cards ``a`` and ``b`` (0-based): the drawings of the symbols they
    share, a symbol's together (both its faces where the cards show two), each named by its
    symbol (``4 × 8 = 32`` for the ``32`` face too: ``plan.symbols[p]`` is point p's)."""
    from printdeck.render import SlideRound  # noqa: PLC0415 - ReportLab only for slides

    on_a, on_b = _points(plan, a), _points(plan, b)
    shared = sorted(p for p in on_a if p in on_b)
    drawings = [(d, plan.symbols[p].name) for p in shared for d in sorted({on_a[p].id, on_b[p].id})]
    return SlideRound(number, (a, b), tuple(d for d, _ in drawings), tuple(name for _, name in drawings))


def _screen_cards(plan: DeckPlan) -> int:
    """Cards a round is drawn from: the deck's (a split deck's deck A: B only repeats its
    symbols, in other faces)."""
    split = plan.faced is not None and is_split(plan.faced)
    return len(plan.cards) // 2 if split else len(plan.cards)


def _screen_rounds(plan: DeckPlan, seed: int) -> list[tuple[int, int]]:
    """The slides' rounds as pairs of the deck's card indices (0-based): :func:`slide_rounds`,
    or a split deck's :func:`split_rounds` (deck A against deck B, as its printed rules
    say: the two cards share one symbol shown two ways, a picture and its word, say)."""
    n = _screen_cards(plan)
    if n != len(plan.cards):
        return split_rounds(n, seed)
    blocks = [frozenset(int(p) for p in block) for block in plan.design.blocks]
    return slide_rounds(n, seed, lambda a, b: blocks[a] & blocks[b])


def shared_symbols(theme: Theme, first: int, second: int, seed: int | None = None) -> list[SymbolSpec]:
    """The symbols cards ``first`` and ``second`` (counted from 1, as printed) share (a symbol
    with faces as the symbol, all its faces listed), in the deck ``seed`` prints (default:
    the theme's seed; ``build --seed`` prints another deck).

    Raises:
        PrintdeckError: A card number is not in the deck, or the two are the same card.
    """
    plan = plan_deck(seeded_theme(theme, seed), prove=False)
    check_card_pair(first, second, len(plan.cards))
    a, b = _points(plan, first - 1), _points(plan, second - 1)
    concepts = plan.concepts or plan.symbols
    return [concepts[p] for p in a if p in b]


@dataclasses.dataclass(frozen=True)
class SlidesResult:
    """What :func:`write_slides` wrote: the PDF, its pages and its rounds (pairs of card
    numbers from 1, with the shared symbols' names)."""

    pdf_path: Path
    pages: int
    rounds: tuple[tuple[int, int, tuple[str, ...]], ...]


def write_slides(
    theme_ref: str | Path | Theme | None,
    out_path: Path,
    *,
    seed: int | None = None,
    reveal: str = "ring",
    game: str = "screen",
    answer_key: bool | None = False,
    allow_outside: bool = False,
    progress: Callable[[int], None] | None = None,
) -> SlidesResult:
    """Write the classroom slides of a theme's deck (the cards exactly as ``build`` lays them out).

    Args:
        theme_ref: Theme name, file or folder (``None``: the default theme), or a loaded theme.
        out_path: The ``.pdf`` to write.
        seed: Overrides the theme's seed, as ``build``'s does: the slides show the deck that
            seed prints, in rounds ordered by it (default: the theme's seed).
        reveal: ``ring``, ``corner`` or ``both`` (``printdeck.choices.SlideReveal``).
        game: The game whose rules the title slide shows (``printdeck.choices.SlideGame``).
        answer_key: Add the answer key (each round's match, by name and picture) at the end.
        allow_outside: Let the theme read files outside its folder.
        progress: Advanced once a round drawn.

    Every option is checked by :class:`printdeck.theme.SlidesSettings` (the one owner of
    its choices, range and help; the command line is made from it). The screen shows one
    copy of the deck, whatever `deck.copies` asks for the printed sets.

    Raises:
        PrintdeckError: A bad theme or output name, an output on an input, or an option
            out of range (naming the argument).
    """
    from printdeck.render import PrintJob, SlideText, render_slides  # noqa: PLC0415

    settings = parse_settings(SlidesSettings, {"seed": seed, "reveal": reveal, "game": game, "answer_key": answer_key})
    out = Path(out_path)
    if out.suffix.lower() != ".pdf":
        raise path_error("out_path", out, "the slides must be a .pdf file name")
    if not out.parent.is_dir():
        raise path_error(
            "out_path", out, f"folder {shown(out.parent)} does not exist", "create it or choose another path"
        )
    check_replaceable(out, "out_path")
    check_pdf_path(out, "out_path")  # a user's own PDF of that name is not replaced
    check_not_a_deck(out, "the slides", "out_path")  # nor a deck, its manifest beside it
    theme = load_theme(theme_ref, allow_outside=allow_outside)
    single = theme.spec.deck.model_copy(update={"copies": 1})  # the screen shows one deck
    theme = seeded_theme(dataclasses.replace(theme, spec=theme.spec.model_copy(update={"deck": single})), settings.seed)
    check_not_inputs([("out_path", out)], theme_inputs(theme))
    check_not_in_picture_folder("out_path", out, theme)  # the next build would stop at it
    deck_design(theme)
    plan = plan_deck(theme, prove=False)
    prove_symbols(theme, plan.symbols)
    if _screen_cards(plan) < 2:
        with theme_errors_located(theme):  # as the build says a theme's problem
            problem = "a round shows two cards, and the deck has one"
            raise PrintdeckError(key="deck.cards", problem=problem, fix="give the deck more cards")
    layouts = lay_out_plan(plan)
    pairs = _screen_rounds(plan, theme.spec.seed)
    rounds = [_round(plan, n, a, b) for n, (a, b) in enumerate(pairs, start=1)]
    text = SlideText.of(theme.spec.title, str(settings.game), theme.spec.text.lang, plan.design.lam)
    job = PrintJob.from_theme(theme)
    pages = render_slides(
        job,
        plan.symbols,
        layouts,
        rounds,
        text,
        out,
        reveal=str(settings.reveal),
        answer_key=bool(settings.answer_key),
        progress=progress,
    )
    listed = tuple((a + 1, b + 1, tuple(dict.fromkeys(r.names))) for r, (a, b) in zip(rounds, pairs))
    return SlidesResult(out, pages, listed)
