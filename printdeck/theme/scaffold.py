"""Starter themes (``printdeck init``), the JSON Schema, and the bundled-theme list."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import ValidationError

if TYPE_CHECKING:
    from printdeck.artwork import FontFace
from printdeck.design import deck_points, feasible_sizes, largest_deck, sizes_for_symbols
from printdeck.errors import PrintdeckError, shown
from printdeck.fileio import (
    atomic_output,
    check_not_inputs,
    staging_folder,
    tracked_folder,
    write_error,
)
from printdeck.resources import data_root
from printdeck.theme.deck_section import INFERRED_MAX_PER_CARD
from printdeck.theme.han_forms import han_lang, is_han, word_langs
from printdeck.theme.init_errors import said_of, said_of_sources
from printdeck.theme.init_pictures import PICTURES_FOLDER, image_entries, refusal, warn_left_out
from printdeck.theme.init_skipped import TOO_FEW, Skipped, skipped_in
from printdeck.theme.load import WORD_ROTATION_DEG, bundled_theme_names, deck_size, load_theme
from printdeck.theme.messages import validation_error
from printdeck.theme.spec import SCHEMA_FILE_NAME, ThemeSpec
from printdeck.theme.spec_types import name_slug, title_from_name
from printdeck.theme.symbol_files import folder_images
from printdeck.theme.symbols import resolve_symbols
from printdeck.theme.word_list import WordRow, argument_error, check_word_fonts, read_words
from printdeck.theme.word_pairs import paired_entries, yaml_string
from printdeck.theme.yamlsafe import load_yaml_text
from printdeck.units import LENGTH_PATTERN, format_mm


def _length_defaults(node: object) -> None:
    """Write the defaults of length keys as the YAML spells them ("85mm", not 85.0)."""
    if isinstance(node, dict):
        if node.get("pattern") == LENGTH_PATTERN and isinstance(node.get("default"), (int, float)):
            node["default"] = format_mm(float(node["default"]))
        for value in node.values():
            _length_defaults(value)
    elif isinstance(node, list):
        for value in node:
            _length_defaults(value)


def schema_json() -> str:
    """The theme's JSON Schema (draft 2020-12), by YAML key, as indented JSON text."""
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        **ThemeSpec.model_json_schema(by_alias=True),
        "title": "printdeck theme",
    }
    _length_defaults(schema)
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


def schema_comment(theme_dir: Path) -> str:
    """The ``yaml-language-server`` first line pointing editors at the bundled schema,
    by a path relative to ``theme_dir`` (absolute when no relative path exists)."""
    schema = (data_root("themes") / SCHEMA_FILE_NAME).resolve()
    try:
        ref = Path(os.path.relpath(schema, theme_dir.resolve())).as_posix()
    except ValueError:  # another drive (Windows)
        ref = schema.as_uri()
    return f"# yaml-language-server: $schema={ref}\n"


@dataclass(frozen=True)
class InitResult:
    """What ``init_theme`` wrote: the file, the number of symbols, the deck sizes they allow,
    and what it skipped in the folder of pictures (a line, empty if nothing)."""

    path: Path
    symbols: int
    kind: str
    sizes: str
    skipped: str = ""


FONTS_FOLDER = "fonts"
"""Where ``init --font`` copies a font from outside the new theme's folder."""


@contextlib.contextmanager
def _prepared_folder(theme_dir: Path, copies: list[tuple[Path, Path]]) -> Iterator[None]:
    """Create ``theme_dir`` and copy the pictures (``images/``) and the font (``fonts/``)
    into it; undo all of it if the body fails.

    Raises:
        PrintdeckError: The folder cannot be created, ``images/`` or ``fonts/`` already
            exists, or a copy fails (the disk is full...).
    """
    created = [p for p in (theme_dir, *theme_dir.parents) if not p.exists()]
    folders = sorted({copy.parent for _, copy in copies})
    for folder in folders:
        if folder.exists() or folder.is_symlink():
            argument = "images" if folder.name == PICTURES_FOLDER else "font"
            again = (
                f"give --images {shown(folder)} (pictures inside the theme are not copied)"
                if argument == "images"
                else ("give a font file from inside the theme folder")
            )
            raise argument_error(argument, "already exists", f"remove it, or {again}", source=folder)
    try:
        theme_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise PrintdeckError(f"{shown(theme_dir)}: cannot create the folder ({exc.strerror}); choose another") from None
    try:
        with contextlib.ExitStack() as stack:
            for folder in folders:
                stack.enter_context(tracked_folder(folder))  # removed on a signal
                _copy_pictures([c for c in copies if c[1].parent == folder], folder)
            yield
    except BaseException:  # also Ctrl-C / SIGTERM: leave nothing behind
        for folder in folders:
            shutil.rmtree(folder, ignore_errors=True)
        for made in created:  # deepest first; only the empty folders made here
            with contextlib.suppress(OSError):
                made.rmdir()
        raise


