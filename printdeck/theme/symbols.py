"""Resolving the ``symbols:`` list to ``SymbolSpec``s, checking every file once.

Each item is a path (image file or folder) or a mapping with exactly one of
``folder``, ``image``, ``text``, ``photo``. Folders contribute their PNG, JPEG,
WebP and SVG files sorted by name; other files (licences, notes) are ignored, but
images in formats printdeck cannot read (GIF, BMP, TIFF, HEIC...) are errors, so
no symbol is dropped silently. Duplicates (the same file, the same bytes, the same
decoded pixels, or the same word) are errors too.
"""

from __future__ import annotations

import dataclasses
import re
import unicodedata
from collections.abc import Callable, Sequence
from pathlib import Path

from printdeck.artwork import drawing
from printdeck.choices import PHOTO_FORMATS, PICTURE_FORMATS
from printdeck.errors import SAME_NAME, SAME_WORD, PrintdeckError, key_error, shown
from printdeck.model import SymbolSpec
from printdeck.theme.han_forms import han_lang, word_langs
from printdeck.theme.spec import FacesMode, LayoutSpec, SymbolEntry, ThemeSpec
from printdeck.theme.symbol_files import Seen, check_file, checked_now, folder_images, folder_refusal, prefetch_checks
from printdeck.theme.theme_paths import (
    CASE_NOTE,
    IMAGE_SUFFIXES,
    allowed_roots,
    as_written,
    case_twin,
    check_inside,
    name_from_file,
    resolve_path,
)
from printdeck.theme.word_colours import word_colours

ENTRY_KEYS = ("folder", "image", "text", "photo", "faces")
"""The keys of a symbol entry that say what it is; exactly one is given."""


_EMPTY_ENTRY = {
    "text": "the word or phrase",
    "image": "the picture's file",
    "photo": "the photo's file",
    "folder": "the folder",
}
"""What an entry's key, left empty, wants written after it."""


def _check_not_a_key_without_colon(item: str, where: str) -> None:
    """Refuse ``- text dog``, a key with its colon left out (YAML reads the line as one
    string, taken for a picture's file name ``text dog``).

    Raises:
        PrintdeckError: Keyed ``where``, with the line to write.
    """
    first, _, rest = item.partition(" ")
    if first in ENTRY_KEYS and rest.strip() and not Path(item).suffix:
        fix = f"write '{first}: {rest.strip()}' (a colon after {first})"
        raise key_error(where, f"{item!r} reads as a file name; {fix}")


def _only_key(entry: SymbolEntry, where: str) -> str:
    given = [k for k in ENTRY_KEYS if getattr(entry, k) is not None]
    empty = [k for k in ENTRY_KEYS if k in entry.model_fields_set and getattr(entry, k) is None]
    if not given and empty:  # "text:" with nothing after it
        key = empty[0]
        fix = "list its faces under 'faces:'" if key == "faces" else f"write {_EMPTY_ENTRY[key]} after '{key}:'"
        if key == "text":  # text: #1 reads as an empty text and a comment
            fix += ', in quotes if it starts with # (text: "#1"): YAML reads the rest as a comment'
        raise key_error(f"{where}.{key}", f"is empty; {fix}")
    if len(given) != 1:
        found = f" (found {', '.join(given)})" if given else ""
        raise key_error(f"{where}", f"give exactly one of folder, image, text, photo or faces{found}")
    return given[0]


