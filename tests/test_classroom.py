"""The classroom slides and answers: every round's two cards share exactly one symbol, the
ring on the answer slide is around that symbol on both cards (read back from the PDF's
drawing), every card appears, and ``printdeck answer`` names the match."""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path

import numpy as np
import pypdfium2
import pytest
import shapely
import yaml
from click.testing import CliRunner
from pypdf import PdfReader
from pypdf.generic import ContentStream

import printdeck
from printdeck.choices import SlideGame
from printdeck.cli import main
from printdeck.deck_plan import plan_deck
from printdeck.render import GAMES, game_rules
from printdeck.render.slides import RING_COLORS, ring_colour

WORDS = ["cat", "dog", "fish", "bird", "frog", "hen", "cow", "pig", "owl", "bee", "ant", "elk", "yak"]
SMALL = {"name": "small-class", "seed": 5, "deck": {"symbols_per_card": 4}, "symbols": [{"text": w} for w in WORDS]}
RING_RGBS = [tuple(int(c[i : i + 2], 16) / 255 for i in (1, 3, 5)) for c in RING_COLORS]  # any ring colour


def _mul(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return a @ b


def _drawing(reader: PdfReader, page_number: int) -> tuple[list[tuple[int, float, float]], list[np.ndarray]]:
    """The symbol forms drawn on a page (id, centre x, centre y in pt) and the amber rings'
    paths (``(N, 2)`` pt), by walking the content stream with its transformation matrices."""
    page = reader.pages[page_number - 1]
    xobjects = page["/Resources"]["/XObject"]
    ctm, stack = np.eye(3), []
    forms, rings, path, stroke = [], [], [], (0.0, 0.0, 0.0)
    for operands, op in ContentStream(page.get_contents(), reader).operations:
        if op == b"q":
            stack.append((ctm, stroke))
        elif op == b"Q":
            ctm, stroke = stack.pop()
        elif op == b"cm":
            a, b, c, d, e, f = (float(v) for v in operands)
            ctm = _mul(np.array([[a, b, 0], [c, d, 0], [e, f, 1]]), ctm)
        elif op == b"RG":
            stroke = tuple(float(v) for v in operands)
        elif op in (b"m", b"l", b"c"):
            pts = np.array([float(v) for v in operands]).reshape(-1, 2)
            path += [tuple((np.array([x, y, 1.0]) @ ctm)[:2]) for x, y in pts]
        elif op in (b"S", b"s", b"f", b"n", b"B", b"b", b"f*", b"W"):
            if op in (b"S", b"s") and any(np.allclose(stroke, rgb, atol=0.01) for rgb in RING_RGBS) and path:
                rings.append(np.array(path))
            if op != b"W":
                path = []
        elif op == b"Do" and str(operands[0]).startswith("/FormXob.sym"):
            box = [float(v) for v in xobjects[operands[0]]["/BBox"]]
            centre = np.array([(box[0] + box[2]) / 2, (box[1] + box[3]) / 2, 1.0]) @ ctm
            forms.append((int(str(operands[0])[len("/FormXob.sym") :]), float(centre[0]), float(centre[1])))
    return forms, rings


@pytest.mark.parametrize("reveal", ["ring", "both"])
def test_every_round_shares_one_symbol_and_the_ring_is_around_it(tmp_path: Path, reveal: str) -> None:
    result = printdeck.write_slides(
        printdeck.load_theme(SMALL), tmp_path / "slides.pdf", reveal=reveal, answer_key=True
    )
    theme = printdeck.load_theme(SMALL)
    plan = plan_deck(theme, prove=False)
    cards = len(plan.cards)
    assert sorted({n for a, b, _ in result.rounds for n in (a, b)}) == list(range(1, cards + 1))
    assert len(result.rounds) == -(-cards // 2)
    reader = PdfReader(str(result.pdf_path))
    width = float(reader.pages[1].mediabox.width)
    assert float(reader.pages[1].mediabox.height) / width == pytest.approx(9 / 16, abs=0.001)
    names = {s.id: s.name for s in plan.symbols}
    for n, (first, second, shared_names) in enumerate(result.rounds, start=1):
        question, _ = _drawing(reader, 2 * n)
        left = {i for i, x, _ in question if x < width / 2}
        right = {i for i, x, _ in question if x >= width / 2}
        assert left == {s.id for s in plan.cards[first - 1]} and right == {s.id for s in plan.cards[second - 1]}
        (shared,) = left & right  # exactly one symbol in common
        assert shared_names == (names[shared],)
        forms, rings = _drawing(reader, 2 * n + 1)
        assert len(rings) == 2 and rings[0][:, 0].max() < width / 2 < rings[1][:, 0].min()  # one on each card
        for ring in rings:  # round the shared symbol's middle, and no other symbol's
            inside = {i for i, x, y in forms if shapely.Polygon(ring).contains(shapely.Point(x, y))}
            assert inside == {shared}
    doc = pypdfium2.PdfDocument(str(result.pdf_path))
    try:
        key = "".join(doc[p].get_textpage().get_text_range() for p in range(1 + 2 * len(result.rounds), len(doc)))
        title = doc[0].get_textpage().get_text_range()
    finally:
        doc.close()
    assert "On the big screen" in title and "exactly one symbol" in title
    for first, second, (name,) in result.rounds:
        assert f"card {first} + card {second}" in key and name in key


def test_printdeck_answer_names_the_shared_symbol() -> None:
    plan = plan_deck(printdeck.load_theme(SMALL), prove=False)
    runner = CliRunner()
    for a, b in itertools.combinations(range(len(plan.cards)), 2):
        if (a + b) % 5:
            continue
        (shared,) = {s.name for s in plan.cards[a]} & {s.name for s in plan.cards[b]}
        assert [s.name for s in printdeck.shared_symbols(printdeck.load_theme(SMALL), a + 1, b + 1)] == [shared]
    result = runner.invoke(main, ["answer", "default", "12", "31"])
    default = plan_deck(printdeck.load_theme(None), prove=False)
    (expected,) = {s.name for s in default.cards[11]} & {s.name for s in default.cards[30]}
    assert result.exit_code == 0 and result.output.strip() == expected
    bad = runner.invoke(main, ["answer", "default", "12", "99"])
    assert bad.exit_code == 2 and "cards 1 to 55" in bad.output


def test_answer_reads_the_printed_deck_from_its_manifest(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A referee built the deck, then a picture was added (or the seed edited): ``answer``
    planned the theme again and silently named another deck's symbol. It now answers from a
    build's manifest given as THEME, and from a theme warns when its last default build's
    manifest shows other symbols on those cards. Class sets number each deck's cards."""
    monkeypatch.chdir(tmp_path)
    theme = tmp_path / "theme.yaml"
    theme.write_text(yaml.safe_dump({**SMALL, "deck": {"symbols_per_card": 4, "copies": 2}}))
    built = printdeck.build(theme)  # output/small-class.pdf and .json, as a default build writes them
    manifest = json.loads(built.manifest_path.read_text())
    names = {s["id"]: s["name"] for s in manifest["symbols"]}
    deck_b = [c for c in manifest["cards"] if c["deck"] == 2]
    runner = CliRunner()
    for a, b in ((0, 1), (3, 9), (12, 5)):
        (shared,) = {s["id"] for s in deck_b[a]["symbols"]} & {s["id"] for s in deck_b[b]["symbols"]}
        said = runner.invoke(main, ["answer", "output/small-class.json", str(a + 1), str(b + 1)])
        assert said.exit_code == 0 and said.output.strip() == names[shared], said.output
    assert "cards 1 to 13" in runner.invoke(main, ["answer", "output/small-class.json", "1", "14"]).output
    theme.write_text(yaml.safe_dump({**SMALL, "seed": 6, "deck": {"symbols_per_card": 4, "copies": 2}}))
    now = [s.name for s in printdeck.shared_symbols(printdeck.load_theme(theme), 1, 2)]
    then = runner.invoke(main, ["answer", "output/small-class.json", "1", "2"]).output.strip()
    said = runner.invoke(main, ["answer", str(theme), "1", "2"])
    assert [then] != now  # seed 6 gives these two cards another match than the printed seed 5
    assert said.exit_code == 0 and said.stdout.strip() == ", ".join(now)
    assert f"shows {then} on these cards: it was built with seed 5 (the theme has 6" in said.stderr


def test_answer_names_a_seed_build_as_the_cause_and_refuses_a_seed_with_a_manifest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A deck built with ``--seed 7`` was said to come from a changed theme; ``--seed`` with a
    manifest was ignored; a mistyped manifest was called a missing theme file."""
    monkeypatch.chdir(tmp_path)
    theme = tmp_path / "theme.yaml"
    theme.write_text(yaml.safe_dump(SMALL))  # seed 5
    printdeck.build(theme, seed=6)
    runner = CliRunner()
    said = runner.invoke(main, ["answer", str(theme), "1", "2"])  # seed 5 and 6 differ on cards 1 and 2
    assert said.exit_code == 0 and "it was built with seed 6 (the theme has 5: --seed, or an edit)" in said.stderr
    seeded = runner.invoke(main, ["answer", "output/small-class.json", "1", "2", "--seed", "3"])
    assert seeded.exit_code == 2 and "--seed: a build's manifest is the deck as printed" in seeded.output
    missing = runner.invoke(main, ["answer", "output/small-clas.json", "1", "2"])
    assert missing.exit_code == 2 and "small-clas.json: not found; give a build's manifest or a theme" in missing.output


def test_answer_finds_the_deck_a_build_wrote_with_o_anywhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A teacher built with ``-o pupils/deck.pdf`` and then edited the seed: ``answer THEME``
    named the new deck's symbol with no warning, as it looked only in ``output/``. A build
    now remembers the manifests its theme printed; the newest is compared."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pupils").mkdir()
    theme = tmp_path / "theme.yaml"
    theme.write_text(yaml.safe_dump(SMALL))  # seed 5
    printdeck.build(theme, out=tmp_path / "pupils" / "deck.pdf")
    runner = CliRunner()
    before = runner.invoke(main, ["answer", str(theme), "1", "2"])
    assert before.exit_code == 0 and not before.stderr, before.stderr  # the theme is the printed deck
    theme.write_text(yaml.safe_dump({**SMALL, "seed": 6}))
    then = runner.invoke(main, ["answer", "pupils/deck.json", "1", "2"]).output.strip()
    said = runner.invoke(main, ["answer", str(theme), "1", "2"])
    assert said.exit_code == 0 and said.stdout.strip() != then
    assert f"the deck printed from {tmp_path / 'pupils' / 'deck.json'} (its manifest) shows {then}" in said.stderr
    assert "it was built with seed 5 (the theme has 6" in said.stderr


def test_answer_given_a_design_says_it_names_no_symbol(tmp_path: Path) -> None:
    """``printdeck design``'s JSON given to answer was read as a theme and told to indent
    cards: under deck:, its CSV to be a mapping of keys, the value cut off mid-quote."""
    runner = CliRunner()
    for fmt, name in (("json", "d.json"), ("csv", "d.csv")):
        (tmp_path / name).write_text(runner.invoke(main, ["design", "-k", "3", "--format", fmt]).output)
        said = runner.invoke(main, ["answer", str(tmp_path / name), "1", "2"])
        assert said.exit_code == 2 and said.output.count("\n") == 1, said.output
        assert "is a deck design: it numbers the cards' symbols but names none; give the theme" in said.output


def test_every_game_has_its_rules_and_a_wrong_choice_names_the_option(tmp_path: Path) -> None:
    assert set(GAMES) == {str(g) for g in SlideGame}
    for game in SlideGame:
        heading, rules = game_rules(str(game))
        assert heading and len(rules) > 100
    result = CliRunner().invoke(main, ["slides", "-o", str(tmp_path / "s.pdf"), "--reveal", "circle"])
    assert result.exit_code == 2 and "--reveal" in result.output and "ring" in result.output
    assert not list(tmp_path.iterdir())


def test_printdeck_slides_from_the_command_line_with_its_defaults(tmp_path: Path) -> None:
    theme = tmp_path / "words.yaml"
    theme.write_text("deck: {symbols_per_card: 3}\nsymbols: [" + ", ".join(f"{{text: {w}}}" for w in WORDS[:7]) + "]\n")
    result = CliRunner().invoke(main, ["slides", str(theme), "-o", str(tmp_path / "s.pdf")])
    assert result.exit_code == 0, result.output
    assert "wrote " in result.output and ": 4 rounds, 9 pages" in result.output


def test_a_double_deck_in_french_rings_both_matches_and_says_so(tmp_path: Path) -> None:
    theme = printdeck.load_theme(
        {
            "deck": {"symbols_per_card": 4, "match": 2},
            "text": {"lang": "fr-CA"},
            "symbols": [{"text": w} for w in WORDS[:7]],
        }
    )
    result = printdeck.write_slides(theme, tmp_path / "double.pdf", answer_key=True)
    assert len(result.rounds) == 4 and all(len(shared) == 2 for _, _, shared in result.rounds)
    reader = PdfReader(str(result.pdf_path))
    for n in range(1, len(result.rounds) + 1):
        rings = _drawing(reader, 2 * n + 1)[1]
        assert len(rings) == 4  # two matches ringed on each card
    doc = pypdfium2.PdfDocument(str(result.pdf_path))
    try:
        title = " ".join(doc[0].get_textpage().get_text_range().split())
        round_slide = doc[1].get_textpage().get_text_range()
    finally:
        doc.close()
    assert "Sur grand écran" in title and "exactement deux symboles en commun" in title
    assert "Manche 1 sur 4" in round_slide and "carte " in round_slide


def test_a_double_decks_answer_key_keeps_every_name_in_its_place(tmp_path: Path) -> None:
    # the key set a match-2 round's second name over the next column's round label, and
    # names near the right edge ran off the slide ("question mark" in the double theme)
    names = ["question mark", "grasshopper", "hot air balloon", "locomotive", "fire engine", "crocodile"]
    theme = printdeck.load_theme(
        {
            "deck": {"symbols_per_card": 9, "match": 2},  # 37 cards: 19 rounds, two columns before
            "symbols": [{"text": str(n), "name": f"{names[n % 6]} {n}"} for n in range(37)],  # names are unique
        }
    )
    result = printdeck.write_slides(theme, tmp_path / "double.pdf", answer_key=True)
    doc = pypdfium2.PdfDocument(str(result.pdf_path))
    rects, words = [], ""
    try:
        for number in range(1 + 2 * len(result.rounds), len(doc)):  # the key's pages
            width, _ = doc[number].get_size()
            textpage = doc[number].get_textpage()
            words += textpage.get_text_range()
            rects.append([textpage.get_rect(i) for i in range(textpage.count_rects())])
    finally:
        doc.close()
    assert all(n in words for n in names) and sum(map(len, rects)) >= 19 * 3  # labels and two names a round
    for page_rects in rects:
        assert all(left > 0 and right < width - 14 for left, _, right, _ in page_rects)
        for a, b in itertools.combinations(page_rects, 2):
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (a, b)


def test_an_answer_ring_never_hides_a_cards_number(tmp_path: Path) -> None:
    # a word's ring is wide: in the bundled vocabulary deck round 1's ring ran over "carta 13"
    result = printdeck.write_slides("vocabulary", tmp_path / "slides.pdf")
    doc = pypdfium2.PdfDocument(str(result.pdf_path))
    try:
        for n in range(1, len(result.rounds) + 1):
            question, answer = (doc[p].render(scale=2).to_numpy()[..., :3] for p in (2 * n - 1, 2 * n))
            textpage = doc[2 * n].get_textpage()
            height = doc[2 * n].get_size()[1]
            for i in range(textpage.count_rects()):
                left, bottom, right, top = textpage.get_rect(i)
                if "carta" not in textpage.get_text_bounded(left, bottom, right, top):
                    continue
                rows = slice(int(2 * (height - top)), int(2 * (height - bottom)) + 1)
                cols = slice(int(2 * left), int(2 * right) + 1)
                glyphs = question[rows, cols].min(axis=-1) > 235  # the number's light letters' cores
                assert glyphs.sum() > 20
                kept = (answer[rows, cols].min(axis=-1)[glyphs] > 180).mean()
                assert kept > 0.98, f"round {n}: {kept:.0%} of the card number left"
    finally:
        doc.close()


def test_an_answer_ring_goes_round_the_match_without_cutting_it(tmp_path: Path) -> None:
    """Rasterised: on every answer slide of the times tables, what the ring encloses is
    whole (no digit of the match under the ring); a circle cut through "4 × 7"'s digits."""
    import cv2

    result = printdeck.write_slides("times-tables", tmp_path / "slides.pdf", reveal="ring")
    doc = pypdfium2.PdfDocument(str(result.pdf_path))
    try:
        for n in range(1, len(result.rounds) + 1):
            question, answer = (doc[p].render(scale=2).to_numpy()[..., :3].astype(int) for p in (2 * n - 1, 2 * n))
            ring = np.abs(answer - question).max(axis=-1) > 40
            ring[: 45 * 2] = False  # the heading ("Round n of 16 · Answer"), in its top 45 pt
            contours, _ = cv2.findContours(ring.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
            assert len(contours) == 2, f"round {n}: one ring on each card"
            held = np.zeros(ring.shape, np.uint8)
            cv2.drawContours(held, contours, -1, 1, thickness=cv2.FILLED)
            ink = (question.min(axis=-1) < 200) & (question.max(axis=-1) > 120)  # digits, not the dark backdrop
            count, labels, stats, centres = cv2.connectedComponentsWithStats(ink.astype(np.uint8), connectivity=8)
            enclosed = [k for k in range(1, count) if held[int(centres[k][1]), int(centres[k][0])]]
            assert enclosed, f"round {n}: the ring holds the match"
            for k in enclosed:
                under_ring = (ring & (labels == k)).sum() / stats[k, cv2.CC_STAT_AREA]
                assert under_ring < 0.03, f"round {n}: the ring runs over {under_ring:.0%} of a glyph it holds"
    finally:
        doc.close()


def test_the_corner_answer_never_covers_a_card(tmp_path: Path) -> None:
    """Rasterised: with ``--reveal corner`` an answer slide's cards are their question
    slide's, pixel for pixel: the tiles naming the match (two for the vocabulary deck's
    word and picture) sit in the band above the cards; they covered the right card's top."""
    from printdeck.render.slides import SLIDE_MM, card_centres_mm, card_diameter_mm

    result = printdeck.write_slides("vocabulary", tmp_path / "slides.pdf", reveal="corner")
    px_per_mm = 2 * 72 / 25.4
    doc = pypdfium2.PdfDocument(str(result.pdf_path))
    try:
        for n in range(1, len(result.rounds) + 1):
            question, answer = (doc[p].render(scale=2).to_numpy()[..., :3].astype(int) for p in (2 * n - 1, 2 * n))
            changed = np.abs(answer - question).max(axis=-1) > 40
            ys, xs = np.indices(changed.shape) / px_per_mm
            for cx, cy in card_centres_mm():
                on_card = np.hypot(xs - cx, (SLIDE_MM[1] - ys) - cy) < card_diameter_mm() / 2.0 + 0.5
                assert not (changed & on_card).any(), f"round {n}: the answer covers a card"
            assert changed[:, changed.shape[1] // 2 :].any(), f"round {n}: no answer shown"
    finally:
        doc.close()


def test_answer_and_slides_follow_the_deck_build_printed_with_its_seed(tmp_path: Path) -> None:
    """A teacher who printed ``build --seed 9`` (the theme says 5) gets that deck's answers
    and slides, not the theme seed's."""
    built = printdeck.build(SMALL, out=tmp_path / "nine.pdf", seed=9)
    manifest = json.loads(built.manifest_path.read_text(encoding="utf-8"))
    names = {s["id"]: s["name"] for s in manifest["symbols"]}
    on = [{names[p["id"]] for p in card["symbols"]} for card in manifest["cards"]]
    theme = tmp_path / "small.yaml"
    theme.write_text(yaml.safe_dump(SMALL), encoding="utf-8")
    differs = False
    for a, b in itertools.combinations(range(1, len(on) + 1), 2):
        if (a + b) % 4:
            continue
        (shared,) = on[a - 1] & on[b - 1]
        answered = CliRunner().invoke(main, ["answer", str(theme), str(a), str(b), "--seed", "9"])
        assert answered.exit_code == 0 and answered.output.strip() == shared, answered.output
        differs |= [s.name for s in printdeck.shared_symbols(printdeck.load_theme(SMALL), a, b)] != [shared]
    assert differs  # the theme's own seed prints another deck
    slides = printdeck.write_slides(printdeck.load_theme(SMALL), tmp_path / "nine-slides.pdf", seed=9)
    for a, b, shared in slides.rounds:
        assert set(shared) == on[a - 1] & on[b - 1], (a, b, shared)


def test_slides_of_a_one_card_deck_are_refused(tmp_path: Path) -> None:
    one = {**SMALL, "deck": {**SMALL.get("deck", {}), "cards": 1}}
    with pytest.raises(printdeck.PrintdeckError, match=r"deck\.cards: a round shows two cards, and the deck has one"):
        printdeck.write_slides(printdeck.load_theme(one), tmp_path / "one.pdf")
    assert not (tmp_path / "one.pdf").exists()


SPLIT_SUMS = {
    "name": "sums",
    "seed": 3,
    "deck": {"symbols_per_card": 3, "faces": "split"},
    "symbols": [
        {"faces": [{"text": f"{a} + {b}"}, {"text": str(a + b)}]}
        for a, b in [(1, 1), (1, 2), (2, 2), (2, 3), (3, 3), (3, 4), (4, 4)]
    ],
}
"""A split deck of seven sums (deck A) and their values (deck B)."""


def test_a_split_decks_rounds_play_deck_a_against_deck_b(tmp_path: Path) -> None:
    """A split deck's screen game is the printed one: a card of deck A (the sums) against a
    card of deck B (their values), never twins, every card of both decks shown."""
    split = SPLIT_SUMS
    result = printdeck.write_slides(printdeck.load_theme(split), tmp_path / "split.pdf")
    plan = plan_deck(printdeck.load_theme(split), prove=False)
    decks, faces = plan.faced.card_decks, plan.faced.drawing_faces
    assert len(decks) == 14
    reader = PdfReader(str(result.pdf_path))
    width = float(reader.pages[1].mediabox.width)
    for n, (first, second, names) in enumerate(result.rounds, start=1):
        assert (decks[first - 1], decks[second - 1]) == ("A", "B") and second != first + 7  # not its twin
        question, _ = _drawing(reader, 2 * n)
        left = {i for i, x, _ in question if x < width / 2}
        right = {i for i, x, _ in question if x >= width / 2}
        assert left == {s.id for s in plan.cards[first - 1]} and right == {s.id for s in plan.cards[second - 1]}
        assert not left & right  # the match is shown two ways: a sum on one card, its value on the other
        (point,) = {faces[i][0] for i in left} & {faces[i][0] for i in right}
        (concept,) = printdeck.shared_symbols(printdeck.load_theme(split), first, second)
        assert concept.name == plan.concepts[point].name
        assert names == (concept.name,)  # the match by its symbol's name, once for both faces
    shown_cards = sorted(n for a, b, _ in result.rounds for n in (a, b))
    assert shown_cards == list(range(1, 15))  # every card of each deck, once


def test_the_answer_key_names_every_match_by_its_symbol(tmp_path: Path) -> None:
    """A teacher's times-tables key named one match "4 × 8 = 32" and another just "15" (the
    face both cards showed): every match is named by its symbol, once after its faces."""
    result = printdeck.write_slides("times-tables", tmp_path / "tt.pdf", answer_key=True)
    assert all(len(names) == 1 and " = " in names[0] for _, _, names in result.rounds)
    doc = pypdfium2.PdfDocument(str(result.pdf_path))
    try:
        key = "".join(doc[i].get_textpage().get_text_range() for i in range(1 + 2 * len(result.rounds), len(doc)))
    finally:
        doc.close()
    for _, _, (name,) in result.rounds:
        assert key.count(name) >= 1, name
    assert key.count(" = ") == len(result.rounds)  # one name a round, none a face's alone


def test_corner_tiles_follow_the_cards_and_fit_long_names(tmp_path: Path) -> None:
    """A split deck's match shows the sum on the left card and its value on the right (or the
    other way round): the corner tiles named them in a fixed order, not under the card showing
    each. And a long name ran past its tile, cut after 22 letters."""
    from printdeck.render.match_line import CORNER_NAME_PT, fitted_name

    split = SPLIT_SUMS
    result = printdeck.write_slides(printdeck.load_theme(split), tmp_path / "split.pdf", reveal="corner")
    plan = plan_deck(printdeck.load_theme(split), prove=False)
    reader = PdfReader(str(result.pdf_path))
    height = float(reader.pages[1].mediabox.height)
    for n, (first, second, _) in enumerate(result.rounds, start=1):
        forms, _ = _drawing(reader, 2 * n + 1)
        tiles = [i for i, _, y in sorted(forms, key=lambda f: f[1]) if y > height * 0.9]  # the band above the cards
        left = {s.id for s in plan.cards[first - 1]}
        right = {s.id for s in plan.cards[second - 1]}
        assert len(tiles) == 2 and tiles[0] in left and tiles[1] in right, (n, tiles)
    name, size = fitted_name("hippopotomonstrosesquippedaliophobia", 200.0)
    assert name == "hippopotomonstrosesquippedaliophobia" and 7.0 <= size < CORNER_NAME_PT
    shortened, size = fitted_name("x" * 40 + " " + "y" * 40, 94.0)
    assert shortened.endswith("…") and size == 7.0


def test_answer_says_a_split_decks_twins_are_twins(tmp_path: Path) -> None:
    """``answer`` for card 1 and its twin in deck B listed three symbols and said no more."""
    theme = tmp_path / "sums.yaml"
    theme.write_text(yaml.safe_dump(SPLIT_SUMS, allow_unicode=True), encoding="utf-8")
    twins = CliRunner().invoke(main, ["answer", str(theme), "1", "8"])
    assert twins.exit_code == 0 and len(twins.output.splitlines()[0].split(", ")) == 3
    assert "note: cards 1 and 8 show the same symbols: a card of deck A and its twin in deck B" in twins.output
    other = CliRunner().invoke(main, ["answer", str(theme), "1", "9"])
    assert other.exit_code == 0 and "note:" not in other.output


def test_answer_reads_a_split_decks_manifest_as_the_theme_numbers_its_cards(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``answer split.json 1 2`` was refused ("give the theme"), though the README says a
    manifest answers for the deck as printed. A split deck's cards are numbered as printed,
    deck A's then deck B's, as the theme's answer numbers them; twins are said to be twins."""
    monkeypatch.chdir(tmp_path)
    theme = tmp_path / "theme.yaml"
    theme.write_text(yaml.safe_dump(SPLIT_SUMS), encoding="utf-8")
    printdeck.build(theme)
    runner = CliRunner()
    loaded = printdeck.load_theme(theme)
    for first, second in itertools.combinations(range(1, 15), 2):
        from_theme = runner.invoke(main, ["answer", str(theme), str(first), str(second)])
        from_manifest = runner.invoke(main, ["answer", "output/sums.json", str(first), str(second)])
        assert from_manifest.exit_code == 0, from_manifest.output
        assert from_manifest.stdout == from_theme.stdout, (first, second)
        assert from_manifest.stderr == from_theme.stderr
    names = [s.name for s in printdeck.shared_symbols(loaded, 1, 8)]
    twins = runner.invoke(main, ["answer", "output/sums.json", "1", "8"])
    assert len(names) == 3 and "a card of deck A and its twin in deck B" in twins.stderr
    assert "cards 1 to 14" in runner.invoke(main, ["answer", "output/sums.json", "1", "15"]).output


def test_slides_replace_their_own_pdf_and_no_one_elses(tmp_path: Path) -> None:
    """``slides -o inv.pdf`` replaced a user's own PDF of that name; its own slides (printdeck
    in their metadata) are still replaced."""
    theirs = tmp_path / "inv.pdf"
    theirs.write_bytes(b"%PDF-1.4 someone's own")
    refused = CliRunner().invoke(main, ["slides", "-o", str(theirs)])
    assert refused.exit_code == 2 and "inv.pdf is there already and printdeck did not write it" in refused.output
    assert theirs.read_bytes() == b"%PDF-1.4 someone's own"
    ours = tmp_path / "slides.pdf"
    for _ in range(2):
        assert CliRunner().invoke(main, ["slides", "junior", "-o", str(ours)]).exit_code == 0


def test_the_printed_pdf_given_for_the_manifest_or_the_theme_is_told_which_file_to_give(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A teacher ran ``printdeck answer output/deck.pdf 12 31`` (or ``verify``, ``build``
    with the PDF): the PDF was read as a theme and refused as 'not UTF-8 text; save the
    theme as UTF-8', a fix that cannot help. Now the PDF is named as one, with the file to
    give instead; nothing is written."""
    monkeypatch.chdir(tmp_path)
    theme = tmp_path / "theme.yaml"
    theme.write_text(yaml.safe_dump(SMALL))
    printdeck.build(theme)  # output/small-class.pdf and .json
    (tmp_path / "lone.pdf").write_bytes((tmp_path / "output" / "small-class.pdf").read_bytes())
    before = sorted(p.name for p in (tmp_path / "output").iterdir())
    runner = CliRunner()
    for args, fix in (
        (["answer", "output/small-class.pdf", "1", "2"], "give its manifest output/small-class.json"),
        (["verify", "output/small-class.pdf"], "give its manifest output/small-class.json"),
        (["check", "output/small-class.pdf"], "give the theme"),
        (["verify", "theme.yaml"], "printdeck check"),
        (["answer", "lone.pdf", "1", "2"], "is a PDF, not a theme; give the theme"),  # no manifest beside it
        (["answer", "missing.pdf", "1", "2"], "no such theme file"),  # a name mistyped
    ):
        said = runner.invoke(main, args)
        assert said.exit_code == 2 and said.output.count("\n") == 1, said.output
        assert "UTF-8" not in said.output and fix in said.output, said.output
        assert said.output.startswith(f"printdeck: error: {args[1]}: "), said.output
    assert sorted(p.name for p in (tmp_path / "output").iterdir()) == before


def test_the_answer_key_draws_a_symbols_faces_side_by_side(tmp_path: Path) -> None:
    """A split times-tables key drew "4 × 5" after the round's label and its "20", with the
    name, half a slide further right: each face had a slot of its own as if it were another
    symbol. A symbol's faces stand together, its name after them."""
    result = printdeck.write_slides(printdeck.load_theme(SPLIT_SUMS), tmp_path / "split.pdf", answer_key=True)
    reader = PdfReader(str(result.pdf_path))
    row_pt = (190.5 - 34.0) / 9 * 72 / 25.4  # printdeck.render.slides: a key row's height
    rows: dict[int, list[float]] = {}
    for number in range(2 + 2 * len(result.rounds), len(reader.pages) + 1):  # the key's pages
        forms, _ = _drawing(reader, number)
        for _, x, y in forms:
            rows.setdefault(number * 10_000 + round(y / 5.0), []).append(x)  # a row's faces: within 2.5 pt
    assert len(rows) == len(result.rounds)
    for xs in rows.values():
        assert len(xs) == 2 and abs(xs[1] - xs[0]) < 1.5 * row_pt, xs  # both faces, side by side


def test_a_long_title_stays_on_the_answer_key(tmp_path: Path) -> None:
    """A school's 120-letter Arabic title ran the answer key's heading off the slide, "Answer
    key" cut to "Answ": the heading now shrinks and wraps, as the legend's does."""
    title = " ".join(
        [
            "لعبة البحث عن الحيوانات المتطابقة في الصف الثالث الابتدائي",
            "لمدرسة النور الدولية في مدينة الرياض للعام الدراسي",
        ]
    )
    theme = printdeck.load_theme({**SMALL, "title": title})
    result = printdeck.write_slides(theme, tmp_path / "long.pdf", answer_key=True)
    doc = pypdfium2.PdfDocument(str(result.pdf_path))
    try:
        page = doc[len(doc) - 1]
        width, _ = page.get_size()
        ink = np.asarray(page.render(scale=2).to_pil().convert("L")) < 128
    finally:
        doc.close()
    mm = 2 * 72 / 25.4  # pixels a mm
    heading, gap = ink[: int(26 * mm)], ink[int(26 * mm) : int(31 * mm)]  # the rows start 31 mm down
    assert heading.any() and not heading[:, int(2 * (width - 14)) :].any()  # nothing in the right margin
    assert not gap.any()  # the heading's lines end above the first row


def _form_boxes(reader: PdfReader, page_number: int) -> list[tuple[int, np.ndarray, float]]:
    """The symbol forms drawn on a page: (id, box corners ``[[x0, y0], [x1, y1]]`` in pt,
    scale), by walking the content stream with its transformation matrices."""
    page = reader.pages[page_number - 1]
    xobjects = page["/Resources"]["/XObject"]
    ctm, stack, found = np.eye(3), [], []
    for operands, op in ContentStream(page.get_contents(), reader).operations:
        if op == b"q":
            stack.append(ctm)
        elif op == b"Q":
            ctm = stack.pop()
        elif op == b"cm":
            a, b, c, d, e, f = (float(v) for v in operands)
            ctm = _mul(np.array([[a, b, 0], [c, d, 0], [e, f, 1]]), ctm)
        elif op == b"Do" and str(operands[0]).startswith("/FormXob.sym"):
            x0, y0, x1, y1 = (float(v) for v in xobjects[operands[0]]["/BBox"])
            corners = np.array([[x0, y0, 1.0], [x1, y1, 1.0]]) @ ctm
            found.append((int(str(operands[0])[len("/FormXob.sym") :]), corners[:, :2], float(ctm[0, 0])))
    return found


def test_the_answer_key_sets_every_word_as_tall_as_the_next(tmp_path: Path) -> None:
    """The key fitted each word into a picture's square, so its width set its size: "summer"
    and "hippopotamus" came out tiny and "ox" large. Every word is now set at one size, as
    text is (its em ``slides.KEY_WORD_PT``), whatever its length or script, inside its row;
    words too long for that share their slot with the name, which never runs out of it."""
    from printdeck.render.forms import TEXT_FORM_SIZE_PT  # a word's form: one em is this many pt

    row_pt = (190.5 - 34.0) / 9 * 72 / 25.4  # printdeck.render.slides: a key row's height
    words = ["ox", "hippopotamus", "I", "summer", "قطة", "الزرافة", "बिल्ली", "घोड़ा", "cat", "eel", "yak", "elk", "emu"]
    drawn, _, width = _key_pages(tmp_path, words)
    sizes_pt = {round(scale * TEXT_FORM_SIZE_PT, 3) for _, _, scale in drawn}
    assert len(sizes_pt) == 1 and 11 <= sizes_pt.pop() <= 16, sorted(sizes_pt)  # one size, a text's
    for _, ((x0, y0), (x1, y1)), _ in drawn:
        assert y1 - y0 < 0.8 * row_pt and 0 < x0 < x1 < width / 2  # in its row, in the first column
    long = [w * 3 for w in ("floccinauci", "hippopotomo", "incomprehen", "counterrevo", "antidisesta", "uncharacter")]
    drawn, names, width = _key_pages(tmp_path, long + words[-7:])
    for _, ((x0, y0), (x1, y1)), _ in drawn:
        assert x1 < width / 2 and not any(left < x1 and x0 < right and b < y1 and y0 < t for left, b, right, t in names)
    assert all(right < width / 2 for _, _, right, _ in names)  # every name in the first column's slots


def _key_pages(tmp_path: Path, words: list[str]) -> tuple[list[tuple[int, np.ndarray, float]], list, float]:
    """A word deck's answer key (its rounds in the first column): the forms drawn on it
    (:func:`_form_boxes`), the rectangles of its text right of the rounds' labels, and the
    page's width, pt."""
    theme = printdeck.load_theme(
        {"name": "w", "seed": 3, "deck": {"symbols_per_card": 4}, "symbols": [{"text": w} for w in words]}
    )
    result = printdeck.write_slides(theme, tmp_path / "key.pdf", answer_key=True)
    reader = PdfReader(str(result.pdf_path))
    first = 2 + 2 * len(result.rounds)
    drawn = [f for number in range(first, len(reader.pages) + 1) for f in _form_boxes(reader, number)]
    assert len(drawn) == len(result.rounds) and len(reader.pages) == first  # one page of the key
    doc = pypdfium2.PdfDocument(str(result.pdf_path))
    try:
        text = doc[first - 1].get_textpage()
        names = [text.get_rect(i) for i in range(text.count_rects())]
    finally:
        doc.close()
    start = min(x0 for _, ((x0, _), _), _ in drawn)
    return drawn, [r for r in names if r[0] >= start], float(reader.pages[0].mediabox.width)


def test_answer_key_stays_together_after_a_long_title(tmp_path: Path) -> None:
    """A 130-letter title set the key's heading as "...in the spring: Answer" and "key" on a
    line of its own: the heading's words "Answer key" are no longer broken apart."""
    title = (
        "Animals of the world in Arabic, Hindi, Chinese and English for the year four classroom "
        "at Green Valley primary school in the spring"
    )
    result = printdeck.write_slides(
        printdeck.load_theme({**SMALL, "title": title}), tmp_path / "k.pdf", answer_key=True
    )
    doc = pypdfium2.PdfDocument(str(result.pdf_path))
    try:
        heading = doc[len(doc) - 1].get_textpage().get_text_range().split("Round 1 of")[0]
    finally:
        doc.close()
    assert heading.count("\n") == 2 and "spring:" in heading, repr(heading)  # two lines, then the rows
    assert re.search("\nAnswer[ \u00a0]key", heading), repr(heading)


def test_a_title_with_a_narrow_no_break_space_stays_text(tmp_path: Path) -> None:
    """French typing puts a narrow no-break space (U+202F) before ":" and "!". wrap_text
    used to split there and set a plain space; keeping it whole for "Answer key" kept a
    character the bundled sans lacks, so the whole heading became glyph outlines in a
    fallback face: another typeface, and no text to find or copy. It is set as U+00A0."""
    title = "Les animaux\u202f: le jeu de la classe\u202f!"
    result = printdeck.write_slides(
        printdeck.load_theme({**SMALL, "title": title}), tmp_path / "k.pdf", answer_key=True
    )
    doc = pypdfium2.PdfDocument(str(result.pdf_path))
    try:
        said = [" ".join(doc[n].get_textpage().get_text_range().split()) for n in (0, len(doc) - 1)]
    finally:
        doc.close()
    for text in said:  # the title slide and the answer key
        assert "Les animaux : le jeu de la classe !" in text, repr(text)


def test_a_narrow_no_break_space_keeps_the_backs_and_tuck_box_text(tmp_path: Path) -> None:
    """The U+202F fix reached only the lines wrap_text sets: the card backs' title and the
    tuck box's title, lid and note are drawn line by line as given, so one narrow no-break
    space still made each of those lines glyph outlines in a fallback face (the backs read
    "Les" alone, the tuck box no text at all). Every page reads as with plain spaces."""

    def page_texts(title: str, name: str) -> list[str]:
        result = printdeck.build({**SMALL, "title": title}, out=tmp_path / name, backs=True, tuck_box=True)
        doc = pypdfium2.PdfDocument(str(result.pdf_path))
        try:
            return [" ".join(page.get_textpage().get_text_range().split()) for page in doc]
        finally:
            doc.close()

    narrow = page_texts("Les animaux\u202f: le jeu\u202f!", "narrow.pdf")
    plain = page_texts("Les animaux : le jeu !", "plain.pdf")
    assert narrow == plain
    assert any("Tuck box for Les animaux : le jeu !" in text for text in narrow), narrow


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6])
def test_a_deck_of_odd_cards_asks_no_answer_twice(tmp_path: Path, seed: int) -> None:
    """13 cards make 7 rounds, the last card against one already shown: it met the first
    card of the order, and when the three cards shared one symbol, rounds 1 and 7 had the
    same answer ("canción" twice); two other rounds could share theirs as well (a symbol is
    on four cards). Each card's partner is now one whose answer is new."""
    result = printdeck.write_slides(printdeck.load_theme({**SMALL, "seed": seed}), tmp_path / "s.pdf")
    assert len(result.rounds) == 7
    assert sorted({a for a, _, _ in result.rounds} | {b for _, b, _ in result.rounds}) == list(range(1, 14))
    answers = [names for _, _, names in result.rounds]
    assert len(set(answers)) == len(answers), answers


def test_the_answer_ring_is_never_the_colour_of_a_word_beside_it(tmp_path: Path) -> None:
    """A teacher's slide ringed سيارة in amber right along the amber word किताबें: from the back
    of the room, and to colour-blind pupils, which word was ringed was unclear. The ring
    keeps its amber unless a word on the slide is near it (to any eye), then turns yellow
    or violet; checked on the slides' drawing."""
    from printdeck.artwork import Vision, hex_difference

    assert ring_colour(["#0072b2", "#009e73"]) == RING_COLORS[0]  # amber, as always
    for words in (["#e69f00"], ["#e69f00", "#56b4e9"], ["#e69f00", "#0072b2", "#cc79a7"]):
        ring = ring_colour(words)
        assert min(hex_difference(ring, w, v) for w in words for v in Vision) >= 12, (words, ring)
    theme = printdeck.load_theme(
        {"deck": {"symbols_per_card": 3}, "text": {"colors": ["#e69f00"]}, "symbols": [{"text": w} for w in WORDS[:7]]}
    )
    result = printdeck.write_slides(theme, tmp_path / "amber.pdf", answer_key=False)
    reader = PdfReader(str(result.pdf_path))
    strokes = set()
    for operands, op in ContentStream(reader.pages[2].get_contents(), reader).operations:
        if op == b"RG":
            strokes.add("#" + "".join(f"{round(float(v) * 255):02x}" for v in operands))
    assert RING_COLORS[0] not in strokes and ring_colour(["#e69f00"]) in strokes, strokes
