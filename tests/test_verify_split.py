"""``printdeck verify`` on a split deck's manifest (``deck.faces: split``): deck A checked as
a deck, every card of deck B against its twin. A broken twin is a fault of the deck (exit
1, named card by card, counted from 1), not an unreadable file (exit 2).

The manifests are written here in the build's form (cards A first, then their twins in B;
``twin`` the other card's index from 0); a real build's manifest is verified in
``test_concepts_faces``.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import printdeck
from printdeck.cli import main as cli_main
from printdeck.design import make_design

FANO = [list(block) for block in make_design(order=2).blocks]  # 7 cards of 3, every two share 1


def _split_manifest() -> dict[str, Any]:
    n = len(FANO)
    cards = [
        {"index": i, "deck": deck, "twin": (i + n) % (2 * n), "symbols": [{"id": s, "face": face} for s in FANO[i % n]]}
        for face, deck in enumerate("AB")
        for i in range(face * n, (face + 1) * n)
    ]
    return {"faces": {"mode": "split"}, "cards": cards}


def _verify(tmp_path: Path, manifest: dict[str, Any], *args: str) -> Any:
    path = tmp_path / "deck.json"
    path.write_text(json.dumps(manifest), encoding="utf-8")
    return CliRunner().invoke(cli_main, ["verify", str(path), *args])


def test_a_whole_split_deck_passes_and_says_how_deck_b_was_checked(tmp_path: Path) -> None:
    result = _verify(tmp_path, _split_manifest())
    assert result.exit_code == 0, result.output
    assert "cards: 7 in deck A" in result.output
    assert "deck B: 7 cards, each showing the symbols of its twin in deck A" in result.output
    assert result.output.rstrip().endswith("and so does a card of A with any card of B but its twin")


def test_a_twin_showing_other_symbols_is_a_fault_of_the_deck(tmp_path: Path) -> None:
    manifest = _split_manifest()
    manifest["cards"][9]["symbols"][0]["id"] = 6 if manifest["cards"][9]["symbols"][0]["id"] != 6 else 5
    result = _verify(tmp_path, manifest)
    assert result.exit_code == 1, result.output
    assert "card 10 (deck B) does not show the symbols of its twin, card 3 of deck A" in result.output
    assert result.output.rstrip().endswith("FAILED")


def test_a_missing_or_repeated_deck_b_card_is_found(tmp_path: Path) -> None:
    missing = _split_manifest()
    del missing["cards"][12]  # card 13, the twin of card 6
    result = _verify(tmp_path, missing)
    assert result.exit_code == 1
    assert "card 6 (deck A) has no twin in deck B" in result.output

    repeated = _split_manifest()
    repeated["cards"].append(copy.deepcopy(repeated["cards"][8]) | {"index": 14})  # a second twin of card 2
    result = _verify(tmp_path, repeated)
    assert result.exit_code == 1
    assert "card 2 (deck A) is the twin of 2 cards of deck B: cards 9 and 15" in result.output


def test_twins_that_do_not_name_each_other_are_found(tmp_path: Path) -> None:
    manifest = _split_manifest()
    manifest["cards"][10]["twin"] = 2  # card 11 (deck B) names card 3, in deck A
    manifest["cards"][10]["symbols"] = copy.deepcopy(manifest["cards"][2]["symbols"])
    result = _verify(tmp_path, manifest)
    assert result.exit_code == 1
    assert "card 3 (deck A) is the twin of 2 cards of deck B: cards 10 and 11" in result.output
    assert "card 4 (deck A) has no twin in deck B" in result.output
    not_back = _split_manifest()
    not_back["cards"][0]["twin"] = 8  # card 1 names card 9, whose twin is card 2
    result = _verify(tmp_path, not_back)
    assert result.exit_code == 1
    assert "cards 1 and 8 are not each other's twins: card 8 (deck B) names card 1, but card 1 names another" in (
        result.output
    )
    b_names_b = _split_manifest()
    b_names_b["cards"][8]["twin"] = 9
    result = _verify(tmp_path, b_names_b)
    assert result.exit_code == 1
    assert "card 9 (deck B) names card 10 as its twin, a card of deck B, not A" in result.output
    nowhere = _split_manifest()
    nowhere["cards"][8]["twin"] = 99
    result = _verify(tmp_path, nowhere)
    assert result.exit_code == 1
    assert "card 9 (deck B) names as its twin a card the file does not have" in result.output


def test_a_file_that_is_no_split_manifest_cannot_be_read(tmp_path: Path) -> None:
    for key, value, problem in (
        ("deck", "C", 'card 5: "deck": "C" in a split deck; every card is in deck "A" or "B"'),
        ("twin", "x", 'card 5: "twin": "x" is not a card\'s index'),
        ("index", 2, 'card 5: "index": 2 is also that of card 3; every card of a split deck has its own index'),
    ):
        manifest = _split_manifest()
        manifest["cards"][4][key] = value
        result = _verify(tmp_path, manifest)
        assert result.exit_code == 2
        assert problem in result.output


def test_the_json_report_lists_the_faults(tmp_path: Path) -> None:
    manifest = _split_manifest()
    del manifest["cards"][7]
    result = _verify(tmp_path, manifest, "--format", "json")
    assert result.exit_code == 1
    report = json.loads(result.output)
    assert report["ok"] is False and report["faults"] == ["card 1 (deck A) has no twin in deck B"]


@pytest.mark.parametrize("broken", [False, True])
def test_the_api_report_agrees(tmp_path: Path, broken: bool) -> None:
    manifest = _split_manifest()
    if broken:
        manifest["cards"][13]["symbols"].pop()
    path = tmp_path / "deck.json"
    path.write_text(json.dumps(manifest), encoding="utf-8")
    deck, report = printdeck.verify_file(path)
    assert report.b_cards == 7 and len(deck.sizes) == 7
    assert report.ok is not broken
    fault = "card 14 (deck B) does not show the symbols of its twin, card 7 of deck A"
    assert report.faults == ((fault,) if broken else ())
