"""The studio's work on threads of its own, finished before the process ends.

The studio draws sheets, checks dropped pictures and builds decks on daemon threads, so a
Ctrl-C never waits for a thread that is only waiting for work. But a daemon thread still
inside a C++ library (HarfBuzz, GEOS, HiGHS, libheif) when Python finalises is stopped by
an unwinding that C++ cannot pass: the process aborts ("terminate called without an active
exception", exit status 134) after everything was saved. Work runs inside :func:`working`;
:func:`wait_idle` waits until none runs, and runs when the process ends (``atexit``, after
the threads that are not daemons are joined and before Python finalises).
"""

from __future__ import annotations

import atexit
import threading
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["EXIT_WAIT_S", "busy", "wait_idle", "working"]

EXIT_WAIT_S = 120.0
"""How long the process's end waits for work under way (a photo deck's build takes a few
seconds to a minute), seconds; work still running then is left to its fate."""

_busy = 0
_closing = False
_changed = threading.Condition()


@contextmanager
def working() -> Iterator[None]:
    """Mark the calling thread busy with studio work until the block ends; once the
    process is ending (:func:`wait_idle` with ``closing``), no work starts: the thread
    waits here for the end, outside any C++ library."""
    global _busy
    with _changed:
        while _closing:
            _changed.wait()
        _busy += 1
    try:
        yield
    finally:
        with _changed:
            _busy -= 1
            _changed.notify_all()


def busy() -> int:
    """How many threads are in :func:`working` now."""
    with _changed:
        return _busy


def wait_idle(timeout_s: float = EXIT_WAIT_S, *, closing: bool = False) -> bool:
    """Wait until no thread is in :func:`working` (at most ``timeout_s`` seconds); whether
    none is. With ``closing`` (the process is ending), no work starts from now on, so none
    can begin between the last one's end and the process's."""
    global _closing
    with _changed:
        _closing = _closing or closing
        return _changed.wait_for(lambda: _busy == 0, timeout_s)


atexit.register(wait_idle, closing=True)
