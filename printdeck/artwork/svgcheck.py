"""The structure of an SVG, checked streaming before any parser or rasteriser sees it.

A file of 10,000 nested groups crashes native SVG renderers; NaN, infinite or huge
coordinates make vector writers raise deep inside. Expat reads the bytes in chunks and
the first problem ends the check with one line naming the file.

It is also the one check of what an SVG may hold beyond drawing, for the command line
(``check``, ``build``, ``init``) and the studio (which shows the file in a browser) alike:
no script (``<script>``, ``<foreignObject>``, an ``on...`` event handler, a
``javascript:`` value anywhere, SMIL ``<set>``/``<animate>`` that change a link or a
handler), no ``data:`` link that is a document (an ``<a>`` to ``data:``, or a ``data:``
reference that is not a picture), and no reference outside the file (links, ``url()``,
``@import``, ``xml-stylesheet``): a symbol never needs any of them.
"""

from __future__ import annotations

import base64
import hashlib
import re
import threading
import xml.parsers.expat
from functools import lru_cache
from pathlib import Path
from urllib.parse import unquote_to_bytes

from printdeck.artwork.bundled_checks import shipped_structure
from printdeck.cache import cache_dir, code_digest, entry_key, write_entry
from printdeck.errors import key_error, shown

MAX_SVG_BYTES = 5_000_000
"""Largest SVG file accepted."""
MAX_SVG_DEPTH = 100
"""Deepest element nesting accepted in an SVG (resvg crashes on thousands of levels)."""
MAX_SVG_ELEMENTS = 50_000
"""Most elements accepted in an SVG (a detailed emoji has a few dozen)."""
MAX_SVG_COORDINATE = 1e7
"""Largest absolute number accepted in an SVG's geometry (path data, positions, sizes, transforms)."""

