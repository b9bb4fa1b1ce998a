"""Theme commands: ``printdeck init``, ``themes``, ``schema``, ``check``.

Each parses its arguments, calls one library function in ``printdeck.theme`` and
turns a ``PrintdeckError`` into one line on stderr with exit status 2.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import click

from printdeck.cli_common import fail, show_warnings
from printdeck.errors import PrintdeckError, shown


@click.command()
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
@click.option("--images", type=click.Path(path_type=Path), help="Folder of pictures (PNG, JPEG, WebP, SVG).")
@click.option("--words", type=click.Path(path_type=Path),
              help="Text file with one word a line, in any language (with --images too: pictures and words).")
@click.option("--font", help="Font for the words (.ttf, .otf, or .ttc#N); copied into the theme.")
@click.option("--force", is_flag=True, help="Overwrite an existing theme.yaml.")
def init(directory: Path, images: Path | None, words: Path | None, font: str | None, force: bool) -> None:
    """Write DIRECTORY/theme.yaml, a starter theme from a folder of images or a word list."""
    from printdeck.theme.scaffold import init_theme  # noqa: PLC0415 - keep CLI start fast

    try:
        result = init_theme(directory, images=images, words=words, font=font, force=force)
    except PrintdeckError as exc:
        fail(exc)
        return
    click.echo(f"wrote {shown(result.path)}: {result.symbols} {result.kind}: {result.sizes}")
    click.echo(f"next: edit it, then run `printdeck build {shown(result.path)}`")


@click.command()
def themes() -> None:
    """List the bundled themes and their deck sizes."""
    from printdeck.theme.scaffold import list_themes  # noqa: PLC0415

    try:
        rows = list_themes()
    except PrintdeckError as exc:
        fail(exc)
        return
    click.echo(f"{'name':<10} {'cards':>5} {'a card':>6} {'match':>5} {'symbols':>9}  title")
    for r in rows:
        cards = "?" if r.cards is None else str(r.cards)
        click.echo(f"{r.name:<10} {cards:>5} {r.symbols_per_card:>6} {r.match:>5} "
                   f"{f'{r.symbols_used}/{r.symbols_offered}':>9}  {r.title}")
    click.echo("build one with `printdeck build NAME`")


@click.command()
def schema() -> None:
    """Print the theme file's JSON Schema (for editors and validators)."""
    from printdeck.theme.scaffold import schema_json  # noqa: PLC0415

    click.echo(schema_json(), nl=False)


@click.command()
@click.argument("theme", required=False)
@click.option("--allow-outside", is_flag=True,
              help="Let the theme read files outside its folder (and the bundled assets).")
def check(theme: str | None, allow_outside: bool) -> None:
    """Check THEME (file, folder or bundled name) without building: every key and file."""
    from printdeck.cli_build import left_out_line  # noqa: PLC0415
    from printdeck.layout.preview import unused_in_deck  # noqa: PLC0415
    from printdeck.pipeline import prove_symbols  # noqa: PLC0415
    from printdeck.theme import deck_size, load_theme  # noqa: PLC0415

    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            loaded = load_theme(theme, allow_outside=allow_outside)
            prove_symbols(loaded)  # every symbol, as the build proves the deck's: the same refusals
            size = deck_size(loaded)
            cards, needed = size.cards, size.symbols_needed
            if cards is None:  # a searched deck: run the same search the build runs
                from printdeck.pipeline import assign_symbols, deck_design  # noqa: PLC0415

                design = deck_design(loaded)
                assign_symbols(loaded, design.n_points, loaded.spec.seed)  # refuses too few symbols
                cards, needed = len(design.blocks), design.n_points
            unused = unused_in_deck(loaded, loaded.spec.seed)
    except PrintdeckError as exc:
        fail(exc)
        return
    show_warnings(caught)
    click.echo(f"{loaded.name}: ok: {cards} cards of {size.symbols_per_card} symbols (match {size.match}), "
               f"{needed} of {len(loaded.symbols)} symbols used")
    if unused:
        click.echo(left_out_line(unused))
