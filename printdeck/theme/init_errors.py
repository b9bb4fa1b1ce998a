"""How ``printdeck init``'s errors are said: of the argument the user gave (``images``,
``words``, ``font``) and of the files in it, never of a theme key or a copy of a picture that
no theme was written for."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from pathlib import Path

from printdeck.errors import SAME_PICTURE, PrintdeckError, shown
from printdeck.theme.spec import ThemeSpec
from printdeck.theme.word_list import argument_error


@contextlib.contextmanager
def said_of(argument: str) -> Iterator[None]:
    """Inside: an error a shared check raised about a file (keyed to the ``where`` it was given,
    ``words``) is said of the argument ``argument``, its fields kept; one said of an
    argument already (a word list's line naming no picture of ``images``) stays so."""
    try:
        yield
    except PrintdeckError as exc:
        if exc.is_argument:
            raise
        raise argument_error(argument, exc.problem, exc.fix, source=exc.source, code=exc.code) from None


_PICTURE_KEY = re.compile(r"symbols\.(\d+)(?:\.faces\.(\d+))?\.(?:photo|image)")
"""A picture's theme key: a symbol's (``symbols.3.photo``) or a face's (``symbols.3.faces.0.image``)."""


@contextlib.contextmanager
def said_of_sources(
    spec: ThemeSpec, theme_dir: Path, copies: list[tuple[Path, Path]], pictures_folder: str
) -> Iterator[None]:
    """Inside: an error about a picture copied into ``theme_dir/images`` is said of the file
    the user gave (``--images``), not of the copy (removed again) or its theme key (no theme
    was written): "IMG_0009 (1).jpg is the same picture as IMG_0009.jpg".

    Raises:
        PrintdeckError: What was raised inside, about ``images`` where it was a copied picture.
    """
    try:
        yield
    except PrintdeckError as exc:
        source_of = {copy.resolve(): source for source, copy in copies}

        def given(key: str) -> Path | None:
            found = _PICTURE_KEY.fullmatch(key)
            if found is None:
                return None
            entry = spec.symbols[int(found.group(1))]
            if found.group(2) is not None and not isinstance(entry, str) and entry.faces:
                entry = entry.faces[int(found.group(2))]
            ref = entry if isinstance(entry, str) else (entry.photo or entry.image)
            return source_of.get((theme_dir / str(ref)).resolve()) if ref else None

        mine = given(exc.key or "")
        if mine is None:
            raise
        other = _PICTURE_KEY.search(exc.problem or "")
        twin = given(other.group(0)) if other is not None and exc.code == SAME_PICTURE else None
        if twin is not None:
            raise argument_error(
                "images", f"is the same picture as {shown(twin)}", "remove one of the two", source=mine, code=exc.code
            ) from None
        problem = (exc.problem or str(exc)).replace(shown(theme_dir / pictures_folder / mine.name), shown(mine))
        raise argument_error("images", problem, exc.fix, source=mine, code=exc.code) from None
