"""The ``printdeck`` command line: parse, call one function of the library, report.

Every command is a thin call of the public library (``import printdeck``): it turns
a ``PrintdeckError`` into one line on stderr and exit status 2; the group does the
same for click's own usage errors (a bad option value, a missing argument, an unknown
command), naming the help to read. SIGTERM, SIGINT and SIGHUP unwind the stack
(temporary files are removed) and end in one line and exit status 128 + the signal;
warnings print as one line each, after a command that succeeded (a refusal stays one
line). Exit statuses: :class:`~printdeck.cli.common.ExitStatus`.

Commands by module: :mod:`~printdeck.cli.build` (build), :mod:`~printdeck.cli.design`
(design, verify, stats), :mod:`~printdeck.cli.sheets` (preview, calibrate),
:mod:`~printdeck.cli.theme` (init, themes, schema, check), :mod:`~printdeck.cli.screen`
(slides, answer); what they share is in :mod:`~printdeck.cli.common`.
"""

from __future__ import annotations

import sys
import warnings
from typing import Any

import click

from printdeck import __version__
from printdeck.cli import gc_pause  # first: the collector waits while the commands load
from printdeck.cli.build import build
from printdeck.cli.common import ExitStatus, fail, show_warnings, stopped
from printdeck.cli.design import design, stats, verify
from printdeck.cli.screen import answer, slides
from printdeck.cli.sheets import calibrate, preview
from printdeck.cli.studio import studio
from printdeck.cli.theme import check, init, presets, schema, themes
from printdeck.signals import Interrupted, install_handlers, stopped_by

__all__ = ["ExitStatus", "main", "stopped"]

_NO_ARGS: tuple[type[click.ClickException], ...] = tuple(
    getattr(click.exceptions, name) for name in ("NoArgsIsHelpError",) if hasattr(click.exceptions, name)
)


class _OneLineErrors(click.Group):
    """A click group whose usage errors end as one line on stderr (exit status 2)."""

    def main(self, *args: Any, **kwargs: Any) -> Any:
        install_handlers()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            for category in (DeprecationWarning, PendingDeprecationWarning):  # for developers, not users
                warnings.simplefilter("ignore", category)
            try:
                self._main(*args, **kwargs)
            except SystemExit as exc:
                if exc.code in (ExitStatus.OK, None):  # a refusal stays one line: warnings show on success only
                    show_warnings(caught)
                raise

    def _main(self, *args: Any, **kwargs: Any) -> None:
        """Run the command; always ends in ``sys.exit``."""
        kwargs["standalone_mode"] = False
        try:
            code = super().main(*args, **kwargs)
        except Interrupted:  # SIGTERM / Ctrl-C: temporary files removed, finally blocks run
            stopped()
        except _NO_ARGS as exc:  # plain ``printdeck``: the help, as click shows it
            exc.show()
            sys.exit(exc.exit_code)
        except click.ClickException as exc:  # click's status: 2 for usage errors
            ctx = getattr(exc, "ctx", None)  # usage errors know their command
            where = f" (see '{ctx.command_path} --help')" if ctx is not None else ""
            fail(f"{exc.format_message()}{where}", exc.exit_code)
        except click.Abort:
            click.echo("printdeck: aborted", err=True)
            sys.exit(ExitStatus.FAILED)
        except SystemExit:  # the command's own exit (its line said, a signal's included): once
            raise
        except BaseException:  # a library swallowed the signal and failed after it
            if stopped_by() is not None:
                stopped()
            raise
        if stopped_by() is not None:
            stopped()
        sys.exit(code if isinstance(code, int) else ExitStatus.OK)


@click.group(cls=_OneLineErrors, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="printdeck")
def main() -> None:
    """Make print-ready spot-the-match card decks from a YAML theme."""


for _command in (
    build,
    preview,
    calibrate,
    design,
    verify,
    stats,
    init,
    themes,
    presets,
    schema,
    check,
    studio,
    slides,
    answer,
):
    main.add_command(_command)

gc_pause.resume()
