"""Reading a theme: safe YAML, validation, sizes that fit, every file checked.

``load_theme`` checks everything that can be checked before a build starts, so a
bad theme fails in a fraction of a second with one line naming the file, the key
and the fix, and nothing is written.
"""

from __future__ import annotations

import dataclasses
import difflib
import re
import sys
from collections.abc import Callable, Sequence
from functools import lru_cache
from pathlib import Path

from pydantic import ValidationError

from printdeck.artwork import drawing, unprintable_text
from printdeck.audit import INPUT_EVENT
from printdeck.cache import file_digest
from printdeck.choices import PICTURE_FORMATS
from printdeck.emoji_names import TWEMOJI_FOLDER, twemoji_folder
from printdeck.errors import PrintdeckError, file_error, key_error, shown
from printdeck.model import SymbolSpec
from printdeck.resources import data_root
from printdeck.theme.consistency import check_consistency, check_press_keys
from printdeck.theme.deck_section import DeckSize, deck_size_requirements
from printdeck.theme.images import check_raster_file, check_svg_file
from printdeck.theme.located import theme_label
from printdeck.theme.messages import validation_error
from printdeck.theme.spec import DeckSpec, Theme, ThemeSpec
from printdeck.theme.spec_types import name_slug, title_from_name
from printdeck.theme.symbol_files import check_files_later, said_in
from printdeck.theme.symbols import resolve_symbols
from printdeck.theme.theme_paths import IMAGE_SUFFIXES, allowed_roots, check_inside, resolve_path
from printdeck.theme.yamlsafe import load_yaml_file

__all__ = [
    "bundled_theme_names",
    "bundled_theme_path",
    "check_used_files",
    "deck_size",
    "load_theme",
    "load_theme_data",
    "parse_theme_data",
]

TWEMOJI_CREDIT = "Emoji artwork: Twemoji by Twitter, Inc and contributors, CC BY 4.0"


def bundled_theme_path(name: str) -> Path | None:
    """Return the bundled theme file called ``name`` (e.g. ``"default"``), if any."""
    if not re.fullmatch(r"[A-Za-z0-9_-]+", name):
        return None
    path = data_root("themes") / f"{name}.yaml"
    return path if path.is_file() else None


def bundled_theme_names() -> list[str]:
    """Names of the bundled themes, sorted (``default`` first)."""
    names = sorted(p.stem for p in data_root("themes").glob("*.yaml"))
    return sorted(names, key=lambda n: (n != "default", n))


def load_theme(
    ref: str | Path | Theme | None = None,
    *,
    check_files: bool = True,
    progress: Callable[[int], None] | None = None,
    allow_outside: bool = False,
    defer_svg_checks: bool = False,
    sized: bool = True,
    sheet_checked_later: bool = False,
) -> Theme:
    """Load a theme by bundled name, YAML file, or folder holding ``theme.yaml``.

    Args:
        ref: ``None`` for the bundled default theme; a bundled theme's name
            (``"junior"``); a path to a ``.yaml`` file or to a folder with ``theme.yaml``.
        check_files: Decode every image and font now (default). ``False`` skips
            the file checks (for quick listings); paths are still resolved.
        progress: Called with 1 after each image file is checked, for a progress bar
            of unknown length.
        allow_outside: Let the theme read files outside its folder and the bundled
            assets (refused by default, symlinks followed).
        defer_svg_checks: Read and fingerprint every SVG (duplicates are refused) but
            leave the structure and drawing checks of those not checked before to
            :func:`check_used_files`, for the symbols the deck uses (a build; ``check``
            checks every file).
        sized: Refuse a deck section that does not fit the symbols (default). False
            loads such a theme anyway, its deck section as the file gives it and
            ``theme.sized`` False (to compare its symbols while they are too few for a
            deck); :func:`sized_theme` sizes it, or refuses it, where a deck is made.
        sheet_checked_later: Leave the card's fit on the sheet unchecked: a build checks it
            once its options are applied (``--layout single`` or a preset makes a card too
            big for the theme's sheet one card a page).

    Returns:
        The validated theme with every symbol resolved; ``spec.deck.symbols_per_card``
        is always set (the largest deck the symbols allow when the file gives no size).

    Raises:
        PrintdeckError: One line ``"<file>: <dotted.key>: <problem>; <fix>"`` for a
            missing/unreadable/oversized file, bad or hostile YAML (syntax, not a
            mapping, alias bomb, duplicate key), wrong types/units/keys, absurd
            sizes, a card that does not fit the paper, an impossible deck, too few
            symbols (with how many are needed), duplicate symbols, and any missing,
            empty, corrupt, oversized or unsafe image or font.
    """
    if isinstance(ref, Theme):  # already loaded (a caller checked its outputs first)
        return sized_theme(ref) if sized else ref  # one loaded with sized=False may have too few symbols
    path = _theme_file(ref)
    spec = parse_theme_data(load_yaml_file(path), shown(path))
    deferred: dict[Path, str] | None = {} if defer_svg_checks and check_files else None
    return _resolved(
        spec,
        path.parent,
        shown(path),
        check_files,
        progress,
        allow_outside,
        path=path,
        deferred=deferred,
        sized=sized,
        sheet=not sheet_checked_later,
    )