def _file_symbols(
    entry: SymbolEntry, key: str, where: str, base: Path, seen: Seen, check_files: bool, layout: LayoutSpec
) -> list[SymbolSpec]:
    raw = getattr(entry, key)
    path, source = resolve_path(raw, base, f"{where}.{key}")
    check_inside(path, f"{where}.{key}", seen.roots)
    photo = key == "photo"
    if not photo and (entry.focus is not None or entry.zoom != 1.0):
        raise key_error(
            f"{where}.{'focus' if entry.focus is not None else 'zoom'}",
            "only photos are cropped; list the picture under photo: or remove the key",
        )
    rotate = entry.rotate if entry.rotate is not None else (layout.rotate_photos if photo else True)
    refused: list[tuple[Path, PrintdeckError]] = []  # a folder's bad pictures: said together, not one a run
    if key == "folder" or path.is_dir():
        if not path.is_dir():
            twin = case_twin(path)
            if twin is not None and twin.is_dir():  # the folder in other capital letters
                said = f"{shown(raw)} is not a folder; did you mean {shown(as_written(raw, twin))}? {CASE_NOTE}"
                raise key_error(f"{where}.folder", said)
            raise key_error(f"{where}.folder", f"{shown(path)} is not a folder; check the path (relative to the theme)")
        if entry.name is not None:
            raise key_error(f"{where}.name", "a folder gives many symbols; name single images instead")
        files = folder_images(path, f"{where}.{key}", photo, refused)
        sources = [f"{source}/{f.name}" for f in files]
    else:
        suffix = path.suffix.lower()
        if not path.exists():  # "image: bee" (its ending left out), "cat.svg" beside Cat.svg
            raise key_error(f"{where}.{key}", f"{shown(raw)} not found; {_named_like(raw, path, photo)}")
        if suffix not in IMAGE_SUFFIXES or (photo and suffix == ".svg"):
            kinds = PHOTO_FORMATS if photo else PICTURE_FORMATS
            raise key_error(f"{where}.{key}", f"{shown(raw)} is not a picture ({kinds}); convert it or fix the name")
        if entry.remove_background and suffix == ".svg":
            said = "an SVG has no background to remove (what it does not draw is transparent); remove the key"
            raise key_error(f"{where}.remove_background", said)
        files, sources = [path], [source]
    out = []
    wheres = [f"{where}.{key}" if len(files) == 1 else f"{where}.{key} ({f.name})" for f in files]
    if check_files and len(files) > 1:
        for f in files:  # nothing outside the theme is read, not even ahead of time
            check_inside(f, f"{where}.{key} ({shown(f.name)})", seen.roots)
        prefetch_checks(files, wheres, seen)
    for f, src, place in zip(files, sources, wheres):
        check_inside(f, f"{where}.{key} ({shown(f.name)})", seen.roots)
        try:
            check_file(f, place, seen, check_files)
        except PrintdeckError as exc:
            if len(files) == 1 and not refused:  # one picture: its own refusal, as it is
                raise
            refused.append((f, exc))
            continue
        kind = "photo" if photo else IMAGE_SUFFIXES[f.suffix.lower()]
        out.append(
            SymbolSpec(
                id=0,
                name=entry.name or name_from_file(f),
                kind=kind,  # type: ignore[arg-type]
                source=src,
                path=f,
                scale=entry.scale,
                rotate=rotate,
                photo_shape=entry.shape if photo else None,
                remove_background=entry.remove_background and kind != "svg",
                focus=entry.focus if photo else None,
                zoom=entry.zoom if photo else 1.0,
                nest=layout.nest,
            )
        )
    if refused and seen.deferred:  # a build deferred its SVGs' checks: said now with the others, as check does
        refused += [(f, r) for f, place in zip(files, wheres) if f in seen.deferred and (r := checked_now(f, place))]
        refused.sort(key=lambda item: files.index(item[0]) if item[0] in files else -1)
    if len(refused) == 1:
        raise refused[0][1]
    if refused:
        raise folder_refusal(f"{where}.{key}", refused, path)
    return out


def _check_new_word(word: str, where: str, seen: Seen, split: bool) -> None:
    """Refuse a word given before: the same letters in any case in another symbol (players
    would say both alike), or the very same word in another face of this symbol. Faces of
    one symbol may differ in case only: "A" and "a" are the upper and lower case match.
    ``split``: the deck is split (two faces a symbol), so two symbols meaning one word are
    not offered as one symbol of three faces.

    Raises:
        PrintdeckError: Keyed ``<where>.text``, naming where the word was given first.
    """
    spaced = unicodedata.normalize("NFC", " ".join(word.split()))  # "café" typed either way is one word
    folded = spaced.casefold()
    symbol = where.split(".faces.")[0]
    first = seen.words.get(folded)
    same_symbol = first is not None and first.split(".faces.")[0] == symbol
    if first is not None and not (same_symbol and spaced not in seen.face_words.get(symbol, [])):
        fix = "list each word once"
        if ".faces." in where and ".faces." in first and not same_symbol and not split:
            other = first.split(".faces.")[0]
            fix += f", or make {other} and {symbol} one symbol, with all their faces in one faces: list"
        typed = " (the same letters, typed another way)" if word.split() != spaced.split() else ""
        raise key_error(f"{where}.text", f"{word!r} is already {first}{typed}; {fix}", code=SAME_WORD, also=(first,))
    seen.words.setdefault(folded, where)
    seen.face_words.setdefault(symbol, []).append(spaced)


