"""Print-service presets (``printdeck/theme/presets.yaml``, one table): the theme keys a
service fixes and the files it wants, applied over a theme by :func:`apply_preset`."""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Any

import yaml
from pydantic import AfterValidator, BaseModel, ValidationError, WithJsonSchema

from printdeck.errors import PrintdeckError
from printdeck.theme.messages import describe_validation_error
from printdeck.theme.spec import CardSpec, ThemeSpec
from printdeck.theme.spec_print import BacksSpec, PaperSpec
from printdeck.units import paper_size_mm

PRESETS_FILE = Path(__file__).with_name("presets.yaml")


@lru_cache(maxsize=1)
def _table() -> dict[str, dict[str, Any]]:
    """The presets table as YAML gives it; printdeck's own file, so read with libyaml's
    loader where PyYAML has it (a fifteenth of the time: every command reads the names)."""
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    table: dict[str, dict[str, Any]] = yaml.load(PRESETS_FILE.read_text(encoding="utf-8"), Loader=loader)
    return table


PRESET_NAMES: tuple[str, ...] = tuple(_table())
"""The presets' names, in the table's order."""


def _known(name: str) -> str:
    if name not in PRESET_NAMES:
        raise ValueError(f"expected one of {', '.join(PRESET_NAMES)} (printdeck presets), got {name!r}")
    return name


PresetName = Annotated[str, AfterValidator(_known), WithJsonSchema({"type": "string", "enum": list(PRESET_NAMES)})]
"""A preset's name, a choice as every other: the command line and the studio list them."""
_SECTIONS: dict[str, type[BaseModel]] = {"card": CardSpec, "paper": PaperSpec, "backs": BacksSpec}


@dataclass(frozen=True)
class Preset:
    """One service's preset.

    Attributes:
        name: The preset's name (``--preset NAME``).
        service: Who it is for.
        source: Where its numbers come from.
        makes: What the service receives, in words.
        theme: Theme keys it sets, by section (``card``, ``paper``, ``backs``), as YAML gives them.
        image_format: ``png`` or ``jpg`` per-card images, or ``None`` (the PDF is the deliverable).
        dpi: Resolution of those images.
        sizes: The service's own cut size of a named card size (``poker``: ``[2.5in, 3.5in]``),
            as a theme writes ``card.size``: a theme of that name is cut to it (printdeck's
            ``poker`` is the metric 63 x 88 mm, a service's template 2.5 x 3.5 in).
        one_deck: The service takes one deck a file (a class set is warned about).
    """

    name: str
    service: str
    source: str
    makes: str
    theme: dict[str, dict[str, Any]]
    image_format: str | None = None
    dpi: int = 300
    sizes: dict[str, Any] = field(default_factory=dict)
    one_deck: bool = False


@lru_cache(maxsize=1)
def presets() -> dict[str, Preset]:
    """Every preset of the table, by name (in the table's order)."""
    out = {}
    for name, entry in _table().items():
        images = entry.get("images") or {}
        out[name] = Preset(
            name=name,
            service=entry["service"],
            source=entry["source"],
            makes=entry["makes"],
            theme=dict(entry.get("theme") or {}),
            image_format=images.get("format"),
            dpi=int(images.get("dpi", 300)),
            sizes=dict(entry.get("sizes") or {}),
            one_deck=bool(entry.get("one_deck", False)),
        )
    return out


def preset(name: str) -> Preset:
    """The preset called ``name``.

    Raises:
        PrintdeckError: No such preset (names the ones there are).
    """
    table = presets()
    if name not in table:
        raise PrintdeckError(
            key="preset",
            value=name,
            problem="no such preset",
            fix=f"choose one of {', '.join(table)} (printdeck presets)",
            is_argument=True,
        )
    return table[name]


