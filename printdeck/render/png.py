"""One square PNG a card for print-on-demand services (Pillow + resvg, no ReportLab).

The image is (diameter + 2 x bleed + 2 x extra) x dpi / 25.4 pixels square, the
card centred, its bleed disc in the card background colour, white outside, the
resolution stored in the file (pHYs). Symbols follow the same convention as the
PDF: the artwork's whole box scaled to ``box_mm``, rotated counter-clockwise.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

import defusedxml.ElementTree as safe_et
import resvg_py
from defusedxml import DefusedXmlException
from PIL import Image, ImageDraw

from printdeck.errors import PrintdeckError
from printdeck.model import CardLayout, Placement, SymbolSpec
from printdeck.render.artwork import by_id
from printdeck.theme.images import prepared_image
from printdeck.theme.model import Theme

MM_PER_IN = 25.4


def render_pngs(theme: Theme, symbols: Sequence[SymbolSpec], layouts: Sequence[CardLayout], out_dir: Path,
                dpi: int = 300, extra_margin_mm: float = 0.0) -> list[Path]:
    """Write ``card-001.png`` ... one a card into ``out_dir`` (created if missing).

    Args:
        theme: Card diameter, bleed and background come from ``theme.spec.card``.
        symbols: The deck's symbols (looked up by ``id``).
        layouts: The laid-out cards.
        out_dir: Output folder.
        dpi: Pixels per inch, stored in the files.
        extra_margin_mm: Extra radial margin of background beyond the bleed (for
            services that cut wide), mm.

    Returns:
        The PNG paths in card order.

    Raises:
        PrintdeckError: Bad dpi or margin, unwritable folder, unusable artwork.
    """
    if not 30 <= dpi <= 2400 or extra_margin_mm < 0:
        raise PrintdeckError(f"--dpi must be 30..2400 and the extra margin not negative (got {dpi}, {extra_margin_mm})")
    card = theme.spec.card
    out_dir = Path(out_dir)
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise PrintdeckError(f"--png-dir: cannot create {out_dir} ({exc.strerror})") from exc
    px_per_mm = dpi / MM_PER_IN
    radius_mm = card.diameter_mm / 2.0 + card.bleed_mm + extra_margin_mm
    side = round(2.0 * radius_mm * px_per_mm)
    paths: list[Path] = []
    table = by_id(symbols)
    for layout in layouts:
        img = Image.new("RGB", (side, side), "#ffffff")
        ImageDraw.Draw(img).ellipse((0, 0, side - 1, side - 1), fill=card.background)
        for placement in layout.placements:
            _paste(img, table[placement.symbol_id], placement, px_per_mm)
        path = out_dir / f"card-{layout.index + 1:03d}.png"
        try:
            img.save(path, dpi=(dpi, dpi), compress_level=1)
        except OSError as exc:
            raise PrintdeckError(f"{path}: cannot write ({exc.strerror})") from exc
        paths.append(path)
    return paths


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
