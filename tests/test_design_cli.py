"""design / verify / stats commands: output formats and exit codes."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from printdeck.cli import main


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def test_design_json_roundtrip_and_verify(tmp_path) -> None:
    r = run("design", "--order", "7", "--cards", "55", "--format", "json")
    assert r.exit_code == 0
    data = json.loads(r.output)
    assert (data["order"], data["lambda"], data["symbols"], len(data["cards"])) == (7, 1, 57, 55)
    f = tmp_path / "deck.json"
    f.write_text(r.output)
    v = run("verify", str(f))
    assert v.exit_code == 0 and "cards: 55" in v.output and "pairs sharing other than 1: 0" in v.output
    v = run("verify", str(f), "--match", "2")
    assert v.exit_code == 1


def test_design_csv_and_broken_deck(tmp_path) -> None:
    r = run("design", "-k", "4", "--format", "csv")
    rows = [line for line in r.output.strip().splitlines() if not line.startswith("#")]
    assert r.exit_code == 0 and len(rows) == 13 and rows[0] == "0,1,3,9"
    rows[1] = "0,1,2,3"
    f = tmp_path / "deck.csv"
    f.write_text("\n".join(rows) + "\n")
    v = run("verify", str(f))
    assert v.exit_code == 1 and "cards 1 and 2 share 3 symbols" in v.output


def test_a_deck_written_in_names_is_verified(tmp_path) -> None:
    """A teacher's pupil wrote a deck of 7 cards as gato,perro,pez lines: "no cards found".
    A file with no number is read as symbols named, one card a line; any case is one name."""
    fano = ["gato,perro,pez", "perro,sol,casa", "sol,pez,luna", "pez,casa,agua", "gato,casa,luna", "perro,luna,agua"]
    f = tmp_path / "pupil.csv"
    f.write_text("\n".join([*fano, "Gato, Sol, AGUA"]) + "\n", encoding="utf-8")
    v = run("verify", str(f))
    assert v.exit_code == 0 and "cards: 7" in v.output and "symbols: 7 on the cards" in v.output, v.output
    f.write_text("\n".join([*fano, "gato,sol,perro"]) + "\n", encoding="utf-8")
    v = run("verify", str(f))
    assert v.exit_code == 1 and "cards 1 and 7 share 2 symbols" in v.output, v.output


def test_a_json_deck_that_is_not_json_says_so(tmp_path) -> None:
    f = tmp_path / "bad.json"
    f.write_text("not json {", encoding="utf-8")
    v = run("verify", str(f))
    assert v.exit_code == 2 and "bad.json: invalid JSON at line 1" in v.output, v.output


def test_biplane_text_and_json_verify(tmp_path) -> None:
    r = run("design", "-k", "6", "--match", "2", "--format", "json")
    f = tmp_path / "bi.json"
    f.write_text(r.output)
    v = run("verify", str(f), "--format", "json")  # λ read from the file
    assert v.exit_code == 0 and json.loads(v.output)["ok"] is True
    t = run("design", "-k", "6", "--match", "2")
    assert t.exit_code == 0 and "every two share 2" in t.output


def test_the_design_commands_text_is_read_back_by_verify(tmp_path) -> None:
    """``printdeck design`` prints its text form by default; ``verify`` read it as "no cards
    found". It reads it now, λ from its header, and names a broken line."""
    text = run("design", "-k", "6", "--match", "2").output  # a biplane: every two share 2
    f = tmp_path / "bi.txt"
    f.write_text(text)
    v = run("verify", str(f))
    assert v.exit_code == 0 and "OK: every two cards share exactly 2" in v.output, v.output
    lines = run("design", "--order", "3").output.splitlines()
    assert lines[3] == " 1:  1  2  4 10"
    lines[3] = " 1:  0  1  2  4"  # card 2 now shares 2 symbols with card 1 ("0: 0 1 3 9")
    f.write_text("\n".join(lines) + "\n")
    v = run("verify", str(f))
    assert v.exit_code == 1 and "cards 1 and 2 share 2 symbols" in v.output, v.output
    lines[4] = " 2:  2  three  5 11"
    f.write_text("\n".join(lines) + "\n")
    v = run("verify", str(f))
    assert v.exit_code == 2
    assert "line 5 (card 3): '2: 2 three 5 11' is not a card's number and its symbols ('12: 0 5 9')" in v.output


