"""Large black areas of a CMYK file print rich black (60/40/40/100, within the ink limit);
words, marks and thin lines stay on the black plate alone. Checked on Ghostscript's
separations of the printed pages."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
import yaml
from PIL import Image

import printdeck
from printdeck.render.rich_black import RICH_BLACK, rich_black

needs_gs = pytest.mark.skipif(shutil.which("gs") is None, reason="Ghostscript (gs) is not installed")
WORDS = ["sol", "mar", "pan", "luz", "flor", "casa", "rio"]


def test_rich_black_keeps_within_the_ink_limit() -> None:
    assert rich_black(240) == RICH_BLACK == (0.6, 0.4, 0.4, 1.0)
    assert rich_black(300) == RICH_BLACK
    c, m, y, k = rich_black(200)
    assert k == 1.0 and (c + m + y) == pytest.approx(1.0) and c / m == pytest.approx(1.5)
    assert rich_black(100) == (0.0, 0.0, 0.0, 1.0)


def _separations(pdf: Path, page: int, out: Path) -> dict[str, np.ndarray]:
    """Each ink of ``page`` (1-based) as ``(H, W)`` coverage 0..1, from Ghostscript's tiffsep."""
    subprocess.run(
        ["gs", "-q", "-o", str(out / "sep.tif"), "-sDEVICE=tiffsep", "-r30", f"-dFirstPage={page}",
         f"-dLastPage={page}", str(pdf)],
        check=True,
    )  # fmt: skip
    return {
        ink: 1.0 - np.asarray(Image.open(out / f"sep({ink}).tif"), dtype=float) / 255.0
        for ink in ("Cyan", "Magenta", "Yellow", "Black")
    }


def _build(tmp_path: Path, card: dict[str, object], colours: list[str] | None = None) -> Path:
    theme: dict[str, object] = {
        "name": "black",
        "deck": {"symbols_per_card": 3},
        "card": {"diameter": "70mm", **card},
        "backs": {"enabled": True, "color": "#000000"},
        "symbols": [{"text": w} for w in WORDS],
    }
    if colours:
        theme["text"] = {"colors": colours}
    (tmp_path / "black.yaml").write_text(yaml.safe_dump(theme), encoding="utf-8")
    result = printdeck.build(tmp_path / "black.yaml", out=tmp_path / "black.pdf", color="cmyk")
    return result.pdf_path


@needs_gs
def test_a_black_back_prints_rich_black(tmp_path: Path) -> None:
    pdf = _build(tmp_path, {})
    inks = _separations(pdf, 2, tmp_path)  # the backs' page
    black = inks["Black"] > 0.99
    assert black.mean() > 0.2  # the backs cover the sheet
    for ink, share in zip(("Cyan", "Magenta", "Yellow"), RICH_BLACK):
        assert np.median(inks[ink][black]) == pytest.approx(share, abs=0.02), ink


@needs_gs
def test_black_words_and_marks_stay_on_the_black_plate(tmp_path: Path) -> None:
    pdf = _build(tmp_path, {}, colours=["#000000"])
    inks = _separations(pdf, 1, tmp_path)  # the fronts: black words on white cards, crop marks
    black = inks["Black"] > 0.5
    assert black.sum() > 100  # the words printed
    for ink in ("Cyan", "Magenta", "Yellow"):
        assert inks[ink][black].max() < 0.01, f"{ink} under black words"


@needs_gs
def test_a_black_card_is_rich_and_its_words_keep_their_colours(tmp_path: Path) -> None:
    pdf = _build(tmp_path, {"background": "#000000"}, colours=["#ffd23f", "#ee4266", "#3bceac"])
    inks = _separations(pdf, 1, tmp_path)
    rich = (inks["Black"] > 0.99) & (inks["Cyan"] > 0.55)
    assert rich.mean() > 0.2  # the cards' black is rich


@needs_gs
def test_a_black_card_of_pictures_is_as_rich_as_its_back(tmp_path: Path) -> None:
    """A black poker card of Twemoji pictures printed flat 100 % K while its black back was
    rich: each picture's form, drawn after the card's black, counted as a use of that
    black, though every form sets its own colours. The two sides now print one black."""
    art = ["ice-cube", "popcorn", "target", "zebra", "star", "snake", "grapes"]
    theme = {
        "name": "blackpics",
        "deck": {"symbols_per_card": 3},
        "card": {"shape": "rectangle", "size": "poker", "bleed": "3mm", "background": "#000000"},
        "backs": {"enabled": True, "color": "#000000"},
        "symbols": [{"image": f"@assets/twemoji/{a}.svg"} for a in art],
    }
    (tmp_path / "pics.yaml").write_text(yaml.safe_dump(theme), encoding="utf-8")
    pdf = printdeck.build(tmp_path / "pics.yaml", out=tmp_path / "pics.pdf", color="cmyk").pdf_path
    for page in (1, 2):  # the fronts, then the backs
        inks = _separations(pdf, page, tmp_path)
        black = inks["Black"] > 0.99
        assert black.mean() > 0.2, page
        for ink, share in zip(("Cyan", "Magenta", "Yellow"), RICH_BLACK):
            assert np.median(inks[ink][black]) == pytest.approx(share, abs=0.02), (page, ink)


@needs_gs
def test_thin_black_icons_stay_on_the_black_plate(tmp_path: Path) -> None:
    """A black ring and a plus sign with thin arms: plain shapes with big boxes, but thin
    strokes that four plates out of register would fringe with colour."""
    ring = (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><path fill="#000" fill-rule="evenodd" '
        'd="M5 50a45 45 0 1 0 90 0a45 45 0 1 0-90 0ZM11 50a39 39 0 1 0 78 0a39 39 0 1 0-78 0Z"/></svg>'
    )
    plus = (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><path fill="#000" '
        'd="M45 5h10v40h40v10h-40v40h-10v-40h-40v-10h40Z"/></svg>'
    )
    (tmp_path / "ring.svg").write_text(ring, encoding="utf-8")
    (tmp_path / "plus.svg").write_text(plus, encoding="utf-8")
    art = ["apple", "cactus", "fir-tree", "blowfish", "avocado"]
    theme = {
        "name": "thin",
        "deck": {"symbols_per_card": 3},
        "card": {"diameter": "90mm"},
        "symbols": [
            {"image": "ring.svg"},
            {"image": "plus.svg"},
            *({"image": f"@assets/twemoji/{a}.svg"} for a in art),
        ],
    }
    (tmp_path / "thin.yaml").write_text(yaml.safe_dump(theme), encoding="utf-8")
    pdf = printdeck.build(tmp_path / "thin.yaml", out=tmp_path / "thin.pdf", color="cmyk").pdf_path
    inks = _separations(pdf, 1, tmp_path)
    black = inks["Black"] > 0.99
    assert black.sum() > 200  # the ring and the plus printed
    assert np.median(inks["Cyan"][black]) < 0.01
