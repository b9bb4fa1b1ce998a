"""The default deck, end to end: checked from the manifest and the PDF, not from the code."""

from __future__ import annotations

import itertools
from pathlib import Path

from click.testing import CliRunner
from pypdf import PdfReader

import printdeck
from printdeck.cli import main
from printdeck.pipeline import BuildOptions, build


def test_default_manifest_is_a_55_card_deck(default_build: tuple[Path, dict]) -> None:
    _, manifest = default_build
    cards = [[s["id"] for s in c["symbols"]] for c in manifest["cards"]]
    assert len(cards) == 55
    assert all(len(c) == 8 and len(set(c)) == 8 for c in cards)
    assert len(manifest["symbols"]) == 57
    assert {i for c in cards for i in c} == {s["id"] for s in manifest["symbols"]}
    for a, b in itertools.combinations(cards, 2):
        assert len(set(a) & set(b)) == 1
    assert manifest["design"] == {
        "order": 7,
        "lambda": 1,
        "points": 57,
        "lines": 55,
        "construction": manifest["design"]["construction"],
    }


def test_default_manifest_symbols_name_real_artwork(default_build: tuple[Path, dict]) -> None:
    _, manifest = default_build
    root = Path(__file__).resolve().parent.parent
    names = [s["name"] for s in manifest["symbols"]]
    assert len(set(names)) == len(names)
    for s in manifest["symbols"]:
        assert s["source"].startswith("assets/twemoji/") and (root / s["source"]).is_file()


def test_default_manifest_cards_are_on_pages(default_build: tuple[Path, dict]) -> None:
    pdf, manifest = default_build
    reader = PdfReader(pdf)
    pages = {c["page"] for c in manifest["cards"]}
    assert min(pages) == 1 and max(pages) <= len(reader.pages)
    width_mm = float(reader.pages[0].mediabox.width) * 25.4 / 72
    height_mm = float(reader.pages[0].mediabox.height) * 25.4 / 72
    r = manifest["card"]["diameter_mm"] / 2 + manifest["card"]["bleed_mm"]
    for c in manifest["cards"]:
        x, y = c["center_mm"]
        assert r <= x <= width_mm - r and r <= y <= height_mm - r


def test_same_seed_same_bytes_other_seed_other_deck(tmp_path: Path, default_build: tuple[Path, dict]) -> None:
    pdf, manifest = default_build
    again = build(None, tmp_path / "again.pdf", BuildOptions())
    assert again.pdf_path.read_bytes() == pdf.read_bytes()
    other = printdeck.make(None, seed=manifest["seed"] + 1)  # its cards only: no PDF needed
    assert other.manifest["seed"] == manifest["seed"] + 1
    assert other.manifest["cards"] != manifest["cards"]


def test_cli_build_summary_line(tmp_path: Path) -> None:
    out = tmp_path / "deck.pdf"
    result = CliRunner().invoke(main, ["build", "junior", "-o", str(out), "--seed", "5", "--paper", "letter"])
    assert result.exit_code == 0, result.output
    lines = result.output.strip().splitlines()
    summary = next(line for line in lines if line.startswith("wrote "))
    assert str(out) in summary and "31 cards" in summary and "pages" in summary
    assert lines[-1].startswith("left out 140 symbols no card shows: ")  # junior offers 171, a deck shows 31
    assert out.is_file() and out.with_suffix(".json").is_file()
    reader = PdfReader(out)
    assert round(float(reader.pages[0].mediabox.width)) == 612  # US Letter, 8.5 in


def test_cli_error_is_one_line_exit_2_and_writes_nothing(tmp_path: Path) -> None:
    out = tmp_path / "deck.pdf"
    out.write_bytes(b"keep me")
    result = CliRunner().invoke(main, ["build", str(tmp_path / "missing.yaml"), "-o", str(out)])
    assert result.exit_code == 2
    assert "missing.yaml" in result.output and len(result.output.strip().splitlines()) == 1
    assert "Traceback" not in result.output
    assert out.read_bytes() == b"keep me" and not out.with_suffix(".json").exists()


def test_cli_bad_paper_option(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["build", "-o", str(tmp_path / "x.pdf"), "--paper", "huge"])
    assert result.exit_code == 2 and "--paper" in result.output
    assert not list(tmp_path.iterdir())


def test_python_dash_m_entry_point() -> None:
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "printdeck", "--version"], capture_output=True, text=True)
    assert done.returncode == 0 and "printdeck" in done.stdout
