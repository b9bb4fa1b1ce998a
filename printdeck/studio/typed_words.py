"""Words typed or pasted into the studio: one symbol a line, a line ``cat = gato`` (or split
by a tab) one symbol of two faces, and a pair whose first word names a symbol of the deck
(the picture ``lion``) that symbol's new face."""

from __future__ import annotations

from typing import Any

import printdeck
from printdeck.errors import PrintdeckError, key_error
from printdeck.studio import symbol_changes, uploads
from printdeck.studio.intake import drop_batch, refused_tile
from printdeck.studio.symbol_list import Item, shown_name, words_of
from printdeck.studio.wording import Problem, problem_of
from printdeck.studio.workspace import Refused, Workspace

__all__ = ["add_words"]


def add_words(space: Workspace, text: str, drop: str | None = None) -> list[dict[str, Any]]:
    """Add the words of a pasted list (one a line) as symbols: a line ``cat = gato`` (or
    split by a tab) as one symbol of two faces, the word and its translation, as
    ``printdeck init --words`` reads it (:func:`printdeck.word_columns`); when a symbol
    of the deck is named as the first word (the picture ``lion``), the second becomes its
    face instead (a parent's "lion = शेर" was refused as a second "lion").

    Returns:
        One result a line, as :func:`~printdeck.studio.intake.add_pictures` (a word
        printdeck refuses, e.g. one already in the deck or with letters no font has, is not
        added; a word given to a symbol as a face has ``joined``).

    Raises:
        Unwritable: ``theme.yaml`` cannot be written: the new symbols are written first,
            then each face given to a symbol of the deck, and what the failed write held
            was not kept (one step of Undo takes back what was).
    """
    lines = words_of(text)
    with space.editing(), drop_batch(space, {}, drop):
        room = uploads.MAX_SYMBOLS - len(space.items)
        results: list[dict[str, Any]] = [{"file": shown, "ok": True} for shown, _ in lines]
        line_of: dict[int, int] = {}  # an item's uid -> its line's number among the lines
        items: list[Item] = []
        joins: list[tuple[int, int, str]] = []  # (line, the symbol's uid, the word that becomes its face)
        for number, (shown, columns) in enumerate(lines):
            refusal = _line_refusal(columns, len(items) >= room)
            if refusal is not None:
                results[number] = refused_tile(space, shown, problem_of(refusal, space.folder), drop)
                continue
            named = _named_symbol(space, columns or ())
            if named is not None:  # "lion = शेर" beside the picture "lion": its word face
                joins.append((number, named, (columns or ("", ""))[1]))
                continue
            items.append(_word_item(columns or ()))
            line_of[items[-1].uid] = number
            results[number]["uid"] = items[-1].uid

        def refuse(item: Item, problem: Problem, repeats: int | None) -> None:
            number = line_of[item.uid]
            results[number] = refused_tile(space, lines[number][0], problem, drop, repeats, item)

        space.add_items(items, refuse)
        for number, uid, word in joins:
            results[number] = _joined(space, uid, word, lines[number][0], drop)
    return results


def _named_symbol(space: Workspace, columns: tuple[str, ...]) -> int | None:
    """The uid of the deck's symbol named as a pasted pair's first word (``lion = शेर``
    beside the picture ``lion``), which takes the second as a face; None for a line of one
    word, or a first word no symbol (but a folder) is named."""
    if len(columns) != 2:
        return None
    wanted = columns[0].casefold()
    with space.lock:
        return next((i.uid for i in space.items if not i.group and shown_name(i).casefold() == wanted), None)


def _joined(space: Workspace, uid: int, word: str, shown: str, drop: str | None) -> dict[str, Any]:
    """Make ``word`` a face of symbol ``uid`` (:func:`~.symbol_changes.add_face`): the line's
    result, or its refusal (more than 8 faces, a word the deck has, a word no font has)."""
    try:
        symbol_changes.add_face(space, uid, Item({"text": word}))
    except Refused as refused:
        return refused_tile(space, shown, refused.problem, drop)
    except (KeyError, ValueError) as exc:
        return refused_tile(space, shown, problem_of(key_error("symbols", str(exc)), space.folder), drop)
    return {"file": shown, "ok": True, "uid": uid, "joined": True}


def _line_refusal(columns: tuple[str, ...] | None, full: bool) -> PrintdeckError | None:
    """Why a pasted line is not added before printdeck sees it: neither a word nor a word and
    its translation, or no room left in the theme."""
    if columns is None:
        return key_error("symbols", printdeck.WORD_ROW_PROBLEM)  # as init says it of a word list's line
    if full:
        return key_error("symbols", f"a theme holds at most {uploads.MAX_SYMBOLS} symbols")
    return None


def _word_item(columns: tuple[str, ...]) -> Item:
    """A pasted line's symbol: its word, or its two words as two faces."""
    if len(columns) == 1:
        return Item({"text": columns[0]})
    return Item({"faces": [{"text": word} for word in columns]})
