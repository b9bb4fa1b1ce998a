"""``printdeck build``: the whole pipeline from the command line (:func:`printdeck.build`)."""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import click
from tqdm import tqdm

import printdeck
from printdeck.cli.common import caught_warnings, fail, show_warnings, theme_ref
from printdeck.errors import PrintdeckError
from printdeck.units import parse_length_mm


class BarReporter:
    """Progress bars (tqdm on stderr) for stages with a known length; stage times if verbose."""

    def __init__(self, show_bars: bool, verbose: bool) -> None:
        self.show_bars = show_bars
        self.verbose = verbose

    @contextlib.contextmanager
    def stage(self, name: str, total: int | None) -> Iterator[Callable[[int], None]]:
        start = time.perf_counter()
        bar = tqdm(
            total=total,
            desc=f"{name:>6}",
            unit="card",
            leave=False,
            file=sys.stderr,
            disable=not (self.show_bars and total),
            dynamic_ncols=True,
        )
        try:
            yield bar.update
        finally:
            bar.close()
            if self.verbose:
                click.echo(f"printdeck: {name}: {time.perf_counter() - start:.2f} s", err=True)


def _paper(value: str | None) -> str | tuple[str, str] | None:
    """Split ``WIDTHxHEIGHT``; the library validates it like the theme's ``paper.size``."""
    if value is None:
        return None
    parts = value.lower().split("x")
    return (parts[0].strip(), parts[1].strip()) if len(parts) == 2 else value


def _margin(value: str) -> float:
    try:
        margin_mm = parse_length_mm(value)
    except ValueError as exc:
        raise PrintdeckError(f"--png-margin: {exc}") from exc
    if not 0 <= margin_mm <= 20:
        raise PrintdeckError(f"--png-margin: expected 0mm to 20mm, got {value!r}")
    return margin_mm


@click.command()
@click.argument("theme", required=False)
@click.option(
    "-o",
    "--output",
    "output",
    type=click.Path(dir_okay=False, path_type=Path),
    help="PDF to write [default: output/<theme>.pdf]; the manifest goes beside it as .json.",
)
@click.option("--seed", type=click.IntRange(0, 2**32 - 1), help="Override the theme's seed.")
@click.option("--paper", help="a4, letter, a3, or WIDTHxHEIGHT (e.g. 200mmx280mm).")
@click.option("--backs/--no-backs", default=None, help="Add back pages for duplex printing.")
@click.option(
    "--layout",
    "layout",
    type=click.Choice(["sheet", "single"]),
    default=None,
    help="sheet: several cards a page; single: one card a page (trim + bleed).",
)
@click.option("--legend/--no-legend", default=None, help="Add a legend of every symbol.")
@click.option("--rules/--no-rules", default=None, help="Add the rules sheet.")
@click.option("--png-dir", type=click.Path(file_okay=False, path_type=Path), help="Also write one PNG a card here.")
@click.option("--dpi", type=click.IntRange(72, 1200), default=300, show_default=True, help="PNG resolution.")
@click.option("--png-margin", default="0mm", show_default=True, help="Extra radial margin around PNG cards.")
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
    legend: bool | None,
    rules: bool | None,
    png_dir: Path | None,
    dpi: int,
    png_margin: str,
    allow_outside: bool,
    quiet: bool,
    verbose: bool,
) -> None:
    """Build the deck of THEME (a bundled theme name, a .yaml file or a theme folder;
    default: the embedded default theme) into a print-ready PDF."""
    reporter = BarReporter(show_bars=not quiet and sys.stderr.isatty(), verbose=verbose)
    try:
        margin_mm = _margin(png_margin)
        with caught_warnings() as caught:
            result = printdeck.build(
                theme_ref(theme),
                output,
                seed=seed,
                paper=_paper(paper),
                backs=backs,
                single=None if layout is None else layout == "single",
                legend=legend,
                rules=rules,
                png_dir=png_dir,
                dpi=dpi,
                png_margin_mm=margin_mm,
                allow_outside=allow_outside,
                reporter=reporter,
            )
    except PrintdeckError as exc:
        fail(exc)
    show_warnings(caught)
    for line in result.summary_lines():
        click.echo(line)
