"""Symbols with several faces (issue 24): one concept per point, each occurrence one face.

Checked from what the build writes: the manifest (verified by printdeck's verifier and by
counting card pairs here), the PDF's text (rules) and its rasterised pages.
"""

from __future__ import annotations

import io
import itertools
import json
from collections import Counter
from math import comb
from pathlib import Path

import numpy as np
import pypdfium2
import pytest
from click.testing import CliRunner
from PIL import Image
from pypdf import PdfReader
from test_theme_support import write_theme

import printdeck
from printdeck.assign import different_face_bound, face_deck
from printdeck.cli import main as cli_main
from printdeck.design import make_design
from printdeck.model import SymbolSpec
from printdeck.theme import init_theme, load_theme
from printdeck.theme.word_list import WordListWarning, read_words

TIMES = [f"{a} × {b}" for a, b in ((1, 2), (1, 3), (2, 2), (1, 5), (2, 3), (1, 7), (2, 4))]
VALUES = ["2", "3", "4", "5", "6", "7", "8"]


def _written(folder: Path, data: dict) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    return write_theme(folder, data)


def _faces_theme(folder: Path, mode: str = "mixed", **extra: object) -> Path:
    data = {
        "name": "faces",
        "deck": {"symbols_per_card": 3, "faces": mode},
        "layout": {"rotation": 30},
        "symbols": [{"faces": [{"text": t}, {"text": v}]} for t, v in zip(TIMES, VALUES)],
        **extra,
    }
    return write_theme(folder, data)


def _concept_cards(manifest: dict) -> list[list[int]]:
    return [[p["id"] for p in card["symbols"]] for card in manifest["cards"]]


def _fraction(manifest: dict) -> float:
    """Share of (card pair, shared symbol) showing the symbol in different faces, by brute force."""
    cards = [{p["id"]: p["face"] for p in card["symbols"]} for card in manifest["cards"]]
    pairs = different = 0
    for a, b in itertools.combinations(cards, 2):
        for shared in set(a) & set(b):
            pairs += 1
            different += a[shared] != b[shared]
    return different / pairs


def test_mixed_deck_keeps_the_design_and_balances_faces(tmp_path: Path) -> None:
    result = printdeck.build(_faces_theme(tmp_path), out=tmp_path / "deck.pdf")
    manifest = json.loads(result.manifest_path.read_text(encoding="utf-8"))
    assert printdeck.verify_file(result.manifest_path)[1].ok  # every two cards share one concept
    assert all("face" in p for card in manifest["cards"] for p in card["symbols"])
    per_symbol: dict[int, Counter] = {}
    for card in manifest["cards"]:
        for p in card["symbols"]:
            per_symbol.setdefault(p["id"], Counter())[p["face"]] += 1
    assert all(max(c.values()) - min(c[f] for f in (0, 1)) <= 1 for c in per_symbol.values())
    reached = _fraction(manifest)
    # each symbol on 3 cards, faces 2 + 1: 2 of its 3 pairs differ, so 2/3 at best
    assert reached == pytest.approx(2 / 3)
    assert manifest["faces"] == {"mode": "mixed", "different_fraction": 0.6667, "different_bound": 0.6667}
    assert any("66.7% of the card pairs" in line for line in result.summary_lines())
    assert [f["source"] for f in manifest["symbols"][0]["faces"]][1].startswith("text:")


@pytest.mark.parametrize(("order", "expected"), [(5, 0.6), (7, 4 / 7), (4, 6 / 10), (3, 2 / 3)])
def test_different_face_fraction_reaches_the_derived_bound(order: int, expected: float) -> None:
    design = make_design(order=order)
    symbols = [
        SymbolSpec(
            id=p,
            name=str(p),
            kind="text",
            source=f"text:{p}",
            text=str(p),
            faces=(
                SymbolSpec(id=0, name=str(p), kind="text", source=f"text:{p}", text=str(p)),
                SymbolSpec(id=0, name=f"w{p}", kind="text", source=f"text:w{p}", text=f"w{p}"),
            ),
        )
        for p in range(design.n_points)
    ]
    faced = face_deck(design.blocks, symbols, "mixed", seed=3)
    q = order  # (q + 1) / (2q) for odd q, (q + 2) / (2(q + 1)) for even q
    assert expected == pytest.approx((q + 1) / (2 * q) if q % 2 else (q + 2) / (2 * (q + 1)))
    assert faced.different_bound == pytest.approx(expected)
    assert faced.different_fraction == pytest.approx(expected)
    assert different_face_bound(design.blocks, [2] * design.n_points) == pytest.approx(expected)
    faces_of = {}
    for card in faced.cards:
        for d in card:
            faces_of.setdefault(faced.drawing_faces[d.id][0], Counter())[faced.drawing_faces[d.id][1]] += 1
    assert all(abs(c[0] - c[1]) <= 1 for c in faces_of.values())
    # each card shows both faces, nearly evenly (no card all words)
    per_card = [Counter(faced.drawing_faces[d.id][1] for d in card) for card in faced.cards]
    assert all(abs(c[0] - c[1]) <= 2 for c in per_card)
    assert face_deck(design.blocks, symbols, "mixed", seed=3) == faced  # seeded, deterministic
    assert sum(comb(order + 1, 2) for _ in range(design.n_points)) == comb(len(design.blocks), 2)