def check_used_files(theme: Theme, symbols: Sequence[SymbolSpec]) -> None:
    """Check the files of ``symbols`` (a deck's) whose checks ``load_theme(...,
    defer_svg_checks=True)`` left for later (:attr:`Theme.unchecked`), in theme order.

    Raises:
        PrintdeckError: A used SVG is unsafe, malformed, has no size or draws nothing, in
            the words and with the key :func:`load_theme` would have used.
    """
    used = {face.path for symbol in symbols for face in symbol.all_faces}
    pending = [(path, where, label) for path, where, label in theme.unchecked if path in used]
    if pending:
        check_files_later([(path, where) for path, where, _ in pending], pending[0][2], base=theme.base_dir)


def load_theme_data(
    data: object,
    base_dir: Path,
    *,
    label: str = "<theme>",
    check_files: bool = True,
    progress: Callable[[int], None] | None = None,
    allow_outside: bool = False,
    sized: bool = True,
) -> Theme:
    """Load a theme given as data (the mapping a theme file holds), not as a file.

    Args:
        data: The theme's keys, as :func:`~printdeck.theme.yamlsafe.load_yaml_text` of a theme file gives them.
        base_dir: Folder the theme's relative paths resolve against (and stay inside).
        label: What messages call the theme, in place of a file name.
        check_files, progress, allow_outside, sized: As :func:`load_theme`.

    Raises:
        PrintdeckError: As :func:`load_theme`, each message starting with ``label``.
    """
    spec = parse_theme_data(data, label)
    return _resolved(spec, Path(base_dir), label, check_files, progress, allow_outside, path=None, sized=sized)


def sized_theme(theme: Theme) -> Theme:
    """``theme`` with its deck sized to its symbols, as :func:`load_theme` sizes it: the theme
    itself when it was (``theme.sized``), else a copy with ``spec.deck.symbols_per_card``
    set (one loaded with ``sized=False``, or a copy of one given more symbols).

    Raises:
        PrintdeckError: Too few symbols for the deck, or no deck of that size, in the words
            and with the key :func:`load_theme` would have used.
    """
    if theme.sized:
        return theme
    try:
        size = deck_size_requirements(theme.spec.deck, len(theme.symbols))
    except PrintdeckError as exc:
        raise exc.located(theme_label(theme) or "<theme>") from None
    return dataclasses.replace(theme, spec=_sized_spec(theme.spec, size), sized=True)


def _sized_spec(spec: ThemeSpec, size: DeckSize) -> ThemeSpec:
    """``spec`` with its deck's ``symbols_per_card`` set to ``size``'s."""
    deck = spec.deck.model_copy(update={"symbols_per_card": size.symbols_per_card})
    return spec.model_copy(update={"deck": deck})


