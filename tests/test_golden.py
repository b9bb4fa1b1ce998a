"""Golden files: a small deck's manifest and PDF, and a one-card PDF, byte for byte.

The same theme and seed must give the same bytes; these files pin them across refactors.
When a change is *meant* to alter the output, regenerate them on purpose and commit them
with a body that says why::

    PRINTDECK_REGEN_GOLDEN=1 pytest tests/test_golden.py

The themes use bundled SVGs and Latin words in the bundled Vera, never the machine's fonts.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import printdeck

GOLDEN = Path(__file__).parent / "golden"
REGENERATE = os.environ.get("PRINTDECK_REGEN_GOLDEN") == "1"

CASES = [  # (theme file, golden files the build is compared with, by suffix)
    ("small.yaml", {".json": "small.json", ".pdf": "small.pdf"}),
    ("one-card.yaml", {".pdf": "one-card.pdf"}),
]


def _first_difference(a: bytes, b: bytes) -> str:
    at = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    return (
        f"{len(a)} bytes vs golden {len(b)}; first difference at byte {at}: {a[at : at + 40]!r} vs {b[at : at + 40]!r}"
    )


@pytest.mark.parametrize(("theme_file", "goldens"), CASES, ids=[c[0] for c in CASES])
def test_build_matches_golden_bytes(tmp_path: Path, theme_file: str, goldens: dict[str, str]) -> None:
    out = tmp_path / "deck.pdf"
    printdeck.build(GOLDEN / theme_file, out=out)
    for suffix, name in goldens.items():
        made = out.with_suffix(suffix).read_bytes()
        golden = GOLDEN / name
        if REGENERATE:
            golden.write_bytes(made)
            continue
        assert golden.is_file(), f"{golden} missing: run PRINTDECK_REGEN_GOLDEN=1 pytest {__file__}"
        expected = golden.read_bytes()
        assert made == expected, f"{name} changed ({_first_difference(made, expected)}); if meant, regenerate"