def test_split_prints_two_decks_sharing_one_concept_across(tmp_path: Path) -> None:
    result = printdeck.build(_faces_theme(tmp_path, "split"), out=tmp_path / "split.pdf", rules=True)
    manifest = json.loads(result.manifest_path.read_text(encoding="utf-8"))
    a = [c for c in manifest["cards"] if c["deck"] == "A"]
    b = [c for c in manifest["cards"] if c["deck"] == "B"]
    assert len(a) == len(b) == 7
    assert {p["face"] for c in a for p in c["symbols"]} == {0}
    assert {p["face"] for c in b for p in c["symbols"]} == {1}
    for card_a in a:
        for card_b in b:
            shared = {p["id"] for p in card_a["symbols"]} & {p["id"] for p in card_b["symbols"]}
            assert len(shared) == (3 if card_b["twin"] == card_a["index"] else 1)
    for deck in (a, b):  # as the rules say: two cards of one deck share one symbol too
        for one, other in itertools.combinations(deck, 2):
            assert len({p["id"] for p in one["symbols"]} & {p["id"] for p in other["symbols"]}) == 1
    assert {c["page"] for c in a}.isdisjoint({c["page"] for c in b})  # deck B on sheets of its own
    assert printdeck.verify_file(result.manifest_path)[1].ok
    assert ": 2 decks (A and B) of 7 cards, 3 symbols a card" in result.summary_lines()[0]
    text = " ".join(page.extract_text() for page in PdfReader(result.pdf_path).pages)
    assert "Two decks: A and B" in text and "deck B" in text
    assert "Two players." in text  # the players share deck B's 7 cards, not 14
    assert 'deck B its second: "1 × 2" in deck A and "2" in deck B.' in " ".join(text.split())
    assert "Any two cards of this deck" not in text  # twins share every symbol: the rules say A against B
    assert "A card of deck A and a card of deck B (other than its twin) show exactly one symbol" in " ".join(
        text.split()
    )
    assert "its sheets say deck A)" in " ".join(text.split())  # no backs in this file: only the sheets tell
    # the games move heap cards (A) onto players' piles (B): the rules say what then holds, not "always A against B"
    assert "always play a card of A against" not in text
    assert "two cards of one deck may meet: they share exactly one symbol too" in " ".join(text.split())


def test_split_rules_say_the_backs_tell_deck_a_when_they_print(tmp_path: Path) -> None:
    """A split deck's backs differ (deck A's and B's titles and colours): the rules sheet
    of a file that prints them says so, as a teacher sorting a face-down pile needs."""
    result = printdeck.build(_faces_theme(tmp_path, "split"), out=tmp_path / "split.pdf", rules=True, backs=True)
    text = " ".join(" ".join(page.extract_text() for page in PdfReader(result.pdf_path).pages).split())
    assert "Deck A (its sheets say deck A, and its backs A, in a colour of their own) shows" in text
    (tmp_path / "dots").mkdir()
    dots = _faces_theme(tmp_path / "dots", "split", backs={"enabled": True, "pattern": "dots"})
    result = printdeck.build(dots, out=tmp_path / "dots.pdf", rules=True)  # no title on a back: no letter
    text = " ".join(" ".join(page.extract_text() for page in PdfReader(result.pdf_path).pages).split())
    assert "Deck A (its sheets say deck A, and its backs are in a colour of their own) shows" in text


def _back_colour(rgb: np.ndarray, centre: tuple[float, float], radius_px: float) -> tuple[int, ...]:
    """The commonest colour in a ring just inside a back's rim (its ground, not its title)."""
    h, w, _ = rgb.shape
    yy, xx = np.mgrid[0:h, 0:w]
    r = np.hypot(xx - centre[0], yy - centre[1])
    ring = rgb[(r > 0.88 * radius_px) & (r < 0.95 * radius_px)]
    colours, counts = np.unique(ring, axis=0, return_counts=True)
    return tuple(int(v) for v in colours[np.argmax(counts)])


