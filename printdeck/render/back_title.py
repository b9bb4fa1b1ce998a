"""The title on the card backs (``backs.pattern: title``): one line as large as the ring
allows, or, for a long title that one line would set small, two or three lines broken
between words (four for a title of many words), or in Chinese and Japanese between
characters, each as wide as the ring is at its height."""

from __future__ import annotations

import math
import unicodedata
from dataclasses import dataclass
from itertools import combinations, pairwise, product

from printdeck.render.text import SANS_BOLD, in_direction, string_width
from printdeck.render.wrap import SEPARATORS

__all__ = ["TitleLayout", "title_layout"]

LARGEST_EM_OF_RADIUS = 0.35
"""The title's largest size, as a share of the card's radius."""
ONE_LINE_WIDTH_OF_RADIUS = 1.4
"""One line's width, as a share of the radius (inside the ring at 0.86 of it)."""
ONE_LINE_ENOUGH = 0.18
"""A one-line title at least this large (a share of the radius) stays on one line."""
RING_ROOM = 0.80
"""Lines of a broken title keep inside this share of the radius (the ring is at 0.86)."""
LEADING = 1.15
"""Baseline to baseline, as a share of the size."""
MOST_LINES = 3
MOST_WORDS = 16
"""Up to this many words, every way to break them is tried (they grow as the words' square)."""
LONG_TITLE_LINES = 4
"""A long title (:data:`LONG_TITLE_CHARS`) is also tried in this many lines, each break near
where lines of even length would end (:func:`_near_even_breaks`), as a title of more than
:data:`MOST_WORDS` words is in two or three."""
LONG_TITLE_CHARS = 60
"""A title of at least this many characters may take :data:`LONG_TITLE_LINES` lines (a
shorter one in four lines reads as a list of words)."""


@dataclass(frozen=True)
class TitleLayout:
    """A title set on a back.

    Attributes:
        lines: The lines, top first.
        size_pt: The type size, pt.
        baselines_pt: Each line's baseline, pt from the card's centre (y up).
    """

    lines: tuple[str, ...]
    size_pt: float
    baselines_pt: tuple[float, ...]


def title_layout(text: str, radius_pt: float) -> TitleLayout:
    """Set ``text`` on a back of radius ``radius_pt``: one line (as large as
    :data:`ONE_LINE_WIDTH_OF_RADIUS` of the radius allows, at most
    :data:`LARGEST_EM_OF_RADIUS`), unless that is under :data:`ONE_LINE_ENOUGH` and two or
    three lines set it at least 15 % larger. A title without spaces in Chinese or Japanese
    breaks at its separator ("・") rather than inside a phrase, unless that sets it under
    :data:`PHRASE_SHARE` of the size the best break gives.

    Raises:
        PrintdeckError: No font, bundled or on this machine, has a character.
    """
    width_em = string_width(text, SANS_BOLD, 1.0)
    size = min(ONE_LINE_WIDTH_OF_RADIUS * radius_pt / max(width_em, 1e-6), radius_pt * LARGEST_EM_OF_RADIUS)
    one = TitleLayout((text,), size, (-0.35 * size,))
    if size >= ONE_LINE_ENOUGH * radius_pt:
        return one
    breaks = _breaks(text)
    laid = [_broken(tuple(in_direction(line, text) for line in lines), radius_pt) for lines in breaks]  # words in order
    if not laid:
        return one
    best = max(laid, key=lambda t: t.size_pt)
    phrases = [t for t, lines in zip(laid, breaks, strict=True) if " " not in text and len("".join(lines)) < len(text)]
    if phrases and max(t.size_pt for t in phrases) >= PHRASE_SHARE * best.size_pt:
        best = max(phrases, key=lambda t: t.size_pt)
    return best if best.size_pt >= 1.15 * size else one


PHRASE_SHARE = 0.8
"""A title without spaces breaks at its separators if that sets it at least this share of
the size a break anywhere gives (see :func:`title_layout`)."""


