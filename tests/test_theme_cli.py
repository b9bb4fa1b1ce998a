"""The theme commands and every bad-input case end-to-end: exit 2, one line, nothing written."""

from __future__ import annotations

import io
import json
import os
from collections.abc import Callable
from pathlib import Path

import click
import pytest
from click.testing import CliRunner, Result
from PIL import Image
from test_theme_support import WORDS, image_folder, old_deck_pdf, png_bytes, small_theme, write_theme

from printdeck.resources import data_root
from printdeck.theme import bundled_theme_names, deck_size, load_theme
from printdeck.theme.scaffold import schema_json


def _cli() -> click.Group:
    """The real ``printdeck`` group, or (while the build stack cannot import) the theme commands."""
    try:
        from printdeck.cli import main
    except ImportError:
        from printdeck.cli.theme import check, init, schema, themes

        main = click.Group(commands=[check, init, schema, themes])
    return main


CLI = _cli()
HAS_BUILD = "build" in CLI.commands


def _run(*args: str) -> Result:
    return CliRunner().invoke(CLI, list(args))


def _assert_clean_failure(result: Result, *fragments: str) -> None:
    assert result.exit_code == 2, (result.exit_code, result.output, result.exception)
    err = result.stderr
    assert err.startswith("printdeck: error: ") and err.count("\n") == 1, err
    assert "Traceback" not in result.output + err
    for fragment in fragments:
        assert fragment in err, (fragment, err)


# --- the bad-input cases of the issue: (builder of the theme ref, fragments of the message) ---


def _theme_text(text: str | bytes) -> Callable[[Path], str]:
    def make(tmp: Path) -> str:
        path = tmp / "theme.yaml"
        path.write_bytes(text if isinstance(text, bytes) else text.encode())
        return str(path)

    return make


def _theme_data(**override: object) -> Callable[[Path], str]:
    return lambda tmp: str(write_theme(tmp, small_theme(**override)))


def _folder_with(name: str, content: bytes, n_good: int = 6) -> Callable[[Path], str]:
    def make(tmp: Path) -> str:
        image_folder(tmp / "pics", n_good)
        (tmp / "pics" / name).write_bytes(content)
        return str(write_theme(tmp, small_theme(symbols=[{"folder": "pics"}])))

    return make


def _duplicate_picture(tmp: Path) -> str:
    image_folder(tmp / "pics", 7)
    (tmp / "pics" / "zz.png").write_bytes((tmp / "pics" / "pic-01.png").read_bytes())
    return str(write_theme(tmp, small_theme(symbols=[{"folder": "pics"}])))


def _bomb() -> bytes:
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    ihdr = struct.pack(">IIBBBBB", 40000, 40000, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\0" * 64)) + chunk(b"IEND", b"")


def _font(content: bytes) -> Callable[[Path], str]:
    def make(tmp: Path) -> str:
        (tmp / "font.ttf").write_bytes(content)
        return str(write_theme(tmp, small_theme(text={"font": "font.ttf"})))

    return make


BOMB_YAML = "\n".join(
    ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    + [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, 9)]
)
SVG_HEAD = '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 9 9">'

