"""A symbol change the page asks for: its keys (name, scale, crop...), taking it out,
putting the symbols in another order, making one a face of another, forgetting a refused
file; each checked by printdeck's theme model before it is saved.

A change the model refuses for the very symbol changed (a scale of 9) is not saved:
:class:`~printdeck.studio.workspace.Refused` names it and the page shows why on its tile.
Any other problem is saved with the change (see :mod:`printdeck.studio.workspace`).
"""

from __future__ import annotations

from typing import Any

from printdeck.studio.symbol_list import Item, edited, with_face
from printdeck.studio.workspace import Refused, Workspace


def change_symbol(space: Workspace, uid: int, changes: dict[str, Any]) -> None:
    """Change one symbol's keys (name, scale, rotate, focus, zoom...).

    Raises:
        KeyError: no such symbol.
        ValueError: a key that kind of symbol does not have.
        Refused: the theme model refuses the new values (nothing is saved).
    """
    with space.lock:
        index = space.find(uid)
        item = space.items[index]
        data = edited(item, changes)
        items = list(space.items)
        items[index] = Item(data, uid=item.uid, group=item.group)
        _, problem = space.check({**space.settings, "symbols": [i.data for i in items]})
        if problem is not None and problem.symbol_index == index:
            raise Refused(problem, f"symbols.{index}")
        space.item_errors.pop(uid, None)
        space.commit(items=items)


def remove_symbol(space: Workspace, uid: int) -> None:
    """Take a symbol out of the theme; its picture, if no other symbol names it and
    it is in one of the studio's folders (``images/``...), is moved out of the folder
    and kept for Undo (see :mod:`printdeck.studio.history`).

    Raises:
        KeyError: no such symbol.
    """
    with space.lock:
        index = space.find(uid)
        space.item_errors.pop(uid, None)
        space.commit(items=space.items[:index] + space.items[index + 1 :])


def reorder(space: Workspace, uids: list[int]) -> None:
    """Put the symbols in the order of ``uids`` (every symbol, each once).

    Raises:
        ValueError: ``uids`` is not the symbols' ids in some order.
    """
    with space.lock:
        by_uid = {item.uid: item for item in space.items}
        if sorted(uids) != sorted(by_uid):
            raise ValueError("order: give every symbol's id once")
        space.commit(items=[by_uid[u] for u in uids])


def dismiss(space: Workspace, uid: int) -> None:
    """Forget a refused file or word (its tile goes).

    Raises:
        KeyError: no such refused file.
    """
    with space.lock:
        kept = [r for r in space.rejected if r["uid"] != uid]
        if len(kept) == len(space.rejected):
            raise KeyError(uid)
        space.keep_rejected(kept)


def pair(space: Workspace, uid: int, other_uid: int) -> None:
    """Make symbol ``other_uid`` a face of symbol ``uid`` (a picture dropped on a word, a
    word on a picture): one symbol with both's faces, pictures first, where ``uid`` was.

    Raises:
        KeyError: no such symbol.
        ValueError: the same symbol twice, a folder, or more than 8 faces.
        Refused: printdeck refuses the symbol with faces (nothing is saved).
    """
    with space.lock:
        index, other = space.find(uid), space.find(other_uid)
        if index == other:
            raise ValueError("faces: drop a symbol on another one")
        items = _merged(space, index, space.items[other], other)
        space.item_errors.pop(other_uid, None)
        space.commit(items=items)


def add_face(space: Workspace, uid: int, added: Item) -> None:
    """Make ``added``, a checked picture not yet a symbol of the deck (a file dropped on a
    word's tile), a face of symbol ``uid``: never a symbol of its own first, so a picture
    named as the word it shows ("cat.png" on "cat") is not refused as a second "cat".

    Raises:
        KeyError: no such symbol.
        ValueError: a folder, or more than 8 faces.
        Refused: printdeck refuses the symbol with faces (nothing is saved).
    """
    with space.lock:
        space.commit(items=_merged(space, space.find(uid), added, None))


def _merged(space: Workspace, index: int, added: Item, drop: int | None) -> list[Item]:
    """The deck's items with symbol ``index`` given ``added``'s faces (:func:`with_face`) and
    the item at ``drop`` (the one added, when it was a symbol) taken out, checked (lock held).

    Raises:
        ValueError: a folder, or more than 8 faces.
        Refused: printdeck refuses the symbol with faces.
    """
    target = space.items[index]
    merged = Item(with_face(target, added), uid=target.uid)
    items = [merged if i == index else item for i, item in enumerate(space.items) if i != drop]
    at = items.index(merged)
    _, problem = space.check({**space.settings, "symbols": [i.data for i in items]}, check_files=True)
    if problem is not None and problem.symbol_index == at:
        raise Refused(problem, f"symbols.{at}")
    return items
