"""Raster artwork in the PDF: content-named images (folder-independent files), JPEG kept, EXIF-upright backs."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import reportlab
import yaml
from PIL import Image
from test_render_support import PageImage, close, fano_layouts, print_job

from printdeck.artwork import EXIF_ORIENTATION
from printdeck.render import impose, render_pdf
from printdeck.theme import Theme, load_theme

COLORS = ["#d02020", "#20a020", "#2040d0", "#d0a000", "#a020a0", "#20a0a0", "#606060"]
REPORTLAB_FONTS = Path(reportlab.__file__ or "").parent / "fonts"


def _photo_theme(folder: Path, back_image: str | None = None) -> Theme:
    """Seven 300 px JPEG photo symbols (one colour each) in ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    for i, color in enumerate(COLORS):
        Image.new("RGB", (300, 300), color).save(folder / f"p{i}.jpg", quality=90)
    spec: dict = {
        "name": "photos",
        "title": "Photo Deck",
        "author": "T",
        "seed": 1,
        "card": {"diameter": "85mm", "bleed": "3mm", "background": "#ffffff"},
        "backs": {"enabled": True, "color": "#000000", "pattern": "none"},
        "symbols": [{"photo": f"p{i}.jpg"} for i in range(7)],
    }
    if back_image:
        spec["backs"]["image"] = back_image
    (folder / "theme.yaml").write_text(yaml.safe_dump(spec), encoding="utf-8")
    return load_theme(folder / "theme.yaml")


def _render(theme: Theme, out: Path, backs: bool = False, n_cards: int = 7) -> Path:
    imp = impose((210.0, 297.0), 85.0, 3.0, 5.0, 4.0, n_cards)
    render_pdf(print_job(theme, backs=backs), list(theme.symbols), fano_layouts(n_cards, box_mm=20.0), imp, out)
    return out


def _image_dicts(pdf: Path) -> list[bytes]:
    """The dictionaries of every image XObject (ReportLab writes no object streams)."""
    return re.findall(rb"<<[^<>]*/Subtype /Image[^<>]*>>", pdf.read_bytes())


def test_same_theme_in_two_folders_gives_identical_pdfs(tmp_path: Path) -> None:
    a = _render(_photo_theme(tmp_path / "one"), tmp_path / "a.pdf")
    other = tmp_path / "elsewhere" / "deeper"
    shutil.copytree(tmp_path / "one", other)
    b = _render(load_theme(other / "theme.yaml"), tmp_path / "b.pdf")
    assert a.read_bytes() == b.read_bytes()


def test_jpeg_photos_stay_dct_and_are_stored_once(tmp_path: Path) -> None:
    pdf = _render(_photo_theme(tmp_path / "t"), tmp_path / "a.pdf")
    images = [d for d in _image_dicts(pdf) if b"/Width 300" in d]
    assert len(images) == 7  # seven photos, each stored once although used on three cards
    assert all(b"/DCTDecode" in d for d in images)


def test_jpeg_photos_are_embedded_as_their_bytes_without_a_decode(tmp_path: Path, monkeypatch) -> None:
    """A JPEG the PDF keeps as DCT is named by its bytes, not by its decoded pixels: the
    render decodes none of them to name them (ReportLab's ``drawImage`` would decode each
    to digest its pixels), and each image stream is that JPEG's bytes, stored once."""
    import pikepdf
    from reportlab.lib.utils import ImageReader

    from printdeck.render.pictures import JpegReader

    given: list[bytes] = []
    made = JpegReader.__init__
    monkeypatch.setattr(JpegReader, "__init__", lambda self, jpeg: given.append(jpeg) or made(self, jpeg))
    decoded: list[object] = []
    pixels = ImageReader.getRGBData
    monkeypatch.setattr(ImageReader, "getRGBData", lambda self: decoded.append(self) or pixels(self))
    pdf = _render(_photo_theme(tmp_path / "t"), tmp_path / "a.pdf")
    assert len(set(given)) == 7 and decoded == []
    with pikepdf.open(pdf) as doc:
        streams = [
            obj.read_raw_bytes()
            for obj in doc.objects
            if isinstance(obj, pikepdf.Stream) and obj.get("/Subtype") == "/Image" and obj.get("/Width") == 300
        ]
    assert sorted(streams) == sorted(set(given))  # every photo's JPEG as given, each once


