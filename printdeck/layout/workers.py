"""Packing a deck's cards, serially or in worker processes, with identical results.

Every card is a task of its own (its size slots are planned just before, from
earlier cards' results at least a fixed number of cards back, and it has its own
random stream), so cards can be packed several at a time, on any process, with
the same result as one by one. Cards go to the packer in batches (up to
:data:`BATCH_MOST` in this process; with workers, a share of the cards the planner can
have in flight for each), whose compactions run in lockstep
(:func:`~printdeck.layout.card.lay_out_cards`): the same layouts, fewer array calls.
Workers are started with the ``fork`` method where the platform has it
(they inherit the silhouettes already traced in the parent; elsewhere the
silhouette table is pickled once per worker), receive lists of small :class:`CardTask`
records and send back :class:`~printdeck.model.CardLayout` records (or each card's
error). The parent reports progress as cards finish and returns the layouts in card
order; of several cards that fail, the lowest-numbered one's error is raised.

A caller's work that does not decide the layout (the build's look-alike check) can be
done beside it (:class:`~printdeck.layout.meanwhile.Meanwhile`): in a process of its own
started before the layout, polled for between batches of cards, or else handed to the
first worker process as it starts, so it runs while the other workers pack.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

import numpy as np

from printdeck.artwork import Silhouette
from printdeck.errors import PrintdeckError
from printdeck.layout import stored_cards
from printdeck.layout.meanwhile import Meanwhile, Warned
from printdeck.layout.settings import LayoutSettings
from printdeck.model import CardLayout, SymbolSpec

if TYPE_CHECKING:  # processes and the packer load when a card must be packed
    import multiprocessing.context
    from concurrent.futures import Future, ProcessPoolExecutor

MAX_JOBS = 4  # never more worker processes than this
PARALLEL_MIN_CARDS = 8  # decks of at most this many cards are packed serially (start-up costs more)
BATCH_MOST = 9  # cards packed together at most (their compactions in lockstep: see _work_many)

_WORKER: dict[str, object] = {}  # per worker process: silhouette table, settings, seed, meanwhile
SIDE = -1  # the key of a Meanwhile's work among the running futures (before every card's)
ASIDE_POLL_S = 0.02  # how often the layout looks for the result of a Meanwhile's work aside


@dataclass(frozen=True)
class CardTask:
    """One card to pack.

    Attributes:
        index: Card index (0-based).
        symbols: The card's symbols, in order.
        sil_refs: ``(k,)`` keys of their silhouettes in the shared table.
        targets: ``(k,) float`` relative target sizes (see ``printdeck.layout.size_plan.DeckPlanner``).
        cache_key: Key of the card in the layout cache (None = do not cache).
        retry_below: Replaces ``settings.retry_below`` for this card (None = keep).
    """

    index: int
    symbols: tuple[SymbolSpec, ...]
    sil_refs: tuple[int, ...]
    targets: np.ndarray
    cache_key: str | None = None
    retry_below: float | None = None


def job_count(jobs: int | None, cards: int) -> int:
    """Worker processes to use for ``cards`` cards (1 = serial in this process); also
    for a cold deck's drawings (see ``printdeck.prepare``).

    ``jobs`` wins if given; else ``PRINTDECK_JOBS`` if set; else the CPU count,
    at most :data:`MAX_JOBS`. Decks of at most :data:`PARALLEL_MIN_CARDS` cards
    (or drawings) are always done serially.

    Raises:
        PrintdeckError: ``PRINTDECK_JOBS`` is not a whole number.
    """
    if jobs is None:
        env = os.environ.get("PRINTDECK_JOBS", "").strip()
        if env:
            try:
                jobs = int(env)
            except ValueError as exc:
                raise PrintdeckError(  # the environment's fault, not the theme's: said of the variable
                    f"PRINTDECK_JOBS={env!r}: expected a whole number of processes, e.g. 2", source="PRINTDECK_JOBS"
                ) from exc
        else:
            jobs = min(os.cpu_count() or 1, MAX_JOBS)
    if cards <= PARALLEL_MIN_CARDS:
        return 1
    return max(1, min(jobs, cards))


class Planner(Protocol):
    """Plans cards in order (see ``printdeck.layout.size_plan.DeckPlanner``)."""

    in_flight: int
    """How many cards in a row can be planned before the first of them is done."""

    def ready(self, i: int, done: Mapping[int, CardLayout]) -> bool:
        """Whether card i can be planned, given the finished cards ``done``."""

    def task(self, i: int, done: Mapping[int, CardLayout]) -> CardTask:
        """Card i's task (called in card order, once :meth:`ready`)."""


