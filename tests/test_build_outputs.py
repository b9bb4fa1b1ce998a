"""Build outputs: refused early and cleanly, committed together, manifest pages."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
import yaml
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
    "paper, words", [("10000mmx10000mm", "1500"), ("huge", "--paper"), ("100mmx100mm", "--paper: a 85mm card")]
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


def test_an_extras_pdf_an_earlier_build_wrote_goes_when_this_build_writes_none(
    tiny_theme: Path, tmp_path: Path
) -> None:
    """``deck-extras.pdf`` of a one-card-a-page build stayed beside a later sheet build's PDF,
    as if it belonged to it; now the build removes it, and a file it never wrote stays."""
    out = tmp_path / "deck.pdf"
    first = build(tiny_theme, out, BuildOptions(layout="single", rules=True))
    assert first.extras_path == tmp_path / "deck-extras.pdf" and first.extras_path.is_file()
    assert json.loads(out.with_suffix(".json").read_text())["outputs"] == ["deck-extras.pdf"]
    (tmp_path / "deck-notes.pdf").write_bytes(b"mine")
    build(tiny_theme, out, BuildOptions(layout="sheet"))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["deck-notes.pdf", "deck.json", "deck.pdf", "tiny.yaml"]
    assert json.loads(out.with_suffix(".json").read_text())["outputs"] == []


def test_the_summary_says_what_the_extras_pdf_holds(tiny_theme: Path, tmp_path: Path) -> None:
    """A print-shop build said it wrote "the legend, rules and credits" into an extras PDF
    that held only the rules (or only the credits)."""
    rules = build(tiny_theme, tmp_path / "a.pdf", BuildOptions(layout="single", rules=True))
    assert f"wrote {rules.extras_path}: the credits and the rules" in rules.summary_lines()  # Twemoji: a credit
    both = build(tiny_theme, tmp_path / "b.pdf", BuildOptions(layout="single", rules=True, legend=True))
    assert f"wrote {both.extras_path}: the credits, the legend and the rules" in both.summary_lines()


def test_only_recorded_outputs_of_this_pdf_that_are_no_input_are_stale(tmp_path: Path) -> None:
    """A manifest naming a file that is not one of this PDF's outputs, or is an input of the
    build (a picture), or a folder, never gets it removed."""
    from printdeck.output_record import stale_outputs

    out = tmp_path / "deck.pdf"
    names = ["tiny.yaml", "deck-cut-02.svg", "deck-cut-03.svg", "other-cut-01.svg", "deck-cut-04.dxf", "../x.pdf"]
    record = {"design": {}, "cards": [], "outputs": [*names, "deck-extras.pdf", 7]}  # a manifest's shape
    out.with_suffix(".json").write_text(json.dumps(record))
    for name in names[:4]:
        (tmp_path / name).write_text("x")
    (tmp_path / "deck-cut-04.dxf").mkdir()
    (tmp_path / "deck-extras.pdf").write_text("x")
    inputs = [tmp_path / "tiny.yaml", tmp_path / "deck-cut-02.svg"]
    stale = stale_outputs(out, [out, out.with_suffix(".json"), tmp_path / "deck-extras.pdf"], inputs)
    assert stale == [tmp_path / "deck-cut-03.svg"]


def test_a_users_own_json_of_the_manifests_name_is_not_replaced(tiny_theme: Path, tmp_path: Path) -> None:
    """``-o deck.pdf`` replaced a ``deck.json`` of the user's own (any JSON) with the
    manifest; now the build is refused before any work, the file untouched."""
    (tmp_path / "deck.json").write_text('{"my": "notes"}')
    code, out = _run(str(tiny_theme), "-o", str(tmp_path / "deck.pdf"))
    assert code == 2 and len(out.strip().splitlines()) == 1
    assert "deck.json, which is not a printdeck manifest" in out and "move that file away" in out
    assert (tmp_path / "deck.json").read_text() == '{"my": "notes"}'
    assert sorted(p.name for p in tmp_path.iterdir()) == ["deck.json", "tiny.yaml"]


def test_a_users_own_pdf_of_the_outputs_name_is_not_replaced(tiny_theme: Path, tmp_path: Path) -> None:
    """``-o invitation.pdf`` replaced a parent's own invitation (and a note saved as
    ``deck.pdf``), against "a build replaces only files printdeck wrote". A PDF printdeck
    wrote is still replaced, with its manifest or (the manifest removed) by its metadata."""
    from reportlab.pdfgen import canvas

    invitation = tmp_path / "invitation.pdf"
    page = canvas.Canvas(str(invitation))
    page.drawString(100, 700, "Birthday invitation")
    page.save()
    note = tmp_path / "deck.pdf"
    note.write_text("a note", encoding="utf-8")
    for mine in (invitation, note):
        before = mine.read_bytes()
        code, said = _run(str(tiny_theme), "-o", str(mine))
        assert code == 2 and said.strip() == (
            f"printdeck: error: -o {mine}: {mine.name} is there already and printdeck did not write it; "
            "move it away or choose another -o"
        ), said
        assert mine.read_bytes() == before and not mine.with_suffix(".json").exists()
    ours = tmp_path / "ours.pdf"
    for _ in range(2):
        assert _run(str(tiny_theme), "-o", str(ours))[0] == 0
    ours.with_suffix(".json").unlink()
    for color in ("rgb", "cmyk"):  # the PDF/X file's metadata names printdeck too
        assert _run(str(tiny_theme), "-o", str(ours), "--color", color)[0] == 0
        ours.with_suffix(".json").unlink()


def test_a_users_own_file_named_like_a_side_output_is_not_replaced(tiny_theme: Path, tmp_path: Path) -> None:
    """A first build with cut files wrote over the user's own ``deck-cut-01.svg`` (only an
    earlier build's recorded files were known); now it is refused and nothing is written.
    Files an earlier build recorded are replaced as before."""
    theme = tiny_theme.read_text() + "paper: {cut_files: true}\n"
    tiny_theme.write_text(theme)
    out = tmp_path / "deck.pdf"
    (tmp_path / "deck-cut-01.svg").write_text("<svg>mine</svg>")
    with pytest.raises(PrintdeckError) as caught:
        build(tiny_theme, out)
    assert "deck-cut-01.svg" in str(caught.value) and "not one an earlier build" in str(caught.value)
    assert (tmp_path / "deck-cut-01.svg").read_text() == "<svg>mine</svg>"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["deck-cut-01.svg", "tiny.yaml"]
    (tmp_path / "deck-cut-01.svg").unlink()
    first = build(tiny_theme, out)
    assert first.cut_paths and all(p.is_file() for p in first.cut_paths)
    again = build(tiny_theme, out, BuildOptions(seed=3))  # its own recorded files: replaced
    assert again.cut_paths == first.cut_paths
    (tmp_path / "deck-extras.pdf").write_bytes(b"mine")
    code, text = _run(str(tiny_theme), "-o", str(out), "--layout", "single", "--rules")
    assert code == 2 and "deck-extras.pdf, and that file is not one" in text
    assert (tmp_path / "deck-extras.pdf").read_bytes() == b"mine"


def test_with_its_manifest_deleted_a_deck_still_replaces_its_own_side_files(tiny_theme: Path, tmp_path: Path) -> None:
    """A user deleted ``deck.json`` and built again: the PDF (printdeck its creator) was
    replaced, but its cut files and extras PDF were refused, 58 files to move. Files plainly
    printdeck's (the extras PDF's creator, the SVG's cut layer, ezdxf's DXF) are taken as its
    own; a user's own file of such a name still is not."""
    tiny_theme.write_text(tiny_theme.read_text() + "paper: {cut_files: true}\n")
    out = tmp_path / "deck.pdf"
    for extra in ([], ["--layout", "single", "--rules"]):
        assert _run(str(tiny_theme), "-o", str(out), *extra)[0] == 0
        out.with_suffix(".json").unlink()
        code, said = _run(str(tiny_theme), "-o", str(out), *extra)
        assert code == 0, said
        out.with_suffix(".json").unlink()
    (tmp_path / "deck-cut-01.svg").write_text("<svg>mine</svg>")
    code, said = _run(str(tiny_theme), "-o", str(out))
    assert code == 2 and "deck-cut-01.svg, and that file is not one" in said, said
    assert (tmp_path / "deck-cut-01.svg").read_text() == "<svg>mine</svg>"


