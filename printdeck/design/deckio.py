"""Deck files: print a design as text / JSON / CSV, read any of them back for ``verify``.

JSON: ``{"order": 7, "lambda": 1, "symbols": 57, "cards": [[0, 1, ...], ...]}``,
symbols numbered from 0. CSV: one card a row, symbol numbers separated by commas (or
semicolons or tabs, as a spreadsheet saves it; blank lines and ``#`` lines skipped, but λ
read from one written as the text form's header writes it; a non-numeric first row is a
header). The text form (``"12: 0 5 9"`` a card, ``#`` comments) is read back too. A build
manifest is read too: its ``cards`` entries may be lists of ints,
or objects with ``symbols`` (ints or objects with ``id`` / ``symbol_id``) or
``placements`` (objects with ``symbol_id``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from printdeck.design.deck_lines import (
    CardAt,
    Said,
    card_symbols,
    check_count,
    design_header,
    from_csv,
    from_text,
    is_design_text,
)
from printdeck.design.make import Design
from printdeck.design.split_twins import split_deck_a
from printdeck.errors import PrintdeckError, file_error, shown
from printdeck.fileio import read_user_file
from printdeck.output_record import manifest_beside
from printdeck.userfiles import binary_kind

MAX_DECK_BYTES = 24_000_000
"""Largest deck file read (the design of order 127, 16,513 cards of 128, is 11 MB as CSV)."""


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
        return "".join(",".join(map(str, b)) + "\n" for b in design.blocks)  # bare rows: any CSV reader
    if fmt != "text":
        raise ValueError(f"unknown format {fmt!r}")
    head = _design_head(design)
    width = len(str(max(design.n_points - 1, 0)))
    return head + "".join(
        f"{i:>{len(str(len(design.blocks)))}}: " + " ".join(f"{p:>{width}}" for p in b) + "\n"
        for i, b in enumerate(design.blocks)
    )


def _design_head(design: Design) -> str:
    """The text form's two ``#`` comment lines: the construction, then the deck's size and λ
    (:func:`~printdeck.design.deck_lines.design_header`; ``verify`` reads the symbols and λ
    back from it, in a CSV too)."""
    deck_line = design_header(len(design.blocks), design.n_points, design.symbols_per_card, design.lam)
    return f"# {design.construction}\n# {deck_line}\n"


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
    count of cards (see :func:`split_deck_a`)."""
    cards = data.get("cards") if isinstance(data, dict) else data
    if cards is None and isinstance(data, dict) and isinstance(data.get("deck"), dict):
        cards = data["deck"].get("cards")
    if not isinstance(cards, list):
        raise file_error(path, "no 'cards' list found; expected printdeck design JSON or a manifest")
    check_count(len(cards), path)
    read = [card_symbols(c, CardAt(path, i)) for i, c in enumerate(cards)]
    a_cards, faults = split_deck_a(cards, read, path)
    return a_cards, faults, len(read) - len(a_cards)


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
        symbols_said: How many symbols the file says the deck has, unused ones included
            (a design JSON's ``symbols``, a manifest's ``design.points``, the text form's
            header), or None.
    """

    flat: np.ndarray
    sizes: np.ndarray
    labels: list[int]
    lam: int
    lam_from_file: int | None
    decks: tuple[int, ...] = ()
    twin_faults: tuple[str, ...] = ()
    b_cards: int = 0
    symbols_said: int | None = None

    @property
    def unused(self) -> int | None:
        """How many of the symbols the file says the deck has no card shows; None when the
        file does not say how many it has, or says fewer than its cards' numbers reach
        (symbols are numbered from 0)."""
        said = self.symbols_said
        if said is None or (self.labels and self.labels[-1] >= said):
            return None
        return said - len(self.labels)

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
    """The deck file's text (UTF-8, a byte-order mark allowed).

    Raises:
        PrintdeckError: A PDF or a picture (named as one, with the file to give), or not UTF-8.
    """
    kind = binary_kind(raw)
    if kind is not None:
        raise file_error(path, f"is {kind}, not a deck; {_deck_fix(path)}")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise file_error(path, f"not UTF-8 text (byte {exc.start}); give a design JSON or CSV") from None


def _deck_fix(path: Path) -> str:
    """What to give instead of ``path``, a file that holds no deck: the manifest beside a
    build's PDF, ``printdeck check`` for a theme, else the kinds of deck file there are."""
    manifest = manifest_beside(path)
    if manifest is not None:
        return f"give its manifest {shown(manifest)}"
    if path.suffix.lower() in (".yaml", ".yml"):
        return "this looks like a theme: check it with printdeck check, or verify its build's manifest (.json)"
    return "give a design (printdeck design's text, JSON or CSV) or a build's manifest (.json beside its PDF)"


def read_deck(path: Path, match: int | None = None) -> DeckFile:
    """Read a deck file (design JSON, build manifest JSON, or CSV).

    The file must be a regular file of at most :data:`MAX_DECK_BYTES` (a FIFO, a
    device or a folder is refused at once, without blocking) with at most
    :data:`~printdeck.design.deck_lines.MAX_CARDS` cards.

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
    decks: tuple[int, ...] = ()
    twin_faults: tuple[str, ...] = ()
    b_cards = 0
    if text.lstrip().startswith(("{", "[")) or path.suffix.lower() == ".json":  # a .json that is not: said so
        data = _json_data(text, path)
        del text
        cards, twin_faults, b_cards = _from_json(data, path)
        decks = _deck_numbers(data, path)
        said = Said(None if match is not None else _file_lambda(data, path), _file_symbols(data))
    else:
        cards, said = (from_text if is_design_text(text) else from_csv)(text, path)
    lam_in_file = None if match is not None else said.lam  # --match overrides what the file says
    if not cards:
        raise file_error(path, f"no cards found; {_deck_fix(path)}")
    flat, sizes, labels = _renumber(cards)
    if lam_in_file not in (None, 1, 2):
        raise file_error(path, f"every two share {lam_in_file}, it says; printdeck checks 1 or 2 (or give --match)")
    lam = match if match is not None else (lam_in_file or 1)
    return DeckFile(flat, sizes, labels, lam, lam_in_file, decks, twin_faults, b_cards, said.symbols)


def _json_data(text: str, path: Path) -> Any:
    """The deck file's JSON.

    Raises:
        PrintdeckError: Not JSON (the line and what is wrong), or JSON Python cannot read.
    """
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise file_error(path, f"invalid JSON at line {exc.lineno}: {exc.msg}") from None
    except (ValueError, RecursionError) as exc:  # e.g. a number with over 4300 digits
        raise file_error(path, f"cannot read the JSON ({str(exc)[:80]})") from None


def _file_symbols(data: Any) -> int | None:
    """How many symbols a JSON deck file says the deck has, unused ones included: a
    design's ``symbols`` (:func:`design_json`) or a manifest's ``design.points``; None when
    it says neither as a whole number."""
    if not isinstance(data, dict):
        return None
    for src, key in ((data, "symbols"), (data.get("design"), "points")):
        value = src.get(key) if isinstance(src, dict) else None
        if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
            return value
    return None


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
        return ()  # a split deck's A and B (see split_deck_a), not a class set
    out = []
    for i, card in enumerate(cards):
        deck = card.get("deck") if isinstance(card, dict) else None
        if not isinstance(deck, int) or isinstance(deck, bool) or deck < 1:
            raise CardAt(path, i).error(
                '"deck" must be a whole number 1 or more on every card of a class set', value=deck
            )
        out.append(deck)
    return tuple(out) if len(set(out)) > 1 else ()
