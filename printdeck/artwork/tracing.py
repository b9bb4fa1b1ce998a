"""Silhouettes: each symbol's filled shape, traced once from its pixels and cached.

Coordinate convention (the *normalised box*): the symbol's whole box is
``aspect`` units wide and 1 unit tall, centred on the origin, x right, y up. A
placement with ``box_mm = (w, h)`` therefore maps a silhouette point ``(x, y)`` to
``center + rotate(h * (x, y), rotation_deg)`` in card mm.

Tracing: the box is rasterised with about :data:`TRACE_PIXELS` pixels (long side at
most :data:`TRACE_MAX_SIDE`); pixels with alpha above :data:`ALPHA_THRESHOLD` are ink
and are turned into polygons exactly (union of pixel row runs), so the silhouette
contains every inked pixel whole. The collision ``outline`` closes gaps narrower than
``CLOSING_PIXELS`` and fills its holes (with ``layout.nest``, only those smaller than
:data:`HOLE_MIN_AREA`) and, unless the symbol may nest, joins its parts
(:mod:`printdeck.artwork.part_bridges`) and fills its open mouths
(:mod:`printdeck.artwork.mouths`), is
simplified (Douglas-Peucker) and buffered outward by at least the simplification
tolerance, and is checked to contain the traced ink; it is what the layout keeps
apart, so it is conservative by one to three trace pixels. From the ink mask on, the
polygons are :mod:`printdeck.artwork.mask_polygons`'s.
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
from printdeck.artwork.edge_cells import (
    EDGE_ARRAYS,
    EdgeCells,
    edge_cell_parts,
    edge_cells,
    edge_cells_from_parts,
    vertex_rings,
)
from printdeck.artwork.mask_polygons import _fill_holes, collision_outline, mask_to_polygon
from printdeck.artwork.mouths import fill_mouths
from printdeck.artwork.part_bridges import joined_parts
from printdeck.artwork.shape_field import FIELD_ARRAYS, ShapeField, field_from_parts, field_parts, shape_field
from printdeck.cache import cache_dir, code_digest, entry_key, read_entry_bytes, write_entry
from printdeck.model import SymbolSpec, drawn_only

TRACE_PIXELS = 256 * 256
TRACE_MAX_SIDE = 720
ALPHA_THRESHOLD = 8
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
        sizing_radius: ``radius`` without a word's room along its baseline (the layout
            keeps words apart by it; sizing by it would make every word smaller):
            what :func:`sizing_area` sizes a symbol by.
    """

    aspect: float
    shape: BaseGeometry
    outline: BaseGeometry
    area: float
    vertices: np.ndarray = field(repr=False)
    radius: float
    sizing_radius: float

    @cached_property
    def field(self) -> ShapeField:
        """Bounds of the distance to ``outline`` on a grid, and discs inside it (see
        :mod:`printdeck.artwork.shape_field`)."""
        return shape_field(self.outline)

    @cached_property
    def edge_cells(self) -> EdgeCells:
        """Which edges of ``outline`` may be nearest to a point, by where it is (see
        :mod:`printdeck.artwork.edge_cells`): the packer's contact search."""
        return edge_cells(self.vertices[:, 0] + 1j * self.vertices[:, 1], vertex_rings(self.outline))

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
    :data:`MIN_FILL` of the square around its outline's circumscribed circle (a word's
    outline without its room along its baseline: :attr:`Silhouette.sizing_radius`).

    Sizing by ink area makes thin or spindly artwork as big as compact artwork;
    the floor stops a long word or a hairline ring from growing a box wider than
    the card.
    """
    return max(sil.area, MIN_FILL * (2.0 * sil.sizing_radius) ** 2)


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


KEY_MODULES = (
    "printdeck.artwork.mask_polygons",
    "printdeck.artwork.mouths",
    "printdeck.artwork.part_bridges",
    "printdeck.artwork.shape_field",
    "printdeck.artwork.binary_entry",
    "printdeck.artwork.edge_cells",
)
"""Modules besides this one whose code a silhouette depends on (its key names them)."""
ENTRY_SUFFIX = ".sil"
"""A silhouette's disk cache entry (:mod:`printdeck.artwork.binary_entry`): its shapes as WKB,
its field's grids and its edge cells as raw bytes, read back without parsing text."""


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
    if folder:  # the field, inscribed disc and edge cells are stored too: a cached run never finds them again
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


SILHOUETTE_ARRAYS = {"shape": ("uint8", 1), "outline": ("uint8", 1), **FIELD_ARRAYS, **EDGE_ARRAYS}
"""The arrays of a silhouette's entry: its shapes' WKB bytes, its field's, its edge cells'
(see :func:`_to_entry`)."""


