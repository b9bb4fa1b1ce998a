"""Writing output files safely: a temporary file in the same folder, then a rename."""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

from printdeck.errors import PrintdeckError


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


@contextlib.contextmanager
def atomic_output(path: Path) -> Iterator[Path]:
    """Yield a temporary path beside ``path``; on success rename it over ``path``.

    If the body raises, the temporary file is removed and ``path`` is left as it was
    (never half-written, never clobbered).

    Args:
        path: The final output file.

    Raises:
        PrintdeckError: The folder does not exist or cannot be written.
    """
    path = Path(path)
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise PrintdeckError(f"{path}: folder {folder} does not exist; create it or choose another output path")
    try:
        fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise PrintdeckError(f"{path}: cannot write there ({exc.strerror}); choose another output path") from exc
    os.close(fd)
    tmp = Path(tmp_name)
    os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes 0600; give the file ordinary permissions
    try:
        yield tmp
        os.replace(tmp, path)
    except OSError as exc:
        raise PrintdeckError(f"{path}: cannot write there ({exc.strerror}); choose another output path") from exc
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
