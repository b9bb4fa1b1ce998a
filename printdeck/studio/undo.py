"""Undo and Redo of the workspace's steps (see :mod:`printdeck.studio.history`).

Each is a change like any other: it needs the revision the page shows (an Undo pressed
on a page that has not seen the latest change yet, an outside edit or another tab's,
changes nothing and answers with the fresh state), writes ``theme.yaml`` atomically (the
exact text of the state it goes back to), moves the step's files back in or out, and
bumps the revision; all or nothing.
"""

from __future__ import annotations

import contextlib
import copy
from pathlib import Path
from typing import Any

from printdeck.studio.history import Conflict, FileStore, State, Step
from printdeck.studio.theme_folder import Unwritable, write_text
from printdeck.studio.workspace import Workspace


class Moved(Exception):
    """Undo or Redo asked of a deck the page has not seen yet (``rev`` is older): nothing done."""


def undo(space: Workspace, rev: int | None = None) -> dict[str, Any]:
    """Take back the latest step (``rev``: the revision the page shows; ``None``: any).

    Returns:
        ``{"undone": {"label", ...}}``: what was taken back.

    Raises:
        Moved: ``rev`` is not the saved revision (the page has not seen a change yet).
        ValueError: There is nothing to undo.
        Conflict: A file it would put back has another file in its place.
        Unwritable: The folder cannot be written or waits for the person's choice.
    """
    with space.lock:
        _check_rev(space, rev)
        step = space.history.to_undo()
        if step is None:
            raise ValueError("undo: there is nothing to undo")
        _restore(space, step, step.before, put_back=step.removed, take_out=step.added)
        space.history.cursor -= 1
        return {"undone": step.view()}


def redo(space: Workspace, rev: int | None = None) -> dict[str, Any]:
    """Make the latest undone step again; as :func:`undo` (``{"redone": ...}``)."""
    with space.lock:
        _check_rev(space, rev)
        step = space.history.to_redo()
        if step is None:
            raise ValueError("redo: there is nothing to redo")
        _restore(space, step, step.after, put_back=step.added, take_out=step.removed)
        space.history.cursor += 1
        return {"redone": step.view()}


def _check_rev(space: Workspace, rev: int | None) -> None:
    if rev is not None and rev != space.rev:
        raise Moved("the deck changed since the page showed it (theme.yaml or another tab); look, then try again")


def _restore(space: Workspace, step: Step, state: State, put_back: tuple[str, ...], take_out: tuple[str, ...]) -> None:
    """Make ``state`` the saved deck again: its exact ``theme.yaml`` text written, the
    ``step``'s files moved in (``put_back``, from the store) or out (``take_out``, into
    it); all or nothing."""
    space.check_writable()
    store = space.history.store
    back = {rel: step.kept[rel] for rel in put_back if rel in step.kept}
    clash = next((rel for rel, kept in back.items() if store.in_the_way(rel, kept)), None)
    if clash is not None:
        raise Conflict(f"{clash}: another file is there now; move or rename it, then try again")
    taken: dict[str, Path] = {}
    returned: list[str] = []
    try:
        for rel in take_out:
            path = store.take_out(rel)
            if path is not None:
                taken[rel] = path
        for rel, kept in back.items():
            store.put_back(rel, kept)
            returned.append(rel)
        space.written = write_text(space.folder, state.text, space.written)
    except Unwritable:
        _undo_moves(store, back, returned, taken)
        raise
    for rel in returned:
        del step.kept[rel]
    step.kept.update(taken)
    before = space.items
    space.settings, space.items = copy.deepcopy(state.settings), list(state.items)
    space.field_errors, space.item_errors = {}, {}
    space.relink_refusals(before)  # a refused copy: of its symbol as restored, or gone with it
    space.rev += 1


def _undo_moves(store: FileStore, back: dict[str, Path], returned: list[str], taken: dict[str, Path]) -> None:
    """Put the files of a restore that failed where they were (as far as the disk lets)."""
    for rel in returned:
        with contextlib.suppress(Unwritable):
            again = store.take_out(rel)
            if again is not None:
                back[rel].parent.mkdir(exist_ok=True)
                again.replace(back[rel])
    for rel, path in taken.items():
        with contextlib.suppress(Unwritable):
            store.put_back(rel, path)
