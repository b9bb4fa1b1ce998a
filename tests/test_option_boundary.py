"""One owner at every boundary: each option's type, range, choices, default and help live
in one field of the spec (``printdeck.theme.run_options``); the library validates its
arguments through it, the command line's options are made from it, and an error names
the argument as the caller spelled it."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner

import printdeck
from printdeck.api import option_table
from printdeck.cli import main
from printdeck.cli.build import build as build_command
from printdeck.cli.screen import slides as slides_command
from printdeck.cli.sheets import preview as preview_command
from printdeck.theme import BuildSettings, ThemeSpec, apply_settings, parse_settings

BAD_OVERRIDES: list[tuple[str, dict[str, Any], str]] = [
    ("build", {"seed": "7"}, "seed"),
    ("build", {"seed": True}, "seed"),
    ("build", {"seed": 2**33}, "seed"),
    ("build", {"seed": -1}, "seed"),
    ("build", {"backs": "yes"}, "backs"),
    ("build", {"paper": "a5"}, "paper"),
    ("build", {"dpi": 5}, "dpi"),
    ("build", {"dpi": 50}, "dpi"),  # the renderer once took 30 .. 2400, the CLI 72 .. 1200
    ("build", {"png_margin_mm": 30}, "png_margin_mm"),
    ("build", {"layout": "poster"}, "layout"),
    ("build", {"single": "yes"}, "single"),
    ("preview", {"cards": 0}, "cards"),
    ("preview", {"seed": "7"}, "seed"),
    ("preview", {"px_per_mm": 0.5}, "px_per_mm"),
    ("build", {"copies": 13}, "copies"),
    ("build", {"copies": "6"}, "copies"),
    ("build", {"pack": "yes"}, "pack"),
    ("slides", {"reveal": "circle"}, "reveal"),
    ("slides", {"game": "poker"}, "game"),
    ("slides", {"seed": -1}, "seed"),
]


@pytest.mark.parametrize(("command", "override", "argument"), BAD_OVERRIDES)
def test_bad_overrides_end_in_one_error_naming_the_argument(
    tmp_path: Path, command: str, override: dict[str, Any], argument: str
) -> None:
    call = {"build": printdeck.build, "preview": printdeck.write_preview, "slides": printdeck.write_slides}[command]
    out = tmp_path / {"build": "deck.pdf", "preview": "p.png", "slides": "s.pdf"}[command]
    with pytest.raises(printdeck.PrintdeckError) as caught:
        call(None, out, **override)
    error = caught.value
    assert error.key == argument and error.is_argument, error.fields()
    assert str(error).startswith(f"{argument}: ") and "--" not in str(error), str(error)
    assert error.has_value and error.value == next(iter(override.values()))
    assert not list(tmp_path.iterdir())  # refused before any work


def _param(command: click.Command, name: str) -> click.Parameter:
    return next(p for p in command.params if p.name == name)


@pytest.mark.parametrize(
    ("command", "cli"), [("build", build_command), ("preview", preview_command), ("slides", slides_command)]
)
def test_command_line_options_are_made_from_the_spec(command: str, cli: click.Command) -> None:
    for info in option_table(command):
        param = _param(cli, info.name)
        assert info.flag in param.opts, (info.flag, param.opts)
        assert param.help is not None and info.help.rstrip(".") in param.help  # type: ignore[attr-defined]
        if info.kind == "integer" or info.kind == "number":
            assert isinstance(param.type, (click.IntRange, click.FloatRange))
            assert (param.type.min, param.type.max) == (info.minimum, info.maximum)
            assert param.default == info.default
        elif info.kind == "choice":
            assert isinstance(param.type, click.Choice) and tuple(param.type.choices) == info.choices
        elif info.kind == "boolean":
            assert param.secondary_opts == [info.flag.replace("--", "--no-")] and param.default == info.default  # type: ignore[attr-defined]
        elif info.kind == "length":
            assert param.default == f"{info.default:g}mm"


def test_theme_overrides_take_the_theme_keys_type_and_range() -> None:
    """A build option that overrides a theme key accepts exactly what the key accepts."""
    theme = ThemeSpec.model_json_schema(by_alias=True)
    seed = next(i for i in option_table("build") if i.name == "seed")
    theme_seed = theme["properties"]["seed"]
    assert (seed.minimum, seed.maximum) == (theme_seed["minimum"], theme_seed["maximum"])
    paper = next(i for i in option_table("build") if i.name == "paper")
    assert paper.choices == tuple(theme["$defs"]["PaperName"]["enum"])
    layout = next(i for i in option_table("build") if i.name == "layout")
    assert layout.choices == tuple(theme["$defs"]["PaperLayout"]["enum"])


def test_overrides_are_validated_through_the_model() -> None:
    spec = printdeck.load_theme("junior").spec
    settings = parse_settings(BuildSettings, {"paper": ["200mm", 280], "backs": True, "layout": "single", "seed": 9})
    changed = apply_settings(spec, settings)
    assert changed.paper.size == (200.0, 280.0) and changed.paper.layout == "single"
    assert changed.backs.enabled is True and changed.seed == 9
    assert changed.card == spec.card and changed.symbols == spec.symbols  # the rest as it was
    assert type(changed.seed) is int and type(changed.paper.layout) is str


@pytest.mark.parametrize(
    ("args", "start"),
    [
        (["build", "--paper", "a5"], "printdeck: error: --paper: expected a4, letter, a3, or a width and height with"),
        (["build", "--paper", "10mmx280mm"], "printdeck: error: --paper (width): expected a length at least 50mm"),
        (["build", "--png-margin", "30mm"], "printdeck: error: --png-margin: expected a length at most 20mm"),
        (["build", "--png-margin", "wide"], "printdeck: error: --png-margin: expected a length such as"),
    ],
)
def test_command_line_errors_name_the_option_typed(tmp_path: Path, args: list[str], start: str) -> None:
    result = CliRunner().invoke(main, [*args, "-o", str(tmp_path / "deck.pdf")], prog_name="printdeck")
    assert result.exit_code == 2 and result.output.startswith(start), result.output
    assert result.output.count("\n") == 1 and not list(tmp_path.iterdir())


def test_a_theme_error_carries_its_fields(tmp_path: Path) -> None:
    (tmp_path / "t.yaml").write_text("card: {diameter: big}\nsymbols: [{text: a}, {text: b}, {text: c}]\n")
    with pytest.raises(printdeck.PrintdeckError) as caught:
        printdeck.load_theme(tmp_path / "t.yaml")
    error = caught.value
    assert (error.key, error.value, error.is_argument) == ("card.diameter", "big", False)
    assert error.source is not None and error.source.endswith("t.yaml")
    assert error.problem.startswith("expected a length")
    assert str(error) == f'{error.source}: card.diameter: {error.problem}, got "big"'


def test_the_studio_form_agrees_with_the_api_and_the_command_line() -> None:
    """One table: every build option that overrides a theme key has, in the studio's form
    (served to the page from the theme's JSON Schema), the same range, choices and default
    the API validates and the CLI offers."""
    from printdeck.studio.deck_settings import form_description

    form = form_description()["fields"]
    theme_defaults = ThemeSpec().model_dump(by_alias=True, mode="json")
    for info in option_table("build"):
        if info.theme_key is None:
            continue
        field = form[info.theme_key]
        assert (field.get("minimum"), field.get("maximum")) == (info.minimum, info.maximum), info.name
        assert tuple(field.get("choices", ())) == info.choices, info.name
        section, _, leaf = info.theme_key.rpartition(".")
        default = (theme_defaults[section] if section else theme_defaults)[leaf]
        assert field.get("default") == default, info.name  # the option's None keeps this
        param = _param(build_command, info.name)
        if isinstance(param.type, click.Choice):
            assert tuple(param.type.choices) == tuple(field["choices"])


def test_the_studio_form_takes_its_facts_from_the_spec() -> None:
    from printdeck.studio.deck_settings import form_description

    form = form_description()
    assert form["fields"]["card.diameter"]["minimum"] == 20.0 and form["fields"]["card.diameter"]["unit"] == "mm"
    assert form["fields"]["seed"]["maximum"] == 2**32 - 1
    assert form["font_suffixes"] == [".ttf", ".otf", ".ttc", ".otc"]  # the studio once refused .otc
    assert ".heic" in form["picture_suffixes"] and form["picture_formats"] == printdeck.PICTURE_FORMATS
    assert [d["cards"] for d in form["deck_sizes"]["1"][:4]] == [7, 13, 21, 31]
    assert [d["cards"] for d in form["deck_sizes"]["2"][:4]] == [4, 7, 11, 16]
    static = Path(printdeck.__file__).parent / "studio" / "static"
    script = "\n".join(p.read_text(encoding="utf-8") for p in static.glob("*.js"))
    for copy in ("PLANE_SIZES", "BIPLANE_SIZES", "needs \\d+ symbols", '"18%"', "options: [[", "min: 0", "max: 1 "):
        assert copy not in script, copy
    assert "presets: [true, false]" not in script  # cut_guide's yes/no come from the schema
    assert "lang: langOf(" in script  # the tiles set the words in the letter forms the PDF prints
    page = (static / "index.html").read_text(encoding="utf-8")
    assert "HEIC" not in page and ".heic" not in page and ".heic" not in script  # the picture formats: the library's


def test_every_field_shows_the_spec_description_and_a_colour_not_how_yaml_writes_it() -> None:
    """The form's help is the theme spec's description, for every field the page lists (the
    page writes none: a named card size added to the spec shows at once); a colour key's
    help leaves out how a theme writes a colour (the page's picker writes it), and a key
    whose description is only that shows none."""
    from printdeck.studio.deck_settings import form_description
    from printdeck.theme.spec_types import COLOUR_FORMAT

    fields = form_description()["fields"]
    schema = json.loads(printdeck.schema_json())
    assert fields["backs.color"]["help"] == (
        "a class set's decks, and a split deck's A and B, take colours of their own, to tell apart face down"
    )
    assert schema["properties"]["backs"]["$ref"]  # the schema keeps the whole description for an editor
    backs = schema["$defs"][schema["properties"]["backs"]["$ref"].rsplit("/", 1)[-1]]["properties"]["color"]
    assert backs["description"].startswith(COLOUR_FORMAT) and backs["description"].endswith("face down")
    assert fields["card.background"]["help"] == ""  # only how a colour is written: nothing for the picker
    assert "poker" in fields["card.size"]["help"]  # the named sizes, as the spec lists them
    assert not any("YAML" in field.get("help", "") for field in fields.values())
    # a form's words, not a theme file's: the page's controls show the choices (a studio review found
    # "false: none" beside a checkbox, "sheet: ...; single: ..." beside a select saying it in words)
    script = (Path(printdeck.__file__).parent / "studio" / "static" / "settings.js").read_text(encoding="utf-8")
    listed = set(re.findall(r'key: "([a-z_.]+)"', script))
    file_words = ("false:", "sheet:", "cover:", "contain:", "[", "<out>", "λ", "relative to the theme", "k,", '"any"')
    for key in listed:
        assert not any(word in fields[key].get("help", "") for word in file_words), (key, fields[key]["help"])
    assert fields["paper.layout"]["help"] == "" and fields["card.shape"]["help"] == ""  # the select's words say it
    assert fields["paper.cut_marks"]["help"].startswith("short lines outside the bleed")
    assert schema["$defs"]["PaperSpec"]["properties"]["cut_marks"]["description"].startswith("crop marks")  # the file's
    script = (Path(printdeck.__file__).parent / "studio" / "static" / "settings.js").read_text(encoding="utf-8")
    assert "hint:" not in script  # no field's words written in the page


def test_a_union_of_a_word_and_yes_no_is_a_select_of_its_choices() -> None:
    """``paper.cut_guide`` is ``"auto" | true | false`` (by card shape): the form generator
    makes it a select of the three, from the schema's union, and the spec accepts each."""
    from printdeck.studio.deck_settings import form_description, with_setting

    fields = form_description()["fields"]
    guide = fields["paper.cut_guide"]
    assert guide["choices"] == ["auto", True, False] and guide["default"] == "auto", guide
    assert "type" not in guide  # no single type: the page draws a select, not a checkbox
    for value in guide["choices"]:
        spec = ThemeSpec.model_validate(with_setting({}, "paper.cut_guide", value))
        assert spec.paper.cut_guide == value
    for key, field in fields.items():  # every served choice is one the spec accepts
        for value in field.get("choices", []):
            ThemeSpec.model_validate(with_setting({}, key, value))
    assert fields["paper.cut_marks"]["type"] == "boolean" and "choices" not in fields["paper.cut_marks"]


def _odd_paths(tmp: Path) -> None:
    """A theme of seven words (seven cards of three), a file ``afile``, a folder ``adir.pdf``
    and a dangling link ``link.pdf`` beside it."""
    words = ", ".join(f"{{text: {word}}}" for word in ("sun", "cat", "dog", "hat", "key", "map", "owl"))
    (tmp / "t.yaml").write_text(f"deck: {{symbols_per_card: 3}}\nsymbols: [{words}]\n")
    (tmp / "afile").write_text("x")
    (tmp / "adir.pdf").mkdir()
    (tmp / "link.pdf").symlink_to(tmp / "elsewhere.pdf")


PATH_ERRORS: list[tuple[str, dict[str, str], str, str, str]] = [
    # (call, path arguments under tmp, argument, option, problem starts)
    ("build", {"out": "missing/deck.pdf"}, "out", "-o", "folder"),
    ("build", {"out": "deck.png"}, "out", "-o", "the output must be a .pdf"),
    ("build", {"out": "adir.pdf"}, "out", "-o", "is a folder"),
    ("build", {"out": "link.pdf"}, "out", "-o", "is a symbolic link"),
    ("build", {"out": "t.pdf", "png_dir": "afile"}, "png_dir", "--png-dir", "is a file, not a folder"),
    ("build", {"out": "t.pdf", "png_dir": "."}, "png_dir", "--png-dir", "is the theme's own folder"),
    ("build", {"out": "t.pdf", "png_dir": ".."}, "png_dir", "--png-dir", "holds an input of this build"),
    ("preview", {"out": "missing/p.png"}, "out", "-o", "folder"),
    ("preview", {"out": "t.yaml"}, "out", "-o", "the preview must be a .png"),
    ("slides", {"out": "link.pdf"}, "out_path", "-o", "is a symbolic link"),
    ("slides", {"out": "s.png"}, "out_path", "-o", "the slides must be a .pdf"),
]


@pytest.mark.parametrize(("command", "paths", "argument", "option", "problem"), PATH_ERRORS)
def test_output_path_errors_name_the_argument_or_the_option(
    tmp_path: Path, command: str, paths: dict[str, str], argument: str, option: str, problem: str
) -> None:
    """An output the library cannot write is an error keyed to the argument (``out``) with
    the path as its source; the command line words the same error as the option typed."""
    _odd_paths(tmp_path)
    theme = str(tmp_path / "t.yaml")
    given = {name: tmp_path / value for name, value in paths.items()}
    call = {"build": printdeck.build, "preview": printdeck.write_preview, "slides": printdeck.write_slides}[command]
    with pytest.raises(printdeck.PrintdeckError) as caught:
        call(theme, given.pop("out"), **given)
    error = caught.value
    assert (error.key, error.is_argument) == (argument, True), error.fields()
    assert error.problem.startswith(problem) and error.source is not None, error.fields()
    assert str(error).startswith(f"{argument} {error.source}: "), str(error)
    assert " -o" not in str(error) and "--" not in str(error), str(error)  # no option in a library error
    flags = {"out": "-o", "png_dir": "--png-dir"}
    args = [command, theme] + [x for name, value in paths.items() for x in (flags[name], str(tmp_path / value))]
    result = CliRunner().invoke(main, args, prog_name="printdeck")
    assert result.exit_code == 2, result.output
    if "folder" in problem and "is a" in problem:  # click's path type refuses it first, naming the option
        assert result.output.startswith(f"printdeck: error: Invalid value for '{option}"), result.output
    else:
        assert result.output.startswith(f"printdeck: error: {option} {error.source}: {error.problem}"), result.output


@pytest.mark.parametrize(
    ("where", "name", "problem"),
    [
        ("symbols.3.image", "gone.png", "not found"),
        ("symbols.3.image (gone.png)", "adir.pdf", "is a folder, not a regular file"),
        ("--words", "gone.txt", "not found"),
    ],
)
def test_unreadable_files_carry_their_key_and_file(tmp_path: Path, where: str, name: str, problem: str) -> None:
    from printdeck.fileio import read_user_file

    _odd_paths(tmp_path)
    with pytest.raises(printdeck.PrintdeckError) as caught:
        read_user_file(tmp_path / name, where, 1000, "an image")
    error = caught.value
    key = where.partition(" (")[0]
    assert (error.key, error.is_argument) == (key, key.startswith("--")), error.fields()
    assert error.source == str(tmp_path / name) and error.problem.startswith(problem), error.fields()
    assert error.fix and str(error).startswith(f"{where}: {tmp_path / name}"), str(error)


def test_the_studio_attaches_a_file_error_to_its_key(tmp_path: Path) -> None:
    from printdeck.studio.wording import problem_of

    (tmp_path / "t.yaml").write_text("symbols: [{image: gone.png}, {text: b}, {text: c}]\n")
    with pytest.raises(printdeck.PrintdeckError) as caught:
        printdeck.check_theme(str(tmp_path / "t.yaml"))
    problem = problem_of(caught.value, tmp_path)
    assert problem.key == "symbols.0.image" and "gone.png" in problem.line, problem


def test_card_numbers_and_presets_are_keyed_to_their_arguments() -> None:
    """``shared_symbols``' card numbers and a build's ``preset`` are fields (argument names);
    the command line words them as it names them (``SECOND``, ``--preset``)."""
    theme = printdeck.load_theme(None)
    with pytest.raises(printdeck.PrintdeckError) as caught:
        printdeck.shared_symbols(theme, 3, 999)
    assert (caught.value.key, caught.value.value, caught.value.is_argument) == ("second", 999, True)
    assert str(caught.value).startswith("second: the deck has cards 1 to "), str(caught.value)
    with pytest.raises(printdeck.PrintdeckError) as caught:
        printdeck.shared_symbols(theme, 4, 4)
    assert (caught.value.key, caught.value.problem) == ("second", "is card 4 too"), caught.value.fields()
    answer = CliRunner().invoke(main, ["answer", "default", "3", "999"], prog_name="printdeck")
    assert answer.exit_code == 2 and answer.output.startswith("printdeck: error: SECOND: the deck has cards 1 to ")
    with pytest.raises(printdeck.PrintdeckError) as caught:
        printdeck.make(None, preset="moon-press")
    assert (caught.value.key, caught.value.value, caught.value.is_argument) == ("preset", "moon-press", True)
    assert " -o" not in str(caught.value) and "--" not in str(caught.value), str(caught.value)


@pytest.mark.parametrize(
    ("section", "key"),
    [
        ({"layout": {"sizes": [0.6, 1]}}, "layout.sizes"),
        ({"card": {"safe_margin": "20mm"}}, "card.safe_margin"),
        ({"card": {"diameter": "250mm"}}, "card.diameter"),
        ({"card": {"shape": "circle"}, "paper": {"cuts": "shared"}}, "paper.cuts"),
    ],
)
def test_errors_between_keys_carry_the_key_to_change(section: dict[str, Any], key: str) -> None:
    """A problem of several keys together (checked after the model) is keyed to the one to
    change, so the studio marks that field; the message is worded as before."""
    from printdeck.studio.wording import problem_of

    words = [{"text": w} for w in ("sun", "cat", "dog", "hat", "key", "map", "owl")]
    with pytest.raises(printdeck.PrintdeckError) as caught:
        printdeck.load_theme({"deck": {"symbols_per_card": 3}, "symbols": words, **section})
    assert caught.value.key == key and not caught.value.is_argument, caught.value.fields()
    assert str(caught.value).split(": ", 1)[1].startswith(f"{key}: "), str(caught.value)
    assert problem_of(caught.value, Path(".")).key == key


def test_a_file_that_is_not_a_theme_or_a_deck_is_its_source(tmp_path: Path) -> None:
    """A theme or deck file printdeck cannot use is the error's ``source`` (the message is
    worded as before), so a front end names the file without reading the text."""
    (tmp_path / "t.yaml").write_bytes(b"name: x\x00\n")
    (tmp_path / "deck.csv").write_text("")
    for call, path in ((printdeck.load_theme, tmp_path / "t.yaml"), (printdeck.api.verify_file, tmp_path / "deck.csv")):
        with pytest.raises(printdeck.PrintdeckError) as caught:
            call(path)
        assert caught.value.source == str(path), caught.value.fields()
        assert str(caught.value) == f"{path}: {caught.value.problem}"
