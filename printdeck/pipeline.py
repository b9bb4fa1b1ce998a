"""The whole build: theme -> design -> layout -> render (+ manifest), as one library call."""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from pydantic import ValidationError

from printdeck.assign import assign_symbols, balance_symbols, colour_words
from printdeck.design import Design, DesignRequestError, make_design, verify_blocks
from printdeck.errors import PrintdeckError, shown
from printdeck.fileio import atomic_outputs, check_not_inputs, check_replaceable
from printdeck.layout import LayoutSettings, layout_deck
from printdeck.manifest import build_manifest, write_manifest
from printdeck.model import BuildResult, CardLayout, SymbolSpec
from printdeck.outputs import check_png_dir, theme_inputs
from printdeck.theme import PaperSpec, Theme, check_consistency, describe_validation_error, load_theme, theme_worded

if TYPE_CHECKING:
    from printdeck.render import Imposition


class Reporter(Protocol):
    """Receives progress from the build (the CLI draws bars; tests pass nothing)."""

    def stage(self, name: str, total: int | None) -> contextlib.AbstractContextManager[Callable[[int], None]]:
        """Enter a stage of ``total`` steps; the yielded function advances it by n."""


class _Silent:
    @contextlib.contextmanager
    def stage(self, name: str, total: int | None) -> Iterator[Callable[[int], None]]:
        yield lambda n: None


@dataclasses.dataclass(frozen=True)
class BuildOptions:
    """Command-line overrides of the theme (``None`` keeps the theme's value).

    Attributes:
        seed: Seed for symbol choice, assignment and layout.
        paper: ``"a4"``, ``"letter"``, ``"a3"``, or (width, height) as lengths with units
            (``("200mm", "280mm")``) or numbers in mm; validated like the theme's
            ``paper.size``.
        backs: Turn on back pages (the theme's backs, or the default back).
        single: One card a page (page = trim + bleed), for print shops.
        legend: Add the symbol legend page(s).
        rules: Add the rules sheet.
        png_dir: Also write one PNG a card into this folder.
        dpi: Resolution of those PNGs.
        png_margin_mm: Extra radial margin around each PNG card.
        allow_outside: Let the theme read files outside its folder and the bundled
            assets (``--allow-outside``).
    """

    seed: int | None = None
    paper: str | tuple[str | float, str | float] | None = None
    backs: bool | None = None
    single: bool | None = None
    legend: bool | None = None
    rules: bool | None = None
    png_dir: Path | None = None
    dpi: int = 300
    png_margin_mm: float = 0.0
    allow_outside: bool = False


def _paper_size(value: str | tuple[str | float, str | float]) -> object:
    """Validate a ``--paper`` override exactly as the theme's ``paper.size`` is validated."""
    raw = value.lower() if isinstance(value, str) else [f"{v}mm" if isinstance(v, (int, float)) else v for v in value]
    try:
        return PaperSpec.model_validate({"size": raw}).size
    except ValidationError as exc:
        detail = describe_validation_error(exc, PaperSpec, "--paper").split(": ", 2)[-1]
        raise PrintdeckError(f"--paper: {detail}") from None


def apply_options(theme: Theme, options: BuildOptions) -> Theme:
    """Return ``theme`` with the command-line overrides written into its spec, re-checked.

    Raises:
        PrintdeckError: an override is invalid or does not fit the theme (e.g. the card
            does not fit the paper).
    """
    spec = theme.spec
    paper_update: dict[str, object] = {}
    if options.paper is not None:
        paper_update["size"] = _paper_size(options.paper)
    if options.single is not None:
        paper_update["layout"] = "single" if options.single else "sheet"
    backs = spec.backs.model_copy(update={} if options.backs is None else {"enabled": options.backs})
    extras = spec.extras.model_copy(
        update={k: v for k, v in {"legend": options.legend, "rules": options.rules}.items() if v is not None}
    )
    update: dict[str, object] = {"paper": spec.paper.model_copy(update=paper_update), "backs": backs, "extras": extras}
    if options.seed is not None:
        update["seed"] = options.seed
    spec = spec.model_copy(update=update)
    check_consistency(spec)
    return dataclasses.replace(theme, spec=spec)


