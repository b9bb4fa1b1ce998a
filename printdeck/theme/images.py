"""Checking artwork files before a build, and preparing symbol pictures.

Every file a theme names is opened and fully decoded once at load time, so a
missing, empty, truncated, corrupt or hostile file stops the build before any
output is written. SVGs are parsed with defusedxml (no DTDs, entities or
external references) and may refer only to their own elements (``#id``) or to
embedded ``data:`` URIs. Rasters are refused above ``MAX_PIXELS`` before their
pixels are decoded (decompression bombs).

``prepared_image`` gives the one RGBA picture of a symbol that layout (for its
silhouette) and render (for rasters and photos) both use, so they agree on
crops, masks and removed backgrounds.
"""

from __future__ import annotations

import hashlib
import io
import re
import warnings
from dataclasses import dataclass
from pathlib import Path
from xml.etree.ElementTree import Element

import numpy as np
from defusedxml import DefusedXmlException
from defusedxml import ElementTree as SafeET
from PIL import Image, ImageDraw, ImageFont, ImageOps

from printdeck.errors import PrintdeckError
from printdeck.model import SymbolSpec
from printdeck.theme.fonts import default_font_path, load_font

MAX_PIXELS = 60_000_000
"""Largest raster (width x height) accepted: a 48-megapixel phone photo fits."""
MAX_IMAGE_BYTES = 80_000_000
MAX_SVG_BYTES = 5_000_000
MIN_SIDE_PX = 8
RASTER_FORMATS = {"PNG", "JPEG", "MPO", "WEBP"}
PHOTO_CORNER_FRACTION = 0.15
"""Corner radius of a rounded photo crop, as a fraction of the square's side."""
BACKGROUND_TOLERANCE = 40
"""Largest per-channel difference from the corner colour still counted as background."""

_URL = re.compile(r"url\(\s*['\"]?\s*([^'\")\s]*)", re.IGNORECASE)
_SVG_NUMBER = re.compile(r"^\s*([0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?)\s*(px|pt|mm|cm|in)?\s*$")


@dataclass(frozen=True)
class FileCheck:
    """What checking one artwork file found.

    Attributes:
        kind: ``svg`` or ``raster``.
        size_px: (width, height) of a raster; the viewBox size of an SVG.
        has_alpha: Whether a raster has transparent pixels.
        digests: Content fingerprints (file bytes; decoded pixels) for duplicate checks.
    """

    kind: str
    size_px: tuple[float, float]
    has_alpha: bool
    digests: tuple[str, ...]


def _read(path: Path, where: str, limit: int) -> bytes:
    if not path.is_file():
        raise PrintdeckError(f"{where}: {path} not found; check the path (relative to the theme file)")
    try:
        with open(path, "rb") as handle:
            data = handle.read(limit + 1)
    except OSError as exc:
        raise PrintdeckError(f"{where}: cannot read {path} ({exc.strerror}); check its permissions") from None
    if not data:
        raise PrintdeckError(f"{where}: {path} is empty (0 bytes); replace it with a real image")
    if len(data) > limit:
        raise PrintdeckError(f"{where}: {path} is larger than {limit // 1_000_000} MB; use a smaller image")
    return data


