"""The theme model's building blocks: lengths with units (stored in mm), colours, texts,
seeds, the strict base of every section and the union discriminator by input type.
"""

import functools
import re
import unicodedata
from typing import Annotated, Any, ClassVar

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Discriminator,
    Field,
    GetJsonSchemaHandler,
    ValidationInfo,
)
from pydantic.config import JsonDict

from printdeck.units import LENGTH_PATTERN, parse_length_mm

LENGTHS_IN_MM = {"lengths_in_mm": True}
"""Validation context for data whose lengths are numbers in mm already (a dumped spec,
re-validated with overrides; see ``printdeck.theme.run_options``)."""


def _length_mm(value: object, info: ValidationInfo) -> float:
    """A length written with its unit (``"85mm"``) in mm; a plain number only when the
    context says the data holds mm already (a theme file must write the unit)."""
    in_mm = bool(info.context and info.context.get("lengths_in_mm"))
    if in_mm and isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    return parse_length_mm(value)


class _LengthSchema:
    """A length's JSON Schema: a string with its unit, and its bounds in mm as
    ``x-minimum-mm`` / ``x-maximum-mm`` (``x-exclusive-...`` for strict bounds), so a
    form made from the schema (the studio's) knows them without a second copy."""

    _BOUND_NAMES: ClassVar[dict[str, str]] = {
        "ge": "minimum",
        "minimum": "minimum",
        "le": "maximum",
        "maximum": "maximum",
        "gt": "exclusive-minimum",
        "exclusiveMinimum": "exclusive-minimum",
        "lt": "exclusive-maximum",
        "exclusiveMaximum": "exclusive-maximum",
    }

    def __get_pydantic_json_schema__(self, schema: Any, handler: GetJsonSchemaHandler) -> dict[str, Any]:
        number = handler(schema)
        bounds = {f"x-{self._BOUND_NAMES[k]}-mm": v for k, v in number.items() if k in self._BOUND_NAMES}
        return {"type": "string", "pattern": LENGTH_PATTERN, "examples": ["85mm", "3.15in"], "x-unit": "mm", **bounds}


Length = Annotated[float, BeforeValidator(_length_mm), _LengthSchema()]


def _colour(value: object) -> object:
    """A colour as ``#rrggbb``: ``#rgb`` written out (``#f80`` is ``#ff8800``) and a CSS
    colour name (``orange``, through Pillow's ``ImageColor``) made its hex; anything else
    as given, for the pattern to refuse."""
    if not isinstance(value, str):
        return value
    text = value.strip()
    if _LONG_HEX.fullmatch(text):
        return text
    if _SHORT_HEX.fullmatch(text):
        return "#" + "".join(c * 2 for c in text[1:]).lower()
    if text.isascii() and text.isalpha() and text.lower() in colour_names():
        from PIL import ImageColor  # noqa: PLC0415 - only for a colour given by name

        red, green, blue = ImageColor.getrgb(text.lower())[:3]  # getrgb, not the colormap: it caches tuples there
        return f"#{red:02x}{green:02x}{blue:02x}"
    return value


@functools.cache
def colour_names() -> frozenset[str]:
    """The CSS colour names a colour key takes (Pillow's ``ImageColor``), lower case."""
    from PIL import ImageColor  # noqa: PLC0415

    return frozenset(name for name in ImageColor.colormap if name.isalpha())


COLOUR_FORMAT = "#rrggbb, #rgb or a CSS colour name (in quotes: in YAML a # starts a comment)"
"""How a colour is written in a theme: every colour key's description starts with it."""


class _ColourSchema:
    """A colour's JSON Schema: ``#rrggbb``, ``#rgb`` or one of :func:`colour_names` (listed
    when the schema is made, so an editor checking a theme against it agrees with printdeck).
    ``x-format`` keeps :data:`COLOUR_FORMAT` apart from a key's own description, so a form
    with a colour picker can show the key's words without how a theme writes a colour."""

    def __get_pydantic_json_schema__(self, schema: Any, handler: GetJsonSchemaHandler) -> dict[str, Any]:
        return {
            "type": "string",
            "anyOf": [{"pattern": r"^\s*#([0-9a-fA-F]{6}|[0-9a-fA-F]{3})\s*$"}, {"enum": sorted(colour_names())}],
            "examples": ["#ffffff", "#f80", "orange"],
            "description": COLOUR_FORMAT,
            "x-format": COLOUR_FORMAT,
        }


