"""Emoji in words: finding them, naming them, and the bundled picture of one.

A word made of an emoji no font on the computer has (a family 👨‍👩‍👧, a new one) cannot be
set; the message then names the emoji as a person reads it (``👨‍👩‍👧 (family man woman
girl)``), not as code points, and points to printdeck's own picture of it when one is
bundled (``assets/twemoji``, listed with each file's code points in ``symbols.tsv``).

* :func:`emoji_in` -- the emoji sequences of a text, in order.
* :func:`emoji_name` -- an emoji's English short name (from the ``emoji`` package);
  :func:`described`, the emoji with it, as messages name it.
* :func:`bundled_code_points` -- each bundled picture's emoji, by file name.
* :func:`bundled_picture` -- the theme reference of the bundled picture of an emoji.
"""

from __future__ import annotations

import functools
from pathlib import Path

from printdeck.resources import data_root

__all__ = [
    "TWEMOJI_FOLDER",
    "bundled_code_points",
    "bundled_picture",
    "described",
    "emoji_in",
    "emoji_name",
    "twemoji_folder",
]

TWEMOJI_FOLDER = "twemoji"
"""The bundled pictures' folder under ``assets/`` (``@assets/twemoji/...`` in a theme)."""
_VARIATION = "\ufe0f"  # "shown as an emoji": present or not, the same emoji


def emoji_in(text: str) -> list[str]:
    """The emoji of ``text``, each a whole sequence (``👨‍👩‍👧`` is one: three people joined
    by zero-width joiners), in the order they appear; ``[]`` without the ``emoji`` package."""
    try:
        import emoji  # noqa: PLC0415 - only when a word has a character no font has
    except ImportError:  # pragma: no cover - a dependency
        return []
    return [str(found["emoji"]) for found in emoji.emoji_list(text)]


def emoji_name(sequence: str) -> str | None:
    """The English short name of an emoji sequence (``family man woman girl`` for ``👨‍👩‍👧``),
    or None when the ``emoji`` package does not know it."""
    try:
        import emoji  # noqa: PLC0415
    except ImportError:  # pragma: no cover - a dependency
        return None
    data = emoji.EMOJI_DATA.get(sequence) or emoji.EMOJI_DATA.get(sequence.replace(_VARIATION, "")) or {}
    said = str(data.get("en", "")).strip(":").replace("_", " ")
    return said or None


def described(sequence: str) -> str:
    """An emoji as a message names it: ``🐢 (turtle)``, or the emoji alone when unnamed."""
    name = emoji_name(sequence)
    return f"{sequence} ({name})" if name else sequence


def twemoji_folder() -> Path:
    """The folder of the bundled pictures."""
    return data_root("assets") / TWEMOJI_FOLDER


@functools.lru_cache(maxsize=1)
def bundled_code_points() -> dict[str, str]:
    """Each bundled picture's emoji (its code points as characters), by file name
    (``cat.svg``), read from the folder's ``symbols.tsv``; a row it cannot read is skipped."""
    table = twemoji_folder() / "symbols.tsv"
    out = {}
    for line in table.read_text(encoding="utf-8").splitlines()[1:]:
        name, _, points = line.partition("\t")
        try:
            out[name] = "".join(chr(int(p.strip().removeprefix("U+"), 16)) for p in points.split() if p.strip())
        except ValueError:
            continue
    return out


def bundled_picture(sequence: str) -> str | None:
    """``@assets/twemoji/<file>.svg``, the bundled picture of the emoji ``sequence``
    (variation selectors aside), or None when printdeck has none."""
    wanted = sequence.replace(_VARIATION, "")
    for name, chars in bundled_code_points().items():
        if chars.replace(_VARIATION, "") == wanted:
            return f"@assets/{TWEMOJI_FOLDER}/{name}"
    return None
