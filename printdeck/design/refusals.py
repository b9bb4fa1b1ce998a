"""Refused design requests, as data each caller words with its own names.

:func:`~printdeck.design.make_design` and the deck-size checks raise a
:class:`DesignRequestError`: it records which keyword of ``make_design`` is at fault
(``order``, ``symbols_per_card``, ``match``, ``cards``) and the facts (``k``, λ, why
no design exists, the nearest sizes that do). ``str(error)`` spells the keywords as
Python does (``symbols_per_card=7: ...; or pass search=True ...``);
:meth:`DesignRequestError.worded` spells them as a theme (``deck.symbols_per_card:
...; or set search: true``) or a command line (``-k 7: ...; or add --search``) does.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from printdeck.errors import PrintdeckError


@dataclass(frozen=True)
class Spelling:
    """How a caller writes ``make_design``'s keywords in its messages.

    Templates hold ``{name}`` (the caller's name for the keyword) and ``{value}``.

    Attributes:
        names: Keyword -> the caller's name for it (``"symbols_per_card"`` -> ``"-k"``);
            a keyword not listed keeps its own name.
        label: The message's start, naming the keyword at fault: ``"{name}={value}"``
            (Python), ``"deck.{name}"`` (a theme), ``"{name} {value}"`` (a command line).
        setting: "Set the keyword to a value": ``"{name}={value}"``, ``"{name}: {value}"``,
            ``"{name} {value}"``.
        switch_on: "Turn a switch on", as a phrase: ``"pass {name}=True"``,
            ``"set {name}: true"``, ``"add {name}"``.
    """

    names: Mapping[str, str] = field(default_factory=dict)
    label: str = "{name}={value}"
    setting: str = "{name}={value}"
    switch_on: str = "pass {name}=True"

    def name(self, keyword: str) -> str:
        """The caller's name for ``keyword``."""
        return self.names.get(keyword, keyword)

    def set(self, keyword: str, value: object) -> str:
        """``keyword`` set to ``value``, as the caller writes it (``match: 2``, ``--match 2``)."""
        return self.setting.format(name=self.name(keyword), value=value)

    def turn_on(self, keyword: str) -> str:
        """The phrase turning the switch ``keyword`` on (``set search: true``, ``add --search``)."""
        return self.switch_on.format(name=self.name(keyword))


PYTHON_SPELLING = Spelling()
"""Keywords as ``make_design`` takes them: the wording of ``str(error)``."""


@dataclass(eq=False)
class DesignRequestError(PrintdeckError):
    """A request for a design that cannot be met: a keyword out of range, keywords that
    disagree, or a size no design exists for (:class:`NoDesign`).

    Attributes:
        argument: The ``make_design`` keyword at fault (``"order"``, ``"symbols_per_card"``,
            ``"match"``, ``"cards"``), or ``""`` when no single one is.
        value: Its value as given.
    """

    argument: str
    value: int | None = None

    def __post_init__(self) -> None:
        super().__init__(self.worded(PYTHON_SPELLING), key=self.argument or None, value=self.value)

    def __reduce__(self) -> tuple[Any, ...]:  # pickles by its fields, not its message
        return (type(self), tuple(getattr(self, f.name) for f in dataclasses.fields(self)))

    def problem_in(self, spelling: Spelling) -> str:
        """What is wrong and how to fix it, after the label (subclasses say)."""
        raise NotImplementedError

    def worded(self, spelling: Spelling) -> str:
        """The one-line message in the caller's names: ``"<label>: <problem>"``.

        Args:
            spelling: The caller's names for ``make_design``'s keywords.
        """
        text = self.problem_in(spelling)
        if not self.argument:
            return text
        return f"{spelling.label.format(name=spelling.name(self.argument), value=self.value)}: {text}"


@dataclass(eq=False)
class NoDesign(DesignRequestError):
    """No design with ``symbols_per_card`` symbols a card and λ = ``match`` exists, or none is known.

    Attributes:
        symbols_per_card: k asked for.
        match: λ asked for (1 or 2).
        reason: Why there is none, as a clause naming the theorem (``"no projective plane of
            order 6 exists (Bruck–Ryser theorem 1949: ...)"``).
        nearest: ``(k, cards)`` of the closest sizes below and above that exist, ascending.
        known: Every k a design of this λ is known for, when they are few (biplanes); else ().
        searched: A search was asked for, which builds partial decks for λ = 1 only (a
            λ = 2 refusal says so).
    """

    symbols_per_card: int = 0
    match: int = 1
    reason: str = ""
    nearest: tuple[tuple[int, int], ...] = ()
    known: tuple[int, ...] = ()
    searched: bool = False

    def problem_in(self, spelling: Spelling) -> str:
        k = self.symbols_per_card
        if self.match == 1:
            near = " or ".join(f"{m} (order {m - 1}, {cards} cards)" for m, cards in self.nearest)
            return (
                f"{k} symbols a card needs a projective plane of order {k - 1}, but {self.reason}; "
                f"use {near} symbols a card, or {spelling.turn_on('search')} for the largest partial deck "
                "printdeck can build"
            )
        near = " or ".join(str(m) for m, _ in self.nearest)
        known = ", ".join(str(m) for m in self.known[:-1]) + f" or {self.known[-1]}" if self.known else "none"
        search = f"; {spelling.name('search')} is for {spelling.set('match', 1)} only" if self.searched else ""
        return (
            f"{self.reason}; with {spelling.set('match', self.match)} use {near} symbols a card "
            f"(biplanes exist for {known}), or {spelling.set('match', 1)}{search}"
        )


@dataclass(eq=False)
class UnsupportedMatch(DesignRequestError):
    """λ is neither 1 nor 2."""

    def problem_in(self, spelling: Spelling) -> str:
        return f"{self.value} is not supported; use 1 (Dobble) or 2 (two shared symbols)"


@dataclass(eq=False)
class SizeMissing(DesignRequestError):
    """Neither ``order`` nor ``symbols_per_card`` was given."""

    def problem_in(self, spelling: Spelling) -> str:
        return f"give {spelling.name('symbols_per_card')} (e.g. 8) or {spelling.name('order')} (e.g. 7)"


@dataclass(eq=False)
class TooSmall(DesignRequestError):
    """``order``, ``symbols_per_card`` or ``cards`` below its least value.

    Attributes:
        least: The least value allowed.
    """

    least: int = 1

    def problem_in(self, spelling: Spelling) -> str:
        return f"{self.value} is too small; use at least {self.least}"


@dataclass(eq=False)
class SizesDisagree(DesignRequestError):
    """``order`` and ``symbols_per_card`` were both given and disagree (``argument`` is ``order``).

    Attributes:
        symbols_per_card: k given.
        match: λ.
    """

    symbols_per_card: int = 0
    match: int = 1

    def problem_in(self, spelling: Spelling) -> str:
        from_order = (self.value or 0) + self.match
        return (
            f"order {self.value} means {from_order} symbols a card with match {self.match}, but "
            f"{spelling.name('symbols_per_card')} is {self.symbols_per_card}; give only one of them"
        )


@dataclass(eq=False)
class TooManyCards(DesignRequestError):
    """More cards asked for than the design has (``argument`` is ``cards``).

    Attributes:
        full: Cards of the whole design.
        symbols_per_card: k.
    """

    full: int = 0
    symbols_per_card: int = 0

    def problem_in(self, spelling: Spelling) -> str:
        return (
            f"{self.value} is more than the {self.full} cards of the deck with {self.symbols_per_card} "
            f"symbols a card; give at most {self.full}, or more symbols a card"
        )