def deck_design(theme: Theme) -> Design:
    """Build the (trimmed) design the theme's ``deck`` section asks for, verified.

    The deck is checked from its incidence matrix (every two cards share exactly λ
    symbols, no card repeats a symbol) before anything is laid out.

    Raises:
        PrintdeckError: no design of that size (see ``printdeck.design.make_design``).
    """
    deck = theme.spec.deck
    if deck.order is None and deck.symbols_per_card is None:
        raise PrintdeckError(f"theme {theme.name}: deck: give symbols_per_card (e.g. 8) or order (e.g. 7)")
    try:
        design = make_design(
            order=deck.order,
            symbols_per_card=deck.symbols_per_card,
            match=deck.match,
            cards=deck.cards,
            search=deck.search,
            drop_unused=deck.drop_unused,
        )
    except DesignRequestError as exc:  # worded with the theme's keys: deck.symbols_per_card: ...
        raise theme_worded(exc) from None
    report = verify_blocks(design.blocks, design.lam)
    if not report.ok:  # a construction bug, never a user error: refuse to print a wrong deck
        raise RuntimeError(f"design {design.construction} failed verification: {report.summary()}")
    return design


def default_output(theme: Theme) -> Path:
    """``output/<theme name>.pdf`` in the current folder."""
    return Path("output") / f"{theme.name}.pdf"


def check_outputs(out: Path, png_dir: Path | None) -> Path:
    """Check, before any work, that the outputs can be written; return the manifest path.

    Raises:
        PrintdeckError: the PDF name does not end in .pdf, its folder is missing, the
            manifest path or the PDF path is a folder, a symlink or a special file, or
            ``png_dir`` is a file.
    """
    if out.suffix.lower() != ".pdf":
        raise PrintdeckError(f"{shown(out)}: the output must be a .pdf file name")
    manifest_path = out.with_suffix(".json")
    for path in (out, manifest_path):
        if path.is_dir():
            raise PrintdeckError(f"{shown(path)}: is a folder; choose another output name with -o")
        check_replaceable(path)  # not a symlink, a device or a pipe
    if not out.parent.is_dir():
        raise PrintdeckError(f"{shown(out)}: folder {shown(out.parent)} does not exist; create it or choose another -o")
    if png_dir is not None and png_dir.exists() and not png_dir.is_dir():
        raise PrintdeckError(f"--png-dir {shown(png_dir)}: is a file, not a folder; choose a folder name")
    return manifest_path


def build(
    theme_ref: str | Path | Theme | None = None,
    out_path: Path | None = None,
    options: BuildOptions = BuildOptions(),
    reporter: Reporter | None = None,
) -> BuildResult:
    """Build a deck: load the theme, make the design, lay out every card, write PDF + manifest.

    Args:
        theme_ref: Bundled theme name, theme file or folder, or a loaded theme; ``None`` for the
            default theme.
        out_path: PDF to write; default ``output/<theme name>.pdf`` (the folder is created).
            The manifest goes beside it as ``<out>.json``.
        options: Command-line overrides.
        reporter: Progress receiver (stage names: theme, design, proof, layout, render, png).

    Returns:
        What was written, with page and card counts (a reporter times the stages).

    Raises:
        PrintdeckError: any problem the user can fix. Everything that can be checked is
            checked before the layout starts (an output on an input, the theme file
            or an artwork, a font, the backs image, or a PNG folder holding one, is
            refused); the PDF and the manifest are committed together at the end, so
            on an error nothing is written or overwritten.
    """
    rep = reporter or _Silent()
    with rep.stage("theme", None):
        theme = apply_options(load_theme(theme_ref, allow_outside=options.allow_outside), options)
    if out_path is None:
        out_path = default_output(theme)
        try:
            out_path.parent.mkdir(exist_ok=True)
        except OSError as exc:
            raise PrintdeckError(
                f"{shown(out_path.parent)}: cannot create the output folder "
                f"({exc.strerror}); give the PDF's name with -o"
            ) from None
    out = Path(out_path)
    check_outputs(out, options.png_dir)
    check_not_inputs([("-o", out), ("the manifest", out.with_suffix(".json"))], theme_inputs(theme))
    if options.png_dir is not None:
        check_png_dir(options.png_dir, theme, theme_inputs(theme))
    seed = theme.spec.seed
    with rep.stage("design", None):
        design = deck_design(theme)
        symbols = assign_symbols(theme, design.n_points, seed)  # refuses too few symbols early
    with rep.stage("proof", None):
        prove_symbols(theme, symbols)
    imposition = impose_theme(theme, len(design.blocks))
    with rep.stage("layout", len(design.blocks)) as advance:
        symbols = balance_symbols(design.blocks, symbols)  # as deck_symbols; traces the silhouettes
        cards = [[symbols[p] for p in block] for block in design.blocks]
        layouts = layout_deck(cards, LayoutSettings.from_theme(theme), seed, progress=advance)
        layouts = colour_words(layouts, symbols, theme.spec.text.colors)
    return _write(theme, design, symbols, layouts, imposition, out, options, rep)