def run_cards(
    new_planner: Callable[[], Planner],
    n_cards: int,
    table: Mapping[int, Silhouette],
    settings: LayoutSettings,
    seed: int,
    progress: Callable[[int], None] | None,
    jobs: int | None,
    meanwhile: Meanwhile | None = None,
) -> list[CardLayout]:
    """Plan and pack cards ``0 .. n_cards - 1``; return the layouts in card order.

    Args:
        new_planner: Makes a fresh planner (a second one is made if worker processes
            cannot be started and the cards are packed here instead).
        n_cards: Number of cards.
        table: Silhouettes by the keys the tasks use.
        settings: Layout settings.
        seed: Deck seed.
        progress: Called with 1 in this process as each card finishes.
        jobs: See :func:`job_count`.
        meanwhile: Work done once beside the packing (see :class:`Meanwhile`); it is
            done (or has raised) when this returns or raises.

    Raises:
        PrintdeckError: A card cannot be laid out (the lowest-numbered failure is raised,
            as in the serial order), or ``meanwhile`` raised (its error wins).
    """
    n_jobs = job_count(jobs, n_cards)
    if n_jobs > 1:
        try:
            return _run_parallel(new_planner(), n_cards, table, settings, seed, progress, n_jobs, meanwhile)
        except OSError:  # no processes allowed here: start again in this process
            pass
    if meanwhile is not None:
        meanwhile.run_here()
    planner = new_planner()
    done: dict[int, CardLayout] = {}
    nxt = 0
    while nxt < n_cards:
        tasks: list[CardTask] = []
        while nxt < n_cards and len(tasks) < BATCH_MOST and (not tasks or planner.ready(nxt, done)):
            tasks.append(planner.task(nxt, done))
            nxt += 1
        for task, result in zip(tasks, _work_tasks(tasks, table, settings, seed)):  # not _WORKER: threads lay out too
            if isinstance(result, BaseException):
                raise result
            done[task.index] = result
            if progress is not None:
                progress(1)
    return [done[i] for i in range(n_cards)]


def _context() -> multiprocessing.context.BaseContext:
    """``fork`` where there is one (workers share the parent's imports and silhouettes at no
    cost; ``forkserver`` or ``spawn`` would re-run a script without a ``__main__`` guard)."""
    import multiprocessing  # noqa: PLC0415 - only when cards are packed

    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else None)


