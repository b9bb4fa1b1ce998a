"""Fonts for text symbols: the bundled default, checking a user's font file.

Only Pillow is used here (ReportLab stays in ``printdeck.render``). ReportLab can
embed TrueType-outline fonts only, so OpenType fonts with CFF outlines (files
starting ``OTTO``) and font collections are refused up front with a clear message
rather than failing half-way through a build.
"""

from __future__ import annotations

import functools
import importlib.util
from pathlib import Path

from PIL import ImageFont

from printdeck.errors import PrintdeckError

MAX_FONT_BYTES = 40_000_000
_PROBE_SIZE = 48
_SURELY_MISSING = "\U000f0000"  # plane-15 private use: no ordinary font maps it


def default_font_path() -> Path:
    """The bundled font text symbols use when the theme names none (Bitstream Vera,
    shipped inside ReportLab; located without importing ReportLab).

    Raises:
        PrintdeckError: ReportLab's font folder is missing (a broken install).
    """
    spec = importlib.util.find_spec("reportlab")
    for folder in (spec.submodule_search_locations or []) if spec else []:
        path = Path(folder) / "fonts" / "Vera.ttf"
        if path.is_file():
            return path
    raise PrintdeckError("the bundled font Vera.ttf is missing (reinstall reportlab) or set text.font in the theme")


def check_font_file(path: Path, where: str) -> None:
    """Check that ``path`` is a TrueType font ReportLab and Pillow can both use.

    Args:
        path: The font file.
        where: The theme key that named it (``text.font``), for messages.

    Raises:
        PrintdeckError: Missing, empty, too large, a collection, CFF-outline OTF,
            or not a font Pillow/FreeType can read.
    """
    if not path.is_file():
        raise PrintdeckError(f"{where}: font file {path} not found; check the path (relative to the theme file)")
    size = path.stat().st_size
    if size == 0 or size > MAX_FONT_BYTES:
        raise PrintdeckError(f"{where}: font file {path} is {'empty' if size == 0 else 'too large'}; give a .ttf file")
    try:
        with open(path, "rb") as handle:
            magic = handle.read(4)
    except OSError as exc:
        raise PrintdeckError(f"{where}: cannot read font {path} ({exc.strerror}); check its permissions") from None
    if magic == b"OTTO":
        raise PrintdeckError(f"{where}: {path.name} is an OpenType font with CFF outlines, which PDF embedding "
                             "here does not support; use a TrueType (.ttf) version of the font")
    if magic == b"ttcf":
        raise PrintdeckError(f"{where}: {path.name} is a font collection; give a single .ttf font")
    if magic not in (b"\x00\x01\x00\x00", b"true"):
        raise PrintdeckError(f"{where}: {path} is not a TrueType font file; give a .ttf (or TrueType .otf) font")
    load_font(str(path), where)


def load_font(path: str, where: str) -> ImageFont.FreeTypeFont:
    """Open a font with Pillow (cached, at a probe size of 48 px).

    Raises:
        PrintdeckError: FreeType cannot read it; the message names ``where``.
    """
    try:
        return _cached_font(path)
    except (OSError, ValueError) as exc:
        raise PrintdeckError(f"{where}: cannot read font {path} ({exc}); give a valid .ttf font") from None


@functools.lru_cache(maxsize=16)
def _cached_font(path: str) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(path, _PROBE_SIZE)


def missing_glyphs(font_path: Path, text: str) -> list[str]:
    """Characters of ``text`` the font draws as its "missing glyph" box.

    A character is missing when its rendering equals that of a private-use code
    point no ordinary font maps (so the font's .notdef glyph). Spaces are skipped.

    Raises:
        PrintdeckError: The font cannot be read.
    """
    font = load_font(str(font_path), "text.font")

    def picture(ch: str) -> tuple[tuple[int, int], bytes]:
        mask = font.getmask(ch)
        return mask.size, bytes(mask)

    notdef = picture(_SURELY_MISSING)
    seen: list[str] = []
    for ch in dict.fromkeys(text):
        if not ch.isspace() and picture(ch) == notdef:
            seen.append(ch)
    return seen


def text_ink_box_em(font_path: Path, text: str) -> tuple[float, float, float, float]:
    """The ink box of ``text`` set on a baseline, in em units (font size = 1).

    Returns:
        (x0, y0, x1, y1): left, bottom, right, top of the inked area relative to
        the start of the baseline, y up. A renderer setting the text at size ``s``
        with its baseline origin at (x, y) covers (x + s*x0, y + s*y0)..(x + s*x1, y + s*y1).

    Raises:
        PrintdeckError: The font cannot be read, or the text draws nothing.
    """
    font = load_font(str(font_path), "text.font")
    left, top, right, bottom = font.getbbox(text, anchor="ls")
    if right <= left or bottom <= top:
        raise PrintdeckError(f"text {text!r}: draws nothing with font {font_path.name}; give visible characters")
    s = float(_PROBE_SIZE)
    return left / s, -bottom / s, right / s, -top / s