_TURNED_SIGNS = re.compile(r"[×✕✖⨯⨉+＋➕✚∔]|(?<=\d)\s*[xX]\s*(?=\d)")
"""A times or a plus sign (or an x between numbers, "3 x 4"): turned about an eighth of a
turn, one reads as the other ("7 × 8" as "7 + 8")."""


def turns_into_another_sign(word: str) -> bool:
    """Whether ``word`` has a sign that reads as another when turned (:data:`_TURNED_SIGNS`):
    such a word stays upright unless its entry says ``rotate``.

    >>> turns_into_another_sign("7 × 8"), turns_into_another_sign("3x4"), turns_into_another_sign("box")
    (True, True, False)
    """
    return _TURNED_SIGNS.search(word) is not None


def _text_symbol(
    entry: SymbolEntry, where: str, spec: ThemeSpec, base: Path, seen: Seen, index_in_deck: int, check_files: bool
) -> SymbolSpec:
    word = entry.text or ""
    if not word.strip() or any(c in word for c in "\n\r\t"):
        raise key_error(f"{where}.text", f"{word!r} is blank or spans lines; give one word or a short phrase")
    _check_new_word(word, where, seen, split=spec.deck.faces == FacesMode.SPLIT)
    font_key = f"{where}.font" if entry.font else "text.font"
    raw_font = entry.font or spec.text.font
    font, index = None, 0
    if raw_font:
        from printdeck.artwork import open_face, parse_font_ref  # noqa: PLC0415 - fontTools only for a theme's font

        raw_path, index = parse_font_ref(raw_font)
        font = resolve_path(raw_path, base, font_key)[0]
        check_inside(font, font_key, seen.roots)
        if check_files and (font, index) not in seen.fonts:
            open_face(font, index, font_key)
            seen.fonts.add((font, index))
    colors = word_colours(spec)
    symbol = SymbolSpec(
        id=0,
        name=entry.name or word,
        kind="text",
        source=f"text:{word}",
        text=word,
        font_path=font,
        font_index=index,
        scale=entry.scale,
        rotate=not turns_into_another_sign(word) if entry.rotate is None else entry.rotate,
        nest=spec.layout.nest,
        color=entry.color or colors[index_in_deck % len(colors)],
        color_fixed=entry.color is not None,
        lang=entry.lang or seen.word_langs.get(word) or spec.text.lang,
    )
    if check_files:
        try:
            drawing(symbol)  # sets the word: a font for every character, visible ink
        except PrintdeckError as exc:
            key = f"{where}.text"  # its code and fields kept: the studio words a missing font its own way
            raise exc.keyed(key).reworded(f"{key}: {exc}") from None
    return symbol


def words_lang(spec: ThemeSpec) -> str | None:
    """The language the theme's words are set in where a word gives none: ``text.lang``, else
    the one its Han characters are written in (:func:`~printdeck.theme.han_forms.han_lang`:
    a Chinese list prints Chinese letter forms on any machine, whose fonts would otherwise
    pick them by its own language), else None. (A list mixing Japanese and Korean words
    sets those in their own: :func:`~printdeck.theme.han_forms.word_langs`.)"""
    if spec.text.lang:
        return spec.text.lang
    return han_lang(_words_of(spec))


def _words_of(spec: ThemeSpec) -> list[str]:
    """Every word the theme's symbols and their faces give."""
    words = []
    for item in spec.symbols:
        if not isinstance(item, str):
            words += [entry.text for entry in (item, *(item.faces or ())) if entry.text]
    return words


