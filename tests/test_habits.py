"""Habits the README's Development section asks for, checked on the repository itself."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
FIRST_CHECKED = "1e89f4b"  # commits after this one follow the rule (older history is as it was)


def _git(*args: str) -> str:
    return subprocess.run(["git", "-C", str(REPO), *args], capture_output=True, text=True, check=True).stdout


@pytest.fixture(scope="module")
def commits() -> list[tuple[str, str, str]]:
    if shutil.which("git") is None or not (REPO / ".git").exists():
        pytest.skip("not a git checkout")
    try:
        _git("cat-file", "-e", f"{FIRST_CHECKED}^{{commit}}")
    except subprocess.CalledProcessError:
        pytest.skip(f"a shallow clone without {FIRST_CHECKED}")
    log = _git("log", "--format=%h%x1f%s%x1f%b%x1e", f"{FIRST_CHECKED}..HEAD")
    return [tuple(entry.strip("\n").split("\x1f", 2)) for entry in log.split("\x1e") if entry.strip()]  # type: ignore[misc]


def test_commit_subjects_fit_72_characters(commits: list[tuple[str, str, str]]) -> None:
    long = [f"{sha} ({len(subject)}): {subject}" for sha, subject, _ in commits if len(subject) > 72]
    assert not long, "commit subjects over 72 characters:\n" + "\n".join(long)


def test_commits_have_a_body_that_says_why(commits: list[tuple[str, str, str]]) -> None:
    bare = [f"{sha} {subject}" for sha, subject, body in commits if len(body.split()) < 5]
    assert not bare, "commits without a body:\n" + "\n".join(bare)


def test_tests_import_their_helpers_as_the_readme_runs_them() -> None:
    """Plain ``pytest`` (the README's command) puts ``tests/`` itself on the path, not the
    repository: a helper imported as ``tests.test_x`` works under ``python -m pytest`` only."""
    offenders = [
        p.name
        for p in sorted((REPO / "tests").glob("*.py"))
        if any(
            line.startswith(("from tests.", "import tests")) or 'importorskip("tests.' in line
            for line in p.read_text(encoding="utf-8").splitlines()
        )
        and p.name != "test_habits.py"
    ]
    assert not offenders, "import helpers as `from test_x import ...`: " + ", ".join(offenders)


def test_opencv_is_imported_through_its_one_lock() -> None:
    """A cold build once ended in a traceback, "No module named 'cv2.data'; 'cv2' is not a
    package": OpenCV's bootstrap swaps modules in ``sys.modules``, and a proof's thread
    imported ``cv2`` while another imported it under the lock of
    :func:`printdeck.artwork.opencv`. Every module takes OpenCV from that function."""
    root = REPO / "printdeck"
    direct = [
        f"{path.relative_to(root)}:{number}"
        for path in sorted(root.rglob("*.py"))
        if path.name != "faces.py"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if re.match(r"\s*(import cv2|from cv2)\b", line)
    ]
    assert not direct, direct
