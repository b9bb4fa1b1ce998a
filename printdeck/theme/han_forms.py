"""Which letter forms a word list's Han characters are written in: Simplified or Traditional
Chinese, Japanese or Korean.

One code point can print in different shapes by language (门 and 骨 differ between Chinese
and Japanese fonts), and fontconfig picks a Han font by the machine's locale when a theme
gives no ``text.lang``. ``printdeck init`` therefore writes the language it can tell from
the words (:func:`han_lang`). Hangul says Korean and kana Japanese. Otherwise the national
character sets Python's codecs carry decide: a character of GB 2312 (Simplified Chinese's)
that neither Big5 (Traditional Chinese's) nor JIS X 0208 (Japanese's) has says Simplified
(门, 们, 话), one of Big5 that neither GB 2312 nor JIS X 0208 has says Traditional (說). A
Japanese form that Simplified Chinese shares (学, 国) says nothing, nor does a character every
set has (山, 木), nor a list with both kinds: there the theme's author chooses.
"""

from __future__ import annotations

from collections.abc import Iterable

HAN_RANGES = ((0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF), (0x20000, 0x3134F))
"""CJK Unified Ideographs (with Extensions A to G) and the Compatibility Ideographs."""
KANA_RANGE = (0x3040, 0x30FF)
"""Hiragana and Katakana."""
HANGUL_RANGE = (0xAC00, 0xD7AF)
"""Hangul syllables."""


def han_lang(words: Iterable[str]) -> str | None:
    """The language whose letter forms the words' Han characters are written in:
    ``"ko"`` where any word has Hangul, ``"ja"`` where any has kana, else ``"zh-Hans"`` or
    ``"zh-Hant"`` where the characters tell it (see the module); ``None`` for words without
    Han characters, or ones that do not tell. A list mixing Japanese and Korean words gives
    each of those its own (:func:`word_langs`): the other words alone decide.

    Examples:
        >>> han_lang(["门", "骨", "山"]), han_lang(["說", "門"]), han_lang(["山", "やま"]), han_lang(["學校", "학교"])
        ('zh-Hans', 'zh-Hant', 'ja', 'ko')
        >>> han_lang(["日", "学", "国", "会", "門"]) is None and han_lang(["cat"]) is None
        True
    """
    words = list(words)
    mixed = word_langs(words)
    if mixed:  # Japanese and Korean words, each with its own lang: the rest decide
        words = [w for w in words if w not in mixed]
    chars = {c for word in words for c in word}
    han = {c for c in chars if is_han(c)}
    if not han:
        return None
    if any(HANGUL_RANGE[0] <= ord(c) <= HANGUL_RANGE[1] for c in chars):
        return "ko"
    if any(KANA_RANGE[0] <= ord(c) <= KANA_RANGE[1] for c in chars):
        return "ja"
    japanese = {c for c in han if _in(c, "euc_jp")}
    simplified = any(_in(c, "gb2312") and not _in(c, "big5") for c in han - japanese)
    traditional = any(_in(c, "big5") and not _in(c, "gb2312") for c in han - japanese)
    if simplified != traditional:
        return "zh-Hans" if simplified else "zh-Hant"
    return None


def script_lang(word: str) -> str | None:
    """The language a word's own script says: ``"ko"`` for Hangul, ``"ja"`` for kana, else
    None (Han characters alone, or no CJK script)."""
    if any(HANGUL_RANGE[0] <= ord(c) <= HANGUL_RANGE[1] for c in word):
        return "ko"
    if any(KANA_RANGE[0] <= ord(c) <= KANA_RANGE[1] for c in word):
        return "ja"
    return None


def word_langs(words: Iterable[str]) -> dict[str, str]:
    """Each word's own language (:func:`script_lang`) where a list mixes Japanese and Korean
    words, so each prints its Han characters in its own letter forms; empty for any other
    list (one language for all: :func:`han_lang`).

    Examples:
        >>> word_langs(["猫ちゃん", "고양이", "犬"])
        {'猫ちゃん': 'ja', '고양이': 'ko'}
        >>> word_langs(["猫ちゃん", "犬"])
        {}
    """
    langs = {w: lang for w in words if (lang := script_lang(w)) is not None}
    return langs if len(set(langs.values())) > 1 else {}


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
