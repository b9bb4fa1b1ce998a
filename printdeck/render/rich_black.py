"""Rich black for a CMYK page's large black areas.

Black made CMYK is the black plate alone (100 % K, :func:`printdeck.artwork.cmyk_of_rgb`):
right for text, hairlines, cut guides and marks, which must not blur when the four plates
register a little apart, but a large area of it prints a flat dark grey. Print services ask
for rich black there (DriveThruCards: 60/40/40/100, bench/RESULTS.md). :func:`enrich` finds,
in a page's content or a form a page draws, the fill colours set to 100 % K whose every use
is a plain filled shape (a form drawn in it uses it only when it paints in the colour it
inherits, :func:`inherits_fill`) (:data:`MAX_SHAPE_SEGMENTS`) holding a disc :data:`MIN_SIDE_MM`
across on the page (a black back, a black card), and makes them
:data:`RICH_BLACK`, its cyan, magenta and yellow lowered in proportion to keep within the
file's ink limit. A colour also used for text, a form or a small fill stays 100 % K.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import pikepdf
import shapely

from printdeck.units import MM_PER_UNIT

__all__ = ["MIN_SIDE_MM", "RICH_BLACK", "enrich", "form_scales", "inherits_fill", "rich_black"]

RICH_BLACK = (0.6, 0.4, 0.4, 1.0)
"""Cyan, magenta, yellow and black (0..1) of a large black area: 240 % of ink."""
MIN_SIDE_MM = 10.0
"""A filled path that holds a disc this wide (mm) on the page is a large area; a thinner one
(a rule, a scale bar's tick, a mark, a thin ring) keeps 100 % K."""
MAX_SHAPE_SEGMENTS = 16
"""A large area is a plain shape of at most this many segments (a card's or a back's
rectangle, circle, rounded rectangle or polygon): a word's glyphs or an icon's outlines,
whose strokes are thin however big their box, keep 100 % K."""
PURE_BLACK = (0.0, 0.0, 0.0, 1.0)
IDENTITY = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
_FILLS = frozenset({"f", "F", "f*", "B", "B*", "b", "b*"})
_PAINTS = _FILLS | {"S", "s", "n"}
_USES_FILL_COLOUR = frozenset({"Tj", "TJ", "'", '"', "Do", "sh"})
_SETS_FILL_COLOUR = frozenset({"k", "rg", "g", "sc", "scn", "cs"})
_POINTS = {"m": 2, "l": 2, "c": 6, "v": 4, "y": 4}

Ops = list[Any]
"""A content stream's instructions: ``(operands, operator)`` pairs, and inline images."""


def rich_black(ink_limit: int) -> tuple[float, float, float, float]:
    """:data:`RICH_BLACK` within ``ink_limit`` (total ink, percent): its cyan, magenta and
    yellow scaled down together when 240 % is more than the limit allows."""
    room = max(0.0, ink_limit / 100.0 - 1.0)
    colour_ink = sum(RICH_BLACK[:3])
    scale = min(1.0, room / colour_ink)
    return (RICH_BLACK[0] * scale, RICH_BLACK[1] * scale, RICH_BLACK[2] * scale, 1.0)


def form_scales(pdf: pikepdf.Pdf) -> dict[tuple[int, int], float]:
    """How much each Form XObject a page draws directly is enlarged on the page, at least
    (the square root of the determinant of its ``/Matrix`` times the page's CTM at its
    ``Do``), by the form's object number and generation. A form drawn only from another
    form is left out: its size on the page is not known here."""
    scales: dict[tuple[int, int], float] = {}
    for page in pdf.pages:
        forms = page.resources.get("/XObject", pikepdf.Dictionary())
        ctm: tuple[float, ...] = IDENTITY
        saved: list[tuple[float, ...]] = []
        for instruction in pikepdf.parse_content_stream(page):
            if isinstance(instruction, pikepdf.ContentStreamInlineImage):
                continue
            operands, name = instruction.operands, str(instruction.operator)
            if name == "q":
                saved.append(ctm)
            elif name == "Q" and saved:
                ctm = saved.pop()
            elif name == "cm" and len(operands) == 6:
                ctm = _times(tuple(float(v) for v in operands), ctm)
            elif name == "Do" and operands and str(operands[0]) in forms:
                form = forms[str(operands[0])]
                if form.get("/Subtype") != pikepdf.Name.Form:
                    continue
                matrix = tuple(float(v) for v in form.get("/Matrix", IDENTITY))
                a, b, c, d, _, _ = _times(matrix, ctm)
                scale = abs(a * d - b * c) ** 0.5
                key = form.objgen
                scales[key] = min(scales.get(key, scale), scale)
    return scales


def inherits_fill(xobject: Any) -> bool:
    """Whether an XObject paints in the fill colour it is drawn with: an image mask, or a
    form that fills, shows text or draws such an XObject (followed into its own resources)
    before it sets a fill colour of its own. An SVG's form sets each colour it paints, so
    a card's black under it is not one of its uses; a form that may use it keeps it 100 % K.
    Anything unread counts as inheriting."""
    if not isinstance(xobject, pikepdf.Stream):
        return True
    if xobject.get("/Subtype") == pikepdf.Name.Image:
        return bool(xobject.get("/ImageMask", False))
    return _form_inherits(xobject, set())


def _form_inherits(form: pikepdf.Stream, seen: set[tuple[int, int]]) -> bool:
    if form.objgen in seen:
        return True  # a form that draws itself: not followed
    seen.add(form.objgen)
    resources = form.get("/Resources")
    forms: Any = resources.get("/XObject") if isinstance(resources, pikepdf.Dictionary) else None
    own, saved = False, []  # whether a fill colour of its own is set; its values at each q
    try:
        instructions = pikepdf.parse_content_stream(form)
    except pikepdf.PdfError:
        return True
    for instruction in instructions:
        if isinstance(instruction, pikepdf.ContentStreamInlineImage):
            continue
        name = str(instruction.operator)
        if name == "q":
            saved.append(own)
        elif name == "Q" and saved:
            own = saved.pop()
        elif name in _SETS_FILL_COLOUR:
            own = True
        elif not own and (name in _FILLS or (name in _USES_FILL_COLOUR and name != "Do")):
            return True
        elif not own and name == "Do" and instruction.operands:
            inner = forms.get(str(instruction.operands[0])) if isinstance(forms, pikepdf.Dictionary) else None
            if not isinstance(inner, pikepdf.Stream):
                return True
            if inner.get("/Subtype") == pikepdf.Name.Image:
                if inner.get("/ImageMask", False):
                    return True
            elif _form_inherits(inner, seen):
                return True
    return False


def enrich(ops: Ops, ink_limit: int, scale: float = 1.0, inherits: Callable[[str], bool] | None = None) -> bool:
    """Make rich (:func:`rich_black`) each ``0 0 0 1 k`` of a content stream's ``ops`` (as
    :func:`pikepdf.unparse_content_stream` takes them) that only fills large areas; True if
    any was changed. Positions are tracked through ``q``/``Q``/``cm`` in PDF points, the
    stream's own space enlarged ``scale`` times on the page (a form's: :func:`form_scales`).
    ``inherits(name)`` tells whether the XObject a ``Do`` draws paints in the fill colour
    it is drawn with (:func:`inherits_fill`); without it every ``Do`` is a use."""
    large: dict[int, bool] = {}  # the index of a black fill colour: whether every use was large
    black: int | None = None
    ctm: tuple[float, ...] = (scale, 0.0, 0.0, scale, 0.0, 0.0)
    saved: list[tuple[tuple[float, ...], int | None]] = []
    rings: list[list[tuple[float, float]]] = []  # the path's subpaths, page points (curves by their control points)
    segments = 0
    for index, op in enumerate(ops):
        if not isinstance(op, tuple):  # an inline image: no colour of its own to change
            continue
        operands, operator = op
        name = str(operator)
        if name == "q":
            saved.append((ctm, black))
        elif name == "Q" and saved:
            ctm, black = saved.pop()
        elif name == "cm" and len(operands) == 6:
            ctm = _times(tuple(float(v) for v in operands), ctm)
        elif name in ("k", "rg", "g", "sc", "scn", "cs"):
            black = index if name == "k" and tuple(float(v) for v in operands) == PURE_BLACK else None
        elif name == "re" and len(operands) == 4:
            x, y, w, h = (float(v) for v in operands)
            rings.append([_apply(ctm, px, py) for px, py in ((x, y), (x + w, y), (x + w, y + h), (x, y + h))])
            segments += 4
        elif name in _POINTS and len(operands) == _POINTS[name]:
            values = [float(v) for v in operands]
            if name == "m" or not rings:
                rings.append([])
            rings[-1] += [_apply(ctm, values[i], values[i + 1]) for i in range(0, len(values), 2)]
            segments += 1
        elif name in _PAINTS:
            if name in _FILLS and black is not None:
                large[black] = large.get(black, True) and segments <= MAX_SHAPE_SEGMENTS and _is_large(rings)
            rings, segments = [], 0
        elif name in _USES_FILL_COLOUR and black is not None:
            drawn = str(operands[0]) if name == "Do" and operands else None
            if drawn is None or inherits is None or inherits(drawn):
                large[black] = False  # text, or a form painting in this colour: it stays on the black plate
    rich = [float(v) for v in rich_black(ink_limit)]
    for index, all_large in large.items():
        if all_large:
            ops[index] = (list(rich), ops[index][1])
    return any(large.values())


def _is_large(rings: list[list[tuple[float, float]]]) -> bool:
    """Whether a filled path, its subpaths ``rings`` (page points), holds a disc
    :data:`MIN_SIDE_MM` across: its rings filled even-odd (a ring's hole left out), shrunk by
    half that, leave something. A thin ring or a plus sign's arms leave nothing, however big
    their box; a curve is taken by its control points, which hold it (a little generous)."""
    shapes = [shapely.make_valid(shapely.Polygon(ring)) for ring in rings if len(ring) >= 3]
    if not shapes:
        return False
    filled = functools.reduce(shapely.symmetric_difference, shapes)
    return not filled.buffer(-MIN_SIDE_MM / 2.0 / MM_PER_UNIT["pt"]).is_empty


def _times(m: tuple[float, ...], n: tuple[float, ...]) -> tuple[float, ...]:
    """The matrix ``m`` then ``n`` (PDF's ``[a b c d e f]`` row-vector convention)."""
    a, b, c, d, e, f = m
    p, q, r, s, t, u = n
    return (a * p + b * r, a * q + b * s, c * p + d * r, c * q + d * s, e * p + f * r + t, e * q + f * s + u)


def _apply(m: tuple[float, ...], x: float, y: float) -> tuple[float, float]:
    a, b, c, d, e, f = m
    return (a * x + c * y + e, b * x + d * y + f)