def apply_preset(spec: ThemeSpec, chosen: Preset) -> ThemeSpec:
    """``spec`` with the preset's keys written over it, each validated as the theme's key is.

    A preset that fixes the card's shape or size (``card.shape``, ``size`` or ``diameter``)
    replaces all of the theme's shape keys, so the cards are the service's; a theme's named
    size the service cuts to a size of its own (:attr:`Preset.sizes`) becomes that size.

    Raises:
        PrintdeckError: A preset key is invalid (a broken table: names the preset).

    Warns:
        PresetWarning: The preset's cards are another shape than the theme's.
    """
    update: dict[str, object] = {}
    for section, keys in chosen.theme.items():
        model = _SECTIONS[section]
        try:
            given = model.model_validate(keys)
        except ValidationError as exc:
            raise PrintdeckError(describe_validation_error(exc, model, f"preset {chosen.name}")) from None
        current = getattr(spec, section)
        fixed = {k: getattr(given, k) for k in given.model_fields_set}
        if section == "card" and fixed.keys() & _SHAPE_KEYS:
            # The service fixes the card's cut shape: the theme's own shape keys go with it
            # (a poker theme's size and corner radius would contradict a round preset's
            # diameter, and a theme's card.size would silently win over it).
            fixed = {k: CardSpec.model_fields[k].default for k in _SHAPE_KEYS} | fixed
        update[section] = current.model_copy(update=fixed)
    made = _service_size(spec.model_copy(update=update), chosen)
    _say_card_replaced(spec.card, made.card, chosen)
    _say_offsets_dropped(spec.backs, made.backs, chosen)
    _say_off_template(made.card, chosen)
    return made


def _say_off_template(card: CardSpec, chosen: Preset) -> None:
    """Warn when a service that cuts named sizes (:attr:`Preset.sizes`) gets a card of none
    of them (``card.size: [63mm, 88mm]``, printdeck's poker, is not DriveThruCards' 2.5 x
    3.5 in template, which only ``card.size: poker`` is made)."""
    if not chosen.sizes:
        return
    try:
        outline = card.outline()
    except ValueError:  # the theme's own card is refused where it is checked, with its key
        return
    have = sorted((outline.width_mm, outline.height_mm))
    for size in chosen.sizes.values():  # the services' templates: rectangles (their corners rounded or not)
        made = CardSpec.model_validate({"shape": "rectangle", "size": size}).outline()
        same = all(abs(a - b) < 0.5 for a, b in zip(have, sorted((made.width_mm, made.height_mm)), strict=True))
        if same and not outline.is_circle:
            return
    said = ", ".join(f"{name} {_said_size(size)}" for name, size in chosen.sizes.items())
    warnings.warn(
        f"preset {chosen.name}: a {have[0]:g} x {have[1]:g} mm card is none of {chosen.service}'s sizes ({said}); "
        f"the service may send the file back: set card.size to one of {', '.join(chosen.sizes)}",
        PresetWarning,
        stacklevel=3,
    )


def _said_size(size: Any) -> str:
    """A preset's size as its table writes it: ``2.5in x 3.5in``."""
    return " x ".join(str(v) for v in size) if isinstance(size, list | tuple) else str(size)


def _say_offsets_dropped(theme_backs: BacksSpec, preset_backs: BacksSpec, chosen: Preset) -> None:
    """Warn when the preset undid the theme's backs offsets (a home printer's duplex
    correction): a service registers its own duplex, so its backs are placed unshifted."""
    before = (theme_backs.offset_x_mm, theme_backs.offset_y_mm)
    if before != (0.0, 0.0) and (preset_backs.offset_x_mm, preset_backs.offset_y_mm) != before:
        warnings.warn(
            f"preset {chosen.name}: backs.offset_x/offset_y ({before[0]:g}mm, {before[1]:g}mm) correct a home "
            f"printer's duplex drift; {chosen.service} registers its own, so the backs are not shifted",
            PresetWarning,
            stacklevel=3,
        )


