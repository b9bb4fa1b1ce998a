"""A photo deck's per-photo work, done once a photo on all cores before the proof.

A photo's first build finds its crop (faces, cats' faces, the subject), proves it,
traces its silhouette, rasterises it for the look-alike check and makes its master for
the PDF, and finds its features for the same-picture check: six pieces of work that
each decoded the photo. :func:`prepare_photos` runs
them for every photo not done before, one task a photo, on worker processes (``fork``;
``PRINTDECK_JOBS`` and the few-items rule as the layout's, see
:func:`printdeck.layout.job_count`), each task inside
:func:`printdeck.artwork.shared_decodes`, so a photo is decoded once a size it is
needed at. The results go to the disk cache, where the build's later stages find them,
so they are the very bytes a serial build makes; with the cache off, or a few photos,
nothing runs here and the stages do the work as before.
"""

from __future__ import annotations

import gc
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from printdeck.artwork import drawing, known_crop_report
from printdeck.cache import cache_dir
from printdeck.errors import PrintdeckError
from printdeck.layout import no_other_thread
from printdeck.model import SymbolSpec

if TYPE_CHECKING:
    from multiprocessing.context import BaseContext

__all__ = ["photos_to_prepare", "prepare_photos"]


def photos_to_prepare(symbols: Sequence[SymbolSpec]) -> list[SymbolSpec]:
    """The photo symbols (each once) whose crop no earlier build found (a cold photo):
    the ones :func:`prepare_photos` works on. A photo whose file cannot be read is left
    to the stages, which refuse it in their usual words; so is a HEIC/HEIF or AVIF photo
    without a stand-in on disk (its decoder's own threads do not survive a fork: it is
    decoded in this process; see :mod:`printdeck.artwork.stand_in`)."""
    cold = []
    for symbol in dict.fromkeys(s for s in symbols if s.kind == "photo"):
        try:
            if known_crop_report(symbol) is None and not _decoded_by_threads(symbol):
                cold.append(symbol)
        except PrintdeckError:
            continue
    return cold


def _decoded_by_threads(symbol: SymbolSpec) -> bool:
    """Whether drawing the photo decodes HEIC/HEIF or AVIF (:func:`printdeck.artwork.decoded_by_threads`)."""
    from printdeck.artwork import decoded_by_threads  # noqa: PLC0415 - Pillow only for a cold photo

    return decoded_by_threads(Path(symbol.path or ""))


def prepare_photos(symbols: Sequence[SymbolSpec], background: str, jobs: int | None = None) -> int:
    """Do the per-photo work of the cold photos among ``symbols`` on worker processes,
    into the disk cache (see the module's notes); the number of photos done.

    Nothing runs (0) when the disk cache is off (``PRINTDECK_NO_CACHE``), when the
    process runs other threads (the studio), when fewer
    photos than the layout's parallel minimum are cold, with one job
    (``PRINTDECK_JOBS=1``) or where processes cannot be started: the stages then do the
    same work in this process. A photo that fails (an unreadable file) is left to the
    stages too, which raise the usual one-line error for it.

    Args:
        symbols: The deck's symbols (faces included); only photos are worked on.
        background: The card's background colour (``#rrggbb``), as the proof is made.
        jobs: Worker processes (None: ``PRINTDECK_JOBS``, else the processors, at most 4).

    Raises:
        PrintdeckError: ``PRINTDECK_JOBS`` is not a whole number.
    """
    if not no_other_thread() or cache_dir("pictures") is None:
        return 0  # other threads (the studio): a lock one holds would stay held in a fork forever
    cold = photos_to_prepare(symbols)
    if not cold:
        return 0
    from printdeck.layout import job_count  # noqa: PLC0415 - the layout's workers load processes

    n_jobs = job_count(jobs, len(cold))
    if n_jobs <= 1:
        return 0
    from concurrent.futures import ProcessPoolExecutor  # noqa: PLC0415 - only for a cold photo deck

    from printdeck.artwork import forget_decodes, opencv  # noqa: PLC0415 - loaded once, before the fork

    forget_decodes()  # no HEIC/AVIF decoder (with threads of its own) is inherited, to be freed there
    gc.collect()
    cv2 = opencv()
    threads = cv2.getNumThreads()
    cv2.setNumThreads(1)  # one OpenCV thread a worker, set before the fork: a forked worker
    try:  # that touches the thread pool its parent's threads made (to resize it) never returns
        with ProcessPoolExecutor(n_jobs, mp_context=_fork_context()) as pool:
            done = list(pool.map(_prepare_one, cold, [background] * len(cold), chunksize=1))
    except OSError:  # no processes allowed here: the stages do the work
        return 0
    finally:
        cv2.setNumThreads(threads)
    return sum(done)


def _fork_context() -> BaseContext:
    """``fork`` where there is one (workers share the parent's imports), else the default."""
    import multiprocessing  # noqa: PLC0415 - processes only for a cold photo deck

    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else None)


def _prepare_one(symbol: SymbolSpec, background: str) -> bool:
    """One photo's work (crop, proof, silhouette, look, features, master), its decodes shared;
    False when it failed (the stages will say why)."""
    from printdeck.artwork import look_pixels, picture_features, shared_decodes, silhouette  # noqa: PLC0415
    from printdeck.render import make_photo_master, prove_symbols  # noqa: PLC0415 - ReportLab only here

    try:
        with shared_decodes():
            art = drawing(symbol)
            with warnings.catch_warnings():  # said once, by the build's own proof of the deck
                warnings.simplefilter("ignore")
                prove_symbols([symbol], background)
            silhouette(symbol)
            look_pixels(symbol)
            picture_features(art)
            make_photo_master(art)
    except PrintdeckError:
        return False
    return True
