"""Face-keeping photo crops (printdeck.artwork.faces, issue #14).

Detection runs on real photographs that scikit-image ships (the astronaut Eileen
Collins, the cameraman in profile, and faces of its Labeled Faces in the Wild
subset), pasted off-centre into larger 3:2 and 2:3 frames. The crop geometry is
checked here independently of the code: corners of boxes against the circle or the
rounded square (corner radius 0.15 x side) drawn from the returned centre and side.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np
import pytest
import skimage.data
from hypothesis import HealthCheck, given, settings, strategies as st
from PIL import Image, ImageDraw

from printdeck.artwork import faces as F
from printdeck.artwork.faces import (
    CropWindow,
    FaceBox,
    crop_window,
    face_crop,
    find_faces,
)

CORNER = 0.15  # the rounded square's corner radius, as a fraction of its side


# ----------------------------------------------------------------- independent geometry


def holds(win: CropWindow, shape: str, box: tuple[float, float, float, float], tol: float = 0.0) -> bool:
    """Whether the crop's shape holds the four corners of ``box`` (``tol`` > 0 lenient, < 0 strict)."""
    cx, cy, side = win
    r = side / 2.0
    for x in (box[0], box[2]):
        for y in (box[1], box[3]):
            dx, dy = abs(x - cx), abs(y - cy)
            if shape == "circle":
                if math.hypot(dx, dy) > r + tol:
                    return False
            else:
                if dx > r + tol or dy > r + tol:
                    return False
                rr = CORNER * side
                ex, ey = max(dx - (r - rr), 0.0), max(dy - (r - rr), 0.0)
                if ex > 0 and ey > 0 and math.hypot(ex, ey) > rr + tol:
                    return False
    return True


def holds_many(cx: np.ndarray, cy: np.ndarray, side: float, shape: str, box) -> np.ndarray:
    """Vectorised :func:`holds` with a strict margin of 1e-3 of the side, for arrays of centres."""
    r, tol = side / 2.0, -1e-3 * side
    ok = np.ones(np.broadcast(cx, cy).shape, bool)
    for x in (box[0], box[2]):
        for y in (box[1], box[3]):
            dx, dy = np.abs(x - cx), np.abs(y - cy)
            if shape == "circle":
                ok &= np.hypot(dx, dy) <= r + tol
            else:
                rr = CORNER * side
                ok &= (dx <= r + tol) & (dy <= r + tol)
                ok &= np.hypot(np.maximum(dx - (r - rr), 0), np.maximum(dy - (r - rr), 0)) <= rr + tol
    return ok


def padded(face, w: float, h: float) -> tuple[float, float, float, float]:
    """The face box grown by the documented margins, clipped to the image."""
    fw, fh = face[2] - face[0], face[3] - face[1]
    return (
        max(0.0, face[0] - F.PAD_SIDE * fw),
        max(0.0, face[1] - F.PAD_TOP * fh),
        min(w, face[2] + F.PAD_SIDE * fw),
        min(h, face[3] + F.PAD_BOTTOM * fh),
    )


def inside_image(win: CropWindow, w: float, h: float) -> bool:
    eps = 1e-9 * max(w, h)
    return (
        win.cx - win.side / 2 >= -eps
        and win.cy - win.side / 2 >= -eps
        and win.cx + win.side / 2 <= w + eps
        and win.cy + win.side / 2 <= h + eps
    )


def centred(w: float, h: float, zoom: float = 1.0) -> CropWindow:
    return CropWindow(w / 2, h / 2, min(w, h) / zoom)


def overlap(a, b) -> float:
    """Intersection over the smaller box's area."""
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    return ix * iy / min((a[2] - a[0]) * (a[3] - a[1]), (b[2] - b[0]) * (b[3] - b[1]))


# ----------------------------------------------------------------- the photographs


def _rgb(gray: np.ndarray) -> np.ndarray:
    return np.repeat(gray[..., None], 3, axis=2)


@functools.cache
def _sources() -> dict[str, tuple[np.ndarray, tuple[tuple[float, float, float, float], ...]]]:
    """Each photo and its faces labelled by hand (brows or hairline to chin, cheek to cheek)."""
    lfw = skimage.data.lfw_subset()  # 200 x 25 x 25 floats: the first 100 are faces
    trio = np.full((160, 460), 128, np.uint8)  # three faces in a row, a "group photo"
    truth = []
    for i, k in enumerate((3, 11, 27)):
        tile = Image.fromarray((lfw[k] * 255).astype(np.uint8)).resize((100, 100), Image.Resampling.BICUBIC)
        trio[30:130, 50 + 120 * i : 150 + 120 * i] = np.asarray(tile)
        truth.append((65.0 + 120 * i, 45.0, 135.0 + 120 * i, 120.0))
    return {
        "astronaut": (skimage.data.astronaut(), ((180.0, 75.0, 272.0, 178.0),)),
        "camera": (_rgb(skimage.data.camera()), ((178.0, 120.0, 254.0, 200.0),)),
        # Mirrored, he faces left: found by the profile cascade on the image itself.
        "camera-mirrored": (_rgb(skimage.data.camera()[:, ::-1]), ((512 - 254.0, 120.0, 512 - 178.0, 200.0),)),
        "lfw-trio": (_rgb(trio), tuple(truth)),
    }


