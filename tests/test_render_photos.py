"""The user's own pictures: phone photos sized for print, upright, cropped around faces,
HEIC and AVIF read, logos on the backs; checked from the PDF itself (pdfimages) and from
rasterised pages."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pypdfium2 as pdfium
import pytest
from PIL import Image, ImageDraw

from printdeck.artwork import drawing, prepared_picture
from printdeck.pipeline import BuildOptions, build
from printdeck.theme import load_theme

needs_pdfimages = pytest.mark.skipif(shutil.which("pdfimages") is None, reason="poppler-utils not installed")
ASTRONAUT_FACE = (177, 66, 274, 163)  # OpenCV's frontal face in skimage's astronaut (512 x 512), pixels
MORE = "  - folder: '@assets/twemoji'\n"  # enough symbols for a deck


def _photo(size: tuple[int, int], seed: int) -> Image.Image:
    """A busy, distinct 'photo' (gradient, noise and a few discs)."""
    rng = np.random.default_rng(seed)
    w, h = size
    x = np.linspace(0, 1, w)[None, :, None]
    y = np.linspace(0, 1, h)[:, None, None]
    base = rng.uniform(40, 200, 3)[None, None, :] * (0.6 + 0.4 * x) * (0.7 + 0.3 * y)
    pixels = np.clip(base + rng.normal(0, 12, (h, w, 3)), 0, 255).astype(np.uint8)
    image = Image.fromarray(pixels)
    draw = ImageDraw.Draw(image)
    for _ in range(4):
        cx, cy, r = rng.integers(0, w), rng.integers(0, h), rng.integers(h // 10, h // 4)
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=tuple(int(v) for v in rng.integers(0, 255, 3)))
    return image


@pytest.fixture(scope="module")
def phone_photos(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Seven 2400 x 1800 photos (one EXIF-rotated, one HEIC, one AVIF), made once for the
    module (encoding them takes seconds); each test copies them into its own folder."""
    import pillow_heif

    pillow_heif.register_heif_opener()
    folder = tmp_path_factory.mktemp("phone-photos")
    for i in range(7):
        image = _photo((2400, 1800), i)
        if i == 1:  # the encoders' fastest settings: what is tested is reading the file
            image.save(folder / "p1.heic", quality=90, enc_params={"preset": "ultrafast"})
        elif i == 2:
            image.save(folder / "p2.avif", quality=90, speed=10)
        elif i == 3:
            exif = Image.Exif()
            exif[0x0112] = 6
            image.transpose(Image.Transpose.ROTATE_90).save(folder / "p3.jpg", quality=92, exif=exif)
        else:
            image.save(folder / f"p{i}.jpg", quality=92)
    return folder


def _deck(tmp_path: Path, photos: Path, extra: str = "") -> Path:
    """The seven ``photos`` in ``tmp_path/photos`` and a theme of them: order 2, 7 cards of 3."""
    shutil.copytree(photos, tmp_path / "photos")
    theme = tmp_path / "theme.yaml"
    theme.write_text("name: photos\ndeck: {symbols_per_card: 3}\nsymbols:\n  - photo: photos\n" + extra)
    return theme


def _pdfimages(pdf: Path) -> list[dict[str, str]]:
    out = subprocess.run(["pdfimages", "-list", str(pdf)], capture_output=True, text=True, check=True).stdout
    head = out.splitlines()[0].split()
    return [dict(zip(head, line.split())) for line in out.splitlines()[2:]]


@needs_pdfimages
def test_photos_are_stored_once_as_jpeg_at_print_resolution_without_soft_masks(
    tmp_path: Path, phone_photos: Path
) -> None:
    theme = _deck(tmp_path, phone_photos)
    out = tmp_path / "deck.pdf"
    build(str(theme), out, BuildOptions())
    rows = _pdfimages(out)
    assert rows and {r["type"] for r in rows} == {"image"}  # no smask: the crops are clip paths
    assert {r["enc"] for r in rows} == {"jpeg"}  # JPEG, HEIC and AVIF sources all stay JPEG
    assert len({r["object"] for r in rows}) == 7  # each photo stored once
    ppi = [min(float(r["x-ppi"]), float(r["y-ppi"])) for r in rows]
    assert min(ppi) >= 449  # the sources have plenty of pixels: max_ppi (450) at least (pdfimages rounds)
    manifest = json.loads(out.with_suffix(".json").read_text())
    largest = {}
    for card in manifest["cards"]:
        for s in card["symbols"]:
            largest[s["id"]] = max(largest.get(s["id"], 0.0), s["box_mm"][0])
    stored = {int(r["width"]) for r in rows}
    step = 2 ** (1 / 8)  # stored sizes come in steps, rounded up
    assert max(stored) <= max(largest.values()) / 25.4 * 450 * step + 2  # one step over 450 ppi at most
    assert out.stat().st_size < 7 * 400_000  # a few hundred kB a photo, not megabytes


