"""The backs' picture as a print shop gets it: held to the symbols' resolution (it prints on
every card), and a PNG back's margin in the back's colour, as a front's is in its own."""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest
import yaml
from PIL import Image, ImageDraw

import printdeck
from printdeck.errors import PrintdeckError
from printdeck.render import ResolutionWarning, page_image
from printdeck.render.backs import BAND_MM
from printdeck.theme import UnusedSettingWarning

ART = ["ice-cube", "popcorn", "target", "zebra", "star", "snake", "grapes"]


def _theme(tmp_path: Path, backs: dict[str, object], size_px: tuple[int, int] | None = None) -> Path:
    """A poker deck of seven pictures with backs; ``size_px``: a back picture of that size."""
    if size_px is not None:
        picture = Image.new("RGB", size_px, (90, 140, 200))
        w, h = size_px
        ImageDraw.Draw(picture).ellipse([w // 4, h // 4, 3 * w // 4, 3 * h // 4], fill=(200, 40, 40))
        picture.save(tmp_path / "back.jpg", quality=95)
    theme = {
        "name": "backs",
        "deck": {"symbols_per_card": 3},
        "card": {"shape": "rectangle", "size": "poker", "bleed": "3mm", "background": "#f5cd79"},
        "backs": {"enabled": True, **backs},
        "symbols": [{"image": f"@assets/twemoji/{a}.svg"} for a in ART],
    }
    path = tmp_path / "theme.yaml"
    path.write_text(yaml.safe_dump(theme), encoding="utf-8")
    return path


def test_a_coarse_back_picture_is_refused_and_a_soft_one_warned_about(tmp_path: Path) -> None:
    """A 240 x 180 back covering a poker card printed at 40 dpi on every back, blurred, with no
    word: the symbols' rule (refused under 150 dpi, warned under 300) now holds for it, in
    ``check`` and in the build, which writes nothing. Its 180 pixels cover the card's 94 mm
    with the bleed (49 dpi; 40 when it covered the card's circumcircle)."""
    theme = _theme(tmp_path, {"image": "back.jpg", "fit": "cover"}, (240, 180))
    with pytest.raises(PrintdeckError, match=r"backs.image .*back.jpg\): prints at 49 dpi on every back") as caught:
        printdeck.check_theme(theme)
    assert caught.value.key == "backs.image"
    assert "use a larger image (1481 x 1111 pixels or more)" in str(caught.value)  # 300 dpi over 94 mm
    with pytest.raises(PrintdeckError, match="prints at 49 dpi"):
        printdeck.build(theme, out=tmp_path / "deck.pdf")
    assert not (tmp_path / "deck.pdf").exists()
    theme = _theme(tmp_path, {"image": "back.jpg", "fit": "cover"}, (1200, 900))
    with pytest.warns(ResolutionWarning, match=r"back.jpg: the back prints at only 243 dpi"):
        printdeck.check_theme(theme)
    with pytest.warns(ResolutionWarning, match="243 dpi"):
        printdeck.build(theme, out=tmp_path / "deck.pdf")
    theme = _theme(tmp_path, {"image": "back.jpg", "fit": "contain", "size": 0.3}, (1200, 900))
    with warnings.catch_warnings():  # contained, 0.3 of the card: 1200 pixels over 0.75 in
        warnings.simplefilter("error", ResolutionWarning)
        printdeck.check_theme(theme)


def test_a_png_back_fills_its_margin_with_its_colour_as_the_fronts_do(tmp_path: Path) -> None:
    """With ``png_margin``, a front's margin is its background but the back's was white: a shop
    cutting into the margin showed a white edge on the backs only."""
    theme = _theme(tmp_path, {"color": "#2b4c7e", "pattern": "none"})
    printdeck.build(theme, out=tmp_path / "deck.pdf", png_dir=tmp_path / "pngs", png_margin_mm="5mm", dpi=100)
    front = np.asarray(Image.open(tmp_path / "pngs" / "card-001.png").convert("RGB")).astype(int)
    back = np.asarray(Image.open(tmp_path / "pngs" / "back.png").convert("RGB")).astype(int)
    assert front.shape == back.shape
    for y, x in ((1, 1), (1, -2), (-2, 1), (-2, -2)):  # the corners, in the margin
        assert np.abs(front[y, x] - (0xF5, 0xCD, 0x79)).max() <= 3
        assert np.abs(back[y, x] - (0x2B, 0x4C, 0x7E)).max() <= 3


def test_a_back_photo_that_covers_the_back_keeps_its_subject(tmp_path: Path) -> None:
    """A parent's photo on the backs, its cat near the top right, was cropped at its middle:
    the backs showed the wall. A picture that covers the back is now centred on what the
    photo crop finds (faces, a pet's face, the subject), as far as it still covers."""
    rng = np.random.default_rng(4)
    wall = rng.normal(150, 12, (800, 1600, 3)).clip(0, 255).astype(np.uint8)  # a plain wall, grain and all
    picture = Image.fromarray(wall)
    ImageDraw.Draw(picture).ellipse([1180, 140, 1420, 380], fill=(220, 30, 30))  # the subject, top right
    picture.save(tmp_path / "back.jpg", quality=95)
    theme = _theme(tmp_path, {"image": "back.jpg", "fit": "cover"})
    data = yaml.safe_load(theme.read_text(encoding="utf-8"))
    data["card"] = {"diameter": "60mm", "bleed": "3mm"}  # round: the cover square is the bleed disc's
    theme.write_text(yaml.safe_dump(data), encoding="utf-8")
    printdeck.build(theme, out=tmp_path / "deck.pdf", png_dir=tmp_path / "pngs", dpi=100)
    back = np.asarray(Image.open(tmp_path / "pngs" / "back.png").convert("RGB")).astype(int)
    red = (back[..., 0] > 180) & (back[..., 1] < 90) & (back[..., 2] < 90)
    assert red.sum() > 0.05 * red.size, "the subject is not on the back"
    ys, xs = np.nonzero(red)
    assert xs.mean() > back.shape[1] / 2 and ys.mean() < back.shape[0] / 2  # still top right: not moved, only framed


def _banded_picture(tmp_path: Path) -> None:
    """back.jpg: a 1200 x 900 photo, red along its top tenth (a head near the top), blue below."""
    picture = np.zeros((900, 1200, 3), np.uint8)
    picture[:] = (40, 60, 200)
    picture[:90] = (220, 30, 30)
    Image.fromarray(picture).save(tmp_path / "back.jpg", quality=95)


def _red_rows(back: np.ndarray) -> np.ndarray:
    """Whether each row of a back PNG's middle column is the picture's red top."""
    middle = back[:, back.shape[1] // 2]
    return (middle[:, 0] > 180) & (middle[:, 1] < 90) & (middle[:, 2] < 90)


@pytest.mark.parametrize("copies", [1, 2])
def test_a_square_back_shows_its_photo_whole_in_height(tmp_path: Path, copies: int) -> None:
    """A parent's landscape photo on a square card's backs: the picture covered the square of
    the card's circumcircle, 1.4 times the card, and lost its top and bottom: the head near
    the top was cut off at the trim, and a class set's band hid what was left. It now covers
    the card's own box (with a deck's band, the box inside the band): a landscape photo
    shows its whole height, the top row just inside the trim (or the band)."""
    _banded_picture(tmp_path)
    theme = _theme(tmp_path, {"image": "back.jpg", "fit": "cover"})
    data = yaml.safe_load(theme.read_text(encoding="utf-8"))
    data["card"] = {"shape": "square", "size": "60mm", "corner_radius": "3mm", "bleed": "3mm"}
    theme.write_text(yaml.safe_dump(data), encoding="utf-8")
    dpi = 100
    printdeck.build(theme, out=tmp_path / "deck.pdf", png_dir=tmp_path / "pngs", dpi=dpi, copies=copies)
    back_png = sorted((tmp_path / "pngs").rglob("back*.png"))[0]
    back = np.asarray(Image.open(back_png).convert("RGB")).astype(int)
    px_per_mm = dpi / 25.4
    red = np.nonzero(_red_rows(back))[0]
    assert red.size, f"{back_png.name}: the photo's top is not on the back"
    top_mm = (3.0 + (BAND_MM if copies > 1 else 0.0)) * px_per_mm  # the trim, or the band's inner edge
    assert red.min() <= top_mm + 1.5 * px_per_mm, (red.min(), top_mm)  # it starts where the back shows
    tenth_mm = 0.1 * (60.0 - (2 * BAND_MM if copies > 1 else -6.0))  # a tenth of the picture's height
    assert red.size >= 0.6 * tenth_mm * px_per_mm  # the red is about a tenth of what shows, not cut away


def test_a_back_photo_on_shared_cuts_runs_into_the_blocks_bleed(tmp_path: Path) -> None:
    """Square cards with rounded corners on shared cuts: each back was drawn without its
    bleed, so the photo stopped at the trim, the back's colour framed the block (a duplex a
    little off showed a strip of it) and filled a diamond where four rounded corners meet.
    Each back now keeps its bleed, clipped to its own cell of the block: no back's colour
    shows anywhere on the back sheet."""
    picture = Image.new("RGB", (900, 900), (220, 30, 30))
    ImageDraw.Draw(picture).rectangle([300, 300, 600, 600], fill=(240, 200, 40))  # not plain: a photo
    picture.save(tmp_path / "back.jpg", quality=95)
    theme = _theme(tmp_path, {"image": "back.jpg", "fit": "cover", "color": "#2b4c7e"})
    data = yaml.safe_load(theme.read_text(encoding="utf-8"))
    data["card"] = {"shape": "square", "size": "60mm", "corner_radius": "4mm", "bleed": "3mm"}
    data["paper"] = {"cuts": "shared", "cut_marks": False}
    theme.write_text(yaml.safe_dump(data), encoding="utf-8")
    printdeck.build(theme, out=tmp_path / "deck.pdf")
    back = np.asarray(page_image((tmp_path / "deck.pdf").read_bytes(), 1, 100 / 72).convert("RGB")).astype(int)
    navy = (np.abs(back - (0x2B, 0x4C, 0x7E)).max(axis=2) <= 24).sum()
    red = (np.abs(back - (220, 30, 30)).max(axis=2) <= 30).sum()
    assert red > 0.2 * back.shape[0] * back.shape[1], red  # the photos are on the sheet
    assert navy == 0, f"{navy} pixels of the back's colour"


def test_a_back_pattern_written_beside_a_picture_is_said_to_go_undrawn(tmp_path: Path) -> None:
    """A parent wrote ``pattern: title`` and ``image: back.jpg``: the title never printed and
    nothing said so. Written out, the pattern is now said to go undrawn; left to its
    default, nothing is said."""
    theme = _theme(tmp_path, {"image": "back.jpg", "pattern": "title"}, (1800, 1800))
    with pytest.warns(UnusedSettingWarning, match=r"backs.pattern: title is not drawn: the picture \(backs.image\)"):
        printdeck.check_theme(theme)
    theme = _theme(tmp_path, {"image": "back.jpg"}, (1800, 1800))
    with warnings.catch_warnings():
        warnings.simplefilter("error", UnusedSettingWarning)
        printdeck.check_theme(theme)
        printdeck.build(theme, out=tmp_path / "deck.pdf")
