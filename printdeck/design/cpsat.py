"""CP-SAT search for more cards (optional: needs ``ortools``, ``pip install "printdeck[search]"``).

Model (after the CP-SAT formulation of Dobble in the literature, restricted to adding
cards): keep a core of cards fixed; ``slots`` new cards may each be used or not.
x[c, p] = 1 when new card c holds symbol p (old symbols, or ``fresh`` new ones).
A used card holds k symbols and meets every core card in exactly one symbol (linear,
as the core is fixed); two used new cards share exactly one symbol (products
linearised with y = x[c,p] AND x[d,p]). Maximise the number of used cards.
Symmetry: used slots come first.
"""

from __future__ import annotations

import itertools
from typing import Any

Deck = list[tuple[int, ...]]


def extend_with_cp_sat(
    core: Deck, k: int, work: float, wall_cap_s: float, slots: int = 12, fresh: int = 12
) -> tuple[Deck, bool]:
    """Cards of ``core`` plus as many new cards as CP-SAT finds within a fixed work budget.

    The search is deterministic (one worker, fixed ``random_seed``, stopped by
    ``max_deterministic_time``), so the same input gives the same deck on any machine
    that finishes within the wall-clock cap.

    Args:
        core: Fixed cards, each k symbols, any two sharing one.
        k: Symbols per card.
        work: CP-SAT deterministic time budget (its own units; against wall time see
            bench/RESULTS.md); below 0.05 CP-SAT is skipped.
        wall_cap_s: Safety cap in wall-clock seconds.
        slots: Most new cards tried.
        fresh: New symbols available beyond the core's.

    Returns:
        (``core`` + new cards, whether the wall-clock cap stopped the search first).
        Just ``core`` if ortools is missing, the budget is tiny, or nothing was found.
    """
    if work < 0.05 or wall_cap_s <= 0:
        return list(core), work >= 0.05
    try:
        from ortools.sat.python import cp_model  # noqa: PLC0415 - optional, and slow to import
    except ImportError:
        return list(core), False
    pts = range(max(max(c) for c in core) + 1 + fresh)
    m, x, use = _model(cp_model, core, k, slots, pts)
    solver = cp_model.CpSolver()
    solver.parameters.max_deterministic_time = work
    solver.parameters.max_time_in_seconds = wall_cap_s
    solver.parameters.num_workers = 1
    solver.parameters.random_seed = 0
    status = solver.Solve(m)
    finished = status in (cp_model.OPTIMAL, cp_model.INFEASIBLE)
    capped = not finished and solver.response_proto.deterministic_time < 0.99 * work
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return list(core), capped
    new = [tuple(p for p in pts if solver.Value(x[c][p])) for c in range(slots) if solver.Value(use[c])]
    return _renumber(list(core) + new), capped


def _model(cp_model: Any, core: Deck, k: int, slots: int, pts: range) -> tuple[Any, list[list[Any]], list[Any]]:
    """The CP-SAT model (see module docstring); returns (model, x[slot][symbol], use[slot])."""
    m = cp_model.CpModel()
    x = [[m.NewBoolVar(f"x{c}_{p}") for p in pts] for c in range(slots)]
    use = [m.NewBoolVar(f"use{c}") for c in range(slots)]
    for c in range(slots):
        m.Add(sum(x[c]) == k).OnlyEnforceIf(use[c])
        m.Add(sum(x[c]) == 0).OnlyEnforceIf(use[c].Not())
        for card in core:
            m.Add(sum(x[c][p] for p in card) == 1).OnlyEnforceIf(use[c])
        if c:
            m.AddImplication(use[c], use[c - 1])
    for c, d in itertools.combinations(range(slots), 2):
        both = m.NewBoolVar(f"both{c}_{d}")
        m.AddBoolAnd([use[c], use[d]]).OnlyEnforceIf(both)
        m.AddBoolOr([use[c].Not(), use[d].Not()]).OnlyEnforceIf(both.Not())
        ys = []
        for p in pts:
            y = m.NewBoolVar("")
            m.AddImplication(y, x[c][p])
            m.AddImplication(y, x[d][p])
            m.AddBoolOr([x[c][p].Not(), x[d][p].Not(), y])
            ys.append(y)
        m.Add(sum(ys) == 1).OnlyEnforceIf(both)
    m.Maximize(sum(use))
    return m, x, use


def _renumber(cards: Deck) -> Deck:
    """Number the symbols used 0..m-1 in order of first use of each number."""
    used = sorted({p for c in cards for p in c})
    new = {p: i for i, p in enumerate(used)}
    return [tuple(sorted(new[p] for p in c)) for c in cards]
