"""The theme keys the page's deck settings may change, and changing them in the mapping."""

from __future__ import annotations

import copy
import functools
import json
from typing import Any

import printdeck
import printdeck.api
from printdeck.choices import PHOTO_CORNER_FRACTION
from printdeck.studio.labels import label_of

_FORM_KEYS = {
    "name",
    "title",
    "author",
    "seed",
    "deck.symbols_per_card",
    "deck.order",
    "deck.match",
    "deck.cards",
    "deck.search",
    "deck.choose",
    "deck.faces",
    "deck.drop_unused",
    "card.shape",
    "card.size",
    "card.diameter",
    "card.corner_radius",
    "card.orientation",
    "card.bleed",
    "card.safe_margin",
    "card.background",
    "card.border_color",
    "layout.gap",
    "layout.size_ratio",
    "layout.sizes",
    "layout.rotation",
    "layout.attempts",
    "layout.rotate_photos",
    "layout.nest",
    "paper.size",
    "paper.margin",
    "paper.gap",
    "paper.layout",
    "paper.cut_marks",
    "paper.cuts",
    "paper.cut_guide",
    "paper.punch_ring",
    "paper.centre_mark",
    "paper.cut_files",
    "paper.registration_marks",
    "paper.scale_note",
    "paper.max_ppi",
    "backs.enabled",
    "backs.image",
    "backs.fit",
    "backs.size",
    "backs.color",
    "backs.pattern",
    "backs.duplex",
    "backs.offset_x",
    "backs.offset_y",
    "extras.legend",
    "extras.rules",
    "extras.attribution",
    "text.font",
    "text.colors",
    "text.lang",
}
SETTING_KEYS = frozenset(_FORM_KEYS | {o.theme_key for o in printdeck.api.option_table("build") if o.theme_key})
"""Every key the settings form sends (``layout.reroll`` changes through the re-roll button):
the page's own list, and every theme key a build option overrides (an option added to
``BuildSettings`` reaches the form without an edit here)."""
SETTING_SECTIONS = frozenset(key.split(".")[0] for key in SETTING_KEYS if "." in key)
"""The theme's sections the settings are in (``card``, ``paper``...): a problem keyed in one
is about the settings, not the symbols."""
MAX_LIST = 64
MAX_TEXT = 500


def checked_value(key: str, value: object) -> object:
    """``value`` if it is plain JSON the theme may hold for a setting (number, text,
    true/false, a short list of those, or ``None`` for the default).

    Raises:
        ValueError: an unknown key, or a mapping, a long text or a long or nested list.
    """
    if key not in SETTING_KEYS:
        raise ValueError(f"{key}: not a setting the studio changes")
    if value is None or isinstance(value, (bool, int, float)):
        return value
    if isinstance(value, str) and len(value) <= MAX_TEXT:
        return value
    if (
        isinstance(value, list)
        and len(value) <= MAX_LIST
        and all(isinstance(v, (bool, int, float, str)) and len(str(v)) <= 100 for v in value)
    ):
        return value
    raise ValueError(f"{key}: expected a number, text, true or false, or a short list of them")


CLEARED_BY = {
    "card.size": ("card.diameter",),  # a round card's size is its diameter: the theme takes one of them
    "card.diameter": ("card.size",),
}
"""The keys a setting given a value takes the place of: the theme refuses them together
(``printdeck.cardshape``: "give only one of card.size and card.diameter"), and the page's
last edit wins."""


SHAPE_KEYS: dict[str, tuple[str, ...]] = {
    f"card.{key}": tuple(shape.value for shape, keys in printdeck.SHAPE_ONLY_KEYS.items() if key in keys)
    for key in sorted(set().union(*printdeck.SHAPE_ONLY_KEYS.values()))
}
"""Card keys only some shapes have (the theme refuses them on the others), by the shapes
that have them: ``printdeck.SHAPE_ONLY_KEYS`` by key (the library's table, stated once)."""