@needs_pdfimages
def test_removed_background_is_a_clip_path_over_a_jpeg_and_max_ppi_is_a_theme_key(
    tmp_path: Path, phone_photos: Path
) -> None:
    theme = _deck(tmp_path, phone_photos, "paper:\n  max_ppi: 200\n")
    text = theme.read_text().replace("  - photo: photos\n", "  - photo: photos\n    remove_background: true\n")
    theme.write_text(text)
    out = tmp_path / "deck.pdf"
    build(str(theme), out, BuildOptions())
    rows = _pdfimages(out)
    assert {r["type"] for r in rows} == {"image"} and {r["enc"] for r in rows} == {"jpeg"}  # no soft mask
    at_largest: dict[str, float] = {}  # each picture's resolution where it prints biggest
    for r in rows:
        if r["type"] == "image":
            ppi = min(float(r["x-ppi"]), float(r["y-ppi"]))
            at_largest[r["object"]] = min(at_largest.get(r["object"], ppi), ppi)
    assert len(at_largest) == 7 and min(at_largest.values()) >= 199  # max_ppi: 200 at least (pdfimages rounds)
    assert max(at_largest.values()) <= 200 * 2 ** (1 / 8) + 2  # at most one size step (9 %) more


@pytest.mark.parametrize("orientation", range(1, 9))
def test_every_exif_orientation_shows_the_photo_upright(tmp_path: Path, orientation: int) -> None:
    upright = _photo((300, 200), 3)
    stored = {
        1: upright,
        2: upright.transpose(Image.Transpose.FLIP_LEFT_RIGHT),
        3: upright.transpose(Image.Transpose.ROTATE_180),
        4: upright.transpose(Image.Transpose.FLIP_TOP_BOTTOM),
        5: upright.transpose(Image.Transpose.TRANSPOSE),
        6: upright.transpose(Image.Transpose.ROTATE_90),
        7: upright.transpose(Image.Transpose.TRANSVERSE),
        8: upright.transpose(Image.Transpose.ROTATE_270),
    }[orientation]
    exif = Image.Exif()
    exif[0x0112] = orientation
    stored.save(tmp_path / "p.png", exif=exif)
    (tmp_path / "theme.yaml").write_text(f"name: t\nsymbols:\n  - image: p.png\n{MORE}")
    symbol = load_theme(str(tmp_path / "theme.yaml")).symbols[0]
    shown = np.asarray(prepared_picture(symbol, 300).convert("RGB"), dtype=int)
    assert shown.shape == (200, 300, 3)
    assert np.abs(shown - np.asarray(upright, dtype=int)).mean() < 3


def test_the_crop_holds_an_off_centre_face(tmp_path: Path) -> None:
    from skimage import data

    face = Image.fromarray(data.astronaut())
    canvas = Image.new("RGB", (1800, 900), (90, 120, 150))
    canvas.paste(face.resize((768, 768)), (1000, 132))  # the astronaut near the right edge
    canvas.save(tmp_path / "astronaut.jpg", quality=92)
    (tmp_path / "theme.yaml").write_text(f"name: t\nsymbols:\n  - photo: astronaut.jpg\n{MORE}")
    art = drawing(load_theme(str(tmp_path / "theme.yaml")).symbols[0])
    x0, y0, x1, y1 = (v * 1.5 for v in ASTRONAUT_FACE)
    x0, x1, y0, y1 = x0 + 1000, x1 + 1000, y0 + 132, y1 + 132
    crop = art.crop
    assert crop is not None and crop.side == pytest.approx(900)
    centre = (crop.left + crop.side / 2, crop.top + crop.side / 2)
    corners = [(x0, y0), (x1, y0), (x0, y1), (x1, y1)]
    assert all(np.hypot(x - centre[0], y - centre[1]) <= crop.side / 2 for x, y in corners)  # inside the circle
    assert crop.left > 450  # the centred crop (left 450) would have cut the face


def test_focus_and_zoom_place_the_crop(tmp_path: Path) -> None:
    _photo((1200, 800), 1).save(tmp_path / "p.jpg")
    (tmp_path / "theme.yaml").write_text(
        f"name: t\nsymbols:\n  - photo: p.jpg\n    focus: [0.1, 0.5]\n    zoom: 2\n{MORE}"
    )
    crop = drawing(load_theme(str(tmp_path / "theme.yaml")).symbols[0]).crop
    assert crop is not None
    assert (crop.left, crop.top, crop.side) == pytest.approx((0.0, 200.0, 400.0))  # clamped at the left edge


