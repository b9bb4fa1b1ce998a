"""Starting the studio: open the folder, listen on 127.0.0.1, open the browser."""

from __future__ import annotations

import socket
import threading
import webbrowser
from collections.abc import Callable
from pathlib import Path

from printdeck.errors import PrintdeckError
from printdeck.studio import page_state, uploads
from printdeck.studio.guard import Pass
from printdeck.studio.routes import Studio, create_app
from printdeck.studio.theme_folder import default_folder
from printdeck.studio.workspace import Workspace

HOST = "127.0.0.1"


def listening_socket(port: int) -> socket.socket:
    """A socket listening on 127.0.0.1:``port`` (0: a free port the system picks).

    Raises:
        PrintdeckError: the port is taken or not allowed.
    """
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.bind((HOST, port))
        sock.listen(64)
    except OSError as exc:
        sock.close()
        raise PrintdeckError(
            f"--port {port}: cannot listen on {HOST}:{port} ({exc.strerror}); choose another port or leave --port out"
        ) from None
    return sock


def serve(folder: Path | None, port: int = 0, open_browser: bool = True, say: Callable[[str], None] = print) -> None:
    """Run the studio on ``folder`` until Ctrl-C.

    Args:
        folder: Theme folder to open or create (default: a new ``my-deck`` folder in the
            current folder).
        port: Port on 127.0.0.1 (0: a free one).
        open_browser: Open the page in the default browser.
        say: Prints the folder and the link.

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
    config = uvicorn.Config(create_app(space, gate, studio), log_level="warning", access_log=False, lifespan="off")
    server = uvicorn.Server(config)
    if open_browser:
        threading.Timer(0.3, webbrowser.open, args=(link,)).start()
    server.run(sockets=[sock])