def _copy_pictures(copies: list[tuple[Path, Path]], pictures: Path) -> None:
    """Copy into a staging folder, then rename it to ``pictures`` (all or nothing)."""
    try:
        with staging_folder(pictures) as staging:
            for source, copy in copies:
                shutil.copyfile(source, staging / copy.name)
            os.rename(staging, pictures)
    except OSError as exc:
        raise write_error(pictures, exc) from None


def _theme_text(theme_dir: Path, title: str, entries: list[str], n_symbols: int, rotation: str, text_keys: str) -> str:
    k = largest_deck(n_symbols, 1, INFERRED_MAX_PER_CARD)
    if k is None:
        need = deck_points(feasible_sizes(1)[0], 1)
        problem = f"{n_symbols} symbols are too few: the smallest deck needs {need}"
        fix = f"add {need - n_symbols} more"
        raise PrintdeckError(f"{problem}; {fix}", problem=problem, fix=fix, code=TOO_FEW)
    choose = "first" if deck_points(k, 1) == n_symbols else "seeded"
    return (
        schema_comment(theme_dir)
        + f"# Starter theme from printdeck init. {n_symbols} symbols: {sizes_for_symbols(n_symbols)}.\n"
        + "# Every key: see the README; your editor completes keys from the schema above.\n"
        + f"name: {yaml_string(deck_name(theme_dir.resolve()))}\ntitle: {yaml_string(title)}\nseed: 1\n"
        + f"deck:\n  symbols_per_card: {k}   # {deck_points(k, 1)} cards\n  choose: {choose}\n"
        + "card:\n  diameter: 85mm\n  bleed: 3mm\n  safe_margin: 3mm\n"
        + f"layout:\n  gap: 1mm\n  size_ratio: 0.5\n  rotation: {rotation}\n"
        + "  rotate_photos: false   # photos stay upright (faces!)\n"
        + "paper:\n  size: a4\n  cut_marks: true\n"
        + text_keys
        + "symbols:\n"
        + "".join(entries)
    )


def _text_section(font: str | None, words: list[WordRow] | None) -> str:
    """The theme's ``text`` section: the font given (``--font``), and the language whose
    letter forms the words' Han characters are written in, where the words tell it
    (:func:`~printdeck.theme.han_forms.han_lang`: 门 prints in another shape in a Japanese
    font, which a machine may pick for Chinese words without it); where they do not, that
    key is written as a comment to fill in."""
    texts = [w for row in words or [] for w in row.words]
    lang = han_lang(texts)
    keys = [f"font: {yaml_string(font)}"] if font else []
    if lang is not None:
        keys.append(f"lang: {lang}   # {HAN_LANG_NOTE}")
    ask = lang is None and any(is_han(c) for t in texts for c in t)
    if not keys:
        return f"# text:\n#   lang: zh-Hans   # {HAN_LANG_NOTE}\n" if ask else ""
    asked = f"  # lang: zh-Hans   # {HAN_LANG_NOTE}\n" if ask else ""
    return "text:\n" + "".join(f"  {key}\n" for key in keys) + asked


HAN_LANG_NOTE = "the letter forms of the words' Han characters: zh-Hans, zh-Hant or ja"


def _entries(
    theme_dir: Path, images: Path | None, words: list[WordRow] | None, copies: list[tuple[Path, Path]]
) -> tuple[list[str], str, str, int]:
    """(YAML lines of the symbols, their kind, the rotation to use, how many symbols);
    pictures to copy into the theme are appended to ``copies``."""
    kinds: list[str] = []
    pictures, refused = image_entries(images, theme_dir, copies) if images is not None else ([], [])
    if refused:
        _leave_out(images, refused, len(pictures), words is not None)
    if images is not None:
        kinds.append("images")
    if words is not None:
        kinds.append("words")
    langs = word_langs(w for row in words or [] for w in row.words)  # Japanese and Korean words: each its own
    entries = paired_entries(pictures, words or [], langs)
    if not kinds:
        count = len(folder_images(data_root("assets") / "twemoji", "init", photo=False))
        return ['  - folder: "@assets/twemoji"\n'], "images", "any", count
    return entries, " and ".join(kinds), "any" if kinds == ["images"] else str(WORD_ROTATION_DEG), len(entries)