def test_photos_stay_upright_unless_the_theme_turns_them(tmp_path: Path) -> None:
    _photo((600, 400), 1).save(tmp_path / "p.jpg")
    _photo((600, 400), 2).save(tmp_path / "q.png")
    (tmp_path / "theme.yaml").write_text(f"name: t\nsymbols:\n  - photo: p.jpg\n  - image: q.png\n{MORE}")
    photo, image = load_theme(str(tmp_path / "theme.yaml")).symbols[:2]
    assert not photo.rotate and image.rotate
    (tmp_path / "theme.yaml").write_text(
        f"name: t\nlayout: {{rotate_photos: true}}\nsymbols:\n  - photo: p.jpg\n{MORE}"
    )
    assert load_theme(str(tmp_path / "theme.yaml")).symbols[0].rotate


def test_an_svg_logo_on_the_backs_is_contained_and_centred(tmp_path: Path) -> None:
    (tmp_path / "logo.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">'
        '<rect x="0" y="0" width="10" height="10" fill="#ff0000"/></svg>'
    )
    (tmp_path / "theme.yaml").write_text(
        "name: t\ndeck: {symbols_per_card: 3}\nsymbols:\n  - folder: '@assets/twemoji'\n"
        "backs:\n  enabled: true\n  image: logo.svg\n  fit: contain\n  size: 0.5\n  color: '#0000ff'\n"
        "card: {diameter: 80mm, bleed: 3mm}\n"
    )
    out = tmp_path / "deck.pdf"
    build(str(tmp_path / "theme.yaml"), out, BuildOptions())
    manifest = json.loads(out.with_suffix(".json").read_text())
    doc = pdfium.PdfDocument(str(out))
    scale = 4.0  # px per pt
    back = np.asarray(doc[1].render(scale=scale).to_pil().convert("RGB"), dtype=int)
    page_h_px = back.shape[0]
    card = manifest["cards"][0]
    cx_mm, cy_mm = manifest["paper"]["size_mm"][0] - card["center_mm"][0], card["center_mm"][1]  # long-edge mirror
    px = lambda mm: mm * 72 / 25.4 * scale  # noqa: E731
    cx, cy = px(cx_mm), page_h_px - px(cy_mm)
    red = (back[..., 0] > 200) & (back[..., 1] < 60) & (back[..., 2] < 60)
    near = np.hypot(*np.mgrid[0 : back.shape[0], 0 : back.shape[1]][::-1] - np.array([cx, cy])[:, None, None]) < px(43)
    ys, xs = np.nonzero(red & near)  # this card's back only
    assert xs.size > 0
    assert (xs.max() - xs.min()) == pytest.approx(px(40.0), rel=0.03)  # half of the 80 mm diameter
    assert (xs.mean(), ys.mean()) == pytest.approx((cx, cy), abs=px(1.0))
    blue = back[round(cy), round(cx + px(30))]
    assert blue[2] > 200 and blue[0] < 60  # the back colour around the logo


def test_a_broken_back_image_is_refused_when_the_theme_loads(tmp_path: Path) -> None:
    from printdeck.errors import PrintdeckError

    (tmp_path / "logo.svg").write_text("<svg xmlns='http://www.w3.org/2000/svg'><rect width='3'")
    (tmp_path / "theme.yaml").write_text(
        "name: t\nsymbols:\n  - folder: '@assets/twemoji'\nbacks:\n  image: logo.svg\n"
    )
    with pytest.raises(PrintdeckError, match=r"^.*backs\.image: "):
        load_theme(str(tmp_path / "theme.yaml"))


def test_removing_a_plain_background_keeps_the_person_whole(tmp_path: Path) -> None:
    from skimage import data

    person = Image.fromarray(data.astronaut()).resize((600, 600))
    canvas = Image.new("RGB", (1200, 900), (48, 190, 72))  # a plain green wall
    canvas.paste(person, (300, 150))
    canvas.save(tmp_path / "person.jpg", quality=92)
    (tmp_path / "theme.yaml").write_text(
        "name: t\nsymbols:\n  - photo: person.jpg\n    remove_background: true\n    focus: [0.5, 0.5]\n" + MORE
    )
    symbol = load_theme(str(tmp_path / "theme.yaml")).symbols[0]
    art = drawing(symbol)
    alpha = np.asarray(prepared_picture(symbol, 450, art.crop).getchannel("A"))  # the 900 x 900 square, halved
    scale = 450 / 900
    x0, y0, x1, y1 = (
        (v * 600 / 512 + off - crop) * scale
        for v, off, crop in zip(ASTRONAUT_FACE, (300, 150, 300, 150), (art.crop.left, art.crop.top) * 2)
    )
    face = alpha[round(y0) : round(y1), round(x0) : round(x1)]
    assert (face == 255).mean() > 0.99  # the face is kept whole
    body = alpha[
        round(150 * scale) : round(750 * scale),
        round((300 - art.crop.left) * scale) + 5 : round((900 - art.crop.left) * scale) - 5,
    ]
    assert (body > 127).mean() > 0.97  # and so is the rest of the picture
    wall = alpha[round(450 * scale) - 5 : round(450 * scale) + 5, 8 : round((300 - art.crop.left) * scale) - 8]
    assert (wall == 0).mean() > 0.95  # the plain wall inside the circle is gone
