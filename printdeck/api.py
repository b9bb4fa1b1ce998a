"""printdeck's public library API: what a script, the command line and the studio call.

Everything here is exported from :mod:`printdeck` itself::

    import printdeck

    theme = printdeck.load_theme("name: pets\\ndeck: {symbols_per_card: 3}\\nsymbols: [...]")
    result = printdeck.build(theme, out="pets.pdf", backs=True)
    print(result.pages, result.cards)

    design = printdeck.make_design(symbols_per_card=8, cards=55)
    assert printdeck.verify(design).ok

Semantic versioning applies to the names in ``printdeck.__all__`` from 0.2.0 on: a
release that removes or changes one of them bumps the major version. See docs/api.md.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from printdeck.artwork import Vision
from printdeck.assign import assign_symbols
from printdeck.card_view import card_pin_refusal, card_places, card_png, check_deck_pins
from printdeck.choices import FONT_SUFFIXES as FONT_SUFFIXES, SaveKind
from printdeck.deck_plan import (
    DeckPlan,
    deck_design,
    lay_out_plan,
    plan_deck,
    planned_deck,
    preview_page_png,
    prove_symbols,
    unused_symbols,
    write_preview_sheet,
)
from printdeck.decks import Deck
from printdeck.design import DeckFile, Design, VerifyReport, verify_blocks
from printdeck.errors import PrintdeckError, path_error, shown
from printdeck.fileio import check_not_inputs, check_replaceable
from printdeck.layout import PinRefusal
from printdeck.model import BuildResult, CardLayout, CropReport, SymbolSpec
from printdeck.outputs import theme_inputs
from printdeck.pipeline import (
    BuildOptions,
    Reporter,
    build as _build_deck,
    faces_summary,
    make_deck as _make_deck,
)
from printdeck.theme import (
    SEED_MAX as SEED_MAX,
    BuildSettings,
    OptionInfo as OptionInfo,
    PreviewSettings,
    SlidesSettings,
    Theme,
    check_look_alikes,
    load_theme as _load_theme_ref,
    load_theme_data,
    load_yaml_text,
    look_alikes as _look_alikes,
    option_table as _option_table,
    parse_settings,
    warn_vision_look_alikes,
)

if TYPE_CHECKING:
    from PIL import Image
    from pydantic import BaseModel

    from printdeck.artwork import LookAlike

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
        return source
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
        )
    return _load_theme_ref(source, check_files=check_files, progress=progress, allow_outside=allow_outside)


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
        printdeck.errors.PrintdeckError: paper: expected one of 'a4', 'letter' or 'a3', got "a5"
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
        deck = _make_deck(ref, options, reporter)
        pdf = deck.to_bytes(SaveKind.PDF)
        pngs = deck.write_pngs(options.png_dir) if options.png_dir is not None else []
        out.write(pdf)
        return BuildResult(
            pdf_path=None,
            manifest_path=None,
            pages=_pdf_pages(pdf),
            cards=len(deck.cards),
            symbols_per_card=len(deck.plan.design.blocks[0]),
            size_bytes=len(pdf),
            png_paths=pngs,
            unused=list(deck.plan.unused),
            faces=faces_summary(deck.plan),
        )
    return _build_deck(ref, None if out is None else Path(out), options, reporter)


def _theme_ref(theme: ThemeSource, allow_outside: bool) -> Theme | str | Path | None:
    if isinstance(theme, Mapping) or (isinstance(theme, str) and "\n" in theme):
        return load_theme(theme, allow_outside=allow_outside)
    return theme  # a file or a name loads in the build's "theme" stage


def _pdf_pages(pdf: bytes) -> int:
    """The pages of a PDF, counted by PDFium from its bytes."""
    import pypdfium2  # noqa: PLC0415

    return len(pypdfium2.PdfDocument(pdf))


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


def verify(deck: Design | Sequence[Sequence[int]], lam: int | None = None) -> VerifyReport:
    """Check a deck from its incidence matrix: every two cards share exactly λ symbols
    and no card shows a symbol twice.

    Args:
        deck: A :class:`Design`, or cards as lists of symbol numbers (``[[0, 1, 2], ...]``).
        lam: λ to check (default: the design's, else 1).

    Returns:
        The report: ``ok``, the counts, and the first offending pairs of cards.

    Raises:
        ValueError: ``lam`` is not 1 or more.

    Examples:
        >>> import printdeck
        >>> printdeck.verify(printdeck.make_design(symbols_per_card=4)).ok
        True
        >>> report = printdeck.verify([[0, 1, 2], [0, 3, 4], [1, 2, 5]])
        >>> report.ok, report.bad_pair_count
        (False, 2)
    """
    if lam is not None and lam < 1:
        raise ValueError(f"lam: expected 1 or more, got {lam}")
    if isinstance(deck, Design):
        return verify_blocks(deck.blocks, deck.lam if lam is None else lam)
    return verify_blocks(deck, 1 if lam is None else lam)


def plan(theme: ThemeSource = None, *, prove: bool = True) -> DeckPlan:
    """The deck a theme makes, before layout: its design and the symbol on each point,
    exactly as :func:`build` chooses them (for previews; see :class:`DeckPlan`).

    Raises:
        PrintdeckError: as :func:`build`, for the theme and the design.
    """
    return plan_deck(load_theme(theme), prove=prove)


def lay_out(deck: DeckPlan, progress: Callable[[int], None] | None = None, jobs: int | None = None) -> list[CardLayout]:
    """Lay out every card of a planned deck as :func:`build` does (cards packed before
    come from the cache). ``progress`` is called with 1 a card; ``jobs`` caps workers.

    Raises:
        PrintdeckError: a card cannot be laid out (naming it and the fix).
    """
    return lay_out_plan(deck, progress=progress, jobs=jobs)


def preview_page(deck: DeckPlan, layouts: Sequence[CardLayout], page: int, *, ppi: float = 96.0) -> bytes:
    """Front sheet ``page`` (1-based) drawn by the PDF renderer and rasterised (PNG bytes).

    Raises:
        ValueError: ``page`` out of range, or a card of that page has no layout.
    """
    return preview_page_png(deck, layouts, page, ppi)


def view_card(deck: DeckPlan, layouts: Sequence[CardLayout], card: int) -> dict[str, Any]:
    """Printed card ``card`` (1-based) laid out, as plain data: each symbol's name, centre,
    rotation, frame, ink box and whether it is pinned, and the card's size (see
    :func:`printdeck.card_view.card_places`).

    Raises:
        ValueError: no such card, or ``layouts`` do not hold it.
    """
    return card_places(deck, layouts, card)


def preview_card(deck: DeckPlan, layouts: Sequence[CardLayout], card: int, *, ppi: float = 200.0) -> bytes:
    """Printed card ``card`` (1-based, its bleed's square) drawn by the PDF renderer and
    rasterised (PNG bytes): the card as it prints.

    Raises:
        ValueError: no such card, or ``layouts`` do not hold it.
    """
    return card_png(deck, layouts, card, ppi)


def check_pins(deck: DeckPlan, card: int) -> PinRefusal | None:
    """Why printed card ``card``'s pins (``layout.pinned`` of the deck's theme) cannot be laid
    out, or None: the checks the layout makes before packing the card.

    Raises:
        ValueError: no such card.
    """
    return card_pin_refusal(deck, card)


def deck_sizes_text(n_symbols: int, match: int = 1) -> str:
    """What ``n_symbols`` symbols allow, in one line, e.g.
    ``"40 symbols: 31 cards of 6; add 17 for 57 cards of 8"``: the largest full deck
    that fits, then the next larger deck and how many more symbols it needs (``"(match
    2)"`` follows the count for λ = 2).

    Raises:
        ValueError: ``match`` is not 1 or 2, or ``n_symbols`` is negative.
    """
    from printdeck.design import deck_points, largest_deck, next_larger_deck  # noqa: PLC0415

    if match not in (1, 2) or n_symbols < 0:
        raise ValueError(f"deck_sizes_text: expected match 1 or 2 and 0 or more symbols, got {match}, {n_symbols}")
    fit = largest_deck(n_symbols, match)
    bigger = next_larger_deck(n_symbols, match)
    parts = [] if fit is None else [f"{deck_points(fit, match)} cards of {fit}"]
    if bigger is not None:
        needed = deck_points(bigger, match)
        parts.append(f"add {needed - n_symbols} for {needed} cards of {bigger}")
    head = f"{n_symbols} symbol{'' if n_symbols == 1 else 's'}{' (match 2)' if match == 2 else ''}"
    return f"{head}: {'; '.join(parts)}"


def deck_size_table(match: int = 1) -> list[dict[str, int]]:
    """Every full deck printdeck builds for λ = ``match``, smallest first, as the studio's
    size menu lists them: ``{"symbols_per_card": k, "cards": n, "order": k - match}``
    (the cards of a deck are its symbols: k² - k + 1 for λ = 1, 1 + k(k - 1)/2 for λ = 2).

    Raises:
        ValueError: ``match`` is not 1 or 2.
    """
    from printdeck.design import deck_points, feasible_sizes  # noqa: PLC0415

    if match not in (1, 2):
        raise ValueError(f"match: expected 1 or 2, got {match!r}")
    return [{"symbols_per_card": k, "cards": deck_points(k, match), "order": k - match} for k in feasible_sizes(match)]


def upright_picture(path: str | Path, longest_px: int) -> Image.Image:
    """A picture file (PNG, JPEG, WebP, HEIC, AVIF) as printdeck draws it: turned upright
    as its EXIF says, 8-bit RGBA with its real tones (16-bit and CMYK files included),
    scaled so its longer side is ``longest_px`` pixels (for thumbnails).

    Raises:
        PrintdeckError: The file is missing, unreadable, too large or not a picture.
    """
    from printdeck.artwork import upright_file  # noqa: PLC0415 - Pillow decoders only when asked

    return upright_file(Path(path), longest_px, shown(Path(path).name))


def photo_crop(symbol: SymbolSpec, compute: bool = True) -> CropReport | None:
    """What a photo symbol's crop holds and where it is (faces, a cat's face, the subject,
    nothing, or the theme's focus; the crop box in upright source pixels): the report the
    build's summary and manifest give. None for a symbol that is not a photo.

    Args:
        symbol: A symbol of a loaded theme (``theme.symbols``).
        compute: Search the photo if its crop is not known yet (about a second a
            twelve-megapixel photo); False answers at once with what this process or the
            cache already knows, else None.

    Raises:
        PrintdeckError: The photo cannot be read.
    """
    from printdeck.artwork import drawing, known_crop_report  # noqa: PLC0415 - OpenCV only for photos

    if symbol.kind != "photo":
        return None
    return drawing(symbol).crop_report if compute else known_crop_report(symbol)


def trace_symbol(symbol: SymbolSpec) -> None:
    """Draw and trace ``symbol`` now, as planning a deck with it would (a photo's crop:
    faces, a pet's face or the subject; the silhouette the layout packs), and keep both in
    this process and the disk cache: a later plan, preview or build of a theme holding it
    finds them ready. The studio calls it for each picture as it is checked.

    Raises:
        PrintdeckError: The artwork cannot be read, or draws nothing visible.
    """
    from printdeck.artwork import silhouette  # noqa: PLC0415 - OpenCV only for photos

    silhouette(symbol)


# --- used by the CLI ---
# ``printdeck check``, ``preview`` and ``verify`` (the other commands call the functions
# above or names re-exported from the stages' packages, see ``printdeck/__init__``).


@dataclass(frozen=True)
class CheckReport:
    """What :func:`check_theme` found: the deck a build of the theme makes.

    Attributes:
        name: The theme's name.
        cards: Cards in the deck.
        symbols_per_card: Symbols on each card.
        match: Symbols every two cards share.
        symbols_used: Symbols the deck needs (the design's points).
        symbols_offered: Symbols the theme gives.
        unused: Names of the theme's symbols no card shows, in theme order.
    """

    name: str
    cards: int
    symbols_per_card: int
    match: int
    symbols_used: int
    symbols_offered: int
    unused: tuple[str, ...]


def check_theme(
    theme: ThemeSource = None,
    *,
    allow_outside: bool = False,
    allow_look_alike: bool | None = None,
    grayscale: bool | None = None,
) -> CheckReport:
    """Check a theme as :func:`build` does before the layout, writing nothing.

    Every key and file is checked, every symbol of the theme (not only the deck's) is
    proven to print the ink its silhouette shows, the design is made (a searched deck
    is searched, as the build searches it) and the symbols are assigned to it; pinned
    symbols (``layout.pinned``) are checked as the layout checks them.

    Symbols players cannot tell apart are refused (warned about with ``allow_look_alike``);
    those that look alike only in grey or for colour-blind players (protanopia,
    deuteranopia, tritanopia) are warned about, with or without ``grayscale``.

    Raises:
        PrintdeckError: Anything :func:`build` would refuse before the layout, as one line.

    Warns:
        VectorWarning: An SVG will print as its raster instead of its vector form.
        LookAlikeWarning: Symbols that look alike in grey or for colour-blind players.
    """
    loaded = load_theme(theme, allow_outside=allow_outside)
    prove_symbols(loaded)  # every symbol: the same refusals as any deck of the theme
    spec = loaded.spec
    grey = spec.paper.grayscale if grayscale is None else grayscale
    allow = spec.deck.allow_look_alike if allow_look_alike is None else allow_look_alike
    check_look_alikes(loaded, allow=allow, grey=grey)  # a grey deck: warns about pairs alike in grey
    warn_vision_look_alikes(loaded, grey=not grey)  # colour-blind players; grey too unless just warned
    design = deck_design(loaded)
    symbols = assign_symbols(loaded, design.n_points, loaded.spec.seed)  # refuses too few symbols
    unused = unused_symbols(loaded, symbols, design.blocks)  # balancing only permutes points: not needed here
    if loaded.spec.layout.pinned:  # touched-up cards: their pins checked as the layout checks them
        check_deck_pins(planned_deck(loaded, design, symbols))
    return CheckReport(
        name=loaded.name,
        cards=len(design.blocks),
        symbols_per_card=len(design.blocks[0]),
        match=design.lam,
        symbols_used=design.n_points,
        symbols_offered=len(loaded.symbols),
        unused=tuple(s.name for s in unused),
    )


def look_alikes(theme: ThemeSource = None, *, colour_blind: bool = False) -> list[LookAlike]:
    """The pairs of the theme's symbols (or faces of two symbols) that players cannot tell
    apart, as :func:`check_theme` and :func:`build` refuse them (see
    ``printdeck.artwork.lookalike``): each names both (``first``, ``second``), their positions
    in ``theme.symbols`` (``groups``), how they were seen (``vision``) and why (``reason()``).

    Args:
        theme: Anything :func:`load_theme` takes.
        colour_blind: Also the pairs alike only printed in grey or for colour-blind players
            (``vision`` says which; ``check`` warns about them).

    Raises:
        PrintdeckError: The theme cannot be loaded or a symbol cannot be drawn.
    """
    loaded = load_theme(theme)
    grey = (Vision.GREY,) if loaded.spec.paper.grayscale else ()
    if colour_blind:
        extra = (Vision.PROTANOPIA, Vision.DEUTERANOPIA, Vision.TRITANOPIA)
        return _look_alikes(loaded, visions=(*(grey or (Vision.NORMAL, Vision.GREY)), *extra))
    return _look_alikes(loaded, visions=grey)


@dataclass(frozen=True)
class PreviewResult:
    """What :func:`write_preview` wrote.

    Attributes:
        path: The PNG contact sheet.
        cards: Cards drawn on it.
        unused: Names of the theme's symbols no card of the whole deck shows.
    """

    path: Path
    cards: int
    unused: tuple[str, ...]


def write_preview(
    theme: ThemeSource = None,
    out: str | Path = "preview.png",
    *,
    cards: int = 12,
    seed: int | None = None,
    px_per_mm: float = 3.0,
    allow_outside: bool = False,
) -> PreviewResult:
    """Lay out the deck's first ``cards`` cards and write them as a PNG contact sheet.

    Args:
        theme: Anything :func:`load_theme` accepts (default: the bundled default theme).
        out: The ``.png`` to write (atomically; its folder must exist).
        cards: Cards to draw (1 .. 2000; the whole deck if it is smaller).
        seed: Overrides the theme's ``seed``.
        px_per_mm: Resolution of the sheet, pixels per millimetre (1 .. 20).

    The options are checked by :class:`printdeck.theme.PreviewSettings`.

    Raises:
        PrintdeckError: A bad count or output name, a missing folder, an output that is
            one of the theme's files, a symlink or a special file; a bad theme, an
            impossible deck or layout.
    """

    out_path = Path(out)
    settings = parse_settings(PreviewSettings, {"cards": cards, "seed": seed, "px_per_mm": px_per_mm})
    if out_path.suffix.lower() != ".png":
        raise path_error("out", out_path, "the preview must be a .png file name")
    if not (out_path.parent if str(out_path.parent) else Path(".")).is_dir():
        raise path_error(
            "out", out_path, f"folder {shown(out_path.parent)} does not exist", "create it or choose another path"
        )
    loaded = load_theme(theme, allow_outside=allow_outside)
    check_not_inputs([("out", out_path)], theme_inputs(loaded))  # before any layout
    check_replaceable(out_path)  # not a symlink, a device or a pipe
    sheet = write_preview_sheet(
        loaded, out_path, count=settings.cards, seed=settings.seed, px_per_mm=settings.px_per_mm
    )
    return PreviewResult(sheet.path, sheet.cards, sheet.unused)


def verify_file(path: str | Path, match: int | None = None) -> tuple[DeckFile, VerifyReport]:
    """Read a deck file (design JSON or CSV, or a build's manifest) and check it as
    :func:`verify` does (every two cards share exactly λ symbols, no card repeats one).

    Args:
        path: The file (limits: :func:`printdeck.design.read_deck`).
        match: λ to check, overriding the file's (default: the file's, else 1).

    Returns:
        The deck as read (symbols renumbered, their labels, λ) and the report.

    Raises:
        PrintdeckError: The file is missing, not a regular file, too large or malformed.

    A class set's manifest (cards with a ``deck``) is checked deck by deck
    (``VerifyReport.decks``): copies of one card in two decks are not a fault.
    """
    from printdeck.design import read_deck, verify_decks, verify_flat  # noqa: PLC0415

    deck = read_deck(Path(path), match)
    if deck.decks:  # a class set: each deck on its own
        return deck, verify_decks(deck.flat, deck.sizes, deck.decks, deck.lam)
    return deck, verify_flat(deck.flat, deck.sizes, deck.lam)
