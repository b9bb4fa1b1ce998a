"""Two decks laid out at once in two threads of one process (a script or a server
calling the library from threads), each packed in its own process's thread (one job):
each gets the layouts it gets alone. The packing state is the call's own: the worker
processes' shared state is never used by a layout made in this process."""

from __future__ import annotations

import dataclasses
import functools
import os
import threading
from typing import Any

import pytest
from test_layout_support import deck_cards
from test_threads_support import at_once, child_takes

import printdeck
from printdeck.layout import LayoutSettings, card as card_module, layout_deck
from printdeck.layout.packing import lp_solve
from printdeck.model import CardLayout
from printdeck.theme import load_theme


@pytest.fixture(autouse=True)
def _fresh_layouts(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every card packed (none read from a layout cache)."""
    monkeypatch.setenv("PRINTDECK_NO_LAYOUT_CACHE", "1")
    monkeypatch.setenv("PRINTDECK_CACHE_DIR", str(tmp_path / "cache"))


def _deck(name: str, n_cards: int) -> tuple[list, LayoutSettings]:
    theme = load_theme(name)
    settings = dataclasses.replace(LayoutSettings.from_theme(theme), rounds=2)
    q = {3: 2, 4: 3, 5: 4, 6: 5, 8: 7}[theme.spec.deck.symbols_per_card]
    return deck_cards(theme.symbols, q)[:n_cards], settings


def _laid_out(cards: list, settings: LayoutSettings) -> list[list[tuple[object, ...]]]:
    """The deck's layouts (seed 3, packed in this thread) as plain poses."""
    return _poses(layout_deck(cards, settings, seed=3, jobs=1))


def _poses(layouts: list[CardLayout]) -> list[list[tuple[object, ...]]]:
    return [[(p.symbol_id, p.center_mm, p.rotation_deg, p.box_mm) for p in layout.placements] for layout in layouts]


def test_two_threads_lay_out_two_decks_each_as_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    decks = {"default": _deck("default", 12), "words": _deck("words", 12)}
    lay_out = {name: functools.partial(_laid_out, cards, settings) for name, (cards, settings) in decks.items()}
    alone = {name: call() for name, call in lay_out.items()}

    both_started = threading.Barrier(2, timeout=60)
    real = card_module.lay_out_cards
    first_batch: set[int] = set()

    def after_both_started(*args: Any, **kwargs: Any) -> Any:
        """Each thread's first batch waits for the other's: both layouts are under way
        before either goes on, whatever the scheduler does."""
        me = threading.get_ident()
        if me not in first_batch:
            first_batch.add(me)
            both_started.wait()
        return real(*args, **kwargs)

    monkeypatch.setattr(card_module, "lay_out_cards", after_both_started)
    together = at_once(lay_out)
    for name in decks:
        assert together[name] == alone[name], f"{name}: laid out beside another deck, not as alone"
    assert len(first_batch) == 2  # both threads packed cards


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork on this platform")
def test_a_worker_forked_while_a_thread_makes_a_solver_can_make_its_own() -> None:
    """A layout forks its workers whatever other threads do (the studio's): a worker must
    not inherit the lock another thread held to make its HiGHS instance."""
    assert child_takes(lambda: lp_solve._MAKING) == 0


def test_two_builds_on_two_threads_write_the_bytes_each_writes_alone(tmp_path) -> None:
    """A deck of 57 cards (its layout forks workers while the other thread builds) and a
    deck of 7 (laid out in the thread itself), built at once: the same PDFs as alone."""
    small = {
        "deck": {"symbols_per_card": 3},
        "symbols": [{"text": w} for w in ("uno", "dos", "tres", "cuatro", "cinco", "seis", "siete")],
    }
    decks = {"words": "words", "small": small}
    for name, theme in decks.items():
        printdeck.build(theme, out=tmp_path / f"alone-{name}.pdf", seed=11)
    together = at_once(
        {
            name: functools.partial(printdeck.build, theme, out=tmp_path / f"together-{name}.pdf", seed=11)
            for name, theme in decks.items()
        }
    )
    assert not [value for value in together.values() if isinstance(value, BaseException)]
    for name in decks:
        alone = (tmp_path / f"alone-{name}.pdf").read_bytes()
        assert (tmp_path / f"together-{name}.pdf").read_bytes() == alone, f"{name}: built beside another deck"