def _resolved(
    spec: ThemeSpec,
    base: Path,
    label: str,
    check_files: bool,
    progress: Callable[[int], None] | None,
    allow_outside: bool,
    path: Path | None,
    deferred: dict[Path, str] | None = None,
    sized: bool = True,
    sheet: bool = True,
) -> Theme:
    """Check what involves several keys (the card's fit on the sheet unless not ``sheet``) and
    every file (SVGs not checked before only fingerprinted when ``deferred`` is given: they
    are recorded there); set the deck's size (unless not ``sized``)."""
    try:
        check_consistency(spec, sheet=sheet)
        check_press_keys(spec)
        symbols = resolve_symbols(
            spec, base, check_files=check_files, progress=progress, allow_outside=allow_outside, deferred=deferred
        )
        size = _deck_size(spec.deck, len(symbols), required=sized)
        _check_backs(spec, base, check_files, allowed_roots(base, allow_outside))
    except PrintdeckError as exc:
        raise said_in(exc, base).located(label) from None
    if size is not None:
        spec = _sized_spec(spec, size)
    spec = _words_upright(spec, symbols)
    credit = _credit(spec.extras.attribution, symbols)
    name = spec.name or (_default_name(path) if path is not None else "theme")
    spec = _titled(spec, name if spec.name or path is not None else None)
    unchecked = tuple((file, where, label) for file, where in (deferred or {}).items())
    return Theme(
        spec=spec,
        name=name,
        base_dir=base.resolve(),
        symbols=symbols,
        attribution=credit,
        path=path,
        unchecked=unchecked,
        sized=size is not None,
        label=label if path is None else None,
    )


WORD_ROTATION_DEG = 30
"""How far symbols turn either way in a deck with words whose theme does not say
(``layout.rotation``): an upside-down word reads badly (``init --words`` writes the same)."""


def _words_upright(spec: ThemeSpec, symbols: Sequence[SymbolSpec]) -> ThemeSpec:
    """``spec`` with ``layout.rotation`` :data:`WORD_ROTATION_DEG` when it leaves the key out
    and a symbol (or a face of one) is a word, or an SVG of the theme's own holding text (a
    teacher's picture with its word under it printed "sop" for "dos"); else ``spec``."""
    if "rotation" in spec.layout.model_fields_set:
        return spec
    faces = [face for symbol in symbols for face in symbol.all_faces]
    bundled = data_root("assets")
    if not any(face.kind == "text" or _labelled_svg(face, bundled) for face in faces):
        return spec
    layout = spec.layout.model_copy(update={"rotation": float(WORD_ROTATION_DEG)})  # as the model holds degrees
    return spec.model_copy(update={"layout": layout})


def _labelled_svg(symbol: SymbolSpec, bundled: Path) -> bool:
    """Whether ``symbol`` is an SVG of the theme's own (the pictures in ``bundled`` hold no
    text) with text in it; an SVG that cannot be read is left to the checks that refuse it."""
    if symbol.kind != "svg" or symbol.path is None or Path(symbol.path).is_relative_to(bundled):
        return False
    from printdeck.artwork import svg_has_text  # noqa: PLC0415 - an SVG parsed only for a theme's own

    try:
        return svg_has_text(Path(symbol.path))
    except PrintdeckError:
        return False


def parse_theme_data(data: object, label: str) -> ThemeSpec:
    """Validate a theme's keys (types, units, keys, ranges); ``label`` starts each message.

    Raises:
        PrintdeckError: ``data`` is not a mapping, or a key is wrong (one line naming it).
    """
    if not isinstance(data, dict):
        got = (
            "an empty file"
            if data is None
            else ("a list" if isinstance(data, list) else f"the single value {data!r:.40}")
        )
        raise PrintdeckError(
            f"{label}: a theme must be a mapping of keys (name:, deck:, symbols: ...), "
            f"got {got}; see `printdeck init` for a starter theme"
        )
    try:
        return ThemeSpec.model_validate(data)
    except ValidationError as exc:
        raise validation_error(exc, ThemeSpec, label) from None


def _deck_size(deck: DeckSpec, n_symbols: int, required: bool) -> DeckSize | None:
    """``deck_size_requirements``; when not ``required``, None where it refuses."""
    try:
        return deck_size_requirements(deck, n_symbols)
    except PrintdeckError:
        if required:
            raise
        return None


def deck_size(theme: Theme) -> DeckSize:
    """The size of a loaded theme's deck (symbols a card, cards, symbols needed).

    Raises:
        PrintdeckError: As ``deck_size_requirements`` (cannot happen for a theme
            ``load_theme`` returned).
    """
    return deck_size_requirements(theme.spec.deck, len(theme.symbols))


