"""Hostile and faulty theme files: merge keys and anchors work, bombs, duplicates, bad
types, tabs, BOMs, other encodings, huge or special files end in one line."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from test_hostile_support import (
    ART,
    Case,
    assert_clean,
    assert_refused,
    run,
    run_cases,
    snapshot,
)

from printdeck.errors import PrintdeckError
from printdeck.theme.yamlsafe import load_yaml_text

SYMBOLS = "symbols:\n" + "".join(f'  - "@assets/twemoji/{n}.svg"\n' for n in ART)
HEAD = "name: tiny\ndeck: {symbols_per_card: 3}\ncard: &card {diameter: 60mm, bleed: 2mm}\n"


def _theme(tmp_path: Path, text: str | bytes) -> Path:
    folder = tmp_path / "t"
    folder.mkdir(exist_ok=True)
    path = folder / "theme.yaml"
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    return path


GOOD = {
    "merge key": HEAD + "layout: &lay {gap: 1mm, size_ratio: 0.5}\npaper:\n  <<: {margin: 6mm}\n  gap: 3mm\n" + SYMBOLS,
    "merge of an anchor with an override": HEAD + 'symbols:\n  - &first {image: "@assets/twemoji/anchor.svg", '
    "scale: 0.9}\n" + "".join(f'  - {{<<: *first, image: "@assets/twemoji/{n}.svg"}}\n' for n in ART[1:]),
    "merge of several mappings": "name: tiny\ndeck: {symbols_per_card: 3}\nlayout: &a {gap: 1mm}\n"
    "card:\n  <<: [{diameter: 60mm}, {bleed: 2mm}]\n" + SYMBOLS,
    "plain aliases": HEAD + 'backs: {enabled: true, color: &c "#102030"}\ntext: {colors: [*c]}\n' + SYMBOLS,
    "byte order mark": "\ufeff" + HEAD + SYMBOLS,
    "windows line ends": (HEAD + SYMBOLS).replace("\n", "\r\n"),
}


@pytest.fixture(scope="module")
def checks(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Case]:
    """``printdeck check`` of every theme of ``GOOD`` and ``BAD``, run all at once."""
    jobs = {}
    for i, (name, text) in enumerate([*GOOD.items(), *((k, v[0]) for k, v in BAD.items())]):
        folder = tmp_path_factory.mktemp(f"yaml{i}")
        _theme(folder, text)
        jobs[name] = (folder, ("check", "t"))
    return run_cases(jobs)


@pytest.mark.parametrize("name", list(GOOD))
def test_good_yaml_features_check(checks: dict[str, Case], name: str) -> None:
    case = checks[name]
    assert case.result.code == 0 and "7 cards of 3 symbols" in case.result.out, case.result.err
    assert case.after == case.before


def test_a_merged_key_is_overridden_by_the_written_one() -> None:
    data = load_yaml_text("a: &a {x: 1, y: 2}\nb:\n  <<: *a\n  x: 3\n")
    assert data == {"a": {"x": 1, "y": 2}, "b": {"x": 3, "y": 2}}


BOMB = "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{c}: &{c} [{', '.join(['*' + p] * 10)}]\n" for p, c in zip("abcdef", "bcdefg")
)

BAD: dict[str, tuple[str | bytes, tuple[str, ...]]] = {
    "duplicate key": (HEAD + "seed: 1\nseed: 2\n" + SYMBOLS, ("key 'seed' given twice",)),
    "merge key twice": (HEAD + "paper:\n  <<: *card\n  <<: *card\n" + SYMBOLS, ("key '<<' given twice",)),
    "merge of a scalar": (HEAD + "paper:\n  <<: 3\n" + SYMBOLS, ("for merging",)),
    "recursive merge": (HEAD + "paper: &p\n  <<: *p\n" + SYMBOLS, ("recursive alias",)),
    "alias bomb": (BOMB + HEAD + SYMBOLS, ("too many aliases",)),
    "alias bomb through a merge": (BOMB + "h: {<<: {k: *g}}\n" + HEAD + SYMBOLS, ("too many aliases",)),
    "undefined alias": (HEAD + "paper: *nothing\n" + SYMBOLS, ("not valid YAML", "line 4")),
    "merged unknown key": (HEAD + "paper: {<<: {margn: 5mm}}\n" + SYMBOLS, ("paper: unknown key 'margn'",)),
    "bad type": (HEAD + "seed: soon\n" + SYMBOLS, ("seed: expected a whole number",)),
    "bad length": (HEAD.replace("60mm", "60 furlongs") + SYMBOLS, ("card.diameter",)),
    "tab indentation": (HEAD + "paper:\n\tmargin: 5mm\n" + SYMBOLS, ("not valid YAML", "line 5")),
    "latin-1 text": ((HEAD + "title: caf\u00e9\n" + SYMBOLS).encode("latin-1"), ("not UTF-8",)),
    "utf-16 text": ((HEAD + SYMBOLS).encode("utf-16"), ("not UTF-8",)),
    "nul bytes": (HEAD + "title: a\x00b\n" + SYMBOLS, ("NUL",)),
    "empty file": ("", ("got an empty file",)),
    "a list": ("- a\n- b\n", ("got a list",)),
    "deep nesting": ("x: " + "[" * 20_000 + "]" * 20_000 + "\n", ("theme.yaml",)),
    "huge document": ("title: '" + "a" * 1_100_000 + "'\n", ("larger than",)),
    "unhashable key": (HEAD + "? [a, b]\n: 1\n" + SYMBOLS, ("plain word or number",)),
    "control characters": (HEAD + 'title: "\\e[31mred"\n' + SYMBOLS, ()),
    "lone surrogate": (HEAD + 'title: "\\ud800"\n' + SYMBOLS, ("invalid character",)),
    "several documents": (HEAD + SYMBOLS + "---\nname: two\n", ("not valid YAML",)),
}


@pytest.mark.parametrize("name", list(BAD))
def test_bad_yaml_is_one_line(checks: dict[str, Case], name: str) -> None:
    case = checks[name]
    assert_clean(case.result, case.before, case.after, "theme.yaml", *BAD[name][1], new=set())


@pytest.mark.parametrize("text", ["a: [1, *b]\n", "a: &a {<<: *a}\n", "? &k [1]\n: *k\n"])
def test_library_refusals_are_printdeck_errors(text: str) -> None:
    with pytest.raises(PrintdeckError):
        load_yaml_text(text)


@pytest.mark.parametrize("kind", ["fifo", "device", "folder"])
def test_a_theme_that_is_not_a_file_never_blocks(tmp_path: Path, kind: str) -> None:
    (tmp_path / "t").mkdir()
    path = tmp_path / "t" / "theme.yaml"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "device":
        path.symlink_to("/dev/zero")
    else:
        path.mkdir()
    before = snapshot(tmp_path)
    result = run(tmp_path, "check", str(path), timeout=15)
    assert_refused(result, "theme.yaml")
    assert snapshot(tmp_path) == before


@pytest.mark.parametrize("name", ["bad\x1b[31mname.yaml", "new\nline.yaml", "tab\there.yaml"])
def test_odd_file_names_are_printed_escaped(tmp_path: Path, name: str) -> None:
    result = run(tmp_path, "check", name)
    assert_refused(result, "not found")
    assert "\x1b" not in result.err and "\t" not in result.err


def test_a_file_name_that_is_not_utf8_is_printed_escaped(tmp_path: Path) -> None:
    name = os.fsdecode(b"caf\xe9.yaml")
    (tmp_path / name).write_text("- not a mapping\n")
    result = run(tmp_path, "check", name)
    assert_refused(result, "caf\\udce9.yaml", "got a list")
