"""The page's own words for a library error: the control it names, by its visible label
(``Card size``, ``Font``, ``Symbols``), and what to do, built from the error's fields
(``key``, ``code``, ``value``, ``problem``, ``fix``) and the form description the page
is drawn from (labels, bounds, choices), never by reading the message. The command
line keeps its own wording (``str(error)``).

``Card size must be a length such as 85 mm (a number, then mm, cm, in or pt)``
``The deck needs 57 symbols and has 45: add 12 more under Symbols, or choose fewer Symbols a card``
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import printdeck.api
from printdeck.errors import (
    CUT_SHORT_PICTURE,
    FOREIGN_OUTPUT,
    LOOK_ALIKE,
    LOW_RESOLUTION,
    NO_FONT_HAS,
    REPEATS,
    SAME_NAME,
    SAME_PICTURE,
    SAME_WORD,
    UNREADABLE_FONT,
    UNREADABLE_PICTURE,
    PrintdeckError,
    show_value,
    shown,
)
from printdeck.studio.deck_settings import SETTING_KEYS, form_description
from printdeck.studio.labels import label_of
from printdeck.studio.symbol_list import name_in_theme

TOO_FEW_SYMBOLS = "too-few-symbols"
SYMBOLS_PANEL = "Symbols"
"""The heading of the page's symbols panel."""
LENGTH_UNITS = "a number, then mm, cm, in or pt"

_FILE_WORDS = {
    UNREADABLE_PICTURE: "this file cannot be read as a picture (it may be damaged, cut short or of a kind "
    "printdeck does not read): save it as PNG or JPEG and add it again",
    CUT_SHORT_PICTURE: "this picture's file is cut short or damaged, so part of it would print grey or blurred: "
    "copy it again from the phone, camera or page it came from (or open it in a photo editor and save it "
    "again), then add it again",
    SAME_WORD: "this word is in the deck already: each word goes in once",
    LOW_RESOLUTION: "this picture has too few pixels to print sharp at its size on the cards: use a larger "
    "picture, or a smaller Size on the cards",
}


SAME_FACE_WORDS = (
    "this word is in the deck already, as a face of another symbol: each word goes in once. To show "
    "that symbol another way too (2 × 6 beside 3 × 4 = 12), add the new word alone, then join it to "
    "that symbol with Add as a face in its panel"
)
"""What a concept's line that repeats another concept's word is told (the command line's fix
names theme keys: one faces: list)."""


@dataclass(frozen=True)
class Words:
    """A message as the page shows it: ``subject`` names the control (its label, or
    ``Symbol 4``; empty when the message stands beside what it is about), ``sentence``
    says what is wrong and what to do; ``own``: the sentence is the page's own (not the
    library's problem, which may start with a file's name), so it may start a message."""

    subject: str
    sentence: str
    own: bool = True

    def alone(self) -> str:
        """The sentence as a message of its own (on a tile that names itself)."""
        return _capital(self.sentence) if self.own else self.sentence

    def __str__(self) -> str:
        if not self.subject:
            return self.alone()
        return (
            f"{self.subject} {self.sentence}"
            if self.sentence.startswith("must ")
            else f"{self.subject}: {self.sentence}"
        )


_THEME_KEYS = re.compile(r" \(symbols\.\d+ and symbols\.\d+\)")
"""The theme keys a look-alike refusal gives a pair whose names read the same (for a theme file)."""


