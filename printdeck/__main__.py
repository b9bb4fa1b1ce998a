"""``python -m printdeck``: the same as the ``printdeck`` command."""

from printdeck.command import main

if __name__ == "__main__":
    main()
