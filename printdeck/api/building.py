"""The library's build calls: a theme loaded, a deck built to files or made in memory, and
the options they take (exported from :mod:`printdeck`; see :mod:`printdeck.api`)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import IO, TYPE_CHECKING

from printdeck.build_result import BuildResult
from printdeck.choices import SaveKind
from printdeck.decks import Deck
from printdeck.errors import PrintdeckError, path_error
from printdeck.pipeline import (
    BuildOptions,
    Reporter,
    build as _build_deck,
    faces_summary,
    make_deck as _make_deck,
)
from printdeck.theme import (
    BuildSettings,
    OptionInfo,
    PreviewSettings,
    SlidesSettings,
    Theme,
    load_theme as _load_theme_ref,
    load_theme_data,
    load_yaml_text,
    option_table as _option_table,
    sized_theme,
)

if TYPE_CHECKING:
    from pydantic import BaseModel


ThemeSource = Theme | Mapping[str, object] | str | Path | None
"""A theme as :func:`load_theme` accepts it."""


def load_theme(
    source: ThemeSource = None,
    *,
    base_dir: str | Path | None = None,
    check_files: bool = True,
    allow_outside: bool = False,
    progress: Callable[[int], None] | None = None,
) -> Theme:
    """Load and check a theme from a file, a folder, a bundled name, a mapping or YAML text.

    Args:
        source: One of
            - ``None``: the bundled default theme;
            - a :class:`~pathlib.Path`, or a ``str`` without a line break: a ``.yaml``
              file, a folder holding ``theme.yaml``, or a bundled theme's name
              (``"junior"``; see ``printdeck themes``);
            - a ``str`` with a line break: the text of a theme file (YAML);
            - a mapping: the keys a theme file holds (``{"deck": {"symbols_per_card":
              3}, "symbols": [{"text": "cat"}, ...]}``);
            - a :class:`Theme`: returned as it is.
        base_dir: Folder the relative paths of a mapping or YAML text resolve against
            (default: the current folder). Ignored for files and folders (their own
            folder is used).
        check_files: Decode every image and font now (default), so a bad file fails
            here, in a fraction of a second, instead of during the build.
        allow_outside: Let the theme read files outside its folder and the bundled assets.
        progress: Called with 1 after each image file is checked.

    Returns:
        The validated theme, every symbol resolved; ``theme.spec.deck.symbols_per_card``
        is set (the largest deck the symbols allow when the theme gives no size).

    Raises:
        PrintdeckError: One line naming the file (or ``<theme>`` for a mapping, ``<YAML
            text>`` for text), the key and the fix: bad YAML, wrong keys, types or units,
            a missing, corrupt or unsafe file, an impossible deck, too few symbols.

    Examples:
        >>> import printdeck
        >>> theme = printdeck.load_theme({"symbols": [{"text": w} for w in "abcdefg"]})
        >>> theme.spec.deck.symbols_per_card, len(theme.symbols)
        (3, 7)
        >>> printdeck.load_theme({"card": {"diameter": "big"}})
        Traceback (most recent call last):
        printdeck.errors.PrintdeckError: <theme>: card.diameter: expected a length such as "85mm"
        (units mm, cm, in, pt), got "big"
    """
    if isinstance(source, Theme):
        return sized_theme(source)  # one loaded with too few symbols for a deck (load_symbols) makes none
    return _loaded(source, base_dir, check_files, allow_outside, progress)


def load_symbols(source: ThemeSource = None, *, base_dir: str | Path | None = None) -> Theme:
    """Load a theme as :func:`load_theme` does, except that its symbols may be too few for
    any deck yet: for comparing them (:func:`~printdeck.look_alikes`) or showing them while
    they are added. Files are checked as :func:`load_theme` checks them.

    Args:
        source, base_dir: As :func:`load_theme`.

    Returns:
        The theme; when its deck section fits its symbols, the same as :func:`load_theme`
        gives. Otherwise ``theme.sized`` is False and :func:`load_theme`, :func:`plan`
        and :func:`build` refuse it as :func:`load_theme` would have (too few symbols,
        with how many more are needed).

    Raises:
        PrintdeckError: As :func:`load_theme`, except for the deck's size.

    Examples:
        >>> import printdeck
        >>> theme = printdeck.load_symbols({"symbols": [{"text": "cat"}, {"text": "dog"}]})
        >>> len(theme.symbols), theme.sized
        (2, False)
    """
    if isinstance(source, Theme):
        return source
    return _loaded(source, base_dir, True, False, None, sized=False)


def _loaded(
    source: Mapping[str, object] | str | Path | None,
    base_dir: str | Path | None,
    check_files: bool,
    allow_outside: bool,
    progress: Callable[[int], None] | None,
    sized: bool = True,
) -> Theme:
    """:func:`load_theme` of anything but a loaded theme (``sized``: see ``printdeck.theme.load_theme``)."""
    if isinstance(source, Mapping) or (isinstance(source, str) and "\n" in source):
        data = source if isinstance(source, Mapping) else load_yaml_text(source, "<YAML text>")
        label = "<theme>" if isinstance(source, Mapping) else "<YAML text>"
        base = Path.cwd() if base_dir is None else Path(base_dir)
        if not base.is_dir():
            raise path_error("base_dir", base, "not a folder", "give the folder the theme's files are in")
        return load_theme_data(
            dict(data) if isinstance(data, Mapping) else data,
            base,
            label=label,
            check_files=check_files,
            progress=progress,
            allow_outside=allow_outside,
            sized=sized,
        )
    return _load_theme_ref(source, check_files=check_files, progress=progress, allow_outside=allow_outside, sized=sized)


def build(
    theme: ThemeSource = None,
    out: str | Path | IO[bytes] | None = None,
    *,
    seed: int | None = None,
    paper: str | tuple[str | float, str | float] | None = None,
    backs: bool | None = None,
    single: bool | None = None,
    legend: bool | None = None,
    rules: bool | None = None,
    png_dir: str | Path | None = None,
    dpi: int = 300,
    png_margin_mm: float | str = 0.0,
    png_cut: bool = False,
    allow_outside: bool = False,
    copies: int | None = None,
    pack: bool | None = None,
    booklet: bool = False,
    tuck_box: bool | None = None,
    allow_look_alike: bool | None = None,
    grayscale: bool | None = None,
    reporter: Reporter | None = None,
    layout: str | None = None,
    color: str | None = None,
    pdfx: str | None = None,
    ink_limit: int | None = None,
    die_line: bool | None = None,
    preset: str | None = None,
    image_format: str | None = None,
) -> BuildResult:
    """Build a deck: design, layout, and the print-ready PDF with its JSON manifest.

    Args:
        theme: Anything :func:`load_theme` accepts (default: the bundled default theme).
        out: The PDF to write (default ``output/<theme name>.pdf``, the folder created);
            the manifest goes beside it as ``<out>.json``. A binary stream
            (``io.BytesIO()``) receives the PDF alone (the result's paths are ``None``;
            :func:`make` gives the manifest as a dict).
        seed: Overrides the theme's ``seed`` (0 .. ``SEED_MAX``, 2**32 - 1).
        paper: ``"a4"``, ``"letter"``, ``"a3"`` or ``(width, height)`` as lengths
            (``("200mm", "280mm")``) or numbers in mm.
        backs: Interleave back pages for duplex printing (``None`` keeps the theme's).
        single: One card a page (trim + bleed), for print shops (``layout="single"``).
        legend: Add the symbol legend page(s).
        rules: Add the rules sheet.
        png_dir: Also write one PNG a card into this folder.
        dpi: Resolution of those PNGs, ppi (72 .. 1200).
        png_margin_mm: Extra radial margin around each PNG card: mm, or a length
            (``"2mm"``), 0 .. 20 mm.
        png_cut: PNGs at cut size, transparent outside the card's shape (print-then-cut).
        allow_outside: Let the theme read files outside its folder.
        copies: A class set of this many decks (``deck.copies``, 1 .. 12): each its own
            back colour, deck mark (its letter in a dot of its colour) and layouts.
        pack: A class set's sheets may mix decks (``paper.pack``): fewer sheets.
        booklet: The print-and-play booklet in one PDF: card sheets with backs, the
            legend, the rules and a tuck box a deck.
        tuck_box: Add a tuck box template a deck (``extras.tuck_box``).
        allow_look_alike: Warn about symbols players cannot tell apart instead of refusing
            them (``None`` keeps the theme's ``deck.allow_look_alike``).
        grayscale: Print a grey deck: a DeviceGray PDF (``None`` keeps ``paper.grayscale``).
        reporter: Receives progress (stages theme, design, proof, layout, render, png).
        layout: ``"sheet"`` (several cards a page) or ``"single"`` (``paper.layout``).
        color: ``"rgb"`` or ``"cmyk"`` (press CMYK as PDF/X; the theme's ``paper.color``).
        pdfx: ``"x-4"`` or ``"x-1a"`` for a CMYK file (``paper.pdfx``).
        ink_limit: Total ink limit of a CMYK file, percent: 240, 260, 280, 300 or 320.
        die_line: Stroke each cut path in the spot colour ``CutContour`` on its own layer.
        preset: A print service's preset (:func:`printdeck.presets`, e.g. ``"drivethrucards"``):
            its theme keys go over the theme's, the arguments above over both, and its
            per-card images are written to ``<out>-<preset>/`` (unless ``png_dir`` is given).
        image_format: ``"png"`` or ``"jpg"``: the per-card images' format.

    Every option is checked by :class:`printdeck.theme.BuildSettings` (its range,
    default and help live there): a wrong one is a :class:`PrintdeckError` naming
    the argument (``seed: expected a whole number, got "7"``).

    Returns:
        The files written, with page, card and symbol counts and the left-out symbols.

    Raises:
        PrintdeckError: Anything the user can fix, as one line; everything checkable
            is checked before the layout, and on an error nothing is written or
            overwritten (the PDF and manifest are committed together).

    Examples:
        >>> import io, printdeck
        >>> words = {"deck": {"symbols_per_card": 3}, "symbols": [{"text": w} for w in "abcdefg"]}
        >>> pdf = io.BytesIO()
        >>> result = printdeck.build(words, out=pdf, rules=True)
        >>> result.cards, result.symbols_per_card, result.pdf_path, pdf.getvalue()[:5]
        (7, 3, None, b'%PDF-')
        >>> printdeck.build(words, out=pdf, paper="a5")
        Traceback (most recent call last):
        printdeck.errors.PrintdeckError: paper: expected a4, letter, a3, or a width and height ... got "a5"
    """
    options = BuildOptions(
        seed=seed,
        paper=paper,
        backs=backs,
        single=single,
        legend=legend,
        rules=rules,
        png_dir=None if png_dir is None else Path(png_dir),
        dpi=dpi,
        png_margin_mm=png_margin_mm,
        png_cut=png_cut,
        allow_outside=allow_outside,
        layout=layout,
        copies=copies,
        pack=pack,
        booklet=booklet,
        tuck_box=tuck_box,
        allow_look_alike=allow_look_alike,
        grayscale=grayscale,
        color=color,
        pdfx=pdfx,
        ink_limit=ink_limit,
        die_line=die_line,
        preset=preset,
        image_format=image_format,
    )
    ref = _theme_ref(theme, allow_outside)
    if out is not None and hasattr(out, "write"):  # a binary stream: the PDF only, no manifest file
        from printdeck.render import page_count  # noqa: PLC0415 - PDFium only for a stream's page count

        deck = _make_deck(ref, options, reporter)
        pdf = deck.to_bytes(SaveKind.PDF)
        pngs = deck.write_pngs(options.png_dir) if options.png_dir is not None else []
        out.write(pdf)
        return BuildResult(
            pdf_path=None,
            manifest_path=None,
            pages=page_count(pdf),
            cards=len(deck.cards),
            symbols_per_card=len(deck.plan.design.blocks[0]),
            size_bytes=len(pdf),
            png_paths=pngs,
            unused=list(deck.plan.unused),
            faces=faces_summary(deck.plan),
            duplex=deck.backs_duplex(),
        )
    return _build_deck(ref, None if out is None else Path(out), options, reporter)


def _theme_ref(theme: ThemeSource, allow_outside: bool) -> Theme | str | Path | None:
    if isinstance(theme, Mapping) or (isinstance(theme, str) and "\n" in theme):
        return load_theme(theme, allow_outside=allow_outside)
    return theme  # a file or a name loads in the build's "theme" stage


def make(theme: ThemeSource = None, **options: object) -> Deck:
    """Make a deck in memory: design and layout, no files written (see :class:`Deck`).

    Args:
        theme: Anything :func:`load_theme` accepts (default: the bundled default theme).
        **options: The options :func:`build` takes (``seed``, ``paper``, ``backs``,
            ``layout``, ``legend``, ``rules``, ``copies``, ``dpi``, ``png_margin_mm``,
            ``allow_outside``, ``reporter``...), validated the same way.

    Returns:
        The deck: ``deck.cards``, ``deck.manifest`` (a dict), and ``deck.save(path or
        binary stream, kind="pdf" | "png-zip" | "manifest")``.

    Raises:
        PrintdeckError: As :func:`build` (an unknown option names itself).

    Examples:
        >>> import io, printdeck
        >>> words = {"deck": {"symbols_per_card": 3}, "symbols": [{"text": w} for w in "abcdefg"]}
        >>> deck = printdeck.make(words, seed=7)
        >>> deck.manifest["seed"], deck.manifest["design"]["lines"], len(deck.cards)
        (7, 7, 7)
        >>> deck.save(io.BytesIO(), kind="manifest") > 0
        True
        >>> printdeck.make(words, seed="7")
        Traceback (most recent call last):
        printdeck.errors.PrintdeckError: seed: expected a whole number, got "7"
    """
    reporter = options.pop("reporter", None)
    known = {f.name for f in dataclasses.fields(BuildOptions)} - {"png_dir"}
    for name in options:
        if name not in known:
            raise PrintdeckError(
                key=name, problem=f"not an option of make; use one of {', '.join(sorted(known))}", is_argument=True
            )
    allow_outside = options.get("allow_outside", False)
    if not isinstance(allow_outside, bool):
        raise PrintdeckError(
            key="allow_outside", value=allow_outside, problem="expected true or false", is_argument=True
        )
    built = BuildOptions(**options)  # type: ignore[arg-type]
    return _make_deck(_theme_ref(theme, allow_outside), built, reporter)  # type: ignore[arg-type]


def option_table(command: str) -> list[OptionInfo]:
    """The options of ``command`` (``"build"``, ``"preview"`` or ``"slides"``) as the front ends show
    them: flag, kind, range, choices, default, unit and help, read from the settings'
    JSON Schema (:class:`~printdeck.theme.BuildSettings`,
    :class:`~printdeck.theme.PreviewSettings`, :class:`~printdeck.theme.SlidesSettings`), in
    field order.

    Raises:
        ValueError: an unknown command.
    """
    models: dict[str, type[BaseModel]] = {"build": BuildSettings, "preview": PreviewSettings, "slides": SlidesSettings}
    if command not in models:
        raise ValueError(f"command: expected one of {', '.join(models)}, got {command!r}")
    return _option_table(models[command])
