"""The duplex alignment test: front crosshairs, back scales at the mirrored, offset places."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from pypdf import PdfReader
from test_render_support import PageImage

from printdeck.cli.sheets import calibrate
from printdeck.render.calibrate import calibration_targets_mm, write_calibration


def _is_red(rgb: tuple[int, int, int]) -> bool:
    return rgb[0] > 120 and rgb[1] < 120 and rgb[2] < 120


@pytest.mark.parametrize("duplex", ["long-edge", "short-edge"])
def test_back_targets_are_mirrored_and_offset(tmp_path: Path, duplex: str) -> None:
    out = tmp_path / "cal.pdf"
    assert write_calibration(out, "a4", duplex, (2.0, -1.0)) == 2
    assert len(PdfReader(out).pages) == 2
    front, back = PageImage(out, 0, dpi=200), PageImage(out, 1, dpi=200)
    for x, y in calibration_targets_mm((210.0, 297.0))[1:]:
        assert front.darkest(x + 5.0, y - 0.3, x + 5.6, y + 0.3) < 100  # front crosshair arm
        bx, by = (210.0 - x, y) if duplex == "long-edge" else (x, 297.0 - y)
        bx, by = bx + 2.0, by - 1.0
        # the back's +5 mm tick of the x scale, 2 mm long across the axis
        assert any(_is_red(back.at(bx + 5.0 + d, by + 1.5)) for d in (-0.05, 0.0, 0.05))
        assert not _is_red(back.at(bx + 5.5, by + 1.5))


def test_cli_calibrate(tmp_path: Path) -> None:
    out = tmp_path / "c.pdf"
    result = CliRunner().invoke(calibrate, ["-o", str(out), "--paper", "letter", "--offset-x", "1.5mm"])
    assert result.exit_code == 0, result.output
    page = PdfReader(out).pages[0]
    assert [round(float(v) * 25.4 / 72, 1) for v in page.mediabox] == [0, 0, 215.9, 279.4]
    bad = CliRunner().invoke(calibrate, ["-o", str(tmp_path / "missing" / "c.pdf")])
    assert bad.exit_code == 2 and "printdeck: error:" in bad.output
    assert CliRunner().invoke(calibrate, ["--offset-x", "3 furlongs"]).exit_code == 2


def test_calibrate_writes_only_a_pdf_and_takes_the_themes_offsets(tmp_path: Path) -> None:
    theme = tmp_path / "theme.yaml"
    theme.write_text("name: mine\n", encoding="utf-8")
    runner = CliRunner()
    refused = runner.invoke(calibrate, ["-o", str(theme)])
    assert refused.exit_code == 2 and "the calibration must be a .pdf file name" in refused.output
    assert theme.read_text(encoding="utf-8") == "name: mine\n"  # a theme is never written over
    for flag, value in (("--offset-x", "500mm"), ("--offset-y", "-21mm")):
        out = tmp_path / "cal.pdf"
        refused = runner.invoke(calibrate, ["-o", str(out), flag, value])
        assert refused.exit_code == 2 and f"{flag}: expected a length from -20mm to 20mm" in refused.output
        assert not out.exists()
    assert runner.invoke(calibrate, ["-o", str(tmp_path / "ok.pdf"), "--offset-x", "20mm"]).exit_code == 0


@pytest.mark.parametrize(("paper", "size_mm"), [("210mmx297mm", [210.0, 297.0]), ("4x6in", [101.6, 152.4])])
def test_calibrate_takes_the_paper_build_takes(tmp_path: Path, paper: str, size_mm: list[float]) -> None:
    """A teacher's custom paper (``--paper 210mmx297mm``), which ``build --paper`` takes,
    was refused by ``calibrate`` (a4, letter or a3 only): both read it as ``paper.size`` does."""
    out = tmp_path / "c.pdf"
    result = CliRunner().invoke(calibrate, ["-o", str(out), "--paper", paper])
    assert result.exit_code == 0, result.output
    assert [round(float(v) * 25.4 / 72, 1) for v in PdfReader(out).pages[0].mediabox][2:] == size_mm
    tiny = CliRunner().invoke(calibrate, ["-o", str(tmp_path / "t.pdf"), "--paper", "10mmx10mm"])
    assert tiny.exit_code == 2 and "--paper: each side must be at least 50mm" in tiny.output
    assert not (tmp_path / "t.pdf").exists()


def test_calibrate_takes_a_paper_size_in_mm_as_its_docstring_says(tmp_path: Path) -> None:
    out = tmp_path / "c.pdf"
    assert write_calibration(out, (200.0, 280.0), "long-edge", (0.0, 0.0)) == 2
    assert [round(float(v) * 25.4 / 72, 1) for v in PdfReader(out).pages[0].mediabox][2:] == [200.0, 280.0]


def test_calibrate_replaces_its_own_pdf_and_no_one_elses(tmp_path: Path) -> None:
    """``calibrate -o invitation.pdf`` replaced a user's own PDF; its own earlier test sheet
    (printdeck in its metadata) is still replaced."""
    from reportlab.pdfgen import canvas

    theirs = tmp_path / "invitation.pdf"
    page = canvas.Canvas(str(theirs))
    page.drawString(100, 700, "Birthday invitation")
    page.save()
    before = theirs.read_bytes()
    refused = CliRunner().invoke(calibrate, ["-o", str(theirs)])
    assert refused.exit_code == 2 and "printdeck did not write it" in refused.output
    assert theirs.read_bytes() == before
    ours = tmp_path / "cal.pdf"
    for offset in ("0mm", "1mm"):
        assert CliRunner().invoke(calibrate, ["-o", str(ours), "--offset-x", offset]).exit_code == 0


def test_a_paper_typed_without_units_is_told_how_to_write_it(tmp_path: Path) -> None:
    """``--paper 200x280`` was refused with what is expected but no fix, by ``calibrate`` and
    by ``build`` alike; both now say how to write it, as a theme's paper.size does."""
    from printdeck.cli import main

    for command in (["calibrate", "-o", str(tmp_path / "c.pdf")], ["build", "-o", str(tmp_path / "d.pdf")]):
        said = CliRunner().invoke(main, [*command, "--paper", "200x280"])
        assert said.exit_code == 2 and said.stderr.count("\n") == 1, said.output
        assert said.stderr.rstrip().endswith("; write each side's unit: 200mmx280mm"), said.stderr
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize(
    ("args", "said", "not_said"),
    [
        (["--offset-x", "5"], "got '5'; write its unit: \"5mm\" (or cm, in, pt)", None),
        (["--offset-y", "1,5mm"], 'write a decimal point: "1.5mm"', None),
        (["--paper", "10mmx10mm"], "each side must be at least 50mm, got '10mmx10mm'", "write each side's unit"),
        (["--paper", "200x280"], "write each side's unit: 200mmx280mm", None),
    ],
)
def test_calibrate_says_the_fix_build_says(tmp_path: Path, args: list[str], said: str, not_said: str | None) -> None:
    """``--offset-x 5`` was only told it was not a length (the theme's key is told its unit);
    ``--paper 10mmx10mm``, its units written, was told to write each side's unit."""
    out = tmp_path / "c.pdf"
    result = CliRunner().invoke(calibrate, ["-o", str(out), *args])
    assert result.exit_code == 2 and said in result.output, result.output
    assert not_said is None or not_said not in result.output
    assert not out.exists()
