"""A large input file's digest is kept in the disk cache (a photo is not hashed again on
every build), and any change to the file gives its new digest."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest

from printdeck import cache


@pytest.fixture
def fresh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("PRINTDECK_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("PRINTDECK_NO_CACHE", raising=False)
    cache._file_digest.cache_clear()  # as in a new process
    return tmp_path


def test_large_file_digest_is_kept_and_follows_changes(fresh: Path) -> None:
    photo = fresh / "photo.jpg"
    data = os.urandom(cache.DIGEST_MEMO_BYTES + 10)
    photo.write_bytes(data)
    assert cache.file_digest(photo) == hashlib.sha256(data).hexdigest()
    stored = list((fresh / "cache" / "digests").glob("*.txt"))
    assert len(stored) == 1 and stored[0].read_text() == hashlib.sha256(data).hexdigest()
    stored[0].write_text("0" * 64)  # what a new process finds is what it uses: not hashed again
    cache._file_digest.cache_clear()
    assert cache.file_digest(photo) == "0" * 64
    changed = bytes([data[0] ^ 1]) + data[1:]  # same size; its times restored as they were
    info = photo.stat()
    photo.write_bytes(changed)
    os.utime(photo, ns=(info.st_atime_ns, info.st_mtime_ns))
    cache._file_digest.cache_clear()
    assert cache.file_digest(photo) == hashlib.sha256(changed).hexdigest()  # the change time moved


def test_small_files_and_no_cache_keep_nothing(fresh: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    small = fresh / "icon.svg"
    small.write_text("<svg/>")
    assert cache.file_digest(small) == hashlib.sha256(b"<svg/>").hexdigest()
    big = fresh / "big.jpg"
    big.write_bytes(b"x" * cache.DIGEST_MEMO_BYTES)
    monkeypatch.setenv("PRINTDECK_NO_CACHE", "1")
    assert cache.file_digest(big) == hashlib.sha256(big.read_bytes()).hexdigest()
    assert not (fresh / "cache" / "digests").exists() or not list((fresh / "cache" / "digests").iterdir())