def test_a_split_deck_prints_backs_that_tell_deck_a_from_deck_b(tmp_path: Path) -> None:
    """A split deck's two piles had one back: face down, a card of A could not be told from
    one of B. Deck A's backs are in the first class-set colour and B's in the second, each
    titled with its letter, in the PDF (rasterised here, every back page) and the back images."""
    from printdeck.render.backs import BackDeck, back_decks
    from printdeck.render.print_job import PrintJob
    from printdeck.theme import DECK_PALETTE

    result = printdeck.build(
        _faces_theme(tmp_path, "split", title="Times", backs={"enabled": True, "pattern": "title"}),
        out=tmp_path / "split.pdf",
        png_dir=tmp_path / "png",
        dpi=100,
    )
    manifest = json.loads(result.manifest_path.read_text(encoding="utf-8"))
    want = {deck: tuple(int(colour[i : i + 2], 16) for i in (1, 3, 5)) for deck, colour in zip("AB", DECK_PALETTE)}
    pdf = pypdfium2.PdfDocument(str(result.pdf_path))
    try:
        for card in manifest["cards"]:  # each card's back: on the page after its front, mirrored (long edge)
            page = pdf[card["page"]]  # 0-based: the page after the front's (1-based) number
            width_pt, height_pt = page.get_size()
            rgb = np.asarray(page.render(scale=50 / 72).to_pil().convert("RGB")).astype(int)
            x_mm, y_mm = card["center_mm"]
            centre = ((width_pt / 72 * 25.4 - x_mm) * 50 / 25.4, (height_pt / 72 * 25.4 - y_mm) * 50 / 25.4)
            radius_px = manifest["card"]["diameter_mm"] / 2 * 50 / 25.4
            got = _back_colour(rgb, centre, radius_px)
            assert max(abs(a - b) for a, b in zip(got, want[card["deck"]])) <= 8, (card["index"], got)
    finally:
        pdf.close()
    assert sorted(p.name for p in result.back_paths) == ["back-A.png", "back-B.png"]
    assert "the backs as back-A.png and back-B.png" in result.summary_lines()[0]
    for path in result.back_paths:
        rgb = np.asarray(Image.open(path).convert("RGB")).astype(int)
        h, w, _ = rgb.shape
        got = _back_colour(rgb, (w / 2, h / 2), manifest["card"]["diameter_mm"] / 2 * 100 / 25.4)
        assert max(abs(a - b) for a, b in zip(got, want[path.stem[-1]])) <= 8, (path.name, got)
    plan = printdeck.plan(load_theme(tmp_path / "theme.yaml"))  # the studio's preview: one sheet's cards drawn
    layouts = printdeck.lay_out(plan)
    for page in range(1, plan.pages + 1):
        rgb = np.asarray(Image.open(io.BytesIO(printdeck.preview_page(plan, layouts, page, ppi=50, side="back"))))
        for card in (c for c in manifest["cards"] if c["page"] == 2 * page - 1):
            x_mm, y_mm = card["center_mm"]
            h, w, _ = rgb.shape
            centre = (w - x_mm * 50 / 25.4, h - y_mm * 50 / 25.4)
            got = _back_colour(rgb[..., :3].astype(int), centre, manifest["card"]["diameter_mm"] / 2 * 50 / 25.4)
            assert max(abs(a - b) for a, b in zip(got, want[card["deck"]])) <= 8, ("preview", card["index"], got)
    reader = PdfReader(result.pdf_path)
    for card in manifest["cards"]:  # the back's title names the deck
        assert set(reader.pages[card["page"]].extract_text().split()) == {"Times", card["deck"]}, card["index"]
    (tmp_path / "one").mkdir()
    one = printdeck.build(_faces_theme(tmp_path / "one", backs={"enabled": True}), out=tmp_path / "one.pdf")
    job = PrintJob.from_theme(load_theme(tmp_path / "one" / "theme.yaml"))
    assert back_decks(job, []) == [BackDeck(0)] and one.back_paths == []  # a mixed deck: its one back


def test_a_split_deck_on_shared_cuts_fills_each_backs_bleed_in_its_deck_colour(tmp_path: Path) -> None:
    """Square cards sharing cut lines fill the block's bleed before the backs are drawn: deck
    B's bleed was the theme's back colour (deck A's navy) round amber backs, so a cut a
    little off showed a navy edge on a card of B."""
    from printdeck.theme import DECK_PALETTE

    theme = _faces_theme(
        tmp_path,
        "split",
        card={"shape": "square", "size": "60mm", "bleed": "3mm"},
        paper={"cuts": "shared"},
        backs={"enabled": True},
    )
    result = printdeck.build(theme, out=tmp_path / "split.pdf")
    manifest = json.loads(result.manifest_path.read_text(encoding="utf-8"))
    card = next(c for c in manifest["cards"] if c["deck"] == "B")
    amber = tuple(int(DECK_PALETTE[1][i : i + 2], 16) for i in (1, 3, 5))
    pdf = pypdfium2.PdfDocument(str(result.pdf_path))
    try:
        page = pdf[card["page"]]  # its back page
        width_pt, height_pt = page.get_size()
        rgb = np.asarray(page.render(scale=100 / 72).to_pil().convert("RGB")).astype(int)
    finally:
        pdf.close()
    width_mm, height_mm = width_pt / 72 * 25.4, height_pt / 72 * 25.4

    def back_pixel(x_mm: float, y_mm: float) -> np.ndarray:  # a front's page point, on its back (x mirrored)
        return rgb[round((height_mm - y_mm) * 100 / 25.4), round((width_mm - x_mm) * 100 / 25.4)]

    block = [c for c in manifest["cards"] if c["page"] == card["page"]]
    top = max(block, key=lambda c: c["center_mm"][1])["center_mm"]  # a card of the block's top row
    for dx_mm in (-20.0, 0.0, 20.0):  # 1.5 mm into the bleed above its cut, 30 mm above its centre
        pixel = back_pixel(top[0] + dx_mm, top[1] + 30.0 + 1.5)
        assert max(abs(a - b) for a, b in zip(pixel, amber)) <= 8, (dx_mm, pixel)


