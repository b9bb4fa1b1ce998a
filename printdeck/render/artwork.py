"""Symbol artwork stored once as PDF Form XObjects and placed by transformation.

Each symbol's artwork (SVG as vectors, raster/photo at native resolution, or a
word in an embedded TTF) becomes one Form XObject the first time a card uses it;
every placement then draws that form with a translate / rotate / scale, so the
file holds each artwork once however many cards show it.
"""

from __future__ import annotations

import io
import warnings
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import defusedxml.ElementTree as safe_et
from defusedxml import DefusedXmlException
from PIL import Image, ImageOps
from reportlab.graphics import renderPDF
from reportlab.graphics.shapes import Circle, Drawing, Ellipse, String
from reportlab.lib.colors import HexColor
from reportlab.lib.utils import ImageReader
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas
from svglib.svglib import svg2rlg

from printdeck.errors import PrintdeckError
from printdeck.layout.artwork import rasterise, text_metrics
from printdeck.model import CardLayout, Placement, SymbolSpec
from printdeck.render import fonts
from printdeck.theme.images import prepared_image
from printdeck.units import MM_PER_UNIT, mm_to_pt

WARN_DPI = 300.0
"""Raster symbols printing below this resolution draw a warning."""
REFUSE_DPI = 150.0
"""Raster symbols printing below this resolution are refused."""
TEXT_FORM_SIZE_PT = 100.0
"""Font size a text symbol's form is drawn at before scaling, points."""
ROUNDED_RADIUS = 0.15
"""Corner radius of a rounded photo crop, as a fraction of the square's side."""
EXIF_ORIENTATION = 0x0112
SVG_IMAGE_PX = 1200
"""Longer side, pixels, of an SVG printed as an image (see :func:`svg_undrawn_feature`):
600 dpi on a 50 mm symbol (a big one on an 85 mm card), more on smaller ones."""
SVG_UNDRAWN = ("mask", "filter", "pattern", "marker", "foreignObject")
"""SVG features svglib leaves out of the PDF (elements, or ``mask``/``filter``/``marker*`` references)."""


class ResolutionWarning(UserWarning):
    """A raster symbol prints below 300 dpi (still accepted down to 150 dpi)."""


class SvgImageWarning(UserWarning):
    """An SVG uses a feature the vector path cannot draw, so it is printed as an image."""


@dataclass(frozen=True)
class Art:
    """One symbol's form: its name and natural size (points) before scaling."""

    form: str
    width_pt: float
    height_pt: float


class ArtLibrary:
    """Forms for the symbols of one document, created on first use.

    Args:
        canvas: The ReportLab canvas of the document.
        symbols: Every symbol the placements name, looked up by ``SymbolSpec.id``.
    """

    def __init__(self, canvas: Canvas, symbols: Sequence[SymbolSpec]) -> None:
        self._canvas = canvas
        self._symbols = by_id(symbols)
        self._forms: dict[int, Art] = {}

    @property
    def form_count(self) -> int:
        """Number of symbol forms created so far."""
        return len(self._forms)

    def art(self, symbol_id: int) -> Art:
        """The form of symbol ``symbol_id``, created the first time it is asked for.

        Raises:
            PrintdeckError: The artwork file is missing, unsafe or unreadable.
        """
        if symbol_id not in self._forms:
            if symbol_id not in self._symbols:
                raise ValueError(f"a placement names symbol id {symbol_id}, which is not among the symbols given")
            self._forms[symbol_id] = _make_form(self._canvas, self._symbols[symbol_id])
        return self._forms[symbol_id]

    def place(self, placement: Placement, card_center_pt: tuple[float, float]) -> None:
        """Draw one placement on the current page.

        Args:
            placement: Symbol, centre (mm from the card centre, y up), rotation
                (degrees, counter-clockwise) and box (mm) of the artwork.
            card_center_pt: The card centre on the page, points.
        """
        art = self.art(placement.symbol_id)
        c = self._canvas
        c.saveState()
        c.translate(card_center_pt[0] + mm_to_pt(placement.center_mm[0]),
                    card_center_pt[1] + mm_to_pt(placement.center_mm[1]))
        if placement.rotation_deg:
            c.rotate(placement.rotation_deg)
        c.scale(mm_to_pt(placement.box_mm[0]) / art.width_pt, mm_to_pt(placement.box_mm[1]) / art.height_pt)
        c.translate(-art.width_pt / 2.0, -art.height_pt / 2.0)
        c.doForm(art.form)
        c.restoreState()


