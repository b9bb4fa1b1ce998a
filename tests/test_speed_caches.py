"""Work done once: what a later run takes from the disk cache (issue 29), checked from the
bytes of the PDF and from what the run imports or calls."""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

import printdeck.artwork.picture as source_pictures
from printdeck import artwork
from printdeck.artwork import silhouette
from printdeck.artwork.shape_field import shape_field
from printdeck.artwork.tracing import _cached
from printdeck.pipeline import BuildOptions, build
from printdeck.render import pictures, svg_forms, vector_code
from printdeck.render.proof import forget_proofs
from printdeck.render.vector_code import plain_operators
from printdeck.theme import images, load_theme

GOLDEN = Path(__file__).parent / "golden"
HEAVY = ("scipy", "svglib", "highspy", "cv2", "pypdfium2", "tqdm", "reportlab.graphics")
NOT_FOR_CACHED_PICTURES = (
    "fontTools",  # fonts are read for words, the PDF's own faces by ReportLab
    "pillow_heif",  # HEIC photos: registered when a raster or photo is drawn
    "resvg_py",  # SVGs drawn to pixels: proofs and silhouettes come from the cache
    "pikepdf",
    "multiprocessing",  # worker processes start with the first card to pack
    "numpy.ma",  # (np.median loads it)
    "printdeck.layout.packing",  # the packer and its exact checks
    "printdeck.layout.card",
    "printdeck.artwork.picture",
    "printdeck.artwork.decode",
    "printdeck.artwork.shaping",
)


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("PRINTDECK_CACHE_DIR", str(folder))
    monkeypatch.delenv("PRINTDECK_NO_CACHE", raising=False)
    return folder


def test_a_cached_build_imports_no_heavy_library(tmp_path: Path, cache: Path) -> None:
    """The second build of a deck of pictures reads every silhouette, proof, form and card
    from the cache: scipy, svglib, HiGHS, OpenCV, pdfium and tqdm are never imported
    (a deck with words still takes scipy's assignment for the word colours), nor fontTools,
    pillow-heif, resvg, pikepdf, worker processes or the packer (issue 29's start-up)."""
    theme = tmp_path / "theme.yaml"
    names = ("apple", "blowfish", "cactus", "fir-tree", "anchor", "ant", "bee", "bell", "bat", "books")
    names += ("banana", "broom", "avocado")  # 13 cards: more than one worker process would pack
    theme.write_text(
        "name: pictures\nseed: 7\ndeck: {symbols_per_card: 4}\ncard: {diameter: 60mm}\nsymbols:\n"
        + "".join(f"  - image: '@assets/twemoji/{n}.svg'\n" for n in names),
        encoding="utf-8",
    )
    script = (
        "import sys, printdeck\n"
        f"printdeck.build({str(theme)!r}, out={str(tmp_path / 'deck.pdf')!r})\n"
        f"print(sorted(m for m in {HEAVY!r} if m in sys.modules))\n"
        f"print(sorted(m for m in {NOT_FOR_CACHED_PICTURES!r} if m in sys.modules))\n"
    )
    env = {**os.environ, "PRINTDECK_CACHE_DIR": str(cache), "PRINTDECK_JOBS": "2"}
    runs = [subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True)]
    runs.append(subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True))
    first, second = (run.stdout.splitlines() for run in runs)
    assert first[0] != "[]"  # the first build needed them: the test can see imports
    assert "printdeck.layout.packing" in first[1] and "multiprocessing" in first[1]  # packed on 2 workers
    assert second == ["[]", "[]"]


def test_recorded_vector_forms_give_the_same_bytes(tmp_path: Path, cache: Path, monkeypatch) -> None:
    """SVG forms replayed from the disk cache (svglib not called) print the same bytes as
    drawn, and as with every cache off. (The bundled pictures' forms also ship, read where
    the cache has none: left aside here, so these are drawn and cached; see
    tests/test_bundled_proofs.py for the shipped ones.)"""
    monkeypatch.setattr(vector_code, "shipped_form", lambda key: None)
    vector_code._MEMORY.clear()  # as in a new process
    build(GOLDEN / "small.yaml", tmp_path / "a.pdf")
    assert list((cache / "vectorforms").glob("*.json"))
    vector_code._MEMORY.clear()

    def refuse(*args: object) -> list[str]:
        raise AssertionError("svglib drew a form the cache holds")

    monkeypatch.setattr(svg_forms, "draw_vectors", refuse)
    build(GOLDEN / "small.yaml", tmp_path / "b.pdf")
    assert (tmp_path / "a.pdf").read_bytes() == (tmp_path / "b.pdf").read_bytes()
    monkeypatch.undo()
    monkeypatch.setenv("PRINTDECK_NO_CACHE", "1")
    vector_code._MEMORY.clear()
    build(GOLDEN / "small.yaml", tmp_path / "c.pdf")
    assert (tmp_path / "a.pdf").read_bytes() == (tmp_path / "c.pdf").read_bytes()


