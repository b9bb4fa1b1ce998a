"""Two photos of one picture (a crop, zoom, turn or re-save of the other) are look-alikes,
though pixel by pixel at any pose they differ; photos of different pictures are not."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from PIL import Image
from skimage import data

import printdeck
from printdeck.artwork import SAME_PICTURE_INLIERS, Vision, agreeing_matches, drawing, picture_features
from printdeck.cli import main as cli_main
from printdeck.errors import LOOK_ALIKE, LookAlikeWarning
from printdeck.theme import look_alikes as look_alikes_of

same_photos = importlib.import_module("printdeck.theme.same_photos")

WORDS = [{"text": w} for w in ("sun", "moon", "star", "tree", "fish")]


def _save(pixels: np.ndarray, path: Path) -> Path:
    Image.fromarray(pixels).save(path, quality=90)
    return path


def _zoomed(pixels: np.ndarray, zoom: float, shift: tuple[int, int], turn_deg: float = 0.0) -> np.ndarray:
    """A phone's re-crop of ``pixels`` (the next shot of a burst, an edited copy): zoomed in
    about a shifted centre, maybe turned, at 640 x 480."""
    image = Image.fromarray(pixels).rotate(turn_deg, resample=Image.Resampling.BICUBIC, expand=False)
    w, h = image.size
    cw, ch = w / zoom, h / zoom
    cx, cy = w / 2 + shift[0], h / 2 + shift[1]
    box = (int(cx - cw / 2), int(cy - ch / 2), int(cx + cw / 2), int(cy + ch / 2))
    return np.asarray(image.crop(box).resize((640, 480), Image.Resampling.LANCZOS))


def _photos(folder: Path) -> dict[str, Path]:
    folder.mkdir(exist_ok=True)
    coffee, rocket, camera = data.coffee(), data.rocket(), np.dstack([data.camera()] * 3)
    return {
        "astronaut": _save(_zoomed(data.astronaut(), 1.0, (0, 0)), folder / "astronaut.jpg"),
        "astronaut closer": _save(_zoomed(data.astronaut(), 1.25, (-20, -30)), folder / "astronaut-closer.jpg"),
        "astronaut turned": _save(_zoomed(data.astronaut(), 1.2, (-10, -20), 10.0), folder / "astronaut-turned.jpg"),
        "coffee": _save(coffee, folder / "coffee.jpg"),
        "rocket": _save(rocket, folder / "rocket.jpg"),
        "camera": _save(camera, folder / "camera.jpg"),
        "coins": _save(np.dstack([data.coins()] * 3), folder / "coins.jpg"),
        "chelsea": _save(data.chelsea(), folder / "chelsea.jpg"),
    }


def _theme(photos: list[Path], folder: Path, **deck: object) -> dict[str, object]:
    symbols = [{"photo": p.name} for p in photos] + WORDS
    return {"deck": dict(deck), "symbols": symbols} if deck else {"symbols": symbols}


def test_a_closer_crop_and_a_turned_copy_are_the_same_picture(tmp_path: Path) -> None:
    photos = _photos(tmp_path)
    theme = printdeck.load_theme(_theme(list(photos.values()), tmp_path), base_dir=tmp_path)
    pairs = printdeck.look_alikes(theme)
    named = {frozenset((p.first, p.second)) for p in pairs}
    copies = {"astronaut", "astronaut closer", "astronaut turned"}
    assert all(pair <= copies for pair in named)  # nothing else is one picture
    assert len(named) >= 2 and set().union(*named) == copies  # every copy is named with another
    assert all(p.same_picture >= SAME_PICTURE_INLIERS for p in pairs)
    assert "they show the same picture, one cropped, zoomed or turned from the other" in pairs[0].reason()
    assert "laid over each other their colours match" in pairs[0].reason()


def test_a_copy_saved_again_smaller_is_said_to_be_the_same_picture(tmp_path: Path) -> None:
    """A parent's photo saved again as PNG and once shrunk was refused in jargon ("the same
    silhouette up to size (100% overlap) in colours less than 10 apart (CIEDE2000 0.3)"):
    it is said to be the same picture, copied."""
    coffee = data.coffee()
    Image.fromarray(coffee).save(tmp_path / "coffee.png")
    Image.fromarray(coffee).resize((300, 200)).save(tmp_path / "coffee-small.jpg", quality=92)
    theme = printdeck.load_theme(
        _theme([tmp_path / "coffee.png", tmp_path / "coffee-small.jpg"], tmp_path), base_dir=tmp_path
    )
    pairs = printdeck.look_alikes(theme)
    assert len(pairs) == 1 and pairs[0].reason().startswith(
        "'coffee' and 'coffee small' look alike: they show the same picture (a copy, resized or saved again"
    ), pairs[0].reason()


def test_another_subject_before_the_same_background_is_another_picture(tmp_path: Path) -> None:
    """The same wall, shot from the same spot, with another thing before it: the wall's
    details agree, but moved onto each other the two pictures differ where the things are."""
    wall = np.asarray(Image.fromarray(data.brick()).convert("RGB").resize((640, 480)))
    photos = []
    for name, thing in (("coffee", data.coffee()), ("chelsea", data.chelsea())):
        pixels = wall.copy()
        pixels[120:420, 180:520] = np.asarray(Image.fromarray(thing).resize((340, 300)))
        photos.append(_save(pixels, tmp_path / f"wall-{name}.jpg"))
    theme = printdeck.load_symbols(_theme(photos, tmp_path), base_dir=tmp_path)
    a, b = (picture_features(drawing(s)) for s in theme.symbols[:2])
    assert agreeing_matches(a, b) >= SAME_PICTURE_INLIERS  # the wall is one scene
    assert printdeck.look_alikes(theme) == []


def test_photos_of_different_pictures_share_no_picture(tmp_path: Path) -> None:
    photos = _photos(tmp_path)
    others = [p for name, p in photos.items() if not name.startswith("astronaut ")]
    symbols = printdeck.load_symbols(_theme(others, tmp_path), base_dir=tmp_path).symbols[: len(others)]
    features = [picture_features(drawing(s)) for s in symbols]
    counts = [agreeing_matches(a, b) for k, a in enumerate(features) for b in features[k + 1 :]]
    assert max(counts) < SAME_PICTURE_INLIERS // 2, counts  # far from the line, not just under it
    assert all(len(f.points) > 50 for f in features)  # each has details enough to be compared


def test_the_same_picture_is_refused_and_let_through_with_allow(tmp_path: Path) -> None:
    photos = _photos(tmp_path)
    chosen = [photos["astronaut"], photos["coffee"], photos["astronaut closer"]]
    with pytest.raises(printdeck.PrintdeckError) as refused:
        printdeck.check_theme(printdeck.load_theme(_theme(chosen, tmp_path), base_dir=tmp_path))
    assert refused.value.code == LOOK_ALIKE
    assert "'astronaut' and 'astronaut closer' look alike: they show the same picture" in str(refused.value)
    with pytest.warns(LookAlikeWarning, match="same picture"):
        printdeck.check_theme(printdeck.load_theme(_theme(chosen, tmp_path, allow_look_alike=True), base_dir=tmp_path))


def test_the_command_line_refuses_the_same_picture_in_one_line(tmp_path: Path) -> None:
    photos = _photos(tmp_path)
    chosen = (photos["rocket"], photos["astronaut turned"], photos["astronaut"])
    lines = ["symbols:"] + [f"  - photo: {p.name}" for p in chosen]
    lines += [f"  - text: {w['text']}" for w in WORDS]
    theme = tmp_path / "theme.yaml"
    theme.write_text("\n".join(lines) + "\n")
    result = CliRunner().invoke(cli_main, ["build", str(theme), "-o", str(tmp_path / "deck.pdf")])
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    pair = r"'astronaut( turned)?' and 'astronaut( turned)?' look alike: they show the same picture"
    assert re.search(pair, result.stderr)  # named in the deck's order
    assert not (tmp_path / "deck.pdf").exists()


def test_a_pairs_matches_are_kept_and_not_measured_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PRINTDECK_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("PRINTDECK_NO_CACHE", raising=False)
    photos = _photos(tmp_path)
    first = [photos["astronaut"], photos["astronaut closer"], photos["coffee"]]
    theme = printdeck.load_symbols(_theme(first, tmp_path), base_dir=tmp_path)
    assert len(printdeck.look_alikes(theme)) == 1
    calls: list[int] = []
    real = same_photos.shared_scene

    def counted(a: object, b: object) -> object:
        calls.append(1)
        return real(a, b)  # type: ignore[arg-type]

    monkeypatch.setattr(same_photos, "shared_scene", counted)
    more = printdeck.load_symbols(_theme([*first, photos["rocket"]], tmp_path), base_dir=tmp_path)
    assert len(printdeck.look_alikes(more)) == 1
    assert len(calls) == 3  # only the rocket's three new pairs


def test_one_picture_is_said_alike_as_printed_whatever_else_is_asked(tmp_path: Path) -> None:
    """A grey deck's check asks how pairs look in grey too: two photos of one picture are
    said alike as printed (a refusal), not as a warning about grey only."""
    photos = _photos(tmp_path)
    theme = printdeck.load_symbols(
        _theme([photos["astronaut"], photos["astronaut turned"]], tmp_path), base_dir=tmp_path
    )
    pairs = look_alikes_of(theme, None, (Vision.GREY, Vision.NORMAL))
    assert [p.vision for p in pairs] == [Vision.NORMAL]
    assert [p.vision for p in look_alikes_of(theme, None, (Vision.GREY,))] == [Vision.GREY]  # only grey asked


def test_one_picture_alike_in_grey_by_its_pixels_is_still_one_picture(tmp_path: Path) -> None:
    """A red and green photo and a closer crop of it: the pixel comparison at the best pose
    finds them alike only in grey (a warning), but they are one picture (a refusal), and the
    studio's notes, which ask for every vision, must say so."""
    rng = np.random.default_rng(1)
    blobs = np.asarray(Image.fromarray((rng.random((12, 16)) > 0.5).astype(np.uint8) * 255).resize((640, 480)))
    texture = np.asarray(Image.fromarray(data.camera()).resize((640, 480))).astype(float) / 255
    colour = np.where(blobs[..., None] > 127, np.array([200, 60, 40]), np.array([90, 140, 40]))
    pixels = (colour * (0.55 + 0.45 * texture[..., None])).clip(0, 255).astype(np.uint8)
    photos = [_save(pixels, tmp_path / "rg.jpg"), _save(_zoomed(pixels, 1.15, (20, 10)), tmp_path / "rg-closer.jpg")]
    theme = printdeck.load_symbols({"symbols": [{"photo": p.name} for p in photos]}, base_dir=tmp_path)
    for pairs in (printdeck.look_alikes(theme), printdeck.look_alikes(theme, colour_blind=True)):
        assert [(p.vision, p.same_picture >= SAME_PICTURE_INLIERS) for p in pairs] == [(Vision.NORMAL, True)]


