"""``python -m printdeck.studio [FOLDER] [--port N] [--no-browser]``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from printdeck.errors import PrintdeckError
from printdeck.signals import Interrupted, install_handlers


def main(argv: list[str] | None = None) -> None:
    """Parse the arguments and run the studio until Ctrl-C (exit status 2 on an error)."""
    parser = argparse.ArgumentParser(
        prog="python -m printdeck.studio", description="Make a deck in the browser (everything stays on this computer)."
    )
    parser.add_argument("folder", nargs="?", type=Path, help="theme folder to open or create [default: a new one here]")
    parser.add_argument("--port", type=int, default=0, help="port on 127.0.0.1 [default: a free one]")
    parser.add_argument("--no-browser", action="store_true", help="only print the link to open")
    args = parser.parse_args(argv)
    from printdeck.studio import serve  # noqa: PLC0415

    install_handlers()  # SIGTERM, SIGHUP: the studio stops as on Ctrl-C (its redirect file removed)
    try:
        serve(args.folder, port=args.port, open_browser=not args.no_browser)
    except PrintdeckError as exc:
        print(f"printdeck studio: {exc}", file=sys.stderr)
        sys.exit(2)
    except (KeyboardInterrupt, Interrupted):
        pass


if __name__ == "__main__":
    main()
