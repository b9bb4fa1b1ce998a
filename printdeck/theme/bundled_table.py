"""Making :mod:`printdeck.theme.bundled_pairs`' file: every pair of the bundled pictures
compared in a cache of its own, the verdicts written to ``assets/twemoji/lookpairs.json``.

Run ``python -c "from printdeck.theme.bundled_table import write_table; write_table()"``
(about 5 CPU-s) after a change to the pictures, to :mod:`printdeck.artwork` or to the
look-alike check; ``tests/test_bundled_pairs.py`` says when it is due. The library never
imports this module.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from printdeck.artwork import Vision
from printdeck.cache import own_cache_dir, write_shipped
from printdeck.resources import data_root
from printdeck.theme.bundled_pairs import SHAPE, forget_table, table_ignored, table_path
from printdeck.theme.load import load_theme
from printdeck.theme.look_alikes import COLOUR_VISIONS, code_version, look_alikes, pair_idents
from printdeck.theme.look_pairs import PairBook

__all__ = ["make_table", "write_table"]


def make_table() -> dict[str, Any]:
    """Compare every pair of the bundled pictures as the default theme shows them (turned
    any way), in every vision printdeck checks, in a cache of its own; the verdicts as the
    shipped file holds them.

    Raises:
        PrintdeckError: A bundled picture cannot be drawn (a broken install).
    """
    with own_cache_dir("printdeck-lookpairs-"), table_ignored():
        theme = load_theme(data_root("themes") / "default.yaml")
        look_alikes(theme, None, (Vision.NORMAL, Vision.GREY, *COLOUR_VISIONS))
        idents = pair_idents(theme)
        book = PairBook(idents, code_version(), shipped=False)
        kept = [book.records(ident) for ident in idents]
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
    """Remake the shipped verdicts (:func:`make_table`) at ``path`` (default :func:`table_path`);
    OSError if it cannot be written."""
    return write_shipped(path or table_path(), make_table(), forget_table)
