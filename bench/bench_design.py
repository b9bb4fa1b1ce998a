"""Design-core benchmarks: prints figures (seconds / milliseconds). Run:

    /work/venv/bin/python bench/bench_design.py [--quick]

1. q = 7 in-process: make_design + verify_blocks (warm and first call).
2. Every prime power q <= 128: Singer build + exact difference-set check; field
   construction build; generic verify_blocks of every plane.
3. verify_blocks of the order-101 deck (10,303 cards) vs a pure-Python pairwise check
   on a smaller order, extrapolated by the number of pairs.
4. Order 6 (7 symbols a card): the 23-card Latin-square net, the search without CP-SAT,
   and CP-SAT growth from the net (if ortools is installed).
5. Biplanes: build + verify each.
"""

from __future__ import annotations

import itertools
import sys
import time
from collections.abc import Callable
from typing import Any

from printdeck.design import BIPLANE_SIZES, make_design
from printdeck.design.biplanes import biplane_blocks
from printdeck.design.gf import gf, is_prime_power
from printdeck.design.planes import pg2_blocks, singer_blocks, singer_difference_set
from printdeck.design.search import net_deck, search_deck
from printdeck.design.verify import verify_blocks, verify_difference_set

QUICK = "--quick" in sys.argv
QS = [q for q in range(2, 129) if is_prime_power(q)]


def timed(fn: Callable[..., Any], *args: Any, **kw: Any) -> tuple[Any, float]:
    """(result, seconds)."""
    t = time.perf_counter()
    out = fn(*args, **kw)
    return out, time.perf_counter() - t


def bench_q7() -> None:
    _, first = timed(lambda: verify_blocks(make_design(order=7).blocks, 1))
    n = 500
    t = time.perf_counter()
    for _ in range(n):
        d = make_design(order=7)
        assert verify_blocks(d.blocks, 1).ok
    warm = (time.perf_counter() - t) / n
    _, build = timed(lambda: [make_design(order=7) for _ in range(n)])
    print(
        f"q=7: make_design + verify_blocks {warm * 1e3:.3f} ms warm ({build / n * 1e3:.3f} ms build only), "
        f"first call {first * 1e3:.1f} ms"
    )


def bench_all_planes() -> None:
    gf.cache_clear(), singer_difference_set.cache_clear(), pg2_blocks.cache_clear()
    t = time.perf_counter()
    for q in QS:
        d = singer_difference_set(q)
        assert verify_difference_set(d, q * q + q + 1, 1)
        singer_blocks(q)
    singer = time.perf_counter() - t
    print(f"all {len(QS)} prime powers q<=128: Singer build + difference-set verify {singer:.2f} s")
    t = time.perf_counter()
    for q in QS:
        pg2_blocks(q)
    print(f"all q<=128: field construction PG(2,q) over GF(q) build {time.perf_counter() - t:.2f} s")
    if QUICK:
        return
    t = time.perf_counter()
    for q in QS:
        assert verify_blocks(pg2_blocks(q), 1).ok
    print(f"all q<=128: generic incidence verify_blocks of the field planes {time.perf_counter() - t:.2f} s")
    for q in (64, 101, 128):
        _, dt = timed(verify_blocks, pg2_blocks(q), 1)
        print(f"  q={q}: {dt:.2f} s")


def pure_python_pairs(blocks: list[list[int]]) -> bool:
    sets = [set(b) for b in blocks]
    return all(len(a & b) == 1 for a, b in itertools.combinations(sets, 2))


def bench_verify_101() -> None:
    blocks = singer_blocks(101)
    rep, dt = timed(verify_blocks, blocks, 1)
    assert rep.ok
    print(f"verify order 101 ({len(blocks)} cards): numpy {dt:.2f} s")
    q = 23 if QUICK else 37
    small = singer_blocks(q).tolist()
    ok, py = timed(pure_python_pairs, small)
    assert ok
    _, npy = timed(verify_blocks, singer_blocks(q), 1)
    pairs, pairs101 = len(small) * (len(small) - 1) / 2, len(blocks) * (len(blocks) - 1) / 2
    scale = pairs101 / pairs * (102 / (q + 1))
    print(
        f"  pure-Python pairwise, order {q} ({len(small)} cards): {py:.2f} s (numpy {npy * 1e3:.1f} ms); "
        f"extrapolated to order 101: ~{py * scale:.0f} s"
    )


def bench_order6() -> None:
    cards, dt = timed(net_deck, 6)
    print(
        f"order 6: Latin-square net + 4 transversals: {len(cards)} cards, "
        f"{len({p for c in cards for p in c})} symbols in {dt * 1e3:.1f} ms"
    )
    import printdeck.design.search as s

    real = s._cp_sat_extend
    s._cp_sat_extend = lambda core, k, work, cap, slots: (list(core), False)
    (_, how), dt = timed(search_deck, 7, 10.0)
    s._cp_sat_extend = real
    print(f"order 6: search without CP-SAT: {how} in {dt:.3f} s")
    try:
        import ortools  # noqa: F401
    except ImportError:
        print("order 6: CP-SAT skipped (ortools not installed)")
        return
    from printdeck.design.cpsat import extend_with_cp_sat

    limit = 5.0 if QUICK else 20.0
    (grown, capped), dt = timed(extend_with_cp_sat, cards[:18], 7, 0.05 * limit, limit, 12, 12)
    assert verify_blocks(grown, 1).ok
    print(
        f"order 6: CP-SAT from the 18 net lines (work {0.05 * limit:g}, cap {limit:.0f} s"
        f"{', cap hit' if capped else ''}): {len(grown)} cards, "
        f"{len({p for c in grown for p in c})} symbols in {dt:.1f} s"
    )


def bench_biplanes() -> None:
    biplane_blocks.cache_clear()
    parts = []
    for k in sorted(BIPLANE_SIZES):
        (blocks, _), dt = timed(biplane_blocks, k)
        rep, dv = timed(verify_blocks, blocks, 2)
        assert rep.ok
        parts.append(f"k={k}: {(dt + dv) * 1e3:.1f} ms")
    print("biplanes build + verify: " + ", ".join(parts))


if __name__ == "__main__":
    bench_q7()
    bench_all_planes()
    bench_verify_101()
    bench_order6()
    bench_biplanes()
