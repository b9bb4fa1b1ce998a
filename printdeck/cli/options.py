"""Click options made from the library's option table (``printdeck.api.option_table``):
each option's flag, type, range, choices, default and help come from its field in
``printdeck.theme.run_options``, never written here a second time.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import click

from printdeck.api import OptionInfo
from printdeck.errors import PrintdeckError

F = TypeVar("F", bound=Callable[..., Any])


def _click_type(info: OptionInfo) -> click.ParamType | type | None:
    if info.kind == "integer":
        return click.IntRange(
            None if info.minimum is None else int(info.minimum), None if info.maximum is None else int(info.maximum)
        )
    if info.kind == "number":
        return click.FloatRange(info.minimum, info.maximum)
    if info.kind == "choice":
        return click.Choice(list(info.choices))
    return None  # a length or a paper: text the library parses and checks


def _help(info: OptionInfo) -> str:
    extra = []
    if info.kind == "length" and info.minimum is not None and info.maximum is not None:
        extra.append(f"{info.minimum:g}mm to {info.maximum:g}mm")
    elif info.unit and info.kind in ("integer", "number"):
        extra.append(info.unit)
    return info.help if not extra else f"{info.help.rstrip('.')} ({', '.join(extra)})."


def spec_option(info: OptionInfo) -> Callable[[F], F]:
    """The click option of ``info``: a ``--x/--no-x`` switch for a yes/no that keeps the
    theme's value when absent, a range or a choice where the spec has one."""
    if info.kind == "boolean":
        negative = "--no-" + info.flag.removeprefix("--")
        return click.option(f"{info.flag}/{negative}", info.name, default=info.default, help=_help(info))
    default = info.default
    if info.kind == "length" and default is not None:
        default = f"{default:g}mm"
    return click.option(
        info.flag,
        info.name,
        type=_click_type(info),
        default=default,
        show_default=default is not None,
        help=_help(info),
    )


def spec_options(table: Sequence[OptionInfo]) -> Callable[[F], F]:
    """Every option of ``table`` on a command, in the table's order."""

    def decorate(command: F) -> F:
        for info in reversed(table):
            command = spec_option(info)(command)
        return command

    return decorate


def as_typed(exc: PrintdeckError, table: Sequence[OptionInfo]) -> PrintdeckError:
    """``exc`` with an argument's name worded as the option the user typed
    (``png_margin_mm`` -> ``--png-margin``); any other error as it is."""
    flags = {info.name: info.flag for info in table}
    if not exc.is_argument or (exc.key or "").partition(".")[0] not in flags:
        return exc
    more_at = tuple(_typed(key, flags) for key in exc.more_at)  # ``paper.1``: --paper (height)
    return exc.with_key(_typed(exc.key or "", flags)).with_more_at(more_at)


def _typed(key: str, flags: dict[str, str]) -> str:
    """An argument's key as the option typed: ``paper.0`` -> ``--paper (width)``; a key of
    no option in ``flags`` as it is."""
    name, _, inside = key.partition(".")  # ``paper.0``: the paper's width
    if name not in flags:
        return key
    part = _PARTS.get(name, {}).get(inside, f"item {inside}")
    return flags[name] + (f" ({part})" if inside else "")


_PARTS = {"paper": {"0": "width", "1": "height"}}
"""The parts of an option given as one word (``--paper WIDTHxHEIGHT``), by their place."""
