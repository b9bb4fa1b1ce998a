"""Undo and redo for the studio: every saved change of the theme folder is one step.

A step holds the deck before and after (settings, symbols with their page ids, and the
exact text of ``theme.yaml``), the files of the studio's own folders (``images/``,
``backs/``, ``fonts/``) it put in or took out, and a short label ("Diameter 90 mm → 85
mm"). The steps are found by comparing the states, so every change that goes through
:meth:`Workspace.commit <printdeck.studio.workspace.Workspace.commit>` is covered, new
kinds of change included, with nothing to register.

A file no symbol or setting names any more (a symbol removed, an upload undone, a back
picture replaced) is moved out of the folder into a private store (a ``0700`` folder of
the system's temporary folder, files ``0600``), from where Undo or Redo puts it back;
the store is emptied when a step that needs a file falls out of the history (at most
:data:`MAX_STEPS` steps and :data:`MAX_TEXT_BYTES` of ``theme.yaml`` texts) and removed
when the studio stops. An edit of ``theme.yaml`` made outside the studio that loads is a
step too (its text kept exactly, for Redo); it moves no file.
"""

from __future__ import annotations

import contextlib
import re
import shutil
import tempfile
import weakref
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from printdeck.errors import PrintdeckError
from printdeck.studio.deck_settings import setting_default
from printdeck.studio.labels import label_of
from printdeck.studio.symbol_list import FACE_KEYS, Item, face_name, name_from_path, shown_name
from printdeck.studio.theme_folder import make_folder, unwritable

OWNED_FOLDERS = ("images", "backs", "fonts")
"""The folders the studio copies files into: a file there that the theme stops naming is
moved out (and back by Undo); files elsewhere in the theme folder are never moved."""
MAX_STEPS = 100
"""Most steps kept to undo (the oldest go first)."""
MAX_TEXT_BYTES = 40_000_000
"""Most bytes of ``theme.yaml`` texts the history keeps (a deck of 5000 symbols writes
about 250 kB a state); the oldest steps go first."""
OUTSIDE_LABEL = "theme.yaml edited outside the studio"


@dataclass(frozen=True)
class State:
    """The deck at one moment: ``settings`` (the theme mapping without ``symbols``),
    ``items`` (with their page ids) and ``text``, ``theme.yaml`` as it was written or read.
    Never changed once made (the workspace replaces its mappings, never edits them)."""

    settings: dict[str, Any]
    items: tuple[Item, ...]
    text: str

    def same_deck(self, other: State) -> bool:
        """Whether both hold the same settings and symbols (the text may differ)."""
        return self.settings == other.settings and _items_key(self.items) == _items_key(other.items)


def _items_key(items: Iterable[Item]) -> list[tuple[int, dict[str, Any]]]:
    return [(item.uid, item.data) for item in items]


@dataclass(frozen=True)
class Step:
    """One change: the states before and after it, what it did in words (``label``, and
    ``detail`` for the page: ``{"key", "before", "after"}`` when one setting changed), and
    the files of the studio's folders it ``added`` to and ``removed`` from the folder
    (``kept``: those of them the store holds now)."""

    before: State
    after: State
    label: str
    detail: dict[str, Any]
    added: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    kept: dict[str, Path] = field(default_factory=dict)
    """Where the store keeps this step's files that are out of the folder now: its
    ``removed`` ones while it is done, its ``added`` ones while it is undone."""

    def view(self) -> dict[str, Any]:
        """The page's copy (JSON)."""
        return {"label": self.label, **self.detail}


class Conflict(PrintdeckError):
    """Undo or Redo would put a file back where another file now is: nothing was changed."""


