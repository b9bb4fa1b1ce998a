"""Class sets (``deck.copies``): N decks in one job, each verified, each its own colour,
mark and layouts; the deck mark's place is kept free of ink; the colours stay distinct
for colour-blind eyes."""

from __future__ import annotations

import dataclasses
import itertools
import json
import warnings
from pathlib import Path

import numpy as np
import pypdfium2
import pytest
from pypdf import PdfReader
from skimage.color import deltaE_ciede2000, rgb2lab
from test_assign_colours import CVD
from test_layout_support import stamp_card
from test_theme_support import write_theme

import printdeck
from printdeck.class_sets import class_decks, deck_seed, lay_out_class_set
from printdeck.deck_plan import plan_deck
from printdeck.errors import LookAlikeWarning
from printdeck.layout import LayoutSettings
from printdeck.model import SymbolSpec
from printdeck.theme import DECK_PALETTE, DeckSpec, load_theme

MIN_CIEDE2000 = 13.0
"""Every two deck colours stay at least this far apart (CIEDE2000) under normal vision and
under protanopia, deuteranopia and tritanopia (Machado et al. 2009, severity 1)."""
MIN_CIEDE2000_SIX = 18.0
"""... and the first six (a class of 24 to 36 in groups) at least this far."""
PX_PER_MM = 8.0

SMALL = {
    "name": "small-class",
    "seed": 5,
    "deck": {"symbols_per_card": 4, "copies": 3},
    "symbols": [
        {"text": w}
        for w in ["cat", "dog", "fish", "bird", "frog", "hen", "cow", "pig", "owl", "bee", "ant", "elk", "yak"]
    ],
}


def _simulated_lab(hex_colours: list[str], matrix: list[list[float]]) -> np.ndarray:
    srgb = np.array([[int(c[i : i + 2], 16) / 255.0 for i in (1, 3, 5)] for c in hex_colours])
    linear = np.where(srgb <= 0.04045, srgb / 12.92, ((srgb + 0.055) / 1.055) ** 2.4)
    linear = np.clip(linear @ np.asarray(matrix).T, 0.0, 1.0)
    back = np.where(linear <= 0.0031308, 12.92 * linear, 1.055 * linear ** (1 / 2.4) - 0.055)
    return rgb2lab(back[None])[0]


@pytest.mark.parametrize("vision", sorted(CVD))
def test_deck_colours_stay_distinct_for_every_vision(vision: str) -> None:
    lab = _simulated_lab(list(DECK_PALETTE), CVD[vision])
    pairs = list(itertools.combinations(range(len(DECK_PALETTE)), 2))
    delta = {(a, b): float(deltaE_ciede2000(lab[a], lab[b])) for a, b in pairs}
    closest = min(delta.items(), key=lambda kv: kv[1])
    assert closest[1] >= MIN_CIEDE2000, f"{vision}: decks {closest[0]} only {closest[1]:.1f} apart"
    first_six = min(d for (a, b), d in delta.items() if b < 6)
    assert first_six >= MIN_CIEDE2000_SIX, f"{vision}: the first six decks only {first_six:.1f} apart"
    most = [m.le for m in DeckSpec.model_fields["copies"].metadata if getattr(m, "le", None)]
    assert len(set(DECK_PALETTE)) == len(DECK_PALETTE) == most[0]  # a colour for every deck a set may have


