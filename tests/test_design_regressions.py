"""Regressions from the design review: bad deck files, argument ranges, stats limits,
search determinism."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from printdeck.cli import main
from printdeck.design.deckio import read_deck
from printdeck.errors import PrintdeckError


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def write(tmp_path, text: str, name: str = "deck.json"):
    f = tmp_path / name
    f.write_text(text)
    return f


@pytest.mark.parametrize("big", [10**12, 10**25])
def test_verify_large_symbol_numbers(tmp_path, big: int) -> None:
    f = write(tmp_path, json.dumps({"cards": [[big, 2], [2, 3], [3, big]]}))
    r = run("verify", str(f), "--format", "json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert data["ok"] and data["symbols"] == 3 and data["symbol_labels"] == [2, 3, big]
    bad = write(tmp_path, json.dumps({"cards": [[big, 2], [2, 3], [4, 5]]}))
    r = run("verify", str(bad))
    assert r.exit_code == 1 and "cards 1 and 3 share 0 symbols" in r.output


def test_read_deck_renumbers_and_keeps_labels(tmp_path) -> None:
    deck = read_deck(write(tmp_path, "7,100\n100,9\n9,7\n", "d.csv"))
    assert deck.cards == [[0, 2], [2, 1], [1, 0]] and deck.labels == [7, 9, 100] and deck.lam == 1
    plain = read_deck(write(tmp_path, "0,1\n1,2\n", "p.csv"))
    assert plain.cards == [[0, 1], [1, 2]] and plain.labels == [0, 1, 2]


@pytest.mark.parametrize(
    "card, word",
    [
        ("[1, -3]", "negative"),
        ("[1, true]", "whole number"),
        ("[1, 2.5]", "whole number"),
        ("[1, 1e25]", "whole number"),
        ('[1, {"id": true}]', "whole number"),
        ('[1, {"id": -1}]', "negative"),
    ],
)
def test_verify_rejects_bad_symbols_naming_the_card(tmp_path, card: str, word: str) -> None:
    f = write(tmp_path, '{"cards": [[0, 1], ' + card + "]}")
    with pytest.raises(PrintdeckError, match=f"card 2: .*{word}"):  # counted from 1, as verify counts
        read_deck(f)
    r = run("verify", str(f))
    assert r.exit_code == 2 and "card 2" in r.output


def test_csv_first_row_of_bad_numbers_is_not_a_header(tmp_path) -> None:
    with pytest.raises(PrintdeckError, match="line 1"):
        read_deck(write(tmp_path, "1e25,2\n2,3\n", "d.csv"))
    with pytest.raises(PrintdeckError, match="negative"):
        read_deck(write(tmp_path, "a,b\n1,-2\n", "d.csv"))
    assert read_deck(write(tmp_path, "a,b\n1,2\n", "d.csv")).cards == [[0, 1]]


@pytest.mark.parametrize("lam", ["5", "0", "true", '"1"'])
def test_verify_rejects_unsupported_lambda(tmp_path, lam: str) -> None:
    f = write(tmp_path, '{"lambda": ' + lam + ', "cards": [[0, 1], [1, 2], [2, 0]]}')
    r = run("verify", str(f))
    assert r.exit_code == 2 and '"lambda"' in r.output and "--match" in r.output
    r = run("verify", str(f), "--match", "1")  # an explicit --match wins
    assert r.exit_code == 0 and "share exactly 1" in r.output
    nested = write(tmp_path, '{"design": {"lambda": ' + lam + '}, "cards": [[0, 1]]}', "m.json")
    assert run("verify", str(nested)).exit_code == 2


def test_argument_ranges() -> None:
    r = run("stats", "--seed", "-1", "--trials", "2")
    assert r.exit_code == 2 and "Traceback" not in r.output and "--seed" in r.output
    assert run("stats", "--seed", str(2**32), "--trials", "2").exit_code == 2
    assert run("stats", "--seed", str(2**32 - 1), "--trials", "2").exit_code == 0
    r = run("design", "-k", "7", "--search", "--time-limit", "-1")
    assert r.exit_code == 2 and "--time-limit" in r.output


def test_stats_large_requests_fail_cleanly_and_fast() -> None:
    from printdeck.design.stats import deck_stats

    r = run("stats", "--symbols", "2000", "--cards", "500", "--trials", "20", "--format", "json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert abs(data["random"]["simulated"][0] - data["random"]["exact"][0]) < 0.01
    for args, word in [
        (["--symbols", "1000000", "--cards", "5"], "--symbols"),
        (["--symbols", "100000", "--cards", "5"], "bags deck"),
        (["--cards", "100000"], "--cards"),
        (["--trials", "0"], "--trials"),
        (["--symbols", "2000", "--cards", "2000", "--trials", "10000"], "--trials"),
        (["--per-card", "0"], "--per-card"),
    ]:
        r = run("stats", *args)
        assert r.exit_code == 2 and word in r.output and "Traceback" not in r.output, (args, r.output)
    with pytest.raises(PrintdeckError, match="too large"):
        deck_stats(200, 100, 2000, trials=1)


def test_sparse_and_dense_shared_counts_agree() -> None:
    import numpy as np

    from printdeck.design.stats import _sparse_gram, random_cards, shared_histogram

    rng = np.random.default_rng(3)
    deck = random_cards(rng, 40, 30, 6)
    assert all(len(set(row)) == 6 for row in deck.tolist())
    sets = [set(r) for r in deck.tolist()]
    brute = np.bincount([len(sets[i] & sets[j]) for i in range(40) for j in range(i + 1, 40)], minlength=7)
    assert shared_histogram(deck, 30).tolist() == brute.tolist()
    assert np.array_equal(_sparse_gram(deck, 30), np.array([[len(a & b) for b in sets] for a in sets]))


def test_stats_designed_deck_only_when_it_exists() -> None:
    r = run("stats", "--cards", "500", "--trials", "3")
    assert r.exit_code == 0 and "designed 1.0000" not in r.output
    assert "no designed deck: the plane of order 7 has only 57 cards, not 500" in r.output
    data = json.loads(run("stats", "--cards", "500", "--trials", "3", "--format", "json").output)
    assert data["designed"] is None and "57 cards" in data["designed_note"]
    data = json.loads(run("stats", "--per-card", "7", "--symbols", "60", "--trials", "3", "--format", "json").output)
    assert data["designed"] is None and "order 6" in data["designed_note"]
    data = json.loads(run("stats", "--cards", "57", "--trials", "3", "--format", "json").output)
    assert data["designed"][1] == 1.0 and data["designed_note"] is None


def test_stats_dict_is_typed() -> None:
    import typing

    from printdeck.design.stats import StatsDict, StatsResult, deck_stats

    assert typing.get_type_hints(StatsResult.as_dict)["return"] is StatsDict
    d = deck_stats(31, 6, 31, trials=2).as_dict()
    assert set(d) == set(StatsDict.__annotations__)


def test_search_is_deterministic_and_step_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two runs give the same deck; the greedy stage stops on steps, not on the clock."""
    from printdeck.design import make_design, search

    a = make_design(symbols_per_card=7, search=True, time_limit_s=1.0)
    b = make_design(symbols_per_card=7, search=True, time_limit_s=1.0)
    assert a.blocks == b.blocks and a.construction == b.construction
    assert "time limit" not in a.construction
    plane = [tuple(x) for x in make_design(order=3).blocks]
    budget = search.Budget(3, deadline=float("inf"))
    assert len(search.extend_greedy(plane[:-1], 4, budget)) == 12 and budget.steps == 0
    assert not budget.capped  # stopped by the step budget: the same on any machine
    late = search.Budget(search.GREEDY_STEPS, deadline=0.0)  # cap already passed
    monkeypatch.setattr(search, "_cp_sat_extend", lambda core, k, work, cap, slots: (list(core), False))
    big = search.search_deck(11, 1.0)
    assert "time limit" not in big[1]
    assert len(search.extend_greedy(search.net_deck(10), 11, late)) == 31 and late.capped


