"""Word lists for starter themes (``printdeck init --words``): one word a line, or a word
and its translation; every word checked for length, repeats and a font that has its
letters. Errors are about the argument the list was given as (``words``)."""

from __future__ import annotations

import unicodedata
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from printdeck.artwork import drawing, word_chain
from printdeck.emoji_names import bundled_picture, emoji_in
from printdeck.errors import PrintdeckError, shown
from printdeck.fileio import read_user_file
from printdeck.model import SymbolSpec
from printdeck.theme.spec_types import MAX_WORD_CHARS

if TYPE_CHECKING:
    from printdeck.artwork import FontFace

MAX_WORDS_FILE_BYTES = 200_000
UTF16_MARKS = (b"\xff\xfe", b"\xfe\xff")
"""The byte-order marks a UTF-16 text file starts with (Windows Notepad's "Unicode")."""
NO_FONT = "word-without-font"
"""The ``code`` of :func:`~printdeck.theme.scaffold.init_theme`'s error for a word no font
has (a front end says how to give a font: ``font=``, ``--font``)."""


@dataclass(frozen=True)
class WordRow:
    """One line of a word list: a word, or a word and its translation (``cat\tgato``, ``cat = gato``)."""

    line: int
    words: tuple[str, ...]
    source: str = ""
    """The list's file, as messages name it (empty for a row not read from a file)."""


WORD_ROW_PROBLEM = "give one word, or a word and its translation separated by a tab or ' = '"
"""What a word list's line must hold (the problem of a line that does not)."""


def word_columns(line: str) -> tuple[str, ...] | None:
    """A word list's line as its columns: one word, or a word and its translation split at a
    tab, else at `` = `` (``cat = gato``), each column's spaces tidied; ``None`` for a line
    that is neither (three columns, an empty one, or an ``=`` that splits nothing: ``cat =``,
    ``dog =perro``; see :data:`WORD_ROW_PROBLEM`). ``E=mc²`` is one word, and so is a word
    the same in both columns (``chocolate = chocolate``, a cognate: both faces would print it;
    the same letters typed two ways too, NFC).

    Args:
        line: One line of the list (neither blank nor a ``#`` comment).
    """
    parts = line.split("\t") if "\t" in line else line.split(" = ")
    words = tuple(" ".join(p.split()) for p in parts)
    if len(words) > 2 or not all(words) or ("\t" not in line and any(_half_split(w) for w in words)):
        return None
    if len(words) == 2 and _nfc(words[0]) == _nfc(words[1]):
        return words[:1]
    return words


def _half_split(word: str) -> bool:
    """Whether a column of a line split at `` = `` holds an ``=`` meant to split it that does
    not (``cat =``, ``= gato``, ``dog =perro``: nothing, or no space, on one side); ``E=mc²``
    is a word, and so is ``3 × 4 = 12`` in a line split at a tab."""
    return word.startswith("=") or word.endswith("=") or " =" in word or "= " in word


def read_words(path: Path) -> list[WordRow]:
    """Words from a text file: one a line, or two columns (a word and its translation,
    separated by a tab or `` = ``); blank lines and ``#`` comments skipped. A word the same in
    both columns (``chocolate = chocolate``, a cognate) is one word: both faces would print it.

    Raises:
        PrintdeckError: Unreadable or not UTF-8 (nor UTF-16 with its byte-order mark), no word in it,
            a word too long, more than two columns or
            an empty one (``cat =``, ``dog =perro``: an ``=`` that splits nothing), or a word
            twice, in any case and however its letters are typed (NFC; the message gives the
            line numbers).
    """
    raw = read_user_file(path, "words", MAX_WORDS_FILE_BYTES, "a word list")  # a regular file, never blocking
    try:
        text = raw.decode("utf-16" if raw.startswith(UTF16_MARKS) else "utf-8-sig")
    except UnicodeDecodeError:
        raise argument_error(
            "words", "is not UTF-8 (or UTF-16) text", "save it as UTF-8, one word a line", source=path
        ) from None
    rows: list[WordRow] = []
    first_line: dict[str, tuple[int, str]] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.strip().startswith("#"):
            continue
        words = word_columns(line)
        if words is None:
            raise argument_error("words", f"line {number}: {WORD_ROW_PROBLEM}", source=path)
        for word in words:
            _check_word(word, number, first_line, path)
        rows.append(WordRow(number, tuple(words), shown(path)))
    if not rows:
        raise argument_error(
            "words", "holds no words (only blank lines or # comments)", "write one word a line", source=path
        )
    _warn_comma_columns(rows)
    _warn_tight_equals(rows)
    return rows


def _nfc(word: str) -> str:
    """``word`` in Unicode's composed form (NFC): "e" + a combining accent is "é"."""
    return unicodedata.normalize("NFC", word)


def _typed_apart(word: str, other: str) -> str:
    """What a message adds when two words spell the same only once composed (:func:`_nfc`): the
    user sees the same word twice and could not tell why it is refused."""
    apart = word.casefold() != other.casefold() and _nfc(word).casefold() == _nfc(other).casefold()
    return " (the same letters, typed another way)" if apart else ""


