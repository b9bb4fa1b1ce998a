"""Photo crops that keep the subject: cats, objects, people (issue #26), checked in print.

Photos are made from public-domain pictures that ship with scikit-image (the cat
``chelsea``, the astronaut, ``coffee``, ``rocket``) pasted off-centre into large, busy
frames (a brick or grass texture with sensor noise) and stored as a phone stores them:
JPEG turned by an EXIF orientation, HEIC. A deck of them is built, its PDF rasterised
(pypdfium2), and on every card the printed crop is located in the photo by template
matching (OpenCV's normalised cross-correlation, independent of printdeck's code):
every face and subject's hand-labelled box must lie inside the printed circle or
rounded square. Photos with no subject (a gradient, noise) must print the centred crop
and be reported as such.
"""

from __future__ import annotations

import functools
import json
import math
import zlib
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import pillow_heif
import pypdfium2
import pytest
import skimage.data
from PIL import Image, ImageOps

import printdeck
from printdeck.artwork.crop_geometry import FaceBox, crop_window
from printdeck.artwork.framing import AUTO_ZOOM_MAX, decide_crop
from printdeck.artwork.saliency import find_subject
from printdeck.build_result import crop_lines
from printdeck.model import CropFound

CORNER = 0.15  # the rounded crop's corner radius, a fraction of its side
FRAME = (1500, 1000)  # landscape frame, pixels (portrait frames are its transpose)
DPI = 200.0

# Hand-labelled boxes in each source picture's pixels (x0, y0, x1, y1).
SOURCES = {
    "cat": ("chelsea", (80.0, 50.0, 380.0, 290.0)),  # the cat's face, cheek to cheek, brow to chin
    "astronaut": ("astronaut", (180.0, 75.0, 272.0, 178.0)),  # her face
    "coffee": ("coffee", (170.0, 15.0, 425.0, 310.0)),  # the cup and its spoon
    "rocket": ("rocket", (300.0, 125.0, 345.0, 410.0)),  # the rocket
}


@dataclass(frozen=True)
class Photo:
    name: str
    source: str  # a key of SOURCES, or "gradient" / "noise"
    shape: str
    where: tuple[float, float]  # the picture's top-left, as fractions of the free room
    scale: float  # the picture's longest side over the frame's shortest
    store: str  # "jpeg", "exif6", "exif8", "exif3", "heic"
    portrait: bool = False
    background: str = "brick"


PHOTOS = [
    Photo("cat-left", "cat", "circle", (0.1, 0.5), 0.7, "exif6"),
    Photo("cat-right", "cat", "rounded", (0.92, 0.3), 0.6, "heic", background="grass"),
    Photo("cat-top", "cat", "circle", (0.5, 0.12), 0.55, "jpeg", portrait=True),
    Photo("coffee-left", "coffee", "rounded", (0.05, 0.6), 0.65, "exif8"),
    Photo("coffee-right", "coffee", "circle", (0.95, 0.45), 0.6, "jpeg", background="grass"),
    Photo("rocket-right", "rocket", "circle", (0.9, 0.5), 0.6, "exif3"),
    Photo("rocket-bottom", "rocket", "rounded", (0.4, 0.9), 0.6, "heic", portrait=True),
    Photo("astronaut-left", "astronaut", "circle", (0.02, 0.5), 0.6, "jpeg", background="grass"),
    Photo("astronaut-right", "astronaut", "rounded", (0.95, 0.2), 0.55, "exif6"),
    Photo("gradient", "gradient", "circle", (0, 0), 0, "jpeg"),
    Photo("noise", "noise", "rounded", (0, 0), 0, "exif6"),
    Photo("gradient-tall", "gradient", "rounded", (0, 0), 0, "jpeg", portrait=True),
    Photo("noise-tall", "noise", "circle", (0, 0), 0, "jpeg", portrait=True),
]


