"""printdeck/theme/reference.yaml (the README's theme with every key) stays complete and valid."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import yaml
from pydantic import BaseModel
from test_theme_support import image_folder, png_bytes

from printdeck.artwork.fonts import default_face
from printdeck.theme import SymbolEntry, ThemeSpec, deck_size, load_theme

REFERENCE = Path(__file__).resolve().parent.parent / "printdeck" / "theme" / "reference.yaml"


def _keys(model: type[BaseModel], prefix: str = "") -> set[str]:
    """Dotted YAML keys of a model and its sub-models (symbols entries as ``symbols.*``)."""
    out = set()
    for name, info in model.model_fields.items():
        key = prefix + (info.alias or name)
        out.add(key)
        sub = info.annotation
        if isinstance(sub, type) and issubclass(sub, BaseModel):
            out |= _keys(sub, key + ".")
    return out


def _used(data: object, prefix: str = "") -> set[str]:
    out: set[str] = set()
    if isinstance(data, dict):
        for key, value in data.items():
            out.add(prefix + key)
            out |= _used(value, prefix + key + ".")
    elif isinstance(data, list):
        for item in data:
            out |= _used(item, prefix.rstrip(".") + ".*." if prefix.endswith("symbols.") else prefix)
    return out


def test_reference_theme_shows_every_key() -> None:
    text = REFERENCE.read_text(encoding="utf-8")
    used = _used(yaml.safe_load(text))
    section = ""
    for line in text.splitlines():  # a commented-out key counts: "  # order: 7" under "deck:"
        if re.match(r"^\w+:", line):
            section = line.split(":")[0]
        elif m := re.match(r"^  # (\w+):", line):
            used.add(f"{section}.{m.group(1)}")
    used = {k.replace("symbols.*.faces.", "symbols.*.") for k in used}  # a face is a symbol entry
    expected = _keys(ThemeSpec) | {"symbols.*." + (i.alias or n) for n, i in SymbolEntry.model_fields.items()}
    assert expected - used == set()
    assert used - expected == set()


def test_reference_theme_loads_with_its_files(tmp_path: Path) -> None:
    shutil.copy(REFERENCE, tmp_path / "theme.yaml")
    image_folder(tmp_path / "pictures", 48)
    (tmp_path / "logo.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 4 4"><rect width="4" height="3"/></svg>'
    )
    (tmp_path / "photos").mkdir()
    (tmp_path / "photos" / "grandma.jpg").write_bytes(png_bytes((200, 150, 120), (90, 120), alpha=False))
    (tmp_path / "photos" / "rex.jpg").write_bytes(png_bytes((90, 60, 20), (120, 90), alpha=False))
    (tmp_path / "back.png").write_bytes(png_bytes((40, 70, 120), (100, 100), alpha=False))
    (tmp_path / "fonts").mkdir()
    shutil.copy(default_face().path, tmp_path / "fonts" / "handwriting.ttf")
    theme = load_theme(tmp_path)
    size = deck_size(theme)
    assert (size.symbols_per_card, size.cards, size.symbols_needed, len(theme.symbols)) == (8, 55, 57, 57)
    dog = next(s for s in theme.symbols if s.name == "dog")
    assert [f.text for f in dog.faces] == ["dog", "perro"] and dog.faces[1].lang == "es"
    rex = next(s for s in theme.symbols if s.name == "Rex")
    assert rex.remove_background and rex.photo_shape == "rounded" and rex.scale == 1.2
    assert theme.spec.backs.offset_y_mm == 0.5 and theme.attribution == "Photos: the Garcia family"


def test_readme_shows_the_reference_theme_as_it_is() -> None:
    """The README's theme block is the reference theme itself (one owner for its text)."""
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```yaml\n(.*?)```", readme, re.S)
    assert REFERENCE.read_text(encoding="utf-8") in blocks
