"""``python -m printdeck``: the same as the ``printdeck`` command."""

from printdeck.cli import main

if __name__ == "__main__":
    main()
