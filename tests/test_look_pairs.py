"""Look-alike verdicts kept pair by pair (issue 29): a new seed of a deck whose symbols were
compared before, in other company and another order, draws and compares nothing, and every
verdict equals the full comparison's (:func:`printdeck.artwork.find_look_alikes`) whatever
was kept, for every vision asked for."""

from __future__ import annotations

import dataclasses
import importlib
import shutil
from collections.abc import Sequence
from pathlib import Path

import pytest
from test_concepts_lookalikes import TWEMOJI, _fixture_theme
from test_speed_caches import cache

from printdeck import load_theme
from printdeck.artwork import Look, LookAlike, Vision, find_look_alikes
from printdeck.model import SymbolSpec
from printdeck.theme import look_alikes
from printdeck.theme.spec import Theme

__all__ = ["cache"]  # the disk-cache fixture of test_speed_caches

module = importlib.import_module("printdeck.theme.look_alikes")  # the package exports a function of that name
VISIONS = [
    (Vision.NORMAL,),
    (Vision.NORMAL, Vision.GREY),
    (Vision.NORMAL, Vision.PROTANOPIA, Vision.DEUTERANOPIA, Vision.TRITANOPIA),
]


Faces = list[tuple[SymbolSpec, str, int, float]]


def _full_comparison(faces: Faces, visions: tuple[Vision, ...]) -> list[LookAlike]:
    """The comparison before pairs were kept: every pair of freshly made looks."""
    looks = [
        dataclasses.replace(module._look(face, turn), label=label, group=group) for face, label, group, turn in faces
    ]
    return find_look_alikes(looks, visions)


def _fresh(cache: Path) -> None:
    """Forget whole verdicts and every in-process memo (the pairs' entries stay)."""
    shutil.rmtree(cache / "lookalikes", ignore_errors=True)
    module._POSES.clear()
    module._look.cache_clear()


def _reference(
    theme: Theme, symbols: Sequence[SymbolSpec], visions: tuple[Vision, ...], cache: Path
) -> list[LookAlike]:
    _fresh(cache)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(module, "_compared", _full_comparison)
        mp.setenv("PRINTDECK_NO_CACHE", "1")
        return look_alikes(theme, symbols, visions)


def _mixed_theme(folder: Path) -> Theme:
    """True look-alikes (discs, a rabbit turned and mirrored, a word in Cyrillic letters)
    among 16 distinct Twemoji."""
    theme = load_theme(_fixture_theme(folder))
    more = load_theme({"symbols": [{"image": str(p)} for p in sorted(TWEMOJI.glob("*.svg"))[::9][:16]]})
    symbols = [*theme.symbols, *(dataclasses.replace(s, id=len(theme.symbols) + k) for k, s in enumerate(more.symbols))]
    return dataclasses.replace(theme, symbols=symbols)


def test_kept_pairs_give_the_full_comparisons_verdicts(tmp_path: Path, cache: Path) -> None:
    theme = _mixed_theme(tmp_path / "theme")
    symbols = list(theme.symbols)
    for visions in VISIONS:  # each later vision set finds the colours of some pairs kept, not all
        expected = _reference(theme, symbols, visions, cache)
        assert {tuple(sorted((p.first, p.second))) for p in expected} >= {("rabbit", "rabbit turned")}
        _fresh(cache)
        assert look_alikes(theme, symbols, visions) == expected
        _fresh(cache)
        assert look_alikes(theme, symbols, visions) == expected  # now every pair from the cache
    kept = len(list((cache / "lookpairs").glob("*.json")))  # one entry a face, but for the shipped
    assert len(symbols) - 16 <= kept <= len(symbols)  # Twemoji with nothing new under them


def test_a_new_seed_of_symbols_compared_before_draws_nothing(tmp_path: Path, cache: Path) -> None:
    theme = _mixed_theme(tmp_path / "theme")
    symbols = list(theme.symbols)
    evens, odds = symbols[::2], symbols[1::2]
    half_e, half_o = len(evens) // 2, len(odds) // 2
    for earlier in (  # every pair of the deck in some earlier deck, none of them the whole deck
        evens,
        odds,
        evens[:half_e] + odds[:half_o],
        evens[half_e:] + odds[half_o:],
        evens[:half_e] + odds[half_o:],
        evens[half_e:] + odds[:half_o],
    ):
        look_alikes(theme, earlier)
    chosen = list(reversed(symbols))  # another order too, as a new seed gives
    expected = _reference(theme, chosen, (Vision.NORMAL,), cache)

    def refuse(*args: object) -> Look:
        raise AssertionError(f"drawn again: {args[0]!r}")

    _fresh(cache)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(module, "look_of", refuse)
        kept = look_alikes(theme, chosen)
    assert kept == expected
    assert any(p.second == "rabbit turned" or p.first == "rabbit turned" for p in kept)


@pytest.mark.parametrize(("pairs", "named", "counted"), [(3, 3, ""), (4, 4, ""), (5, 3, "; and 2 more pairs")])
def test_one_pair_more_than_named_is_named_not_counted(pairs: int, named: int, counted: str) -> None:
    """'... ; and 1 more pair' made a parent hunt for the one pair a line could have named."""
    from dataclasses import dataclass

    from printdeck.theme.look_alikes import _sentence

    @dataclass
    class Pair:
        first: str
        second: str

        def reason(self) -> str:
            return f"{self.first!r} and {self.second!r} look alike"

    found = [Pair(f"a{k}", f"b{k}") for k in range(pairs)]
    said = _sentence(found)  # type: ignore[arg-type]
    assert [f"'a{k}'" in said for k in range(pairs)] == [k < named for k in range(pairs)]
    assert said.endswith(counted or "look alike")
