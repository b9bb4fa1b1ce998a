"""``printdeck preview`` and ``printdeck calibrate``: one sheet to look at before printing a deck.

``preview`` lays out a theme's first cards into a PNG contact sheet
(:func:`printdeck.write_preview`); ``calibrate`` writes the duplex alignment test PDF
(:func:`printdeck.write_calibration`).
"""

from __future__ import annotations

from pathlib import Path

import click

import printdeck
from printdeck.api import option_table
from printdeck.choices import Duplex, PaperName
from printdeck.cli.common import fail, theme_ref
from printdeck.cli.options import as_typed, spec_options
from printdeck.errors import PrintdeckError, shown

PREVIEW_OPTIONS = option_table("preview")


@click.command()
@click.argument("theme", required=False)
@click.option(
    "-o",
    "--output",
    "out_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=Path("preview.png"),
    show_default=True,
    help="PNG file to write.",
)
@spec_options(PREVIEW_OPTIONS)
@click.option(
    "--allow-outside", is_flag=True, help="Let the theme read files outside its folder (and the bundled assets)."
)
def preview(
    theme: str | None, out_path: Path, cards: int, seed: int | None, px_per_mm: float, allow_outside: bool
) -> None:
    """Lay out the first cards of THEME (default: this folder's theme.yaml, else the default theme) and write a
    PNG contact sheet."""
    try:
        result = printdeck.write_preview(
            theme_ref(theme), out_path, cards=cards, seed=seed, px_per_mm=px_per_mm, allow_outside=allow_outside
        )
    except PrintdeckError as e:
        fail(as_typed(e, PREVIEW_OPTIONS))
    click.echo(f"printdeck: wrote {shown(result.path)} ({result.cards} cards)")
    if result.unused:
        from printdeck.build_result import left_out_line  # noqa: PLC0415 - keeps the CLI's start light

        click.echo(left_out_line(result.unused, manifest=False))


@click.command()
@click.option(
    "-o",
    "--output",
    "output",
    type=click.Path(dir_okay=False, path_type=Path),
    default=Path("calibration.pdf"),
    show_default=True,
    help="PDF to write.",
)
@spec_options([info for info in option_table("build") if info.name == "paper"])  # as build reads it
@click.option(
    "--duplex", type=click.Choice([d.value for d in Duplex]), default=Duplex.LONG_EDGE.value, show_default=True
)
@click.option(
    "--offset-x",
    default="0mm",
    show_default=True,
    help="Current backs.offset_x (e.g. 1.5mm), applied to the back.",
)
@click.option(
    "--offset-y",
    default="0mm",
    show_default=True,
    help="Current backs.offset_y, applied to the back.",
)
def calibrate(output: Path, paper: str | None, duplex: str, offset_x: str, offset_y: str) -> None:
    """Write a two-page duplex alignment test to read backs.offset_x / offset_y from (on A4
    unless --paper)."""
    try:
        printdeck.write_calibration(output, paper or PaperName.A4.value, duplex, (offset_x, offset_y))
    except PrintdeckError as e:
        flags = {"offset_x": "--offset-x", "offset_y": "--offset-y", "out": "-o", "paper": "--paper"}
        fail(e.with_key(flags[e.key]) if e.is_argument and e.key in flags else e)
    click.echo(f"wrote {shown(output)} (2 pages: print duplex {duplex} at 100 %, then read the scales on the back)")
