"""Starting the studio: open the folder, listen on 127.0.0.1, open the browser.

The browser is never given the token on its command line (``/proc/PID/cmdline`` is
readable by every user of the computer): it is opened on a small HTML file, readable
only by the user (0600, in a 0700 folder of theirs), that sends it on to the link, as
Jupyter does. The file is removed when the studio stops.
"""

from __future__ import annotations

import contextlib
import html
import os
import socket
import stat
import threading
import time
import webbrowser
from collections.abc import Callable
from pathlib import Path

from printdeck.errors import PrintdeckError, shown
from printdeck.studio import background, page_state, uploads
from printdeck.studio.connections import server_config, tcp_socket
from printdeck.studio.guard import Pass
from printdeck.studio.routes import Studio, create_app
from printdeck.studio.theme_folder import default_folder, privacy_note
from printdeck.studio.workspace import Workspace

HOST = "127.0.0.1"
RUNTIME_FOLDER = "printdeck-studio"


def listening_socket(port: int) -> socket.socket:
    """A socket listening on 127.0.0.1:``port`` (0: a free port the system picks), made
    with ``IPPROTO_TCP`` and ``TCP_NODELAY`` (:func:`~printdeck.studio.connections.tcp_socket`).

    Raises:
        PrintdeckError: the port is taken or not allowed.
    """
    sock = tcp_socket()
    if os.name == "posix":  # the port of a studio just stopped is free again at once, not after
        # TIME-WAIT (a minute); POSIX's SO_REUSEADDR lets no second listener in (Windows' would)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((HOST, port))
        sock.listen(64)
    except OSError as exc:
        sock.close()
        raise PrintdeckError(
            f"--port {port}: cannot listen on {HOST}:{port} ({exc.strerror}); choose another port or leave --port out"
        ) from None
    return sock


def runtime_folder() -> Path:
    """The user's own folder for the studio's redirect files: ``$XDG_RUNTIME_DIR/printdeck-studio``,
    else ``~/.local/share/printdeck-studio``; created 0700, made 0700 if it was wider.

    Raises:
        PrintdeckError: It cannot be made, is a symbolic link, or belongs to another user.
    """
    runtime = os.environ.get("XDG_RUNTIME_DIR", "")
    base = Path(runtime) if runtime and Path(runtime).is_dir() else Path.home() / ".local" / "share"
    folder = base / RUNTIME_FOLDER
    try:
        base.mkdir(mode=0o700, parents=True, exist_ok=True)
        folder.mkdir(mode=0o700, exist_ok=True)
        info = folder.lstat()
        if not stat.S_ISDIR(info.st_mode) or (hasattr(os, "getuid") and info.st_uid != os.getuid()):
            raise PrintdeckError(f"{shown(folder)}: is not a folder of this user's; remove it and start again")
        if stat.S_IMODE(info.st_mode) & 0o077:
            os.chmod(folder, 0o700)
    except OSError as exc:
        raise PrintdeckError(f"{shown(folder)}: cannot make the studio's private folder ({exc.strerror})") from None
    return folder


def redirect_file(link: str, port: int) -> Path:
    """Write the page that sends the browser on to ``link`` (0600, in :func:`runtime_folder`).

    Raises:
        PrintdeckError: The folder or the file cannot be made.
    """
    path = runtime_folder() / f"studio-{port}-open.html"
    quoted = html.escape(link, quote=True)
    page = (
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><meta name="referrer" content="no-referrer">\n'
        f'<meta http-equiv="refresh" content="0;url={quoted}">\n<title>printdeck studio</title></head>\n'
        f'<body><p>Opening <a href="{quoted}">printdeck studio</a>…</p></body></html>\n'
    )
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            if hasattr(os, "fchmod"):
                os.fchmod(out.fileno(), 0o600)
            out.write(page)
    except OSError as exc:
        raise PrintdeckError(f"{shown(path)}: cannot write the page that opens the studio ({exc.strerror})") from None
    return path


def open_browser_on(link: str, port: int, say: Callable[[str], None]) -> Path | None:
    """Open the default browser on ``link`` through :func:`redirect_file` (never with the
    token in its arguments). Returns the file to remove at the end (``None``: not opened)."""
    try:
        page = redirect_file(link, port)
    except PrintdeckError as exc:
        say(f"note: not opening a browser: {exc}; open the link above")
        return None

    def open_soon() -> None:  # a daemon: a $BROWSER command that waits must not keep the studio from stopping
        time.sleep(0.3)
        webbrowser.open(page.as_uri())

    threading.Thread(target=open_soon, name="printdeck-studio-browser", daemon=True).start()
    return page


def serve(folder: Path | None, port: int = 0, open_browser: bool = True, say: Callable[[str], None] = print) -> None:
    """Run the studio on ``folder`` until Ctrl-C.

    Args:
        folder: Theme folder to open or create (default: a new ``my-deck`` folder in the
            current folder; a new folder is made 0700).
        port: Port on 127.0.0.1 (0: a free one).
        open_browser: Open the page in the default browser.
        say: Prints the folder, the link and notes.

    Raises:
        PrintdeckError: the folder cannot be opened or created, or the port is taken.
    """
    import uvicorn  # noqa: PLC0415 - only when serving

    space = Workspace.open(folder if folder is not None else default_folder(Path.cwd()))
    sock = listening_socket(port)
    real_port = sock.getsockname()[1]
    gate = Pass.for_port(real_port, uploads.MAX_UPLOAD_BYTES)
    link = gate.link(f"http://{HOST}:{real_port}")
    studio = Studio(space)
    page_state.state(space)  # the library and the theme loaded once: the first page comes quickly
    threading.Thread(target=studio.warm_up, name="printdeck-studio-warm-up", daemon=True).start()
    say(f"printdeck studio: editing {space.folder}")
    say(f"open {link}  (Ctrl-C stops the studio; everything is saved as you go)")
    note = privacy_note(space.folder)
    if note:
        say(note)
    server = uvicorn.Server(server_config(create_app(space, gate, studio)))
    page = open_browser_on(link, real_port, say) if open_browser else None
    try:
        server.run(sockets=[sock])
    finally:
        try:
            if background.busy():  # a build or a sheet under way: ended before the process ends
                say("printdeck studio: finishing the work under way...")
            background.wait_idle()  # a second Ctrl-C stops this wait, not the clean-up below
        finally:
            space.close()  # the files kept for Undo go
            if page is not None:
                with contextlib.suppress(OSError):
                    page.unlink()
