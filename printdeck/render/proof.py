"""Proving, before any layout, that every symbol prints the ink its silhouette shows.

For each symbol the drawing is made once (:func:`printdeck.artwork.drawing`) and checked
at print size against the card's background: a symbol with no visible ink (white on a
white card, ink outside its viewBox, a transparent picture) is refused with one line.
An SVG's vector form, the one the PDF embeds (svglib), is drawn into a one-page PDF,
rasterised with pdfium and compared with resvg's raster, the one the silhouette is
traced from: where svglib drops, adds or moves ink (CSS variables, masks, broken path
data, an exception inside svglib), the PDF prints resvg's high-resolution raster instead,
with a warning. Verdicts are cached on disk by the drawing's key, so ``check`` and
``build`` decide alike and only once per artwork.
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import json
import os
import warnings
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np
from reportlab.pdfbase.pdfdoc import xObjectName
from reportlab.pdfgen.canvas import Canvas

if TYPE_CHECKING:
    from PIL import Image

from printdeck.artwork import drawing, drawing_key, existing_file, opencv
from printdeck.cache import cache_dir, code_digest, entry_key, read_entry, write_entry
from printdeck.errors import PrintdeckError, shown
from printdeck.model import SymbolSpec, drawn_only
from printdeck.render.bundled_proofs import shipped_proof
from printdeck.render.canvas import scratch_canvas
from printdeck.render.cut_outs import (
    BACKGROUND_PIECES,
    FAINT_EDGE_SHARE,
    BackgroundWarning,
    background_message,
    background_pieces,
    faint_edge_share,
    faint_message,
)
from printdeck.render.pdf_pixels import page_image
from printdeck.render.svg_features import svg_undrawn_feature, undrawn_line
from printdeck.render.vector_code import form_version
from printdeck.theme import (
    MIN_VISIBLE_SHARE,
    PROOF_PX,
    VISIBLE_CONTRAST,
    visible_ink,
)

STRAY_SHARE = 0.003
"""Vector ink beyond the traced ink (grown by :data:`SLACK_PX`) allowed, as a share of the visible ink."""
LOST_SHARE = 0.01
"""Visible traced ink the vector form may leave out, as a share of it."""
SLACK_PX = 2
CONTRAST = VISIBLE_CONTRAST
"""Smallest largest-channel difference from the background that counts as visible (the
theme's :data:`~printdeck.theme.VISIBLE_CONTRAST`, which word colours are held to too)."""


@dataclass(frozen=True)
class Proof:
    """What proving one symbol found.

    Attributes:
        visible_share: Share of the box showing ink against the card background.
        vector_ok: For an SVG, whether its vector form prints what was traced (always
            True for other kinds).
        stray_share: Vector ink outside the traced ink, share of the visible ink.
        lost_share: Traced visible ink the vector form leaves out, share of it.
        faint_edge_share: Share of the drawing's outline with no ink that shows on the
            card (:func:`~printdeck.render.cut_outs.faint_edge_share`).
        translucent: For an SVG printed as vectors, whether its form paints see-through
            (an opacity, a blend mode), which PDF/X-1a cannot hold.
        background_pieces: For a photo with ``remove_background``, how many separate
            parts it prints (:func:`~printdeck.render.cut_outs.background_pieces`); 0 else.
        light_l90: For a photo, the CIELAB lightness L* (0 to 100) a tenth of its printed
            pixels reach or pass (its brightest tenth's floor); 100 for other kinds.
    """

    visible_share: float
    vector_ok: bool = True
    stray_share: float = 0.0
    lost_share: float = 0.0
    faint_edge_share: float = 0.0
    translucent: bool = False
    background_pieces: int = 0
    light_l90: float = 100.0


class FaintEdgeWarning(UserWarning):
    """Most of a symbol's edge is almost the card's colour: players would not see its shape."""


class DarkPhotoWarning(UserWarning):
    """A photo so dark it prints nearly black (an underexposed or night shot)."""


DARK_L90 = 25.0
"""A photo whose brightest tenth of pixels stays under this CIELAB lightness L* is said to
print nearly black (phone photos measured: 57-80; the same made four times darker: 14-20)."""


class VectorWarning(UserWarning):
    """An SVG's vector form does not print what was traced: printed as a raster instead."""


def _grown(mask: np.ndarray) -> np.ndarray:
    """``mask`` ``(H, W) bool`` grown by :data:`SLACK_PX` pixels (a square), as ``(H, W) bool``."""
    cv2 = opencv()  # imported once, under a lock: OpenCV's bootstrap is not thread-safe

    square = np.ones((2 * SLACK_PX + 1,) * 2, dtype=np.uint8)
    grown: np.ndarray = cv2.dilate(mask.astype(np.uint8), square).astype(bool)
    return grown


def _vector_raster(symbol: SymbolSpec, size_px: tuple[int, int]) -> tuple[np.ndarray, bool]:
    """``(H, W) bool``: the ink (not white) of the SVG's vector form, drawn by pdfium; and
    whether the form paints see-through (a graphics state with an alpha under 1 or a blend
    mode: svglib's ``opacity``)."""
    from printdeck.render.vector_code import vector_form  # noqa: PLC0415 - ReportLab only when measured

    w_px, h_px = size_px
    buf = io.BytesIO()
    canvas = scratch_canvas(buf, (w_px * 0.75, h_px * 0.75))
    art = vector_form(canvas, drawing(symbol), "proof")
    canvas.scale(w_px * 0.75 / art.width_pt, h_px * 0.75 / art.height_pt)
    canvas.doForm(art.form)
    translucent = _paints_see_through(canvas, art.form)
    canvas.showPage()
    canvas.save()
    page = page_image(buf.getvalue(), 0, 1 / 0.75).convert("RGB").resize((w_px, h_px))
    ink: np.ndarray = (255 - np.asarray(page, dtype=np.int16)).max(axis=2) > CONTRAST
    return ink, translucent


def _paints_see_through(canvas: Canvas, form_name: str) -> bool:
    """Whether the form ``form_name`` drawn on ``canvas`` sets a graphics state with an
    alpha under 1 or a blend mode (ReportLab keeps the states a form sets on the form)."""
    form = canvas._doc.idToObject[xObjectName(form_name)]
    states = form.ExtGState.dict.values() if form.ExtGState else ()
    entries = [(str(key), value) for state in states for key, value in state.dict.items()]
    return any((k in ("ca", "CA") and float(v) < 1.0) or (k == "BM" and str(v) != "/Normal") for k, v in entries)


def _measure(symbol: SymbolSpec, background: str) -> Proof:
    art = drawing(symbol)
    from printdeck.artwork import rasterise_longest  # noqa: PLC0415 - resvg and Pillow only when measured

    raster = rasterise_longest(art, PROOF_PX, 8)
    size = raster.size
    visible = visible_ink(raster, background)
    visible_share = float(visible.mean())
    faint = faint_edge_share(raster, background)
    if art.kind != "svg":
        pieces = background_pieces(symbol, art)
        light = _light_l90(raster) if symbol.kind == "photo" else 100.0
        return Proof(visible_share, faint_edge_share=faint, background_pieces=pieces, light_l90=light)
    traced = np.asarray(raster.getchannel("A")) > 8
    on_white = visible if background == "#ffffff" else visible_ink(raster, "#ffffff")  # a white card: the same
    try:
        printed, translucent = _vector_raster(symbol, size)
    except Exception:  # noqa: BLE001 - svglib or ReportLab failing on odd SVG: print the raster
        return Proof(visible_share, False, 1.0, 1.0, faint)
    count = max(int(on_white.sum()), 1)
    stray = float((printed & ~_grown(traced)).sum()) / count
    lost = float((on_white & ~_grown(printed)).sum()) / count
    vector_ok = stray <= STRAY_SHARE and lost <= LOST_SHARE
    return Proof(visible_share, vector_ok, stray, lost, faint, translucent and vector_ok)


def _light_l90(raster: Image.Image) -> float:
    """The CIELAB lightness L* a tenth of the raster's printed (opaque) pixels reach or pass."""
    from printdeck.artwork import srgb_to_lab  # noqa: PLC0415 - with the raster

    rgba = np.asarray(raster.convert("RGBA"), dtype=np.float64) / 255.0
    printed = rgba[..., 3] > 0.5
    if not printed.any():
        return 100.0
    return float(np.percentile(srgb_to_lab(rgba[..., :3][printed])[:, 0], 90))


def proof(symbol: SymbolSpec, background: str = "#ffffff") -> Proof:
    """Prove one symbol (cached on disk by its drawing's key and the background).

    Raises:
        PrintdeckError: The artwork cannot be drawn.
    """
    key = _proof_key(symbol, drawing(symbol).key, background)
    proved = drawn_only(symbol, "color")  # by what is proved: a word's paint kept
    return _cached_proof(proved, background.lower(), key)  # so the deck's renumbered symbols share it


def proof_key(symbol: SymbolSpec, background: str = "#ffffff") -> str:
    """The key the symbol's proof on ``background`` is kept by (in the disk cache, and for
    the bundled pictures in :mod:`~printdeck.render.bundled_proofs`). Reads the file's
    bytes, draws nothing.

    Raises:
        PrintdeckError: The artwork file cannot be read, or a word cannot be set.
    """
    return _proof_key(symbol, drawing_key(symbol), background)


def forget_proofs() -> None:
    """Forget the proofs this process keeps in memory (the disk cache keeps its own)."""
    _cached_proof.cache_clear()


def _proof_key(symbol: SymbolSpec, drawn_key: str, background: str) -> str:
    """The proof's cache key: the drawing's key, a word's colour, the background, the code
    that draws and measures it, and for an SVG the vector form's code and libraries (its
    verdict is about that form)."""
    paint = symbol.color if symbol.kind == "text" else ""  # a word's colour is paint, not drawing
    forms = form_version() if symbol.kind == "svg" else ""
    code = code_digest(__name__, "printdeck.render.canvas", "printdeck.render.pdf_pixels", "printdeck.render.cut_outs")
    return entry_key(drawn_key, paint, background.lower(), code, forms)


def proof_stored(symbol: SymbolSpec, background: str = "#ffffff") -> bool:
    """Whether the symbol's proof on ``background`` is in the disk cache (an earlier run
    proved it) or ships with it (a bundled picture on white, see
    :mod:`~printdeck.render.bundled_proofs`); False when the cache is off. Reads the file's
    bytes, draws nothing.

    Raises:
        PrintdeckError: The artwork file cannot be read, or a word cannot be set.
    """
    folder = cache_dir("proofs")
    if folder is None:
        return False
    key = proof_key(symbol, background)
    return (folder / f"{key}.json").is_file() or shipped_proof(key) is not None


def proof_ready(symbol: SymbolSpec, background: str = "#ffffff") -> bool:
    """Whether proving the SVG ``symbol`` on ``background`` draws nothing: its proof is
    stored (:func:`proof_stored`) and its vector form recorded, in the disk cache or as
    shipped with the bundled pictures (:mod:`~printdeck.render.bundled_forms`). False for
    a word. Reads the file's bytes, draws nothing.

    Raises:
        PrintdeckError: The artwork file cannot be read.
    """
    if symbol.kind != "svg" or not proof_stored(symbol, background):
        return False
    from printdeck.render.vector_code import form_recorded  # noqa: PLC0415 - ReportLab only when asked

    return form_recorded(drawing(symbol))


@lru_cache(maxsize=4096)
def _cached_proof(symbol: SymbolSpec, background: str, key: str) -> Proof:
    folder = cache_dir("proofs")
    entry = folder / f"{key}.json" if folder is not None else None
    found = _stored(read_entry(entry)) if entry is not None else None
    if found is not None:
        return found
    shipped = shipped_proof(key)  # a bundled picture on white: proved when printdeck was made
    found = _stored(json.dumps(shipped)) if shipped is not None else None
    if found is not None:
        _record_vector_form(symbol)  # what proving records as it draws, for the PDF to replay
        if entry is not None:  # kept as a proof made here is: the next run finds both at once
            write_entry(entry, json.dumps(asdict(found)))
        return found
    result = _measure(symbol, background)
    if entry is not None:
        write_entry(entry, json.dumps(asdict(result)))
    return result


def _stored(text: str | None) -> Proof | None:
    """The proof a stored entry (JSON of its fields) holds, or None when it holds none or
    lacks a field: an entry written before a measure was added is measured again, never
    read as that measure's default (a busy background's pieces as 0)."""
    try:
        fields = json.loads(text or "null")
        if not isinstance(fields, dict) or set(fields) != {f.name for f in dataclasses.fields(Proof)}:
            return None
        found = Proof(**fields)
    except (TypeError, ValueError):
        return None
    return found if isinstance(found.vector_ok, bool) else None


def _record_vector_form(symbol: SymbolSpec) -> None:
    """Record an SVG's vector form for the PDF (:func:`printdeck.render.vector_code.record_form`)
    unless it is recorded: proving an SVG records it as it draws, and a proof that ships
    (:mod:`~printdeck.render.bundled_proofs`) is not drawn. A form that cannot be recorded
    is drawn by the PDF itself (which then says why)."""
    if symbol.kind != "svg":
        return
    from printdeck.render.vector_code import record_form  # noqa: PLC0415 - ReportLab only when recorded

    with contextlib.suppress(Exception):  # svglib's own failures: the PDF meets them
        record_form(drawing(symbol))


def fallback_line(symbol: SymbolSpec, proved: Proof | None = None) -> str:
    """The one line said of an SVG printed as an image, the same wherever it is said (the
    proof, the PDF drawing the image), so a build says it once: the feature svglib cannot
    draw (:func:`~printdeck.render.svg_features.svg_undrawn_feature`), else how far its
    vector form missed what was traced (``proved``, default: its proof on white)."""
    feature = svg_undrawn_feature(existing_file(symbol))
    if feature is not None:
        return undrawn_line(symbol.source, feature)
    proved = proof(symbol) if proved is None else proved
    return (
        f"{symbol.source}: the PDF's vector drawing of this SVG differs from what the layout "
        f"traced ({100 * max(proved.stray_share, proved.lost_share):.0f} % of its ink); printed "
        "as a high-resolution image instead"
    )


def shows_on_white(symbol: SymbolSpec) -> bool:
    """Whether ``symbol`` shows on a white page (the legend's): ink that shows, and an
    outline that does (:data:`MIN_VISIBLE_SHARE`, :data:`FAINT_EDGE_SHARE`); a white icon
    made for a coloured card does not.

    Raises:
        PrintdeckError: The artwork cannot be drawn.
    """
    on_white = proof(symbol, "#ffffff")
    return on_white.visible_share >= MIN_VISIBLE_SHARE and on_white.faint_edge_share < FAINT_EDGE_SHARE


def prints_as_raster(symbol: SymbolSpec) -> bool:
    """Whether an SVG's vector form failed its proof (on a white page): print its raster."""
    return symbol.kind == "svg" and not proof(symbol).vector_ok


def _known(symbol: SymbolSpec, background: str) -> bool:
    """Whether the symbol's proof is in the disk cache (False where that cannot be told: the
    proof itself says what is wrong)."""
    try:
        return proof_stored(symbol, background)
    except PrintdeckError:
        return False


def _no_ink(symbol: SymbolSpec, label: str, background: str) -> PrintdeckError:
    """The refusal of ``symbol`` (``label``: its theme key or name), which shows no visible
    ink on ``background``: keyed to its theme entry, so a program and the studio know which
    symbol it is; no source, so the theme's file is named as for its other entries
    (:func:`~printdeck.theme.theme_errors_located`)."""
    problem = (
        f"{shown(symbol.source)} shows no visible ink on the card background {background} (nothing, ink the "
        "colour of the card, or lines too thin to show at print size)"
    )  # the picture named in the problem: a folder's entry is keyed to the folder
    fix = "change the artwork or card.background"
    return PrintdeckError(f"{label}: {problem}; {fix}", key=symbol.theme_key, problem=problem, fix=fix)


def prove_symbols(
    symbols: Sequence[SymbolSpec], background: str, where: Sequence[str] | None = None, *, opaque: bool = False
) -> None:
    """Prove every symbol; refuse the first that shows no ink, warn for SVGs printed as rasters
    and for symbols whose edge does not show on the card.

    Args:
        symbols: The symbols to prove (each once).
        background: The card's background colour, ``#rrggbb``.
        where: The theme key of each symbol, for messages (default: its name).
        opaque: The file allows no transparency (PDF/X-1a): say which SVGs print as
            images because their vector forms paint see-through.

    Raises:
        PrintdeckError: A symbol shows no visible ink on the background (one line
            naming it and what to change) or cannot be drawn.

    Warns:
        VectorWarning: once per SVG whose vector form is replaced by its raster; once for
            all the see-through SVGs a PDF/X-1a file (``opaque``) prints as images.
        FaintEdgeWarning: once per symbol whose edge is mostly almost the background's
            colour (:data:`FAINT_EDGE_SHARE`).
        BackgroundWarning: once per photo whose removed background left scattered pieces
            (:data:`~printdeck.render.cut_outs.BACKGROUND_PIECES`).
        DarkPhotoWarning: once per photo that prints nearly black (:data:`DARK_L90`).
    """
    if len(symbols) <= 1 or all(_known(s, background) for s in symbols):  # nothing to draw: threads would
        results = [proof(s, background) for s in symbols]  # only take turns with the GIL (a third slower)
    else:
        with ThreadPoolExecutor(max_workers=min(4, os.cpu_count() or 1)) as pool:  # decoding, faces, resvg
            results = list(pool.map(lambda s: proof(s, background), symbols))  # release the GIL
    see_through: list[str] = []
    for k, (symbol, result) in enumerate(zip(symbols, results)):
        label = where[k] if where is not None else f"symbol {symbol.name!r}"
        if result.visible_share < MIN_VISIBLE_SHARE:
            raise _no_ink(symbol, label, background)
        if opaque and result.translucent and not svg_undrawn_feature(existing_file(symbol)):
            see_through.append(f"{label}: {shown(symbol.source)}")
        if result.faint_edge_share >= FAINT_EDGE_SHARE:
            message = faint_message(label, symbol, background, boxed=_boxed(symbol))
            warnings.warn(message, FaintEdgeWarning, stacklevel=2)
        if result.background_pieces >= BACKGROUND_PIECES:
            message = background_message(label, symbol, result.background_pieces)
            warnings.warn(message, BackgroundWarning, stacklevel=2)
        if result.light_l90 < DARK_L90:
            warnings.warn(_dark_message(label, symbol, result.light_l90), DarkPhotoWarning, stacklevel=2)
        if not result.vector_ok or (symbol.kind == "svg" and svg_undrawn_feature(existing_file(symbol))):
            warnings.warn(fallback_line(symbol, result), VectorWarning, stacklevel=2)  # as the PDF will say it
    if see_through:
        warnings.warn(see_through_line(see_through), VectorWarning, stacklevel=2)


def _dark_message(label: str, symbol: SymbolSpec, light_l90: float) -> str:
    """The warning for a photo that prints nearly black (``light_l90``: :attr:`Proof.light_l90`)."""
    return (
        f"{label} ({shown(symbol.source)}): the photo is so dark it prints nearly black (its brightest "
        f"pixels reach lightness {light_l90:.0f} of 100); brighten it first (a photo editor's exposure or "
        "brightness), or choose another"
    )


def _boxed(symbol: SymbolSpec) -> bool:
    """Whether a picture (not a photo: photos are cropped to their shape) has no
    transparency: every pixel of its box opaque."""
    if symbol.kind != "raster":
        return False
    from printdeck.artwork import rasterise_longest  # noqa: PLC0415 - only when a faint edge is said

    alpha = np.asarray(rasterise_longest(drawing(symbol), 64, 8).getchannel("A"))
    return bool(alpha.min() >= 250)


SAID_SEE_THROUGH = 12
"""The see-through pictures :func:`see_through_line` names; the others are counted."""


def see_through_line(pictures: Sequence[str]) -> str:
    """The one warning line for the SVGs a PDF/X-1a file prints as images (each ``"<label>:
    <file>"``): they are partly see-through, which PDF/X-1a cannot hold.

    Examples:
        >>> see_through_line(["symbol 'a': a.svg", "symbol 'b': b.svg"])[:72]
        "symbol 'a': a.svg and symbol 'b': b.svg are partly see-through (an opaci"
    """
    named = list(pictures[:SAID_SEE_THROUGH])
    if len(pictures) > SAID_SEE_THROUGH:
        named.append(f"{len(pictures) - SAID_SEE_THROUGH} more SVGs")
    names = named[0] if len(named) == 1 else ", ".join(named[:-1]) + f" and {named[-1]}"
    verb, them = ("is", "a high-resolution image") if len(pictures) == 1 else ("are", "high-resolution images")
    return (
        f"{names} {verb} partly see-through (an opacity), which PDF/X-1a cannot hold: printed as {them} on "
        "the card's colour (a PDF/X-4 file keeps vectors, where the printer takes one)"
    )
