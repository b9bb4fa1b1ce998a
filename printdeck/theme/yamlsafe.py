"""Reading YAML that a user wrote (or that anybody threw at us), safely.

PyYAML's ``SafeLoader`` builds only plain Python objects, but it still expands
aliases (``*a``) and accepts duplicate keys. A handful of nested aliases (the
"billion laughs" attack) describe a document with billions of nodes, and a
duplicate key silently drops the first value. This module caps the file size,
counts the document's nodes *with aliases expanded* before anything is
constructed (merge keys ``<<: *x`` included: a merge is an alias), refuses
recursive aliases, and makes duplicate keys an error. Merge keys are accepted;
a key written beside a merge overrides the merged one. A plain scalar such as ``3:4``
or ``1:30`` stays text, as YAML 1.2 reads it, instead of YAML 1.1's base-60 number
(184, 90), which no theme key means.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

from printdeck.errors import PrintdeckError, file_error, shown
from printdeck.fileio import read_user_file
from printdeck.userfiles import binary_kind

MAX_FILE_BYTES = 1_000_000
"""Largest theme file read (a theme with a thousand symbols is ~50 kB)."""

MAX_EXPANDED_NODES = 100_000
"""Largest number of YAML nodes after expanding aliases."""


_MERGE_TAG = "tag:yaml.org,2002:merge"
_STR_TAG = "tag:yaml.org,2002:str"
_BASE_60 = re.compile(r"[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?")
"""YAML 1.1's sexagesimal integers and floats (``3:4`` is 184, ``1:30:00.5`` is 5400.5)."""


class _CheckedLoader(yaml.SafeLoader):  # type: ignore[misc, unused-ignore]  # (PyYAML has no stubs here)
    """SafeLoader that refuses duplicate mapping keys and accepts merge keys (``<<: *x``).

    A key written twice in one mapping is an error; a key written in a mapping
    and also brought in by its ``<<`` merge is not: the written one wins, as the
    YAML merge-key spec says. ``<<`` itself may appear once a mapping (merge
    several with ``<<: [*a, *b]``).

    A plain scalar written as a base-60 number (``3:4``, a ratio or a time to a reader) is
    resolved as text.
    """

    def resolve(self, kind: type[yaml.Node], value: Any, implicit: tuple[bool, bool]) -> str:  # type: ignore[override, unused-ignore]
        if kind is yaml.ScalarNode and implicit[0] and _BASE_60.fullmatch(value):
            return _STR_TAG
        tag: str = super().resolve(kind, value, implicit)
        return tag

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:  # type: ignore[override, unused-ignore]
        seen: dict[object, yaml.Node] = {}
        for key_node, _ in node.value:
            if key_node.tag == _MERGE_TAG:
                key: object = "<<"
            else:
                key = self.construct_object(key_node, deep=True)  # type: ignore[no-untyped-call, unused-ignore]
            try:
                hash(key)
            except TypeError:
                raise yaml.constructor.ConstructorError(
                    None, None, "a key must be a plain word or number", key_node.start_mark
                ) from None
            if key in seen:
                first = seen[key].start_mark.line + 1
                raise yaml.constructor.ConstructorError(
                    None, None, f"key {key!r} given twice (first on line {first}); keep one", key_node.start_mark
                )
            seen[key] = key_node
        mapping: dict[Any, Any] = super().construct_mapping(node, deep=deep)  # flattens the merges, written keys last
        return mapping


def _expanded_size(root: yaml.Node, limit: int) -> int:
    """Count the nodes of ``root`` with every alias expanded (memoised, so linear).

    Raises:
        PrintdeckError-free ValueError: the graph is recursive or exceeds ``limit``.
    """
    sizes: dict[int, int] = {}
    on_path: set[int] = set()

    def size(node: yaml.Node) -> int:
        key = id(node)
        if key in sizes:
            return sizes[key]
        if key in on_path:
            raise ValueError("an alias refers to the node that contains it (a recursive alias)")
        on_path.add(key)
        total = 1
        if isinstance(node, yaml.ScalarNode) and any("\ud800" <= ch <= "\udfff" for ch in node.value):
            raise ValueError(
                f"line {node.start_mark.line + 1}: a value holds an invalid character (a lone surrogate escape)"
            )
        if isinstance(node, yaml.SequenceNode):
            total += sum(size(child) for child in node.value)
        elif isinstance(node, yaml.MappingNode):
            total += sum(size(k) + size(v) for k, v in node.value)
        on_path.discard(key)
        if total > limit:
            raise ValueError(f"the document expands to more than {limit} values (too many aliases)")
        sizes[key] = total
        return total

    return size(root)


def _first_line(exc: yaml.YAMLError) -> str:
    """One-line description of a PyYAML error, with its line and column."""
    problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
    mark = getattr(exc, "problem_mark", None)
    where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark is not None else ""
    context = getattr(exc, "context", None)
    extra = f" ({context})" if context and context not in problem else ""
    return f"{where}{problem}{extra}"


