"""JSON tables compared as data: floats equal within rounding, so a table made on one CPU
(whose libm rounds the last bits otherwise) still matches on another."""

from __future__ import annotations

import math


def first_difference(now: object, shipped: object, at: str = "") -> str | None:
    """Where ``now`` and ``shipped`` (JSON data) first differ, as a path of keys and indexes,
    floats equal within a relative 1e-9; None if nowhere."""
    if _number(now) and _number(shipped):  # 5 and 5.0 are one number, as == has them
        return None if math.isclose(now, shipped, rel_tol=1e-9, abs_tol=1e-12) else f"{at} ({now!r} != {shipped!r})"
    if isinstance(now, dict) and isinstance(shipped, dict):
        if now.keys() != shipped.keys():
            return f"{at} (keys {sorted(now.keys() ^ shipped.keys())[:5]})"
        found = (first_difference(now[k], shipped[k], f"{at}/{k}") for k in now)
        return next((w for w in found if w is not None), None)
    if isinstance(now, list) and isinstance(shipped, list):
        if len(now) != len(shipped):
            return f"{at} (length {len(now)} != {len(shipped)})"
        found = (first_difference(a, b, f"{at}/{i}") for i, (a, b) in enumerate(zip(now, shipped)))
        return next((w for w in found if w is not None), None)
    return None if now == shipped else f"{at} ({now!r} != {shipped!r})"


def _number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)