def _breaks(text: str) -> list[tuple[str, ...]]:
    """The ways to set ``text`` in two or three lines, in order: between words (at spaces
    only: a no-break space holds), every way for up to :data:`MOST_WORDS` words; a title
    without spaces in Chinese or Japanese, which breaks between any two characters, in
    lines of as near equal length as can be (a Latin word in it, "Kanji漢字カード", stays
    whole: :func:`_may_break`).

    A word that is only a separator (:data:`SEPARATORS`, as in "Our Family · हमारा परिवार")
    never starts or ends a line: a break beside it takes it out, the line break then
    separating the two parts (a line ending in "·", or starting with it, reads as a stray
    mark; in a right-to-left title the dot even moved to the far end of its line)."""
    words = [word for word in text.split(" ") if word]
    cuts = _cuts(words)
    if cuts:
        most = LONG_TITLE_LINES if len(text) >= LONG_TITLE_CHARS else MOST_LINES
        if len(words) > MOST_WORDS:
            return [_joined(words, chosen) for chosen in _near_even_breaks(words, cuts, range(2, most + 1))]
        every = [chosen for n in range(2, min(MOST_LINES, len(cuts) + 1) + 1) for chosen in combinations(cuts, n - 1)]
        more = _near_even_breaks(words, cuts, range(MOST_LINES + 1, most + 1))
        return [_joined(words, chosen) for chosen in every + more]
    if len(words) == 1 and len(text) >= 2 and any(_breaks_anywhere(c) for c in text):
        return _unspaced_breaks(text)
    return []


def _joined(words: list[str], chosen: tuple[tuple[int, int], ...]) -> tuple[str, ...]:
    """``words`` as lines, broken at the ``chosen`` cuts (:func:`_cuts`)."""
    starts, ends = [0, *(c[1] for c in chosen)], [*(c[0] for c in chosen), len(words)]
    return tuple(" ".join(words[a:b]) for a, b in zip(starts, ends, strict=True))


def _near_even_breaks(
    words: list[str], cuts: list[tuple[int, int]], counts: range
) -> list[tuple[tuple[int, int], ...]]:
    """Ways to break ``words`` into each of ``counts`` lines (as many as the cuts allow):
    every choice among the two cuts nearest each place (by letters) where lines of even
    length would end."""
    ends = [sum(len(w) + 1 for w in words[:end]) for end, _ in cuts]  # letters before each cut
    total = sum(len(w) + 1 for w in words)
    found: list[tuple[tuple[int, int], ...]] = []
    for n in (n for n in counts if n <= len(cuts) + 1):
        near = [_nearest_two(ends, total * k_line / n) for k_line in range(1, n)]
        for picks in product(*near):
            if all(a < b for a, b in pairwise(picks)):
                found.append(tuple(cuts[k] for k in picks))
    return list(dict.fromkeys(found))


def _nearest_two(ends: list[int], at: float) -> list[int]:
    """The indices of the two values of ``ends`` nearest ``at``."""
    return sorted(range(len(ends)), key=lambda k: abs(ends[k] - at))[:2]


def _unspaced_breaks(text: str) -> list[tuple[str, ...]]:
    """:func:`_breaks` of a Chinese or Japanese title without spaces: lines of near equal
    length (:func:`_even`), and lines broken at its separators ("・"; of more than
    :data:`MOST_SEPARATORS`, the two nearest each place an even break would be), each dropped
    where it breaks; none with a separator beside a break (the title's own first and last
    mark may stay)."""
    evens = [_even(text, n) for n in range(2, min(MOST_LINES, len(text)) + 1)]
    at = [k for k, char in enumerate(text) if char in SEPARATORS and 0 < k < len(text) - 1]
    if len(at) > MOST_SEPARATORS:  # the separators nearest where even lines would break
        ideal = [len(text) * k / n for n in range(2, MOST_LINES + 1) for k in range(1, n)]
        at = sorted({k for cut in ideal for k in sorted(at, key=lambda k: abs(k - cut))[:2]})
    split = [
        tuple(text[a:b] for a, b in zip([0, *(k + 1 for k in chosen)], [*chosen, len(text)], strict=True))
        for n in range(1, min(MOST_LINES - 1, len(at)) + 1)
        for chosen in combinations(at, n)
    ]
    return [lines for lines in evens + split if all(lines) and not _separator_at_a_break(lines)]


