"""The symbol two printed cards share, read from the deck's manifest: the deck as it was
built, whatever the theme holds now.

``printdeck answer THEME A B`` plans the theme's deck again; once a picture is added to its
folder or its seed edited, that is another deck than the one printed, and a referee would
give wrong answers. A build's manifest (``output/<name>.json``) keeps every card's symbols
by id and every symbol's name, so :func:`manifest_answer` answers for the printed deck, and
:func:`printed_manifest` finds the manifest a theme's last build wrote, wherever ``-o`` put it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from printdeck.cache import cache_dir, entry_key, read_entry, write_entry
from printdeck.design import read_deck
from printdeck.errors import PrintdeckError
from printdeck.output_record import read_manifest


def manifest_data(path: Path) -> dict[str, Any] | None:
    """The manifest at ``path`` as JSON, or None when it is not one (a JSON theme), cannot be
    read or is too large (:func:`printdeck.output_record.read_manifest`)."""
    return read_manifest(path)


def manifest_answer(path: Path, first: int, second: int) -> list[str]:
    """The names of the symbols cards ``first`` and ``second`` (from 1, in a class set each
    deck's own numbers: the decks share their cards' symbols) of the manifest at ``path`` share.


    Raises:
        PrintdeckError: The manifest is malformed (:func:`printdeck.design.read_deck`), a
            card number is not in the deck, or the two are one card. A split deck's cards are
            numbered as printed, deck A's then deck B's (as ``answer`` numbers them from the
            theme): a card of A and its twin in B share every symbol.
    """
    deck = read_deck(path)
    data = manifest_data(path) or {}
    names = {s.get("id"): str(s.get("name")) for s in data.get("symbols", []) if isinstance(s, dict)}
    if deck.b_cards:  # deck A's cards, then deck B's, as printed: a card of B shows its twin's symbols
        printed = _printed_cards(data)
        check_card_pair(first, second, len(printed))
        return [names.get(label, f"symbol {label}") for label in printed[first - 1] if label in printed[second - 1]]
    cards = [c for c, d in zip(deck.cards, deck.decks or [1] * len(deck.cards)) if d == min(deck.decks or [1])]
    check_card_pair(first, second, len(cards))
    shared = [deck.labels[p] for p in cards[first - 1] if p in cards[second - 1]]
    return [names.get(label, f"symbol {label}") for label in shared]


def _printed_cards(data: dict[str, Any]) -> list[list[object]]:
    """Each card's symbol ids, in the order the manifest's cards were printed (their
    ``index``); the manifest was read whole and checked by :func:`printdeck.design.read_deck`."""
    cards = sorted((c for c in data.get("cards", []) if isinstance(c, dict)), key=lambda c: int(c.get("index", 0)))
    return [[s.get("id") for s in c.get("symbols", []) if isinstance(s, dict)] for c in cards]


def check_card_pair(first: int, second: int, count: int) -> None:
    """Refuse card numbers ``first`` and ``second`` (from 1) outside a deck of ``count``
    cards, or one card twice: what ``printdeck answer`` asks of both its ways.

    Raises:
        PrintdeckError: Keyed to the argument (``first`` or ``second``), with the deck's range.
    """
    for key, number in (("first", first), ("second", second)):
        if not 1 <= number <= count:
            raise PrintdeckError(
                key=key,
                value=number,
                problem=f"the deck has cards 1 to {count}",
                fix="give a number in that range",
                is_argument=True,
            )
    if first == second:
        raise PrintdeckError(
            key="second", value=second, problem=f"is card {first} too", fix="give two different cards", is_argument=True
        )


PRINTED_KEPT = 8
"""How many of a theme's manifests (its builds' ``-o``) are remembered for :func:`printed_manifest`."""


def remember_printed(theme_path: Path | None, manifest: Path) -> None:
    """Remember that the theme file ``theme_path`` printed the deck whose manifest is
    ``manifest`` (in the disk cache, folder ``printed``: its last :data:`PRINTED_KEPT`
    manifests, newest first), so :func:`printed_manifest` finds a build's ``-o`` too.
    Nothing for a theme made in code (``None``) or with the cache off; never raises."""
    entry = _record_of(theme_path)
    if entry is None:
        return
    made = str(manifest.resolve())
    write_entry(entry, json.dumps([made, *(p for p in _remembered(entry) if p != made)][:PRINTED_KEPT]))


def _record_of(theme_path: Path | None) -> Path | None:
    """The cache entry of the manifests the theme file ``theme_path`` printed (None for a
    theme made in code, or with the cache off)."""
    folder = cache_dir("printed") if theme_path is not None else None
    return None if folder is None or theme_path is None else folder / f"{entry_key(str(theme_path.resolve()))}.json"


def _remembered(entry: Path | None) -> list[str]:
    """The manifests :func:`remember_printed` kept in ``entry`` (none when it is unreadable)."""
    try:
        kept = json.loads((read_entry(entry) if entry is not None else None) or "[]")
    except ValueError:
        return []
    return [p for p in kept if isinstance(p, str)] if isinstance(kept, list) else []


def printed_manifest(theme_name: str, theme_path: Path | None = None) -> Path | None:
    """The manifest of the deck the theme last printed, or None: of the manifests its builds
    wrote (:func:`remember_printed`, for the theme file ``theme_path``) and
    ``output/<name>.json`` in the current folder (a default build's), the newest written
    that is still a manifest of the theme ``theme_name``."""
    candidates = [Path("output") / f"{theme_name}.json", *map(Path, _remembered(_record_of(theme_path)))]
    written = []
    for path in candidates:
        try:
            written.append((path.stat().st_mtime_ns, str(path), path))
        except OSError:
            continue  # moved or deleted since
    for _, _, path in sorted(written, reverse=True):  # newest first: read only until one is the theme's
        data = manifest_data(path) if path.is_file() else None
        if data is not None and data.get("theme") == theme_name:
            return path
    return None