def _open_raster(data: bytes, path: Path, where: str, draft_px: int | None = None) -> Image.Image:
    """Open and fully decode raster bytes, refusing bombs and broken files."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", Image.DecompressionBombWarning)
        try:
            image = Image.open(io.BytesIO(data), formats=["PNG", "JPEG", "WEBP"])
            if image.width * image.height > MAX_PIXELS:
                raise PrintdeckError(f"{where}: {path} is {image.width}x{image.height} pixels, more than "
                                     f"{MAX_PIXELS // 1_000_000} megapixels; scale it down")
            if draft_px is not None and image.format in ("JPEG", "MPO"):
                image.draft("RGB", (draft_px, draft_px))
            image.load()
        except PrintdeckError:
            raise
        except (Image.DecompressionBombError, Image.DecompressionBombWarning):
            raise PrintdeckError(f"{where}: {path} claims a huge size (a decompression bomb?); "
                                 "use an ordinary image") from None
        except Image.UnidentifiedImageError:
            raise PrintdeckError(f"{where}: {path} is not a PNG, JPEG or WebP image (or it is corrupt); "
                                 "re-export it as PNG") from None
        except (OSError, SyntaxError, ValueError, EOFError, MemoryError, IndexError, TypeError) as exc:
            raise PrintdeckError(f"{where}: {path} is truncated or corrupt ({str(exc) or type(exc).__name__}); "
                                 "re-export the image") from None
    return image


def check_raster_file(path: Path, where: str) -> FileCheck:
    """Fully decode a PNG/JPEG/WebP file.

    Args:
        path: The image file.
        where: Theme key naming it (``symbols.3.image``), for messages.

    Returns:
        Size, transparency and fingerprints.

    Raises:
        PrintdeckError: Missing, unreadable, empty, too large, not PNG/JPEG/WebP,
            truncated or corrupt, a decompression bomb, tiny, or fully transparent.
    """
    data = _read(path, where, MAX_IMAGE_BYTES)
    image = _open_raster(data, path, where, draft_px=1024)
    if min(image.size) < MIN_SIDE_PX:
        raise PrintdeckError(f"{where}: {path} is only {image.width}x{image.height} pixels; "
                             f"give an image at least {MIN_SIDE_PX} pixels a side")
    has_alpha = False
    if image.mode in ("RGBA", "LA", "PA") or (image.mode == "P" and "transparency" in image.info):
        alpha = np.asarray(image.convert("RGBA").getchannel("A"))
        if not alpha.any():
            raise PrintdeckError(f"{where}: {path} is fully transparent, so nothing would show; check the file")
        has_alpha = bool((alpha < 255).any())
    pixels = hashlib.sha256(f"{image.mode}{image.size}".encode() + image.tobytes()).hexdigest()
    return FileCheck("raster", (float(image.width), float(image.height)), has_alpha,
                     (hashlib.sha256(data).hexdigest(), pixels))


def _svg_length(value: str | None) -> float | None:
    if value is None:
        return None
    match = _SVG_NUMBER.match(value)
    return float(match.group(1)) if match else None


def _svg_size(root: Element, path: Path, where: str) -> tuple[float, float]:
    box = root.get("viewBox")
    if box is not None:
        try:
            numbers = [float(v) for v in box.replace(",", " ").split()]
        except ValueError:
            numbers = []
        if len(numbers) == 4 and numbers[2] > 0 and numbers[3] > 0 and all(np.isfinite(numbers)):
            return numbers[2], numbers[3]
        raise PrintdeckError(f"{where}: {path} has a bad viewBox {box!r}; give four numbers with positive size")
    width, height = _svg_length(root.get("width")), _svg_length(root.get("height"))
    if width and height and np.isfinite(width) and np.isfinite(height):
        return width, height
    raise PrintdeckError(f"{where}: {path} has no viewBox (nor width and height); add a viewBox")


def _check_references(root: Element, path: Path, where: str) -> None:
    """Refuse links to anything outside the SVG (files, web addresses)."""
    for element in root.iter():
        values = [(k, v) for k, v in element.attrib.items()]
        if element.text and str(element.tag).endswith("style"):
            values.append(("style", element.text))
        for key, value in values:
            targets = [value.strip()] if key.endswith("href") else _URL.findall(value)
            if key == "style" and "@import" in value:
                targets.append("@import")
            for target in targets:
                if target and not target.startswith(("#", "data:")):
                    raise PrintdeckError(f"{where}: {path} refers to an outside resource {target[:60]!r}; "
                                         "embed it or remove the reference")


def check_svg_file(path: Path, where: str) -> FileCheck:
    """Parse an SVG safely and check it draws something.

    Args:
        path: The SVG file.
        where: Theme key naming it, for messages.

    Returns:
        The viewBox size and the file's fingerprint.

    Raises:
        PrintdeckError: Missing, unreadable, empty, too large, not well-formed XML,
            has a DTD/entities/external references, not an ``<svg>``, refers to
            outside files or URLs, has no size, or cannot be rendered.
    """
    data = _read(path, where, MAX_SVG_BYTES)
    try:
        root = SafeET.fromstring(data, forbid_dtd=True, forbid_entities=True, forbid_external=True)
    except DefusedXmlException:
        raise PrintdeckError(f"{where}: {path} declares a DTD or entities, which are not allowed; "
                             "remove the <!DOCTYPE ...> part") from None
    except (SafeET.ParseError, ValueError, UnicodeError) as exc:
        raise PrintdeckError(f"{where}: {path} is not a well-formed SVG ({exc}); re-export it") from None
    if not str(root.tag).rsplit("}", 1)[-1] == "svg":
        raise PrintdeckError(f"{where}: {path} is XML but not an SVG (root <{root.tag}>); give an SVG image")
    _check_references(root, path, where)
    size = _svg_size(root, path, where)
    _check_draws(path, size, where)
    return FileCheck("svg", size, True, (hashlib.sha256(data).hexdigest(),))


def _check_draws(path: Path, size: tuple[float, float], where: str) -> None:
    """Render the SVG small (resvg, 32 px) and require some visible ink."""
    import resvg_py  # noqa: PLC0415 - a Rust extension; import only when checking files

    scale = 32 / max(size)
    try:
        png = resvg_py.svg_to_bytes(svg_path=str(path), width=max(1, round(size[0] * scale)),
                                    height=max(1, round(size[1] * scale)))
        alpha = np.asarray(Image.open(io.BytesIO(bytes(png))).convert("RGBA").getchannel("A"))
    except Exception as exc:  # noqa: BLE001 - resvg raises plain exceptions for SVGs it cannot draw
        raise PrintdeckError(f"{where}: {path} cannot be drawn ({str(exc)[:80] or type(exc).__name__}); "
                             "re-export the SVG") from None
    if not alpha.any():
        raise PrintdeckError(f"{where}: {path} draws nothing visible; check the file")


def _render_svg(path: Path, max_px: int) -> Image.Image:
    import resvg_py  # noqa: PLC0415 - only needed when pictures are prepared

    width, height = _svg_size(SafeET.parse(str(path), forbid_dtd=True).getroot(), path, str(path))
    scale = max_px / max(width, height)
    png = resvg_py.svg_to_bytes(svg_path=str(path), width=max(1, round(width * scale)),
                                height=max(1, round(height * scale)))
    return Image.open(io.BytesIO(bytes(png))).convert("RGBA")


def _background_alpha(rgb: Image.Image, tolerance: int) -> np.ndarray:
    """Alpha (H, W) uint8: 0 where a plain background connected to a corner shows.

    The flood fill (Pillow ``ImageDraw.floodfill`` from the four corners) runs on a
    128-pixel copy; its mask is scaled up and intersected with "close to the
    corner colour" at full size, so edges stay sharp.
    """
    small = rgb.copy()
    small.thumbnail((128, 128))
    marked = small.convert("RGBA")
    for xy in ((0, 0), (marked.width - 1, 0), (0, marked.height - 1), (marked.width - 1, marked.height - 1)):
        if marked.getpixel(xy)[3] == 255:
            ImageDraw.floodfill(marked, xy, (0, 0, 0, 0), thresh=tolerance * 3)
    reached = marked.getchannel("A").point(lambda a: 255 if a == 0 else 0)
    reached = np.asarray(reached.resize(rgb.size, Image.Resampling.BILINEAR)) > 0
    pixels = np.asarray(rgb, dtype=np.int16)
    corners = np.array([pixels[0, 0], pixels[0, -1], pixels[-1, 0], pixels[-1, -1]])
    close = np.zeros(pixels.shape[:2], dtype=bool)
    for colour in corners:
        close |= (np.abs(pixels - colour).max(axis=2) <= tolerance)
    return np.where(reached & close, 0, 255).astype(np.uint8)


def photo_mask(shape: str | None, width_px: int, height_px: int) -> np.ndarray:
    """The crop mask of a photo box, (height_px, width_px) uint8 (255 = shown).

    A circle of diameter min(w, h), or a square of side min(w, h) with corners
    rounded by ``PHOTO_CORNER_FRACTION`` of the side, centred in the box (the
    same convention as ``printdeck.layout.artwork.photo_mask``).
    """
    scale = 4
    w, h = width_px * scale, height_px * scale
    side = min(w, h)
    x0, y0 = (w - side) / 2, (h - side) / 2
    mask = Image.new("L", (w, h), 0)
    draw = ImageDraw.Draw(mask)
    box = (x0, y0, x0 + side - 1, y0 + side - 1)
    if shape == "rounded":
        draw.rounded_rectangle(box, radius=PHOTO_CORNER_FRACTION * side, fill=255)
    else:
        draw.ellipse(box, fill=255)
    return np.asarray(mask.resize((width_px, height_px), Image.Resampling.LANCZOS))


def _oriented(symbol: SymbolSpec, max_px: int) -> Image.Image:
    """The symbol's raster, EXIF-oriented, scaled so its longer side is ``max_px``."""
    assert symbol.path is not None
    data = _read(symbol.path, f"symbol {symbol.name!r}", MAX_IMAGE_BYTES)
    image = ImageOps.exif_transpose(_open_raster(data, symbol.path, f"symbol {symbol.name!r}", draft_px=max_px * 2))
    image = image.convert("RGBA")
    scale = max_px / max(image.size)
    size = (max(1, round(image.width * scale)), max(1, round(image.height * scale)))
    return image.resize(size, Image.Resampling.LANCZOS)


