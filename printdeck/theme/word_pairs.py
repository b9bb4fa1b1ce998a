"""A starter theme's symbols from pictures and a word list (``printdeck init --images
--words``): a picture and the line that names it become one symbol of two faces (the picture,
then the line's last word); the others stay symbols of their own. A line that names no
picture but is spelt nearly as an unpaired picture's name is warned about (a typo leaves the
picture alone and prints the misspelt word)."""

from __future__ import annotations

import difflib
import json
import warnings
from pathlib import Path

from printdeck.theme.picture_kind import PictureKind
from printdeck.theme.theme_paths import IMAGE_SUFFIXES
from printdeck.theme.word_list import WordListWarning, WordRow, argument_error

NEAR_NAME = 0.8
"""How alike (``difflib`` ratio) a line's word and an unpaired picture's name must be to be
warned about as a likely typo (``rabit`` and ``rabbit``: 0.91)."""


def yaml_string(text: str) -> str:
    """A YAML scalar that stays a string (``yes``, ``null``, ``1e3`` included)."""
    return json.dumps(text, ensure_ascii=False)


UPRIGHT = "    rotate: false   # a face: kept upright\n"
"""The line a cut-out person's or pet's entry gets (see :mod:`printdeck.theme.picture_kind`)."""
CUT_OUT = "    remove_background: true   # printed without its plain background\n"
"""The line an opaque picture of a subject on a plain background gets (clip art on white)."""


def _kind_lines(kind: PictureKind, indent: str = "") -> str:
    """The lines of an entry's keys besides its file: ``remove_background`` and ``rotate``."""
    return "".join(indent + line for line, on in ((CUT_OUT, kind.cut_out), (UPRIGHT, kind.upright)) if on)


def paired_entries(
    pictures: list[tuple[str, str, PictureKind]], rows: list[WordRow], langs: dict[str, str] | None = None
) -> list[str]:
    """The symbols' YAML lines for pictures and words: a picture and the row whose first word
    is its name or its file's (file name: ``cat.png`` and ``cat``, ``cat = gato`` or
    ``cat.png = gato``) make one symbol with two faces (the picture, then the row's last
    word); the others stay symbols of their own.

    Args:
        pictures: Each picture as (path in the theme, name, entry).
        rows: The word list's lines.
        langs: A word's own ``lang``, written on its entry (a list mixing Japanese and
            Korean words: :func:`~printdeck.theme.han_forms.word_langs`).

    Raises:
        PrintdeckError: A row names a picture file (``apple.png``) the pictures do not hold.

    Warns:
        WordListWarning: A row that names no picture is spelt nearly as a picture left
            without a word (``rabit`` and ``rabbit.png``).
    """
    by_name = {row.words[0].casefold(): row for row in rows}
    paired: set[int] = set()
    lines, alone = [], []
    for rel, name, kind in pictures:
        row = by_name.get(name.casefold()) or by_name.get(rel.rsplit("/", 1)[-1].casefold())
        key = kind.key
        if row is None:
            lines.append(f"  - {key}: {yaml_string(rel)}\n    name: {yaml_string(name)}\n{_kind_lines(kind)}")
            alone.append((name, rel.rsplit("/", 1)[-1]))
            continue
        paired.add(row.line)
        face_keys = _kind_lines(kind, "    ")  # on the picture's face: a symbol with faces turns by face
        word = yaml_string(row.words[-1])
        faces = f"    faces:\n      - {key}: {yaml_string(rel)}\n{face_keys}      - text: {word}\n"
        faces += _lang_line(row.words[-1], langs, "        ")
        lines.append(f"  - name: {yaml_string(name)}\n{faces}")
    unpaired = [row for row in rows if row.line not in paired]
    typos = {row.line: _check_names_a_picture(row, alone) for row in (unpaired if pictures else [])}
    said = {file for file in typos.values() if file is not None}  # a likely typo is said on its own
    lone = [(name, file) for name, file in alone if file not in said]
    wordy = [row for row in unpaired if typos.get(row.line) is None]
    if paired and (lone or wordy):  # pairs were meant: say who has no partner
        _say_partnerless(lone, wordy, rows)
    return lines + [_word_entry(row, langs or {}) for row in unpaired]


