"""Silhouettes: each symbol's filled shape, traced once from its pixels and cached.

Coordinate convention (the *normalised box*): the symbol's whole box is
``aspect`` units wide and 1 unit tall, centred on the origin, x right, y up. A
placement with ``box_mm = (w, h)`` therefore maps a silhouette point ``(x, y)`` to
``center + rotate(h * (x, y), rotation_deg)`` in card mm.

Tracing: the box is rasterised with about :data:`TRACE_PIXELS` pixels (long side at
most :data:`TRACE_MAX_SIDE`); pixels with alpha above :data:`ALPHA_THRESHOLD` are ink
and are turned into polygons exactly (union of pixel row runs), so the silhouette
contains every inked pixel whole. The collision ``outline`` closes gaps narrower than
:data:`CLOSING_PIXELS` and fills its holes (with ``layout.nest``, only those smaller than
:data:`HOLE_MIN_AREA`) and, unless the symbol may nest, its open mouths
(:mod:`printdeck.artwork.mouths`), is
simplified (Douglas-Peucker) and buffered outward by at least the simplification
tolerance, and is checked to contain the traced ink; it is what the layout keeps
apart, so it is conservative by one to three trace pixels.
"""

from __future__ import annotations

import contextlib
import hashlib
import math
import os
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import cached_property, lru_cache

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

from printdeck.artwork.binary_entry import pack_entry, unpack_entry
from printdeck.artwork.drawing import Drawing, drawing, drawing_key
from printdeck.artwork.mouths import fill_mouths
from printdeck.artwork.shape_field import FIELD_ARRAYS, ShapeField, field_from_parts, field_parts, shape_field
from printdeck.cache import cache_dir, code_digest, entry_key, read_entry_bytes, write_entry
from printdeck.model import SymbolSpec, drawn_only

TRACE_PIXELS = 256 * 256
TRACE_MAX_SIDE = 720
ALPHA_THRESHOLD = 8
CLOSING_PIXELS = 2
SIMPLIFY_PIXELS = 1.5
HOLE_MIN_AREA = 0.04  # with layout.nest, holes of the collision outline this big (box units²) stay open
MIN_FILL = 0.16  # sizing treats a shape as filling at least this much of its (2 radius)² square
LINE_ART_INK = 0.6  # ink under this share of the filled outline: line art (twemoji are all above 0.68)
LINE_ART_CLEARANCE = 0.02  # box heights line art keeps clear on top of the gap (0.45 mm at 22 mm)
INSCRIBED_TOLERANCE = 3e-3  # box units: how close to the largest inscribed disc the search gets


@dataclass(frozen=True)
class Silhouette:
    """A symbol's traced shape in normalised box units (see the module docstring).

    Attributes:
        aspect: Width over height of the whole box.
        shape: Traced ink (pixels with alpha > threshold), holes kept.
        outline: Collision shape: contains ``shape``; holes filled (big ones, such as a
            ring's inside, kept when the symbol may ``nest``); simplified.
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
        :mod:`printdeck.artwork.shape_field`)."""
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
    """Return the symbol's silhouette, traced once per drawing and cached.

    Cached in memory and, unless ``PRINTDECK_NO_CACHE`` is set, on disk
    (:func:`printdeck.cache.cache_dir`, folder ``silhouettes``), keyed by
    :func:`silhouette_key`: the drawing's key (everything that changes the drawing, see
    :func:`printdeck.artwork.drawing_key`) and this module's code.

    Raises:
        PrintdeckError: The artwork cannot be read, or draws nothing visible.
    """
    key = silhouette_key(symbol)  # kept in memory by what is traced: the deck's renumbered symbols share it
    return _cached(drawn_only(symbol, "nest"), key)


KEY_MODULES = ("printdeck.artwork.mouths", "printdeck.artwork.shape_field", "printdeck.artwork.binary_entry")
"""Modules besides this one whose code a silhouette depends on (its key names them)."""
ENTRY_SUFFIX = ".sil"
"""A silhouette's disk cache entry (:mod:`printdeck.artwork.binary_entry`): its shapes as WKB
and its field's grids as raw bytes, read back without parsing text."""


