"""Validation messages: dotted keys, expectations, did-you-mean, absurd sizes, deck sizes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from test_theme_support import WORDS, small_theme, write_theme

import printdeck
from printdeck.errors import PrintdeckError
from printdeck.theme import deck_size, load_theme


def _error(tmp_path: Path, data: Any) -> str:
    path = write_theme(tmp_path, data)
    with pytest.raises(PrintdeckError) as info:
        load_theme(path)
    message = str(info.value)
    assert message.startswith(f"{path}: ") and "\n" not in message
    return message[len(str(path)) + 2 :]


@pytest.mark.parametrize(
    "override, expected",
    [
        (
            {"card": {"diameter": "big"}},
            'card.diameter: expected a length such as "85mm" (units mm, cm, in, pt), got "big"',
        ),
        ({"card": {"diameter": 85}}, 'card.diameter: expected a length such as "85mm"'),
        ({"card": {"diamter": "85mm"}}, "card: unknown key 'diamter'; did you mean 'diameter'?"),
        ({"titel": "x"}, "(top level): unknown key 'titel'; did you mean 'title'?"),
        ({"colour": "red"}, "(top level): unknown key 'colour'; allowed keys here: author, backs, card,"),
        ({"card": {"zzz": 1}}, "card: unknown key 'zzz'; allowed keys here: background, bleed,"),
        ({"card": {"diameter": "1mm"}}, 'card.diameter: expected a length at least 20mm, got "1mm"'),
        ({"card": {"bleed": "-3mm"}}, 'card.bleed: expected a length at least 0mm, got "-3mm"'),
        ({"card": {"diameter": "2m"}}, "card.diameter: expected a length such as"),
        (
            {"card": {"background": "reddish"}},
            'card.background: expected a colour such as "#ff8800", "#f80" or "orange"',
        ),
        ({"seed": "abc"}, 'seed: expected a whole number, got "abc"'),
        ({"seed": -1}, "seed: expected a number at least 0, got -1"),
        ({"deck": {"match": 3}}, "deck.match: expected one of 1 or 2, got 3"),
        ({"deck": "big"}, 'deck: expected a mapping of keys (key: value lines), got "big"'),
        ({"deck": {"order": 500}}, "deck.order: expected a number at most 31, got 500"),
        ({"layout": {"rotation": "sideways"}}, "layout.rotation: expected one of 'any' or 'none', got \"sideways\""),
        ({"layout": {"rotation": 400}}, "layout.rotation: expected a number at most 180, got 400"),
        ({"paper": {"size": "a5"}}, "paper.size: expected a4, letter, a3, or a width and height with units such as"),
        ({"paper": {"size": ["10mm", "297mm"]}}, 'paper.size.0: expected a length at least 50mm, got "10mm"'),
        (
            {"card": {"shape": "rectangle", "size": ["14mm", "300mm"]}},
            'card.size.0: expected a length at least 20mm, got "14mm"',  # not card.size.pair.0
        ),
        ({"symbols": [{"txt": "a"}]}, "symbols.0: unknown key 'txt'; did you mean 'text'?"),
        # a line left out of its section, a colon left out, a word left out
        (
            {"deck": None, "symbols_per_card": 3},
            "(top level): 'symbols_per_card' is a key of deck:, not of this level; indent it under deck: by two",
        ),
        (
            {"symbols": ["text dog"]},
            "symbols.0: 'text dog' reads as a file name; write 'text: dog' (a colon after text)",
        ),
        (  # text: #1 is an empty text and a comment to YAML
            {"symbols": [{"text": None}]},
            "symbols.0.text: is empty; write the word or phrase after 'text:', in quotes if it starts with # "
            '(text: "#1"): YAML reads the rest as a comment',
        ),
        ({"symbols": [{"faces": None}]}, "symbols.0.faces: is empty; list its faces under 'faces:'"),
        ({"size": "a4"}, "(top level): 'size' is a key of card: or paper: or backs:, not of this level; indent"),
        (
            {
                "symbols": [
                    {"faces": [{"text": "2 × 6"}, {"text": "12"}]},
                    {"faces": [{"text": "3 × 4"}, {"text": "12"}]},
                ]
            },
            "symbols.1.faces.1.text: '12' is already symbols.0.faces.1; list each word once, or make symbols.0 "
            "and symbols.1 one symbol, with all their faces in one faces: list",
        ),
        ({"symbols": [{"text": "a", "scale": 9}]}, "symbols.0.scale: expected a number at most 3, got 9"),
        ({"symbols": [42]}, "symbols.0: expected a mapping of keys (key: value lines), got 42"),
        ({"backs": {"enabled": "maybe"}}, 'backs.enabled: expected true or false, got "maybe"'),
        ({"name": "my deck!"}, "name: expected a short name of letters, digits, - _ or ., got"),
        ({"card": {"background": "#ff88"}}, 'card.background: expected a colour such as "#ff8800", "#f80" or'),
        ({"paper": {"margin": "100mm"}}, "paper.margin: 100mm margins leave 4 x 91mm of the paper inside its margins"),
        ({"symbols": [{"text": "a" * 41}]}, "symbols.0.text: expected text of at most 40 characters, got"),
        ({"text": {"lang": "French"}}, 'text.lang: expected a language code such as "fr", "ja" or "zh-Hans" (not'),
        (  # a pin's missing size was said of its symbol, never naming the key to add
            {"layout": {"pinned": [{"card": 1, "symbols": ["a"], "place": {"a": {"center": ["0mm", "0mm"]}}}]}},
            "layout.pinned.0.place.a.size: missing; add this key",
        ),
    ],
)
def test_bad_values_name_the_key_and_what_is_expected(tmp_path: Path, override: dict, expected: str) -> None:
    assert _error(tmp_path, small_theme(**override)).startswith(expected)


def test_several_problems_are_counted(tmp_path: Path) -> None:
    message = _error(tmp_path, small_theme(card={"diameter": "big", "bleed": "x"}))
    assert message.endswith("(and 1 more problem: card.bleed)")  # where the next one is, to fix it too


@pytest.mark.parametrize(
    "text, mm",
    [("8.5cm", 85.0), ("3.5in", 88.9), ("240pt", 84.666), ("85MM", 85.0), (" 3.5 In ", 88.9), ("8.5Cm", 85.0)],
)
def test_lengths_accept_units(tmp_path: Path, text: str, mm: float) -> None:
    theme = load_theme(write_theme(tmp_path, small_theme(card={"diameter": text})))
    assert theme.spec.card.diameter_mm == pytest.approx(mm, abs=1e-3)


def test_lengths_have_one_pattern_in_any_case() -> None:
    """The schema editors check against is the pattern the loader parses with: "85MM" passes both."""
    import json
    import re

    from printdeck.theme import schema_json
    from printdeck.units import LENGTH_PATTERN, parse_length_mm

    def patterns(node: object) -> list[str]:
        if isinstance(node, dict):
            return [str(node.get("pattern"))] * ("pattern" in node) + [p for v in node.values() for p in patterns(v)]
        return [p for v in node for p in patterns(v)] if isinstance(node, list) else []

    length_patterns = {p for p in patterns(json.loads(schema_json())) if "[mM][mM]" in p or "mm" in p}
    assert length_patterns == {LENGTH_PATTERN}
    for text in ("85MM", "85mm", "3.15In", " 12 PT ", "-.5cm"):
        assert re.fullmatch(LENGTH_PATTERN, text) and parse_length_mm(text) == parse_length_mm(text.lower())
    for text in ("85", "85 m", "85mmm", "mm"):
        assert not re.fullmatch(LENGTH_PATTERN, text)
        with pytest.raises(ValueError, match="expected a length such as"):
            parse_length_mm(text)


@pytest.mark.parametrize(
    "override, expected",
    [
        ({"card": {"diameter": "250mm"}}, "card.diameter: a 250mm card with 3mm bleed needs 256mm"),
        ({"card": {"safe_margin": "30mm"}}, "card.safe_margin: 30mm leaves little room"),
        ({"layout": {"gap": "15mm"}}, "layout.gap: 15mm is too large"),
        ({"layout": {"sizes": [0.5, 1.0]}}, "layout.sizes: list the sizes largest first"),
    ],
)
def test_sizes_that_do_not_fit_together(tmp_path: Path, override: dict, expected: str) -> None:
    assert _error(tmp_path, small_theme(**override)).startswith(expected)


def test_single_layout_allows_a_card_wider_than_a4(tmp_path: Path) -> None:
    theme = load_theme(write_theme(tmp_path, small_theme(card={"diameter": "250mm"}, paper={"layout": "single"})))
    assert theme.spec.card.diameter_mm == 250


@pytest.mark.parametrize(
    "deck, expected",
    [
        (
            {"symbols_per_card": 7},
            "deck.symbols_per_card: 7 symbols a card needs a projective plane of order 6, "
            "but no projective plane of order 6 exists (Bruck–Ryser theorem 1949",
        ),
        (
            {"symbols_per_card": 7},
            "use 6 (order 5, 31 cards) or 8 (order 7, 57 cards) symbols a card, or set search: true",
        ),
        ({"symbols_per_card": 11}, "(Lam, Thiel & Swiercz 1989"),
        ({"symbols_per_card": 13}, "no projective plane of order 12 is known"),
        ({"symbols_per_card": 7, "match": 2}, "no biplane with 7 symbols a card exists (22 cards is even"),
        ({"symbols_per_card": 8, "match": 2}, "no biplane with 8 symbols a card exists (Bruck–Ryser–Chowla"),
        ({"symbols_per_card": 7, "match": 2, "search": True}, "no biplane with 7 symbols a card exists"),
        ({"symbols_per_card": 7, "match": 2, "search": True}, "or match: 1; search is for match: 1 only"),
        ({"order": 2, "symbols_per_card": 4}, "deck.order: order 2 means 3 symbols a card with match 1"),
        ({"order": 5, "match": 2}, "deck.order: no biplane with 7 symbols a card"),
        (
            {"order": 2, "cards": 8},
            "deck.cards: 8 is more than the 7 cards of the deck with 3 symbols a card; give at most 7",
        ),
        ({"order": 3}, "symbols: the deck (4 a card, match 1) needs 13 symbols but the theme gives 7; add 6 more"),
    ],
)
def test_impossible_decks(tmp_path: Path, deck: dict, expected: str) -> None:
    assert expected in _error(tmp_path, small_theme(deck=deck))


def test_too_few_symbols_for_any_deck(tmp_path: Path) -> None:
    data = small_theme(deck={}, symbols=[{"text": w} for w in WORDS[:5]])
    assert "needs 7 symbols but the theme gives 5; add 2 more" in _error(tmp_path, data)


def test_search_allows_a_size_without_design(tmp_path: Path) -> None:
    data = small_theme(deck={"symbols_per_card": 7, "search": True}, symbols=[{"text": w} for w in WORDS])
    size = deck_size(load_theme(write_theme(tmp_path, data)))
    assert size.design_points is None and size.symbols_per_card == 7 and size.symbols_needed == 7


def test_size_is_inferred_from_the_symbols(tmp_path: Path) -> None:
    data = small_theme(deck={}, symbols=[{"text": w} for w in WORDS])
    theme = load_theme(write_theme(tmp_path, data))
    assert theme.spec.deck.symbols_per_card == 4 and deck_size(theme).cards == 13


@pytest.mark.parametrize("deck", [{"symbols_per_card": 4, "match": 2}, {"order": 2, "match": 2}])
def test_biplane_size(tmp_path: Path, deck: dict) -> None:
    size = deck_size(load_theme(write_theme(tmp_path, small_theme(deck=deck))))
    assert (size.symbols_per_card, size.design_points, size.cards, size.symbols_needed) == (4, 7, 7, 7)


def test_entry_needs_exactly_one_source(tmp_path: Path) -> None:
    data = small_theme(symbols=[{"text": "a", "image": "b.png"}])
    assert _error(tmp_path, data).startswith(
        "symbols.0: give exactly one of folder, image, text, photo or faces (found image, text)"
    )
    assert _error(tmp_path, small_theme(symbols=[{"name": "x"}])).startswith("symbols.0: give exactly one of")


def test_duplicate_words_are_refused(tmp_path: Path) -> None:
    data = small_theme(symbols=[{"text": w} for w in WORDS[:6]] + [{"text": "Apple"}])
    assert _error(tmp_path, data) == "symbols.6.text: 'Apple' is already symbols.0; list each word once"
    # "café" typed with é as one letter and as e and an accent: one word, refused as one
    # (not a look-alike that --allow-look-alike printed twice)
    data = small_theme(symbols=[{"text": w} for w in WORDS[:5]] + [{"text": "caf\u00e9"}, {"text": "cafe\u0301"}])
    assert _error(tmp_path, data) == (
        "symbols.6.text: 'cafe\u0301' is already symbols.5 (the same letters, typed another way); list each word once"
    )


def test_name_defaults_to_the_folder_of_theme_yaml(tmp_path: Path) -> None:
    folder = tmp_path / "Class 3B"
    folder.mkdir()
    data = small_theme()
    del data["name"]
    write_theme(folder, data)
    assert load_theme(folder).name == "Class-3B"


def test_paper_names_ignore_case() -> None:
    from pydantic import ValidationError

    from printdeck.theme import PaperSpec

    assert PaperSpec(size="A4").size == "a4" and PaperSpec(size=" Letter ").size == "letter"
    with pytest.raises(ValidationError):
        PaperSpec(size="A5")


def test_two_symbols_of_one_name_are_refused_naming_both(tmp_path: Path) -> None:
    """The legend, ``printdeck answer`` and pins name symbols: two "cat"s are refused, each
    entry's key (and file) named; so are two files of one stem in a folder."""
    twemoji = Path(__file__).resolve().parent.parent / "assets" / "twemoji"
    words = [{"text": w} for w in ["sun", "moon", "star", "tree", "fish"]]
    named = [{"name": "cat", "text": "gato"}, {"name": "Cat", "text": "perro"}, *words]
    assert _error(tmp_path, {"symbols": named}) == (
        "symbols.1: the name 'Cat' is already symbols.0's; "
        "give one of them another name (the name key, or rename its file)"
    )
    folder = tmp_path / "pics"
    folder.mkdir()
    for name in ("cat", "dog", "owl"):
        (folder / f"{name}.svg").write_bytes((twemoji / f"{name}.svg").read_bytes())
    Image.new("RGB", (300, 300), (200, 30, 30)).save(folder / "cat.png")
    message = _error(tmp_path, {"symbols": [{"folder": "pics"}, *words]})
    assert message.startswith("symbols.0: the name 'cat' (cat.svg) is already symbols.0's (cat.png)")


