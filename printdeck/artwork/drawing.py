"""The one drawing of each symbol, and the cache key derived from everything that makes it.

:func:`drawing` turns a :class:`~printdeck.model.SymbolSpec` into a :class:`Drawing`:

* ``svg``: the file itself (its whole viewBox is the box);
* ``text``: the word shaped and set as outlines (:mod:`printdeck.artwork.shaping`), its
  box the exact ink bounds of the outlines;
* ``raster``: the EXIF-upright picture; ``photo``: its crop square (around the faces, or
  where the theme's ``focus`` says), masked to a circle or rounded square, background
  removed if asked (:mod:`printdeck.artwork.picture`, decoded by :mod:`printdeck.artwork.decode`).

The silhouette is traced from :func:`printdeck.artwork.raster.rasterise` of this drawing,
and the PNGs, the preview and the PDF (``printdeck.render.forms``, the legend too)
draw the same one, so what the layout packed is what prints.
"""

from __future__ import annotations

import dataclasses
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from printdeck.artwork.crop_cache import framed, stored_crop
from printdeck.artwork.svgcheck import MAX_SVG_BYTES
from printdeck.audit import INPUT_EVENT
from printdeck.cache import code_digest, entry_key, file_digest, file_identity
from printdeck.choices import MAX_IMAGE_BYTES
from printdeck.errors import NO_FONT_HAS, PrintdeckError
from printdeck.fileio import user_file_size
from printdeck.model import CropReport, SymbolSpec, drawn_only

if TYPE_CHECKING:  # words, photos and SVG sizes load their modules when drawn (a cached build draws none)
    from printdeck.artwork.fonts import FontFace
    from printdeck.artwork.picture import Crop
    from printdeck.artwork.shaping import PathOps, ShapedWord

DrawingKind = Literal["svg", "text", "picture"]
WORD_SPACE_EM = 0.25
"""Space kept clear between two words on a card, in em of the smaller word (a word space)."""
WORD_APART_EM = 0.4
"""Space kept clear between two words side by side along a line, in em of the smaller word,
on top of :data:`WORD_SPACE_EM`'s and of half of each word's own widest space: "5 × 6"
beside "42" must not read as "5 × 6 42", so the gap between them is wider than the
spaces inside either."""


@dataclass(frozen=True)
class Drawing:
    """A symbol's drawing and its natural box.

    Attributes:
        symbol: The symbol drawn.
        kind: ``svg``, ``text`` or ``picture`` (raster and photo symbols).
        size: The natural box ``(width, height)``: SVG user units, em, or pixels.
        key: Hex digest of everything that changes the drawing (:func:`drawing_key`).
        word: The shaped word (``text`` only).
        crop: The crop square of a photo, upright source pixels (``size`` is its side).
        crop_report: What a photo's crop holds and why (faces, a cat's face, the
            subject, nothing, the theme's focus), for the summary, manifest and studio.
        clearance: Extra room (box heights) the layout keeps clear around the ink on
            top of ``layout.gap``: half a word space for words (so two words stand at
            least :data:`WORD_SPACE_EM` of the smaller one apart), 0 otherwise.
        clearance_along: Extra room (box heights) along the baseline, on top of
            ``clearance``, at each end of a word: half of :data:`WORD_APART_EM`; the
            silhouette adds half the word's widest inner space
            (:func:`printdeck.artwork.tracing.trace`). 0 for pictures.
    """

    symbol: SymbolSpec
    kind: DrawingKind
    size: tuple[float, float]
    key: str
    word: ShapedWord | None = None
    clearance: float = 0.0
    clearance_along: float = 0.0
    crop: Crop | None = None
    crop_report: CropReport | None = None

    @property
    def aspect(self) -> float:
        """Width over height of the box."""
        return self.size[0] / self.size[1]

    def word_ops(self) -> PathOps:
        """The word's outlines moved into the box frame: origin at the box's bottom-left
        corner, x right, y up, em units (``text`` only).

        Raises:
            ValueError: The drawing is not a word.
        """
        if self.word is None:
            raise ValueError(f"symbol {self.symbol.name!r} is not a word")
        x0, y0 = self.word.ink_em[0], self.word.ink_em[1]
        return tuple((op, tuple((x - x0, y - y0) for x, y in pts)) for op, pts in self.word.ops)


