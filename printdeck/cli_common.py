"""What every command shares: how a user-caused error ends."""

from __future__ import annotations

import sys
from typing import NoReturn

import click

from printdeck.errors import PrintdeckError


def fail(exc: PrintdeckError | str, code: int = 2) -> NoReturn:
    """Print ``exc`` as one line on stderr and exit with status ``code`` (no traceback)."""
    click.echo(f"printdeck: error: {exc}", err=True)
    sys.exit(code)