def test_a_press_builds_extras_pdf_is_said_to_be_rgb_for_home(tiny_theme: Path, tmp_path: Path) -> None:
    """A print-shop build's extras PDF is RGB (for the user's own printer) beside the cards'
    CMYK PDF; the summary said nothing of it, so it could be sent to the press."""
    press = build(tiny_theme, tmp_path / "p.pdf", BuildOptions(preset="meinspiel", rules=True))
    line = next(s for s in press.summary_lines() if s.startswith(f"wrote {press.extras_path}"))
    assert line.endswith("(RGB, to print yourself: the press takes the cards' PDF)")
    home = build(tiny_theme, tmp_path / "h.pdf", BuildOptions(layout="single", rules=True))
    assert not any("RGB" in s for s in home.summary_lines())
    grey = build(tiny_theme, tmp_path / "g.pdf", BuildOptions(preset="meinspiel", rules=True, grayscale=True))
    line = next(s for s in grey.summary_lines() if s.startswith(f"wrote {grey.extras_path}"))
    assert line.endswith("(grey, to print yourself: the press takes the cards' PDF)")  # DeviceGray, not RGB


def test_files_an_older_printdeck_wrote_unrecorded_are_its_own(tiny_theme: Path, tmp_path: Path) -> None:
    """A manifest from before ``"outputs"`` existed lists no side files, yet its build wrote
    them: refusing them as the user's stopped every rebuild of a print-shop or cut-file deck
    after an upgrade. They are printdeck's; a manifest saved with a byte-order mark is one."""
    out = tmp_path / "deck.pdf"
    build(tiny_theme, out, BuildOptions(layout="single", rules=True))
    manifest = json.loads(out.with_suffix(".json").read_text())
    del manifest["outputs"]  # as an older printdeck wrote it
    out.with_suffix(".json").write_bytes(b"\xef\xbb\xbf" + json.dumps(manifest).encode())
    again = build(tiny_theme, out, BuildOptions(layout="single", rules=True, seed=4))
    assert again.extras_path is not None and json.loads(out.with_suffix(".json").read_text())["outputs"] == [
        "deck-extras.pdf"
    ]