def test_a_class_set_builds_every_deck_verified_with_its_own_seed_and_sheets(tmp_path: Path) -> None:
    result = printdeck.build(SMALL, out=tmp_path / "class.pdf", backs=True)
    manifest = json.loads(result.manifest_path.read_text())
    cards = manifest["cards"]
    per_deck = manifest["design"]["lines"]
    assert per_deck == 13 and len(cards) == 3 * per_deck == result.cards
    assert result.decks == ("A", "B", "C")
    assert result.summary_lines()[0].startswith(
        f"wrote {tmp_path / 'class.pdf'}: 3 decks (A to C) of 13 cards, 4 symbols"
    )
    assert sorted({c["deck"] for c in cards}) == [1, 2, 3]
    for deck in (1, 2, 3):
        assert sorted(c["index"] for c in cards if c["deck"] == deck) == list(range(per_deck))
    _, report = printdeck.verify_file(result.manifest_path)
    assert report.ok and [n for n, r in report.decks if r.ok and r.cards == per_deck] == [1, 2, 3]
    decks = manifest["decks"]
    assert [d["letter"] for d in decks] == ["A", "B", "C"]
    assert [d["color"] for d in decks] == list(DECK_PALETTE[:3])
    assert len({d["seed"] for d in decks}) == 3 and manifest["seed"] not in {d["seed"] for d in decks}
    assert [d["seed"] for d in decks] == [deck_seed(5, n) for n in (1, 2, 3)]
    sheets = [set(d["sheets"]) for d in decks]
    assert all(not (a & b) for a, b in itertools.combinations(sheets, 2))  # no sheet mixes decks
    for n in range(per_deck):  # same symbols, laid out differently in every deck
        same = [next(c for c in cards if c["deck"] == d and c["index"] == n) for d in (1, 2, 3)]
        assert len({tuple(sorted(s["id"] for s in c["symbols"])) for c in same}) == 1
        assert len({json.dumps(c["symbols"]) for c in same}) == 3
    page_text = pypdfium2.PdfDocument(str(result.pdf_path))
    try:
        for deck in decks:
            for sheet in deck["sheets"]:
                text = page_text[2 * sheet - 2].get_textpage().get_text_range()
                assert f"deck {deck['letter']}" in text, f"sheet {sheet} does not name its deck"
    finally:
        page_text.close()


def test_packed_sheets_mix_decks_and_name_them(tmp_path: Path) -> None:
    apart = printdeck.build(SMALL, out=tmp_path / "apart.pdf")
    packed = printdeck.build(SMALL, out=tmp_path / "packed.pdf", pack=True)
    manifest = json.loads(packed.manifest_path.read_text())
    assert packed.pages < apart.pages
    mixed = [
        s for s in range(1, packed.pages + 1) if len({c["deck"] for c in manifest["cards"] if c["sheet"] == s}) > 1
    ]
    assert mixed
    doc = pypdfium2.PdfDocument(str(packed.pdf_path))
    try:
        text = doc[mixed[0] - 1].get_textpage().get_text_range()
    finally:
        doc.close()
    letters = sorted({c["mark"]["letter"] for c in manifest["cards"] if c["sheet"] == mixed[0]})
    assert "decks " + ", ".join(letters) in text


def test_deck_marks_print_in_their_colour_where_the_manifest_says(tmp_path: Path) -> None:
    result = printdeck.build(SMALL, out=tmp_path / "class.pdf")
    manifest = json.loads(result.manifest_path.read_text())
    doc = pypdfium2.PdfDocument(str(result.pdf_path))
    ppmm = 4.0
    try:
        for card in manifest["cards"][::5]:
            image = np.asarray(doc[card["page"] - 1].render(scale=ppmm * 25.4 / 72).to_pil().convert("RGB"))
            mark = card["mark"]
            x_mm = card["center_mm"][0] + mark["center_mm"][0] + 0.75 * mark["radius_mm"]  # beside the letter
            y_mm = card["center_mm"][1] + mark["center_mm"][1]
            pixel = image[round(image.shape[0] - y_mm * ppmm), round(x_mm * ppmm)]
            want = np.array([int(mark["color"][i : i + 2], 16) for i in (1, 3, 5)])
            assert np.abs(pixel.astype(int) - want).max() <= 12, f"card {card['index']} deck {card['deck']}"
    finally:
        doc.close()


