"""Fonts for words: the bundled faces, the machine's own fonts, and choosing by coverage.

A word is set in the first face of its *fallback chain* that has a glyph for every
character: the theme's font (``text.font`` or the word's ``font``), then the bundled
faces (:data:`BUNDLED`: Bitstream Vera for the look printdeck always had, then Noto
Sans for Latin, Greek and Cyrillic, and Noto Sans Arabic, Hebrew, Devanagari and Thai),
then a face of the machine found by fontconfig (``fc-match``), or where fontconfig is
missing by reading the usual font folders of Windows, macOS and Linux. A word no single
face covers is set in runs, each character in the first face of the chain that has it.

Coverage is read from the font's character map (fontTools); ``.ttf``, ``.otf`` (TrueType
or CFF outlines) and collections (``.ttc``/``.otc``, a face chosen by index) all work,
since words are drawn as outlines (:mod:`printdeck.artwork.shaping`), never as embedded
PDF fonts.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from printdeck.audit import INPUT_EVENT, PROGRAM_EVENT
from printdeck.cache import file_digest
from printdeck.choices import FONT_SUFFIXES
from printdeck.errors import UNREADABLE_FONT, PrintdeckError, key_error, shown
from printdeck.fileio import user_file_size
from printdeck.resources import data_root

MAX_FONT_BYTES = 64_000_000
"""Largest font file accepted (a full Noto CJK collection is about 20 MB)."""
DEFAULT_FONT = "Vera.ttf"
"""The default face: Bitstream Vera, from ReportLab's font folder (words, and the PDF's own text)."""
DEFAULT_BOLD_FONT = "VeraBd.ttf"
"""The bold of :data:`DEFAULT_FONT` (the PDF's headings), from the same folder."""
BUNDLED = (
    DEFAULT_FONT,
    "NotoSans-Regular.ttf",
    "NotoSansArabic-Regular.ttf",
    "NotoSansHebrew-Regular.ttf",
    "NotoSansDevanagari-Regular.ttf",
    "NotoSansThai-Regular.ttf",
)
"""The bundled faces in fallback order (Vera from ReportLab's font folder, the rest from ``assets/fonts``)."""
IGNORABLE = frozenset(
    [0x200B, 0x200C, 0x200D, 0x200E, 0x200F, 0x2060, 0xFEFF, 0x034F, 0x061C]
    + list(range(0x202A, 0x202F))
    + list(range(0x2066, 0x206A))
    + list(range(0xFE00, 0xFE10))
)
"""Code points shaping handles without a glyph of their own (joiners, bidi marks, variation selectors)."""
SYSTEM_FOLDERS = {
    "win32": ["%WINDIR%/Fonts", "%LOCALAPPDATA%/Microsoft/Windows/Fonts"],
    "darwin": ["/System/Library/Fonts", "/System/Library/Fonts/Supplemental", "/Library/Fonts", "~/Library/Fonts"],
    "linux": ["/usr/share/fonts", "/usr/local/share/fonts", "~/.local/share/fonts", "~/.fonts"],
}
"""Where fonts live when fontconfig is not there to ask (key: ``sys.platform`` prefix)."""


@dataclass(frozen=True)
class FontFace:
    """One face of a font file.

    Attributes:
        path: The font file (``.ttf``, ``.otf``, ``.ttc`` or ``.otc``).
        index: The face's index in a collection (0 for a single-face file).
    """

    path: Path
    index: int = 0

    @property
    def label(self) -> str:
        """The file name, with ``#index`` for a face of a collection other than the first."""
        return self.path.name + (f"#{self.index}" if self.index else "")

    def digest(self) -> str:
        """SHA-256 of the font file's bytes (hex; :func:`printdeck.cache.file_digest`).

        Raises:
            PrintdeckError: The file cannot be read.
        """
        return file_digest(self.path)

    def covers(self, char: str) -> bool:
        """Whether the face maps ``char`` to a glyph (ignorable code points always count)."""
        return ord(char) in IGNORABLE or ord(char) in coverage(self)


def bundled_faces() -> tuple[FontFace, ...]:
    """The bundled faces in fallback order (see :data:`BUNDLED`).

    Raises:
        PrintdeckError: A bundled font file is missing (a broken install).
    """
    return _bundled()


@lru_cache(maxsize=1)
def _bundled() -> tuple[FontFace, ...]:
    return tuple(FontFace(bundled_font_file(name)) for name in BUNDLED)


@lru_cache(maxsize=16)
def bundled_font_file(name: str) -> Path:
    """The file of a bundled font (:data:`BUNDLED`, :data:`DEFAULT_BOLD_FONT`): ReportLab's
    font folder first (the Vera faces; ReportLab is found, not imported), then ``assets/fonts``.

    Raises:
        PrintdeckError: The file is in neither folder (a broken install).
    """
    spec = importlib.util.find_spec("reportlab")
    folders = [Path(p) / "fonts" for p in (spec.submodule_search_locations or [])] if spec else []
    found = [f / name for f in [*folders, data_root("assets") / "fonts"] if (f / name).is_file()]
    if not found:
        raise PrintdeckError(f"the bundled font {name} is missing; reinstall printdeck")
    return found[0]


def default_face(bold: bool = False) -> FontFace:
    """The face of Latin words when the theme names no font (Bitstream Vera, the first of
    :data:`BUNDLED`); with ``bold``, its bold (:data:`DEFAULT_BOLD_FONT`), which no word
    uses but the PDF's headings do.

    Raises:
        PrintdeckError: The font file is missing (a broken install).
    """
    return FontFace(bundled_font_file(DEFAULT_BOLD_FONT)) if bold else bundled_faces()[0]


def parse_font_ref(raw: str) -> tuple[str, int]:
    """Split a theme's font reference ``"file.ttc#2"`` into ``("file.ttc", 2)``; no ``#N`` is face 0."""
    head, sep, tail = raw.rpartition("#")
    if sep and tail.isdigit() and head.lower().endswith(FONT_SUFFIXES):
        return head, int(tail)
    return raw, 0


def open_face(path: Path, index: int, where: str) -> FontFace:
    """Check a user's font file and return its face.

    Args:
        path: A ``.ttf``, ``.otf``, ``.ttc`` or ``.otc`` file.
        index: The face in a collection (0 for a single font).
        where: The theme key that named it (``text.font``), for messages.

    Raises:
        PrintdeckError: Missing, not a regular file, empty, too large (these checked by
            :func:`printdeck.fileio.user_file_size`; fontTools reads the file itself), not a
            font fontTools can read, a face index the collection does not have, or a font
            without a Unicode character map.
    """
    size = user_file_size(path, where, MAX_FONT_BYTES, "a font file")
    if size == 0:
        raise key_error(
            f"{where}", f"font file {shown(path)} is empty; give a .ttf, .otf or .ttc font", code=UNREADABLE_FONT
        )
    faces = face_count(path, where)
    if not 0 <= index < faces:
        raise key_error(
            f"{where}", f"{path.name} holds {faces} face(s), so #{index} does not exist; use #0 to #{faces - 1}"
        )
    face = FontFace(path, index)
    cmap, outlined = _font_facts(str(path), index, size, path.stat().st_mtime_ns, where)
    if not outlined:
        raise key_error(
            f"{where}",
            f"{path.name} has no outlines (a bitmap font, such as a colour emoji font), and printdeck draws words "
            "as outlines; give a .ttf or .otf font with outlines",
        )
    if not cmap:
        raise key_error(f"{where}", f"{path.name} has no Unicode character map; give another font")
    return face


def face_count(path: Path, where: str) -> int:
    """Number of faces in a font file (1 unless it is a collection).

    Raises:
        PrintdeckError: The file is not a font fontTools can read.
    """
    from fontTools.ttLib import TTCollection, TTFont, TTLibError  # noqa: PLC0415 - only where a font is read

    try:
        with open(path, "rb") as handle:
            magic = handle.read(4)
        with open(path, "rb") as handle:  # closed even when fontTools raises
            if magic == b"ttcf":
                return len(TTCollection(handle, lazy=True).fonts)
            TTFont(handle, lazy=True).getGlyphOrder()
        return 1
    except (OSError, TTLibError, AssertionError, ValueError, KeyError, IndexError) as exc:
        raise key_error(
            f"{where}",
            f"{path} is not a font file printdeck can read ({exc}); give a .ttf, .otf or .ttc font",
            code=UNREADABLE_FONT,
        ) from None


def coverage(face: FontFace) -> frozenset[int]:
    """The code points the face maps to glyphs printdeck can draw (its best Unicode cmap;
    cached): none for a face without outlines (``glyf``, ``CFF`` or ``CFF2``), such as a
    colour bitmap emoji font (Noto Color Emoji's ``CBDT``), since words are drawn as outlines.

    Raises:
        PrintdeckError: The file cannot be read as a font.
    """
    stat = face.path.stat()
    cmap, outlined = _font_facts(str(face.path), face.index, stat.st_size, stat.st_mtime_ns, str(face.path))
    return cmap if outlined else frozenset()


_OUTLINE_TABLES = ("glyf", "CFF ", "CFF2")


@lru_cache(maxsize=64)
def _font_facts(path: str, index: int, size: int, mtime_ns: int, where: str) -> tuple[frozenset[int], bool]:
    """A face's best Unicode cmap and whether it has outlines."""
    from fontTools.ttLib import TTFont, TTLibError  # noqa: PLC0415 - only where a font is read

    try:
        with open(path, "rb") as handle:  # closed even when fontTools raises
            font = TTFont(handle, fontNumber=index, lazy=True)
            return frozenset(font.getBestCmap() or {}), any(tag in font for tag in _OUTLINE_TABLES)
    except (OSError, TTLibError, AssertionError, ValueError, KeyError, IndexError) as exc:
        raise key_error(
            f"{where}", f"cannot read the font {path} ({exc}); give a .ttf, .otf or .ttc font", code=UNREADABLE_FONT
        ) from None


def needed_chars(text: str) -> list[str]:
    """The characters of ``text`` a face must have glyphs for (no ignorables, each once)."""
    return [c for c in dict.fromkeys(text) if ord(c) not in IGNORABLE]


def first_covering(chain: Sequence[FontFace], text: str) -> FontFace | None:
    """The first face of ``chain`` with a glyph for every character of ``text``, or None."""
    need = needed_chars(text)
    for face in chain:
        have = coverage(face)
        if all(ord(c) in have for c in need):
            return face
    return None


def font_runs(text: str, chain: Sequence[FontFace]) -> list[tuple[str, FontFace]]:
    """Split ``text`` (logical order) into runs, each set in one face of ``chain``.

    The whole word goes to the first face that covers it; otherwise each character
    takes the first face that has it, and a combining mark or joiner stays with the
    face of the character before it when that face has it too.

    Returns:
        ``[(run text, face), ...]`` covering ``text`` in order.

    Raises:
        PrintdeckError: no face of the chain (nor of the machine) has a character;
            the message names the missing characters.
    """
    whole = first_covering(chain, text)
    if whole is not None:
        return [(text, whole)]
    runs: list[tuple[str, FontFace]] = []
    for ch in text:
        if runs and runs[-1][1].covers(ch):  # marks and joiners stay with their base's face
            runs[-1] = (runs[-1][0] + ch, runs[-1][1])
            continue
        face = next((f for f in chain if f.covers(ch)), None)
        if face is None:
            raise PrintdeckError(f"no font has {describe_chars([ch])}")
        runs.append((ch, face))
    return runs


def fallback_chain(user: Sequence[FontFace], text: str, lang: str | None = None) -> list[FontFace]:
    """The faces to try for ``text``: the user's, the bundled ones, then the machine's.

    The machine's fonts are asked only for characters the earlier faces lack: first for
    all of them at once, then, for up to :data:`ASKED_ALONE` still lacking, one by one (no
    face may have both a Chinese word's letters and its emoji: each is found alone, and a
    character no face has is the only one named).
    """
    chain = list(dict.fromkeys([*user, *bundled_faces()]))
    missing = missing_chars(text, chain)
    if missing:
        chain.extend(f for f in system_faces("".join(missing), lang) if f not in chain)
    for char in missing_chars(text, chain)[:ASKED_ALONE]:
        if not any(f.covers(char) for f in chain):  # a face found for an earlier one may have it
            chain.extend(f for f in system_faces(char, lang) if f not in chain)
    return chain


ASKED_ALONE = 8
"""The most characters of one text the machine's fonts are asked for one by one."""


def missing_chars(text: str, chain: Sequence[FontFace]) -> list[str]:
    """The characters of ``text`` that no face of ``chain`` has."""
    return [c for c in needed_chars(text) if not any(f.covers(c) for f in chain)]


def system_faces(chars: str, lang: str | None = None) -> list[FontFace]:
    """Faces installed on this machine that cover ``chars``, best first.

    Asks fontconfig's ``fc-match`` when it is installed, else reads the fonts of the
    usual folders (:data:`SYSTEM_FOLDERS`). Never raises: a machine without fonts
    gives an empty list.
    """
    return list(_system_faces(chars, lang))


@lru_cache(maxsize=256)
def _system_faces(chars: str, lang: str | None) -> tuple[FontFace, ...]:
    for folder in os.get_exec_path():  # where fc-match is looked for: one installed there changes the answer
        sys.audit(INPUT_EVENT, folder)
    if shutil.which("fc-match"):
        faces = _fontconfig(chars, lang)
    else:
        faces = [f for f in _folder_faces() if all(f.covers(c) for c in chars)]
    return tuple(faces)


def _fontconfig(chars: str, lang: str | None) -> list[FontFace]:
    """``fc-match -s`` for a sans face with every code point of ``chars``."""
    pattern = "sans-serif:charset=" + " ".join(f"{ord(c):x}" for c in chars)
    if lang:
        pattern += f":lang={lang}"
    command = ("fc-match", "-s", "--format=%{file}\t%{index}\n", pattern)
    try:
        out = subprocess.run(list(command), capture_output=True, text=True, timeout=20, check=False).stdout
    except (OSError, subprocess.SubprocessError):
        return []
    sys.audit(PROGRAM_EVENT, command, out)
    faces = []
    for line in out.splitlines()[:40]:
        file, _, index = line.partition("\t")
        path = Path(file)
        if path.suffix.lower() in FONT_SUFFIXES and path.is_file() and index.isdigit():
            face = FontFace(path, int(index))
            try:
                if all(face.covers(c) for c in chars):
                    faces.append(face)
            except PrintdeckError:
                continue
    return faces


def _folder_faces() -> list[FontFace]:
    """Every face in the usual font folders of this platform (sorted by path)."""
    key = next((k for k in SYSTEM_FOLDERS if sys.platform.startswith(k)), "linux")
    files: list[Path] = []
    for folder in SYSTEM_FOLDERS[key]:
        root = Path(os.path.expanduser(os.path.expandvars(folder)))
        sys.audit(INPUT_EVENT, str(root))  # one made later would be read (printdeck.rerun)
        if root.is_dir():
            files.extend(p for p in root.rglob("*") if p.suffix.lower() in FONT_SUFFIXES and p.is_file())
    faces: list[FontFace] = []
    for path in sorted(set(files))[:2000]:
        try:
            faces.extend(FontFace(path, i) for i in range(face_count(path, str(path))))
        except PrintdeckError:
            continue
    return faces


def describe_chars(chars: Iterable[str]) -> str:
    """``'中' (U+4E2D), 'ü' (U+00FC)`` for a message."""
    return ", ".join(f"{c!r} (U+{ord(c):04X})" for c in chars)
