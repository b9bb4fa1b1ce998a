"""What an SVG uses that the PDF's vector path (svglib) cannot draw, so that the SVG prints
as an image drawn by resvg instead, and the one line that says so.

Read by the proof (:mod:`printdeck.render.proof`, which warns) and the PDF's forms
(:mod:`printdeck.render.forms`, which draws the image) alike, without svglib.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

from printdeck.artwork import svg_root, svg_text
from printdeck.render.svg_opacity import opacity_feature

SVG_UNDRAWN = ("mask", "filter", "pattern", "marker", "foreignObject", "image")
"""SVG features svglib leaves out of the PDF (elements, or ``mask``/``filter``/``marker*`` references;
and the opacities it draws opaque: :func:`~printdeck.render.svg_opacity.opacity_feature`), or
draws in a way the PDF cannot take: an embedded picture (``<image>``, from Inkscape or Canva)
becomes an inline image whose binary data ReportLab's form cannot hold (the build stopped
with a traceback)."""
_FEATURE_WORDS = {"image": "an embedded picture (<image>)"}
"""How :func:`undrawn_line` says a feature whose tag alone does not say it."""


def svg_undrawn_feature(path: Path) -> str | None:
    """The first feature of :data:`SVG_UNDRAWN` the SVG at ``path`` uses, or None.

    svglib skips these without a word (a crescent cut by a ``<mask>`` would print
    as a full disc over its neighbours), so such an SVG is printed as an image
    drawn by resvg, the renderer the layout traced it with. Read from
    :func:`printdeck.artwork.svg_root`, the text both svglib and resvg are given, and
    parsed once a text (the proof, the PDF's forms and the legend each ask).
    """
    return _feature_in(path, svg_text(path))


@lru_cache(maxsize=512)
def _feature_in(path: Path, text: str) -> str | None:
    """:func:`svg_undrawn_feature` of ``path``, remembered by its ``text`` (an edited file is read afresh)."""
    refs = ("mask", "filter", "marker", "marker-start", "marker-mid", "marker-end")
    root = svg_root(path)
    for el in root.iter():
        tag = str(el.tag).rsplit("}", 1)[-1]
        if tag in SVG_UNDRAWN and (tag != "image" or _drawn_image(root, el)):
            return tag
        style = {k.strip(): v for k, _, v in (d.partition(":") for d in el.attrib.get("style", "").split(";"))}
        for key in refs:
            if "url(" in el.attrib.get(key, "") + style.get(key, ""):
                return key.split("-")[0]
    return opacity_feature(root)  # a group's opacity, a blend mode...: svglib draws them opaque


def undrawn_line(source: str, feature: str) -> str:
    """The one line said of an SVG printed as an image for the ``feature`` it uses."""
    return (
        f"{source}: the SVG uses {_FEATURE_WORDS.get(feature, feature)}, which the PDF's vector path cannot "
        "draw; printed as a high-resolution image instead"
    )


_DEFINITIONS = frozenset({"defs", "symbol"})
"""Elements whose children are drawn only where a ``<use>`` names them."""


def _drawn_image(root: Any, image: Any) -> bool:
    """Whether the ``<image>`` element ``image`` of the SVG ``root`` is drawn: it is outside
    every ``<defs>`` and ``<symbol>``, or a ``<use>`` names it or an element holding it (an
    unused picture kept in ``<defs>`` does not make the SVG print as an image)."""
    parents = {child: parent for parent in root.iter() for child in parent}
    chain, node = [], image
    while node is not None:
        chain.append(node)
        node = parents.get(node)
    if not any(str(n.tag).rsplit("}", 1)[-1] in _DEFINITIONS for n in chain[1:]):
        return True
    ids = {n.attrib.get("id") for n in chain} - {None}
    used = {
        str(v).removeprefix("#")
        for el in root.iter()
        if str(el.tag).rsplit("}", 1)[-1] == "use"
        for k, v in el.attrib.items()
        if str(k).rsplit("}", 1)[-1] == "href"
    }
    return bool(ids & used)