def _photo(symbol: SymbolSpec, max_px: int) -> Image.Image:
    image = _oriented(symbol, max_px)
    flat = Image.new("RGB", image.size, "#ffffff")
    flat.paste(image, mask=image.getchannel("A"))
    alpha = photo_mask(symbol.photo_shape, flat.width, flat.height)
    if symbol.remove_background:
        alpha = np.minimum(alpha, _background_alpha(flat, BACKGROUND_TOLERANCE))
    out = flat.convert("RGBA")
    out.putalpha(Image.fromarray(alpha))
    return out


def _text(symbol: SymbolSpec, max_px: int) -> Image.Image:
    font_path = symbol.font_path or default_font_path()
    load_font(str(font_path), "text.font")
    text = symbol.text or symbol.name
    font = ImageFont.truetype(str(font_path), max_px)
    left, top, right, bottom = font.getbbox(text, anchor="ls")
    scale = max_px / max(right - left, bottom - top, 1)
    font = ImageFont.truetype(str(font_path), max(4, int(max_px * scale)))
    left, top, right, bottom = font.getbbox(text, anchor="ls")
    out = Image.new("RGBA", (max(1, right - left), max(1, bottom - top)), (0, 0, 0, 0))
    ImageDraw.Draw(out).text((-left, -top), text, font=font, fill=symbol.color, anchor="ls")
    return out