@pytest.mark.parametrize(
    "card, paper, expected",
    [
        ({"diameter": "194mm"}, {"size": "a4"}, "a 194mm card with 3mm bleed needs 200mm but the paper has 194mm"),
        ({"diameter": "200mm"}, {"size": "a4"}, "a 200mm card with 3mm bleed needs 206mm but the paper has 194mm"),
        (
            {"shape": "square", "size": "190mm"},
            {"size": "a4"},
            "a 190 mm square card with 3mm bleed needs 196 x 196mm but the paper has 192 x 279mm",
        ),
    ],
)
def test_a_card_too_big_for_the_sheet_is_refused_by_the_room_the_sheet_keeps(
    tmp_path: Path, card: dict[str, str], paper: dict[str, str], expected: str
) -> None:
    """The theme's check counts what the imposition keeps (the margin and the crop marks'
    room): a 194 mm circle on A4 passed it and was refused later, in other words, without
    the file's name."""
    data = {"card": {"bleed": "3mm", **card}, "paper": paper, "symbols": [{"text": w} for w in WORDS[:7]]}
    message = _error(tmp_path, data)
    assert message.startswith("card.") and expected in message and "crop marks' room" in message
    fits = {"card": {"bleed": "3mm", "diameter": "188mm"}, "paper": paper, "symbols": [{"text": w} for w in WORDS[:7]]}
    (tmp_path / "fits").mkdir()
    load_theme(write_theme(tmp_path / "fits", fits))  # the largest circle the sheet holds


