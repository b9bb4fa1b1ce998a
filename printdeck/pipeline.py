"""The whole build: theme -> design -> layout -> render (+ manifest), as one library call."""

from __future__ import annotations

import contextlib
import dataclasses
import functools
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Protocol

from printdeck.artwork import drawing as symbol_drawing
from printdeck.assign import assign_symbols
from printdeck.build_options import BuildOptions, apply_options, build_settings, with_preset_images
from printdeck.build_result import BuildResult
from printdeck.deck_plan import DeckPlan, deck_design, lay_out_plan, planned_deck, prove_symbols
from printdeck.decks import Deck
from printdeck.design import Design
from printdeck.errors import PrintdeckError, path_error, shown
from printdeck.fileio import atomic_outputs, check_not_inputs, check_replaceable
from printdeck.layout import Meanwhile, job_count
from printdeck.manifest import write_manifest
from printdeck.model import CardLayout, CropReport, SymbolSpec
from printdeck.output_record import check_manifest_path, check_others, outputs_record, stale_outputs
from printdeck.outputs import check_not_in_picture_folder, check_png_dir, theme_inputs
from printdeck.prepare import prepare_symbols
from printdeck.printed_answers import remember_printed
from printdeck.theme import (
    BuildSettings,
    Theme,
    check_look_alikes,
    check_printed_text,
    check_used_files,
    load_theme,
    overrides_named,
    theme_errors_located,
)


class Reporter(Protocol):
    """Receives progress from the build (the CLI draws bars; tests pass nothing)."""

    def stage(self, name: str, total: int | None) -> contextlib.AbstractContextManager[Callable[[int], None]]:
        """Enter a stage of ``total`` steps; the yielded function advances it by n."""


class _Silent:
    @contextlib.contextmanager
    def stage(self, name: str, total: int | None) -> Iterator[Callable[[int], None]]:
        yield lambda n: None


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
        raise path_error("out", out, "the output must be a .pdf file name")
    manifest_path = out.with_suffix(".json")
    for path in (out, manifest_path):
        if path.is_dir():
            raise path_error("out", path, "is a folder (a directory)", "choose another output name")
        check_replaceable(path)  # not a symlink, a device or a pipe
    if not out.parent.is_dir():
        raise path_error("out", out, f"folder {shown(out.parent)} does not exist", "create it or choose another path")
    if png_dir is not None and png_dir.exists() and not png_dir.is_dir():
        raise path_error("png_dir", png_dir, "is a file, not a folder", "choose a folder name")
    return manifest_path


def make_deck(
    theme_ref: str | Path | Theme | None = None,
    options: BuildOptions = BuildOptions(),
    reporter: Reporter | None = None,
    before_layout: Callable[[Theme], None] | None = None,
) -> Deck:
    """Make a deck in memory: load the theme, apply the options, make the design, prove
    the symbols, lay out every card; write nothing.

    Args:
        theme_ref: Bundled theme name, theme file or folder, or a loaded theme; ``None`` for
            the default theme.
        options: The build's options (validated through ``BuildSettings``).
        reporter: Progress receiver (stage names: theme, design, proof, layout; the
            look-alike check is done beside the proofs, the planning and the packing).
        before_layout: Called with the theme (options applied) before the design is made,
            to refuse early what the caller will not be able to write.

    Raises:
        PrintdeckError: any problem the user can fix, before the layout where it can be.
    """
    rep = reporter or _Silent()
    with rep.stage("theme", None):
        loaded = load_theme(  # the card's fit on the sheet: checked with the options (apply_options)
            theme_ref, allow_outside=options.allow_outside, defer_svg_checks=True, sheet_checked_later=True
        )
        theme = apply_options(loaded, options)
    if before_layout is not None:
        before_layout(theme)
    settings = build_settings(options)  # checked once: the deck keeps them
    with theme_errors_located(theme), overrides_named(settings):  # named as the user gave them
        return _made(theme, settings, rep)


