"""Recording a command-line build for :mod:`printdeck.rerun.replay`.

A :class:`Recording` watches the build through Python's audit hooks (PEP 578):
- each file opened: for reading, an input; for writing, a temporary output or a cache
  entry;
- what printdeck says it depends on without reading it (:data:`printdeck.audit.INPUT_EVENT`:
  a digest kept in the cache, a path tried and not found, a folder looked in);
- each folder listed, but an output folder listed only for a killed build's temporary
  files (:data:`printdeck.audit.CLEANUP_EVENT`);
- each rename (an output committed, with the identity it had then);
- each program run: the build is recorded only if the code that ran it said what it
  answered (:data:`printdeck.audit.PROGRAM_EVENT`, ``fc-match`` choosing a font; the
  replay asks it again).

Forked worker processes inherit the hook and append what they see to a file this process
reads at the end, so files read only by a worker count too. What the build prints goes
through a :class:`~printdeck.rerun.said.Tee` on standard output and error. When the build
ends with status 0 the record is written to the cache (``builds``): the inputs with the
identity of each (a file changed during the build, or in the 2 s before it, is not
recorded), the outputs' bytes and permissions, and the lines printed.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import stat
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from printdeck.audit import CLEANUP_EVENT, INPUT_EVENT, PROGRAM_EVENT
from printdeck.cache import ENTRY_NAME, KINDS, MAX_ENTRY_BYTES, file_identity
from printdeck.rerun.replay import (
    KIND,
    RACY_S,
    RECORD_FORMAT,
    cache_root_or_none,
    folder_entries,
    folder_identity,
    plain_text,
    record_key,
)
from printdeck.rerun.said import Tee, merged
from printdeck.rerun.store import child_log, prune

_READ, _LISTED, _WRITTEN, _RENAMED_FROM, _RENAMED_TO, _TAINT = "r", "l", "w", "s", "o", "x"
_RAN, _ANSWERED = "p", "a"  # a program run (its command line, JSON); its answer (command line and output, JSON)
_LOOKED = "i"  # a file or folder the build depends on without reading it (printdeck.audit.INPUT_EVENT)
_PROGRAMS = frozenset({"os.system", "os.posix_spawn", "os.exec", "os.spawn", "os.startfile"})
_LISTINGS = frozenset({"os.listdir", "os.scandir"})
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND
_IGNORED_ROOTS = ("/proc/", "/sys/")  # the system's state (CPU count...), not a build's inputs
_DEVICES = "/dev/"  # a device read (a theme from /dev/stdin) is not an input that can be checked
_DESCRIPTORS = re.compile(r"/proc/[^/]+/fd/")  # nor a file read by descriptor (/proc/self/fd/0: stdin)
_NULL = os.devnull
_WATCHED = (
    frozenset({"open", "os.rename", "subprocess.Popen", "os.chdir", INPUT_EVENT, PROGRAM_EVENT, CLEANUP_EVENT})
    | _PROGRAMS
    | _LISTINGS
)
"""The events the hook looks at (it is called for every event, so the others cost a set lookup)."""


class Recording:
    """One build being recorded (at most one a process: the hook cannot be removed, so it
    falls silent once the record is written or given up).

    Args:
        args: The command line, without the program name.
        root: The cache folder.
    """

    def __init__(self, args: list[str], root: Path) -> None:
        self.key = record_key(args)
        self.started = time.time()
        self.active = True
        self.in_child = False
        self.said: list[tuple[str, str]] = []
        self.events: list[tuple[str, str]] = []
        self.first_seen: dict[str, list[int]] = {}
        self.cwd = os.getcwd()
        self.cache_roots = (str(root) + os.sep, os.path.realpath(root) + os.sep)
        self.renamed: dict[str, list[int]] = {}  # output -> its temporary file's identity as renamed over it
        self.cleanups: set[str] = set()  # folders whose next listing only looks for stale temporary files
        self._log = child_log()
        for module in list(sys.modules.values()):  # loaded before the hook: this module's imports
            where = getattr(module, "__file__", None)
            if isinstance(where, str):
                self._note(_READ, where)
        os.register_at_fork(after_in_child=self._forked)
        sys.addaudithook(self._hook)
        self.tees = (Tee(sys.stdout, "stdout", self.said), Tee(sys.stderr, "stderr", self.said))
        sys.stdout, sys.stderr = self.tees

    def _forked(self) -> None:
        self.in_child = True

    def pause(self, paused: bool) -> None:
        """Stop (or go on) keeping what is printed (a progress bar on a terminal)."""
        for tee in self.tees:
            tee.paused = paused

    def _hook(self, event: str, args: tuple[Any, ...]) -> None:
        """The audit hook: never raises (it would fail the operation it audits)."""
        if event not in _WATCHED or not self.active:
            return
        try:
            self._audit(event, args)
        except Exception:  # noqa: BLE001 - an event not understood: this build is not recorded
            self.events.append((_TAINT, event))

    def _audit(self, event: str, args: tuple[Any, ...]) -> None:
        if event == "open":
            path, mode, flags = args
            if isinstance(path, int) or path is None:
                return
            written = any(c in mode for c in "wax+") if isinstance(mode, str) else bool(flags & _WRITE_FLAGS)
            self._note(_WRITTEN if written else _READ, path)
        elif event == INPUT_EVENT:  # a file whose digest came from the cache, a folder looked in...
            self._note(_LOOKED, args[0])
        elif event == CLEANUP_EVENT:
            self.cleanups.add(self._absolute(args[0]))
        elif event in _LISTINGS:
            folder = self._absolute(args[0] if args and args[0] is not None else ".")
            if folder in self.cleanups:  # only its stale temporary files looked for
                self.cleanups.discard(folder)
            else:
                self._note(_LISTED, folder)
        elif event == "os.rename":  # before the rename: the source is still there
            source, output = self._absolute(args[0]), self._absolute(args[1])
            if not self._skipped(output):
                self._note_raw(_RENAMED_FROM, source)
                self._note_raw(_RENAMED_TO, output)
                with contextlib.suppress(OSError):
                    self.renamed[output] = _written_identity(os.stat(source))
        elif event == "subprocess.Popen":  # fine if the code that ran it says what it answered
            self._note_raw(_RAN, json.dumps([str(a) for a in args[1]]))
        elif event == PROGRAM_EVENT:
            self._note_raw(_ANSWERED, json.dumps([[str(a) for a in args[0]], str(args[1])]))
        elif event in _PROGRAMS or event == "os.chdir":
            self._note(_TAINT, event)

    def _absolute(self, where: object) -> str:
        """``where`` as an absolute path, ``.`` parts and doubled separators dropped but
        ``..`` kept (the system resolves a symbolic link before its ``..``).

        Raises:
            TypeError: ``where`` is a descriptor (or another object that is no path).
        """
        path = os.fsdecode(where)  # type: ignore[arg-type]
        parts = os.path.join(self.cwd, path).split(os.sep)
        return os.sep.join(part for k, part in enumerate(parts) if k == 0 or part not in ("", "."))

    def _skipped(self, path: str) -> bool:
        """Whether ``path`` is none of the build's inputs or outputs: a cache entry or folder
        (not any file under the cache folder: a theme may be kept there), compiled bytecode,
        the system's state, the null device."""
        if path.startswith(self.cache_roots):
            inside = path.split(os.sep)[-2:]
            root = os.path.dirname(os.path.dirname(path)) + os.sep
            if root in self.cache_roots and inside[0] in KINDS and ENTRY_NAME.fullmatch(inside[1]):
                return True
            if os.path.dirname(path) + os.sep in self.cache_roots and inside[1] in KINDS:
                return True  # a cache folder listed (pruned, its stale temporary files removed)
        system = path.startswith(_IGNORED_ROOTS) and not _DESCRIPTORS.match(path)
        return system or "__pycache__" in path or path == _NULL

    def _note(self, kind: str, where: object) -> None:
        try:
            path = self._absolute(where)
        except TypeError:  # a descriptor, a path relative to a folder descriptor
            path, kind = repr(where), _TAINT
        if kind != _TAINT and self._skipped(path):
            return
        if kind == _READ and (path.startswith(_DEVICES) or _DESCRIPTORS.match(path)):
            kind = _TAINT
        self._note_raw(kind, path)
        if kind == _READ and not self.in_child and path not in self.first_seen:
            with contextlib.suppress(OSError):
                self.first_seen[path] = file_identity(os.stat(path))

    def _note_raw(self, kind: str, what: str) -> None:
        """Keep an event (in a worker: append it to the log this process reads at the end)."""
        if not self.in_child:
            self.events.append((kind, what))
        elif self._log is not None:
            os.write(self._log, f"{kind}{what}\0".encode("utf-8", "surrogateescape"))
        else:
            self.events.append((_TAINT, "no log for the workers"))

    def finish(self, status: object) -> None:
        """The build ended with ``status`` (``SystemExit.code``): write its record if it
        succeeded and can be replayed; never raises (a record is only a speed-up)."""
        if not self.active or self.in_child:
            return
        self.active = False
        sys.stdout, sys.stderr = self.tees[0]._stream, self.tees[1]._stream
        if status not in (0, None):
            return
        try:
            record = self._record()
            if record is not None:
                self._store(record)
        except Exception:  # noqa: BLE001 - a record is only a speed-up: the build's status stands
            return

    def _all_events(self) -> list[tuple[str, str]]:
        events = list(self.events)
        if self._log is not None:
            os.lseek(self._log, 0, os.SEEK_SET)
            chunks = []
            while chunk := os.read(self._log, 1 << 20):
                chunks.append(chunk)
            os.close(self._log)
            for item in b"".join(chunks).decode("utf-8", "surrogateescape").split("\0"):
                if item:
                    events.append((item[0], item[1:]))
        return events

    def _record(self) -> bytes | None:
        """The record's bytes, or None if this build cannot be replayed."""
        events = self._all_events()
        kinds: dict[str, set[str]] = {
            k: set() for k in (_READ, _LISTED, _WRITTEN, _RENAMED_FROM, _RENAMED_TO, _RAN, _LOOKED)
        }
        answers: dict[str, str] = {}
        for kind, path in events:
            if kind == _TAINT:
                return None
            if kind == _ANSWERED:
                command, output = json.loads(path)
                answers[json.dumps(command)] = output
            else:
                kinds[kind].add(path)
        if kinds[_RAN] - set(answers):  # a program whose answer nobody vouched for
            return None
        outputs = sorted(kinds[_RENAMED_TO] - kinds[_RENAMED_FROM])
        if not outputs or kinds[_WRITTEN] - kinds[_RENAMED_FROM]:  # written outside the cache, not renamed
            return None
        out_folders = {os.path.dirname(p) for p in outputs}
        looked_in = {p for p in kinds[_LOOKED] if os.path.isdir(p)}  # folders: as if listed
        files = (kinds[_READ] | kinds[_LOOKED]) - looked_in - set(outputs)
        inputs = self._inputs(files, kinds[_LISTED] | looked_in, out_folders, outputs)
        if inputs is None:
            return None
        inputs += [[command, "program", output] for command, output in sorted(answers.items())]
        blobs, described = [], []
        for path in outputs:
            data = self._output_bytes(path)
            if data is None:
                return None
            blobs.append(data[0])
            described.append([path, data[1], len(data[0])])
        said = merged(self.said)
        if not any(stream == "stdout" for stream, _ in said):  # its "wrote ..." went past the Tee
            return None
        header = {"format": RECORD_FORMAT, "inputs": inputs, "outputs": described, "said": said}
        record = json.dumps(header, separators=(",", ":")).encode() + b"\n" + b"".join(blobs)
        return record if len(record) <= MAX_ENTRY_BYTES else None  # else it could not be read back

    def _output_bytes(self, path: str) -> tuple[bytes, int] | None:
        """An output's bytes and permissions, if it is still the file this build renamed
        over it (not one another build wrote since); else None."""
        try:
            info = os.stat(path)
            if not stat.S_ISREG(info.st_mode) or self.renamed.get(path) != _written_identity(info):
                return None
            data = Path(path).read_bytes()
            if _written_identity(os.stat(path)) != self.renamed[path] or len(data) != info.st_size:
                return None
        except OSError:
            return None
        return data, stat.S_IMODE(info.st_mode)

    def _inputs(
        self, files: set[str], listed: set[str], out_folders: set[str], outputs: list[str]
    ) -> list[list[object]] | None:
        """Each file read (its identity, unchanged since first read and not racy) and each
        folder listed or holding a file read (its modification time; its entries for a
        folder the outputs go to); None if any changed during the build."""
        folders = set(listed)
        found = self._file_inputs(files, folders)
        if found is None:
            return None
        for folder in sorted(folders):
            entry = self._folder_input(folder, out_folders, outputs)
            if entry is None:
                return None
            found.append(entry)
        return found

    def _file_inputs(self, files: set[str], folders: set[str]) -> list[list[object]] | None:
        """The files' entries (each one's folder added to ``folders``; a folder opened, to
        lock it, is left out); None if one changed during the build, is racy or is not a
        regular file."""
        found: list[list[object]] = []
        for path in sorted(files):
            try:
                info = os.stat(path)
            except FileNotFoundError:  # looked for, not there (nor when first looked for)
                if path in self.first_seen:
                    return None
                found.append([path, "absent", None])
                continue
            except OSError:
                return None
            if stat.S_ISDIR(info.st_mode):  # opened to be locked (an output folder): its entries
                continue  # are read only by a listing, which has an event of its own
            seen = file_identity(info)
            if not stat.S_ISREG(info.st_mode):  # a pipe, a socket: what it gave cannot be checked
                return None
            if self.first_seen.get(path, seen) != seen or info.st_mtime > self.started - RACY_S:
                return None
            found.append([path, "file", seen])
            folders.add(os.path.dirname(path))
        return found

    def _folder_input(self, folder: str, out_folders: set[str], outputs: list[str]) -> list[object] | None:
        """A folder's entry: its entries if the outputs go there, else its modification time
        and inode (None if racy), or that it is absent."""
        if folder in out_folders:
            entries = folder_entries(folder, outputs)
            return None if entries is None else [folder, "entries", entries]
        try:
            info = os.stat(folder)
        except FileNotFoundError:  # a folder looked in (fonts...) that is not there
            return [folder, "absent", None]
        except OSError:
            return None
        if info.st_mtime > self.started - RACY_S:
            return None
        return [folder, "folder", folder_identity(info)]

    def _store(self, record: bytes) -> None:
        """Write the record (whole or not at all) and prune the oldest beyond :data:`MAX_RECORDS`."""
        from printdeck.cache import cache_dir, write_entry  # noqa: PLC0415

        folder = cache_dir(KIND)
        if folder is None or not write_entry(folder / f"{self.key}.rec", record):
            return
        prune(folder.glob("*.rec"))


def _written_identity(info: os.stat_result) -> list[int]:
    """What tells an output file apart from one written over it later: inode, size and
    modification time (a rename may change its change time)."""
    return [info.st_ino, info.st_size, info.st_mtime_ns]


_CURRENT: list[Recording] = []


@contextlib.contextmanager
def paused() -> Iterator[None]:
    """Keep what is printed in the body out of the record (a progress bar's redrawing)."""
    active = [r for r in _CURRENT if r.active]
    for recording in active:
        recording.pause(True)
    try:
        yield
    finally:
        for recording in active:
            recording.pause(False)


def start(args: list[str]) -> Recording | None:
    """Start recording the build ``args`` (the command line, without the program name), or
    None if it is not to be recorded (see :func:`printdeck.rerun.replay.eligible`)."""
    from printdeck.rerun.replay import eligible  # noqa: PLC0415

    root = cache_root_or_none()
    if root is None or not eligible(args) or _CURRENT or not plain_text(sys.stdout) or not plain_text(sys.stderr):
        return None
    _CURRENT.append(Recording(args, root))
    return _CURRENT[0]
