"""A lock a forked process gets free: printdeck forks worker processes while other threads
of the program may run (a layout forks whatever they do), and a plain lock another thread
held at the fork stays held in the child, where no thread will ever release it."""

from __future__ import annotations

import os
import threading
from types import TracebackType


class ForkSafeLock:
    """A :class:`threading.Lock` made afresh, free, in every child forked after it
    (``os.register_at_fork``); for module-wide locks (each registers itself for the
    process's life)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        if hasattr(os, "register_at_fork"):
            os.register_at_fork(after_in_child=self._renew)

    def _renew(self) -> None:
        self._lock = threading.Lock()

    def acquire(self, blocking: bool = True, timeout: float = -1) -> bool:
        """As :meth:`threading.Lock.acquire`."""
        return self._lock.acquire(blocking, timeout)

    def release(self) -> None:
        """As :meth:`threading.Lock.release`."""
        self._lock.release()

    def __enter__(self) -> ForkSafeLock:
        self._lock.acquire()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self._lock.release()
