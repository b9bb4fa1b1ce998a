"""Distinct subset tags for a press file's embedded font subsets.

An embedded subset's name starts with a tag of six capital letters and a ``+``
(``AAAAAA+BitstreamVeraSans-Bold``), and ISO 32000-1 (9.6.4) asks that different subsets
in one file have different tags. ReportLab numbers each font's subsets from ``AAAAAA``, so
every font's first subset carried the same tag, which a print shop's preflight may flag.
:func:`distinct_subset_tags` gives each subset a tag of its own, made from its name and its
place among the file's subsets of that name (the same file, the same tags: builds stay
byte-identical).
"""

from __future__ import annotations

import hashlib
import re

import pikepdf

__all__ = ["distinct_subset_tags"]

_TAGGED = re.compile(r"^[A-Z]{6}\+(.+)$")
_DESCENDANTS = (pikepdf.Name.CIDFontType0, pikepdf.Name.CIDFontType2)  # renamed with their Type0 font


def distinct_subset_tags(pdf: pikepdf.Pdf) -> int:
    """Give each embedded font subset of ``pdf`` a tag no other subset has: the font's
    ``/BaseFont``, a Type0 font's descendants' and each ``/FontDescriptor``'s ``/FontName``
    alike. Fonts are taken in object order.

    Returns:
        How many subsets were renamed.
    """
    used: set[str] = set()
    seen: dict[str, int] = {}  # a subset's name without its tag -> subsets of it so far
    renamed = 0
    for font in (obj for obj in pdf.objects if _is_font(obj) and obj.get("/Subtype") not in _DESCENDANTS):
        found = _TAGGED.match(str(font.get("/BaseFont", ""))[1:])
        if found is None:
            continue
        name = found.group(1)
        seen[name] = seen.get(name, 0) + 1
        tag = _tag(f"{name}:{seen[name]}", used)
        used.add(tag)
        for part in [font, *font.get("/DescendantFonts", pikepdf.Array())]:
            part.BaseFont = pikepdf.Name(f"/{tag}+{name}")
            descriptor = part.get("/FontDescriptor")
            if isinstance(descriptor, pikepdf.Dictionary):
                descriptor.FontName = pikepdf.Name(f"/{tag}+{name}")
        renamed += 1
    return renamed


def _is_font(obj: object) -> bool:
    return isinstance(obj, pikepdf.Dictionary) and obj.get("/Type") == pikepdf.Name.Font


def _tag(seed: str, used: set[str]) -> str:
    """Six capital letters from ``seed``'s SHA-256, another draw while ``used`` holds them."""
    for attempt in range(1000):
        digest = hashlib.sha256(f"{seed}#{attempt}".encode()).digest()
        tag = "".join(chr(ord("A") + byte % 26) for byte in digest[:6])
        if tag not in used:
            return tag
    raise RuntimeError("no free subset tag")  # pragma: no cover - 26**6 tags