def test_a_split_deck_gets_a_tuck_box_for_each_deck_as_its_backs(tmp_path: Path) -> None:
    """A split deck's one tuck box held both decks, in the theme's back colour without a
    letter, while its backs are deck A's and B's colours with their letters: each deck now
    gets its box, sized for its own cards, in its backs' colour and letter."""
    from printdeck.theme import DECK_PALETTE

    result = printdeck.build(_faces_theme(tmp_path, "split", title="Times"), out=tmp_path / "s.pdf", tuck_box=True)
    reader = PdfReader(result.pdf_path)
    boxes = [k for k, page in enumerate(reader.pages) if "Tuck box for" in page.extract_text()]
    assert len(boxes) == 2, [p.extract_text()[:40] for p in reader.pages]
    pdf = pypdfium2.PdfDocument(str(result.pdf_path))
    try:
        for k, (letter, colour) in zip(boxes, zip("AB", DECK_PALETTE)):
            assert letter in reader.pages[k].extract_text().split()
            rgb = np.asarray(pdf[k].render(scale=30 / 72).to_pil().convert("RGB")).reshape(-1, 3).astype(int)
            inked = rgb[(rgb < 245).any(axis=1)]
            colours, counts = np.unique(inked, axis=0, return_counts=True)
            want = [int(colour[i : i + 2], 16) for i in (1, 3, 5)]
            assert max(abs(a - b) for a, b in zip(colours[np.argmax(counts)], want)) <= 8, (
                letter,
                colours[np.argmax(counts)],
            )
    finally:
        pdf.close()


def test_rules_say_a_match_may_look_different_and_legend_shows_faces(tmp_path: Path) -> None:
    result = printdeck.build(_faces_theme(tmp_path), out=tmp_path / "deck.pdf", rules=True, legend=True)
    reader = PdfReader(result.pdf_path)
    texts = [page.extract_text() for page in reader.pages]
    assert any("One symbol, several faces" in t and "look different" in t for t in texts)
    example = 'share it: "1 × 2" on one card and "2" on the other. They still match.'  # the deck's own
    assert any(example in " ".join(t.split()) for t in texts), texts
    legend = next(i for i, t in enumerate(texts) if "symbol legend (7 symbols)" in t)
    assert "1 × 2 = 2" in texts[legend]  # the concept's name under its faces
    content = reader.pages[legend].get_contents().get_data().decode("latin-1")
    assert content.count(" Do") == 14  # every face of every symbol drawn in the legend


def test_symbol_level_keys_and_folders_are_refused_for_faces(tmp_path: Path) -> None:
    bad = _faces_theme(tmp_path)
    data = {"deck": {"symbols_per_card": 3}, "symbols": [{"faces": [{"text": "a"}, {"text": "b"}], "scale": 2}]}
    data["symbols"] += [{"text": w} for w in "cdefgh"]
    with pytest.raises(printdeck.PrintdeckError, match=r"symbols\.0\.scale: give it to one face"):
        load_theme(_written(tmp_path / "s", data))
    data["symbols"][0] = {"faces": [{"folder": "."}, {"text": "b"}]}
    with pytest.raises(printdeck.PrintdeckError, match=r"symbols\.0\.faces\.0\.folder"):
        load_theme(_written(tmp_path / "f", data))
    data["symbols"][0] = {"faces": [{"text": "a"}, {"text": "c"}]}
    with pytest.raises(printdeck.PrintdeckError, match=r"'c' is already symbols\.0\.faces\.1"):
        load_theme(_written(tmp_path / "d", data))
    three = {"deck": {"symbols_per_card": 3, "faces": "split"}, "symbols": [{"text": w} for w in "abcdef"]}
    three["symbols"].append({"faces": [{"text": "x"}, {"text": "y"}, {"text": "z"}]})
    with pytest.raises(printdeck.PrintdeckError, match=r"deck\.faces: split prints face 1"):
        printdeck.build(_written(tmp_path / "t", three), out=tmp_path / "t.pdf")
    assert bad.is_file()


@pytest.mark.parametrize(
    "dog",
    [
        {"image": "@assets/twemoji/dog.svg"},
        {"faces": [{"image": "@assets/twemoji/dog.svg"}, {"text": "perro"}]},
        {"text": "Dog"},
    ],
    ids=["picture", "picture with a word", "word"],
)
def test_a_face_named_as_another_symbol_is_refused(tmp_path: Path, dog: dict[str, object]) -> None:
    """A picture of a dog beside a symbol whose faces are "dog" and "chien" passed: one
    concept printed as two symbols, and a card showed the picture beside "chien". A face's
    name now counts as its symbol's, with the fix of one symbol of all their faces."""
    data = {"deck": {"symbols_per_card": 3}, "symbols": [dog, {"faces": [{"text": "dog"}, {"text": "chien"}]}]}
    data["symbols"] += [{"text": w} for w in "abcde"]
    with pytest.raises(printdeck.PrintdeckError) as refused:
        load_theme(_written(tmp_path, data))
    said = str(refused.value)
    assert "symbols.1.faces.0" in said and "is already symbols.0" in said, said
    if "text" not in dog:  # a word said twice is refused by the words' own check, "list each word once"
        assert "make symbols.0 and symbols.1 one symbol, with all their faces in one faces: list" in said, said