@pytest.mark.parametrize(
    ("written", "colour"),
    [("#ff8800", "#ff8800"), ("#FF8800", "#FF8800"), ("#f80", "#ff8800"), (" #AbC ", "#aabbcc"), ("orange", "#ffa500")],
)
def test_a_colour_is_written_as_a_designer_writes_it(written: str, colour: str) -> None:
    theme = printdeck.load_theme(small_theme(card={"background": written}, text={"colors": [written, "navy"]}))
    assert theme.spec.card.background == colour and theme.spec.text.colors == [colour, "#000080"]


def test_a_colour_name_reads_the_same_after_pillow_has_used_it() -> None:
    from PIL import ImageColor

    ImageColor.getrgb("ivory")  # Pillow then keeps a tuple for the name in its colour map
    theme = printdeck.load_theme(small_theme(card={"background": "ivory"}))
    assert theme.spec.card.background == "#fffff0"


def test_a_word_too_long_says_what_to_do(tmp_path: Path) -> None:
    assert _error(tmp_path, small_theme(symbols=[{"text": "a" * 41}])).endswith("; shorten it")


def test_a_deck_with_words_turns_thirty_degrees_unless_the_theme_says() -> None:
    """Words turned any way printed upside down on cards and slides of a hand-written or
    studio word deck (init wrote 30° for them): left out, layout.rotation is 30 with words."""
    words = {"deck": {"symbols_per_card": 3}, "symbols": [{"text": w} for w in "abcdefg"]}
    assert printdeck.load_theme(words).spec.layout.rotation == 30
    assert printdeck.load_theme({**words, "layout": {"rotation": "any"}}).spec.layout.rotation == "any"  # said
    assert printdeck.load_theme({**words, "layout": {"gap": "2mm"}}).spec.layout.rotation == 30
    pictures = {"deck": {"symbols_per_card": 3}, "symbols": [{"folder": "@assets/twemoji"}]}
    assert printdeck.load_theme(pictures).spec.layout.rotation == "any"