def _missing_emoji(exc: PrintdeckError) -> str | None:
    """A word holding an emoji no font here has, in the page's words: a picture of it
    instead (and the word to search printdeck's pictures by when one is bundled), or the
    word without it."""
    from printdeck.emoji_names import bundled_picture, described, emoji_in, emoji_name  # noqa: PLC0415

    text = (exc.value if exc.has_value and isinstance(exc.value, str) else "").strip()
    found = emoji_in(text)
    if not found:
        return None
    names = [emoji_name(seq) for seq in found]
    if found == [text]:
        head = f"\u201c{text}\u201d{f' ({names[0]})' if names[0] else ''} is an emoji no font here can draw: "
        other, instead = "drop one", "drop a picture of it instead"
    else:
        said = ", ".join(described(seq) for seq in found)
        head = f"\u201c{text}\u201d holds an emoji, {said}, no font here can draw: "
        other, instead = "type the word without it", "drop a picture of it, or type the word without it"
    if len(found) == 1 and names[0] and bundled_picture(found[0]) is not None:
        return head + f"pick its picture from printdeck\u2019s pictures (search \u201c{names[0]}\u201d), or {other}"
    return head + instead


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def setting_of(key: str | None) -> str | None:
    """The setting a key belongs to: itself, or the longest setting holding it
    (``paper.size.0`` -> ``paper.size``, ``card.size.length`` -> ``card.size``)."""
    parts = (key or "").split(".")
    for end in range(len(parts), 0, -1):
        candidate = ".".join(parts[:end])
        if candidate in SETTING_KEYS:
            return candidate
    return None


def plain_words(exc: PrintdeckError, doc: Mapping[str, Any] | None = None) -> Words:
    """``exc`` in the page's words (see the module's docstring).

    Args:
        exc: The library's error.
        doc: The theme mapping the error came from (its ``deck`` section tells how many
            symbols the deck needs), if known.
    """
    key = None if exc.is_argument else exc.key
    if exc.code == TOO_FEW_SYMBOLS:
        return _too_few(exc, doc or {})
    if exc.code == NO_FONT_HAS:
        emoji = _missing_emoji(exc)
        if emoji is not None:
            return Words("", emoji)
        word = show_value(exc.value) if exc.has_value else "a word"
        return Words(
            "",
            f"no font here has every letter of {word}: choose a font file that has them under {label_of('text.font')}",
        )
    if exc.code == LOOK_ALIKE:  # the pairs as the library names them, the fix in the page's words
        allow = label_of("deck.allow_look_alike")
        pairs = _THEME_KEYS.sub("", exc.problem)  # the page has no theme keys: its tiles show the pairs
        return Words(
            SYMBOLS_PANEL,
            f"{pairs}; change or remove one of each pair, or tick \u201c{allow}\u201d to print them with a warning",
            own=False,
        )
    if exc.code == FOREIGN_OUTPUT:  # the page has no output name to choose: the file is to move
        named = bool(exc.source) and str(exc.problem or "").startswith(Path(str(exc.source)).name)
        return Words(  # a problem that starts with the file's name keeps it as it is spelt
            "", f"{exc.problem}: move that file out of the deck's output folder, then build again", own=not named
        )
    if exc.code == UNREADABLE_FONT:
        return Words(label_of("text.font"), "this file cannot be read as a font: choose a .ttf, .otf or .ttc file")
    index = index_in_symbols(key)
    if index is not None:
        return _about_symbol(exc, index, (key or "").split(".")[2:], doc or {})
    if key == "symbols":
        return Words(SYMBOLS_PANEL, _said(exc), own=False)
    setting = setting_of(key)
    if setting is not None:
        spec = form_description()["fields"].get(setting, {})
        return Words(spec.get("label") or label_of(setting), _what_to_do(exc, spec))
    return Words(_where(exc), _said(exc), own=False)


def _also(exc: PrintdeckError, most: int = 5) -> str:
    """``; so do 3 more pictures: b.jpg, c.jpg, d.jpg``: the other files with the same
    problem (``exc.also``), so all are replaced at once; empty for none."""
    if not exc.also:
        return ""
    named = ", ".join(exc.also[:most]) + (f" and {len(exc.also) - most} more" if len(exc.also) > most else "")
    return f"; so do {len(exc.also)} more picture{'s' if len(exc.also) > 1 else ''}: {named}"