def _leave_out(images: Path | None, refused: list[tuple[Path, PrintdeckError]], usable: int, paired: bool) -> None:
    """Leave out the pictures ``refused``, with a warning, when the ``usable`` others make a
    deck; refuse them all at once when they do not, or when words are paired with the
    pictures (a word's picture left out would leave the word without its partner).

    Raises:
        PrintdeckError: Every picture that cannot be used (:func:`refusal`).

    Warns:
        LeftOutWarning: The pictures left out, each with its problem and fix.
    """
    assert images is not None
    if paired or largest_deck(usable, 1, INFERRED_MAX_PER_CARD) is None:
        raise refusal(images, refused)
    warn_left_out(refused)


def _font_copy(face: FontFace, theme_dir: Path, copies: list[tuple[Path, Path]]) -> str:
    """The theme's ``text.font`` for ``--font``: where it is if inside ``theme_dir``, else
    ``fonts/<name>``, appended to ``copies``."""
    if face.path.resolve().is_relative_to(theme_dir.resolve()):
        ref = Path(os.path.relpath(face.path.resolve(), theme_dir.resolve())).as_posix()
    else:
        ref = f"{FONTS_FOLDER}/{face.path.name}"
        copies.append((face.path, theme_dir / FONTS_FOLDER / face.path.name))
    return ref + (f"#{face.index}" if face.index else "")


EXISTS = "theme-exists"
"""The ``code`` of :func:`init_theme`'s error for a ``theme.yaml`` that exists (a front end says
how to overwrite it: ``force=True``, ``--force``)."""


def deck_name(folder: Path) -> str:
    """A new deck's ``name`` from its folder's, as ``init`` and the studio give it: letters and
    digits of any script, ``-``, ``_`` and ``.`` (what the key takes, see
    :func:`~printdeck.theme.spec_types.name_slug`; "français 2" is ``français-2``), ``my-deck``
    when none is left ("🎲 🎲")."""
    return name_slug(folder.name) or "my-deck"


def deck_title(folder: Path) -> str:
    """A new deck's title (printed on its backs, its sheets' footers and its box) from its
    folder's name, as ``init`` and the studio give it: ``family-deck`` is "Family deck"."""
    return title_from_name(folder.name) or "My deck"


def init_theme(
    theme_dir: str | os.PathLike[str],
    *,
    images: str | os.PathLike[str] | None = None,
    words: str | os.PathLike[str] | None = None,
    font: str | None = None,
    force: bool = False,
) -> InitResult:
    """Write ``theme_dir/theme.yaml``: a starter theme from a folder of images, a word
    list in any language, both, or (neither) the bundled artwork.

    Words may be in any script: each takes a font that has its letters (``font``, the
    bundled fonts, or the computer's, see :mod:`printdeck.artwork.fonts`); a word no font
    has stops ``init`` with one line naming its line and letters.

    Opaque PNG/JPEG/WebP files become ``photo`` entries (cropped to a circle), but
    clip art on a plain background becomes an ``image`` with ``remove_background``
    (printed whole, without its white); others become ``image`` entries; names come
    from the file names (without emoji, which no font prints in a legend). Sub-folders are not read. Pictures outside
    ``theme_dir`` are copied into ``theme_dir/images`` (a theme reads only its own
    folder and the bundled assets); on any failure the copies and the folders
    made are removed again. The deck is the
    largest projective plane the symbols allow. The theme is validated exactly as
    ``load_theme`` would before it is written (atomically).

    Args:
        theme_dir: Folder to write into (created if missing); a path or a string, as
            ``images`` and ``words``.
        images: Folder of pictures.
        words: Text file, one word a line (UTF-8), or a word and its translation separated
            by a tab or `` = `` (one symbol with two faces). With ``images``, a picture and
            the line whose first word is its file name make one symbol: the picture and
            the line's last word.
        font: A font file for the words (``.ttf``, ``.otf``, ``.ttc#N``); copied into
            ``theme_dir/fonts`` when outside it, and named by ``text.font``.
        force: Overwrite an existing ``theme.yaml``.

    Warns:
        LeftOutWarning: Pictures of ``images`` it cannot use (each with why), or copies of
            another, left out of the theme (when enough are left for a deck).

    Returns:
        The file written, the number of symbols, their kind and the deck sizes
        they allow (e.g. ``"order 5, 31 cards of 6; 57 needed for 8 a card"``), and a line
        saying what ``images`` held that was not read (sub-folders, files that are not
        pictures; ``""`` if nothing).

    Raises:
        PrintdeckError: ``theme.yaml`` exists (without ``force``; ``code``
            ``"theme-exists"``) or is the word list; a source is unreadable, not a regular
            file, too large, holds bad files or duplicates (pictures: only when too few
            are left for a deck, or words are paired with them); a word has letters no font
            has (``code`` ``"word-without-font"``); fewer symbols than the smallest deck;
            ``images/`` exists already; the folder cannot be written. An error about what
            was given to ``images``, ``words`` or ``font`` has that argument's name as its
            ``key`` (``is_argument`` set) and the file as its ``source``.
    """
    return _init_theme(
        Path(theme_dir),
        None if images is None else Path(images),
        None if words is None else Path(words),
        font,
        force,
    )


