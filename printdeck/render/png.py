"""One square PNG a card for print-on-demand services (Pillow + resvg, no ReportLab).

The image is (diameter + 2 x bleed + 2 x extra) x dpi / 25.4 pixels square, the
card centred, its bleed disc in the card background colour, white outside, the
resolution stored in the file (pHYs). Symbols follow the same convention as the
PDF: the artwork's whole box scaled to ``box_mm``, rotated counter-clockwise.
"""

from __future__ import annotations

import io
import os
import shutil
import tempfile
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

import defusedxml.ElementTree as safe_et
import resvg_py
from defusedxml import DefusedXmlException
from PIL import Image, ImageDraw
from PIL.PngImagePlugin import PngInfo

from printdeck.errors import PrintdeckError
from printdeck.model import CardLayout, Placement, SymbolSpec
from printdeck.render.artwork import by_id
from printdeck.theme.images import prepared_image
from printdeck.theme.model import Theme
from printdeck.units import MM_PER_UNIT


def render_pngs(theme: Theme, symbols: Sequence[SymbolSpec], layouts: Sequence[CardLayout], out_dir: Path,
                dpi: int = 300, extra_margin_mm: float = 0.0) -> list[Path]:
    """Write ``card-001.png`` ... one a card into ``out_dir``, all or nothing.

    The PNGs are drawn into a temporary folder beside ``out_dir`` (same file
    system); only when every card is written are the old ``card-*.png`` files of
    ``out_dir`` that this build does not replace removed and the new ones moved
    in, so a smaller deck leaves no stale cards and a failed build leaves the
    folder as it was. Each PNG carries its DPI (pHYs) and iTXt ``Title`` (theme
    title), ``Copyright`` (the artwork credit, ``theme.attribution``) and
    ``Software``.

    Args:
        theme: Card diameter, bleed and background come from ``theme.spec.card``.
        symbols: The deck's symbols (looked up by ``id``).
        layouts: The laid-out cards.
        out_dir: Output folder (created if missing).
        dpi: Pixels per inch, stored in the files.
        extra_margin_mm: Extra radial margin of background beyond the bleed (for
            services that cut wide), mm.

    Returns:
        The PNG paths (inside ``out_dir``) in card order.

    Raises:
        PrintdeckError: Bad dpi or margin, ``out_dir`` is a file or unwritable,
            unusable artwork.
    """
    if not 30 <= dpi <= 2400 or extra_margin_mm < 0:
        raise PrintdeckError(f"--dpi must be 30..2400 and the extra margin not negative (got {dpi}, {extra_margin_mm})")
    out_dir = _ensure_folder(Path(out_dir))
    try:
        staging = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}.", suffix=".tmp", dir=out_dir.parent))
    except OSError as exc:
        raise PrintdeckError(f"--png-dir: cannot write beside {out_dir} ({exc.strerror})") from exc
    try:
        names = _write_cards(theme, symbols, layouts, staging, dpi, extra_margin_mm)
        return _move_in(staging, out_dir, names)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _ensure_folder(out_dir: Path) -> Path:
    """Create ``out_dir`` if missing; refuse a file in its place."""
    if out_dir.exists() and not out_dir.is_dir():
        raise PrintdeckError(f"--png-dir: {out_dir} is a file, not a folder; choose a folder")
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise PrintdeckError(f"--png-dir: cannot create {out_dir} ({exc.strerror})") from exc
    return out_dir


def _png_info(theme: Theme) -> PngInfo:
    """Text chunks of every card PNG: title, artwork credit, software."""
    info = PngInfo()
    info.add_itxt("Title", theme.spec.title)
    if theme.attribution:
        info.add_itxt("Copyright", theme.attribution)
    info.add_itxt("Software", "printdeck")
    return info


def _write_cards(theme: Theme, symbols: Sequence[SymbolSpec], layouts: Sequence[CardLayout], folder: Path,
                 dpi: int, extra_margin_mm: float) -> list[str]:
    """Draw every card into ``folder``; returns the file names in card order."""
    card = theme.spec.card
    px_per_mm = dpi / MM_PER_UNIT["in"]
    radius_mm = card.diameter_mm / 2.0 + card.bleed_mm + extra_margin_mm
    side = round(2.0 * radius_mm * px_per_mm)
    info = _png_info(theme)
    table = by_id(symbols)
    names: list[str] = []
    for layout in layouts:
        img = Image.new("RGB", (side, side), "#ffffff")
        ImageDraw.Draw(img).ellipse((0, 0, side - 1, side - 1), fill=card.background)
        for placement in layout.placements:
            _paste(img, table[placement.symbol_id], placement, px_per_mm)
        name = f"card-{layout.index + 1:03d}.png"
        try:
            img.save(folder / name, dpi=(dpi, dpi), compress_level=1, pnginfo=info)
        except OSError as exc:
            raise PrintdeckError(f"{folder / name}: cannot write ({exc.strerror})") from exc
        names.append(name)
    return names


def _move_in(staging: Path, out_dir: Path, names: Sequence[str]) -> list[Path]:
    """Remove stale ``card-*.png`` of ``out_dir`` and move the new cards in."""
    keep = set(names)
    try:
        for old in out_dir.glob("card-*.png"):
            if old.name not in keep and old.is_file():
                old.unlink()
        for name in names:
            os.replace(staging / name, out_dir / name)
    except OSError as exc:
        raise PrintdeckError(f"--png-dir: cannot write into {out_dir} ({exc.strerror})") from exc
    return [out_dir / name for name in names]


def _paste(img: Image.Image, symbol: SymbolSpec, p: Placement, px_per_mm: float) -> None:
    w_px = max(1, round(p.box_mm[0] * px_per_mm))
    h_px = max(1, round(p.box_mm[1] * px_per_mm))
    art = symbol_image(symbol, w_px, h_px)
    if p.rotation_deg:
        art = art.rotate(p.rotation_deg, resample=Image.Resampling.BILINEAR, expand=True)
    cx = img.width / 2.0 + p.center_mm[0] * px_per_mm
    cy = img.height / 2.0 - p.center_mm[1] * px_per_mm
    img.paste(art, (round(cx - art.width / 2.0), round(cy - art.height / 2.0)), art)


@lru_cache(maxsize=256)
def symbol_image(symbol: SymbolSpec, w_px: int, h_px: int) -> Image.Image:
    """The symbol's whole box as an RGBA image of exactly ``w_px`` x ``h_px`` pixels.

    SVGs are drawn by resvg at that width (after a defusedxml safety parse);
    rasters, photos (crop, removed background) and words (ink box) come from
    ``printdeck.theme.images.prepared_image``, the picture the layout traced.

    Raises:
        PrintdeckError: The artwork is missing, unsafe or unreadable.
    """
    if symbol.kind == "svg":
        if symbol.path is None or not Path(symbol.path).is_file():
            raise PrintdeckError(f"symbol {symbol.name!r}: artwork file {symbol.source} not found")
        path = Path(symbol.path)
        try:
            safe_et.parse(str(path))
            data = resvg_py.svg_to_bytes(svg_path=str(path), width=w_px, resources_dir=str(path.parent))
        except (DefusedXmlException, safe_et.ParseError, ValueError, OSError) as exc:
            raise PrintdeckError(f"{path}: cannot rasterise this SVG ({exc})") from exc
        art = Image.open(io.BytesIO(bytes(data))).convert("RGBA")
    else:
        art = prepared_image(symbol, max_px=max(w_px, h_px))
    if art.size != (w_px, h_px):
        art = art.resize((w_px, h_px), Image.Resampling.LANCZOS)
    return art
