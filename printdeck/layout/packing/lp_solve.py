"""Linear programs solved by HiGHS (Huangfu and Hall 2018, "Parallelizing the dual revised
simplex method", Mathematical Programming Computation 10), through its own Python
binding, highspy, quietly.
"""

from __future__ import annotations

import os
import sys
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from printdeck.forksafe import ForkSafeLock

if TYPE_CHECKING:
    import highspy

_LOCAL = threading.local()  # .solver: one quiet HiGHS instance per thread (see _solver)
_NO_INDEX, _NO_VALUE = np.zeros(0, np.int32), np.zeros(0)  # no entries (addRows' empty rows)
_MAKING = ForkSafeLock()  # one instance made at a time: each points descriptor 1 away and back


@dataclass(frozen=True)
class SparseRows:
    """A constraint matrix by rows, only its nonzeros (compressed sparse rows).

    Attributes:
        start: ``(m,) int`` where each row's entries start in ``index`` and ``value``.
        index: ``(nnz,) int`` each entry's column, ascending within a row.
        value: ``(nnz,)`` each entry's value (no zeros).
        shape: ``(m, n)``: rows and columns.
    """

    start: np.ndarray
    index: np.ndarray
    value: np.ndarray
    shape: tuple[int, int]

    @classmethod
    def from_dense(cls, a: np.ndarray) -> SparseRows:
        """The nonzeros of the dense ``(m, n)`` matrix ``a``, row by row."""
        rows, cols = np.nonzero(a)
        start = np.searchsorted(rows, np.arange(a.shape[0]))
        return cls(start, cols, a[rows, cols], (int(a.shape[0]), int(a.shape[1])))

    def stacked(self, below: SparseRows) -> SparseRows:
        """This matrix with ``below``'s rows after its own (the same columns)."""
        return SparseRows(
            np.concatenate([self.start, below.start + len(self.index)]),
            np.concatenate([self.index, below.index]),
            np.concatenate([self.value, below.value]),
            (self.shape[0] + below.shape[0], self.shape[1]),
        )


def load_solver() -> None:
    """Import HiGHS now (a 0.1 s import): the deck runner calls this before it forks
    workers, so they inherit it; a build whose cards all come from the cache never does."""
    import highspy  # noqa: F401, PLC0415 - HiGHS only when a card is packed


def _solver() -> highspy.Highs:
    """This thread's HiGHS instance: silent, one thread, no presolve (the programs are small).

    One a thread: an instance is not safe on two threads at once (two threads of a
    program laying out decks together crashed in it), and a forked worker keeps the
    instance of the thread that forked it. HiGHS prints a banner on standard output as a
    ``highspy.Highs`` is made, before any option can turn logging off (HiGHS issues 1702
    and 2749), so it is made with file descriptor 1 pointed at ``os.devnull``. One thread
    of its own keeps it safe in forked workers."""
    solver: highspy.Highs | None = getattr(_LOCAL, "solver", None)
    if solver is None:
        with _MAKING:
            solver = _quiet_instance()
        for option, value in (("output_flag", False), ("threads", 1), ("presolve", "off")):
            solver.setOptionValue(option, value)
        _LOCAL.solver = solver
    return solver


def _quiet_instance() -> highspy.Highs:
    """A new ``highspy.Highs``, its banner sent to ``os.devnull`` (see :func:`_solver`)."""
    import highspy  # noqa: PLC0415 - see load_solver

    try:
        saved, null = os.dup(1), os.open(os.devnull, os.O_WRONLY)
    except OSError:  # no standard output to protect
        saved = null = -1
    try:
        if saved >= 0:
            sys.stdout.flush()
            os.dup2(null, 1)
        return highspy.Highs()
    finally:
        if saved >= 0:
            os.dup2(saved, 1)
            os.close(saved)
            os.close(null)


def _dual_columns(sparse: SparseRows, b_ub: np.ndarray, bounds: np.ndarray, inf: float) -> tuple:
    """``Highs.addCols``' arguments for the dual of :func:`solve`: a column for each row of
    ``sparse`` (``(m, n)``, its multiplier ``<= 0``, cost ``-b_ub``), then one ``>= 0`` for
    each finite lower bound (cost ``-l``, entry ``+1``) and upper bound (cost ``u``, entry
    ``-1``) of ``bounds`` ``(n, 2)``, its entries column by column; ``inf``: HiGHS's infinity."""
    m = sparse.shape[0]
    lower, upper = bounds[:, 0], bounds[:, 1]
    has_lower, has_upper = np.isfinite(lower).nonzero()[0], np.isfinite(upper).nonzero()[0]
    nnz, k, extra = len(sparse.index), len(has_lower), len(has_lower) + len(has_upper)
    value = np.empty(nnz + extra)  # a_ub's rows are the dual's columns
    value[:nnz], value[nnz : nnz + k], value[nnz + k :] = sparse.value, 1.0, -1.0
    col_lower, col_upper = np.zeros(m + extra), np.full(m + extra, inf)
    col_lower[:m], col_upper[:m] = -inf, 0.0
    start = np.empty(m + extra, dtype=np.int32)
    start[:m], start[m:] = sparse.start, np.arange(nnz, nnz + extra)
    index = np.concatenate([sparse.index, has_lower, has_upper], dtype=np.int32)
    cost = np.concatenate([-b_ub, -lower[has_lower], upper[has_upper]])
    return m + extra, cost, col_lower, col_upper, len(value), start, index, value


def solve(cost: np.ndarray, a_ub: np.ndarray | SparseRows, b_ub: np.ndarray, bounds: np.ndarray) -> np.ndarray | None:
    """Minimise ``cost @ x`` subject to ``a_ub @ x <= b_ub`` and the bounds, with HiGHS.

    HiGHS is given the program's dual (the programs here have many more rows than
    variables, so the dual's basis is small: about a third less time), and ``x`` is read
    from the dual's row duals. With ``y <= 0`` the multipliers of the rows and ``r, s >= 0``
    those of the finite lower and upper bounds ``l, u``, the dual is: minimise
    ``-b_ub @ y - l @ r + u @ s`` subject to ``a_ub.T @ y + r - s = cost``. The model is
    made afresh each time by adding its rows and columns (a fifth of the time a
    ``HighsLp`` takes to fill); starting from the last program's basis (matched by
    contact) was tried and took longer (bench/RESULTS.md).

    Args:
        cost: ``(n,)`` objective.
        a_ub: ``(m, n)`` constraint matrix, dense or already :class:`SparseRows` (HiGHS
            is given its nonzeros only).
        b_ub: ``(m,)`` right-hand sides.
        bounds: ``(n, 2)`` lower and upper bound of each variable (``±inf`` allowed).

    Returns:
        The optimal ``(n,) x``, or None if the program is infeasible or unbounded.
    """
    import highspy  # noqa: PLC0415 - see load_solver

    sparse = a_ub if isinstance(a_ub, SparseRows) else SparseRows.from_dense(a_ub)
    solver = _solver()
    solver.clearModel()  # the model is made by adding rows and columns: far less work than passModel's HighsLp
    solver.addRows(sparse.shape[1], cost, cost, 0, _NO_INDEX, _NO_INDEX, _NO_VALUE)
    solver.addCols(*_dual_columns(sparse, b_ub, bounds, highspy.kHighsInf))
    solver.run()
    if solver.getModelStatus() != highspy.HighsModelStatus.kOptimal:
        return None
    return -np.array(solver.getSolution().row_dual)
