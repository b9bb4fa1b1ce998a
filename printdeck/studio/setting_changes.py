"""A studio setting change applied to the theme: the page's deck settings, a new seed and a
card's re-roll, each checked by printdeck's theme model before it is saved.

A value the model refuses for the very key that was changed (a card of "big" mm, a clash
with a setting the theme did not have before) is not saved: :class:`Refused` names the key
and the page shows why beside its field. Any other problem (too few symbols for the deck)
is saved with the change (see :mod:`printdeck.studio.workspace`).
"""

from __future__ import annotations

import secrets

from printdeck.api import SEED_MAX
from printdeck.studio import deck_settings
from printdeck.studio.wording import Problem, touches
from printdeck.studio.workspace import Refused, Workspace

MAX_SEED = SEED_MAX


def change_settings(space: Workspace, changes: dict[str, object]) -> None:
    """Set theme keys (dotted) to values; ``None`` restores a key's default.

    Raises:
        ValueError: a key the settings do not have, or a value no theme holds.
        Refused: the theme model refuses a changed key's value (nothing is saved).
    """
    with space.lock:
        before = {k: v for k, v in space.doc().items() if k != "symbols"}
        doc = before
        for key, value in changes.items():
            doc = deck_settings.with_change(doc, key, deck_settings.checked_value(key, value))
        symbols = [i.data for i in space.items]
        _, problem = space.check({**doc, "symbols": symbols})
        blamed = _blamed_setting(space, problem, changes)
        for key in changes:
            if problem is not None and key == blamed:
                space.field_errors[key] = problem.words
                raise Refused(problem, key)
            space.field_errors.pop(key, None)
        space.commit(settings=doc)


def _blamed_setting(space: Workspace, problem: Problem | None, changes: dict[str, object]) -> str | None:
    """The changed key a problem of the changed theme is blamed on: the key it names, or
    (a clash with another setting the theme did not have before: "only round cards have
    one") the first changed key; None when the change is not at fault."""
    if problem is None:
        return None
    named = next((key for key in changes if touches(problem.key, key)), None)
    if named is not None:
        return named
    if problem.key is None or problem.key.split(".")[0] not in deck_settings.SETTING_SECTIONS:
        return None  # about the symbols (too few for the deck...): not this change's
    earlier = space.snapshot().problem  # the saved theme's, already loaded: not loaded again
    return next(iter(changes)) if earlier is None or earlier.key != problem.key else None


def new_seed(space: Workspace) -> int:
    """Choose a new random seed for the deck (a new shuffle and new layouts)."""
    seed = secrets.randbelow(MAX_SEED)
    change_settings(space, {"seed": seed})
    return seed


def reroll_card(space: Workspace, card_number: int) -> int:
    """Lay out card ``card_number`` (1-based) again, differently: its
    ``layout.reroll`` attempt goes up by one. Returns the new attempt.

    Raises:
        Refused: the theme model has no such card or no re-rolls.
    """
    with space.lock:
        layout = dict(space.settings.get("layout") or {})
        reroll = {int(k): int(v) for k, v in dict(layout.get("reroll") or {}).items()}
        reroll[card_number] = reroll.get(card_number, 0) + 1
        layout["reroll"] = dict(sorted(reroll.items()))
        settings = {**space.settings, "layout": layout}
        _, problem = space.check({**settings, "symbols": [i.data for i in space.items]})
        if problem is not None and touches(problem.key, "layout.reroll"):
            raise Refused(problem, "layout.reroll")
        space.commit(settings=settings)
        return reroll[card_number]
