"""The theme's ``symbols:`` items as the page shows and edits them.

Each item keeps the mapping the theme file holds (``{"photo": "images/rex.jpg",
"focus": [0.5, 0.3]}``) and an id for this run of the studio (``uid``), so the page can
name an item while others are added, removed or moved.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import printdeck

FILE_KEYS = ("image", "photo", "folder")
COMMON_FIELDS = {"name", "scale", "rotate"}
FIELDS_BY_KIND = {
    "image": COMMON_FIELDS | {"remove_background"},
    "photo": COMMON_FIELDS | {"focus", "zoom", "remove_background", "shape"},
    "text": COMMON_FIELDS | {"text", "color", "lang"},
    "folder": {"scale", "rotate"},
    "faces": {"name"},
}
FACE_KEYS = ("image", "photo", "text")
FACE_FIELDS = {
    "photo": {"rotate", "focus", "zoom", "shape", "remove_background"},
    "image": {"rotate", "remove_background"},
    "text": {"rotate"},
}
"""A face's own keys the page changes, by the face's kind (``faces.1.rotate``,
``faces.0.focus``): a symbol with faces takes its turning from each face (printdeck refuses
``rotate`` on the symbol itself), and a photo face keeps its own crop."""
MAX_TEXT_VALUE = 500
_uids = itertools.count(1)


def next_uid() -> int:
    """A new id, unique in this process."""
    return next(_uids)


@dataclass
class Item:
    """One ``symbols:`` item: the theme's mapping for it, and its id in this run."""

    data: dict[str, Any]
    uid: int = field(default_factory=next_uid)
    group: bool = False
    """A folder of pictures (``folder:``, or ``image:``/``photo:`` naming a folder)."""

    @property
    def kind(self) -> str:
        """``image``, ``photo``, ``text``, ``faces`` (one symbol shown several ways) or ``folder``."""
        if self.group:
            return "folder"
        if "faces" in self.data:
            return "faces"
        return next((k for k in FACE_KEYS if k in self.data), "folder")

    @property
    def file(self) -> str | None:
        """The path the item names, relative to the theme folder (``None`` for a word); for
        a symbol with faces, its first picture's."""
        return next((found for found in map(face_file, self.faces()) if found is not None), None)

    def faces(self) -> list[dict[str, Any]]:
        """The item's faces as theme mappings: its ``faces``, or the item itself."""
        faces = self.data.get("faces")
        return [dict(f) for f in faces if isinstance(f, dict)] if isinstance(faces, list) else [dict(self.data)]


def face_file(face: dict[str, Any]) -> str | None:
    """The path one face (or a one-face item's mapping) names, relative to the theme folder:
    its picture's or photo's (or folder's); ``None`` for a word."""
    return next((str(face[k]) for k in FILE_KEYS if k in face), None)


def with_face(target: Item, added: Item) -> dict[str, Any]:
    """The mapping of one symbol showing ``target``'s faces and ``added``'s: pictures first
    (face 1), then words; ``target``'s name kept if it has one.

    Raises:
        ValueError: either is a folder, or they would have more than 8 faces.
    """
    if target.group or added.group:
        raise ValueError("faces: a folder of pictures cannot be a face; add its pictures one by one")
    faces = target.faces() + added.faces()
    faces = [f for f in faces if "text" not in f] + [f for f in faces if "text" in f]
    if len(faces) > 8:
        raise ValueError("faces: a symbol has at most 8 faces")
    name = target.data.get("name")
    return {**({"name": name} if name else {}), "faces": faces}


def as_item(raw: object, is_folder: bool) -> Item:
    """An item of the theme file as an :class:`Item` (a bare path is an ``image:``)."""
    data = _mapping(raw)
    return Item(data, group=is_folder or "folder" in data)


def name_in_theme(raw: object) -> str:
    """The name the page shows for an item of the theme file (``images/cat.png``: ``cat``;
    see :func:`shown_name`), without making it an item of this run."""
    return shown_name(Item(_mapping(raw), uid=0))


def _mapping(raw: object) -> dict[str, Any]:
    """An item of the theme file as a mapping (a bare path is an ``image:``)."""
    return {"image": raw} if isinstance(raw, str) else dict(raw) if isinstance(raw, dict) else {"image": str(raw)}


def name_from_path(path: str) -> str:
    """The name printdeck gives a picture at ``path`` (``images/red-ball.png``: ``red ball``),
    as the theme names it (:func:`printdeck.name_from_file`)."""
    return printdeck.name_from_file(Path(path))


