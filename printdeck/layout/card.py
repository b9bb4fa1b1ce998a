"""Laying out cards: pack them (a few together, each as alone; again from other random
streams while one is sparse), check each card's smallest symbol, and measure it for the
manifest.

Card ``i`` of a deck with seed ``s`` packs from ``default_rng([s, i])``; re-rolled to
attempt ``a`` (``LayoutSettings.reroll``), from ``default_rng([s, i, 1000 + a])``. A
retry ``r`` (1, 2, ...) of a sparse card appends ``r`` to that seed sequence, so every
try of every card and attempt has a stream of its own.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import shapely

from printdeck.artwork import Silhouette, silhouette
from printdeck.errors import CARD_LAYOUT, PrintdeckError
from printdeck.layout.packing import (
    PackFailure,
    PackInput,
    PackResult,
    SafeZone,
    every_pair,
    pack_card,
    pack_cards,
    pin_conflict,
)
from printdeck.layout.pins import PinRefusal, card_poses, conflict_refusal, too_small_refusal
from printdeck.layout.settings import LayoutSettings
from printdeck.model import CardLayout, Placement, SymbolSpec
from printdeck.units import shown_under

RETRY_STEPS = 3  # a retry compacts this many times as long as the first try (low cards gain the most from it)
RETRY_MIN_GAIN = 1e-4  # ... and on while a step gains this share of the zone (not stopped by the card's budget)
REROLL_BASE = 1000  # attempt a > 0 of a card packs from default_rng([seed, index, REROLL_BASE + a])
BOX_BOUND_SLACK = 1e-9  # relative and mm: how far a box distance may be rounded above the outlines' (min_gap)


def card_seed(seed: int, index: int, attempt: int = 0) -> list[int]:
    """The seed sequence card ``index`` packs from: ``[seed, index]`` for the first
    attempt, ``[seed, index, REROLL_BASE + attempt]`` for a re-roll (see the module docstring)."""
    return [seed, index] if attempt == 0 else [seed, index, REROLL_BASE + attempt]


@dataclass(frozen=True)
class CardJob:
    """One card to lay out (see :func:`lay_out_cards`).

    Attributes:
        index: Card index (0-based), for the random stream and messages.
        symbols: The card's symbols, in card order.
        sils: Their silhouettes.
        targets: ``(k,)`` relative target sizes (before each symbol's ``scale``).
        settings: Layout settings (a card's own ``retry_below`` may differ from the deck's).
    """

    index: int
    symbols: Sequence[SymbolSpec]
    sils: Sequence[Silhouette]
    targets: np.ndarray
    settings: LayoutSettings


def lay_out_card(
    index: int,
    symbols: Sequence[SymbolSpec],
    sils: Sequence[Silhouette],
    targets: np.ndarray,
    settings: LayoutSettings,
    seed: int,
) -> CardLayout:
    """Pack card ``index`` (:func:`pack_many_with_retries`) and return its manifest record
    (:func:`measured_layout`).

    Raises:
        PrintdeckError: The card cannot be packed, or its smallest symbol is smaller
            than ``settings.min_size_mm``.
    """
    result = lay_out_cards([CardJob(index, symbols, sils, targets, settings)], seed)[0]
    if isinstance(result, PrintdeckError):
        raise result
    return result


def lay_out_cards(jobs: Sequence[CardJob], seed: int) -> list[CardLayout | PrintdeckError]:
    """:func:`lay_out_card` for several cards at once, their packings made together
    (:func:`pack_many_with_retries`): each card's layout is the one it gets alone.

    Returns:
        Per card its layout, or the error :func:`lay_out_card` raises for it.
    """
    out: dict[int, CardLayout | PrintdeckError] = {}
    todo: list[int] = []
    for k, job in enumerate(jobs):
        try:
            _check_pins(job.index, job.symbols, job.sils, job.targets, job.settings)
            todo.append(k)
        except PrintdeckError as exc:
            out[k] = exc
    for k, result in zip(todo, pack_many_with_retries([jobs[k] for k in todo], seed)):
        job = jobs[k]
        if isinstance(result, PrintdeckError):
            out[k] = result
            continue
        sizes = result.heights_mm * np.sqrt([s.area for s in job.sils])
        try:
            _check_min_size(job.index, job.symbols, sizes, job.settings)
        except PrintdeckError as exc:
            out[k] = exc
            continue
        settings = job.settings
        out[k] = measured_layout(
            job.index, job.symbols, job.sils, result, settings.safe_radius_mm, settings.zone_area_mm2()
        )
    return [out[k] for k in range(len(jobs))]  # every card has its layout or its error


def pack_many_with_retries(jobs: Sequence[CardJob], seed: int) -> list[PackResult | PrintdeckError]:
    """Pack cards (:func:`~printdeck.layout.packing.pack_cards`: together, each as alone),
    each again while it is sparse.

    Card ``job.index`` packs from the stream of :func:`card_seed` (its attempt is
    ``settings.reroll.get(index, 0)``). A card whose coverage stays under
    ``settings.retry_below`` is packed again, alone, from that seed sequence plus the
    retry number (at most ``settings.retries`` times, each with :data:`RETRY_STEPS` times
    the compaction steps) and the densest packing is kept.

    Returns:
        Per card its packing, or the error naming the card and the settings to change
        when its symbols cannot be placed even small.
    """
    problems = [pack_input(j.index, j.symbols, j.sils, j.targets, j.settings) for j in jobs]
    streams = [card_seed(seed, j.index, j.settings.reroll.get(j.index, 0)) for j in jobs]
    firsts = pack_cards(problems, [np.random.default_rng(stream) for stream in streams])
    out: list[PackResult | PrintdeckError] = []
    for job, problem, stream, first in zip(jobs, problems, streams, firsts):
        try:
            if isinstance(first, PackFailure):
                raise first
            out.append(_retried(job, problem, stream, first))
        except PackFailure as exc:
            out.append(_unpackable(job, exc))
    return out


def _retried(job: CardJob, problem: PackInput, stream: list[int], best: PackResult) -> PackResult:
    """The densest of ``best`` and the card's retries while it stays under
    ``retry_below`` (see :func:`pack_many_with_retries`).

    Raises:
        PackFailure: A retry cannot place the symbols.
    """
    settings = job.settings
    ink_share_of_disc = np.array([s.area for s in job.sils]) / settings.zone_area_mm2()

    def coverage(packed: PackResult) -> float:
        return float(np.sum(packed.heights_mm**2 * ink_share_of_disc))

    deeper = dataclasses.replace(
        problem,
        compact_steps=RETRY_STEPS * problem.compact_steps,
        compact_min_gain=min(problem.compact_min_gain, RETRY_MIN_GAIN),
    )
    for retry in range(1, settings.retries + 1):
        if coverage(best) >= settings.retry_below:
            break
        again = pack_card(deeper, np.random.default_rng([*stream, retry]))
        if coverage(again) > coverage(best):
            best = again
    return best


def _unpackable(job: CardJob, exc: PackFailure) -> PrintdeckError:
    """The error of a card whose symbols cannot be placed (``exc``: why)."""
    settings = job.settings
    names = ", ".join(s.name for s in job.symbols)
    error = PrintdeckError(
        f"card {job.index + 1}: cannot fit its {len(job.symbols)} symbols ({names}) in a "
        f"{settings.zone_shape().describe()} safe zone with layout.gap {settings.gap_mm:g}mm ({exc}); "
        "use fewer deck.symbols_per_card, a smaller layout.gap or card.safe_margin, "
        f"a larger {settings.card_size_key()}, or raise layout.attempts",
        code=CARD_LAYOUT,
    )
    error.__cause__ = exc
    return error


def pack_input(
    index: int,
    symbols: Sequence[SymbolSpec],
    sils: Sequence[Silhouette],
    targets: np.ndarray,
    settings: LayoutSettings,
) -> PackInput:
    """Card ``index``'s packing problem: its symbols, targets (times each symbol's
    ``scale``), the settings' limits and safe zone, and its pins (``settings.pins``)."""
    scale = np.array([s.scale for s in symbols], dtype=float)
    low, high = settings.ratio_bounds()
    return PackInput(
        silhouettes=tuple(sils),
        targets=targets * scale,
        rotatable=np.array([s.rotate for s in symbols], dtype=bool),
        radius_mm=settings.safe_radius_mm,
        gap_mm=settings.gap_mm,
        max_rotation_deg=settings.max_rotation_deg,
        attempts=settings.attempts,
        rounds=settings.rounds,
        compact_steps=settings.compact_steps,
        compact_min_gain=settings.compact_min_gain,
        ratio_low=low,
        ratio_high=high,
        zone=None if settings.safe_shape is None else SafeZone.of(settings.safe_shape),
        rim_cut=settings.rim_cut(),
        centre_free_mm=settings.centre_free_mm,
        pinned=card_poses(settings.pins.get(index), symbols, sils),
    )


