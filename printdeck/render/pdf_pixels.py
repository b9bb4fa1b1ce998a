"""PDF pages drawn to pixels by PDFium (through pypdfium2): the one way printdeck calls it.

PDFium is not thread-safe: no two of its calls may run at once in a process, not even
on different documents, or the process crashes or is corrupted (pypdfium2's Python API
notes, "Incompatibility with Threading"). printdeck draws with it from several threads
(the proofs of a cold deck, a studio's previews beside a script's or a server's calls),
so every call goes through this module, under one process-wide lock, and what comes back
owns its pixels: no PDFium object outlives the call (nor is freed later by the garbage
collector on some other thread).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from printdeck.forksafe import ForkSafeLock

if TYPE_CHECKING:
    from PIL import Image

PDFIUM_LOCK = ForkSafeLock()
"""Held for every PDFium call printdeck makes (see the module's notes); free in a forked child."""


def page_image(
    pdf: bytes | Path, page_index: int, scale: float, crop_pt: tuple[float, float, float, float] = (0, 0, 0, 0)
) -> Image.Image:
    """Page ``page_index`` (0-based) of ``pdf`` (its bytes or its file) drawn by PDFium at
    ``scale`` pixels a point (``ppi / 72``), ``crop_pt`` (left, bottom, right, top, pt)
    cut from its edges first: an RGB or RGBA picture of its own.

    Raises:
        pypdfium2.PdfiumError: The PDF cannot be read.
        IndexError: No such page.
    """
    import pypdfium2  # noqa: PLC0415 - PDFium only when a page is drawn

    with PDFIUM_LOCK:
        document = pypdfium2.PdfDocument(pdf if isinstance(pdf, bytes) else str(pdf))
        try:
            page = document[page_index]
            bitmap = page.render(scale=scale, crop=crop_pt)
            try:
                image = bitmap.to_pil()  # a copy, unless no conversion was needed (Pillow then maps the buffer)
                return image.copy() if image.mode == bitmap.mode else image
            finally:
                bitmap.close()
                page.close()
        finally:
            document.close()


def page_count(pdf: bytes) -> int:
    """The pages of a PDF (its bytes), counted by PDFium.

    Raises:
        pypdfium2.PdfiumError: The PDF cannot be read.
    """
    import pypdfium2  # noqa: PLC0415 - PDFium only when asked

    with PDFIUM_LOCK:
        document = pypdfium2.PdfDocument(pdf)
        try:
            return len(document)
        finally:
            document.close()
