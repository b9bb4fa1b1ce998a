"""The one exception type a user-caused problem ends in, and safe one-line text."""

from __future__ import annotations

import json
import os
import re
import warnings
from collections.abc import Iterable
from dataclasses import dataclass
from os import PathLike
from pathlib import Path
from typing import Any

_SPACES = re.compile(r" {2,}")


def escape_unprintable(text: str) -> str:
    """``text`` with every non-printable character escaped as Python's ``repr`` does.

    Control characters (newline, tab, escape sequences), lone surrogates (bytes of a
    file name that are not UTF-8), format and separator characters other than the
    plain space become ``\\n``, ``\\x1b``, ``\\udcff``, ``\\u200b``...; printable
    text (any script), and a zero-width joiner inside an emoji, is kept as it is. The
    result is safe to print on one line of any terminal and to encode as UTF-8.
    """
    if text.isprintable():
        return text
    return "".join(
        ch if ch.isprintable() or ch == " " or _joins_emoji(text, i) else repr(ch)[1:-1] for i, ch in enumerate(text)
    )


def _joins_emoji(text: str, i: int) -> bool:
    """Whether ``text[i]`` is a zero-width joiner inside one emoji the ``emoji`` package knows
    (the family 👨‍👩‍👧 is three people joined): it shows as that emoji, not as ``\\u200d``;
    a joiner anywhere else (``★\\u200d★``, ``🐢\\u200d🐢``) stays escaped, so it cannot hide
    a difference between two names."""
    if text[i] != "\u200d":
        return False
    try:
        import emoji  # noqa: PLC0415 - only for text with a joiner
    except ImportError:  # pragma: no cover - a dependency
        return False
    return any(found["match_start"] < i < found["match_end"] for found in emoji.emoji_list(text))


def name_replaced(text: str, spelled: str, written: str) -> str:
    """``text`` with ``spelled`` (a path, or a folder's path and its separator) said as
    ``written`` where it starts a name: at the text's start, or after a space, quote or
    bracket, never inside another path (:meth:`PrintdeckError.renamed`; the studio leaves a
    theme's folder out of its lines with it too).

    Examples:
        >>> name_replaced("/home/ann/deck/x.png and /data/home/ann/deck/y.png", "/home/ann/deck/", "")
        'x.png and /data/home/ann/deck/y.png'
    """
    return re.compile(_NAME_START + re.escape(spelled)).sub(lambda _: written, text)


def folder_spellings(folder: Path) -> list[str]:
    """The ways a message may spell the start of a path inside ``folder``: as given and
    resolved, raw and as :func:`shown` prints it, each with ``/`` and this system's
    separator after it, longest first (so a longer spelling goes before its own start)."""
    forms = {str(folder), str(folder.resolve()), shown(folder), shown(folder.resolve())}
    seps = dict.fromkeys(("/", os.sep))
    return sorted({form.rstrip(sep) + sep for form in forms for sep in seps}, key=len, reverse=True)


def without_folder(text: str, folder: Path) -> str:
    """``text`` with ``folder`` left out of the paths inside it that start a name
    (:func:`name_replaced`): ``images/cat.png`` for ``/home/ann/deck/images/cat.png``."""
    for spelled in folder_spellings(folder):
        text = name_replaced(text, spelled, "")
    return text


def shown(path: str | PathLike[str]) -> str:
    """A user's file name as printed in messages: non-printables escaped (see
    :func:`escape_unprintable`), so a name cannot break the line or the terminal."""
    return escape_unprintable(str(path))


def counted(n: int, noun: str) -> str:
    """``n`` and ``noun`` as a message says them: one without an s.

    Examples:
        >>> counted(1, "card"), counted(55, "card"), counted(0, "symbol")
        ('1 card', '55 cards', '0 symbols')
    """
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def one_line(message: str) -> str:
    """``message`` as one safe line: ASCII line breaks and tabs between words become
    spaces, other non-printables are escaped, runs of spaces are collapsed."""
    flat = " ".join(message.split("\n")).replace("\r", " ").replace("\t", " ")
    return _SPACES.sub(" ", escape_unprintable(flat)).strip()


def show_value(value: object) -> str:
    """A value as a message quotes it: as the user wrote it in YAML or JSON
    (``"big"``, ``12``, ``true``, ``[1, 2]``), at most 40 characters."""
    try:
        text = json.dumps(value, ensure_ascii=False, default=str)
    except (TypeError, ValueError):  # pragma: no cover - exotic objects
        text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


_NO_VALUE: Any = object()
_NAME_START = r"""(?<![^\s"'“‘(\[])"""
"""Where a file's name may start in a message: at its start, or after white space, a quote
(straight or curly) or an opening bracket (:func:`name_replaced`)."""