def _syntax_fix(exc: yaml.YAMLError) -> str:
    """What fixes a PyYAML syntax error, in a theme writer's words: the common slips (a tab,
    a key out of line, a quote never closed) named, else "fix the YAML syntax there"."""
    problem, context = str(getattr(exc, "problem", "") or ""), str(getattr(exc, "context", "") or "")
    opened = getattr(exc, "context_mark", None)
    if "'\\t'" in problem or "\t" in problem:
        return "indent with spaces, not tabs"
    if "quoted scalar" in context and opened is not None:
        return f"close the quote opened on line {opened.line + 1}, column {opened.column + 1}"
    indent = "the keys of one section start in the same column (spaces only)"
    if "mapping values are not allowed" in problem:
        return f"put a value holding ': ' in quotes, or check the indentation there: {indent}"
    if "<block end>" in problem or "expected key" in problem:
        return f"check the indentation there: {indent}"
    return "fix the YAML syntax there"


_UNQUOTED_COLOUR = re.compile(
    r"^\s*(?:-\s+|[\w.-]+:\s+(?:\[\s*)?)(#[0-9a-fA-F]{3}(?:[0-9a-fA-F]{3})?)(?=\s*(?:$|#|,|\]))"
)
"""A line whose value starts with a bare ``#rgb`` or ``#rrggbb``: YAML reads a comment there."""


def _check_unquoted_colours(text: str, source: str, lines: set[int] | None) -> None:
    """Refuse a colour written without quotes (``background: #fff``): YAML takes it for a
    comment, and the key would silently read as empty (or, in a flow list, the list is left
    open). ``lines``: the 1-based lines where the document holds an empty value (None: the
    text did not parse, every line is looked at); text inside a block scalar is never one.

    Raises:
        PrintdeckError: Naming the line and the colour, and how to write it.
    """
    for number, line in enumerate(text.splitlines(), start=1):
        if lines is not None and number not in lines:
            continue
        match = _UNQUOTED_COLOUR.match(line)
        if match:
            colour = match.group(1)
            raise PrintdeckError(
                f'{source}: line {number}: the colour {colour} needs quotes ("{colour}"): '
                "in YAML a # starts a comment, so the value would be empty"
            )


def _empty_lines(root: yaml.Node) -> set[int]:
    """The 1-based lines of the empty (null) scalars of a composed document: where a key or a
    list item was given nothing, or a comment YAML read where a value was meant."""
    lines: set[int] = set()
    stack, seen = [root], set()
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, yaml.ScalarNode):
            if node.tag == "tag:yaml.org,2002:null" and node.value == "":
                lines.add(node.start_mark.line + 1)
        elif isinstance(node, yaml.SequenceNode):
            stack.extend(node.value)
        elif isinstance(node, yaml.MappingNode):
            stack.extend(part for pair in node.value for part in pair)
    return lines


def load_yaml_text(text: str, source: str = "<theme>", *, max_nodes: int = MAX_EXPANDED_NODES) -> object:
    """Parse one YAML document safely.

    Args:
        text: The YAML source.
        source: File name used in error messages.
        max_nodes: Largest number of nodes after alias expansion.

    Returns:
        The document as plain Python data (``None`` for an empty document).

    Raises:
        PrintdeckError: Syntax error, several documents, a recursive alias, an
            alias bomb, a duplicate key, or an unhashable key; the message gives
            the line and column.
    """
    try:
        loader = _CheckedLoader(text)
    except yaml.YAMLError as exc:
        _check_unquoted_colours(text, source, None)  # a colour YAML took for a comment says so first
        fix = _syntax_fix(exc)
        raise PrintdeckError(
            f"{source}: not valid YAML: {_first_line(exc)}; {'remove that character' if fix.startswith('fix') else fix}"
        ) from None
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        _check_unquoted_colours(text, source, _empty_lines(node))
        try:
            _expanded_size(node, max_nodes)
        except ValueError as exc:
            fix = "remove it" if "surrogate" in str(exc) else "write the values out instead of using aliases"
            raise PrintdeckError(f"{source}: {exc}; {fix}") from None
        return loader.construct_document(node)
    except yaml.YAMLError as exc:
        _check_unquoted_colours(text, source, None)
        raise PrintdeckError(f"{source}: not valid YAML: {_first_line(exc)}; {_syntax_fix(exc)}") from None
    except RecursionError:
        raise PrintdeckError(f"{source}: the YAML is nested too deeply; flatten it") from None
    finally:
        loader.dispose()


def load_yaml_file(path: Path) -> object:
    """Read and parse a theme file (at most ``MAX_FILE_BYTES``, UTF-8).

    Args:
        path: The YAML file.

    Returns:
        The parsed document (see ``load_yaml_text``).

    Raises:
        PrintdeckError: The file is missing, not a regular file (a FIFO, a device,
            a folder), cannot be read, is too large, is not UTF-8 text, or is not
            valid, safe YAML.
    """
    raw = read_user_file(path, "", MAX_FILE_BYTES, "the theme")  # a regular file only, never blocking
    kind = binary_kind(raw)
    if kind is not None:  # the deck's PDF, a picture: not a theme saved in another encoding
        fix = "give the theme: a .yaml file, or the folder holding theme.yaml"
        raise file_error(path, f"is {kind}, not a theme; {fix}")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise file_error(path, f"not UTF-8 text (byte {exc.start}); save the theme as UTF-8") from None
    if "\x00" in text:
        raise file_error(path, "contains NUL bytes, so it is not a text file; give a YAML theme")
    return load_yaml_text(text, shown(path))
