"""The live preview: a sheet of cards drawn by the PDF renderer, after every change.

A sheet needs only its own cards and those before them (card i's layout depends only on
the cards before it), so page 1 is laid out first; cards whose content did not change
come from printdeck's layout cache, so an edit repacks only what it changed.
"""

from __future__ import annotations

import contextlib
import dataclasses
import threading
import warnings
from dataclasses import dataclass, field
from typing import Any
from warnings import WarningMessage

import printdeck
from printdeck.errors import PrintdeckError
from printdeck.studio.background import working
from printdeck.studio.sheet_cache import SheetCache
from printdeck.studio.wording import Problem, problem_of, sheet_warnings
from printdeck.studio.workspace import LIBRARY_LOCK, Snapshot, Workspace

PREVIEW_PPI = 96.0


class Stale(Exception):
    """The deck changed since the preview was asked for; the page asks again."""


@dataclass
class _Deck:
    """The planned deck of one revision and the cards laid out so far (a prefix)."""

    rev: int
    plan: printdeck.DeckPlan
    layouts: list[printdeck.CardLayout] = field(default_factory=list)
    sheets: dict[int, bytes] = field(default_factory=dict)
    backs: dict[int, bytes] = field(default_factory=dict)
    warnings: dict[int, list[str]] = field(default_factory=dict)
    layout_warnings: list[WarningMessage] = field(default_factory=list)
    plan_warnings: list[WarningMessage] = field(default_factory=list)
    """What planning the deck warned (word colours too pale to read), said on every sheet."""


@dataclass
class LivePreview:
    """Sheets of the deck's latest revision (one computed at a time)."""

    space: Workspace
    ppi: float = PREVIEW_PPI
    last_page: int = 1
    last_side: str = "front"
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _deck: _Deck | None = None
    _drawn: SheetCache = field(init=False)

    def __post_init__(self) -> None:
        self._drawn = SheetCache(self.ppi)

    def prefetch(self) -> threading.Thread:
        """Start drawing the sheet last looked at, for the latest revision, on a thread
        (the page asks for it as soon as its change is saved, and gets it sooner); the
        thread, to wait for it."""
        rev, page, side = self.space.rev, self.last_page, self.last_side

        def draw() -> None:  # ahead of the page's asking: a file removed meanwhile (OSError) waits for the ask
            with working(), contextlib.suppress(Stale, PrintdeckError, ValueError, OSError):
                try:
                    self.sheet(rev, page, side)
                except RuntimeError as exc:  # the studio stopping: no thread pool takes work any more
                    if "interpreter shutdown" not in str(exc):
                        raise

        thread = threading.Thread(target=draw, name="printdeck-studio-prefetch", daemon=True)
        thread.start()
        return thread

    def sheet(self, rev: int, page: int, side: str = "front") -> tuple[bytes, dict[str, Any]]:
        """Sheet ``page`` (1-based) of revision ``rev`` as PNG bytes, and what is on it:
        its front, or its back (``side="back"``, as the duplex PDF prints it; no card
        buttons are laid over a back).

        Raises:
            Stale: ``rev`` is not the latest revision.
            PrintdeckError: the deck cannot be planned or laid out (the command line's line).
            ValueError: no such page, or a back of a deck without backs.
        """
        if rev != self.space.rev:  # said at once, not after the sheet being drawn meanwhile
            raise Stale(rev)
        back = side == "back"
        with self._lock:
            deck = self._deck_at(rev)
            if not 1 <= page <= deck.plan.pages:
                raise ValueError(f"page {page}: the deck has {deck.plan.pages} pages")
            if back and not deck.plan.theme.spec.backs.enabled:
                raise ValueError("the deck has no backs: turn on backs to see them")
            self.last_page, self.last_side = page, side
            drawn = deck.backs if back else deck.sheets
            if page not in drawn:
                with LIBRARY_LOCK, warnings.catch_warnings(record=True) as caught:
                    warnings.simplefilter("always")
                    self._lay_out_through(deck, page)
                    drawn[page] = (
                        printdeck.preview_page(deck.plan, deck.layouts, page, ppi=self.ppi, side="back")
                        if back
                        else self._drawn.sheet(deck.plan, deck.layouts, page)
                    )
                said = deck.warnings.get(page, [])  # the other side's, and the layout's, whoever laid it out
                found = sheet_warnings([*deck.plan_warnings, *deck.layout_warnings, *caught])
                deck.warnings[page] = list(dict.fromkeys([*said, *found]))
            facts = sheet_facts(deck.plan, page)
            if back:
                facts["slots"] = []  # the cards are chosen on the front
            return drawn[page], {**facts, "side": side, "warnings": deck.warnings[page]}

    def through_card(self, rev: int, card: int) -> tuple[printdeck.DeckPlan, list[printdeck.CardLayout]]:
        """The plan of revision ``rev`` and its layouts through printed card ``card`` (1-based).

        Raises:
            Stale: ``rev`` is not the latest revision.
            PrintdeckError: the deck cannot be planned or laid out.
            ValueError: no such card.
        """
        if rev != self.space.rev:  # said at once, not after the sheet being drawn meanwhile
            raise Stale(rev)
        with self._lock:
            deck = self._deck_at(rev)
            slot = next((s for s in deck.plan.imposition.slots if s.card_index == card - 1), None)
            if slot is None:
                raise ValueError(f"card {card}: the deck has {len(deck.plan.imposition.slots)} cards")
            with LIBRARY_LOCK, warnings.catch_warnings():
                warnings.simplefilter("ignore")  # the sheet's drawing reports them
                self._lay_out_through(deck, slot.page)
            return deck.plan, list(deck.layouts)

    def _deck_at(self, rev: int) -> _Deck:
        """The planned deck of revision ``rev`` (the caller holds ``_lock``).

        Raises:
            Stale: ``rev`` is no longer the latest revision.
            PrintdeckError: the deck cannot be planned.
        """
        snap = self.space.snapshot()
        if snap.rev != rev:
            raise Stale(rev)
        return self._planned(snap)

    def _planned(self, snap: Snapshot) -> _Deck:
        if self._deck is None or self._deck.rev != snap.rev:
            if snap.theme is None:
                raise snap.problem.error() if snap.problem else PrintdeckError("the theme does not load")
            with LIBRARY_LOCK, warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                plan = printdeck.plan(snap.theme, prove=False)
                printdeck.check_words_show(snap.theme, plan.symbols)  # a pale word colour, as the build says it
            self._deck = _Deck(snap.rev, plan, plan_warnings=list(caught))
        return self._deck

    def _lay_out_through(self, deck: _Deck, page: int) -> None:
        """Lay out the cards up to the last one on ``page`` (earlier ones are kept)."""
        needed = {s.card_index for s in deck.plan.imposition.slots if s.page == page}
        if needed <= {layout.index for layout in deck.layouts}:
            return
        last = max(i % len(deck.plan.cards) for i in needed)  # a class set's cards: every deck's first few
        prefix = dataclasses.replace(deck.plan, cards=deck.plan.cards[: last + 1])
        with warnings.catch_warnings(record=True) as caught:  # kept: the card view lays out too, saying nothing
            warnings.simplefilter("always")
            deck.layouts = printdeck.lay_out(prefix)
        deck.layout_warnings = list(caught)

    def problem(self, exc: PrintdeckError) -> Problem:
        """A planning or layout error as the page shows it."""
        problem = problem_of(exc, self.space.folder, self.space.snapshot().doc)
        self.space.note_problem(problem)
        return problem