def test_verify_manifest_shape(tmp_path) -> None:
    manifest = {
        "design": {"order": 2, "lambda": 1},
        "cards": [
            {"index": i, "symbols": [{"id": p} for p in blk]}
            for i, blk in enumerate([[0, 1, 3], [1, 2, 4], [2, 3, 5], [3, 4, 6]])
        ],
    }
    f = tmp_path / "m.json"
    f.write_text(json.dumps(manifest))
    assert run("verify", str(f)).exit_code == 0


def test_errors_exit_2(tmp_path) -> None:
    r = run("design", "-k", "7")
    assert r.exit_code == 2 and "error: --symbols-per-card 7: 7 symbols a card" in r.output  # as --help names it
    assert "Bruck–Ryser" in r.output
    assert "or add --search for the largest partial deck" in r.output and "deck." not in r.output
    assert run("verify", str(tmp_path / "missing.json")).exit_code == 2
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert run("verify", str(bad)).exit_code == 2
    bad.write_text('{"cards": [[0, "x"]]}')
    assert run("verify", str(bad)).exit_code == 2


def test_design_refusals_name_the_options() -> None:
    """Design refusals name this command's options, not a theme's keys."""
    cases = {
        ("--order", "3", "-k", "5"): "--order 3: order 3 means 4 symbols a card with match 1, "
        "but --symbols-per-card is 5",
        ("-k", "8", "--match", "2"): "--symbols-per-card 8: no biplane with 8 symbols a card exists",
        ("--order", "7", "--cards", "60"): "--cards 60: 60 is more than the 57 cards",
        ("--order", "1"): "--order 1: 1 is too small; use at least 2",
        (): "give --symbols-per-card (e.g. 8) or --order (e.g. 7)",
    }
    for args, message in cases.items():
        r = run("design", *args)
        assert r.exit_code == 2 and f"printdeck: error: {message}" in r.output and "deck." not in r.output


def test_search_flag() -> None:
    r = run("design", "-k", "7", "--search", "--time-limit", "0.1", "--format", "json")
    assert r.exit_code == 0
    data = json.loads(r.output.splitlines()[0])
    assert data["order"] is None and len(data["cards"]) >= 23


def test_stats(tmp_path) -> None:
    r = run("stats", "--trials", "10", "--format", "json")
    assert r.exit_code == 0
    data = json.loads(r.output)
    assert round(data["random"]["exact"][1], 4) == 0.4159
    png = tmp_path / "p.png"
    r = run("stats", "--trials", "5", "--plot", str(png))
    assert r.exit_code == 0 and png.exists() and "0.7271" in r.output
    assert run("stats", "--per-card", "90").exit_code == 2


def test_stats_plot_replaces_its_own_png_and_no_one_elses(tmp_path) -> None:
    """``stats --plot holiday.png`` replaced a user's own picture; its own plot is still
    replaced, and so is an older printdeck's (Matplotlib its software)."""
    pytest.importorskip("matplotlib")
    import matplotlib.pyplot as plt
    from PIL import Image

    theirs = tmp_path / "holiday.png"
    Image.new("RGB", (40, 30), (200, 120, 40)).save(theirs)
    before = theirs.read_bytes()
    refused = run("stats", "--trials", "5", "--plot", str(theirs))
    assert refused.exit_code == 2 and refused.stderr.count("\n") == 1, refused.output
    assert "holiday.png is there already and printdeck did not write it; move it away or choose another --plot" in (
        refused.stderr
    )
    assert theirs.read_bytes() == before
    older = tmp_path / "older.png"
    plt.figure().savefig(older, format="png")
    plt.close("all")
    for _ in range(2):
        assert run("stats", "--trials", "5", "--plot", str(older)).exit_code == 0
    assert Image.open(older).info["Software"] == "printdeck"


