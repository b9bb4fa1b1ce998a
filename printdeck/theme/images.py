"""Checking artwork files before a build.

Every file a theme names is opened and fully decoded once at load time, so a
missing, empty, truncated, corrupt or hostile file stops the build before any
output is written. SVGs are parsed with defusedxml (no DTDs, entities or
external references) and may refer only to their own elements (``#id``) or to
embedded ``data:`` URIs. Rasters are refused above ``MAX_PIXELS`` before their
pixels are decoded (decompression bombs).

Symbols are drawn by :mod:`printdeck.artwork`.
"""

from __future__ import annotations

import hashlib
import io
import re
import xml.parsers.expat
from dataclasses import dataclass
from pathlib import Path
from xml.etree.ElementTree import Element

import numpy as np
from defusedxml import DefusedXmlException
from defusedxml import ElementTree as SafeET
from PIL import Image

from printdeck.artwork.picture import (
    MAX_IMAGE_BYTES,
    open_raster,
    read_limited,
)
from printdeck.errors import PrintdeckError, shown
from printdeck.fileio import read_user_file

MAX_SVG_BYTES = 5_000_000
MIN_SIDE_PX = 8

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


def check_raster_file(path: Path, where: str) -> FileCheck:
    """Fully decode a PNG, JPEG, WebP, HEIC/HEIF or AVIF file.

    Args:
        path: The image file.
        where: Theme key naming it (``symbols.3.image``), for messages.

    Returns:
        Size, transparency and fingerprints.

    Raises:
        PrintdeckError: Missing, unreadable, empty, too large, not an image format above,
            truncated or corrupt, a decompression bomb, tiny, or fully transparent.
    """
    data = read_limited(path, where, MAX_IMAGE_BYTES)
    image = open_raster(data, path, where, draft_px=1024)
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


MAX_SVG_DEPTH = 100
"""Deepest element nesting accepted in an SVG (resvg crashes on thousands of levels)."""
MAX_SVG_ELEMENTS = 50_000
"""Most elements accepted in an SVG (a detailed emoji has a few dozen)."""
MAX_SVG_COORDINATE = 1e7
"""Largest absolute number accepted in an SVG's geometry (path data, positions, sizes, transforms)."""

