"""Which letter forms a word list's Han characters are written in: Simplified or Traditional
Chinese, or Japanese.

One code point can print in different shapes by language (门 and 骨 differ between Chinese
and Japanese fonts), and fontconfig picks a Han font by the machine's locale when a theme
gives no ``text.lang``. ``printdeck init`` therefore writes the language it can tell from
the words (:func:`han_lang`). The test uses the national character sets Python's codecs
carry: Simplified Chinese is written in GB 2312's characters, Traditional Chinese in Big5's;
a character only one of them has says which (门 is GB 2312's, 門 Big5's). Kana say
Japanese. Characters both sets have (山, 木) say nothing, and neither does a list that mixes
both kinds: there the theme's author chooses.
"""

from __future__ import annotations

from collections.abc import Iterable

HAN_RANGES = ((0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF), (0x20000, 0x3134F))
"""CJK Unified Ideographs (with Extensions A to G) and the Compatibility Ideographs."""
KANA_RANGE = (0x3040, 0x30FF)
"""Hiragana and Katakana."""


def han_lang(words: Iterable[str]) -> str | None:
    """The language whose letter forms the words' Han characters are written in:
    ``"ja"`` where any word has kana, else ``"zh-Hans"`` where some character is only in
    GB 2312 and none only in Big5, ``"zh-Hant"`` the other way round; ``None`` for words
    without Han characters, or ones that do not tell (see the module).

    Examples:
        >>> han_lang(["门", "骨", "山"]), han_lang(["門", "山"]), han_lang(["山", "やま"])
        ('zh-Hans', 'zh-Hant', 'ja')
        >>> han_lang(["山", "木"]) is None and han_lang(["cat"]) is None
        True
    """
    chars = {c for word in words for c in word}
    han = {c for c in chars if is_han(c)}
    if not han:
        return None
    if any(KANA_RANGE[0] <= ord(c) <= KANA_RANGE[1] for c in chars):
        return "ja"
    simplified = any(_in(c, "gb2312") and not _in(c, "big5") for c in han)
    traditional = any(_in(c, "big5") and not _in(c, "gb2312") for c in han)
    if simplified != traditional:
        return "zh-Hans" if simplified else "zh-Hant"
    return None


def is_han(char: str) -> bool:
    """Whether ``char`` is a Han character (:data:`HAN_RANGES`)."""
    return any(lo <= ord(char) <= hi for lo, hi in HAN_RANGES)


def _in(char: str, codec: str) -> bool:
    """Whether the character set of ``codec`` has ``char``."""
    try:
        char.encode(codec)
    except UnicodeEncodeError:
        return False
    return True