def _check_word(word: str, number: int, first_line: dict[str, tuple[int, str]], path: Path) -> None:
    """Refuse a word too long, or already on another line (upper and lower case alike, and
    the same letters typed two ways: NFC); else note its line in ``first_line``.

    Raises:
        PrintdeckError: The word is too long, or on an earlier line (both lines named).
    """
    if len(word) > MAX_WORD_CHARS:
        problem = f"line {number}: {word[:20]!r}... is longer than {MAX_WORD_CHARS} characters"
        raise argument_error("words", problem, "shorten it", source=path)
    key = _nfc(word).casefold()  # "A = a" on one line: the upper and lower case match
    line, first = first_line.get(key, (number, word))
    if line != number:
        problem = f"line {number}: {word!r} is already on line {line}{_typed_apart(word, first)}"
        raise argument_error("words", problem, "list each word once", source=path)
    first_line[key] = (number, word)


class WordListWarning(UserWarning):
    """A word list's line that is probably not what it says: a typo of a picture's name, or
    a word and its translation split by a comma."""


def _warn_comma_columns(rows: list[WordRow]) -> None:
    """Warn when half the lines or more hold one comma-joined word (``cat,gato``: a list saved
    as CSV), which is read as one word: a translation is split by a tab or `` = ``."""
    joined = [row for row in rows if len(row.words) == 1 and "," in row.words[0] and ", " not in row.words[0]]
    if len(joined) >= 2 and 2 * len(joined) >= len(rows):
        first = joined[0]
        warnings.warn(
            f"{first.source or 'the word list'}: {len(joined)} lines hold a comma (line {first.line}: "
            f"{first.words[0]!r}), each "
            "read as one word; to give a word and its translation, split them by ' = ' or a tab",
            WordListWarning,
            stacklevel=3,
        )


def _warn_tight_equals(rows: list[WordRow]) -> None:
    """Warn when lines with an ``=`` and no spaces round it (``2×2=4``, ``cat=gato``), each
    read as one word, sit in a list of pairs (lines split at `` = `` or a tab), or make half
    the list or more (at least two lines: a teacher's times tables typed ``3×4=12`` printed
    the whole sum on one symbol, and the game matched sums to themselves). The answer would
    print on the same symbol as its question. A list with a few such words among plain ones
    keeps its ``E=mc²`` quietly."""
    pairs = [row for row in rows if len(row.words) == 2]
    tight = [row for row in rows if len(row.words) == 1 and _tight_pair(row.words[0])]
    if tight and (pairs or (len(tight) >= 2 and 2 * len(tight) >= len(rows))):
        first = tight[0]
        count = f"{len(tight)} line(s)" if pairs else f"{len(tight)} of {len(rows)} lines"
        among = f", while line {pairs[0].line} is a pair" if pairs else ""
        warnings.warn(
            f"{first.source or 'the word list'}: {count} hold an '=' without spaces (line "
            f"{first.line}: {first.words[0]!r}), each read as one word{among}; "
            "to make a pair, put a space on each side of '='",
            WordListWarning,
            stacklevel=3,
        )


def _tight_pair(word: str) -> bool:
    """Whether a one-word line holds an ``=`` with something on each side (``3×4=12``)."""
    left, _, right = word.partition("=")
    return bool(left.strip() and right.strip())


def check_word_fonts(rows: list[WordRow], words_file: Path, face: FontFace | None) -> None:
    """Check that every word has a font: ``face`` (``--font``), a bundled one or the computer's.

    Raises:
        PrintdeckError: A word has letters no font has, or draws no ink; names the word,
            its line, the letters and what to install or pass.
    """
    for line, word in ((row.line, w) for row in rows for w in row.words):
        probe = SymbolSpec(
            id=0,
            name=word,
            kind="text",
            source=f"text:{word}",
            text=word,
            font_path=face.path if face else None,
            font_index=face.index if face else 0,
        )
        try:
            word_chain(probe)
        except PrintdeckError as exc:
            emoji = _emoji_fix(word)  # no font file mends an emoji: not NO_FONT, whose fix is --font
            fix, code = (emoji, None) if emoji else (_font_fix(exc.fix), NO_FONT)
            raise argument_error("words", f"line {line}: {exc.problem}", fix, source=words_file, code=code) from None
        try:
            drawing(probe)  # set as the theme will set it: visible ink (a line of only a zero-width space has none)
        except PrintdeckError as exc:
            raise argument_error("words", f"line {line}: {exc.problem}", exc.fix, source=words_file) from None


def _font_fix(fix: str | None) -> str:
    also = "give a font file for the words that has these letters"
    return f"{fix}, or {also}" if fix else also


def _emoji_fix(word: str) -> str | None:
    """For a word list, a word holding an emoji no font has: leave it out (a picture of
    the emoji can be a symbol of its own, in the theme written)."""
    found = emoji_in(word)
    if not found:
        return None
    picture = bundled_picture(found[0]) if len(found) == 1 else None
    then = f' (its picture can be a symbol of the theme: image: "{picture}")' if picture else ""
    return f"leave the emoji out of the list{then}"


def argument_error(
    argument: str, problem: str, fix: str | None = None, *, source: Path | str | None = None, code: str | None = None
) -> PrintdeckError:
    """An error about what was given to :func:`~printdeck.theme.scaffold.init_theme`'s
    argument ``argument`` (``words``): ``key`` the argument (``is_argument`` set: the
    command line words it as its option, ``--words``), ``source`` the file or folder
    given, if any."""
    where = shown(source) if source is not None else None
    return PrintdeckError(source=where, key=argument, problem=problem, fix=fix, is_argument=True, code=code)
