"""The bundled artwork for the page's picker: every SVG of printdeck's ``assets/twemoji``
(the pictures ``@assets/twemoji`` names in a theme), with words to find it by, and adding
a picked one to the deck as a dropped picture is added.

Words: the file's name (``hot-dog``), the emoji's Unicode name (``ATHLETIC SHOE`` for
``trainer``) and its English short name and aliases from the ``emoji`` package
(``eggplant`` for ``aubergine``), from the code point ``symbols.tsv`` gives each file.
A picked picture is copied into the folder's ``images/`` (the folder builds alone) and
checked like an upload (a copy or a look-alike of a symbol already there is refused the
same way); the deck's credit line (``extras.attribution``) gains the Twemoji credit the
licence asks for, in the same Undo step.
"""

from __future__ import annotations

import functools
import unicodedata
from pathlib import Path
from typing import Any

import printdeck
from printdeck.emoji_names import TWEMOJI_FOLDER, bundled_code_points, twemoji_folder
from printdeck.studio import intake, setting_changes, uploads
from printdeck.studio.symbol_list import name_from_path
from printdeck.studio.workspace import Workspace

ART_FOLDER = TWEMOJI_FOLDER
MAX_PICKED = 50
"""Most pictures one request may add."""


def art_folder() -> Path:
    """The folder of the bundled SVGs."""
    return twemoji_folder()


@functools.lru_cache(maxsize=1)
def catalogue() -> tuple[dict[str, Any], ...]:
    """Every bundled picture, by name: ``{"name": "hot dog", "id": "hot-dog", "words":
    ["hot dog", "sausage", ...], "emoji": "🌭"}`` (``id``: the file's stem; ``emoji``: its
    characters, "" if unknown), in name order."""
    points = bundled_code_points()
    out = []
    for path in sorted(art_folder().glob("*.svg")):
        name = path.stem.replace("-", " ")
        words = [name, *_emoji_words(points.get(path.name, ""))]
        words_of = list(dict.fromkeys(w for w in words if w))
        out.append({"name": name, "id": path.stem, "words": words_of, "emoji": points.get(path.name, "")})
    return tuple(out)


def _emoji_words(chars: str) -> list[str]:
    """An emoji's Unicode name and its English short name and aliases, lower case."""
    words = []
    if len(chars) == 1:
        words.append(unicodedata.name(chars, "").lower())
    try:
        import emoji  # noqa: PLC0415 - a dependency of printdeck; an install without it finds by Unicode names
    except ImportError:
        return words
    data = emoji.EMOJI_DATA.get(chars) or emoji.EMOJI_DATA.get(chars + "\ufe0f") or {}
    for said in [data.get("en", ""), *data.get("alias", [])]:
        words.append(said.strip(":").replace("_", " ").lower())
    return words


def art_path(art_id: str) -> Path | None:
    """The file of bundled picture ``art_id`` (``None`` when there is no such picture)."""
    known = {entry["id"] for entry in catalogue()}
    return art_folder() / f"{art_id}.svg" if art_id in known else None


@functools.lru_cache(maxsize=1)
def art_credit() -> str:
    """The credit line printdeck prints for the bundled pictures (the library's own words)."""
    files = [{"image": f"@assets/{ART_FOLDER}/{entry['id']}.svg"} for entry in catalogue()[:7]]
    theme = printdeck.load_theme({"deck": {"symbols_per_card": 3}, "symbols": files}, check_files=False)
    return theme.attribution or ""


def add_art(space: Workspace, art_ids: list[str], drop: str | None = None) -> list[dict[str, Any]]:
    """Add bundled pictures to the deck, copied into ``images/``; one Undo step.

    Returns:
        One result a picture, as :func:`printdeck.studio.intake.add_pictures`.

    Raises:
        ValueError: No names, too many, or a name that is not a bundled picture.
        Unwritable: The folder cannot be written; nothing was kept.
    """
    if not art_ids or len(art_ids) > MAX_PICKED:
        raise ValueError(f"names: give 1 to {MAX_PICKED} bundled pictures")
    paths = [art_path(a) if isinstance(a, str) else None for a in art_ids]
    if None in paths:
        raise ValueError("names: not a bundled picture; reload the page")
    files = [uploads.Upload(p.name, p.read_bytes()) for p in paths if p is not None]
    with space.editing():
        paired = {n: _word_named(space, name_from_path(f.filename)) for n, f in enumerate(files)}
        alone = [f for n, f in enumerate(files) if paired[n] is None]
        results = iter(intake.add_pictures(space, alone, drop) if alone else [])
        words = {n: uid for n, uid in paired.items() if uid is not None}
        faces = {n: intake.add_pictures(space, [files[n]], drop, face_of=uid)[0] for n, uid in words.items()}
        ordered = [faces[n] if n in faces else next(results) for n in range(len(files))]
        if any(r["ok"] for r in ordered):
            _credit(space)
    return ordered


def _word_named(space: Workspace, name: str) -> int | None:
    """The uid of the deck's word that reads ``name`` (case aside) and has no name of its
    own: a bundled picture picked with that name becomes its face (the picker refused "ant"
    with the word "ant" in the deck, as a second "ant"), else None."""
    with space.lock:
        for item in space.items:
            text = item.data.get("text")
            if item.kind == "text" and "name" not in item.data and str(text).casefold() == name.casefold():
                return item.uid
    return None


def _credit(space: Workspace) -> None:
    """Give the deck the bundled pictures' credit line, unless it already says it."""
    credit = art_credit()
    extras = space.settings.get("extras")
    given = extras.get("attribution") if isinstance(extras, dict) else None
    if not credit or (isinstance(given, str) and credit in given):
        return
    setting_changes.change_settings(space, {"extras.attribution": f"{given}; {credit}" if given else credit})
