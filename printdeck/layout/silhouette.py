"""Silhouettes: each symbol's filled shape, traced once from its pixels and cached.

Coordinate convention (the *normalised box*): the symbol's whole box is
``aspect`` units wide and 1 unit tall, centred on the origin, x right, y up. A
placement with ``box_mm = (w, h)`` therefore maps a silhouette point ``(x, y)`` to
``center + rotate(h * (x, y), rotation_deg)`` in card mm.

Tracing: the box is rasterised with about :data:`TRACE_PIXELS` pixels (long side at
most :data:`TRACE_MAX_SIDE`); pixels with alpha above :data:`ALPHA_THRESHOLD` are ink
and are turned into polygons exactly (union of pixel row runs), so the silhouette
contains every inked pixel whole. The collision ``outline`` closes gaps narrower than
:data:`CLOSING_PIXELS` and fills holes smaller than :data:`HOLE_MIN_AREA`, is
simplified (Douglas-Peucker) and buffered outward by at least the simplification
tolerance, and is checked to contain the traced ink; it is what the layout keeps
apart, so it is conservative by one to three trace pixels.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from pathlib import Path

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

from printdeck.layout.artwork import alpha_array, natural_aspect, rasterise
from printdeck.layout.distfield import ShapeField, shape_field
from printdeck.model import SymbolSpec

TRACE_PIXELS = 256 * 256
TRACE_MAX_SIDE = 720
ALPHA_THRESHOLD = 8
CLOSING_PIXELS = 2
SIMPLIFY_PIXELS = 1.5
HOLE_MIN_AREA = 0.04     # holes of the collision outline at least this big (box units²) stay open
MIN_FILL = 0.16          # sizing treats a shape as filling at least this much of its (2 radius)² square
CACHE_VERSION = 9  # 9: text boxes are the drawn ink (see artwork.text_metrics)
INSCRIBED_TOLERANCE = 3e-3  # box units: how close to the largest inscribed disc the search gets


@dataclass(frozen=True)
class Silhouette:
    """A symbol's traced shape in normalised box units (see the module docstring).

    Attributes:
        aspect: Width over height of the whole box.
        shape: Traced ink (pixels with alpha > threshold), holes kept.
        outline: Collision shape: contains ``shape``; small holes filled, big ones
            (a ring's inside) kept; simplified.
        area: Ink area (area of ``shape``) in box units²; a placed symbol's size is
            ``h_mm * sqrt(area)`` mm.
        vertices: ``(V, 2) float`` vertices of every ring of ``outline``, in
            ``shapely.get_coordinates`` order (fast containment and radius checks).
        radius: Largest distance of an outline vertex from the box centre.
    """

    aspect: float
    shape: BaseGeometry
    outline: BaseGeometry
    area: float
    vertices: np.ndarray = field(repr=False)
    radius: float

    @cached_property
    def field(self) -> ShapeField:
        """Bounds of the distance to ``outline`` on a grid, and discs inside it (see
        :mod:`printdeck.layout.distfield`)."""
        return shape_field(self.outline)

    @cached_property
    def inscribed(self) -> tuple[complex, float]:
        """``(centre x + iy, radius)`` of a disc inside ``outline`` (box units), as big as
        found by GEOS's maximum inscribed circle (Garcia-Castellanos and Lombardo 2007,
        "Poles of inaccessibility"); radius 0 if none is found.

        The radius is the centre's exact distance to the outline's boundary, so the
        disc is inside the outline whatever the search's tolerance: any placement
        whose disc comes within the gap of another symbol is invalid.
        """
        centre = shapely.get_point(shapely.maximum_inscribed_circle(self.outline, INSCRIBED_TOLERANCE), 0)
        if not self.outline.contains(centre):
            return 0j, 0.0
        r = float(shapely.distance(centre, self.outline.boundary)) * (1.0 - 1e-9)
        return complex(centre.x, centre.y), r


def sizing_area(sil: Silhouette) -> float:
    """Area (box units²) the layout sizes a symbol by: its ink area, but at least
    :data:`MIN_FILL` of the square around its outline's circumscribed circle.

    Sizing by ink area makes thin or spindly artwork as big as compact artwork;
    the floor stops a long word or a hairline ring from growing a box wider than
    the card.
    """
    return max(sil.area, MIN_FILL * (2.0 * sil.radius) ** 2)


def ink_share(sil: Silhouette) -> float:
    """``sqrt(area / sizing_area)``: a symbol's ink size per unit of its target size.

    Below 1 for shapes sized by their outline (a long word, a hairline ring); the
    deck's balancer counts their slots smaller, so they get bigger slots more often.
    """
    return math.sqrt(sil.area / sizing_area(sil))


def silhouette(symbol: SymbolSpec) -> Silhouette:
    """Return the symbol's silhouette, traced once per artwork and cached.

    Cached in memory per (kind, file, mtime, word, font, crop shape) and, unless
    ``PRINTDECK_NO_CACHE`` is set, on disk under ``$PRINTDECK_CACHE_DIR`` (default
    ``~/.cache/printdeck/silhouettes``), keyed by the file's content hash.

    Raises:
        PrintdeckError: The artwork cannot be read, or draws nothing visible.
    """
    path = str(symbol.path) if symbol.path is not None else ""
    mtime = os.path.getmtime(path) if path and os.path.isfile(path) else 0.0
    return _cached(symbol.kind, path, mtime, symbol.text or "", str(symbol.font_path or ""),
                   symbol.photo_shape or "", symbol)


@lru_cache(maxsize=4096)
def _cached(kind: str, path: str, mtime: float, text: str, font: str, crop: str,
            symbol: SymbolSpec) -> Silhouette:
    key = _disk_key(kind, path, text, font, crop)
    cache_file = _cache_dir() / f"{key}.json" if key else None
    if cache_file is not None and cache_file.is_file():
        try:
            return _from_json(json.loads(cache_file.read_text()))
        except (ValueError, KeyError, OSError, shapely.errors.GEOSException):
            pass
    sil = trace(symbol)
    if cache_file is not None:
        try:
            cache_file.parent.mkdir(parents=True, exist_ok=True)
            tmp = cache_file.with_suffix(f".{os.getpid()}.tmp")
            tmp.write_text(json.dumps(_to_json(sil)))
            os.replace(tmp, cache_file)
        except OSError:
            pass
    return sil


def content_key(symbol: SymbolSpec) -> str | None:
    """A key of the symbol's artwork content and trace parameters (None when caching is off
    or the file cannot be read); equal keys give equal silhouettes."""
    path = str(symbol.path) if symbol.path is not None else ""
    return _disk_key(symbol.kind, path, symbol.text or "", str(symbol.font_path or ""), symbol.photo_shape or "")


def _cache_dir() -> Path:
    root = os.environ.get("PRINTDECK_CACHE_DIR")
    base = Path(root) if root else Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "printdeck"
    return base / "silhouettes"


def _disk_key(kind: str, path: str, text: str, font: str, crop: str) -> str | None:
    if os.environ.get("PRINTDECK_NO_CACHE"):
        return None
    params = (CACHE_VERSION, TRACE_PIXELS, ALPHA_THRESHOLD, CLOSING_PIXELS, SIMPLIFY_PIXELS, HOLE_MIN_AREA)
    h = hashlib.sha256(f"{params}|{kind}|{text}|{crop}".encode())
    for p in (path, font):
        if p:
            try:
                h.update(Path(p).read_bytes())
            except OSError:
                return None
    return h.hexdigest()[:32]


def _to_json(sil: Silhouette) -> dict:
    return {"aspect": sil.aspect, "area": sil.area, "shape": shapely.to_wkb(sil.shape, hex=True),
            "outline": shapely.to_wkb(sil.outline, hex=True)}


def _from_json(data: dict) -> Silhouette:
    outline = shapely.from_wkb(data["outline"])
    return _make(float(data["aspect"]), shapely.from_wkb(data["shape"]), outline, float(data["area"]))


def _make(aspect: float, shape: BaseGeometry, outline: BaseGeometry, area: float) -> Silhouette:
    verts = shapely.get_coordinates(outline)  # every ring of every part, in order
    radius = float(np.sqrt((verts ** 2).sum(axis=1)).max())
    return Silhouette(aspect=aspect, shape=shape, outline=outline, area=area, vertices=verts, radius=radius)


def trace(symbol: SymbolSpec) -> Silhouette:
    """Trace a symbol's silhouette from its pixels (uncached; see :func:`silhouette`).

    Raises:
        PrintdeckError: The artwork cannot be read, or draws nothing visible.
    """
    from printdeck.errors import PrintdeckError

    aspect = natural_aspect(symbol)
    h_px = int(np.clip(round(np.sqrt(TRACE_PIXELS / aspect)), 8, TRACE_MAX_SIDE))
    w_px = int(np.clip(round(h_px * aspect), 8, TRACE_MAX_SIDE))
    alpha = alpha_array(rasterise(symbol, w_px, h_px))
    mask = alpha > ALPHA_THRESHOLD
    if not mask.any():
        raise PrintdeckError(f"symbol {symbol.name!r} ({symbol.source}): the artwork is fully transparent; "
                             "give an image with visible ink")
    sx, sy = aspect / w_px, 1.0 / h_px  # one pixel in box units (x, y)
    area = float(mask.sum()) * sx * sy
    ink = np.pad(mask, 1)
    pix = mask_to_polygon(ink)
    to_box = [sx, 0, 0, -sy, -aspect / 2, 0.5]
    shape = shapely.affinity.affine_transform(pix, to_box)
    outline = collision_outline(ink, shape, to_box, max(sx, sy))
    return _make(aspect, shape, outline, area)


def dilate(mask: np.ndarray) -> np.ndarray:
    """Grow a boolean mask by one pixel in all 8 directions; ``(H, W) bool`` -> ``(H+2, W+2) bool``.

    The result is padded by one pixel on each side, so pixel (r, c) of the input is
    pixel (r+1, c+1) of the output.
    """
    h, w = mask.shape
    out = np.zeros((h + 2, w + 2), dtype=bool)
    for dy in range(3):
        for dx in range(3):
            out[dy:dy + h, dx:dx + w] |= mask
    return out


def mask_to_polygon(mask: np.ndarray, origin_px: float = -1.0) -> BaseGeometry:
    """Return the exact union of a mask's pixels as polygons in pixel units.

    Args:
        mask: ``(H, W) bool``; pixel (r, c) covers ``[c, c+1] x [r, r+1]`` (y down),
            shifted by ``origin_px`` in both axes (``-1`` undoes :func:`dilate`'s pad).

    Returns:
        A Polygon or MultiPolygon (y still pointing down).
    """
    padded = np.zeros((mask.shape[0], mask.shape[1] + 2), dtype=np.int8)
    padded[:, 1:-1] = mask
    d = np.diff(padded, axis=1)
    rows_s, cols_s = np.nonzero(d == 1)
    _, cols_e = np.nonzero(d == -1)
    boxes = _merge_runs(rows_s, cols_s, cols_e)
    b = np.asarray(boxes, dtype=float) + origin_px
    geoms = shapely.box(b[:, 0], b[:, 1], b[:, 2], b[:, 3])
    return shapely.union_all(geoms)


def _merge_runs(rows: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> list[tuple[int, int, int, int]]:
    """Merge identical row runs of consecutive rows into tall boxes (x0, y0, x1, y1)."""
    open_runs: dict[tuple[int, int], int] = {}
    boxes: list[tuple[int, int, int, int]] = []
    order = np.lexsort((starts, rows))
    by_row: dict[int, list[tuple[int, int]]] = {}
    for i in order:
        by_row.setdefault(int(rows[i]), []).append((int(starts[i]), int(ends[i])))
    prev_row = None
    for r in sorted(by_row):
        runs = set(by_row[r])
        if prev_row is None or r != prev_row + 1:
            for (s, e), r0 in open_runs.items():
                boxes.append((s, r0, e, prev_row + 1))  # type: ignore[operator]
            open_runs = {}
        for key in [k for k in open_runs if k not in runs]:
            boxes.append((key[0], open_runs.pop(key), key[1], r))
        for key in runs:
            open_runs.setdefault(key, r)
        prev_row = r
    for (s, e), r0 in open_runs.items():
        boxes.append((s, r0, e, prev_row + 1))  # type: ignore[operator]
    return boxes


def collision_outline(ink_mask: np.ndarray, shape: BaseGeometry, to_box: list[float], unit: float) -> BaseGeometry:
    """Return a simplified shape containing ``shape``, small holes filled.

    A morphological closing of the ink mask by
    :data:`CLOSING_PIXELS` fills narrow gaps and small holes; the remaining holes
    smaller than :data:`HOLE_MIN_AREA` are filled, and Douglas-Peucker simplification (tolerance :data:`SIMPLIFY_PIXELS`)
    is followed by an outward mitred buffer of the same size. The result is checked
    to contain ``shape`` (the buffer doubles until it does).

    Args:
        ink_mask: ``(H+2, W+2) bool`` ink padded by one empty pixel on each side.
        shape: The same ink as polygons, in normalised units.
        to_box: Affine map (shapely order) from pixel to normalised box units.
        unit: One trace pixel in normalised units (the larger side).
    """
    closed = ink_mask
    for _ in range(CLOSING_PIXELS):
        closed = dilate(closed)
    for _ in range(CLOSING_PIXELS):
        closed = ~dilate(~closed)[1:-1, 1:-1]
    closed = closed[CLOSING_PIXELS:-CLOSING_PIXELS, CLOSING_PIXELS:-CLOSING_PIXELS] if CLOSING_PIXELS else closed
    pix = mask_to_polygon(closed | ink_mask)
    tol = SIMPLIFY_PIXELS * unit
    pix = shapely.affinity.affine_transform(pix, to_box)
    filled = _fill_holes(pix, HOLE_MIN_AREA).simplify(tol)
    pad = tol
    for _ in range(6):
        cand = filled.buffer(pad, join_style="mitre", mitre_limit=2.0)
        if cand.contains(shape):
            return _fill_holes(cand, HOLE_MIN_AREA)
        pad *= 2
    return _fill_holes(pix, math.inf)


def _fill_holes(geom: BaseGeometry, keep_area: float) -> BaseGeometry:
    """Fill every hole smaller than ``keep_area``; parts inside a filled hole disappear.

    Holes at least ``keep_area`` big (e.g. the inside of a ring) stay open, so other
    symbols may sit in them.
    """
    polys = []
    for part in shapely.get_parts(geom):
        holes = [r for r in part.interiors if shapely.area(shapely.polygons(r)) >= keep_area]
        polys.append(shapely.polygons(part.exterior, holes=holes or None))
    if len(polys) == 1:
        return polys[0]
    polys.sort(key=lambda p: -p.area)
    kept: list[BaseGeometry] = []
    for p in polys:
        if not any(k.contains(p) for k in kept):
            kept.append(p)
    merged = shapely.multipolygons(kept)
    return merged if merged.is_valid else shapely.union_all(kept)
