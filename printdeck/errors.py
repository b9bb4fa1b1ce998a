"""The one exception type a user-caused problem ends in, and safe one-line text."""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterable
from os import PathLike

_SPACES = re.compile(r" {2,}")


def escape_unprintable(text: str) -> str:
    """``text`` with every non-printable character escaped as Python's ``repr`` does.

    Control characters (newline, tab, escape sequences), lone surrogates (bytes of a
    file name that are not UTF-8), format and separator characters other than the
    plain space become ``\\n``, ``\\x1b``, ``\\udcff``, ``\\u200b``...; printable
    text (any script) is kept as it is. The result is safe to print on one line of
    any terminal and to encode as UTF-8.
    """
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() or ch == " " else repr(ch)[1:-1] for ch in text)


def shown(path: str | PathLike[str]) -> str:
    """A user's file name as printed in messages: non-printables escaped (see
    :func:`escape_unprintable`), so a name cannot break the line or the terminal."""
    return escape_unprintable(str(path))


def one_line(message: str) -> str:
    """``message`` as one safe line: ASCII line breaks and tabs between words become
    spaces, other non-printables are escaped, runs of spaces are collapsed."""
    flat = " ".join(message.split("\n")).replace("\r", " ").replace("\t", " ")
    return _SPACES.sub(" ", escape_unprintable(flat)).strip()


class PrintdeckError(Exception):
    """A problem the user can fix: bad theme, missing file, impossible deck.

    The CLI prints ``str(error)`` as one line on stderr and exits with status 2.
    The message names the key or file at fault and what would fix it; it is made
    one safe line here (:func:`one_line`), whatever file names it holds.
    """

    def __init__(self, message: str) -> None:
        super().__init__(one_line(message))


def warning_lines(caught: Iterable[warnings.WarningMessage]) -> list[str]:
    """printdeck's warnings as the command line and the studio show them: each distinct one
    once, as ``printdeck: warning: <one line>`` (only ``UserWarning`` kinds: not a stray
    ``ResourceWarning`` of the interpreter's)."""
    texts = dict.fromkeys(one_line(str(w.message)) for w in caught if issubclass(w.category, UserWarning))
    return [f"printdeck: warning: {text}" for text in texts]
