"""Errors carry their fields, and each front words them its own way (issue 21): an error
about a symbol found while drawing or laying it out names its theme entry (``symbols.N``),
``init_theme``'s errors name the argument (``words``; ``--words`` on the command line),
``deck_stats``' its argument (``per_card``; ``--per-card``), a deck file's the card
(``cards.N``); the studio puts a symbol's error on its tile."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image
from test_hostile_support import png_bytes, theme_with
from test_studio_api import make_client, svgs, upload

import printdeck
from printdeck.cli import main

THIN = png_bytes((200, 20, 20), (4000, 8))  # too thin to reach the smallest size even alone on a card


def _cli(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), prog_name="printdeck")
    return result.exit_code, result.stderr


def _refused(*args: str) -> str:
    """The one line ``printdeck ARGS`` fails with (exit status 2)."""
    code, err = _cli(*args)
    assert code == 2 and err.startswith("printdeck: error: ") and err.count("\n") == 1, (code, err)
    return err.removeprefix("printdeck: error: ").rstrip("\n")


# -- a symbol's error names its theme entry ---------------------------------------------------


def _after_theme(said: str) -> str:
    """A symbol's error after the theme file it starts with (``.../theme.yaml: ``), which a
    refusal found once the theme is loaded (a layout's, a resolution's) says as the load's do."""
    theme, sep, rest = said.partition(": ")
    assert sep and theme.endswith("theme.yaml"), said
    return rest


def test_a_layout_error_about_a_symbol_names_its_entry_in_the_api_and_the_command_line(tmp_path: Path) -> None:
    theme = theme_with(tmp_path / "t", "thin.png", THIN)
    with pytest.raises(printdeck.PrintdeckError) as caught:
        printdeck.make(theme)
    error = caught.value
    assert (error.key, error.source, error.is_argument) == ("symbols.0", "thin.png", False), error.fields()
    assert error.problem.startswith("the image thin.png is too thin (width:height ")
    assert error.fix == "crop it closer or give a rounder picture, or make card.diameter larger"
    assert _after_theme(str(error)).startswith("symbols.0 'thin' (thin.png): the image thin.png is too thin")
    line = _refused("build", str(theme), "-o", str(tmp_path / "deck.pdf"), "-q")
    assert line == str(error) and not (tmp_path / "deck.pdf").exists()


def test_a_symbol_made_in_code_is_named_by_its_name() -> None:
    symbol = printdeck.SymbolSpec(0, "cat", "svg", "cat.svg")
    error = symbol.error("draws nothing", "give a picture with ink")
    assert (error.key, error.source, str(error)) == (None, None, "symbol 'cat': draws nothing; give a picture with ink")


def test_a_face_and_a_folders_picture_name_their_entries(tmp_path: Path) -> None:
    (tmp_path / "pics").mkdir()
    *folder, face = svgs(4)
    for svg in folder:
        (tmp_path / "pics" / svg.name).write_bytes(svg.read_bytes())
    (tmp_path / face.name).write_bytes(face.read_bytes())
    text = "symbols:\n  - folder: pics\n  - faces: [{text: gato}, {image: " + face.name + "}]\n"
    text += "".join(f"  - text: w{i}\n" for i in range(3))
    (tmp_path / "theme.yaml").write_text(text, encoding="utf-8")
    symbols = printdeck.load_theme(tmp_path / "theme.yaml").symbols
    assert [s.theme_key for s in symbols] == ["symbols.0"] * 3 + ["symbols.1", "symbols.2", "symbols.3", "symbols.4"]
    assert [f.theme_key for f in symbols[3].faces] == ["symbols.1.faces.0", "symbols.1.faces.1"]


def test_the_studio_puts_a_symbols_error_on_its_tile(tmp_path: Path) -> None:
    """A picture 8 pixels high prints at 4 dpi: refused, and the error's key is its entry."""
    with make_client(tmp_path / "deck") as client:
        state = upload(client, [("thin.png", THIN)] + [(p.name, p.read_bytes()) for p in svgs(6)])["state"]
        thin = next(s for s in state["symbols"] if s["name"] == "thin")
        index = state["symbols"].index(thin)
        preview = client.get(f"/api/preview?rev={state['rev']}&page=1")
        assert preview.status_code == 422, preview.text
        assert preview.json()["key"] == f"symbols.{index}"  # a field, not a message to read
        assert "'thin' (images/thin.png): prints at 4 dpi on card" in preview.json()["error"]
        shown = next(s for s in client.get("/api/state").json()["state"]["symbols"] if s["uid"] == thin["uid"])
        assert "too few pixels to print sharp" in shown["error"]  # on the picture's tile, in the page's words