def _credit(given: str | None, symbols: Sequence[SymbolSpec]) -> str | None:
    """The deck's credit line: ``extras.attribution``, with the Twemoji credit the bundled
    pictures' licence (CC BY 4.0) asks for whenever the theme uses one, named by
    ``@assets/twemoji`` or copied elsewhere (the same bytes), unless the line names Twemoji."""
    if not any(_is_bundled_art(face) for s in symbols for face in s.all_faces):
        return given
    if given is None:
        return TWEMOJI_CREDIT
    return given if "twemoji" in given.lower() else f"{given} \u00b7 {TWEMOJI_CREDIT}"  # credited in its own words


def _is_bundled_art(symbol: SymbolSpec) -> bool:
    if symbol.source.startswith(f"assets/{TWEMOJI_FOLDER}/"):
        return True
    if symbol.kind != "svg" or symbol.path is None:
        return False
    try:
        return file_digest(symbol.path) in _bundled_digests()
    except (PrintdeckError, OSError):
        return False


@lru_cache(maxsize=1)
def _bundled_digests() -> frozenset[str]:
    """The digests of the bundled pictures' files."""
    return frozenset(file_digest(path) for path in twemoji_folder().glob("*.svg"))


def _titled(spec: ThemeSpec, name: str | None) -> ThemeSpec:
    """``spec`` titled after the deck's ``name`` (its own, or its file's or folder's) when it
    gives no ``title``: a hand-written ``name: animals`` printed "printdeck" on every back,
    footer and box; now "Animals" (:func:`~printdeck.theme.spec_types.title_from_name`)."""
    title = title_from_name(name) if name is not None else ""
    if "title" in spec.model_fields_set or not title or unprintable_text(title) is not None:
        return spec  # a name no font here prints (家族 without a CJK font): printdeck's own title, as before
    return spec.model_copy(update={"title": title})


def _default_name(path: Path) -> str:
    stem = path.parent.name if path.name == "theme.yaml" else path.stem
    return name_slug(stem) or "theme"  # as init names a deck (scaffold.deck_name)


def _theme_file(ref: str | Path | None) -> Path:
    try:
        return _find_theme_file(ref)
    except (OSError, ValueError) as exc:
        raise PrintdeckError(
            f"{str(ref)[:80]!r}: not a usable theme path ({exc}); give a .yaml file, a folder "
            "with theme.yaml, or a bundled theme name"
        ) from None


def _find_theme_file(ref: str | Path | None) -> Path:
    if ref is None:
        ref = "default"
    path = Path(ref)
    if isinstance(ref, str) and not path.exists() and "/" not in ref and not ref.endswith((".yaml", ".yml")):
        bundled = bundled_theme_path(ref)
        if bundled is not None:
            sys.audit(INPUT_EVENT, str(path))  # looked for here first: one made later wins (printdeck.rerun)
            return bundled
        names = ", ".join(bundled_theme_names())
        near = difflib.get_close_matches(ref.casefold(), bundled_theme_names(), n=1)
        hint = f"did you mean {near[0]}? " if near else ""
        raise file_error(ref, f"no such theme file or bundled theme; {hint}bundled themes are {names}")
    if path.is_dir():
        path = path / "theme.yaml"
    if not path.exists() or path.is_dir():  # a FIFO or a device is refused when read, without blocking
        raise file_error(
            path,
            "theme file not found; give a .yaml file, a folder with theme.yaml, "
            "or a bundled theme name (printdeck themes)",
        )
    return path


def _check_backs(spec: ThemeSpec, base: Path, check_files: bool, roots: tuple[Path, ...] | None) -> None:
    if spec.backs.image is None:
        return
    path, _ = resolve_path(spec.backs.image, base, "backs.image")
    check_inside(path, "backs.image", roots)
    suffix = path.suffix.lower()
    if suffix not in IMAGE_SUFFIXES:
        raise key_error("backs.image", f"{spec.backs.image} is not a picture ({PICTURE_FORMATS}); convert it")
    if check_files:
        if suffix == ".svg":
            check_svg_file(path, "backs.image")
        else:
            check_raster_file(path, "backs.image")
        back = SymbolSpec(
            id=-1,
            name="card back",
            kind="svg" if suffix == ".svg" else "raster",
            source=spec.backs.image,
            path=path,
            theme_key="backs.image",
        )
        try:
            drawing(back)  # the drawing the back prints, made now: a bad file stops the build before the layout
        except PrintdeckError as exc:
            raise key_error("backs.image", str(exc)) from None
