"""The options of a run: one pydantic field each, the one owner of its range, default,
unit, choices and help.

A build's options (:class:`BuildSettings`) and a preview's (:class:`PreviewSettings`)
are models like the theme's: the library validates its keyword arguments through them
(``model_validate``, strictly: ``seed="7"`` and ``seed=True`` are refused), the command
line makes its options from :func:`option_table` (click's ranges, choices, defaults and
help), and the studio's form is made from the same table and the theme's JSON Schema.
An option that overrides a theme key names it (``theme_key``) and takes its type from
the theme spec (``printdeck.theme.spec``), so the two cannot drift.

Adding an option: add one field here (and, if it is a theme key, the key to the theme
spec), with ``option(...)``: its flag, help, unit and theme key. The API passes it by
its field name, the CLI reads :func:`option_table`, the studio the served table.
"""

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Annotated, Any, TypeVar

from pydantic import BaseModel, ConfigDict, Field, Strict, ValidationError

from printdeck.choices import ColourMode, ImageFormat, PaperLayout, PdfX, SlideGame, SlideReveal
from printdeck.errors import PrintdeckError
from printdeck.theme.messages import validation_error
from printdeck.theme.presets import PresetName
from printdeck.theme.spec import ThemeSpec
from printdeck.theme.spec_print import InkLimit, PaperSize
from printdeck.theme.spec_types import LENGTHS_IN_MM, Copies, Length, Seed

_SettingsT = TypeVar("_SettingsT", bound=BaseModel)
StrictBool = Annotated[bool, Strict()]
StrictInt = Annotated[int, Strict()]
StrictSeed = Annotated[Seed, Strict()]


def option(
    default: Any,
    *,
    flag: str,
    help: str,
    theme_key: str | None = None,
    unit: str | None = None,
    **constraints: Any,
) -> Any:
    """A settings field: ``Field`` with the command-line ``flag``, the ``theme_key`` it
    overrides (dotted YAML keys) and its ``unit``, kept in its JSON Schema."""
    extra = {"x-flag": flag, "x-theme-key": theme_key, "x-unit": unit}
    return Field(
        default=default,
        description=help,
        json_schema_extra={k: v for k, v in extra.items() if v is not None},
        **constraints,
    )


class _Settings(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, use_enum_values=True)


class BuildSettings(_Settings):
    """What a build may be told besides its theme (``None``: the theme's value)."""

    seed: StrictSeed | None = option(None, flag="--seed", theme_key="seed", help="Override the theme's seed.")
    paper: PaperSize | None = option(
        None, flag="--paper", theme_key="paper.size", help="a4, letter, a3, or WIDTHxHEIGHT (e.g. 200mmx280mm)."
    )
    backs: StrictBool | None = option(
        None, flag="--backs", theme_key="backs.enabled", help="Add back pages for duplex printing."
    )
    layout: PaperLayout | None = option(
        None,
        flag="--layout",
        theme_key="paper.layout",
        help="sheet: several cards a page; single: one card a page (trim + bleed).",
    )
    legend: StrictBool | None = option(
        None, flag="--legend", theme_key="extras.legend", help="Add a legend of every symbol."
    )
    rules: StrictBool | None = option(None, flag="--rules", theme_key="extras.rules", help="Add the rules sheet.")
    copies: Annotated[Copies, Strict()] | None = option(
        None,
        flag="--copies",
        theme_key="deck.copies",
        help="A class set: this many decks, each its own back colour, letter and layouts.",
    )
    pack: StrictBool | None = option(
        None, flag="--pack", theme_key="paper.pack", help="Class sets: let sheets mix decks (fewer sheets)."
    )
    tuck_box: StrictBool | None = option(
        None, flag="--tuck-box", theme_key="extras.tuck_box", help="Add a tuck box to cut, fold and glue (one a deck)."
    )
    booklet: StrictBool | None = option(
        None, flag="--booklet", help="The print-and-play booklet: backs, legend, rules and a tuck box in one PDF."
    )
    allow_look_alike: StrictBool | None = option(
        None,
        flag="--allow-look-alike",
        theme_key="deck.allow_look_alike",
        help="Print symbols players cannot tell apart, with a warning (default: refuse them).",
    )
    grayscale: StrictBool | None = option(
        None,
        flag="--grayscale",
        theme_key="paper.grayscale",
        help="Print a grey deck for black-and-white printers (a DeviceGray PDF, words in grey tones).",
    )
    dpi: StrictInt = option(300, flag="--dpi", unit="ppi", help="PNG resolution.", ge=72, le=1200)
    png_margin_mm: Annotated[Length, Field(ge=0.0, le=20.0)] = option(
        0.0, flag="--png-margin", unit="mm", help="Extra radial margin around PNG cards."
    )
    png_cut: StrictBool = option(
        False,
        flag="--png-cut",
        help="PNGs (the back's too) at cut size, transparent outside the card's shape (for print-then-cut machines).",
    )
    preset: PresetName | None = option(
        None, flag="--preset", help="A print service's preset (see `printdeck presets`): its card, paper and files."
    )
    image_format: ImageFormat | None = option(
        None, flag="--image-format", help="Format of the per-card images (default: the preset's, else png)."
    )
    color: ColourMode | None = option(
        None, flag="--color", theme_key="paper.color", help="rgb, or cmyk: press CMYK (FOGRA39) written as PDF/X."
    )
    pdfx: PdfX | None = option(None, flag="--pdfx", theme_key="paper.pdfx", help="The PDF/X standard of a CMYK file.")
    ink_limit: InkLimit | None = option(
        None, flag="--ink-limit", theme_key="paper.ink_limit", unit="%", help="Total ink limit of a CMYK file."
    )
    die_line: StrictBool | None = option(
        None,
        flag="--die-line",
        theme_key="paper.die_line",
        help="Stroke each cut path in the spot colour CutContour on its own layer.",
    )


