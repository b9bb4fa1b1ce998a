"""The studio's words: the command line's one-line errors placed beside a field or a
thumbnail, the build's summary line, and the line saying what the symbols allow."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from printdeck.errors import shown

THEME_FILE = "theme.yaml"
TOP_KEYS = ("name", "title", "author", "seed", "deck", "card", "layout", "paper", "backs", "extras", "text", "symbols")
_LABEL = re.compile(r"^(?:<theme>|<YAML text>|theme [^ :]+|[^:]*theme\.yaml): ")
_KEY = re.compile(r"^((?:" + "|".join(TOP_KEYS) + r")(?:\.[A-Za-z0-9_]+)*)(?: \([^)]*\))?: ")


@dataclass(frozen=True)
class Problem:
    """A one-line error of the library, as the page shows it.

    Attributes:
        key: The dotted theme key the error names (``card.diameter``, ``symbols.3.image``),
            or ``None`` when it names none.
        line: The line as the command line prints it, the theme called ``theme.yaml`` and
            the theme folder's own path left out (``theme.yaml: card.diameter: ...``).
    """

    key: str | None
    line: str

    @property
    def symbol_index(self) -> int | None:
        """The position in ``symbols:`` the error names (``symbols.3.image`` -> 3), if any."""
        parts = (self.key or "").split(".")
        return int(parts[1]) if len(parts) > 1 and parts[0] == "symbols" and parts[1].isdigit() else None

    @property
    def detail(self) -> str:
        """The line without the theme's name: ``card.diameter: expected a length ...``."""
        return _LABEL.sub("", self.line, count=1)

    @property
    def about_file(self) -> str:
        """The line without the theme's name and key, as said of one file or word:
        ``images/cat.png is truncated or corrupt ...; re-export it``."""
        return _KEY.sub("", self.detail, count=1)


def problem_of(message: str, folder: Path) -> Problem:
    """Split a ``PrintdeckError``'s line into the key it names and the line to show.

    Args:
        message: ``str(error)``: ``"<theme>: card.diameter: expected ..."``.
        folder: The theme folder; its path (absolute or resolved) is left out of the line.
    """
    line = message
    for spelled in sorted(
        {str(folder), str(folder.resolve()), shown(folder), shown(folder.resolve())}, key=len, reverse=True
    ):
        line = line.replace(spelled + "/", "")
    rest = _LABEL.sub("", line, count=1)
    match = _KEY.match(rest)
    return Problem(match.group(1) if match else None, f"{THEME_FILE}: {rest}")


def touches(error_key: str | None, changed: str) -> bool:
    """Whether an error naming ``error_key`` is about the changed key ``changed``
    (the same key, a key inside it, or the section holding it)."""
    if error_key is None:
        return False
    return error_key == changed or error_key.startswith(changed + ".") or changed.startswith(error_key + ".")


def home_shortened(path: Path) -> str:
    """``path`` with the home folder written ``~`` (``~/my-deck/output/my-deck.pdf``)."""
    try:
        return "~/" + path.relative_to(Path.home()).as_posix()
    except (ValueError, RuntimeError):
        return str(path)
