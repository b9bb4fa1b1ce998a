"""The deck being edited: the theme mapping, its symbols, and every change saved.

Every change is checked by printdeck's own theme model (:func:`printdeck.load_theme`)
before it is kept. A change the model refuses for the very key that was changed (a card
of "big" mm, a scale of 9) is not saved: the page shows the command line's line beside
the field and the folder keeps the last good value. Any other problem (too few symbols
for the deck asked for, a card that no longer fits the paper) is saved with the change
and shown where it belongs, so the folder always holds what the page shows. A setting's
change (the settings form, a new seed, a card's re-roll) is made by
:mod:`printdeck.studio.setting_changes`, a symbol's (its keys, its place, its faces) by
:mod:`printdeck.studio.symbol_changes`; adding symbols is made here.
"""

from __future__ import annotations

import contextlib
import json
import secrets
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import printdeck
from printdeck.errors import SAME_PICTURE, PrintdeckError
from printdeck.studio import deck_settings, refused_links, theme_folder
from printdeck.studio.history import OUTSIDE_LABEL, History, State, Step, describe, files_in, named_files
from printdeck.studio.look_notes import LookNotes
from printdeck.studio.plain_words import Words, same_picture_words, tile_named
from printdeck.studio.symbol_list import Item, as_item, item_view, next_uid, shown_name
from printdeck.studio.wording import Problem, home_shortened, problem_of

LIBRARY_LOCK = threading.RLock()
"""Held while printdeck plans, lays out, draws or builds: one such job at a time (a
layout forks its workers and takes every core; a photo deck's decodes are shared within
a process). PDFium and HiGHS need no more than their own guards (one PDFium call at a
time, see ``printdeck.render.pdf_pixels``; a solver a thread)."""


OnRefused = Callable[[Item, Problem, int | None], None]
"""Told of a new item printdeck refuses: the item, why, and the uid of the symbol it repeats
(the same picture, word or name as that earlier one; None when it is no repeat)."""


class Refused(Exception):
    """A change the theme model refuses; ``problem`` says why, for the field it names."""

    def __init__(self, problem: Problem, field_key: str) -> None:
        super().__init__(problem.line)
        self.problem = problem
        self.field_key = field_key


@dataclass
class Snapshot:
    """One saved state of the deck: what the preview and the build start from."""

    rev: int
    doc: dict[str, Any]
    theme: printdeck.Theme | None
    problem: Problem | None


