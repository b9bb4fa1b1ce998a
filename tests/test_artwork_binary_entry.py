"""Cache entries of numbers and raw arrays: read back bit for bit, anything else refused."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from test_layout_support import AWKWARD

from printdeck.artwork import silhouette
from printdeck.artwork.binary_entry import MAGIC, EntryError, pack_entry, unpack_entry
from printdeck.artwork.tracing import ENTRY_SUFFIX, _cached
from printdeck.theme import load_theme

EXPECTED = {
    "grid": ("float32", 2),
    "points": ("complex128", 1),
    "none": ("float64", 1),
    "wkb": ("uint8", 1),
    "one": ("float64", 0),
}


def _arrays() -> dict[str, np.ndarray]:
    rng = np.random.default_rng(7)
    return {
        "grid": rng.normal(size=(5, 7)).astype(np.float32),
        "points": rng.normal(size=4) + 1j * rng.normal(size=4),
        "none": np.zeros(0),
        "wkb": np.frombuffer(b"\x01\x02\x03", dtype=np.uint8),
        "one": np.asarray(0.1 + 0.2),  # a lone number, 0-d
    }


def test_numbers_and_arrays_come_back_bit_for_bit() -> None:
    arrays = _arrays()
    numbers, back = unpack_entry(pack_entry({"step": 0.1 + 0.2, "pair": [1.5, -2.0]}, arrays), EXPECTED)
    assert numbers == {"step": 0.1 + 0.2, "pair": [1.5, -2.0]}
    for name, values in arrays.items():
        assert back[name].dtype == values.dtype and back[name].tobytes() == values.tobytes()
        assert back[name].flags.writeable
    assert back["grid"].shape == (5, 7) and back["one"].shape == ()


def test_an_entry_cut_short_or_lengthened_is_refused() -> None:
    data = pack_entry({"step": 1.0}, _arrays())
    for end in (0, len(MAGIC), len(MAGIC) + 3, len(MAGIC) + 10, len(data) // 2, len(data) - 1):
        with pytest.raises(EntryError):
            unpack_entry(data[:end], EXPECTED)
    with pytest.raises(EntryError):
        unpack_entry(data + b"\0", EXPECTED)


def _with_header(header: object, payload: bytes = b"") -> bytes:
    text = json.dumps(header).encode()
    return MAGIC + len(text).to_bytes(4, "little") + text + payload


REST = [["points", "<c16", [0]], ["none", "<f8", [0]], ["wkb", "|u1", [0]], ["one", "<f8", []]]
"""The arrays after ``grid`` in a header of :data:`EXPECTED`'s, each as it should be."""


@pytest.mark.parametrize(
    "header",
    [
        [],
        {"numbers": 1, "arrays": []},
        {"numbers": {}, "arrays": "grid"},
        {"numbers": {}, "arrays": [["grid"]]},
        {"numbers": {}, "arrays": [["grid", "<f4", [1, 1]]]},  # the others missing
        {"numbers": {}, "arrays": [REST[0], ["grid", "<f4", [0, 0]], *REST[1:]]},  # out of order
        {"numbers": {}, "arrays": [["grid", "<f8", [0, 0]], *REST]},  # another dtype
        {"numbers": {}, "arrays": [["grid", "<f4", [0]], *REST]},  # another number of dimensions
        {"numbers": {}, "arrays": [["grid", "<f4", [-1, 2]], *REST]},  # a negative side
        {"numbers": {}, "arrays": [["grid", "<f4", [9, 9]], *REST]},  # more than the bytes
    ],
)
def test_a_header_of_other_arrays_or_shapes_is_refused(header: object) -> None:
    with pytest.raises(EntryError):
        unpack_entry(_with_header(header), EXPECTED)


def test_other_bytes_are_refused() -> None:
    for data in (
        b"",
        b"{}",
        b'{"numbers": {}}',
        b"\x89PNG\r\n\x1a\n" + bytes(64),
        MAGIC + (1 << 30).to_bytes(4, "little"),
    ):
        with pytest.raises(EntryError):
            unpack_entry(data, EXPECTED)
    with pytest.raises(EntryError):
        unpack_entry(MAGIC + (3).to_bytes(4, "little") + b"{x}", EXPECTED)


