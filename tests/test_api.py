"""The public library API: ``printdeck.load_theme/build/make_design/verify/plan/lay_out/preview_page``."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pypdfium2
import pytest
import yaml
from PIL import Image

import printdeck

REPO = Path(__file__).resolve().parent.parent
WORDS_YAML = """\
name: seven-words
seed: 3
deck:
  symbols_per_card: 3
card:
  diameter: 60mm
symbols:
  - text: one
  - text: two
  - text: three
  - text: four
  - text: five
  - text: six
  - text: seven
"""


def _words_dict() -> dict:
    return {
        "name": "seven-words",
        "seed": 3,
        "deck": {"symbols_per_card": 3},
        "card": {"diameter": "60mm"},
        "symbols": [{"text": w} for w in ("one", "two", "three", "four", "five", "six", "seven")],
    }


def test_every_public_name_resolves() -> None:
    for name in printdeck.__all__:
        assert getattr(printdeck, name) is not None, name
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        _ = printdeck.nope  # type: ignore[attr-defined]


def test_importing_printdeck_loads_no_heavy_library() -> None:
    heavy = "('reportlab', 'shapely', 'scipy', 'cv2')"
    code = f"import sys, printdeck; print(sorted(m for m in {heavy} if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_load_theme_from_path_text_and_mapping_agree(tmp_path: Path) -> None:
    path = tmp_path / "words.yaml"
    path.write_text(WORDS_YAML, encoding="utf-8")
    from_file = printdeck.load_theme(path)
    from_text = printdeck.load_theme(WORDS_YAML, base_dir=tmp_path)
    from_dict = printdeck.load_theme(_words_dict(), base_dir=tmp_path)
    assert from_file.spec == from_text.spec == from_dict.spec
    assert [s.name for s in from_dict.symbols] == ["one", "two", "three", "four", "five", "six", "seven"]
    assert from_dict.path is None and from_file.path == path
    assert printdeck.load_theme(from_dict) is from_dict


def test_mapping_theme_resolves_files_against_base_dir(tmp_path: Path) -> None:
    art = REPO / "assets" / "twemoji"
    for name in ("apple", "cat", "dog", "bee", "owl", "pig", "cow"):
        (tmp_path / f"{name}.svg").write_bytes((art / f"{name}.svg").read_bytes())
    theme = printdeck.load_theme({"deck": {"symbols_per_card": 3}, "symbols": [{"image": "."}]}, base_dir=tmp_path)
    assert sorted(s.name for s in theme.symbols) == ["apple", "bee", "cat", "cow", "dog", "owl", "pig"]
    assert all(s.path is not None and s.path.parent == tmp_path.resolve() for s in theme.symbols)


@pytest.mark.parametrize(
    ("source", "starts"),
    [
        ({"deck": {"symbols_per_card": "eight"}}, "<theme>: deck.symbols_per_card"),
        ("deck:\n  bogus: 1\n", "<YAML text>: deck: unknown key 'bogus'"),
        ("deck: [\n", "<YAML text>"),
        ({"symbols": [{"image": "missing.png"}]}, "<theme>: "),
    ],
)
def test_bad_theme_data_is_one_line_naming_the_key(tmp_path: Path, source: object, starts: str) -> None:
    with pytest.raises(printdeck.PrintdeckError) as info:
        printdeck.load_theme(source, base_dir=tmp_path)  # type: ignore[arg-type]
    message = str(info.value)
    assert message.startswith(starts) and "\n" not in message


def test_base_dir_must_be_a_folder(tmp_path: Path) -> None:
    with pytest.raises(printdeck.PrintdeckError, match=r"base_dir .*not a folder"):
        printdeck.load_theme(_words_dict(), base_dir=tmp_path / "nope")


def test_symbols_too_few_for_a_deck_load_and_compare_but_make_no_deck(tmp_path: Path) -> None:
    """``load_symbols`` loads a theme whose symbols are too few for any deck (what the studio
    compares while pictures are dropped); every call that makes a deck refuses it, in the
    words ``load_theme`` uses; with enough symbols it is ``load_theme``'s theme."""
    few = {"symbols": [{"text": "coca"}, {"text": "\u0441\u043e\u0441\u0430"}]}
    with pytest.raises(printdeck.PrintdeckError) as refused:
        printdeck.load_theme(few)
    theme = printdeck.load_symbols(few)
    assert (len(theme.symbols), theme.sized) == (2, False)
    assert [p.reason() for p in printdeck.look_alikes(few)] == [
        "'coca' and '\u0441\u043e\u0441\u0430' look alike: they spell the same to the eye"
    ]
    for make_a_deck in (printdeck.load_theme, printdeck.plan, printdeck.check_theme, printdeck.make):
        with pytest.raises(printdeck.PrintdeckError) as again:
            make_a_deck(theme)
        assert str(again.value) == str(refused.value)
    with pytest.raises(printdeck.PrintdeckError, match="add 5 more"):
        printdeck.build(theme, tmp_path / "deck.pdf")
    assert not (tmp_path / "deck.pdf").exists()
    enough = {"symbols": [{"text": w} for w in ("sun", "moon", "star", "tree", "fish", "bird", "boat")]}
    assert printdeck.load_symbols(enough) == printdeck.load_theme(enough)
    with pytest.raises(printdeck.PrintdeckError, match=r"card\.diameter"):  # only the deck's size is let through
        printdeck.load_symbols({**few, "card": {"diameter": "big"}})