def by_id(symbols: Sequence[SymbolSpec]) -> dict[int, SymbolSpec]:
    """Symbols keyed by their ``id`` (the renderer never relies on list positions)."""
    return {s.id: s for s in symbols}


def _make_form(canvas: Canvas, symbol: SymbolSpec) -> Art:
    name = f"sym{symbol.id}"
    if symbol.kind == "svg":
        return _svg_form(canvas, name, symbol)
    if symbol.kind in ("raster", "photo"):
        return _image_form(canvas, name, symbol)
    if symbol.kind == "text":
        return _text_form(canvas, name, symbol)
    raise PrintdeckError(f"symbol {symbol.name!r}: unknown kind {symbol.kind!r}")


def _require_file(symbol: SymbolSpec) -> Path:
    if symbol.path is None or not Path(symbol.path).is_file():
        raise PrintdeckError(f"symbol {symbol.name!r}: artwork file {symbol.source} not found; "
                             "restore it or remove it from the theme")
    return Path(symbol.path)


def load_svg_drawing(path: Path) -> Drawing:
    """Parse an SVG safely (no DTD entities, no network, no files outside its folder).

    Raises:
        PrintdeckError: The SVG is unsafe, malformed or empty.
    """
    try:
        safe_et.parse(str(path))
    except (DefusedXmlException, safe_et.ParseError, OSError) as exc:
        raise PrintdeckError(f"{path}: not a safe, well-formed SVG ({exc}); re-export it without DTD or entities") from exc
    drawing = svg2rlg(str(path), resolve_entities=False, external_reference_root=str(path.parent))
    if drawing is None or drawing.width <= 0 or drawing.height <= 0:
        raise PrintdeckError(f"{path}: SVG has no size (needs a viewBox or width/height)")
    fonts.register_bundled()
    drawing.initialFontName = fonts.SANS  # type: ignore[attr-defined]
    for node in _nodes(drawing):
        _embed_font(node)
        _round_closed_curve_caps(node)
    return drawing


def _nodes(node: object) -> Iterator[object]:
    """The node and every node under it (a ReportLab drawing's tree)."""
    yield node
    for child in getattr(node, "contents", ()) or ():
        yield from _nodes(child)


def _round_closed_curve_caps(node: object) -> None:
    """Give a stroked circle or ellipse round line caps.

    ReportLab strokes them as open paths (no closepath), so the two butt caps where
    the path starts and ends meet edge to edge and anti-aliasing viewers show a
    hairline seam across the ring. A round cap of a closed curve lies inside the
    stroke (every point of it is within half the width of the centre line), so the
    seam is covered and nothing else changes.
    """
    if isinstance(node, (Circle, Ellipse)):
        node.strokeLineCap = 1


def _embed_font(node: object) -> None:
    """Make SVG text use the embedded sans font unless its font is embedded already.

    ReportLab would otherwise fall back to the standard Helvetica, which is not
    embedded in the file (the drawing's default font is set to the sans font too).
    """
    if isinstance(node, String):
        try:
            embedded = isinstance(pdfmetrics.getFont(node.fontName), TTFont)
        except KeyError:
            embedded = False
        if not embedded:
            node.fontName = fonts.SANS


