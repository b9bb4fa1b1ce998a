"""Helpers shared by the theme tests (imported as ``test_theme_support``), and their own checks."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import yaml
from PIL import Image, ImageDraw

WORDS = [
    "apple",
    "bread",
    "chair",
    "cloud",
    "dance",
    "earth",
    "field",
    "flower",
    "garden",
    "house",
    "island",
    "jacket",
    "kitchen",
]


def small_theme(**overrides: Any) -> dict[str, Any]:
    """A valid order-2 theme (7 words, 3 a card) as a dict; ``overrides`` replace top-level keys."""
    theme: dict[str, Any] = {"name": "small", "deck": {"order": 2}, "symbols": [{"text": w} for w in WORDS[:7]]}
    theme.update(overrides)
    return theme


def write_theme(folder: Path, data: Any, name: str = "theme.yaml") -> Path:
    """Dump ``data`` as YAML into ``folder/name`` and return the path."""
    path = folder / name
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return path


def png_bytes(colour: tuple[int, int, int], size: tuple[int, int] = (64, 64), alpha: bool = True) -> bytes:
    """A small PNG: a coloured disc on a transparent (or white) square."""
    image = Image.new("RGBA" if alpha else "RGB", size, (0, 0, 0, 0) if alpha else (255, 255, 255))
    m = min(size) // 8
    ImageDraw.Draw(image).ellipse((m, m, size[0] - 1 - m, size[1] - 1 - m), fill=colour)
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def image_folder(folder: Path, n: int, suffix: str = ".png") -> Path:
    """Write ``n`` distinct small images into ``folder`` and return it."""
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(n):
        image = Image.open(io.BytesIO(png_bytes((20 * i % 256, 100, 255 - 20 * i % 256))))
        if suffix == ".png":
            image.save(folder / f"pic-{i:02d}.png")
        else:
            image.convert("RGB").save(folder / f"pic-{i:02d}{suffix}")
    return folder


def test_helpers_make_distinct_images(tmp_path: Path) -> None:
    folder = image_folder(tmp_path / "pics", 7)
    contents = {p.read_bytes() for p in folder.iterdir()}
    assert len(contents) == 7


def test_small_theme_loads(tmp_path: Path) -> None:
    from printdeck.theme import deck_size, load_theme

    theme = load_theme(write_theme(tmp_path, small_theme()))
    assert [s.text for s in theme.symbols] == WORDS[:7]
    assert deck_size(theme).cards == 7 and deck_size(theme).symbols_per_card == 3


def old_deck_pdf() -> bytes:
    """A PDF an earlier build wrote (printdeck its creator), as bytes: what a failed build
    must leave where it would have written (a build refuses to replace a PDF printdeck did
    not write, so a stand-in of other bytes would be refused before the failure looked for)."""
    import io

    from reportlab.pdfgen import canvas

    pdf = io.BytesIO()
    page = canvas.Canvas(pdf)
    page.setCreator("printdeck")
    page.drawString(100, 700, "old deck")
    page.save()
    return pdf.getvalue()


def refusals_of_check_and_build(theme: Path, out: Path) -> tuple[str, str]:
    """What ``printdeck check THEME`` and ``printdeck build THEME -o OUT`` print, each
    refusing (exit status 2): the README promises the same line."""
    from click.testing import CliRunner

    from printdeck.cli import main

    said = []
    for command in (["check", str(theme)], ["build", str(theme), "-o", str(out)]):
        result = CliRunner().invoke(main, command)
        assert result.exit_code == 2, result.output
        said.append(result.output.strip())
    return said[0], said[1]