def _run_parallel(
    planner: Planner,
    n_cards: int,
    table: Mapping[int, Silhouette],
    settings: LayoutSettings,
    seed: int,
    progress: Callable[[int], None] | None,
    n_jobs: int,
    meanwhile: Meanwhile | None,
) -> list[CardLayout]:
    """Cards found in the layout cache are read here; the worker processes start with
    the first card that must be packed (a deck read whole from the cache forks none, nor
    loads multiprocessing), the first of them given ``meanwhile``'s work before any card."""
    done: dict[int, CardLayout] = {}
    errors: dict[int, BaseException] = {}
    running: dict[Future[object], tuple[int, ...]] = {}
    batch = max(1, min(BATCH_MOST, planner.in_flight // n_jobs))  # a batch for every worker, all in flight
    nxt = 0
    with contextlib.ExitStack() as stack:
        pool: ProcessPoolExecutor | None = None
        while nxt < n_cards or running:
            tasks: list[CardTask] = []
            while nxt < n_cards and not errors and planner.ready(nxt, done):
                task = planner.task(nxt, done)
                stored = _stored(task)
                if stored is not None:
                    done[nxt] = stored
                    if progress is not None:
                        progress(1)
                else:
                    tasks.append(task)
                nxt += 1
                if len(tasks) == batch or (tasks and not (nxt < n_cards and planner.ready(nxt, done))):
                    if pool is None:
                        if meanwhile is not None and _context().get_start_method() != "fork":
                            meanwhile.run_here()  # only a forked worker inherits it
                        pool = stack.enter_context(_pool(n_jobs, table, settings, seed, meanwhile))
                        if meanwhile is not None and not meanwhile.done and not meanwhile.aside:
                            running[pool.submit(_meanwhile_work)] = (SIDE,)
                    running[pool.submit(_work_many, tasks)] = tuple(t.index for t in tasks)
                    tasks = []
            if not running:
                break
            _collect(running, done, errors, progress, meanwhile)
            if errors and pool is not None:  # started cards finish (a lower one may fail too); no new ones
                _stop(pool, running, errors, meanwhile)
                raise errors[min(errors)]
    if meanwhile is not None:
        meanwhile.run_here()  # no worker started: every card came from the cache
    return [done[i] for i in range(n_cards)]


def _pool(
    n_jobs: int, table: Mapping[int, Silhouette], settings: LayoutSettings, seed: int, meanwhile: Meanwhile | None
) -> ProcessPoolExecutor:
    """The worker processes, forked with the packer and HiGHS already imported (each would
    import them)."""
    from concurrent.futures import ProcessPoolExecutor  # noqa: PLC0415 - only when cards are packed

    from printdeck.layout.card import lay_out_cards  # noqa: F401, PLC0415 - imported before the fork
    from printdeck.layout.packing import derive_all, load_solver  # noqa: PLC0415 - only when cards are packed

    load_solver()
    derive_all(table.values())  # the packer's arrays of each symbol, made once here: every worker inherits them
    return ProcessPoolExecutor(
        max_workers=n_jobs,
        mp_context=_context(),
        initializer=_init_worker,
        initargs=(dict(table), settings, seed, meanwhile),
    )


def _collect(
    running: dict[Future[object], tuple[int, ...]],
    done: dict[int, CardLayout],
    errors: dict[int, BaseException],
    progress: Callable[[int], None] | None,
    meanwhile: Meanwhile | None,
) -> None:
    """Wait for at least one running batch of cards (or the meanwhile's work); move the
    finished cards to ``done`` or ``errors`` (the meanwhile's error under :data:`SIDE`)."""
    from concurrent.futures import FIRST_COMPLETED, wait  # noqa: PLC0415 - only when cards are packed

    polling = meanwhile is not None and meanwhile.aside
    finished, _ = wait(running, timeout=ASIDE_POLL_S if polling else None, return_when=FIRST_COMPLETED)
    for fut in sorted(finished, key=running.__getitem__):
        _finished(fut, running.pop(fut), done, errors, progress, meanwhile)
    if meanwhile is not None and meanwhile.has_news():
        try:
            meanwhile.run_here()  # the work aside is done: its warnings now, its error stops the packing
        except Exception as exc:  # noqa: BLE001 - raised by the caller, winning over the cards' (SIDE)
            errors[SIDE] = exc


def _finished(
    fut: Future[object],
    cards: tuple[int, ...],
    done: dict[int, CardLayout],
    errors: dict[int, BaseException],
    progress: Callable[[int], None] | None,
    meanwhile: Meanwhile | None,
) -> None:
    """Take in a finished future: the meanwhile's work (``cards == (SIDE,)``) or a batch
    of cards (:func:`_work_many`); a batch that raised as a whole fails its first card."""
    error = fut.exception()
    if cards == (SIDE,):
        if meanwhile is not None:
            meanwhile.finished(None if error is not None else fut.result())  # type: ignore[arg-type]
        if error is not None:
            errors[SIDE] = error
        return
    if error is not None:
        errors[cards[0]] = error
        return
    for k, result in zip(cards, fut.result()):  # type: ignore[call-overload]
        if isinstance(result, BaseException):
            errors[k] = result
        else:
            done[k] = result
            if progress is not None:
                progress(1)


def _stop(
    pool: ProcessPoolExecutor,
    running: dict[Future[object], tuple[int, ...]],
    errors: dict[int, BaseException],
    meanwhile: Meanwhile | None,
) -> None:
    """After an error: let the started cards (and the meanwhile's work) finish, start no
    other; add their errors. The meanwhile's work not started is done here: its error
    wins over the cards'."""
    pool.shutdown(wait=True, cancel_futures=True)
    for fut, cards in running.items():
        if not fut.cancelled():
            _finished(fut, cards, {}, errors, None, meanwhile)
    if meanwhile is not None:
        meanwhile.run_here()  # cancelled before it began (nothing if it ran): an error it raises wins


def _init_worker(
    table: dict[int, Silhouette], settings: LayoutSettings, seed: int, meanwhile: Meanwhile | None
) -> None:
    _WORKER.update(table=table, settings=settings, seed=seed, meanwhile=meanwhile)


def _meanwhile_work() -> Warned:
    """The meanwhile's work, in a worker process (see :meth:`Meanwhile.in_worker`)."""
    meanwhile = _WORKER["meanwhile"]
    assert isinstance(meanwhile, Meanwhile)
    return meanwhile.in_worker()


def _stored(task: CardTask) -> CardLayout | None:
    """The card from the layout cache, or None (not cached, or caching off for it)."""
    if task.cache_key is None:
        return None
    return stored_cards.load(task.cache_key, task.index, [s.id for s in task.symbols])


def _work_many(tasks: list[CardTask]) -> list[CardLayout | PrintdeckError]:
    """:func:`_work_tasks` in a worker process, with what :func:`_init_worker` gave it; the
    parent looked the cards up in the layout cache before it sent them."""
    table: Mapping[int, Silhouette] = _WORKER["table"]  # type: ignore[assignment]
    settings: LayoutSettings = _WORKER["settings"]  # type: ignore[assignment]
    return _work_tasks(tasks, table, settings, int(_WORKER["seed"]), looked_up=True)  # type: ignore[call-overload]


def _work_tasks(
    tasks: list[CardTask], table: Mapping[int, Silhouette], settings: LayoutSettings, seed: int, looked_up: bool = False
) -> list[CardLayout | PrintdeckError]:
    """Lay out cards (:func:`~printdeck.layout.card.lay_out_cards`: packed together, each
    as it is alone) or read them from the layout cache (:mod:`printdeck.layout.stored_cards`);
    per card its layout or its error, in the order of ``tasks``.

    Args:
        tasks: The cards.
        table: Silhouettes by the keys ``tasks`` use (``CardTask.sil_refs``).
        settings: Layout settings.
        seed: The deck's seed.
        looked_up: The caller found none of ``tasks`` in the layout cache (it is not read
            again: a miss costs a file lookup a card); their layouts are still stored.
    """
    out: dict[int, CardLayout | PrintdeckError] = {}
    for k, task in enumerate(tasks):
        stored = None if looked_up else _stored(task)
        if stored is not None:
            out[k] = stored
    todo = [k for k in range(len(tasks)) if k not in out]
    if todo:
        from printdeck.layout.card import CardJob, lay_out_cards  # noqa: PLC0415 - the packer only when a card is packed

        jobs = []
        for k in todo:
            task = tasks[k]
            own = settings if task.retry_below is None else dataclasses.replace(settings, retry_below=task.retry_below)
            jobs.append(CardJob(task.index, task.symbols, tuple(table[r] for r in task.sil_refs), task.targets, own))
        for k, result in zip(todo, lay_out_cards(jobs, seed)):
            out[k] = result
            key = tasks[k].cache_key
            if isinstance(result, CardLayout) and key is not None:
                stored_cards.save(key, result)
    return [out[k] for k in range(len(tasks))]  # every card has its layout or its error