def test_a_biplanes_csv_is_told_its_match(tmp_path) -> None:
    """``design --match 2 --format csv`` writes bare rows (any CSV reader takes them), so
    ``verify`` checks λ = 1 and the biplane fails: it now says the pairs share 2 and to give
    ``--match 2``, which verifies it. A λ a ``#`` line names is read (as the text form's
    header writes it), and one printdeck does not check is refused only without ``--match``."""
    r = run("design", "-k", "5", "--match", "2", "--format", "csv")
    assert r.exit_code == 0
    rows = r.output.splitlines()
    assert len(rows) == 11 and all(len(row.split(",")) == 5 for row in rows), "bare rows"
    f = tmp_path / "bi.csv"
    f.write_text(r.output)
    v = run("verify", str(f))
    assert v.exit_code == 1 and v.output.splitlines()[-1].endswith("share 2: for a match-2 deck, give --match 2")
    v = run("verify", str(f), "--match", "2")
    assert v.exit_code == 0 and "OK: every two cards share exactly 2" in v.output, v.output
    named = tmp_path / "named.csv"
    named.write_text("# 11 cards, 11 symbols, 5 a card, every two share 2\n" + r.output)
    assert run("verify", str(named)).exit_code == 0
    fano = "0,1,3\n1,2,4\n2,3,5\n3,4,6\n4,5,0\n5,6,1\n6,0,2\n"
    three = tmp_path / "three.csv"
    three.write_text("# every two share 3 symbols\n" + fano)
    refused = run("verify", str(three))
    assert refused.exit_code == 2 and "printdeck checks 1 or 2 (or give --match)" in refused.output
    assert run("verify", str(three), "--match", "1").exit_code == 0, "the fix it gives works"


def test_a_deck_of_one_card_is_said_as_one(tmp_path) -> None:
    """``design -n 1`` wrote "# 1 cards, ..." and ``verify`` answered "4 (1 cards)". One
    card is "1 card" now, in the header (:func:`design_header`, the wording the readers
    take λ from) and the summary; a file written the old way ("1 cards") is still read."""
    r = run("design", "-k", "4", "--match", "2", "-n", "1")
    assert r.exit_code == 0 and r.output.splitlines()[1] == "# 1 card, 7 symbols, 4 a card, every two share 2"
    assert " 1 cards" not in r.output
    new, old = tmp_path / "new.txt", tmp_path / "old.csv"
    new.write_text(r.output)
    card = r.output.splitlines()[2].split(": ")[1].replace(" ", ",")
    old.write_text(f"# 1 cards, 7 symbols, 4 a card, every two share 2\n{card}\n")
    for f in (new, old):
        v = run("verify", str(f))
        assert v.exit_code == 0 and "OK: every two cards share exactly 2" in v.output, v.output  # λ read
        assert "symbols per card: 4 (1 card)\n" in v.output, v.output