@dataclass(frozen=True)
class Listing:
    """Every item of a list that a one-line message names only the first of (the
    look-alike pairs past the third), for a front end with room to list them all: the
    command line prints them above the error or warning; the studio marks its tiles.

    Attributes:
        title: What the items are, as a heading (``"the 10 pairs that look alike"``).
        items: Each item as a sentence of its own.
    """

    title: str
    items: tuple[str, ...]

    def lines(self) -> list[str]:
        """The listing as the command line prints it: the title, then each item, numbered."""
        width = len(str(len(self.items)))
        items = (f"  {k:>{width}}. {one_line(item)}" for k, item in enumerate(self.items, 1))
        return [f"printdeck: {self.title}:", *items]


MORE_NAMED = 3
"""Further problems named by their keys after the first problem's message; more are "..."."""


class PrintdeckError(Exception):
    """A problem the user can fix: bad theme, missing file, impossible deck.

    The CLI prints ``str(error)`` as one line on stderr and exits with status 2.
    The message names the key or file at fault and what would fix it; it is made
    one safe line here (:func:`one_line`), whatever file names it holds.

    An error made from fields is worded one way (:meth:`worded_as`)::

        <source>: <key>: <problem>, got <value>; <fix> (and N more problems: <keys>)

    each part only when it is known. A front end reads the fields, never the text:
    the studio attaches the error to the form's field ``key``; the command line
    words an argument's key as the option the user typed (:meth:`with_key`).

    Attributes:
        source: The file at fault (or ``<theme>``, ``<YAML text>``), if any.
        key: Where: a dotted theme key (``card.diameter``, ``symbols.3.scale``), or
            the name of the argument at fault when ``is_argument`` is true.
        value: The value refused (:attr:`has_value` says whether there is one).
        problem: What is wrong (``expected a whole number``); the whole message
            for an error made from a message only.
        fix: What would fix it, if the problem does not say.
        is_argument: ``key`` names an argument of the call (an API keyword, a
            command-line option), not a theme key.
        more: How many further problems the same input has.
        more_at: Where they are (their keys), said after the count: "(and 1 more problem:
            paper.size.1)", so a person fixing the first knows what is next.
        also: Other inputs with the same problem (their names, as the problem says them), so
            a front end can name them in its own words.
        code: A word for a program to act on, where one helps (``"too-few-symbols"``).

    Examples:
        >>> str(PrintdeckError(key="seed", value="7", problem="expected a whole number", is_argument=True))
        'seed: expected a whole number, got "7"'
        >>> str(PrintdeckError(source="pets.yaml", key="card", problem="unknown key 'diamter'",
        ...                    fix="did you mean 'diameter'?"))
        "pets.yaml: card: unknown key 'diamter'; did you mean 'diameter'?"
    """

    def __init__(
        self,
        message: str | None = None,
        *,
        source: str | None = None,
        key: str | None = None,
        value: object = _NO_VALUE,
        problem: str | None = None,
        fix: str | None = None,
        is_argument: bool = False,
        more: int = 0,
        code: str | None = None,
        also: tuple[str, ...] = (),
        more_at: tuple[str, ...] = (),
        listing: Listing | None = None,
    ) -> None:
        self.source = source
        self.key = key
        self.value = None if value is _NO_VALUE else value
        self.has_value = value is not _NO_VALUE
        self.problem = problem if problem is not None else (message or "")
        self.fix = fix
        self.is_argument = is_argument
        self.more = more
        self.more_at = more_at
        self.code = code
        self.also = also
        self.listing = listing
        self._message = message
        super().__init__(one_line(message if message is not None else self.worded_as()))

    def worded_as(self, key: str | None = None) -> str:
        """The fields as one message, with ``key`` in place of :attr:`key` if given."""
        if self._message is not None and key is None:
            return self._message
        where = key if key is not None else self.key
        if self.is_argument and where and self.source:  # the path given to an argument: ``-o x.pdf: ...``
            head = [f"{where} {self.source}"]
        else:
            head = [part for part in (self.source, where) if part]
        text = ": ".join([*head, self.problem])
        if self.has_value:
            text += f", got {show_value(self.value)}"
        if self.fix:
            text += f"; {self.fix}"
        if self.more:
            shown_at = ", ".join(self.more_at[:MORE_NAMED]) + (", ..." if len(self.more_at) > MORE_NAMED else "")
            text += (
                f" (and {self.more} more problem{'s' if self.more > 1 else ''}{': ' + shown_at if shown_at else ''})"
            )
        return text

    def _changed(self, **changes: Any) -> PrintdeckError:
        """A copy of this error with the fields in ``changes`` replaced, every other kept."""
        fields: dict[str, Any] = {
            "message": self._message,
            "source": self.source,
            "key": self.key,
            "value": self.value if self.has_value else _NO_VALUE,
            "problem": self.problem,
            "fix": self.fix,
            "is_argument": self.is_argument,
            "more": self.more,
            "more_at": self.more_at,
            "code": self.code,
            "also": self.also,
            "listing": self.listing,
        }
        return PrintdeckError(**{**fields, **changes})

    def with_key(self, key: str, *, is_argument: bool | None = None) -> PrintdeckError:
        """The same error with its key worded as ``key`` (e.g. the option ``--seed`` the
        user typed for the argument ``seed``); ``is_argument`` changes that flag too."""
        return self._changed(key=key, is_argument=self.is_argument if is_argument is None else is_argument)

    def with_more_at(self, more_at: tuple[str, ...]) -> PrintdeckError:
        """The same error with its further problems' places worded as ``more_at`` (a front
        end's own words for the keys: ``--paper (height)`` for ``paper.1``)."""
        return self._changed(more_at=more_at)

    def with_fix(self, fix: str) -> PrintdeckError:
        """The same error with ``fix`` as its fix (a front end saying it its own way: the
        command line names the option to pass); a message-only error keeps its message."""
        return self._changed(fix=fix)

    def reworded(self, message: str) -> PrintdeckError:
        """The same error (every field kept) with ``message`` as its text."""
        return self._changed(message=message)

    def keyed(self, key: str) -> PrintdeckError:
        """This error, or (when it names no key) the same error with ``key`` as its key:
        for a front end to attach it to the theme key that led to it."""
        return self if self.key is not None else self._changed(key=key)

    def prefixed(self, words: str) -> PrintdeckError:
        """The same error with ``words`` before its problem and its message (``"deck A, "``
        before ``"card 1: ..."``), every other field kept."""
        message = None if self._message is None else words + self._message
        return self._changed(message=message, problem=words + self.problem)

    def renamed(self, spelled: str, written: str) -> PrintdeckError:
        """The same error with a file's name ``spelled`` (as a check read it: the whole path)
        said as ``written`` (as the theme names it) in its problem and message, every other
        field kept; itself when it does not say ``spelled``. Only where ``spelled`` starts a
        name (the text's start, or after a space, quote or bracket): the same letters inside
        another path (``/data/home/ann/deck/x.png`` for ``/home/ann/deck/``) stay as they are.
        """
        if spelled == written or spelled not in str(self):
            return self
        message = None if self._message is None else name_replaced(self._message, spelled, written)
        return self._changed(message=message, problem=name_replaced(self.problem, spelled, written))

    def located(self, source: str) -> PrintdeckError:
        """The same error said of ``source`` (a theme file's name): its message starts
        ``"<source>: "``, every field kept."""
        return self._changed(message=f"{source}: {self}", source=source)

    def fields(self) -> dict[str, object]:
        """The fields as plain data (for JSON): source, key, value, problem, fix, is_argument, more,
        code, also (a list) and the whole ``message``."""
        return {
            "source": self.source,
            "key": self.key,
            "value": show_value(self.value) if self.has_value else None,
            "problem": self.problem,
            "fix": self.fix,
            "is_argument": self.is_argument,
            "more": self.more,
            "more_at": self.more_at,
            "code": self.code,
            "also": list(self.also),
            "message": str(self),
        }


