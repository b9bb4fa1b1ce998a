"""Pinned placements (``layout.pinned``): a symbol fixed on one card, the rest packed around it.

Checked on the outline-icon deck (tests/fixtures/icons): the pinned symbol prints where it
was pinned (the PDF rasterised and compared with the icon stamped there by resvg, not by
printdeck's code), the card keeps every layout rule (gap, safe zone), pins that break them
are user errors naming their key (exit status 2, nothing written), a pin whose card
changed is reported and left out, and a theme with pins builds the same bytes twice.
"""

from __future__ import annotations

import math
import shutil
from pathlib import Path

import pytest
import shapely
import yaml
from click.testing import CliRunner
from test_pins_support import dilate, page_ink, stamp_at

import printdeck
from printdeck.artwork import silhouette
from printdeck.cli import main
from printdeck.layout import LayoutSettings, PinWarning, layout_deck

ICONS = Path(__file__).parent / "fixtures" / "icons"
PIN = {"center": ["12mm", "-8mm"], "rotation": 40, "size": "34mm"}


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the icon deck to build in."""
    path = tmp_path_factory.mktemp("pins") / "icons"
    shutil.copytree(ICONS, path)
    return path


@pytest.fixture(scope="module")
def plain(folder: Path) -> tuple[printdeck.DeckPlan, list[printdeck.CardLayout]]:
    """The deck without pins, planned and laid out."""
    deck = printdeck.plan(printdeck.load_theme(folder / "theme.yaml"))
    return deck, printdeck.lay_out(deck)


def _names(deck: printdeck.DeckPlan, layout: printdeck.CardLayout) -> list[str]:
    by_id = {s.id: s.name for s in deck.symbols}
    return [by_id[p.symbol_id] for p in layout.placements]


def _pinned_doc(folder: Path, card: int, names: list[str], place: dict[str, object]) -> dict[str, object]:
    doc = yaml.safe_load((folder / "theme.yaml").read_text(encoding="utf-8"))
    doc["layout"] = {"pinned": [{"card": card, "symbols": names, "place": place}]}
    return doc


def _write(folder: Path, doc: dict[str, object], name: str) -> Path:
    path = folder / name
    path.write_text(yaml.safe_dump(doc, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path


def _build(theme: Path, out: Path) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["build", str(theme), "-o", str(out), "--quiet"], prog_name="printdeck")
    return result.exit_code, result.output


def test_pinned_symbol_prints_where_it_was_pinned(folder: Path, plain, tmp_path: Path) -> None:
    deck, layouts = plain
    names = _names(deck, layouts[1])
    pinned = names[0]
    theme = _write(folder, _pinned_doc(folder, 2, names, {pinned: PIN}), "pinned.yaml")
    code, output = _build(theme, tmp_path / "pinned.pdf")
    assert code == 0, output
    data = yaml.safe_load((tmp_path / "pinned.json").read_text(encoding="utf-8"))
    card = next(c for c in data["cards"] if c["index"] == 1)
    symbol = next(s for s in deck.symbols if s.name == pinned)
    ink = page_ink(tmp_path / "pinned.pdf", card["page"])
    stamp = stamp_at(symbol, ink.shape, card["center_mm"], (((12.0, -8.0)), 40.0, (34.0, 34.0)))
    near = dilate(ink, 2)  # anti-aliased edges: the PDF's ink within 2 px
    assert stamp.sum() > 500
    assert near[stamp].mean() > 0.97, "the pinned icon's ink is not where it was pinned"
    # the same spot on the card without the pin does not show that icon there
    code, output = _build(folder / "theme.yaml", tmp_path / "plain.pdf")
    assert code == 0, output
    plain_ink = dilate(page_ink(tmp_path / "plain.pdf", card["page"]), 2)
    assert plain_ink[stamp].mean() < 0.8


def test_the_rest_of_the_card_is_packed_around_the_pins(folder: Path, plain) -> None:
    deck, layouts = plain
    names = _names(deck, layouts[4])
    place = {names[1]: PIN, names[2]: {"center": ["-20mm", "14mm"], "rotation": -15, "size": "20mm"}}
    theme = printdeck.load_theme(_pinned_doc(folder, 5, names, place), base_dir=folder)
    settings = LayoutSettings.from_theme(theme)
    cards = [list(c) for c in printdeck.plan(theme).cards]
    card = layout_deck(cards, settings, theme.spec.seed, jobs=1)[4]
    by_name = dict(zip(names, card.placements))
    for name, pin in place.items():
        got = by_name[name]
        assert got.center_mm == pytest.approx(tuple(float(v[:-2]) for v in pin["center"]), abs=1e-9)
        assert (got.rotation_deg - float(pin["rotation"])) % 360 == pytest.approx(0.0, abs=1e-6)
        assert max(got.box_mm) == pytest.approx(float(str(pin["size"])[:-2]))
    # the layout's rules hold for every symbol, pinned or packed: gap, safe zone, no nesting
    outlines = []
    for sym, p in zip(cards[4], card.placements):
        sil = silhouette(sym)
        poly = shapely.affinity.scale(sil.outline, p.box_mm[1], p.box_mm[1], origin=(0, 0))
        poly = shapely.affinity.rotate(poly, p.rotation_deg, origin=(0, 0))
        outlines.append(shapely.affinity.translate(poly, *p.center_mm))
    safe = shapely.Point(0, 0).buffer(settings.safe_radius_mm + 1e-6, 256)
    assert all(safe.contains(o) for o in outlines)
    gaps = [outlines[a].distance(outlines[b]) for a in range(4) for b in range(a + 1, 4)]
    assert min(gaps) >= settings.gap_mm - 1e-6
    assert card.min_gap_mm >= settings.gap_mm - 1e-6


@pytest.mark.parametrize(
    ("place", "key", "words"),
    [
        ({"A": {"center": ["30mm", "0mm"], "size": "30mm"}}, "layout.pinned.0.place.A.center", "out of the card"),
        (
            {"A": {"center": ["0mm", "0mm"], "size": "30mm"}, "B": {"center": ["5mm", "5mm"], "size": "30mm"}},
            "layout.pinned.0.place.B.center",
            "would touch the pinned symbol",
        ),
        ({"A": {"center": ["0mm", "0mm"], "size": "0.5mm"}}, "layout.pinned.0.place.A.size", "minimum"),
    ],
)
def test_a_pin_the_layout_refuses_is_a_user_error(folder: Path, plain, tmp_path: Path, place, key, words) -> None:
    deck, layouts = plain
    names = _names(deck, layouts[2])
    real = {"A": names[0], "B": names[1]}
    place = {real[k]: v for k, v in place.items()}
    key = key.replace(".A.", f".{real['A']}.").replace(".B.", f".{real['B']}.")
    theme = _write(folder, _pinned_doc(folder, 3, names, place), "bad.yaml")
    out = tmp_path / "bad.pdf"
    code, output = _build(theme, out)
    assert code == 2, output
    assert key in output and words in output, output
    assert "Traceback" not in output
    assert not out.exists() and not out.with_suffix(".json").exists()


def test_a_pin_of_no_such_card_or_symbol_names_its_key(folder: Path, plain, tmp_path: Path) -> None:
    deck, layouts = plain
    names = _names(deck, layouts[0])
    doc = _pinned_doc(folder, 99, names, {names[0]: PIN})  # a card the deck has not (any more): left out
    code, output = _build(_write(folder, doc, "far.yaml"), tmp_path / "far.pdf")
    assert code == 0 and (tmp_path / "far.pdf").is_file(), output
    assert "layout.pinned.0: card 99 is not in the deck, which has 13 cards" in output, output
    doc = _pinned_doc(folder, 1, names, {"kite": PIN})
    code, output = _build(_write(folder, doc, "kite.yaml"), tmp_path / "kite.pdf")
    assert code == 2 and "layout.pinned.0" in output and "'kite' is not one of" in output, output


def test_a_pin_whose_card_changed_is_reported_not_applied(folder: Path, plain) -> None:
    deck, layouts = plain
    names = _names(deck, layouts[1])
    other = _names(deck, layouts[6])
    doc = _pinned_doc(folder, 2, other, {other[0]: PIN})  # card 7's symbols pinned as card 2
    theme = printdeck.load_theme(doc, base_dir=folder)
    with pytest.warns(PinWarning, match=r"layout\.pinned\.0: card 2 now shows .* it is now card 7"):
        got = printdeck.lay_out(printdeck.plan(theme))
    assert got[1] == layouts[1] and got[6] == layouts[6]  # left out: neither card 2 nor card 7 pinned
    assert names != other


def test_pins_keep_the_build_deterministic(folder: Path, plain, tmp_path: Path) -> None:
    deck, layouts = plain
    names = _names(deck, layouts[3])
    place = {names[2]: {"center": ["-3mm", "2mm"], "rotation": 90, "size": "26mm"}}
    theme = _write(folder, _pinned_doc(folder, 4, names, place), "twice.yaml")
    outs = []
    for n in (1, 2):
        code, output = _build(theme, tmp_path / f"twice{n}.pdf")
        assert code == 0, output
        outs.append((tmp_path / f"twice{n}.pdf").read_bytes())
    assert outs[0] == outs[1]


def test_every_symbol_pinned_keeps_exactly_those_places(folder: Path, plain) -> None:
    deck, layouts = plain
    names = _names(deck, layouts[0])
    place = {
        name: {
            "center": [f"{p.center_mm[0]!r}mm", f"{p.center_mm[1]!r}mm"],
            "rotation": p.rotation_deg if p.rotation_deg <= 180 else p.rotation_deg - 360,
            "size": f"{max(p.box_mm)!r}mm",
        }
        for name, p in zip(names, layouts[0].placements)
    }
    theme = printdeck.load_theme(_pinned_doc(folder, 1, names, place), base_dir=folder)
    card = printdeck.lay_out(printdeck.plan(theme))[0]
    for a, b in zip(card.placements, layouts[0].placements):
        assert a.center_mm == pytest.approx(b.center_mm, abs=1e-9)
        assert math.isclose((a.rotation_deg - b.rotation_deg + 180) % 360, 180, abs_tol=1e-6)
        assert a.box_mm == pytest.approx(b.box_mm, rel=1e-9)


def test_check_refuses_a_pin_the_build_would_refuse(folder: Path, plain) -> None:
    deck, layouts = plain
    names = _names(deck, layouts[2])
    place = {names[0]: {"center": ["0mm", "0mm"], "size": "30mm"}, names[1]: {"center": ["5mm", "5mm"], "size": "30mm"}}
    theme = _write(folder, _pinned_doc(folder, 3, names, place), "check-bad.yaml")
    result = CliRunner().invoke(main, ["check", str(theme)], prog_name="printdeck")
    assert result.exit_code == 2, result.output
    assert f"layout.pinned.0.place.{names[1]}.center" in result.output and "would touch" in result.output
    good = _write(folder, _pinned_doc(folder, 3, names, {names[0]: place[names[0]]}), "check-good.yaml")
    result = CliRunner().invoke(main, ["check", str(good)], prog_name="printdeck")
    assert result.exit_code == 0, result.output