def drawing(symbol: SymbolSpec) -> Drawing:
    """The symbol's drawing (cached per :func:`drawing_key`).

    Raises:
        PrintdeckError: The artwork file is missing or unreadable, no font has a
            character of a word (the message names the word, the characters and what
            to install or set), or the word draws no ink.
    """
    with about(symbol):
        art = _drawing(drawn_only(symbol), drawing_key(symbol))
    return art if art.symbol == symbol else dataclasses.replace(art, symbol=symbol)


@contextmanager
def about(symbol: SymbolSpec) -> Iterator[None]:
    """Inside: a ``PrintdeckError`` that names no theme key is said of ``symbol``'s theme
    entry (its :attr:`~printdeck.model.SymbolSpec.theme_key`, ``symbols.3``), so a front end
    can put it beside that symbol."""
    try:
        yield
    except PrintdeckError as exc:
        if symbol.theme_key is None or exc.key is not None:
            raise
        raise exc.keyed(symbol.theme_key) from None


@lru_cache(maxsize=2048)
def _drawing(symbol: SymbolSpec, key: str) -> Drawing:
    """The drawing of ``symbol`` (its drawn fields only: one entry for every copy of it)."""
    if symbol.kind == "text":
        from printdeck.artwork.shaping import shape_word  # noqa: PLC0415 - HarfBuzz, fontTools only for words
        from printdeck.artwork.turned_numbers import reads_turned, underlined  # noqa: PLC0415 - with shaping

        text = symbol.text or symbol.name
        word = shape_word(text, tuple(word_chain(symbol)), symbol.lang)
        if reads_turned(text) is not None:  # 6 or 9, 18 or 81: seen from across the table
            word = underlined(word)
        x0, y0, x1, y1 = word.ink_em
        height = y1 - y0
        em = 1.0 / height  # box heights
        return Drawing(symbol, "text", (x1 - x0, height), key, word, WORD_SPACE_EM / 2.0 * em, WORD_APART_EM / 2.0 * em)
    path = existing_file(symbol)
    if symbol.kind == "svg":
        from printdeck.artwork.svg import svg_size  # noqa: PLC0415 - resvg only when drawn

        return Drawing(symbol, "svg", svg_size(path), key)
    from printdeck.artwork.decode import oriented_size  # noqa: PLC0415 - Pillow, pillow-heif only for pictures

    w, h = oriented_size(path)
    if symbol.kind == "photo":
        crop, report = framed(symbol, key, (w, h))
        _KNOWN_REPORTS[key] = report
        return Drawing(symbol, "picture", (crop.side, crop.side), key, crop=crop, crop_report=report)
    return Drawing(symbol, "picture", (float(w), float(h)), key)


_KNOWN_REPORTS: dict[str, CropReport] = {}  # drawing key -> its photo's crop report, this process


def known_crop_report(symbol: SymbolSpec) -> CropReport | None:
    """What a photo's crop holds, if it is already known (drawn in this process, or found
    by an earlier build and cached); never searches the photo, so it answers at once.
    None for other symbols, or a photo not drawn yet.

    Raises:
        PrintdeckError: The photo's file cannot be read (as :func:`drawing_key`).
    """
    if symbol.kind != "photo":
        return None
    key = drawing_key(symbol)
    if key not in _KNOWN_REPORTS:
        from printdeck.artwork.decode import oriented_size  # noqa: PLC0415 - Pillow only for photos

        stored = stored_crop(key, oriented_size(existing_file(symbol)))
        if stored is None:
            return None
        _KNOWN_REPORTS[key] = stored[1]
    return _KNOWN_REPORTS[key]