@pytest.mark.parametrize(
    ("ref", "card"),
    [
        (None, {}),
        ("junior", {}),
        (None, {"shape": "square", "size": "70mm", "corner_radius": "4mm"}),
        (None, {"shape": "hexagon", "size": "90mm"}),
        (None, {"shape": "rectangle", "size": "poker"}),
    ],
)
def test_deck_marks_never_overlap_a_symbol(ref: str | None, card: dict[str, str]) -> None:
    """Stamp the artwork at the recorded transforms (not with the engine's code): no ink in
    the mark's disc grown by half the gap, and the mark inside the safe zone, on round,
    square, hexagonal and playing-card-sized cards."""
    base = load_theme(ref)
    update = {"deck": base.spec.deck.model_copy(update={"copies": 2})}
    if card:
        update["card"] = type(base.spec.card).model_validate(card)
    theme = dataclasses.replace(base, spec=base.spec.model_copy(update=update))
    plan = plan_deck(theme, prove=False)
    cards = plan.cards[:5]
    layouts = lay_out_class_set(theme, cards, plan.symbols)
    settings = LayoutSettings.from_theme(theme)
    assert len(layouts) == 2 * len(cards) and len(class_decks(theme)) == 2
    for lay in layouts:
        syms = cards[lay.index % len(cards)]
        assert lay.mark is not None
        layers = stamp_card(lay, syms, settings.safe_radius_mm, PX_PER_MM)
        ink = layers.any(axis=0)
        side = ink.shape[0]
        yy, xx = np.mgrid[0:side, 0:side] + 0.5
        mx = side / 2 + lay.mark.center_mm[0] * PX_PER_MM
        my = side / 2 - lay.mark.center_mm[1] * PX_PER_MM
        near = np.hypot(xx - mx, yy - my) / PX_PER_MM <= lay.mark.radius_mm + settings.gap_mm / 2
        assert not (ink & near).any(), f"deck {lay.mark.deck} card {lay.index}: ink on the deck mark"
        safe = settings.zone_shape()
        rim = np.exp(1j * np.linspace(0, 2 * np.pi, 90, endpoint=False)) * lay.mark.radius_mm
        edge = np.stack([rim.real + lay.mark.center_mm[0], rim.imag + lay.mark.center_mm[1]], axis=1)
        assert safe.contains(edge, -1e-6).all(), "the deck mark leaves the safe zone"
        assert np.hypot(*lay.mark.center_mm) > 0.7 * safe.circumradius_mm - lay.mark.radius_mm  # near the rim


def _dashed_segments(pdf: Path, page: int) -> list[tuple[float, float, float, float]]:
    """Every dashed line segment ``m ... l S`` on a page, in mm (read from the content stream)."""
    from pypdf import PdfReader
    from pypdf.generic import ContentStream

    reader = PdfReader(str(pdf))
    ops = ContentStream(reader.pages[page - 1].get_contents(), reader).operations
    dashed, start, out = False, None, []
    to_mm = 25.4 / 72.0
    for operands, op in ops:
        if op == b"d":
            dashed = len(operands[0]) > 0
        elif op == b"m":
            start = (float(operands[0]), float(operands[1]))
        elif op == b"l" and dashed and start is not None:
            out.append((start[0] * to_mm, start[1] * to_mm, float(operands[0]) * to_mm, float(operands[1]) * to_mm))
    return out


def test_the_tuck_box_fits_the_deck_by_its_fold_lines(tmp_path: Path) -> None:
    theme = {**SMALL, "extras": {"tuck_box": True, "card_thickness": "0.3mm"}}
    result = printdeck.build(theme, out=tmp_path / "box.pdf", legend=True, rules=True, backs=True)
    manifest = json.loads(result.manifest_path.read_text())
    cards = manifest["design"]["lines"]
    diameter = manifest["card"]["diameter_mm"]
    boxes = [n for n, kind in enumerate(_page_kinds(result.pdf_path), 1) if kind == "box"]
    assert len(boxes) == 3  # one box a deck
    for page in boxes:
        folds = _dashed_segments(result.pdf_path, page)
        vertical = sorted({round(x0, 2) for x0, y0, x1, y1 in folds if abs(x0 - x1) < 1e-6})
        assert len(vertical) == 4  # glue tab | front | side | back | side
        front, side, back = (b - a for a, b in itertools.pairwise(vertical))
        heights = {round(abs(y1 - y0), 2) for x0, y0, x1, y1 in folds if abs(x0 - x1) < 1e-6}
        assert len(heights) == 1
        deck_mm = cards * 0.3  # the stated card stock: 0.3 mm a card
        assert front == pytest.approx(back) and diameter < front <= diameter + 3
        assert heights.pop() == pytest.approx(front, abs=0.01)
        assert deck_mm < side <= deck_mm + 2.5
        last_side = max(x1 for x0, y0, x1, y1 in folds) - vertical[-1]
        assert last_side == pytest.approx(side, abs=0.01)