@lru_cache(maxsize=4096)
def _cached(symbol: SymbolSpec, key: str) -> Silhouette:
    folder = cache_dir("silhouettes")
    data = read_entry_bytes(folder / f"{key}{ENTRY_SUFFIX}") if folder else None
    if data is not None:
        try:
            return _from_entry(data)
        except (ValueError, KeyError, TypeError, shapely.errors.GEOSException):
            pass
    sil = trace(symbol)
    if folder:  # the field and the inscribed disc are stored too: a cached run never finds them again
        with contextlib.suppress(ValueError):  # a number JSON cannot hold: not worth keeping
            write_entry(folder / f"{key}{ENTRY_SUFFIX}", _to_entry(sil))
    return sil


def silhouette_stored(symbol: SymbolSpec) -> bool:
    """Whether the symbol's silhouette is in the disk cache (an earlier run traced it);
    False when the cache is off. Reads the artwork file's bytes, draws nothing.

    Raises:
        PrintdeckError: The artwork file cannot be read, or a word cannot be set.
    """
    folder = cache_dir("silhouettes")
    return folder is not None and (folder / f"{silhouette_key(symbol)}{ENTRY_SUFFIX}").is_file()


def silhouettes(symbols: Sequence[SymbolSpec], threads: int | None = None) -> list[Silhouette]:
    """The silhouettes of ``symbols`` (in order), traced on ``threads`` threads (default:
    one a processor, at most 4): decoding pictures, finding faces and drawing SVGs run
    in native code that releases the GIL, so a deck of photos traces about as many times
    faster. The result does not depend on the number of threads.
    """
    unique = list(dict.fromkeys(symbols))
    workers = threads or min(4, os.cpu_count() or 1)
    if workers <= 1 or len(unique) <= 1:
        return [silhouette(s) for s in symbols]
    with ThreadPoolExecutor(max_workers=workers) as pool:
        done = dict(zip(unique, pool.map(silhouette, unique)))
    return [done[s] for s in symbols]


def silhouette_key(symbol: SymbolSpec) -> str:
    """The silhouette's key: the drawing's key, whether holes stay open (``nest``) and this
    module's source (trace parameters included); equal keys give equal silhouettes.

    Raises:
        PrintdeckError: The artwork cannot be read, or a word cannot be set.
    """
    return entry_key(
        drawing_key(symbol),
        f"nest={symbol.nest}",
        code_digest(__name__, *KEY_MODULES),
    )


SILHOUETTE_ARRAYS = {"shape": ("uint8", 1), "outline": ("uint8", 1), **FIELD_ARRAYS}
"""The arrays of a silhouette's entry: its shapes' WKB bytes, then its field's (see :func:`_to_entry`)."""


def _to_entry(sil: Silhouette) -> bytes:
    """The cache entry: the traced shapes, and the outline's field and inscribed disc
    (found here if not yet), so a cached symbol costs no distance transform.

    Raises:
        ValueError: A number is not finite (the entry would not read back).
    """
    centre, radius = sil.inscribed
    field_numbers, arrays = field_parts(sil.field)
    numbers = {"aspect": sil.aspect, "area": sil.area, "inscribed": [centre.real, centre.imag, radius], **field_numbers}
    shapes = {name: np.frombuffer(shapely.to_wkb(getattr(sil, name)), dtype=np.uint8) for name in ("shape", "outline")}
    return pack_entry(numbers, {**shapes, **arrays})


