"""The look-alike verdicts shipped with the bundled pictures (issue 29, item 2: no work
twice): they are the verdicts the check itself gives, a deck of bundled pictures draws
and compares none of its pairs on a cold cache, and verdicts of other code are ignored.
A picture's drawing key does not depend on where its file is (the verdicts are found by it
wherever printdeck is installed)."""

from __future__ import annotations

import importlib
import shutil
from pathlib import Path

import pytest
from json_tables import first_difference

import printdeck
from printdeck.artwork import Vision, drawing_key
from printdeck.assign import assign_symbols
from printdeck.resources import data_root
from printdeck.theme import bundled_pairs
from printdeck.theme.load import load_theme
from printdeck.theme.look_alikes import COLOUR_VISIONS, code_version, look_alikes, pair_idents

look_alikes_module = importlib.import_module("printdeck.theme.look_alikes")  # the package's name is a function
REMAKE = 'python -c "from printdeck.theme.bundled_table import write_table; write_table()"'
VISIONS = (Vision.NORMAL, Vision.GREY, *COLOUR_VISIONS)


def _default() -> printdeck.Theme:
    return load_theme(data_root("themes") / "default.yaml")


def test_the_shipped_verdicts_are_those_of_the_pictures_and_code_as_they_are() -> None:
    table = bundled_pairs._table()
    assert table is not None, f"{bundled_pairs.table_path()} is missing or unreadable: {REMAKE}"
    code, _, idents, _ = table
    assert code == code_version() and idents == pair_idents(_default()), (
        f"{bundled_pairs.table_path().name} no longer matches the bundled pictures or the look-alike code: {REMAKE}"
    )


def test_the_shipped_verdicts_are_what_comparing_every_pair_gives_now() -> None:
    """Remade now (every pair compared afresh, in a cache of its own), the file is the same:
    every verdict, count and key exactly; each measured number (a colour difference, a shape
    profile) to its last few bits, which another processor's sums round differently (numpy
    adds in the order its vector instructions take: 4e-15 apart between two machines here)."""
    import json

    from printdeck.theme.bundled_table import make_table

    shipped = json.loads(bundled_pairs.table_path().read_text(encoding="utf-8"))
    where = first_difference(make_table(), shipped)
    assert where is None, f"{bundled_pairs.table_path().name} is not what the check gives now, at {where}: {REMAKE}"


def testfirst_difference_tells_rounding_from_a_change() -> None:
    shipped = {"pairs": {"0 1": [0.9017854928970337, 0, 65, {"grey": 30.468124866275584}]}}
    rounded = {"pairs": {"0 1": [0.9017854928970337, 0, 65, {"grey": 30.46812486627556}]}}
    assert first_difference(rounded, shipped) is None
    flipped = {"pairs": {"0 1": [0.9017854928970337, 1, 65, {"grey": 30.468124866275584}]}}
    assert first_difference(flipped, shipped) == "/pairs/0 1/1 (1 != 0)"
    moved = {"pairs": {"0 1": [0.9017854928970337, 0, 65, {"grey": 30.47}]}}
    assert first_difference(moved, shipped) == "/pairs/0 1/3/grey (30.47 != 30.468124866275584)"
    assert first_difference({"pairs": {}}, shipped) == "/pairs (keys ['0 1'])"


@pytest.fixture
def empty_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("PRINTDECK_CACHE_DIR", str(tmp_path / "cache"))
    look_alikes_module._POSES.clear()
    look_alikes_module._look.cache_clear()
    return tmp_path / "cache"


def test_a_deck_of_bundled_pictures_compares_none_and_finds_what_the_check_finds(
    empty_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    theme = _default()
    chosen = assign_symbols(theme, 57, 4242)  # a seed's 57 of the 171, and a pair alike in grey
    alike = [s for s in theme.symbols if s.name in ("cookie", "tennis ball")]
    symbols = [*alike, *(s for s in chosen if s.name not in ("cookie", "tennis ball"))][:57]

    def never(*args: object, **kwargs: object) -> None:
        raise AssertionError("a bundled pair was drawn or compared")

    with monkeypatch.context() as patch:
        patch.setattr(look_alikes_module, "look_of", never)
        patch.setattr(look_alikes_module, "pair_pose", never)
        shipped = look_alikes(theme, symbols, VISIONS)
    shutil.rmtree(empty_cache)
    monkeypatch.setattr(bundled_pairs, "shipped_records", lambda ident, code: None)
    compared = look_alikes(theme, symbols, VISIONS)
    assert shipped == compared
    assert ("cookie", "tennis ball", Vision.GREY) in {(p.first, p.second, p.vision) for p in compared}


def test_verdicts_of_other_code_are_not_used(monkeypatch: pytest.MonkeyPatch) -> None:
    ident = pair_idents(_default())[0]
    assert bundled_pairs.shipped_records(ident, code_version()) is not None
    assert bundled_pairs.shipped_records(ident, "0" * 64) is None
    assert bundled_pairs.shipped_records("not a picture's identity", code_version()) is None


def test_a_pictures_drawing_key_does_not_depend_on_where_its_file_is(tmp_path: Path) -> None:
    theme = printdeck.load_theme(
        {"name": "x", "symbols": [{"image": "@assets/twemoji/cat.svg"}, *({"text": w} for w in "abcdef")]}
    )
    copy = tmp_path / "elsewhere" / "my-cat.svg"
    copy.parent.mkdir()
    shutil.copy(theme.symbols[0].path, copy)
    (tmp_path / "theme.yaml").write_text(
        "name: y\nsymbols:\n  - image: elsewhere/my-cat.svg\n" + "".join(f"  - text: {w}\n" for w in "abcdef"),
        encoding="utf-8",
    )
    moved = printdeck.load_theme(tmp_path / "theme.yaml")
    assert drawing_key(moved.symbols[0]) == drawing_key(theme.symbols[0])
    copy.write_bytes(copy.read_bytes().replace(b"<svg", b"<svg data-x='1'", 1))
    changed = printdeck.load_theme(tmp_path / "theme.yaml")
    assert drawing_key(changed.symbols[0]) != drawing_key(theme.symbols[0])  # the bytes count