def test_every_union_tag_of_the_spec_is_left_out_of_keys() -> None:
    """A key named ``card.size.pair.0``: the tag of a union of the theme spec was shown as if
    it were a key. Every tag the spec's unions use must be one the messages leave out."""
    import re

    from printdeck.theme import messages

    folder = Path(messages.__file__).parent
    spec_source = "".join(
        (folder / f"{name}.py").read_text(encoding="utf-8") for name in ("spec", "spec_types", "spec_print")
    )
    tags = set(re.findall(r'Tag\("([a-z_]+)"\)', spec_source))
    assert tags and tags <= messages.UNION_TAGS, tags - messages.UNION_TAGS


def test_the_picture_formats_said_are_those_read() -> None:
    """``init --help`` said "PNG, JPEG, WebP, SVG" while HEIC and AVIF photos are read: the
    formats in words cover every suffix read."""
    from printdeck.choices import PICTURE_FORMATS
    from printdeck.theme.theme_paths import IMAGE_SUFFIXES

    words = {"jpg": "JPEG", "jpeg": "JPEG", "heif": "HEIC"}
    said = set(PICTURE_FORMATS.upper().split(", "))
    assert {words.get(s[1:], s[1:]).upper() for s in IMAGE_SUFFIXES} == said


def test_without_crop_marks_a_card_may_take_their_room(tmp_path: Path) -> None:
    """A 194 mm circle (200 mm with its bleed) does not fit A4's 194 mm inside the margins
    and the crop marks' room: the refusal offers to leave the marks out, and without them
    the card fits (the marks' 3 mm a side is the paper's again)."""
    words = [{"text": w} for w in WORDS[:7]]
    data = {"card": {"bleed": "3mm", "diameter": "194mm"}, "paper": {"size": "a4"}, "symbols": words}
    assert _error(tmp_path, data).endswith(
        "make the card smaller or the paper larger, or leave out the crop marks (paper.cut_marks: false), "
        "whose room the card then takes"
    )
    unmarked = {**data, "paper": {"size": "a4", "cut_marks": False}}
    (tmp_path / "unmarked").mkdir()
    load_theme(write_theme(tmp_path / "unmarked", unmarked))
    too_big = {**unmarked, "card": {"bleed": "3mm", "diameter": "201mm"}}
    message = _error(tmp_path / "unmarked", too_big)
    assert "but the paper has 200mm inside its margins; make the card smaller or the paper larger" in message
    assert "cut_marks" not in message  # leaving out marks that are not there helps no one
