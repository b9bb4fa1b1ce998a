"""Clip art on white (an opaque JPEG or PNG of a subject on a plain background) prints whole
and without its white: ``init`` and the studio make it an ``image`` with
``remove_background``, not a photo cropped to a circle. Checked on the printed cards' pixels."""

from __future__ import annotations

import io
import json
from pathlib import Path

import numpy as np
import pytest
import yaml
from PIL import Image, ImageDraw

import printdeck
from printdeck.artwork import plain_background, silhouette
from printdeck.errors import PrintdeckError
from printdeck.theme import load_theme

COLOURS = [(220, 40, 40), (40, 110, 220), (30, 150, 70), (240, 160, 20), (140, 60, 200), (30, 30, 30), (220, 90, 150)]
YELLOW = (255, 224, 138)


def clip_art(i: int) -> Image.Image:
    """Clip art number ``i`` on white: wide cars, tall triangles and round blobs."""
    w, h = [(800, 400), (400, 800), (600, 600), (900, 450), (500, 500), (700, 350), (640, 480)][i]
    image = Image.new("RGB", (w, h), "white")
    draw = ImageDraw.Draw(image)
    colour = COLOURS[i]
    if i % 3 == 0:  # a car: body and wheels, as wide as the picture less a margin
        draw.rounded_rectangle([w * 0.06, h * 0.3, w * 0.94, h * 0.7], radius=h // 10, fill=colour)
        for x in (0.15, 0.65):
            draw.ellipse([w * x, h * 0.6, w * (x + 0.2), h * 0.85], fill=(20, 20, 20))
    elif i % 3 == 1:
        draw.polygon([(w * 0.5, h * 0.05), (w * 0.9, h * 0.95), (w * 0.1, h * 0.95)], fill=colour)
    else:
        draw.ellipse([w * 0.1, h * 0.15, w * 0.9, h * 0.85], fill=colour)
    return image


def jpeg(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, format="JPEG", quality=90)
    return out.getvalue()


def phone_photo(seed: int) -> Image.Image:
    """A photo-like picture: a lit gradient, noise, and a subject cut by the bottom edge."""
    rng = np.random.default_rng(seed)
    y, x = np.mgrid[0:480, 0:640]
    sky = np.stack([90 + x / 8, 120 + y / 6, 200 - y / 5], axis=2)
    sky += rng.normal(0, 12, sky.shape)
    image = Image.fromarray(np.clip(sky, 0, 255).astype(np.uint8))
    ImageDraw.Draw(image).ellipse([200, 180, 460, 560], fill=(180, 120, 90))  # a person, cut by the frame
    return image


def test_clip_art_is_told_from_photos_and_framed_prints() -> None:
    assert all(plain_background(clip_art(i)) for i in range(7))
    assert not any(plain_background(phone_photo(seed)) for seed in range(3))
    framed = Image.new("RGB", (600, 400), "white")
    framed.paste(phone_photo(5).resize((560, 360)), (20, 20))  # a photo printed with a white margin
    assert not plain_background(framed)
    assert not plain_background(Image.new("RGB", (300, 300), "white"))  # blank: nothing to keep


def test_init_makes_clip_art_an_image_without_its_background(tmp_path: Path) -> None:
    pictures = tmp_path / "pictures"
    pictures.mkdir()
    for i in range(6):
        (pictures / f"clip{i}.jpg").write_bytes(jpeg(clip_art(i)))
    png = io.BytesIO()
    clip_art(6).save(png, format="PNG")  # an opaque PNG too
    (pictures / "clip6.png").write_bytes(png.getvalue())
    (pictures / "holiday.jpg").write_bytes(jpeg(phone_photo(1)))
    printdeck.init_theme(tmp_path / "deck", images=pictures)
    entries = yaml.safe_load((tmp_path / "deck" / "theme.yaml").read_text(encoding="utf-8"))["symbols"]
    by_name = {e["name"]: e for e in entries}
    assert by_name["holiday"] == {"photo": "images/holiday.jpg", "name": "holiday"}
    for i in range(7):
        assert by_name[f"clip{i}"]["remove_background"] is True and "image" in by_name[f"clip{i}"]


def _theme(tmp_path: Path, count: int = 7) -> Path:
    for i in range(count):
        (tmp_path / f"clip{i}.jpg").write_bytes(jpeg(clip_art(i)))
    theme = {
        "name": "clips",
        "seed": 4,
        "deck": {"symbols_per_card": 3},
        "card": {"diameter": "70mm", "background": "#{:02x}{:02x}{:02x}".format(*YELLOW)},
        "symbols": [{"image": f"clip{i}.jpg", "remove_background": True} for i in range(count)],
    }
    path = tmp_path / "clips.yaml"
    path.write_text(yaml.safe_dump(theme), encoding="utf-8")
    return path


def test_clip_art_prints_whole_and_without_its_white(tmp_path: Path) -> None:
    path = _theme(tmp_path)
    symbols = load_theme(path).symbols
    car = silhouette(symbols[0])
    assert car.aspect == pytest.approx(2.0)  # the whole picture's box: not cropped square
    ink_x0, _, ink_x1, _ = car.shape.bounds
    assert ink_x1 - ink_x0 > 0.85 * car.aspect  # the car's body from end to end
    assert car.area < 0.6 * car.aspect  # its white is not ink
    result = printdeck.build(path, out=tmp_path / "clips.pdf", png_dir=tmp_path / "png", dpi=100)
    manifest = json.loads(result.manifest_path.read_text(encoding="utf-8"))
    radius_px = manifest["card"]["diameter_mm"] / 2 * 100 / 25.4
    for png in sorted((tmp_path / "png").glob("card-*.png")):
        rgb = np.asarray(Image.open(png).convert("RGB")).astype(int)
        h, w, _ = rgb.shape
        y, x = np.mgrid[0:h, 0:w]
        inside = np.hypot(x - w / 2, y - h / 2) < radius_px - 3
        white = (rgb.min(axis=2) > 240) & inside
        assert white.sum() < 0.001 * inside.sum(), f"{png.name}: {white.sum()} white pixels on the card"
        shown = [(np.abs(rgb - c).max(axis=2) < 30).sum() > 200 for c in COLOURS]
        assert sum(shown) >= 3, f"{png.name}: its three pictures did not print"  # (a car's wheels are black)


def test_an_svg_has_no_background_to_remove(tmp_path: Path) -> None:
    svg = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle cx="5" cy="5" r="4"/></svg>'
    (tmp_path / "dot.svg").write_text(svg, encoding="utf-8")
    path = _theme(tmp_path, 6)
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data["symbols"].append({"image": "dot.svg", "remove_background": True})
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    with pytest.raises(PrintdeckError, match=r"symbols\.6\.remove_background: an SVG has no background"):
        load_theme(path)


def test_the_studio_takes_clip_art_as_init_does() -> None:
    kind = printdeck.picture_kind("car.jpg", jpeg(clip_art(0)))
    assert (kind.key, kind.cut_out) == ("image", True)
    kind = printdeck.picture_kind("holiday.jpg", jpeg(phone_photo(2)))
    assert (kind.key, kind.cut_out) == ("photo", False)


def test_the_studio_shows_clip_art_as_it_prints(tmp_path: Path) -> None:
    """The tile showed the file, white and all, while the cards printed it without its
    white: the tile is drawn as it prints, and shown afresh when the box is unticked."""
    from test_studio_api import make_client, upload

    with make_client(tmp_path / "deck") as client:
        state = upload(client, [("car.jpg", jpeg(clip_art(0))), ("c.jpg", jpeg(clip_art(1)))])["state"]
        symbol, letter = state["symbols"]  # "c": a name the studio's own stand-in words once took
        assert client.get(letter["thumb"]).headers["content-type"] == "image/png"
        assert symbol["kind"] == "image" and symbol["remove_background"] and symbol["thumb"].endswith("?cut=1")
        shown = client.get(symbol["thumb"])
        assert shown.headers["content-type"] == "image/png"
        tile = Image.open(io.BytesIO(shown.content)).convert("RGBA")
        assert tile.getpixel((2, 2))[3] == 0 and tile.getpixel((tile.width // 2, tile.height // 2))[3] == 255
        changed = client.patch(f"/api/symbols/{symbol['uid']}", json={"changes": {"remove_background": None}})
        plain = changed.json()["state"]["symbols"][0]  # the car
        assert not plain["remove_background"] and "?" not in plain["thumb"]
        assert client.get(plain["thumb"]).headers["content-type"] == "image/jpeg"  # the file, as it now prints


def test_a_cut_out_leaves_out_the_same_background_at_every_size(tmp_path: Path) -> None:
    """A drawn ring with a small break in its outline: found at each drawing's own size, its
    inside was kept at the silhouette's size and left out at print sizes, so the layout
    packed a solid disc and the PDF printed a hollow ring. One mask, scaled, serves all."""
    from printdeck.artwork import prepared_picture

    ring = Image.new("RGB", (1600, 1600), "white")
    draw = ImageDraw.Draw(ring)
    draw.ellipse([200, 200, 1400, 1400], outline="black", width=40)
    draw.rectangle([792, 150, 808, 260], fill="white")  # a 16-pixel break at the top
    ring.save(tmp_path / "ring.png")
    words = [{"text": w} for w in ("sol", "mar", "pan", "luz", "flor", "casa")]
    theme = {"deck": {"symbols_per_card": 3}, "symbols": [{"image": "ring.png", "remove_background": True}, *words]}
    (tmp_path / "ring.yaml").write_text(yaml.safe_dump(theme), encoding="utf-8")
    symbol = load_theme(tmp_path / "ring.yaml").symbols[0]
    inside = {
        px: prepared_picture(symbol, px).getchannel("A").getpixel((px // 2, px // 2)) for px in (128, 256, 800, 1600)
    }
    assert len(set(inside.values())) == 1, inside


def test_clip_art_paired_with_its_word_is_shown_and_set_as_its_own(tmp_path: Path) -> None:
    """A clip-art car paired with the word "coche": its tile showed the file's white, and its
    panel had no box to remove it, as the picture face's keys were not looked at."""
    from test_studio_api import make_client

    folder = tmp_path / "deck"
    (folder / "images").mkdir(parents=True)
    (folder / "images" / "car.jpg").write_bytes(jpeg(clip_art(0)))
    words = "".join(f"  - text: {w}\n" for w in ("sol", "mar", "pan", "luz", "flor", "casa"))
    car = "{image: images/car.jpg, remove_background: true}"
    (folder / "theme.yaml").write_text(f"symbols:\n  - faces: [{car}, {{text: coche}}]\n{words}", encoding="utf-8")
    with make_client(folder) as client:
        symbol = client.get("/api/state").json()["state"]["symbols"][0]
        assert symbol["picture_face"] == 0 and symbol["thumb"].endswith("?cut=1")
        tile = Image.open(io.BytesIO(client.get(symbol["thumb"]).content)).convert("RGBA")
        assert tile.getpixel((2, 2))[3] == 0  # its white left out, as it prints
        changes = {"faces.0.remove_background": None}
        answer = client.patch(f"/api/symbols/{symbol['uid']}", json={"changes": changes})
        assert answer.status_code == 200 and "?" not in answer.json()["state"]["symbols"][0]["thumb"]


def test_a_picture_taken_for_clip_art_can_be_cropped_as_a_photo_and_back(tmp_path: Path) -> None:
    """A parent's photo of a ball on a plain wall was taken for clip art: cut out, only the
    ball printed, and unticking the box left it a whole picture, never a photo again. The
    panel's button turns a picture into a photo (cropped to its shape, its wall kept) and a
    photo into a picture shown whole; an SVG is never a photo."""
    from test_studio_api import make_client, theme_file, upload

    with make_client(tmp_path / "deck") as client:
        state = upload(
            client,
            [
                ("car.jpg", jpeg(clip_art(0))),
                ("logo.svg", (Path(__file__).parent.parent / "assets" / "twemoji" / "apple.svg").read_bytes()),
            ],
        )["state"]
        car = next(s for s in state["symbols"] if s["name"] == "car")
        assert (car["kind"], car["remove_background"]) == ("image", True)
        answer = client.patch(f"/api/symbols/{car['uid']}", json={"changes": {"kind": "photo"}})
        assert answer.status_code == 200, answer.text
        assert {"photo": "images/car.jpg"} in theme_file(client)["symbols"]  # a plain photo: no cut-out
        assert answer.json()["state"]["history"]["undo"]["label"] == "'car': cropped as a photo"
        client.patch(f"/api/symbols/{car['uid']}", json={"changes": {"zoom": 1.5}})
        back = client.patch(f"/api/symbols/{car['uid']}", json={"changes": {"kind": "image", "zoom": 2.0}})
        assert back.status_code == 200, back.text  # a zoom queued with it: a crop it no longer has
        assert {"image": "images/car.jpg"} in theme_file(client)["symbols"]  # no zoom left
        logo = next(s for s in state["symbols"] if s["name"] == "logo")
        refused = client.patch(f"/api/symbols/{logo['uid']}", json={"changes": {"kind": "photo"}})
        assert refused.status_code == 400 and "not an SVG" in refused.text


@pytest.mark.parametrize("name", ["astronaut", "chelsea", "camera"])
def test_a_photo_on_a_plain_wall_stays_a_photo(name: str) -> None:
    """A photo of a person or a cat held up against a plain wall (a colour with sensor noise)
    was taken for clip art: the background removal ate into the photo where its own pixels
    came near the wall's colour, so what it kept was no longer a filled rectangle, and the
    cat printed cut out with ragged holes. The rectangle is judged at the plain border's own
    tolerance; clip art on white stays clip art."""
    from skimage import data

    pixels = getattr(data, name)()
    pixels = np.dstack([pixels] * 3) if pixels.ndim == 2 else pixels
    for seed in (8, 9, 10):  # walls of three colours: seed 8's is near the cat's fur
        rng = np.random.default_rng(seed)
        wall = np.zeros((900, 1200, 3), np.float32) + rng.integers(60, 200, 3).astype(np.float32)
        wall += rng.normal(0, 6, (900, 1200, 1)).astype(np.float32)
        photo = Image.fromarray(np.clip(wall, 0, 255).astype(np.uint8))
        photo.paste(Image.fromarray(pixels).resize((520, 520)), (560, 250))  # off-centre, as held up
        assert not plain_background(Image.open(io.BytesIO(jpeg(photo)))), seed
        assert printdeck.picture_kind("wall.jpg", jpeg(photo)).key == "photo", seed
    assert all(plain_background(clip_art(i)) for i in range(7))