def with_change(doc: dict[str, Any], key: str, value: object) -> dict[str, Any]:
    """:func:`with_setting`, and the keys it takes the place of removed: those of
    :data:`CLEARED_BY`; on a change of ``card.shape``, the keys the new shape does not have
    (:data:`SHAPE_KEYS`: a diameter on a square...), a size that is another shape's (a width
    and height, a named size such as poker), and a diameter the new shape does not have,
    carried over as its ``card.size`` (a 70 mm round card becomes a 70 mm square, not the
    default)."""
    out = with_setting(doc, key, value)
    if value is None:
        return out
    cleared = list(CLEARED_BY.get(key, ()))
    if key == "card.shape":
        cleared += [other for other, shapes in SHAPE_KEYS.items() if value not in shapes]
        card = out.get("card") or {}
        size, diameter = card.get("size"), card.get("diameter")
        if (isinstance(size, list) and value != "rectangle") or (isinstance(size, str) and not size[:1].isdigit()):
            out = with_setting(out, "card.size", None)  # a width and height, or a named size: another shape's
            size = None
        if "card.diameter" in cleared and diameter is not None and size is None:
            out = with_setting(out, "card.size", diameter)
    for other in cleared:
        out = with_setting(out, other, None)
    return out


def with_setting(doc: dict[str, Any], key: str, value: object) -> dict[str, Any]:
    """A copy of the theme mapping with ``key`` (dotted: ``card.diameter``) set to
    ``value``; ``None`` removes the key (its default), and an emptied section goes too."""
    out = copy.deepcopy(doc)
    parts = key.split(".")
    section = out
    for part in parts[:-1]:
        child = section.get(part)
        if not isinstance(child, dict):
            if value is None:
                return out
            child = section[part] = {}
        section = child
    if value is None:
        section.pop(parts[-1], None)
        if len(parts) > 1 and not section:
            out.pop(parts[0], None)
    else:
        section[parts[-1]] = value
    return out


def setting_values(doc: dict[str, Any]) -> dict[str, Any]:
    """The values the theme file gives, by dotted key (keys it leaves out are absent)."""
    values: dict[str, Any] = {}
    for key in SETTING_KEYS:
        node: Any = doc
        for part in key.split("."):
            node = node.get(part) if isinstance(node, dict) else None
        if node is not None:
            values[key] = node
    reroll = doc.get("layout", {}).get("reroll") if isinstance(doc.get("layout"), dict) else None
    if isinstance(reroll, dict):
        values["layout.reroll"] = reroll
    return values