def test_a_grey_deck_is_the_same_bytes_cold_and_warm(tmp_path: Path, cache: Path) -> None:
    """A grey canvas's forms are drawn by svglib on a cold cache and replayed from their
    recording on a warm one; the PDF is the same to the byte (it was PDF 1.4 cold and 1.3
    warm: svglib raised the version as it drew, a replay did not)."""
    for name in ("cold", "warm"):
        vector_code._MEMORY.clear()  # as in a new process
        build(GOLDEN / "small.yaml", tmp_path / f"{name}.pdf", BuildOptions(grayscale=True))
    cold, warm = (tmp_path / "cold.pdf").read_bytes(), (tmp_path / "warm.pdf").read_bytes()
    assert cold[:8] == b"%PDF-1.4" and cold == warm


def test_only_plain_painting_is_recorded() -> None:
    assert plain_operators(["1.333 0 0 1.333 0 0 cm", "q", "[] 0 d", "[3 1.5] 0 d", "0 0 m 1 1 l h f*", "Q"])
    for resource in ("BT /F1 12 Tf (a) Tj ET", "/gRLs0 gs", "/FormXob.1 Do", "/Sh0 sh", "BI /W 1 ID x EI"):
        assert not plain_operators(["q", resource, "Q"]), resource


def test_an_alpha_inside_a_saved_state_is_recorded_by_its_value() -> None:
    """A shape's opacity (a Twemoji target's 20 % shadow) sets a graphics state: recorded as
    its alpha, not as one file's resource name, and only inside ``q``/``Q``, where
    ReportLab's own record of the state is restored after (a replay then writes the bytes
    drawing writes: see the test above and tests/test_bundled_proofs.py)."""
    from printdeck.render.vector_code import recordable

    states = {"gRLs0": ("ca", 0.2), "gRLs1": ("BM", "/Multiply")}
    assert recordable(["q", "q", "/gRLs0 gs", "0 0 m 1 1 l h f", "Q", "Q"], states) == (
        "q",
        "q",
        "ca 0.2 GS",
        "0 0 m 1 1 l h f",
        "Q",
        "Q",
    )
    assert recordable(["/gRLs0 gs", "0 0 m 1 1 l h f"], states) is None  # outside q/Q: not replayable alike
    assert recordable(["q", "/gRLs1 gs", "Q"], states) is None  # a blend mode: svglib's form is drawn each time
    assert plain_operators(["q", "ca 0.2 GS", "Q"])


def test_the_silhouette_entry_holds_its_field_and_disc(cache: Path) -> None:
    """Read back from the disk, a silhouette brings its field and inscribed disc bit for bit."""
    symbol = load_theme(GOLDEN / "small.yaml").symbols[0]
    _cached.cache_clear()  # traced (or found) again, into this test's cache: not an earlier test's
    fresh = silhouette(symbol)
    _cached.cache_clear()
    again = silhouette(symbol)
    assert again is not fresh and "field" in again.__dict__ and "inscribed" in again.__dict__
    assert again.inscribed == fresh.inscribed
    built = shape_field(again.outline)
    for name in ("bound", "lower", "disc_centres", "disc_radii"):
        assert np.array_equal(getattr(again.field, name), getattr(built, name)), name
    assert (again.field.origin, again.field.step) == (built.origin, built.step)


def test_a_renumbered_symbol_finds_its_silhouette_in_memory(cache: Path) -> None:
    """The deck renumbers the theme's symbols after balancing them: the silhouette the
    balance read stays the one the layout gets, not read from the disk a second time."""
    symbol = load_theme(GOLDEN / "small.yaml").symbols[0]
    _cached.cache_clear()
    first = silhouette(symbol)
    assert silhouette(dataclasses.replace(symbol, id=symbol.id + 50)) is first
    _cached.cache_clear()
    assert silhouette(dataclasses.replace(symbol, id=symbol.id + 50)) is not first  # read back from the disk


def _photo_theme(folder: Path) -> Path:
    rng = np.random.default_rng(29)
    (folder / "photos").mkdir()
    for i in range(4):  # 360 pixels high: over 150 dpi up to 60 mm across, whatever size a layout gives
        x = np.linspace(0, 1, 480)[None, :, None]
        base = rng.uniform(40, 200, 3)[None, None, :] * (0.6 + 0.4 * x)
        pixels = np.clip(base + rng.normal(0, 8, (360, 480, 3)), 0, 255).astype(np.uint8)
        Image.fromarray(pixels).save(folder / "photos" / f"p{i}.jpg", quality=90)
    theme = folder / "theme.yaml"
    theme.write_text(
        "name: photos\ndeck: {symbols_per_card: 3}\nsymbols:\n  - photo: photos\n"
        "  - image: '@assets/twemoji/apple.svg'\n  - image: '@assets/twemoji/cactus.svg'\n"
        "  - text: sun\n",
        encoding="utf-8",
    )
    return theme