def _separator_at_a_break(lines: tuple[str, ...]) -> bool:
    """Whether a line ends, or the next one starts, with a separator where they break."""
    return any(a[-1] in SEPARATORS or b[0] in SEPARATORS for a, b in pairwise(lines))


MOST_SEPARATORS = 6
"""A title without spaces is tried broken at every one or two of up to this many separators
(15 and 21 ways); of more, at those nearest an even break (see :func:`_unspaced_breaks`)."""


def _cuts(words: list[str]) -> list[tuple[int, int]]:
    """Where ``words`` may break into lines: ``(end, start)`` = a line ends before word
    ``end`` and the next starts at word ``start`` (``start = end + 1`` drops a separator
    between them). None leaves a line empty or puts a separator at a line's end or start."""
    alone = [word in SEPARATORS for word in words]
    cuts = []
    for end in range(1, len(words)):
        start = end + 1 if alone[end] else end
        if alone[end - 1] or start >= len(words) or alone[start] or not any(not a for a in alone[:end]):
            continue
        cuts.append((end, start))
    return cuts


def _breaks_anywhere(char: str) -> bool:
    """Chinese characters, kana and their punctuation: a line may break before any of them."""
    name = unicodedata.name(char, "")
    return name.startswith(("CJK", "HIRAGANA", "KATAKANA", "IDEOGRAPHIC", "FULLWIDTH"))


NO_LINE_START = set("ー、。，．・：；？！）」』】〕ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ々")
"""Characters a Japanese or Chinese line does not start with (kinsoku): small kana, the
long-vowel mark, closing brackets and punctuation go with the character before them."""


def _may_break(text: str, k: int) -> bool:
    """Whether a line of ``text`` may end before character ``k``: beside a Chinese or
    Japanese character (:func:`_breaks_anywhere`), never inside a run of other letters (a
    Latin word), nor before a character of :data:`NO_LINE_START`."""
    if text[k] in NO_LINE_START:
        return False
    return _breaks_anywhere(text[k - 1]) or _breaks_anywhere(text[k])


def _even(text: str, count: int) -> tuple[str, ...]:
    """``text`` cut into ``count`` lines of near equal length, the longer ones first, each
    cut moved on to where a line may break (:func:`_may_break`)."""
    size, extra = divmod(len(text), count)
    ends = [0]
    for k in range(count):
        want = min(ends[-1] + size + (1 if k < extra else 0), len(text))
        ahead = next((c for c in range(want, len(text)) if _may_break(text, c)), len(text))
        behind = next((c for c in range(min(want, len(text) - 1), ends[-1], -1) if _may_break(text, c)), None)
        cut = ahead if ahead < len(text) or behind is None else behind  # a Latin word at the end: before it
        ends.append(max(cut, ends[-1]))
    ends[-1] = len(text)
    return tuple(line for line in (text[a:b] for a, b in pairwise(ends)) if line)


def _broken(lines: tuple[str, ...], radius_pt: float) -> TitleLayout:
    """The largest size at which every line fits the ring's chord at its height."""
    widths = [string_width(line, SANS_BOLD, 1.0) for line in lines]
    low, high = 0.0, LARGEST_EM_OF_RADIUS * radius_pt
    for _ in range(30):  # bisection: the chord narrows as the lines grow apart
        size = (low + high) / 2
        low, high = (size, high) if _fits(widths, size, radius_pt) else (low, size)
    return TitleLayout(lines, low, _baselines(len(lines), low))


def _baselines(count: int, size: float) -> tuple[float, ...]:
    """The lines' baselines, centred on the card as one line's is (0.35 em below the centre)."""
    return tuple((count - 1 - 2 * k) * LEADING * size / 2 - 0.35 * size for k in range(count))


def _fits(widths: list[float], size: float, radius_pt: float) -> bool:
    room = RING_ROOM * radius_pt
    for width, base in zip(widths, _baselines(len(widths), size), strict=True):
        far = max(abs(base + 0.95 * size), abs(base - 0.25 * size))  # the line's cap height and descent
        if far >= room or width * size / 2 > math.sqrt(room * room - far * far):
            return False
    return True