def test_verify_counts_the_symbols_no_card_shows_where_the_file_says(tmp_path) -> None:
    """Five cards of the order-3 plane leave symbol 3 of 13 on no card, but ``verify`` said
    "symbols: 12 (0 unused)" of every file: it renumbers the symbols the cards show. The
    count the file gives (the text form's header, a design JSON's ``symbols``, a manifest's
    ``design.points``) now counts the unused ones; a file without one claims no count."""
    for fmt in ("text", "json"):
        f = tmp_path / f"five.{fmt}"
        f.write_text(run("design", "-q", "3", "-n", "5", "--format", fmt).output)
        v = run("verify", str(f))
        assert v.exit_code == 0 and "symbols: 13 (1 unused)\n" in v.output, v.output
        said = json.loads(run("verify", str(f), "--format", "json").output)
        assert (said["symbols_said"], said["unused"]) == (13, 1)  # "symbols": on the cards, as before
        assert said["symbols"] == len(said["symbol_labels"]) == len(said["frequencies"]) == 12
    bare = tmp_path / "five.csv"
    bare.write_text(run("design", "-q", "3", "-n", "5", "--format", "csv").output)
    v = run("verify", str(bare))
    assert v.exit_code == 0 and "symbols: 12 on the cards (how many the deck has is not known" in v.output
    assert "unused" not in v.output
    assert json.loads(run("verify", str(bare), "--format", "json").output)["unused"] is None
    manifest = tmp_path / "m.json"
    cards = [[0, 1, 3], [1, 2, 4], [2, 3, 5]]  # the Fano plane's first three lines: 6 of 7 symbols
    manifest.write_text(
        json.dumps({"design": {"points": 7}, "cards": [{"symbols": [{"id": p} for p in c]} for c in cards]})
    )
    assert "symbols: 7 (1 unused)\n" in run("verify", str(manifest)).output
    f = tmp_path / "edited.txt"  # a header edited by hand, saying fewer symbols than the cards show
    f.write_text(run("design", "-q", "3", "-n", "5").output.replace("13 symbols", "7 symbols"))
    assert "symbols: 12 on the cards (the file says 7, fewer than they show)\n" in run("verify", str(f)).output


def test_verify_says_why_a_files_count_is_not_taken_when_it_is_not_short(tmp_path) -> None:
    """A deck numbered from 1 by hand, its header saying 13 of the 13 symbols its cards show,
    was told "the file says 13, fewer than they show": the count is set aside because a card
    shows symbol 13 (symbols count from 0), not because it is short."""
    lines = run("design", "-q", "3").output.splitlines()
    cards = [line.split(":") for line in lines if not line.startswith("#")]
    f = tmp_path / "from-one.txt"
    f.write_text("\n".join([*lines[:2], *(f"{k}: " + " ".join(str(int(p) + 1) for p in c.split()) for k, c in cards)]))
    said = run("verify", str(f)).output
    why = "but a card shows symbol 13 or higher: symbols are numbered from 0"
    assert f"symbols: 13 on the cards (the file says 13, {why})\n" in said, said
    assert "fewer" not in said


def test_search_with_match_2_is_told_it_is_for_match_1(tmp_path) -> None:
    """``design -k 7 --match 2 --search`` was refused as if --search were not there: no
    word that it searches for --match 1 decks only. The refusal now says so, in one line."""
    r = run("design", "-k", "7", "--match", "2", "--search")
    assert r.exit_code == 2 and r.output.count("\n") == 1 and "Traceback" not in r.output
    assert r.output.startswith("printdeck: error: --symbols-per-card 7: no biplane with 7 symbols")
    assert r.output.rstrip().endswith("or --match 1; --search is for --match 1 only"), r.output
    assert "--search" not in run("design", "-k", "7", "--match", "2").output


def test_verify_says_one_card_and_one_symbol_in_every_line(tmp_path) -> None:
    """The header and the symbols-per-card line were mended ("1 card"), but the same
    summary still said "deck 1: 1 cards, OK" of a class set of one card a deck, and "cards
    1 and 2 share 1 symbols" of a match-2 pair sharing one."""
    two = tmp_path / "two.csv"
    two.write_text("0,1,2\n0,3,4\n")
    said = run("verify", str(two), "--match", "2").output
    assert "  cards 1 and 2 share 1 symbol\n" in said, said
    manifest = tmp_path / "m.json"
    card = {"symbols": [{"id": p} for p in (0, 1, 2)]}
    manifest.write_text(json.dumps({"cards": [{**card, "deck": 1}, {**card, "deck": 2}]}))
    said = run("verify", str(manifest)).output
    assert "deck 1: 1 card, OK\ndeck 2: 1 card, OK\n" in said and " 1 cards" not in said, said