def test_build_from_mapping_gives_the_bytes_of_the_file(tmp_path: Path) -> None:
    path = tmp_path / "words.yaml"
    path.write_text(WORDS_YAML, encoding="utf-8")
    a = printdeck.build(path, out=tmp_path / "a.pdf")
    b = printdeck.build(_words_dict(), out=str(tmp_path / "b.pdf"))
    assert a.pdf_path.read_bytes() == b.pdf_path.read_bytes()
    assert (a.cards, a.symbols_per_card) == (7, 3)
    manifest = json.loads(b.manifest_path.read_text(encoding="utf-8"))
    cards = [{s["id"] for s in card["symbols"]} for card in manifest["cards"]]
    assert all(len(x & y) == 1 for i, x in enumerate(cards) for y in cards[i + 1 :])


def test_build_options_override_the_theme(tmp_path: Path) -> None:
    result = printdeck.build(_words_dict(), out=tmp_path / "s.pdf", single=True, backs=True, seed=9)
    manifest = json.loads(result.manifest_path.read_text(encoding="utf-8"))
    assert manifest["seed"] == 9 and manifest["paper"]["layout"] == "single" and manifest["paper"]["backs"]
    assert result.pages == 14  # 7 fronts, 7 backs


def test_make_design_and_verify() -> None:
    design = printdeck.make_design(symbols_per_card=8, cards=55)
    assert isinstance(design, printdeck.Design) and len(design.blocks) == 55
    assert printdeck.verify(design).ok
    assert printdeck.verify([[0, 1, 2], [0, 3, 4], [1, 3, 5]]).ok
    broken = printdeck.verify([[0, 1, 2], [0, 1, 3]])
    assert not broken.ok
    biplane = printdeck.make_design(symbols_per_card=4, match=2)
    assert printdeck.verify(biplane).ok and not printdeck.verify(biplane.blocks, lam=1).ok
    with pytest.raises(ValueError, match="lam"):
        printdeck.verify(design, lam=0)


def test_make_design_refuses_a_size_with_no_plane() -> None:
    with pytest.raises(printdeck.PrintdeckError) as info:
        printdeck.make_design(symbols_per_card=7)
    assert "\n" not in str(info.value) and "6" in str(info.value)


def test_preview_page_is_the_printed_page(tmp_path: Path) -> None:
    """The preview's pixels are the PDF's page 1, rasterised by the same PDFium."""
    result = printdeck.build(_words_dict(), out=tmp_path / "deck.pdf")
    deck = printdeck.plan(_words_dict())
    layouts = printdeck.lay_out(deck)
    assert deck.pages == 1 and len(layouts) == 7
    preview = np.asarray(Image.open(io.BytesIO(printdeck.preview_page(deck, layouts, 1, ppi=50))).convert("RGB"))
    document = pypdfium2.PdfDocument(str(result.pdf_path))
    printed = np.asarray(document[0].render(scale=50 / 72).to_pil().convert("RGB"))
    document.close()
    assert preview.shape == printed.shape
    assert np.abs(preview.astype(int) - printed.astype(int)).mean() < 0.5
    assert (preview < 128).any()  # there is ink
    with pytest.raises(ValueError, match="page 2"):
        printdeck.preview_page(deck, layouts, 2)


