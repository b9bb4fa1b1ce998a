"""Build outputs: refused early and cleanly, committed together, manifest pages."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from printdeck.cli import main
from printdeck.errors import PrintdeckError
from printdeck.pipeline import BuildOptions, build

JUNIOR_SMALL = """\
name: tiny
deck: {order: 2}
card: {diameter: 60mm}
symbols:
  - folder: "@assets/twemoji"
"""


@pytest.fixture
def tiny_theme(tmp_path: Path) -> Path:
    path = tmp_path / "tiny.yaml"
    path.write_text(JUNIOR_SMALL)
    return path


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["build", *args])
    return result.exit_code, result.output


@pytest.mark.parametrize(
    "paper, words", [("10000mmx10000mm", "1500"), ("huge", "--paper"), ("100mmx100mm", "card.diameter")]
)
def test_bad_paper_is_refused_before_any_work(tmp_path: Path, paper: str, words: str) -> None:
    start = time.perf_counter()
    code, out = _run("-o", str(tmp_path / "x.pdf"), "--paper", paper)
    assert code == 2 and words in out and len(out.strip().splitlines()) == 1
    assert time.perf_counter() - start < 3  # refused before the layout, which takes seconds
    assert not list(tmp_path.iterdir())


def test_custom_paper_is_used(tiny_theme: Path, tmp_path: Path) -> None:
    out = tmp_path / "t.pdf"
    code, text = _run(str(tiny_theme), "-o", str(out), "--paper", "150mmx200mm", "-q")
    assert code == 0, text
    box = PdfReader(out).pages[0].mediabox
    assert round(float(box.width) * 25.4 / 72) == 150 and round(float(box.height) * 25.4 / 72) == 200


def test_wrong_suffix_and_folder_manifest_refused(tiny_theme: Path, tmp_path: Path) -> None:
    code, out = _run(str(tiny_theme), "-o", str(tmp_path / "deck.png"))
    assert code == 2 and ".pdf" in out
    (tmp_path / "deck.json").mkdir()
    code, out = _run(str(tiny_theme), "-o", str(tmp_path / "deck.pdf"))
    assert code == 2 and "deck.json" in out and "folder" in out
    assert sorted(p.name for p in tmp_path.iterdir()) == ["deck.json", "tiny.yaml"]


def test_png_dir_that_is_a_file_leaves_everything_alone(tiny_theme: Path, tmp_path: Path) -> None:
    (tmp_path / "afile").write_text("x")
    out = tmp_path / "deck.pdf"
    out.write_bytes(b"old")
    with pytest.raises(PrintdeckError, match="afile"):
        build(tiny_theme, out, BuildOptions(png_dir=tmp_path / "afile"))
    assert out.read_bytes() == b"old" and not out.with_suffix(".json").exists()


def test_manifest_pages_count_back_pages(tiny_theme: Path, tmp_path: Path) -> None:
    result = build(tiny_theme, tmp_path / "deck.pdf", BuildOptions(backs=True, paper="a4"))
    manifest = json.loads(result.manifest_path.read_text())
    assert manifest["paper"]["backs"] is True and manifest["paper"]["duplex"] == "long-edge"
    sheets = manifest["paper"]["sheets"]
    assert result.pages == 2 * sheets
    for card in manifest["cards"]:
        assert card["page"] == 2 * card["sheet"] - 1
    assert len(manifest["cards"]) == 7 and len(manifest["symbols"]) == 7


def test_check_runs_the_search_the_build_would(tmp_path: Path) -> None:
    theme = tmp_path / "t.yaml"
    theme.write_text('deck: {symbols_per_card: 11, search: true}\nsymbols:\n  - folder: "@assets/twemoji"\n')
    result = CliRunner().invoke(main, ["check", str(theme)])
    assert result.exit_code == 2 and "needs 182 symbols" in result.output