def test_pictures_named_after_their_files_are_not_concepts_named_twice(tmp_path: Path) -> None:
    """Two class photos, kids/IMG_0001.jpg with "Ana" and pets/IMG_0001.jpg with "Rex", were
    refused as one name twice: a picture's name from its file is never printed, only the
    words are. A picture face given a name of its own still counts."""
    for folder, colour in (("kids", (200, 60, 60)), ("pets", (60, 60, 200))):
        (tmp_path / folder).mkdir()
        Image.new("RGB", (400, 400), colour).save(tmp_path / folder / "IMG_0001.jpg")
    photos = [
        {"faces": [{"photo": "kids/IMG_0001.jpg"}, {"text": "Ana"}]},
        {"faces": [{"photo": "pets/IMG_0001.jpg"}, {"text": "Rex"}]},
    ]
    data = {"deck": {"symbols_per_card": 3}, "symbols": [*photos, *({"text": w} for w in "abcde")]}
    assert len(load_theme(_written(tmp_path, data)).symbols) == 7
    photos[1]["faces"][0]["name"] = "Ana"  # a name of its own, the other symbol's word
    with pytest.raises(printdeck.PrintdeckError, match=r"symbols\.1\.faces\.0: the name 'Ana'"):
        load_theme(_written(tmp_path, data))


def test_a_picture_and_its_word_as_faces_of_one_symbol_pass(tmp_path: Path) -> None:
    data = {
        "deck": {"symbols_per_card": 3},
        "symbols": [{"faces": [{"image": "@assets/twemoji/dog.svg"}, {"text": "dog"}]}],
    }
    data["symbols"] += [{"text": w} for w in "abcdef"]
    assert load_theme(_written(tmp_path, data)).symbols[0].name == "dog"


def _twemoji_folder(folder: Path, *names: str) -> Path:
    """A folder of the bundled Twemoji pictures ``names`` (``cat.svg``...)."""
    twemoji = Path(printdeck.__file__).resolve().parent.parent / "assets" / "twemoji"
    folder.mkdir()
    for name in names:
        (folder / f"{name}.svg").write_bytes((twemoji / f"{name}.svg").read_bytes())
    return folder


def test_init_words_with_translations_and_pictures_by_name(tmp_path: Path) -> None:
    pictures = _twemoji_folder(tmp_path / "pictures", "cat", "dog", "cow", "owl")
    words = tmp_path / "words.txt"
    words.write_text("cat = gato\ndog\tperro\nsun = sol\nmoon\tluna\nhouse\nCow.svg = vaca\n", encoding="utf-8")
    with pytest.warns(WordListWarning, match=r"1 picture \(owl\.svg\) with no word line and 3 word lines"):
        init_theme(tmp_path / "both", images=pictures, words=words)  # owl, sun, moon, house: symbols alone
    theme = load_theme(tmp_path / "both")
    by_name = {s.name: s for s in theme.symbols}
    assert [f.kind for f in by_name["cat"].faces] == ["svg", "text"] and by_name["cat"].faces[1].text == "gato"
    assert [f.text for f in by_name["cow"].faces] == [None, "vaca"]  # paired by its file's name too
    assert by_name["dog"].faces[1].text == "perro" and not by_name["owl"].faces
    assert [f.text for f in by_name["sun = sol"].faces] == ["sun", "sol"] and by_name["house"].text == "house"
    assert len(theme.symbols) == 7
    for bad in ("cat = gato = gata", "cat =", "= gato", "cat=", "dog =perro"):  # a side left empty or half split
        words.write_text(f"owl\n{bad}\n", encoding="utf-8")
        refused = CliRunner().invoke(cli_main, ["init", str(tmp_path / "bad"), "--words", str(words)])
        assert refused.exit_code == 2 and "line 2: give one word, or a word and its translation" in refused.output
        assert not (tmp_path / "bad").exists()
    words.write_text("owl\n3 × 4 = 12\ttwelve\n", encoding="utf-8")  # a tab splits the line: '=' is the word's
    assert [row.words for row in read_words(words)] == [("owl",), ("3 × 4 = 12", "twelve")]
    words.write_text("A = a\nB\tb\n", encoding="utf-8")  # the upper and lower case match, one line each
    assert [row.words for row in read_words(words)] == [("A", "a"), ("B", "b")]
    words.write_text("A = A\n", encoding="utf-8")  # the same in both columns: one word (a cognate)
    assert [row.words for row in read_words(words)] == [("A",)]
    for twice in ("A = a\nb = a\n", "A\na\n"):
        words.write_text(twice, encoding="utf-8")
        with pytest.raises(printdeck.PrintdeckError, match="list each word once"):
            read_words(words)
    words.write_text("cat = gato\napple.png = manzana\n", encoding="utf-8")  # no apple.png among the pictures
    refused = CliRunner().invoke(
        cli_main, ["init", str(tmp_path / "typo"), "--images", str(pictures), "--words", str(words)]
    )
    assert (
        refused.exit_code == 2
        and "--words: line 2: 'apple.png' names no picture of the images folder" in refused.output
    )
    assert not (tmp_path / "typo").exists()


