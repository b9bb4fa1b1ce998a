"""The proofs and vector forms shipped with the bundled pictures (issue 29, item 2: no work
twice): they are the proofs and forms printdeck makes now, a cold deck of bundled
pictures on white proves and draws none of them (the PDF replays the shipped forms, to
the same bytes), and any other background, or a picture of the user's own, is proved
and drawn as before."""

from __future__ import annotations

import contextlib
import gzip
import json
from pathlib import Path

import pytest
from json_tables import first_difference

import printdeck
from printdeck.artwork import drawing
from printdeck.render import bundled_forms, bundled_proofs, proof as proof_module, svg_forms, vector_code
from printdeck.render.proof import forget_proofs, proof_key, proof_stored, prove_symbols
from printdeck.resources import data_root
from printdeck.theme import load_theme


def forms_ship() -> bool:
    """Whether the shipped forms were made with this installation's ReportLab and svglib
    (else none is used, and every form is drawn as for any SVG)."""
    return bundled_forms.shipped_version() == vector_code.form_version()


REMAKE = 'python -c "from printdeck.render.bundled_proofs_table import write_table; write_table()"'


def test_the_shipped_proofs_are_what_proving_every_picture_gives_now() -> None:
    """Remade now (every picture proved afresh, in a cache of its own), the file is the same."""
    shipped = json.loads(bundled_proofs.table_path().read_text(encoding="utf-8"))
    from printdeck.render.bundled_proofs_table import make_table

    where = first_difference(make_table(), shipped)  # floats within rounding: another CPU's libm
    assert where is None, (
        f"{bundled_proofs.table_path().name} is not what proving the bundled pictures gives now, at {where}: {REMAKE}"
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
    if not forms_ship():  # a proof's key holds the form's libraries: made with others, none ships
        pytest.skip("the shipped proofs were made with another ReportLab or svglib than the one installed")
    assert all(proof_stored(face) for face in faces)  # so a cold build's workers leave their proofs alone
    prove_symbols(faces, "#ffffff")
    assert cold == []
    # their vector forms ship too (for the ReportLab and svglib they were made with): each
    # is at hand for the PDF, none drawn or written; with other versions, each is drawn
    assert all(vector_code.form_recorded(drawing(face)) for face in faces)
    assert len(list((tmp_path / "cache" / "vectorforms").glob("*.json"))) == (0 if forms_ship() else 13)
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


def test_the_shipped_forms_are_what_drawing_every_picture_gives_now() -> None:
    """Remade now (every picture drawn by svglib afresh), the forms are the same; with
    another ReportLab or svglib installed, no shipped form is used at all."""
    from printdeck.render.bundled_proofs_table import make_forms_table

    shipped = json.loads(gzip.decompress(bundled_forms.table_path().read_bytes()))
    made = make_forms_table()
    code_now, code_shipped = made["version"].split()[0], shipped["version"].split()[0]
    assert code_shipped == code_now, f"{bundled_forms.TABLE_NAME} was made by other form code: {REMAKE}"
    assert len(shipped["forms"]) == 171
    assert all(vector_code.plain_operators(code) for code in shipped["forms"].values())  # replayed unchecked
    if shipped["version"] == made["version"]:
        assert made == shipped, f"{bundled_forms.TABLE_NAME} is not what drawing the pictures gives now: {REMAKE}"
    else:  # other libraries: their keys differ, so every form is drawn here
        assert not any(bundled_forms.shipped_form(key) is not None for key in made["forms"])


def test_a_cold_deck_replays_the_shipped_forms_to_the_same_bytes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The PDF of a cold deck of bundled pictures draws no SVG with svglib, and is byte for
    byte the PDF made when every form is drawn."""
    theme = {
        "name": "seven",
        "seed": 3,
        "deck": {"symbols_per_card": 3, "choose": "seeded"},
        "symbols": [{"folder": "@assets/twemoji"}],
    }
    monkeypatch.setenv("PRINTDECK_JOBS", "1")
    drawn: list[str] = []
    draw = svg_forms.draw_vectors
    monkeypatch.setattr(svg_forms, "draw_vectors", lambda c, art, name: drawn.append(name) or draw(c, art, name))
    pdfs = []
    for ignored in (False, True):
        monkeypatch.setenv("PRINTDECK_CACHE_DIR", str(tmp_path / f"cache-{ignored}"))
        monkeypatch.setattr(vector_code, "_MEMORY", {})
        forget_proofs()
        drawn.clear()
        with bundled_forms.table_ignored() if ignored else contextlib.nullcontext():
            out = tmp_path / f"deck-{ignored}.pdf"
            printdeck.build(theme, out)
        pdfs.append(out.read_bytes())
        assert bool(drawn) == (ignored or not forms_ship())  # shipped: none drawn; else every picture
    forget_proofs()
    assert pdfs[0] == pdfs[1]


def _damaged_body(data: bytes) -> bytes:
    """``data`` (gzip) with the first byte of its compressed body flipped: its header is
    whole, and zlib refuses the rest (``zlib.error``, not an ``OSError``)."""
    return data[:10] + bytes([data[10] ^ 0xFF]) + data[11:]


@pytest.mark.parametrize(
    "garbage",
    [
        b"",
        b"not gzip",
        gzip.compress(b"{not json", mtime=0),
        gzip.compress(b'{"forms": 1}', mtime=0),
        _damaged_body(gzip.compress(b'{"version": "x", "forms": {"a": ["q", "Q"]}}' * 50, mtime=0)),
        gzip.compress(b"[" * 100_000 + b"]" * 100_000, mtime=0),  # nested past the parser's depth
    ],
    ids=["empty", "not gzip", "not json", "no forms", "damaged body", "too deep"],
)
def test_a_damaged_forms_table_ships_nothing_and_the_form_is_drawn(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, garbage: bytes
) -> None:
    damaged = tmp_path / "forms.json.gz"
    damaged.write_bytes(garbage)
    monkeypatch.setenv("PRINTDECK_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(vector_code, "_MEMORY", {})
    monkeypatch.setattr(bundled_forms, "table_path", lambda: damaged)
    bundled_forms.forget_table()
    try:
        art = drawing(load_theme(data_root("themes") / "default.yaml").symbols[0])
        assert not vector_code.form_recorded(art)
        vector_code.record_form(art)  # drawn by svglib, and kept in the disk cache
        assert vector_code.form_recorded(art) and len(list((tmp_path / "cache" / "vectorforms").glob("*.json"))) == 1
    finally:
        monkeypatch.undo()
        bundled_forms.forget_table()