def _from_entry(data: bytes) -> Silhouette:
    """A silhouette read back from the cache.

    Raises:
        ValueError, KeyError, TypeError, GEOSException: the entry is not a valid silhouette.
    """
    numbers, arrays = unpack_entry(data, SILHOUETTE_ARRAYS)
    aspect, area = float(str(numbers["aspect"])), float(str(numbers["area"]))
    if not (math.isfinite(aspect) and math.isfinite(area) and aspect > 0 and area > 0):
        raise ValueError("not a silhouette")
    outline, shape = shapely.from_wkb(arrays["outline"].tobytes()), shapely.from_wkb(arrays["shape"].tobytes())
    if outline.is_empty or shape.is_empty or not outline.is_valid:
        raise ValueError("not a silhouette")
    sil = _make(aspect, shape, outline, area)
    inscribed = numbers["inscribed"]
    if not isinstance(inscribed, list) or len(inscribed) != 3:
        raise ValueError("not a silhouette")
    x, y, radius = (float(str(v)) for v in inscribed)
    if not all(math.isfinite(v) for v in (x, y, radius)) or radius < 0:
        raise ValueError("not a silhouette")
    sil.__dict__["inscribed"] = (complex(x, y), radius)  # the cached_property's value, as stored
    sil.__dict__["field"] = field_from_parts(numbers, arrays)
    return sil


def _make(aspect: float, shape: BaseGeometry, outline: BaseGeometry, area: float) -> Silhouette:
    verts = shapely.get_coordinates(outline)  # every ring of every part, in order
    radius = float(np.sqrt((verts**2).sum(axis=1)).max())
    return Silhouette(aspect=aspect, shape=shape, outline=outline, area=area, vertices=verts, radius=radius)


def trace(symbol: SymbolSpec | Drawing) -> Silhouette:
    """Trace a symbol's silhouette from the pixels of its drawing (uncached; see :func:`silhouette`).

    A word's collision outline keeps its drawing's ``clearance`` (half a word space)
    clear around the ink, so two words stand a word space apart besides the gap; line
    art (ink under :data:`LINE_ART_INK` of its outline: outline icons, rings) keeps
    :data:`LINE_ART_CLEARANCE`, so two black line icons do not read as one shape.

    Raises:
        PrintdeckError: The artwork cannot be read, or draws nothing visible.
    """
    art = symbol if isinstance(symbol, Drawing) else drawing(symbol)
    aspect = art.aspect
    h_px = int(np.clip(round(np.sqrt(TRACE_PIXELS / aspect)), 8, TRACE_MAX_SIDE))
    w_px = int(np.clip(round(h_px * aspect), 8, TRACE_MAX_SIDE))
    from printdeck.artwork.raster import alpha_array, rasterise  # noqa: PLC0415 - drawn only to trace

    alpha = alpha_array(rasterise(art, w_px, h_px))
    mask = alpha > ALPHA_THRESHOLD
    if not mask.any():
        raise art.symbol.error("the artwork is fully transparent", "give an image with visible ink")
    same = (aspect, mask.shape, hashlib.sha256(np.packbits(mask).tobytes()).hexdigest(), art.symbol.nest, art.clearance)
    known = _BY_MASK.get(same)
    if known is None:
        known = _traced(art, mask)
        if len(_BY_MASK) >= MAX_REMEMBERED_MASKS:
            _BY_MASK.clear()
        _BY_MASK[same] = known
    return known


_BY_MASK: dict[tuple[object, ...], Silhouette] = {}
"""Silhouettes traced in this process by everything they are made from (the box's aspect,
the ink mask, ``nest``, the clearance): photos cropped to one shape share one mask, so
they are traced, and their field found, once (the object is shared: it is never changed)."""
MAX_REMEMBERED_MASKS = 256


