"""The package map holds: imports go one way, across packages only through ``__init__``.

Layers, lowest first (a module may import its own layer or a lower one, never a higher):

    core      errors, choices, units, model, build_result, cardshape, card_sizes, userfiles, fileio, temp_names,
              cache, cache_claims, file_locks, resources, signals, lazy, audit, forksafe, sheet_room, output_record
    design    the combinatorial designs (pure math)
    artwork   the one drawing of a symbol, and its silhouette
    theme     the YAML theme, validated and resolved
    assign    which symbol goes to which point; balance; word colours
    layout    packing a card, laying out a deck
    render    PDF, PNG, preview, imposition
    pipeline  pipeline, build options, manifest, outputs (the build as one call), class sets, classroom,
              card view, prepare
    api       printdeck/__init__ and printdeck.api: the public library
    front     cli, studio, __main__, command (the entry point), rerun (replaying a build)
              (only the public library, ``printdeck``)

The imports are read from the source (``ast``), including those inside functions.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterator
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "printdeck"

LAYERS: list[tuple[str, set[str]]] = [
    (
        "core",
        {
            "errors",
            "choices",
            "units",
            "model",
            "cardshape",
            "card_sizes",
            "userfiles",
            "fileio",
            "temp_names",
            "cache",
            "cache_claims",
            "file_locks",
            "resources",
            "signals",
            "lazy",
            "audit",
            "forksafe",
            "sheet_room",
            "build_result",
            "emoji_names",
            "output_record",
        },
    ),
    ("design", {"design"}),
    ("artwork", {"artwork"}),
    ("theme", {"theme"}),
    ("assign", {"assign"}),
    ("layout", {"layout"}),
    ("render", {"render"}),
    (
        "pipeline",
        {
            "pipeline",
            "build_options",
            "deck_plan",
            "deck_preview",
            "decks",
            "manifest",
            "outputs",
            "class_sets",
            "classroom",
            "printed_answers",
            "card_view",
            "prepare",
            "photo_work",
        },
    ),
    ("api", {"__init__", "api"}),
    ("front", {"cli", "studio", "__main__", "command", "rerun"}),
]
RANK = {unit: rank for rank, (_, units) in enumerate(LAYERS) for unit in units}
PACKAGES = {p.name for p in PACKAGE.iterdir() if (p / "__init__.py").is_file()}


def _unit(module: str) -> str:
    """``printdeck.layout.pack`` -> ``layout``; ``printdeck`` -> ``__init__``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def _modules() -> Iterator[tuple[str, Path]]:
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE.parent).with_suffix("")
        parts = list(rel.parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        yield ".".join(parts), path


@functools.cache
def _tree(path: Path) -> ast.Module:
    """A module's syntax tree, parsed once per session (the tests only read it)."""
    return ast.parse(path.read_text(encoding="utf-8"))


def _imports(module: str, path: Path, top_level_only: bool = False) -> Iterator[tuple[str, int]]:
    """Every printdeck module ``module`` imports (absolute names), with its line."""
    is_package = path.name == "__init__.py"
    tree = _tree(path)
    nodes = tree.body if top_level_only else list(ast.walk(tree))
    for node in nodes:
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "printdeck":
                    yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".")[: len(module.split(".")) - node.level + (1 if is_package else 0)]
                name = ".".join(base + ([node.module] if node.module else []))
            else:
                name = node.module or ""
            if name.split(".")[0] != "printdeck":
                continue
            for alias in node.names:  # ``from printdeck.layout import pack`` imports a submodule,
                sub = f"{name}.{alias.name}"  # unless the package's __init__ exports that name
                submodule = _is_module(sub) and alias.name not in _exported(name)
                yield (sub if submodule else name), node.lineno


@functools.cache
def _exported(package: str) -> frozenset[str]:
    """The names in a package's ``__all__`` (empty for a module or a package without one)."""
    init = PACKAGE / Path(*package.split(".")[1:]) / "__init__.py"
    if not init.is_file():
        return frozenset()
    for node in _tree(init).body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "__all__" for t in node.targets):
            return frozenset(
                e.value for e in ast.walk(node.value) if isinstance(e, ast.Constant) and isinstance(e.value, str)
            )
    return frozenset()


def _is_module(name: str) -> bool:
    rel = Path(*name.split(".")[1:])
    return (PACKAGE / rel).with_suffix(".py").is_file() or (PACKAGE / rel / "__init__.py").is_file()


@functools.lru_cache(maxsize=1)
def _edges() -> list[tuple[str, str, int]]:
    return sorted({(module, target, line) for module, path in _modules() for target, line in _imports(module, path)})


def test_every_module_has_a_layer() -> None:
    units = {_unit(module) for module, _ in _modules()}
    assert not units - set(RANK), f"modules outside the package map: {sorted(units - set(RANK))}"


def test_no_import_goes_up_a_layer() -> None:
    upward = [f"{m}:{line} imports {t}" for m, t, line in _edges() if RANK[_unit(t)] > RANK[_unit(m)]]
    assert not upward, "upward imports:\n" + "\n".join(upward)


def test_packages_are_entered_through_their_init() -> None:
    """Across packages, only a package's public names (its ``__init__``) are imported."""
    leaks = [
        f"{m}:{line} imports {t}"
        for m, t, line in _edges()
        if _unit(t) in PACKAGES and _unit(t) != _unit(m) and t.count(".") > 1
    ]
    assert not leaks, "imports past a package's __init__:\n" + "\n".join(leaks)


def test_front_ends_use_only_the_public_library() -> None:
    """The CLI and the studio call ``printdeck`` (its ``__init__``/``api``), not the stages."""
    below = [
        f"{m}:{line} imports {t}"
        for m, t, line in _edges()
        if RANK[_unit(m)] == RANK["cli"] and RANK[_unit(t)] < RANK["api"] and _unit(t) not in LAYERS[0][1]
    ]
    assert not below, "front ends reaching past the public API:\n" + "\n".join(below)


def test_no_import_cycle_between_modules() -> None:
    """Module-level imports (not those inside functions) form no cycle."""
    graph = {
        module: {t for t, _ in _imports(module, path, top_level_only=True)} - {module} for module, path in _modules()
    }
    cycle = _find_cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_no_import_cycle_even_inside_functions() -> None:
    """Counting the imports inside functions too, no two modules need each other (the
    cycles fileio <-> signals, artwork.picture <-> artwork.faces and render.forms <->
    render.proof were broken by moving what both needed into one place)."""
    graph = {module: {t for t, _ in _imports(module, path)} - {module} for module, path in _modules()}
    cycle = _find_cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def _find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt) :] + [nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return None


@pytest.mark.parametrize("name", ["artwork.py", "fonts.py", "model.py", "errors.py", "cache.py"])
def test_no_two_modules_share_a_file_name(name: str) -> None:
    same = sorted(str(p.relative_to(PACKAGE)) for p in PACKAGE.rglob(name))
    assert len(same) <= 1, f"{name} is used by {same}; give each module a name of its own"


def test_no_file_name_is_used_twice() -> None:
    names: dict[str, list[str]] = {}
    for path in PACKAGE.rglob("*.py"):
        if path.name not in ("__init__.py", "__main__.py"):
            names.setdefault(path.name, []).append(str(path.relative_to(PACKAGE)))
    twice = {n: p for n, p in names.items() if len(p) > 1}
    assert not twice, f"file names used twice: {twice}"