def _page_kinds(pdf: Path) -> list[str]:
    """Each page of ``pdf`` as ``front`` (a card sheet: its footer says "Sheet"), ``back``,
    ``legend``, ``rules``, ``box`` (a tuck box net) or ``blank`` (no text, no ink at all)."""
    doc = pypdfium2.PdfDocument(str(pdf))
    kinds = []
    for page in doc:
        text = page.get_textpage().get_text_range()
        ink = np.asarray(page.render(scale=0.3).to_pil().convert("L")).min() < 255
        marks = {"Tuck box for": "box", "symbol legend": "legend", "how to play": "rules", "Sheet ": "front"}
        kind = next((k for mark, k in marks.items() if mark in text), "back" if text.strip() or ink else "blank")
        if kind == "back" and kinds and kinds[-1] in ("legend", "rules"):  # the rules' second page
            kind = kinds[-1]
        kinds.append(kind)
    doc.close()
    return kinds


def _sheets_of(kinds: list[str]) -> list[tuple[str, ...]]:
    """The pages as a duplex printer puts them on paper: (front, back) by twos."""
    return [tuple(kinds[i : i + 2]) for i in range(0, len(kinds), 2)]


@pytest.mark.parametrize(
    "extras",
    [{"booklet": True}, {"backs": True, "tuck_box": True}, {"backs": True, "legend": True, "tuck_box": True}],
    ids=["booklet", "backs", "legend"],
)
def test_each_tuck_box_has_a_sheet_of_its_own_when_printed_duplex(tmp_path: Path, extras: dict[str, bool]) -> None:
    """A class set's tuck boxes printed duplex: deck B's box on the back of deck A's (or a
    box on the back of the legend) meant only one of them could be cut out. Each box is
    alone on its sheet, its back truly blank; the card sheets keep their backs."""
    result = printdeck.build({**SMALL, "deck": {**SMALL["deck"], "copies": 2}}, out=tmp_path / "set.pdf", **extras)
    assert _duplex(result.pdf_path) == "/DuplexFlipLongEdge"
    kinds = _page_kinds(result.pdf_path)
    fronts = kinds.count("front")
    assert fronts and _sheets_of(kinds[: 2 * fronts]) == [("front", "back")] * fronts
    extra = [k for k in kinds[2 * fronts :] if k != "blank"]
    wanted = ["legend"] * ("legend" in extra) + ["rules"] * ("rules" in extra) + ["box"]
    assert [k for k, _ in itertools.groupby(extra)] == wanted  # the README's order: legend, rules, boxes
    assert extra.count("box") == 2  # a box a deck
    assert len(kinds) % 2 == 0  # the last sheet has its back
    for sheet in _sheets_of(kinds):
        assert "box" not in sheet or sheet == ("box", "blank"), f"a tuck box shares its sheet: {sheet}"
    sizes = _page_sizes(result.pdf_path)
    for n, kind in enumerate(kinds):
        if kind == "blank":  # the back of the page before it, the same size (it follows a front)
            assert n % 2 == 1 and sizes[n] == sizes[n - 1]


def test_tuck_boxes_printed_one_sided_get_no_blank_pages(tmp_path: Path) -> None:
    """Without backs the file asks for no duplex: the boxes follow each other, no blank paper."""
    result = printdeck.build({**SMALL, "deck": {**SMALL["deck"], "copies": 2}}, out=tmp_path / "set.pdf", tuck_box=True)
    assert _duplex(result.pdf_path) is None
    assert _page_kinds(result.pdf_path)[-2:] == ["box", "box"] and "blank" not in _page_kinds(result.pdf_path)


