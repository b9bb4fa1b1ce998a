"""Checking dropped pictures off the request path.

An upload is written into the theme folder at once (:func:`~printdeck.studio.intake.stage_pictures`)
and answered; its pictures are then checked one by one on a single worker thread of lower
priority (:func:`~printdeck.studio.intake.check_staged`), drops in the order they came, while
the page's other requests are answered. Each drop is a :class:`CheckJob` whose progress
(the file being checked, n of N) the page reads as server-sent events, as a build's.
"""

from __future__ import annotations

import contextlib
import itertools
import queue
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from printdeck.errors import PrintdeckError
from printdeck.studio import intake, uploads
from printdeck.studio.background import working
from printdeck.studio.workspace import Workspace

KEPT_JOBS = 50
"""Finished jobs kept for their answers (the latest)."""
_ids = itertools.count(1)


@dataclass
class CheckJob:
    """One batch of dropped pictures: written, then checked.

    Attributes:
        staged: The files written, waiting for their check.
        id: Number of the job in this run.
        checked: Files checked so far.
        file: The name of the file being checked ("" between files).
        results: Each file's result once the job is done (see ``intake.add_pictures``).
        error: Why nothing of the batch was kept, if so (the folder could not be written).
        rev: The deck's revision once the job is done.
    """

    staged: intake.Staged
    id: int = field(default_factory=lambda: next(_ids))
    checked: int = 0
    file: str = ""
    results: list[dict[str, Any]] = field(default_factory=list)
    error: str | None = None
    rev: int | None = None
    started_s: float = field(default_factory=time.monotonic)
    seconds: float = 0.0
    finished: threading.Event = field(default_factory=threading.Event)

    @property
    def total(self) -> int:
        """Files in the batch."""
        return len(self.staged.names)

    @property
    def done(self) -> bool:
        """Whether the job has ended (checked and saved, or failed)."""
        return self.finished.is_set()

    def event(self) -> dict[str, Any]:
        """The job as the page reads it (JSON)."""
        return {
            "id": self.id,
            "drop": self.staged.drop,
            "done": self.done,
            "checked": self.checked,
            "total": self.total,
            "file": self.file,
            "results": self.results if self.done else [],
            "error": self.error,
            "rev": self.rev,
            "seconds": round(self.seconds, 2),
        }

    def progress(self, checked: int, file: str) -> None:
        """``intake.check_staged``'s progress callback."""
        self.checked, self.file = checked, file


class Checker:
    """The queue of dropped pictures waiting for their check, and the one thread checking
    them (started with the first drop).

    Args:
        space: The workspace.
        on_saved: Called on the checking thread after a job saved new symbols, with
            whether no other job waits (e.g. to draw the preview, compare the drawings).
    """

    def __init__(self, space: Workspace, on_saved: Any = None) -> None:
        self.space = space
        self.on_saved = on_saved
        self.jobs: dict[int, CheckJob] = {}
        self._queue: queue.Queue[CheckJob] = queue.Queue()
        self._lock = threading.Lock()
        self._staging = threading.Lock()
        self._thread: threading.Thread | None = None

    def submit(self, files: list[uploads.Upload], drop: str | None, face_of: int | None = None) -> CheckJob:
        """Write ``files`` into the folder (all or nothing) and queue their check; one file
        dropped on a symbol's tile (``face_of``, its uid) becomes a face of that symbol.

        Raises:
            Unwritable: the folder cannot be written; nothing of the batch was kept.
        """
        with self._staging:  # one drop written at a time: names and room account for the waiting ones
            staged = intake.stage_pictures(self.space, files, drop, self._pending(), face_of)
            job = CheckJob(staged)
            with self._lock:  # held briefly: the state asks what is being checked
                self.jobs[job.id] = job
                for old in sorted(self.jobs)[:-KEPT_JOBS]:
                    if self.jobs[old].done:
                        del self.jobs[old]
                self._queue.put(job)
                if self._thread is None:
                    self._thread = threading.Thread(target=self._work, name="printdeck-studio-checks", daemon=True)
                    self._thread.start()
        return job

    def _pending(self) -> intake.Staged:
        """Every job not done yet, as one drop (their files and their number)."""
        waiting = intake.Staged(None, [])
        with self._lock:
            jobs = list(self.jobs.values())
        for job in jobs:
            if not job.done:
                waiting.items += job.staged.items
        return waiting

    def active(self) -> dict[str, Any] | None:
        """What is being checked, for the page's state: the files of every waiting job
        (``total``), those checked (``checked``) and the file being checked; None when idle."""
        with self._lock:
            waiting = [job for job in self.jobs.values() if not job.done]
        if not waiting:
            return None
        now = next((job for job in waiting if job.file), waiting[0])
        return {
            "checked": sum(job.checked for job in waiting),
            "total": sum(job.total for job in waiting),
            "file": now.file,
            "jobs": [job.id for job in waiting],
        }

    def _work(self) -> None:
        while True:
            job = self._queue.get()
            with working():  # a drop's check, finished before the process ends
                self._check(job)

    def _check(self, job: CheckJob) -> None:
        """Check one drop's pictures, then say the folder was saved (``on_saved``)."""
        try:
            job.results = intake.check_staged(self.space, job.staged, job.progress)
            job.rev = self.space.rev
        except (PrintdeckError, OSError) as exc:  # Unwritable is a PrintdeckError: nothing was kept
            job.error = str(exc)
        except Exception as exc:  # noqa: BLE001 - the thread must live on for the next drop
            job.error = f"the pictures could not be checked ({type(exc).__name__}: {exc}); drop them again"
        job.seconds = time.monotonic() - job.started_s
        job.finished.set()
        if job.error is None and self.on_saved is not None:
            with contextlib.suppress(Exception):
                self.on_saved(self._queue.empty())
