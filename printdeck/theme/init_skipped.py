"""What ``printdeck init --images`` leaves out of the folder given, said in one line: its
sub-folders (not read) and its files that are not pictures. Hidden files are not named."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from printdeck.errors import PrintdeckError, shown
from printdeck.theme.theme_paths import IMAGE_SUFFIXES, UNSUPPORTED_SUFFIXES
from printdeck.theme.word_list import argument_error

SAID_NAMES = 3
"""The most sub-folders, or other files, the line names; then "and N more"."""
MAX_COUNTED = 1000
"""The most pictures counted in one sub-folder (a whole photo library is "1000+")."""
TOO_FEW = "too-few-symbols"
"""The ``code`` of ``init``'s refusal of too few symbols (see ``scaffold._theme_text``)."""


@dataclass(frozen=True)
class Skipped:
    """The folder's own pictures (counted), its sub-folders (name, pictures at any depth in
    it) and the names of its files that are not pictures."""

    own: int = 0
    folders: tuple[tuple[str, int], ...] = ()
    files: tuple[str, ...] = ()

    def line(self) -> str:
        """``skipped: sub-folder '2023 holiday' (4 pictures; sub-folders are not read),
        clip.mov, notes.txt (not pictures)``; empty when nothing was skipped."""
        parts = [self.folders_said()] if self.folders else []
        if self.files:
            parts.append(f"{_names(list(self.files))} (not pictures)")
        return f"skipped: {', '.join(parts)}" if parts else ""

    def folders_said(self, only_pictures: bool = False) -> str:
        """The sub-folders (those holding pictures, with ``only_pictures``) as the line says
        them: ``sub-folder '2023 holiday' (4 pictures; sub-folders are not read)``."""
        folders = [(name, n) for name, n in self.folders if n or not only_pictures]
        total = sum(n for _, n in folders)
        capped = "+" if any(n >= MAX_COUNTED for _, n in folders) else ""
        count = f"{total}{capped} picture{'' if total == 1 else 's'}" if total else "no pictures"
        word = "sub-folder" if len(folders) == 1 else "sub-folders"
        return f"{word} {_names([repr(name) for name, _ in folders])} ({count}; sub-folders are not read)"

    @contextlib.contextmanager
    def told_in_refusal(self) -> Iterator[None]:
        """Inside: a refusal of too few symbols also names the sub-folders holding pictures."""
        try:
            yield
        except PrintdeckError as exc:
            if exc.code != TOO_FEW or not any(n for _, n in self.folders):
                raise
            raise exc.with_fix(f"{exc.fix}: move pictures up from {self.folders_said(only_pictures=True)}") from None


def _names(names: list[str]) -> str:
    """At most :data:`SAID_NAMES` names, then how many more: ``a, b, c and 4 more``."""
    said = ", ".join(shown(name) for name in names[:SAID_NAMES])
    return f"{said} and {len(names) - SAID_NAMES} more" if len(names) > SAID_NAMES else said


def _pictures_under(folder: Path) -> int:
    """How many pictures a sub-folder holds at any depth (hidden ones not), at most
    :data:`MAX_COUNTED`; a folder that cannot be listed counts what was listed."""
    found = 0
    for _, dirs, files in os.walk(folder):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        found += sum(1 for f in files if not f.startswith(".") and Path(f).suffix.lower() in IMAGE_SUFFIXES)
        if found >= MAX_COUNTED:
            break
    return min(found, MAX_COUNTED)


DECK_OWN_NAMES = frozenset({"theme.yaml", "images", "fonts", "output", "studio-refused.json"})
"""What printdeck itself keeps in a deck's folder (the theme, copies of its pictures and font,
the builds' default folder, the studio's refused files): never said to be skipped there."""


def skipped_in(folder: Path, theme_dir: Path | None = None) -> Skipped:
    """What ``init --images`` skips in ``folder`` (see :class:`Skipped`); nothing for a folder
    that cannot be listed (the pictures' own reading says why). Where ``folder`` is the deck's
    folder ``theme_dir`` itself, printdeck's own files there (:data:`DECK_OWN_NAMES`) are not
    skipped pictures.

    Raises:
        PrintdeckError: The folder holds no picture of its own while a sub-folder does
            (said of ``images``, naming the sub-folder).
    """
    try:
        entries = sorted(p for p in folder.iterdir() if not p.name.startswith("."))
        deck_folder = theme_dir is not None and folder.resolve() == theme_dir.resolve()
    except OSError:
        return Skipped()
    if deck_folder:
        entries = [p for p in entries if p.name not in DECK_OWN_NAMES]
    pictures = IMAGE_SUFFIXES.keys() | UNSUPPORTED_SUFFIXES  # a .gif is refused by the pictures' reading
    own = sum(1 for p in entries if p.suffix.lower() in pictures and not p.is_dir())
    folders = tuple((p.name, _pictures_under(p)) for p in entries if p.is_dir())
    files = tuple(p.name for p in entries if p.suffix.lower() not in pictures and not p.is_dir())
    skipped = Skipped(own, folders, files)
    if not own and any(n for _, n in folders):
        problem = f"holds no pictures of its own, only its {skipped.folders_said(only_pictures=True)}"
        fix = "give the sub-folder instead, or move the pictures up into this one"
        raise argument_error("images", problem, fix, source=folder)
    return skipped