def test_back_image_is_turned_upright_by_exif(tmp_path: Path) -> None:
    folder = tmp_path / "t"
    folder.mkdir()
    # Stored 2400 x 1200 (left red, right blue) with EXIF "rotate 90 CW to display":
    # upright it is 1200 x 2400, red on top, blue below (over 300 dpi on the back).
    stored = Image.new("RGB", (2400, 1200), "#e00000")
    stored.paste("#0000e0", (1200, 0, 2400, 1200))
    exif = Image.Exif()
    exif[EXIF_ORIENTATION] = 6
    stored.save(folder / "back.jpg", quality=95, exif=exif)
    theme = _photo_theme(folder, back_image="back.jpg")
    pdf = _render(theme, tmp_path / "b.pdf", backs=True, n_cards=1)
    img = PageImage(pdf, 1, dpi=100)
    bx, by = 210.0 - 57.5, 243.5  # mirrored back of the first card
    assert close(img.at(bx, by + 20.0), "#e00000", tol=40)
    assert close(img.at(bx, by - 20.0), "#0000e0", tol=40)
    assert close(img.at(bx - 20.0, by + 20.0), "#e00000", tol=40)  # not stretched: left-right uniform


def test_theme_font_in_two_folders_gives_identical_pdfs(tmp_path: Path) -> None:
    outs = []
    for k, folder in enumerate((tmp_path / "one", tmp_path / "two" / "deeper")):
        folder.mkdir(parents=True)
        shutil.copy(REPORTLAB_FONTS / "VeraBI.ttf", folder / "deck.ttf")  # not a bundled face
        spec = {
            "name": "words",
            "title": "Words",
            "author": "T",
            "seed": 1,
            "text": {"font": "deck.ttf"},
            "symbols": [{"text": w} for w in ("sun", "moon", "star", "tree", "leaf", "rock", "wave")],
        }
        (folder / "theme.yaml").write_text(yaml.safe_dump(spec), encoding="utf-8")
        outs.append(_render(load_theme(folder / "theme.yaml"), tmp_path / f"{k}.pdf"))
    assert outs[0].read_bytes() == outs[1].read_bytes()


def test_the_legend_on_coloured_cards_stores_pictures_at_the_cards_sizes(tmp_path: Path) -> None:
    """A parent's deck on cream cards with one see-through cut-out: the legend draws its
    pictures on white, from a library of its own; it stored every photo whole (a 16 MB
    file from a 2.6 MB deck), not with the pixels the largest size it prints at needs."""
    import pikepdf

    folder = tmp_path / "t"
    folder.mkdir()
    for i, color in enumerate(COLORS):
        Image.new("RGB", (1600, 1600), color).save(folder / f"p{i}.jpg", quality=90)
    cut_out = Image.new("RGBA", (1600, 1600), (0, 0, 0, 0))
    cut_out.paste((200, 120, 40, 255), (300, 300, 1300, 1300))
    cut_out.save(folder / "p0.png")
    spec = {
        "name": "photos",
        "seed": 1,
        "card": {"diameter": "85mm", "background": "#ffe8c0"},
        "symbols": [{"image": "p0.png"}] + [{"photo": f"p{i}.jpg"} for i in range(1, 7)],
    }
    (folder / "theme.yaml").write_text(yaml.safe_dump(spec), encoding="utf-8")
    theme = load_theme(folder / "theme.yaml")
    out = tmp_path / "legend.pdf"
    imp = impose((210.0, 297.0), 85.0, 3.0, 5.0, 4.0, 7)
    render_pdf(print_job(theme, legend=True), list(theme.symbols), fano_layouts(7, box_mm=20.0), imp, out)
    most_px = 20.0 / 25.4 * 450 * 2 ** (1 / 8)  # the largest box (20 mm) at max_ppi (450), rounded up a step
    with pikepdf.open(out) as doc:
        images = [obj for obj in doc.objects if isinstance(obj, pikepdf.Stream) and obj.get("/Subtype") == "/Image"]
        widths = [int(image.Width) for image in images]
    assert widths and max(widths) <= most_px, widths


def test_a_photo_saved_as_png_is_stored_as_jpeg(tmp_path: Path) -> None:
    """A parent's 16-bit PNG photo went into the PDF as 1.6 MB of lossless pixels, ten times
    its JPEG neighbours: a photo is opaque and photographic, so it is stored as JPEG (DCT)
    whatever its file, as the README says."""
    import numpy as np

    folder = tmp_path / "t"
    folder.mkdir()
    noise = np.random.default_rng(5).integers(0, 65535, (600, 600), dtype=np.uint16)
    Image.fromarray(noise).save(folder / "p0.png")  # 16-bit grey, noise-like as a photo's grain
    for i, color in enumerate(COLORS[1:], start=1):
        Image.new("RGB", (300, 300), color).save(folder / f"p{i}.jpg", quality=90)
    spec = {
        "name": "photos",
        "seed": 1,
        "symbols": [{"photo": "p0.png"}] + [{"photo": f"p{i}.jpg"} for i in range(1, 7)],
    }
    (folder / "theme.yaml").write_text(yaml.safe_dump(spec), encoding="utf-8")
    pdf = _render(load_theme(folder / "theme.yaml"), tmp_path / "a.pdf")
    images = _image_dicts(pdf)
    assert len(images) == 7 and all(b"/DCTDecode" in d for d in images), images
