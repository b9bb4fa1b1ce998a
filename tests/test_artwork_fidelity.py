"""Every output draws each symbol inside the silhouette the layout packed.

One small deck (5 symbols a card, 21 cards) holds every kind of symbol: a bundled
Twemoji SVG, an SVG written here, a PNG with alpha, a circle and a rounded photo crop
(JPEGs made here), and words in Latin, Greek, Cyrillic, Arabic, Hebrew, Devanagari,
Thai, Chinese, Japanese and Korean (and mixed-script words). It is built once through
the public pipeline with the legend and PNG cards, and previewed.

For each card of each output (PDF pages rasterised at 8 px/mm by poppler's
``pdftoppm``, or pdfium without it; PNG cards at 203 dpi; the preview sheet at
8 px/mm) the layout's silhouettes (``silhouette(symbol).shape``: the traced ink, in
normalised box units, stricter than the collision ``outline``)
are stamped at the MANIFEST's placements (card ``center_mm``, symbol ``center_mm``,
``rotation_deg``, ``box_mm``) by testing each pixel centre against the polygon
(shapely), independently of the renderers. Ink is a pixel that differs from the card
background by more than 40 in some channel. Asserted:

* stray ink: the card's ink outside its stamps grown by :data:`GROW_PX` (2 px) is at
  most :data:`STRAY_SHARE` (0.1 %) of the card's ink (measured: 0 px on every card of
  the PDF (poppler), the PNGs and the preview; the preview's safe-zone circle is
  ignored 1.5 px either side);
* no empty silhouette: at least :data:`FILL_MIN` (60 %) of each stamped shape's
  pixels are ink (measured minimum: PDF 96 %, PNG and preview 93 %);
* a word's ink has the colour the manifest records for it;
* the PNG's border ring: ``card.border_color`` on the annulus 0.5-0.9 mm inside the cut
  in every 10-degree sector, and nowhere 2-3 mm inside the cut;
* the legend page: one artwork per symbol, in id order, each showing ink shaped like
  the symbol's silhouette (IoU >= 0.75; measured 0.86 to 1.00).

The check itself is shown to catch a symbol turned 10 degrees, moved 0.5 mm, drawn 8 %
too small or too big, or upside down (``test_the_check_catches_a_misdrawn_symbol``).
"""

from __future__ import annotations

import json
import math
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
import pytest
import shapely
from PIL import Image, ImageDraw
from scipy import ndimage

from printdeck.artwork import silhouette
from printdeck.artwork.fonts import system_faces
from printdeck.pipeline import BuildOptions, build
from printdeck.theme import load_theme

PX_PER_MM = 8.0  # PDF raster and preview resolution
PNG_DPI = 203  # 8 px/mm
GROW_PX = 2
STRAY_SHARE = 0.001
STRAY_SHARE_PDFIUM = 0.003
FILL_MIN = 0.60
INK_DIFF = 40
BACKGROUND = "#f4efe1"
BORDER = "#1d3557"
DIAMETER_MM = 70.0
BLEED_MM = 2.0
HAVE_CJK = bool(system_faces("熊猫ねこ고양이"))  # CI installs fonts-noto-cjk; a bare machine has none
WORDS = [
    "cat",
    "żółw",
    "γάτα",
    "кошка",
    "قطة",
    "عام 2024",
    "חתול",
    "שָׁלוֹם",
    "शिक्षक",
    "कुत्ता",
    "แมว",
    "ช้าง",
    *(["熊猫", "ねこ", "고양이"] if HAVE_CJK else ["лиса", "αλεπού", "fox"]),
    "שלום world",
]
SCRIPTS = {
    "Latin": "cat",
    "Greek": "γάτα",
    "Cyrillic": "кошка",
    "Arabic": "قطة",
    "Hebrew": "חתול",
    "Devanagari": "शिक्षक",
    "Thai": "แมว",
    **({"CJK": "熊猫", "Kana": "ねこ", "Hangul": "고양이"} if HAVE_CJK else {}),
}
THEME = f"""\
name: fidelity
title: Fidelity
seed: 5
deck: {{symbols_per_card: 5}}
card: {{diameter: {DIAMETER_MM}mm, bleed: {BLEED_MM}mm, safe_margin: 3mm, background: "{BACKGROUND}",
       border_color: "{BORDER}"}}
layout: {{rotation: any}}
text: {{colors: ["#0072b2", "#d55e00", "#009e73", "#cc79a7"]}}
symbols:
  - image: "@assets/twemoji/anchor.svg"
  - image: simple.svg
  - image: alpha.png
  - {{photo: wide.jpg, shape: circle}}
  - {{photo: tall.jpg, shape: rounded}}
""" + "".join(f"  - text: {w}\n" for w in WORDS)


