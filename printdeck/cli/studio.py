"""``printdeck studio``: make a deck in the browser, everything on this computer
(:mod:`printdeck.studio`)."""

from __future__ import annotations

from pathlib import Path

import click

from printdeck.cli.common import fail
from printdeck.errors import PrintdeckError


@click.command()
@click.argument("folder", required=False, type=click.Path(file_okay=False, path_type=Path))
@click.option("--port", type=click.IntRange(0, 65535), default=0, help="Port on 127.0.0.1 [default: a free one].")
@click.option("--no-browser", is_flag=True, help="Only print the link to open.")
def studio(folder: Path | None, port: int, no_browser: bool) -> None:
    """Make a deck in the browser: drop pictures, type words, see the sheets, build the PDF.

    Opens (or creates) the theme FOLDER [default: a new my-deck folder here] on a page
    at 127.0.0.1, saved as theme.yaml after every change, so `printdeck build FOLDER`
    makes the same PDF. Nothing leaves this computer. Ctrl-C stops it.
    """
    from printdeck.studio import serve  # noqa: PLC0415 - the web server loads only for this command

    try:
        serve(folder, port=port, open_browser=not no_browser, say=click.echo)
    except PrintdeckError as exc:
        fail(exc)
