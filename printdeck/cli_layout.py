"""``printdeck preview``: a PNG contact sheet of laid-out cards."""

from __future__ import annotations

from pathlib import Path

import click

from printdeck.cli_common import fail
from printdeck.errors import PrintdeckError, shown


@click.command()
@click.argument("theme", required=False)
@click.option("-o", "--output", "out_path", type=click.Path(dir_okay=False, path_type=Path),
              default=Path("preview.png"), show_default=True, help="PNG file to write.")
@click.option("--cards", "count", type=int, default=12, show_default=True, help="How many cards to draw.")
@click.option("--seed", type=click.IntRange(0, 2**32 - 1), default=None, help="Override the theme's seed.")
@click.option("--dpmm", "px_per_mm", type=click.FloatRange(1.0, 20.0), default=3.0, show_default=True,
              help="Pixels per millimetre.")
@click.option("--allow-outside", is_flag=True,
              help="Let the theme read files outside its folder (and the bundled assets).")
def preview(theme: str | None, out_path: Path, count: int, seed: int | None, px_per_mm: float,
            allow_outside: bool) -> None:
    """Lay out the first cards of THEME (default theme if omitted) and write a PNG contact sheet."""
    from printdeck.cli_build import left_out_line
    from printdeck.fileio import check_replaceable
    from printdeck.layout.preview import unused_in_deck, write_preview
    from printdeck.outputs import check_not_inputs, theme_inputs
    from printdeck.theme import load_theme

    try:
        if count < 1:
            raise PrintdeckError(f"--cards: expected 1 or more, got {count}")
        if out_path.suffix.lower() != ".png":
            raise PrintdeckError(f"{shown(out_path)}: the preview must be a .png file name")
        if not (out_path.parent if str(out_path.parent) else Path(".")).is_dir():
            raise PrintdeckError(f"{shown(out_path)}: folder {shown(out_path.parent)} does not exist; "
                                 "create it or choose another -o")
        loaded = load_theme(theme, allow_outside=allow_outside)
        check_not_inputs([("-o", out_path)], theme_inputs(loaded))  # before any layout
        check_replaceable(out_path)  # not a symlink, a device or a pipe
        path, drawn = write_preview(loaded, out_path, count=count, seed=seed, px_per_mm=px_per_mm)
        unused = unused_in_deck(loaded, loaded.spec.seed if seed is None else seed)
    except PrintdeckError as e:
        fail(e)
    click.echo(f"printdeck: wrote {shown(path)} ({drawn} cards)")
    if unused:
        click.echo(left_out_line(unused))