def test_a_damaged_silhouette_entry_is_traced_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PRINTDECK_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("PRINTDECK_NO_CACHE", raising=False)
    symbol = load_theme(str(AWKWARD)).symbols[0]
    _cached.cache_clear()
    first = silhouette(symbol)
    (entry,) = (tmp_path / "silhouettes").glob(f"*{ENTRY_SUFFIX}")
    whole = entry.read_bytes()
    entry.write_bytes(whole[: len(whole) // 2])
    _cached.cache_clear()
    again = silhouette(symbol)
    assert again.outline.equals(first.outline) and again.area == first.area
    assert entry.read_bytes() == whole  # written again, whole


def _first_cell_of_two(start: np.ndarray) -> int:
    """A grid cell listing two edges or more (where an order can be wrong)."""
    return int(np.nonzero(np.diff(start[:-2]) >= 2)[0][0])


def _empty_cell(arrays: dict) -> None:
    arrays["edge_start"][5] = arrays["edge_start"][6]  # still in order, cell 5 now empty


def _unsorted(arrays: dict) -> None:
    at = arrays["edge_start"][_first_cell_of_two(arrays["edge_start"])]
    arrays["edge_list"][[at, at + 1]] = arrays["edge_list"][[at + 1, at]]


def _off_grid_zeros(arrays: dict) -> None:
    arrays["edge_list"][arrays["edge_start"][-2] :] = 0


def _out_of_range(arrays: dict) -> None:
    arrays["edge_list"][:] = 10**6


def _no_edge_cells(arrays: dict) -> None:
    del arrays["edge_start"], arrays["edge_list"]  # an entry written before the cells were stored


def test_a_silhouette_entry_brings_its_edge_cells(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The packer's edge cells were found again for every symbol in every build (35 ms of
    order 11's 133 symbols, before any card is packed). They are stored with the silhouette:
    read back, they are the cells the outline gives, bit for bit, for every part of the
    awkward shapes (holes, several parts)."""
    from printdeck.artwork.edge_cells import edge_cells, vertex_rings

    monkeypatch.setenv("PRINTDECK_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("PRINTDECK_NO_CACHE", raising=False)
    for symbol in load_theme(str(AWKWARD)).symbols:
        _cached.cache_clear()
        silhouette(symbol)
        _cached.cache_clear()
        again = silhouette(symbol)
        assert "edge_cells" in again.__dict__  # read, not found again
        v = again.vertices
        built = edge_cells(v[:, 0] + 1j * v[:, 1], vertex_rings(again.outline))
        cells = again.edge_cells
        assert (cells.lo, cells.size, cells.k) == (built.lo, built.size, built.k)
        assert np.array_equal(cells.start, built.start) and np.array_equal(cells.edges, built.edges)


@pytest.mark.parametrize("damage", [_empty_cell, _unsorted, _off_grid_zeros, _out_of_range, _no_edge_cells])
def test_damaged_edge_cells_are_traced_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, damage) -> None:
    """An entry whose edge cells the contact search could not trust (a cell left empty
    crashed the layout; cells out of order, or an off-grid cell that is not every edge,
    changed cards quietly; edges the outline lacks; no cells at all, as written before)
    is refused: the symbol is traced again and its entry written again, whole."""
    from printdeck.artwork.tracing import SILHOUETTE_ARRAYS, silhouette_key

    monkeypatch.setenv("PRINTDECK_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("PRINTDECK_NO_CACHE", raising=False)
    symbol = load_theme(str(AWKWARD)).symbols[0]
    _cached.cache_clear()
    first = silhouette(symbol)
    entry = tmp_path / "silhouettes" / f"{silhouette_key(symbol)}{ENTRY_SUFFIX}"
    whole = entry.read_bytes()
    numbers, arrays = unpack_entry(whole, SILHOUETTE_ARRAYS)
    damage(arrays)
    entry.write_bytes(pack_entry(numbers, arrays))
    _cached.cache_clear()
    again = silhouette(symbol)
    assert entry.read_bytes() == whole  # traced and written again, whole
    assert np.array_equal(again.edge_cells.edges, first.edge_cells.edges)
