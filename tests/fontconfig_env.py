"""A fontconfig that sees only the fonts a test names, so a font test means the same on a
machine with every Noto font and on one with none (``FONTCONFIG_FILE``)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path


def private_fontconfig(folder: Path, *fonts: Path) -> dict[str, str]:
    """An environment whose fontconfig (``fc-match``, ``fc-list``) sees only ``fonts``
    (copied into ``folder/fonts``; none: it sees no font at all) and caches in ``folder``.

    Returns:
        ``os.environ`` with ``FONTCONFIG_FILE`` pointing to the private ``fonts.conf``.
    """
    font_dir = folder / "fonts"
    font_dir.mkdir(parents=True, exist_ok=True)
    for font in fonts:
        shutil.copy(font, font_dir / font.name)
    conf = folder / "fonts.conf"
    conf.write_text(
        '<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n'
        f"  <dir>{font_dir}</dir>\n  <cachedir>{folder / 'fc-cache'}</cachedir>\n</fontconfig>\n",
        encoding="utf-8",
    )
    return {**os.environ, "FONTCONFIG_FILE": str(conf)}


def skip_without_font_for(*words: str) -> None:
    """Skip the calling test where no font here (bundled or the machine's) has every
    letter of ``words``: a machine with no CJK font cannot set Chinese words, and says so."""
    import pytest

    from printdeck.artwork.fonts import fallback_chain, missing_chars

    text = "".join(words)
    missing = missing_chars(text, fallback_chain([], text))
    if missing:
        pytest.skip(f"no font here has {''.join(missing[:5])!r} (install a CJK font: fonts-noto-cjk)")
