"""``printdeck design``, ``printdeck verify`` and ``printdeck stats``: the deck's mathematics."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

import printdeck
from printdeck.api import SEED_MAX
from printdeck.cli.common import ExitStatus, fail
from printdeck.errors import PrintdeckError


@click.command()
@click.option("--order", "-q", type=int, default=None, help="Plane order q (k = q + 1; biplanes: k = q + 2).")
@click.option("--symbols-per-card", "-k", type=int, default=None, help="Symbols on each card.")
@click.option(
    "--match", type=click.Choice(["1", "2"]), default="1", show_default=True, help="Symbols every two cards share."
)
@click.option("--cards", "-n", type=int, default=None, help="Trim to this many cards.")
@click.option(
    "--search", is_flag=True, help="No plane of that size known: build the largest partial deck (--match 1 only)."
)
@click.option(
    "--time-limit",
    type=click.FloatRange(min=0.1),
    default=10.0,
    show_default=True,
    help="Search budget, seconds (fixes the deterministic work; also a wall-clock cap).",
)
@click.option("--drop-unused", is_flag=True, help="After trimming, drop symbols no card uses.")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "csv"]), default="text", show_default=True)
def design(
    order: int | None,
    symbols_per_card: int | None,
    match: str,
    cards: int | None,
    search: bool,
    time_limit: float,
    drop_unused: bool,
    fmt: str,
) -> None:
    """Print a deck design: which symbols (numbered from 0) go on each card."""
    try:
        d = printdeck.make_design(
            order=order,
            symbols_per_card=symbols_per_card,
            match=int(match),
            cards=cards,
            search=search,
            drop_unused=drop_unused,
            time_limit_s=time_limit,
        )
    except printdeck.DesignRequestError as e:
        fail(e.worded(_option_spelling()))
    except PrintdeckError as e:
        fail(e)
    click.echo(printdeck.format_design(d, fmt), nl=False)
    if search and d.order is None:
        click.echo(f"printdeck: searched deck: {len(d.blocks)} cards, {d.n_points} symbols", err=True)
        if "time limit" in d.construction:
            click.echo(
                "printdeck: warning: the search hit --time-limit before its fixed work budget; "
                "a faster machine may find a different deck",
                err=True,
            )


def _option_spelling() -> printdeck.Spelling:
    """``make_design``'s keywords as this command's long options (whichever spelling was typed):
    ``--symbols-per-card 7: ...; or add --search``."""
    return printdeck.Spelling(
        names={
            "symbols_per_card": "--symbols-per-card",
            "order": "--order",
            "match": "--match",
            "cards": "--cards",
            "search": "--search",
        },
        label="{name} {value}",
        setting="{name} {value}",
        switch_on="add {name}",
    )


@click.command()
@click.argument("file", type=click.Path(path_type=Path))
@click.option(
    "--match",
    type=click.Choice(["1", "2"]),
    default=None,
    help="Symbols every two cards must share (default: the file's lambda, else 1; "
    "when given, the file's lambda is ignored).",
)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def verify(file: Path, match: str | None, fmt: str) -> None:
    """Check a deck (design JSON, CSV of symbol numbers or names, or a build's manifest):
    exit 0 if every two cards share exactly --match symbols, 1 if not, 2 if the file
    cannot be read."""
    try:
        deck, report = printdeck.verify_file(file, int(match) if match else None)
    except PrintdeckError as e:
        fail(e)
    if fmt == "json":
        click.echo(
            json.dumps(
                {
                    "ok": report.ok,
                    "cards": report.cards,
                    "symbols": len(deck.labels),  # on the cards, as symbol_labels and frequencies count them
                    "symbols_said": deck.symbols_said,
                    "unused": report.unused,
                    "lambda": deck.lam,
                    "card_sizes": sorted({int(s) for s in report.card_sizes}),
                    "symbol_labels": deck.labels,
                    "frequencies": [int(f) for f in report.frequencies],
                    "bad_pair_count": report.bad_pair_count,
                    "bad_pairs": [list(p) for p in report.bad_pairs],
                    "duplicate_cards": list(report.duplicate_cards),
                    "faults": list(report.faults),
                }
            )
        )
    else:
        click.echo(report.summary())
    sys.exit(ExitStatus.OK if report.ok else ExitStatus.FAILED)


STATS_FLAGS = {
    "symbols": "--symbols",
    "per_card": "--per-card",
    "cards": "--cards",
    "trials": "--trials",
    "path": "--plot",
}
"""``deck_stats`` and ``plot_cdf``'s arguments as ``printdeck stats`` names them."""


@click.command()
@click.option("--symbols", "-S", type=int, default=57, show_default=True, help="Symbols in the pool.")
@click.option("--per-card", "-s", type=int, default=8, show_default=True, help="Symbols on each card.")
@click.option("--cards", "-N", type=int, default=55, show_default=True, help="Cards in the deck.")
@click.option("--trials", type=int, default=200, show_default=True, help="Simulated decks of each kind.")
@click.option("--seed", type=click.IntRange(0, SEED_MAX), default=0, show_default=True)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--plot", type=click.Path(path_type=Path), default=None, help="Write the CDF plot (.png or .pdf).")
def stats(symbols: int, per_card: int, cards: int, trials: int, seed: int, fmt: str, plot: Path | None) -> None:
    """Shared-symbol odds: random cards vs. evenly distributed bags vs. a designed deck."""
    try:
        result = printdeck.deck_stats(symbols, per_card, cards, trials, seed)
        if plot is not None:
            printdeck.plot_cdf(result, plot)
    except PrintdeckError as e:
        fail(e.with_key(STATS_FLAGS[e.key]) if e.is_argument and e.key in STATS_FLAGS else e)
    click.echo(json.dumps(result.as_dict()) if fmt == "json" else result.text())
