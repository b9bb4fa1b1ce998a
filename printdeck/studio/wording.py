"""The studio's words: the library's errors placed beside a field or a thumbnail (by
their fields, never by reading the message), the build's summary line, and the line saying what the symbols allow."""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from printdeck.errors import REPEATS, PinWarning, PrintdeckError, warning_lines, without_folder
from printdeck.studio.plain_words import index_in_symbols, plain_words

THEME_FILE = "theme.yaml"


@dataclass(frozen=True)
class Problem:
    """A library error as the page shows it, from the error's fields (no message parsing).

    Attributes:
        key: The dotted theme key the error names (``card.diameter``, ``symbols.3.image``),
            or ``None`` when it names none.
        line: The line as the command line prints it, the theme called ``theme.yaml`` and
            the theme folder's own path left out (``theme.yaml: card.diameter: ...``).
        detail: The line without the theme's name: ``card.diameter: expected a length ...``.
        code: The error's ``code`` (``"too-few-symbols"``), if it gives one.
        words: What the page shows: the page's own words, naming its control by its label
            (``Card size must be a length such as 85 mm ...``; see ``plain_words``).
        words_alone: The words without the control's name, for a tile that names itself
            (a refused file's tile: ``this file cannot be read as a picture ...``).
    """

    key: str | None
    line: str
    detail: str = ""
    code: str | None = None
    words: str = ""
    words_alone: str = ""
    cause: PrintdeckError | None = field(default=None, compare=False, repr=False)

    @property
    def symbol_index(self) -> int | None:
        """The position in ``symbols:`` the error names (``symbols.3.image`` -> 3), if any."""
        return index_in_symbols(self.key)

    @property
    def repeated_index(self) -> int | None:
        """For a symbol refused as a repeat of an earlier one (the same picture, word or
        name: :data:`printdeck.errors.REPEATS`), that one's position in ``symbols:``."""
        cause = self.cause
        if cause is None or cause.code not in REPEATS or not cause.also:
            return None
        return index_in_symbols(cause.also[0])

    def error(self) -> PrintdeckError:
        """This problem raised again (its line, its fields kept: ``theme.yaml`` its source)."""
        cause = self.cause
        kept: dict[str, Any] = {"problem": cause.problem, "fix": cause.fix} if cause is not None else {}
        if cause is not None and cause.has_value:
            kept["value"] = cause.value
        return PrintdeckError(self.line, source=THEME_FILE, key=self.key, code=self.code, **kept)

    @property
    def about_file(self) -> str:
        """The line without the theme's name and key, as said of one file or word:
        ``images/cat.png is truncated or corrupt ...; re-export it``."""
        if self.key and self.detail.startswith(self.key):
            return self.detail.split(": ", 1)[-1]  # past the key (and the file it read)
        return self.detail


def problem_of(exc: PrintdeckError, folder: Path, doc: Mapping[str, Any] | None = None) -> Problem:
    """A ``PrintdeckError`` as the page shows it: the key from its ``key`` field (an
    argument's name is no theme key), the line with the theme's name (its ``source``)
    written ``theme.yaml`` and the theme folder's path left out, and the page's own words.

    Args:
        exc: The error.
        folder: The theme folder; its path (absolute or resolved) is left out of the line.
        doc: The theme mapping that made the error, if known (see ``plain_words``).
    """
    words = plain_words(exc, doc)
    line = without_folder(str(exc), folder)
    if exc.source:
        source = without_folder(exc.source, folder)
        line = line.removeprefix(f"{source}: ") if line.startswith(f"{source}: ") else line
    key = None if exc.is_argument else exc.key
    alone = without_folder(words.alone(), folder)
    return Problem(key, f"{THEME_FILE}: {line}", line, exc.code, without_folder(str(words), folder), alone, exc)


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


def sheet_warnings(caught: Iterable[warnings.WarningMessage]) -> list[str]:
    """The warnings of a sheet's layout as the page shows them: cards whose touch-ups are
    left out (``PinWarning``) in the page's words, one line for the cards that show other
    symbols now (what to do there) and one for cards the deck no longer has (never a theme
    key); every other warning as the command line says it (``warning_lines``)."""
    caught = list(caught)
    pins = [w.message for w in caught if isinstance(w.message, PinWarning)]
    changed = sorted({pin.card for pin in pins if pin.deck_cards is None})
    gone = sorted({pin.card for pin in pins if pin.deck_cards is not None})
    lines = []
    if changed:
        lines.append(
            f"The touch-ups of {_cards(changed)} are not used: the deck changed since they were made, so "
            f"{'that card shows' if len(changed) == 1 else 'those cards show'} other symbols now. Zoom "
            f"{'it' if len(changed) == 1 else 'each'} and choose Release card to forget them."
        )
    if gone:
        count = next(pin.deck_cards for pin in pins if pin.deck_cards is not None)
        lines.append(
            f"The touch-ups of {_cards(gone)} are not used: the deck has {count} cards now. They apply again if "
            "the deck grows back; Undo takes the last change back."
        )
    return [*lines, *warning_lines(w for w in caught if not isinstance(w.message, PinWarning))]


def _cards(numbers: list[int]) -> str:
    """``card 4``, ``cards 3 and 5``, ``cards 3, 5 and 9``."""
    if len(numbers) == 1:
        return f"card {numbers[0]}"
    return f"cards {', '.join(map(str, numbers[:-1]))} and {numbers[-1]}"
