"""What links a refused copy's tile to the symbol it repeats, across edits and restarts.

The studio refuses a picture, word or name that repeats a symbol already in the deck and
shows the refusal as a tile, linked to that symbol by its uid (this run's) while it is
there: the tile's words then name the symbol as it is numbered now, and the tile goes when
the symbol does. When the symbols are replaced (``theme.yaml`` edited outside, a step undone
or redone, the studio started again) the uid is lost, so a tile also keeps what it repeats:
its **keys**, ``file:<path as the theme names it>`` of a picture and ``word:<word>`` of a
word (NFKC, case folded, spaces tidied). The first symbol that still has one of them is the
one it repeats; none, and the refusal no longer holds.
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Iterable, Sequence
from typing import Any

from printdeck.studio.symbol_list import Item, face_file

MAX_KEY_TEXT = 100_000
"""A stored tile's keys longer than this (characters of JSON) are not read: a spoilt file."""


def repeat_keys(item: Item) -> frozenset[str]:
    """Every key of ``item``: each face's picture file and each face's word."""
    keys = set()
    for face in item.faces():
        file = face_file(face)
        if file is not None:
            keys.add(f"file:{file}")
        elif face.get("text") is not None:
            keys.add("word:" + " ".join(unicodedata.normalize("NFKC", str(face["text"])).casefold().split()))
    return frozenset(keys)


def shared_keys(refused: Item, symbol: Item) -> list[str]:
    """What a refused ``refused`` repeats of ``symbol``: a picture (found the same by its
    pixels, under another file name) repeats the symbol's pictures; a word repeats the words
    the two share (or, if none, the symbol's words: a name it repeats)."""
    theirs = repeat_keys(symbol)
    if refused.file is not None:
        keys: frozenset[str] = frozenset(k for k in theirs if k.startswith("file:"))
    else:
        keys = (repeat_keys(refused) & theirs) or frozenset(k for k in theirs if k.startswith("word:"))
    return sorted(keys or theirs)


def tile_keys(tile: dict[str, Any], symbol: Item | None) -> frozenset[str]:
    """The keys a tile repeats: its own (``shares``, set when it was refused), else all of
    ``symbol``'s, the symbol it links to (none: an empty set)."""
    own = tile.get("shares")
    if isinstance(own, list) and own:
        return frozenset(k for k in own if isinstance(k, str))
    return repeat_keys(symbol) if symbol is not None else frozenset()


class KeyIndex:
    """The first symbol (in the deck's order) holding each key, made once for many tiles."""

    def __init__(self, items: Sequence[Item]) -> None:
        self._first: dict[str, tuple[int, int]] = {}
        for position, item in enumerate(items):
            for key in repeat_keys(item):
                self._first.setdefault(key, (position, item.uid))

    def first_sharing(self, keys: Iterable[str]) -> int | None:
        """The uid of the first symbol holding one of ``keys``, or None."""
        found = [self._first[k] for k in keys if k in self._first]
        return min(found)[1] if found else None


def stored_keys(key_text: object, file: object) -> list[str]:
    """A tile's keys as ``studio-refused.json`` keeps them: ``repeats_key`` (JSON, a list of
    keys), or from an older studio the file alone (``repeats_file``); empty when there are
    none or they cannot be read."""
    if isinstance(key_text, str) and 0 < len(key_text) <= MAX_KEY_TEXT:
        try:
            stored = json.loads(key_text)
        except (ValueError, RecursionError):  # a spoilt file is no reason not to open the deck
            stored = None
        if isinstance(stored, list):
            return sorted({k for k in stored if isinstance(k, str) and k.startswith(("file:", "word:"))})
    return [f"file:{file}"] if isinstance(file, str) and file else []
