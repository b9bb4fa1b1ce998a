"""Where printdeck keeps its disk caches, and writing a cache entry safely.

One folder holds every cache, a subfolder a kind (``layouts``, ``silhouettes``,
``drawings``...): ``$PRINTDECK_CACHE_DIR``, else ``$XDG_CACHE_HOME/printdeck``
(an absolute ``XDG_CACHE_HOME`` only, as the XDG spec says), else
``~/.cache/printdeck``. ``PRINTDECK_NO_CACHE`` turns every cache off. When no
usable folder exists (no home folder, a read-only or full file system, a file in
the way), :func:`cache_dir` returns None and warns once (``cache disabled: ...``):
the cache is only a speed-up, so the build goes on without it.

An entry's name is a key derived here (:func:`entry_key`) from everything its content
depends on, the code that computes it included (:func:`code_digest`), so a change
to either starts afresh. Entries are written whole or not at all
(:func:`write_entry`: a temporary file beside the entry, then a rename; removed on
any error, a full disk included) and read with a size cap, regular files only
(:func:`read_entry`); callers validate what they read and treat anything odd as a miss.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import json
import os
import re
import sys
import warnings
import zlib
from collections.abc import Callable, Iterator
from functools import lru_cache
from pathlib import Path
from typing import Any, Generic, TypeVar

from printdeck.audit import INPUT_EVENT
from printdeck.errors import PrintdeckError, shown
from printdeck.fileio import create_temp_file, forget_temp, read_user_file
from printdeck.signals import deferred

T = TypeVar("T")

KINDS = frozenset(
    {
        "builds", "crops", "digests", "features", "layouts", "lookalikes", "lookpairs", "looks", "pictures",
        "printed", "proofs", "rasterchecks", "silhouettes", "svgchecks", "vectorforms",
    }
)  # fmt: skip
"""The cache's folders printdeck writes (:func:`cache_dir`'s ``kind``); a build's record
(:mod:`printdeck.rerun`) counts nothing in them as an input."""
MAX_ENTRY_BYTES = 20_000_000
"""Largest cache entry read (a silhouette is a few kB, a card under 2 kB)."""

_KIND = re.compile(r"[a-z][a-z0-9_-]{0,40}")
_warned: set[str] = set()


class CacheWarning(UserWarning):
    """The disk cache is off for this run (the build goes on without it)."""


def cache_root() -> Path:
    """The cache folder named by the environment (not created, not checked).

    Raises:
        RuntimeError: No ``PRINTDECK_CACHE_DIR``, no absolute ``XDG_CACHE_HOME``
            and no home folder (no ``HOME`` and no password entry).
    """
    root = os.environ.get("PRINTDECK_CACHE_DIR")
    if root:
        return Path(root).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    if xdg and os.path.isabs(xdg):
        return Path(xdg) / "printdeck"
    return Path.home() / ".cache" / "printdeck"  # RuntimeError without a home folder


def _warn_once(reason: str) -> None:
    """Warn the first time a cache is found unusable in this process (one line for all kinds)."""
    if not _warned:
        _warned.add(reason)
        warnings.warn(
            f"cache disabled: {reason}; the build goes on without a cache "
            "(set PRINTDECK_CACHE_DIR to a writable folder)",
            CacheWarning,
            stacklevel=3,
        )


def cache_dir(kind: str) -> Path | None:
    """The folder of one kind of cache entry, created if missing; None when caching is off.

    Args:
        kind: The cache's name (``"layouts"``, ``"silhouettes"``, ``"drawings"``):
            lowercase letters, digits, ``-`` and ``_``.

    Returns:
        The folder, or None when ``PRINTDECK_NO_CACHE`` is set or no usable folder
        exists (then a :class:`CacheWarning` ``"cache disabled: ..."`` is issued,
        once per process, whatever the kind).

    Raises:
        ValueError: ``kind`` is not a plain name (a programming error).
    """
    if not _KIND.fullmatch(kind):
        raise ValueError(f"cache kind {kind!r}: expected a plain lowercase name")
    if os.environ.get("PRINTDECK_NO_CACHE"):
        return None
    try:
        folder = cache_root() / kind
    except (RuntimeError, KeyError, OSError):
        _warn_once("no home folder to keep it in")
        return None
    try:
        folder.mkdir(parents=True, exist_ok=True)
        usable = folder.is_dir() and os.access(folder, os.W_OK | os.X_OK)
    except (OSError, ValueError) as exc:
        _warn_once(f"cannot create {shown(folder)} ({getattr(exc, 'strerror', None) or exc})")
        return None
    if not usable:
        _warn_once(f"{shown(folder)} is not a writable folder")
        return None
    return folder


ENTRY_NAME = re.compile(r"\.?[0-9a-f]{32}\.[A-Za-z0-9.]+")
"""The file name of an entry (:func:`entry_key` and a suffix), or of its temporary file while
:func:`write_entry` writes it."""


def file_identity(info: os.stat_result) -> list[int]:
    """What tells one version of a file from another without reading it: size,
    modification time (ns), inode and change time (ns); any write changes the change
    time, which no tool can set back."""
    return [info.st_size, info.st_mtime_ns, info.st_ino, info.st_ctime_ns]


def entry_key(*parts: object) -> str:
    """A cache entry's name: 32 hex digits of the SHA-256 of ``parts``.

    Args:
        parts: Everything the entry depends on; ``bytes`` count as they are, anything
            else by ``str``. Each part is framed by its length, so no two different
            lists of parts give the same key by running together.
    """
    h = hashlib.sha256()
    for part in parts:
        data = part if isinstance(part, bytes) else str(part).encode("utf-8", "surrogatepass")
        h.update(len(data).to_bytes(8, "little") + data)
    return h.hexdigest()[:32]


@lru_cache(maxsize=64)
def code_digest(*modules: str) -> str:
    """SHA-256 (hex) of the source of the named modules, for cache keys that must change
    with the code computing the entries.

    Args:
        modules: Dotted module names (``"printdeck.layout.card"``); a package counts
            with every module in its folder and subfolders.

    Raises:
        ImportError: A name is not an importable module (a programming error).
    """
    h = hashlib.sha256()
    for name in modules:
        spec = importlib.util.find_spec(name)  # found, not imported: a cached entry needs no svglib
        if spec is None or not spec.origin:
            raise ImportError(f"no module named {name!r}", name=name)
        source = Path(spec.origin)
        files = sorted(source.parent.rglob("*.py")) if source.name == "__init__.py" else [source]
        for path in files:
            rel = path.relative_to(source.parent).as_posix()
            h.update(f"{name}:{rel}:{path.stat().st_size}|".encode() + path.read_bytes())
    return h.hexdigest()


DIGEST_MEMO_BYTES = 1_000_000
"""Files at least this large (a phone photo) have their digest kept in the disk cache (folder
``digests``), so a build does not read and hash every photo again."""


def file_digest(path: Path) -> str:
    """SHA-256 (hex) of a file's bytes, for keys that must change with an input file
    (artwork, fonts); read once per path, size, modification and change time and inode,
    in a process and (for files of :data:`DIGEST_MEMO_BYTES` or more) across runs: any
    write to the file changes its change time, which no tool can set back.

    Raises the auditing event ``printdeck.input`` with the path (``sys.audit``): what is
    made from the file depends on its bytes even when they are not read here, which a
    build's record (:mod:`printdeck.rerun`) must know.

    Raises:
        PrintdeckError: The file cannot be read.
    """
    sys.audit(INPUT_EVENT, str(path))
    try:
        info = path.stat()
        return _file_digest(str(path), *file_identity(info))
    except OSError as exc:
        raise PrintdeckError(f"{shown(path)}: cannot read ({exc.strerror or exc}); check the file") from None


@lru_cache(maxsize=4096)
def _file_digest(path: str, size: int, mtime_ns: int, inode: int, ctime_ns: int) -> str:
    folder = cache_dir("digests") if size >= DIGEST_MEMO_BYTES else None
    entry = folder / f"{entry_key(os.path.realpath(path), size, mtime_ns, inode, ctime_ns)}.txt" if folder else None
    stored = read_entry(entry, 100) if entry is not None else None
    if stored is not None and re.fullmatch(r"[0-9a-f]{64}", stored):
        return stored
    digest = hashlib.sha256(Path(path).read_bytes()).hexdigest()
    if entry is not None:
        write_entry(entry, digest)
    return digest


def write_entry(path: Path, text: str | bytes) -> bool:
    """Write a cache entry whole or not at all; never raises.

    The text goes to a temporary file beside ``path`` that is renamed over it; on
    any error (a full disk, a read-only folder) the temporary file is removed.

    Args:
        path: The entry's file (its folder from :func:`cache_dir`).
        text: Its content (text is written as UTF-8; bytes as they are).

    Returns:
        Whether the entry was written.
    """
    tmp: Path | None = None
    done = False
    try:
        tmp = create_temp_file(path.parent, path.name, path)
        with open(tmp, "wb") as handle:
            handle.write(text if isinstance(text, bytes) else text.encode("utf-8"))
        with deferred():
            os.replace(tmp, path)
            forget_temp(tmp)
            done = True
    except (OSError, ValueError, UnicodeError):
        pass
    finally:  # also on Ctrl-C / SIGTERM: no partial entry is left behind
        if tmp is not None and not done:
            forget_temp(tmp)
            with contextlib.suppress(OSError):
                tmp.unlink()
    return done


def read_entry_bytes(path: Path, limit: int = MAX_ENTRY_BYTES) -> bytes | None:
    """A cache entry's bytes, or None (missing, not a regular file, too large); never
    raises and never blocks (see :func:`printdeck.fileio.read_user_file`)."""
    try:
        return read_user_file(path, "", limit)
    except (PrintdeckError, OSError):
        return None


def read_jpeg_entry(path: Path, limit: int = MAX_ENTRY_BYTES) -> bytes | None:
    """A cache entry that is a whole JPEG (its first and last markers: a file cut short is
    not one), or None; never raises and never blocks (:func:`read_entry_bytes`)."""
    data = read_entry_bytes(path, limit)
    return data if data is not None and data[:3] == b"\xff\xd8\xff" and data[-2:] == b"\xff\xd9" else None


def read_entry(path: Path, limit: int = MAX_ENTRY_BYTES) -> str | None:
    """A cache entry's text, or None (missing, not a regular file, too large, not
    UTF-8); never raises and never blocks (see :func:`printdeck.fileio.read_user_file`)."""
    try:
        return read_user_file(path, "", limit).decode("utf-8")
    except (PrintdeckError, UnicodeError, OSError):
        return None


class Switch:
    """A flag a ``with`` block turns on (:meth:`on`): a shipped table that is being remade
    is read by no one meanwhile (:class:`ShippedTable`). Truthy while on."""

    def __init__(self) -> None:
        self._on = False

    def __bool__(self) -> bool:
        return self._on

    @contextlib.contextmanager
    def on(self) -> Iterator[None]:
        """Turn the flag on within the block."""
        self._on = True
        try:
            yield
        finally:
            self._on = False


_UNREAD = object()
SHIPPED_ERRORS = (
    OSError,
    EOFError,
    zlib.error,  # a gzip file whose body is damaged
    ValueError,
    KeyError,
    TypeError,
    IndexError,
    AttributeError,
    RecursionError,  # JSON nested past the parser's depth
)
"""What parsing a damaged shipped table may raise: it then ships nothing."""


class ShippedTable(Generic[T]):
    """A table shipped with printdeck's bundled pictures (results kept by the disk cache's
    keys, so a cold deck need not make them): read once a process, nothing while it is
    being remade (:meth:`ignored`), ``empty`` when its file is missing or damaged.

    Args:
        path: Where its file is, asked at each read (so a test may point it elsewhere).
        parse: The file's bytes to the table; any of :data:`SHIPPED_ERRORS` it raises
            means a damaged file.
        empty: The table of a missing or damaged file.
    """

    def __init__(self, path: Callable[[], Path], parse: Callable[[bytes], T], empty: T) -> None:
        self._path, self._parse, self._empty = path, parse, empty
        self._data: object = _UNREAD
        self._switch = Switch()

    def read(self) -> T | None:
        """The table (read on first use), or None while it is being remade."""
        if self._switch:
            return None
        if self._data is _UNREAD:
            try:
                self._data = self._parse(self._path().read_bytes())
            except SHIPPED_ERRORS:
                self._data = self._empty
        return self._data  # type: ignore[return-value]

    def ignored(self) -> contextlib.AbstractContextManager[None]:
        """Within the block, nothing is shipped (the file is being remade)."""
        return self._switch.on()

    def forget(self) -> None:
        """Read the file again on next use (after it is remade)."""
        self._data = _UNREAD


@contextlib.contextmanager
def own_cache_dir(prefix: str) -> Iterator[Path]:
    """Within the block, the disk cache is a new empty folder (``PRINTDECK_CACHE_DIR``),
    removed after it and the variable put back: for work that must find nothing cached
    (a shipped table being remade).

    Args:
        prefix: The folder's name prefix, e.g. ``printdeck-proofs-``.
    """
    import tempfile  # noqa: PLC0415 - only for a table being remade

    before = os.environ.get("PRINTDECK_CACHE_DIR")
    with tempfile.TemporaryDirectory(prefix=prefix) as folder:
        os.environ["PRINTDECK_CACHE_DIR"] = folder
        try:
            yield Path(folder)
        finally:
            if before is None:
                os.environ.pop("PRINTDECK_CACHE_DIR", None)
            else:
                os.environ["PRINTDECK_CACHE_DIR"] = before


def write_shipped(path: Path, table: dict[str, Any], forget: Callable[[], None]) -> Path:
    """Write a table shipped with printdeck (``assets``: results kept by the disk cache's
    keys) as one line of JSON, keys sorted, gzip-compressed when ``path`` ends in ``.gz``
    (with no time stamp), so a table remade unchanged is the same bytes; then ``forget``
    what was read of it before.

    Raises:
        OSError: The file cannot be written.
    """
    import gzip  # noqa: PLC0415 - only when a table is remade

    text = (json.dumps(table, separators=(",", ":"), sort_keys=True) + "\n").encode("utf-8")
    path.write_bytes(gzip.compress(text, 9, mtime=0) if path.suffix == ".gz" else text)
    forget()
    return path