@dataclass
class FileStore:
    """Files moved out of the theme ``folder`` while a step may still need them; kept in a
    private temporary folder made on first use, each under a name of its own (the same
    path may be out twice: a picture removed, another of its name added and undone)."""

    folder: Path
    _dir: Path | None = None
    _count: int = 0

    def _store_dir(self) -> Path:
        if self._dir is None or not self._dir.is_dir():
            try:
                self._dir = Path(tempfile.mkdtemp(prefix="printdeck-undo-"))  # 0700, this user's
            except OSError as exc:
                raise unwritable(Path(tempfile.gettempdir()), exc) from None
            weakref.finalize(self, shutil.rmtree, self._dir, True)  # gone at exit, even without close()
        return self._dir

    def take_out(self, rel: str) -> Path | None:
        """Move ``folder/rel`` into the store; where it is kept (None when there is no such file).

        Raises:
            Unwritable: The store cannot hold it (a full disk); the file stays where it was.
        """
        path = self.folder / rel
        if not path.is_file() or path.is_symlink():
            return None
        self._count += 1
        kept = self._store_dir() / f"{self._count:06d}{path.suffix}"
        try:
            shutil.move(path, kept)
        except OSError as exc:
            kept.unlink(missing_ok=True)
            raise unwritable(self.folder, exc) from None
        return kept

    def in_the_way(self, rel: str, kept: Path) -> bool:
        """Whether putting ``kept`` back as ``rel`` would write over a different file now there."""
        path = self.folder / rel
        if not (path.exists() or path.is_symlink()):
            return False
        return not (path.is_file() and not path.is_symlink() and _same_bytes(path, kept))

    def put_back(self, rel: str, kept: Path) -> None:
        """Move ``kept`` from the store back into the folder as ``rel`` (a file with the
        same bytes already there is kept: see :meth:`in_the_way`).

        Raises:
            Unwritable: The folder cannot be written.
        """
        path = self.folder / rel
        if path.is_file() and not path.is_symlink():
            kept.unlink(missing_ok=True)
            return
        make_folder(path.parent, self.folder)
        try:
            shutil.move(kept, path)  # its mode as it was: 0600 when the studio wrote it
        except OSError as exc:
            raise unwritable(self.folder, exc) from None

    @staticmethod
    def discard(kept: Iterable[Path]) -> None:
        """Delete stored files no step can put back any more."""
        for path in kept:
            with contextlib.suppress(OSError):
                path.unlink()

    def close(self) -> None:
        """Delete the store (the studio stops): the files in it are gone for good."""
        if self._dir is not None:
            shutil.rmtree(self._dir, ignore_errors=True)
            self._dir = None


def _same_bytes(first: Path, second: Path) -> bool:
    try:
        return first.stat().st_size == second.stat().st_size and first.read_bytes() == second.read_bytes()
    except OSError:
        return False


@dataclass
class History:
    """The steps of one studio run: ``steps[:cursor]`` can be undone, the rest redone."""

    store: FileStore
    steps: list[Step] = field(default_factory=list)
    cursor: int = 0

    @classmethod
    def of(cls, folder: Path) -> History:
        """An empty history for the theme ``folder``."""
        return cls(FileStore(folder))

    def record(self, step: Step) -> None:
        """Keep ``step`` as the newest (the steps that were undone can no longer be redone,
        nor the oldest undone once past the bounds: the files they kept are deleted)."""
        dropped = self.steps[self.cursor :]
        del self.steps[self.cursor :]
        self.steps.append(step)
        while len(self.steps) > MAX_STEPS or (len(self.steps) > 1 and self._text_bytes() > MAX_TEXT_BYTES):
            dropped.append(self.steps.pop(0))
        self.cursor = len(self.steps)
        for old in dropped:
            self.store.discard(old.kept.values())
            old.kept.clear()

    def _text_bytes(self) -> int:
        texts = {id(s.before.text): len(s.before.text) for s in self.steps}
        texts |= {id(s.after.text): len(s.after.text) for s in self.steps}
        return sum(texts.values())

    def kept_files(self) -> list[Path]:
        """Every file the store holds for a step (what Undo and Redo can still put back)."""
        return [path for step in self.steps for path in step.kept.values()]

    def to_undo(self) -> Step | None:
        """The step Undo would take back."""
        return self.steps[self.cursor - 1] if self.cursor > 0 else None

    def to_redo(self) -> Step | None:
        """The step Redo would make again."""
        return self.steps[self.cursor] if self.cursor < len(self.steps) else None

    def view(self) -> dict[str, Any]:
        """The page's copy: what Undo and Redo would do (``None``: nothing) and how many."""
        undo, redo = self.to_undo(), self.to_redo()
        return {
            "undo": None if undo is None else undo.view(),
            "redo": None if redo is None else redo.view(),
            "undo_count": self.cursor,
            "redo_count": len(self.steps) - self.cursor,
        }


def named_files(doc: dict[str, Any]) -> set[str]:
    """The paths in the studio's folders (:data:`OWNED_FOLDERS`) that ``doc`` (a theme
    mapping) names anywhere, as it names them (the disk is not looked at: see
    :func:`files_in`)."""
    found: set[str] = set()
    stack: list[Any] = [doc]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
        elif isinstance(node, str) and node.split("/", 1)[0] in OWNED_FOLDERS and ".." not in node.split("/"):
            found.add(node)
    return found


