"""Making :mod:`printdeck.render.bundled_proofs`' file: every bundled picture proved on white
in a cache of its own, the proofs written to ``assets/twemoji/proofs.json``.

Run ``python -c "from printdeck.render.bundled_proofs_table import write_table; write_table()"``
(about 2 CPU-s) after a change to the pictures, to :mod:`printdeck.artwork` or to
:mod:`printdeck.render.proof`; ``tests/test_bundled_proofs.py`` says when it is due. The
library never imports this module.
"""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path
from typing import Any

from printdeck.cache import own_cache_dir, write_shipped
from printdeck.render.bundled_proofs import BACKGROUND, forget_table, table_ignored, table_path
from printdeck.render.proof import forget_proofs, proof, proof_key
from printdeck.resources import data_root
from printdeck.theme import load_theme

__all__ = ["make_table", "write_table"]


def make_table() -> dict[str, Any]:
    """Prove every bundled picture on :data:`BACKGROUND` in a cache of its own, nothing
    shipped read; the proofs by cache key, as the file holds them.

    Raises:
        PrintdeckError: A bundled picture cannot be drawn (a broken install).
    """
    with own_cache_dir("printdeck-proofs-"), table_ignored():
        forget_proofs()  # none from this process's memory either
        try:
            theme = load_theme(data_root("themes") / "default.yaml")
            faces = [face for symbol in theme.symbols for face in symbol.all_faces if face.kind == "svg"]
            proofs = {proof_key(face, BACKGROUND): proof(face, BACKGROUND) for face in faces}
        finally:
            forget_proofs()
    return {"background": BACKGROUND, "proofs": {key: asdict(found) for key, found in sorted(proofs.items())}}


def write_table(path: Path | None = None) -> Path:
    """Remake the shipped proofs (:func:`make_table`) at ``path`` (default :func:`table_path`);
    OSError if it cannot be written."""
    return write_shipped(path or table_path(), make_table(), forget_table)