_SHORT_HEX = re.compile(r"#[0-9a-fA-F]{3}")
_LONG_HEX = re.compile(r"#[0-9a-fA-F]{6}")
Color = Annotated[
    str,
    BeforeValidator(_colour),
    Field(pattern=r"^#[0-9a-fA-F]{6}$", examples=["#ffffff"]),
    _ColourSchema(),
]
NonEmptyText = Annotated[str, Field(min_length=1, max_length=500)]
MAX_WORD_CHARS = 40
"""The longest word a symbol may be (a theme's ``text:``, a word list's line), in characters."""
LANGUAGE_PATTERN = r"^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$"
"""A BCP 47 language tag's shape: a two- or three-letter code, then subtags (``zh-Hans``)."""
Language = Annotated[str, Field(pattern=LANGUAGE_PATTERN, max_length=35, examples=["fr", "zh-Hans"])]
NAME_PATTERN = r"^[\p{L}\p{N}][\p{L}\p{M}\p{N}_.-]*$"
"""A theme's ``name`` (its output file's): letters of any script (with their accents and
vowel signs), digits, ``-``, ``_`` and ``.``, starting with a letter or digit."""
DeckName = Annotated[str, Field(min_length=1, max_length=80, pattern=NAME_PATTERN)]


def _name_char(char: str) -> bool:
    """Whether ``char`` may stand in a theme's ``name`` (see :data:`NAME_PATTERN`)."""
    return char in "_.-" or unicodedata.category(char)[0] in "LMN"


def name_slug(text: str) -> str:
    """``text`` (a folder's or file's name) as a theme's ``name`` (:data:`NAME_PATTERN`): NFC,
    every run of other characters made one ``-``, at most 80 characters; empty when no letter
    or digit is left (the caller's fallback). ``français 2`` is ``français-2``."""
    text = unicodedata.normalize("NFC", text)
    cleaned = "".join(c if _name_char(c) else " " for c in text)
    cleaned = re.sub(r" +", "-", cleaned).strip("-.")
    while cleaned and unicodedata.category(cleaned[0])[0] not in "LN":  # "_x", a lone accent
        cleaned = cleaned[1:]
    return cleaned[:80]


def title_from_name(text: str) -> str:
    """A deck's title from its name or its folder's (printed on its backs, its sheets'
    footers and its box): ``family-deck`` is "Family deck"; empty when nothing is left."""
    words = re.sub(r"[-_.\s]+", " ", text).strip()[:80].strip()
    return words[:1].upper() + words[1:]


def form_help(words: str) -> JsonDict:
    """A key's words for a settings form, as ``json_schema_extra`` (``x-form-help``), where its
    description says how a theme file writes it ("sheet: ...; single: ...", "[200mm, 280mm]")
    and a form's control already shows the choices: the studio shows these words instead
    (``""``: none, the control says it all)."""
    return {"x-form-help": words}


def worked_out(extra: JsonDict | None = None) -> JsonDict:
    """``json_schema_extra`` (``x-worked-out``) of a key whose value, left out, is worked out
    from the rest of the theme rather than its default (a title from the folder's name):
    a front end says "default" for it, not the default."""
    return {**(extra or {}), "x-worked-out": True}


def by_type(kinds: dict[type, str], default: str) -> Any:
    """A discriminator choosing a union branch from the Python type of the input."""

    def pick(value: object) -> str:
        for kind, tag in kinds.items():
            if isinstance(value, kind) and not isinstance(value, bool):
                return tag
        return default

    return Discriminator(pick)


class StrictModel(BaseModel):
    """A theme section: unknown keys refused, fields by name or YAML alias, frozen, enums as values."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True, frozen=True, use_enum_values=True)


SEED_MAX = 2**32 - 1
"""The largest seed (numpy's generators take seeds of 32 bits)."""
Seed = Annotated[int, Field(ge=0, le=SEED_MAX)]
"""A seed for symbol choice, assignment and layout: the one place its range is written."""
Copies = Annotated[int, Field(ge=1, le=12)]
"""Decks in a class set (one colour of ``DECK_PALETTE`` each)."""