@dataclass(frozen=True)
class Case:
    photo: str
    size: tuple[int, int]  # canvas (W, H)
    background: str  # plain or noise
    scale: float
    where: str  # left, right, top, bottom
    shape: str

    @property
    def id(self) -> str:
        return f"{self.photo}-{self.size[0]}x{self.size[1]}-{self.background}-{self.scale}-{self.where}-{self.shape}"


CASES = [
    Case("astronaut", (510, 340), "plain", 0.5, "left", "circle"),
    Case("astronaut", (510, 340), "noise", 0.6, "right", "rounded"),
    Case("astronaut", (340, 510), "noise", 0.5, "top", "circle"),
    Case("astronaut", (1200, 800), "noise", 1.2, "right", "circle"),
    Case("camera", (510, 340), "noise", 0.6, "left", "circle"),
    Case("camera", (510, 340), "plain", 0.5, "right", "rounded"),
    Case("camera", (340, 510), "plain", 0.6, "bottom", "rounded"),
    Case("camera-mirrored", (510, 340), "noise", 0.5, "right", "circle"),
    Case("lfw-trio", (900, 600), "noise", 1.2, "left", "circle"),
    Case("lfw-trio", (600, 900), "plain", 1.0, "top", "rounded"),
]


@functools.cache
def scene(case: Case) -> tuple[np.ndarray, tuple[tuple[float, float, float, float], ...]]:
    """The canvas with the photo pasted against one edge, and its faces' true boxes on it."""
    photo, truth = _sources()[case.photo]
    w, h = case.size
    if case.background == "plain":
        canvas = np.empty((h, w, 3), np.uint8)
        canvas[:] = (214, 206, 190)
    else:
        canvas = np.random.default_rng(14).integers(0, 256, (h, w, 3), dtype=np.uint8)
    pw, ph = round(photo.shape[1] * case.scale), round(photo.shape[0] * case.scale)
    small = np.asarray(Image.fromarray(photo).resize((pw, ph), Image.Resampling.LANCZOS))
    x = {"left": 0, "right": w - pw}.get(case.where, (w - pw) // 2)
    y = {"top": 0, "bottom": h - ph}.get(case.where, (h - ph) // 2)
    canvas[y : y + ph, x : x + pw] = small
    s = pw / photo.shape[1]
    return canvas, tuple((x + a * s, y + b * s, x + c * s, y + d * s) for a, b, c, d in truth)


@functools.cache
def detected(case: Case) -> tuple[FaceBox, ...]:
    return tuple(find_faces(scene(case)[0]))


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_every_face_is_found_and_kept_inside_the_crop(case: Case) -> None:
    rgb, truth = scene(case)
    found = detected(case)
    assert len(found) == len(truth), f"found {found}, expected {len(truth)} faces"
    for t in truth:  # each true face is matched by a detection
        assert max(overlap(t, f) for f in found) > 0.5
    w, h = case.size
    win = face_crop(rgb, None, 1.0, case.shape)
    assert win.side == pytest.approx(min(w, h))
    assert inside_image(win, w, h)
    for f in found:
        assert holds(win, case.shape, padded(f, w, h), tol=1e-6 * win.side), f
    for t in truth:
        assert holds(win, case.shape, t, tol=1e-6 * win.side), t


def test_the_centred_crop_would_have_cut_faces() -> None:
    """The cases matter: a centred crop loses a face in most of them; the margins are as documented."""
    assert F.PAD_TOP > F.PAD_BOTTOM > 0 and F.PAD_SIDE > 0
    cut = [c.id for c in CASES if not all(holds(centred(*c.size), c.shape, t) for t in scene(c)[1])]
    assert len(cut) >= len(CASES) // 2, cut


def test_grayscale_and_rgba_photos_after_conversion() -> None:
    gray = skimage.data.camera()
    as_rgb = np.asarray(Image.fromarray(gray).convert("RGB"))
    assert len(find_faces(as_rgb)) == 1
    # A cut-out on a transparent 3:2 canvas, flattened over white by the caller.
    rgba = Image.new("RGBA", (768, 512), (0, 0, 0, 0))
    rgba.paste(Image.fromarray(skimage.data.astronaut()), (256, 0))
    flat = Image.new("RGB", rgba.size, "white")
    flat.paste(rgba, mask=rgba.getchannel("A"))
    assert [f.x0 > 256 for f in find_faces(np.asarray(flat))] == [True]
    for wrong in (gray, np.asarray(rgba), as_rgb.astype(np.float32)):
        with pytest.raises(ValueError, match="RGB"):
            find_faces(wrong)


def _gradient(w: int = 600, h: int = 400) -> np.ndarray:
    x = np.linspace(0, 255, w)[None, :, None]
    y = np.linspace(0, 255, h)[:, None, None]
    return np.concatenate(
        [np.broadcast_to(x, (h, w, 1)), np.broadcast_to(y, (h, w, 1)), np.broadcast_to((x + y) / 2, (h, w, 1))], axis=2
    ).astype(np.uint8)


def _shapes(w: int = 600, h: int = 400) -> np.ndarray:
    im = Image.new("RGB", (w, h), "white")
    draw = ImageDraw.Draw(im)
    draw.ellipse((60, 80, 260, 280), fill="black")
    draw.rectangle((340, 120, 520, 300), fill=(200, 30, 30))
    draw.ellipse((120, 140, 150, 170), fill="white")
    draw.ellipse((170, 140, 200, 170), fill="white")
    return np.asarray(im)


@pytest.mark.parametrize(
    "make", [_gradient, _shapes, lambda: skimage.data.chelsea()], ids=["gradient", "shapes", "cat"]
)
def test_no_face_gives_the_centred_crop(make) -> None:
    rgb = make()
    h, w = rgb.shape[:2]
    assert find_faces(rgb) == []
    assert face_crop(rgb, None, 2.0, "rounded") == centred(w, h, 2.0)
    for shape in ("circle", "rounded"):
        assert crop_window((w, h), [], None, 1.0, shape) == centred(w, h)


# ----------------------------------------------------------------- focus, zoom, fallbacks


@pytest.mark.parametrize("shape", ["circle", "rounded"])
def test_focus_and_zoom(shape: str) -> None:
    face = [FaceBox(60, 150, 140, 240)]
    assert crop_window((600, 400), face, (0.5, 0.5), 1.0, shape) == CropWindow(300, 200, 400)
    assert crop_window((600, 400), face, (0.25, 0.5), 2.0, shape) == CropWindow(150, 200, 200)
    assert crop_window((600, 400), [], (0.5, 0.3), 2.0, shape) == CropWindow(300, 120, 200)
    assert crop_window((600, 400), face, (0.0, 0.0), 2.0, shape) == CropWindow(100, 100, 200)
    assert crop_window((600, 400), face, (1.0, 1.0), 1.0, shape) == CropWindow(400, 200, 400)
    assert crop_window((400, 600), [], (0.8, 0.05), 4.0, shape) == CropWindow(320, 50, 100)
    assert crop_window((400, 600), [], (0.9, 0.05), 4.0, shape) == CropWindow(350, 50, 100)
    for zoom in (1.0, 2.0, 3.5):
        assert crop_window((600, 400), face, None, zoom, shape).side == pytest.approx(400 / zoom)
    tight = crop_window((600, 400), face, None, 2.0, shape)
    assert holds(tight, shape, padded(face[0], 600, 400), tol=1e-6)
    rgb = _gradient()
    assert face_crop(rgb, (0.1, 0.9), 2.0, shape) == CropWindow(100, 300, 200)


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="zoom"):
        crop_window((600, 400), [], None, 0.5, "circle")
    with pytest.raises(ValueError, match="focus"):
        crop_window((600, 400), [], (1.2, 0.5), 1.0, "circle")
    with pytest.raises(ValueError, match="shape"):
        crop_window((600, 400), [], None, 1.0, "square")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="size"):
        crop_window((0, 400), [], None, 1.0, "circle")


