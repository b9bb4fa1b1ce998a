"""Uploaded pictures: limits, safe file names inside the theme folder, picture or photo.

An uploaded file's name is only a hint: it is reduced to one plain file name (no folder,
no leading dot, no control character), given a known picture suffix, and written into
the theme folder's ``images/`` under a name no other file has (``cat.png``,
``cat-2.png``...), so nothing is ever overwritten and nothing lands outside the folder.
"""

from __future__ import annotations

import io
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from printdeck.errors import PrintdeckError, shown
from printdeck.fileio import atomic_output

PICTURES_FOLDER = "images"
MAX_FILE_BYTES = 80_000_000
"""Largest picture accepted (printdeck refuses larger rasters anyway)."""
MAX_FILES_PER_UPLOAD = 200
MAX_UPLOAD_BYTES = 200_000_000
"""Largest upload request (all its files together; the page sends big drops in batches)."""
MAX_SYMBOLS = 5000
"""A theme's most symbols (the theme model's limit)."""
PICTURE_SUFFIXES = {".png", ".jpg", ".jpeg", ".webp", ".svg", ".heic", ".heif", ".avif"}
PHOTO_ONLY_SUFFIXES = {".jpg", ".jpeg", ".heic", ".heif", ".avif"}
MAX_CLASSIFIED_PIXELS = 60_000_000
"""Pictures larger than this are not decoded here (printdeck's own check refuses them)."""
FONT_SUFFIXES = {".ttf", ".otf", ".ttc"}
_UNSAFE = re.compile(r"[^\w.-]+")
_MAX_STEM = 80


@dataclass(frozen=True)
class Upload:
    """One uploaded file: the name the browser gave and its bytes."""

    filename: str
    data: bytes


def safe_file_name(raw: str, suffixes: set[str], fallback: str = "picture") -> str:
    """Reduce an uploaded file's name to a plain name with one of ``suffixes``.

    Folders (``../../x.png``, ``C:\\x.png``) are dropped, characters other than letters,
    digits, ``-``, ``_`` and ``.`` become ``-``, leading dots go (no hidden files) and the
    stem is cut to 80 characters.

    Args:
        raw: The name the browser sent.
        suffixes: Allowed suffixes, lower case with the dot.
        fallback: Stem used when nothing usable is left.

    Raises:
        PrintdeckError: The suffix is not one of ``suffixes`` (one line, in the words the
            command line uses for a picture it cannot read).
    """
    base = unicodedata.normalize("NFC", raw.replace("\\", "/").split("/")[-1])
    base = "".join(c for c in base if c.isprintable())
    stem, dot, suffix = base.rpartition(".")
    if not dot:
        stem, suffix = suffix, ""
    suffix = "." + suffix.lower() if suffix else ""
    if suffix not in suffixes:
        kinds = ", ".join(s[1:].upper() for s in sorted(suffixes))
        what = f"a {suffix} file" if suffix else "a file without a suffix"
        raise PrintdeckError(
            f"{shown(base) or 'the file'}: is {what}, which printdeck cannot read; convert it to one of {kinds}"
        )
    clean = _UNSAFE.sub("-", stem).strip("-.")[:_MAX_STEM].strip("-.")
    return f"{clean or fallback}{suffix}"


def free_name(folder: Path, name: str, data: bytes, taken: set[str]) -> tuple[str, bool]:
    """A name in ``folder`` for ``data``: ``name``, or ``name`` with ``-2``, ``-3``... added.

    A file already there with the very same bytes, that no symbol uses (``taken``), is
    used again rather than copied twice.

    Returns:
        (file name, whether that file already holds ``data``).
    """
    stem, suffix = name.rsplit(".", 1) if "." in name else (name, "")
    suffix = f".{suffix}" if suffix else ""
    for n in range(1, 100_000):
        candidate = name if n == 1 else f"{stem}-{n}{suffix}"
        path = folder / candidate
        if not path.exists() and not path.is_symlink():
            return candidate, False
        if candidate not in taken and path.is_file() and not path.is_symlink() and _same_bytes(path, data):
            return candidate, True
    raise PrintdeckError(f"{shown(folder)}: too many files named like {shown(name)}; rename the file")


def _same_bytes(path: Path, data: bytes) -> bool:
    try:
        return path.stat().st_size == len(data) and path.read_bytes() == data
    except OSError:
        return False


def store(folder: Path, name: str, data: bytes) -> Path:
    """Write ``data`` as ``folder/name`` atomically (``folder`` created if missing).

    Raises:
        PrintdeckError: The folder cannot be made or written (naming it).
    """
    try:
        folder.mkdir(exist_ok=True)
    except OSError as exc:
        raise PrintdeckError(f"{shown(folder)}: cannot create the folder ({exc.strerror})") from None
    path = folder / name
    with atomic_output(path) as tmp:
        tmp.write_bytes(data)
    return path


def check_svg_scripts(name: str, data: bytes) -> None:
    """Refuse an SVG that holds a script (``<script>``, an ``on...`` attribute, a
    ``javascript:`` link): a symbol never needs one, and the page shows the file.
    An SVG that does not parse is left to printdeck's own check, which says why.

    Raises:
        PrintdeckError: the SVG holds a script.
    """
    from defusedxml import ElementTree  # noqa: PLC0415

    try:
        root = ElementTree.fromstring(data, forbid_dtd=True)
    except Exception:  # noqa: BLE001 - malformed or hostile XML: printdeck's check words it
        return
    for element in root.iter():
        tag = str(element.tag).rsplit("}", 1)[-1].lower()
        handlers = [k for k in element.attrib if k.rsplit("}", 1)[-1].lower().startswith("on")]
        links = [v for k, v in element.attrib.items() if k.endswith("href") and "javascript:" in v.lower()]
        if tag in ("script", "foreignobject") or handlers or links:
            what = f"<{tag}>" if tag in ("script", "foreignobject") else (handlers or ["a javascript: link"])[0]
            raise PrintdeckError(
                f"{shown(name)} holds a script ({what}), which a symbol never needs; "
                "remove it or export the SVG again without scripts"
            )


def picture_key(name: str, data: bytes) -> str:
    """``photo`` for an opaque raster (cropped to a shape on the card), else ``image``,
    as ``printdeck init`` decides."""
    suffix = Path(name).suffix.lower()
    if suffix == ".svg":
        return "image"
    if suffix in PHOTO_ONLY_SUFFIXES:
        return "photo"
    try:
        from PIL import Image  # noqa: PLC0415 - only when a picture comes in

        with Image.open(io.BytesIO(data)) as image:
            if image.width * image.height > MAX_CLASSIFIED_PIXELS:  # printdeck's check refuses it
                return "image"
            if image.mode in ("RGBA", "LA", "PA") or (image.mode == "P" and "transparency" in image.info):
                alpha = image.convert("RGBA").getchannel("A")
                return "image" if alpha.getextrema()[0] < 255 else "photo"
            return "photo"
    except Exception:  # noqa: BLE001 - a broken file: printdeck's check says what is wrong with it
        return "image"
