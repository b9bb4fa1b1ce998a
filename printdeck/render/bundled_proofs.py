"""The proofs of printdeck's bundled pictures on a white card, shipped with them.

A cold deck proves each SVG it uses (:mod:`printdeck.render.proof`): resvg's raster
against the PDF's vector form rasterised by PDFium, about 7 ms a picture beyond recording
the vector form the PDF needs anyway. A proof depends only on its cache key (the
drawing's key, the background and the proof's code), so the proofs of all the bundled
pictures (``assets/twemoji``) on the default background, white, ship in
``assets/twemoji/proofs.json`` by that key and are read where the disk cache has none: a
cold default deck proves none of them. Another background, another drawing or changed
proof code finds no key there and is proved as before.

Remake the file with ``python -c "from printdeck.render.bundled_proofs_table import
write_table; write_table()"`` (about 2 CPU-s) after a change to the pictures, to :mod:`printdeck.artwork`
(the drawings' keys) or to :mod:`printdeck.render.proof`; ``tests/test_bundled_proofs.py``
fails, naming that command, until it is remade.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any

from printdeck.cache import ShippedTable
from printdeck.emoji_names import twemoji_folder

TABLE_NAME = "proofs.json"
BACKGROUND = "#ffffff"
"""The background the shipped proofs are made on (the cards' default)."""


def table_path() -> Path:
    """Where the shipped proofs are: ``assets/twemoji/proofs.json``."""
    return twemoji_folder() / TABLE_NAME


def _parse(data: bytes) -> dict[str, dict[str, Any]]:
    """The shipped proofs by cache key, from the file's bytes."""
    proofs = json.loads(data.decode("utf-8"))["proofs"]
    return {str(k): dict(v) for k, v in proofs.items()}


_TABLE: ShippedTable[dict[str, dict[str, Any]]] = ShippedTable(lambda: table_path(), _parse, {})


def table_ignored() -> contextlib.AbstractContextManager[None]:
    """Within the block, nothing is shipped (the file is being remade: every proof is made)."""
    return _TABLE.ignored()


def forget_table() -> None:
    """Read the file again on next use (after it is remade)."""
    _TABLE.forget()


def shipped_proof(key: str) -> dict[str, Any] | None:
    """The fields of the proof kept under cache ``key`` (see
    :func:`printdeck.render.proof.proof`) as shipped, or None; a new dict each call."""
    table = _TABLE.read()
    found = None if table is None else table.get(key)
    return dict(found) if found is not None else None


__all__ = ["BACKGROUND", "TABLE_NAME", "forget_table", "shipped_proof", "table_ignored", "table_path"]