def test_the_largest_faces_win_when_not_all_fit() -> None:
    # A big face at the left and a small one at the far right: no crop holds both.
    big, small = FaceBox(120, 150, 280, 310), FaceBox(1100, 200, 1160, 260)
    for shape in ("circle", "rounded"):
        win = crop_window((1200, 800), [small, big], None, 2.0, shape)
        assert holds(win, shape, padded(big, 1200, 800), tol=1e-6)
        assert not holds(win, shape, padded(small, 1200, 800))
    # Two faces that fit together are both held, and a third that cannot is dropped.
    a, b, c = FaceBox(100, 200, 200, 300), FaceBox(260, 220, 330, 290), FaceBox(1150, 700, 1190, 740)
    win = crop_window((1200, 800), [c, a, b], None, 1.0, "circle")
    assert holds(win, "circle", padded(a, 1200, 800), 1e-6) and holds(win, "circle", padded(b, 1200, 800), 1e-6)


def test_a_face_bigger_than_the_crop_is_centred_on() -> None:
    huge = FaceBox(100, 50, 500, 650)  # taller than the 400-pixel crop
    win = crop_window((1200, 700), [FaceBox(900, 300, 960, 360), huge], None, 1.75, "circle")
    assert (win.cx, win.cy) == pytest.approx(huge.centre)
    edge = FaceBox(0, 100, 450, 700)  # and clamped inside the image
    assert crop_window((1200, 700), [edge], None, 1.0, "rounded") == CropWindow(350, 350, 700)


