"""``printdeck calibrate``: the duplex alignment test sheet."""

from __future__ import annotations

from pathlib import Path

import click

from printdeck.cli_common import fail
from printdeck.errors import PrintdeckError, shown
from printdeck.units import parse_length_mm


def _length(_ctx: click.Context, param: click.Parameter, value: str) -> float:
    try:
        return parse_length_mm(value)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param=param) from exc


@click.command()
@click.option("-o", "--output", "output", type=click.Path(dir_okay=False, path_type=Path),
              default=Path("calibration.pdf"), show_default=True, help="PDF to write.")
@click.option("--paper", type=click.Choice(["a4", "letter", "a3"]), default="a4", show_default=True)
@click.option("--duplex", type=click.Choice(["long-edge", "short-edge"]), default="long-edge", show_default=True)
@click.option("--offset-x", default="0mm", callback=_length, show_default=True,
              help="Current backs.offset_x (e.g. 1.5mm), applied to the back.")
@click.option("--offset-y", default="0mm", callback=_length, show_default=True,
              help="Current backs.offset_y, applied to the back.")
def calibrate(output: Path, paper: str, duplex: str, offset_x: float, offset_y: float) -> None:
    """Write a two-page duplex alignment test to read backs.offset_x / offset_y from."""
    from printdeck.render.calibrate import write_calibration

    try:
        write_calibration(output, paper, duplex, (offset_x, offset_y))
    except PrintdeckError as e:
        fail(e)
    click.echo(f"wrote {shown(output)} (2 pages: print duplex {duplex} at 100 %, then read the scales on the back)")
