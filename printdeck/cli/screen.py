"""``printdeck slides`` and ``printdeck answer``: the game on the classroom screen."""

from __future__ import annotations

from pathlib import Path

import click

import printdeck
from printdeck.api import option_table
from printdeck.cli.common import caught_warnings, fail, show_warnings, theme_ref
from printdeck.cli.options import as_typed, spec_option, spec_options
from printdeck.errors import PrintdeckError, shown
from printdeck.output_record import manifest_beside

SLIDES_OPTIONS = option_table("slides")


@click.command()
@click.argument("theme", required=False)
@click.option(
    "-o", "--output", "output", type=click.Path(dir_okay=False, path_type=Path), default=Path("slides.pdf"),
    show_default=True, help="The slides PDF to write.",
)  # fmt: skip
@spec_options(SLIDES_OPTIONS)
@click.option("--allow-outside", is_flag=True, help="Let the theme read files outside its folder.")
def slides(
    theme: str | None,
    output: Path,
    seed: int | None,
    reveal: str,
    game: str,
    answer_key: bool | None,
    allow_outside: bool,
) -> None:
    """Slides for the classroom screen (16:9 PDF) of THEME (default: this folder's theme.yaml, else the default theme):
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
        fail(as_typed(exc, SLIDES_OPTIONS))
    show_warnings(caught)
    click.echo(f"wrote {result.pdf_path}: {len(result.rounds)} rounds, {result.pages} pages")


@click.command()
@click.argument("theme")
@click.argument("first", type=int)
@click.argument("second", type=int)
@spec_option(next(o for o in option_table("build") if o.name == "seed"))  # build's own: the deck it printed
@click.option("--allow-outside", is_flag=True, help="Let the theme read files outside its folder.")
def answer(theme: str, first: int, second: int, seed: int | None, allow_outside: bool) -> None:
    """The symbol cards FIRST and SECOND of THEME share (cards counted from 1 in the PDF's
    order, as the slides label them; the cards themselves carry no number). THEME may be
    a build's manifest (output/NAME.json): the answer is then the printed deck's, whatever
    the theme holds now."""
    try:
        if printdeck.manifest_data(Path(theme)) is not None:
            if seed is not None:
                raise PrintdeckError(
                    key="--seed", problem="a build's manifest is the deck as printed, seed and all",
                    fix="leave --seed out", is_argument=True,
                )  # fmt: skip
            names = printdeck.manifest_answer(Path(theme), first, second)
            click.echo(", ".join(names))
            _say_if_twins(first, second, names)
            return
        if theme.lower().endswith(".json") and not Path(theme).exists():
            raise PrintdeckError(source=theme, problem="not found", fix="give a build's manifest or a theme")
        _refuse_a_built_pdf(Path(theme))
        _refuse_a_design(Path(theme))
        loaded = printdeck.load_theme(theme_ref(theme), allow_outside=allow_outside)
        shared = printdeck.shared_symbols(loaded, first, second, seed)
    except PrintdeckError as exc:
        typed = exc.is_argument and exc.key in ("first", "second")
        fail(exc.with_key(str(exc.key).upper()) if typed else exc)  # the arguments as --help names them
    click.echo(", ".join(s.name for s in shared))
    _say_if_twins(first, second, [s.name for s in shared])
    _say_if_printed_differs(loaded, first, second, [s.name for s in shared], seed)


def _refuse_a_built_pdf(pdf: Path) -> None:
    """Refuse a build's PDF given for the deck when its manifest is beside it, naming the
    manifest to give (a PDF with none, or no file at all, is left to the theme's refusal).

    Raises:
        PrintdeckError: Said of the PDF, with its manifest as the fix.
    """
    manifest = manifest_beside(pdf) if pdf.suffix.lower() == ".pdf" and pdf.is_file() else None
    if manifest is not None:
        raise PrintdeckError(source=str(pdf), problem="is the deck's PDF", fix=f"give its manifest {shown(manifest)}")


def _refuse_a_design(path: Path) -> None:
    """Refuse a deck design given for the deck (``printdeck design``'s JSON or CSV, a deck
    written in names): it numbers the cards' symbols but knows no picture or word, and read
    as a theme it was told to indent ``cards:`` under ``deck:``.

    Raises:
        PrintdeckError: Said of the file, with the theme or a build's manifest as the fix.
    """
    if path.suffix.lower() not in (".json", ".csv", ".tsv", ".txt") or not path.is_file():
        return
    try:
        printdeck.verify_file(path)
    except PrintdeckError:
        return  # not a deck file: read as a theme, whose refusal says what is wrong
    raise PrintdeckError(
        source=str(path),
        problem="is a deck design: it numbers the cards' symbols but names none",
        fix="give the theme, or the manifest a build wrote beside its PDF",
    )


def _say_if_twins(first: int, second: int, shared: list[str]) -> None:
    """Note that two cards sharing more than two symbols (two cards of a deck share 1 or 2)
    are a split deck's twins: a card of deck A and its copy in deck B."""
    if len(shared) > 2:
        click.echo(
            f"note: cards {first} and {second} show the same symbols: a card of deck A and its twin in "
            "deck B; play a card of A against any other card of B",
            err=True,
        )


def _say_if_printed_differs(
    theme: printdeck.Theme, first: int, second: int, answer: list[str], seed: int | None
) -> None:
    """Warn when the deck the theme's last build printed (its manifest) answers
    otherwise: built with another seed (``--seed``), or the theme changed since."""
    printed = printdeck.printed_manifest(theme.name, theme.path)
    data = printdeck.manifest_data(printed) if printed is not None else None
    if printed is None or data is None or seed is not None:  # another seed asked for: not that deck
        return
    try:
        then = printdeck.manifest_answer(printed, first, second)
    except PrintdeckError:
        return  # a split deck, or fewer cards then: nothing to compare
    if sorted(then) != sorted(answer):
        built_seed = data.get("seed")
        why = (
            f"it was built with seed {built_seed} (the theme has {theme.spec.seed}: --seed, or an edit)"
            if isinstance(built_seed, int) and built_seed != theme.spec.seed
            else "the theme changed since it was built"
        )
        click.echo(
            f"printdeck: warning: the deck printed from {printed} (its manifest) shows {', '.join(then)} on "
            f"these cards: {why}; for the printed cards, run printdeck answer {printed} {first} {second}",
            err=True,
        )
