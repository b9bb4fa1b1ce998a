"""Hostile and faulty artwork files: each ends in one line naming the key and file, or a
valid result; nothing is written, nothing blocks, no native library sees a bomb."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from test_hostile_support import (
    ART,
    GOOD_SVG,
    SVG_HEAD,
    Case,
    assert_clean,
    assert_refused,
    png_bytes,
    run,
    run_cases,
    snapshot,
    svg_theme,
    theme_with,
)
from test_theme_support import old_deck_pdf

Setup = Callable[[Path], object]


def _nested(levels: int) -> bytes:
    return (SVG_HEAD + "<g>" * levels + '<rect width="5" height="5"/>' + "</g>" * levels + "</svg>").encode()


def _svg(body: str) -> bytes:
    return (SVG_HEAD + body + "</svg>").encode()


BAD_SVGS: dict[str, tuple[bytes, tuple[str, ...]]] = {
    "empty": (b"", ("is empty",)),
    "truncated": (GOOD_SVG[:60], ("not a well-formed SVG",)),
    "binary as svg": (bytes(range(256)) * 40, ("not a well-formed SVG",)),
    "png named svg": (png_bytes((10, 20, 30)), ("not a well-formed SVG",)),
    "not svg root": (b"<html><body>hi</body></html>", ("not an SVG",)),
    "entity bomb": (
        b'<!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;">]>'
        + SVG_HEAD.encode()
        + b"<text>&b;</text></svg>",
        ("DTD or entities",),
    ),
    "external entity": (
        b'<!DOCTYPE svg [<!ENTITY e SYSTEM "file:///etc/passwd">]>' + SVG_HEAD.encode() + b"<text>&e;</text></svg>",
        ("DTD or entities",),
    ),
    "deep nesting": (_nested(10_000), ("nest more than 100 deep",)),
    "many elements": (_svg('<rect width="1" height="1"/>' * 60_000), ("more than 50,000 elements",)),
    "huge coordinate": (_svg('<path d="M0 0L1e9 5L5 5z"/>'), ("number 1e9",)),
    "infinite size": (_svg('<rect width="1e999" height="5"/>'), ("1e999",)),
    "nan path": (_svg('<path d="M0 0LNaN 5L5 5z"/>'), ("'NaN', not a number",)),
    "huge transform in style": (_svg('<rect style="transform:scale(1e30)" width="5" height="5"/>'), ("1e30",)),
    "outside href": (_svg('<image href="file:///etc/passwd" width="5" height="5"/>'), ("outside resource",)),
    "bad viewBox": (
        b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 -1 x"><rect width="5" height="5"/></svg>',
        ("bad viewBox",),
    ),
    "draws nothing": (_svg('<rect width="5" height="5" fill="none"/>'), ("draws nothing",)),
    "too large": (SVG_HEAD.encode() + b" " * 5_000_001 + b"</svg>", ("larger than",)),
}


@pytest.fixture(scope="module")
def bad_svg_checks(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Case]:
    """``printdeck check`` of the tiny theme with each bad SVG, run all at once."""
    jobs = {}
    for i, (name, (content, _)) in enumerate(BAD_SVGS.items()):
        folder = tmp_path_factory.mktemp(f"svg{i}")
        theme_with(folder / "t", "x.svg", content)
        jobs[name] = (folder, ("check", "t"))
    return run_cases(jobs)


@pytest.mark.parametrize("name", list(BAD_SVGS))
def test_bad_svg_is_refused_by_check(bad_svg_checks: dict[str, Case], name: str) -> None:
    case = bad_svg_checks[name]
    assert_refused(case.result, "symbols.0.image", "x.svg", *BAD_SVGS[name][1])
    assert case.after == case.before


@pytest.mark.parametrize("name", ["deep nesting", "huge coordinate"])
def test_bad_svg_is_refused_by_build_before_any_output(tmp_path: Path, name: str) -> None:
    content, fragments = BAD_SVGS[name]
    theme_with(tmp_path / "t", "x.svg", content)
    (tmp_path / "deck.pdf").write_bytes(old_deck_pdf())  # an earlier build's
    before = snapshot(tmp_path)
    result = run(tmp_path, "build", "t", "-o", "deck.pdf", "-q")
    assert_clean(result, before, snapshot(tmp_path), "x.svg", *fragments)
    assert result.code == 2


def _with(name: str, content: bytes | None, key: str = "image") -> Setup:
    return lambda tmp: theme_with(tmp / "t", name, content, key)


def _art_folder(extra: Callable[[Path], None]) -> Setup:
    def setup(tmp: Path) -> None:
        art = tmp / "t" / "art"
        art.mkdir(parents=True)
        for i in range(6):
            (art / f"a{i}.svg").write_bytes(_svg(f'<rect width="{i + 2}" height="5" fill="#0{i}0"/>'))
        extra(tmp)
        svg_theme(tmp / "t", symbols=[{"folder": "art"}, "@assets/twemoji/bee.svg"])

    return setup


def _svg_folder(tmp: Path) -> None:
    (tmp / "t" / "odd.svg").mkdir(parents=True)
    theme_with(tmp / "t", "odd.svg", None)


def _link_out(tmp: Path) -> None:
    (tmp / "outside.svg").write_bytes(GOOD_SVG)
    (tmp / "t" / "art" / "z.svg").symlink_to(tmp / "outside.svg")


def _linked(target: str, *more: tuple[str, str]) -> Setup:
    """x.svg in the theme a link to ``target`` (``{tmp}`` filled in; ``fifo`` made first)."""

    def setup(tmp: Path) -> None:
        (tmp / "t").mkdir()
        os.mkfifo(tmp / "fifo")
        (tmp / "outside.svg").write_bytes(GOOD_SVG)
        (tmp / "t" / "x.svg").symlink_to(target.format(tmp=tmp))
        for name, to in more:
            (tmp / "t" / name).symlink_to(to)
        theme_with(tmp / "t", "x.svg", None)

    return setup


def _outside(ref: str, key: str = "image") -> Setup:
    def setup(tmp: Path) -> None:
        (tmp / "outside").mkdir()
        (tmp / "outside" / "o.svg").write_bytes(GOOD_SVG)
        (tmp / "outside" / "p.png").write_bytes(png_bytes((200, 10, 10)))
        theme_with(tmp / "t", ref.format(tmp=str(tmp).lstrip("/")), None, key)

    return setup


def _other_outside(key: str, value: dict) -> Setup:
    def setup(tmp: Path) -> None:
        (tmp / "b.png").write_bytes(png_bytes((9, 9, 9)))
        symbols = ["@assets/twemoji/anchor.svg", {"text": "cat"}] + [f"@assets/twemoji/{n}.svg" for n in ART[2:]]
        svg_theme(tmp / "t", symbols=symbols, **{key: value})

    return setup


def _deep_backs(tmp: Path) -> None:
    (tmp / "t").mkdir()
    (tmp / "t" / "back.svg").write_bytes(_nested(5000))
    svg_theme(tmp / "t", backs={"enabled": True, "image": "back.svg"})


CHECKS: dict[str, tuple[Setup, tuple[str, ...], tuple[str, ...]]] = {
    "empty png": (_with("x.png", b""), (), ("symbols.0.image", "is empty")),
    "truncated png": (_with("x.png", png_bytes((1, 2, 3))[:80]), (), ("symbols.0.image", "truncated or corrupt")),
    "svg named png": (_with("x.png", GOOD_SVG), (), ("symbols.0.image", "not a picture printdeck reads (PNG, JPEG")),
    "broken jpeg": (_with("x.jpg", b"\xff\xd8\xff\xe0 not a jpeg at all"), (), ("symbols.0.image", "x.jpg")),
    "gif": (_with("x.gif", b"GIF89a"), (), ("symbols.0.image", "x.gif is not a")),
    "folder named like an svg": (_svg_folder, (), ("symbols.0",)),
    "fifo in an artwork folder": (
        _art_folder(lambda tmp: os.mkfifo(tmp / "t" / "art" / "pipe.svg")),
        (),
        ("symbols.0.folder", "pipe.svg", "not a regular file"),
    ),
    "link in an artwork folder to outside": (
        _art_folder(_link_out),
        (),
        ("symbols.0.folder", "z.svg", "outside the theme folder"),
    ),
    "link to a device": (_linked("/dev/zero"), (), ("symbols.0.image", "outside the theme folder", "--allow-outside")),
    "link to a device, allowed": (_linked("/dev/zero"), ("--allow-outside",), ("symbols.0.image",)),
    "link to a fifo": (_linked("{tmp}/fifo"), (), ("symbols.0.image", "outside the theme folder")),
    "link to a fifo, allowed": (_linked("{tmp}/fifo"), ("--allow-outside",), ("symbols.0.image",)),
    "link to outside": (_linked("{tmp}/outside.svg"), (), ("symbols.0.image", "outside the theme folder")),
    "link loop": (_linked("y.svg", ("y.svg", "x.svg")), (), ("symbols.0.image",)),
    "dangling link": (_linked("gone.svg"), (), ("symbols.0.image", "not found")),
    "absolute path outside": (_outside("/{tmp}/outside/o.svg"), (), ("symbols.0.image", "outside the theme folder")),
    "parent path outside": (_outside("../outside/o.svg"), (), ("symbols.0.image", "outside the theme folder")),
    "home path outside": (
        _outside("~/../../../../../../{tmp}/outside/o.svg"),
        (),
        ("symbols.0.image", "outside the theme folder"),
    ),
    "escape from the assets": (_outside("@assets/../pyproject.toml"), (), ("symbols.0.image", "outside the theme")),
    "photo outside": (_outside("../outside/p.png", "photo"), (), ("symbols.0.photo", "outside the theme folder")),
    "backs image outside": (
        _other_outside("backs", {"enabled": True, "image": "../b.png"}),
        (),
        ("backs.image", "outside the theme folder"),
    ),
    "font outside": (
        _other_outside("text", {"font": "/usr/share/fonts/none.ttf"}),
        (),
        ("text.font", "outside the theme folder"),
    ),
    "deep backs image": (_deep_backs, (), ("backs.image", "back.svg", "nest more than 100 deep")),
}


@pytest.fixture(scope="module")
def checks(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Case]:
    """``printdeck check`` of every case of ``CHECKS``, run all at once."""
    jobs = {}
    for i, (name, (setup, extra, _)) in enumerate(CHECKS.items()):
        folder = tmp_path_factory.mktemp(f"check{i}")
        setup(folder)
        jobs[name] = (folder, ("check", "t", *extra))
    return run_cases(jobs)


@pytest.mark.parametrize("name", list(CHECKS))
def test_bad_files_and_paths_are_refused_naming_the_key(checks: dict[str, Case], name: str) -> None:
    case = checks[name]
    assert_refused(case.result, *CHECKS[name][2])
    assert case.after == case.before


def test_allow_outside_reads_an_outside_picture(tmp_path: Path) -> None:
    _outside("../outside/o.svg")(tmp_path)
    result = run(tmp_path, "check", "t", "--allow-outside")
    assert result.code == 0 and "ok:" in result.out, result.err


def test_a_very_thin_image_is_named_not_the_deck_size(tmp_path: Path) -> None:
    theme_with(tmp_path / "t", "thin.png", png_bytes((200, 20, 20), (4000, 8)))
    before = snapshot(tmp_path)
    result = run(tmp_path, "build", "t", "-o", "deck.pdf", "-q")
    assert_clean(result, before, snapshot(tmp_path), "thin.png", "too thin")
    assert result.code == 2 and "symbols_per_card" not in result.err


def test_a_utf16_svg_is_drawn_or_refused_in_one_line(tmp_path: Path) -> None:
    text = '<?xml version="1.0" encoding="UTF-16"?>' + GOOD_SVG.decode()
    theme_with(tmp_path / "t", "x.svg", text.encode("utf-16"))
    before = snapshot(tmp_path)
    assert_clean(run(tmp_path, "check", "t"), before, snapshot(tmp_path), "symbols.0.image", new=set())