def prove_symbols(theme: Theme, symbols: Sequence[SymbolSpec] | None = None) -> None:
    """Prove that each symbol (default: every symbol of the theme) prints what its
    silhouette shows, on the card's background (:mod:`printdeck.render.proof`).

    Raises:
        PrintdeckError: a symbol shows no visible ink, a word colour does not show on
            the card's background, or a symbol cannot be drawn.

    Warns:
        VectorWarning: an SVG is printed as its raster instead of its vector form.
    """
    from printdeck.render import (  # noqa: PLC0415 - ReportLab only when proving
        check_word_colours,
        prove_symbols as prove,
    )

    chosen = list(theme.symbols if symbols is None else symbols)
    if any(s.kind == "text" and not s.color_fixed for s in chosen):
        check_word_colours(theme.spec.text.colors, theme.spec.card.background)
    prove(chosen, theme.spec.card.background)


def unused_symbols(theme: Theme, symbols: Sequence[SymbolSpec], blocks: Sequence[Sequence[int]]) -> list[SymbolSpec]:
    """The theme's symbols no card shows (not chosen for the deck, or on no card after trimming).

    Args:
        theme: The loaded theme.
        symbols: The deck's symbols, indexed by point.
        blocks: The deck's cards (point indices).
    """
    shown_sources = {symbols[p].source for block in blocks for p in block}
    return [s for s in theme.symbols if s.source not in shown_sources]


def impose_theme(theme: Theme, n_cards: int) -> Imposition:
    """Where each of ``n_cards`` cards sits on the theme's paper (see :func:`printdeck.render.impose`)."""
    from printdeck.render import impose, paper_size_mm  # noqa: PLC0415 - ReportLab only when rendering

    spec = theme.spec
    return impose(
        paper_size_mm(spec.paper.size),
        spec.card.diameter_mm,
        spec.card.bleed_mm,
        spec.paper.margin_mm,
        spec.paper.gap_mm,
        n_cards,
        single=spec.paper.layout == "single",
    )


def _write(
    theme: Theme,
    design: Design,
    symbols: Sequence[SymbolSpec],
    layouts: Sequence[CardLayout],
    imposition: Imposition,
    out: Path,
    options: BuildOptions,
    rep: Reporter,
) -> BuildResult:
    """Render the PDF and the manifest to temporary files, PNGs if asked, then commit both."""
    from printdeck.render import PrintJob, render_pdf, render_pngs  # noqa: PLC0415 - ReportLab only when rendering

    spec = theme.spec
    job = PrintJob.from_theme(theme)
    unused = unused_symbols(theme, symbols, design.blocks)
    manifest = build_manifest(theme, spec.seed, design, symbols, layouts, imposition, unused)
    manifest_path = out.with_suffix(".json")
    pngs: list[Path] = []
    with atomic_outputs([out, manifest_path]) as (tmp_pdf, tmp_json):
        with rep.stage("render", len(layouts)) as advance:
            pages = render_pdf(job, symbols, layouts, imposition, tmp_pdf, progress=advance)
        write_manifest(manifest, tmp_json)
        if options.png_dir is not None:
            with rep.stage("png", len(layouts)):
                pngs = render_pngs(
                    job, symbols, layouts, options.png_dir, dpi=options.dpi, extra_margin_mm=options.png_margin_mm
                )
    return BuildResult(
        pdf_path=out,
        manifest_path=manifest_path,
        pages=pages,
        cards=len(layouts),
        symbols_per_card=len(design.blocks[0]),
        size_bytes=out.stat().st_size,
        png_paths=pngs,
        unused=[s.name for s in unused],
    )
