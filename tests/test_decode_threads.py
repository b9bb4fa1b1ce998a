"""Decoding a picture changes no process-wide warning state: the studio decodes in
request threads while a build in another thread records its warnings, and
``warnings.catch_warnings`` (Python 3.11) swaps module-wide filters and the function that
shows warnings, so two threads using it can leave one's record in place for good."""

from __future__ import annotations

import struct
import threading
import warnings
import zlib
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from test_theme_support import png_bytes

from printdeck.artwork import decode
from printdeck.errors import PrintdeckError


def _png_header(width: int, height: int) -> bytes:
    """A valid PNG header claiming ``width`` x ``height`` pixels (the pixels never stored)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"\0" * 100)) + chunk(b"IEND", b"")
    )


@pytest.mark.filterwarnings("ignore:after the build")
def test_a_decode_in_another_thread_leaves_a_finished_record_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    """A build records warnings; a request thread starts decoding; the build ends; the
    decode ends. A warning given afterwards must not go to the ended build's record."""
    inside, go = threading.Event(), threading.Event()
    real_open = Image.open

    def open_when_told(*args: Any, **kwargs: Any) -> Image.Image:
        inside.set()
        assert go.wait(10)
        return real_open(*args, **kwargs)

    monkeypatch.setattr(Image, "open", open_when_told)
    decoded: list[Image.Image] = []
    request = threading.Thread(
        target=lambda: decoded.append(decode.open_raster(png_bytes((1, 2, 3), (40, 30)), Path("a.png"), "symbols.0"))
    )
    with warnings.catch_warnings(record=True) as build_record:  # the build's record
        warnings.simplefilter("always")
        request.start()
        assert inside.wait(10)
    go.set()
    request.join(10)
    assert decoded and decoded[0].size == (40, 30)
    warnings.warn("after the build", UserWarning, stacklevel=1)  # this test's filters ignore it
    assert build_record == []  # had the decode restored the build's filters and record, it would be here


@pytest.mark.filterwarnings("ignore::PIL.Image.DecompressionBombWarning")  # Pillow's own, given in Image.open
def test_a_size_pillow_only_warns_about_is_refused_by_its_size() -> None:
    """100 megapixels: over Pillow's warning limit, under its error limit. Refused as too
    big (one line naming the key and the fix), not decoded."""
    with pytest.raises(PrintdeckError) as info:
        decode.open_raster(_png_header(10000, 10000), Path("big.png"), "symbols.3.file")
    message = str(info.value)
    assert "symbols.3.file" in message
    assert "10000x10000 pixels, more than 60 megapixels; scale it down" in message
    assert "\n" not in message