def _traced(art: Drawing, mask: np.ndarray) -> Silhouette:
    """:func:`trace` from the drawing's ink mask, ``(h_px, w_px) bool``."""
    aspect = art.aspect
    h_px, w_px = mask.shape
    sx, sy = aspect / w_px, 1.0 / h_px  # one pixel in box units (x, y)
    area = float(mask.sum()) * sx * sy
    ink = np.pad(mask, 1)
    pix = mask_to_polygon(ink)
    to_box = [sx, 0, 0, -sy, -aspect / 2, 0.5]
    shape = shapely.affinity.affine_transform(pix, to_box)
    keep_holes = HOLE_MIN_AREA if art.symbol.nest else math.inf
    outline = collision_outline(ink, shape, to_box, max(sx, sy), keep_holes)
    clearance = art.clearance or (LINE_ART_CLEARANCE if area < LINE_ART_INK * outline.area else 0.0)
    if clearance > 0:
        outline = _fill_holes(outline.buffer(clearance, join_style="mitre", mitre_limit=2.0), keep_holes)
    if not art.symbol.nest:  # open mouths too, as holes are: nothing may sit in a C's mouth
        outline = _fill_holes(fill_mouths(outline), keep_holes)
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
            out[dy : dy + h, dx : dx + w] |= mask
    return out


def mask_to_polygon(mask: np.ndarray, origin_px: float = -1.0) -> BaseGeometry:
    """Return polygons covering a mask's pixels, in pixel units: traced as contours
    (OpenCV ``findContours``) of the pixel corners that touch ink.

    The traced region is the union of the inked pixels, plus, where the boundary turns
    inward, half a pixel's triangle (and a hole one pixel across is filled), so it
    contains every inked pixel whole and is never smaller than the ink; a contour
    steps diagonally only across a pixel with a corner outside the ink. Should the
    contours not make valid polygons, the exact union of the pixels is used instead.

    Args:
        mask: ``(H, W) bool``; pixel (r, c) covers ``[c, c+1] x [r, r+1]`` (y down),
            shifted by ``origin_px`` in both axes (``-1`` undoes :func:`dilate`'s pad).

    Returns:
        A Polygon or MultiPolygon (y still pointing down).
    """
    import cv2  # noqa: PLC0415 - OpenCV only when tracing, never on a cached run

    h, w = mask.shape
    corners = np.zeros((h + 3, w + 3), dtype=np.uint8)  # corner (r, c) at [r + 1, c + 1]: a free border
    for dy in (1, 2):
        for dx in (1, 2):
            corners[dy : dy + h, dx : dx + w] |= mask.astype(np.uint8)
    contours, hierarchy = cv2.findContours(corners, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is None:
        return _pixel_union(mask, origin_px)
    rings = [c.reshape(-1, 2).astype(float) + (origin_px - 1.0) for c in contours]
    links = hierarchy.reshape(-1, 4)
    polys = []
    for i, ring in enumerate(rings):
        if links[i, 3] < 0 and len(ring) >= 3:
            holes = [
                shapely.linearrings(rings[k]) for k in range(len(rings)) if links[k, 3] == i and len(rings[k]) >= 3
            ]
            polys.append(shapely.polygons(shapely.linearrings(ring), holes=holes or None))
    merged = shapely.multipolygons(polys) if len(polys) != 1 else polys[0]
    if not polys or not merged.is_valid:
        return _pixel_union(mask, origin_px)
    return merged


def _pixel_union(mask: np.ndarray, origin_px: float) -> BaseGeometry:
    """The exact union of a mask's pixels (see :func:`mask_to_polygon`), from boxes."""
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


def collision_outline(
    ink_mask: np.ndarray, shape: BaseGeometry, to_box: list[float], unit: float, keep_holes: float = math.inf
) -> BaseGeometry:
    """Return a simplified shape containing ``shape``, holes smaller than ``keep_holes`` filled.

    A morphological closing of the ink mask by
    :data:`CLOSING_PIXELS` fills narrow gaps and small holes; the remaining holes
    smaller than ``keep_holes`` (box units²; every hole by default, so no symbol sits
    inside another; :data:`HOLE_MIN_AREA` when the theme lets symbols nest) are filled,
    and Douglas-Peucker simplification (tolerance :data:`SIMPLIFY_PIXELS`)
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
    filled = _fill_holes(pix, keep_holes).simplify(tol)
    pad = tol
    for _ in range(6):
        cand = filled.buffer(pad, join_style="mitre", mitre_limit=2.0)
        if cand.contains(shape):
            return _fill_holes(cand, keep_holes)
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