def files_in(folder: Path, paths: Iterable[str]) -> tuple[str, ...]:
    """Those of ``paths`` that are plain files in ``folder`` now, sorted."""
    return tuple(sorted(p for p in paths if (folder / p).is_file() and not (folder / p).is_symlink()))


# -- what a step did, in words --------------------------------------------------------------


def describe(before: State, after: State) -> tuple[str, dict[str, Any]]:
    """The label of the change from ``before`` to ``after`` and, when it is one setting,
    ``{"key", "before", "after"}`` (values as the page shows them) so the page can name
    the setting by its own control's label."""
    settings = _changed_settings(before.settings, after.settings)
    items = _changed_items(before.items, after.items)
    if len(settings) == 1 and not items:
        key, old, new = settings[0]
        if key.startswith("layout.reroll."):
            return f"re-rolled card {key.rsplit('.', 1)[-1]}", {}
        if key == "layout.pinned":
            return _pins_words(old, new), {}
        before_words, after_words = _setting_words(key, old), _setting_words(key, new)
        return f"{_short_label(key)} {before_words} → {after_words}", {
            "key": key,
            "before": before_words,
            "after": after_words,
        }
    parts = items
    if settings:
        first = _short_label(settings[0][0])
        more = len(settings) - 1
        others = f" and {more} other setting{'s' if more > 1 else ''}" if more else ""
        parts = [*items, f"{first}{others} changed"]
    return "; ".join(parts) or "no change", {}


def _flat(node: Any, prefix: str = "") -> dict[str, Any]:
    if isinstance(node, dict) and (node or not prefix):
        out: dict[str, Any] = {}
        for key, value in node.items():
            out.update(_flat(value, f"{prefix}{key}."))
        return out
    return {prefix.rstrip("."): node}


def _changed_settings(before: dict[str, Any], after: dict[str, Any]) -> list[tuple[str, Any, Any]]:
    old, new = _flat(before), _flat(after)
    keys = list(dict.fromkeys([*new, *old]))
    return [(k, old.get(k), new.get(k)) for k in keys if old.get(k) != new.get(k)]


def _short_label(key: str) -> str:
    """The page's label of a setting without its note in brackets: ``Seed``, ``Cards``."""
    return re.sub(r"\s*\(.*\)$", "", label_of(key)) or key


def _pins_words(old: Any, new: Any) -> str:
    """The touch-ups (``layout.pinned``) that changed, by card: ``touched up card 7``."""
    before = {p.get("card"): p for p in old or [] if isinstance(p, dict)}
    after = {p.get("card"): p for p in new or [] if isinstance(p, dict)}
    cards = sorted((c for c in set(before) | set(after) if before.get(c) != after.get(c)), key=str)
    if len(cards) != 1:
        return f"touched up {len(cards)} cards"
    return f"{'touched up' if cards[0] in after else 'let go of the touch-ups of'} card {cards[0]}"


def _setting_words(key: str, value: Any) -> str:
    """A setting's value as :func:`shown_value` says it; left out of the theme, its default's
    ("Paper A4 → letter", not "default → letter")."""
    if value is None and (default := setting_default(key)) is not None:
        return shown_value(default)
    return shown_value(value)


def shown_value(value: Any) -> str:
    """A value as a person reads it: ``90 mm``, ``on``, ``default``."""
    if value is None:
        return "default"
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, list):
        return ", ".join(shown_value(v) for v in value)
    text = str(value)
    for unit in ("mm", "cm", "in", "pt"):
        number = text.removesuffix(unit)
        if number != text and number.replace(".", "", 1).lstrip("+-").isdigit():
            return f"{number} {unit}"
    return text if len(text) <= 40 else text[:39] + "…"


_ITEM_WORDS = {"scale": "size", "rotate": "turning", "focus": "crop centre", "zoom": "zoom", "color": "colour"}


def _changed_items(before: tuple[Item, ...], after: tuple[Item, ...]) -> list[str]:
    old = {item.uid: item for item in before}
    new = {item.uid: item for item in after}
    added = [new[u] for u in new if u not in old]
    removed = [old[u] for u in old if u not in new]
    merges = _faces_made(removed, old, new)  # "Add as a face": a symbol gone into another's faces
    removed = [item for item in removed if item.uid not in merges]
    parts = []
    if added:
        parts.append("added " + _names(added))
    if removed:
        parts.append("removed " + _names(removed))
    into = {target for target, _ in merges.values()}
    parts += [words for _, words in merges.values()]
    for uid, item in new.items():
        if uid in old and old[uid].data != item.data and uid not in into:
            parts.append(_item_change(old[uid], item))
    kept_old = [u for u in old if u in new]
    kept_new = [u for u in new if u in old]
    if kept_old != kept_new:
        parts.append(_order_change(kept_old, kept_new, new))
    return parts