def svg_undrawn_feature(path: Path) -> str | None:
    """The first feature of :data:`SVG_UNDRAWN` the SVG at ``path`` uses, or None.

    svglib skips these without a word (a crescent cut by a ``<mask>`` would print
    as a full disc over its neighbours), so such an SVG is printed as an image
    drawn by resvg, the renderer the layout traced it with.
    """
    refs = ("mask", "filter", "marker", "marker-start", "marker-mid", "marker-end")
    for el in safe_et.parse(str(path)).getroot().iter():
        tag = str(el.tag).rsplit("}", 1)[-1]
        if tag in SVG_UNDRAWN:
            return tag
        style = {k.strip(): v for k, _, v in (d.partition(":") for d in el.attrib.get("style", "").split(";"))}
        for key in refs:
            if "url(" in el.attrib.get(key, "") + style.get(key, ""):
                return key.split("-")[0]
    return None


def _svg_form(canvas: Canvas, name: str, symbol: SymbolSpec) -> Art:
    """The SVG as vectors (svglib), or as a :data:`SVG_IMAGE_PX` image drawn by resvg
    when it uses a feature svglib cannot draw (warns :class:`SvgImageWarning`)."""
    path = _require_file(symbol)
    drawing = load_svg_drawing(path)
    w, h = float(drawing.width), float(drawing.height)
    feature = svg_undrawn_feature(path)
    canvas.beginForm(name, 0, 0, w, h)
    if feature is None:
        renderPDF.draw(drawing, canvas, 0, 0, showBoundary=False)
    else:
        scale = SVG_IMAGE_PX / max(w, h)
        picture = rasterise(symbol, round(w * scale), round(h * scale))
        canvas.drawImage(ImageReader(picture), 0, 0, w, h, mask="auto")
        warnings.warn(f"{symbol.source}: the SVG uses {feature}, which the PDF's vector path cannot draw; "
                      f"printed as a {picture.width} x {picture.height} px image instead", SvgImageWarning,
                      stacklevel=2)
    canvas.endForm()
    return Art(name, w, h)


def image_size_px(path: Path) -> tuple[int, int]:
    """Pixel (width, height) of an image file as displayed (EXIF rotation applied).

    Raises:
        PrintdeckError: The file is not an image Pillow can read.
    """
    try:
        with Image.open(path) as im:
            w, h = im.size
            turned = im.getexif().get(EXIF_ORIENTATION, 1) in (5, 6, 7, 8)
    except (OSError, Image.DecompressionBombError) as exc:
        raise PrintdeckError(f"{path}: not a readable image ({exc})") from exc
    return (h, w) if turned else (w, h)


def image_reader(path: Path) -> ImageReader:
    """An ImageReader for ``path`` whose PDF name derives from the pixels, not the path.

    ReportLab names an image XObject after a hash of the file name when given a
    path, so the same theme in two folders would give two different PDFs; given
    an ImageReader it hashes the decoded pixels. An upright JPEG stays JPEG (its
    bytes go into the file as a DCT stream, not re-encoded); an image with an EXIF
    rotation is turned upright first (then stored losslessly, Flate).

    Args:
        path: A JPEG, PNG or other image file Pillow reads.

    Returns:
        The reader (also gives the upright size via ``getSize()``, pixels).

    Raises:
        PrintdeckError: The file cannot be read or is not an image.
    """
    try:
        data = Path(path).read_bytes()
        with Image.open(io.BytesIO(data)) as im:
            if im.getexif().get(EXIF_ORIENTATION, 1) in (1, None):
                return ImageReader(io.BytesIO(data))
            upright = ImageOps.exif_transpose(im)
            upright.load()
    except (OSError, Image.DecompressionBombError) as exc:
        raise PrintdeckError(f"{path}: not a readable image ({exc})") from exc
    return ImageReader(upright)


def _embeds_as_is(path: Path, symbol: SymbolSpec) -> bool:
    """Whether the file can go into the PDF untouched (JPEG passthrough, PNG as is)."""
    if symbol.remove_background:
        return False
    with Image.open(path) as im:
        return im.format in ("JPEG", "PNG") and im.getexif().get(EXIF_ORIENTATION, 1) == 1