def test_a_long_title_never_runs_the_tuck_boxs_note_off_its_page(tmp_path: Path) -> None:
    """A teacher's 199-character title ran the box's note off the page, losing the box's
    inside size: the title is shortened to fit, the size kept."""
    title = "Notre classe de vocabulaire " * 7
    result = printdeck.build({**SMALL, "title": title[:199]}, out=tmp_path / "box.pdf", tuck_box=True)
    doc = pypdfium2.PdfDocument(str(result.pdf_path))
    try:
        page = doc[len(doc) - 1]
        width, _ = page.get_size()
        text = page.get_textpage()
        said = text.get_text_range()
        rects = [text.get_rect(i) for i in range(text.count_rects())]
    finally:
        doc.close()
    assert "Inside " in said and " mm." in said and "…" in said
    assert all(right <= width for _, _, right, _ in rects)


def _duplex(pdf: Path) -> str | None:
    """The duplex flip the PDF asks the print dialog for (``/ViewerPreferences /Duplex``), if any."""
    import pikepdf

    with pikepdf.open(pdf) as doc:
        prefs = doc.Root.get("/ViewerPreferences", {})
        return str(prefs["/Duplex"]) if "/Duplex" in prefs else None


def _page_sizes(pdf: Path) -> list[tuple[float, float]]:
    """Each page's MediaBox width and height, points."""
    import pikepdf

    with pikepdf.open(pdf) as doc:
        return [(float(p.mediabox[2]), float(p.mediabox[3])) for p in doc.pages]


def test_a_tuck_box_too_big_for_the_paper_is_refused_before_the_layout(tmp_path: Path) -> None:
    theme = {**SMALL, "card": {"diameter": "120mm"}, "paper": {"size": "letter"}, "extras": {"tuck_box": True}}
    with pytest.raises(printdeck.PrintdeckError, match=r"extras\.tuck_box: .*paper\.size"):
        printdeck.build(theme, out=tmp_path / "big.pdf")
    assert not list(tmp_path.iterdir())


def test_the_first_cards_of_a_class_set_keep_their_indices_and_layouts() -> None:
    """The studio lays out a deck's first few cards for its first sheets: in a class set
    every deck's first few, with the indices and layouts the whole set gives them."""
    theme = printdeck.load_theme(SMALL)
    plan = plan_deck(theme, prove=False)
    every = {c.index: c for c in printdeck.lay_out(plan)}
    first = printdeck.lay_out(dataclasses.replace(plan, cards=plan.cards[:4]))
    per_deck = len(plan.cards)
    assert sorted(c.index for c in first) == [d * per_deck + i for d in range(3) for i in range(4)]
    for card in first:
        assert card == every[card.index] and card.mark is not None
        assert card.mark.deck == card.index // per_deck + 1


def test_a_card_too_crowded_for_its_symbols_is_named_by_its_deck_too(tmp_path: Path) -> None:
    """Every deck of a class set has its own layouts and numbers its cards from 1, so a card
    whose symbols come out too small is named as its deck's ('deck A, card 1'), not as
    'card 1' of no deck a teacher could find."""
    words = ["一", "二", "三", "四", "五", "六", "七", "八", "九", "十", "百", "千", "万"]
    theme = {
        "name": "crowded",
        "deck": {"order": 3, "copies": 2},
        "card": {"diameter": "30mm"},
        "symbols": [{"text": w} for w in words],
    }
    with pytest.raises(
        printdeck.PrintdeckError, match=r"^<theme>: deck A, card \d+: symbol '.' would be only"
    ) as caught:
        printdeck.build(theme, out=tmp_path / "crowded.pdf")
    assert not list(tmp_path.iterdir())
    assert caught.value.problem.startswith("deck A, card "), "the studio says the problem field"


