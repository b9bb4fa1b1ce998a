"""An SVG's vector form, drawn once per artwork: its PDF operators kept by drawing key.

svglib parsing an SVG and ReportLab's graphics package walking the result cost more
than the rest of rendering a deck. A form's content is a list of PDF operators that
depends only on the drawing (:attr:`printdeck.artwork.Drawing.key`: the SVG's bytes
and the drawing code) and on this code, so it is recorded the first time (by the
proof, :mod:`printdeck.render.proof`, or the PDF, whichever draws it first) and
replayed after: in this process from memory, in later runs from the disk cache
(folder ``vectorforms``). Only plain path painting is recorded (numbers and the
operators of :data:`PLAIN_OPERATORS`, and an alpha set inside ``q``/``Q``: no fonts,
images, shadings or other resources a form would have to name); any other SVG is drawn
by svglib every time.
Replaying gives the same bytes as drawing.
"""

from __future__ import annotations

import io
import json
import re
import threading
from dataclasses import dataclass
from functools import lru_cache

from reportlab import Version as REPORTLAB_VERSION
from reportlab.pdfgen.canvas import Canvas

from printdeck.artwork import Drawing as SymbolDrawing
from printdeck.cache import cache_dir, code_digest, entry_key, read_entry, write_entry
from printdeck.render.bundled_forms import shipped_form
from printdeck.render.canvas import end_form

PLAIN_OPERATORS = frozenset(
    [
        "q",
        "Q",
        "cm",
        "w",
        "J",
        "j",
        "d",
        "M",
        "i",
        "ri",
        "rg",
        "RG",
        "g",
        "G",
        "k",
        "K",
        "m",
        "l",
        "c",
        "v",
        "y",
        "h",
        "re",
        "n",
        "f",
        "f*",
        "F",
        "B",
        "B*",
        "b",
        "b*",
        "s",
        "S",
        "W",
        "W*",
    ]
)
"""PDF operators a recorded form may hold: graphics state, colour, paths and painting."""
_NUMBER = re.compile(r"\[?(-?(\d+\.?\d*|\.\d+))?\]?")  # a number, or a dash array's bracket(s)
_MEMORY: dict[str, tuple[str, ...] | None] = {}
"""Recorded forms of this process by key; None: the SVG is not plain, svglib draws it."""
_LOCK = threading.Lock()  # proofs record forms on several threads


@dataclass(frozen=True)
class Art:
    """One symbol's form: its name and natural size (points) before scaling; ``word``
    when the form paints with the current fill colour."""

    form: str
    width_pt: float
    height_pt: float
    word: bool = False


def plain_operators(code: list[str] | tuple[str, ...]) -> bool:
    """Whether every token of ``code`` is a number or one of :data:`PLAIN_OPERATORS`, or
    the line an alpha (:data:`_ALPHA_LINE`: ``ca 0.2 GS``)."""
    return all(
        isinstance(line, str)
        and (
            _ALPHA_LINE.fullmatch(line) is not None
            or all(t in PLAIN_OPERATORS or _NUMBER.fullmatch(t) for t in line.split())
        )
        for line in code
    )


_ALPHA_LINE = re.compile(r"(ca|CA) (\d*\.?\d+(?:e-?\d+)?) GS")
"""A recorded form's graphics state that only sets an alpha (an SVG shape's opacity):
``ca 0.2 GS``, replayed as ReportLab sets it (:func:`_replayed`), never a name of one file's."""
_GS_LINE = re.compile(r"/(\w+) gs")


def recordable(code: list[str], states: dict[str, tuple[str, object]]) -> tuple[str, ...] | None:
    """``code`` as a form is recorded (:data:`PLAIN_OPERATORS`, each graphics state that
    only sets an alpha (``states``: what each name sets), inside a ``q``/``Q`` pair, written
    as its alpha), or None for a form that names other resources (fonts, images, shadings,
    blend modes).

    Inside ``q``/``Q`` ReportLab's own record of the state is restored after, so replaying
    the lines leaves it as drawing did, and the replay writes the same bytes."""
    out, depth = [], 0
    for line in code:
        found = _GS_LINE.fullmatch(line)
        if found is not None:
            key, value = states.get(found.group(1), ("", None))
            if key not in ("ca", "CA") or not isinstance(value, (int, float)) or depth < 1:
                return None
            out.append(f"{key} {float(value)!r} GS")
            continue
        depth += line.split().count("q") - line.split().count("Q")
        out.append(line)
    return tuple(out) if plain_operators(out) else None