def item_view(
    item: Item, error: str | None, warning: str | None = None, warning_detail: str | None = None
) -> dict[str, Any]:
    """What the page needs to draw an item's tile and its controls (JSON): ``error`` is
    printdeck's refusal of it, ``warning`` the symbols it looks like (``warning_detail``: why)."""
    data = item.data
    faces = item.faces()
    word = next((f["text"] for f in faces if "text" in f), None)
    return {
        "uid": item.uid,
        "kind": item.kind,
        "name": shown_name(item),
        "custom_name": "name" in data,
        "file": item.file,
        "text": word,
        "scale": data.get("scale", 1.0),
        "rotate": data.get("rotate"),
        "default_turns": turns_by_default(data),
        "focus": data.get("focus"),
        "zoom": data.get("zoom", 1.0),
        "remove_background": bool(data.get("remove_background", False)),
        "shape": data.get("shape", "circle"),
        "color": data.get("color"),
        "thumb": None if item.kind == "folder" or item.file is None else thumb_url(item),
        "faces": [face_view(f) for f in faces] if item.kind == "faces" else [],
        "photo_face": photo_face(item),
        "picture_face": picture_face(item),
        "error": error,
        "warning": warning,
        "warning_detail": warning_detail,
    }


def thumb_url(item: Item) -> str:
    """Where the page gets an item's tile picture: an image printed without its plain
    background (:func:`cut_out_picture`) has its own address (``?cut=1``), so a picture seen
    before the box was ticked is not shown from the browser's cache."""
    return f"/api/thumbs/{item.uid}" + ("?cut=1" if cut_out_picture(item) is not None else "")


def picture_face(item: Item) -> int | None:
    """The number of the face whose picture the tile shows (its first with a file) of a
    symbol with faces; None for other items, or one of words only."""
    if item.kind != "faces":
        return None
    return next((i for i, f in enumerate(item.faces()) if face_file(f) is not None), None)


def cut_out_picture(item: Item) -> dict[str, Any] | None:
    """The theme mapping of the picture an item's tile shows (the item's own, or its picture
    face's) when it is an image printed without its plain background (``remove_background``);
    None otherwise."""
    number = picture_face(item)
    data = item.faces()[number] if number is not None else dict(item.data)
    return data if "image" in data and data.get("remove_background") else None


def shown_name(item: Item) -> str:
    """The name the page shows for an item: its own, else printdeck's name of its faces
    (:func:`printdeck.concept_name`: ``3 × 4 = 12``), its word or its file's name."""
    faces = item.faces()
    default_name = printdeck.concept_name([face_name(f) for f in faces], ["text" not in f for f in faces])
    return str(item.data.get("name") or default_name)


def face_name(face: dict[str, Any]) -> str:
    """A face's (or a symbol's) name: its own, its word, or its file's name."""
    return str(face.get("name") or face.get("text") or name_from_path(_file_of(face)))


def photo_face(item: Item) -> int | None:
    """The number of the face of a symbol with faces whose picture its tile shows, when that
    face is a photo (its crop is then the page's to show and change, as a photo's is: keys
    ``faces.<n>.focus`` and so on); None otherwise."""
    first = picture_face(item)
    return first if first is not None and "photo" in item.faces()[first] else None


def face_view(face: dict[str, Any]) -> dict[str, Any]:
    """One face of a symbol with faces as the page shows it: its kind, word, name (its own,
    its word, or its file's), ``rotate`` as the theme gives it and whether it turns without,
    and a photo face's crop keys (``focus``, ``zoom``, ``shape``, ``remove_background``)."""
    return {
        "kind": next((k for k in FACE_KEYS if k in face), "image"),
        "text": face.get("text"),
        "name": face_name(face),
        "rotate": face.get("rotate"),
        "default_turns": turns_by_default(face),
        "focus": face.get("focus"),
        "zoom": face.get("zoom", 1.0),
        "shape": face.get("shape", "circle"),
        "remove_background": bool(face.get("remove_background", False)),
    }


def turns_by_default(data: dict[str, Any]) -> bool:
    """Whether a symbol (or a face) with no ``rotate`` may turn, as printdeck lays it out:
    a word with a sign that turned reads as another (``3 × 4``) stays upright
    (:func:`printdeck.turns_into_another_sign`); a photo's turning is the deck's
    ``layout.rotate_photos``, which the page reads from the settings."""
    return not ("text" in data and printdeck.turns_into_another_sign(str(data["text"])))


def _file_of(face: dict[str, Any]) -> str:
    return next((str(face[k]) for k in FILE_KEYS if k in face), "")


