"""Words are shaped as a typesetter would: checked against an independent shaper.

printdeck sets a word with python-bidi + HarfBuzz (uharfbuzz) and draws its glyph
outlines with resvg (:func:`printdeck.artwork.rasterise`). The reference is Pillow's
FreeType renderer with libraqm (its own FriBiDi + HarfBuzz build) drawing the same
text in the SAME font file and face printdeck chose (``drawing(symbol).word.faces``).
Both are drawn with the ink about 256 px tall, cropped to their ink, box-reduced to
:data:`H` px tall and the same width, thresholded at half coverage, and compared by
intersection over union (IoU) of the ink masks.

Threshold :data:`IOU_MIN` = 0.90. Measured (this machine, 21 words): IoU 0.945 (猫)
to 0.985 (कुत्ता), mean about 0.965. Every test also checks that a WRONG drawing
scores below the threshold (the reference mirrored, the word reversed, and for
Arabic, Hebrew and Devanagari the unshaped code points in logical order: measured
0.10 to 0.54), so the comparison discriminates.

Checks that do not rely on raqm at all: the visual order of Hebrew letters and of
digits inside Arabic (column segments matched against single letters drawn alone),
Arabic joining (connected ink bodies, and the font's own presentation-form glyphs
drawn without any shaping), and the Devanagari i-matra drawn left of its consonant.
"""

from __future__ import annotations

import numpy as np
import pytest
from fontTools.ttLib import TTFont
from PIL import Image, ImageDraw, ImageFont, features
from scipy import ndimage

from printdeck.artwork import drawing, rasterise
from printdeck.errors import PrintdeckError
from printdeck.model import SymbolSpec

H = 64  # comparison height, px
DRAW_PX = 256  # drawing height (ink / font size), px: 4x over-sampled
IOU_MIN = 0.90  # see the module docstring

pytestmark = pytest.mark.skipif(not features.check_feature("raqm"), reason="Pillow without libraqm")

RAQM = ImageFont.Layout.RAQM
BASIC = ImageFont.Layout.BASIC

# (word, direction, language for raqm, symbol lang, complex: unshaped code points must differ)
WORDS = [
    ("قطة", "rtl", "ar", None, True),
    ("مدرسة", "rtl", "ar", None, True),
    ("لا", "rtl", "ar", None, True),  # lam-alef ligature
    ("عام 2024", "rtl", "ar", None, True),  # Arabic with digits
    ("חתול", "rtl", "he", None, True),
    ("שָׁלוֹם", "rtl", "he", None, True),  # niqqud
    ("शिक्षक", "ltr", "hi", None, True),  # conjunct, i-matra reordering
    ("कुत्ता", "ltr", "hi", None, True),
    ("แมว", "ltr", "th", None, False),
    ("ช้าง", "ltr", "th", None, False),  # stacked marks
    ("γάτα", "ltr", "el", None, False),
    ("кошка", "ltr", "ru", None, False),
    ("żółw", "ltr", "pl", None, False),
    ("e\u0301\u0323", "ltr", "en", None, False),  # two combining marks on one base
    ("ếch", "ltr", "vi", None, False),
    ("猫", None, None, None, False),
    ("熊猫", None, None, None, False),
    ("ねこ", None, "ja", None, False),
    ("日本語", None, "ja", None, False),
    ("고양이", None, "ko", None, False),
    ("熊猫", None, "zh-Hans", "zh-Hans", False),  # Chinese regional forms
]


def _symbol(word: str, lang: str | None = None) -> SymbolSpec:
    return SymbolSpec(id=0, name=word, kind="text", source=f"text:{word}", text=word, lang=lang)


def _word_drawing(word: str, lang: str | None = None):
    try:
        return drawing(_symbol(word, lang))
    except PrintdeckError as exc:  # e.g. no CJK font on this machine
        pytest.skip(str(exc))


def _printdeck_ink(word: str, lang: str | None = None) -> tuple[np.ndarray, object]:
    """printdeck's raster of the word, ink ``DRAW_PX`` tall (natural aspect), as a bool mask."""
    art = _word_drawing(word, lang)
    img = rasterise(art, max(1, round(DRAW_PX * art.aspect)), DRAW_PX, "#000000")
    return np.asarray(img.getchannel("A")) > 127, art


def _pillow_ink(
    text: str, face, direction: str | None = None, language: str | None = None, engine: ImageFont.Layout = RAQM
) -> np.ndarray:
    """Pillow's drawing of ``text`` in ``face`` (font size ``DRAW_PX``) as a bool mask."""
    font = ImageFont.truetype(str(face.path), DRAW_PX, index=face.index, layout_engine=engine)
    kw = {"direction": direction, "language": language} if engine == RAQM else {}
    left, top, right, bottom = ImageDraw.Draw(Image.new("L", (1, 1))).textbbox((0, 0), text, font=font, **kw)
    img = Image.new("L", (right - left + 20, bottom - top + 20), 0)
    ImageDraw.Draw(img).text((10 - left, 10 - top), text, font=font, fill=255, **kw)
    return np.asarray(img) > 127