def test_a_class_sets_preview_shows_deck_a_as_it_prints(tmp_path: Path) -> None:
    """``printdeck preview`` of a class set laid its cards out with the theme's seed and no
    deck mark: not deck A's cards (each deck has its own seed), and a card too crowded was
    refused with another symbol and size than ``build`` named. The preview now shows deck
    A's first cards as the PDF prints them, its mark in its colour where the manifest says."""
    from PIL import Image

    from printdeck.deck_preview import write_preview_sheet

    count, ppmm = 3, 4.0
    write_preview_sheet(printdeck.load_theme(SMALL), tmp_path / "preview.png", count=count, px_per_mm=ppmm)
    manifest = json.loads(printdeck.build(SMALL, out=tmp_path / "class.pdf").manifest_path.read_text())
    sheet = np.asarray(Image.open(tmp_path / "preview.png").convert("RGB"))
    side = sheet.shape[0]  # one row of square tiles
    deck_a = [c for c in manifest["cards"] if c["deck"] == 1][:count]
    for k, card in enumerate(deck_a):
        mark = card["mark"]
        x_mm = mark["center_mm"][0] + 0.75 * mark["radius_mm"]  # beside the letter
        pixel = sheet[round(side / 2 - mark["center_mm"][1] * ppmm), round(k * side + side / 2 + x_mm * ppmm)]
        want = np.array([int(mark["color"][i : i + 2], 16) for i in (1, 3, 5)])
        assert np.abs(pixel.astype(int) - want).max() <= 12, f"card {k + 1}: {pixel} is not {mark['color']}"
    crowded = {**SMALL, "card": {"diameter": "30mm"}, "deck": {"order": 3, "copies": 2}}
    said = []
    for call in (
        lambda: write_preview_sheet(printdeck.load_theme(crowded), tmp_path / "c.png"),
        lambda: printdeck.build(crowded, out=tmp_path / "c.pdf"),
    ):
        with pytest.raises(printdeck.PrintdeckError) as caught:
            call()
        said.append(str(caught.value))
    assert said[0] == said[1] and said[0].startswith("<theme>: deck A, card "), said
    assert not (tmp_path / "c.png").exists() and not (tmp_path / "c.pdf").exists()


def test_deck_marks_that_read_as_words_either_way_are_warned_about(tmp_path: Path) -> None:
    """A teacher's deck of letters A to K and the numbers 2, 3 and 4: its decks became 1, 2
    and 3, and deck 2's mark "2" sat on cards showing the symbol "2", with no word."""
    deck = {
        "name": "letters-and-numbers",
        "seed": 3,
        "deck": {"symbols_per_card": 4, "copies": 3},
        "symbols": [{"text": c} for c in [*"ABCDEFGHJK", "2", "3", "4"]],
    }
    with pytest.warns(LookAlikeWarning, match=r"the decks' marks 2, 3 read as words of the deck") as said:
        printdeck.build(write_theme(tmp_path, deck), out=tmp_path / "mixed.pdf")
    assert len([w for w in said if issubclass(w.category, LookAlikeWarning)]) == 1  # said once a build
    with warnings.catch_warnings():
        warnings.simplefilter("error", LookAlikeWarning)  # letters alone: numbered decks, nothing to say
        letters = [{"text": c} for c in "ABCDEFGHJKMNP"]  # no I or L: they read as 1
        printdeck.build(write_theme(tmp_path, {**deck, "symbols": letters}), out=tmp_path / "abc.pdf")