BAD_INPUTS: dict[str, tuple[Callable[[Path], str], tuple[str, ...]]] = {
    "missing theme": (lambda tmp: str(tmp / "nope.yaml"), ("nope.yaml: theme file not found",)),
    "unreadable theme (binary)": (_theme_text(b"\xff\xfe\x00\x01"), ("theme.yaml: not UTF-8 text",)),
    "yaml syntax": (_theme_text("card: [85mm\n"), ("theme.yaml: not valid YAML: line 2",)),
    "not a mapping": (_theme_text("- a\n- b\n"), ("a theme must be a mapping", "got a list")),
    "alias bomb": (_theme_text(BOMB_YAML), ("too many aliases",)),
    "wrong type": (_theme_data(seed="soon"), ('seed: expected a whole number, got "soon"',)),
    "wrong unit": (_theme_data(card={"diameter": "85px"}), ('card.diameter: expected a length such as "85mm"',)),
    "unknown key": (_theme_data(card={"diamter": "85mm"}), ("card: unknown key 'diamter'; did you mean 'diameter'?",)),
    "negative size": (_theme_data(card={"bleed": "-1mm"}), ("card.bleed: expected a length at least 0mm",)),
    "absurd size": (_theme_data(card={"diameter": "3m"}), ("card.diameter: expected a length",)),
    "absurd size in range": (_theme_data(card={"diameter": "400mm"}), ("card.diameter: a 400mm card",)),
    "no design": (
        _theme_data(deck={"symbols_per_card": 7}),
        ("deck.symbols_per_card: 7 symbols a card needs", "Bruck–Ryser", "search: true"),
    ),
    "too few symbols": (_theme_data(deck={"order": 3}), ("needs 13 symbols but the theme gives 7; add 6 more",)),
    "duplicate file": (
        _theme_data(symbols=[{"text": w} for w in WORDS[:6]] + [{"text": "apple"}]),
        ("symbols.6.text: 'apple' is already symbols.0",),
    ),
    "duplicate picture": (_duplicate_picture, ("zz.png is the same picture as",)),
    "missing image": (_theme_data(symbols=["gone.png"]), ("symbols.0.image", "gone.png not found")),
    "empty image": (_folder_with("e.png", b""), ("e.png is empty",)),
    "truncated image": (_folder_with("t.png", png_bytes((9, 9, 9), (200, 200))[:150]), ("t.png is truncated",)),
    "corrupt image": (_folder_with("c.jpg", b"\xff\xd8\xff\xe0 not really a jpeg"), ("c.jpg",)),
    "decompression bomb": (
        _folder_with("b.png", _bomb()),
        ("b.png is 1,600 megapixels, more than 178 megapixels; scale it down",),
    ),
    "svg external entity": (
        _folder_with(
            "x.svg",
            b'<!DOCTYPE svg [<!ENTITY e SYSTEM "file:///etc/passwd">]>' + SVG_HEAD.encode() + b"<text>&e;</text></svg>",
        ),
        ("DTD or entities",),
    ),
    "svg entity expansion": (
        _folder_with(
            "x.svg",
            b'<!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;">]>'
            + SVG_HEAD.encode()
            + b"<text>&b;</text></svg>",
        ),
        ("DTD or entities",),
    ),
    "svg remote reference": (
        _folder_with(
            "x.svg", SVG_HEAD.encode() + b'<image xlink:href="https://evil.example/a.png" width="9" height="9"/></svg>'
        ),
        ("outside resource 'https://evil",),
    ),
    "unreadable font": (_font(b"\x00\x01\x00\x00garbage"), ("text.font: ", "not a font file printdeck can read")),
}


OLD_DECK = old_deck_pdf()


@pytest.mark.parametrize("case", list(BAD_INPUTS))
@pytest.mark.parametrize("command", ["check", "build"])
def test_bad_input_fails_cleanly_and_writes_nothing(tmp_path: Path, case: str, command: str) -> None:
    if command == "build" and not HAS_BUILD:
        pytest.skip("printdeck build is not importable yet")
    make, fragments = BAD_INPUTS[case]
    theme_dir = tmp_path / "theme"
    theme_dir.mkdir()
    ref = make(theme_dir)
    out = tmp_path / "out"
    out.mkdir()
    (out / "deck.pdf").write_bytes(OLD_DECK)  # an earlier build's PDF, its manifest gone
    before = {p.name for p in theme_dir.rglob("*")}
    args = ["check", ref] if command == "check" else ["build", ref, "-o", str(out / "deck.pdf"), "-q"]
    _assert_clean_failure(_run(*args), *fragments)
    assert sorted(p.name for p in out.iterdir()) == ["deck.pdf"]
    assert (out / "deck.pdf").read_bytes() == OLD_DECK
    assert {p.name for p in theme_dir.rglob("*")} == before


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads every file")
def test_unreadable_theme_file(tmp_path: Path) -> None:
    path = write_theme(tmp_path, small_theme())
    path.chmod(0)
    _assert_clean_failure(_run("check", str(path)), "cannot read the theme")


@pytest.mark.skipif(not HAS_BUILD, reason="printdeck build is not importable yet")
def test_unwritable_output_path(tmp_path: Path) -> None:
    theme = write_theme(tmp_path, small_theme())
    (tmp_path / "file.txt").write_text("a file, not a folder")
    _assert_clean_failure(_run("build", str(theme), "-o", str(tmp_path / "file.txt" / "deck.pdf"), "-q"), "deck.pdf")
    assert (tmp_path / "file.txt").read_text() == "a file, not a folder"