# -- init_theme: the argument, or the option typed ------------------------------------------------


def test_init_errors_name_the_argument_in_the_api_and_the_option_on_the_command_line(tmp_path: Path) -> None:
    missing = tmp_path / "missing.txt"
    with pytest.raises(printdeck.PrintdeckError) as caught:
        printdeck.init_theme(str(tmp_path / "deck"), words=str(missing))  # paths as strings too
    error = caught.value
    assert (error.key, error.is_argument, error.source, error.problem) == ("words", True, str(missing), "not found")
    assert str(error) == f"words {missing}: not found; check the path"
    assert (
        _refused("init", str(tmp_path / "deck"), "--words", str(missing))
        == f"--words {missing}: not found; check the path"
    )

    words = tmp_path / "words.txt"
    words.write_text("apple\npear\napple\n", encoding="utf-8")
    with pytest.raises(printdeck.PrintdeckError) as caught:
        printdeck.init_theme(tmp_path / "deck", words=words)
    assert caught.value.key == "words" and caught.value.problem == "line 3: 'apple' is already on line 1"
    line = _refused("init", str(tmp_path / "deck"), "--words", str(words))
    assert line == f"--words {words}: line 3: 'apple' is already on line 1; list each word once"

    with pytest.raises(printdeck.PrintdeckError) as caught:
        printdeck.init_theme(tmp_path / "deck", images=tmp_path / "nowhere")
    assert (caught.value.key, caught.value.is_argument) == ("images", True)
    assert _refused("init", str(tmp_path / "deck"), "--images", str(tmp_path / "nowhere")).startswith("--images ")
    assert not (tmp_path / "deck").exists()

    few = tmp_path / "few.txt"
    few.write_text("cat\ndog\nfish\nbird\n", encoding="utf-8")
    with pytest.raises(printdeck.PrintdeckError) as caught:
        printdeck.init_theme(tmp_path / "deck", words=few)
    assert (caught.value.key, caught.value.is_argument, caught.value.code) == ("words", True, "too-few-symbols")
    line = _refused("init", str(tmp_path / "deck"), "--words", str(few))
    assert line == f"--words {few}: 4 symbols are too few: the smallest deck needs 7; add 3 more"  # its file
    assert not (tmp_path / "deck").exists()


def test_init_says_how_to_overwrite_in_each_fronts_words(tmp_path: Path) -> None:
    (tmp_path / "deck").mkdir()
    (tmp_path / "deck" / "theme.yaml").write_text("mine", encoding="utf-8")
    with pytest.raises(printdeck.PrintdeckError) as caught:
        printdeck.init_theme(tmp_path / "deck")
    assert caught.value.code == "theme-exists" and caught.value.problem == "already exists"
    target = tmp_path / "deck" / "theme.yaml"
    assert str(caught.value) == f"{target}: already exists; choose another folder, or pass force=True to overwrite it"
    line = _refused("init", str(tmp_path / "deck"))
    assert line == f"{target}: already exists; choose another folder, or pass --force to overwrite it"
    assert (tmp_path / "deck" / "theme.yaml").read_text(encoding="utf-8") == "mine"


# -- printdeck stats ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "key", "option", "problem"),
    [
        (["--per-card", "90"], "per_card", "--per-card", "must be between 1 and 57 (the symbols), got 90"),
        (["--symbols", "100001"], "symbols", "--symbols", "must be between 2 and 100000, got 100001"),
        (["--trials", "0"], "trials", "--trials", "must be between 1 and "),
        (["--cards", "1"], "cards", "--cards", "must be between 2 and "),
    ],
)
def test_stats_errors_name_the_argument_or_the_option(args: list[str], key: str, option: str, problem: str) -> None:
    kwargs = {key: int(args[1])}
    with pytest.raises(printdeck.PrintdeckError) as caught:
        printdeck.deck_stats(**kwargs)  # type: ignore[arg-type]
    assert (caught.value.key, caught.value.is_argument, caught.value.value) == (key, True, int(args[1]))
    assert str(caught.value).startswith(f"{key}: {problem}")
    assert _refused("stats", *args).startswith(f"{option}: {problem}")