def _crop(mask: np.ndarray) -> np.ndarray:
    ys, xs = np.nonzero(mask)
    assert len(ys), "no ink"
    return mask[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]


def _normalised(mask: np.ndarray, shape: tuple[int, int]) -> np.ndarray:
    """``mask`` cropped to its ink and box-reduced to ``shape`` (rows, cols), half coverage."""
    img = Image.fromarray(_crop(mask).astype(np.uint8) * 255)
    return np.asarray(img.resize((shape[1], shape[0]), Image.Resampling.BOX)) > 127


def _iou(a: np.ndarray, b: np.ndarray) -> float:
    return float((a & b).sum()) / float((a | b).sum())


def _compare(mine: np.ndarray, reference: np.ndarray) -> float:
    """IoU of two ink masks, both cropped to ink and scaled to ``H`` px tall (``mine``'s aspect)."""
    c = _crop(mine)
    shape = (H, max(1, round(H * c.shape[1] / c.shape[0])))
    return _iou(_normalised(mine, shape), _normalised(reference, shape))


def _covers(face, text: str) -> bool:
    with TTFont(str(face.path), fontNumber=face.index, lazy=True) as font:
        cmap = font.getBestCmap()
    return all(ord(c) in cmap for c in text if not c.isspace())


def _column_segments(mask: np.ndarray) -> list[tuple[int, int]]:
    """Runs ``(start, end)`` of columns holding ink, left to right."""
    cols = np.concatenate([[False], mask.any(axis=0), [False]]).astype(np.int8)
    edges = np.diff(cols)
    return list(zip(np.nonzero(edges == 1)[0], np.nonzero(edges == -1)[0]))


def _read(mask: np.ndarray, face, alphabet: str) -> str:
    """Each column segment of ``mask``, left to right, read as the letter of ``alphabet``
    whose glyph (drawn alone by FreeType, no shaping) it matches best by IoU (>= 0.8)."""
    mask = _crop(mask)
    templates = {ch: _pillow_ink(ch, face, engine=BASIC) for ch in alphabet}
    out = []
    for s0, s1 in _column_segments(mask):
        seg = mask[:, s0:s1]
        scores = {ch: _compare(seg, t) for ch, t in templates.items()}
        best = max(scores, key=scores.get)
        out.append(best if scores[best] >= 0.8 else "?")
    return "".join(out)


@pytest.mark.parametrize(
    "word, direction, language, lang, complex_script",
    WORDS,
    ids=[f"{w.encode('unicode_escape').decode()[:24]}-{lg}" for w, _, _, lg, _ in WORDS],
)
def test_word_matches_raqm_reference(
    word: str, direction: str | None, language: str | None, lang: str | None, complex_script: bool
) -> None:
    mine, art = _printdeck_ink(word, lang)
    faces = art.word.faces
    assert len(faces) == 1, f"{word!r} is set in several faces {faces}: compare it by runs"
    face = faces[0]
    assert _covers(face, word)
    reference = _pillow_ink(word, face, direction, language)
    score = _compare(mine, reference)
    assert score >= IOU_MIN, f"{word!r} in {face.label}: IoU {score:.3f} with raqm < {IOU_MIN}"
    # the comparison discriminates: wrong drawings score below the threshold
    wrong = {"mirrored": reference[:, ::-1]}
    if word[::-1] != word:
        wrong["reversed"] = _pillow_ink(word[::-1], face, direction, language)
    if complex_script:
        wrong["unshaped"] = _pillow_ink(word, face, engine=BASIC)
    for what, img in wrong.items():
        bad = _compare(mine, img)
        assert bad < IOU_MIN, f"{word!r}: the {what} drawing scores IoU {bad:.3f}; the check cannot tell"


def test_regional_han_forms_follow_lang() -> None:
    """直 differs between Chinese and Japanese: ``lang`` reaches the shaper (locl)."""
    zh, art_zh = _printdeck_ink("直", "zh-Hans")
    ja, art_ja = _printdeck_ink("直", "ja")
    ref_zh = _pillow_ink("直", art_zh.word.faces[0], None, "zh-Hans")
    ref_ja = _pillow_ink("直", art_ja.word.faces[0], None, "ja")
    assert _compare(zh, ref_zh) >= IOU_MIN and _compare(ja, ref_ja) >= IOU_MIN
    assert _compare(zh, ref_ja) < IOU_MIN and _compare(ja, ref_zh) < IOU_MIN