def test_check_reports_the_deck(tmp_path: Path) -> None:
    result = _run("check", str(write_theme(tmp_path, small_theme())))
    assert result.exit_code == 0 and result.output == "small: ok: 7 cards of 3 symbols (match 1), 7 of 7 symbols used\n"


HERE = (
    "import sys\n"
    "from printdeck.audit import INPUT_EVENT\n"
    "from printdeck.cli.common import theme_ref\n"
    "seen = []\n"
    "sys.addaudithook(lambda event, args: seen.append(args[0]) if event == INPUT_EVENT else None)\n"
    "print(theme_ref(None), seen)\n"
)


def test_no_theme_given_means_the_theme_of_this_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A parent who ran ``printdeck build`` in the deck's folder got the bundled emoji deck;
    the folder's theme.yaml is now used (the default where there is none), and the probe is
    an input of a replayed build (a theme.yaml made later is not missed)."""
    import subprocess
    import sys

    monkeypatch.chdir(tmp_path)
    checked = _run("check").output
    assert "\ndefault: ok:" in checked
    assert checked.rstrip().endswith("and 102 more (a build's manifest lists them)")  # check writes none
    write_theme(tmp_path, small_theme())
    assert _run("check").output.startswith("small: ok: 7 cards")
    probe = subprocess.run([sys.executable, "-c", HERE], capture_output=True, text=True, check=True, cwd=tmp_path)
    assert probe.stdout.strip() == f"theme.yaml {[str(tmp_path / 'theme.yaml')]}"


def test_check_says_the_decks_a_class_set_or_a_split_deck_prints(tmp_path: Path) -> None:
    class_set = {**small_theme(), "deck": {"symbols_per_card": 3, "copies": 4}}
    result = _run("check", str(write_theme(tmp_path, class_set)))
    assert result.exit_code == 0 and "small: ok: 4 decks of 7 cards of 3 symbols (match 1)" in result.output
    split = {**small_theme(), "deck": {"symbols_per_card": 3, "faces": "split"}}
    split["symbols"] = [{"faces": [{"text": w}, {"text": w[::-1]}]} for w in WORDS[:7]]
    result = _run("check", str(write_theme(tmp_path, split)))
    assert result.exit_code == 0 and "ok: 7 cards of 3 symbols in each of decks A and B (match 1)" in result.output
    split["deck"]["copies"] = 2  # the build refuses it: so does check
    result = _run("check", str(write_theme(tmp_path, split)))
    assert result.exit_code == 2
    assert "deck.copies: a class set of a split deck (deck.faces: split) is not supported" in result.output


def test_themes_lists_every_bundled_theme_with_sizes() -> None:
    result = _run("themes")
    assert result.exit_code == 0
    rows = {line.split()[0]: line.split()[1:5] for line in result.output.splitlines()[1:-1]}
    assert rows == {
        "default": ["55", "8", "1", "57/171"],
        "double": ["37", "9", "2", "37/171"],
        "junior": ["31", "6", "1", "31/171"],
        "languages": ["31", "6", "1", "31/31"],
        "poker": ["55", "8", "1", "57/171"],
        "times-tables": ["31", "6", "1", "31/31"],
        "vocabulary": ["31", "6", "1", "31/31"],
        "words": ["57", "8", "1", "57/57"],
    }
    lines = result.output.splitlines()[:-1]  # "times-tables" pushed its row's numbers out of their columns
    col = lines[0].index("title")
    assert all(line[col - 2 : col] == "  " and line[col] != " " for line in lines[1:])


def test_bundled_themes_load_with_every_file_checked() -> None:
    assert bundled_theme_names() == [
        "default",
        "double",
        "junior",
        "languages",
        "poker",
        "times-tables",
        "vocabulary",
        "words",
    ]
    sizes = {name: deck_size(load_theme(name)) for name in bundled_theme_names()}
    assert (sizes["default"].symbols_per_card, sizes["default"].cards, sizes["default"].design_points) == (8, 55, 57)
    assert (sizes["junior"].symbols_per_card, sizes["junior"].cards) == (6, 31)
    assert sizes["double"].match == 2 and sizes["words"].symbols_per_card == 8
    words = load_theme("words")
    assert {s.kind for s in words.symbols} == {"text"} and words.spec.layout.rotation == 30


def test_schema_command_prints_the_committed_schema() -> None:
    result = _run("schema")
    assert result.exit_code == 0
    committed = (data_root("themes") / "theme.schema.json").read_text(encoding="utf-8")
    assert result.output == schema_json() == committed, "run `printdeck schema > themes/theme.schema.json`"
    schema = json.loads(result.output)
    assert schema["additionalProperties"] is False
    bleed = schema["$defs"]["CardSpec"]["properties"]["bleed"]
    assert bleed["default"] == "3mm" and bleed["type"] == "string"
    diameter = schema["$defs"]["CardSpec"]["properties"]["diameter"]  # optional: card.size says it too
    assert diameter["default"] is None and {"type": "string"} in [{"type": b.get("type")} for b in diameter["anyOf"]]


def test_bundled_themes_point_editors_at_the_schema() -> None:
    for name in bundled_theme_names():
        first = (data_root("themes") / f"{name}.yaml").read_text(encoding="utf-8").splitlines()[0]
        assert first == "# yaml-language-server: $schema=theme.schema.json"


def test_init_from_images_names_photos_and_sizes(tmp_path: Path) -> None:
    pics = image_folder(tmp_path / "pics", 20)
    for i in range(20):
        out = io.BytesIO()
        Image.new("RGB", (64, 48), (i * 12, 30, 90)).save(out, "JPEG")
        (pics / f"holiday_{i:02d}.jpg").write_bytes(out.getvalue())
    result = _run("init", str(tmp_path / "deck"), "--images", str(pics))
    assert result.exit_code == 0, result.output
    assert result.output.startswith(
        f"wrote {tmp_path / 'deck' / 'theme.yaml'}: 40 images: order 5, 31 cards of 6; 57 needed for 8 a card"
    )
    text = (tmp_path / "deck" / "theme.yaml").read_text(encoding="utf-8")
    schema_line = text.splitlines()[0]
    assert schema_line.startswith("# yaml-language-server: $schema=")
    target = (tmp_path / "deck" / schema_line.split("=", 1)[1]).resolve()
    assert target == (data_root("themes") / "theme.schema.json").resolve()
    theme = load_theme(tmp_path / "deck")
    kinds = {s.name: s.kind for s in theme.symbols}
    assert kinds["pic 00"] == "raster" and kinds["holiday 07"] == "photo" and len(kinds) == 40
    assert deck_size(theme).symbols_per_card == 6


def test_init_from_words(tmp_path: Path) -> None:
    words = tmp_path / "words.txt"
    words.write_text("# my class\n" + "\n".join(WORDS[:13] + ["yes", "null"]) + "\n\n", encoding="utf-8")
    result = _run("init", str(tmp_path / "w"), "--words", str(words))
    assert result.exit_code == 0 and "15 words: order 3, 13 cards of 4; 21 needed for 5 a card" in result.output
    theme = load_theme(tmp_path / "w" / "theme.yaml")
    assert [s.text for s in theme.symbols][-2:] == ["yes", "null"]
    assert theme.spec.layout.rotation == 30


def test_init_without_source_uses_the_bundled_artwork(tmp_path: Path) -> None:
    result = _run("init", str(tmp_path / "d"))
    assert result.exit_code == 0 and "the theme makes 57 cards of 8" in result.output
    assert len(load_theme(tmp_path / "d").symbols) == 171


@pytest.mark.parametrize(
    "setup, args, fragments",
    [
        ("exists", ["--words", "{w}"], ("theme.yaml: already exists", "pass --force to overwrite it")),
        ("", ["--words", "{tmp}/missing.txt"], ("error: --words ", "missing.txt: not found; check the path")),
        ("dup", ["--words", "{w}"], ("line 3: 'apple' is already on line 1",)),
        ("few", ["--words", "{w}"], ("3 symbols are too few: the smallest deck needs 7; add 4 more",)),
        ("", ["--images", "{tmp}/nowhere"], ("error: --images ", "nowhere: is not a folder")),
    ],
)
def test_init_failures_write_nothing(tmp_path: Path, setup: str, args: list[str], fragments: tuple[str, ...]) -> None:
    words = tmp_path / "w.txt"
    lines = {"dup": ["Apple", "pear", "apple"], "few": ["a", "b", "c"]}.get(setup, WORDS[:7])
    words.write_text("\n".join(lines), encoding="utf-8")
    target = tmp_path / "deck"
    if setup == "exists":
        target.mkdir()
        (target / "theme.yaml").write_text("mine")
    argv = ["init", str(target)] + [a.format(w=words, tmp=tmp_path) for a in args]
    _assert_clean_failure(_run(*argv), *fragments)
    if setup == "exists":
        assert (target / "theme.yaml").read_text() == "mine"
    else:
        assert not target.exists() or not any(target.iterdir())


def test_init_into_a_path_that_cannot_be_a_folder(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    words = tmp_path / "w.txt"
    words.write_text("\n".join(WORDS[:7]))
    _assert_clean_failure(_run("init", str(tmp_path / "file" / "deck"), "--words", str(words)), "cannot create")


def test_init_names_the_pictures_given_when_two_are_one(tmp_path: Path) -> None:
    """Two copies of one photo in --images were refused as ``symbols.9.photo:
    <new theme>/images/...``: a key of a theme never written and a copy already removed.
    The refusal now names the two files the parent gave."""
    pictures = tmp_path / "phone"
    image_folder(pictures, 6)  # too few left for a deck: refused, not left out
    (pictures / "pic-03 (1).png").write_bytes((pictures / "pic-03.png").read_bytes())
    result = _run("init", str(tmp_path / "deck"), "--images", str(pictures))
    assert result.exit_code == 2
    names = sorted(f"{pictures}/{name}" for name in ("pic-03.png", "pic-03 (1).png"))
    line = result.output.strip()
    assert line.startswith(f"printdeck: error: --images {pictures}/") and "is the same picture as" in line, line
    assert all(name in line for name in names) and "symbols." not in line and "/deck/images" not in line
    assert not (tmp_path / "deck").exists()
    words = tmp_path / "words.txt"  # the copies paired with words: the same, said of the files given
    words.write_text("pic-03 = gato\npic-03 (1) = gatito\n", encoding="utf-8")
    result = _run("init", str(tmp_path / "deck2"), "--images", str(pictures), "--words", str(words))
    line = result.output.strip()
    assert result.exit_code == 2 and "is the same picture as" in line and "symbols." not in line, line
    assert all(name in line for name in names) and not (tmp_path / "deck2").exists()


def test_init_names_every_bad_picture_at_once(tmp_path: Path) -> None:
    """A parent with a cut-short photo, an empty file and a note named .jpg ran init three
    times, told of one at each run, then once more for each copy of a photo. One run now
    names them all, and writes nothing, when too few pictures are left for a deck (five
    here; with enough, they are left out: the next test)."""
    pictures = tmp_path / "phone"
    image_folder(pictures, 5)
    (pictures / "cut.png").write_bytes(png_bytes((9, 9, 9), (200, 200))[:150])
    (pictures / "empty.png").write_bytes(b"")
    (pictures / "note.jpg").write_text("hello")
    (pictures / "party.gif").write_bytes(b"GIF89a")  # a kind printdeck does not read: said with the others
    duplicates = (("pic-02 (1).png", "pic-02.png"), ("pic-04 copy.png", "pic-04.png"))  # each told a run later
    for copy, original in duplicates:
        (pictures / copy).write_bytes((pictures / original).read_bytes())
    result = _run("init", str(tmp_path / "deck"), "--images", str(pictures))
    line = result.output.strip()
    assert result.exit_code == 2 and "\n" not in line and "6 pictures cannot be used: " in line, line
    assert all(name in line for name in ("cut.png", "empty.png", "note.jpg", "party.gif"))
    said = dict(item.split(" is the same picture as ") for item in line.split(") ")[1:] if "same picture" in item)
    copies = {tuple(sorted((f"{pictures}/{copy}", f"{pictures}/{original}"))) for copy, original in duplicates}
    assert {tuple(sorted((a, b.split(":")[0]))) for a, b in said.items()} == copies, line
    assert line.endswith("or leave them out of the folder")
    assert not (tmp_path / "deck").exists()
    for name in ("cut.png", "empty.png", "note.jpg"):  # each with the fix its own run would say
        alone = tmp_path / f"only-{name}"
        image_folder(alone, 5)
        (alone / name).write_bytes((pictures / name).read_bytes())
        fix = _run("init", str(tmp_path / "deck"), "--images", str(alone)).output.strip().split("; ")[-1]
        assert f": {fix}" in line, (fix, line)


def test_init_leaves_out_the_pictures_it_cannot_use_when_enough_are_left(tmp_path: Path) -> None:
    """A parent's 60 phone photos held one cut short and a copy: init stopped, and the parent
    had to find and move them before getting any theme. With enough pictures left for a deck,
    init now writes the theme without them and warns, naming each with why (and its fix);
    pictures paired with words are still refused (a word would lose its picture)."""
    pictures = image_folder(tmp_path / "phone", 7)
    (pictures / "cut.png").write_bytes(png_bytes((9, 9, 9), (200, 200))[:150])
    (pictures / "note.jpg").write_text("hello")
    (pictures / "pic-03 copy.png").write_bytes((pictures / "pic-03.png").read_bytes())
    result = _run("init", str(tmp_path / "deck"), "--images", str(pictures))
    assert result.exit_code == 0, result.output
    warned = [line for line in result.stderr.splitlines() if line.startswith("printdeck: warning: images: ")]
    assert len(warned) == 2, result.stderr
    assert "2 pictures cannot be used: " in warned[0] and "cut.png" in warned[0] and "note.jpg" in warned[0]
    assert "re-export it as PNG or JPEG" in warned[0] and "init left them out of the theme" in warned[0]
    assert "left out a copy of pictures the theme holds: pic-03 copy.png (the same picture as " in warned[1]
    theme = (tmp_path / "deck" / "theme.yaml").read_text(encoding="utf-8")
    assert theme.count("  - photo: ") + theme.count("  - image: ") == 7, theme
    assert all(name not in theme for name in ("cut.png", "note.jpg", "copy"))
    assert "7 images" in result.stdout
    assert len(load_theme(tmp_path / "deck").symbols) == 7  # its every picture passes the theme's checks
    words = tmp_path / "words.txt"
    words.write_text("".join(f"pic-{k:02d} = w{k}\n" for k in range(7)), encoding="utf-8")
    paired = _run("init", str(tmp_path / "paired"), "--images", str(pictures), "--words", str(words))
    assert paired.exit_code == 2 and "3 pictures cannot be used" in paired.stderr
    assert not (tmp_path / "paired").exists()


WHITE_DISC = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle cx="5" cy="5" r="4" {}/></svg>'


@pytest.mark.parametrize(
    ("name", "content", "refused"),
    [
        ("cloud.svg", WHITE_DISC.format('fill="#fff"'), True),
        ("ghost.png", None, True),  # a white cut-out: transparent round a white disc
        ("ring.svg", WHITE_DISC.format('fill="#fff" stroke="#222"'), False),
    ],
)
def test_init_refuses_a_picture_that_would_not_show_on_the_new_themes_card(
    tmp_path: Path, name: str, content: str | None, refused: bool
) -> None:
    """A designer's white icon went into the theme init wrote, which check then refused: init
    now says so itself, naming the file (a white icon with a dark outline is fine)."""
    pictures = tmp_path / "icons"
    image_folder(pictures, 6)  # too few left for a deck: refused, not left out
    if content is None:
        ghost = Image.new("RGBA", (64, 64), (0, 0, 0, 0))
        ghost.paste((255, 255, 255, 255), (8, 8, 56, 56))
        ghost.save(pictures / name)
    else:
        (pictures / name).write_text(content)
    result = _run("init", str(tmp_path / "deck"), "--images", str(pictures))
    line = result.output.strip()
    if refused:
        assert result.exit_code == 2 and "\n" not in line and not (tmp_path / "deck").exists(), line
        assert f"{name} shows no visible ink on a new theme's white card" in line and "give it colour" in line
    else:
        assert result.exit_code == 0, line
        assert name in (tmp_path / "deck" / "theme.yaml").read_text()


def test_init_says_what_it_skips_in_the_folder_of_pictures(tmp_path: Path) -> None:
    """init --images said "7 images" and nothing of the 4 photos in a sub-folder, nor of
    notes.txt and clip.mov: it now names what it skipped, in one line (hidden files not)."""
    pics = image_folder(tmp_path / "pics", 7)
    image_folder(pics / "2023 holiday", 4)
    image_folder(pics / "sunset.png", 1)  # a folder named like a picture stopped init: a sub-folder all the same
    (pics / "notes.txt").write_text("to print", encoding="utf-8")
    (pics / "clip.mov").write_bytes(b"\0" * 16)
    (pics / ".DS_Store").write_bytes(b"\0")
    result = _run("init", str(tmp_path / "deck"), "--images", str(pics))
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[1] == (
        "skipped: sub-folders '2023 holiday', 'sunset.png' (5 pictures; sub-folders are not read), clip.mov, "
        "notes.txt (not pictures)"
    )
    assert len(load_theme(tmp_path / "deck").symbols) == 7
    many = image_folder(tmp_path / "many", 7)
    for name in ("a", "b", "c", "d", "e"):
        (many / f"{name}.txt").write_text(name, encoding="utf-8")
    (many / "old").mkdir()
    (many / "empty").mkdir()
    from printdeck.theme import init_theme

    assert init_theme(tmp_path / "deck2", images=many).skipped == (
        "skipped: sub-folders 'empty', 'old' (no pictures; sub-folders are not read), a.txt, b.txt, c.txt and 2 more "
        "(not pictures)"
    )


def test_init_of_a_decks_own_folder_skips_none_of_printdecks_files(tmp_path: Path) -> None:
    """``init --force`` with the deck's own folder as --images said it skipped theme.yaml and
    the output folder: printdeck's own files there are not pictures left out."""
    from printdeck.theme import init_theme

    deck = image_folder(tmp_path / "deck", 7)
    image_folder(deck / "output", 3)
    (deck / "theme.yaml").write_text("name: old\n", encoding="utf-8")
    (deck / "notes.txt").write_text("mine", encoding="utf-8")
    result = init_theme(deck, images=deck, force=True)
    assert result.skipped == "skipped: notes.txt (not pictures)", result.skipped