_SVG_GEOMETRY = frozenset({
    "d", "points", "x", "y", "x1", "y1", "x2", "y2", "cx", "cy", "r", "rx", "ry", "fx", "fy", "fr", "dx", "dy",
    "width", "height", "viewBox", "transform", "gradientTransform", "patternTransform", "offset", "rotate",
    "stroke-width", "stroke-dasharray", "stroke-dashoffset", "stroke-miterlimit", "font-size", "letter-spacing",
    "word-spacing", "textLength", "startOffset", "refX", "refY", "markerWidth", "markerHeight", "pathLength",
    "stdDeviation", "baseFrequency", "numOctaves", "scale", "radius", "k1", "k2", "k3", "k4", "opacity",
    "fill-opacity", "stroke-opacity", "stop-opacity", "kernelMatrix", "order", "values", "tableValues",
})
_SVG_ANY_NUMBER = re.compile(r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?")
_SVG_NOT_A_NUMBER = re.compile(r"nan|inf", re.IGNORECASE)  # no geometry keyword holds these letters
_CSS_DECLARATION = re.compile(r"([A-Za-z-]+)\s*:\s*([^;{}]*)")
_CHUNK_BYTES = 1 << 16


class _SvgRefused(Exception):
    """Raised inside the expat handlers to stop the pre-check at the first problem."""

    def __init__(self, problem: str, fix: str = "simplify it or re-export the SVG") -> None:
        super().__init__(problem)
        self.fix = fix


def _check_numbers(value: str, name: str) -> None:
    """Refuse NaN, infinity or a number beyond ``MAX_SVG_COORDINATE`` in one geometry value."""
    bad = _SVG_NOT_A_NUMBER.search(value)
    if bad:
        raise _SvgRefused(f"its {name} holds {bad.group(0)!r}, not a number")
    for match in _SVG_ANY_NUMBER.finditer(value):
        number = float(match.group(0))
        if not abs(number) <= MAX_SVG_COORDINATE:  # also catches inf from 1e999
            raise _SvgRefused(f"its {name} holds the number {match.group(0)[:24]}, beyond "
                              f"±{MAX_SVG_COORDINATE:g}")


def _check_css(text: str) -> None:
    """Check the geometry declarations of a ``style`` attribute or element (``url(...)`` skipped)."""
    for prop, value in _CSS_DECLARATION.findall(_URL_ANYWHERE.sub("", text)):
        if prop.strip().lower() in _SVG_GEOMETRY:
            _check_numbers(value, f"style {prop.strip()}")


_URL_ANYWHERE = re.compile(r"url\([^)]*\)", re.IGNORECASE)


class _SvgCounter:
    """Expat handlers counting depth and elements and checking geometry numbers as they stream by."""

    def __init__(self) -> None:
        self.depth = 0
        self.elements = 0
        self.in_style = 0

    def start(self, name: str, attrs: dict[str, str]) -> None:
        self.depth += 1
        self.elements += 1
        if self.depth > MAX_SVG_DEPTH:
            raise _SvgRefused(f"its elements nest more than {MAX_SVG_DEPTH} deep")
        if self.elements > MAX_SVG_ELEMENTS:
            raise _SvgRefused(f"it has more than {MAX_SVG_ELEMENTS:,} elements")
        for key, value in attrs.items():
            local = key.rsplit(" ", 1)[-1]  # "namespace local" with namespace processing
            if local == "style":
                _check_css(value)
            elif local in _SVG_GEOMETRY:
                _check_numbers(value, local)
        if name.rsplit(" ", 1)[-1] == "style":
            self.in_style += 1

    def end(self, name: str) -> None:
        self.depth -= 1
        if name.rsplit(" ", 1)[-1] == "style":
            self.in_style -= 1

    def text(self, data: str) -> None:
        if self.in_style:
            _check_css(data)

    @staticmethod
    def refuse_dtd(*_args: object) -> None:
        raise _SvgRefused("it declares a DTD or entities, which are not allowed", "remove the <!DOCTYPE ...> part")


def _svg_parser(counter: _SvgCounter) -> xml.parsers.expat.XMLParserType:
    """An expat parser (namespaces on, no DTD, no entities) wired to ``counter``."""
    parser = xml.parsers.expat.ParserCreate(namespace_separator=" ")
    parser.SetParamEntityParsing(xml.parsers.expat.XML_PARAM_ENTITY_PARSING_NEVER)
    parser.StartElementHandler = counter.start
    parser.EndElementHandler = counter.end
    parser.CharacterDataHandler = counter.text
    parser.StartDoctypeDeclHandler = counter.refuse_dtd
    parser.EntityDeclHandler = counter.refuse_dtd
    parser.ExternalEntityRefHandler = counter.refuse_dtd
    return parser


def svg_structure_check(data: bytes, path: Path, where: str) -> None:
    """Check an SVG's structure, streaming, before any parser or rasteriser sees it.

    Expat reads the bytes in 64 kB chunks (no tree is built) and stops at the first
    problem: nesting deeper than :data:`MAX_SVG_DEPTH`, more than
    :data:`MAX_SVG_ELEMENTS` elements, a DTD or entity declaration, or a NaN, an
    infinity or a number beyond ±:data:`MAX_SVG_COORDINATE` in a geometry
    attribute (path data, points, positions, sizes, transforms, ``style``
    declarations). Work and memory are linear in the file's size.

    Args:
        data: The SVG file's bytes.
        path: The file, for messages.
        where: The theme key naming it (``symbols.3.image``), for messages.

    Raises:
        PrintdeckError: One line naming ``where``, the file and the problem; also
            for bytes that are not well-formed XML (binary data, a truncated file).
    """
    counter = _SvgCounter()
    parser = _svg_parser(counter)
    try:
        for start in range(0, len(data), _CHUNK_BYTES):
            parser.Parse(data[start:start + _CHUNK_BYTES], False)
        parser.Parse(b"", True)
    except _SvgRefused as exc:
        raise PrintdeckError(f"{where}: {shown(path)} is refused: {exc}; {exc.fix}") from None
    except (xml.parsers.expat.ExpatError, ValueError, UnicodeError, RecursionError) as exc:
        raise PrintdeckError(f"{where}: {shown(path)} is not a well-formed SVG ({exc}); re-export it") from None
    if counter.elements == 0:
        raise PrintdeckError(f"{where}: {shown(path)} holds no SVG elements; re-export it")


def check_svg_file(path: Path, where: str) -> FileCheck:
    """Parse an SVG safely and check it draws something.

    Args:
        path: The SVG file.
        where: Theme key naming it, for messages.

    Returns:
        The viewBox size and the file's fingerprint.

    Raises:
        PrintdeckError: Missing, not a regular file, unreadable, empty, too large,
            not well-formed XML, too deep, too many elements, absurd or NaN
            coordinates (see :func:`svg_structure_check`), has a DTD/entities/external
            references, not an ``<svg>``, refers to outside files or URLs, has no
            size, or cannot be rendered.
    """
    data = read_user_file(path, where, MAX_SVG_BYTES, "an SVG image")  # a regular file only, never blocking
    if not data:
        raise PrintdeckError(f"{where}: {shown(path)} is empty (0 bytes); replace it with a real image")
    svg_structure_check(data, path, where)  # before defusedxml and resvg see it
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
    import resvg_py

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