def _made(theme: Theme, settings: BuildSettings, rep: Reporter) -> Deck:
    """:func:`make_deck` once the theme is loaded and its outputs can be written."""
    with rep.stage("design", None):
        design = deck_design(theme)
        if theme.spec.extras.tuck_box:
            _check_tuck_box(theme, design.blocks)
        symbols = assign_symbols(theme, design.n_points, theme.spec.seed)  # refuses too few symbols early
        check_printed_text(theme, symbols)  # the title, credit and legend names (options applied)
    spec = theme.spec
    look_alike_check = Meanwhile(  # done beside the proofs, the planning and the packing (see _laid_out)
        functools.partial(
            check_look_alikes, theme, symbols, allow=spec.deck.allow_look_alike, grey=spec.paper.grayscale
        )
    )
    try:
        with rep.stage("proof", None):
            prepare_symbols(theme, symbols)  # a cold deck's checks, proofs and tracing on every core, cached
            look_alike_check.start_aside(_layout_jobs(len(design.blocks) * spec.deck.copies))
            check_used_files(theme, symbols)  # the SVGs the load only fingerprinted, where the deck uses them
            prove_symbols(theme, symbols)
        plan, layouts = _laid_out(theme, design, symbols, rep, look_alike_check)
    finally:
        look_alike_check.abandon()  # stopped otherwise (a proof refused, a signal): the check need not finish
    return Deck(plan, tuple(layouts), settings)


def _laid_out(
    theme: Theme, design: Design, symbols: list[SymbolSpec], rep: Reporter, look_alike_check: Meanwhile
) -> tuple[DeckPlan, list[CardLayout]]:
    """Plan and lay out the deck, ``look_alike_check`` done beside (it does not decide the
    layout). Where it could, the build started it in a process of its own once the cold
    drawings were made (:meth:`~printdeck.layout.Meanwhile.start_aside`): on the core the
    proofs and the planning leave idle, and before the layout's progress bar, whose monitor
    thread would make a fork unsafe.

    Raises:
        PrintdeckError: The check refuses (its error wins), or the layout does.
    """
    with rep.stage("layout", len(design.blocks) * theme.spec.deck.copies) as advance:
        try:
            plan = planned_deck(theme, design, symbols)  # balances the points: traces the silhouettes
            layouts = lay_out_plan(plan, progress=advance, meanwhile=look_alike_check)
            look_alike_check.run_here()  # nothing: it was done beside
        except PrintdeckError:
            look_alike_check.run_here()  # if refused before the packing: a look-alike refusal comes first
            raise
    return plan, layouts


def _layout_jobs(n_cards: int) -> int:
    """The layout's worker processes for ``n_cards`` (:func:`printdeck.layout.job_count`; 1
    where ``PRINTDECK_JOBS`` is not a number: the layout says so, in its turn)."""
    try:
        return job_count(None, n_cards)
    except PrintdeckError:
        return 1


def _planned_output(theme: Theme, out_path: Path | None, made: list[Path]) -> Path:
    """The PDF to write: ``out_path``, else the default (its folder made, and added to
    ``made`` when it was not there: a build refused later removes it again,
    :func:`_remove_empty`).

    Raises:
        PrintdeckError: The default folder cannot be made (keyed to ``out``).
    """
    if out_path is None:
        out_path = default_output(theme)
        try:
            if not out_path.parent.is_dir():  # a file of that name is refused below
                out_path.parent.mkdir()
                made.append(out_path.parent)
        except OSError as exc:
            raise PrintdeckError(
                key="out",
                is_argument=True,
                problem=f"cannot create the default output folder {shown(out_path.parent)} ({exc.strerror})",
                fix="give the PDF's path",
            ) from None
    return Path(out_path)


def _remove_empty(folders: Sequence[Path]) -> None:
    """Remove each of ``folders`` (made by this build) that is still empty: a refused or
    interrupted build leaves no folder behind. Never raises (a folder now holding a file,
    or gone, stays as it is)."""
    for folder in folders:
        with contextlib.suppress(OSError):
            folder.rmdir()


