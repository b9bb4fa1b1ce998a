"""The ``printdeck`` command line: parse, call one library function, report.

Every command turns a ``PrintdeckError`` into one line on stderr and exit status 2;
the group does the same for click's own usage errors (a bad option value, a missing
argument, an unknown command), naming the option and the help to read.
The commands live beside their stage (``cli_build``, ``cli_design``, ``cli_layout``,
``cli_render``, ``cli_theme``); this module only gathers them into one group.
"""

from __future__ import annotations

import sys
from typing import Any

import click

from printdeck import __version__
from printdeck.cli_build import build
from printdeck.cli_common import fail
from printdeck.cli_design import design, stats, verify
from printdeck.cli_layout import preview
from printdeck.cli_render import calibrate
from printdeck.cli_theme import check, init, schema, themes

_NO_ARGS: tuple[type[click.ClickException], ...] = tuple(
    getattr(click.exceptions, name) for name in ("NoArgsIsHelpError",) if hasattr(click.exceptions, name))


class _OneLineErrors(click.Group):
    """A click group whose usage errors end as one line on stderr (exit status 2)."""

    def main(self, *args: Any, **kwargs: Any) -> Any:  # noqa: D102 - click's entry point
        kwargs["standalone_mode"] = False
        try:
            code = super().main(*args, **kwargs)
        except _NO_ARGS as exc:  # plain ``printdeck``: the help, as click shows it
            exc.show()
            sys.exit(exc.exit_code)
        except click.ClickException as exc:
            where = f" (see '{exc.ctx.command_path} --help')" if getattr(exc, "ctx", None) else ""
            fail(f"{exc.format_message()}{where}", exc.exit_code)
        except click.Abort:
            click.echo("printdeck: aborted", err=True)
            sys.exit(1)
        sys.exit(code if isinstance(code, int) else 0)


@click.group(cls=_OneLineErrors, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="printdeck")
def main() -> None:
    """Make print-ready spot-the-match card decks from a YAML theme."""


for _command in (build, preview, calibrate, design, verify, stats, init, themes, schema, check):
    main.add_command(_command)