def test_init_refusing_too_few_pictures_names_the_sub_folder_holding_more(tmp_path: Path) -> None:
    """With 3 photos at the top and 4 in a sub-folder, init said "add 4 more" while 4 more sat
    in the sub-folder: the refusal now names it (and so does a folder with none of its own)."""
    pics = image_folder(tmp_path / "pics", 3)
    image_folder(pics / "2023 holiday", 4)
    _assert_clean_failure(
        _run("init", str(tmp_path / "deck"), "--images", str(pics)),
        "3 symbols are too few: the smallest deck needs 7; add 4 more: move pictures up from sub-folder "
        "'2023 holiday' (4 pictures; sub-folders are not read)",
    )
    only = tmp_path / "only"
    image_folder(only / "2023 holiday", 7)
    _assert_clean_failure(
        _run("init", str(tmp_path / "deck"), "--images", str(only)),
        "holds no pictures of its own, only its sub-folder '2023 holiday' (7 pictures",
        "give the sub-folder instead",
    )
    assert not (tmp_path / "deck").exists()


def test_init_names_pictures_without_the_emoji_of_their_files(tmp_path: Path) -> None:
    """``Mémé 🎂 Noël.jpg`` became ``name: "Mémé 🎂 Noël"``: check and build passed, then
    ``--legend`` failed ("no font has the emoji 🎂"). init now leaves emoji out of a name,
    keeping letters of every script; a name of an emoji alone is the emoji's English name."""
    from printdeck.theme import check_printed_text

    pics = image_folder(tmp_path / "pics", 7)
    (pics / "pic-00.png").rename(pics / "Mémé 🎂 Noël.png")
    (pics / "pic-01.png").rename(pics / "🎂.png")
    (pics / "pic-02.png").rename(pics / "जन्मदिन 🎉 20°.png")
    result = _run("init", str(tmp_path / "deck"), "--images", str(pics))
    assert result.exit_code == 0, result.output
    theme_file = tmp_path / "deck" / "theme.yaml"
    names = {s.name for s in load_theme(theme_file).symbols}
    assert {"Mémé Noël", "birthday cake", "जन्मदिन 20°"} <= names
    with theme_file.open("a", encoding="utf-8") as out:
        out.write("extras:\n  legend: true\n")
    theme = load_theme(theme_file)
    check_printed_text(theme, theme.symbols)  # the legend prints every name


