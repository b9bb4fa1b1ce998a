"""Re-rolling one card (``layout.reroll``): that card gets a new layout, the others keep theirs.

A card's size plan depends on the measured sizes of the cards at least
``FEEDBACK_LAG + 1`` before it (see :mod:`printdeck.layout.size_plan`), so re-rolling
card ``j`` leaves every card before ``j + FEEDBACK_LAG + 1`` (other than ``j``) exactly as
it was; later cards may change.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
import yaml
from test_layout_support import deck_cards

import printdeck
from printdeck.layout import LayoutSettings, layout_deck
from printdeck.layout.card import card_seed
from printdeck.layout.size_plan import FEEDBACK_LAG
from printdeck.theme import load_theme

GOLDEN = Path(__file__).parent / "golden"


@pytest.fixture(autouse=True)
def _no_layout_cache(monkeypatch):
    """Every test here packs for real (the keys of re-rolled cards are checked apart)."""
    monkeypatch.setenv("PRINTDECK_NO_LAYOUT_CACHE", "1")


@pytest.fixture(scope="module")
def theme():
    return load_theme(None)


def test_theme_key_is_one_based_and_drops_attempt_zero(theme) -> None:
    lay = theme.spec.layout.model_copy(update={"reroll": {3: 2, 5: 0}})
    settings = LayoutSettings.from_theme(dataclasses.replace(theme, spec=theme.spec.model_copy(update={"layout": lay})))
    assert settings.reroll == {2: 2}
    assert LayoutSettings.from_theme(theme).reroll == {}


def test_theme_key_is_checked(tmp_path: Path) -> None:
    data = yaml.safe_load((GOLDEN / "small.yaml").read_text(encoding="utf-8"))
    for bad in ({0: 1}, {3: -1}, {"three": 1}):
        data["layout"] = {"reroll": bad}
        with pytest.raises(printdeck.PrintdeckError, match="reroll"):
            printdeck.load_theme(data, base_dir=tmp_path)


def test_every_try_of_every_attempt_has_its_own_stream() -> None:
    streams = [tuple(card_seed(7, i, a)) + ((r,) if r else ()) for i in range(3) for a in range(4) for r in range(4)]
    assert len(set(streams)) == len(streams)
    assert card_seed(7, 2) == card_seed(7, 2, 0) == [7, 2]  # the first attempt is the stream cards always had


def test_reroll_changes_that_card_only(theme) -> None:
    cards = deck_cards(theme.symbols, 3)  # 13 cards of 4
    settings = dataclasses.replace(LayoutSettings.from_theme(theme), rounds=2, retries=0)
    before = layout_deck(cards, settings, seed=5, jobs=1)
    after = layout_deck(cards, dataclasses.replace(settings, reroll={2: 1}), seed=5, jobs=1)
    again = layout_deck(cards, dataclasses.replace(settings, reroll={2: 2}), seed=5, jobs=1)
    assert after[2].placements != before[2].placements
    assert again[2].placements not in (before[2].placements, after[2].placements)
    unplanned = [i for i in range(2 + FEEDBACK_LAG + 1) if i != 2]  # no size plan depends on card 2
    assert [after[i] for i in unplanned] == [before[i] for i in unplanned]
    assert [again[i] for i in unplanned] == [before[i] for i in unplanned]
    assert layout_deck(cards, dataclasses.replace(settings, reroll={2: 0}), seed=5, jobs=1) == before


def test_reroll_in_a_theme_shows_in_the_manifest(tmp_path: Path) -> None:
    data = yaml.safe_load((GOLDEN / "small.yaml").read_text(encoding="utf-8"))
    data["layout"] = {"reroll": {3: 1}}
    theme_file = tmp_path / "theme.yaml"
    theme_file.write_text(yaml.safe_dump(data), encoding="utf-8")
    printdeck.build(theme_file, out=tmp_path / "deck.pdf")
    made = json.loads((tmp_path / "deck.json").read_text(encoding="utf-8"))["cards"]
    golden = json.loads((GOLDEN / "small.json").read_text(encoding="utf-8"))["cards"]  # the same deck, no re-roll
    assert [c["index"] for c in made] == [c["index"] for c in golden]
    assert made[2]["symbols"] != golden[2]["symbols"]
    assert [c for i, c in enumerate(made) if i != 2] == [c for i, c in enumerate(golden) if i != 2]


def test_a_rerolled_card_is_cached_apart_and_the_others_stay_cached(theme, monkeypatch, tmp_path) -> None:
    monkeypatch.delenv("PRINTDECK_NO_LAYOUT_CACHE")
    monkeypatch.setenv("PRINTDECK_CACHE_DIR", str(tmp_path))
    cards = deck_cards(theme.symbols, 7)[:3]
    settings = dataclasses.replace(LayoutSettings.from_theme(theme), rounds=2, retries=0)
    first = layout_deck(cards, settings, seed=2)
    assert len(list((tmp_path / "layouts").glob("*.json"))) == 3
    rerolled = layout_deck(cards, dataclasses.replace(settings, reroll={1: 1}), seed=2)
    assert len(list((tmp_path / "layouts").glob("*.json"))) == 4  # only card 2 is packed again
    assert rerolled[0] == first[0] and rerolled[2] == first[2] and rerolled[1] != first[1]


def test_a_reroll_of_a_card_the_deck_lacks_is_said(tmp_path: Path) -> None:
    """``layout.reroll: {99: 1}`` on a 7-card deck was left out without a word, as a pin of a
    missing card is not; the build now warns, naming the key and the deck's cards."""
    data = yaml.safe_load((GOLDEN / "small.yaml").read_text(encoding="utf-8"))
    data["layout"] = {**data.get("layout", {}), "reroll": {99: 1}}
    theme_file = tmp_path / "theme.yaml"
    theme_file.write_text(yaml.safe_dump(data), encoding="utf-8")
    said = r"layout\.reroll\.99: card 99 is not in the deck, which has \d+ cards"
    with pytest.warns(UserWarning, match=said):
        printdeck.build(theme_file, out=tmp_path / "deck.pdf")
    with pytest.warns(UserWarning, match=said):  # check says what build says
        printdeck.check_theme(theme_file)
    with pytest.warns(UserWarning, match=said):  # and so does preview
        printdeck.write_preview(theme_file, tmp_path / "sheet.png", cards=1)