def _on_a_wall(path: Path, face: tuple[int, int, int], body: tuple[int, int, int]) -> Path:
    """A phone photo of a small figure before a light wall that fills most of the disc."""
    from PIL import ImageDraw

    image = Image.new("RGB", (600, 800))
    draw = ImageDraw.Draw(image)
    for y in range(800):
        draw.line([(0, y), (600, y)], fill=(226 - y // 40, 228 - y // 40, 236 - y // 40))
    draw.ellipse((240, 300, 360, 420), fill=face)
    draw.rectangle((230, 420, 370, 560), fill=body)
    image.save(path, quality=92)
    return path


def test_two_photos_on_one_light_wall_are_not_alike_in_grey(tmp_path: Path) -> None:
    """A child and a dog before the same light wall were said to look alike printed in grey
    (CIEDE2000 4.9: the disc is mostly wall), on every check and on the studio's tiles. Two
    photos are said alike in grey or for colour-blind players only when they show one picture."""
    child = _on_a_wall(tmp_path / "child.jpg", (235, 190, 160), (200, 60, 60))
    dog = _on_a_wall(tmp_path / "dog.jpg", (120, 90, 60), (90, 150, 90))
    theme = printdeck.load_theme(_theme([child, dog], tmp_path), base_dir=tmp_path)
    assert printdeck.look_alikes(theme, colour_blind=True) == []
    photos = _photos(tmp_path / "more")
    copies = [photos["astronaut"], photos["astronaut closer"], photos["coffee"]]
    theme = printdeck.load_theme(_theme(copies, tmp_path / "more"), base_dir=tmp_path / "more")
    assert [p.same_picture > 0 for p in printdeck.look_alikes(theme, colour_blind=True)] == [True]  # one picture


def test_cut_out_photos_alike_in_grey_are_still_said(tmp_path: Path) -> None:
    """A photo cut out of its background prints its own outline, not a disc: a red and an
    olive triangle of one grey are alike printed in grey, photos or not."""
    from PIL import ImageDraw

    names = []
    for name, colour in (("red", (200, 60, 50)), ("olive", (110, 110, 40))):
        image = Image.new("RGB", (600, 600), (255, 255, 255))
        ImageDraw.Draw(image).polygon([(300, 80), (540, 520), (60, 520)], fill=colour)
        image.save(tmp_path / f"{name}.jpg", quality=95)
        names.append(name)
    theme = printdeck.load_theme(
        {"symbols": [{"photo": f"{n}.jpg", "remove_background": True} for n in names] + WORDS}, base_dir=tmp_path
    )
    pairs = printdeck.look_alikes(theme, colour_blind=True)
    assert [(p.first, p.second, p.vision) for p in pairs] == [("red", "olive", Vision.GREY)], pairs