@pytest.mark.parametrize(
    "word, left, right",
    [
        ("שלום world", "world", "שלום"),  # right-to-left paragraph: the Latin run goes to the left
        ("cat قطة", "cat", "قطة"),  # left-to-right paragraph: the Arabic run goes to the right
    ],
    ids=["hebrew-latin", "latin-arabic"],
)
def test_mixed_script_words_by_run(word: str, left: str, right: str) -> None:
    """A word no single face covers: each run (split at the word space) is compared with
    raqm in the face that covers it, and the runs are in bidi order."""
    mine, art = _printdeck_ink(word)
    mask = _crop(mine)
    segs = _column_segments(mask)
    gaps = [segs[i + 1][0] - segs[i][1] for i in range(len(segs) - 1)]
    split = segs[int(np.argmax(gaps))][1] + max(gaps) // 2
    parts = {"left": (mask[:, :split], left), "right": (mask[:, split:], right)}
    for side, (part, text) in parts.items():
        face = next((f for f in art.word.faces if _covers(f, text)), None)
        assert face is not None, f"no face of {art.word.faces} covers {text!r}"
        rtl = any(0x0590 <= ord(c) <= 0x06FF for c in text)
        ref = _pillow_ink(text, face, "rtl" if rtl else "ltr", None)
        score = _compare(part, ref)
        assert score >= IOU_MIN, f"{word!r}: the {side} run is not {text!r} (IoU {score:.3f})"
        other = parts["right" if side == "left" else "left"][1]
        other_face = next(f for f in art.word.faces if _covers(f, other))
        assert _compare(part, _pillow_ink(other, other_face, "rtl" if not rtl else "ltr", None)) < IOU_MIN


def test_hebrew_first_letter_is_drawn_at_the_right_end() -> None:
    """חתול: read from left to right the drawing shows ל ו ת ח (ח, the first letter typed, at the
    right end); the same reader gives the logical order for an unshaped left-to-right drawing."""
    mine, art = _printdeck_ink("חתול")
    face = art.word.faces[0]
    assert _read(mine, face, "חתול") == "לותח"
    assert _read(_pillow_ink("חתול", face, engine=BASIC), face, "חתול") == "חתול"


def test_digits_inside_arabic_run_left_to_right() -> None:
    """عام 2024: the number sits left of the Arabic word (it follows it in a right-to-left
    line) and reads 2, 0, 2, 4 from left to right."""
    mine, art = _printdeck_ink("عام 2024")
    face = art.word.faces[0]
    reading = _read(mine, face, "0123456789")
    assert reading[:4] == "2024", reading
    assert set(reading[4:]) == {"?"}, f"the Arabic letters must lie right of the digits: {reading}"


def _bodies(mask: np.ndarray) -> int:
    """Connected ink parts at least 10 % the size of the biggest (letter bodies, not dots)."""
    labels, n = ndimage.label(mask, structure=np.ones((3, 3)))
    sizes = ndimage.sum(mask, labels, range(1, n + 1))
    return int((sizes >= 0.1 * sizes.max()).sum())


@pytest.mark.parametrize(
    "word, bodies, forms",
    [
        ("قطة", 1, "\ufe94\ufec4\ufed7"),  # teh marbuta fina, tah medi, qaf init
        ("مدرسة", 3, "\ufe94\ufeb3\ufead\ufeaa\ufee3"),  # dal and reh do not join to the left
        ("لا", 1, "\ufefb"),  # the lam-alef ligature
    ],
    ids=["qitta", "madrasa", "lam-alef"],
)
def test_arabic_letters_join(word: str, bodies: int, forms: str) -> None:
    """Joined: the word's letter bodies connect (fewer than its letters drawn in isolated
    forms), and the drawing matches the font's own contextual presentation-form glyphs
    (Unicode Arabic Presentation Forms-B, listed in visual order) drawn with NO shaping."""
    mine, art = _printdeck_ink(word)
    face = art.word.faces[0]
    isolated = _pillow_ink(word, face, engine=BASIC)  # no shaping: isolated forms
    assert _bodies(mine) == bodies
    assert _bodies(isolated) > bodies
    assert _compare(mine, _pillow_ink(forms, face, engine=BASIC)) >= IOU_MIN
    assert _compare(mine, isolated) < IOU_MIN


def test_devanagari_conjunct_and_i_matra() -> None:
    """शिक्षक: क्ष is one conjunct glyph (fewer glyphs than code points), and the i-matra ि,
    typed after श, is drawn left of it: its loop, the only ink above the headline, starts in
    the leftmost columns. The unshaped drawing (matra after श) fails the same check."""
    for word in ("शिक्षक", "कुत्ता"):
        assert _word_drawing(word).word.glyph_count < len(word)

    def loop_starts_left(mask: np.ndarray) -> bool:
        mask = _crop(mask)
        rows = mask.sum(axis=1)
        top = int(rows.argmax())
        while top > 0 and rows[top - 1] > 0.5 * rows.max():
            top -= 1
        above = mask[: max(0, top - 3)]  # strictly above the headline band
        return bool(above[:, : mask.shape[1] // 20].any()) and np.nonzero(above)[1].mean() < 0.25 * mask.shape[1]

    mine, art = _printdeck_ink("शिक्षक")
    assert loop_starts_left(mine)
    assert not loop_starts_left(_pillow_ink("शिक्षक", art.word.faces[0], engine=BASIC))