def _to_entry(sil: Silhouette) -> bytes:
    """The cache entry: the traced shapes, and the outline's field, inscribed disc and edge
    cells (found here if not yet), so a cached symbol costs no distance transform and no
    edge search.

    Raises:
        ValueError: A number is not finite (the entry would not read back).
    """
    centre, radius = sil.inscribed
    field_numbers, arrays = field_parts(sil.field)
    numbers = {"aspect": sil.aspect, "area": sil.area, "inscribed": [centre.real, centre.imag, radius]}
    numbers["sizing_radius"] = sil.sizing_radius
    shapes = {name: np.frombuffer(shapely.to_wkb(getattr(sil, name)), dtype=np.uint8) for name in ("shape", "outline")}
    return pack_entry({**numbers, **field_numbers}, {**shapes, **arrays, **edge_cell_parts(sil.edge_cells)})


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
    sizing_radius = float(str(numbers["sizing_radius"]))
    if not (math.isfinite(sizing_radius) and sizing_radius > 0):
        raise ValueError("not a silhouette")
    sil = _make(aspect, shape, outline, area, sizing_radius)
    inscribed = numbers["inscribed"]
    if not isinstance(inscribed, list) or len(inscribed) != 3:
        raise ValueError("not a silhouette")
    x, y, radius = (float(str(v)) for v in inscribed)
    if not all(math.isfinite(v) for v in (x, y, radius)) or radius < 0:
        raise ValueError("not a silhouette")
    sil.__dict__["inscribed"] = (complex(x, y), radius)  # the cached_property's value, as stored
    sil.__dict__["field"] = field_from_parts(numbers, arrays)
    sil.__dict__["edge_cells"] = edge_cells_from_parts(arrays, sil.vertices[:, 0] + 1j * sil.vertices[:, 1], outline)
    return sil


def _make(
    aspect: float, shape: BaseGeometry, outline: BaseGeometry, area: float, sizing_radius: float | None = None
) -> Silhouette:
    verts = shapely.get_coordinates(outline)  # every ring of every part, in order
    radius = _radius(verts)
    return Silhouette(
        aspect=aspect,
        shape=shape,
        outline=outline,
        area=area,
        vertices=verts,
        radius=radius,
        sizing_radius=radius if sizing_radius is None else sizing_radius,
    )


def _radius(vertices: np.ndarray) -> float:
    """Largest distance of ``vertices`` ``(V, 2)`` from the box centre (box units)."""
    return float(np.sqrt((vertices**2).sum(axis=1)).max())


def trace(symbol: SymbolSpec | Drawing) -> Silhouette:
    """Trace a symbol's silhouette from the pixels of its drawing (uncached; see :func:`silhouette`).

    A word's collision outline keeps its drawing's ``clearance`` (half a word space)
    clear around the ink, so two words stand a word space apart besides the gap, and
    along its baseline also ``clearance_along`` and half its widest inner space
    (:func:`widest_space`), so two words side by side stand further apart than the
    spaces inside either and do not read as one; line
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
    same = (
        aspect,
        mask.shape,
        hashlib.sha256(np.packbits(mask).tobytes()).hexdigest(),
        art.symbol.nest,
        art.clearance,
        art.clearance_along,
    )
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


def widest_space(mask: np.ndarray) -> int:
    """The widest run of ink-free columns between inked ones of ``mask`` ``(h_px, w_px)
    bool`` (pixels): a word's widest inner space, as printed ("5 × 6": a space and the
    glyphs' side bearings); 0 when every column between the first and last inked one
    has ink."""
    inked = np.flatnonzero(mask.any(axis=0))
    if len(inked) < 2:
        return 0
    return int(np.diff(inked).max()) - 1


def padded(outline: BaseGeometry, across: float, along: float = 0.0) -> BaseGeometry:
    """``outline`` grown by ``across`` (box units) every way and by ``across + along``
    along x, elliptically in between: the outline is stretched in y by ``(across + along)
    / across``, buffered by ``across + along`` (mitred joins, as the collision outline's)
    and shrunk back, so its edges' offsets are ``across`` at the top and bottom and
    ``across + along`` at the ends.

    Raises:
        ValueError: ``across`` is not positive.
    """
    if across <= 0:
        raise ValueError(f"across must be positive, got {across}")
    if along <= 0:
        return outline.buffer(across, join_style="mitre", mitre_limit=2.0)
    stretch = (across + along) / across
    tall = shapely.affinity.scale(outline, 1.0, stretch, origin=(0.0, 0.0))
    grown = tall.buffer(across + along, join_style="mitre", mitre_limit=2.0)
    return shapely.affinity.scale(grown, 1.0, 1.0 / stretch, origin=(0.0, 0.0))


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
    along = art.clearance_along + widest_space(mask) * sx / 2.0 if art.clearance_along > 0 else 0.0
    sizing_radius = None
    if clearance > 0:
        if along > 0:  # sized as if it kept its clearance only: the room along it is for the layout
            sizing_radius = _radius(shapely.get_coordinates(padded(outline, clearance)))
        outline = _fill_holes(padded(outline, clearance, along), keep_holes)
    if not art.symbol.nest:  # one symbol: nothing between its parts, nor in a C's mouth (as in a hole)
        outline = _fill_holes(fill_mouths(joined_parts(outline)), keep_holes)
    return _make(aspect, shape, outline, area, sizing_radius)
