"""The one exception type a user-caused problem ends in."""

from __future__ import annotations


class PrintdeckError(Exception):
    """A problem the user can fix: bad theme, missing file, impossible deck.

    The CLI prints ``str(error)`` as one line on stderr and exits with status 2.
    The message names the key or file at fault and what would fix it.
    """

    def __init__(self, message: str) -> None:
        super().__init__(" ".join(message.split()))
