"""Each drawing's look kept in the disk cache (issue 29): a picture's pixels, measures and
coarse ink are made once and read back exactly, so a new seed's look-alike check draws and
measures no drawing seen before, and every verdict is the same with and without the cache."""

from __future__ import annotations

import dataclasses
import importlib
import shutil
from pathlib import Path

import numpy as np
import pytest
from test_look_pairs import VISIONS, _mixed_theme
from test_speed_caches import cache

from printdeck.artwork import binary_entry, look_of
from printdeck.theme import look_alikes
from printdeck.theme.spec import Theme

__all__ = ["cache"]  # the disk-cache fixture of test_speed_caches

checks = importlib.import_module("printdeck.theme.look_alikes")  # the package exports a function of that name
looks = importlib.import_module("printdeck.artwork.look_raster")
raster = importlib.import_module("printdeck.artwork.raster")


def _forget(cache: Path) -> None:
    """Forget every verdict (whole and by pair) and every in-process memo: only the looks stay."""
    for folder in ("lookalikes", "lookpairs"):
        shutil.rmtree(cache / folder, ignore_errors=True)
    checks._POSES.clear()
    checks._look.cache_clear()


def _pictures(folder: Path) -> Theme:
    """The look-alike pictures (discs, rabbits turned and mirrored) among distinct Twemoji."""
    theme = _mixed_theme(folder)
    return dataclasses.replace(theme, symbols=[s for s in theme.symbols if s.kind != "text"])


def test_verdicts_are_the_same_with_and_without_kept_looks(tmp_path: Path, cache: Path, monkeypatch) -> None:
    theme = _mixed_theme(tmp_path / "theme")
    for visions in VISIONS:
        _forget(cache)
        with monkeypatch.context() as mp:
            mp.setenv("PRINTDECK_NO_CACHE", "1")
            expected = look_alikes(theme, None, visions)
        assert expected
        _forget(cache)
        assert look_alikes(theme, None, visions) == expected  # looks made and kept
        _forget(cache)
        assert look_alikes(theme, None, visions) == expected  # looks read back
    kept = {path.suffix for path in (cache / "looks").iterdir()}
    assert kept == {".look", ".coarse0", ".coarse1"}


def test_a_kept_look_is_read_back_exactly(tmp_path: Path, cache: Path, monkeypatch) -> None:
    theme = _pictures(tmp_path / "theme")
    for symbol in theme.symbols:
        with monkeypatch.context() as mp:
            mp.setenv("PRINTDECK_NO_CACHE", "1")
            made = look_of(symbol, symbol.name, 0, 180.0)
            assert made.kept is None
        first = look_of(symbol, symbol.name, 0, 180.0)  # made and kept
        again = look_of(symbol, symbol.name, 0, 180.0)  # read back
        assert first.kept is not None and first.kept == again.kept
        for look in (first, again):
            for name in ("pixels", "frames", "profile", "rgba"):
                assert np.array_equal(getattr(look, name), getattr(made, name)), name
            assert look.compactness == made.compactness
            for mirror in (0, 1):
                assert np.array_equal(look.coarse(mirror), made.coarse(mirror))
                assert np.array_equal(look.ink(mirror, 7), made.ink(mirror, 7))


def test_a_new_seed_draws_and_measures_no_drawing_seen_before(tmp_path: Path, cache: Path) -> None:
    theme = _pictures(tmp_path / "theme")
    symbols = list(theme.symbols)
    _forget(cache)  # no look made in this process before
    expected = look_alikes(theme, symbols)
    assert any({p.first, p.second} == {"rabbit", "rabbit turned"} for p in expected)
    _forget(cache)  # every pair compared again, from the kept looks

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("drawn or measured again")

    with pytest.MonkeyPatch.context() as mp:
        for module, name in ((raster, "rasterise"), (looks, "measures"), (looks, "coarse_rows")):
            mp.setattr(module, name, refuse)
        assert look_alikes(theme, list(reversed(symbols))) == sorted(
            (_reversed(p, len(symbols)) for p in expected), key=lambda p: p.groups
        )


def _reversed(pair, n: int):
    """``pair`` as found among the symbols in reverse order."""
    first, second = (n - 1 - g for g in pair.groups)
    if first < second:
        return dataclasses.replace(pair, groups=(first, second))
    return dataclasses.replace(
        pair, first=pair.second, second=pair.first, turned_deg=-pair.turned_deg, groups=(second, first)
    )


def test_a_damaged_look_is_made_again(tmp_path: Path, cache: Path) -> None:
    theme = _pictures(tmp_path / "theme")
    _forget(cache)
    expected = look_alikes(theme)
    entries = sorted((cache / "looks").iterdir())
    for path in entries[::2]:
        path.write_bytes(path.read_bytes()[:-3])  # cut short: not read
    for path in entries[1::2]:
        path.write_bytes(b"not a look")
    _forget(cache)
    assert look_alikes(theme) == expected
    assert all(path.read_bytes().startswith(binary_entry.MAGIC) for path in entries)  # made and kept again
