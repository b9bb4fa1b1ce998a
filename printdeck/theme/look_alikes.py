"""The theme's symbols that players cannot tell apart (:mod:`printdeck.artwork.lookalike`):
refused, or warned about with ``--allow-look-alike``; and those that become alike printed
in grey or for colour-blind players (warnings)."""

from __future__ import annotations

import dataclasses
import warnings
from collections.abc import Sequence
from functools import lru_cache

from printdeck.artwork import Look, LookAlike, Vision, find_look_alikes, look_of
from printdeck.errors import LookAlikeWarning, PrintdeckError
from printdeck.model import SymbolSpec, drawn_only
from printdeck.theme.spec import Theme

COLOUR_VISIONS = (Vision.PROTANOPIA, Vision.DEUTERANOPIA, Vision.TRITANOPIA)
MOST_NAMED = 3
"""Pairs named in one message; the rest are counted."""


def turn_limit_deg(theme: Theme, symbol: SymbolSpec) -> float:
    """How far the layout may turn ``symbol`` either way, degrees (``layout.rotation``)."""
    rotation = theme.spec.layout.rotation
    if not symbol.rotate or rotation == "none":
        return 0.0
    return 180.0 if rotation == "any" else float(rotation)


_POSES: dict[tuple[object, object], tuple[float, int, int]] = {}
"""Best poses of pairs of drawings compared in this process (see ``find_look_alikes``' memo)."""
MEMO_PAIRS = 200_000


@lru_cache(maxsize=4096)
def _look(face: SymbolSpec, turn_deg: float) -> Look:
    """A face's normalised drawing, made once per drawing and turn (the studio asks often)."""
    return dataclasses.replace(look_of(face, face.name, 0, turn_deg), key=(drawn_only(face), turn_deg))


def look_alikes(
    theme: Theme, symbols: Sequence[SymbolSpec] | None = None, visions: Sequence[Vision] = ()
) -> list[LookAlike]:
    """The pairs of ``symbols`` (default: the theme's), or of faces of different symbols, that
    look alike as seen in ``visions`` (default: as printed in colour)."""
    looks = []
    for group, symbol in enumerate(theme.symbols if symbols is None else symbols):
        for j, face in enumerate(symbol.all_faces):
            label = symbol.name if not symbol.faces else f"{symbol.name} (face {j + 1}: {face.name})"
            looks.append(dataclasses.replace(_look(face, turn_limit_deg(theme, face)), label=label, group=group))
    if len(_POSES) > MEMO_PAIRS:
        _POSES.clear()
    return find_look_alikes(looks, visions or (Vision.NORMAL,), _POSES)


def _sentence(pairs: Sequence[LookAlike]) -> str:
    named = "; ".join(p.reason() for p in pairs[:MOST_NAMED])
    more = len(pairs) - MOST_NAMED
    return named + (f"; and {more} more pair{'s' if more > 1 else ''}" if more > 0 else "")


def check_look_alikes(
    theme: Theme, symbols: Sequence[SymbolSpec] | None = None, *, allow: bool = False, grey: bool = False
) -> None:
    """Refuse symbols players cannot tell apart (as printed: in grey for a grey deck).

    Args:
        theme: The loaded theme (its rotation says how far symbols turn).
        symbols: The symbols to compare (default: every symbol of the theme).
        allow: Warn instead of refusing (``--allow-look-alike``).
        grey: The deck prints in grey: colours are compared as grey tones.

    Raises:
        PrintdeckError: Two symbols (or faces of two symbols) look alike; the message names
            them and what makes them alike.

    Warns:
        LookAlikeWarning: The same, with ``allow``.
    """
    pairs = look_alikes(theme, symbols, (Vision.GREY,) if grey else (Vision.NORMAL,))
    if not pairs:
        return
    text = f"symbols: {_sentence(pairs)}"
    if allow:
        warnings.warn(text, LookAlikeWarning, stacklevel=2)
        return
    raise PrintdeckError(f"{text}; change or remove one of each pair, or pass --allow-look-alike to print them")


def warn_vision_look_alikes(theme: Theme, symbols: Sequence[SymbolSpec] | None = None, *, grey: bool = False) -> None:
    """Warn about symbols distinct in colour that look alike for colour-blind players
    (Machado 2009, severity 1.0) or, with ``grey``, printed in grey (on a black-and-white printer).

    Warns:
        LookAlikeWarning: One warning naming the pairs, and who sees them alike.
    """
    visions = (Vision.NORMAL, *((Vision.GREY,) if grey else ()), *COLOUR_VISIONS)
    pairs = [p for p in look_alikes(theme, symbols, visions) if p.vision is not Vision.NORMAL]
    if pairs:
        warnings.warn(f"symbols: {_sentence(pairs)}", LookAlikeWarning, stacklevel=2)
