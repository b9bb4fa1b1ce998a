"""A repeated ``printdeck build`` whose inputs have not changed: its outputs written again
from the disk cache, without loading the pipeline or its libraries.

A build run from the command line is recorded (:mod:`printdeck.rerun.recording`): every file
it read (the theme, its pictures and fonts, printdeck's and its libraries' modules, in
this process and in its workers), every folder it listed, what printdeck says it depends
on without reading it (:mod:`printdeck.audit`: digests kept in the cache, paths tried and
not found, folders looked in, ``fc-match``'s answers), what it wrote and what it printed.
The same command run again, in the same folder with the same environment, finds the record
by a key of its arguments (:func:`record_key`) and checks that every file and folder is as
it was: size, modification and change time and inode of each file; modification and
change time and inode of each folder, or its entries for a folder the outputs go to as
well; each path not found still not there; each program's answer the same, asked again.
Then it writes the outputs and gives back the lines to print; anything changed, missing or
odd is a miss and the build runs as always. The outputs are byte for byte those of the
recorded build, which is byte for byte what a new build gives (printdeck is
deterministic), and are written the same way (a temporary file renamed over each,
under the folder lock, removing the cut files and extras PDF an earlier build of the PDF
recorded and these do not hold: :func:`printdeck.output_record.stale_outputs`).

Only plain builds are recorded: not ``-v`` (whose stage times are the point), ``--png-dir``
(a folder of outputs), ``--help``, nor a build that ran another program whose answer the
code running it did not vouch for (:data:`printdeck.audit.PROGRAM_EVENT`), wrote anywhere
but its outputs and the cache, or read a file modified in the :data:`RACY_S` seconds before it
started (a later change in the same clock tick could go unseen). ``PRINTDECK_NO_CACHE``,
``PRINTDECK_NO_LAYOUT_CACHE`` and ``PRINTDECK_NO_REPLAY`` turn replaying and recording off.
"""

from __future__ import annotations

import codecs
import contextlib
import json
import os
import stat
import sys
from collections.abc import Sequence
from pathlib import Path

from printdeck.cache import cache_root, entry_key, file_identity, read_entry_bytes

RECORD_FORMAT = 3
"""Version of a record's layout; part of its key."""
RACY_S = 2.0
"""Seconds: a build that read a file modified this shortly before it started is not recorded
(FAT's modification times tick every 2 s; git calls such entries racy)."""
MAX_RECORDS = 32
"""Records kept; the least recently used beyond these are removed as a new one is written."""
KIND = "builds"
"""The cache folder of the records."""
OFF_SWITCHES = ("PRINTDECK_NO_CACHE", "PRINTDECK_NO_LAYOUT_CACHE", "PRINTDECK_NO_REPLAY")
"""Environment variables that turn replaying and recording off when set to anything."""
KEY_ENVIRONMENT = (
    "HOME", "PATH", "LANG", "LANGUAGE", "LC_ALL", "LC_CTYPE", "TZ", "SOURCE_DATE_EPOCH",
    "XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_DATA_DIRS",
    "FONTCONFIG_FILE", "FONTCONFIG_PATH", "PYTHONPATH", "PYTHONHASHSEED", "PYTHONIOENCODING",
    "PYTHONUTF8", "PYTHONWARNINGS",
)  # fmt: skip
"""Environment variables a build may depend on (besides those of :data:`KEY_PREFIXES`)."""
ASKED_AGAIN = frozenset({"fc-match"})
"""The programs whose answers a replay asks again (what :data:`printdeck.audit.PROGRAM_EVENT`
reports); a record naming any other is a miss."""
KEY_PREFIXES = ("PRINTDECK_", "RL_")
"""Prefixes of the environment variables a build depends on: printdeck's, ReportLab's settings."""
_REFUSED_ARGS = frozenset({"-h", "--help", "-v", "--verbose", "--png-dir", "-"})


