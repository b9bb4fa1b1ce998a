"""The ``printdeck`` command's entry point: a build whose inputs have not changed since it
last ran is replayed from its record (:mod:`printdeck.rerun`: no pipeline, no libraries
loaded); any other command line goes to :func:`printdeck.cli.main`, a build recorded on
the way."""

from __future__ import annotations

import sys


def main() -> None:
    """Run the command line in ``sys.argv``; always ends in ``sys.exit``."""
    args = sys.argv[1:]
    from printdeck import rerun  # noqa: PLC0415 - the standard library and printdeck's core modules only
    from printdeck.signals import Interrupted, install_handlers  # noqa: PLC0415

    if rerun.eligible(args):
        install_handlers()
        said = None
        try:
            said = rerun.replay(args)
        except Exception:  # noqa: BLE001 - a replay is only a speed-up: the build runs as always
            pass
        except Interrupted:
            from printdeck.cli import stopped  # noqa: PLC0415 - the one line a signal ends in

            stopped()
        if said is not None:  # the outputs are written: what fails now fails as a build's printing would
            rerun.say(said)
            sys.exit(0)
    recording = rerun.start(args)
    from printdeck.cli import main as command_line  # noqa: PLC0415 - loads the pipeline's libraries

    try:
        command_line()
    except SystemExit as exc:
        if recording is not None:
            recording.finish(exc.code)
        raise