def _write_artwork(folder: Path) -> None:
    im = Image.new("RGBA", (800, 600), (0, 0, 0, 0))
    draw = ImageDraw.Draw(im)
    draw.polygon([(400, 20), (780, 580), (20, 580)], fill="#8030a0")
    draw.ellipse((300, 300, 500, 500), fill=(0, 0, 0, 0))  # a transparent hole
    im.save(folder / "alpha.png")
    for name, size in (("wide.jpg", (640, 480)), ("tall.jpg", (360, 600))):
        im = Image.new("RGB", size, "#3060c0")
        draw = ImageDraw.Draw(im)
        draw.rectangle((0, 0, size[0] // 3, size[1]), fill="#c03020")
        draw.ellipse((size[0] // 3, size[1] // 4, size[0] - 20, size[1] - 40), fill="#20a040")
        im.save(folder / name, quality=92)
    (folder / "simple.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 120 80">'
        '<polygon points="20,70 40,10 60,70 5,30 75,30" fill="#e63946"/>'
        '<circle cx="95" cy="40" r="20" fill="none" stroke="#1d3557" stroke-width="8"/></svg>'
    )


@pytest.fixture(scope="module")
def deck(tmp_path_factory: pytest.TempPathFactory) -> dict:
    root = tmp_path_factory.mktemp("fidelity")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("PRINTDECK_CACHE_DIR", str(root / "cache"))
        theme_dir = root / "theme"
        theme_dir.mkdir()
        _write_artwork(theme_dir)
        (theme_dir / "theme.yaml").write_text(THEME, encoding="utf-8")
        out = root / "out"
        out.mkdir()
        result = build(
            theme_dir / "theme.yaml", out / "deck.pdf", BuildOptions(legend=True, png_dir=out / "png", dpi=PNG_DPI)
        )
        manifest = json.loads(result.manifest_path.read_text(encoding="utf-8"))
        specs = {s.source: s for s in load_theme(theme_dir / "theme.yaml").symbols}
        symbols = {m["id"]: specs[m["source"]] for m in manifest["symbols"]}
        shapes = {sid: silhouette(s).shape for sid, s in symbols.items()}
        aspects = {sid: silhouette(s).aspect for sid, s in symbols.items()}
        yield {
            "pdf": result.pdf_path,
            "manifest": manifest,
            "symbols": symbols,
            "shapes": shapes,
            "aspects": aspects,
            "pngs": result.png_paths,
            "theme": theme_dir / "theme.yaml",
            "root": root,
        }


# ---------------------------------------------------------------- stamping


def _stamp(
    shape: shapely.Geometry, placement: dict, center_px: tuple[float, float], px_per_mm: float, size: tuple[int, int]
) -> np.ndarray:
    """``(H, W) bool``: pixels whose centre lies in ``shape`` placed as ``placement`` says.

    A silhouette point (x, y) lands at center + rotate(h * (x, y), rotation) mm (card frame,
    y up); the card centre is at pixel ``center_px`` (y down).
    """
    h_mm = placement["box_mm"][1]
    theta = math.radians(placement["rotation_deg"])
    sx = center_px[0] + placement["center_mm"][0] * px_per_mm
    sy = center_px[1] - placement["center_mm"][1] * px_per_mm
    reach = 0.5 * math.hypot(*placement["box_mm"]) * px_per_mm + 2
    x0, x1 = max(0, int(sx - reach)), min(size[0], int(sx + reach) + 1)
    y0, y1 = max(0, int(sy - reach)), min(size[1], int(sy + reach) + 1)
    out = np.zeros((size[1], size[0]), dtype=bool)
    if x0 >= x1 or y0 >= y1:
        return out
    xs, ys = np.meshgrid(np.arange(x0, x1) + 0.5, np.arange(y0, y1) + 0.5)
    dx, dy = (xs - sx) / px_per_mm, -(ys - sy) / px_per_mm  # mm from the symbol centre, y up
    u = (math.cos(theta) * dx + math.sin(theta) * dy) / h_mm
    v = (-math.sin(theta) * dx + math.cos(theta) * dy) / h_mm
    shapely.prepare(shape)
    out[y0:y1, x0:x1] = shapely.contains_xy(shape, u, v)
    return out


def _rgb(hex_colour: str) -> np.ndarray:
    return np.array([int(hex_colour[i : i + 2], 16) for i in (1, 3, 5)])


def _ink(rgb: np.ndarray, background: str = BACKGROUND) -> np.ndarray:
    return np.abs(rgb.astype(int) - _rgb(background)).max(axis=2) > INK_DIFF


def _radius_px(size: tuple[int, int], center_px: tuple[float, float]) -> np.ndarray:
    xs, ys = np.meshgrid(np.arange(size[0]) + 0.5, np.arange(size[1]) + 0.5)
    return np.hypot(xs - center_px[0], ys - center_px[1])


def _check_card(
    rgb: np.ndarray,
    card: dict,
    deck: dict,
    center_px: tuple[float, float],
    px_per_mm: float,
    ignore: np.ndarray | None = None,
) -> dict:
    """Stamp one card's silhouettes into ``rgb`` (its whole image) and check the ink."""
    size = (rgb.shape[1], rgb.shape[0])
    radius = _radius_px(size, center_px)
    inside = radius < (DIAMETER_MM / 2.0 - 1.1) * px_per_mm - GROW_PX  # inside the border ring
    if ignore is not None:
        inside &= ~ignore
    ink = _ink(rgb) & inside
    allowed = np.zeros_like(ink)
    fills, colours = {}, {}
    for p in card["symbols"]:
        w_mm, h_mm = p["box_mm"]
        assert w_mm / h_mm == pytest.approx(deck["aspects"][p["id"]], rel=2e-3), "box_mm is not the silhouette's box"
        stamp = _stamp(deck["shapes"][p["id"]], p, center_px, px_per_mm, size)
        assert stamp.sum() > 20, f"card {card['index']}: symbol {p['id']} stamps only {stamp.sum()} px"
        allowed |= ndimage.binary_dilation(stamp, np.ones((2 * GROW_PX + 1,) * 2, dtype=bool))
        fills[p["id"]] = float(ink[stamp].mean())
        if "color" in p:  # a word: its strongest ink is the manifest's colour
            pixels = rgb[stamp & ink].astype(int)
            strength = np.abs(pixels - _rgb(BACKGROUND)).max(axis=1)
            core = pixels[strength >= np.percentile(strength, 60)]
            colours[p["id"]] = (np.median(core, axis=0), _rgb(p["color"]))
    stray = int((ink & ~allowed).sum())
    return {"stray": stray, "ink": int(ink.sum()), "fills": fills, "colours": colours}


def _assert_cards(
    results: list[tuple[dict, dict]], deck: dict, what: str, every_symbol: bool = True, stray_share: float = STRAY_SHARE
) -> None:
    """Apply the thresholds to every card (and print the measured extremes, ``pytest -s``)."""
    seen: set[int] = set()
    worst_stray, worst_fill = 0.0, 1.0
    for card, res in results:
        share = res["stray"] / max(res["ink"], 1)
        worst_stray = max(worst_stray, share)
        assert share <= stray_share, (
            f"{what} card {card['index'] + 1}: {res['stray']} ink px ({share:.2%}) outside the layout's silhouettes"
        )
        for sid, fill in res["fills"].items():
            name = deck["symbols"][sid].name
            worst_fill = min(worst_fill, fill)
            assert fill >= FILL_MIN, f"{what} card {card['index'] + 1}: {name!r} shows ink on only {fill:.0%}"
            seen.add(sid)
        for sid, (got, want) in res["colours"].items():
            assert np.abs(got - want).max() <= 40, (
                f"{what} card {card['index'] + 1}: word {deck['symbols'][sid].name!r} is {got} not {want}"
            )
    print(
        f"{what}: {len(results)} cards, stray ink at most {worst_stray:.3%} of a card's ink, "
        f"silhouettes at least {worst_fill:.0%} inked"
    )
    if every_symbol:
        assert seen == set(deck["symbols"]), f"{what}: symbols never checked: {set(deck['symbols']) - seen}"
        words = {deck["symbols"][sid].text for sid in seen}
        assert set(SCRIPTS.values()) <= words, "a script is missing from the deck"


# ---------------------------------------------------------------- outputs


def _pdf_pages(pdf: Path, px_per_mm: float, folder: Path, last: int) -> dict[int, np.ndarray]:
    """Pages 1 to ``last`` of ``pdf`` as RGB, by poppler's ``pdftoppm`` (pdfium when it is missing).

    Poppler draws an image exactly over its box; pdfium's image smoothing spreads a PNG's
    soft mask about 3 device pixels wider (measured 0.09 % of a card's ink), hence the
    looser :data:`STRAY_SHARE_PDFIUM` when only pdfium is there.
    """
    if shutil.which("pdftoppm"):
        subprocess.run(
            ["pdftoppm", "-r", f"{px_per_mm * 25.4:.4f}", "-l", str(last), "-png", str(pdf), str(folder / "page")],
            check=True,
            timeout=60,
        )
        return {
            int(p.stem.rsplit("-", 1)[1]): np.asarray(Image.open(p).convert("RGB"))
            for p in sorted(folder.glob("page-*.png"))
        }
    doc = pdfium.PdfDocument(str(pdf))
    try:
        return {
            k + 1: np.asarray(doc[k].render(scale=px_per_mm * 25.4 / 72.0).to_pil().convert("RGB")) for k in range(last)
        }
    finally:
        doc.close()


def test_pdf_cards_print_inside_the_silhouettes(deck: dict, tmp_path: Path) -> None:
    pages = _pdf_pages(deck["pdf"], PX_PER_MM, tmp_path, max(c["page"] for c in deck["manifest"]["cards"]))
    height_mm = deck["manifest"]["paper"]["size_mm"][1]
    assert deck["manifest"]["card"]["diameter_mm"] == DIAMETER_MM and deck["manifest"]["card"]["bleed_mm"] == BLEED_MM
    results = []
    for card in deck["manifest"]["cards"]:
        page = pages[card["page"]]
        assert abs(page.shape[0] - height_mm * PX_PER_MM) <= 1, "the page raster is not the manifest's paper"
        cx, cy = card["center_mm"][0] * PX_PER_MM, (height_mm - card["center_mm"][1]) * PX_PER_MM
        half = math.ceil((DIAMETER_MM / 2.0 + BLEED_MM) * PX_PER_MM)  # the card and its bleed
        x0, y0 = int(cx) - half, int(cy) - half
        rgb = page[y0 : y0 + 2 * half, x0 : x0 + 2 * half]
        assert rgb.shape[:2] == (2 * half, 2 * half), f"card {card['index'] + 1} is off its page"
        results.append((card, _check_card(rgb, card, deck, (cx - x0, cy - y0), PX_PER_MM)))
    _assert_cards(results, deck, "PDF", stray_share=STRAY_SHARE if shutil.which("pdftoppm") else STRAY_SHARE_PDFIUM)


def test_png_cards_draw_inside_the_silhouettes(deck: dict) -> None:
    px_per_mm = PNG_DPI / 25.4
    results = []
    assert len(deck["pngs"]) == len(deck["manifest"]["cards"])
    for card, path in zip(deck["manifest"]["cards"], deck["pngs"]):
        assert path.name == f"card-{card['index'] + 1:03d}.png"
        rgb = np.asarray(Image.open(path).convert("RGB"))
        assert rgb.shape[0] == rgb.shape[1] == round((DIAMETER_MM + 2 * BLEED_MM) * px_per_mm)
        center = (rgb.shape[1] / 2.0, rgb.shape[0] / 2.0)
        results.append((card, _check_card(rgb, card, deck, center, px_per_mm)))
    _assert_cards(results, deck, "PNG")


@pytest.mark.parametrize(
    "change", ["turned 10 deg", "moved 0.5 mm", "box 8 % smaller", "box 8 % bigger", "upside down"]
)
def test_the_check_catches_a_misdrawn_symbol(deck: dict, change: str) -> None:
    """The same check on a correct PNG card fails when the manifest is altered slightly
    for any one symbol: it tells a misdrawn symbol from anti-aliasing."""
    px_per_mm = PNG_DPI / 25.4
    card = deck["manifest"]["cards"][0]
    rgb = np.asarray(Image.open(deck["pngs"][0]).convert("RGB"))
    center = (rgb.shape[1] / 2.0, rgb.shape[0] / 2.0)
    for k, p in enumerate(card["symbols"]):
        symbol = deck["symbols"][p["id"]]
        turned = change in ("turned 10 deg", "upside down")
        if turned and symbol.kind == "photo" and (symbol.photo_shape == "circle" or change == "upside down"):
            continue  # a disc looks the same turned, a rounded square upside down
        q = dict(p)
        if change == "turned 10 deg":
            q["rotation_deg"] = p["rotation_deg"] + 10.0
        elif change == "moved 0.5 mm":
            q["center_mm"] = [p["center_mm"][0] + 0.5, p["center_mm"][1]]
        elif change == "upside down":
            q["rotation_deg"] = p["rotation_deg"] + 180.0
        else:
            f = 0.92 if "smaller" in change else 1.08
            q["box_mm"] = [p["box_mm"][0] * f, p["box_mm"][1] * f]
        altered = dict(card, symbols=[*card["symbols"][:k], q, *card["symbols"][k + 1 :]])
        res = _check_card(rgb, altered, deck, center, px_per_mm)
        caught = res["stray"] > STRAY_SHARE * res["ink"] or res["fills"][p["id"]] < FILL_MIN
        assert caught, f"{deck['symbols'][p['id']].name!r} {change}: not caught ({res['stray']} stray px)"


def test_png_cards_have_the_border_ring(deck: dict) -> None:
    """``card.border_color``: a thin ring just inside the cut, all the way round, and only there."""
    px_per_mm = PNG_DPI / 25.4
    cut = DIAMETER_MM / 2.0 * px_per_mm
    for path in deck["pngs"][:5]:
        rgb = np.asarray(Image.open(path).convert("RGB")).astype(int)
        size = (rgb.shape[1], rgb.shape[0])
        radius = _radius_px(size, (size[0] / 2.0, size[1] / 2.0))
        xs, ys = np.meshgrid(np.arange(size[0]) + 0.5 - size[0] / 2.0, np.arange(size[1]) + 0.5 - size[1] / 2.0)
        sector = ((np.degrees(np.arctan2(ys, xs)) + 180.0) // 10).astype(int) % 36
        is_border = np.abs(rgb - _rgb(BORDER)).max(axis=2) <= 40
        ring = (radius > cut - 0.9 * px_per_mm) & (radius < cut - 0.5 * px_per_mm)
        for k in range(36):
            share = is_border[ring & (sector == k)].mean()
            assert share >= 0.9, f"{path.name}: border ring only {share:.0%} present at {k * 10}-{k * 10 + 10} deg"
        within = (radius > cut - 3.0 * px_per_mm) & (radius < cut - 2.0 * px_per_mm)
        assert is_border[within].mean() < 0.01, f"{path.name}: border colour far inside the cut"
        outside_cut = (radius > cut + 0.3 * px_per_mm) & (radius < cut + (BLEED_MM - 0.3) * px_per_mm)
        assert not _ink(rgb[..., :3].astype(np.uint8))[outside_cut].any(), f"{path.name}: bleed is not background"


def test_preview_draws_inside_the_silhouettes(deck: dict) -> None:
    """``write_preview`` (the ``printdeck preview`` command): its cards stamped with the
    layout the preview makes (the same public functions, the same seed)."""
    from printdeck.assign import colour_words
    from printdeck.deck_preview import preview_cards, write_preview
    from printdeck.layout import LayoutSettings, layout_deck

    count, columns = 5, 4
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("PRINTDECK_CACHE_DIR", str(deck["root"] / "cache"))
        out, drawn = write_preview(deck["theme"], deck["root"] / "preview.png", count=count, px_per_mm=PX_PER_MM)
        theme = load_theme(deck["theme"])
        cards = preview_cards(theme, count, theme.spec.seed)
        settings = LayoutSettings.from_theme(theme)
        layouts = colour_words(
            layout_deck(cards, settings, theme.spec.seed), [s for c in cards for s in c], theme.spec.text.colors
        )
    assert drawn == count
    sheet = np.asarray(Image.open(out).convert("RGB"))
    tile = math.ceil((DIAMETER_MM + 2) * PX_PER_MM)
    assert sheet.shape[:2] == (2 * tile, columns * tile)
    by_source = {s.source: sid for sid, s in deck["symbols"].items()}
    results = []
    for k, (lay, syms) in enumerate(zip(layouts, cards)):
        card = {
            "index": k,
            "symbols": [
                {
                    "id": by_source[s.source],
                    "center_mm": p.center_mm,
                    "rotation_deg": p.rotation_deg,
                    "box_mm": p.box_mm,
                    **({"color": p.color} if p.color else {}),
                }
                for p, s in zip(lay.placements, syms)
            ],
        }
        row, col = divmod(k, columns)
        rgb = sheet[row * tile : (row + 1) * tile, col * tile : (col + 1) * tile]
        center = (tile / 2.0, tile / 2.0)
        safe = _radius_px((tile, tile), center)
        ignore = np.abs(safe - settings.safe_radius_mm * PX_PER_MM) <= 1.5  # the faint safe-zone circle
        results.append((card, _check_card(rgb, card, deck, center, PX_PER_MM, ignore)))
    _assert_cards(results, deck, "preview", every_symbol=False)


def test_legend_page_shows_every_symbol(deck: dict) -> None:
    """The legend: one artwork per symbol in the theme's order (row by row), each with ink shaped like
    the symbol's silhouette (IoU >= 0.75 after scaling both to the cell's ink box)."""
    doc = pdfium.PdfDocument(str(deck["pdf"]))
    try:
        page = doc[len(doc) - 1]
        height_pt = page.get_size()[1]
        scale = PX_PER_MM * 25.4 / 72.0
        rgb = np.asarray(page.render(scale=scale).to_pil().convert("RGB"))
        boxes = [o.get_bounds() for o in page.get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_FORM], max_depth=1)]
    finally:
        doc.close()
    from printdeck.render.legend_cells import theme_order

    ids = sorted(deck["symbols"], key=lambda sid: theme_order(deck["symbols"][sid]))  # as the theme lists them
    assert len(boxes) == len(ids), f"{len(boxes)} artworks on the legend page for {len(ids)} symbols"
    pitch_pt, top_pt = 32.0 * 72 / 25.4, max((b[1] + b[3]) / 2.0 for b in boxes)  # extras.LEGEND_CELL_MM
    # rows top down (a word sits on its row's baseline, a little off the row's middle), then left to right
    boxes.sort(key=lambda b: (round((top_pt - (b[1] + b[3]) / 2.0) / pitch_pt), b[0]))
    ink = _ink(rgb, "#ffffff")
    scores = []
    for sid, (left, bottom, right, top) in zip(ids, boxes):
        x0, x1 = int(left * scale) - 2, math.ceil(right * scale) + 2
        y0, y1 = int((height_pt - top) * scale) - 2, math.ceil((height_pt - bottom) * scale) + 2
        cell = ink[y0:y1, x0:x1]
        name = deck["symbols"][sid].name
        assert cell.sum() > 50, f"legend: {name!r} shows no ink"
        ys_ink, xs_ink = np.nonzero(cell)
        cropped = cell[ys_ink.min() : ys_ink.max() + 1, xs_ink.min() : xs_ink.max() + 1]
        rows, cols = cropped.shape
        a, b, c, d = deck["shapes"][sid].bounds  # the silhouette's ink box, sampled at the same pixels
        xs, ys = np.meshgrid(a + (np.arange(cols) + 0.5) * (c - a) / cols, d - (np.arange(rows) + 0.5) * (d - b) / rows)
        want = shapely.contains_xy(deck["shapes"][sid], xs, ys)
        iou = (cropped & want).sum() / (cropped | want).sum()
        assert iou >= 0.75, f"legend: {name!r} does not look like its silhouette (IoU {iou:.2f})"
        scores.append(iou)
    print(f"legend: {len(ids)} symbols, IoU with the silhouette {min(scores):.2f} to {max(scores):.2f}")