def eligible(args: Sequence[str]) -> bool:
    """Whether the command line ``args`` (without the program name) is a build that may
    be replayed and recorded: ``build`` with none of ``-v``, ``--png-dir`` or ``--help``
    (nor a bundle of short flags holding ``v`` or ``h``), on a system with ``fork`` (whose
    workers the record follows), no off switch set."""
    if not args or args[0] != "build" or not hasattr(os, "fork") or sys.platform == "win32":
        return False
    if any(os.environ.get(name) for name in OFF_SWITCHES):
        return False
    for arg in args[1:]:
        name = arg.split("=", 1)[0]
        if name in _REFUSED_ARGS or (arg[:1] == "-" and arg[1:2] != "-" and ("v" in arg or "h" in arg)):
            return False
    return True


def cache_root_or_none() -> Path | None:
    """The cache folder (:func:`printdeck.cache.cache_root`), or None where there is none."""
    try:
        return cache_root()
    except (RuntimeError, KeyError, OSError):
        return None


def record_key(args: Sequence[str]) -> str:
    """The key of the record of a build run with ``args`` here and now: the arguments, the
    working folder, the interpreter and its module path, where printdeck is, the
    environment that matters (:data:`KEY_ENVIRONMENT`, :data:`KEY_PREFIXES`), the umask and
    whether standard output and error are terminals."""
    import printdeck  # noqa: PLC0415

    env = {k: v for k, v in os.environ.items() if k.startswith(KEY_PREFIXES) or k in KEY_ENVIRONMENT}
    mask = os.umask(0o022)
    os.umask(mask)
    ttys = [_isatty(sys.stdout), _isatty(sys.stderr)]
    return entry_key(
        RECORD_FORMAT, json.dumps(list(args)), os.getcwd(), sys.executable, sys.version,
        json.dumps(sys.path), printdeck.__file__, json.dumps(sorted(env.items())), mask, json.dumps(ttys),
    )  # fmt: skip


def _isatty(stream: object) -> bool:
    try:
        return bool(stream.isatty())  # type: ignore[attr-defined]
    except (AttributeError, ValueError, OSError):
        return False


def plain_text(stream: object) -> bool:
    """Whether ``stream`` is open and not ASCII-only (click writes past an ASCII stream to
    its byte buffer, which a :class:`Tee` would not see)."""
    encoding = getattr(stream, "encoding", None)
    try:
        return encoding is not None and codecs.lookup(encoding).name != "ascii"
    except LookupError:
        return False


def folder_identity(info: os.stat_result) -> list[int]:
    """What tells a folder's version: modification and change time (ns), inode (an entry
    added or removed changes both; only the first can be set back)."""
    return [info.st_mtime_ns, info.st_ctime_ns, info.st_ino]


def folder_entries(folder: str, outputs: Sequence[str]) -> list[str] | None:
    """The sorted names in ``folder`` but the build's own outputs and temporary files
    (``.*.tmp``), or None if it cannot be listed."""
    own = {os.path.basename(p) for p in outputs if os.path.dirname(p) == folder}
    try:
        names = os.listdir(folder)
    except OSError:
        return None
    return sorted(n for n in names if n not in own and not (n.startswith(".") and n.endswith(".tmp")))


def _unchanged(inputs: list[tuple[str, str, object]], outputs: Sequence[str]) -> bool:
    """Whether every recorded file and folder (``(path, kind, what was seen)``) is as it was."""
    for path, kind, seen in inputs:
        if kind == "program":
            if not _same_answer(path, seen):
                return False
            continue
        if kind == "entries":
            if folder_entries(path, outputs) != seen:
                return False
            continue
        try:
            info = os.stat(path)
        except FileNotFoundError:
            if kind == "absent":
                continue
            return False
        except OSError:
            return False
        if kind == "absent":  # it was not there: now it is
            return False
        if kind == "file":
            if not stat.S_ISREG(info.st_mode) or file_identity(info) != seen:
                return False
        elif not stat.S_ISDIR(info.st_mode) or folder_identity(info) != seen:
            return False
    return True


def _same_answer(command: str, answer: object) -> bool:
    """Whether the program of ``command`` (a JSON list; one of :data:`ASKED_AGAIN` only: a
    record is never a way to run anything else) still prints ``answer``."""
    import subprocess  # noqa: PLC0415 - only for a build that asked a program (fc-match)

    try:
        argv = [str(a) for a in json.loads(command)]
        if not argv or argv[0] not in ASKED_AGAIN:
            return False
        done = subprocess.run(argv, capture_output=True, text=True, timeout=20, check=False)
    except (OSError, ValueError, TypeError, subprocess.SubprocessError):
        return False
    return done.stdout == answer