def resolve_symbols(
    spec: ThemeSpec,
    base: Path,
    *,
    check_files: bool = True,
    progress: Callable[[int], None] | None = None,
    allow_outside: bool = False,
    deferred: dict[Path, str] | None = None,
) -> tuple[SymbolSpec, ...]:
    """Turn the theme's ``symbols:`` list into symbols with ids 0..n-1 in theme order.

    Args:
        spec: The validated theme.
        base: Folder relative paths resolve against (the theme file's folder).
        check_files: Open and fully check every image and font (the default);
            ``False`` only resolves paths (fast, for listings).
        progress: Called with 1 after each image file is checked (for a progress bar).
        allow_outside: Read files outside the theme folder and the bundled assets
            too (refused by default, symlinks followed).
        deferred: When given, an SVG whose bytes were not checked before is only read
            and fingerprinted (duplicates are still refused) and recorded here (file ->
            theme key) for :func:`check_files_later`: a build checks only the files its
            deck uses.

    Returns:
        The symbols, ``id`` = position.

    Raises:
        PrintdeckError: An entry gives none or several of folder/image/text/photo; a
            path is missing or of an unreadable format; a folder holds no images; a
            file is empty, corrupt, truncated, a bomb, or an unsafe SVG; a font
            cannot be read or lacks a glyph; a symbol appears twice. The message
            starts with the dotted key (``symbols.3.image``).
    """
    seen = Seen(roots=allowed_roots(base, allow_outside), deferred=deferred)
    if not spec.text.lang:  # Japanese and Korean words: each in its own letter forms
        seen.word_langs = word_langs(_words_of(spec))
    lang = words_lang(spec)
    if lang != spec.text.lang:  # the words' own language, where the theme gives none
        spec = spec.model_copy(update={"text": spec.text.model_copy(update={"lang": lang})})
    if progress is not None:
        seen.progress = progress
    out: list[SymbolSpec] = []
    for i, item in enumerate(spec.symbols):
        where = f"symbols.{i}"
        if isinstance(item, str):
            _check_not_a_key_without_colon(item, where)
        entry = SymbolEntry(image=item) if isinstance(item, str) else item
        key = _only_key(entry, where)
        try:
            if key == "faces":
                made = [_concept_symbol(entry, where, spec, base, seen, len(out), check_files)]
            else:
                made = _single_symbols(entry, key, where, spec, base, seen, len(out), check_files)
        except PrintdeckError as exc:  # a file's or a font's error: still about this symbol
            raise exc.keyed(f"{where}.{key}") from None
        out.extend(dataclasses.replace(s, theme_key=where) for s in made)
    _refuse_same_names(out)
    return tuple(SymbolSpec(**{**s.__dict__, "id": i}) for i, s in enumerate(out))


def _refuse_same_names(symbols: list[SymbolSpec]) -> None:
    """Refuse two symbols of one name (case aside), a face's name counted as its symbol's: the
    legend, ``printdeck answer`` and pins name symbols, and two "cat"s would leave players and
    pins not knowing which is meant; a picture of a dog and a symbol whose faces are "dog" and
    "chien" would be one concept printed as two symbols (two cards could show both). Two
    picture faces named only after their files (``kids/IMG_0001.jpg`` and
    ``pets/IMG_0001.jpg``, each beside its own word) are not compared with each other: no one
    reads those names.

    Raises:
        PrintdeckError: The later symbol's (or face's) key, the name and the earlier one's key.
    """
    first: dict[str, tuple[SymbolSpec, bool]] = {}  # a name -> where it was given, and whether it is meant
    for symbol in symbols:
        named = _names_of(symbol)
        for folded, (mine, meant) in named.items():
            earlier, earlier_meant = first.get(folded, (None, False))
            if earlier is None or not (meant or earlier_meant):
                continue
            other = str(earlier.theme_key).split(".faces.")[0]
            fix = "give one of them another name (the name key, or rename its file)"
            if symbol.faces or other != earlier.theme_key:  # one concept given twice
                fix += f", or make {other} and {symbol.theme_key} one symbol, with all their faces in one faces: list"
            raise key_error(
                f"{mine.theme_key}",
                f"the name {mine.name!r}{_file_of(mine)} is already {earlier.theme_key}'s{_file_of(earlier)}; {fix}",
                code=SAME_NAME,
                also=(other,),
            )
        for folded, (mine, meant) in named.items():
            if folded not in first or (meant and not first[folded][1]):
                first[folded] = (mine, meant)


def _names_of(symbol: SymbolSpec) -> dict[str, tuple[SymbolSpec, bool]]:
    """A symbol's names (case folded): its own, and its faces', each with whether it is meant
    (the symbol's, a word's, a picture's given name) or a picture face's file name only."""
    named = {symbol.name.casefold(): (symbol, True)}
    for face in symbol.faces:
        meant = face.kind == "text" or face.path is None or face.name != name_from_file(face.path)
        if meant or face.name.casefold() not in named:  # a meant name wins over a file's of the same spelling
            named[face.name.casefold()] = (face, meant)
    return named