def test_a_plot_of_another_kind_names_the_argument_or_the_option(tmp_path: Path) -> None:
    result = printdeck.deck_stats(31, 6, 31, trials=2)
    with pytest.raises(printdeck.PrintdeckError) as caught:
        printdeck.plot_cdf(result, tmp_path / "cdf.svg")
    assert (caught.value.key, caught.value.source) == ("path", str(tmp_path / "cdf.svg"))
    plot = str(tmp_path / "cdf.svg")
    line = _refused("stats", "-S", "31", "-s", "6", "-N", "31", "--trials", "2", "--plot", plot)
    assert line == f"--plot {plot}: is not a .png or .pdf file name; name a .png or .pdf file"


# -- a deck file's card ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "content", "key", "where", "problem"),
    [
        ("deck.csv", "a,b\n0,1\n1,x\n", "cards.1", "line 3 (card 2)", "'1,x' is not a list of whole symbol numbers"),
        ("deck.csv", "0,1\n1,-2\n", "cards.1", "line 2 (card 2)", "symbol -2 is negative"),
        (
            "deck.json",
            '{"cards": [[0, 1], [1, "two"]]}',
            "cards.1",
            "card 2",
            "symbol 'two' is not a whole number 0 or more",
        ),
        ("deck.json", '{"cards": [[0, 1], 7]}', "cards.1", "card 2", "a card must be a list of symbol numbers"),
    ],
)
def test_a_deck_files_bad_card_is_named_by_its_fields(
    tmp_path: Path, name: str, content: str, key: str, where: str, problem: str
) -> None:
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    with pytest.raises(printdeck.PrintdeckError) as caught:
        printdeck.verify_file(path)
    error = caught.value
    assert (error.source, error.key) == (str(path), key), error.fields()
    assert error.problem.startswith(problem) and str(error).startswith(f"{path}: {where}: {problem}")
    assert _refused("verify", str(path)) == str(error)


def test_a_card_shape_that_a_named_size_contradicts_is_keyed_and_shown_as_the_size_gives_it() -> None:
    """``size: poker`` with ``shape: circle`` names ``card.size`` (it came without a key,
    so the studio showed it in place of the sheet, at no box); with no shape given, the
    studio's form shows the shape the size gives (a rectangle), not round."""
    from printdeck.studio.page_state import effective_values

    words = [{"text": w} for w in "abcdefg"]
    with pytest.raises(printdeck.PrintdeckError) as info:
        printdeck.load_theme({"card": {"size": "poker", "shape": "circle"}, "symbols": words}, check_files=False)
    assert info.value.key == "card.size" and info.value.problem == "poker is a rectangle size, but card.shape is circle"
    assert info.value.fix == "set card.shape to rectangle, or leave it out", "the fix, as every key's refusal has one"
    oblong = {"size": ["60mm", "70mm"], "shape": "square"}
    with pytest.raises(printdeck.PrintdeckError) as info:
        printdeck.load_theme({"card": oblong, "symbols": words}, check_files=False)
    said = (info.value.problem, info.value.fix)
    assert said == ("a square has one side, got 60 x 70 mm", "use card.shape: rectangle"), said
    poker = printdeck.load_theme({"card": {"size": "poker"}, "symbols": words}, check_files=False)
    assert effective_values(poker.spec)["card.shape"] == "rectangle"
    assert effective_values(None)["card.shape"] == "circle"
    assert effective_values(poker.spec)["layout.rotation"] == 30  # a deck of words: upright words
    assert effective_values(None)["layout.rotation"] == "any"  # a deck not loaded yet: the key's own default


