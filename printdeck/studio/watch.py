"""One source of truth with ``theme.yaml``: the studio watches the file (a stat a poll,
its text only when the stat changed) and takes in an edit made outside it (an editor, a
script) when the edit loads; one that does not load is shown beside its field and
blocks every write until the person chooses to keep the file or the page's version."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from printdeck.errors import PrintdeckError
from printdeck.studio import theme_folder
from printdeck.studio.deck_settings import SETTING_KEYS
from printdeck.studio.wording import problem_of, touches
from printdeck.studio.workspace import Workspace

RELOADED = "theme.yaml changed outside: reloaded"


@dataclass
class Outside:
    """What the watch last found: ``state`` is ``same``, ``reloaded`` (an outside edit
    taken in) or ``conflict`` (an outside edit that does not load: ``error`` and its
    setting ``key``, writes blocked; ``words``: the error in the page's words), ``chosen``
    ``file`` while the person fixes it."""

    state: str = "same"
    message: str = ""
    error: str | None = None
    words: str | None = None
    key: str | None = None
    chosen: str | None = None
    digest: str = ""

    def view(self) -> dict[str, Any]:
        """The page's copy (JSON)."""
        return {
            "state": self.state,
            "message": self.message,
            "error": self.error,
            "words": self.words,
            "key": self.key,
            "chosen": self.chosen,
        }


class Watch:
    """The watch over one workspace's ``theme.yaml`` (call :meth:`poll` often: cheap)."""

    def __init__(self, space: Workspace) -> None:
        self.space = space
        self.outside = Outside()
        self._stat: tuple[int, int] | None = self._stat_now()

    def _stat_now(self) -> tuple[int, int] | None:
        try:
            stat = (self.space.folder / theme_folder.THEME_FILE).stat()
        except OSError:
            return None
        return (stat.st_mtime_ns, stat.st_size)

    def poll(self) -> Outside:
        """Look at the file (a stat; its text only when the stat changed): take in an
        edit that loads, or block writes on one that does not."""
        stat = self._stat_now()
        if stat == self._stat:
            return self.outside
        with self.space.lock:
            self._stat = stat
            text = theme_folder.current_text(self.space.folder)
            if text is None or text == self.space.written:
                return self.outside
            digest = hashlib.sha256(text.encode()).hexdigest()
            if digest == self.outside.digest:
                return self.outside
            self.outside = self._take_in(text, digest)
            self.space.blocked = self.outside.words if self.outside.state == "conflict" else None
            return self.outside

    def _take_in(self, text: str, digest: str) -> Outside:
        folder = self.space.folder
        try:
            doc = theme_folder.read_theme(folder)
        except PrintdeckError as exc:
            problem = problem_of(exc, folder)
            return Outside("conflict", "", problem.line, problem.words, problem.key, digest=digest)
        _, refused = self.space.check(doc)
        if refused is not None and refused.key and any(touches(refused.key, k) for k in SETTING_KEYS):
            return Outside("conflict", "", refused.line, refused.words, refused.key, digest=digest)
        self.space.take_in(doc, text)
        return Outside("reloaded", RELOADED, digest=digest)

    def choose(self, keep: str) -> None:
        """The person's choice on an outside edit that does not load: ``page`` writes the
        page's version (the file is kept as ``theme.edited-outside.yaml``); ``file``
        leaves the file to be fixed (writes stay blocked until it loads).

        Raises:
            ValueError: ``keep`` is neither, or there is nothing to choose.
        """
        if keep not in ("page", "file"):
            raise ValueError("keep: expected 'page' or 'file'")
        with self.space.lock:
            if self.outside.state != "conflict":
                raise ValueError("keep: theme.yaml needs no choice now")
            if keep == "file":
                self.outside.chosen = "file"
                return
            self.space.blocked = None
            self.space.commit()
            self._stat = self._stat_now()
            self.outside = Outside(
                "same", "The page's settings were saved; the file's version is theme.edited-outside.yaml"
            )
