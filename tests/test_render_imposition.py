"""Imposition geometry: cards, cut marks and the footer ruler on the sheet (pure data)."""

from __future__ import annotations

import itertools
import math
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from printdeck.errors import PrintdeckError
from printdeck.render.backs import mirror_mm
from printdeck.render.freespace import KEEP_CLEAR_MM
from printdeck.render.imposition import MIN_MARGIN_MM, impose
from printdeck.render.round_marks import MARK_CLEAR_MM, MARK_LENGTH_MM, MARK_OFFSET_MM, cut_mark_segments, missing_marks
from printdeck.render.sheet import MarkWarning, warn_missing_marks
from printdeck.units import paper_size_mm


def test_paper_sizes() -> None:
    assert paper_size_mm("a4") == (210.0, 297.0)
    assert paper_size_mm("Letter") == (215.9, 279.4)
    assert paper_size_mm("a3") == (297.0, 420.0)
    assert paper_size_mm((100, 150.5)) == (100.0, 150.5)
    for bad in ("b5", (0, 100), ("x", 3)):
        with pytest.raises(PrintdeckError, match=r"paper\.size"):
            paper_size_mm(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize(("paper", "per_page", "pages"), [("a4", 6, 10), ("letter", 5, 11), ("a3", 12, 5)])
def test_default_card_counts(paper: str, per_page: int, pages: int) -> None:
    imp = impose(paper_size_mm(paper), 85.0, 3.0, 5.0, 4.0, 55)
    assert (imp.per_page, imp.pages) == (per_page, pages)
    assert [s.card_index for s in imp.slots] == list(range(55))
    assert imp.ruler_mm is not None
    assert imp.page_size_mm == paper_size_mm(paper)  # portrait kept


def test_letter_uses_a_staggered_row() -> None:
    """A 2-1-2 hexagonal packing fits five 91 mm discs on Letter where a grid fits four."""
    imp = impose(paper_size_mm("letter"), 85.0, 3.0, 5.0, 4.0, 5)
    xs = sorted({round(c[0], 3) for c in imp.full_page_centers_mm()})
    assert imp.packing.startswith("hex") and len(xs) == 3


def test_card_larger_than_paper_is_refused() -> None:
    with pytest.raises(PrintdeckError, match=r"card\.diameter"):
        impose(paper_size_mm("a4"), 200.0, 3.0, 5.0, 4.0, 10)


def test_single_page_is_trim_plus_bleed() -> None:
    imp = impose(paper_size_mm("a4"), 85.0, 3.0, 5.0, 4.0, 3, single=True)
    assert imp.page_size_mm == (91.0, 91.0) and imp.pages == 3 and imp.per_page == 1
    assert all(s.center_mm == (45.5, 45.5) and s.page == i + 1 for i, s in enumerate(imp.slots))


def test_mirror_for_duplex() -> None:
    assert mirror_mm((30.0, 40.0), (210.0, 297.0), "long-edge") == (180.0, 40.0)
    assert mirror_mm((30.0, 40.0), (210.0, 297.0), "short-edge") == (30.0, 257.0)
    assert mirror_mm((30.0, 40.0), (210.0, 297.0), "long-edge", (1.5, -2.0)) == (181.5, 38.0)
    assert mirror_mm((30.0, 40.0), (297.0, 210.0), "long-edge") == (30.0, 170.0)  # landscape
    assert mirror_mm((30.0, 40.0), (297.0, 210.0), "short-edge") == (267.0, 40.0)
    with pytest.raises(ValueError, match="sideways"):
        mirror_mm((0.0, 0.0), (1.0, 1.0), "sideways")


def _check_sheet(paper: tuple[float, float], diameter: float, bleed: float, gap: float) -> None:
    imp = impose(paper, diameter, bleed, 5.0, gap, 40)
    outer = diameter / 2.0 + bleed
    centers = imp.full_page_centers_mm()
    w, h = paper
    for x, y in centers:  # bleed at least the margin from every edge
        assert min(x - outer, y - outer, w - x - outer, h - y - outer) >= MIN_MARGIN_MM - 1e-6
    for a, b in itertools.combinations(centers, 2):
        assert math.dist(a, b) >= 2 * outer + gap - 1e-6
    marks = cut_mark_segments(centers, outer, imp.inner_rect_mm())
    for p0, p1 in marks:
        for t in (0.0, 0.5, 1.0):
            p = (p0[0] + t * (p1[0] - p0[0]), p0[1] + t * (p1[1] - p0[1]))
            assert all(math.dist(p, c) >= outer + min(MARK_OFFSET_MM, MARK_CLEAR_MM) - 1e-6 for c in centers)
            assert MIN_MARGIN_MM - 1e-6 <= p[0] <= w - MIN_MARGIN_MM + 1e-6
    if imp.ruler_mm is not None:
        x0, y0, x1, y1 = imp.ruler_mm
        for cx, cy in centers:
            dx, dy = max(x0 - cx, 0, cx - x1), max(y0 - cy, 0, cy - y1)
            assert math.hypot(dx, dy) >= outer + KEEP_CLEAR_MM - 1e-6


@settings(max_examples=25, deadline=None)
@given(
    paper=st.sampled_from(["a4", "letter", "a3"]),
    diameter=st.floats(40.0, 120.0),
    bleed=st.floats(0.0, 5.0),
    gap=st.floats(0.0, 10.0),
)
def test_sheet_geometry_properties(paper: str, diameter: float, bleed: float, gap: float) -> None:
    _check_sheet(paper_size_mm(paper), diameter, bleed, gap)


def test_every_card_gets_four_marks_with_the_default_gap() -> None:
    imp = impose(paper_size_mm("a4"), 85.0, 3.0, 5.0, 4.0, 6)
    centers = imp.full_page_centers_mm()
    marks = cut_mark_segments(centers, imp.outer_radius_mm, imp.inner_rect_mm())
    assert all(math.dist(*m) >= MARK_LENGTH_MM - 1e-6 for m in marks)  # never cut short
    assert missing_marks(centers, imp.outer_radius_mm, imp.inner_rect_mm()) == 0
    for cx, cy in centers:  # each tangent point has a mark on its radius: 24 points, 7 marks shared across gaps
        for ux, uy in ((0, 1), (0, -1), (1, 0), (-1, 0)):
            tip = (cx + ux * imp.outer_radius_mm, cy + uy * imp.outer_radius_mm)
            assert any(_on_radius(tip, (ux, uy), m) for m in marks)
    assert len(marks) == 17


def _on_radius(
    tip: tuple[float, float], direction: tuple[int, int], seg: tuple[tuple[float, float], tuple[float, float]]
) -> bool:
    """The mark lies on the tangent point's radial line, beyond it and starting within 0.5 mm of it."""
    along = [(p[0] - tip[0]) * direction[0] + (p[1] - tip[1]) * direction[1] for p in seg]
    across = [abs((p[0] - tip[0]) * direction[1] - (p[1] - tip[1]) * direction[0]) for p in seg]
    return max(across) < 1e-6 and -1e-6 <= min(along) <= 0.5 + 1e-6


def test_a_gap_too_narrow_for_whole_marks_leaves_them_out_and_says_so() -> None:
    imp = impose(paper_size_mm("a4"), 85.0, 3.0, 5.0, 2.0, 6)
    centers = imp.full_page_centers_mm()
    marks = cut_mark_segments(centers, imp.outer_radius_mm, imp.inner_rect_mm())
    assert all(math.dist(*m) >= MARK_LENGTH_MM - 1e-6 for m in marks)
    assert missing_marks(centers, imp.outer_radius_mm, imp.inner_rect_mm()) > 0
    with pytest.warns(MarkWarning, match="paper.gap"):
        warn_missing_marks(imp)


def test_check_warns_of_the_marks_a_narrow_gap_leaves_out_as_build_does(tmp_path: Path) -> None:
    """``paper.gap: 1mm``: the build said cut marks are left out, check said nothing (the
    two should agree on what a theme prints)."""
    import printdeck

    theme = {"name": "gap", "deck": {"order": 2}, "paper": {"gap": "1mm"}, "symbols": [{"folder": "@assets/twemoji"}]}
    with pytest.warns(MarkWarning, match=r"paper\.gap: \d+ cut marks a sheet are left out") as checked:
        printdeck.check_theme(theme)
    with pytest.warns(MarkWarning) as built:
        printdeck.build(theme, out=tmp_path / "gap.pdf")
    said = {str(w.message) for w in checked if issubclass(w.category, MarkWarning)}
    assert said == {str(w.message) for w in built if issubclass(w.category, MarkWarning)}


@pytest.mark.parametrize(
    ("paper", "diameter_mm", "marked", "unmarked"), [("a4", 90.0, 4, 5), ("a4", 70.0, 6, 8), ("letter", 65.0, 6, 9)]
)
def test_without_crop_marks_the_cards_take_their_room(
    paper: str, diameter_mm: float, marked: int, unmarked: int
) -> None:
    """Sheets without crop marks (``paper.cut_marks: false``) kept the marks' 3 mm a side
    empty: a 90 mm deck took 15 A4 sheets, not 12. The cards may now come to the margin,
    never past it."""
    size = paper_size_mm(paper)
    assert impose(size, diameter_mm, 3.0, 5.0, 4.0, 60).per_page == marked
    imp = impose(size, diameter_mm, 3.0, 5.0, 4.0, 60, mark_room=False)
    assert imp.per_page == unmarked
    outer_mm = diameter_mm / 2.0 + 3.0
    for x, y in imp.full_page_centers_mm():
        assert x - outer_mm >= MIN_MARGIN_MM - 1e-9 and x + outer_mm <= size[0] - MIN_MARGIN_MM + 1e-9
        assert y - outer_mm >= MIN_MARGIN_MM - 1e-9 and y + outer_mm <= size[1] - MIN_MARGIN_MM + 1e-9


def test_a_build_without_crop_marks_prints_more_cards_a_sheet_inside_the_margin(tmp_path: Path) -> None:
    """Rasterised: seven 90 mm cards on A4 without crop marks are 5 and 2 a sheet (with
    marks, 4 and 3; the manifest says each card's sheet), the first sheet's middle card in
    the middle of the paper, and no ink comes within the 5 mm margin of the paper's edge."""
    import json

    import numpy as np
    import pypdfium2
    from test_theme_support import small_theme

    import printdeck

    card = {"diameter": "90mm", "bleed": "3mm", "background": "#ffe08a"}  # the bleed shows where the cards reach
    sheets = []
    for marks in (True, False):
        data = small_theme(card=card, paper={"size": "a4", "cut_marks": marks})
        result = printdeck.build(data, out=tmp_path / f"marks-{marks}.pdf")
        manifest = json.loads(result.manifest_path.read_text(encoding="utf-8"))
        sheets.append([sum(c["sheet"] == n for c in manifest["cards"]) for n in (1, 2)])
    assert sheets == [[4, 3], [5, 2]]
    px_per_mm = 4.0
    document = pypdfium2.PdfDocument(str(result.pdf_path))
    try:
        pages = [np.asarray(p.render(scale=px_per_mm * 25.4 / 72).to_pil().convert("L")) < 245 for p in document]
    finally:
        document.close()
    edge = round(MIN_MARGIN_MM * px_per_mm) - 1
    for ink in pages:
        assert not (ink[:edge].any() or ink[-edge:].any() or ink[:, :edge].any() or ink[:, -edge:].any())
    middle = pages[0][round(148.5 * px_per_mm)].nonzero()[0]  # across the sheet's middle: one card, centred
    assert len(middle) and abs((middle[0] + middle[-1]) / 2 / px_per_mm - 105.0) < 2.0


def test_without_crop_marks_the_footer_plans_round_no_mark() -> None:
    """The packing kept its ruler clear of crop marks that a sheet without them never
    prints, and a packing with the ruler beat one with more cards: 40 mm cards 1 mm apart
    stayed 22 an A4 sheet, where 24 fit with the ruler."""
    size = paper_size_mm("a4")
    marked = impose(size, 40.0, 3.0, 5.0, 1.0, 60)
    unmarked = impose(size, 40.0, 3.0, 5.0, 1.0, 60, mark_room=False)
    assert (marked.per_page, unmarked.per_page) == (22, 24)
    assert unmarked.ruler_mm is not None and unmarked.full_page_marks() == []
    assert marked.full_page_marks()


@pytest.mark.parametrize(("diameter_mm", "gap_mm"), [(64.0, 0.0), (41.0, 0.0), (48.0, 0.0), (40.0, 1.0)])
def test_registration_marks_keep_the_crop_marks_room_without_crop_marks(diameter_mm: float, gap_mm: float) -> None:
    """With registration marks, a sheet keeps the crop marks' room even without crop marks:
    the registration margin counts on it. Without it a 64 mm card on Letter came 0.6 mm
    into a registration mark's clear zone, where nothing else may print."""
    from test_theme_support import small_theme

    import printdeck
    from printdeck.deck_plan import impose_theme
    from printdeck.render.registration import registration_zones

    card = {"diameter": f"{diameter_mm:g}mm", "bleed": "3mm"}
    paper = {"size": "letter", "registration_marks": True, "cut_marks": False, "gap": f"{gap_mm:g}mm"}
    imposition = impose_theme(printdeck.load_theme(small_theme(card=card, paper=paper)), 7)
    radius_mm = diameter_mm / 2.0 + 3.0
    for x, y in imposition.full_page_centers_mm():
        for x0, y0, x1, y1 in registration_zones(imposition.page_size_mm):
            nearest_x, nearest_y = min(max(x, x0), x1), min(max(y, y0), y1)
            assert math.hypot(x - nearest_x, y - nearest_y) >= radius_mm, (x, y, (x0, y0, x1, y1))
