"""The ``printdeck`` command's entry point: a build whose inputs have not changed since it
last ran is replayed from its record (:mod:`printdeck.rerun`: no pipeline, no libraries
loaded); any other command line goes to :func:`printdeck.cli.main`, a build recorded on
the way.

The signal handlers (:mod:`printdeck.signals`) go in first, for every command, so Ctrl-C or
SIGTERM while the command line's libraries load ends in the same one line as later (it
printed a traceback in a build's first 0.3 s, and in any other command's).
"""

from __future__ import annotations

import contextlib
import signal
import sys
from typing import NoReturn


def main() -> None:
    """Run the command line in ``sys.argv``; always ends in ``sys.exit``."""
    try:
        from printdeck.signals import (  # noqa: PLC0415 - the standard library only
            Interrupted,
            install_handlers,
            report_stop,  # the one line, importing nothing: a signal may have cut an import short
            stopped_by,
        )

        install_handlers()
    except KeyboardInterrupt:  # Ctrl-C before the handlers were in
        _stopped_early()
    try:
        _run(sys.argv[1:])
    except Interrupted as exc:
        report_stop(exc.signum)
    except KeyboardInterrupt:  # raised by a library's own handler of SIGINT, if any
        _stopped_early()
    except SystemExit:
        raise
    except BaseException:  # the signal came inside a class or an import, which made it another error
        signum = stopped_by()
        if signum is None:
            raise
        report_stop(signum)


def _run(args: list[str]) -> None:
    """Replay the build of ``args`` if it may be, else run the command line (recording a build)."""
    from printdeck import rerun  # noqa: PLC0415 - the standard library and printdeck's core modules only

    if rerun.eligible(args):
        said = None
        with contextlib.suppress(Exception):  # a replay is only a speed-up: else the build runs as always
            said = rerun.replay(args)
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


def _stopped_early() -> NoReturn:
    """Ctrl-C seen as ``KeyboardInterrupt`` (before the handlers were in, or raised by a
    library's own handler): the same line, for SIGINT."""
    try:
        from printdeck.signals import report_stop  # noqa: PLC0415
    except BaseException:  # noqa: BLE001 - a second Ctrl-C: nothing was written yet
        sys.stderr.write("printdeck: stopped by SIGINT; outputs were left as they were\n")
        sys.exit(128 + signal.SIGINT)
    report_stop(signal.SIGINT)
