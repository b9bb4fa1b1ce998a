"""SIGTERM, SIGINT and SIGHUP end a command cleanly: temporary files go, outputs stay.

The CLI installs :func:`install_handlers`. On the first signal the handler removes every
temporary file and staging folder this process is writing
(:func:`printdeck.fileio.remove_temporaries`), ignores further signals and raises
:class:`Interrupted`, so the stack unwinds through every ``finally`` block. A library
that swallows the exception (a bare ``except:``) cannot commit anything afterwards:
its temporary files are gone. Short critical sections (creating and recording a
temporary file, renaming outputs into place) run under :func:`deferred`: a signal
arriving there takes effect when the section ends.

Python swallows an exception raised where nothing can catch it (a weak-reference callback,
a ``__del__``) and prints it as "Exception ignored in ...". When :class:`Interrupted` is
swallowed so, :func:`install_handlers`' hook prints nothing and sends the signal to the main
thread again, so the command still stops, through its ``finally`` blocks, with its one line.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from collections.abc import Callable, Iterator
from types import FrameType
from typing import NoReturn

SIGNALS = ("SIGTERM", "SIGINT", "SIGHUP")

_state: dict[str, int | None] = {
    "main_pid": None,
    "critical": 0,
    "pending": None,
    "stopped_by": None,
    "in_hook": 0,
}


class Interrupted(BaseException):
    """A signal stopped the command (a ``BaseException``, like ``KeyboardInterrupt``, so no
    ``except Exception`` swallows it); the CLI exits with status 128 + ``signum``."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def stopped_by() -> int | None:
    """The signal that stopped this process, or None."""
    return _state["stopped_by"]


_CLEANUPS: list[Callable[[], None]] = []
"""What a signal runs before the stack unwinds (``printdeck.fileio`` registers its
removal of temporary files when it is imported: before then there are none)."""


def on_stop(cleanup: Callable[[], None]) -> None:
    """Run ``cleanup`` when a signal stops the process, before :class:`Interrupted` is raised
    (so this module imports none of the modules that clean up)."""
    if cleanup not in _CLEANUPS:
        _CLEANUPS.append(cleanup)


def _stop(signum: int) -> None:
    """Remove the temporary files, ignore further signals, raise :class:`Interrupted`."""
    _state["stopped_by"] = signum
    for name in SIGNALS:
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_IGN)
    _run_cleanups()
    raise Interrupted(signum)


def _run_cleanups() -> None:
    """Run every :func:`on_stop` cleanup; one that fails does not stop the others."""
    for cleanup in _CLEANUPS:
        with contextlib.suppress(Exception):
            cleanup()


def _on_signal(signum: int, _frame: FrameType | None) -> None:
    if os.getpid() != _state["main_pid"]:  # a forked worker process inherited this handler
        if signum == signal.SIGINT:
            return  # Ctrl-C reaches the whole group: the parent stops the workers
        _run_cleanups()  # the worker's own temporary files (a cache entry half written)
        os._exit(128 + signum)
    if _state["critical"]:
        _state["pending"] = _state["pending"] or signum
        return
    _stop(signum)


_REDELIVERY_DELAY_S = 0.005
"""How long the helper thread waits before it delivers a swallowed signal again: long
enough for the unraisable hook to return first."""


def _deliver_again(signum: int) -> None:
    """Send ``signum`` to the main thread again, soon (from a short-lived thread, so it is
    handled outside the code that swallowed it; a real signal, so a main thread blocked in
    a wait or a sleep wakes to it)."""
    import threading  # noqa: PLC0415 - needed only after a swallowed signal
    import time  # noqa: PLC0415

    main = threading.main_thread().ident

    def trip() -> None:
        time.sleep(_REDELIVERY_DELAY_S)
        if main is not None:
            signal.pthread_kill(main, signum)

    signal.signal(signum, _on_redelivered)
    threading.Thread(target=trip, name="printdeck-signal", daemon=True).start()


def _on_redelivered(signum: int, _frame: FrameType | None) -> None:
    """The handler of a signal delivered again: stop as the first delivery did (once the
    hook that asked for it has returned, and outside a :func:`deferred` section)."""
    if _state["in_hook"]:
        _deliver_again(signum)
    elif _state["critical"]:
        _state["pending"] = _state["pending"] or signum
    else:
        _stop(signum)


def _quiet_interrupted(hook: sys.UnraisableHookArgs) -> None:
    """``sys.unraisablehook``: an :class:`Interrupted` that Python swallowed is delivered
    again, unprinted; anything else goes to the hook that was there before."""
    if isinstance(hook.exc_value, Interrupted) and os.getpid() == _state["main_pid"]:
        _state["in_hook"] = 1
        try:
            _deliver_again(hook.exc_value.signum)
        finally:
            _state["in_hook"] = 0
        return
    _previous_hook(hook)


_previous_hook = sys.unraisablehook


def install_handlers() -> None:
    """Handle SIGTERM, SIGINT and SIGHUP in this (main) process as described above, and
    install the ``sys.unraisablehook`` that delivers a swallowed :class:`Interrupted` again.

    Does nothing outside the main thread (``signal`` allows handlers only there).
    """
    global _previous_hook
    _state["main_pid"] = os.getpid()
    if sys.unraisablehook is not _quiet_interrupted:
        _previous_hook = sys.unraisablehook
        sys.unraisablehook = _quiet_interrupted
    for name in SIGNALS:
        if hasattr(signal, name):
            try:
                signal.signal(getattr(signal, name), _on_signal)
            except (ValueError, OSError):  # not the main thread
                return


@contextlib.contextmanager
def deferred() -> Iterator[None]:
    """Run the body with signals held back; a signal that came meanwhile takes effect
    (raises :class:`Interrupted`) when the outermost such section ends."""
    _state["critical"] = int(_state["critical"] or 0) + 1
    try:
        yield
    finally:
        _state["critical"] = int(_state["critical"] or 0) - 1
        pending = _state["pending"]
        if not _state["critical"] and pending is not None:
            _state["pending"] = None
            _stop(pending)


SAID_WRITTEN = 6
"""The most outputs the line a signal ends with names (a studio writes its theme.yaml on
every change: a stopped studio listed it seven times)."""


def report_stop(signum: int | None = None) -> NoReturn:
    """Say, in one line on standard error, that a signal stopped the command and whether
    outputs were left as they were or which were already written (whole), and exit with
    ``128 + signum`` (the signal that stopped it: :func:`stopped_by`, else ``signum``, else
    SIGTERM). Imports nothing: a signal may have cut an import short, and what was written
    went through :mod:`printdeck.fileio`, loaded by then (a replay's outputs too)."""
    signum = stopped_by() or signum or signal.SIGTERM
    try:
        name = signal.Signals(signum).name
    except ValueError:
        name = f"signal {signum}"
    fileio, errors = sys.modules.get("printdeck.fileio"), sys.modules.get("printdeck.errors")
    written = getattr(fileio, "written", None)  # not loaded: nothing was written through it
    shown = getattr(errors, "shown", str)
    done = [p for p in dict.fromkeys(written() if written else []) if p.exists()]  # a studio's previews are gone
    listed = ", ".join(shown(p) for p in done[:SAID_WRITTEN]) + (
        f" and {len(done) - SAID_WRITTEN} more" if len(done) > SAID_WRITTEN else ""
    )
    what = "outputs were left as they were" if not done else f"already written (whole): {listed}"
    sys.stderr.write(f"printdeck: stopped by {name}; {what}\n")
    sys.stderr.flush()
    sys.exit(128 + signum)
