"""A build's per-symbol cold work on every core, with the same results as one by one.

Before its deck is proven and laid out, a build makes sure every drawing it uses
(SVGs and words) is in the disk cache: its file's structure checked
(:func:`printdeck.theme.check_used_files`), its proof (:mod:`printdeck.render.proof`; a
bundled picture's ships, and only its vector form is recorded),
its silhouette with its field and inscribed disc (:func:`printdeck.artwork.silhouette`)
and its look-alike pixels (:func:`printdeck.artwork.look_pixels`; not when every pair's
verdict ships with the bundled pictures, as for the default theme). The drawings no
earlier run has traced or proven are shared between this process and worker processes
(one fewer than the jobs), forked so they inherit the loaded theme and the libraries
this process loads first; each calls those same functions, which keep their results in
the disk cache (and, here, in memory). The build then goes on as it always does and
finds each result there: what it checks, proves, traces and packs, and the cache
entries, are byte for byte what working one by one gives. A drawing whose work fails
is left undone: the build meets the failure itself, in its own order, and says it in
the same one line (its file named).

Nothing is shared out, and the build does the work itself as before, when the disk
cache is off, the platform cannot fork, the process runs other threads (the studio),
``PRINTDECK_JOBS`` is 1, or at most a few drawings need the work
(:func:`printdeck.layout.job_count`: worker start-up would cost more). Photos are left to
the build's threads (decoding and finding faces release the GIL already).
"""

from __future__ import annotations

import importlib
import warnings
from collections.abc import Sequence
from typing import TYPE_CHECKING

from printdeck.cache import cache_dir
from printdeck.errors import PrintdeckError
from printdeck.layout import no_other_thread
from printdeck.model import SymbolSpec
from printdeck.theme import Theme, check_used_files, verdicts_shipped

if TYPE_CHECKING:
    from concurrent.futures import Executor, Future

SHARED_KINDS = frozenset({"svg", "text"})
"""Kinds of drawing whose cold work is shared among worker processes."""
LIBRARIES = ("resvg_py", "cv2")
"""Loaded here before the workers fork, so no worker loads them again: what drawing,
tracing and look-alike pixels need."""
PROOF_LIBRARIES = ("pypdfium2", "svglib.svglib", "reportlab.graphics.shapes")
"""Loaded here too when some drawing is proved or its vector form recorded; not when
every proof and form is at hand (:func:`printdeck.render.proof_ready`: a deck of bundled
pictures, whose proofs and forms ship): 0.07 s of a cold default deck's start."""
CACHE_FOLDERS = ("svgchecks", "proofs", "vectorforms", "silhouettes", "looks")
"""The disk cache's folders the workers fill; all must be usable for the work to be shared."""

_WORK: dict[str, object] = {}  # in a worker: the theme, the drawings, the card's background


def prepare_symbols(theme: Theme, symbols: Sequence[SymbolSpec], jobs: int | None = None) -> int:
    """Check, prove and trace (into the disk cache) the drawings of ``symbols`` no earlier
    run has, here and on worker processes; return how many were done so (0: none, the build
    does its work itself as before). A deck whose drawings are all cached loads nothing.

    Args:
        theme: The loaded theme (its background, its files not yet checked).
        symbols: The deck's symbols (every face of each counts).
        jobs: Processes to work on, this one included (see :func:`printdeck.layout.job_count`;
            ``PRINTDECK_JOBS``).

    Raises:
        PrintdeckError: ``PRINTDECK_JOBS`` is not a whole number. Nothing else: a drawing
            that fails is left for the build, which raises its error in its own order.
    """
    if not no_other_thread() or any(cache_dir(k) is None for k in CACHE_FOLDERS):
        return 0  # other threads: a lock one holds (PDFium's) would stay held in a fork forever
    background = theme.spec.card.background
    cold = _cold_drawings(symbols, background)
    if not cold:
        return 0
    import multiprocessing  # noqa: PLC0415 - processes only for a cold deck
    from concurrent.futures import ProcessPoolExecutor  # noqa: PLC0415

    from printdeck.layout import job_count  # noqa: PLC0415

    n_jobs = job_count(jobs, len(cold))
    if n_jobs <= 1 or "fork" not in multiprocessing.get_all_start_methods():
        return 0
    for name in LIBRARIES + (() if _proofs_ready(cold, background) else PROOF_LIBRARIES):
        importlib.import_module(name)
    looks = _looks_needed(theme, symbols)
    pool = ProcessPoolExecutor(
        n_jobs - 1, multiprocessing.get_context("fork"), initializer=_start, initargs=(theme, cold, background, looks)
    )
    try:
        return _share(pool, n_jobs - 1, theme, cold, (background, looks))
    except Exception:  # noqa: BLE001 - no processes here, one died or failed: the build does the rest
        return 0
    finally:  # also on Ctrl-C: drawings not started are dropped, the running ones end
        pool.shutdown(wait=True, cancel_futures=True)