def _output(theme: Theme, out: Path, options: BuildOptions) -> Path:
    """The PDF to write, checked with the manifest, the extras PDF and the PNG folder."""
    check_outputs(out, options.png_dir)
    inputs = theme_inputs(theme)
    check_not_inputs([("out", out)], inputs)
    try:
        check_not_inputs([("out", out.with_suffix(".json"))], inputs)
    except PrintdeckError as exc:  # said of the PDF the user named, whose manifest it is
        raise path_error("out", out, f"the manifest {exc.source} beside it {exc.problem}", exc.fix) from None
    check_manifest_path(out)  # a user's own <stem>.json is not replaced, nor a user's own PDF of that name
    check_not_in_picture_folder("out", out, theme)  # the next build would stop at it
    if options.png_dir is not None:
        check_png_dir(options.png_dir, theme, theme_inputs(theme))
    return out


def build(
    theme_ref: str | Path | Theme | None = None,
    out_path: Path | None = None,
    options: BuildOptions = BuildOptions(),
    reporter: Reporter | None = None,
) -> BuildResult:
    """Build a deck: :func:`make_deck`, then write the PDF and the manifest (and PNGs).

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
            refused, as is a ``<stem>.json`` that is not a printdeck manifest); an extras
            PDF or cut file over a file an earlier build did not record writing is
            refused once the pages are known, before the render; the PDF and the
            manifest are committed together at the end, so on an error nothing is
            written or overwritten.
    """
    rep = reporter or _Silent()
    outputs: list[tuple[Path, BuildOptions]] = []
    made: list[Path] = []  # the default output folder, when this build made it

    def before_layout(theme: Theme) -> None:
        out = _planned_output(theme, out_path, made)
        with_images = with_preset_images(options, out)
        if with_images.png_cut is True and with_images.png_dir is None:  # else no PNG is written: refused
            raise PrintdeckError(
                key="png_cut",
                is_argument=True,
                problem="only PNG cards are cut, and this build writes none",
                fix="add --png-dir DIR (or leave out --png-cut)",
            )
        if with_images.image_format is not None and with_images.png_dir is None:  # dropped without a word before
            raise PrintdeckError(
                key="image_format",
                is_argument=True,
                problem="only card images have a format, and this build writes none",
                fix="add --png-dir DIR (or a preset that makes images), or leave out --image-format",
            )
        if with_images.png_cut is True and str(with_images.image_format or "png") == "jpg":
            raise PrintdeckError(  # cut cards are transparent outside the shape: JPEG would fill it white
                key="png_cut",
                is_argument=True,
                problem="cut cards are transparent outside their shape, and JPEG has no transparency",
                fix="use --image-format png (or leave out --png-cut)",
            )
        outputs.append((_output(theme, out, with_images), with_images))

    try:
        deck = make_deck(theme_ref, options, rep, before_layout)
        out, options = outputs[0]
        with theme_errors_located(deck.plan.theme):  # a picture printed too coarse names the theme's file
            return _write(dataclasses.replace(deck, settings=build_settings(options)), out, options, rep)
    except BaseException:  # refused or interrupted: nothing written, not even the default folder
        _remove_empty(made)
        raise


def _check_tuck_box(theme: Theme, blocks: Sequence[Sequence[int]]) -> None:
    """Refuse, before the layout, a tuck box whose net does not fit the paper."""
    from printdeck.render import PrintJob, TuckBox, box_page_size_mm  # noqa: PLC0415 - ReportLab only when rendering

    job = PrintJob.from_theme(theme)
    shape = job.card.card_shape()
    box = TuckBox.for_deck(shape.width_mm, shape.height_mm, len(blocks), job.card_thickness_mm)
    box_page_size_mm(box, job.paper_size_mm)