def _init_theme(theme_dir: Path, images: Path | None, words: Path | None, font: str | None, force: bool) -> InitResult:
    """:func:`init_theme` with its paths made ``Path``."""
    target = theme_dir / "theme.yaml"
    if target.exists() and not force:
        raise PrintdeckError(
            source=shown(target),
            problem="already exists",
            fix="choose another folder, or pass force=True to overwrite it",
            code=EXISTS,
        )
    if words is not None:
        check_not_inputs([("theme_dir", target)], [words])
    copies: list[tuple[Path, Path]] = []
    face = None
    if font is not None:
        from printdeck.artwork import open_face, parse_font_ref  # noqa: PLC0415 - fontTools only for --font

        raw, index = parse_font_ref(font)
        with said_of("font"):
            face = open_face(Path(raw).expanduser().resolve(), index, "font")
    with said_of("words"):
        word_list = read_words(words) if words is not None else None
        if words is not None and word_list is not None:
            check_word_fonts(word_list, words, face)
    with said_of("images"):
        skipped = skipped_in(images, theme_dir) if images is not None else Skipped()
        entries, kind, rotation, count = _entries(theme_dir, images, word_list, copies)
    font_ref = _font_copy(face, theme_dir, copies) if face is not None else None
    given = "words" if images is None else ("images" if words is None else None)  # what the count came from
    with said_of(given) if given is not None else contextlib.nullcontext(), skipped.told_in_refusal():
        text_keys = _text_section(font_ref, word_list)
        try:
            text = _theme_text(theme_dir, deck_title(theme_dir.resolve()), entries, count, rotation, text_keys)
        except PrintdeckError as exc:  # said of the word list, as its other refusals are
            if exc.code != TOO_FEW or given != "words" or words is None:
                raise
            raise PrintdeckError(source=shown(words), problem=exc.problem, fix=exc.fix, code=exc.code) from None
    try:
        spec = ThemeSpec.model_validate(load_yaml_text(text, shown(target)))
    except ValidationError as exc:
        raise validation_error(exc, ThemeSpec, shown(target)) from None
    if not copies:
        symbols = resolve_symbols(spec, theme_dir)  # everything checked before anything is written
    with _prepared_folder(theme_dir, copies):
        if copies:  # the copies are checked where the theme will read them, said of the pictures given
            with said_of_sources(spec, theme_dir, copies, PICTURES_FOLDER):
                symbols = resolve_symbols(spec, theme_dir)
        with atomic_output(target) as tmp:
            tmp.write_text(text, encoding="utf-8")
    k = spec.deck.symbols_per_card or 0
    used = deck_points(k, 1)
    left = (
        (f"; {len(symbols) - used} left out of each build (a seeded choice; `printdeck check` names them)")
        if len(symbols) > used
        else ""
    )
    sizes = f"{sizes_for_symbols(len(symbols))}; the theme makes {used} cards of {k}{left}"
    return InitResult(target, len(symbols), kind, sizes, skipped.line())


@dataclass(frozen=True)
class ThemeInfo:
    """One row of ``printdeck themes``."""

    name: str
    title: str
    cards: int | None
    symbols_per_card: int
    match: int
    symbols_used: int
    symbols_offered: int


def list_themes() -> list[ThemeInfo]:
    """The bundled themes with their deck sizes (files are not decoded: fast).

    Raises:
        PrintdeckError: A bundled theme is broken (a packaging bug).
    """
    rows = []
    for name in bundled_theme_names():
        theme = load_theme(name, check_files=False)
        size = deck_size(theme)
        rows.append(
            ThemeInfo(
                name,
                theme.spec.title,
                size.cards,
                size.symbols_per_card,
                size.match,
                size.symbols_needed,
                len(theme.symbols),
            )
        )
    return rows