def sheet_facts(plan: printdeck.DeckPlan, page: int) -> dict[str, Any]:
    """What the page draws over a sheet: where each card is (fractions of the sheet, from
    its top-left corner), the card's outline with its bleed (``outline``: fractions of its
    box, from the top left: the ring round a chosen card is its shape, not a circle), the
    names of each card's symbols (what a screen reader says of its button), the deck's size
    and the symbols left out."""
    imp = plan.imposition
    width_mm, height_mm = imp.page_size_mm
    grown = imp.sheet_shape().offset(imp.bleed_mm)
    slots = [
        {
            "card": s.card_index + 1,
            "x": s.center_mm[0] / width_mm,
            "y": 1 - s.center_mm[1] / height_mm,
            "rx": grown.width_mm / 2 / width_mm,
            "ry": grown.height_mm / 2 / height_mm,
            "names": [d.name for d in plan.cards[s.card_index % len(plan.cards)]],  # a class set: its deck's card
        }
        for s in imp.slots
        if s.page == page
    ]
    corners = grown.vertices(circle_sides=64)  # the card's own shape, for the ring round a chosen card
    outline = [[round(x / grown.width_mm + 0.5, 4), round(0.5 - y / grown.height_mm, 4)] for x, y in corners.tolist()]
    return {
        "page": page,
        "pages": plan.pages,
        "slots": slots,
        "outline": outline,
        "cards": len(plan.cards),
        "cards_text": plan.cards_text,
        "symbols_per_card": len(plan.cards[0]) if plan.cards else 0,
        "unused": list(plan.unused),
        "aspect": height_mm / width_mm,
        "backs": plan.theme.spec.backs.enabled,
    }
