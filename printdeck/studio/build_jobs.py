"""Builds started from the page: ``printdeck.build`` of the saved theme folder, on a
thread, its progress read by the page as server-sent events.

The build reads the folder exactly as ``printdeck build FOLDER`` does, so both give the
same PDF; it writes ``FOLDER/output/<name>.pdf`` (and its manifest, and the card PNGs
in ``FOLDER/output/cards`` when asked), each replaced only when the build succeeds.
"""

from __future__ import annotations

import contextlib
import io
import itertools
import threading
import time
import warnings
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import printdeck
from printdeck.errors import PrintdeckError, shown
from printdeck.studio.background import working
from printdeck.studio.wording import home_shortened, problem_of, sheet_warnings
from printdeck.studio.workspace import LIBRARY_LOCK, Workspace

OUTPUT_FOLDER = "output"
PNG_FOLDER = "cards"
STAGE_WEIGHTS = {
    "theme": 0.04,
    "design": 0.02,
    "proof": 0.06,
    "layout": 0.58,
    "render": 0.22,
    "png": 0.08,
    "slides": 0.3,
}
"""Share of a build's time each stage takes, roughly (for one progress bar)."""
_ids = itertools.count(1)


@dataclass
class BuildJob:
    """One build: its progress while it runs, then its result or its error.

    Attributes:
        id: Number of the build in this run.
        pngs: Whether card PNGs are made too.
        slides: The classroom slides (``printdeck.write_slides``, with the answer key)
            instead of the deck.
        stage: The stage running (``theme``, ``design``, ``proof``, ``layout``, ``render``, ``png``).
        stage_done, stage_total: Steps done in it, of how many (``None``: unknown).
        finished: Stages done.
        lines: The command line's summary lines, once built.
        warnings: The build's warnings, one line each (``wording.sheet_warnings``).
        error: The command line's error line, if the build failed.
        error_words: The page's words for it (``plain_words``).
        pdf, png_paths: What was written: the PDF and the card images, with ``png_paths``
            everything the image folder got (the cards, the backs, ``CREDITS.txt``: what a
            print-on-demand upload needs, as the command line writes it).
        print_hint: How to print the PDF's card backs (``BuildResult.print_hint``: the
            edge to flip on), shown beside its download; None without backs.
        rev: The revision of the deck the build read (the page shows a PDF of an older
            one as made before the latest changes).
    """

    pngs: bool
    slides: bool = False
    id: int = field(default_factory=lambda: next(_ids))
    stage: str = "theme"
    stage_done: int = 0
    stage_total: int | None = None
    finished: list[str] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    error: str | None = None
    error_words: str | None = None
    error_key: str | None = None
    done: bool = False
    pdf: Path | None = None
    png_paths: list[Path] = field(default_factory=list)
    print_hint: str | None = None
    rev: int | None = None
    started_s: float = field(default_factory=time.monotonic)
    seconds: float = 0.0

    @contextlib.contextmanager
    def stage_of(self, name: str, total: int | None) -> Iterator[Callable[[int], None]]:
        """The build's reporter protocol (``printdeck.Reporter``)."""
        self.stage, self.stage_done, self.stage_total = name, 0, total

        def advance(n: int) -> None:
            self.stage_done += n

        try:
            yield advance
        finally:
            self.finished.append(name)

    def fraction(self) -> float:
        """How far the build is, 0 .. 1."""
        if self.done:
            return 1.0
        weights = {
            k: v for k, v in STAGE_WEIGHTS.items() if (self.pngs or k != "png") and (self.slides or k != "slides")
        }
        total = sum(weights.values())
        done = sum(weights.get(name, 0.0) for name in self.finished)
        part = min(self.stage_done / self.stage_total, 1.0) if self.stage_total else 0.3
        current = 0.0 if self.stage in self.finished else weights.get(self.stage, 0.0) * part
        return min((done + current) / total, 0.99)

    @property
    def made_pdf(self) -> bool:
        """Whether the build wrote its PDF (and did not fail after)."""
        return self.pdf is not None and not self.error

    def event(self) -> dict[str, object]:
        """What the page's progress bar shows (JSON)."""
        return {
            "id": self.id,
            "stage": self.stage,
            "done": self.done,
            "fraction": round(self.fraction(), 3),
            "stage_done": self.stage_done,
            "stage_total": self.stage_total,
            "lines": self.lines,
            "warnings": self.warnings,
            "error": self.error,
            "error_words": self.error_words or self.error,
            "error_key": self.error_key,
            "seconds": round(self.seconds, 1),
            "pdf": f"/api/builds/{self.id}/deck.pdf" if self.made_pdf else None,
            "zip": f"/api/builds/{self.id}/cards.zip" if self.png_paths and not self.error else None,
            "print_hint": None if self.error else self.print_hint,
            "rev": self.rev,
            "slides": self.slides,  # the PDF is the slides, not the cards: the page says so and keeps the cards'
        }


