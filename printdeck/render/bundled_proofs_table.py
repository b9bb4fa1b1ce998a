"""Making the tables shipped with the bundled pictures for a cold deck: their proofs on
white (:mod:`printdeck.render.bundled_proofs`, ``assets/twemoji/proofs.json``), their
vector forms (:mod:`printdeck.render.bundled_forms`, ``forms.json.gz``) and their file
checks (:mod:`printdeck.artwork.bundled_checks`, ``checks.json``), each made afresh in a
cache of its own with nothing shipped read.

Run ``python -c "from printdeck.render.bundled_proofs_table import write_table; write_table()"``
(about 3 CPU-s) after a change to the pictures, to :mod:`printdeck.artwork`, to
:mod:`printdeck.render.proof` or to the vector form code; ``tests/test_bundled_proofs.py``
and ``tests/test_bundled_checks.py`` say when it is due. The library never imports this
module.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from dataclasses import asdict
from pathlib import Path
from typing import Any

from printdeck.artwork import checks_ignored, checks_table_path, drawing, forget_checks
from printdeck.cache import own_cache_dir, write_shipped
from printdeck.model import SymbolSpec
from printdeck.render import bundled_forms, vector_code
from printdeck.render.bundled_proofs import BACKGROUND, forget_table, table_ignored, table_path
from printdeck.render.proof import forget_proofs, proof, proof_key
from printdeck.resources import data_root
from printdeck.theme import load_theme

__all__ = ["make_checks_table", "make_forms_table", "make_table", "write_table"]


def make_table() -> dict[str, Any]:
    """Prove every bundled picture on :data:`BACKGROUND` in a cache of its own, nothing
    shipped read; the proofs by cache key, as the file holds them.

    Raises:
        PrintdeckError: A bundled picture cannot be drawn (a broken install).
    """
    with own_cache_dir("printdeck-proofs-"), table_ignored():
        forget_proofs()  # none from this process's memory either
        try:
            proofs = {proof_key(face, BACKGROUND): proof(face, BACKGROUND) for face in _bundled_faces()}
        finally:
            forget_proofs()
    return {"background": BACKGROUND, "proofs": {key: asdict(found) for key, found in sorted(proofs.items())}}


def make_forms_table() -> dict[str, Any]:
    """Draw every bundled picture's vector form (svglib and ReportLab, as installed) in a
    cache of its own, nothing shipped or remembered read; the forms by key, as
    ``forms.json.gz`` holds them (a form that is not plain path painting is left out).

    Raises:
        PrintdeckError: A bundled picture cannot be drawn (a broken install).
    """
    with own_cache_dir("printdeck-forms-"), bundled_forms.table_ignored(), _forms_forgotten():
        forms: dict[str, list[str]] = {}
        for face in _bundled_faces():
            art = drawing(face)
            vector_code.record_form(art)
            code = vector_code._MEMORY.get(vector_code.form_key(art))
            if code is not None:
                forms[vector_code.form_key(art)] = list(code)
    return {"version": vector_code.form_version(), "forms": dict(sorted(forms.items()))}


def make_checks_table() -> dict[str, Any]:
    """Check every bundled picture's file (the default theme loaded with every SVG checked,
    as :func:`printdeck.theme.images.check_svg_file` does it, its structure check with it)
    in a cache of its own, nothing shipped read; the passes by cache key, as
    ``checks.json`` holds them.

    Raises:
        PrintdeckError: A bundled picture fails its check (a broken install).
    """
    with own_cache_dir("printdeck-checks-") as folder, checks_ignored():
        _bundled_faces()
        sizes = {p.stem: json.loads(p.read_text(encoding="utf-8")) for p in (folder / "svgchecks").glob("*.json")}
        structures = sorted(p.stem for p in (folder / "svgchecks").glob("*.ok"))
    return {"sizes": dict(sorted(sizes.items())), "structures": structures}


def write_table(path: Path | None = None) -> Path:
    """Remake the shipped proofs (:func:`make_table`) at ``path`` (default :func:`table_path`),
    and beside the bundled pictures their vector forms (:func:`make_forms_table`) and file
    checks (:func:`make_checks_table`); OSError if one cannot be written."""
    written = write_shipped(path or table_path(), make_table(), forget_table)
    write_shipped(bundled_forms.table_path(), make_forms_table(), bundled_forms.forget_table)
    write_shipped(checks_table_path(), make_checks_table(), forget_checks)
    return written


def _bundled_faces() -> list[SymbolSpec]:
    """Every face of the bundled pictures (the default theme offers them all)."""
    theme = load_theme(data_root("themes") / "default.yaml")
    return [face for symbol in theme.symbols for face in symbol.all_faces if face.kind == "svg"]


@contextlib.contextmanager
def _forms_forgotten() -> Iterator[None]:
    """Within the block, no form is remembered from before (and none made in it after)."""
    kept = dict(vector_code._MEMORY)
    vector_code._MEMORY.clear()
    try:
        yield
    finally:
        vector_code._MEMORY.clear()
        vector_code._MEMORY.update(kept)