def test_a_photo_cropped_close_round_a_face_says_how_to_print_it_sharper(tmp_path: Path) -> None:
    """A 512-pixel photo's crop round the face it finds is 193 pixels across, too few for
    the card: the refusal named the file only and said "use a larger image", though the
    photo's widest crop prints sharp. It names the symbol's key, the crop, and a focus."""
    data = pytest.importorskip("skimage.data", reason="scikit-image's sample pictures are missing")
    from PIL import Image

    Image.fromarray(data.astronaut()).save(tmp_path / "astronaut.jpg", quality=92)
    words = "".join(f"  - text: {w}\n" for w in ("sun", "moon", "star", "tree", "fish", "bird"))
    (tmp_path / "theme.yaml").write_text(f"name: a\nsymbols:\n  - photo: astronaut.jpg\n{words}", encoding="utf-8")
    with pytest.raises(printdeck.PrintdeckError) as caught:
        printdeck.build(tmp_path / "theme.yaml", out=tmp_path / "a.pdf")
    said = str(caught.value)
    assert caught.value.key == "symbols.0"
    assert _after_theme(said).startswith("symbols.0 'astronaut' (astronaut.jpg): prints at")
    assert "its crop round a face keeps only" in said and "give it a focus (focus: [0.5, 0.5]" in said
    assert not (tmp_path / "a.pdf").exists()
    focused = f"name: a\nsymbols:\n  - photo: astronaut.jpg\n    focus: [0.5, 0.5]\n{words}"
    (tmp_path / "theme.yaml").write_text(focused, encoding="utf-8")
    assert printdeck.build(tmp_path / "theme.yaml", out=tmp_path / "a.pdf").pdf_path.is_file()  # the fix works


# -- a problem of the theme's content found after the load names the theme's file --------------


def test_a_problem_found_after_the_load_names_the_theme_file_as_the_load_does(tmp_path: Path) -> None:
    from test_theme_support import small_theme, write_theme

    data = small_theme(card={"background": "#000000"}, text={"colors": ["#050505"]})
    path = write_theme(tmp_path, data)
    line = _refused("build", str(path), "-o", str(tmp_path / "deck.pdf"), "-q")
    assert line.startswith(f"{path}: text.colors: #050505 does not show on the card background #000000"), line
    with pytest.raises(printdeck.PrintdeckError) as caught:
        printdeck.make(path)
    assert (caught.value.source, caught.value.key) == (str(path), "text.colors")
    with pytest.raises(printdeck.PrintdeckError) as given_as_data:
        printdeck.make(data)  # no file to name: the mapping's label, as its load's errors say it
    assert str(given_as_data.value).startswith("<theme>: text.colors: #050505 does not show")
    assert (given_as_data.value.source, given_as_data.value.key) == ("<theme>", "text.colors")
    assert not (tmp_path / "deck.pdf").exists()


def test_an_option_problem_is_still_said_of_the_option(tmp_path: Path) -> None:
    from test_theme_support import small_theme, write_theme

    path = write_theme(tmp_path, small_theme())
    line = _refused("build", str(path), "-o", str(tmp_path / "deck.pdf"), "--png-cut", "-q")
    assert line.startswith("--png-cut: ") and str(path) not in line, line


def test_a_folders_same_picture_names_each_file_once(tmp_path: Path) -> None:
    folder = tmp_path / "pics"
    folder.mkdir()
    for name in ("cat.png", "cat-copy.png"):
        (folder / name).write_bytes(png_bytes((200, 40, 40)))
    from test_theme_support import write_theme

    path = write_theme(tmp_path, {"name": "dup", "symbols": [{"folder": "pics"}]})
    line = _refused("check", str(path))
    assert "same picture as" in line and line.count("(cat-copy.png)") + line.count("(cat.png)") == 2, line


def test_every_command_says_a_theme_files_problem_of_its_file(tmp_path: Path) -> None:
    from test_theme_support import small_theme, write_theme

    path = write_theme(tmp_path, small_theme(text={"colors": ["#fefefe"]}))
    said = "text.colors: #fefefe does not show on the card background #ffffff"
    for args in (
        ("build", str(path), "-o", str(tmp_path / "d.pdf"), "-q"),
        ("check", str(path)),
        ("preview", str(path), "-o", str(tmp_path / "p.png")),
        ("slides", str(path), "-o", str(tmp_path / "s.pdf")),
    ):
        assert _refused(*args).startswith(f"{path}: {said}"), args


