"""The look-alike verdicts of printdeck's bundled pictures, shipped with them.

Every pair of the bundled pictures (``assets/twemoji``, 171 of them, so 14 535 pairs) is
compared once, when the pictures or the check's code change, and the verdicts ship in
``assets/twemoji/lookpairs.json``: a deck of bundled pictures (the default theme chooses
57 of them afresh for every seed) compares and draws none of them, on its first build and
on every new seed. The verdicts are kept by the same identities as the disk cache's
(:class:`~printdeck.theme.look_pairs.PairBook`: each face's drawing key, turn and colour,
and the check's code), so a theme that turns symbols less, or a changed check, simply
finds none and compares its pairs as before.

The file holds ``code`` (the check's code digest), ``idents`` (the pictures' identities in
the order they are compared), ``shapes`` (each one's turn-free shape measures), ``stored``
(for each, the later pictures whose verdicts the cache keeps under it) and ``pairs`` (the
verdicts that are not "cannot have the same silhouette", by ``"i j"``).

Remake it with ``python -c "from printdeck.theme.bundled_table import write_table; write_table()"``
(about 5 CPU-s) after a change to the pictures, to :mod:`printdeck.artwork` (their drawing
keys) or to the check's code; ``tests/test_bundled_pairs.py`` fails until it is remade.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any

from printdeck.cache import ShippedTable
from printdeck.emoji_names import twemoji_folder

__all__ = ["SHAPE", "TABLE_NAME", "all_shipped", "forget_table", "shipped_records", "table_ignored", "table_path"]

TABLE_NAME = "lookpairs.json"
SHAPE = "shape"
"""The key, beside the other drawings' identities (hex digits), of a drawing's own shape
measures, in the cache's records (:class:`~printdeck.theme.look_pairs.PairBook`) and here."""


def table_path() -> Path:
    """Where the shipped verdicts are: ``assets/twemoji/lookpairs.json``."""
    return twemoji_folder() / TABLE_NAME


Table = tuple[str, dict[str, int], list[str], dict[str, Any]]
"""(code, index of each ident, idents, the file's data)."""


def _parse(data: bytes) -> Table | None:
    """The table from the file's bytes; None when its lists do not match."""
    table = json.loads(data.decode("utf-8"))
    idents = [str(i) for i in table["idents"]]
    if len(table["shapes"]) != len(idents) or len(table["stored"]) != len(idents):
        return None
    return str(table["code"]), {ident: n for n, ident in enumerate(idents)}, idents, table


_TABLE: ShippedTable[Table | None] = ShippedTable(lambda: table_path(), _parse, None)


def _table() -> Table | None:
    """The shipped table, or None without a usable file (or while it is being remade)."""
    return _TABLE.read()


def shipped_records(ident: str, code: str) -> dict[str, Any] | None:
    """The records the disk cache would keep under ``ident`` (see
    :class:`~printdeck.theme.look_pairs.PairBook`) as shipped, for the check's ``code``;
    None when the file has none for them (another picture, another turn or colour, or
    the verdicts of other code). A new dict each call: the caller may change it."""
    table = _table()
    if table is None or table[0] != code or ident not in table[1]:
        return None
    _, index, idents, data = table
    n = index[ident]
    records: dict[str, Any] = {} if data["shapes"][n] is None else {SHAPE: data["shapes"][n]}
    pairs = data["pairs"]
    for j in data["stored"][n]:
        record = pairs.get(f"{n} {j}")
        records[idents[j]] = json.loads(json.dumps(record)) if record is not None else None  # a fresh copy
    return records


def all_shipped(idents: list[str], code: str) -> bool:
    """Whether every one of ``idents`` (faces' identities, as
    :func:`~printdeck.theme.look_alikes.pair_idents` gives them) is a bundled picture
    whose verdicts ship for the check's ``code``: then every pair among them has its
    verdict here, and none of them needs drawing to be compared."""
    table = _table()
    return table is not None and table[0] == code and all(ident in table[1] for ident in idents)


def forget_table() -> None:
    """Read the file again on next use (after it is remade)."""
    _TABLE.forget()


def table_ignored() -> contextlib.AbstractContextManager[None]:
    """Within the block, nothing is shipped (the file is being remade: every pair is compared)."""
    return _TABLE.ignored()
