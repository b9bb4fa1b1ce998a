"""Look-alike verdicts of pairs of drawings, kept in the disk cache (folder ``lookpairs``).

Whether two drawings look alike depends only on the two drawings (each face's drawing key,
turn limit, kind and colour) and on the check's code, never on the deck around them or its
seed. A new seed of a deck whose symbols were checked before in other company compares, and
draws, only the pairs never compared: the pose of each pair compared (or that it cannot have
the same silhouette) and its colour difference under each vision asked for are kept, one
entry per first drawing of a pair, with that drawing's turn-free shape measures, so a pair
never compared whose measures already differ is told apart without drawing either.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from printdeck.cache import cache_dir, entry_key, read_entry, write_entry
from printdeck.theme.bundled_pairs import SHAPE, shipped_records

PairRecord = list[object] | None
"""``[overlap, mirror, angle index, {vision: CIEDE2000 or None}]``, or None: the pair cannot
have the same silhouette."""
MISSING = object()
"""What :meth:`PairBook.get` returns for a pair never compared."""


class PairBook:
    """The stored verdicts of the pairs among some drawings (by identity), read once.

    Args:
        idents: Each compared face's identity (:func:`printdeck.cache.entry_key` of what
            its verdicts depend on).
        code: The digest of the code that compares them (a change starts afresh).
        shipped: Where the cache has no entry for a face, take the verdicts shipped with
            the bundled pictures (:mod:`printdeck.theme.bundled_pairs`), if it is one.
    """

    def __init__(self, idents: list[str], code: str, shipped: bool = True) -> None:
        self._folder = cache_dir("lookpairs")
        self._code = code
        self._shipped = shipped
        self._records: dict[str, dict[str, PairRecord]] = {ident: self._read(ident) for ident in dict.fromkeys(idents)}
        self._changed: set[str] = set()

    def _path(self, ident: str) -> Path | None:
        return self._folder / f"{entry_key(ident, self._code)}.json" if self._folder is not None else None

    def _read(self, ident: str) -> dict[str, PairRecord]:
        """What the cache keeps under ``ident``, over what ships with the bundled pictures."""
        shipped = (shipped_records(ident, self._code) if self._shipped else None) or {}
        path = self._path(ident)
        text = read_entry(path) if path is not None else None
        try:
            records = json.loads(text) if text is not None else {}
        except ValueError:
            records = {}
        return {**shipped, **records} if isinstance(records, dict) else shipped

    def shape(self, ident: str) -> tuple[np.ndarray, float] | None:
        """A drawing's turn-free shape measures kept (radial profile, compactness), or None."""
        kept = self._records[ident].get(SHAPE)
        if not isinstance(kept, list) or len(kept) != 2:
            return None
        return np.asarray(kept[0], dtype=np.float64), float(str(kept[1]))

    def put_shape(self, ident: str, profile: np.ndarray, compactness: float) -> None:
        """Keep a drawing's turn-free shape measures (exactly: floats round-trip through JSON)."""
        self._records[ident][SHAPE] = [[float(v) for v in profile], float(compactness)]
        self._changed.add(ident)

    def records(self, ident: str) -> dict[str, PairRecord]:
        """Everything kept under a face: its shape measures (:data:`SHAPE`) and the records of
        the pairs it is the first of, by the other face's identity (a copy)."""
        return dict(self._records[ident])

    def get(self, first: str, second: str) -> PairRecord | object:
        """The pair's record, or :data:`MISSING`."""
        return self._records[first].get(second, MISSING)

    def put(self, first: str, second: str, record: PairRecord) -> None:
        """Keep (or update) a pair's record; :meth:`save` writes it."""
        self._records[first][second] = record
        self._changed.add(first)

    def save(self) -> None:
        """Write the entries changed, merged with what another process stored meanwhile."""
        for ident in sorted(self._changed):
            path = self._path(ident)
            if path is not None:
                write_entry(path, json.dumps({**self._read(ident), **self._records[ident]}, sort_keys=True))
        self._changed.clear()
