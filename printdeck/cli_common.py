"""What every command shares: how a user-caused error, a warning and a signal end."""

from __future__ import annotations

import signal
import sys
import warnings
from typing import NoReturn

import click

from printdeck.errors import PrintdeckError, one_line, shown
from printdeck.signals import stopped_by


def show_warnings(caught: list[warnings.WarningMessage]) -> None:
    """Print each distinct warning as one line ``printdeck: warning: ...`` on stderr (printdeck's
    own ``UserWarning`` kinds only: not a stray ``ResourceWarning`` of the interpreter's)."""
    for text in dict.fromkeys(one_line(str(w.message)) for w in caught if issubclass(w.category, UserWarning)):
        click.echo(f"printdeck: warning: {text}", err=True)


def fail(exc: PrintdeckError | str, code: int = 2) -> NoReturn:
    """Print ``exc`` as one safe line on stderr and exit with status ``code`` (no traceback);
    after a signal, report the signal instead (what failed then is its consequence)."""
    if stopped_by() is not None:
        stopped()
    click.echo(f"printdeck: error: {one_line(str(exc))}", err=True)
    sys.exit(code)


def stopped() -> NoReturn:
    """Report the signal that stopped the command as one line and exit 128 + its number.

    Temporary files are gone by now; the line says whether outputs were left as they
    were or which were already written (whole) when the signal came.
    """
    from printdeck.fileio import written  # here: keep the CLI's start light

    signum = stopped_by() or signal.SIGTERM
    try:
        name = signal.Signals(signum).name
    except ValueError:
        name = f"signal {signum}"
    done = written()
    what = ("outputs were left as they were" if not done else
            "already written (whole): " + ", ".join(shown(p) for p in done))
    click.echo(f"printdeck: stopped by {name}; {what}", err=True)
    sys.exit(128 + signum)