UNREADABLE_PICTURE = "unreadable-picture"
"""``code`` of a picture printdeck cannot read (not a picture, or of a kind it does not read)."""
CUT_SHORT_PICTURE = "cut-short-picture"
"""``code`` of a picture of a kind printdeck reads whose file is cut short or damaged."""
UNREADABLE_FONT = "unreadable-font"
"""``code`` of a font file printdeck cannot read."""
SAME_PICTURE = "same-picture"
"""``code`` of a picture that is another symbol's picture again (``also`` holds the earlier one's theme key)."""
SAME_NAME = "same-name"
"""``code`` of a symbol named as an earlier one (``also`` holds the earlier one's theme key)."""
SAME_WORD = "same-word"
"""``code`` of a word listed twice (``also`` holds the earlier one's theme key)."""
REPEATS = frozenset({SAME_PICTURE, SAME_NAME, SAME_WORD})
"""The ``code`` of a symbol refused as a repeat of an earlier one: its ``also`` holds that
one's theme key (``symbols.3``, ``symbols.3.image``), not other inputs with the same problem."""
FOREIGN_OUTPUT = "foreign-output"
"""``code`` of a file where a build would write its manifest, extras PDF or cut file that
printdeck did not write (a user's own ``deck.json``): refused, never replaced."""
LOW_RESOLUTION = "low-resolution"
"""``code`` of a picture with too few pixels for the size it prints at (under 150 dpi)."""
NO_FONT_HAS = "no-font-has"
"""``code`` of a word some character of which no font draws (``value``: the word)."""
LOOK_ALIKE = "look-alike"
"""``code`` of symbols players cannot tell apart (``key``: ``symbols``; ``problem``: the pairs, named)."""
CARD_LAYOUT = "card-layout"
"""``code`` of a card that cannot be laid out (``problem``: ``card 24: ...``, counted from 1;
a class set names its deck too: ``deck B, card 24: ...``)."""


