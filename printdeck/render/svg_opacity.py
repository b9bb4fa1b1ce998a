"""An SVG's ``opacity`` as the PDF's vector path can draw it.

svglib reads ``fill-opacity`` and ``stroke-opacity`` but no ``opacity``, ``stop-opacity`` or
``mix-blend-mode``: a Twemoji target's 20 % shadow printed solid black, a designer's group at
half opacity printed opaque, in every PDF (and PDF/X-1a, which must refuse see-through
artwork, never saw it). Two ways out, both exact:

- an ``opacity`` on a shape that only fills, or only strokes (no child elements) is the
  same as its ``fill-opacity`` (or ``stroke-opacity``) times it, which svglib draws
  (:func:`folded_opacity`: the text handed to svglib, never to resvg);
- every other kind (a group's opacity, a shape that fills and strokes, a gradient stop's,
  a blend mode, opacity set by a stylesheet) cannot be said that way, so the SVG prints as
  resvg's image (:func:`opacity_feature`, one of the undrawn features of
  :mod:`~printdeck.render.svg_features`).
"""

from __future__ import annotations

import re
from xml.etree.ElementTree import Element, register_namespace, tostring

from defusedxml import ElementTree

SVG_NS = "http://www.w3.org/2000/svg"
_CSS_OPACITY = re.compile(r"(?<![\w-])(opacity|stop-opacity|mix-blend-mode)\s*:\s*([^;}\s]+)")
_NONE = ("", "none", "transparent")


def opacity_feature(root: Element) -> str | None:
    """The first opacity svglib cannot draw in the SVG ``root`` (see the module):
    ``"opacity"``, ``"stop-opacity"`` or ``"mix-blend-mode"``, or None. Where a stylesheet
    may paint a shape (a ``<style>``), no opacity is folded: which paint a shape has is
    not known here."""
    styled = any(_tag(el) == "style" for el in root.iter())
    for el in root.iter():
        tag = _tag(el)
        if tag == "style":
            found = [(key, value) for key, value in _CSS_OPACITY.findall(el.text or "") if _see_through(key, value)]
            if found:
                return found[0][0]
            continue
        paint = _paint(el)
        for key in ("stop-opacity", "mix-blend-mode"):
            if _see_through(key, paint.get(key, "")):
                return key
        if _see_through("opacity", paint.get("opacity", "")) and (styled or not _foldable(el, paint)):
            return "opacity"
    return None


def folded_opacity(text: str) -> str:
    """``text`` (an SVG) with each foldable ``opacity`` (see the module) folded into the
    shape's ``fill-opacity`` or ``stroke-opacity``; ``text`` itself where there is none.

    Examples:
        >>> folded_opacity('<svg xmlns="http://www.w3.org/2000/svg"><path d="M0 0h9v9z" opacity=".5"/></svg>')
        '<svg xmlns="http://www.w3.org/2000/svg"><path d="M0 0h9v9z" fill-opacity="0.5" /></svg>'
    """
    if "opacity" not in text:
        return text
    root = ElementTree.fromstring(text, forbid_dtd=True)
    if any(_tag(el) == "style" for el in root.iter()):  # printed as an image instead (opacity_feature)
        return text
    folded = False
    for el in root.iter():
        paint = _paint(el)
        if _see_through("opacity", paint.get("opacity", "")) and _foldable(el, paint):
            _fold(el, paint)
            folded = True
    if not folded:
        return text
    register_namespace("", SVG_NS)
    register_namespace("xlink", "http://www.w3.org/1999/xlink")
    return tostring(root, encoding="unicode")


def _fold(el: Element, paint: dict[str, str]) -> None:
    """Move ``el``'s opacity into the opacity of the one paint it has."""
    opacity = _number(paint["opacity"])
    key = "stroke-opacity" if paint.get("fill", "").lower() in _NONE and "fill" in paint else "fill-opacity"
    own = _number(paint.get(key, "1"))
    el.attrib.pop("opacity", None)
    style = [d for d in el.attrib.get("style", "").split(";") if d.partition(":")[0].strip() not in ("opacity", key)]
    if el.attrib.get("style") is not None:
        el.attrib["style"] = ";".join(d for d in style if d.strip())
    el.attrib.pop(key, None)
    el.attrib[key] = f"{own * opacity:g}"


def _foldable(el: Element, paint: dict[str, str]) -> bool:
    """Whether ``el``'s opacity is its one paint's: no child elements, and it fills or
    strokes but not both (where a stroke overlaps a fill, the two faded apart differ)."""
    if len(el) or _tag(el) in ("svg", "g", "use", "symbol", "text"):
        return False
    fills = paint.get("fill", "black").lower() not in _NONE  # SVG's initial fill is black
    strokes = paint.get("stroke", "none").lower() not in _NONE
    return not (fills and strokes)


def _paint(el: Element) -> dict[str, str]:
    """``el``'s presentation attributes and inline style (the style wins), by name."""
    found = {key: value.strip() for key, value in el.attrib.items()}
    for declaration in el.attrib.get("style", "").split(";"):
        key, _, value = declaration.partition(":")
        if key.strip():
            found[key.strip()] = value.strip()
    return found


def _see_through(key: str, value: str) -> bool:
    """Whether ``value`` of the property ``key`` makes paint see-through."""
    if key == "mix-blend-mode":
        return value.strip().lower() not in ("", "normal")
    return value.strip() != "" and _number(value) < 1.0


def _number(value: str) -> float:
    """An opacity's number (``.5``, ``50%``); 1 where it is not one."""
    text = value.strip()
    try:
        return float(text[:-1]) / 100.0 if text.endswith("%") else float(text)
    except ValueError:
        return 1.0


def _tag(el: Element) -> str:
    return str(el.tag).rsplit("}", 1)[-1]
