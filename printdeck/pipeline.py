"""The whole build: theme -> design -> layout -> render (+ manifest), as one library call."""

from __future__ import annotations

import contextlib
import dataclasses
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Protocol

import numpy as np

from printdeck.design import Design, make_design, verify_blocks
from printdeck.errors import PrintdeckError
from printdeck.layout import LayoutSettings, layout_deck
from printdeck.manifest import build_manifest, write_manifest
from printdeck.model import BuildResult, CardLayout, SymbolSpec
from printdeck.render.imposition import impose, paper_size_mm
from printdeck.render.pdf import RenderOptions, render_pdf
from printdeck.render.png import render_pngs
from printdeck.theme import Theme, load_theme


class Reporter(Protocol):
    """Receives progress from the build (the CLI draws bars; tests pass nothing)."""

    def stage(self, name: str, total: int | None) -> contextlib.AbstractContextManager[Callable[[int], None]]:
        """Enter a stage of ``total`` steps; the yielded function advances it by n."""


class _Silent:
    @contextlib.contextmanager
    def stage(self, name: str, total: int | None) -> Iterator[Callable[[int], None]]:
        yield lambda n: None


@dataclasses.dataclass(frozen=True)
class BuildOptions:
    """Command-line overrides of the theme (``None`` keeps the theme's value).

    Attributes:
        seed: Seed for symbol choice, assignment and layout.
        paper: ``"a4"``, ``"letter"``, ``"a3"`` or (width_mm, height_mm).
        backs: Turn on back pages (the theme's backs, or the default back).
        single: One card a page (page = trim + bleed), for print shops.
        legend: Add the symbol legend page(s).
        rules: Add the rules sheet.
        png_dir: Also write one PNG a card into this folder.
        dpi: Resolution of those PNGs.
        png_margin_mm: Extra radial margin around each PNG card.
    """

    seed: int | None = None
    paper: str | tuple[float, float] | None = None
    backs: bool | None = None
    single: bool | None = None
    legend: bool | None = None
    rules: bool | None = None
    png_dir: Path | None = None
    dpi: int = 300
    png_margin_mm: float = 0.0


def apply_options(theme: Theme, options: BuildOptions) -> Theme:
    """Return ``theme`` with the command-line overrides written into its spec."""
    spec = theme.spec
    paper = spec.paper.model_copy(update={k: v for k, v in {
        "size": options.paper, "layout": None if options.single is None else ("single" if options.single else "sheet"),
    }.items() if v is not None})
    backs = spec.backs.model_copy(update={} if options.backs is None else {"enabled": options.backs})
    extras = spec.extras.model_copy(update={k: v for k, v in {
        "legend": options.legend, "rules": options.rules}.items() if v is not None})
    update = {"paper": paper, "backs": backs, "extras": extras}
    if options.seed is not None:
        update["seed"] = options.seed
    return dataclasses.replace(theme, spec=spec.model_copy(update=update))


def deck_design(theme: Theme) -> Design:
    """Build the (trimmed) design the theme's ``deck`` section asks for, verified.

    The deck is checked from its incidence matrix (every two cards share exactly λ
    symbols, no card repeats a symbol) before anything is laid out.

    Raises:
        PrintdeckError: no design of that size (see ``printdeck.design.make_design``).
    """
    deck = theme.spec.deck
    if deck.order is None and deck.symbols_per_card is None:
        raise PrintdeckError(f"theme {theme.name}: deck: give symbols_per_card (e.g. 8) or order (e.g. 7)")
    design = make_design(order=deck.order, symbols_per_card=deck.symbols_per_card, match=deck.match,
                         cards=deck.cards, search=deck.search, drop_unused=deck.drop_unused)
    report = verify_blocks(design.blocks, design.lam)
    if not report.ok:  # a construction bug, never a user error: refuse to print a wrong deck
        raise RuntimeError(f"design {design.construction} failed verification: {report.summary()}")
    return design


