"""The proofs shipped with the bundled pictures (issue 29, item 2: no work twice): they are
the proofs printdeck makes now, a cold deck of bundled pictures on white proves none of
them (and still records each vector form the PDF replays), and any other background, or
a picture of the user's own, is proved as before. A shipped proof still records the
vector form the PDF replays, as proving would have."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import printdeck
from printdeck.render import bundled_proofs, proof as proof_module, vector_code
from printdeck.render.proof import forget_proofs, proof_key, proof_stored, prove_symbols
from printdeck.resources import data_root
from printdeck.theme import load_theme

REMAKE = 'python -c "from printdeck.render.bundled_proofs_table import write_table; write_table()"'


def test_the_shipped_proofs_are_what_proving_every_picture_gives_now() -> None:
    """Remade now (every picture proved afresh, in a cache of its own), the file is the same."""
    shipped = json.loads(bundled_proofs.table_path().read_text(encoding="utf-8"))
    from printdeck.render.bundled_proofs_table import make_table

    assert make_table() == shipped, (
        f"{bundled_proofs.table_path().name} is not what proving the bundled pictures gives now: {REMAKE}"
    )


@pytest.fixture
def cold(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """An empty disk cache, no proof in memory, and a count of the proofs measured."""
    monkeypatch.setenv("PRINTDECK_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(vector_code, "_MEMORY", {})  # no vector form recorded in this process either
    forget_proofs()
    measured: list[int] = []
    measure = proof_module._measure
    monkeypatch.setattr(proof_module, "_measure", lambda s, b: measured.append(1) or measure(s, b))
    yield measured
    forget_proofs()


def test_bundled_pictures_on_white_are_not_proved_again(cold: list[int], tmp_path: Path) -> None:
    theme = load_theme(data_root("themes") / "default.yaml")
    faces = list(theme.symbols[:13])
    assert all(proof_stored(face) for face in faces)  # so a cold build's workers leave their proofs alone
    prove_symbols(faces, "#ffffff")
    assert cold == []
    assert len(list((tmp_path / "cache" / "vectorforms").glob("*.json"))) == 13  # recorded all the same
    prove_symbols(faces[:3], "#fff3d6")  # a cream card: proved here
    assert len(cold) == 3 and not any(proof_stored(face, "#fff3e0") for face in faces[:3])


def test_a_picture_of_ones_own_is_proved(cold: list[int], tmp_path: Path) -> None:
    own = tmp_path / "mine.svg"
    own.write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle cx="5" cy="5" r="4" fill="#b03"/></svg>'
    )
    theme = printdeck.load_theme(
        {"name": "own", "symbols": [{"image": str(own)}, *({"text": w} for w in "abcdef")]}, base_dir=tmp_path
    )
    assert bundled_proofs.shipped_proof(proof_key(theme.symbols[0])) is None
    prove_symbols(theme.symbols[:1], "#ffffff")
    assert cold == [1]
