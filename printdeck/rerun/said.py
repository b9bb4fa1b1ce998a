"""What a recorded build printed: a stream that keeps what goes through it."""

from __future__ import annotations

from collections.abc import Iterable
from typing import IO, Any


class Tee:
    """A text stream that writes through to ``stream`` and keeps what it wrote (unless
    :attr:`paused`: a progress bar's redrawing is not part of the record)."""

    def __init__(self, stream: IO[str], name: str, said: list[tuple[str, str]]) -> None:
        self._stream = stream
        self._name = name
        self._said = said
        self.paused = False

    def write(self, text: str) -> int:
        written = self._stream.write(text)
        if not self.paused:
            self._said.append((self._name, text))
        return written

    def writelines(self, lines: Iterable[str]) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def merged(said: list[tuple[str, str]]) -> list[list[str]]:
    """What was printed, consecutive writes to one stream joined."""
    out: list[list[str]] = []
    for stream, text in said:
        if out and out[-1][0] == stream:
            out[-1][1] += text
        else:
            out.append([stream, text])
    return out