SAID_PARTNERLESS = 5
"""The pictures (and the word lines) without a partner :func:`_say_partnerless` names, then how many more."""


def _say_partnerless(alone: list[tuple[str, str]], unpaired: list[WordRow], rows: list[WordRow]) -> None:
    """Warn, when pictures and word lines were paired, about those left without a partner:
    each prints as a symbol of its own, where a teacher meant a picture with its word.

    Warns:
        WordListWarning: Naming the pictures with no word line and the lines with no picture.
    """

    def named(items: list[str], what: str) -> str:
        more = f" and {len(items) - SAID_PARTNERLESS} more" if len(items) > SAID_PARTNERLESS else ""
        return f"{len(items)} {what}{'s' if len(items) > 1 else ''} ({', '.join(items[:SAID_PARTNERLESS])}{more})"

    parts = []
    if alone:
        parts.append(named([file for _, file in alone], "picture") + " with no word line")
    if unpaired:
        lines = [f"line {row.line}: '{' = '.join(row.words)}'" for row in unpaired]  # one kind of quote, "l'eau" too
        parts.append(named(lines, "word line") + " naming no picture")
    source = next((row.source for row in rows if row.source), None) or "the word list"
    fix = (
        f"to pair a picture and a word, start the word's line with the picture's name ({alone[0][0]} = ...)"
        if alone
        else f"to pair one, add a picture named as its first word ({unpaired[0].words[0]}.png) to the pictures"
    )
    warnings.warn(
        f"{source}: {' and '.join(parts)}: each prints as a symbol of its own; {fix}",
        WordListWarning,
        stacklevel=3,
    )


def _check_names_a_picture(row: WordRow, alone: list[tuple[str, str]]) -> str | None:
    """Refuse a row that names a picture file the folder lacks (``apple.png = manzana``: a
    typo, not a word); warn about one spelt nearly as a picture left alone, and return that
    picture's file name (None when there is none).

    Args:
        row: A word list's row that names no picture.
        alone: The pictures left without a row, as (name, file name).

    Raises:
        PrintdeckError: The row's first word is a picture's file name.

    Warns:
        WordListWarning: The row's first word is nearly a lone picture's name.
    """
    first = row.words[0]
    if Path(first).suffix.lower() in IMAGE_SUFFIXES:
        raise argument_error(
            "words",
            f"line {row.line}: {first!r} names no picture of the images folder",
            "check the file name, or write the picture's name without its extension",
        )
    names = {name.casefold(): file for name, file in alone}
    near = difflib.get_close_matches(first.casefold(), list(names), n=1, cutoff=NEAR_NAME)
    if near:
        warnings.warn(
            f"{row.source or 'the word list'}: line {row.line}: {first!r} names no picture, and {names[near[0]]} "
            "has no word: a typo? "
            f"They print as two symbols; write the picture's name ({near[0]!r}) to make them one",
            WordListWarning,
            stacklevel=3,
        )
        return names[near[0]]
    return None


def _word_entry(row: WordRow, langs: dict[str, str]) -> str:
    """One word (``text:``), or a word and its translation as one symbol with two faces;
    each with its own ``lang`` where ``langs`` gives one."""
    if len(row.words) == 1:
        return f"  - text: {yaml_string(row.words[0])}\n" + _lang_line(row.words[0], langs, "    ")
    faces = (f"      - text: {yaml_string(w)}\n" + _lang_line(w, langs, "        ") for w in row.words)
    return "  - faces:\n" + "".join(faces)


def _lang_line(word: str, langs: dict[str, str] | None, indent: str) -> str:
    """``lang: ja`` for ``word`` where ``langs`` gives it one, indented; else nothing."""
    lang = (langs or {}).get(word)
    return f"{indent}lang: {lang}\n" if lang else ""
