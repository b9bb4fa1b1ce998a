"""What every command shares: its exit status, and how an error, a warning and a signal end.

A problem the user can fix is one line ``printdeck: error: ...`` on stderr and exit
status 2; warnings are one line each, printed after a command that succeeded; a
signal ends in one line and exit status 128 + its number.
"""

from __future__ import annotations

import signal
import sys
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from enum import IntEnum
from pathlib import Path
from typing import NoReturn

import click

from printdeck.audit import INPUT_EVENT
from printdeck.errors import PrintdeckError, one_line, shown, warning_lines
from printdeck.signals import stopped_by


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
    own ``UserWarning`` kinds only: not a stray ``ResourceWarning`` of the interpreter's)."""
    for line in warning_lines(caught):
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
    click.echo(f"printdeck: error: {one_line(str(exc))}", err=True)
    sys.exit(code)


SAID_WRITTEN = 6
"""The most outputs the line a signal ends with names (a studio writes its theme.yaml on
every change: a stopped studio listed it seven times)."""


def stopped() -> NoReturn:
    """Report the signal that stopped the command as one line and exit 128 + its number.

    Temporary files are gone by now; the line says whether outputs were left as they
    were or which were already written (whole) when the signal came.
    """
    signum = stopped_by() or signal.SIGTERM
    try:
        name = signal.Signals(signum).name
    except ValueError:
        name = f"signal {signum}"
    fileio = sys.modules.get("printdeck.fileio")  # not imported here: a signal may have cut an import short
    written = getattr(fileio, "written", None)  # not loaded: nothing was written through it
    done = [p for p in dict.fromkeys(written() if written else []) if p.exists()]  # a studio's previews are gone
    listed = ", ".join(shown(p) for p in done[:SAID_WRITTEN]) + (
        f" and {len(done) - SAID_WRITTEN} more" if len(done) > SAID_WRITTEN else ""
    )
    what = "outputs were left as they were" if not done else f"already written (whole): {listed}"
    click.echo(f"printdeck: stopped by {name}; {what}", err=True)
    sys.exit(ExitStatus.after_signal(signum))


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
