"""What every command shares: its exit status, and how an error, a warning and a signal end.

A problem the user can fix is one line ``printdeck: error: ...`` on stderr and exit
status 2; warnings are one line each, printed after a command that succeeded; a
signal ends in one line and exit status 128 + its number.
"""

from __future__ import annotations

import sys
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from enum import IntEnum
from pathlib import Path
from typing import NoReturn

import click

from printdeck.audit import INPUT_EVENT
from printdeck.errors import PrintdeckError, one_line, warning_lines
from printdeck.signals import report_stop, stopped_by


class ExitStatus(IntEnum):
    """The exit status of a ``printdeck`` command."""

    OK = 0
    """Done (``verify``: the deck is right)."""
    FAILED = 1
    """Done, and the answer is no (``verify``: the deck is wrong), or aborted at a prompt."""
    USER_ERROR = 2
    """A usage error or a problem the user can fix, reported in one line."""

    @staticmethod
    def after_signal(signum: int) -> int:
        """``128 + signum``: the status a shell reports for a command a signal stopped."""
        return 128 + signum


def show_warnings(caught: list[warnings.WarningMessage]) -> None:
    """Print each distinct warning as one line ``printdeck: warning: ...`` on stderr (printdeck's
    own ``UserWarning`` kinds only: not a stray ``ResourceWarning`` of the interpreter's),
    a warning's every item above it when its line names only some (the look-alike pairs)."""
    for line in warning_lines(caught, listings=True):
        click.echo(line, err=True)


@contextmanager
def caught_warnings() -> Iterator[list[warnings.WarningMessage]]:
    """Record every warning inside the block (shown later with :func:`show_warnings`)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield caught


PATH_FLAGS = {"out": "-o", "out_path": "-o", "png_dir": "--png-dir"}
"""The options that give the library's path arguments (``out``...), as the user typed them."""


def fail(exc: PrintdeckError | str, code: int = ExitStatus.USER_ERROR) -> NoReturn:
    """Print ``exc`` as one safe line on stderr and exit with status ``code`` (no traceback);
    after a signal, report the signal instead (what failed then is its consequence).
    An error about a path argument (``out``) is worded as its option (``-o``)."""
    if stopped_by() is not None:
        stopped()
    if isinstance(exc, PrintdeckError) and exc.is_argument and exc.key in PATH_FLAGS:
        exc = exc.with_key(PATH_FLAGS[exc.key])
    if isinstance(exc, PrintdeckError) and exc.listing is not None:  # every item the line only counts, above it
        click.echo("\n".join(exc.listing.lines()), err=True)
    click.echo(f"printdeck: error: {one_line(str(exc))}", err=True)
    sys.exit(code)


def stopped() -> NoReturn:
    """Report the signal that stopped the command as one line and exit 128 + its number
    (:func:`printdeck.signals.report_stop`: the one wording, which the entry point uses too)."""
    report_stop()


HERE_THEME = "theme.yaml"
"""The theme a command given no THEME uses when the current folder holds it (a theme folder
made by ``init`` or the studio); elsewhere the bundled default theme."""


def theme_ref(argument: str | None) -> str | Path | None:
    """A THEME argument as the library takes it: a bundled name, a file or a folder, never
    YAML text (the library reads a string with a line break as YAML; a file name may hold one).
    No THEME: the current folder's :data:`HERE_THEME` if it has one (a parent who runs
    ``printdeck build`` in the deck's folder means that deck), else ``None`` (the default)."""
    if argument is None:
        here = Path(HERE_THEME)
        sys.audit(INPUT_EVENT, str(here.absolute()))  # looked for: one made later is used (printdeck.rerun)
        return here if here.is_file() else None
    return Path(argument) if "\n" in argument else argument