def _file_of(symbol: SymbolSpec) -> str:
    """`` (cat.png)``: the symbol's file in messages, or nothing for a word."""
    return f" ({shown(symbol.path.name)})" if symbol.path is not None else ""


def _single_symbols(
    entry: SymbolEntry, key: str, where: str, spec: ThemeSpec, base: Path, seen: Seen, index: int, check_files: bool
) -> list[SymbolSpec]:
    """The symbols of one entry that is not ``faces``: one word, one picture or a folder's pictures."""
    if key == "text":
        return [_text_symbol(entry, where, spec, base, seen, index, check_files)]
    return _file_symbols(entry, key, where, base, seen, check_files, spec.layout)


def _concept_symbol(
    entry: SymbolEntry, where: str, spec: ThemeSpec, base: Path, seen: Seen, index: int, check_files: bool
) -> SymbolSpec:
    """One symbol with several faces (``faces:``), each resolved as a symbol of its own and
    checked against every other symbol's files and words. Its name is the entry's ``name``,
    else :func:`concept_name` of its faces' names (``cat = gato``)."""
    extra = [k for k, v in entry.model_dump(exclude={"faces"}, exclude_defaults=True).items() if k != "name"]
    if extra:
        raise key_error(f"{where}.{extra[0]}", "give it to one face under faces:, not to the symbol")
    faces: list[SymbolSpec] = []
    for j, face_entry in enumerate(entry.faces or ()):
        at = f"{where}.faces.{j}"
        key = _only_key(face_entry, at)
        if key in ("folder", "faces"):
            raise key_error(f"{at}.{key}", "a face is one image, photo or text; list a folder's pictures as symbols")
        made = _single_symbols(face_entry, key, at, spec, base, seen, index + j, check_files)
        if len(made) != 1:
            raise key_error(f"{at}.{key}", "a face is one picture, not a folder; name one file")
        faces.append(dataclasses.replace(made[0], theme_key=at))
    name = entry.name or concept_name([f.name for f in faces], [f.kind != "text" for f in faces])
    return dataclasses.replace(faces[0], name=name, faces=tuple(faces))


def concept_name(face_names: Sequence[str], pictures: Sequence[bool] = ()) -> str:
    """The name of a symbol with faces that has none of its own: its faces' names joined by
    `` = ``, each once. A picture's name (``pictures[k]``: face ``k`` is a picture, named
    after its file) that a word face spells, in any case, is left to the word: a picture
    of a cat with the words "cat" and "gato" is ``cat = gato``, not ``Cat = cat = gato``;
    two words differing in case, a letters deck's ``A = a``, stay two.

    Examples:
        >>> concept_name(["Cat", "cat", "gato"], [True, False, False])
        'cat = gato'
        >>> concept_name(["A", "a"])
        'A = a'
    """
    names = [name.strip() for name in face_names]
    words = {name.casefold() for k, name in enumerate(names) if not (k < len(pictures) and pictures[k])}
    kept = [
        name for k, name in enumerate(names) if not (k < len(pictures) and pictures[k] and name.casefold() in words)
    ]
    return " = ".join(dict.fromkeys(kept))


def _named_like(raw: str, path: Path, photo: bool) -> str:
    """The fix for a missing picture ``raw`` (at ``path``): the path in other capital letters
    when it is there (a theme written where file names ignore case), else the picture
    beside it of that name, as the theme would write it (``bee`` -> ``bee.svg``), else to
    check the path, and for a name with no file ending (``- cat``, a word written as a
    picture), to write ``text:``."""
    twin = case_twin(path)
    if twin is not None and twin.is_file():
        return f"did you mean {shown(as_written(raw, twin))}? {CASE_NOTE}"
    try:
        near = sorted(
            p.name
            for p in path.parent.iterdir()
            if p.stem == path.name and p.suffix.lower() in IMAGE_SUFFIXES and not (photo and p.suffix.lower() == ".svg")
        )
    except OSError:
        near = []
    if near:
        return f"did you mean {shown(raw + Path(near[0]).suffix)}?"
    if not Path(raw).suffix and not photo:  # "- cat" in a list of words: read as a picture's file
        return f"check the path, or to print the word, write text: {raw}"
    return "check the path"