def test_init_warns_about_a_word_spelt_nearly_as_a_lone_picture(tmp_path: Path) -> None:
    """``rabit = conejo`` beside rabbit.svg made a word-only symbol and a lone picture, and
    said nothing: init now warns about the likely typo (the theme is still written)."""
    pictures = _twemoji_folder(tmp_path / "pictures", "cat", "dog", "rabbit", "owl")
    words = tmp_path / "words.txt"
    words.write_text(
        "cat = gato\ndog = perro\nrabit = conejo\nsun = sol\nmoon = luna\nstar = estrella\n", encoding="utf-8"
    )
    made = CliRunner().invoke(
        cli_main, ["init", str(tmp_path / "deck"), "--images", str(pictures), "--words", str(words)]
    )
    assert made.exit_code == 0, made.output
    warned = [line for line in made.output.splitlines() if line.startswith("printdeck: warning:")]
    assert warned == [
        f"printdeck: warning: {words}: line 3: 'rabit' names no picture, and rabbit.svg has no word: a typo? "
        "They print as two symbols; write the picture's name ('rabbit') to make them one",
        f"printdeck: warning: {words}: 1 picture (owl.svg) with no word line and 3 word lines (line 4: "
        "'sun = sol', line 5: 'moon = luna', line 6: 'star = estrella') naming no picture: each prints as a "
        "symbol of its own; to pair a picture and a word, start the word's line with the picture's name (owl = ...)",
    ]
    assert (tmp_path / "deck" / "theme.yaml").is_file()


def test_init_says_which_pictures_and_word_lines_found_no_partner(tmp_path: Path) -> None:
    """bee.svg without a word line and ``sun = soleil`` without a picture were printed as
    symbols of their own without a word, beside pictures paired with their words; when
    nothing pairs (a deck of pictures and words) there is nothing to say."""
    pictures = _twemoji_folder(tmp_path / "pictures", "cat", "dog", "bee", "owl")
    words = tmp_path / "words.txt"
    lines = ["cat = chat", "dog = chien", "owl = hibou", "sun = soleil", "moon", "l'eau = water", "fish"]
    words.write_text("\n".join(lines) + "\n", encoding="utf-8")
    given = ["--images", str(pictures), "--words", str(words)]
    made = CliRunner().invoke(cli_main, ["init", str(tmp_path / "deck"), *given])
    warned = [line for line in made.output.splitlines() if line.startswith("printdeck: warning:")]
    assert made.exit_code == 0 and len(warned) == 1, made.output
    assert "1 picture (bee.svg) with no word line and 4 word lines (line 4: 'sun = soleil'" in warned[0]
    assert "line 6: 'l'eau = water'" in warned[0]  # one kind of quote, whatever the line holds
    words.write_text("sun\nmoon\nstar\nfish\n", encoding="utf-8")  # no pair meant
    made = CliRunner().invoke(cli_main, ["init", str(tmp_path / "deck2"), *given])
    assert made.exit_code == 0 and "warning" not in made.output, made.output


@pytest.mark.parametrize("name", ["vocabulary", "times-tables"])
def test_bundled_concept_themes_build(tmp_path: Path, name: str) -> None:
    result = printdeck.build(name, out=tmp_path / f"{name}.pdf", legend=True)
    manifest = json.loads(result.manifest_path.read_text(encoding="utf-8"))
    assert printdeck.verify_file(result.manifest_path)[1].ok
    assert all(len(s["faces"]) == 2 for s in manifest["symbols"])
    assert _fraction(manifest) == pytest.approx(0.6) == manifest["faces"]["different_fraction"]
    assert len(_concept_cards(manifest)) == 31


@pytest.mark.parametrize("mode", ["mixed", "split"])
def test_a_match_two_deck_with_faces_shares_two_concepts(tmp_path: Path, mode: str) -> None:
    data = {
        "name": "double-faces",
        "deck": {"symbols_per_card": 4, "match": 2, "faces": mode},
        "layout": {"rotation": 30},
        "symbols": [{"faces": [{"text": t}, {"text": v}]} for t, v in zip(TIMES, VALUES)],
    }
    result = printdeck.build(_written(tmp_path, data), out=tmp_path / "double.pdf")
    manifest = json.loads(result.manifest_path.read_text(encoding="utf-8"))
    assert printdeck.verify_file(result.manifest_path)[1].ok  # every two cards (of a deck) share two
    cards = manifest["cards"]
    for a, b in itertools.combinations(cards, 2):
        shared = {p["id"] for p in a["symbols"]} & {p["id"] for p in b["symbols"]}
        twins = mode == "split" and a.get("twin") == b["index"]
        assert len(shared) == (4 if twins else 2)
    if mode == "mixed":  # each symbol on 4 cards, faces 2 + 2: 4 of its 6 pairs differ
        assert _fraction(manifest) == pytest.approx(4 / 6)
        assert manifest["faces"]["different_bound"] == manifest["faces"]["different_fraction"] == 0.6667


