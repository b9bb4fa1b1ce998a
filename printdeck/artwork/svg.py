"""SVG artwork: its natural box, and drawing it (or a word's outlines) to pixels with resvg."""

from __future__ import annotations

import io
import re
from functools import lru_cache
from pathlib import Path
from xml.etree.ElementTree import Element

from defusedxml import ElementTree
from PIL import Image

from printdeck.artwork.svgcheck import MAX_SVG_BYTES, resolve_css_variables, structure_checked
from printdeck.errors import PrintdeckError, shown
from printdeck.fileio import read_user_file

CSS_DPI = 96.0
"""Resolution resvg converts physical SVG units (mm, in, pt) with: CSS's 96 px an inch
(resvg-py's default of 0 makes an SVG sized in mm fail as "invalid size")."""
_NUMBER = re.compile(r"^\s*([0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?)\s*(px|pt|mm|cm|in)?\s*$", re.IGNORECASE)


def svg_size(path: Path) -> tuple[float, float]:
    """``(width, height)`` of an SVG's whole box in user units: its ``viewBox``, else
    ``width``/``height`` (:func:`declared_svg_size` of :func:`svg_root`), else the size
    resvg draws it at. The one size of an SVG: the drawing's box, the PDF form's box.

    Raises:
        PrintdeckError: The file is not readable SVG.
    """
    return _svg_size(Path(path), Path(path).stat().st_mtime_ns)


@lru_cache(maxsize=4096)
def _svg_size(path: Path, mtime_ns: int) -> tuple[float, float]:
    declared = declared_svg_size(svg_root(path))
    if declared is not None:
        return declared
    img = svg_pixels(path, None, None)
    return float(img.width), float(img.height)


def declared_svg_size(root: Element) -> tuple[float, float] | None:
    """``(width, height)`` an SVG's root element declares, in user units: its ``viewBox``
    (four numbers, a positive size under 1e9), else its ``width`` and ``height``; None
    when it declares neither usably."""
    box = (root.get("viewBox") or "").replace(",", " ").split()
    try:
        if len(box) == 4 and 0 < float(box[2]) < 1e9 and 0 < float(box[3]) < 1e9:
            return float(box[2]), float(box[3])
    except ValueError:
        pass
    w, h = _NUMBER.match(root.get("width") or ""), _NUMBER.match(root.get("height") or "")
    if w and h and 0 < float(w.group(1)) < 1e9 and 0 < float(h.group(1)) < 1e9:
        return float(w.group(1)), float(h.group(1))
    return None


def svg_text(path: Path) -> str:
    """The SVG as printdeck draws it (the same text for resvg and the PDF): read as a
    regular file under :data:`~printdeck.artwork.svgcheck.MAX_SVG_BYTES`, its structure
    checked before any parser sees it, CSS custom properties resolved.

    Raises:
        PrintdeckError: The file is missing, too large, not UTF-8 or badly structured.
    """
    stat = Path(path).stat()
    return _svg_text(Path(path), stat.st_size, stat.st_mtime_ns)


@lru_cache(maxsize=512)
def _svg_text(path: Path, size: int, mtime_ns: int) -> str:
    data = read_user_file(path, "", MAX_SVG_BYTES, "an SVG file")
    structure_checked(data, path, shown(path.name))
    try:
        return resolve_css_variables(data.decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise PrintdeckError(f"{shown(path)}: an SVG that is not UTF-8 text; re-export it") from None


def svg_has_text(path: Path) -> bool:
    """Whether an SVG shows text (a ``<text>`` element with words in it, not hidden by its
    own ``display``/``visibility``: a picture with its word, a label), which reads badly
    upside down, as a word does. An editor's empty or hidden text element is none. Known
    once a version of the file (its size and time), and a file without ``<text`` anywhere
    is not parsed.

    Raises:
        PrintdeckError: The file is missing, too large, badly structured or not well-formed.
    """
    stat = Path(path).stat()
    return _svg_has_text(Path(path), stat.st_size, stat.st_mtime_ns)


_HIDDEN = re.compile(r"(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)", re.IGNORECASE)


@lru_cache(maxsize=1024)
def _svg_has_text(path: Path, size: int, mtime_ns: int) -> bool:
    document = svg_text(path)
    if "<text" not in document and ":text" not in document:
        return False
    for element in svg_root(path).iter():
        if element.tag.rpartition("}")[2] != "text" or not "".join(element.itertext()).strip():
            continue
        hidden = element.get("display") == "none" or element.get("visibility") == "hidden"
        if not hidden and not _HIDDEN.search(element.get("style", "")):
            return True
    return False


def svg_root(path: Path) -> Element:
    """The root element of :func:`svg_text` (the SVG as printdeck draws it), parsed by
    defusedxml: what printdeck reads of an SVG's elements (its size, its features).

    Raises:
        PrintdeckError: The file is missing, too large, badly structured or not well-formed.
    """
    try:
        root: Element = ElementTree.fromstring(svg_text(path), forbid_dtd=True)
    except (ElementTree.ParseError, ValueError) as exc:
        raise PrintdeckError(f"{shown(path)}: not a readable SVG file ({exc}); check the file") from None
    return root


def svg_pixels(path: Path, width_px: int | None, height_px: int | None) -> Image.Image:
    """The SVG file's whole box drawn by resvg at ``width_px`` x ``height_px`` (RGBA),
    from :func:`svg_text`.

    Raises:
        PrintdeckError: resvg cannot draw the file.
    """
    text = svg_text(path)
    try:
        import resvg_py  # noqa: PLC0415 - only when an SVG is drawn to pixels

        png = resvg_py.svg_to_bytes(
            svg_string=text, width=width_px, height=height_px, dpi=CSS_DPI, resources_dir=str(Path(path).parent)
        )
        img = Image.open(io.BytesIO(bytes(png)))
        img.load()
    except Exception as exc:  # noqa: BLE001 - resvg raises plain exceptions on bad SVG
        raise PrintdeckError(f"{path}: cannot draw this SVG ({str(exc)[:80]}); check the file") from None
    return _exact(img.convert("RGBA"), width_px, height_px)


def svg_text_pixels(document: str, width_px: int, height_px: int) -> Image.Image:
    """An SVG document made by printdeck (a word's outlines) drawn by resvg (RGBA).

    Raises:
        RuntimeError: resvg refuses the document (a printdeck bug, never the user's).
    """
    try:
        import resvg_py  # noqa: PLC0415 - only when a word is drawn to pixels

        png = resvg_py.svg_to_bytes(svg_string=document, skip_system_fonts=True)
    except Exception as exc:
        raise RuntimeError(f"resvg refused a word's outlines: {exc}") from exc
    img = Image.open(io.BytesIO(bytes(png)))
    img.load()
    return _exact(img.convert("RGBA"), width_px, height_px)


def _exact(img: Image.Image, width_px: int | None, height_px: int | None) -> Image.Image:
    """``img`` resized to exactly the size asked (resvg may round one side)."""
    if width_px is not None and height_px is not None and img.size != (width_px, height_px):
        img = img.resize((width_px, height_px), Image.Resampling.LANCZOS)
    return img