def _replayed(canvas: Canvas, code: tuple[str, ...]) -> None:
    """Append recorded ``code`` to the open form, each alpha line as ReportLab names its
    graphics state in this file (the name it has, or the next free one)."""
    for line in code:
        alpha = _ALPHA_LINE.fullmatch(line)
        if alpha is None:
            canvas._code.append(line)
            continue
        state = canvas._extgstate
        t = (alpha.group(1), float(alpha.group(2)))
        if t not in state._c:
            state._c[t] = "gRLs" + str(len(state._c))
        canvas._code.append(f"/{state._c[t]} gs")


def vector_form(canvas: Canvas, art: SymbolDrawing, name: str) -> Art:
    """The SVG's vector form (svglib) in the form ``name``, stretched to the drawing's
    box (its viewBox, the box the layout packed): replayed when recorded before, else
    drawn (and recorded if plain). A grey canvas (:class:`printdeck.render.grey.GreyCanvas`)
    records and replays its own, DeviceGray, code.

    Raises:
        PrintdeckError: The SVG is unsafe or has no size.
        Exception: Whatever svglib or ReportLab raise on an SVG they cannot draw
            (:mod:`printdeck.render.proof` tries this first and prints such SVGs as images).
    """
    w, h = art.size
    key = form_key(art) + (".grey" if getattr(canvas, "grey", False) else "")  # a grey canvas: its own code
    found, code = _recorded(key)
    if found and code is not None:
        canvas.beginForm(name, 0, 0, w, h)
        _replayed(canvas, code)
        end_form(canvas)  # an alpha's graphics state among the form's resources
        return Art(name, w, h)
    from printdeck.render.svg_forms import draw_vectors  # noqa: PLC0415 - svglib only for a new SVG

    drawn, states = draw_vectors(canvas, art, name)
    if not found:
        _record(key, recordable(drawn, states))
    return Art(name, w, h)


def record_form(art: SymbolDrawing) -> None:
    """Draw and record the SVG's vector form (memory and disk cache) unless it is recorded
    already: what the proof records as it draws, for a drawing whose proof ships
    (:mod:`printdeck.render.bundled_proofs`), so the PDF replays it.

    Raises:
        Exception: Whatever :func:`vector_form` raises.
    """
    if _recorded(form_key(art))[0]:
        return
    from printdeck.render.canvas import scratch_canvas  # noqa: PLC0415 - only for a new SVG

    vector_form(scratch_canvas(io.BytesIO(), art.size), art, "record")


def form_recorded(art: SymbolDrawing) -> bool:
    """Whether the SVG's vector form is recorded (in memory, the disk cache, or shipped),
    so drawing it needs neither svglib nor ReportLab's graphics."""
    return _recorded(form_key(art))[0]


def form_key(art: SymbolDrawing) -> str:
    """The recorded form's key: the drawing's key, this code and svglib's and ReportLab's versions."""
    return entry_key(art.key, form_version())


@lru_cache(maxsize=1)
def form_version() -> str:
    """What every form's key holds beside its drawing's: the form code's digest and the
    installed ReportLab's and svglib's versions."""
    from importlib.metadata import version  # noqa: PLC0415 - once, when a form is first looked up

    modules = code_digest(
        "printdeck.render.vector_code",
        "printdeck.render.svg_forms",
        "printdeck.render.svg_opacity",  # the text svglib reads: a shape's opacity folded in
        "printdeck.render.pdf_fonts",
    )
    return f"{modules} reportlab {REPORTLAB_VERSION} svglib {version('svglib')}"


def _recorded(key: str) -> tuple[bool, tuple[str, ...] | None]:
    """``(found, code)``: from memory, else from the disk cache, else as shipped with the
    bundled pictures (:mod:`printdeck.render.bundled_forms`); code None = not plain."""
    with _LOCK:
        if key in _MEMORY:
            return True, _MEMORY[key]
    folder = cache_dir("vectorforms")
    text = read_entry(folder / f"{key}.json") if folder is not None else None
    if text is None:
        shipped = shipped_form(key)  # plain by making (the table keeps only recorded forms): not checked again
        if shipped is None:
            return False, None
        with _LOCK:
            _MEMORY[key] = shipped
        return True, shipped
    try:
        data = json.loads(text)
        code = data["code"]
        if code is not None and not (isinstance(code, list) and plain_operators(code)):
            return False, None
    except (ValueError, KeyError, TypeError):
        return False, None
    found = tuple(code) if code is not None else None
    with _LOCK:
        _MEMORY[key] = found
    return True, found


def _record(key: str, code: tuple[str, ...] | None) -> None:
    """Keep a drawn form's code (None: not plain) in memory and in the disk cache."""
    with _LOCK:
        _MEMORY[key] = code
    folder = cache_dir("vectorforms")
    if folder is not None:
        write_entry(folder / f"{key}.json", json.dumps({"code": None if code is None else list(code)}))
