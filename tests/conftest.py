"""Shared fixtures: one default build per test session (it takes a few seconds); how many
processes run the tests (pyproject's ``--numprocesses auto``)."""

from __future__ import annotations

import importlib.util
import json
import os
from pathlib import Path

import pytest

from printdeck.pipeline import BuildOptions, build

MAX_WORKERS = 4
"""More workers than this gain little: the slowest files (a studio in Chromium, the hostile
runs) take a good share of the whole suite each."""
FEW_FILES = 10
"""A run of fewer test files than this stays in one process: starting workers (each imports
printdeck and numpy) would take longer than the tests."""


def pytest_addoption(parser: pytest.Parser) -> None:
    """Without pytest-xdist (a virtual environment made before it joined the test extras),
    pyproject's ``--numprocesses auto --dist loadfile`` are taken and ignored: the tests run
    in this process, as they would with ``-n 0``."""
    if importlib.util.find_spec("xdist") is None:
        group = parser.getgroup("xdist", "pytest-xdist is not installed: the tests run in one process")
        group.addoption("--numprocesses", dest="numprocesses", default=0, help="ignored without pytest-xdist")
        group.addoption("--dist", dest="dist", default="no", help="ignored without pytest-xdist")


@pytest.hookimpl(optionalhook=True)  # a hook of pytest-xdist's, unknown without it
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: one worker a core the process may use (at most :data:`MAX_WORKERS`), for
    the whole suite or a good part of it; none (everything in this process) on one core or for
    a few chosen test files. ``PYTEST_XDIST_AUTO_NUM_WORKERS`` overrides it, as in xdist."""
    chosen = os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS")
    if chosen and chosen.isdigit():
        return int(chosen)
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    files = set()
    for arg in config.args:
        path = Path(arg.split("::")[0])
        files |= set(path.rglob("test_*.py")) if path.is_dir() else {path}
    return 0 if cores < 2 or len(files) < FEW_FILES else min(cores, MAX_WORKERS)


@pytest.fixture(scope="session")
def default_build(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    """Build the embedded default theme once; return (pdf path, manifest dict)."""
    out = tmp_path_factory.mktemp("default") / "default.pdf"
    result = build(None, out, BuildOptions())
    return result.pdf_path, json.loads(result.manifest_path.read_text(encoding="utf-8"))