def _image_form(canvas: Canvas, name: str, symbol: SymbolSpec) -> Art:
    """Raster or photo at native resolution; photos cropped (circle or rounded square
    of side min(w, h), centred: the layout's convention)."""
    path = _require_file(symbol)
    w, h = (float(v) for v in image_size_px(path))
    canvas.beginForm(name, 0, 0, w, h)
    if _embeds_as_is(path, symbol):
        if symbol.kind == "photo":
            side = min(w, h)
            x0, y0 = (w - side) / 2.0, (h - side) / 2.0
            clip = canvas.beginPath()
            if symbol.photo_shape == "rounded":
                clip.roundRect(x0, y0, side, side, ROUNDED_RADIUS * side)
            else:
                clip.circle(w / 2.0, h / 2.0, side / 2.0)
            canvas.clipPath(clip, stroke=0, fill=0)
        canvas.drawImage(image_reader(path), 0, 0, w, h, mask="auto")
    else:
        picture = prepared_image(symbol, max_px=int(max(w, h)))
        canvas.drawImage(ImageReader(picture), 0, 0, w, h, mask="auto")
    canvas.endForm()
    return Art(name, w, h)


def _text_form(canvas: Canvas, name: str, symbol: SymbolSpec) -> Art:
    """The word's ink box (the layout's convention: the pixels Pillow draws with plain
    advances, see :func:`~printdeck.layout.artwork.text_metrics`) as the form box."""
    text = symbol.text or symbol.name
    font = fonts.register_font(symbol.font_path)
    m = text_metrics(symbol)
    size = TEXT_FORM_SIZE_PT
    w, h = (m.right - m.left) * size, (m.top - m.bottom) * size
    canvas.beginForm(name, 0, 0, w, h)
    canvas.setFillColor(HexColor(symbol.color))
    canvas.setFont(font, size)
    canvas.drawString(-m.left * size, -m.bottom * size, text)
    canvas.endForm()
    return Art(name, max(w, 1e-3), max(h, 1e-3))


def check_raster_resolution(symbols: Sequence[SymbolSpec], layouts: Sequence[CardLayout]) -> dict[int, float]:
    """Lowest print resolution of every raster or photo symbol, warning or refusing.

    Effective dpi = pixels / (printed size in mm / 25.4), the lower of the two axes.

    Args:
        symbols: The deck's symbols (looked up by ``id``).
        layouts: The laid-out cards.

    Returns:
        ``{symbol_id: lowest dpi}`` for raster and photo symbols that are used.

    Raises:
        PrintdeckError: A symbol prints below 150 dpi (names the symbol and card).

    Warns:
        ResolutionWarning: once per symbol printing below 300 dpi.
    """
    lowest: dict[int, tuple[float, int]] = {}
    sizes: dict[int, tuple[int, int]] = {}
    table = by_id(symbols)
    for card in layouts:
        for p in card.placements:
            sym = table[p.symbol_id]
            if sym.kind not in ("raster", "photo"):
                continue
            if p.symbol_id not in sizes:
                sizes[p.symbol_id] = image_size_px(_require_file(sym))
            px_w, px_h = sizes[p.symbol_id]
            mm_per_in = MM_PER_UNIT["in"]
            dpi = min(px_w / (p.box_mm[0] / mm_per_in), px_h / (p.box_mm[1] / mm_per_in))
            if p.symbol_id not in lowest or dpi < lowest[p.symbol_id][0]:
                lowest[p.symbol_id] = (dpi, card.index)
    for sid, (dpi, card_index) in sorted(lowest.items()):
        src = table[sid].source
        if dpi < REFUSE_DPI:
            raise PrintdeckError(f"{src}: prints at {dpi:.0f} dpi on card {card_index + 1} (needs at least "
                                 f"{REFUSE_DPI:.0f}, better {WARN_DPI:.0f}); use a larger image")
        if dpi < WARN_DPI:
            warnings.warn(f"{src}: prints at only {dpi:.0f} dpi on card {card_index + 1}; "
                          f"{WARN_DPI:.0f} dpi or more looks sharp", ResolutionWarning, stacklevel=2)
    return {sid: v[0] for sid, v in lowest.items()}