def existing_file(symbol: SymbolSpec) -> Path:
    """The symbol's artwork file, checked (not read) by :func:`printdeck.fileio.user_file_size`.

    Raises:
        PrintdeckError: The symbol has no file, or it is missing, not a regular file or
            larger than :data:`~printdeck.artwork.svgcheck.MAX_SVG_BYTES` (an SVG) or
            :data:`~printdeck.artwork.picture.MAX_IMAGE_BYTES` (a picture); the message
            names the symbol.
    """
    where = f"symbol {symbol.name!r}"
    if symbol.path is None:
        raise symbol.error("no artwork file", "fix the theme's symbols list")
    limit = MAX_SVG_BYTES if symbol.kind == "svg" else MAX_IMAGE_BYTES
    user_file_size(Path(symbol.path), where, limit, "an artwork file")
    return Path(symbol.path)


def user_faces(symbol: SymbolSpec) -> list[FontFace]:
    """The face the theme names for a word (``text.font`` or the word's ``font``), if any."""
    from printdeck.artwork.fonts import FontFace  # noqa: PLC0415 - fontTools only for words

    if symbol.font_path is None:
        return []
    return [FontFace(Path(symbol.font_path), symbol.font_index)]


def chosen_font_gap(symbol: SymbolSpec) -> tuple[FontFace, list[str]] | None:
    """The face the theme chose for a word (:func:`user_faces`) and the characters of the
    word it has no glyph for, which are set in a fallback face; None when no face is chosen
    or it has them all."""
    from printdeck.artwork.fonts import missing_chars  # noqa: PLC0415 - fontTools only for words

    chosen = user_faces(symbol)
    lacking = missing_chars(symbol.text or symbol.name, chosen) if chosen else []
    return (chosen[0], lacking) if lacking else None


def word_chain(symbol: SymbolSpec) -> list[FontFace]:
    """The faces a word is set in, first choice first (see :mod:`printdeck.artwork.fonts`).

    Raises:
        PrintdeckError: No face, bundled or on this machine, has some character of
            the word; the message names the word, the characters and the fix.
    """
    from printdeck.artwork import fonts  # noqa: PLC0415 - fontTools only for words

    text = symbol.text or symbol.name
    chain = fonts.fallback_chain(user_faces(symbol), text, symbol.lang or guess_lang(text))
    missing = fonts.missing_chars(text, chain)
    if missing:
        problem, fix = _missing_emoji(text, missing) or (
            f"no font has {fonts.describe_chars(missing)} of {text!r}",
            f"{install_hint(missing)} or set text.font to a font file that has it",
        )
        raise PrintdeckError(f"{problem}; {fix}", problem=problem, fix=fix, value=text, code=NO_FONT_HAS)
    return chain


def unprintable_text(text: str) -> str | None:
    """Why the theme's own text (a title, a credit, a picture's name) cannot be printed, or
    None when it can: it is set as PDF text, or as outlines in the fallback fonts
    (:func:`printdeck.artwork.fonts.fallback_chain`, no theme font), so a character no
    font has fails; an emoji is named as :func:`word_chain` names it.

    Raises:
        PrintdeckError: A bundled font file is missing (a broken install).
    """
    from printdeck.artwork import fonts  # noqa: PLC0415 - fontTools only for such text

    if text.isascii():  # the embedded sans has every ASCII letter
        return None
    missing = fonts.missing_chars(text, fonts.fallback_chain([], text))
    if not missing:
        return None
    emoji = _missing_emoji(text, missing)
    return emoji[0] if emoji is not None else f"no font has {fonts.describe_chars(missing)} of {text!r}"


def _missing_emoji(text: str, missing: list[str]) -> tuple[str, str] | None:
    """The problem and fix when every character no font has is part of an emoji: the
    emoji named as a person reads it, and its bundled picture if printdeck has one."""
    from printdeck.emoji_names import bundled_picture, described, emoji_in  # noqa: PLC0415

    lacking = [seq for seq in emoji_in(text) if any(c in seq for c in missing)]
    if not lacking or not all(any(c in seq for seq in lacking) for c in missing):
        return None
    named = ", ".join(described(seq) for seq in lacking)
    word = "" if "".join(lacking) == text else f" of '{text}'"
    picture = bundled_picture(lacking[0]) if len(lacking) == 1 else None
    if picture is not None:
        fix = f'use printdeck\'s picture of it instead: image: "{picture}"'
    else:
        fix = "use a picture of it instead (image: a PNG or SVG file), or set text.font to a font with outline emoji"
    return f"no font has the emoji {named}{word}", fix


