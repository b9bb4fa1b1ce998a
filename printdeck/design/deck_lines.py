"""Reading a deck file's cards: where a card is (for its errors), its symbols, and the
line forms (CSV and ``printdeck design``'s text), with the limits that keep any file safe
to read (:data:`MAX_CARDS`, :data:`MAX_CARD_SYMBOLS`)."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from printdeck.errors import PrintdeckError, counted, file_error, shown

MAX_CARDS = 60_000
"""Most cards verified (time grows as cards², memory as symbols on cards)."""
MAX_CARD_SYMBOLS = 10_000
"""Most symbols on one card (a plane within :data:`MAX_CARDS` has at most 245)."""


@dataclass(frozen=True)
class CardAt:
    """Where a card is in a deck file: the file, the card's index (0-based, as keys count
    them) and, for a CSV file, its line. Messages count cards from 1, as ``verify`` does."""

    path: Path
    index: int
    line: int | None = None

    def error(self, problem: str, fix: str | None = None, value: Any = None) -> PrintdeckError:
        """An error about this card: ``source`` the file, ``key`` ``cards.N``, ``value`` what
        was refused; the message ``"deck.csv: line 4 (card 3): <problem>; <fix>"``."""
        number = self.index + 1
        where = f"line {self.line} (card {number})" if self.line is not None else f"card {number}"
        text = f"{shown(self.path)}: {where}: {problem}" + (f"; {fix}" if fix else "")
        fields: dict[str, Any] = {"value": value} if value is not None else {}
        return PrintdeckError(
            text, source=shown(self.path), key=f"cards.{self.index}", problem=problem, fix=fix, **fields
        )


def symbol_id(item: Any, card: CardAt) -> int:
    """One symbol number: a non-negative int (not a bool), or an object holding one."""
    if isinstance(item, dict):
        for key in ("symbol_id", "id", "symbol"):
            if key in item:
                return symbol_id(item[key], card)
    if isinstance(item, int) and not isinstance(item, bool):
        if item < 0:
            raise card.error(f"symbol {item} is negative", "symbol numbers must be 0 or more", item)
        return item
    raise card.error(f"symbol {str(item)[:60]!r} is not a whole number 0 or more", value=item)


def card_symbols(raw: Any, card: CardAt) -> list[int]:
    if isinstance(raw, list) and len(raw) > MAX_CARD_SYMBOLS:
        raise card.error(f"more than {MAX_CARD_SYMBOLS:,} symbols on one card", "is this a deck?")
    if isinstance(raw, list):
        return [symbol_id(x, card) for x in raw]
    if isinstance(raw, dict):
        for key in ("symbols", "placements", "symbol_ids"):
            if isinstance(raw.get(key), list):
                return [symbol_id(x, card) for x in raw[key]]
    raise card.error("a card must be a list of symbol numbers or have a 'symbols' list")


def _is_number(cell: str) -> bool:
    try:
        float(cell)
    except ValueError:
        return False
    return True


def from_csv(text: str, path: Path) -> tuple[list[list[int]], Said]:
    """Cards from CSV rows (separated as :func:`csv_separator` finds; a first row with no
    number-like cell is a header), and what ``#`` comment lines say of the deck as
    ``printdeck design``'s header says it (:class:`Said`). A CSV or text file with no number
    in any row (:func:`_in_names`) is a deck written in its symbols' names (a pupil's
    ``gato,perro,pez``): each name, case folded, is a symbol, numbered in the order met.

    Raises:
        PrintdeckError: A row that is not whole symbol numbers, or more than
            :data:`MAX_CARDS` cards.
    """
    said = Said()
    sep = csv_separator(text)
    rows: list[tuple[int, list[str]]] = []
    for n, row in enumerate(csv.reader(short_lines(text, path), delimiter=sep), start=1):
        cells = [c.strip() for c in row if c.strip()]
        if cells and cells[0].startswith("#"):
            said = said.read(sep.join(row))
        elif cells:
            rows.append((n, cells))
    if _in_names(rows, path):
        return _named_cards(rows, path), said
    cards: list[list[int]] = []
    for n, cells in rows:
        if not cards and not any(_is_number(c) for c in cells):
            continue  # header
        card = CardAt(path, len(cards), n)
        try:
            values = [int(c) for c in cells]
        except ValueError:
            raise card.error(f"{sep.join(cells)[:60]!r} is not a list of whole symbol numbers", value=cells) from None
        cards.append([symbol_id(v, card) for v in values])
        check_count(len(cards), path)
    return cards, said


NAMES_SUFFIXES = (".csv", ".tsv", ".txt")
"""The files a deck written in its symbols' names may be (not a theme, a PDF given by mistake)."""


def _in_names(rows: list[tuple[int, list[str]]], path: Path) -> bool:
    """Whether ``rows`` are a deck written in names: a CSV or text file whose every row
    holds two symbols or more and no number."""
    return (
        path.suffix.lower() in NAMES_SUFFIXES
        and bool(rows)
        and all(len(cells) >= 2 for _, cells in rows)
        and not any(_is_number(c) for _, cells in rows for c in cells)
    )