_THEME_KEY = re.compile(r"[A-Za-z_][\w-]*(\.[\w-]+)*")


def key_error(where: str, text: str, **fields: Any) -> PrintdeckError:
    """An error about the theme key ``where`` (``symbols.3.image``, or with the file it
    read: ``symbols.3.image (cat.png)``): the message ``"<where>: <text>"``, the key kept
    as a field (without the file) for a front end to attach it to, ``text`` as the problem.
    A ``where`` that is no dotted key (``symbol 'cat'``) gives no key: the caller that knows
    the theme entry adds it (:meth:`PrintdeckError.keyed`).

    Examples:
        >>> key_error("symbols.3.image (cat.png)", "is empty").key
        'symbols.3.image'
        >>> key_error("symbol 'cat'", "is empty").key is None
        True
    """
    return PrintdeckError(f"{where}: {text}", key=key_of(where), **{"problem": text, **fields})


def key_of(where: str) -> str | None:
    """The key a message's ``where`` names: a dotted theme key (``symbols.3.image`` of
    ``symbols.3.image (cat.png)``) or an option (``--words``); ``None`` for a ``where`` that
    is neither (``symbol 'cat'``)."""
    key = where.partition(" (")[0]
    return key if _THEME_KEY.fullmatch(key) or (key.startswith("-") and _THEME_KEY.fullmatch(key.lstrip("-"))) else None


def file_error(path: str | PathLike[str], text: str, **fields: Any) -> PrintdeckError:
    """An error about the file ``path`` (a theme, a deck file): the message
    ``"<path>: <text>"``, the file kept as ``source`` for a front end.

    Examples:
        >>> file_error("deck.csv", "no cards found").source
        'deck.csv'
    """
    return PrintdeckError(f"{shown(path)}: {text}", source=shown(path), problem=text, **fields)


def path_error(argument: str, path: str | PathLike[str], problem: str, fix: str | None = None) -> PrintdeckError:
    """An error about the path given to the argument ``argument`` (``out``, ``png_dir``):
    ``key`` is the argument (``is_argument`` set, so the command line words it as the
    option typed, ``-o``, and the studio attaches it to its field), ``source`` the path.

    Examples:
        >>> str(path_error("out", "missing/deck.pdf", "folder missing does not exist", "create it"))
        'out missing/deck.pdf: folder missing does not exist; create it'
    """
    return PrintdeckError(source=shown(path), key=argument, problem=problem, fix=fix, is_argument=True)


def warning_lines(caught: Iterable[warnings.WarningMessage], *, listings: bool = False) -> list[str]:
    """printdeck's warnings as the command line and the studio show them: each distinct one
    once, as ``printdeck: warning: <one line>`` (only ``UserWarning`` kinds: not a stray
    ``ResourceWarning`` of the interpreter's); with ``listings``, a warning's
    :class:`Listing` (a :class:`LookAlikeWarning`'s every pair) above it."""
    said: dict[str, Listing | None] = {}
    for w in caught:
        if issubclass(w.category, UserWarning):
            said.setdefault(one_line(str(w.message)), getattr(w.message, "listing", None))
    lines: list[str] = []
    for text, listing in said.items():
        if listings and listing is not None:
            lines += listing.lines()
        lines.append(f"printdeck: warning: {text}")
    return lines


class PinWarning(UserWarning):
    """A pin left out: its card shows other symbols than when it was pinned, or the deck
    has no such card any more.

    Attributes:
        card: The card (1-based, of one deck) whose entry is left out.
        moved_to: The card (1-based) that now shows the symbols it was pinned on, or None.
        deck_cards: When the deck has no such card any more, how many cards it has.
    """

    def __init__(self, message: str, card: int = 0, moved_to: int | None = None, deck_cards: int | None = None) -> None:
        super().__init__(message)
        self.card, self.moved_to, self.deck_cards = card, moved_to, deck_cards


class LookAlikeWarning(UserWarning):
    """Two symbols players may not tell apart (allowed with ``--allow-look-alike``, or seen
    so only in grey or with a colour-vision deficiency).

    Attributes:
        listing: Every pair, when the message names only the first (:class:`Listing`), or None.
    """

    def __init__(self, message: str, listing: Listing | None = None) -> None:
        super().__init__(message)
        self.listing = listing
