"""``printdeck build``: the whole pipeline from the command line (:func:`printdeck.build`)."""

from __future__ import annotations

import contextlib
import os
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import click

import printdeck
from printdeck.api import option_table
from printdeck.cli.common import caught_warnings, fail, show_warnings, theme_ref
from printdeck.cli.options import as_typed, spec_options
from printdeck.errors import PrintdeckError

BUILD_OPTIONS = option_table("build")


def cpu_seconds() -> float:
    """CPU time of this process and of its finished children (layout workers), seconds."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


class BarReporter:
    """Progress bars (tqdm on stderr) for stages with a known length; if verbose, each
    stage's wall and CPU time (``printdeck: layout: 0.85 s wall, 1.52 s CPU``)."""

    def __init__(self, show_bars: bool, verbose: bool) -> None:
        self.show_bars = show_bars
        self.verbose = verbose

    @contextlib.contextmanager
    def stage(self, name: str, total: int | None) -> Iterator[Callable[[int], None]]:
        start, cpu = time.perf_counter(), cpu_seconds()
        if not (self.show_bars and total):  # no bar: tqdm is not even imported
            yield lambda n: None
        else:
            from tqdm import tqdm  # noqa: PLC0415 - only on a terminal

            from printdeck.rerun import paused  # noqa: PLC0415

            with (
                paused(),
                tqdm(
                    total=total, desc=f"{name:>6}", unit="card", leave=False, file=sys.stderr, dynamic_ncols=True
                ) as bar,
            ):
                yield bar.update
        if self.verbose:
            wall, used = time.perf_counter() - start, cpu_seconds() - cpu
            click.echo(f"printdeck: {name}: {wall:.2f} s wall, {used:.2f} s CPU", err=True)


@click.command()
@click.argument("theme", required=False)
@click.option(
    "-o",
    "--output",
    "output",
    type=click.Path(dir_okay=False, path_type=Path),
    help="PDF to write [default: output/<theme>.pdf]; the manifest goes beside it as .json.",
)
@spec_options(BUILD_OPTIONS)
@click.option("--png-dir", type=click.Path(file_okay=False, path_type=Path), help="Also write one PNG a card here.")
@click.option(
    "--allow-outside", is_flag=True, help="Let the theme read files outside its folder (and the bundled assets)."
)
@click.option("-q", "--quiet", is_flag=True, help="No progress bars.")
@click.option("-v", "--verbose", is_flag=True, help="Show each stage and its time.")
def build(
    theme: str | None,
    output: Path | None,
    seed: int | None,
    paper: str | None,
    backs: bool | None,
    layout: str | None,
    copies: int | None,
    pack: bool | None,
    booklet: bool | None,
    tuck_box: bool | None,
    legend: bool | None,
    rules: bool | None,
    png_dir: Path | None,
    dpi: int,
    png_margin_mm: str,
    png_cut: bool,
    preset: str | None,
    image_format: str | None,
    color: str | None,
    pdfx: str | None,
    ink_limit: int | None,
    die_line: bool | None,
    allow_outside: bool,
    allow_look_alike: bool | None,
    grayscale: bool | None,
    quiet: bool,
    verbose: bool,
) -> None:
    """Build the deck of THEME (a bundled theme name, a .yaml file or a theme folder;
    default: this folder's theme.yaml, else the bundled default theme) into a print-ready PDF."""
    reporter = BarReporter(show_bars=not quiet and sys.stderr.isatty(), verbose=verbose)
    try:
        with caught_warnings() as caught:
            result = printdeck.build(
                theme_ref(theme),
                output,
                seed=seed,
                paper=paper,  # WIDTHxHEIGHT is read as the theme's paper.size reads it
                backs=backs,
                layout=layout,
                legend=legend,
                rules=rules,
                png_dir=png_dir,
                dpi=dpi,
                png_margin_mm=png_margin_mm,
                png_cut=png_cut,
                allow_outside=allow_outside,
                copies=copies,
                pack=pack,
                booklet=bool(booklet),
                tuck_box=tuck_box,
                allow_look_alike=allow_look_alike,
                grayscale=grayscale,
                reporter=reporter,
                color=color,
                pdfx=pdfx,
                ink_limit=ink_limit,
                die_line=die_line,
                preset=preset,
                image_format=image_format,
            )
    except PrintdeckError as exc:
        fail(as_typed(exc, BUILD_OPTIONS))
    show_warnings(caught)
    for line in result.summary_lines():
        click.echo(line)
    if result.pdf_path is not None and result.print_hint:  # the studio shows it beside its download
        click.echo(result.print_hint)