def test_an_alphabet_class_set_names_its_decks_by_number(tmp_path: Path) -> None:
    """A class set of a letters deck marked deck B's cards "B": a card with the symbol "B"
    showed two, and every card of deck B shared the mark "B" with every other. Where a word
    of the deck reads as a deck letter, the decks are 1, 2, 3: the marks, the backs' titles,
    the manifest and the image files alike; a deck of words keeps A, B, C, and so does a
    deck of numbers."""
    from printdeck.class_sets import deck_labels

    alphabet = {
        "name": "abc",
        "seed": 3,
        "title": "ABC",
        "deck": {"symbols_per_card": 4, "copies": 3},
        "backs": {"enabled": True, "pattern": "title"},
        "symbols": [{"text": c} for c in "ABCDEFGHJKMNP"],  # no I or L: they read as 1
    }
    result = printdeck.build(write_theme(tmp_path, alphabet), out=tmp_path / "abc.pdf", png_dir=tmp_path / "png")
    manifest = json.loads(result.manifest_path.read_text(encoding="utf-8"))
    assert [d["letter"] for d in manifest["decks"]] == ["1", "2", "3"]
    assert {c["mark"]["letter"] for c in manifest["cards"] if c["deck"] == 2} == {"2"}
    assert any(": 3 decks (1 to 3) of 13 cards" in line for line in result.summary_lines())
    assert sorted(p.name for p in result.back_paths) == ["back-1.png", "back-2.png", "back-3.png"]
    assert (tmp_path / "png" / "card-013-3.png").is_file()
    reader = PdfReader(result.pdf_path)
    back = next(c for c in manifest["cards"] if c["deck"] == 3)["page"]  # its back: the page after its front
    assert set(reader.pages[back].extract_text().split()) == {"ABC", "3"}
    two = printdeck.build(  # built again with two decks: deck 3's images, printdeck's own, go
        write_theme(tmp_path, {**alphabet, "deck": {"symbols_per_card": 4, "copies": 2}}),
        out=tmp_path / "abc.pdf",
        png_dir=tmp_path / "png",
    )
    assert sorted(p.name for p in (tmp_path / "png").glob("back-*")) == ["back-1.png", "back-2.png"]
    assert not list((tmp_path / "png").glob("card-*-3.png")) and len(two.png_paths) == 26
    (tmp_path / "png" / "card-001-3.png").write_bytes(b"my own")  # a file printdeck did not write: refused
    with pytest.raises(printdeck.PrintdeckError, match=r"card-001-3\.png"):
        printdeck.build(write_theme(tmp_path, alphabet), out=tmp_path / "abc.pdf", png_dir=tmp_path / "png")
    assert (tmp_path / "png" / "card-001-3.png").read_bytes() == b"my own"

    def words(*texts: str) -> list[SymbolSpec]:
        raw = {"deck": {"symbols_per_card": 3}, "symbols": [{"text": t} for t in texts]}
        return list(printdeck.load_theme(raw, base_dir=tmp_path).symbols)

    assert deck_labels(words("cat", "dog", "fish", "bird", "frog", "hen", "cow"), 3) == ("A", "B", "C")
    assert deck_labels(words("1", "2", "3", "4", "5", "6", "7"), 3) == ("A", "B", "C")
    assert deck_labels(words("a", "x", "y", "z", "w", "v", "u"), 2) == ("1", "2")  # any case
    assert deck_labels(words("A", "B", "I", "L", "w", "v", "u"), 2) == ("1", "2")  # one clash (1 reads as I) over two


def test_numbered_decks_sharing_a_sheet_are_named_in_their_order(tmp_path: Path) -> None:
    """A packed class set of an alphabet deck (decks numbered) named a sheet's decks in text
    order, "decks 10, 9"; they go in their order, every sheet's footer naming its decks."""
    alphabet = {
        "name": "abc",
        "title": "ABC",
        "deck": {"symbols_per_card": 3, "copies": 11},
        "paper": {"pack": True},
        "symbols": [{"text": c} for c in "ABCDEFG"],
    }
    result = printdeck.build(write_theme(tmp_path, alphabet), out=tmp_path / "abc.pdf")
    pages = PdfReader(result.pdf_path).pages
    footers = [line for page in pages for line in page.extract_text().splitlines() if "· deck" in line]
    said = [[int(n) for n in line.split("· deck")[1].split("·")[0].lstrip("s ").split(", ")] for line in footers]
    assert len(said) == len(pages) and any(len(numbers) > 1 for numbers in said)
    assert all(numbers == sorted(numbers) for numbers in said), footers
    assert {n for numbers in said for n in numbers} == set(range(1, 12))