def test_every_sheets_preview_is_its_printed_page(tmp_path: Path) -> None:
    """Sheets 2 and 3 too: the preview of one sheet plans its footer round a full sheet,
    as the PDF does (it put the credit and the scale note at the foot of the page, over
    the last row's cut lines, where the PDF has them between the rows)."""
    theme = {**_words_dict(), "deck": {"symbols_per_card": 4}, "card": {"diameter": "85mm"}}
    theme["symbols"] = [{"text": f"w{k}"} for k in range(13)]
    result = printdeck.build(theme, out=tmp_path / "deck.pdf")
    deck = printdeck.plan(theme)
    layouts = printdeck.lay_out(deck)
    assert deck.pages == 3
    document = pypdfium2.PdfDocument(str(result.pdf_path))
    try:
        for page in (1, 2, 3):
            preview = Image.open(io.BytesIO(printdeck.preview_page(deck, layouts, page, ppi=40))).convert("RGB")
            printed = document[page - 1].render(scale=40 / 72).to_pil().convert("RGB")
            difference = np.abs(np.asarray(preview).astype(int) - np.asarray(printed).astype(int))
            assert difference.mean() < 0.5, f"sheet {page}"
    finally:
        document.close()


def test_a_sheets_back_preview_is_its_printed_back_page(tmp_path: Path) -> None:
    """``side="back"``: the back page the duplex PDF prints after each front (mirrored to
    meet it), sheet by sheet; and, one card a page with ``backs.order: before``, the page
    before the front. A back of a deck without backs, or another side, is refused."""
    theme = {**_words_dict(), "deck": {"symbols_per_card": 4}, "card": {"diameter": "85mm"}}
    theme["symbols"] = [{"text": f"w{k}"} for k in range(13)]
    theme["backs"] = {"enabled": True, "pattern": "rings", "color": "#7a2e5c"}
    single = {**theme, "paper": {"layout": "single"}, "backs": {**theme["backs"], "order": "before"}}
    for source, pages in ((theme, {1: 2, 2: 4}), (single, {1: 1, 2: 3})):
        result = printdeck.build(source, out=tmp_path / "deck.pdf")
        deck = printdeck.plan(source)
        layouts = printdeck.lay_out(deck)
        document = pypdfium2.PdfDocument(str(result.pdf_path))
        try:
            for sheet, pdf_page in pages.items():
                back = printdeck.preview_page(deck, layouts, sheet, ppi=40, side="back")
                preview = np.asarray(Image.open(io.BytesIO(back)).convert("RGB")).astype(int)
                printed = np.asarray(document[pdf_page - 1].render(scale=40 / 72).to_pil().convert("RGB"))
                assert np.abs(preview - printed.astype(int)).mean() < 0.5, f"sheet {sheet}"
                plum = (np.abs(preview - [0x7A, 0x2E, 0x5C]).sum(axis=2) < 40).mean()
                assert plum > 0.05, f"sheet {sheet}: no back colour"  # a back, not a blank page
        finally:
            document.close()
    plain = printdeck.plan(_words_dict())
    with pytest.raises(ValueError, match="no back pages"):
        printdeck.preview_page(plain, printdeck.lay_out(plain), 1, side="back")
    with pytest.raises(ValueError, match="side: expected 'front' or 'back'"):
        printdeck.preview_page(plain, printdeck.lay_out(plain), 1, side="inside")