class PreviewSettings(_Settings):
    """What a preview sheet may be told besides its theme."""

    cards: StrictInt = option(12, flag="--cards", help="How many cards to draw.", ge=1, le=2000)
    seed: StrictSeed | None = option(None, flag="--seed", theme_key="seed", help="Override the theme's seed.")
    px_per_mm: Annotated[float, Field(ge=1.0, le=20.0)] = option(
        3.0, flag="--dpmm", unit="px/mm", help="Pixels per millimetre."
    )


class SlidesSettings(_Settings):
    """What the classroom slides (``printdeck slides``) may be told besides their theme."""

    seed: StrictSeed | None = option(
        None,
        flag="--seed",
        theme_key="seed",
        help="Override the theme's seed as build --seed does: the slides show that deck, their rounds seeded by it.",
    )
    reveal: SlideReveal = option(
        SlideReveal.RING.value,
        flag="--reveal",
        help="How the answer slide shows the match: ring (on both cards), corner (its picture and name) or both.",
    )
    game: SlideGame = option(
        SlideGame.SCREEN.value,
        flag="--game",
        help="The game whose rules the title slide shows: screen (rows or teams race) or a rules-sheet game.",
    )
    answer_key: StrictBool | None = option(
        None, flag="--answer-key", help="Add the answer key: each round's match by name and picture."
    )


@dataclass(frozen=True)
class OptionInfo:
    """One option as every front end shows it, read from the settings' JSON Schema.

    Attributes:
        name: The API's keyword (``png_margin_mm``).
        flag: The command line's option (``--png-margin``).
        kind: ``integer``, ``number``, ``boolean``, ``choice``, ``length`` or ``paper``.
        default: The default (``None``: the theme's value).
        minimum: Smallest value allowed (for a length: in mm), if bounded.
        maximum: Largest value allowed (for a length: in mm), if bounded.
        choices: The words allowed (a ``choice``, and a paper's names).
        unit: ``mm``, ``ppi``, ``px/mm``..., if it has one.
        help: One line for ``--help`` and the form's hint.
        theme_key: The theme key it overrides (``paper.size``), if any.
    """

    name: str
    flag: str
    kind: str
    default: Any
    minimum: float | None
    maximum: float | None
    choices: tuple[str, ...]
    unit: str | None
    help: str
    theme_key: str | None


def _kind(prop: dict[str, Any], defs: dict[str, Any]) -> tuple[str, dict[str, Any], tuple[str, ...]]:
    """The option's kind, the schema of its value (``null`` left out) and its choices."""
    branches: list[dict[str, Any]] = [b for b in prop.get("anyOf", [prop]) if b.get("type") != "null"]
    value: dict[str, Any] = branches[0] if len(branches) == 1 else {"oneOf": branches}
    if "$ref" in value:
        value = defs[value["$ref"].rsplit("/", 1)[-1]]
    if "oneOf" in value:  # a paper: a name or [width, height]
        names = [defs[b["$ref"].rsplit("/", 1)[-1]] if "$ref" in b else b for b in value["oneOf"]]
        return "paper", value, tuple(w for b in names for w in b.get("enum", ()))
    if "enum" in value:
        return "choice", value, tuple(value["enum"])
    if value.get("x-unit") == "mm" and value.get("type") == "string":
        return "length", value, ()
    return str(value.get("type")), value, ()


