"""``printdeck verify`` on any file: bounded time and memory, one line for what it cannot read."""

from __future__ import annotations

import itertools
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from test_hostile_support import Case, assert_refused, env, run_cases, special_file

import printdeck.design.gram as gram
import printdeck.design.lambda_screen as lambda_screen
from printdeck.design import make_design
from printdeck.design.deck_lines import MAX_CARDS
from printdeck.design.verify import verify_blocks

UNREADABLE: dict[str, tuple[str, ...]] = {
    "fifo": ("pipe",),
    "device": ("device",),
    "folder": ("folder",),
    "sparse terabyte": ("larger than",),
    "binary": ("not UTF-8",),
    "deep json": ("cannot read the JSON",),
    "nan json": ("card 1:",),  # counted from 1, as verify's report counts them
    "too many cards": (f"more than {MAX_CARDS:,} cards",),
    "empty": ("no cards",),
    "one huge csv card": ("line 2 is longer",),
    "one huge json card": ("card 2:", "symbols on one card"),
}


def _deck_file(path: Path, kind: str) -> None:
    if not special_file(path, kind):
        path.write_bytes(
            {
                "binary": bytes(range(128, 256)) * 4,
                "deep json": b"[" * 100_000 + b"]" * 100_000,
                "nan json": b'{"cards": [[0, NaN], [1, 2]]}',
                "empty": b"",
                "too many cards": b"0,1\n" * (MAX_CARDS + 1),
                "one huge csv card": b"0,1\n" + b"7," * 200_000 + b"\n",
                "one huge json card": b'{"cards": [[0, 1], [' + b"2, " * 20_000 + b"3]]}",
            }[kind]
        )


@pytest.fixture(scope="module")
def unreadable(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Case]:
    """``printdeck verify`` of every kind of ``UNREADABLE`` file, run all at once."""
    jobs = {}
    for i, kind in enumerate(UNREADABLE):
        folder = tmp_path_factory.mktemp(f"verify{i}")
        _deck_file(folder / "deck.csv", kind)
        jobs[kind] = (folder, ("verify", "deck.csv"))
    return run_cases(jobs)


@pytest.mark.parametrize("kind", list(UNREADABLE))
def test_unreadable_decks_are_one_line_without_blocking(unreadable: dict[str, Case], kind: str) -> None:
    case = unreadable[kind]
    assert_refused(case.result, "deck.csv", *UNREADABLE[kind])
    assert case.after == case.before


PEAK_MEMORY = (
    "import atexit, contextlib, resource, runpy, sys\n"
    # Linux keeps the peak RSS across fork and exec: a child of a big pytest process
    # would report the parent's peak; writing 5 to clear_refs resets the mark
    "with contextlib.suppress(OSError):\n"
    "    open('/proc/self/clear_refs', 'w').write('5')\n"
    "def peak_kb():\n"
    "    with contextlib.suppress(OSError):\n"
    "        for line in open('/proc/self/status'):\n"
    "            if line.startswith('VmHWM:'):\n"
    "                return int(line.split()[1])\n"
    "    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
    "atexit.register(lambda: sys.stderr.write(f'peak_kb={peak_kb()}\\n'))\n"
    "sys.argv = ['printdeck', *sys.argv[1:]]\n"
    "runpy.run_module('printdeck', run_name='__main__')\n"
)


def test_a_30000_card_deck_is_verified_in_bounded_memory(tmp_path: Path) -> None:
    rng = np.random.default_rng(1)
    cards = np.array([rng.choice(30_000, 3, replace=False) for _ in range(30_000)])
    (tmp_path / "big.csv").write_text("".join(",".join(map(str, c)) + "\n" for c in cards.tolist()))
    assert (tmp_path / "big.csv").stat().st_size > 400_000
    done = subprocess.run(
        [sys.executable, "-c", PEAK_MEMORY, "verify", "big.csv", "--format", "json"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        env=env(tmp_path),
        check=False,
    )
    assert done.returncode == 1 and '"ok": false' in done.stdout, done.stderr
    peak_mb = int(done.stderr.rsplit("peak_kb=", 1)[1].split()[0]) / 1024
    assert peak_mb < 600, peak_mb


def _reference(blocks: list[list[int]], lam: int) -> int:
    return sum(len(set(a) & set(b)) != lam for a, b in itertools.combinations(blocks, 2))


@pytest.mark.parametrize("seed", range(6))
def test_blockwise_verification_matches_the_pairwise_count(monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    rng = np.random.default_rng(seed)
    monkeypatch.setattr(gram, "_WORK_SLOTS", int(rng.integers(1, 40)))
    monkeypatch.setattr(gram, "_CHUNK_SLOTS", int(rng.integers(1, 300)))
    monkeypatch.setattr(lambda_screen, "_BLOCK_WORDS", 1)
    monkeypatch.setattr(lambda_screen, "_CHUNK_CARDS", int(rng.integers(1, 20)))
    plane = [list(b) for b in make_design(order=[2, 3, 4, 5, 7, 8][seed]).blocks]
    broken = [*plane[:-1], plane[0][:]]
    random = [sorted(set(rng.integers(0, 40, int(rng.integers(1, 6))).tolist())) for _ in range(150)]
    for blocks in (plane, broken, random):
        for lam in (1, 2):
            report = verify_blocks(blocks, lam)
            assert report.bad_pair_count == _reference(blocks, lam)
    assert verify_blocks(plane, 1).ok and not verify_blocks(broken, 1).ok
