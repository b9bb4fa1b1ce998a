"""The vector forms of printdeck's bundled pictures, shipped with them.

A PDF draws an SVG from its vector form (:mod:`printdeck.render.vector_code`): the PDF
operators svglib and ReportLab make of it, recorded once and replayed after. A cold
deck of bundled pictures recorded each of its pictures' forms, about 3.6 ms a picture
(svglib parsing it and ReportLab's graphics walking the result) and an import of svglib
before its workers started. A form depends only on its key (the drawing's key, the form
code's digest and the installed ReportLab's and svglib's versions), so the forms of all
the bundled pictures (``assets/twemoji``) ship in ``assets/twemoji/forms.json.gz`` by
that key and are read where memory and the disk cache have none. They hold only plain
path painting (what :func:`printdeck.render.vector_code.record_form` records), so unlike a
disk cache entry they are replayed without checking their operators again. Another ReportLab or
svglib, changed form code or a picture of the user's own finds no key there and is
drawn as before, so the shipped forms are only ever the ones this installation draws.

The file (gzip, one line of JSON) holds ``version`` (what the keys were made with:
:func:`printdeck.render.vector_code.form_version`) and ``forms`` (each form's operators
by key). Remake it with ``python -c "from printdeck.render.bundled_proofs_table import
write_table; write_table()"``; ``tests/test_bundled_proofs.py`` fails until it is remade.
"""

from __future__ import annotations

import contextlib
import gzip
import json
from pathlib import Path

from printdeck.cache import ShippedTable
from printdeck.emoji_names import twemoji_folder

__all__ = ["TABLE_NAME", "forget_table", "shipped_form", "shipped_version", "table_ignored", "table_path"]

TABLE_NAME = "forms.json.gz"


def table_path() -> Path:
    """Where the shipped forms are: ``assets/twemoji/forms.json.gz``."""
    return twemoji_folder() / TABLE_NAME


Forms = tuple[str, dict[str, tuple[str, ...]]]
"""(the version the keys were made with, each form's operators by key)."""


def _parse(data: bytes) -> Forms:
    """(the version the keys were made with, each form's operators by key) from the file's bytes."""
    table = json.loads(gzip.decompress(data).decode("utf-8"))
    forms = {str(k): tuple(str(op) for op in v) for k, v in table["forms"].items()}
    return str(table["version"]), forms


_TABLE: ShippedTable[Forms] = ShippedTable(lambda: table_path(), _parse, ("", {}))


def table_ignored() -> contextlib.AbstractContextManager[None]:
    """Within the block, nothing is shipped (the file is being remade: every form is drawn)."""
    return _TABLE.ignored()


def forget_table() -> None:
    """Read the file again on next use (after it is remade)."""
    _TABLE.forget()


def shipped_form(key: str) -> tuple[str, ...] | None:
    """The operators of the form kept under ``key`` (see
    :func:`printdeck.render.vector_code.form_key`) as shipped, or None."""
    table = _TABLE.read()
    return None if table is None else table[1].get(key)


def shipped_version() -> str:
    """The form version the shipped keys were made with ("" without a usable file, or while
    the file is being remade)."""
    table = _TABLE.read()
    return "" if table is None else table[0]