def assign_symbols(theme: Theme, n_points: int, seed: int) -> list[SymbolSpec]:
    """Choose the deck's symbols and assign them to the design's points.

    ``deck.choose: first`` takes the theme's first ``n_points`` symbols, ``seeded`` a seeded
    random choice; either way a seeded shuffle then maps point ``p`` to a symbol, and the
    returned list is indexed by point (``result[p].id == p``).

    Raises:
        PrintdeckError: the theme has fewer symbols than the design has points.
    """
    pool = list(theme.symbols)
    if len(pool) < n_points:
        raise PrintdeckError(f"theme {theme.name}: symbols: the deck needs {n_points} symbols but the theme "
                             f"gives {len(pool)}; add {n_points - len(pool)} more or choose a smaller deck")
    rng = np.random.default_rng([seed, 0x5EED])
    if theme.spec.deck.choose == "seeded":
        picked = sorted(rng.choice(len(pool), size=n_points, replace=False).tolist())
        pool = [pool[i] for i in picked]
    else:
        pool = pool[:n_points]
    order = rng.permutation(n_points)
    return [dataclasses.replace(pool[int(j)], id=p) for p, j in enumerate(order)]


def default_output(theme: Theme) -> Path:
    """``output/<theme name>.pdf`` in the current folder (created if missing)."""
    folder = Path("output")
    folder.mkdir(exist_ok=True)
    return folder / f"{theme.name}.pdf"


def build(theme_ref: str | Path | None = None, out_path: Path | None = None,
          options: BuildOptions = BuildOptions(), reporter: Reporter | None = None) -> BuildResult:
    """Build a deck: load the theme, make the design, lay out every card, write PDF + manifest.

    Args:
        theme_ref: Bundled theme name, theme file or folder; ``None`` for the default theme.
        out_path: PDF to write; default ``output/<theme name>.pdf``. The manifest goes
            beside it as ``<out>.json``.
        options: Command-line overrides.
        reporter: Progress receiver (stage names: theme, design, layout, render, manifest).

    Returns:
        What was written, with page and card counts and per-stage wall times (s).

    Raises:
        PrintdeckError: any problem the user can fix; nothing is written or overwritten then.
    """
    rep = reporter or _Silent()
    times: dict[str, float] = {}
    with _timed(times, "theme"), rep.stage("theme", None):
        theme = apply_options(load_theme(theme_ref), options)
    seed = theme.spec.seed
    with _timed(times, "design"), rep.stage("design", None):
        design = deck_design(theme)
        symbols = assign_symbols(theme, design.n_points, seed)
    cards = [[symbols[p] for p in block] for block in design.blocks]
    with _timed(times, "layout"), rep.stage("layout", len(cards)) as advance:
        layouts = layout_deck(cards, LayoutSettings.from_theme(theme), seed, progress=advance)
    out = Path(out_path) if out_path is not None else default_output(theme)
    if out.suffix.lower() != ".pdf":
        raise PrintdeckError(f"{out}: the output must be a .pdf file name")
    return _write(theme, design, symbols, layouts, out, options, rep, times)


def _write(theme: Theme, design: Design, symbols: Sequence[SymbolSpec], layouts: Sequence[CardLayout],
           out: Path, options: BuildOptions, rep: Reporter, times: dict[str, float]) -> BuildResult:
    spec = theme.spec
    single = spec.paper.layout == "single"
    imposition = impose(paper_size_mm(spec.paper.size), spec.card.diameter_mm, spec.card.bleed_mm,
                        spec.paper.margin_mm, spec.paper.gap_mm, len(layouts), single=single)
    render_options = RenderOptions(backs=spec.backs.enabled, legend=spec.extras.legend,
                                   rules=spec.extras.rules, single=single)
    manifest = build_manifest(theme, spec.seed, design, symbols, layouts, imposition.slots)
    with _timed(times, "render"), rep.stage("render", len(layouts)) as advance:
        pages = render_pdf(theme, symbols, layouts, imposition, out, render_options, progress=advance)
    manifest_path = out.with_suffix(".json")
    write_manifest(manifest, manifest_path)
    pngs: list[Path] = []
    if options.png_dir is not None:
        with _timed(times, "png"), rep.stage("png", None):
            pngs = render_pngs(theme, symbols, layouts, options.png_dir, dpi=options.dpi,
                               extra_margin_mm=options.png_margin_mm)
    return BuildResult(pdf_path=out, manifest_path=manifest_path, pages=pages, cards=len(layouts),
                       symbols_per_card=len(design.blocks[0]), size_bytes=out.stat().st_size,
                       png_paths=pngs, timings_s=times)


@contextlib.contextmanager
def _timed(times: dict[str, float], name: str) -> Iterator[None]:
    start = time.perf_counter()
    try:
        yield
    finally:
        times[name] = time.perf_counter() - start
