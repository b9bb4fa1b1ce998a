"""Safe YAML reading: alias bombs, recursion, duplicate keys, syntax errors, odd files."""

from __future__ import annotations

from pathlib import Path

import pytest

from printdeck.errors import PrintdeckError
from printdeck.theme import load_theme
from printdeck.theme.yamlsafe import MAX_FILE_BYTES, load_yaml_file, load_yaml_text

BOMB = "\n".join(
    ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    + [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, 9)]
)


def test_billion_laughs_is_refused_quickly() -> None:
    with pytest.raises(PrintdeckError, match="too many aliases"):
        load_yaml_text(BOMB, "bomb.yaml")


def test_a_few_aliases_are_fine() -> None:
    data = load_yaml_text("base: &b {diameter: 85mm}\ncard: *b\n")
    assert data == {"base": {"diameter": "85mm"}, "card": {"diameter": "85mm"}}


def test_recursive_alias_is_refused() -> None:
    with pytest.raises(PrintdeckError, match="recursive alias"):
        load_yaml_text("a: &x [1, *x]\n", "rec.yaml")


def test_duplicate_key_names_the_key_and_both_lines() -> None:
    with pytest.raises(PrintdeckError) as info:
        load_yaml_text("card:\n  diameter: 85mm\n  diameter: 90mm\n", "dup.yaml")
    message = str(info.value)
    assert "dup.yaml" in message and "'diameter' given twice" in message and "line 2" in message


def test_syntax_error_gives_line_and_column() -> None:
    with pytest.raises(PrintdeckError) as info:
        load_yaml_text("card:\n  diameter: [85mm\nseed: 1\n", "bad.yaml")
    assert "bad.yaml: not valid YAML: line" in str(info.value)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize(
    ("text", "fix"),
    [
        ("name: x\ndeck:\n\tsymbols_per_card: 3\n", "; indent with spaces, not tabs"),
        ('name: x\ntitle: "unterminated\nseed: 1\n', "; close the quote opened on line 2, column 8"),
        ("name: x\ndeck:\n  symbols_per_card: 3\n symbols: []\n", "; check the indentation there: the keys of one"),
        ("name: x\ntitle: a: b\n", "; put a value holding ': ' in quotes, or check the indentation there"),
        ("card:\n  diameter: [85mm\nseed: 1\n", "; fix the YAML syntax there"),
    ],
)
def test_a_syntax_slip_is_named_in_a_theme_writers_words(text: str, fix: str) -> None:
    with pytest.raises(PrintdeckError) as info:
        load_yaml_text(text, "t.yaml")
    assert str(info.value).startswith("t.yaml: not valid YAML: line ")
    assert fix in str(info.value), str(info.value)


def test_unhashable_key_is_refused() -> None:
    with pytest.raises(PrintdeckError, match="plain word"):
        load_yaml_text("? [a, b]\n: 1\n")


def test_python_tags_are_not_constructed() -> None:
    with pytest.raises(PrintdeckError, match="not valid YAML"):
        load_yaml_text("x: !!python/object/apply:os.system ['echo hi']\n")


def test_several_documents_are_refused() -> None:
    with pytest.raises(PrintdeckError, match="not valid YAML"):
        load_yaml_text("a: 1\n---\nb: 2\n")


def test_oversized_file_is_refused_without_reading_it_all(tmp_path: Path) -> None:
    path = tmp_path / "big.yaml"
    path.write_text("x: " + "a" * (MAX_FILE_BYTES + 10), encoding="utf-8")
    with pytest.raises(PrintdeckError, match="larger than"):
        load_yaml_file(path)


@pytest.mark.parametrize(
    "content, expected",
    [
        (b"\xff\xfe\x00garbage", "not UTF-8"),
        (b"name: x\x00\n", "NUL bytes"),
    ],
)
def test_binary_files_are_refused(tmp_path: Path, content: bytes, expected: str) -> None:
    path = tmp_path / "theme.yaml"
    path.write_bytes(content)
    with pytest.raises(PrintdeckError, match=expected):
        load_theme(path)


@pytest.mark.parametrize(
    "text, expected",
    [
        ("", "got an empty file"),
        ("- a\n- b\n", "got a list"),
        ("just words\n", "got the single value 'just words'"),
        ("42\n", "got the single value 42"),
    ],
)
def test_a_theme_must_be_a_mapping(tmp_path: Path, text: str, expected: str) -> None:
    path = tmp_path / "theme.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(PrintdeckError) as info:
        load_theme(path)
    assert str(info.value).startswith(str(path)) and expected in str(info.value)


def test_missing_theme_and_unknown_bundled_name(tmp_path: Path) -> None:
    with pytest.raises(PrintdeckError, match="theme file not found"):
        load_theme(tmp_path / "nope.yaml")
    with pytest.raises(PrintdeckError, match="bundled theme; bundled themes are default"):
        load_theme("no-such-theme")
    with pytest.raises(PrintdeckError, match="bundled theme; did you mean times-tables\\? bundled themes are"):
        load_theme("times-table")  # a teacher's typo: the name it is nearly


def test_a_directory_named_like_a_theme_file_is_not_read(tmp_path: Path) -> None:
    (tmp_path / "odd.yaml").mkdir()
    with pytest.raises(PrintdeckError, match="not found"):
        load_theme(tmp_path / "odd.yaml")


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("card:\n  background: #fff\n", 2),
        ("text:\n  colors: [#fff, red]\n", 2),
        ("text:\n  colors:\n    - #ff0000\n", 3),
    ],
)
def test_a_colour_without_quotes_is_refused_not_read_as_empty(text: str, line: int) -> None:
    with pytest.raises(PrintdeckError, match=rf"t\.yaml: line {line}: the colour #f+0* needs quotes"):
        load_yaml_text(text, "t.yaml")
    assert load_yaml_text('name: x  # not a colour #fff\ntitle: "Deck #1"\nsymbols:\n  - #bad idea\n', "t.yaml")


def test_a_base_60_number_stays_text() -> None:
    """YAML 1.1 reads ``3:4`` as 184 and ``1:30`` as 90; a theme means the text it shows."""
    data = load_yaml_text("a: 3:4\nb: 1:30:00.5\nc: -2:05\nd: 12\ne: 1.5\nf: '3:4'\ng: [10:30, 7]\n")
    assert data == {"a": "3:4", "b": "1:30:00.5", "c": "-2:05", "d": 12, "e": 1.5, "f": "3:4", "g": ["10:30", 7]}


def test_a_ratio_as_a_word_builds(tmp_path: Path) -> None:
    path = tmp_path / "ratios.yaml"
    path.write_text("symbols:\n" + "".join(f"  - text: {a}:{b}\n" for a, b in zip(range(1, 8), range(2, 9))))
    assert [s.text for s in load_theme(path).symbols] == [f"{a}:{b}" for a, b in zip(range(1, 8), range(2, 9))]
