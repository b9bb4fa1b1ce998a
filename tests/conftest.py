"""Shared fixtures: one default build per test session (it takes a few seconds)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from printdeck.pipeline import BuildOptions, build


@pytest.fixture(scope="session")
def default_build(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    """Build the embedded default theme once; return (pdf path, manifest dict)."""
    out = tmp_path_factory.mktemp("default") / "default.pdf"
    result = build(None, out, BuildOptions())
    return result.pdf_path, json.loads(result.manifest_path.read_text(encoding="utf-8"))