def _about_symbol(exc: PrintdeckError, index: int, rest: list[str], doc: Mapping[str, Any]) -> Words:
    """An error about ``symbols.<index>``: said of the tile numbered ``index + 1``."""
    subject = f"Symbol {index + 1}"
    if exc.code == SAME_WORD and ".faces." in (exc.key or "") and "faces: list" in str(exc):  # two concepts' word
        return Words(subject, SAME_FACE_WORDS)
    if exc.code == SAME_PICTURE:  # which tile it repeats, as the page shows that tile
        return Words(subject, same_picture_words(_earlier_tile(exc, doc)))
    if exc.code in _FILE_WORDS:
        return Words(subject, _FILE_WORDS[exc.code] + ("" if exc.code in REPEATS else _also(exc)))
    if exc.code == SAME_NAME and exc.also:  # the earlier symbol by its tile's number, not its theme key
        earlier = exc.also[0].split(".")[-1]
        number = f"Symbol {int(earlier) + 1}'s" if earlier.isdigit() else "another symbol's"
        return Words(subject, f"this name is already {number}: rename one of the two")
    if exc.code in _MUST and rest:
        return Words(f"{subject}'s {rest[0].replace('_', ' ')}", _what_to_do(exc, {}))
    return Words(subject, _said(exc), own=False)


def _earlier_tile(exc: PrintdeckError, doc: Mapping[str, Any]) -> str:
    """The symbol a repeat repeats (the theme key ``exc.also`` names), as its tile shows
    it: ``Symbol 8, “cat”`` (its number, and its name when ``doc`` holds it);
    ``another symbol`` when the error names none."""
    index = index_in_symbols(exc.also[0] if exc.also else None)
    if index is None:
        return "another symbol"
    symbols = doc.get("symbols")
    raw = symbols[index] if isinstance(symbols, list) and index < len(symbols) else None
    return f"Symbol {index + 1}" if raw is None else tile_named(index, name_in_theme(raw))


def tile_named(index: int, name: str) -> str:
    """The symbol at ``index`` of ``symbols:`` as its tile shows it: ``Symbol 8, “cat”``."""
    return f"Symbol {index + 1}, “{shown(name)}”"


def same_picture_words(earlier: str) -> str:
    """What a picture refused as a copy of the symbol ``earlier`` (:func:`tile_named`) is
    told: the page's words, said again as that symbol moves (:meth:`Workspace.view`)."""
    return f"this is the same picture as {earlier}: each picture goes in the deck once"


def index_in_symbols(key: str | None) -> int | None:
    """The position in ``symbols:`` a theme key names (``symbols.3.image`` -> 3), if any."""
    parts = (key or "").split(".")
    return int(parts[1]) if len(parts) > 1 and parts[0] == "symbols" and parts[1].isdigit() else None


def _where(exc: PrintdeckError) -> str:
    """Where a key the page has no control for is: the theme file's key, plainly."""
    if exc.key and not exc.is_argument:
        return f"theme.yaml, {exc.key}"
    return ""


def _said(exc: PrintdeckError) -> str:
    """The error's own problem and fix (its fields), for a problem no code names, each theme
    key of a setting it names given as the page's label for it (``card.shape`` as
    ``Card shape``): the page shows no theme keys."""
    said = f"{exc.problem}; {exc.fix}" if exc.fix else exc.problem
    return _SETTING_KEY.sub(lambda found: f"{found.group(1)}\u201c{label_of(found.group(2))}\u201d", said)


_SETTING_KEY = re.compile(
    r"(^|[\s(\[])("
    + "|".join(re.escape(k) for k in sorted(SETTING_KEYS, key=len, reverse=True) if "." in k)
    + r")(?!\w|\.\w|-)"
)
"""A setting's theme key standing as a word of a message (after a space or a bracket, not
inside a file name or a longer key; a full stop may end it), given as its label in quotes."""


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def _bound(spec: Mapping[str, Any], *names: str) -> tuple[str, float] | None:
    for name in names:
        if name in spec:
            return name, float(spec[name])
    return None


def _unit(spec: Mapping[str, Any]) -> str:
    return " mm" if spec.get("unit") == "mm" else ""


