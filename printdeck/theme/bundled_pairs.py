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

Remake it with ``python -c "from printdeck.theme.bundled_pairs import write_table; write_table()"``
(about 5 CPU-s) after a change to the pictures, to :mod:`printdeck.artwork` (their drawing
keys) or to the check's code; ``tests/test_bundled_pairs.py`` fails until it is remade.
"""

from __future__ import annotations

import json
import os
import tempfile
from functools import lru_cache
from pathlib import Path
from typing import Any

from printdeck.emoji_names import TWEMOJI_FOLDER
from printdeck.resources import data_root

__all__ = ["SHAPE", "TABLE_NAME", "make_table", "shipped_records", "table_path", "write_table"]

TABLE_NAME = "lookpairs.json"
SHAPE = "shape"
"""The key, beside the other drawings' identities (hex digits), of a drawing's own shape
measures, in the cache's records (:class:`~printdeck.theme.look_pairs.PairBook`) and here."""


def table_path() -> Path:
    """Where the shipped verdicts are: ``assets/twemoji/lookpairs.json``."""
    return data_root("assets") / TWEMOJI_FOLDER / TABLE_NAME


@lru_cache(maxsize=1)
def _table() -> tuple[str, dict[str, int], list[str], dict[str, Any]] | None:
    """(code, index of each ident, idents, the file's data), or None without a usable file."""
    try:
        data = json.loads(table_path().read_text(encoding="utf-8"))
        idents = [str(i) for i in data["idents"]]
        if len(data["shapes"]) != len(idents) or len(data["stored"]) != len(idents):
            return None
        return str(data["code"]), {ident: n for n, ident in enumerate(idents)}, idents, data
    except (OSError, ValueError, KeyError, TypeError):
        return None


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


def make_table() -> dict[str, Any]:
    """Compare every pair of the bundled pictures as the default theme shows them (turned
    any way), in every vision printdeck checks, in a cache of its own; the verdicts as the
    shipped file holds them.

    Raises:
        PrintdeckError: A bundled picture cannot be drawn (a broken install).
    """
    from printdeck.artwork import Vision  # noqa: PLC0415 - only when the file is made
    from printdeck.theme.load import load_theme  # noqa: PLC0415
    from printdeck.theme.look_alikes import COLOUR_VISIONS, code_version, look_alikes, pair_idents  # noqa: PLC0415
    from printdeck.theme.look_pairs import PairBook  # noqa: PLC0415

    before = os.environ.get("PRINTDECK_CACHE_DIR")
    with tempfile.TemporaryDirectory(prefix="printdeck-lookpairs-") as folder:
        os.environ["PRINTDECK_CACHE_DIR"] = folder
        try:
            theme = load_theme(data_root("themes") / "default.yaml")
            look_alikes(theme, None, (Vision.NORMAL, Vision.GREY, *COLOUR_VISIONS))
            idents = pair_idents(theme)
            book = PairBook(idents, code_version(), shipped=False)
            kept = [book.records(ident) for ident in idents]
        finally:
            if before is None:
                os.environ.pop("PRINTDECK_CACHE_DIR", None)
            else:
                os.environ["PRINTDECK_CACHE_DIR"] = before
    index = {ident: n for n, ident in enumerate(idents)}
    stored = [sorted(index[other] for other in records if other != SHAPE) for records in kept]
    pairs = {
        f"{n} {index[other]}": record
        for n, records in enumerate(kept)
        for other, record in records.items()
        if other != SHAPE and record is not None
    }
    shapes = [records.get(SHAPE) for records in kept]
    return {"code": code_version(), "idents": idents, "shapes": shapes, "stored": stored, "pairs": pairs}


def write_table(path: Path | None = None) -> Path:
    """:func:`make_table`, written to ``path`` (default: :func:`table_path`).

    Raises:
        OSError: The file cannot be written.
    """
    target = path or table_path()
    target.write_text(json.dumps(make_table(), separators=(",", ":"), sort_keys=True) + "\n", encoding="utf-8")
    _table.cache_clear()
    return target
