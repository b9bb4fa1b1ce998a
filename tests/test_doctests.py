"""The Examples in the headline docstrings run (doctest), so the documented calls and
their answers stay true."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "printdeck.api.building",
    "printdeck.artwork.look",
    "printdeck.api.checking",
    "printdeck.build_result",
    "printdeck.decks",
    "printdeck.errors",
    "printdeck.model",
    "printdeck.render.legend_cells",
    "printdeck.render.proof",
    "printdeck.render.svg_forms",
    "printdeck.render.svg_opacity",
    "printdeck.sheet_room",
    "printdeck.theme.han_forms",
    "printdeck.theme.symbols",
    "printdeck.theme.value_fixes",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name: str, tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)  # an example that writes a file writes it here
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0, f"{name} has no examples"
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples of {name} failed"