def test_an_environment_problem_is_not_said_of_the_theme(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from test_theme_support import small_theme, write_theme

    path = write_theme(tmp_path, small_theme())
    monkeypatch.setenv("PRINTDECK_JOBS", "abc")
    monkeypatch.setenv("PRINTDECK_NO_LAYOUT_CACHE", "1")
    line = _refused("build", str(path), "-o", str(tmp_path / "d.pdf"), "-q")
    assert line.startswith("PRINTDECK_JOBS='abc': expected a whole number"), line


def test_check_refuses_a_picture_too_coarse_to_print_as_build_does(tmp_path: Path) -> None:
    """``check`` lays the deck out when a picture might print under 150 dpi (its pixels over
    the safe zone's span), so it refuses what the build would, with the same line."""
    from test_theme_support import write_theme

    twemoji = Path(printdeck.__file__).resolve().parent.parent / "assets" / "twemoji"
    names = ["cat", "rocket", "apple", "anchor", "car", "banana"]
    for name in names:
        (tmp_path / f"{name}.svg").write_bytes((twemoji / f"{name}.svg").read_bytes())
    tiny = Image.new("RGB", (40, 32), (200, 120, 40))
    tiny.save(tmp_path / "coins.jpg", "JPEG")
    entries = [{"image": f"{n}.svg"} for n in names] + [{"photo": "coins.jpg"}]
    path = write_theme(tmp_path, {"name": "coarse", "symbols": entries})
    checked = _refused("check", str(path))
    built = _refused("build", str(path), "-o", str(tmp_path / "d.pdf"), "-q")
    assert checked == built and "prints at" in checked and "needs at least 150" in checked, checked


def test_check_refuses_a_crowded_small_card_as_build_does(tmp_path: Path) -> None:
    """A word list on a 20 mm card: ``check`` said ok where the build refused a word as too
    small to print. A card that may come out too small is now laid out, as the build does."""
    from test_theme_support import small_theme, write_theme

    path = write_theme(tmp_path, small_theme(card={"diameter": "20mm", "safe_margin": "1mm"}))
    checked = _refused("check", str(path))
    built = _refused("build", str(path), "-o", str(tmp_path / "d.pdf"), "-q")
    assert checked == built and "would be only" in checked and "minimum 3 mm" in checked, checked


def test_check_lays_out_a_long_strip_of_a_card() -> None:
    """A long strip of a card: its area made the estimate call the words deck safe, and check
    said ok where the build refused 'pocket' as too small on a 24 x 300 mm card (and told to
    enlarge a round card's diameter). A long strip is always laid out; the build names card.size."""
    import yaml

    from printdeck.artwork import silhouettes
    from printdeck.layout import LayoutSettings, may_pack_too_small
    from printdeck.layout.size_plan import PACKED_SIZE_SHARE, SMALL_SIZE_MARGIN, smallest_size_estimate_mm
    from printdeck.resources import data_root

    words = printdeck.load_theme("words")
    sils = silhouettes(list(words.symbols))
    data = yaml.safe_load((data_root("themes") / "words.yaml").read_text(encoding="utf-8"))
    data |= {"card": {"shape": "rectangle", "size": ["40mm", "390mm"]}, "paper": {"size": "a3"}}
    settings = LayoutSettings.from_theme(printdeck.load_theme(data, base_dir=data_root("themes")))
    by_area_mm = PACKED_SIZE_SHARE * smallest_size_estimate_mm(sils, 8, settings)
    assert by_area_mm >= SMALL_SIZE_MARGIN * settings.min_size_mm  # its area alone calls it safe
    assert may_pack_too_small(sils, 8, settings) and settings.card_size_key() == "card.size"


@pytest.mark.parametrize("name", ["default", "vocabulary", "languages", "junior", "poker", "double"])
def test_check_lays_out_no_bundled_deck(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The estimate that decides to lay out (``may_pack_too_small``) keeps ordinary decks
    quick: these bundled themes are far from the least size. The words and times-tables
    decks, whose words keep room at their ends, estimate under 10 mm and are laid out
    (bench/RESULTS.md)."""
    import printdeck.api.checking as checking

    def laid_out(*args: object) -> None:
        raise AssertionError(f"check laid out {name}")

    monkeypatch.setattr(checking, "_check_printed_sizes", laid_out)
    assert printdeck.check_theme(name).cards > 0


def test_a_small_photo_whose_widest_crop_is_coarse_too_is_not_told_to_take_a_focus(tmp_path: Path) -> None:
    """A parent's 200-pixel photo was told to give it a focus; with one it was refused again
    (138 dpi): its widest crop prints coarse too, so the fix is a larger picture alone."""
    data = pytest.importorskip("skimage.data", reason="scikit-image's sample pictures are missing")
    from PIL import Image

    Image.fromarray(data.astronaut()).resize((200, 200)).save(tmp_path / "astronaut.jpg", quality=92)
    words = "".join(f"  - text: {w}\n" for w in ("sun", "moon", "star", "tree", "fish", "bird"))
    (tmp_path / "theme.yaml").write_text(f"name: a\nsymbols:\n  - photo: astronaut.jpg\n{words}", encoding="utf-8")
    with pytest.raises(printdeck.PrintdeckError) as caught:
        printdeck.build(tmp_path / "theme.yaml", out=tmp_path / "a.pdf")
    assert caught.value.fix == "use a larger image" and "focus" not in str(caught.value)


def _coarse_refusal(folder: Path, deck_keys: str) -> pytest.ExceptionInfo[printdeck.PrintdeckError]:
    """The build's refusal of a theme of seven 40-pixel pictures (``deck: {deck_keys}``)."""
    from PIL import Image

    for i in range(7):
        Image.new("RGB", (40, 40), (36 * i, 90, 200 - 25 * i)).save(folder / f"p{i}.png")
    symbols = "".join(f"  - image: p{i}.png\n" for i in range(7))
    (folder / "theme.yaml").write_text(f"name: a\ndeck: {{{deck_keys}}}\nsymbols:\n{symbols}", encoding="utf-8")
    with pytest.raises(printdeck.PrintdeckError) as caught:
        printdeck.build(folder / "theme.yaml", out=folder / "a.pdf")
    return caught


def test_every_picture_too_coarse_is_named_in_one_refusal(tmp_path: Path) -> None:
    """A teacher's folder of small pictures was refused one file at a time: fix, build, the
    next refused. The refusal names the others too, so they are all replaced at once."""
    caught = _coarse_refusal(tmp_path, "allow_look_alike: true")
    said = str(caught.value)
    assert _after_theme(said).startswith("symbols.0 'p0' (p0.png): prints at ")
    assert "; so do 6 more pictures: p1.png (" in said and said.endswith("and 1 more; use larger images"), said
    assert said.index("p1.png") < said.index("p2.png") < said.index("p5.png")  # in the theme's order
    assert caught.value.code == "low-resolution" and caught.value.also == tuple(f"p{i}.png" for i in range(1, 7))
    assert caught.value.fields()["also"] == [f"p{i}.png" for i in range(1, 7)], "as docs/api.md says"
    from printdeck.studio.plain_words import plain_words

    words = str(plain_words(caught.value))
    assert words.endswith("; so do 6 more pictures: p1.png, p2.png, p3.png, p4.png, p5.png and 1 more"), words


def test_a_theme_folder_is_left_out_of_names_that_start_with_it(tmp_path: Path) -> None:
    """The studio and the theme's refusals each left the folder out their own way (the
    studio also where another path merely held its letters); both take one function now."""
    from printdeck.errors import without_folder

    folder = tmp_path / "deck"
    text = f"{folder}/images/cat.png is cut short; {tmp_path}/x{folder}/dog.png and “{folder}/owl.png”"
    assert without_folder(text, folder) == f"images/cat.png is cut short; {tmp_path}/x{folder}/dog.png and “owl.png”"


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_a_class_sets_coarse_picture_is_named_with_its_deck(tmp_path: Path) -> None:
    """A class set's decks each number their cards from 1 and have their own layouts, yet
    its refusal named "card 12" of a set of 7-card decks, and no deck. It now says the card
    in its own deck and the deck's letter, as the manifest and the card images name it; the
    warnings too."""
    caught = _coarse_refusal(tmp_path, "allow_look_alike: true, copies: 3")
    found = re.search(r"prints at \d+ dpi on card (\d+) of deck ([ABC]) \(needs at least 150", str(caught.value))
    assert found is not None and 1 <= int(found.group(1)) <= 7, str(caught.value)
    assert not (tmp_path / "a.pdf").exists()