def option_table(settings: type[BaseModel]) -> list[OptionInfo]:
    """Every option of ``settings`` (:class:`BuildSettings`, :class:`PreviewSettings`),
    read from its JSON Schema, in field order: what the CLI and the studio are made from."""
    return list(_options_of(settings))


@lru_cache(maxsize=8)
def _options_of(settings: type[BaseModel]) -> tuple[OptionInfo, ...]:
    """:func:`option_table`, made once a model: the JSON Schema takes 5-10 ms, and every
    command line and every build's :func:`apply_settings` reads the table."""
    schema = settings.model_json_schema()
    defs = schema.get("$defs", {})
    table = []
    for name, prop in schema["properties"].items():
        kind, value, choices = _kind(prop, defs)
        low = value.get("x-minimum-mm", value.get("minimum"))
        high = value.get("x-maximum-mm", value.get("maximum"))
        default = settings.model_fields[name].default
        table.append(
            OptionInfo(
                name=name,
                flag=prop["x-flag"],
                kind=kind,
                default=default,
                minimum=low,
                maximum=high,
                choices=choices,
                unit=prop.get("x-unit", value.get("x-unit")),
                help=prop.get("description", ""),
                theme_key=prop.get("x-theme-key"),
            )
        )
    return tuple(table)


def parse_settings(settings: type[_SettingsT], values: dict[str, Any]) -> _SettingsT:
    """``values`` (keyword arguments by field name) validated through ``settings``.

    Numbers given for lengths are mm (the API's ``png_margin_mm=2``, ``paper=(200, 280)``);
    strings carry their unit (``"2mm"``). A list for a paper size is taken as a tuple.

    Raises:
        PrintdeckError: naming the argument (``key``, with ``is_argument`` set), the
            value and what was expected: ``seed: expected a whole number, got "7"``.
    """
    if isinstance(values.get("paper"), list):
        values = {**values, "paper": tuple(values["paper"])}
    try:
        return settings.model_validate(values, context=LENGTHS_IN_MM)
    except ValidationError as exc:
        raise validation_error(exc, settings, None, is_argument=True) from None


def _set_key(data: dict[str, Any], dotted: str, value: object) -> None:
    *parents, last = dotted.split(".")
    node = data
    for part in parents:
        node = node.setdefault(part, {})
    node[last] = value


def apply_settings(spec: ThemeSpec, settings: BaseModel) -> ThemeSpec:
    """``spec`` with the settings that override theme keys written in, validated again
    through the model (``ThemeSpec.model_validate``, not a copy).

    Raises:
        PrintdeckError: an override the theme refuses, naming the argument.
    """
    data = spec.model_dump(by_alias=True)
    keys: dict[str, str] = {}
    for info in option_table(type(settings)):
        value = getattr(settings, info.name)
        if info.theme_key is not None and value is not None:
            _set_key(data, info.theme_key, value)
            keys[info.theme_key] = info.name
    try:
        return ThemeSpec.model_validate(data, context=LENGTHS_IN_MM)
    except ValidationError as exc:
        error = validation_error(exc, ThemeSpec, None)
        if error.key in keys:
            raise error.with_key(keys[error.key], is_argument=True) from None
        raise error from None


@contextlib.contextmanager
def overrides_named(settings: BaseModel) -> Iterator[None]:
    """Errors raised inside about a theme key that one of ``settings`` overrode said of that
    argument instead (``deck.copies`` -> ``copies``, which the command line words
    ``--copies``): the user typed the option, not the key.

    Raises:
        PrintdeckError: What was raised inside, its key the argument's where it was one.
    """
    keys = {
        info.theme_key: info.name
        for info in option_table(type(settings))
        if info.theme_key is not None and getattr(settings, info.name) is not None
    }
    try:
        yield
    except PrintdeckError as exc:
        if exc.is_argument or exc.key not in keys:
            raise
        raise exc.with_key(keys[exc.key], is_argument=True) from None
