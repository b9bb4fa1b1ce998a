"""Where the bundled artwork and themes live, installed or in a checkout."""

from __future__ import annotations

import importlib.util
from pathlib import Path

_REPO_ROOT = Path(__file__).resolve().parent.parent


def data_root(kind: str) -> Path:
    """Return the folder of bundled data of one kind.

    Args:
        kind: ``"assets"`` (artwork, licences) or ``"themes"`` (bundled themes).

    Returns:
        The folder: inside the installed package (a plain ``pip install .`` maps
        ``assets/`` and ``themes/`` to ``printdeck._assets`` / ``printdeck._themes``)
        or, in an editable install, the repository's top-level folder.

    Raises:
        ValueError: ``kind`` is not one of the two names.
    """
    if kind not in ("assets", "themes"):
        raise ValueError(f"kind: expected 'assets' or 'themes', got {kind!r}")
    checkout = _REPO_ROOT / kind
    if checkout.is_dir() and (_REPO_ROOT / "pyproject.toml").is_file():
        return checkout
    # ``assets/`` and ``themes/`` have no __init__.py, so they install as namespace
    # packages: ``resources.files()`` would give a MultiplexedPath whose str() is
    # not a path; the import spec's search locations are real folders.
    try:
        spec = importlib.util.find_spec(f"printdeck._{kind}")
    except ModuleNotFoundError:  # pragma: no cover - broken install
        return checkout
    locations = list(spec.submodule_search_locations or []) if spec else []
    return Path(locations[0]) if locations else checkout
