"""The file checks of printdeck's bundled pictures, shipped with them.

Every SVG a build uses is checked once (:func:`printdeck.artwork.structure_checked`, then
:func:`printdeck.theme.images.check_svg_file`'s parse, size and visible-ink checks) and
the pass is kept in the disk cache, folder ``svgchecks``, by the file's SHA-256 and the
checking code. A cold deck of bundled pictures checked each of its 57 pictures: about
3.5 ms of a worker's time a picture, most of it writing the two cache entries. Those
passes depend only on their cache keys, so the bundled pictures' (``assets/twemoji``)
ship in ``assets/twemoji/checks.json`` by the same keys and are read where the disk
cache has none. A file of the user's own, a changed picture or changed checking code
finds no key there and is checked as before.

The file holds ``sizes`` (the viewBox size, points, by the full check's key) and
``structures`` (the keys of the structure checks passed). Remake it with ``python -c
"from printdeck.render.bundled_proofs_table import write_table; write_table()"``, which
remakes every table the bundled pictures ship with; ``tests/test_bundled_checks.py`` fails
until it is remade.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

from printdeck.cache import ShippedTable
from printdeck.emoji_names import twemoji_folder

__all__ = [
    "CHECKS_TABLE_NAME",
    "checks_ignored",
    "checks_table_path",
    "forget_checks",
    "shipped_structure",
    "shipped_svg_size",
]

CHECKS_TABLE_NAME = "checks.json"


def checks_table_path() -> Path:
    """Where the shipped checks are: ``assets/twemoji/checks.json``."""
    return twemoji_folder() / CHECKS_TABLE_NAME


Checks = tuple[dict[str, tuple[float, float]], frozenset[str]]
"""(viewBox size by check key, structure check keys)."""


def _parse(data: bytes) -> Checks:
    """(viewBox size by check key, structure check keys) from the file's bytes."""
    table = json.loads(data.decode("utf-8"))
    sizes = {str(k): (float(v[0]), float(v[1])) for k, v in table["sizes"].items()}
    if not all(0 < w < 1e9 and 0 < h < 1e9 for w, h in sizes.values()):  # as a cached size must be
        raise ValueError("a viewBox size out of range")
    return sizes, frozenset(str(k) for k in table["structures"])


_TABLE: ShippedTable[Checks] = ShippedTable(lambda: checks_table_path(), _parse, ({}, frozenset()))


def checks_ignored() -> contextlib.AbstractContextManager[None]:
    """Within the block, nothing is shipped (the file is being remade: every file is checked)."""
    return _TABLE.ignored()


def forget_checks() -> None:
    """Read the file again on next use (after it is remade)."""
    _TABLE.forget()


def shipped_svg_size(key: str) -> tuple[float, float] | None:
    """The viewBox size ``(width, height)``, points, of the SVG whose full check passed
    under cache ``key`` when printdeck was made, or None."""
    table = _TABLE.read()
    return None if table is None else table[0].get(key)


def shipped_structure(key: str) -> bool:
    """Whether the structure check kept under cache ``key`` passed when printdeck was made."""
    table = _TABLE.read()
    return table is not None and key in table[1]