class _Reporter:
    def __init__(self, job: BuildJob) -> None:
        self.job = job

    def stage(self, name: str, total: int | None) -> contextlib.AbstractContextManager[Callable[[int], None]]:
        return self.job.stage_of(name, total)


@dataclass
class Builds:
    """The builds of this run (one at a time)."""

    space: Workspace
    jobs: dict[int, BuildJob] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def start(self, pngs: bool, slides: bool = False) -> BuildJob:
        """Start a build of the saved folder (or its slides) on a thread (or return the one running)."""
        with self._lock:
            running = [job for job in self.jobs.values() if not job.done]
            if running:
                return running[0]
            job = BuildJob(pngs=pngs and not slides, slides=slides)
            self.jobs[job.id] = job
        threading.Thread(target=self._run, args=(job,), name=f"printdeck-build-{job.id}", daemon=True).start()
        return job

    def _run(self, job: BuildJob) -> None:
        with working():  # finished before the process ends
            self._build(job)

    def _build(self, job: BuildJob) -> None:
        folder = self.space.folder
        out_dir = folder / OUTPUT_FOLDER
        png_dir = out_dir / PNG_FOLDER if job.pngs else None
        try:
            with self.space.lock:  # the build reads the folder as it is now
                job.rev = self.space.rev
                name = printdeck.load_theme(folder, check_files=False).name
                out_dir.mkdir(exist_ok=True)
            with LIBRARY_LOCK, warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                if job.slides:
                    self._slides(job, folder, out_dir / f"{name}-slides.pdf")
                else:
                    result = printdeck.build(
                        folder, out=out_dir / f"{name}.pdf", png_dir=png_dir, reporter=_Reporter(job)
                    )
                    job.pdf, job.png_paths, job.print_hint = result.pdf_path, _written(result), result.print_hint
                    job.lines = result.summary_lines(lambda path: shown(home_shortened(path)))
            job.warnings = sheet_warnings(caught)
        except PrintdeckError as exc:
            problem = problem_of(exc, folder, self.space.doc())
            self.space.note_problem(problem)
            job.error, job.error_words, job.error_key = problem.line, problem.words, problem.key
        except OSError as exc:
            job.error = f"{folder}: cannot write the build ({exc.strerror or exc})"
        finally:
            job.seconds = time.monotonic() - job.started_s
            job.done = True

    @staticmethod
    def _slides(job: BuildJob, folder: Path, out: Path) -> None:
        """The classroom slides of the folder's deck, with the answer key (as ``printdeck
        slides FOLDER --answer-key``)."""
        for stage in ("theme", "design", "proof", "layout", "render", "png"):
            job.finished.append(stage)
        with job.stage_of("slides", None) as advance:
            result = printdeck.write_slides(folder, out, answer_key=True, progress=advance)
        job.pdf = result.pdf_path
        job.lines = [
            f"wrote {shown(home_shortened(result.pdf_path))}: {len(result.rounds)} rounds, {result.pages} pages"
        ]


def _written(result: printdeck.BuildResult) -> list[Path]:
    """Every file the build wrote beside its card images: the cards, the backs, the credits."""
    if not result.png_paths:
        return []
    return [*result.png_paths, *result.back_paths, *([result.credits_path] if result.credits_path else [])]


def cards_zip(paths: list[Path]) -> bytes:
    """The card images, their backs and the credits in one zip (stored: PNGs are compressed already)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_STORED) as archive:
        for path in paths:
            archive.write(path, arcname=path.name)
    return buffer.getvalue()
