"""The ``printdeck`` command line: parse, call one library function, report.

Every command turns a ``PrintdeckError`` into one line on stderr and exit status 2.
"""

from __future__ import annotations

import click

from printdeck import __version__


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="printdeck")
def main() -> None:
    """Make print-ready spot-the-match card decks from a YAML theme."""


# --- command registration (each area adds its commands here) ---
from printdeck.cli_build import build  # noqa: E402

main.add_command(build)
from printdeck.cli_theme import check, init, schema, themes  # noqa: E402

main.add_command(init)
main.add_command(themes)
main.add_command(schema)
main.add_command(check)
from printdeck.cli_render import calibrate  # noqa: E402

main.add_command(calibrate)
from printdeck.cli_layout import preview  # noqa: E402

main.add_command(preview)
from printdeck.cli_design import design, stats, verify  # noqa: E402

main.add_command(design)
main.add_command(verify)
main.add_command(stats)
