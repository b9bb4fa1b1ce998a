"""Public names that load on first use (PEP 562), so importing a package stays quick.

A package's ``__init__`` lists where each public name lives and hands the list to
:func:`attribute_loader`; ``from package import name`` then imports only that name's
module. Type checkers read the same names from an ``if TYPE_CHECKING:`` block.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from typing import Any


def attribute_loader(package: str, where: Mapping[str, str]) -> Callable[[str], Any]:
    """A module ``__getattr__`` for ``package`` that imports ``where[name]`` on first use
    and keeps the value in the package's namespace (later lookups cost nothing).

    Args:
        package: The package's ``__name__``.
        where: Public name -> the module that defines it (``"printdeck.design.make"``).

    Raises:
        AttributeError: (from the returned function) for a name not in ``where``.
    """

    def load(name: str) -> Any:
        module = where.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        setattr(sys.modules[package], name, value)
        return value

    return load