def test_type_checkers_see_the_names_that_load_at_run_time() -> None:
    """``printdeck/__init__``'s TYPE_CHECKING imports and its ``_WHERE`` map agree, name for name."""
    import ast

    tree = ast.parse((REPO / "printdeck" / "__init__.py").read_text(encoding="utf-8"))
    checked = {
        alias.name: node.module
        for block in tree.body
        if isinstance(block, ast.If)
        for node in block.body
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }
    assert checked == printdeck._WHERE
    assert set(printdeck.__all__) <= {"PrintdeckError", "__version__", *printdeck._WHERE}
    plumbing = {"check_theme", "write_preview", "verify_file", "CheckReport", "PreviewResult", "plot_cdf", "init_theme"}
    assert not plumbing & set(printdeck.__all__), "the command line's plumbing is no stable API"
    assert {"build", "make", "Deck", "load_theme", "verify", "make_design"} <= set(printdeck.__all__)


def test_a_copy_of_an_unsized_theme_given_enough_symbols_makes_its_deck() -> None:
    """A theme of ``load_symbols`` copied with more symbols (as a front end adds them) is
    sized where a deck is made; with too few, every deck-making call says how many more."""
    import dataclasses

    few = printdeck.load_symbols({"symbols": [{"text": w} for w in ("sun", "moon", "star")]})
    enough = printdeck.load_theme(
        {"symbols": [{"text": w} for w in ("sun", "moon", "star", "tree", "fish", "bird", "boat")]}
    )
    grown = dataclasses.replace(few, symbols=enough.symbols)
    assert len(printdeck.plan(grown).design.blocks) == 7
    assert len(printdeck.make(grown).cards) == 7
    with pytest.raises(printdeck.PrintdeckError, match="add 4 more"):
        printdeck.shared_symbols(few, 1, 2)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_check_names_the_symbols_a_trimmed_deck_leaves_out_as_the_build_does(tmp_path: Path, seed: int) -> None:
    """A teacher's deck of 13 pictures cut to 4 cards leaves 3 on no card. ``check`` named
    three others than the build left out (the build's balance swapped spindly pictures onto
    points on no card) and said "13 of 13 symbols used"."""
    names = ["spider", "snowflake", "hammer", "snowman", "sun", "apple", "balloon", "cat", "dog", "blowfish"]
    names += ["pig", "owl"]
    theme = {
        "name": "trimmed",
        "seed": seed,
        "deck": {"symbols_per_card": 4, "cards": 4},
        "card": {"diameter": "60mm"},
        "symbols": [{"image": f"@assets/twemoji/{n}.svg"} for n in names] + [{"text": "moon"}],
    }
    report = printdeck.check_theme(theme)
    built = printdeck.build(theme, out=tmp_path / "t.pdf")
    assert len(report.unused) == 3 and sorted(report.unused) == sorted(built.unused)
    assert report.symbols_used == 10


def test_a_trimmed_decks_summary_speaks_only_of_photos_the_cards_show(tmp_path: Path) -> None:
    """A parent's deck cut to two cards said "check 7 photo crops" and named photos no card
    shows (and the summary left them out in the same breath)."""
    colours = ["#d02020", "#20a020", "#2040d0", "#e0c000", "#a020a0", "#20c0c0", "#202020"]
    for i, colour in enumerate(colours):
        Image.new("RGB", (400, 400), colour).save(tmp_path / f"p{i}.jpg", quality=90)
    theme = {
        "name": "two",
        "deck": {"symbols_per_card": 3, "cards": 2},
        "symbols": [{"photo": f"p{i}.jpg"} for i in range(7)],
    }
    (tmp_path / "theme.yaml").write_text(json.dumps(theme), encoding="utf-8")
    built = printdeck.build(tmp_path / "theme.yaml", out=tmp_path / "t.pdf")
    named = {name for name, _ in built.photo_crops}
    assert len(built.unused) == 2 and len(named) == 5 and not named & set(built.unused)
    assert any(line.startswith("check 5 photo crops") for line in built.summary_lines())


