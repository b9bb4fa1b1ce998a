"""Theme commands: ``printdeck init``, ``themes``, ``schema`` and ``check``."""

from __future__ import annotations

import os
import shlex
from pathlib import Path

import click

import printdeck
from printdeck.api import option_table
from printdeck.cli.common import caught_warnings, fail, show_warnings, theme_ref
from printdeck.cli.options import spec_options
from printdeck.errors import PrintdeckError, shown


@click.command()
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
@click.option("--images", type=click.Path(path_type=Path), help=f"Folder of pictures ({printdeck.PICTURE_FORMATS}).")
@click.option(
    "--words",
    type=click.Path(path_type=Path),
    help="Text file with one word a line, in any language (with --images too: pictures and words).",
)
@click.option("--font", help="Font for the words (.ttf, .otf, or .ttc#N); copied into the theme.")
@click.option("--force", is_flag=True, help="Overwrite an existing theme.yaml.")
def init(directory: Path, images: Path | None, words: Path | None, font: str | None, force: bool) -> None:
    """Write DIRECTORY/theme.yaml, a starter theme from a folder of images or a word list."""
    try:
        with caught_warnings() as caught:
            result = printdeck.init_theme(directory, images=images, words=words, font=font, force=force)
    except PrintdeckError as exc:
        fail(init_as_typed(exc))
    show_warnings(caught)
    click.echo(f"wrote {shown(result.path)}: {result.symbols} {result.kind}: {result.sizes}")
    if result.skipped:
        click.echo(result.skipped)
    click.echo(f"next: edit it, then run `printdeck build {_pasted(shown(result.path))}`")


def _pasted(path: str) -> str:
    """``path`` as a shell here reads it pasted: quoted for Windows' cmd and PowerShell
    (double quotes), else as POSIX shells quote (``'ma classe/theme.yaml'``)."""
    if os.name == "nt":
        return f'"{path}"' if any(c in path for c in " &()^;,=") else path
    return shlex.quote(path)


INIT_FLAGS = {"images": "--images", "words": "--words", "font": "--font", "theme_dir": "DIRECTORY"}
"""``init_theme``'s arguments as ``printdeck init`` names them."""
INIT_FIXES = {"theme-exists": "choose another folder, or pass --force to overwrite it"}
"""``init_theme``'s fixes that name an argument, by the error's ``code`` (see its Raises),
as ``printdeck init`` says them."""
INIT_OPTIONS_TO_PASS = {"word-without-font": "--font FILE"}
"""The option that also fixes an ``init_theme`` error, by the error's ``code``."""


def init_as_typed(exc: PrintdeckError) -> PrintdeckError:
    """An ``init_theme`` error as ``printdeck init`` words it: an argument as its option
    (``words`` -> ``--words``), a fix that names an argument with the option instead."""
    if exc.is_argument and exc.key in INIT_FLAGS:
        exc = exc.with_key(INIT_FLAGS[exc.key])
    if exc.code in INIT_FIXES:
        exc = exc.with_fix(INIT_FIXES[exc.code])
    elif exc.code in INIT_OPTIONS_TO_PASS and exc.fix:
        exc = exc.with_fix(f"{exc.fix} ({INIT_OPTIONS_TO_PASS[exc.code]})")
    return exc


@click.command()
def themes() -> None:
    """List the bundled themes and their deck sizes."""
    try:
        rows = printdeck.list_themes()
    except PrintdeckError as exc:
        fail(exc)
    wide = max([len("name"), *(len(r.name) for r in rows)])  # columns stay aligned under a long name
    click.echo(f"{'name':<{wide}} {'cards':>5} {'a card':>6} {'match':>5} {'symbols':>9}  title")
    for r in rows:
        cards = "?" if r.cards is None else str(r.cards)
        click.echo(
            f"{r.name:<{wide}} {cards:>5} {r.symbols_per_card:>6} {r.match:>5} "
            f"{f'{r.symbols_used}/{r.symbols_offered}':>9}  {r.title}"
        )
    click.echo("build one with `printdeck build NAME`")


@click.command()
def presets() -> None:
    """List the print-service presets (build with `printdeck build --preset NAME`), with their sources."""
    for item in printdeck.presets().values():
        click.echo(f"{item.name}: {item.service}")
        click.echo(f"    makes:  {item.makes}")
        if item.sizes:  # a named card size the service cuts to its own template
            said = ", ".join(f"{name} {' x '.join(map(str, size))}" for name, size in item.sizes.items())
            click.echo(f"    sizes:  {said}")
        click.echo(f"    source: {item.source}")
    click.echo("build with one: `printdeck build THEME --preset NAME`")


@click.command()
def schema() -> None:
    """Print the theme file's JSON Schema (for editors and validators)."""
    click.echo(printdeck.schema_json(), nl=False)


CHECK_OPTIONS = [info for info in option_table("build") if info.name in ("allow_look_alike", "grayscale")]
"""The build's options that change what ``check`` refuses (from the one option table)."""


@click.command()
@click.argument("theme", required=False)
@click.option(
    "--allow-outside", is_flag=True, help="Let the theme read files outside its folder (and the bundled assets)."
)
@spec_options(CHECK_OPTIONS)
def check(theme: str | None, allow_outside: bool, allow_look_alike: bool | None, grayscale: bool | None) -> None:
    """Check THEME (file, folder or bundled name; default: this folder's theme.yaml, else the default
    theme) without building: every key and file, and
    symbols players cannot tell apart (refused); those alike in grey or for colour-blind
    players are warned about."""
    try:
        with caught_warnings() as caught:
            report = printdeck.check_theme(
                theme_ref(theme),
                allow_outside=allow_outside,
                allow_look_alike=allow_look_alike,
                grayscale=grayscale,
            )
    except PrintdeckError as exc:
        fail(exc)
    show_warnings(caught)
    click.echo(
        f"{report.name}: ok: {report.deck_text()} (match {report.match}), "
        f"{report.symbols_used} of {report.symbols_offered} symbols used"
    )
    if report.unused:
        from printdeck.build_result import left_out_line  # noqa: PLC0415 - keeps the CLI's start light

        click.echo(left_out_line(report.unused, manifest=False))