def _check_pins(
    index: int, symbols: Sequence[SymbolSpec], sils: Sequence[Silhouette], targets: np.ndarray, settings: LayoutSettings
) -> None:
    """Refuse card ``index``'s pins the layout refuses (see :func:`pin_refusal`).

    Raises:
        PrintdeckError: Naming the pin's key (``layout.pinned.N.place.NAME...``) and the fix.
    """
    refusal = _refusal(index, symbols, sils, targets, settings)
    if refusal is not None:
        raise refusal.error


def pin_refusal(index: int, symbols: Sequence[SymbolSpec], settings: LayoutSettings) -> PinRefusal | None:
    """Why card ``index``'s pins (``settings.pins``) cannot be laid out, or None: a pin
    out of the safe zone, within the gap of another pin or of the free centre (the
    checks every pose of the packer passes), or too small to print.

    Args:
        index: Card index (0-based).
        symbols: The card's symbols, in card order (their silhouettes are traced or cached).
        settings: The deck's layout settings.
    """
    sils = [silhouette(s) for s in symbols]
    return _refusal(index, symbols, sils, np.ones(len(symbols)), settings)


def _refusal(
    index: int, symbols: Sequence[SymbolSpec], sils: Sequence[Silhouette], targets: np.ndarray, settings: LayoutSettings
) -> PinRefusal | None:
    entry = settings.pins.get(index)
    if entry is None:
        return None
    problem = pack_input(index, symbols, sils, targets, settings)
    for k, pose in enumerate(problem.pinned):
        ink_mm = 0.0 if pose is None else pose[3] * math.sqrt(sils[k].area)
        if pose is not None and ink_mm < settings.min_size_mm:
            return too_small_refusal(entry, symbols[k], ink_mm, settings.min_size_mm)
    conflict = pin_conflict(problem)
    if conflict is None:
        return None
    return conflict_refusal(entry, symbols, conflict, settings.zone_shape().describe())