def _background(photo: Photo, size: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    w, h = size
    texture = skimage.data.brick() if photo.background == "brick" else skimage.data.grass()
    tex = np.asarray(Image.fromarray(texture).resize((w // 2, h // 2)).resize((w, h))).astype(float)
    tint = (0.6, 0.5, 0.4) if photo.background == "brick" else (0.4, 0.7, 0.3)
    frame = np.stack([tex * t + 40 for t in tint], axis=-1)
    return frame + rng.normal(0, 8, frame.shape)


def make_scene(photo: Photo) -> tuple[np.ndarray, tuple[float, float, float, float] | None]:
    """The upright photo ``(H, W, 3) uint8`` and its subject's true box (None: no subject)."""
    rng = np.random.default_rng(zlib.crc32(photo.name.encode()))
    w, h = FRAME[::-1] if photo.portrait else FRAME
    yy, xx = np.mgrid[0:h, 0:w]
    if photo.source == "gradient":
        pixels = np.stack([xx / w * 200 + 30, yy / h * 180 + 40, (xx + yy) / (w + h) * 120 + 60], axis=-1)
        return np.clip(pixels, 0, 255).astype(np.uint8), None
    if photo.source == "noise":
        return rng.integers(0, 256, (h, w, 3), dtype=np.uint8), None
    name, box = SOURCES[photo.source]
    source = getattr(skimage.data, name)()
    scale = photo.scale * min(w, h) / max(source.shape[:2])
    pw, ph = round(source.shape[1] * scale), round(source.shape[0] * scale)
    picture = np.asarray(Image.fromarray(source).resize((pw, ph), Image.Resampling.LANCZOS))
    x, y = round(photo.where[0] * (w - pw)), round(photo.where[1] * (h - ph))
    frame = _background(photo, (w, h), rng)
    frame[y : y + ph, x : x + pw] = picture
    pixels = np.clip(frame, 0, 255).astype(np.uint8)
    return pixels, (x + box[0] * scale, y + box[1] * scale, x + box[2] * scale, y + box[3] * scale)


def store(photo: Photo, pixels: np.ndarray, folder: Path) -> Path:
    """Save as a phone would: sideways with an EXIF turn, or HEIC."""
    image = Image.fromarray(pixels)
    if photo.store == "heic":
        pillow_heif.register_heif_opener()
        path = folder / f"{photo.name}.heic"
        image.save(path, quality=92)
        return path
    exif = Image.Exif()
    turns = {"exif6": (Image.Transpose.ROTATE_90, 6), "exif8": (Image.Transpose.ROTATE_270, 8)}
    turns["exif3"] = (Image.Transpose.ROTATE_180, 3)
    if photo.store in turns:
        transpose, tag = turns[photo.store]
        image = image.transpose(transpose)
        exif[0x0112] = tag
    path = folder / f"{photo.name}.jpg"
    image.save(path, quality=92, exif=exif)
    return path


@functools.cache
def built(tmp: Path) -> tuple[dict, Path, dict[str, tuple[np.ndarray, object]], list[str]]:
    folder = tmp / "deck"
    (folder / "photos").mkdir(parents=True)
    truth = {}
    entries = []
    for photo in PHOTOS:
        pixels, box = make_scene(photo)
        path = store(photo, pixels, folder / "photos")
        stored = ImageOps.exif_transpose(Image.open(path)).convert("RGB")  # what a viewer shows
        truth[photo.name] = (np.asarray(stored), box)
        entries.append(f"  - photo: photos/{path.name}\n    name: {photo.name}\n    shape: {photo.shape}\n")
    (folder / "theme.yaml").write_text(
        # allow_look_alike: several photos show one source picture (crops of the same cat),
        # which the same-picture check refuses; these photos test where crops fall
        "name: subjects\nseed: 3\ndeck:\n  symbols_per_card: 4\n  allow_look_alike: true\ncard:\n  diameter: 80mm\n"
        "symbols:\n" + "".join(entries),
        encoding="utf-8",
    )
    out = tmp / "subjects.pdf"
    result = printdeck.build(folder / "theme.yaml", out)
    manifest = json.loads(out.with_suffix(".json").read_text(encoding="utf-8"))
    return manifest, out, truth, result.summary_lines()


@pytest.fixture(scope="module")
def deck(tmp_path_factory):
    return built(tmp_path_factory.mktemp("subjects"))


def pages(pdf: Path) -> list[np.ndarray]:
    doc = pypdfium2.PdfDocument(str(pdf))
    try:
        return [np.asarray(doc[i].render(scale=DPI / 72.0).to_pil().convert("RGB")) for i in range(len(doc))]
    finally:
        doc.close()


def placements(manifest: dict, rendered: list[np.ndarray]):
    """Each photo placement: (symbol name, the placed square's pixels)."""
    names = {s["id"]: s["name"] for s in manifest["symbols"]}
    px = DPI / 25.4
    for card in manifest["cards"]:
        page = rendered[card["page"] - 1]
        for p in card["symbols"]:
            assert abs(p["rotation_deg"]) < 1e-6, "photos stay upright"
            cx = (card["center_mm"][0] + p["center_mm"][0]) * px
            cy = page.shape[0] - (card["center_mm"][1] + p["center_mm"][1]) * px
            half = p["box_mm"][0] * px / 2
            square = page[round(cy - half) : round(cy + half), round(cx - half) : round(cx + half)]
            yield names[p["id"]], square


def locate(photo: np.ndarray, square: np.ndarray) -> tuple[float, float, float, float]:
    """Where in ``photo`` the printed ``square`` comes from: (left, top, side, score),
    by normalised cross-correlation of its middle (inside any crop shape) over scales."""
    gray = cv2.cvtColor(photo, cv2.COLOR_RGB2GRAY)
    printed = cv2.cvtColor(np.ascontiguousarray(square), cv2.COLOR_RGB2GRAY)
    n = printed.shape[0]
    inner = printed[round(0.25 * n) : round(0.75 * n), round(0.25 * n) : round(0.75 * n)]
    best = (0.0, 0.0, 0.0, -1.0)
    shortest = min(gray.shape)
    for side in np.geomspace(shortest / 3.3, shortest, 48):
        k = n / side  # printed pixels per photo pixel
        small = cv2.resize(gray, (round(gray.shape[1] * k), round(gray.shape[0] * k)), interpolation=cv2.INTER_AREA)
        if small.shape[0] < inner.shape[0] or small.shape[1] < inner.shape[1]:
            continue
        scores = cv2.matchTemplate(small, inner, cv2.TM_CCOEFF_NORMED)
        _, score, _, (x, y) = cv2.minMaxLoc(scores)
        if score > best[3]:
            best = ((x - 0.25 * n) / k, (y - 0.25 * n) / k, side, score)
    return best


def inside(box, left: float, top: float, side: float, shape: str, tol: float) -> bool:
    """Whether the four corners of ``box`` are inside the crop's shape (``tol`` pixels of slack)."""
    r = side / 2
    cx, cy = left + r, top + r
    for x in (box[0], box[2]):
        for y in (box[1], box[3]):
            dx, dy = abs(x - cx), abs(y - cy)
            if shape == "circle":
                if math.hypot(dx, dy) > r + tol:
                    return False
            else:
                rr = CORNER * side
                if dx > r + tol or dy > r + tol:
                    return False
                ex, ey = max(dx - (r - rr), 0), max(dy - (r - rr), 0)
                if math.hypot(ex, ey) > rr + tol:
                    return False
    return True


def test_every_subject_prints_whole_on_every_card(deck) -> None:
    manifest, pdf, truth, _ = deck
    shapes = {p.name: p.shape for p in PHOTOS}
    seen: dict[str, int] = {}
    located: dict[str, tuple[float, float, float]] = {}
    printed = list(placements(manifest, pages(pdf)))
    largest = dict(sorted(printed, key=lambda item: item[1].shape[0]))  # each name's largest print
    for name, _square in printed:
        photo, box = truth[name]
        seen[name] = seen.get(name, 0) + 1
        if box is None:  # no subject: checked by its printed colours below
            continue
        if name not in located:  # found where it prints largest: the scale search is finest there
            left, top, side, score = locate(photo, largest[name])
            assert score > 0.8, f"{name}: the printed photo was not found in the photo ({score:.2f})"
            located[name] = (left, top, side)
        left, top, side = located[name]
        assert inside(box, left, top, side, shapes[name], tol=0.01 * side), (
            f"{name}: the subject {box} is cut by the printed crop {(left, top, side)}"
        )
    assert set(seen) == {p.name for p in PHOTOS}
    # The printed crop is the one the manifest reports, to the scale search's step (2.5 %).
    for entry in manifest["symbols"]:
        if entry["name"] not in located:
            continue
        left, top, side = located[entry["name"]]
        x0, y0, x1, _ = entry["crop"]["box_px"]
        assert abs(x1 - x0 - side) < 0.03 * side and abs(x0 - left) < 0.03 * side and abs(y0 - top) < 0.03 * side, (
            f"{entry['name']}: printed crop {(left, top, side)}, manifest {entry['crop']['box_px']}"
        )


def test_what_was_found_is_reported(deck) -> None:
    manifest, _, truth, summary = deck
    found = {s["name"]: s["crop"] for s in manifest["symbols"]}
    for photo in PHOTOS:
        crop = found[photo.name]
        if photo.source in ("gradient", "noise"):
            h, w = truth[photo.name][0].shape[:2]
            side = min(w, h)
            assert crop["found"] == "nothing" and crop["check"] is True
            assert crop["box_px"] == pytest.approx([(w - side) / 2, (h - side) / 2, (w + side) / 2, (h + side) / 2])
        elif photo.source == "astronaut":
            assert crop["found"] == "face" and crop["faces_kept"] == crop["faces"] >= 1
        elif photo.source == "cat" and crop["faces_kept"]:
            # OpenCV's frontal cascade can take chelsea's face for a person's: on cat-right's own
            # pixels it does, and one grey level of noise on its 512-pixel copy turns that on and
            # off. Then the crop is said to hold a face, and it must hold the whole cat as well.
            assert crop["found"] == "face" and crop["subject_px"] is not None and crop["subject_whole"]
        else:
            assert crop["found"] == "subject" and crop["subject_px"] is not None
    assert any(line.startswith("photos cropped around: ") for line in summary)
    check = next(line for line in summary if line.startswith("check "))
    for name in ("gradient", "noise", "gradient-tall", "noise-tall"):
        assert name in check


def test_a_gradient_prints_its_centre(deck) -> None:
    """The gradient's colour at each point names the point: the printed square's middle
    shows the photo's middle on every card."""
    manifest, pdf, truth, _ = deck
    checked = 0
    for name, square in placements(manifest, pages(pdf)):
        if not name.startswith("gradient"):
            continue
        photo = truth[name][0].astype(float)
        h, w = photo.shape[:2]
        n = square.shape[0]
        printed = square[n // 2 - 2 : n // 2 + 3, n // 2 - 2 : n // 2 + 3].reshape(-1, 3).mean(axis=0)
        middle = photo[h // 2 - 5 : h // 2 + 6, w // 2 - 5 : w // 2 + 6].reshape(-1, 3).mean(axis=0)
        assert np.abs(printed - middle).max() < 8, (name, printed, middle)
        checked += 1
    assert checked >= 2


def test_no_subject_in_flat_or_noisy_pictures() -> None:
    rng = np.random.default_rng(5)
    h, w = 600, 900
    yy, xx = np.mgrid[0:h, 0:w]
    flat = np.full((h, w, 3), 128, np.uint8)
    gradient = np.stack([xx / w * 255, yy / h * 255, np.full((h, w), 90)], axis=-1).astype(np.uint8)
    noise = rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
    grass = np.repeat(np.asarray(Image.fromarray(skimage.data.grass()).resize((w, h)))[..., None], 3, axis=2)
    for pixels in (flat, gradient, noise, grass):
        assert find_subject(pixels) is None
        window, report = decide_crop((w, h), [], [], None, None, 1.0, "circle")
        assert report.found == CropFound.NOTHING and report.needs_check and report.badge == "centre: check me"
        assert window == crop_window((w, h), [])


def test_a_group_too_wide_keeps_its_largest_group_and_says_so() -> None:
    # Four faces in a row across a wide photo: a crop holds three of them, never all four.
    faces = [FaceBox(60 + 260 * i, 300, 160 + 260 * i, 420) for i in range(4)]
    for shape in ("circle", "rounded"):
        window, report = decide_crop((1100, 700), faces, [], None, None, 1.0, shape)
        assert report.found == CropFound.FACE and report.faces == 4 and report.faces_kept == 3
        assert report.faces_cut == 1 and report.needs_check and report.badge == "face: check me"
        # Greedy by size would keep the big lone face on the right; the largest group wins.
    lone = FaceBox(900, 300, 990, 420)
    pack = [FaceBox(40 + 90 * i, 320, 110 + 90 * i, 400) for i in range(3)]
    window, report = decide_crop((1100, 700), [lone] + pack, [], None, None, 1.0, "circle")
    assert report.faces_kept == 3 and window.cx < 550


def test_a_persons_face_the_cat_cascade_sees_too_counts_once() -> None:
    faces = [FaceBox(60 + 260 * i, 300, 160 + 260 * i, 420) for i in range(4)]
    echo = FaceBox(70, 310, 150, 410)  # the cat cascade on the first person's face
    _, report = decide_crop((1100, 700), faces, [echo], None, None, 1.0, "circle")
    assert (report.faces, report.cat_faces, report.faces_kept) == (4, 0, 3)
    assert report.faces_cut_text == "3 of 4 faces fit the crop, the largest group that does"
    _, alone = decide_crop((1100, 700), faces[:1], [FaceBox(900, 300, 1000, 420)], None, None, 1.0, "circle")
    assert alone.cat_faces == 1  # a cat beside a person is a cat


def test_a_cut_face_is_said_as_many_faces_as_there_are() -> None:
    edge = FaceBox(0, 280, 260, 560)  # one face at the left edge of a wide photo, larger than the crop holds
    _, report = decide_crop((1100, 700), [edge], [], None, None, 2.5, "circle")
    assert report.faces_cut == 1, report
    assert report.faces_cut_text == "its face is too near the edge for the crop to hold it whole"
    line = crop_lines([("me.jpg", report)])[-1]
    assert line == f"photo me.jpg: {report.faces_cut_text}; set its focus and zoom to frame it"


def test_a_face_near_a_corner_is_held_by_a_crop_that_reaches_it() -> None:
    """A child's face at a quarter of a portrait photo's width and height: the widest circle
    could not hold it with its hair and chin, so the crop was the top square, the face small
    at its rim, and the build said "its face is too near the edge". A smaller crop reaches
    into the corner and holds it; a face whose padding runs past the corner is held bare."""
    size = (384, 512)
    for face in (FaceBox(45, 79, 159, 193), FaceBox(212, 302, 351, 441)):
        window, report = decide_crop(size, [face], [], None, None, 1.0, "circle")
        assert (report.faces, report.faces_kept, report.faces_cut, report.needs_check) == (1, 1, 0, False), report
        corners = ((face.x0, face.y0), (face.x1, face.y0), (face.x0, face.y1), (face.x1, face.y1))
        assert all(math.dist(c, (window.cx, window.cy)) <= window.side / 2 + 1e-6 for c in corners)
        assert window.x0 >= 0 and window.x1 <= size[0] and window.y0 >= 0 and window.y1 <= size[1]
        assert window.side < min(size)  # zoomed in towards the face, not the widest square
        assert window.side >= min(size) / AUTO_ZOOM_MAX - 1e-6  # never closer than the theme's zoom allows


def test_cat_faces_count_as_pets() -> None:
    cat = FaceBox(600, 200, 760, 340)
    window, report = decide_crop((1200, 800), [], [cat], None, None, 1.0, "rounded")
    assert report.found == CropFound.CAT_FACE and report.badge == "pet" and not report.needs_check
    assert window.x0 <= cat.x0 and window.x1 >= cat.x1 and window.side < 800  # zoomed in, the face kept


def test_without_opencv_contrib_crops_keep_faces_and_warn(tmp_path, monkeypatch) -> None:
    """The plain OpenCV wheel installed over the contrib one has no saliency module: the
    build goes on (faces are still kept) and says once why subjects are not."""
    from printdeck.artwork import framing
    from printdeck.model import SymbolSpec

    def missing(rgb):
        raise ImportError("subject detection needs OpenCV contrib: pip install 'opencv-contrib-python-headless<5'")

    monkeypatch.setattr(framing, "subject_boxes", missing)
    framing._warn_once.cache_clear()
    pixels, _ = make_scene(PHOTOS[7])  # the astronaut
    path = tmp_path / "astronaut.jpg"
    Image.fromarray(pixels).save(path, quality=90)
    symbol = SymbolSpec(id=0, name="astronaut", kind="photo", source="astronaut.jpg", path=path, photo_shape="circle")
    with pytest.warns(RuntimeWarning, match="opencv-contrib-python-headless.*faces only"):
        _, report = framing.photo_framing(symbol, (pixels.shape[1], pixels.shape[0]))
    assert report.found == CropFound.FACE and report.subject_px is None