def test_pictures_alike_but_for_their_emoji_are_named_by_them(tmp_path: Path) -> None:
    """``Noël 🎂.jpg`` and ``Noël 🎄.jpg`` both became "Noël", and init refused the folder for
    the repeated name: where leaving the emoji out makes two names one, they say the emoji."""
    pics = image_folder(tmp_path / "pics", 7)
    (pics / "pic-00.png").rename(pics / "Noël 🎂.png")
    (pics / "pic-01.png").rename(pics / "Noël 🎄.png")
    result = _run("init", str(tmp_path / "deck"), "--images", str(pics))
    assert result.exit_code == 0, result.output
    names = {s.name for s in load_theme(tmp_path / "deck" / "theme.yaml").symbols}
    assert {"Noël birthday cake", "Noël Christmas tree"} <= names


def test_a_word_list_saved_as_utf16_by_notepad_is_read_and_the_next_step_pastes(tmp_path: Path) -> None:
    """A teacher's list saved by Windows Notepad as "Unicode" (UTF-16 with its byte-order
    mark) was refused as not UTF-8; the next-step line's path with a space broke when pasted."""
    words = tmp_path / "mots.txt"
    words.write_bytes(
        "chat = cat\nchien = dog\nvache = cow\ncanard = duck\nlapin = rabbit\nhibou = owl\nporc = pig\n".encode(
            "utf-16"
        )
    )
    deck = tmp_path / "ma classe"
    result = _run("init", str(deck), "--words", str(words))
    assert result.exit_code == 0, result.output
    assert '- text: "chat"' in (deck / "theme.yaml").read_text(encoding="utf-8")
    assert f"next: edit it, then run `printdeck build '{deck / 'theme.yaml'}'`" in result.output