def edited(item: Item, changes: dict[str, Any]) -> dict[str, Any]:
    """The item's mapping with ``changes`` applied (``None`` removes a key: its default); a
    key ``faces.<n>.<key>`` changes face ``n`` of a symbol with faces (:data:`FACE_FIELDS`:
    a photo face's crop too); ``kind`` (``photo`` or ``image``) makes a raster picture a
    photo or a picture shown whole (:func:`_as_kind`), before the other changes.

    Raises:
        ValueError: A key this kind of item does not have, or a value that is not a
            plain number, text, true/false or a list of two numbers.
    """
    allowed = FIELDS_BY_KIND[item.kind]
    data = dict(item.data)
    if "kind" in changes:  # a picture cropped as a photo, or a photo shown whole
        data = _as_kind(item, changes["kind"])
        allowed = FIELDS_BY_KIND["photo" if "photo" in data else "image"]
        gone = {"kind"} | ({*PHOTO_ONLY} if "image" in data else set())  # a crop sent with it: none now
        changes = {k: v for k, v in changes.items() if k not in gone}
    for key, value in changes.items():
        face = _face_key(item, key)
        if key not in allowed and face is None:
            raise ValueError(f"{key}: not a setting of a {item.kind} symbol")
        if not _plain(value):
            raise ValueError(f"{key}: expected a number, text, true or false")
        if face is not None:
            data["faces"] = _with_face_key(data["faces"], *face, value)
        elif value is None or (key == "name" and value == ""):
            data.pop(key, None)
        else:
            data[key] = value
    return data


PHOTO_ONLY = ("focus", "zoom", "shape")
"""A photo's keys a picture shown whole has no use for (its crop)."""


def _as_kind(item: Item, kind: object) -> dict[str, Any]:
    """The mapping of raster picture ``item`` as ``kind``: ``photo`` (cropped to its shape
    round what it shows: a photo classed as clip art on a plain background) or ``image``
    (shown whole: clip art classed as a photo), its file kept.

    Raises:
        ValueError: ``kind`` is neither, or the item is no raster picture (an SVG is drawn
            whole and never cropped).
    """
    if kind not in ("photo", "image"):
        raise ValueError("kind: expected photo or image")
    if item.kind not in ("photo", "image") or str(item.file or "").lower().endswith(".svg"):
        raise ValueError("kind: only a picture file (not an SVG) may be a photo or a picture")
    data = dict(item.data)
    path = data.pop(item.kind)
    for key in PHOTO_ONLY if kind == "image" else ("remove_background",):  # a photo as it is: its wall kept
        data.pop(key, None)
    return {kind: path, **data}


def _face_key(item: Item, key: str) -> tuple[int, str] | None:
    """``faces.1.rotate`` of a symbol with faces: (1, ``rotate``), when it has a face 1 and
    :data:`FACE_FIELDS` holds the key for that face's kind; else None."""
    parts = key.split(".")
    if item.kind != "faces" or len(parts) != 3 or parts[0] != "faces":
        return None
    faces = item.data.get("faces")
    number = int(parts[1]) if parts[1].isdigit() else -1
    if not (isinstance(faces, list) and 0 <= number < len(faces) and isinstance(faces[number], dict)):
        return None
    kind = next((k for k in FACE_KEYS if k in faces[number]), "image")
    return (number, parts[2]) if parts[2] in FACE_FIELDS[kind] else None


def _with_face_key(faces: list[Any], number: int, key: str, value: object) -> list[Any]:
    """``faces`` with face ``number``'s ``key`` set to ``value`` (``None``: removed), each
    face a new mapping (the kept ones are never edited)."""
    face = {k: v for k, v in dict(faces[number]).items() if k != key}
    if value is not None:
        face[key] = value
    return [face if i == number else f for i, f in enumerate(faces)]


def _plain(value: object) -> bool:
    if value is None or isinstance(value, (bool, int, float)):
        return True
    if isinstance(value, str):
        return len(value) <= MAX_TEXT_VALUE
    if isinstance(value, list):
        return len(value) == 2 and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value)
    return False


def words_of(text: str) -> list[tuple[str, tuple[str, ...] | None]]:
    """The lines of a pasted list, each with its columns (:func:`printdeck.word_columns`:
    a word, or a word and its translation, ``cat = gato`` or split by one tab; ``None`` for a
    line that is neither): one a line, or, when the text has a single line holding commas
    or several tabs (a spreadsheet's row), a word a cell. Spaces tidied, blank lines and
    ``#`` comments skipped."""
    lines = text.splitlines()
    cells = [cell for cell in lines[0].split("\t") if cell.strip()] if len(lines) == 1 else []
    if len(lines) == 1 and ("," in lines[0] or len(cells) > 2):  # one spreadsheet row: a word a cell
        lines = lines[0].replace("\t", ",").split(",")
    tidied = [" ".join(line.split()) for line in lines]
    return [
        (shown, printdeck.word_columns(line.strip()))  # a row's empty cells at its ends: none
        for shown, line in zip(tidied, lines)
        if shown and not shown.startswith("#")
    ]