@dataclass
class Workspace:
    """The theme folder being edited (one per studio run; every method is thread-safe).

    Attributes:
        folder: The theme folder (absolute).
        settings: The theme mapping without ``symbols``.
        items: The ``symbols:`` items, in order.
        rev: Bumped by every saved change.
        item_errors: Errors the latest check or build named, by item uid (cleared by a
            change), in the page's words.
        field_errors: Refused values' errors, by setting key (until the key is set again),
            in the page's words.
        rejected: Files and words printdeck refused: ``{"uid", "file", "error"}``.
        written: The text of ``theme.yaml`` as the studio last wrote or read it.
        blocked: Why writes wait (``theme.yaml`` edited outside and not loading), or None.
        epoch: New each time a workspace is opened: with ``rev`` it orders the page's answers.
        history: The steps Undo and Redo go through (see :mod:`printdeck.studio.history`).
    """

    folder: Path
    settings: dict[str, Any]
    items: list[Item]
    rev: int = 1
    item_errors: dict[int, str] = field(default_factory=dict)
    field_errors: dict[str, str] = field(default_factory=dict)
    rejected: list[dict[str, Any]] = field(default_factory=list)
    written: str | None = None
    lock: threading.RLock = field(default_factory=threading.RLock)
    epoch: str = field(default_factory=lambda: secrets.token_hex(4))
    blocked: str | None = None
    notes: LookNotes = field(default_factory=LookNotes)
    _snapshot: Snapshot | None = None
    history: History = field(init=False)
    _group_depth: int = 0
    _group_start: tuple[State, set[str]] | None = None

    def __post_init__(self) -> None:
        self.history = History.of(self.folder)

    @classmethod
    def open(cls, folder: Path) -> Workspace:
        """Open (or create) a theme folder, writing a new ``theme.yaml`` if it had none.

        Raises:
            PrintdeckError: The folder cannot be made, or its theme file cannot be read.
        """
        folder = folder.expanduser().resolve()
        doc = theme_folder.read_theme(folder)
        raw_items = doc.pop("symbols")
        items = [as_item(raw, _names_folder(folder, raw)) for raw in raw_items]
        space = cls(folder, doc, items, written=theme_folder.current_text(folder))
        index = refused_links.KeyIndex(items)
        for tile in theme_folder.read_refused(folder):
            shares = refused_links.stored_keys(tile.pop("repeats_key"), tile.pop("repeats_file"))
            repeats = index.first_sharing(shares) if shares else None
            if shares and repeats is None:  # a copy of a symbol that left the deck meanwhile: it holds no more
                continue
            space.rejected.append({"uid": next_uid(), **tile, "repeats": repeats, "shares": shares or None})
        if space.written is None:
            space.written = theme_folder.write_theme(folder, space.doc(), None)
        return space

    def doc(self) -> dict[str, Any]:
        """The theme mapping as ``theme.yaml`` holds it."""
        return {**self.settings, "symbols": [dict(item.data) for item in self.items]}

    def check(self, doc: dict[str, Any], check_files: bool = False) -> tuple[printdeck.Theme | None, Problem | None]:
        """Load ``doc`` as printdeck would (files decoded only with ``check_files``)."""
        try:  # decoding files and setting words uses neither HiGHS nor PDFium: no LIBRARY_LOCK
            return printdeck.load_theme(doc, base_dir=self.folder, check_files=check_files), None
        except PrintdeckError as exc:
            return None, problem_of(exc, self.folder, doc)

    def snapshot(self) -> Snapshot:
        """The saved state, loaded (cached until the next change)."""
        with self.lock:
            if self._snapshot is None or self._snapshot.rev != self.rev:
                doc = self.doc()
                theme, problem = self.check(doc)
                self._snapshot = Snapshot(self.rev, doc, theme, problem)
                self._note_item_error(problem)
            return self._snapshot

    def _note_item_error(self, problem: Problem | None) -> None:
        index = problem.symbol_index if problem is not None else None
        if problem is not None and index is not None and index < len(self.items):
            self.item_errors[self.items[index].uid] = problem.words

    def commit(self, settings: dict[str, Any] | None = None, items: list[Item] | None = None) -> None:
        """Keep the new settings and items and write ``theme.yaml`` (atomically): one step
        of the history (see :meth:`editing` for several commits as one). ``settings`` and
        ``items`` are kept as given: make new mappings for a change, never edit the kept ones.

        Raises:
            Unwritable: ``theme.yaml`` cannot be written or waits for the person's choice.
        """
        with self.lock:
            self.check_writable()
            before = self.state_now(), self._named_now()
            new_settings = self.settings if settings is None else settings
            new_items = self.items if items is None else items
            doc = {**new_settings, "symbols": [dict(i.data) for i in new_items]}
            self.written = theme_folder.write_theme(self.folder, doc, self.written)
            self.settings, self.items = new_settings, new_items
            self.item_errors = {}  # the next snapshot (or build) says what is still wrong
            self.relink_refusals(before[0].items)
            self.rev += 1
            if self._group_depth == 0:
                self._record(*before)

    def check_writable(self) -> None:
        """Raise :class:`~printdeck.studio.theme_folder.Unwritable` while writes wait for the person."""
        if self.blocked is not None:
            raise theme_folder.Unwritable(
                f"theme.yaml was changed outside and does not load ({self.blocked}); nothing was saved: "
                'choose "Keep the file (I will fix it)" or "Keep the page\'s settings"'
            )

    def state_now(self) -> State:
        """The deck as saved now, as the history keeps it."""
        return State(self.settings, tuple(self.items), self.written or "")

    def _named_now(self) -> set[str]:
        return named_files(self.doc())

    def _record(self, before: State, named_before: set[str]) -> None:
        """Keep the change from ``before`` to now as a step; files of the studio's folders
        no longer named are moved out of the folder (Undo puts them back)."""
        after = self.state_now()
        if before.same_deck(after):
            return
        named_after = self._named_now()
        kept: dict[str, Path] = {}
        for rel in files_in(self.folder, named_before - named_after):
            with contextlib.suppress(theme_folder.Unwritable):  # it cannot move: it stays in the folder
                path = self.history.store.take_out(rel)
                if path is not None:
                    kept[rel] = path
        label, detail = describe(before, after)
        added = files_in(self.folder, named_after - named_before)
        self.history.record(Step(before, after, label, detail, added, tuple(kept), kept))

    def take_in(self, doc: dict[str, Any], text: str) -> None:
        """Take in ``theme.yaml`` as edited outside the studio (``doc``, read from ``text``)."""
        with self.lock:
            raw_items = doc.get("symbols") or []
            before = self.state_now()
            old_items = list(self.items)
            self.settings = {k: v for k, v in doc.items() if k != "symbols"}
            self.items = [as_item(raw, _names_folder(self.folder, raw)) for raw in raw_items]
            self.relink_refusals(old_items)  # the symbols have new uids
            self.written = text
            self.field_errors = {}
            self.item_errors = {}
            self.rev += 1
            after = self.state_now()
            if not before.same_deck(after):  # a step of its own; it moves no file
                self.history.record(Step(before, after, OUTSIDE_LABEL, {}))

    def relink_refusals(self, before: Sequence[Item]) -> None:
        """Link each refused copy's tile to the symbol it repeats among the symbols now, once
        they changed (``before``: the symbols until then; a commit, ``theme.yaml`` taken in, a
        step undone or redone): the same symbol while its uid is there, else the first that
        holds what the tile repeats (:mod:`~printdeck.studio.refused_links`); the tile goes
        when none does: the refusal no longer holds, and its words would say what is not so."""
        with self.lock:
            present = {item.uid for item in self.items}
            was = {item.uid: item for item in before}
            index: refused_links.KeyIndex | None = None
            tiles = []
            for tile in self.rejected:
                uid = tile.get("repeats")
                if uid is None or uid in present:  # a refusal of the file or word itself, or its symbol kept
                    tiles.append(tile)
                    continue
                index = index or refused_links.KeyIndex(self.items)
                found = index.first_sharing(refused_links.tile_keys(tile, was.get(uid)))
                if found is not None:
                    tiles.append({**tile, "repeats": found})
            if tiles != self.rejected:
                self.keep_rejected(tiles)

    @contextlib.contextmanager
    def editing(self) -> Iterator[None]:
        """Hold the lock for a change made of several commits: one step of the history."""
        with self.lock:
            if self._group_depth == 0:
                self._group_start = self.state_now(), self._named_now()
            self._group_depth += 1
            try:
                yield
            finally:
                self._group_depth -= 1
                if self._group_depth == 0 and self._group_start is not None:
                    start, self._group_start = self._group_start, None
                    self._record(*start)

    def close(self) -> None:
        """The studio stops: the files kept for Undo are deleted."""
        with self.lock:
            self.history.store.close()

    # -- symbols -------------------------------------------------------------------------

    def find(self, uid: int) -> int:
        """The position of item ``uid``.

        Raises:
            KeyError: no such item.
        """
        for index, item in enumerate(self.items):
            if item.uid == uid:
                return index
        raise KeyError(uid)

    def add_items(self, new: list[Item], on_refused: OnRefused) -> list[Item]:
        """Append items, each checked by printdeck (files decoded, words set in a font)
        alone and then with the others (duplicates); refused ones go to ``on_refused``.

        Returns:
            The items kept (saved).
        """
        with self.lock:
            kept = []
            for item in new:
                _, problem = self.check_alone(item)
                if problem is None:
                    kept.append(item)
                else:
                    on_refused(item, problem, None)
            return self.add_checked(kept, on_refused)

    def check_alone(self, item: Item) -> tuple[printdeck.Theme | None, Problem | None]:
        """printdeck's check of one new item by itself (its file decoded, its words set in
        the deck's font): the one-symbol theme, or the problem of that item. Holds no
        lock while it decodes (a twelve-megapixel photo takes a tenth of a second or more),
        so the page's other requests are answered meanwhile."""
        with self.lock:
            text = self.settings.get("text")
        doc = {"symbols": [item.data], **({"text": text} if text else {})}
        theme, problem = self.check(doc, check_files=True)
        if problem is not None and problem.symbol_index != 0:
            return None, None  # a problem of the settings, not of this item: the deck's check says it
        return theme, problem

    def add_checked(self, new: list[Item], on_refused: OnRefused) -> list[Item]:
        """Append items each already checked alone (:meth:`check_alone`): those printdeck
        calls copies of earlier symbols go to ``on_refused``, the others are saved.

        The comparison runs without the lock on the symbols as they are, and is redone
        under the lock only if a change came in meanwhile.

        Returns:
            The items kept (saved).

        Raises:
            Unwritable: ``theme.yaml`` cannot be written (nothing is saved).
        """
        with self.lock:
            rev, before, text = self.rev, list(self.items), self.settings.get("text")
        kept, refused = self._without_duplicates(before, new, text)
        with self.lock:
            if self.rev != rev:
                kept, refused = self._without_duplicates(list(self.items), new, text)
            for item, problem, repeats in refused:
                on_refused(item, problem, repeats)
            if kept:
                self.commit(items=self.items + kept)
            return kept

    def _without_duplicates(
        self, before: list[Item], kept: list[Item], text: object
    ) -> tuple[list[Item], list[tuple[Item, Problem, int | None]]]:
        """The new items kept after dropping, one by one, those printdeck calls copies of
        the symbols ``before`` them, and those dropped with why and the uid of the symbol
        each repeats (None if printdeck names none)."""
        base = len(before)
        refused: list[tuple[Item, Problem, int | None]] = []
        while kept:
            doc = {"symbols": [i.data for i in before + kept], **({"text": text} if text else {})}
            _, problem = self.check(doc, check_files=True)
            index = problem.symbol_index if problem is not None else None
            if problem is None or index is None or index < base:
                return kept, refused
            earlier = problem.repeated_index
            repeats = (before + kept)[earlier].uid if earlier is not None and earlier < index else None
            refused.append((kept[index - base], problem, repeats))
            kept = kept[: index - base] + kept[index - base + 1 :]
        return kept, refused

    def keep_rejected(self, tiles: list[dict[str, Any]]) -> None:
        """Show ``tiles`` as the refused files and words, and keep them in the folder
        (``studio-refused.json``, written atomically) for the next start, a copy's tile with
        what it repeats (its keys, and for an older studio the file of its symbol), by which
        :meth:`open` finds that symbol again."""
        with self.lock:
            self.rejected = tiles
            items = {item.uid: item for item in self.items}  # uids are this run's
            kept = []
            for tile in tiles:
                symbol = items.get(tile.get("repeats") or 0)
                keys = refused_links.tile_keys(tile, symbol) if tile.get("repeats") is not None else frozenset()
                file = symbol.file if symbol is not None else None
                kept.append({**tile, "repeats_key": json.dumps(sorted(keys)) if keys else None, "repeats_file": file})
            theme_folder.write_refused(self.folder, kept)

    def shares_of(self, refused: Item, repeats: int | None) -> list[str] | None:
        """What the refused ``refused`` repeats of the symbol of uid ``repeats``
        (:func:`~printdeck.studio.refused_links.shared_keys`), for its tile; None if it repeats none."""
        with self.lock:
            symbol = next((item for item in self.items if item.uid == repeats), None)
        return refused_links.shared_keys(refused, symbol) if symbol is not None else None

    def note_problem(self, problem: Problem) -> None:
        """Show a build's error beside the symbol or field it names."""
        with self.lock:
            self._note_item_error(problem)

    def look_alike_view(self, after: threading.Thread | None = None) -> dict[str, Any]:
        """The look-alikes of the saved deck (JSON, for ``/api/look-alikes``): by item uid, a
        short note (``looks like 'red again'``) and the full reason. Comparing the drawings
        takes seconds the first time, so the page asks for it after the state. With
        ``after`` (a sheet being drawn), the comparison waits for that thread to end (see
        :meth:`~printdeck.studio.look_notes.LookNotes.of`). Symbols too few for a deck yet
        are compared too (:func:`printdeck.load_symbols`): two alike pictures dropped
        first are marked at once, not only when the deck is big enough."""
        snap = self.snapshot()
        with self.lock:
            items = list(self.items)
        theme = snap.theme
        if theme is None and not self.notes.compared(snap.rev):  # decoded once a revision, not on every ask
            theme = self._symbols_only(snap.doc)
        notes = self.notes.of(theme, snap.rev, items, after)
        return {
            "rev": snap.rev,
            "symbols": {str(uid): {"warning": w, "warning_detail": d} for uid, (w, d) in notes.items()},
        }

    def _symbols_only(self, doc: dict[str, Any]) -> printdeck.Theme | None:
        """``doc`` loaded for comparing its symbols though its deck does not load (too few
        symbols, say); None when the symbols themselves do not load."""
        try:
            return printdeck.load_symbols(doc, base_dir=self.folder)
        except PrintdeckError:
            return None

    def view(self) -> dict[str, Any]:
        """The page's picture of the deck (JSON): settings, symbols, their errors and look-alikes."""
        snap = self.snapshot()
        with self.lock:
            notes = self.notes.known(snap.rev)
            items = [item_view(item, self.item_errors.get(item.uid), *notes.get(item.uid, ())) for item in self.items]
            return {
                "rev": snap.rev,
                "epoch": self.epoch,
                "folder": str(self.folder),
                "folder_shown": home_shortened(self.folder),
                "settings": deck_settings.setting_values(snap.doc),
                "symbols": items,
                "problem": None if snap.problem is None else snap.problem.line,
                "problem_words": None if snap.problem is None else snap.problem.words,
                "problem_key": None if snap.problem is None else snap.problem.key,
                "problem_code": None if snap.problem is None else snap.problem.code,
                "field_errors": dict(self.field_errors),
                "rejected": self._rejected_now(),
                "history": self.history.view(),
            }

    def _rejected_now(self) -> list[dict[str, Any]]:
        """The refused tiles as the page shows them: a copy of a picture named by the tile of
        the symbol it copies as that tile is numbered and named now (removing or moving an
        earlier symbol renumbers it; the words said at refusal would name another)."""
        where = {item.uid: k for k, item in enumerate(self.items)}
        tiles = []
        for tile in self.rejected:
            shown = {key: tile.get(key) for key in PAGE_TILE_KEYS}  # not what links it to its symbol
            k = where.get(tile.get("repeats") or 0, -1)  # uids count from 1
            if tile.get("code") == SAME_PICTURE and k >= 0:
                said = Words("", same_picture_words(tile_named(k, shown_name(self.items[k]))))
                shown["words"] = said.alone()  # as the tile said it when the copy was refused
            tiles.append(shown)
        return tiles


PAGE_TILE_KEYS = ("uid", "file", "error", "words", "drop")
"""What the page gets of a refused tile (the code and the link to the symbol a copy repeats
stay here: 200 tiles must stay a small state)."""


def _names_folder(folder: Path, raw: object) -> bool:
    """Whether a ``symbols:`` item names a folder of pictures."""
    if isinstance(raw, dict) and "folder" in raw:
        return True
    value = raw if isinstance(raw, str) else raw.get("image") or raw.get("photo") if isinstance(raw, dict) else None
    if not isinstance(value, str) or value.startswith("@"):
        return isinstance(value, str) and not value.rsplit("/", 1)[-1].count(".")
    try:
        return (folder / value).is_dir()
    except (OSError, ValueError):
        return False