def _named_cards(rows: list[tuple[int, list[str]]], path: Path) -> list[list[int]]:
    """Cards of symbols written by name (each name case folded is one symbol, numbered from
    0 in the order met)."""
    ids: dict[str, int] = {}
    cards = []
    for _, cells in rows:
        cards.append([ids.setdefault(" ".join(c.split()).casefold(), len(ids)) for c in cells])
        check_count(len(cards), path)
    return cards


_TEXT_CARD = re.compile(r"\s*\d+\s*:(.*)")
"""A card line of ``printdeck design``'s text form: ``"12: 0 5 9"`` (the card's number, then its symbols)."""
_TEXT_LAMBDA = re.compile(r"every two share (\d+)")
"""λ in a ``#`` comment, as the text form's deck line names it (:func:`design_header`)."""
_TEXT_HEADER = re.compile(r"\d+ cards?, (\d+) symbols?, \d+ a card, every two share \d+")
"""The text form's deck line as :func:`design_header` writes it (and as older versions
wrote it, ``"1 cards"``); its group: the symbols."""


def design_header(cards: int, symbols: int, per_card: int, lam: int) -> str:
    """The text form's deck line (after ``"# "``), which :func:`from_text` and
    :func:`from_csv` read back: ``"57 cards, 57 symbols, 8 a card, every two share 1"``
    (``"1 card"`` for one)."""
    return f"{counted(cards, 'card')}, {counted(symbols, 'symbol')}, {per_card} a card, every two share {lam}"


def is_design_text(text: str) -> bool:
    """Whether ``text`` is ``printdeck design``'s text form: its first line that is neither
    blank nor a ``#`` comment is a card line (``"0: 0 1 3"``)."""
    for line in io.StringIO(text[:100_000]):
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            return _TEXT_CARD.fullmatch(stripped) is not None and "," not in stripped
    return False


def from_text(text: str, path: Path) -> tuple[list[list[int]], Said]:
    """Cards from ``printdeck design``'s text form (one ``"N: symbols"`` line a card, ``#``
    comments), and what its header says of the deck (:class:`Said`).

    Raises:
        PrintdeckError: A line that is not a card line of whole symbol numbers, or more
            than :data:`MAX_CARDS` cards.
    """
    cards: list[list[int]] = []
    said = Said()
    for n, line in enumerate(short_lines(text, path), start=1):
        stripped = line.strip()
        if stripped.startswith("#"):
            said = said.read(stripped)
        if not stripped or stripped.startswith("#"):
            continue
        card = CardAt(path, len(cards), n)
        found = _TEXT_CARD.fullmatch(stripped)
        if found is None or not all(cell.isdigit() for cell in found.group(1).split()):
            raise card.error(f"{stripped[:60]!r} is not a card's number and its symbols ('12: 0 5 9')", value=stripped)
        cards.append([symbol_id(int(cell), card) for cell in found.group(1).split()])
        check_count(len(cards), path)
    return cards, said


@dataclass(frozen=True)
class Said:
    """What a deck file's ``#`` comments say of the deck, as :func:`design_header` writes it.

    Attributes:
        lam: λ, from the first comment naming it (``every two share 2``; any number: the
            reader refuses one other than 1 or 2 only when no ``--match`` overrides it).
        symbols: How many symbols the deck has, from the first full deck line
            (``"13 cards, 13 symbols, 4 a card, every two share 1"``), unused ones
            included; None when no comment says.
    """

    lam: int | None = None
    symbols: int | None = None

    def read(self, comment: str) -> Said:
        """These facts with what the ``#`` line ``comment`` says added, where not said yet."""
        deck_line = _TEXT_HEADER.search(comment)
        named = _TEXT_LAMBDA.search(comment)
        lam = self.lam if self.lam is not None or named is None else int(named.group(1))
        symbols = self.symbols if self.symbols is not None or deck_line is None else int(deck_line.group(1))
        return Said(lam, symbols)


CSV_SEPARATORS = (",", ";", "\t")
"""What may separate a CSV row's symbols: commas, as ``printdeck design`` writes, or the
semicolons and tabs spreadsheets save in many locales."""


def csv_separator(text: str) -> str:
    """The separator of a deck CSV: the first of :data:`CSV_SEPARATORS` that splits a line
    into two or more whole numbers, in the first line one does (a card, not a header or a
    ``#`` comment, whatever they hold); a comma if none does."""
    for line in io.StringIO(text[:100_000]):
        if line.lstrip().startswith("#"):
            continue
        for sep in CSV_SEPARATORS:
            cells = [c.strip() for row in csv.reader([line], delimiter=sep) for c in row if c.strip()]
            if len(cells) >= 2 and all(c.isdigit() for c in cells):
                return sep
    return ","


def short_lines(text: str, path: Path) -> Iterator[str]:
    """The lines of ``text``, refusing one too long to be a card (before csv splits it)."""
    longest = 16 * MAX_CARD_SYMBOLS
    for n, line in enumerate(io.StringIO(text), start=1):
        if len(line) > longest:
            raise file_error(path, f"line {n} is longer than {longest:,} characters; give one card a line")
        yield line


def check_count(cards: int, path: Path) -> None:
    if cards > MAX_CARDS:
        raise file_error(path, f"more than {MAX_CARDS:,} cards; printdeck verifies decks up to that size")
