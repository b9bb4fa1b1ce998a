"""Cards packed together (printdeck.layout.packing.pack_cards, whole_batch): each card's
packing is the one it gets alone, to the bit, whatever else is in its batch."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
import shapely
import yaml
from test_layout_support import AWKWARD, REPO, deck_cards

from printdeck.artwork import silhouette
from printdeck.layout import LayoutSettings
from printdeck.layout.card import pack_input
from printdeck.layout.packing import PackFailure, PackInput, PackResult, pack_card, pack_cards
from printdeck.layout.size_plan import ladder
from printdeck.theme import load_theme, load_theme_data


def _problems(theme_path: str, card: dict[str, object] | None = None, cards: int = 6) -> list[PackInput]:
    """The first ``cards`` cards of the order-7 plane over the theme's symbols, as the layout
    poses them (``card``: the theme's card section replaced)."""
    path = REPO / theme_path
    if card is None:
        theme = load_theme(str(path))
    else:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
        theme = load_theme_data({**raw, "card": card}, path.parent)
    settings = LayoutSettings.from_theme(theme)
    out = []
    for k, symbols in enumerate(deck_cards(theme.symbols, 7)[:cards]):
        sils = [silhouette(s) for s in symbols]
        out.append(pack_input(k, symbols, sils, ladder(len(symbols), settings), settings))
    return out


def _same(a: PackResult | PackFailure, b: PackResult | PackFailure) -> bool:
    if isinstance(a, PackFailure) or isinstance(b, PackFailure):
        return type(a) is type(b) and str(a) == str(b)
    return (
        np.array_equal(a.centers_mm, b.centers_mm)
        and np.array_equal(a.angles_deg, b.angles_deg)
        and np.array_equal(a.heights_mm, b.heights_mm)
        and [shapely.to_wkb(o) for o in a.outlines] == [shapely.to_wkb(o) for o in b.outlines]
    )


def _alone(problems: list[PackInput]) -> list[PackResult | PackFailure]:
    out: list[PackResult | PackFailure] = []
    for k, problem in enumerate(problems):
        try:
            out.append(pack_card(problem, np.random.default_rng([7, k])))
        except PackFailure as exc:
            out.append(exc)
    return out


def _together(problems: list[PackInput]) -> list[PackResult | PackFailure]:
    return pack_cards(problems, [np.random.default_rng([7, k]) for k in range(len(problems))])


@pytest.mark.parametrize(
    "card",
    [
        None,  # the default round card
        {"shape": "hexagon", "size": "80mm", "bleed": "3mm", "safe_margin": "3mm"},
        {"size": "poker", "bleed": "3mm", "safe_margin": "3mm"},
    ],
    ids=["circle", "hexagon", "poker"],
)
def test_cards_packed_together_are_packed_as_alone(card) -> None:
    problems = _problems("themes/default.yaml", card)
    alone, together = _alone(problems), _together(problems)
    assert all(isinstance(r, PackResult) for r in alone)
    assert all(_same(a, b) for a, b in zip(alone, together))


def test_awkward_shapes_and_a_free_centre_packed_together_as_alone() -> None:
    """Rings, bars and multi-part symbols, a free centre (compass mark) and a class set's rim cut."""
    problems = [
        dataclasses.replace(p, centre_free_mm=2.0, rim_cut=(270.0, 30.0)) for p in _problems(str(AWKWARD), cards=5)
    ]
    assert all(_same(a, b) for a, b in zip(_alone(problems), _together(problems)))


def test_cards_of_other_zones_and_a_failing_card_in_one_batch() -> None:
    """Cards of two zones go one zone at a time; a card that cannot be packed fails alone,
    with the error it has alone, and takes nothing from the others."""
    round_cards = _problems("themes/default.yaml", cards=3)
    hexagons = _problems(
        "themes/default.yaml", {"shape": "hexagon", "size": "80mm", "bleed": "3mm", "safe_margin": "3mm"}, cards=2
    )
    hopeless = dataclasses.replace(round_cards[0], radius_mm=2.0)  # eight symbols in a 4 mm disc
    problems = [round_cards[0], hexagons[0], hopeless, round_cards[1], hexagons[1], round_cards[2]]
    alone, together = _alone(problems), _together(problems)
    assert isinstance(together[2], PackFailure)
    assert all(_same(a, b) for a, b in zip(alone, together))


@pytest.mark.parametrize("jobs", [1, 2])
def test_the_lowest_failing_card_is_named_whatever_its_batch(monkeypatch, jobs) -> None:
    """Cards 7 and 9 of ten fail (in different batches with two workers, in one batch
    alone): the error names card 7, as packing card by card would."""
    from printdeck.errors import PrintdeckError
    from printdeck.layout import card as card_module
    from printdeck.layout.deck import layout_deck

    theme = load_theme(str(REPO / "themes" / "default.yaml"))
    real = card_module.pack_many_with_retries

    def failing(jobs_, seed):
        out = real(jobs_, seed)
        return [PrintdeckError(f"card {j.index + 1}: refused") if j.index in (6, 8) else r for j, r in zip(jobs_, out)]

    monkeypatch.setattr(card_module, "pack_many_with_retries", failing)
    with pytest.raises(PrintdeckError, match=r"^card 7: refused"):
        layout_deck(deck_cards(theme.symbols, 7)[:10], LayoutSettings.from_theme(theme), seed=3, jobs=jobs)
