"""Errors said of the theme file they come from, whatever found them: the load names its
file in every error, and so does every later step (the design, the proofs, the layout, the
render) for a problem of the theme's content.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from printdeck.errors import PrintdeckError, shown
from printdeck.theme.spec import Theme


@contextlib.contextmanager
def theme_errors_located(theme: Theme) -> Iterator[None]:
    """Errors raised inside said of the theme's file, as the load says its own: a problem
    its content causes once loaded (word colours on its background, a split deck's faces,
    a symbol the layout finds too small, a picture printed too coarse) starts
    ``"<theme file>: "`` (a theme given as data: its :attr:`~Theme.label`, ``<theme>`` or
    ``<YAML text>``, as its load's errors do). A symbol's error said of its picture keeps
    that picture as its ``source``, the theme's file before its message. An error already
    said of another file, one about an argument (an output path, an option), and any error
    of a theme made in code pass as they are.

    Raises:
        PrintdeckError: What was raised inside, located.
    """
    try:
        yield
    except PrintdeckError as exc:
        where = theme_label(theme)
        if where is None or exc.is_argument or str(exc).startswith(f"{where}: "):
            raise
        if exc.source is not None:  # a symbol's error, said of its picture: the theme's file before it
            if not (exc.key or "").startswith("symbols"):
                raise
            raise exc.reworded(f"{where}: {exc}") from None
        raise exc.located(where) from None


def theme_label(theme: Theme) -> str | None:
    """What messages call ``theme``: its file, as printed (:func:`shown`), else the label of
    a theme given as data (``<theme>``, ``<YAML text>``); None for a theme made in code."""
    return shown(theme.path) if theme.path is not None else theme.label
