"""Deck files: print a design as text / JSON / CSV, read any of them back for ``verify``.

JSON: ``{"order": 7, "lambda": 1, "symbols": 57, "cards": [[0, 1, ...], ...]}``,
symbols numbered from 0. CSV: one card a row, symbol numbers separated by commas
(blank lines and lines starting with ``#`` ignored; a non-numeric first row is a
header). The text form (``"12: 0 5 9"`` a card, ``#`` comments) is read back too. A build
manifest is read too: its ``cards`` entries may be lists of ints,
or objects with ``symbols`` (ints or objects with ``id`` / ``symbol_id``) or
``placements`` (objects with ``symbol_id``).
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from printdeck.design.make import Design
from printdeck.errors import PrintdeckError, file_error, shown
from printdeck.fileio import read_user_file

MAX_DECK_BYTES = 24_000_000
"""Largest deck file read (the design of order 127, 16,513 cards of 128, is 11 MB as CSV)."""
MAX_CARDS = 60_000
"""Most cards verified (time grows as cards², memory as symbols on cards)."""
MAX_CARD_SYMBOLS = 10_000
"""Most symbols on one card (a plane within :data:`MAX_CARDS` has at most 245)."""


def design_json(design: Design) -> dict[str, Any]:
    """The JSON form: order, lambda, symbols, cards (plus construction, for humans)."""
    return {
        "order": design.order,
        "lambda": design.lam,
        "symbols": design.n_points,
        "cards": [list(b) for b in design.blocks],
        "construction": design.construction,
    }


def format_design(design: Design, fmt: str = "text") -> str:
    """Render a design as ``text`` (header + one card a line), ``json`` or ``csv``.

    Raises:
        ValueError: Unknown format.
    """
    if fmt == "json":
        return json.dumps(design_json(design), separators=(",", ":")) + "\n"
    if fmt == "csv":
        return "".join(",".join(map(str, b)) + "\n" for b in design.blocks)
    if fmt != "text":
        raise ValueError(f"unknown format {fmt!r}")
    head = (
        f"# {design.construction}\n# {len(design.blocks)} cards, {design.n_points} symbols, "
        f"{design.symbols_per_card} a card, every two share {design.lam}\n"
    )
    width = len(str(max(design.n_points - 1, 0)))
    return head + "".join(
        f"{i:>{len(str(len(design.blocks)))}}: " + " ".join(f"{p:>{width}}" for p in b) + "\n"
        for i, b in enumerate(design.blocks)
    )


@dataclass(frozen=True)
class _Card:
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


def _symbol_id(item: Any, card: _Card) -> int:
    """One symbol number: a non-negative int (not a bool), or an object holding one."""
    if isinstance(item, dict):
        for key in ("symbol_id", "id", "symbol"):
            if key in item:
                return _symbol_id(item[key], card)
    if isinstance(item, int) and not isinstance(item, bool):
        if item < 0:
            raise card.error(f"symbol {item} is negative", "symbol numbers must be 0 or more", item)
        return item
    raise card.error(f"symbol {str(item)[:60]!r} is not a whole number 0 or more", value=item)


def _card_symbols(raw: Any, card: _Card) -> list[int]:
    if isinstance(raw, list) and len(raw) > MAX_CARD_SYMBOLS:
        raise card.error(f"more than {MAX_CARD_SYMBOLS:,} symbols on one card", "is this a deck?")
    if isinstance(raw, list):
        return [_symbol_id(x, card) for x in raw]
    if isinstance(raw, dict):
        for key in ("symbols", "placements", "symbol_ids"):
            if isinstance(raw.get(key), list):
                return [_symbol_id(x, card) for x in raw[key]]
    raise card.error("a card must be a list of symbol numbers or have a 'symbols' list")


def _file_lambda(data: Any, path: Path) -> int | None:
    """λ named in the file (``lambda`` or ``match``, top level or under ``design`` / ``deck``).

    Raises:
        PrintdeckError: λ is given but is not 1 or 2.
    """
    if not isinstance(data, dict):
        return None
    for src in (data, data.get("design"), data.get("deck")):
        if not isinstance(src, dict):
            continue
        for key in ("lambda", "match"):
            if key in src:
                value = src[key]
                if isinstance(value, bool) or value not in (1, 2):
                    raise PrintdeckError(
                        f'{shown(path)}: "{key}": {json.dumps(value)[:40]} is not supported; '
                        f"printdeck checks 1 or 2 (fix the file, or give --match 1 or 2)"
                    )
                return int(value)
    return None


def _from_json(data: Any, path: Path) -> tuple[list[list[int]], tuple[str, ...], int]:
    """The cards of a JSON deck file to check; a split deck's twin faults and its deck B's
    count of cards (see :func:`_split_deck_a`)."""
    cards = data.get("cards") if isinstance(data, dict) else data
    if cards is None and isinstance(data, dict) and isinstance(data.get("deck"), dict):
        cards = data["deck"].get("cards")
    if not isinstance(cards, list):
        raise file_error(path, "no 'cards' list found; expected printdeck design JSON or a manifest")
    _check_count(len(cards), path)
    read = [_card_symbols(c, _Card(path, i)) for i, c in enumerate(cards)]
    a_cards, faults = _split_deck_a(cards, read, path)
    return a_cards, faults, len(read) - len(a_cards)


def _split_deck_a(raw: list[Any], cards: list[list[int]], path: Path) -> tuple[list[list[int]], tuple[str, ...]]:
    """A split build's manifest (cards marked ``"deck": "A"`` / ``"B"`` with a ``"twin"``,
    the other card's ``"index"``): deck A's cards, and what is wrong with deck B. Every card
    of A must have exactly one twin in B that shows its symbols (and name it back); then
    deck A holding λ proves every A-B pair of distinct cards shares λ symbols too. Faults
    count cards from 1, by their place in the file.

    Returns:
        ``(deck A's cards, faults)``; no faults, and ``cards`` as given, for any other file.

    Raises:
        PrintdeckError: a card's ``deck`` is not "A" or "B", a ``twin`` or ``index`` is not
            a whole number, or two cards have one ``index`` (not a split deck's manifest).
    """
    decks = [c.get("deck") if isinstance(c, dict) else None for c in raw]
    if not any(isinstance(d, str) for d in decks):  # a class set's decks are numbers (see _deck_numbers)
        return cards, ()
    place = _places(raw, path)
    twins = [place.get(_twin(card, i, path), -1) for i, card in enumerate(raw)]
    named_by: dict[int, list[int]] = {i: [] for i, deck in enumerate(decks) if deck == "A"}
    faults = []
    for b in (i for i, deck in enumerate(decks) if deck == "B"):
        twin = twins[b]
        if twin not in named_by:
            where = "no card of the file" if twin < 0 else f"card {twin + 1}, is not in deck A"
            faults.append(f"card {b + 1} (deck B): its twin, {where}")
            continue
        named_by[twin].append(b)
        if sorted(cards[twin]) != sorted(cards[b]):
            faults.append(f"card {b + 1} (deck B) does not show the symbols of its twin, card {twin + 1} of deck A")
    for a, bs in named_by.items():
        if not bs:
            faults.append(f"card {a + 1} (deck A) has no twin in deck B")
        elif len(bs) > 1:
            faults.append(f"card {a + 1} (deck A) is the twin of {len(bs)} cards of deck B: " + _numbers(bs))
        elif twins[a] != bs[0]:
            faults.append(f"card {a + 1} (deck A) does not name card {bs[0] + 1}, which names it, as its twin")
    return [cards[a] for a in named_by], tuple(faults)


def _places(raw: list[Any], path: Path) -> dict[int, int]:
    """Each card's ``index`` (its place in the file when it has none) -> its place (from 0).

    Raises:
        PrintdeckError: an ``index`` that is not a whole number, or one that two cards have.
    """
    place: dict[int, int] = {}
    for i, card in enumerate(raw):
        index = card.get("index", i) if isinstance(card, dict) else i
        if isinstance(index, bool) or not isinstance(index, int):
            raise _Card(path, i).error(f'"index": {json.dumps(index)[:20]} is not a whole number', value=index)
        if index in place:
            raise _Card(path, i).error(
                f'"index": {index} is also that of card {place[index] + 1}',
                "every card of a split deck has its own index",
            )
        place[index] = i
    return place


def _twin(card: Any, index: int, path: Path) -> int:
    """A split deck's card's ``twin``: the other card's ``index``, as the file writes it.

    Raises:
        PrintdeckError: the card's ``deck`` is not "A" or "B", or its ``twin`` is not a whole
            number.
    """
    deck = card.get("deck") if isinstance(card, dict) else None
    if deck not in ("A", "B"):
        raise _Card(path, index).error(
            f'"deck": {json.dumps(deck)[:20]} in a split deck; every card is in deck "A" or "B"', value=deck
        )
    twin = card.get("twin")
    if isinstance(twin, bool) or not isinstance(twin, int):
        raise _Card(path, index).error(f'"twin": {json.dumps(twin)[:20]} is not a card\'s index', value=twin)
    return twin


def _numbers(cards: list[int]) -> str:
    """Card indices (0-based) as the user counts them: "cards 3, 9 and 12"."""
    shown_cards = [str(c + 1) for c in cards]
    return "cards " + (", ".join(shown_cards[:-1]) + " and " + shown_cards[-1] if len(cards) > 1 else shown_cards[0])


def _is_number(cell: str) -> bool:
    try:
        float(cell)
    except ValueError:
        return False
    return True


def _from_csv(text: str, path: Path) -> list[list[int]]:
    """Cards from CSV rows; a first row with no number-like cell is a header.

    Raises:
        PrintdeckError: A row that is not whole symbol numbers, or more than
            :data:`MAX_CARDS` cards.
    """
    cards: list[list[int]] = []
    for n, row in enumerate(csv.reader(_short_lines(text, path)), start=1):
        cells = [c.strip() for c in row if c.strip()]
        if not cells or cells[0].startswith("#"):
            continue
        if not cards and not any(_is_number(c) for c in cells):
            continue  # header
        card = _Card(path, len(cards), n)
        try:
            values = [int(c) for c in cells]
        except ValueError:
            raise card.error(f"{','.join(cells)[:60]!r} is not a list of whole symbol numbers", value=row) from None
        cards.append([_symbol_id(v, card) for v in values])
        _check_count(len(cards), path)
    return cards


_TEXT_CARD = re.compile(r"\s*\d+\s*:(.*)")
"""A card line of ``printdeck design``'s text form: ``"12: 0 5 9"`` (the card's number, then its symbols)."""
_TEXT_LAMBDA = re.compile(r"every two share (\d+)")
"""λ in the text form's header: ``"# 57 cards, 57 symbols, 8 a card, every two share 1"``."""


def _is_design_text(text: str) -> bool:
    """Whether ``text`` is ``printdeck design``'s text form: its first line that is neither
    blank nor a ``#`` comment is a card line (``"0: 0 1 3"``)."""
    for line in io.StringIO(text[:100_000]):
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            return _TEXT_CARD.fullmatch(stripped) is not None and "," not in stripped
    return False


def _from_text(text: str, path: Path) -> tuple[list[list[int]], int | None]:
    """Cards from ``printdeck design``'s text form (one ``"N: symbols"`` line a card, ``#``
    comments), and λ if its header names it.

    Raises:
        PrintdeckError: A line that is not a card line of whole symbol numbers, more than
            :data:`MAX_CARDS` cards, or a λ in the header other than 1 or 2.
    """
    cards: list[list[int]] = []
    lam: int | None = None
    for n, line in enumerate(_short_lines(text, path), start=1):
        stripped = line.strip()
        if stripped.startswith("#") and lam is None and (named := _TEXT_LAMBDA.search(stripped)):
            lam = int(named.group(1))
            if lam not in (1, 2):
                raise file_error(path, f"line {n}: every two share {lam}; printdeck checks 1 or 2 (or give --match)")
        if not stripped or stripped.startswith("#"):
            continue
        card = _Card(path, len(cards), n)
        found = _TEXT_CARD.fullmatch(stripped)
        if found is None or not all(cell.isdigit() for cell in found.group(1).split()):
            raise card.error(f"{stripped[:60]!r} is not a card's number and its symbols ('12: 0 5 9')", value=stripped)
        cards.append([_symbol_id(int(cell), card) for cell in found.group(1).split()])
        _check_count(len(cards), path)
    return cards, lam


def _short_lines(text: str, path: Path) -> Iterator[str]:
    """The lines of ``text``, refusing one too long to be a card (before csv splits it)."""
    longest = 16 * MAX_CARD_SYMBOLS
    for n, line in enumerate(io.StringIO(text), start=1):
        if len(line) > longest:
            raise file_error(path, f"line {n} is longer than {longest:,} characters; give one card a line")
        yield line


def _check_count(cards: int, path: Path) -> None:
    if cards > MAX_CARDS:
        raise file_error(path, f"more than {MAX_CARDS:,} cards; printdeck verifies decks up to that size")


@dataclass(frozen=True)
class DeckFile:
    """A deck read by :func:`read_deck`.

    Attributes:
        flat: (n,) int64, every card's symbols, renumbered 0..m-1 (in increasing
            order of label), one card after another.
        sizes: (cards,) int64, symbols each card lists.
        labels: (m,) the symbol numbers as written in the file, ``labels[i]`` for symbol i.
        lam: λ to check: ``match`` if given, else the file's, else 1.
        lam_from_file: λ the file names, or None.
        decks: A class set's manifest: each card's ``deck`` (1..N), in file order; empty
            when the file has one deck (every two cards of one deck are checked; cards of
            different decks are copies, not checked against each other).
        twin_faults: A split deck's manifest: what is wrong with deck B, each fault one
            line (cards counted from 1); ``flat`` and ``sizes`` then hold deck A only.
        b_cards: A split deck's manifest: how many cards deck B has (0 for other files).
    """

    flat: np.ndarray
    sizes: np.ndarray
    labels: list[int]
    lam: int
    lam_from_file: int | None
    decks: tuple[int, ...] = ()
    twin_faults: tuple[str, ...] = ()
    b_cards: int = 0

    @property
    def cards(self) -> list[list[int]]:
        """Each card's symbols (renumbered) as lists."""
        ends = np.cumsum(self.sizes)
        return [part.tolist() for part in np.split(self.flat, ends[:-1])] if len(self.sizes) else []


def _renumber(cards: list[list[int]]) -> tuple[np.ndarray, np.ndarray, list[int]]:
    """Symbols as 0..m-1 by increasing label (any size of label); returns (flat, sizes, labels)."""
    sizes = np.fromiter((len(c) for c in cards), dtype=np.int64, count=len(cards))
    top = max((max(c) for c in cards if c), default=0)
    if top < 2**62:
        raw = np.fromiter((p for c in cards for p in c), dtype=np.int64, count=int(sizes.sum()))
        labels, flat = np.unique(raw, return_inverse=True)
        return flat.astype(np.int64).ravel(), sizes, [int(x) for x in labels]
    labels_list = sorted({p for c in cards for p in c})
    new = {p: i for i, p in enumerate(labels_list)}
    flat = np.fromiter((new[p] for c in cards for p in c), dtype=np.int64, count=int(sizes.sum()))
    return flat, sizes, labels_list


def _decode(raw: bytes, path: Path) -> str:
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise file_error(path, f"not UTF-8 text (byte {exc.start}); give a design JSON or CSV") from None


def read_deck(path: Path, match: int | None = None) -> DeckFile:
    """Read a deck file (design JSON, build manifest JSON, or CSV).

    The file must be a regular file of at most :data:`MAX_DECK_BYTES` (a FIFO, a
    device or a folder is refused at once, without blocking) with at most
    :data:`MAX_CARDS` cards.

    Args:
        path: The file.
        match: λ to check, overriding the file's (then the file's λ is not checked).

    Returns:
        The cards (symbols renumbered 0..m-1), the original labels and λ.

    Raises:
        PrintdeckError: Missing, not a regular file, too large, unreadable or
            malformed file; a symbol that is not a whole number >= 0 (the message
            names the card); λ in the file that is not 1 or 2 (unless ``match`` is
            given); no cards, or too many.
    """
    path = Path(path)
    text = _decode(read_user_file(path, "", MAX_DECK_BYTES, "a deck file"), path)
    lam_in_file = None
    decks: tuple[int, ...] = ()
    twin_faults: tuple[str, ...] = ()
    b_cards = 0
    if text.lstrip().startswith(("{", "[")):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise file_error(path, f"invalid JSON at line {exc.lineno}: {exc.msg}") from None
        except (ValueError, RecursionError) as exc:  # e.g. a number with over 4300 digits
            raise file_error(path, f"cannot read the JSON ({str(exc)[:80]})") from None
        del text
        cards, twin_faults, b_cards = _from_json(data, path)
        decks = _deck_numbers(data, path)
        lam_in_file = None if match is not None else _file_lambda(data, path)
    elif _is_design_text(text):
        cards, lam_in_text = _from_text(text, path)
        lam_in_file = None if match is not None else lam_in_text
    else:
        cards = _from_csv(text, path)
    if not cards:
        raise file_error(path, "no cards found")
    flat, sizes, labels = _renumber(cards)
    lam = match if match is not None else (lam_in_file or 1)
    return DeckFile(flat, sizes, labels, lam, lam_in_file, decks, twin_faults, b_cards)


def _deck_numbers(data: Any, path: Path) -> tuple[int, ...]:
    """Each card's ``deck`` of a class set's manifest (empty if no card names one).

    Raises:
        PrintdeckError: Some cards name a deck and others do not, or a deck is not a
            whole number 1 or more.
    """
    cards = data.get("cards") if isinstance(data, dict) else None
    if not isinstance(cards, list) or not any(isinstance(c, dict) and "deck" in c for c in cards):
        return ()
    if any(isinstance(c, dict) and isinstance(c.get("deck"), str) for c in cards):
        return ()  # a split deck's A and B (see _split_deck_a), not a class set
    out = []
    for i, card in enumerate(cards):
        deck = card.get("deck") if isinstance(card, dict) else None
        if not isinstance(deck, int) or isinstance(deck, bool) or deck < 1:
            raise _Card(path, i).error(
                '"deck" must be a whole number 1 or more on every card of a class set', value=deck
            )
        out.append(deck)
    return tuple(out) if len(set(out)) > 1 else ()