def _share(pool: Executor, workers: int, theme: Theme, cold: list[SymbolSpec], work: tuple[str, bool]) -> int:
    """The drawings done by the workers (from the front of ``cold``, two each queued ahead)
    and by this process (from the back, its proofs and checks kept in memory as well),
    ``work`` being the card's background and whether look-alike pixels are drawn; how
    many succeeded.

    Raises:
        BrokenProcessPool: A worker died (or whatever else failed in one).
    """
    from concurrent.futures import FIRST_COMPLETED, wait  # noqa: PLC0415

    front, back, done = 0, len(cold), 0
    running: set[Future[bool]] = set()  # futures of their own: never cancelled by a result iterator
    while front < back or running:  # (which makes Python 3.11 print a traceback on SIGTERM)
        while front < back and len(running) < 2 * workers:
            running.add(pool.submit(_prepare, front))
            front += 1
        if front < back:
            back -= 1
            with warnings.catch_warnings():  # given by the build when it reads the results
                warnings.simplefilter("ignore")
                done += _work_on(theme, cold[back], *work)
            finished = {future for future in running if future.done()}
        else:
            finished, _ = wait(running, return_when=FIRST_COMPLETED)
        running -= finished
        done += sum(future.result() for future in finished)
    return done


def _cold_drawings(symbols: Sequence[SymbolSpec], background: str) -> list[SymbolSpec]:
    """The faces of ``symbols`` whose silhouette or proof is not in the disk cache, one a
    drawing (the first face showing it), in deck order; a face whose file or font cannot
    be read is left out (the build says so). Reads files, draws nothing."""
    from printdeck.artwork import silhouette_key, silhouette_stored  # noqa: PLC0415 - as the build, lazily
    from printdeck.render import proof_stored  # noqa: PLC0415 - ReportLab only when building

    cold: dict[str, SymbolSpec] = {}
    for face in (face for symbol in symbols for face in symbol.all_faces):
        if face.kind not in SHARED_KINDS:
            continue
        try:
            key = silhouette_key(face)
            if key not in cold and not (silhouette_stored(face) and proof_stored(face, background)):
                cold[key] = face
        except PrintdeckError:
            continue
    return list(cold.values())


def _proofs_ready(cold: Sequence[SymbolSpec], background: str) -> bool:
    """Whether every one of ``cold`` is proved and its vector form recorded without
    drawing (:func:`printdeck.render.proof_ready`); False when one cannot be read."""
    from printdeck.render import proof_ready  # noqa: PLC0415 - as the build, lazily

    try:
        return all(proof_ready(face, background) for face in cold)
    except PrintdeckError:
        return False


def _looks_needed(theme: Theme, symbols: Sequence[SymbolSpec]) -> bool:
    """Whether the look-alike check may draw ``symbols``: not when every pair's verdict
    ships with the bundled pictures (:func:`printdeck.theme.verdicts_shipped`). A face
    whose file cannot be read counts as needing its look (the build meets the failure)."""
    try:
        return not verdicts_shipped(theme, symbols)
    except PrintdeckError:
        return True


def _start(theme: Theme, faces: list[SymbolSpec], background: str, looks: bool) -> None:
    """A worker's start: what it works on (inherited), warnings kept quiet (the build
    gives them when it reads the results)."""
    _WORK.update(theme=theme, faces=faces, background=background, looks=looks)
    warnings.simplefilter("ignore")


def _prepare(index: int) -> bool:
    """In a worker: :func:`_work_on` face ``index``."""
    faces: list[SymbolSpec] = _WORK["faces"]  # type: ignore[assignment]
    return _work_on(_WORK["theme"], faces[index], str(_WORK["background"]), bool(_WORK["looks"]))  # type: ignore[arg-type]


def _work_on(theme: Theme, face: SymbolSpec, background: str, looks: bool) -> bool:
    """Check, prove and trace ``face`` (and, with ``looks``, draw its look-alike pixels),
    each result kept in the disk cache; False if any step fails (the build will meet the
    failure)."""
    from printdeck.artwork import look_pixels, silhouette  # noqa: PLC0415 - loaded before the fork
    from printdeck.render import prove_symbols  # noqa: PLC0415

    try:
        check_used_files(theme, [face])
        prove_symbols([face], background)
        silhouette(face)
        if looks and face.kind != "text":  # a word's pixels depend on its colour: drawn when compared
            look_pixels(face)
    except Exception:  # noqa: BLE001 - any failure is the build's to meet and report
        return False
    return True