def test_init_again_with_force_is_told_how_to_use_the_copied_pictures(tmp_path: Path) -> None:
    """``init deck --images phone --force`` over a deck a first init made was refused by the
    pictures it had copied ("give files from inside the theme folder"), with no word of how;
    the refusal now gives the command that works, and that command writes the theme."""
    pictures = tmp_path / "phone"
    image_folder(pictures, 7)
    deck = tmp_path / "deck"
    assert _run("init", str(deck), "--images", str(pictures)).exit_code == 0
    again = _run("init", str(deck), "--images", str(pictures), "--force")
    assert again.exit_code == 2 and f"give --images {deck / 'images'} (pictures inside" in again.output
    redo = _run("init", str(deck), "--images", str(deck / "images"), "--force")
    assert redo.exit_code == 0, redo.output


@pytest.mark.parametrize(
    ("copy", "original"),
    [
        ("pic-03 copy.png", "pic-03.png"),  # macOS Finder
        ("pic-03 copy 2.png", "pic-03.png"),
        ("pic-03 (1).png", "pic-03.png"),  # Windows, or a browser's second download
        ("pic-03 - Copy.png", "pic-03.png"),  # Windows Explorer
        ("pic-03 - Copy (2).png", "pic-03.png"),
        ("pic-03-1.png", "pic-03.png"),  # no system's copy name: the shorter one is kept
        ("pic-03.png", "pic-02.png"),  # as long: the first by name
    ],
)
def test_init_says_the_copy_of_a_picture_not_its_original_is_the_one_too_many(
    tmp_path: Path, copy: str, original: str
) -> None:
    """``p1 copy.jpg`` sorts before ``p1.jpg``, so init's refusal took the copy as the one to
    keep and named the original as the picture too many (``p1.jpg is the same picture as p1
    copy.jpg``). The copy (a system's copy name, else the longer name) is now the one named."""
    pictures = image_folder(tmp_path / "phone", 6)  # too few left for a deck: refused, not left out
    (pictures / copy).write_bytes((pictures / original).read_bytes())
    result = _run("init", str(tmp_path / "deck"), "--images", str(pictures))
    _assert_clean_failure(
        result, f"--images {pictures}/{copy}: is the same picture as {pictures}/{original}; remove one of the two"
    )
    assert not (tmp_path / "deck").exists()


def test_init_says_every_copy_of_a_picture_is_a_copy_of_its_original(tmp_path: Path) -> None:
    """Two copies of one picture are both said to be the original's, not one the other's."""
    pictures = image_folder(tmp_path / "phone", 6)  # too few left for a deck: refused, not left out
    for copy in ("pic-04 copy.png", "pic-04 copy 2.png"):
        (pictures / copy).write_bytes((pictures / "pic-04.png").read_bytes())
    result = _run("init", str(tmp_path / "deck"), "--images", str(pictures))
    _assert_clean_failure(
        result,
        f"{pictures}/pic-04 copy 2.png is the same picture as {pictures}/pic-04.png",
        f"{pictures}/pic-04 copy.png is the same picture as {pictures}/pic-04.png",
    )
