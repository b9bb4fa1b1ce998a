"""Making :mod:`printdeck.render.bundled_proofs`' file: every bundled picture proved on white
in a cache of its own, the proofs written to ``assets/twemoji/proofs.json``.

Run ``python -c "from printdeck.render.bundled_proofs_table import write_table; write_table()"``
(about 2 CPU-s) after a change to the pictures, to :mod:`printdeck.artwork` or to
:mod:`printdeck.render.proof`; ``tests/test_bundled_proofs.py`` says when it is due. The
library never imports this module.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import asdict
from pathlib import Path
from typing import Any

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
    before = os.environ.get("PRINTDECK_CACHE_DIR")
    with tempfile.TemporaryDirectory(prefix="printdeck-proofs-") as folder, table_ignored():
        os.environ["PRINTDECK_CACHE_DIR"] = folder
        forget_proofs()  # none from this process's memory either
        try:
            theme = load_theme(data_root("themes") / "default.yaml")
            faces = [face for symbol in theme.symbols for face in symbol.all_faces if face.kind == "svg"]
            proofs = {proof_key(face, BACKGROUND): proof(face, BACKGROUND) for face in faces}
        finally:
            forget_proofs()
            if before is None:
                os.environ.pop("PRINTDECK_CACHE_DIR", None)
            else:
                os.environ["PRINTDECK_CACHE_DIR"] = before
    return {"background": BACKGROUND, "proofs": {key: asdict(found) for key, found in sorted(proofs.items())}}


def write_table(path: Path | None = None) -> Path:
    """:func:`make_table`, written to ``path`` (default: :func:`table_path`).

    Raises:
        OSError: The file cannot be written.
    """
    target = path or table_path()
    target.write_text(json.dumps(make_table(), separators=(",", ":"), sort_keys=True) + "\n", encoding="utf-8")
    forget_table()
    return target