def _write(deck: Deck, out: Path, options: BuildOptions, rep: Reporter) -> BuildResult:
    """Render the PDF and the manifest to temporary files (and a one-card-a-page file's
    extras PDF, the cut files), PNGs if asked, then commit them together, removing the
    extras PDF and cut files an earlier build of ``out`` wrote and this one does not."""
    from printdeck.render import cut_file_names, extras_file, write_cut_files  # noqa: PLC0415 - ReportLab only

    plan, layouts = deck.plan, deck.layouts
    manifest_path = out.with_suffix(".json")
    pngs: list[Path] = []
    cuts = plan.theme.spec.paper.cut_files and not plan.imposition.single
    cut_paths = cut_file_names(out.with_suffix(""), plan.imposition.pages) if cuts else []
    extras = extras_file(out) if deck.has_extras_file() else None
    inputs = theme_inputs(plan.theme)
    others = [*([extras] if extras else []), *cut_paths]
    check_not_inputs([("out", path) for path in others], inputs)  # named after ``out``: never over a picture
    check_others(out, others)  # nor over a file of that name printdeck did not write
    written = [out, manifest_path, *others]
    with atomic_outputs(written, replaced=functools.partial(stale_outputs, out, written, inputs)) as temps:
        tmp_pdf, tmp_json = temps[0], temps[1]
        tmp_extras, tmp_cuts = (temps[2], temps[3:]) if extras else (None, temps[2:])
        with rep.stage("render", len(layouts)) as advance:
            pages = deck.write_pdf(tmp_pdf, progress=advance, extras_path=tmp_extras)
        write_manifest({**deck.manifest, **outputs_record(others)}, tmp_json)  # what the next build may remove
        if cut_paths:
            write_cut_files(plan.imposition, tmp_cuts)
        if options.png_dir is not None:
            with rep.stage("png", len(layouts)):
                pngs = deck.write_pngs(options.png_dir)
    remember_printed(plan.theme.path, manifest_path)  # for `answer THEME`, wherever -o put it
    backs = deck.back_files(options.png_dir) if options.png_dir is not None else []
    credits = deck.credits_file(options.png_dir) if options.png_dir is not None and pngs else None
    return BuildResult(
        pdf_path=out,
        manifest_path=manifest_path,
        pages=pages,
        cards=len(layouts),
        symbols_per_card=len(plan.design.blocks[0]),
        size_bytes=out.stat().st_size,
        png_paths=pngs,
        unused=list(plan.unused),
        faces=faces_summary(plan),
        photo_crops=photo_crops(_on_cards(plan.symbols, layouts)),
        extras_path=extras,
        extras_contents=deck.extras_contents(),
        extras_rgb_beside_cmyk=extras is not None and plan.theme.spec.paper.color == "cmyk",
        extras_grey=plan.theme.spec.paper.grayscale,
        cut_paths=cut_paths,
        back_paths=backs,
        credits_path=credits,
        decks=plan.deck_letters,
        duplex=deck.backs_duplex(),
    )


def faces_summary(plan: DeckPlan) -> str | None:
    """The build summary's line on a deck with faces: the split decks, or the share of
    card pairs that show their shared symbol in different faces (and the most the design allows)."""
    faced = plan.faced
    if faced is None or not faced.has_faces:
        return None
    if faced.mode == "split":
        half = len(faced.cards) // 2
        return (
            f"faces: split: deck A (cards 1-{half}) shows every symbol's face 1, deck B (cards "
            f"{half + 1}-{2 * half}) face 2; play a card of A against a card of B"
        )
    if faced.different_fraction is None or faced.different_bound is None:
        return "faces: mixed"
    return (
        f"faces: mixed: {faced.different_fraction:.1%} of the card pairs show their shared symbol in "
        f"different faces (the design allows at most {faced.different_bound:.1%})"
    )


def _on_cards(symbols: Sequence[SymbolSpec], layouts: Sequence[CardLayout]) -> list[SymbolSpec]:
    """The ``symbols`` some card of ``layouts`` shows (a trimmed deck leaves some on none)."""
    placed = {p.symbol_id for card in layouts for p in card.placements}
    return [s for s in symbols if s.id in placed]


def photo_crops(symbols: Sequence[SymbolSpec]) -> list[tuple[str, CropReport]]:
    """Each photo symbol's name and what its crop holds (from its one drawing)."""
    found = []
    for symbol in symbols:
        report = symbol_drawing(symbol).crop_report if symbol.kind == "photo" else None
        if report is not None:
            found.append((symbol.name, report))
    return found
