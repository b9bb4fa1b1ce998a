"""Helpers for the tests of printdeck on threads and forks."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from typing import Any


def child_takes(lock_of: Callable[[], Any]) -> int:
    """Fork while another thread holds the lock ``lock_of()`` gives; the child's exit status
    (0: it took the lock at once; 1: the lock was still held in it)."""
    held, release = threading.Event(), threading.Event()

    def hold() -> None:
        with lock_of():
            held.set()
            release.wait(30)

    holder = threading.Thread(target=hold)
    holder.start()
    try:
        assert held.wait(10)
        pid = os.fork()
        if pid == 0:  # the child: no thread of its own holds the lock
            os._exit(0 if lock_of().acquire(timeout=2) else 1)
        _, status = os.waitpid(pid, 0)
    finally:
        release.set()
        holder.join(30)
    return os.waitstatus_to_exitcode(status)


def at_once(calls: dict[str, Callable[[], Any]], timeout_s: float = 300.0) -> dict[str, Any]:
    """Run each call on a thread of its own, all at once; by name, what each returned or
    the exception it raised (every thread ended: a call still running fails the test)."""
    out: dict[str, Any] = {}

    def run(name: str) -> None:
        try:
            out[name] = calls[name]()
        except BaseException as exc:  # noqa: BLE001 - given back to the test
            out[name] = exc

    threads = [threading.Thread(target=run, args=(name,)) for name in calls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout_s)
    assert not any(thread.is_alive() for thread in threads), "a call is still running"
    return out
