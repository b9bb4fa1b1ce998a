"""Turning pydantic's validation errors into one line a theme author can act on.

``card.diameter: expected a length such as "85mm" (units mm, cm, in, pt), got "big"``
``card: unknown key 'diamter'; did you mean 'diameter'?``

The dotted path uses the YAML keys (aliases), list items are counted from 0
(``symbols.3.scale``) and the union tags pydantic adds are removed.
"""

from __future__ import annotations

import difflib
import typing
from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import BaseModel, ValidationError

from printdeck.errors import PrintdeckError
from printdeck.theme.spec_types import LANGUAGE_PATTERN
from printdeck.theme.value_fixes import value_fix
from printdeck.units import LengthError

UNION_TAGS = {"word", "degrees", "name", "size", "path", "entry", "length", "pair"}
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
        if info is not None:  # else a mapping's key (place: {avocado: ...}): its value is of the same model
            model = _model_in(info.annotation)
    return parts, parent


def _bound(err: Mapping[str, Any]) -> str | None:
    ctx = err.get("ctx") or {}
    unit = "mm" if isinstance(err.get("input"), str) else ""
    words = {"ge": "at least", "gt": "more than", "le": "at most", "lt": "less than"}
    for key, word in words.items():
        if key in ctx:
            kind = "a length" if unit else "a number"
            bound = float(ctx[key])
            shown_bound = str(int(bound)) if bound.is_integer() and abs(bound) < 1e15 else f"{bound:g}"
            return f"{kind} {word} {shown_bound}{unit}"
    return None


def _expected(err: Mapping[str, Any]) -> str:
    """What the key should hold, in plain words."""
    kind, ctx = err["type"], err.get("ctx") or {}
    if kind in ("literal_error", "enum"):
        return f"one of {ctx.get('expected', '')}"
    if kind in ("greater_than", "greater_than_equal", "less_than", "less_than_equal"):
        return _bound(err) or err["msg"]
    if kind == "string_pattern_mismatch":
        pattern = str(ctx.get("pattern", ""))
        if pattern.startswith("^#"):
            return 'a colour such as "#ff8800", "#f80" or "orange"'
        if pattern == LANGUAGE_PATTERN:
            return 'a language code such as "fr", "ja" or "zh-Hans" (not its name)'
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


_CODES: dict[str, str] = {
    "greater_than": "too-small",
    "greater_than_equal": "too-small",
    "less_than": "too-large",
    "less_than_equal": "too-large",
    "literal_error": "not-a-choice",
    "enum": "not-a-choice",
    "int_type": "not-a-whole-number",
    "int_parsing": "not-a-whole-number",
    "int_from_float": "not-a-whole-number",
    "float_type": "not-a-number",
    "float_parsing": "not-a-number",
    "finite_number": "not-a-number",
    "bool_type": "not-yes-no",
    "bool_parsing": "not-yes-no",
    "string_type": "not-text",
    "string_too_long": "too-long",
    "missing": "missing",
    "extra_forbidden": "unknown-key",
}
"""The ``code`` of a theme key's error, by pydantic's error type: what kind of value the
key wants, for a front end to word in its own way (``not-a-length``, ``too-small``...)."""


def error_code(err: Mapping[str, Any]) -> str | None:
    """The ``code`` of one pydantic error (see :data:`_CODES`): ``not-a-length`` for a
    length refused by :func:`printdeck.units.parse_length_mm`, ``not-a-colour`` for a
    colour; ``None`` for a problem no code names."""
    kind, ctx = err["type"], err.get("ctx") or {}
    if kind == "value_error" and isinstance(ctx.get("error"), LengthError):
        return "not-a-length"
    if kind == "string_pattern_mismatch":
        pattern = str(ctx.get("pattern", ""))
        if pattern == LANGUAGE_PATTERN:
            return "not-a-language"
        return "not-a-colour" if pattern.startswith("^#") else "not-a-name"
    return _CODES.get(kind)


def _sections_holding(key: str, model: type[BaseModel] | None) -> list[str]:
    """The sections of ``model`` (keys whose value is a mapping of keys) that have ``key``
    among their own keys: ``deck`` for ``symbols_per_card`` at the top level, a key left out
    of its section (a line not indented under ``deck:``); ``card`` and ``paper`` for ``size``."""
    out = []
    for name, info in model.model_fields.items() if model else []:
        section = _model_in(info.annotation)
        if section is not None and _field(section, key) is not None:
            out.append(info.alias or name)
    return out