def test_a_class_set_of_a_faces_deck_builds_each_deck_alike(tmp_path: Path) -> None:
    # faces + copies crashed writing the manifest (IndexError: a class-set card's index
    # ran past the faced deck's cards)
    result = printdeck.build(_faces_theme(tmp_path), out=tmp_path / "deck.pdf", copies=2)
    manifest = json.loads(result.manifest_path.read_text(encoding="utf-8"))
    assert printdeck.verify_file(result.manifest_path)[1].ok
    decks = {d: [c for c in manifest["cards"] if c["deck"] == d] for d in (1, 2)}
    assert [c["index"] for c in decks[1]] == [c["index"] for c in decks[2]] == list(range(7))
    faces = {d: [sorted((p["id"], p["face"]) for p in c["symbols"]) for c in cs] for d, cs in decks.items()}
    assert faces[1] == faces[2]  # the same cards, with the same faces, in every deck


def test_a_class_set_of_a_split_deck_is_refused_as_the_user_asked_for_it(tmp_path: Path) -> None:
    """``--copies`` is named as the option typed, ``deck.copies`` as the theme's key."""
    theme = _faces_theme(tmp_path, "split")
    refused = CliRunner().invoke(cli_main, ["build", str(theme), "-o", str(tmp_path / "d.pdf"), "--copies", "3"])
    assert refused.exit_code == 2
    problem = (
        "a class set of a split deck (deck.faces: split) is not supported; build one deck, or set deck.faces: mixed"
    )
    assert refused.output.strip() == f"printdeck: error: --copies: {problem}"
    (tmp_path / "copies").mkdir()
    in_theme = _faces_theme(tmp_path / "copies", "split", deck={"symbols_per_card": 3, "faces": "split", "copies": 2})
    refused = CliRunner().invoke(cli_main, ["build", str(in_theme), "-o", str(tmp_path / "d.pdf")])
    assert refused.exit_code == 2
    assert refused.output.strip().endswith(f"theme.yaml: deck.copies: {problem}")
    assert not (tmp_path / "d.pdf").exists()


WIDE_TIMES = ["2 × 5", "3 × 4", "2 × 7", "3 × 5", "4 × 4", "2 × 9", "4 × 5"]
WIDE_VALUES = ["10", "12", "14", "15", "16", "18", "20"]


def test_legend_keeps_a_symbols_faces_apart(tmp_path: Path) -> None:
    """Rasterised: in a legend cell the two faces' ink is at least 3 mm apart (the rule
    between them is grey, not counted), wider than any space inside a face, so "2 × 5" and
    "10" do not read as "2 × 510" (they were 1.1 mm apart, closer than the spaces inside
    "2 × 5")."""
    data = {
        "name": "wide",
        "deck": {"symbols_per_card": 3},
        "text": {"colors": ["#000000"]},
        "symbols": [{"faces": [{"text": t}, {"text": v}]} for t, v in zip(WIDE_TIMES, WIDE_VALUES)],
    }
    result = printdeck.build(write_theme(tmp_path, data), out=tmp_path / "deck.pdf", legend=True)
    px_per_mm = 8.0
    document = pypdfium2.PdfDocument(str(result.pdf_path))
    page = document[len(document) - 1].render(scale=px_per_mm * 25.4 / 72).to_pil().convert("L")
    ink = np.asarray(page) < 100  # black words; the grey rule between faces and the frame are lighter
    art_band = ink[round(28 * px_per_mm) : round(42 * px_per_mm)]  # the first row's faces (A4, a one-line heading)
    inked = art_band[:, round(27 * px_per_mm) : round(55 * px_per_mm)].any(axis=0)  # the first cell, frame inside
    columns = inked.nonzero()[0]
    assert columns.size and (columns[-1] - columns[0]) / px_per_mm > 15.0  # both faces
    blank = ~inked[columns[0] : columns[-1]]
    runs = np.diff(np.flatnonzero(np.diff(np.concatenate(([0], blank.astype(int), [0])))))[::2]
    gaps = sorted(runs / px_per_mm)
    assert len(gaps) >= 2 and gaps[-1] >= 3.0 and gaps[-1] > gaps[-2] + 0.5, gaps  # wider than "2 × 5"'s spaces


