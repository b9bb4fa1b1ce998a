"""The ``printdeck`` command line: parse, call one library function, report.

Every command turns a ``PrintdeckError`` into one line on stderr and exit status 2.
The commands live beside their stage (``cli_build``, ``cli_design``, ``cli_layout``,
``cli_render``, ``cli_theme``); this module only gathers them into one group.
"""

from __future__ import annotations

import click

from printdeck import __version__
from printdeck.cli_build import build
from printdeck.cli_design import design, stats, verify
from printdeck.cli_layout import preview
from printdeck.cli_render import calibrate
from printdeck.cli_theme import check, init, schema, themes


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="printdeck")
def main() -> None:
    """Make print-ready spot-the-match card decks from a YAML theme."""


for _command in (build, preview, calibrate, design, verify, stats, init, themes, schema, check):
    main.add_command(_command)
