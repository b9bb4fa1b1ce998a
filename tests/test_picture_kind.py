"""How a picture enters a theme, the same from ``printdeck init`` and the studio: an opaque
raster is a photo, a cut-out (transparent background) an image, kept upright when it shows
a face, so a cut-out person never prints sideways or upside down."""

from __future__ import annotations

import io
import json
from pathlib import Path

import yaml
from PIL import Image, ImageDraw
from skimage import data as skdata
from test_studio_api import make_client, upload

import printdeck
from printdeck.theme.picture_kind import picture_kind


def _png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def _cut_out_person() -> bytes:
    """scikit-image's astronaut, the background around her head and shoulders made transparent."""
    person = Image.fromarray(skdata.astronaut()).convert("RGBA")
    mask = Image.new("L", person.size, 0)
    ImageDraw.Draw(mask).ellipse((90, 0, 380, 380), fill=255)
    person.putalpha(mask)
    return _png(person)


def _icon() -> bytes:
    """A flat disc on a transparent ground: an icon, no face."""
    icon = Image.new("RGBA", (256, 256), (0, 0, 0, 0))
    ImageDraw.Draw(icon).ellipse((20, 20, 236, 236), fill=(30, 120, 200, 255))
    return _png(icon)


def test_each_kind_of_picture_gets_its_entry() -> None:
    opaque = _png(Image.fromarray(skdata.astronaut()))
    assert picture_kind("a.svg", b"<svg/>") == picture_kind("broken.png", b"not a png")
    assert picture_kind("a.svg", b"<svg/>").key == "image" and not picture_kind("a.svg", b"").upright
    assert (picture_kind("a.jpg", b"").key, picture_kind("a.png", opaque).key) == ("photo", "photo")
    person, icon = picture_kind("me.png", _cut_out_person()), picture_kind("icon.png", _icon())
    assert (person.key, person.upright) == ("image", True)
    assert (icon.key, icon.upright) == ("image", False)


def test_init_keeps_a_cut_out_person_upright_on_every_card(tmp_path: Path) -> None:
    pictures = tmp_path / "pictures"
    pictures.mkdir()
    (pictures / "me.png").write_bytes(_cut_out_person())
    twemoji = Path(printdeck.__file__).resolve().parent.parent / "assets" / "twemoji"
    for k, name in enumerate(("cat", "rocket", "apple", "anchor", "car", "banana")):
        (pictures / f"shape{k}.svg").write_bytes((twemoji / f"{name}.svg").read_bytes())
    printdeck.init_theme(tmp_path / "deck", images=pictures)
    symbols = yaml.safe_load((tmp_path / "deck" / "theme.yaml").read_text(encoding="utf-8"))["symbols"]
    by_file = {Path(s["image"]).name: s for s in symbols}
    assert by_file["me.png"].get("rotate") is False and all("rotate" not in by_file[f"shape{k}.svg"] for k in range(6))
    result = printdeck.build(tmp_path / "deck", out=tmp_path / "deck.pdf")
    manifest = json.loads(result.manifest_path.read_text())
    me = next(s["id"] for s in manifest["symbols"] if s["name"] == "me")
    turns = [s["rotation_deg"] for c in manifest["cards"] for s in c["symbols"] if s["id"] == me]
    assert turns and all(t == 0 for t in turns)
    others = [s["rotation_deg"] for c in manifest["cards"] for s in c["symbols"] if s["id"] != me]
    assert any(t != 0 for t in others)  # the icons still turn


def test_the_studio_keeps_a_dropped_cut_out_person_upright(tmp_path: Path) -> None:
    with make_client(tmp_path / "deck") as client:
        state = upload(client, [("me.png", _cut_out_person()), ("icon.png", _icon())])["state"]
    symbols = yaml.safe_load((Path(state["folder"]) / "theme.yaml").read_text(encoding="utf-8"))["symbols"]
    assert symbols == [{"image": "images/me.png", "rotate": False}, {"image": "images/icon.png"}]


def test_init_keeps_a_cut_out_person_upright_when_paired_with_a_word(tmp_path: Path) -> None:
    pictures = tmp_path / "pictures"
    pictures.mkdir()
    (pictures / "me.png").write_bytes(_cut_out_person())
    twemoji = Path(printdeck.__file__).resolve().parent.parent / "assets" / "twemoji"
    for name in ("cat", "rocket", "apple", "anchor", "car", "banana"):
        (pictures / f"{name}.svg").write_bytes((twemoji / f"{name}.svg").read_bytes())
    words = tmp_path / "words.txt"
    words.write_text("me = yo\n", encoding="utf-8")
    printdeck.init_theme(tmp_path / "deck", images=pictures, words=words)
    theme = printdeck.load_theme(tmp_path / "deck")  # a valid theme: the turn is the picture face's
    me = next(s for s in theme.symbols if s.name == "me")
    assert [(f.kind, f.rotate) for f in me.faces] == [("raster", False), ("text", True)]