def test_legend_sets_eight_faces_in_two_rows_big_enough_to_read(tmp_path: Path) -> None:
    """Rasterised: a symbol of 8 faces (the most a theme gives) fills two rows of its cell,
    each row's ink spanning most of the cell; in one row the boxes were -0.25 mm (faces
    drawn upside down, as dots)."""
    words = ["one", "two", "three", "four", "five", "six", "seven"]
    data = {
        "name": "eight",
        "deck": {"symbols_per_card": 3},
        "text": {"colors": ["#000000"]},
        "symbols": [{"faces": [{"text": f"{w}{k}"} for k in range(8)]} for w in words],
    }
    result = printdeck.build(write_theme(tmp_path, data), out=tmp_path / "deck.pdf", legend=True)
    px_per_mm = 8.0
    document = pypdfium2.PdfDocument(str(result.pdf_path))
    page = document[len(document) - 1].render(scale=px_per_mm * 25.4 / 72).to_pil().convert("L")
    ink = np.asarray(page) < 100
    cell = ink[:, round(27 * px_per_mm) : round(55 * px_per_mm)]  # the first cell's art, 28 mm wide
    for top_mm, bottom_mm in ((28.0, 34.5), (35.5, 42.0)):  # its two rows (A4, a one-line heading)
        columns = cell[round(top_mm * px_per_mm) : round(bottom_mm * px_per_mm)].any(axis=0).nonzero()[0]
        assert columns.size and (columns[-1] - columns[0]) / px_per_mm > 18.0


def test_faces_of_one_symbol_may_differ_in_case_only(tmp_path: Path) -> None:
    """The upper and lower case match ("A" and "a") was refused as one word listed twice."""
    letters = "ABCDEFGHJK"
    theme = printdeck.load_theme(
        {"deck": {"symbols_per_card": 3}, "symbols": [{"faces": [{"text": c}, {"text": c.lower()}]} for c in letters]}
    )
    assert [[f.text for f in s.all_faces] for s in theme.symbols][:2] == [["A", "a"], ["B", "b"]]
    twice = {"deck": {"symbols_per_card": 3}, "symbols": [{"faces": [{"text": "A"}, {"text": "A"}]}]}
    with pytest.raises(
        printdeck.PrintdeckError, match=r"symbols\.0\.faces\.1\.text: 'A' is already symbols\.0\.faces\.0"
    ):
        printdeck.load_theme(twice)
    other_symbol = {
        "deck": {"symbols_per_card": 3},
        "symbols": [{"faces": [{"text": "A"}, {"text": "a"}]}, {"text": "a"}],
    }
    with pytest.raises(printdeck.PrintdeckError, match=r"symbols\.1\.text: 'a' is already symbols\.0"):
        printdeck.load_theme(other_symbol)  # players would call both "a"


def test_the_faces_a_repeated_face_word_suggests_load_and_a_split_deck_gets_none(tmp_path: Path) -> None:
    """'12' as a face of '2 × 6' and of '3 × 4': the refusal offers to make the two symbols
    one with all their faces (naming both, dropping none of their faces); a split deck (two
    faces a symbol) is not offered it."""
    twice = [{"faces": [{"text": "2 × 6"}, {"text": "12"}]}, {"faces": [{"text": "3 × 4"}, {"text": "12"}]}]
    with pytest.raises(printdeck.PrintdeckError) as refused:
        printdeck.load_theme({"deck": {"symbols_per_card": 3}, "symbols": twice})
    assert "or make symbols.0 and symbols.1 one symbol, with all their faces in one faces: list" in str(refused.value)
    with pytest.raises(printdeck.PrintdeckError) as split:
        printdeck.load_theme({"deck": {"symbols_per_card": 3, "faces": "split"}, "symbols": twice})
    assert str(split.value).endswith("list each word once")


def test_a_picture_joined_to_its_words_is_named_once_in_the_deck_and_the_studio(tmp_path: Path) -> None:
    """A teacher dropped cat.svg on the studio's 'cat = gato' tile: the symbol became 'cat =
    cat = gato' on the tile and in the legend. A face's name said twice is said once."""
    from printdeck.studio.symbol_list import Item, item_view

    (tmp_path / "cat.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle cx="5" cy="5" r="4" fill="#b03"/></svg>'
    )
    entry = {"faces": [{"image": "cat.svg"}, {"text": "cat"}, {"text": "gato"}]}
    others = [{"text": w} for w in ("sol", "luna", "mar", "pan", "flor", "rio")]
    theme = printdeck.load_theme(
        {"name": "t", "deck": {"symbols_per_card": 3}, "symbols": [entry, *others]}, base_dir=tmp_path
    )
    assert theme.symbols[0].name == "cat = gato"
    assert item_view(Item(entry, group=False), None)["name"] == "cat = gato"
    cased = printdeck.load_theme(
        {"name": "t", "deck": {"symbols_per_card": 3}, "symbols": [{"faces": [{"text": "A"}, {"text": "a"}]}, *others]},
        base_dir=tmp_path,
    )
    assert cased.symbols[0].name == "A = a"  # a letters deck's two cases are two names
    (tmp_path / "Cat.svg").write_text((tmp_path / "cat.svg").read_text())
    capital = {"faces": [{"image": "Cat.svg"}, {"text": "cat"}, {"text": " gato"}]}
    spelt = printdeck.load_theme(
        {"name": "t", "deck": {"symbols_per_card": 3}, "symbols": [capital, *others]}, base_dir=tmp_path
    )
    assert spelt.symbols[0].name == "cat = gato"  # the word spells the picture's name: said once, as typed
    assert item_view(Item(capital, group=False), None)["name"] == "cat = gato"