def _resolve(node: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    """A schema node with its ``$ref`` followed and a ``null`` branch of ``anyOf`` left out."""
    if "$ref" in node:
        node = {**defs[node["$ref"].rsplit("/", 1)[-1]], **{k: v for k, v in node.items() if k != "$ref"}}
    branches = [b for b in node.get("anyOf", []) if b.get("type") != "null"]
    if len(branches) == 1:
        inner = _resolve(branches[0], defs)
        node = {**inner, **{k: v for k, v in node.items() if k != "anyOf"}, "optional": True}
    return node


def _field_of(node: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    """What the form needs of one key: bounds (lengths in mm), choices, default, unit, help.

    A union's branches become choices: the words of its enums, and ``true``/``false`` for a
    yes/no branch beside them (``paper.cut_guide``: ``auto``, ``true``, ``false``), so the
    page draws a select, not a checkbox, without a case of its own."""
    node = _resolve(node, defs)
    words: list[Any] = list(node.get("enum", [])) + ([node["const"]] if "const" in node else [])
    for branch in node.get("oneOf", []) + node.get("anyOf", []):
        inner = _resolve(branch, defs)  # a paper's names, rotation's words, cut_guide's "auto"
        words += inner.get("enum", []) + ([inner["const"]] if "const" in inner else [])
        if inner.get("type") == "boolean":  # a word or yes/no (cut_guide: auto | true | false): a select
            words += [True, False]
    numbers = {k: v for k, v in node.items() if k in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum")}
    for branch in node.get("oneOf", []) + node.get("anyOf", []):
        numbers |= {k: v for k, v in branch.items() if k in ("minimum", "maximum")}
    lengths = {k.removeprefix("x-").removesuffix("-mm"): v for k, v in node.items() if k.endswith("-mm")}
    field = {
        "type": node.get("type"),
        "choices": words,
        "default": node.get("default"),
        "worked_out": bool(node.get("x-worked-out")),
        "unit": node.get("x-unit"),
        "help": _help_of(node),
        "optional": bool(node.get("optional")),
        **numbers,
        **lengths,
    }
    return {k: v for k, v in field.items() if v not in (None, [])}


def _help_of(node: dict[str, Any]) -> str:
    """A key's words as the form shows them: the spec's own for a form (``x-form-help``,
    where the description says how a theme file writes the key: "sheet: ...; single: ...",
    beside a select whose choices say it), else its description, a colour key's without how
    a theme writes a colour (the schema's ``x-format``: the page's colour picker writes it),
    so ``backs.color`` says only that a class set's decks take colours of their own."""
    if "x-form-help" in node:
        return str(node["x-form-help"])
    words = str(node.get("description", ""))
    written = str(node.get("x-format", ""))
    if written and words.startswith(written):
        words = words.removeprefix(written).lstrip(";,. ")
    return words


SYMBOL_SLIDERS = ("scale", "zoom")
"""A symbol's keys the page sets with a slider: their bounds come from the theme spec."""


@functools.lru_cache(maxsize=1)
def form_description() -> dict[str, Any]:
    """The settings form as the theme's JSON Schema defines it, for the page to draw:
    ``fields`` by dotted key (type, ``choices``, ``minimum``/``maximum`` (lengths in mm),
    ``default``, ``unit``, ``help``, the control's ``label``, the card ``shapes`` that have
    a key only some have) and ``deck_sizes`` by λ (the size menu: symbols a card,
    cards, order), the photo crops and their corner, ``symbol_fields``: the bounds of a
    symbol's sliders (:data:`SYMBOL_SLIDERS`), the font and picture files the library
    loads (the picture formats in words too).
    The page writes no bound, choice or deck size of its own."""
    schema = json.loads(printdeck.schema_json())
    defs = schema.get("$defs", {})
    fields: dict[str, Any] = {}
    for key in sorted(SETTING_KEYS):
        node: dict[str, Any] = schema
        for part in key.split("."):
            node = _resolve(node, defs)["properties"][part]
        fields[key] = _field_of(node, defs)
        fields[key]["label"] = label_of(key)
        if key in SHAPE_KEYS:  # the page shows it for these shapes (and wherever it is set)
            fields[key]["shapes"] = list(SHAPE_KEYS[key])
    sizes = {str(match): printdeck.api.deck_size_table(match) for match in (1, 2)}
    symbol = schema["$defs"]["SymbolEntry"]["properties"]
    return {
        "fields": fields,
        "deck_sizes": sizes,
        "photo_shapes": _field_of(symbol["shape"], defs)["choices"],
        "symbol_fields": {key: _field_of(symbol[key], defs) for key in SYMBOL_SLIDERS},
        "photo_corner_fraction": PHOTO_CORNER_FRACTION,
        "font_suffixes": list(printdeck.api.FONT_SUFFIXES),
        "picture_suffixes": list(printdeck.api.PICTURE_SUFFIXES),
        "picture_formats": printdeck.api.PICTURE_FORMATS,
    }


@functools.lru_cache(maxsize=1)
def _defaults() -> dict[str, Any]:
    """Each setting's default as the theme spec gives it (:func:`form_description`); None
    for a key the spec marks worked out from the rest of the theme (``x-worked-out``)."""
    fields = form_description()["fields"]
    return {key: None if field["worked_out"] else field.get("default") for key, field in fields.items()}


def setting_default(key: str) -> Any:
    """The value setting ``key`` takes when the theme leaves it out (the spec's default:
    ``paper.size`` -> ``a4``); None when the spec gives none or works it out from the rest
    of the theme (``layout.rotation``: 30 degrees in a deck with words; ``title``: the
    folder's name; ``paper.margin``: 12 mm with registration marks)."""
    return _defaults().get(key)
