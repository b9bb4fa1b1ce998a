"""Cache entries of numbers and arrays, kept as raw bytes: read back bit for bit, unparsed.

A silhouette's entry holds its traced shapes (WKB), its field's two grids and its edge
cells (:mod:`printdeck.artwork.edge_cells`); written as
base64 inside JSON they took longer to decode than the rest of a cached deck's planning
(bench/RESULTS.md, ninth session). Here an entry is :data:`MAGIC`, the length of a small
JSON header (4 bytes, little-endian), the header (its numbers, and each array's name,
dtype and shape) and then the arrays' bytes, one after another.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping

import numpy as np

MAGIC = b"printdeck entry 1\n"
HEADER_BYTES_MOST = 1 << 16
"""A header longer than this is no header of ours."""


class EntryError(ValueError):
    """Bytes that are not an entry :func:`pack_entry` wrote (or not of the arrays expected)."""


def pack_entry(numbers: Mapping[str, object], arrays: Mapping[str, np.ndarray]) -> bytes:
    """The entry of ``numbers`` (JSON-ready values) and ``arrays`` (kept with their dtype
    and shape, C order)."""
    parts = {name: np.asarray(values, order="C") for name, values in arrays.items()}  # a 0-d array stays 0-d
    header = json.dumps(
        {"numbers": dict(numbers), "arrays": [[name, a.dtype.str, list(a.shape)] for name, a in parts.items()]},
        allow_nan=False,
    ).encode()
    return b"".join([MAGIC, len(header).to_bytes(4, "little"), header, *(a.tobytes() for a in parts.values())])


def unpack_entry(
    data: bytes, expected: Mapping[str, tuple[str, int]], copy: bool = True
) -> tuple[dict[str, object], dict[str, np.ndarray]]:
    """The numbers and arrays :func:`pack_entry` wrote, each array a writable copy.

    Args:
        data: The entry's bytes.
        expected: Each array's name with the dtype (``"float32"``) and number of
            dimensions it must have; the entry must hold exactly these.
        copy: False: each array a read-only view of ``data`` (nothing copied).

    Raises:
        EntryError: The bytes are not such an entry (another format, cut short, too
            long, or arrays of other names, dtypes or dimensions).
    """
    start = len(MAGIC) + 4
    if not data.startswith(MAGIC) or len(data) < start:
        raise EntryError("not an entry")
    size = int.from_bytes(data[len(MAGIC) : start], "little")
    if size > HEADER_BYTES_MOST or len(data) < start + size:
        raise EntryError("not an entry")
    try:
        header = json.loads(data[start : start + size])
    except ValueError:  # not JSON, or not UTF-8
        raise EntryError("not an entry") from None
    if not isinstance(header, dict) or not isinstance(header.get("numbers"), dict):
        raise EntryError("not an entry")
    listed = header.get("arrays")
    if not isinstance(listed, list) or not all(isinstance(item, list) and len(item) == 3 for item in listed):
        raise EntryError("not an entry")
    if [item[0] for item in listed] != list(expected):
        raise EntryError("not the arrays expected")
    arrays, at = {}, start + size
    for name, dtype, shape in listed:
        want, ndim = expected[name]
        if dtype != np.dtype(want).str or not isinstance(shape, list) or len(shape) != ndim:
            raise EntryError(f"array {name!r} is not {want} in {ndim} dimensions")
        if not all(isinstance(n, int) and 0 <= n < 1 << 31 for n in shape):
            raise EntryError(f"array {name!r} has a bad shape")
        length = np.dtype(want).itemsize * math.prod(shape)
        if at + length > len(data):
            raise EntryError("entry cut short")
        values = np.frombuffer(data, dtype=want, count=math.prod(shape), offset=at).reshape(shape)
        arrays[name] = values.copy() if copy else values
        at += length
    if at != len(data):
        raise EntryError("entry longer than its arrays")
    return header["numbers"], arrays
