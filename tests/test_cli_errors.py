"""Usage errors click finds (bad option values, unknown commands) end as one line, exit 2."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

import printdeck
from printdeck.cli import main


@pytest.mark.parametrize(
    ("args", "names"),
    [
        (["build", "--dpi", "5"], ["--dpi", "72<=x<=1200", "printdeck build --help"]),
        (["bogus"], ["bogus", "printdeck --help"]),
        (["build", "--paper"], ["--paper"]),
        (["preview", "--cards", "many"], ["--cards"]),
    ],
)
def test_usage_errors_are_one_line(args, names) -> None:
    result = CliRunner().invoke(main, args, prog_name="printdeck")
    assert result.exit_code == 2, result.output
    assert result.output.startswith("printdeck: error: ") and result.output.count("\n") == 1, result.output
    assert "Usage:" not in result.output and "Traceback" not in result.output
    for name in names:
        assert name in result.output


def test_help_version_and_bare_command_still_work() -> None:
    runner = CliRunner()
    assert runner.invoke(main, ["--version"]).exit_code == 0
    helped = runner.invoke(main, ["build", "--help"], prog_name="printdeck")
    assert helped.exit_code == 0 and helped.output.startswith("Usage: printdeck build")
    bare = runner.invoke(main, [], prog_name="printdeck")
    assert "Usage: printdeck" in bare.output and "printdeck: error" not in bare.output


@pytest.mark.parametrize(
    ("value", "names"),
    [
        ("a5", ["--paper: ", "a4, letter, a3", "200mmx280mm", '"a5"']),
        ("210x297", ["--paper: ", "with units", "210mmx297mm", '"210x297"']),
        ("20mmx297mm", ["--paper (width): ", "at least 50mm"]),
        ("210mmx2000mm", ["--paper (height): ", "at most 1500mm"]),
        ("10mmx10mm", ["--paper (width): ", "at least 50mm", "1 more problem: --paper (height))"]),
    ],
)
def test_a_paper_size_the_build_cannot_use_names_the_form_it_takes(tmp_path, value: str, names: list[str]) -> None:
    result = CliRunner().invoke(main, ["build", "--paper", value, "-o", str(tmp_path / "d.pdf")], prog_name="printdeck")
    assert result.exit_code == 2 and result.output.count("\n") == 1, result.output
    assert "item" not in result.output and "paper.1" not in result.output and not (tmp_path / "d.pdf").exists()
    for name in names:
        assert name in result.output, result.output


def test_the_theme_and_the_command_line_read_a_paper_size_alike() -> None:
    def paper(size: object) -> object:
        return printdeck.load_theme(
            {"name": "p", "paper": {"size": size}, "symbols": [{"text": w} for w in "abcdefg"]}
        ).spec.paper.size

    assert paper("200mmx280mm") == paper(["200mm", "280mm"]) == paper(" 200MM x 280MM ") == (200.0, 280.0)
    assert paper("Letter") == "letter"
    with pytest.raises(printdeck.PrintdeckError, match=r"paper\.size: expected a4, letter, a3, or a width and height"):
        paper("a5")


def test_a_stopped_studio_names_each_output_once_and_only_those_there(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A studio stopped by SIGTERM listed its theme.yaml seven times, and preview PDFs it
    had already deleted, as 'already written'."""
    import printdeck.fileio
    from printdeck.cli import common

    theme = tmp_path / "theme.yaml"
    theme.write_text("name: x\n")
    outputs = [tmp_path / f"deck-{n}.pdf" for n in range(8)]
    for path in outputs:
        path.write_bytes(b"%PDF")
    gone = tmp_path / "preview.pdf"  # written, then removed
    monkeypatch.setattr(printdeck.fileio, "written", lambda: [theme] * 7 + [gone, *outputs])
    with pytest.raises(SystemExit) as ended:
        common.stopped()
    assert ended.value.code == 128 + 15
    line = capsys.readouterr().err.strip()
    assert line.count("theme.yaml") == 1 and "preview.pdf" not in line
    assert line.endswith("deck-4.pdf and 3 more"), line


def test_a_teachers_slips_are_said_of_what_she_typed(tmp_path: Path) -> None:
    """Three refusals a teacher met that named the wrong thing or gave no way out: a list
    of words written as bare names ("- cat" read as a picture's file), a word list too
    short (said of --words, not its file) and a paper too small from --paper (blamed on the
    theme's card)."""
    runner = CliRunner()
    bare = tmp_path / "bare.yaml"
    bare.write_text(
        "name: bare\nsymbols:\n" + "".join(f"  - {w}\n" for w in ("cat", "dog", "sun", "moon", "tree", "fish", "bird"))
    )
    said = runner.invoke(main, ["check", str(bare)], prog_name="printdeck")
    assert (
        said.exit_code == 2
        and "symbols.0.image: cat not found; check the path, or to print the word, write text: cat" in said.output
    )
    few = tmp_path / "few.txt"
    few.write_text("a\nb\nc\nd\ne\n", encoding="utf-8")
    said = runner.invoke(main, ["init", str(tmp_path / "few"), "--words", str(few)], prog_name="printdeck")
    assert said.exit_code == 2 and f"--words {few}: 5 symbols are too few" in said.output, said.output
    said = runner.invoke(main, ["build", "default", "--paper", "100x100mm", "-o", str(tmp_path / "x.pdf")])
    assert said.exit_code == 2 and "--paper: a 85mm card with 3mm bleed needs 91mm" in said.output, said.output
    assert not (tmp_path / "x.pdf").exists()