_SVG_GEOMETRY = frozenset(
    {
        "d",
        "points",
        "x",
        "y",
        "x1",
        "y1",
        "x2",
        "y2",
        "cx",
        "cy",
        "r",
        "rx",
        "ry",
        "fx",
        "fy",
        "fr",
        "dx",
        "dy",
        "width",
        "height",
        "viewBox",
        "transform",
        "gradientTransform",
        "patternTransform",
        "offset",
        "rotate",
        "stroke-width",
        "stroke-dasharray",
        "stroke-dashoffset",
        "stroke-miterlimit",
        "font-size",
        "letter-spacing",
        "word-spacing",
        "textLength",
        "startOffset",
        "refX",
        "refY",
        "markerWidth",
        "markerHeight",
        "pathLength",
        "stdDeviation",
        "baseFrequency",
        "numOctaves",
        "scale",
        "radius",
        "k1",
        "k2",
        "k3",
        "k4",
        "opacity",
        "fill-opacity",
        "stroke-opacity",
        "stop-opacity",
        "kernelMatrix",
        "order",
        "values",
        "tableValues",
    }
)
_SVG_ANY_NUMBER = re.compile(r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?")
_SVG_NOT_A_NUMBER = re.compile(r"nan|inf", re.IGNORECASE)  # no geometry keyword holds these letters
_CSS_DECLARATION = re.compile(r"([A-Za-z-]+)\s*:\s*([^;{}]*)")
_CHUNK_BYTES = 1 << 16
_SCRIPT_ELEMENTS = frozenset({"script", "foreignobject", "handler", "listener", "iframe", "embed", "object"})
_SMIL_ELEMENTS = frozenset({"set", "animate", "animatemotion", "animatetransform", "animatecolor", "discard"})
_CSS_URL = re.compile(r"url\(\s*(?:'([^']*)'|\"([^\"]*)\"|([^)]*))\s*\)", re.IGNORECASE)
_URL_NOISE = re.compile(r"[\x00-\x20\x7f]+")  # browsers drop these inside a URL ("java\tscript:")
_SCRIPT_SCHEMES = ("javascript:", "vbscript:")
_SCRIPT_FIX = "remove it or export the SVG again without scripts"
_OUTSIDE_FIX = "embed it or remove the reference"


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
            raise _SvgRefused(f"its {name} holds the number {match.group(0)[:24]}, beyond ±{MAX_SVG_COORDINATE:g}")


def _check_css(text: str) -> None:
    """Check the geometry declarations of a ``style`` attribute or element (``url(...)`` skipped)."""
    for prop, value in _CSS_DECLARATION.findall(_URL_ANYWHERE.sub("", text)):
        if prop.strip().lower() in _SVG_GEOMETRY:
            _check_numbers(value, f"style {prop.strip()}")


_URL_ANYWHERE = re.compile(r"url\([^)]*\)", re.IGNORECASE)


def _script(what: str) -> _SvgRefused:
    """The refusal of an SVG holding a script (``what``: ``<script>``, ``onload``...)."""
    return _SvgRefused(f"it holds a script ({what}), which a symbol never needs", _SCRIPT_FIX)


def _squeezed(value: str) -> str:
    """``value`` as a browser reads it as a URL: no spaces or control characters, lower case."""
    return _URL_NOISE.sub("", value).lower()


def _check_reference(target: str, tag: str) -> None:
    """Refuse a link or ``url()`` that is a script, a ``data:`` document or outside the file.

    ``#id`` (inside the file) and ``data:image/...`` on anything but an ``<a>`` are kept."""
    squeezed = _squeezed(target)
    if not squeezed or squeezed.startswith("#"):
        return
    if squeezed.startswith(_SCRIPT_SCHEMES):
        raise _script(f"a {squeezed.split(':', 1)[0]}: link")
    if squeezed.startswith("data:"):
        if tag == "a":
            raise _SvgRefused("it holds a link to a data: document, which a symbol never needs", _SCRIPT_FIX)
        if squeezed.startswith("data:image/svg"):  # svg+xml, and the bare svg some exporters write
            _check_embedded_svg(target)
            return
        if squeezed.startswith("data:image/"):
            return
        kind = squeezed[5:].split(",", 1)[0].split(";", 1)[0][:40] or "text"
        raise _SvgRefused(f"it holds a data: reference to {kind}, which is not a picture", _SCRIPT_FIX)
    raise _SvgRefused(f"it refers to an outside resource {target.strip()[:60]!r}", _OUTSIDE_FIX)


_embedding = threading.local()  # how deep the SVG being checked is inside another's data: link


def _check_embedded_svg(target: str) -> None:
    """Check an SVG embedded in a ``data:image/svg+xml`` link as a file of its own: a script
    or an outside link inside it is refused as one in the file is. One level only: an SVG
    inside an embedded SVG is refused (a symbol never needs it)."""
    if getattr(_embedding, "depth", 0) >= 1:
        raise _SvgRefused("it holds an SVG inside an SVG inside it, which a symbol never needs", _SCRIPT_FIX)
    head, _, payload = target.strip().partition(",")
    try:
        if ";base64" in head.lower():
            data = base64.b64decode(re.sub(r"\s+", "", payload), validate=True)
        else:
            data = unquote_to_bytes(payload)
    except ValueError:
        raise _SvgRefused("it holds an SVG inside it that cannot be read", _SCRIPT_FIX) from None
    counter = _SvgCounter()
    parser = _svg_parser(counter)
    _embedding.depth = 1
    try:
        parser.Parse(data, True)
    except _SvgRefused as exc:
        said = str(exc)
        said = f"the SVG inside it {said[3:]}" if said.startswith("it ") else f"the SVG inside it is refused: {said}"
        raise _SvgRefused(said, exc.fix) from None
    except (xml.parsers.expat.ExpatError, ValueError, UnicodeError, RecursionError):
        raise _SvgRefused("it holds an SVG inside it that is not well-formed", _SCRIPT_FIX) from None
    finally:
        _embedding.depth = 0


def _check_css_references(text: str, tag: str) -> None:
    """Refuse ``@import`` and any ``url()`` :func:`_check_reference` refuses in CSS text."""
    if "@import" in text.lower():
        raise _SvgRefused("it refers to an outside resource (an @import)", _OUTSIDE_FIX)
    for match in _CSS_URL.finditer(text):
        _check_reference(next(g for g in match.groups() if g is not None), tag)


def _check_behaviour(tag: str, attrs: dict[str, str]) -> None:
    """Refuse an element that scripts, handles events, animates a link or a handler, or
    refers outside the file (see the module's note)."""
    if tag in _SCRIPT_ELEMENTS:
        shown_tag = "foreignObject" if tag == "foreignobject" else tag
        raise _script(f"<{shown_tag}>")
    for key, value in attrs.items():
        local = key.rsplit(" ", 1)[-1].lower()
        if local.startswith("on"):
            raise _script(local)
        if any(scheme in _squeezed(value) for scheme in _SCRIPT_SCHEMES):
            raise _script(f"a javascript: value in {local}")
        if local == "href":
            _check_reference(value, tag)
        elif "url(" in value.lower():
            _check_css_references(value, tag)
    if tag in _SMIL_ELEMENTS:
        target = _squeezed(next((v for k, v in attrs.items() if k.rsplit(" ", 1)[-1] == "attributeName"), ""))
        if target.rsplit(":", 1)[-1] == "href" or target.startswith("on"):
            raise _script(f"<{tag}> changing {target}")


class _SvgCounter:
    """Expat handlers counting depth and elements and checking geometry numbers as they stream by."""

    def __init__(self) -> None:
        self.depth = 0
        self.elements = 0
        self.in_style = 0
        self.style_text: list[str] = []

    def start(self, name: str, attrs: dict[str, str]) -> None:
        self.depth += 1
        self.elements += 1
        if self.depth > MAX_SVG_DEPTH:
            raise _SvgRefused(f"its elements nest more than {MAX_SVG_DEPTH} deep")
        if self.elements > MAX_SVG_ELEMENTS:
            raise _SvgRefused(f"it has more than {MAX_SVG_ELEMENTS:,} elements")
        _check_behaviour(name.rsplit(" ", 1)[-1].lower(), attrs)
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
            _check_css_references("".join(self.style_text), "style")  # whole: a url( may span chunks
            self.style_text = []

    def text(self, data: str) -> None:
        if self.in_style:
            _check_css(data)
            self.style_text.append(data)

    @staticmethod
    def instruction(target: str, _data: str) -> None:
        if target.strip().lower() == "xml-stylesheet":
            raise _SvgRefused("it refers to an outside resource (an xml-stylesheet)", _OUTSIDE_FIX)

    @staticmethod
    def refuse_dtd(*_args: object) -> int:
        raise _SvgRefused("it declares a DTD or entities, which are not allowed", "remove the <!DOCTYPE ...> part")


def _svg_parser(counter: _SvgCounter) -> xml.parsers.expat.XMLParserType:
    """An expat parser (namespaces on, no DTD, no entities) wired to ``counter``."""
    parser = xml.parsers.expat.ParserCreate(namespace_separator=" ")
    parser.SetParamEntityParsing(xml.parsers.expat.XML_PARAM_ENTITY_PARSING_NEVER)
    parser.StartElementHandler = counter.start
    parser.EndElementHandler = counter.end
    parser.CharacterDataHandler = counter.text
    parser.ProcessingInstructionHandler = counter.instruction
    parser.StartDoctypeDeclHandler = counter.refuse_dtd
    parser.EntityDeclHandler = counter.refuse_dtd
    parser.ExternalEntityRefHandler = counter.refuse_dtd
    return parser


def svg_structure_check(data: bytes, path: Path, where: str) -> None:
    """Check an SVG's structure, streaming, before any parser or rasteriser sees it.

    Expat reads the bytes in 64 kB chunks (no tree is built) and stops at the first
    problem: nesting deeper than :data:`MAX_SVG_DEPTH`, more than
    :data:`MAX_SVG_ELEMENTS` elements, a DTD or entity declaration, a NaN, an
    infinity or a number beyond ±:data:`MAX_SVG_COORDINATE` in a geometry
    attribute (path data, points, positions, sizes, transforms, ``style``
    declarations), a script, event handler, link-changing animation, ``data:``
    document or outside reference (see the module's note). Work and memory are
    linear in the file's size.

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
            parser.Parse(data[start : start + _CHUNK_BYTES], False)
        parser.Parse(b"", True)
    except _SvgRefused as exc:
        raise key_error(f"{where}", f"{shown(path)} is refused: {exc}; {exc.fix}") from None
    except (xml.parsers.expat.ExpatError, ValueError, UnicodeError, RecursionError) as exc:
        raise key_error(f"{where}", f"{shown(path)} is not a well-formed SVG ({exc}); re-export it") from None
    if counter.elements == 0:
        raise key_error(f"{where}", f"{shown(path)} holds no SVG elements; re-export it")


def structure_checked(data: bytes, path: Path, where: str) -> None:
    """:func:`svg_structure_check`, remembered: bytes that passed it in an earlier run (kept
    by their SHA-256 and this module's code in the disk cache, folder ``svgchecks``, or
    shipped with the bundled pictures: :mod:`printdeck.artwork.bundled_checks`) are not
    checked again. The check reads every byte with Python callbacks (about 0.2 ms for a
    Twemoji); every build draws its SVGs and would check each again.

    Raises:
        PrintdeckError: As :func:`svg_structure_check`.
    """
    key = entry_key(hashlib.sha256(data).hexdigest(), "structure", _code())
    if shipped_structure(key):  # a bundled picture: checked when printdeck was made
        return
    folder = cache_dir("svgchecks")
    mark = folder / f"{key}.ok" if folder else None
    if mark is not None and mark.is_file():
        return
    svg_structure_check(data, path, where)
    if mark is not None:
        write_entry(mark, "")


@lru_cache(maxsize=1)
def _code() -> str:
    return code_digest(__name__)


_CUSTOM_PROPERTY = re.compile(r"(--[A-Za-z0-9_-]+)\s*:\s*([^;{}\"'<>]+)")  # ends at ; } or the attribute's end
_VAR = re.compile(r"var\(\s*(--[A-Za-z0-9_-]+)\s*(?:,\s*([^()]*(?:\([^()]*\)[^()]*)*))?\)")


def resolve_css_variables(text: str) -> str:
    """``text`` with every CSS ``var(--name, fallback)`` replaced by the value the SVG
    declares for ``--name`` (first declaration wins), else by its fallback, else by
    nothing. Neither svglib nor resvg draws custom properties (a ``fill: var(--c, #08f)``
    would print black or not at all), so both are given the resolved text."""
    declared: dict[str, str] = {}
    for name, value in _CUSTOM_PROPERTY.findall(text):
        declared.setdefault(name, value.strip())
    for _ in range(8):  # values may refer to other variables
        resolved = _VAR.sub(lambda m: declared.get(m.group(1), (m.group(2) or "").strip()), text)
        if resolved == text:
            break
        text = resolved
    return text