# ----------------------------------------------------------------- properties


@st.composite
def scenes(draw, n_faces: tuple[int, int] = (1, 1)):
    w = draw(st.integers(16, 3000))
    h = draw(st.integers(16, 3000))
    zoom = draw(st.sampled_from([1.0, 1.0, 1.25, 2.0])) if draw(st.booleans()) else draw(st.floats(1.0, 4.0))
    shape = draw(st.sampled_from(["circle", "rounded"]))
    faces = []
    for _ in range(draw(st.integers(*n_faces))):
        fw = draw(st.floats(0.02, 0.8)) * min(w, h)
        fh = fw * draw(st.floats(0.8, 1.3))
        x0 = draw(st.floats(0.0, 1.0)) * max(w - fw, 0.0)
        y0 = draw(st.floats(0.0, 1.0)) * max(h - fh, 0.0)
        faces.append(FaceBox(x0, y0, x0 + fw, y0 + fh))
    return w, h, zoom, shape, faces


def _candidates(w: float, h: float, side: float, n: int = 81) -> tuple[np.ndarray, np.ndarray]:
    """A grid of crop centres that keep the square inside the image."""
    r = side / 2
    xs = np.linspace(r, w - r, n) if w - side > 1e-9 else np.array([w / 2])
    ys = np.linspace(r, h - r, n) if h - side > 1e-9 else np.array([h / 2])
    gx, gy = np.meshgrid(xs, ys)
    return gx.ravel(), gy.ravel()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenes((0, 5)), st.none() | st.tuples(st.floats(0, 1), st.floats(0, 1)))
def test_the_crop_is_always_inside_and_of_the_asked_size(sc, focus) -> None:
    w, h, zoom, shape, faces = sc
    win = crop_window((w, h), faces, focus, zoom, shape)
    assert win.side == pytest.approx(min(w, h) / zoom, rel=1e-12)
    assert inside_image(win, w, h)
    if focus is not None:
        r = win.side / 2
        assert win.cx == pytest.approx(min(max(focus[0] * w, r), w - r))
        assert win.cy == pytest.approx(min(max(focus[1] * h, r), h - r))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenes((1, 1)))
def test_a_single_face_is_held_whenever_some_crop_can_hold_it(sc) -> None:
    w, h, zoom, shape, faces = sc
    win = crop_window((w, h), faces, None, zoom, shape)
    box = padded(faces[0], w, h)
    gx, gy = _candidates(w, h, win.side)
    # The padded face's own centre, clamped, is a candidate too.
    r = win.side / 2
    gx = np.append(gx, min(max((box[0] + box[2]) / 2, r), w - r))
    gy = np.append(gy, min(max((box[1] + box[3]) / 2, r), h - r))
    ok = holds_many(gx, gy, win.side, shape, box)
    if ok.any():
        assert holds(win, shape, box, tol=1e-6 * win.side)
        # ...at the valid position nearest the padded face's centre.
        tx, ty = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        best = np.hypot(gx[ok] - tx, gy[ok] - ty).min()
        assert math.hypot(win.cx - tx, win.cy - ty) <= best + 1e-3 * win.side
    elif not holds(win, shape, box, tol=1e-6 * win.side):
        # No crop holds it: centred on the face, as nearly as the image allows.
        fx, fy = faces[0].centre
        assert (win.cx, win.cy) == pytest.approx((min(max(fx, r), w - r), min(max(fy, r), h - r)))


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenes((2, 4)))
def test_all_faces_are_held_whenever_some_crop_can_hold_them_all(sc) -> None:
    w, h, zoom, shape, faces = sc
    win = crop_window((w, h), faces, None, zoom, shape)
    gx, gy = _candidates(w, h, win.side, 61)
    ok = np.ones(gx.shape, bool)
    for f in faces:
        ok &= holds_many(gx, gy, win.side, shape, padded(f, w, h))
    if ok.any():
        for f in faces:
            assert holds(win, shape, padded(f, w, h), tol=1e-6 * win.side)