def _outer_bleed_faults(manifest: dict, pdf: pypdfium2.PdfDocument, front: int) -> tuple[int, list[str]]:
    """Points of the outer bleed of front page ``front``'s block (cards on shared cuts), on its
    back page: 0.5 to 2.75 mm out of every side no neighbour shares, from 0.5 mm of one
    corner to 0.5 mm of the other (two pixels: clear of the edges' blending). Each must show
    the colour of the card whose cut is nearest (or of any card within 0.5 mm of that):
    ``(points, faults)``."""
    w, h = manifest["card"]["width_mm"], manifest["card"]["height_mm"]
    colour = {d["deck"]: tuple(int(d["color"][i : i + 2], 16) for i in (1, 3, 5)) for d in manifest["decks"]}
    page = pdf[front]  # the back page: the one after the front (pages count from 1 in the manifest)
    width_mm, height_mm = (v / 72 * 25.4 for v in page.get_size())
    rgb = np.asarray(page.render(scale=100 / 72).to_pil().convert("RGB")).astype(int)
    cards = [c for c in manifest["cards"] if c["page"] == front]
    centres = np.array([(width_mm - c["center_mm"][0], c["center_mm"][1]) for c in cards])  # mirrored: long edge
    points, faults = 0, []
    for k, (x, y) in enumerate(centres):
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            step = np.array([dx * w, dy * h])
            if (np.abs(centres - (x, y) - step).max(axis=1) < 1).any():
                continue  # a neighbour shares this cut: no bleed there
            half_along = (h if dx else w) / 2
            for out, t in itertools.product(
                (0.5, 1.25, 2.0, 2.75), np.linspace(0.5 - half_along, half_along - 0.5, 31)
            ):
                p = np.array([x + dx * (w / 2 + out) + dy * t, y + dy * (h / 2 + out) + dx * t])
                gap = np.maximum(np.abs(centres - p) - (w / 2, h / 2), 0)
                distance = np.hypot(gap[:, 0], gap[:, 1])
                near = {cards[j]["deck"] for j in np.flatnonzero(distance <= distance.min() + 0.5)}
                got = rgb[round((height_mm - p[1]) * 100 / 25.4), round(p[0] * 100 / 25.4)]
                points += 1
                if not any(max(abs(a - b) for a, b in zip(got, colour[d])) <= 8 for d in near):
                    faults.append(f"card {cards[k]['index']} {p.round(1)} {got}")
    return points, faults


@pytest.mark.parametrize(
    "card",
    [{"shape": "square", "size": "60mm", "bleed": "3mm"}, {"shape": "rectangle", "size": "mini", "bleed": "3mm"}],
    ids=["squares", "rectangles"],
)
def test_packed_decks_on_shared_cuts_keep_each_backs_bleed_its_own_colour(tmp_path: Path, card: dict) -> None:
    """Cards of several decks side by side on shared cuts (a packed class set): each card's
    bleed was filled whole, so the later card's reached 3 mm into its neighbour's strip of
    bleed, where a cut a little off showed the other deck's colour; a first fix by nearest
    centre left white in a short row's inside corner of rectangles. Every sampled point of
    the block's outer bleed shows the colour of the card whose cut is nearest."""
    theme = {
        **SMALL,
        "deck": {"symbols_per_card": 3, "copies": 9},
        "symbols": SMALL["symbols"][:7],
        "card": card,
        "paper": {"cuts": "shared", "pack": True},
        "backs": {"enabled": True, "pattern": "none"},
    }
    result = printdeck.build(theme, out=tmp_path / "packed.pdf")
    manifest = json.loads(result.manifest_path.read_text(encoding="utf-8"))
    pages = {c["page"]: {d["deck"] for d in manifest["cards"] if d["page"] == c["page"]} for c in manifest["cards"]}
    mixed = [front for front, decks in pages.items() if len(decks) > 1]
    assert mixed, "no sheet holds two decks"
    pdf = pypdfium2.PdfDocument(str(result.pdf_path))
    try:
        for front in mixed:
            points, faults = _outer_bleed_faults(manifest, pdf, front)
            assert points > 100 and not faults, faults[:5]
    finally:
        pdf.close()
