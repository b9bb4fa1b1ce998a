"""Helpers for the render tests: a tiny theme, hand-made card layouts, page pixels."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pypdfium2 as pdfium
import yaml

from printdeck.model import CardLayout, Placement, SymbolSpec
from printdeck.pipeline import BuildOptions, apply_options
from printdeck.render import PrintJob
from printdeck.theme import Theme, load_theme

ART = ["anchor", "apple", "bee", "bell", "bicycle", "broom", "cactus"]
FANO = [(0, 1, 2), (0, 3, 4), (0, 5, 6), (1, 3, 5), (1, 4, 6), (2, 3, 6), (2, 4, 5)]
"""Lines of the Fano plane PG(2, 2): 7 cards of 3 symbols, any two share one."""
BACKGROUND = "#ffd000"
BACK_COLOR = "#2040c0"


def write_theme(folder: Path, **overrides: object) -> Path:
    """A 7-symbol Twemoji theme (yellow cards) in ``folder``, sections overridable."""
    spec: dict = {
        "name": "tiny",
        "title": "Tiny Deck",
        "author": "Test Author",
        "seed": 3,
        "card": {"diameter": "85mm", "bleed": "3mm", "safe_margin": "3mm", "background": BACKGROUND},
        "backs": {"enabled": True, "color": BACK_COLOR, "pattern": "rings"},
        "symbols": [f"@assets/twemoji/{name}.svg" for name in ART],
    }
    for key, value in overrides.items():
        if isinstance(value, dict) and isinstance(spec.get(key), dict):
            spec[key] = {**spec[key], **value}
        else:
            spec[key] = value
    path = folder / "theme.yaml"
    path.write_text(yaml.safe_dump(spec), encoding="utf-8")
    return path


def tiny_theme(folder: Path, **overrides: object) -> Theme:
    """Load :func:`write_theme`'s theme."""
    return load_theme(write_theme(folder, **overrides))


def print_job(theme: Theme, *, backs: bool = False, legend: bool = False, rules: bool = False) -> PrintJob:
    """The theme's :class:`PrintJob` with backs, legend and rules turned on or off (as ``--backs`` etc. do)."""
    return PrintJob.from_theme(apply_options(theme, BuildOptions(backs=backs, legend=legend, rules=rules)))


def fano_layouts(n_cards: int = 7, box_mm: float = 22.0, radius_mm: float = 18.0) -> list[CardLayout]:
    """Cards of the Fano plane: three symbols on a ring, each a different angle."""
    cards = []
    for i in range(n_cards):
        line = FANO[i % 7]
        placements = tuple(
            Placement(
                symbol_id=s,
                center_mm=(
                    radius_mm * math.cos(2 * math.pi * j / 3 + i),
                    radius_mm * math.sin(2 * math.pi * j / 3 + i),
                ),
                rotation_deg=(37.0 * i + 90.0 * j) % 360,
                box_mm=(box_mm, box_mm),
            )
            for j, s in enumerate(line)
        )
        cards.append(CardLayout(index=i, placements=placements, coverage=0.3, min_gap_mm=2.0, size_ratio=1.0))
    return cards


def symbols_of(theme: Theme) -> list[SymbolSpec]:
    """The theme's symbols, indexable by id."""
    assert all(s.id == i for i, s in enumerate(theme.symbols))
    return list(theme.symbols)


class PageImage:
    """One PDF page rasterised with pdfium; pixels addressed in mm from the bottom-left."""

    def __init__(self, pdf: Path, page_index: int, dpi: float = 150.0) -> None:
        doc = pdfium.PdfDocument(str(pdf))
        page = doc[page_index]
        self.size_mm = (page.get_width() * 25.4 / 72.0, page.get_height() * 25.4 / 72.0)
        self.dpi = dpi
        self.rgb = np.asarray(page.render(scale=dpi / 72.0).to_pil().convert("RGB"))
        doc.close()

    def at(self, x_mm: float, y_mm: float) -> tuple[int, int, int]:
        """RGB of the pixel at (x, y) mm."""
        col = round(x_mm / 25.4 * self.dpi)
        row = round((self.size_mm[1] - y_mm) / 25.4 * self.dpi)
        return tuple(int(v) for v in self.rgb[row, col])  # type: ignore[return-value]

    def darkest(self, x0: float, y0: float, x1: float, y1: float) -> int:
        """Lowest brightness (max of R, G, B; 0 = black) inside the mm rectangle."""
        c0, c1 = sorted((int(x0 / 25.4 * self.dpi), math.ceil(x1 / 25.4 * self.dpi)))
        h = self.size_mm[1]
        r0, r1 = sorted((int((h - y1) / 25.4 * self.dpi), math.ceil((h - y0) / 25.4 * self.dpi)))
        return int(self.rgb[r0 : r1 + 1, c0 : c1 + 1].max(axis=2).min())


def close(rgb: tuple[int, int, int], hex_color: str, tol: int = 12) -> bool:
    """Whether a pixel is ``hex_color`` within ``tol`` per channel."""
    want = [int(hex_color[i : i + 2], 16) for i in (1, 3, 5)]
    return all(abs(a - b) <= tol for a, b in zip(rgb, want, strict=True))