def read_record(path: Path) -> tuple[dict[str, object], bytes] | None:
    """A record's header and the outputs' bytes after it, or None (missing or odd)."""
    data = read_entry_bytes(path)
    if data is None:
        return None
    head, newline, body = data.partition(b"\n")
    try:
        header = json.loads(head)
    except ValueError:
        return None
    if not newline or not isinstance(header, dict) or header.get("format") != RECORD_FORMAT:
        return None
    return header, body


def replay(args: Sequence[str]) -> list[tuple[str, str]] | None:
    """Write the outputs of the recorded build of ``args`` if nothing it read has changed,
    and return what it printed (``("stdout" | "stderr", text)``, in order) for the caller to
    print; None (nothing written) if there is no such record or anything differs: then the
    build runs as always.

    Raises:
        printdeck.signals.Interrupted: A signal came while the outputs were written (their
            temporary files are removed; the outputs are as they were, or all written).
    """
    root = cache_root_or_none()
    if root is None or not eligible(args) or not plain_text(sys.stdout) or not plain_text(sys.stderr):
        return None
    path = root / KIND / f"{record_key(args)}.rec"
    found = read_record(path)
    if found is None:
        return None
    header, body = found
    try:
        outputs = [(str(p), int(mode), int(size)) for p, mode, size in header["outputs"]]  # type: ignore[attr-defined]
        inputs = [(str(p), str(kind), seen) for p, kind, seen in header["inputs"]]  # type: ignore[attr-defined]
        said = [(str(stream), str(text)) for stream, text in header["said"]]  # type: ignore[attr-defined]
    except (KeyError, TypeError, ValueError):
        return None
    if not outputs or sum(size for _, _, size in outputs) != len(body):
        return None
    read = [Path(p) for p, kind, _ in inputs if kind == "file"]
    if not _unchanged(inputs, [p for p, _, _ in outputs]) or not _write_outputs(outputs, body, read):
        return None
    with contextlib.suppress(OSError):
        os.utime(path)  # used now: the last to be pruned
    return said


def say(said: Sequence[tuple[str, str]]) -> None:
    """Print what a replayed build printed, each text on its stream, in order."""
    for stream, text in said:
        out = sys.stderr if stream == "stderr" else sys.stdout
        out.write(text)
        out.flush()


def _write_outputs(outputs: Sequence[tuple[str, int, int]], body: bytes, inputs: Sequence[Path]) -> bool:
    """Write each output's bytes to a temporary file beside it, then rename them all over
    the outputs under the folder lock (:func:`printdeck.fileio.atomic_outputs`), removing
    the extras PDF and cut files an earlier build wrote and these outputs do not, as the
    build does (:func:`_stale`; ``inputs``: the files the build read); False if any
    cannot be written (nothing is then changed)."""
    from printdeck.errors import PrintdeckError  # noqa: PLC0415
    from printdeck.fileio import atomic_outputs  # noqa: PLC0415

    paths = [Path(p) for p, _, _ in outputs]
    try:
        with atomic_outputs(paths, replaced=lambda: _stale(paths, inputs)) as temps:
            start = 0
            for tmp, (_, mode, size) in zip(temps, outputs):
                tmp.write_bytes(body[start : start + size])
                os.chmod(tmp, mode)
                start += size
    except (PrintdeckError, OSError):
        return False
    return True


def _stale(outputs: Sequence[Path], inputs: Sequence[Path]) -> list[Path]:
    """What the recorded build would remove as it writes ``outputs``
    (:func:`printdeck.output_record.stale_outputs` of its PDF: the one output whose
    manifest is an output too); none if there is no such PDF."""
    from printdeck.output_record import stale_outputs  # noqa: PLC0415

    pdfs = [p for p in outputs if p.suffix == ".pdf" and p.with_suffix(".json") in outputs]
    return stale_outputs(pdfs[0], outputs, inputs) if len(pdfs) == 1 else []
