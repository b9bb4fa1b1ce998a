"""Packing a deck's cards, serially or in worker processes, with identical results.

Every card is an independent task (its size slots are planned beforehand and it
has its own random stream), so the cards can be packed in any order and on any
process. Workers are started with the ``fork`` method where the platform has it
(they inherit the silhouettes already traced in the parent; elsewhere the
silhouette table is pickled once per worker), receive small :class:`CardTask`
records and send back :class:`~printdeck.model.CardLayout` records. The parent
reports progress as cards finish and returns the layouts in card order.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass

import numpy as np

from printdeck.errors import PrintdeckError
from printdeck.layout.settings import LayoutSettings
from printdeck.layout.silhouette import Silhouette
from printdeck.model import CardLayout, SymbolSpec

MAX_JOBS = 4             # never more worker processes than this
PARALLEL_MIN_CARDS = 8   # decks of at most this many cards are packed serially (start-up costs more)

_WORKER: dict[str, object] = {}  # per worker process: silhouette table, settings, seed


@dataclass(frozen=True)
class CardTask:
    """One card to pack.

    Attributes:
        index: Card index (0-based).
        symbols: The card's symbols, in order.
        sil_refs: ``(k,)`` keys of their silhouettes in the shared table.
        targets: ``(k,) float`` relative target sizes (see ``plan_targets``).
    """

    index: int
    symbols: tuple[SymbolSpec, ...]
    sil_refs: tuple[int, ...]
    targets: np.ndarray


def job_count(jobs: int | None, cards: int) -> int:
    """Worker processes to use for ``cards`` cards (1 = serial in this process).

    ``jobs`` wins if given; else ``PRINTDECK_JOBS`` if set; else the CPU count,
    at most :data:`MAX_JOBS`. Decks of at most :data:`PARALLEL_MIN_CARDS` cards
    are always packed serially.

    Raises:
        PrintdeckError: ``PRINTDECK_JOBS`` is not a whole number.
    """
    if jobs is None:
        env = os.environ.get("PRINTDECK_JOBS", "").strip()
        if env:
            try:
                jobs = int(env)
            except ValueError as exc:
                raise PrintdeckError(f"PRINTDECK_JOBS={env!r}: expected a whole number of processes, e.g. 2") from exc
        else:
            jobs = min(os.cpu_count() or 1, MAX_JOBS)
    if cards <= PARALLEL_MIN_CARDS:
        return 1
    return max(1, min(jobs, cards))


def run_tasks(tasks: Sequence[CardTask], table: Mapping[int, Silhouette], settings: LayoutSettings, seed: int,
              progress: Callable[[int], None] | None, jobs: int | None) -> list[CardLayout]:
    """Pack every task; return the layouts in task order.

    Raises:
        PrintdeckError: A card cannot be laid out (the lowest-numbered failure is raised,
            as in the serial order).
    """
    n_jobs = job_count(jobs, len(tasks))
    if n_jobs > 1:
        try:
            return _run_parallel(tasks, table, settings, seed, progress, n_jobs)
        except OSError:  # no processes allowed here: fall back to this process
            pass
    _init_worker(dict(table), settings, seed)
    out = []
    for task in tasks:
        out.append(_work(task))
        if progress is not None:
            progress(1)
    return out


def _context() -> multiprocessing.context.BaseContext:
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else None)


def _run_parallel(tasks: Sequence[CardTask], table: Mapping[int, Silhouette], settings: LayoutSettings,
                  seed: int, progress: Callable[[int], None] | None, n_jobs: int) -> list[CardLayout]:
    results: dict[int, CardLayout] = {}
    errors: dict[int, BaseException] = {}
    pool = ProcessPoolExecutor(max_workers=n_jobs, mp_context=_context(), initializer=_init_worker,
                               initargs=(dict(table), settings, seed))
    try:
        futures: dict[Future[CardLayout], int] = {pool.submit(_work, t): k for k, t in enumerate(tasks)}
        for fut in as_completed(futures):
            k = futures[fut]
            exc = fut.exception()
            if exc is not None:
                errors[k] = exc
                pool.shutdown(wait=True, cancel_futures=True)  # started cards finish; later ones never start
                break
            results[k] = fut.result()
            if progress is not None:
                progress(1)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    for fut, k in futures.items():
        if fut.done() and not fut.cancelled() and fut.exception() is not None:
            errors[k] = fut.exception()  # type: ignore[assignment]
    if errors:
        raise errors[min(errors)]
    return [results[k] for k in range(len(tasks))]


def _init_worker(table: dict[int, Silhouette], settings: LayoutSettings, seed: int) -> None:
    _WORKER.update(table=table, settings=settings, seed=seed)


def _work(task: CardTask) -> CardLayout:
    from printdeck.layout.deck import layout_one

    table: Mapping[int, Silhouette] = _WORKER["table"]  # type: ignore[assignment]
    sils = tuple(table[r] for r in task.sil_refs)
    return layout_one(task.index, task.symbols, sils, task.targets, _WORKER["settings"],  # type: ignore[arg-type]
                      int(_WORKER["seed"]))  # type: ignore[call-overload]