def test_an_option_that_makes_a_big_card_fit_is_taken(tmp_path: Path) -> None:
    """A 200 mm square card does not fit an A4 sheet. ``--layout single`` (one card a page,
    the page the card) and ``--paper a3`` make it fit, but the theme was refused as it was
    loaded, before the options were applied. Without such an option the build still refuses
    it with check's line."""
    theme = tmp_path / "big.yaml"
    words = [{"text": w} for w in "abcdefg"]
    theme.write_text(
        yaml.safe_dump(
            {"deck": {"symbols_per_card": 3}, "card": {"shape": "square", "size": "200mm"}, "symbols": words}
        )
    )
    checked = CliRunner().invoke(main, ["check", str(theme)])
    code, said = _run(str(theme), "-o", str(tmp_path / "plain.pdf"))
    assert checked.exit_code == code == 2 and said == checked.output and "needs 206 x 206mm" in said, said
    for extra in (["--layout", "single"], ["--paper", "a3"]):
        code, said = _run(str(theme), "-o", str(tmp_path / f"{extra[1]}.pdf"), *extra)
        assert code == 0, said


_SHAPES = {
    "circle": '<circle cx="50" cy="50" r="30" fill="#26a269"/>',
    "circle-big": '<circle cx="50" cy="50" r="33" fill="#26a269"/>',
    "square": '<rect x="25" y="25" width="50" height="50" fill="#a51d2d"/>',
    "triangle": '<path d="M50 10 L90 85 L10 85 Z" fill="#613583"/>',
    "cross": '<path d="M40 10 H60 V40 H90 V60 H60 V90 H40 V60 H10 V40 H40 Z" fill="#2ec27e"/>',
    "heart": '<path d="M50 85 L15 50 A18 18 0 0 1 50 25 A18 18 0 0 1 85 50 Z" fill="#e01b24"/>',
    "bolt": '<path d="M55 5 L20 55 L45 55 L35 95 L80 40 L55 40 Z" fill="#ff7800"/>',
}


def test_a_refused_build_leaves_no_default_output_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A build to the default ``output/`` refused once that folder was planned (two
    symbols alike, found beside the layout) leaves no empty ``output/`` behind: nothing
    is written on an error. A folder that was there already stays."""
    for name, body in _SHAPES.items():
        svg = f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">{body}</svg>'
        (tmp_path / f"{name}.svg").write_text(svg)
    theme = {"name": "shapes", "deck": {"symbols_per_card": 3}, "symbols": [{"image": f"{n}.svg"} for n in _SHAPES]}
    (tmp_path / "theme.yaml").write_text(yaml.safe_dump(theme))
    monkeypatch.chdir(tmp_path)
    with pytest.raises(PrintdeckError, match="look alike"):
        build(tmp_path / "theme.yaml")
    assert not (tmp_path / "output").exists()
    (tmp_path / "output").mkdir()
    with pytest.raises(PrintdeckError, match="look alike"):
        build(tmp_path / "theme.yaml")
    assert (tmp_path / "output").is_dir()


def test_the_command_line_says_which_edge_to_flip_a_pdf_with_backs_on(tiny_theme: Path, tmp_path: Path) -> None:
    """The studio said how to print a PDF with card backs (both sides, unscaled, the edge to
    flip on) but ``printdeck build`` did not; a PDF without backs, or no PDF, says nothing."""
    code, said = _run(str(tiny_theme), "-o", str(tmp_path / "plain.pdf"))
    assert code == 0 and "flip on" not in said
    tiny_theme.write_text(JUNIOR_SMALL + "backs: {enabled: true, duplex: short-edge}\n")
    code, said = _run(str(tiny_theme), "-o", str(tmp_path / "backs.pdf"))
    hint = build(tiny_theme, tmp_path / "again.pdf").print_hint
    assert code == 0 and hint is not None and said.rstrip("\n").endswith(hint), said
    assert "at 100 % (actual size)" in hint and "\u201cflip on short edge\u201d" in hint
    code, said = _run(str(tiny_theme), "-o", str(tmp_path / "shop.pdf"), "--layout", "single")
    assert code == 0 and "flip on" not in said  # a print shop's file: each back centred on its page
