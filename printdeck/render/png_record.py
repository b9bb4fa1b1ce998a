"""The record a PNG folder keeps of the card PNGs printdeck wrote there.

:func:`printdeck.render.render_pngs` replaces or removes only the ``card-NNN.png``
files this record lists, and rewrites it under the folder's lock; the build checks it
before any work (``printdeck.outputs.check_png_dir``), so a card file printdeck did
not write is refused, never overwritten.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable
from pathlib import Path

from printdeck.errors import PrintdeckError
from printdeck.fileio import atomic_output, read_user_file

PNG_RECORD = ".printdeck-pngs.json"
"""The file in a PNG folder listing the card PNGs printdeck wrote there."""
CARD_NAME = re.compile(r"(card-[0-9]{3,7}(-([A-Z]|[0-9]{1,2}))?|back(-([A-Z]|[0-9]{1,2}))?)\.(png|jpg)|CREDITS\.txt")
"""The name of a card image (PNG or JPEG), the back image, or the credits file beside them; a
class set's (or split deck's) carry their deck's letter, or number (``card-001-B.png``,
``back-12.png``: :func:`printdeck.class_sets.deck_labels`)."""
_MAX_RECORD_BYTES = 2_000_000


def card_files(folder: Path) -> list[str]:
    """Names of the ``card-NNN.png`` entries of ``folder`` (none if it cannot be read)."""
    try:
        return [e.name for e in os.scandir(folder) if CARD_NAME.fullmatch(e.name)]
    except OSError:
        return []


def read_png_record(folder: Path) -> set[str]:
    """The card PNG names an earlier build recorded writing into ``folder`` (empty
    when there is no record or it is not a record: only ``card-NNN.png`` names count)."""
    try:
        data = json.loads(read_user_file(folder / PNG_RECORD, "", _MAX_RECORD_BYTES).decode("utf-8"))
    except (PrintdeckError, ValueError, UnicodeError, RecursionError):
        return set()
    names = data.get("cards") if isinstance(data, dict) else None
    return {n for n in names if isinstance(n, str) and CARD_NAME.fullmatch(n)} if isinstance(names, list) else set()


def write_png_record(folder: Path, names: Iterable[str]) -> None:
    """Record (atomically) that printdeck wrote ``names`` into ``folder`` (the caller
    holds :func:`printdeck.file_locks.folder_lock` on it).

    Raises:
        PrintdeckError: The record cannot be written (naming the folder).
    """
    text = json.dumps({"written_by": "printdeck", "cards": sorted(set(names))}, indent=0) + "\n"
    with atomic_output(folder / PNG_RECORD, lock=False) as tmp:
        tmp.write_text(text, encoding="utf-8")
