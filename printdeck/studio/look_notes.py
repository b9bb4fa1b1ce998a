"""The look-alike notes the studio's tiles show: which symbols of the saved deck players
cannot tell apart (or only in grey, or only colour-blind players), by item uid, compared
once a saved revision."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

import printdeck
from printdeck.errors import PrintdeckError
from printdeck.studio.labels import label_of
from printdeck.studio.symbol_list import Item

LOOK_ALIKES_WAIT_S = 120.0
"""Longest a comparison for look-alikes waits for a sheet being drawn first."""

_SEEN = {  # how a tile says a pair is alike only in grey or for colour-blind players
    "normal": "",
    "grey": " in grey",
    "protanopia": " to colour-blind players",
    "deuteranopia": " to colour-blind players",
    "tritanopia": " to colour-blind players",
}


@dataclass
class LookNotes:
    """A deck's look-alike notes by item uid: a short note (``looks like 'red again'``) and
    the full reason, both tiles of a pair noted (thread-safe: one comparison at a time)."""

    by_uid: dict[int, tuple[str, str]] = field(default_factory=dict)
    rev: int = -1
    """The saved revision ``by_uid`` was compared for (-1: none yet)."""
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def known(self, rev: int) -> dict[int, tuple[str, str]]:
        """The notes of revision ``rev`` if they were compared, else none (nothing is compared)."""
        return self.by_uid if self.compared(rev) else {}

    def compared(self, rev: int) -> bool:
        """Whether revision ``rev``'s symbols were compared (its notes are :meth:`known`)."""
        return self.rev == rev

    def of(
        self, theme: printdeck.Theme | None, rev: int, items: list[Item], after: threading.Thread | None = None
    ) -> dict[int, tuple[str, str]]:
        """The notes of revision ``rev`` (its loaded ``theme``, None when it does not load or
        was compared already; its ``items``), compared now unless they were. With ``after``
        (a sheet being drawn), the comparison waits for that thread to end (at most
        :data:`LOOK_ALIKES_WAIT_S`), and so does anyone asking meanwhile."""
        if theme is None:  # nothing to compare now: what was compared for this revision, if any
            return self.known(rev)
        with self._lock:  # one comparison at a time: a second asker waits for it, not doing it again
            if after is not None:
                after.join(LOOK_ALIKES_WAIT_S)
            if self.rev != rev:
                self.by_uid = _compared(theme, items)
                self.rev = rev
            return self.by_uid


def _compared(theme: printdeck.Theme, items: list[Item]) -> dict[int, tuple[str, str]]:
    """The notes of the deck ``theme`` loaded from ``items``."""
    try:
        pairs = printdeck.look_alikes(theme, colour_blind=True)
    except PrintdeckError:
        pairs = []
    owners = _symbol_items(theme, items)
    notes: dict[int, list[tuple[str, str]]] = {}
    refused: set[int] = set()  # tiles with a pair alike as printed in colour: the build refuses those
    for pair in pairs:
        for group, other in zip(pair.groups, (pair.second, pair.first)):
            if 0 <= group < len(owners):
                seen = _SEEN[pair.vision.value]
                notes.setdefault(owners[group], []).append((f"{other!r}{seen}", pair.reason()))
                if pair.vision.value == "normal":
                    refused.add(owners[group])
    return {
        uid: (
            "looks like " + ", ".join(o for o, _ in texts),
            "; ".join(r for _, r in texts) + (_refused() if uid in refused else _WARNED),
        )
        for uid, texts in notes.items()
    }


def _refused() -> str:
    """What a tile's note adds when a pair is alike as printed in colour (the form's label of the setting)."""
    allow = label_of("deck.allow_look_alike")
    return f"; printdeck refuses to build them (or only warns, with \u201c{allow}\u201d ticked)"


_WARNED = "; printdeck still builds them, with a warning"
"""What a tile's note adds when its pairs are alike only in grey or for colour-blind players."""


def _symbol_items(theme: printdeck.Theme, items: list[Item]) -> list[int]:
    """The uid of the item each of ``theme.symbols`` comes from (a folder gives several)."""
    owners: list[int] = []
    position = 0
    for item in items:
        count = 1
        if item.group and item.file is not None:
            prefix = "assets/" + item.file[len("@assets/") :] if item.file.startswith("@assets/") else item.file
            prefix = prefix.strip("/") + "/"
            count = 0
            while position + count < len(theme.symbols) and prefix in theme.symbols[position + count].source + "/":
                count += 1
        owners += [item.uid] * count
        position += count
    return owners
