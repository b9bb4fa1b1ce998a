"""Deck files: print a design as text / JSON / CSV, read a deck back for ``verify``.

JSON: ``{"order": 7, "lambda": 1, "symbols": 57, "cards": [[0, 1, ...], ...]}``,
symbols numbered from 0. CSV: one card a row, symbol numbers separated by commas
(blank lines and lines starting with ``#`` ignored; a non-numeric first row is a
header). A build manifest is read too: its ``cards`` entries may be lists of ints,
or objects with ``symbols`` (ints or objects with ``id`` / ``symbol_id``) or
``placements`` (objects with ``symbol_id``).
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

from printdeck.design import Design
from printdeck.errors import PrintdeckError


def design_json(design: Design) -> dict[str, Any]:
    """The JSON form: order, lambda, symbols, cards (plus construction, for humans)."""
    return {"order": design.order, "lambda": design.lam, "symbols": design.n_points,
            "cards": [list(b) for b in design.blocks], "construction": design.construction}


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
    head = (f"# {design.construction}\n# {len(design.blocks)} cards, {design.n_points} symbols, "
            f"{design.symbols_per_card} a card, every two share {design.lam}\n")
    width = len(str(max(design.n_points - 1, 0)))
    return head + "".join(f"{i:>{len(str(len(design.blocks)))}}: " + " ".join(f"{p:>{width}}" for p in b) + "\n"
                          for i, b in enumerate(design.blocks))


def _symbol_id(item: Any, where: str) -> int:
    if isinstance(item, bool):
        raise PrintdeckError(f"{where}: symbol {item!r} is not a number")
    if isinstance(item, int):
        return item
    if isinstance(item, dict):
        for key in ("symbol_id", "id", "symbol"):
            if isinstance(item.get(key), int):
                return int(item[key])
    raise PrintdeckError(f"{where}: cannot read a symbol number from {str(item)[:60]!r}")


def _card_symbols(card: Any, where: str) -> list[int]:
    if isinstance(card, list):
        return [_symbol_id(x, where) for x in card]
    if isinstance(card, dict):
        for key in ("symbols", "placements", "symbol_ids"):
            if isinstance(card.get(key), list):
                return [_symbol_id(x, where) for x in card[key]]
    raise PrintdeckError(f"{where}: a card must be a list of symbol numbers or have a 'symbols' list")


def _from_json(data: Any, path: Path) -> tuple[list[list[int]], int | None]:
    cards = data.get("cards") if isinstance(data, dict) else data
    if cards is None and isinstance(data, dict) and isinstance(data.get("deck"), dict):
        cards = data["deck"].get("cards")
    if not isinstance(cards, list):
        raise PrintdeckError(f"{path}: no 'cards' list found; expected printdeck design JSON or a manifest")
    lam = None
    if isinstance(data, dict):
        for src in (data, data.get("design") or {}, data.get("deck") or {}):
            if isinstance(src, dict) and src.get("lambda", src.get("match")) in (1, 2):
                lam = int(src.get("lambda", src.get("match")))
                break
    return [_card_symbols(c, f"{path}: card {i}") for i, c in enumerate(cards)], lam


def _from_csv(text: str, path: Path) -> list[list[int]]:
    cards: list[list[int]] = []
    for n, row in enumerate(csv.reader(io.StringIO(text)), start=1):
        cells = [c.strip() for c in row if c.strip()]
        if not cells or cells[0].startswith("#"):
            continue
        try:
            cards.append([int(c) for c in cells])
        except ValueError:
            if cards:
                raise PrintdeckError(f"{path}: line {n}: {row!r} is not a list of symbol numbers") from None
    return cards


def read_deck(path: Path) -> tuple[list[list[int]], int | None]:
    """Read a deck file (design JSON, build manifest JSON, or CSV).

    Returns:
        (cards as lists of symbol numbers, λ named in the file or None).

    Raises:
        PrintdeckError: Missing, unreadable or malformed file, or negative symbols.
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise PrintdeckError(f"{path}: cannot read the deck ({exc.__class__.__name__}: {exc})") from exc
    stripped = text.lstrip()
    if stripped.startswith(("{", "[")):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise PrintdeckError(f"{path}: invalid JSON at line {exc.lineno}: {exc.msg}") from exc
        cards, lam = _from_json(data, path)
    else:
        cards, lam = _from_csv(text, path), None
    if not cards:
        raise PrintdeckError(f"{path}: no cards found")
    if any(p < 0 for c in cards for p in c):
        raise PrintdeckError(f"{path}: symbol numbers must be 0 or more")
    return cards, lam