def measured_layout(
    index: int,
    symbols: Sequence[SymbolSpec],
    sils: Sequence[Silhouette],
    result: PackResult,
    radius_mm: float,
    zone_area_mm2: float | None = None,
) -> CardLayout:
    """Turn a packed card into the manifest record with its measured figures.

    ``coverage`` = total silhouette (ink) area over the safe disc's area (the
    silhouettes never overlap, so this is the union's share; ``zone_area_mm2`` the safe
    zone's area when it is not the disc of ``radius_mm``); ``min_gap_mm`` =
    smallest distance between two placed collision outlines (a lower bound of the
    ink-to-ink distance); ``size_ratio`` = smallest over largest ``sqrt(area)``.
    """
    ink_side = np.sqrt([s.area for s in sils])
    sizes = result.heights_mm * ink_side
    disc = math.pi * radius_mm**2 if zone_area_mm2 is None else zone_area_mm2
    placements = tuple(
        Placement(
            symbol_id=sym.id,
            center_mm=(float(c[0]), float(c[1])),
            rotation_deg=float(a % 360.0),
            box_mm=(float(h * sil.aspect), float(h)),
        )
        for sym, sil, c, a, h in zip(symbols, sils, result.centers_mm, result.angles_deg, result.heights_mm)
    )
    return CardLayout(
        index=index,
        placements=placements,
        coverage=float(np.sum(sizes**2) / disc),
        min_gap_mm=min_gap(result.outlines),
        size_ratio=float(sizes.min() / sizes.max()),
    )


def min_gap(outlines: Sequence[shapely.Geometry]) -> float:
    """Smallest distance between any two of the placed outlines (mm); inf if fewer than two.

    Exact, yet only the pairs that can be the nearest are measured: two outlines are no
    nearer than their bounding boxes, so once the pair whose boxes are nearest is
    measured, a pair whose boxes are farther apart than that cannot be nearer (a 12-symbol
    card measures about a third of its 66 pairs)."""
    n = len(outlines)
    if n < 2:
        return math.inf
    i, j = every_pair(n)
    arr = np.asarray(outlines, dtype=object)
    box = shapely.bounds(arr)
    dx = np.maximum(np.maximum(box[i, 0] - box[j, 2], box[j, 0] - box[i, 2]), 0.0)
    dy = np.maximum(np.maximum(box[i, 1] - box[j, 3], box[j, 1] - box[i, 3]), 0.0)
    boxes_apart = np.hypot(dx, dy)
    first = int(np.argmin(boxes_apart))
    nearest = float(shapely.distance(arr[i[first]], arr[j[first]]))
    may_be_nearer = boxes_apart <= nearest * (1.0 + BOX_BOUND_SLACK) + BOX_BOUND_SLACK  # rounding kept on the safe side
    may_be_nearer[first] = False  # measured already
    if may_be_nearer.any():
        nearest = min(nearest, float(shapely.distance(arr[i[may_be_nearer]], arr[j[may_be_nearer]]).min()))
    return nearest


def _check_min_size(index: int, symbols: Sequence[SymbolSpec], sizes: np.ndarray, settings: LayoutSettings) -> None:
    """Refuse a card whose smallest symbol (``sizes``: ink sizes, mm) is under ``settings.min_size_mm``.

    Raises:
        PrintdeckError: Naming the card, the symbol and the settings to change.
    """
    k = int(np.argmin(sizes))
    if sizes[k] < settings.min_size_mm:
        names = ", ".join(s.name for s in symbols)
        raise PrintdeckError(
            f"card {index + 1}: symbol {symbols[k].name!r} would be only "
            f"{shown_under(float(sizes[k]), settings.min_size_mm)} mm "
            f"(square root of its ink area; minimum {settings.min_size_mm:g} mm) among {len(symbols)} "
            f"symbols ({names}); use fewer deck.symbols_per_card, a smaller layout.gap, a larger "
            f"{settings.card_size_key()}, or a larger layout.size_ratio",
            code=CARD_LAYOUT,
        )