def prepared_image(symbol: SymbolSpec, max_px: int = 512) -> Image.Image:
    """The symbol's picture as RGBA, its longer side ``max_px`` pixels.

    - ``svg``: rendered with resvg, the whole viewBox.
    - ``raster``: the whole image (EXIF orientation applied), alpha kept.
    - ``photo``: the whole image box (EXIF-oriented, transparency flattened on
      white), alpha = the crop mask (``photo_mask``: circle or rounded square of
      side min(w, h), centred) and, with ``remove_background``, 0 where a plain
      background touching the corners shows (flood fill, tolerance
      ``BACKGROUND_TOLERANCE``).
    - ``text``: the word in its colour, cropped to its ink box (see
      ``printdeck.theme.fonts.text_ink_box_em``).

    Args:
        symbol: A symbol of a loaded theme.
        max_px: Longer side of the result, pixels.

    Returns:
        An RGBA ``PIL.Image`` of size (W, H) with max(W, H) == ``max_px`` (text: about).

    Raises:
        PrintdeckError: The file cannot be read or decoded.
    """
    if symbol.kind == "svg":
        assert symbol.path is not None
        return _render_svg(symbol.path, max_px)
    if symbol.kind == "photo":
        return _photo(symbol, max_px)
    if symbol.kind == "text":
        return _text(symbol, max_px)
    return _oriented(symbol, max_px)