def _service_size(spec: ThemeSpec, chosen: Preset) -> ThemeSpec:
    """``spec`` with its card's named size (``card.size: poker``) made the service's own
    size of that name (:attr:`Preset.sizes`), the named size's shape kept.

    Raises:
        PrintdeckError: The preset's size is invalid (a broken table: names the preset).
    """
    named = spec.card.size if isinstance(spec.card.size, str) else None
    if named is None or named not in chosen.sizes:
        return spec
    shape = spec.card.outline().kind
    try:
        given = CardSpec.model_validate({"shape": shape.value, "size": chosen.sizes[named]})
    except ValidationError as exc:
        raise PrintdeckError(describe_validation_error(exc, CardSpec, f"preset {chosen.name}")) from None
    card = spec.card.model_copy(update={"shape": given.shape, "size": given.size})
    return spec.model_copy(update={"card": card})


class PresetWarning(UserWarning):
    """A preset made the theme's cards another shape (the service's), or an option undid
    what the service asks for."""


def say_one_deck(chosen: Preset, final: ThemeSpec) -> None:
    """Warn when a service that takes one deck a file (:attr:`Preset.one_deck`) is sent a
    class set: every deck's cards in one file.

    Warns:
        PresetWarning: Naming the preset, the service and the decks.
    """
    if chosen.one_deck and final.deck.copies > 1:
        warnings.warn(
            f"preset {chosen.name}: {chosen.service} takes one deck a file, and deck.copies makes one file of "
            f"{final.deck.copies} decks' cards; order copies of one deck (deck.copies: 1) instead",
            PresetWarning,
            stacklevel=3,
        )


def say_overridden(chosen: Preset, final: ThemeSpec) -> None:
    """Warn when the build's options undid a key the preset sets (``--color rgb`` on a
    service that takes a CMYK PDF/X file): the options win, and the service may send the
    file back.

    Warns:
        PresetWarning: Naming the preset, the keys changed and the service.
    """
    changed = []
    for section, keys in chosen.theme.items():
        given = _SECTIONS[section].model_validate(keys)
        for key in sorted(given.model_fields_set):
            want, got = getattr(given, key), getattr(getattr(final, section), key)
            if not (want == got or ((section, key) == ("paper", "size") and _same_paper(want, got))):
                alias = type(given).model_fields[key].alias or key
                changed.append(f"{section}.{alias} {_said(got)} (it asks for {_said(want)})")
    if changed:
        warnings.warn(
            f"preset {chosen.name}: the build's options made {'; '.join(changed)}, not what {chosen.service} "
            "asks for; the service may send the file back (leave those options out to keep the preset's)",
            PresetWarning,
            stacklevel=3,
        )


def _same_paper(want: object, got: object) -> bool:
    """Whether two paper sizes are one (letter and 215.9 x 279.4 mm are)."""
    a, b = paper_size_mm(want), paper_size_mm(got)  # type: ignore[arg-type]
    return abs(a[0] - b[0]) < 0.05 and abs(a[1] - b[1]) < 0.05


def _said(value: object) -> str:
    """A theme value as a theme file would write it (``cmyk``, ``true``, ``200mm x 280mm``)."""
    value = getattr(value, "value", value)
    if isinstance(value, tuple) and len(value) == 2 and all(isinstance(v, float | int) for v in value):
        return f"{value[0]:g}mm x {value[1]:g}mm"
    return str(value).lower() if isinstance(value, bool) else str(value)


def _say_card_replaced(theme_card: CardSpec, preset_card: CardSpec, chosen: Preset) -> None:
    """Warn when the preset's cards are another shape than the theme's (a poker theme built
    for a round service); a new size of the same shape is what the preset is for."""
    try:
        theme_shape, preset_shape = theme_card.outline(), preset_card.outline()
    except ValueError:  # the theme's own card is refused where it is checked, with its key
        return
    before, after = theme_shape.describe(), preset_shape.describe()
    if theme_shape.kind != preset_shape.kind:
        warnings.warn(
            f"preset {chosen.name}: the cards are a {after} ({chosen.service}), not the theme's {before}; "
            "choose another preset or leave it out to keep the theme's cards",
            PresetWarning,
            stacklevel=3,
        )


_SHAPE_KEYS = frozenset({"shape", "size", "diameter_mm", "corner_radius_mm", "orientation"})
"""``CardSpec`` fields that together make the card's cut shape (:meth:`CardSpec.outline`)."""
