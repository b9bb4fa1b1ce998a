"""``printdeck preview``: a PNG contact sheet of laid-out cards."""

from __future__ import annotations

from pathlib import Path

import click

from printdeck.cli_common import fail
from printdeck.errors import PrintdeckError


@click.command()
@click.argument("theme", required=False)
@click.option("-o", "--output", "out_path", type=click.Path(dir_okay=False, path_type=Path),
              default=Path("preview.png"), show_default=True, help="PNG file to write.")
@click.option("--cards", "count", type=int, default=12, show_default=True, help="How many cards to draw.")
@click.option("--seed", type=click.IntRange(0, 2**32 - 1), default=None, help="Override the theme's seed.")
@click.option("--dpmm", "px_per_mm", type=click.FloatRange(1.0, 20.0), default=3.0, show_default=True,
              help="Pixels per millimetre.")
def preview(theme: str | None, out_path: Path, count: int, seed: int | None, px_per_mm: float) -> None:
    """Lay out the first cards of THEME (default theme if omitted) and write a PNG contact sheet."""
    from printdeck.layout.preview import write_preview

    try:
        path, drawn = write_preview(theme, out_path, count=count, seed=seed, px_per_mm=px_per_mm)
    except PrintdeckError as e:
        fail(e)
    click.echo(f"printdeck: wrote {path} ({drawn} cards)")