def test_search_reports_a_hit_wall_clock_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    from printdeck.design import search

    monkeypatch.setattr(search, "_cp_sat_extend", lambda core, k, work, cap, slots: (list(core), True))
    _, how = search.search_deck(7, 0.5)
    assert "stopped by the 0.5 s time limit" in how


def test_theme_deck_sizes_come_from_the_design_package() -> None:
    import subprocess
    import sys

    from printdeck import design
    from printdeck.theme import deck_section

    assert deck_section.deck_points is design.deck_points
    assert not hasattr(deck_section, "is_prime_power") and not hasattr(deck_section, "BIPLANE_SIZES")
    code = "import printdeck.theme.deck_section, sys; print('printdeck.theme.deck_section' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert out.returncode == 0 and out.stdout.strip() == "True"  # no import cycle


def test_a_csv_a_spreadsheet_saved_with_semicolons_or_tabs_is_read(tmp_path) -> None:
    """A teacher fixed a card of the design's CSV in a spreadsheet set to a European locale,
    which saves ``0;1;3``: ``verify`` skipped every row as a header and said "no cards
    found". Semicolons and tabs separate a row's symbols as commas do."""
    headers = (
        "symbol 1{s}symbol 2{s}symbol 3",
        "symbols",
        '"Symbol, 1"{s}"Symbol, 2"{s}"Symbol, 3"',
        "Karte (Nr., Symbole)",
    )
    for sep in (";", "\t"):
        for header in headers:  # the separator is read from a card's row, whatever the header holds
            text = f"# every two share 1\n{header.format(s=sep)}\n" + "".join(
                sep.join(map(str, card)) + "\n" for card in [(0, 1, 3), (1, 2, 4), (2, 3, 5)]
            )
            deck = read_deck(write(tmp_path, text, "deck.csv"))
            assert deck.cards == [[0, 1, 3], [1, 2, 4], [2, 3, 5]] and deck.lam == 1, (sep, header)
    with pytest.raises(PrintdeckError, match=r"line 2 .*'1;x' is not a list of whole symbol numbers"):
        read_deck(write(tmp_path, "0;1\n1;x\n", "deck.csv"))
