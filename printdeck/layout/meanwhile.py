"""A caller's work done beside the layout (the build's look-alike check): once, its
warnings given again in the caller's process, its error winning over any card's.

Where it runs, in order of preference:

- **aside**, in a process of its own forked as soon as the caller knows it
  (:meth:`Meanwhile.start_aside`): while the caller proves the symbols and plans the
  deck, one core is idle, and the work takes it; the layout then polls for its result
  between batches of cards and the build waits for it before it ends;
- in the first layout worker process, beside the cards the other workers pack;
- in the caller's process: before the first card when the cards are packed here, after
  the last when every card came from the layout cache.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import select
import signal
import threading
import time
import warnings
from collections.abc import Callable
from typing import NoReturn

Warned = list[tuple[str, type[Warning], dict[str, object]]]
"""What the work warned: each warning's text, category and attributes (a
:class:`~printdeck.errors.LookAlikeWarning`'s listing of every pair)."""
ABANDON_GRACE_S = 1.0
"""How long work aside that is abandoned has to end before it is killed."""


class Meanwhile:
    """A caller's work done once while :func:`~printdeck.layout.workers.run_cards` packs
    (see the module's notes). It is inherited by forked processes, never pickled.

    What the work warns is warned again in this process (same text and category); an
    error it raises is raised in this process and wins over any card's error.

    Args:
        work: The work: no arguments, no result; it may warn and raise.
    """

    def __init__(self, work: Callable[[], None]) -> None:
        self._work = work
        self.done = False
        """Whether the work ran (here or in another process), or raised."""
        self._aside: tuple[int, int] | None = None  # (process id, read end of its pipe)

    @property
    def aside(self) -> bool:
        """Whether the work runs aside (:meth:`start_aside`) and its result is not taken yet."""
        return self._aside is not None

    def start_aside(self, jobs: int) -> None:
        """Start the work now in a process of its own, forked from this one.

        Nothing happens (the work is done as before: in a layout worker or here) with
        one job (``jobs``: :func:`~printdeck.layout.workers.job_count` of the deck),
        where the platform cannot ``fork``, while this process runs other threads (the
        studio: a fork would inherit the locks they hold) or when no process can be
        started.
        """
        if self.done or self._aside is not None or jobs <= 1 or not _fork_safe():
            return
        read_end, write_end = os.pipe()
        try:
            pid = os.fork()
        except OSError:
            os.close(read_end)
            os.close(write_end)
            return
        if pid == 0:  # the process aside
            os.close(read_end)
            self._report(write_end)
        os.close(write_end)
        self._aside = (pid, read_end)

    def _report(self, write_end: int) -> NoReturn:
        """In the process aside: do the work, send what it warned or raised, end."""
        status = 0
        try:
            try:
                outcome: tuple[str, object] = ("warned", self.in_worker())
            except BaseException as exc:  # noqa: BLE001 - raised again in the caller's process
                outcome = ("raised", exc)
            try:
                data = pickle.dumps(outcome)
            except Exception:  # noqa: BLE001 - an error that does not pickle: said in words
                data = pickle.dumps(("raised", RuntimeError(f"{outcome[1]!r}")))
            with os.fdopen(write_end, "wb") as pipe:
                pipe.write(data)
        except BaseException:  # noqa: BLE001 - nothing to tell: the caller does the work itself
            status = 1
        finally:
            os._exit(status)  # no exit handlers, no flushing of the caller's buffers

    def has_news(self) -> bool:
        """Whether the work aside has sent its result (or ended), without waiting."""
        return self._aside is not None and bool(select.select([self._aside[1]], [], [], 0)[0])

    def run_here(self) -> None:
        """Do the work in this process, unless it was done already (then nothing); when it
        runs aside, wait for it and take its result instead.

        Raises:
            Exception: Whatever the work raised, here or aside (the look-alike check's
                refusal: a :class:`~printdeck.errors.PrintdeckError`).
        """
        if self._aside is not None:
            self._take()
        elif not self.done:
            self.done = True
            self._work()

    def _take(self) -> None:
        """Wait for the work aside; give its warnings, raise its error, or (the process
        ended without a word) do the work here."""
        assert self._aside is not None
        pid, read_end = self._aside
        self._aside = None
        with os.fdopen(read_end, "rb") as pipe:
            data = pipe.read()
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, 0)
        try:
            kind, value = pickle.loads(data)
        except Exception:  # noqa: BLE001 - killed, or out of memory: the work is done here
            self.run_here()
            return
        if kind == "raised":
            self.done = True
            raise value
        self.finished(value)

    def abandon(self) -> None:
        """Stop the work aside if it still runs (the build stopped for another reason):
        asked to end (:data:`signal.SIGTERM`: its cache entries half written go, see
        :mod:`printdeck.signals`), made to after :data:`ABANDON_GRACE_S` (a process that
        inherited SIGTERM ignored)."""
        if self._aside is None:
            return
        pid, read_end = self._aside
        self._aside = None
        os.close(read_end)
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGTERM)
        deadline = time.monotonic() + ABANDON_GRACE_S
        with contextlib.suppress(ChildProcessError):
            while os.waitpid(pid, os.WNOHANG) == (0, 0):
                if time.monotonic() > deadline:
                    os.kill(pid, signal.SIGKILL)
                    os.waitpid(pid, 0)
                    return
                time.sleep(0.005)

    def in_worker(self) -> Warned:
        """Do the work (in another process); return what it warned (text, category)."""
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")  # this process's filters apply when warned again there
            self._work()
        return [(str(w.message), w.category, dict(vars(w.message))) for w in caught]

    def finished(self, warned: Warned | None) -> None:
        """The work ran in another process (``warned``: what it warned; None: it raised)."""
        self.done = True
        for text, category, attributes in warned or []:
            warnings.warn(_remade(text, category, attributes), stacklevel=2)


def _remade(text: str, category: type[Warning], attributes: dict[str, object]) -> Warning:
    """The warning another process gave, made again here: its text, category and attributes
    (made as ``warnings.warn(text, category)`` makes it, then its attributes set)."""
    warning = category(text)
    vars(warning).update(attributes)
    return warning


def no_other_thread() -> bool:
    """Whether this process runs no thread but this one: the rule every fork of printdeck's
    keeps (the layout's check aside, a cold deck's and a photo deck's workers), since a lock
    another thread holds (PDFium's, an import's) would stay held in the child for ever."""
    return threading.active_count() == 1


def _fork_safe() -> bool:
    """Whether this process may fork now: the platform has ``fork`` and :func:`no_other_thread`."""
    return hasattr(os, "fork") and no_other_thread()
