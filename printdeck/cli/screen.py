"""``printdeck slides`` and ``printdeck answer``: the game on the classroom screen."""

from __future__ import annotations

from pathlib import Path

import click

import printdeck
from printdeck.cli.common import caught_warnings, fail, show_warnings, theme_ref
from printdeck.errors import PrintdeckError


@click.command()
@click.argument("theme", required=False)
@click.option(
    "-o", "--output", "output", type=click.Path(dir_okay=False, path_type=Path), default=Path("slides.pdf"),
    show_default=True, help="The slides PDF to write.",
)  # fmt: skip
@click.option("--seed", type=click.IntRange(0, 2**32 - 1), help="Seed of the rounds' order [default: the theme's].")
@click.option(
    "--reveal", default="ring", show_default=True,
    help="How the answer slide shows the match: ring (on both cards), corner (its picture and name) or both.",
)  # fmt: skip
@click.option(
    "--game", default="screen", show_default=True,
    help="The game whose rules the title slide shows: screen (a whole class races) or one of the rules "
    "sheet's games (heap, empty-your-pile, pass-the-parcel, ring-around, gift-giver).",
)  # fmt: skip
@click.option("--answer-key", is_flag=True, help="Add the answer key: each round's match by name and picture.")
@click.option("--allow-outside", is_flag=True, help="Let the theme read files outside its folder.")
def slides(
    theme: str | None,
    output: Path,
    seed: int | None,
    reveal: str,
    game: str,
    answer_key: bool,
    allow_outside: bool,
) -> None:
    """Slides for the classroom screen (16:9 PDF) of THEME (default: the default theme):
    the rules, then each round's two cards and the next slide with their match shown."""
    try:
        with caught_warnings() as caught:
            result = printdeck.write_slides(
                theme_ref(theme),
                output,
                seed=seed,
                reveal=reveal,
                game=game,
                answer_key=answer_key,
                allow_outside=allow_outside,
            )
    except PrintdeckError as exc:
        fail(exc)
    show_warnings(caught)
    click.echo(f"wrote {result.pdf_path}: {len(result.rounds)} rounds, {result.pages} pages")


@click.command()
@click.argument("theme")
@click.argument("first", type=int)
@click.argument("second", type=int)
@click.option("--allow-outside", is_flag=True, help="Let the theme read files outside its folder.")
def answer(theme: str, first: int, second: int, allow_outside: bool) -> None:
    """The symbol cards FIRST and SECOND of THEME share (cards counted from 1, as printed)."""
    try:
        loaded = printdeck.load_theme(theme_ref(theme), allow_outside=allow_outside)
        shared = printdeck.shared_symbols(loaded, first, second)
    except PrintdeckError as exc:
        fail(exc)
    click.echo(", ".join(s.name for s in shared))