def test_the_viewing_calls_take_the_deck_make_gives(tmp_path: Path) -> None:
    """``lay_out``, ``preview_page``, ``preview_card``, ``view_card``, ``check_pins`` and
    ``fit_pin`` take the ``Deck`` of ``make`` as they take the ``DeckPlan`` of ``plan`` (a
    script following docs/api.md hands them the deck it made: they ended in an
    ``AttributeError``), and answer for it as for its plan."""
    made = printdeck.make(_words_dict())
    planned = printdeck.plan(_words_dict())
    layouts = printdeck.lay_out(made)
    assert layouts == printdeck.lay_out(planned) == list(made.cards)
    assert printdeck.preview_page(made, layouts, 1, ppi=30) == printdeck.preview_page(planned, layouts, 1, ppi=30)
    assert printdeck.preview_card(made, layouts, 2, ppi=30) == printdeck.preview_card(planned, layouts, 2, ppi=30)
    assert printdeck.view_card(made, layouts, 2) == printdeck.view_card(planned, layouts, 2)
    assert printdeck.check_pins(made, 2) is None
    assert printdeck.fit_pin(made, 2, "one") is None


def test_a_theme_given_as_data_is_named_in_the_builds_errors_as_in_the_loads(tmp_path: Path) -> None:
    """An error the build finds in a theme given as a mapping (a pin that touches another)
    starts ``<theme>: `` with ``source`` ``<theme>``, as the load's errors do and docs/api.md
    says (it came with no source: a program reading ``source`` could not tell it was the
    theme's); ``<YAML text>`` for text. An argument's error stays the argument's."""
    theme = _words_dict()
    planned = printdeck.plan(theme)
    shown = [symbol.name for symbol in planned.cards[0]]
    place = {shown[0]: {"center": ["0mm", "0mm"], "size": "20mm"}, shown[1]: {"center": ["1mm", "0mm"], "size": "20mm"}}
    theme["layout"] = {"pinned": [{"card": 1, "symbols": shown, "place": place}]}
    for source, label in ((theme, "<theme>"), (yaml.safe_dump(theme), "<YAML text>")):
        with pytest.raises(printdeck.PrintdeckError) as info:
            printdeck.build(source, out=tmp_path / "deck.pdf")
        assert info.value.source == label and str(info.value).startswith(f"{label}: layout.pinned.0."), info.value
    with pytest.raises(printdeck.PrintdeckError) as info:
        printdeck.build(theme, out=tmp_path / "missing" / "deck.pdf")
    assert info.value.key == "out" and info.value.source == str(tmp_path / "missing" / "deck.pdf")


def test_saving_a_deck_never_writes_over_what_it_was_made_from(tmp_path: Path) -> None:
    """``Deck.save`` wrote over any file it was given: a slip of the name replaced the theme
    or a picture (a face's too) with the PDF. It refuses them as ``build -o`` does, and
    leaves them as they were."""
    pics = tmp_path / "pics"
    pics.mkdir()
    twemoji = Path(printdeck.__file__).resolve().parent.parent / "assets" / "twemoji"
    names = ["cat", "dog", "owl", "bee", "ant", "pig", "cow"]
    for name in names:
        (pics / f"{name}.svg").write_bytes((twemoji / f"{name}.svg").read_bytes())
    faces = [{"name": n, "faces": [{"text": n}, {"image": f"pics/{n}.svg"}]} for n in names]
    theme_file = tmp_path / "theme.yaml"
    theme_file.write_text(yaml.safe_dump({"deck": {"symbols_per_card": 3}, "symbols": faces}), encoding="utf-8")
    deck = printdeck.make(theme_file)
    for target in (theme_file, pics / "owl.svg"):
        before = target.read_bytes()
        with pytest.raises(printdeck.PrintdeckError) as refused:
            deck.save(target)
        assert str(refused.value).startswith(f"target {target}: is an input")
        assert target.read_bytes() == before
    assert deck.save(tmp_path / "deck.pdf") == (tmp_path / "deck.pdf").stat().st_size > 0
    png_dir = printdeck.build(theme_file, out=tmp_path / "deck.pdf", png_dir=tmp_path / "pngs")  # a folder of its own
    assert png_dir.png_paths
    with pytest.raises(printdeck.PrintdeckError, match=r"holds an input of this build"):
        printdeck.build(theme_file, out=tmp_path / "deck.pdf", png_dir=pics)  # a face's picture is an input
    assert sorted(p.name for p in pics.iterdir()) == sorted(f"{n}.svg" for n in names)