def test_photos_are_checked_and_encoded_once_across_runs(tmp_path: Path, cache: Path, monkeypatch) -> None:
    """A later run (another seed, or the same) decodes no photo for its checks and encodes
    none for the PDF: both come from the disk cache, and the PDF's bytes are the same."""
    theme = _photo_theme(tmp_path)
    build(theme, tmp_path / "a.pdf")
    assert len(list((cache / "rasterchecks").glob("*.json"))) == 4
    assert list((cache / "pictures").glob("*.jpg"))
    images._RASTER_CHECKS.clear()  # a new process remembers nothing

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("a cached photo was decoded again")

    monkeypatch.setattr(images, "_decoded_check", refuse)
    monkeypatch.setattr(artwork, "crop_square", refuse)  # where the PDF's pictures take it
    build(theme, tmp_path / "b.pdf")
    assert (tmp_path / "a.pdf").read_bytes() == (tmp_path / "b.pdf").read_bytes()
    images._RASTER_CHECKS.clear()
    monkeypatch.undo()
    monkeypatch.setenv("PRINTDECK_NO_CACHE", "1")
    build(theme, tmp_path / "d.pdf")
    assert (tmp_path / "a.pdf").read_bytes() == (tmp_path / "d.pdf").read_bytes()


def test_stored_sizes_are_steps_so_another_seed_finds_them(tmp_path: Path) -> None:
    """A picture is stored at a step of 2 ** (1 / 8) over what max_ppi asks (never under),
    so largest sizes a few per cent apart, as two seeds give, share one encoding."""
    art = load_theme(_photo_theme(tmp_path)).symbols[0]
    from printdeck.artwork import drawing

    photo = drawing(art)
    sizes = {box: pictures.picture_px(photo, box, 600) for box in (10.0, 10.2, 10.4, 12.0)}
    assert sizes[10.0] == sizes[10.2] == sizes[10.4] < sizes[12.0]
    for box, px in sizes.items():
        needed = box / 25.4 * 600
        assert needed <= px <= needed * 2 ** (1 / 8) + 1


def test_no_layout_cache_keeps_the_other_caches(tmp_path: Path, cache: Path, monkeypatch) -> None:
    """PRINTDECK_NO_LAYOUT_CACHE packs every card again (no card stored or read) while the
    per-artwork caches work as ever; the PDF is the same."""
    monkeypatch.setenv("PRINTDECK_NO_LAYOUT_CACHE", "1")
    vector_code._MEMORY.clear()  # as in a new process
    forget_proofs()
    build(GOLDEN / "small.yaml", tmp_path / "a.pdf")
    assert not list((cache / "layouts").glob("*")) and list((cache / "silhouettes").glob("*.sil"))
    assert list((cache / "proofs").glob("*.json"))
    monkeypatch.delenv("PRINTDECK_NO_LAYOUT_CACHE")
    build(GOLDEN / "small.yaml", tmp_path / "b.pdf")
    assert list((cache / "layouts").glob("*"))
    assert (tmp_path / "a.pdf").read_bytes() == (tmp_path / "b.pdf").read_bytes()


def test_a_new_seeds_photo_sizes_come_from_the_master(tmp_path: Path, cache: Path, monkeypatch) -> None:
    """Sizes a new seed asks for first are scaled from each photo's master (made once, kept in
    the cache), not from the photo: no crop square is cut again, and the PDF is the one a
    build with no cache at all makes for that seed."""
    from printdeck.pipeline import BuildOptions

    theme = _photo_theme(tmp_path)
    theme.write_text(theme.read_text() + "paper: {max_ppi: 150}\n")  # sizes under the photos' own
    build(theme, tmp_path / "a.pdf", BuildOptions(seed=1))
    before = {p.name for p in (cache / "pictures").glob("*.jpg")}
    images._RASTER_CHECKS.clear()
    source_pictures.forget_masters()  # a new process remembers nothing

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("a photo was cut from its source again")

    monkeypatch.setattr(source_pictures, "_source_square", refuse)
    sizes = set()
    for seed in (2, 3, 4):
        build(theme, tmp_path / f"s{seed}.pdf", BuildOptions(seed=seed))
        sizes |= {p.name for p in (cache / "pictures").glob("*.jpg")} - before
    assert sizes  # some seed asked for a size not stored before
    monkeypatch.undo()
    monkeypatch.setenv("PRINTDECK_NO_CACHE", "1")
    images._RASTER_CHECKS.clear()
    for seed in (2, 3, 4):
        build(theme, tmp_path / f"n{seed}.pdf", BuildOptions(seed=seed))
        assert (tmp_path / f"s{seed}.pdf").read_bytes() == (tmp_path / f"n{seed}.pdf").read_bytes()
