"""docs/api.md is checked against the code: every documented call's parameters are the
function's own (names, order, defaults, keyword-only), and every stable name is documented."""

from __future__ import annotations

import importlib.util
import inspect
import json
import re
from pathlib import Path

import pytest

import printdeck

DOC = Path(__file__).resolve().parent.parent / "docs" / "api.md"
HEADING = re.compile(r"^### `(?P<name>[\w.]+)\((?P<params>.*)\)(?: -> .*)?`$", re.M)


def _shown(default: object) -> str:
    return json.dumps(default) if isinstance(default, str) else repr(default)


def _signature_text(func: object) -> str:
    parts: list[str] = []
    star = False
    for p in inspect.signature(func).parameters.values():  # type: ignore[arg-type]
        if p.name == "self":
            continue
        if p.kind is p.KEYWORD_ONLY and not star:
            parts.append("*")
            star = True
        if p.kind is p.VAR_KEYWORD:
            parts.append(f"**{p.name}")
            continue
        parts.append(p.name if p.default is p.empty else f"{p.name}={_shown(p.default)}")
    return ", ".join(parts)


def _target(name: str) -> object:
    obj: object = printdeck
    for part in name.split("."):
        obj = getattr(obj, part)
    return obj


HEADINGS = [(m["name"], m["params"]) for m in HEADING.finditer(DOC.read_text(encoding="utf-8"))]


@pytest.mark.parametrize(("name", "params"), HEADINGS, ids=[n for n, _ in HEADINGS])
def test_documented_signature_is_the_codes(name: str, params: str) -> None:
    assert params == _signature_text(_target(name)), f"docs/api.md: update the heading of {name}"


def test_every_stable_function_is_documented() -> None:
    documented = {name.split(".")[0] for name, _ in HEADINGS}
    functions = {n for n in printdeck.__all__ if inspect.isfunction(getattr(printdeck, n))}
    assert functions <= documented, f"not in docs/api.md: {sorted(functions - documented)}"


README = DOC.parent.parent / "README.md"


def _section(title: str) -> str:
    text = README.read_text(encoding="utf-8")
    return text.split(f"## {title}\n", 1)[1].split("\n## ", 1)[0]


def _keys(node: object) -> set[str]:
    if isinstance(node, dict):
        return set(node) | {k for v in node.values() for k in _keys(v)}
    if isinstance(node, list):
        return {k for v in node for k in _keys(v)}
    return set()


def test_the_readme_manifest_shape_is_the_codes() -> None:
    """Every key of a real manifest is in the README's shape, and the shape names no key
    the manifest lacks (for a round deck of words, neither faces nor a class set)."""
    shape = _section("The manifest").split("\n\n", 2)[1]
    documented = set(re.findall(r'"(\w+)":', shape))
    only_some = set(re.findall(r'"(\w+)": [^,]*?\(photos only\)', shape))  # a deck of words has none
    deck = printdeck.make({"deck": {"symbols_per_card": 3}, "symbols": [{"text": w} for w in "abcdefg"]})
    assert _keys(deck.manifest) <= documented and documented - _keys(deck.manifest) == only_some


def test_the_readme_states_the_searched_order_6_deck_as_made() -> None:
    said = re.search(r"order 6, 7 a card: (\d+) cards", README.read_text(encoding="utf-8"))
    assert said is not None
    assert int(said[1]) == len(printdeck.make_design(symbols_per_card=7, search=True).blocks)


def test_the_readme_pictures_script_runs_against_the_code() -> None:
    """``docs/make_images.py`` imported a function that had moved (and called it with a
    keyword it no longer takes), so the README's pictures could not be made again and showed
    sheets of an older printdeck; it is loaded here (its imports resolved) and its calls'
    keywords are the functions' own."""
    path = Path(__file__).resolve().parent.parent / "docs" / "make_images.py"
    spec = importlib.util.spec_from_file_location("make_images", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    source = path.read_text(encoding="utf-8")
    for name in ("write_preview", "build", "BuildOptions"):
        params = inspect.signature(getattr(module, name)).parameters
        for call in re.finditer(rf"\b{name}\(([^()]*(?:\([^()]*\)[^()]*)*)\)", source):
            used = set(re.findall(r"\b(\w+)=", re.sub(r"\([^()]*\)", "", call.group(1))))  # its own keywords
            assert used <= set(params), (name, used - set(params))