def install_hint(chars: list[str]) -> str:
    """What to install for ``chars``: Noto Sans CJK for Chinese, Japanese and Korean, else
    the Noto font of their script (named by its Unicode script)."""
    from fontTools.unicodedata import script, script_name  # noqa: PLC0415 - only for a missing glyph

    scripts = sorted({script_name(script(c)) for c in chars} - {"Common", "Inherited", "Unknown"})
    if set(scripts) & {"Han", "Hiragana", "Katakana", "Hangul", "Bopomofo"}:
        return "install a CJK font (e.g. Noto Sans CJK: apt install fonts-noto-cjk)"
    if scripts:
        return f"install a font for {', '.join(scripts)} (e.g. Noto Sans {scripts[0]})"
    return "install a font that has these characters"


def guess_lang(text: str) -> str | None:
    """A language hint for fontconfig from the word's letters: Korean for Hangul,
    Japanese for kana, else None (the theme's ``text.lang`` decides Han characters)."""
    if any(0xAC00 <= ord(c) <= 0xD7AF or 0x1100 <= ord(c) <= 0x11FF for c in text):
        return "ko"
    if any(0x3040 <= ord(c) <= 0x30FF for c in text):
        return "ja"
    return None


def drawing_key(symbol: SymbolSpec) -> str:
    """Hex digest of everything that changes a symbol's drawing
    (:func:`printdeck.cache.entry_key`).

    Made of: every :class:`~printdeck.model.SymbolSpec` field not marked
    ``NOT_DRAWN`` (so a field added later counts by default) but the paths of files,
    the artwork file's bytes, the bytes of every font a word may be set in, and the
    source code of :mod:`printdeck.artwork`. Two symbols with equal keys draw the same,
    wherever their files are.

    A build asks for a symbol's key some ten times (its proof, silhouette, look, form...):
    the key of a symbol with a file is made once a version of that file (its size,
    times and inode, :func:`printdeck.cache.file_identity`, read by one ``stat``), as the
    file's digest is.

    Raises:
        PrintdeckError: The artwork file cannot be read, or a word cannot be set.
    """
    if symbol.kind != "text" and symbol.path is not None:
        path = Path(symbol.path)
        try:
            version = tuple(file_identity(os.stat(path)))
        except (OSError, ValueError):  # the key is made below, which says what is wrong
            return _made_key(symbol)
        sys.audit(INPUT_EVENT, str(path))  # as file_digest says: what is made depends on the file
        return _key_of_version(symbol, version)
    return _made_key(symbol)


@lru_cache(maxsize=4096)
def _key_of_version(symbol: SymbolSpec, version: tuple[int, ...]) -> str:
    """:func:`_made_key` of a symbol whose file is at ``version`` (made once a version: a
    file changed in any way has another)."""
    return _made_key(symbol)


_BY_BYTES = ("path", "font_path")
"""Fields a drawing depends on through the bytes of the file they name, which are in its
key (the artwork file's digest; a word's fonts' digests), not through where the file is:
the same picture has one key wherever printdeck is installed or a theme keeps it (the
bundled pictures' look-alike verdicts ship with them, by these keys)."""


def _made_key(symbol: SymbolSpec) -> str:
    """:func:`drawing_key`, made: the file checked and its digest taken, a word's fonts found."""
    parts = [code_digest("printdeck.artwork", "printdeck.model")]
    parts += [
        f"{f.name}={getattr(symbol, f.name)!r}"
        for f in dataclasses.fields(symbol)
        if f.metadata.get("drawing", True) and f.name not in _BY_BYTES
    ]
    if symbol.path is not None:
        parts.append("file=" + file_digest(existing_file(symbol)))
    if symbol.kind == "text":
        from printdeck.artwork import fonts  # noqa: PLC0415 - fontTools only for words

        parts += [
            f"face={face.index}:{face.digest()}"
            for _, face in fonts.font_runs(symbol.text or symbol.name, word_chain(symbol))
        ]
    return entry_key(*parts)
