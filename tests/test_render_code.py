"""Code-level checks of the render package: one canvas factory, units from printdeck.units, typed API."""

from __future__ import annotations

import re
import typing
from pathlib import Path

from printdeck.render import forms, round_marks, round_packing, svg_forms

RENDER = Path(forms.__file__).parent


def _code(path: Path) -> str:
    """Source without comments and docstrings-ish prose lines (lines starting with text)."""
    text = re.sub(r'"""(.|\n)*?"""', "", path.read_text(encoding="utf-8"))
    return re.sub(r"#.*", "", text)


def test_only_the_canvas_module_opens_a_reportlab_canvas() -> None:
    opening = sorted(p.name for p in RENDER.glob("*.py") if re.search(r"\bCanvas\(", _code(p)))
    assert opening == ["canvas.py"]


def test_no_inch_or_point_literals_outside_units() -> None:
    offenders = sorted(p.name for p in RENDER.glob("*.py") if re.search(r"\b25\.4\b|MM_PER_IN\b", _code(p)))
    assert offenders == []


def test_svg_loader_and_imposition_helpers_are_typed_with_units() -> None:
    from reportlab.graphics.shapes import Drawing

    assert typing.get_type_hints(svg_forms.load_svg_drawing)["return"] is Drawing
    for fn in (round_packing._best_packing, round_packing._packings, round_marks._mark_clear):
        lengths = [n for n, t in typing.get_type_hints(fn).items() if n != "return" and t is float]
        assert lengths and all(n.endswith("_mm") for n in lengths), fn.__name__
