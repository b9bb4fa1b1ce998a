"""Setting a word as a typesetter would: bidi runs, HarfBuzz shaping, glyph outlines.

The word is split into runs of one embedding level (the Unicode Bidirectional
Algorithm, UAX #9, via python-bidi) and one face (:func:`printdeck.artwork.fonts.font_runs`);
the runs are put in visual order (rule L2) and each is shaped by HarfBuzz (uharfbuzz) in
its direction, with the whole word as context so Arabic joins across runs. The shaped
glyphs' outlines (drawn by HarfBuzz into fontTools pens) make one path in em units: this
path is the word's drawing, traced for the layout and filled in the PDF, PNGs, preview
and legend alike (non-zero winding, as TrueType and CFF outlines are meant to be filled).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import lru_cache

import uharfbuzz as hb
from bidi import algorithm as uba
from fontTools.pens.boundsPen import BoundsPen
from fontTools.pens.recordingPen import RecordingPen
from fontTools.pens.transformPen import TransformPen

from printdeck.artwork.fonts import FontFace, font_runs
from printdeck.errors import PrintdeckError

PathOps = tuple[tuple[str, tuple[tuple[float, float], ...]], ...]
"""A fontTools ``RecordingPen`` value: ``(operator, points)`` pairs (moveTo, lineTo, qCurveTo,
curveTo, closePath, endPath)."""


@dataclass(frozen=True)
class ShapedWord:
    """A word set in its fonts, as outlines.

    Attributes:
        ops: The outlines in em units, baseline origin at (0, 0), x right, y up.
        ink_em: ``(x_min, y_min, x_max, y_max)``: the exact bounds of the outlines, em.
        advance_em: The word's total advance width, em.
        faces: The faces the word's runs are set in, in visual order.
        glyph_count: Number of glyphs set.
        runs: Each run in visual order: its face and where its outlines are in ``ops``
            (``(face, start, end)``), so a caller can draw one face's glyphs apart.
    """

    ops: PathOps
    ink_em: tuple[float, float, float, float]
    advance_em: float
    faces: tuple[FontFace, ...]
    glyph_count: int
    runs: tuple[tuple[FontFace, int, int], ...] = ()


def starts_right_to_left(text: str) -> bool:
    """Whether ``text`` read alone is a right-to-left paragraph: its first strong letter is
    right to left (UAX #9 rule P2), so a sentence of printdeck's own left-to-right words
    that begins with an Arabic or Hebrew title would be laid out right to left."""
    return bool(text) and uba.get_base_level(text) == 1


def bidi_levels(text: str) -> list[int]:
    """The resolved embedding level of each character of ``text`` (UAX #9, rules P2-I2).

    The paragraph level comes from the first strong character (rule P2). Characters
    rule X9 removes (embedding controls, boundary neutrals such as ZWJ) take the
    level of the character before them.

    Returns:
        ``(len(text),)`` list of ints; odd levels run right to left.
    """
    if not text:
        return []
    storage = uba.get_empty_storage()
    base = uba.get_base_level(text)
    storage["base_level"], storage["base_dir"] = base, ("L", "R")[base]
    uba.get_embedding_levels(text, storage, False, False)
    uba.explicit_embed_and_overrides(storage, False)
    uba.resolve_weak_types(storage, False)
    uba.resolve_neutral_types(storage, False)
    uba.resolve_implicit_levels(storage, False)
    kept = iter(storage["chars"])
    levels: list[int] = []
    for ch in text:
        if unicodedata.bidirectional(ch) in uba.X9_REMOVED:
            levels.append(levels[-1] if levels else base)
        else:
            levels.append(int(next(kept)["level"]))
    return levels


def visual_runs(levels: list[int], keys: list[object]) -> list[tuple[int, int, int]]:
    """Runs ``(start, end, level)`` of equal level and key, in visual order (UAX #9 rule L2).

    Args:
        levels: Embedding level per character (logical order).
        keys: Another per-character property that also splits runs (the face).
    """
    runs: list[tuple[int, int, int]] = []
    for i, level in enumerate(levels):
        if runs and runs[-1][2] == level and keys[runs[-1][0]] == keys[i]:
            runs[-1] = (runs[-1][0], i + 1, level)
        else:
            runs.append((i, i + 1, level))
    lowest_odd = min((lv for lv in levels if lv % 2), default=None)
    if lowest_odd is None:
        return runs
    for level in range(max(levels), lowest_odd - 1, -1):
        out: list[tuple[int, int, int]] = []
        i = 0
        while i < len(runs):
            j = i
            while j < len(runs) and runs[j][2] >= level:
                j += 1
            out.extend(reversed(runs[i:j]) if j > i else [runs[i]])
            i = j if j > i else i + 1
        runs = out
    return runs


@lru_cache(maxsize=64)
def _hb_font(face: FontFace, digest: str) -> tuple[hb.Font, int]:
    blob = hb.Blob.from_file_path(str(face.path))
    hb_face = hb.Face(blob, face.index)
    return hb.Font(hb_face), hb_face.upem


def shape_word(text: str, chain: tuple[FontFace, ...], lang: str | None = None) -> ShapedWord:
    """Set ``text`` in the faces of ``chain`` (see :func:`printdeck.artwork.fonts.font_runs`).

    Args:
        text: The word or short phrase (logical order, as typed).
        chain: Faces to try, in order.
        lang: BCP 47 language tag for shaping (e.g. ``"sr"`` for Serbian forms), or None.

    Returns:
        The outlines and their exact ink bounds.

    Raises:
        PrintdeckError: no face has a character, or the word draws no ink.
    """
    runs = font_runs(text, chain)
    face_of: list[object] = [face for run, face in runs for _ in run]
    codepoints = [ord(c) for c in text]
    rec = RecordingPen()
    x_em, used, glyphs = 0.0, [], 0
    set_runs: list[tuple[FontFace, int, int]] = []
    for start, end, level in visual_runs(bidi_levels(text), face_of):
        face = face_of[start]
        assert isinstance(face, FontFace)
        font, upem = _hb_font(face, face.digest())
        buf = hb.Buffer()
        buf.add_codepoints(codepoints, start, end - start)
        buf.direction = "rtl" if level % 2 else "ltr"
        if lang:
            buf.language = lang
        buf.guess_segment_properties()
        hb.shape(font, buf)
        first_op = len(rec.value)
        for info, pos in zip(buf.glyph_infos, buf.glyph_positions):
            scale = 1.0 / upem
            pen = TransformPen(rec, (scale, 0, 0, scale, x_em + pos.x_offset * scale, pos.y_offset * scale))
            font.draw_glyph_with_pen(info.codepoint, pen)
            x_em += pos.x_advance * scale
            glyphs += 1
        used.append(face)
        set_runs.append((face, first_op, len(rec.value)))
    bounds = BoundsPen(None)
    rec.replay(bounds)
    if bounds.bounds is None or bounds.bounds[2] <= bounds.bounds[0] or bounds.bounds[3] <= bounds.bounds[1]:
        raise PrintdeckError(
            f"text {text!r} draws no ink in {', '.join(f.label for f in used)}; give a word with visible letters"
        )
    ops = tuple((op, tuple((float(x), float(y)) for x, y in pts)) for op, pts in rec.value)
    return ShapedWord(
        ops=ops,
        ink_em=tuple(float(v) for v in bounds.bounds),  # type: ignore[arg-type]
        advance_em=x_em,
        faces=tuple(dict.fromkeys(used)),
        glyph_count=glyphs,
        runs=tuple(set_runs),
    )
