"""Benchmark concept decks: a deck whose symbols have two faces against the same deck without.

Builds the bundled ``vocabulary`` theme (31 symbols, each a Twemoji picture and its Spanish
word, order 5) and the same theme with each symbol reduced to its picture, side by side in
child processes with every cache off (a first build on a new computer), and prints both
wall times and their ratio. Then prints the share of card pairs that show their shared
symbol in different faces (``deck.faces: mixed``) for two-face symbols on the full planes
of orders 5 and 7, against the bound derived in ``printdeck.assign.face_choice``.

Usage: python bench/bench_faces.py [RUNS]   (default 1)
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

from printdeck.assign import face_deck
from printdeck.design import make_design
from printdeck.model import SymbolSpec
from printdeck.theme import bundled_theme_path


def build_seconds(theme: Path, out: Path) -> float:
    """Wall seconds of one ``printdeck build`` in a child process, caches off."""
    env = {**os.environ, "PRINTDECK_NO_CACHE": "1"}
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "printdeck", "build", str(theme), "-o", str(out), "--quiet"],
        check=True,
        env=env,
        stdout=subprocess.DEVNULL,
    )
    return time.perf_counter() - start


def one_face(folder: Path, face: int, label: str) -> Path:
    """A copy of the vocabulary theme whose symbols are only their face ``face``."""
    source = bundled_theme_path("vocabulary")
    assert source is not None
    data = yaml.safe_load(source.read_text(encoding="utf-8"))
    data["symbols"] = [{"name": s["name"], **s["faces"][face]} for s in data["symbols"]]
    plain = folder / f"vocabulary-{label}.yaml"
    plain.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return plain


def fraction(order: int) -> tuple[float, float]:
    """(reached, bound) of the different-face share on the full plane of ``order``, two faces a symbol."""
    design = make_design(order=order)
    symbols = [
        SymbolSpec(
            id=p,
            name=str(p),
            kind="text",
            source=f"text:{p}",
            text=str(p),
            faces=tuple(SymbolSpec(id=0, name=w, kind="text", source=f"text:{w}", text=w) for w in (f"a{p}", f"b{p}")),
        )
        for p in range(design.n_points)
    ]
    faced = face_deck(design.blocks, symbols, "mixed", seed=1)
    return float(faced.different_fraction or 0.0), float(faced.different_bound or 0.0)


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    with tempfile.TemporaryDirectory() as tmp:
        faced = bundled_theme_path("vocabulary")
        assert faced is not None
        themes = {
            "faces (picture and word)": faced,
            "pictures only": one_face(Path(tmp), 0, "pictures"),
            "words only": one_face(Path(tmp), 1, "words"),
        }
        times: dict[str, list[float]] = {name: [] for name in themes}
        for _ in range(runs):  # side by side, alternating
            for name, theme in themes.items():
                times[name].append(build_seconds(theme, Path(tmp) / "deck.pdf"))
    medians = {name: statistics.median(t) for name, t in times.items()}
    for name, seconds in medians.items():
        print(f"vocabulary, 31 cards of 6, {name:>24}: {seconds:5.1f} s (median of {runs})")
    base = medians["faces (picture and word)"]
    print(
        f"ratio faces / pictures only: {base / medians['pictures only']:.2f}; faces / words only: "
        f"{base / medians['words only']:.2f}"
    )
    for order in (5, 7):
        reached, bound = fraction(order)
        print(f"order {order}: different-face share {reached:.4f} (bound {bound:.4f})")


if __name__ == "__main__":
    main()
