"""The file checks shipped with the bundled pictures (issue 29, item 2: no work twice): they
are the passes checking every picture gives now, a cold deck's bundled pictures are not
checked again (nothing parsed, drawn or written), and a picture of the user's own, or a
bundled picture's bytes changed, is checked as before."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from printdeck.artwork import bundled_checks, svgcheck
from printdeck.emoji_names import twemoji_folder
from printdeck.errors import PrintdeckError
from printdeck.theme import images

REMAKE = 'python -c "from printdeck.render.bundled_proofs_table import write_table; write_table()"'


def test_the_shipped_checks_are_what_checking_every_picture_gives_now() -> None:
    from printdeck.render.bundled_proofs_table import make_checks_table

    shipped = json.loads(bundled_checks.checks_table_path().read_text(encoding="utf-8"))
    assert make_checks_table() == shipped, (
        f"{bundled_checks.CHECKS_TABLE_NAME} is not what checking gives now: {REMAKE}"
    )
    assert len(shipped["sizes"]) == len(shipped["structures"]) == 171


@pytest.fixture
def checked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """An empty disk cache, and the names of the files whose structure is checked."""
    monkeypatch.setenv("PRINTDECK_CACHE_DIR", str(tmp_path / "cache"))
    names: list[str] = []
    check = svgcheck.svg_structure_check

    def counted(data: bytes, path: Path, where: str) -> None:
        names.append(path.name)
        check(data, path, where)

    monkeypatch.setattr(svgcheck, "svg_structure_check", counted)
    monkeypatch.setattr(images, "structure_checked", svgcheck.structure_checked)
    return names


def test_a_bundled_picture_is_not_checked_again(checked: list[str], tmp_path: Path) -> None:
    found = images.check_svg_file(twemoji_folder() / "cat.svg", "symbols[0]")
    assert found.size_px == (36.0, 36.0) and checked == []
    assert not (tmp_path / "cache" / "svgchecks").exists() or not any((tmp_path / "cache" / "svgchecks").iterdir())
    svgcheck.structure_checked((twemoji_folder() / "cat.svg").read_bytes(), Path("cat.svg"), "x")  # drawing it
    assert checked == []


def test_a_copy_changed_by_one_byte_is_checked(checked: list[str], tmp_path: Path) -> None:
    own = tmp_path / "cat.svg"
    own.write_bytes((twemoji_folder() / "cat.svg").read_bytes() + b"\n")
    assert images.check_svg_file(own, "symbols[0]").size_px == (36.0, 36.0)
    assert checked == ["cat.svg"]


def test_a_hostile_file_beside_the_bundled_pictures_is_still_refused(checked: list[str], tmp_path: Path) -> None:
    folder = tmp_path / "pictures"
    shutil.copytree(twemoji_folder(), folder, ignore=shutil.ignore_patterns("*.json", "*.gz", "*.tsv", "*.md", "*.txt"))
    hostile = folder / "cat.svg"
    hostile.write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 36 36"><script>alert(1)</script>'
        '<circle cx="18" cy="18" r="9"/></svg>'
    )
    with pytest.raises(PrintdeckError, match="script"):
        images.check_svg_file(hostile, "symbols[0]")
    assert images.check_svg_file(folder / "dog.svg", "symbols[1]").size_px == (36.0, 36.0)  # its own bytes: shipped
    assert checked == ["cat.svg"]


@pytest.mark.parametrize(
    "garbage",
    [
        b"",
        b"{not json",
        b'{"sizes": [1, 2], "structures": 3}',
        b"\x00\xff" * 40,
        b"[" * 100_000 + b"]" * 100_000,
        b'{"sizes": {"k": [0, 36]}, "structures": []}',
    ],
    ids=["empty", "not json", "wrong shape", "binary", "too deep", "size out of range"],
)
def test_a_damaged_table_ships_nothing_and_every_file_is_checked(
    checked: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, garbage: bytes
) -> None:
    damaged = tmp_path / "checks.json"
    damaged.write_bytes(garbage)
    monkeypatch.setattr(bundled_checks, "checks_table_path", lambda: damaged)
    bundled_checks.forget_checks()
    try:
        assert images.check_svg_file(twemoji_folder() / "cat.svg", "symbols[0]").size_px == (36.0, 36.0)
        assert checked == ["cat.svg"]
    finally:
        monkeypatch.undo()
        bundled_checks.forget_checks()
