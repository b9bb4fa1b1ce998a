"""Turning pydantic's validation errors into one line a theme author can act on.

``card.diameter: expected a length such as "85mm" (units mm, cm, in, pt), got "big"``
``card: unknown key 'diamter'; did you mean 'diameter'?``

The dotted path uses the YAML keys (aliases), list items are counted from 0
(``symbols.3.scale``) and the union tags pydantic adds are removed.
"""

from __future__ import annotations

import difflib
import json
import typing
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ValidationError

UNION_TAGS = {"word", "degrees", "name", "size", "path", "entry"}
"""Tags of the discriminated unions in ``printdeck.theme.spec``."""

_PLAIN: dict[str, str] = {
    "int_type": "a whole number",
    "int_parsing": "a whole number",
    "int_from_float": "a whole number",
    "float_type": "a number",
    "float_parsing": "a number",
    "finite_number": "a finite number",
    "bool_type": "true or false",
    "bool_parsing": "true or false",
    "string_type": "text (put it in quotes)",
    "string_too_short": "non-empty text",
    "list_type": "a list (lines starting with '- ')",
    "tuple_type": "a list such as [210mm, 297mm]",
    "dict_type": "a mapping of keys (key: value lines)",
    "model_type": "a mapping of keys (key: value lines)",
    "model_attributes_type": "a mapping of keys (key: value lines)",
    "none_required": "nothing",
}


def _model_in(annotation: object) -> type[BaseModel] | None:
    """The pydantic model class inside an annotation (``list[X] | None`` -> X), if any."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for arg in typing.get_args(annotation):
        found = _model_in(arg)
        if found is not None:
            return found
    return None


def _field(model: type[BaseModel] | None, key: str) -> Any:
    if model is None:
        return None
    for name, info in model.model_fields.items():
        if key in (name, info.alias):
            return info
    return None


def _walk(root: type[BaseModel], loc: tuple[Any, ...], keep_last: bool) -> tuple[list[str], type[BaseModel] | None]:
    """Clean a pydantic location; return (dotted parts, model holding the last key)."""
    parts: list[str] = []
    model: type[BaseModel] | None = root
    parent: type[BaseModel] | None = root
    for i, seg in enumerate(loc):
        last = i == len(loc) - 1
        if isinstance(seg, int):
            parts.append(str(seg))
            continue
        info = _field(model, seg)
        if info is None and seg in UNION_TAGS and not (last and keep_last):
            continue
        parts.append(info.alias or seg if info is not None else str(seg))
        parent = model
        model = _model_in(info.annotation) if info is not None else None
    return parts, parent


def _show(value: object) -> str:
    """A value as the user wrote it in YAML, shortened."""
    try:
        text = json.dumps(value, ensure_ascii=False, default=str)
    except (TypeError, ValueError):  # pragma: no cover - exotic objects
        text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _bound(err: Mapping[str, Any]) -> str | None:
    ctx = err.get("ctx") or {}
    unit = "mm" if isinstance(err.get("input"), str) else ""
    words = {"ge": "at least", "gt": "more than", "le": "at most", "lt": "less than"}
    for key, word in words.items():
        if key in ctx:
            kind = "a length" if unit else "a number"
            return f"{kind} {word} {ctx[key]:g}{unit}"
    return None


def _expected(err: Mapping[str, Any]) -> str:
    """What the key should hold, in plain words."""
    kind, ctx = err["type"], err.get("ctx") or {}
    if kind == "literal_error":
        return f"one of {ctx.get('expected', '')}"
    if kind in ("greater_than", "greater_than_equal", "less_than", "less_than_equal"):
        return _bound(err) or err["msg"]
    if kind == "string_pattern_mismatch":
        pattern = str(ctx.get("pattern", ""))
        if pattern.startswith("^#"):
            return 'a colour such as "#ff8800"'
        return "a short name of letters, digits, - _ or ."
    if kind == "string_too_long":
        return f"text of at most {ctx.get('max_length')} characters"
    if kind in ("too_short", "too_long"):
        n = ctx.get("min_length") if kind == "too_short" else ctx.get("max_length")
        return f"a list of {'at least' if kind == 'too_short' else 'at most'} {n} items"
    if kind == "value_error":
        text = str(ctx.get("error", err["msg"]))
        text = text.split(", got ")[0]
        return text.removeprefix("expected ")
    message = str(err["msg"])
    return _PLAIN.get(kind, message[:1].lower() + message[1:])


def _unknown_key(key: str, model: type[BaseModel] | None) -> str:
    allowed = sorted({info.alias or name for name, info in (model.model_fields.items() if model else [])})
    close = difflib.get_close_matches(key, allowed, n=1, cutoff=0.6)
    if close:
        return f"unknown key {key!r}; did you mean {close[0]!r}?"
    listed = ", ".join(allowed)
    return f"unknown key {key!r}; allowed keys here: {listed}" if listed else f"unknown key {key!r}; remove it"


def describe_error(err: Mapping[str, Any], root: type[BaseModel]) -> str:
    """One pydantic error as ``dotted.key: what is wrong; fix``.

    Args:
        err: One item of ``ValidationError.errors()``.
        root: The model validated (``ThemeSpec``).

    Returns:
        The message without the file name.
    """
    extra = err["type"] == "extra_forbidden"
    parts, parent = _walk(root, tuple(err["loc"]), keep_last=extra)
    if extra:
        where = ".".join(parts[:-1]) or "(top level)"
        return f"{where}: {_unknown_key(parts[-1], parent)}"
    where = ".".join(parts) or "(top level)"
    if err["type"] == "missing":
        return f"{where}: missing; add this key"
    return f"{where}: expected {_expected(err)}, got {_show(err.get('input'))}"


def describe_validation_error(exc: ValidationError, root: type[BaseModel], source: str) -> str:
    """The first problem of a ``ValidationError`` as one line naming the file.

    Args:
        exc: The error pydantic raised.
        root: The model validated.
        source: The theme file's name, put first.

    Returns:
        ``"<file>: <dotted.key>: <what is wrong>"``, plus how many more problems.
    """
    errors = exc.errors()
    first = describe_error(errors[0], root)
    more = f" (and {len(errors) - 1} more problem{'s' if len(errors) > 2 else ''})" if len(errors) > 1 else ""
    return f"{source}: {first}{more}"