def _faces_made(removed: list[Item], old: dict[int, Item], new: dict[int, Item]) -> dict[int, tuple[int, str]]:
    """The removed symbols that became a face of another (its faces now hold the removed
    one's word or picture): removed uid -> (that symbol's uid, ``made 'Dog' a face of 'dog'``)."""
    found: dict[int, tuple[int, str]] = {}
    for gone in removed:
        shown_as = {k: v for k, v in gone.data.items() if k in FACE_KEYS}
        for uid, item in new.items():
            if uid not in old or not shown_as:
                continue
            now = [{k: v for k, v in f.items() if k in FACE_KEYS} for f in item.faces()]
            then = [{k: v for k, v in f.items() if k in FACE_KEYS} for f in old[uid].faces()]
            if shown_as in now and shown_as not in then:
                found[gone.uid] = (uid, f"made '{item_name(gone)}' a face of '{item_name(old[uid])}'")
                break
    return found


def _order_change(old: list[int], new: list[int], items: dict[int, Item]) -> str:
    """The change of order in words: two neighbours that changed places are ``swapped`` (the
    order alone cannot say which of them the person moved), else the tiles ``moved``."""
    differ = [k for k, (u, v) in enumerate(zip(old, new)) if u != v]
    if len(differ) == 2 and differ[1] == differ[0] + 1:
        return "swapped " + _names([items[old[differ[0]]], items[old[differ[1]]]])
    return "moved " + _names([items[u] for u in _moved(old, new)])


def _moved(old: list[int], new: list[int]) -> list[int]:
    """The ids whose neighbours changed (a drag of one tile names that tile)."""
    for uid in old:
        rest_old = [u for u in old if u != uid]
        if rest_old == [u for u in new if u != uid]:
            return [uid]
    return [u for u, v in zip(old, new) if u != v]


def item_name(item: Item) -> str:
    """How the page names a symbol: its name, its word, or its file's name."""
    data = item.data
    faces = item.faces()
    first = faces[0] if faces else data
    name = data.get("name") or first.get("name") or first.get("text")
    return str(name or name_from_path(item.file or "symbol"))


def _names(items: list[Item]) -> str:
    names = [f"'{item_name(i)}'" for i in items]
    if len(names) > 3:
        return f"{len(names)} symbols ({', '.join(names[:2])}…)"
    return " and ".join([", ".join(names[:-1]), names[-1]]) if len(names) > 1 else names[0]


def _face_change(old: Item, new: Item) -> str:
    """The change of one face's key (its turning): ``'3 × 4 = 12', face '3 × 4': turning
    default → on``; any other change of the faces is said as a change of its faces."""
    before, after = old.faces(), new.faces()
    changed = [i for i, (a, b) in enumerate(zip(before, after)) if a != b]
    if len(before) != len(after) or len(changed) != 1:
        return f"'{item_name(new)}': its faces"
    a, b = before[changed[0]], after[changed[0]]
    keys = [k for k in set(a) | set(b) if a.get(k) != b.get(k)]
    if len(keys) != 1 or keys[0] in FACE_KEYS:
        return f"'{item_name(new)}': its faces"
    return f"'{shown_name(new)}', face '{face_name(b)}': {_key_change(keys[0], a, b)}"


def _key_change(key: str, before: dict[str, Any], after: dict[str, Any]) -> str:
    """A key's change in the page's words: ``turning default → on``."""
    words = _ITEM_WORDS.get(key, key.replace("_", " "))
    return f"{words} {shown_value(before.get(key))} → {shown_value(after.get(key))}"


def _item_change(old: Item, new: Item) -> str:
    keys = [k for k in set(old.data) | set(new.data) if old.data.get(k) != new.data.get(k)]
    if keys == ["name"]:
        return f"renamed '{item_name(old)}' → '{item_name(new)}'"
    if keys == ["faces"]:
        return _face_change(old, new)
    if "faces" in keys:
        return f"'{item_name(new)}': its faces"
    if old.kind != new.kind and {old.kind, new.kind} == {"image", "photo"}:  # the kind button
        return f"'{item_name(new)}': {'cropped as a photo' if new.kind == 'photo' else 'shown whole'}"
    if len(keys) == 1:
        return f"'{item_name(new)}': {_key_change(keys[0], old.data, new.data)}"
    return f"'{item_name(new)}': " + ", ".join(_ITEM_WORDS.get(k, k.replace("_", " ")) for k in sorted(keys))