def _unknown_key(key: str, model: type[BaseModel] | None) -> str:
    sections = _sections_holding(key, model)
    if len(sections) == 1:
        return f"{key!r} is a key of {sections[0]}:, not of this level; indent it under {sections[0]}: by two spaces"
    if sections:
        named = " or ".join(f"{s}:" for s in sections)
        return f"{key!r} is a key of {named}, not of this level; indent it by two spaces under the one meant"
    allowed = sorted({info.alias or name for name, info in (model.model_fields.items() if model else [])})
    close = difflib.get_close_matches(key, allowed, n=1, cutoff=0.6)
    if close:
        return f"unknown key {key!r}; did you mean {close[0]!r}?"
    listed = ", ".join(allowed)
    return f"unknown key {key!r}; allowed keys here: {listed}" if listed else f"unknown key {key!r}; remove it"


def error_fields(err: Mapping[str, Any], root: type[BaseModel]) -> dict[str, Any]:
    """One pydantic error as the fields of a :class:`~printdeck.errors.PrintdeckError`:
    ``key`` (the dotted YAML keys), ``problem``, ``fix``, the ``value`` refused and the
    ``code`` of the kind of problem (see :func:`error_code`).

    Args:
        err: One item of ``ValidationError.errors()``.
        root: The model validated (``ThemeSpec``).
    """
    extra = err["type"] == "extra_forbidden"
    parts, parent = _walk(root, tuple(err["loc"]), keep_last=extra)
    code = error_code(err)
    where = _dotted(parts, extra)
    if extra:
        problem, _, fix = _unknown_key(parts[-1], parent).partition("; ")
        return {"key": where, "problem": problem, "fix": fix or None, "code": code}
    if err["type"] == "missing":
        return {"key": where, "problem": "missing", "fix": "add this key", "code": code}
    shorten = "shorten it" if err["type"] == "string_too_long" else None  # a long word: what to do is plain
    return {
        "key": where,
        "problem": f"expected {_expected(err)}",
        "value": err.get("input"),
        "fix": shorten or value_fix(err, where),
        "code": code,
    }


def _dotted(parts: Sequence[str], extra: bool) -> str:
    """An error's theme key: its dotted path, an unknown key's section's for an unknown key."""
    return ".".join(parts[:-1] if extra else parts) or "(top level)"


def _key_of(err: Mapping[str, Any], root: type[BaseModel]) -> str:
    """The theme key of one pydantic error, as :func:`error_fields` gives it."""
    extra = err["type"] == "extra_forbidden"
    return _dotted(_walk(root, tuple(err["loc"]), keep_last=extra)[0], extra)


def describe_error(err: Mapping[str, Any], root: type[BaseModel]) -> str:
    """One pydantic error as ``dotted.key: what is wrong; fix`` (see :func:`error_fields`)."""
    return str(PrintdeckError(**error_fields(err, root)))


def validation_error(
    exc: ValidationError, root: type[BaseModel], source: str | None, *, is_argument: bool = False
) -> PrintdeckError:
    """The first problem of a ``ValidationError`` as a :class:`PrintdeckError` with its
    fields (the file, the key, the value, the problem), plus how many more problems.

    Args:
        exc: The error pydantic raised.
        root: The model validated.
        source: The theme file's name (``None`` for a call's arguments).
        is_argument: The keys are arguments of a call (see ``printdeck.theme.run_options``).
    """
    errors = sorted(exc.errors(), key=lambda err: not _left_out_of_section(err, root))  # the cause first
    others = tuple(dict.fromkeys(_key_of(err, root) for err in errors[1:]))  # where the next ones are
    return PrintdeckError(
        source=source, is_argument=is_argument, more=len(errors) - 1, more_at=others, **error_fields(errors[0], root)
    )


def _left_out_of_section(err: Mapping[str, Any], root: type[BaseModel]) -> bool:
    """Whether ``err`` is a key that belongs in a section but stands outside it: the cause of
    that section's own error (``deck:`` left empty, ``got null``), so said first."""
    if err["type"] != "extra_forbidden":
        return False
    parts, parent = _walk(root, tuple(err["loc"]), keep_last=True)
    return bool(_sections_holding(parts[-1], parent))


def describe_validation_error(exc: ValidationError, root: type[BaseModel], source: str) -> str:
    """The first problem of a ``ValidationError`` as one line naming the file:
    ``"<file>: <dotted.key>: <what is wrong>"``, plus how many more problems."""
    return str(validation_error(exc, root, source))