def _too_small(spec: Mapping[str, Any]) -> str | None:
    found = _bound(spec, "minimum", "exclusiveMinimum")
    if found is None:
        return None
    word = "at least" if found[0] == "minimum" else "more than"
    return f"must be {word} {_number(found[1])}{_unit(spec)}"


def _too_large(spec: Mapping[str, Any]) -> str | None:
    found = _bound(spec, "maximum", "exclusiveMaximum")
    if found is None:
        return None
    word = "at most" if found[0] == "maximum" else "less than"
    return f"must be {word} {_number(found[1])}{_unit(spec)}"


def _example(spec: Mapping[str, Any], fallback: str) -> str:
    default = spec.get("default")
    if isinstance(default, (int, float)) and not isinstance(default, bool):
        return _number(default)
    return fallback


def _length(spec: Mapping[str, Any]) -> str:
    default = spec.get("default")
    example = default.replace("mm", " mm") if isinstance(default, str) and default.endswith("mm") else "85 mm"
    names = [str(c) for c in spec.get("choices", [])]
    either = f", or one of {', '.join(names)}" if names else ""
    return f"must be a length such as {example} ({LENGTH_UNITS}){either}"


def _choices(spec: Mapping[str, Any]) -> str:
    names = [("on" if c is True else "off" if c is False else str(c)) for c in spec.get("choices", [])]
    return f"choose one of the list ({', '.join(names)})" if names else "choose one of the list"


_MUST = {
    "not-a-length": _length,
    "too-small": _too_small,
    "too-large": _too_large,
    "not-a-choice": _choices,
    "not-a-whole-number": lambda spec: f"must be a whole number, such as {_example(spec, '3')}",
    "not-a-number": lambda spec: f"must be a number, such as {_example(spec, '1.5')}",
    "not-yes-no": lambda spec: "must be on or off (true or false in theme.yaml)",
    "not-a-colour": lambda spec: "must be a colour such as #ff8800, #f80 or orange",
    "not-a-name": lambda spec: "must be a short name of letters, digits, - _ or .",
    "not-a-language": lambda spec: "must be a language code such as fr, ja or zh-Hans (not its name)",
    "not-text": lambda spec: "must be text",
    "missing": lambda spec: "must be given",
}


def _what_to_do(exc: PrintdeckError, spec: Mapping[str, Any]) -> str:
    """What a setting must be, in words from its code and the form's facts (bounds,
    choices, default); the error's own problem and fix when no code names it."""
    make = _MUST.get(exc.code or "")
    said = make(spec) if make is not None else None
    return said if said is not None else _said(exc)


def _too_few(exc: PrintdeckError, doc: Mapping[str, Any]) -> Words:
    """``The deck needs 57 symbols and has 45: add 12 more ...``: the count from the
    design printdeck makes for the theme's deck section."""
    have = exc.value if isinstance(exc.value, int) else 0
    section = doc.get("deck")
    deck: Mapping[str, Any] = section if isinstance(section, dict) else {}
    match = deck.get("match", 1) if deck.get("match") in (1, 2) else 1
    per_card = deck.get("symbols_per_card")
    if not isinstance(per_card, int) and isinstance(deck.get("order"), int):
        per_card = deck["order"] + match
    table = printdeck.api.deck_size_table(match)
    rows = [row for row in table if row["symbols_per_card"] == per_card] if isinstance(per_card, int) else table[:1]
    fewer = label_of("deck.symbols_per_card")
    if not rows:  # a size no known design has: the search makes a deck of one symbol a card more
        return Words(SYMBOLS_PANEL, _said(exc), own=False)
    needed = rows[0]["cards"]
    more = max(needed - have, 0)
    if isinstance(per_card, int):
        return Words(
            "",
            f"the deck needs {needed} symbols and has {have}: add {more} more under {SYMBOLS_PANEL}, "
            f"or choose fewer {fewer}",
        )
    return Words("", f"the smallest deck needs {needed} symbols and has {have}: add {more} more under {SYMBOLS_PANEL}")
