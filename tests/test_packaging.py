"""The wheel (a plain, non-editable install) ships the default theme and its artwork."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def installed_wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Build the wheel and unpack it into a bare folder (no repo beside it)."""
    work = tmp_path_factory.mktemp("wheel")
    done = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(work), str(ROOT)],
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        pytest.skip(f"pip wheel failed (offline?): {done.stderr.strip()[-200:]}")
    wheel = next(work.glob("printdeck-*.whl"))
    site = work / "site"
    with zipfile.ZipFile(wheel) as zf:
        names = zf.namelist()
        assert "printdeck/_themes/default.yaml" in names
        assert sum(n.startswith("printdeck/_assets/twemoji/") and n.endswith(".svg") for n in names) >= 133
        assert "printdeck/_assets/twemoji/LICENSE-GRAPHICS.txt" in names
        assert "printdeck/_assets/fonts/OFL.txt" in names and "printdeck/_themes/languages.yaml" in names
        assert sum(n.startswith("printdeck/_assets/fonts/Noto") for n in names) == 5
        assert "printdeck/artwork/shaping.py" in names
        packages = sorted(str(p.relative_to(ROOT).as_posix()) for p in (ROOT / "printdeck").rglob("__init__.py"))
        assert [p for p in packages if p not in names] == []  # every package (pyproject lists them) is shipped
        zf.extractall(site)
    return site


def test_wheel_builds_the_default_deck_without_the_repo(installed_wheel: Path, tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(installed_wheel)}
    code = (
        "import json, printdeck; "
        "r = printdeck.build(None, 'deck.pdf'); "
        "m = json.load(open('deck.json')); "
        "print(printdeck.__file__, len(m['cards']), m['symbols'][0]['source'])"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    where, cards, source = done.stdout.split()
    assert where.startswith(str(installed_wheel)) and cards == "55" and source.startswith("assets/twemoji/")


def test_wheel_sets_words_in_every_bundled_script(installed_wheel: Path, tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(installed_wheel)}
    code = (
        "from printdeck.artwork import drawing; from printdeck.theme import load_theme; "
        "print(sorted({f.path.name for s in load_theme('languages').symbols for f in drawing(s).word.faces}))"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    for name in (
        "Vera.ttf",
        "NotoSans-Regular.ttf",
        "NotoSansArabic-Regular.ttf",
        "NotoSansHebrew-Regular.ttf",
        "NotoSansDevanagari-Regular.ttf",
        "NotoSansThai-Regular.ttf",
    ):
        assert name in done.stdout
