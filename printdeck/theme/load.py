"""Reading a theme file: safe YAML, validation, symbol resolution."""

from __future__ import annotations

from pathlib import Path

import yaml
from pydantic import ValidationError

from printdeck.errors import PrintdeckError
from printdeck.model import SymbolSpec
from printdeck.resources import data_root
from printdeck.theme.model import SymbolEntry, Theme, ThemeSpec

IMAGE_SUFFIXES = {".svg": "svg", ".png": "raster", ".jpg": "raster", ".jpeg": "raster", ".webp": "raster"}
BUNDLED_PREFIX = "@assets/"
TWEMOJI_CREDIT = "Emoji artwork: Twemoji by Twitter, Inc and contributors, CC BY 4.0"


def bundled_theme_path(name: str) -> Path | None:
    """Return the bundled theme file called ``name`` (e.g. ``"default"``), if any."""
    path = data_root("themes") / f"{name}.yaml"
    return path if path.is_file() else None


def load_theme(ref: str | Path | None = None) -> Theme:
    """Load a theme by bundled name, YAML file, or folder holding ``theme.yaml``.

    Args:
        ref: ``None`` for the embedded default theme; a bundled theme's name; a path.

    Returns:
        The validated theme with every symbol resolved.

    Raises:
        PrintdeckError: the file is missing, unreadable, not valid YAML, or fails
            validation; the message names the file and the dotted key.
    """
    path = _theme_file(ref)
    spec = _validate(path, _read_yaml(path))
    base = path.parent
    symbols = _resolve_symbols(spec, base, path)
    credit = spec.extras.attribution
    if credit is None and any(s.source.startswith("assets/twemoji/") for s in symbols):
        credit = TWEMOJI_CREDIT
    return Theme(spec=spec, name=spec.name or path.stem, base_dir=base, symbols=tuple(symbols), attribution=credit)


def _theme_file(ref: str | Path | None) -> Path:
    if ref is None:
        ref = "default"
    path = Path(ref)
    if not path.exists() and isinstance(ref, str) and "/" not in ref and not ref.endswith((".yaml", ".yml")):
        bundled = bundled_theme_path(ref)
        if bundled is not None:
            return bundled
    if path.is_dir():
        path = path / "theme.yaml"
    if not path.is_file():
        raise PrintdeckError(f"{path}: theme file not found; give a .yaml file, a folder with theme.yaml, or a bundled theme name")
    return path


def _read_yaml(path: Path) -> object:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise PrintdeckError(f"{path}: cannot read the theme ({exc}); check the file") from exc
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise PrintdeckError(f"{path}: not valid YAML ({str(exc).splitlines()[0]})") from exc


def _validate(path: Path, data: object) -> ThemeSpec:
    if not isinstance(data, dict):
        raise PrintdeckError(f"{path}: a theme must be a YAML mapping of keys (name:, deck:, symbols: ...)")
    try:
        return ThemeSpec.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err["loc"]) or "(top level)"
        raise PrintdeckError(f"{path}: {where}: {err['msg']}") from exc


def _resolve_path(raw: str, base: Path) -> tuple[Path, str]:
    """Return (absolute path, manifest source string) for a theme path."""
    if raw.startswith(BUNDLED_PREFIX):
        rel = raw[len(BUNDLED_PREFIX):]
        return data_root("assets") / rel, "assets/" + rel
    path = (base / raw).resolve()
    try:
        return path, path.relative_to(base.resolve()).as_posix()
    except ValueError:
        return path, path.as_posix()


def _resolve_symbols(spec: ThemeSpec, base: Path, theme_file: Path) -> list[SymbolSpec]:
    out: list[SymbolSpec] = []
    for i, item in enumerate(spec.symbols):
        entry = SymbolEntry(image=item) if isinstance(item, str) else item
        if entry.folder is not None or (entry.image is not None and _resolve_path(entry.image, base)[0].is_dir()):
            folder, source = _resolve_path(entry.folder or entry.image or "", base)
            if not folder.is_dir():
                raise PrintdeckError(f"{theme_file}: symbols.{i}.folder: {folder} is not a folder")
            for f in sorted(folder.iterdir()):
                if f.suffix.lower() in IMAGE_SUFFIXES:
                    out.append(SymbolSpec(id=len(out), name=f.stem.replace("-", " "), kind=IMAGE_SUFFIXES[f.suffix.lower()],  # type: ignore[arg-type]
                                          source=f"{source}/{f.name}", path=f))
        elif entry.image is not None:
            path, source = _resolve_path(entry.image, base)
            if path.suffix.lower() not in IMAGE_SUFFIXES or not path.is_file():
                raise PrintdeckError(f"{theme_file}: symbols.{i}.image: {path} is not an SVG, PNG, JPEG or WebP file")
            out.append(SymbolSpec(id=len(out), name=entry.name or path.stem.replace("-", " "),
                                  kind=IMAGE_SUFFIXES[path.suffix.lower()], source=source, path=path,  # type: ignore[arg-type]
                                  scale=entry.scale, rotate=entry.rotate))
        elif entry.text is not None:
            colors = spec.text.colors
            font = _resolve_path(spec.text.font, base)[0] if spec.text.font else None
            out.append(SymbolSpec(id=len(out), name=entry.name or entry.text, kind="text", source=f"text:{entry.text}",
                                  text=entry.text, font_path=font, scale=entry.scale, rotate=entry.rotate,
                                  color=entry.color or colors[len(out) % len(colors)]))
        elif entry.photo is not None:
            path, source = _resolve_path(entry.photo, base)
            out.append(SymbolSpec(id=len(out), name=entry.name or path.stem, kind="photo", source=source, path=path,
                                  scale=entry.scale, rotate=entry.rotate, photo_shape=entry.shape))
        else:
            raise PrintdeckError(f"{theme_file}: symbols.{i}: give one of folder, image, text or photo")
    return out
