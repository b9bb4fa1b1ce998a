"""A build checks the SVGs its deck uses; ``check`` (a full load) checks every file."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_theme_support import write_theme

import printdeck
from printdeck.errors import PrintdeckError
from printdeck.theme import check_used_files, load_theme

SHAPES = [
    '<circle cx="5" cy="5" r="4"/>',
    '<rect x="1" y="1" width="8" height="8"/>',
    '<path d="M5 1 L9 9 L1 9 Z"/>',
    '<ellipse cx="5" cy="5" rx="4" ry="2"/>',
    '<path d="M1 1 L9 1 L5 9 Z M4 2 L6 2 L5 4 Z" fill-rule="evenodd"/>',
    '<rect x="3" y="1" width="4" height="8"/>',
    '<path d="M1 5 L5 1 L9 5 L5 9 Z"/>',
]
COLOURS = ["#c0392b", "#2980b9", "#27ae60", "#8e44ad", "#d35400", "#16a085", "#2c3e50"]
BROKEN = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 9 9"><rect'


def _folder(tmp_path: Path, broken_name: str) -> Path:
    """Seven good SVGs (a-*.svg ... g-*.svg) and one broken one, a theme of 7 cards of 3
    taking the first seven files."""
    pics = tmp_path / "pics"
    pics.mkdir()
    for i, (shape, colour) in enumerate(zip(SHAPES, COLOURS)):
        (pics / f"{'abcdefg'[i]}-shape.svg").write_text(
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10" fill="{colour}">{shape}</svg>'
        )
    (pics / broken_name).write_text(BROKEN)
    theme = {"name": "used", "deck": {"order": 2, "choose": "first"}, "symbols": [{"folder": "pics"}]}
    return write_theme(tmp_path, theme)


def test_deferred_load_fingerprints_and_leaves_the_check(tmp_path: Path) -> None:
    path = _folder(tmp_path, "a0-broken.svg")
    with pytest.raises(PrintdeckError) as full:
        load_theme(path)
    theme = load_theme(path, defer_svg_checks=True)
    assert "a0-broken.svg" in [p.name for p, _, _ in theme.unchecked]  # the good ones may be remembered
    broken = [s for s in theme.symbols if s.path is not None and s.path.name == "a0-broken.svg"]
    with pytest.raises(PrintdeckError) as deferred:
        check_used_files(theme, broken)
    assert str(deferred.value) == str(full.value)
    assert "not a well-formed SVG" in str(full.value) and str(full.value).startswith(str(path))
    assert deferred.value.key == full.value.key
    check_used_files(theme, [s for s in theme.symbols if s not in broken])  # the good ones pass


def test_build_refuses_a_broken_svg_it_uses(tmp_path: Path) -> None:
    path = _folder(tmp_path, "a0-broken.svg")
    with pytest.raises(PrintdeckError, match=r"a0-broken\.svg is not a well-formed SVG"):
        printdeck.build(path, tmp_path / "deck.pdf")
    assert not (tmp_path / "deck.pdf").exists()


def test_build_leaves_an_unused_broken_svg_to_check(tmp_path: Path) -> None:
    path = _folder(tmp_path, "z-broken.svg")  # sorted last: the deck takes the first seven
    result = printdeck.build(path, tmp_path / "deck.pdf")
    assert result.pdf_path is not None and result.pdf_path.exists()
    assert "z broken" in result.unused
    with pytest.raises(PrintdeckError, match=r"z-broken\.svg is not a well-formed SVG"):
        load_theme(path)  # what `printdeck check` does: every file


def test_duplicates_are_still_refused_when_checks_wait(tmp_path: Path) -> None:
    path = _folder(tmp_path, "z-broken.svg")
    copy = (tmp_path / "pics" / "a-shape.svg").read_bytes()
    (tmp_path / "pics" / "h-copy.svg").write_bytes(copy)
    with pytest.raises(PrintdeckError, match="is the same picture as"):
        load_theme(path, defer_svg_checks=True)


def test_an_svgs_structure_is_checked_once_for_its_bytes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Bytes that passed the structure check are not checked again (the disk keeps them, by
    their digest); other bytes at the same path are, and bytes refused are every time."""
    from printdeck.artwork import svgcheck

    monkeypatch.setenv("PRINTDECK_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("PRINTDECK_NO_CACHE", raising=False)
    checked: list[bytes] = []
    real = svgcheck.svg_structure_check

    def counted(data: bytes, path: Path, where: str) -> None:
        checked.append(data)
        real(data, path, where)

    monkeypatch.setattr(svgcheck, "svg_structure_check", counted)
    path = tmp_path / "a.svg"
    good = f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">{SHAPES[0]}</svg>'.encode()
    for _ in range(2):
        svgcheck.structure_checked(good, path, "symbols.0")
    assert checked == [good]
    other = good.replace(b'r="4"', b'r="3"')
    svgcheck.structure_checked(other, path, "symbols.0")
    assert checked == [good, other]
    for _ in range(2):
        with pytest.raises(PrintdeckError, match="not a well-formed SVG"):
            svgcheck.structure_checked(BROKEN.encode(), path, "symbols.0")
    assert checked == [good, other, BROKEN.encode(), BROKEN.encode()]
