"""Touching up a card in the studio (issue 28, part 4): the card's close-up is the print,
a symbol moved, turned and resized is saved as the card's pinned placement, one that would
leave the card or touch a neighbour is refused in plain words (nothing saved), releasing
works, and ``printdeck build`` of the folder prints the symbol where it was put (the PDF
rasterised and compared with the icon stamped there by resvg)."""

from __future__ import annotations

import io
import math
import shutil
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner
from PIL import Image
from test_pins_support import ink_at_pin

import printdeck
from printdeck.cli import main

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from printdeck.studio.guard import TOKEN_HEADER, Pass
from printdeck.studio.routes import create_app
from printdeck.studio.workspace import Workspace

ICONS = Path(__file__).parent / "fixtures" / "icons"
TOKEN = "test-token-of-the-studio-pin-tests"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    folder = tmp_path / "icons"
    shutil.copytree(ICONS, folder)
    gate = Pass(token=TOKEN, hosts=frozenset({"testserver"}), max_body_bytes=10**7)
    with TestClient(create_app(Workspace.open(folder), gate), headers={TOKEN_HEADER: TOKEN}) as c:
        yield c


def _rev(client: TestClient) -> int:
    return int(client.get("/api/state").json()["state"]["rev"])


def _card(client: TestClient, card: int) -> dict[str, Any]:
    response = client.get(f"/api/cards/{card}?rev={_rev(client)}")
    assert response.status_code == 200, response.text
    return response.json()


def _theme(client: TestClient) -> dict[str, Any]:
    folder = Path(client.get("/api/state").json()["state"]["folder"])
    return yaml.safe_load((folder / "theme.yaml").read_text(encoding="utf-8"))


def test_the_close_up_is_the_card_as_it_prints(client: TestClient) -> None:
    view = _card(client, 2)
    assert view["card"] == 2 and view["pin_card"] == 2 and len(view["symbols"]) == 4
    assert not any(s["pinned"] for s in view["symbols"])
    png = client.get(view["image"])
    assert png.status_code == 200 and png.headers["content-type"] == "image/png"
    image = Image.open(io.BytesIO(png.content))
    bleed_mm = view["trim_mm"][0] + 2 * view["bleed_mm"]
    assert image.width == pytest.approx(bleed_mm / 25.4 * 200, abs=2)
    # the same pixels as the sheet's renderer draws: the PDF renderer, cropped to the card
    folder = Path(client.get("/api/state").json()["state"]["folder"])
    deck = printdeck.plan(printdeck.load_theme(folder / "theme.yaml"))
    assert png.content == printdeck.preview_card(deck, printdeck.lay_out(deck), 2, ppi=200.0)


def test_move_turn_resize_is_saved_as_the_cards_pin_and_builds_there(client: TestClient, tmp_path: Path) -> None:
    before = _card(client, 2)
    first = before["symbols"][0]
    star = first["name"]
    x, y = round(first["center_mm"][0], 1), round(first["center_mm"][1], 1)
    turn = round(first["rotation_deg"] + 10.0) % 360
    size = round(first["size_mm"] * 0.7, 1)
    pin = {"card": 2, "symbol": star, "center": [x, y], "rotation": turn, "size": size}
    answer = client.post("/api/pins", json=pin)
    assert answer.status_code == 200, answer.json()["error"]
    entry = _theme(client)["layout"]["pinned"][0]
    assert entry["card"] == 2 and sorted(entry["symbols"]) == sorted(s["name"] for s in before["symbols"])
    shown = f"{size:g}mm"
    assert entry["place"][star] == {
        "center": [f"{x:g}mm", f"{y:g}mm"],
        "rotation": float(turn - 360 * (turn > 180)),
        "size": shown,
    }
    assert set(entry["place"]) == set(entry["symbols"])  # the others stay where they were
    after = _card(client, 2)
    moved = {s["name"]: s for s in after["symbols"]}
    assert moved[star]["center_mm"] == pytest.approx([x, y]) and moved[star]["pinned"]
    for old in before["symbols"][1:]:
        assert moved[old["name"]]["center_mm"] == pytest.approx(old["center_mm"], abs=1e-5)
    # the folder builds from the command line with the star where it was put
    folder = Path(client.get("/api/state").json()["state"]["folder"])
    out = tmp_path / "touched.pdf"
    result = CliRunner().invoke(main, ["build", str(folder), "-o", str(out), "--quiet"], prog_name="printdeck")
    assert result.exit_code == 0, result.output
    symbol = next(s for s in printdeck.load_theme(folder / "theme.yaml").symbols if s.name == star)
    assert ink_at_pin(out, 1, symbol, ((x, y), float(turn), size)) > 0.97
    plain = tmp_path / "plain.pdf"
    (folder / "plain.yaml").write_text((ICONS / "theme.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    result = CliRunner().invoke(main, ["build", str(folder / "plain.yaml"), "-o", str(plain), "--quiet"])
    assert result.exit_code == 0, result.output
    assert ink_at_pin(plain, 1, symbol, ((x, y), float(turn), size)) < 0.9  # not where it was before


def test_a_placement_onto_a_neighbour_or_off_the_card_is_refused_in_plain_words(client: TestClient) -> None:
    view = _card(client, 3)
    first, second = view["symbols"][0], view["symbols"][1]
    saved = _theme(client)
    onto = {"card": 3, "symbol": first["name"], "center": second["center_mm"], "rotation": 0, "size": first["size_mm"]}
    answer = client.post("/api/pins", json=onto)
    assert answer.status_code == 422
    assert answer.json()["error"] == (
        f"{first['name']} would touch {second['name']}: move it away, turn it or make it smaller."
    )
    assert _theme(client) == saved  # nothing saved
    off = {**onto, "center": [40, 0]}
    answer = client.post("/api/pins", json=off)
    assert answer.status_code == 422 and "past the card's safe edge" in answer.json()["error"]
    assert _theme(client) == saved
    tiny = {**onto, "center": [0, 0], "size": 0.5}
    answer = client.post("/api/pins", json={**tiny, "center": first["center_mm"]})
    assert answer.status_code == 422 and "too small to print" in answer.json()["error"]
    bad = client.post("/api/pins", json={**onto, "symbol": "kite"})
    assert bad.status_code == 400 and "no symbol 'kite'" in bad.json()["error"]


def test_release_a_pin_and_release_the_card(client: TestClient) -> None:
    view = _card(client, 4)
    name = view["symbols"][1]["name"]
    shown = view["symbols"][1]
    move = {"card": 4, "symbol": name, "center": shown["center_mm"], "rotation": shown["rotation_deg"]}
    answer = client.post("/api/pins", json={**move, "size": shown["size_mm"] * 0.85})  # smaller, in place
    assert answer.status_code == 200, answer.json()["error"]
    assert client.post("/api/pins/release", json={"card": 4, "symbol": name}).status_code == 200
    place = _theme(client)["layout"]["pinned"][0]["place"]
    assert name not in place and len(place) == 3
    assert not {s["name"]: s for s in _card(client, 4)["symbols"]}[name]["pinned"]
    assert client.post("/api/pins/release", json={"card": 4}).status_code == 200
    assert "layout" not in _theme(client)


def test_undo_and_redo_take_a_touch_up_back_and_again(client: TestClient) -> None:
    view = _card(client, 5)
    first = view["symbols"][0]
    pin = {"card": 5, "symbol": first["name"], "center": first["center_mm"], "rotation": first["rotation_deg"]}
    answer = client.post("/api/pins", json={**pin, "size": first["size_mm"] * 0.8})
    assert answer.status_code == 200, answer.json()["error"]
    touched = _theme(client)["layout"]
    undone = client.post("/api/undo", json={"rev": _rev(client)})
    assert undone.status_code == 200, undone.text
    assert "layout" not in _theme(client)
    assert not any(s["pinned"] for s in _card(client, 5)["symbols"])
    assert client.post("/api/redo", json={"rev": _rev(client)}).status_code == 200
    assert _theme(client)["layout"] == touched


def test_touch_ups_the_deck_outgrew_are_said_plainly_and_can_be_forgotten(client: TestClient) -> None:
    """A new seed deals other symbols to a touched-up card: the sheet says so in the page's
    words (the card, what to do; no theme key), the card view says what it was touched up
    on, and Release card, enabled for it, forgets the old entry."""
    view = _card(client, 4)
    shown = view["symbols"][1]
    pin = {"card": 4, "symbol": shown["name"], "center": shown["center_mm"], "rotation": shown["rotation_deg"]}
    assert client.post("/api/pins", json={**pin, "size": shown["size_mm"] * 0.85}).status_code == 200
    pinned_on = sorted(view["names"])
    for _ in range(10):  # a seed that deals card 4 other symbols
        assert client.post("/api/seed").status_code == 200
        if sorted(_card(client, 4)["names"]) != pinned_on:
            break
    again = _card(client, 4)
    assert sorted(again["names"]) != pinned_on, "ten seeds dealt card 4 the same symbols"
    assert sorted(again["stale_pins"]) == pinned_on and not any(s["pinned"] for s in again["symbols"])
    sheet = client.get(f"/api/preview?rev={_rev(client)}&page=1").json()
    said = [w for w in sheet["warnings"] if "touch-ups" in w]
    assert len(said) == 1 and said[0].startswith("The touch-ups of card 4 are not used"), sheet["warnings"]
    assert "Zoom it and choose Release card" in said[0] and "layout.pinned" not in said[0]
    assert client.post("/api/pins/release", json={"card": 4}).status_code == 200
    assert "layout" not in _theme(client)
    assert _card(client, 4)["stale_pins"] == []
    sheet = client.get(f"/api/preview?rev={_rev(client)}&page=1").json()
    assert not any("touch-ups" in w for w in sheet["warnings"])


def test_touch_ups_of_a_card_the_deck_lost_leave_the_deck_drawing(client: TestClient) -> None:
    """A touched-up card 13, then the deck trimmed to 7 cards: the preview and the
    build refused the deck over ``layout.pinned.0.card``, and no card was left to release.
    The entry is kept and left out, and the sheet says so in the page's words."""
    last = _card(client, 13)
    shown = last["symbols"][0]
    pin = {"card": 13, "symbol": shown["name"], "center": shown["center_mm"], "rotation": shown["rotation_deg"]}
    assert client.post("/api/pins", json={**pin, "size": shown["size_mm"] * 0.85}).status_code == 200
    trimmed = client.patch("/api/settings", json={"changes": {"deck.cards": 7}})  # the deck trimmed to 7 cards
    assert trimmed.status_code == 200, trimmed.text
    sheet = client.get(f"/api/preview?rev={_rev(client)}&page=1")
    assert sheet.status_code == 200, sheet.text
    said = [w for w in sheet.json()["warnings"] if "touch-ups" in w]
    assert said == [
        "The touch-ups of card 13 are not used: the deck has 7 cards now. They apply again if the deck grows "
        "back; Undo takes the last change back."
    ], sheet.json()["warnings"]
    assert _theme(client)["layout"]["pinned"][0]["card"] == 13  # kept, for a deck that grows back


def test_the_sheet_says_outgrown_touch_ups_whichever_view_laid_it_out_first(client: TestClient) -> None:
    """The layout's warnings came only with the view that laid the cards out: after the
    backs (or the card view) were drawn first, the front said nothing of the touch-ups."""
    view = _card(client, 4)
    shown = view["symbols"][1]
    pin = {"card": 4, "symbol": shown["name"], "center": shown["center_mm"], "rotation": shown["rotation_deg"]}
    assert client.post("/api/pins", json={**pin, "size": shown["size_mm"] * 0.85}).status_code == 200
    assert client.patch("/api/settings", json={"changes": {"backs.enabled": True}}).status_code == 200
    for _ in range(10):  # a seed that deals card 4 other symbols, found without drawing a sheet
        assert client.post("/api/seed").status_code == 200
        if _card(client, 4)["stale_pins"]:
            break
    assert _card(client, 4)["stale_pins"], "ten seeds dealt card 4 the same symbols"
    rev = _rev(client)
    back = client.get(f"/api/preview?rev={rev}&page=1&side=back").json()
    front = client.get(f"/api/preview?rev={rev}&page=1").json()
    for facts in (back, front):
        assert any(w.startswith("The touch-ups of card 4 are not used") for w in facts["warnings"]), facts


def test_a_nudge_into_a_neighbour_is_saved_smaller_to_fit(client: TestClient, tmp_path: Path) -> None:
    """The layout packs symbols ``layout.gap`` apart, so a symbol nudged half a millimetre
    towards its nearest neighbour would touch it: it is pinned as large as it fits there
    instead (a few per cent smaller, said), where the build takes it and prints it."""
    view = _card(client, 2)
    first = view["symbols"][0]
    near = min(view["symbols"][1:], key=lambda s: math.dist(s["center_mm"], first["center_mm"]))
    (x, y), (nx, ny) = first["center_mm"], near["center_mm"]
    step = 0.5 / math.dist((x, y), (nx, ny))
    center = [round(x + (nx - x) * step, 3), round(y + (ny - y) * step, 3)]
    asked = round(first["size_mm"], 1)
    pin = {"card": 2, "symbol": first["name"], "center": center, "rotation": first["rotation_deg"], "size": asked}
    answer = client.post("/api/pins", json=pin)
    assert answer.status_code == 200, answer.json()
    fitted = answer.json()["fitted"]
    assert fitted["symbol"] == first["name"] and fitted["asked_mm"] == asked
    assert 0.6 * asked <= fitted["size_mm"] < asked
    names = {s["name"] for s in view["symbols"]} - {first["name"]}
    assert fitted["would_touch"] in names | {"the card's safe edge", "the centre mark"}  # never itself
    place = _theme(client)["layout"]["pinned"][0]["place"][first["name"]]
    assert place["size"] == f"{fitted['size_mm']:g}mm" and place["center"] == [f"{c:g}mm" for c in center]
    folder = Path(client.get("/api/state").json()["state"]["folder"])
    deck = printdeck.plan(printdeck.load_theme(folder / "theme.yaml"))
    assert printdeck.check_pins(deck, 2) is None
    assert printdeck.fit_pin(deck, 2, first["name"]) == pytest.approx(fitted["size_mm"])  # it passes as saved
    out = tmp_path / "nudged.pdf"
    result = CliRunner().invoke(main, ["build", str(folder), "-o", str(out), "--quiet"], prog_name="printdeck")
    assert result.exit_code == 0, result.output
    symbol = next(s for s in deck.theme.symbols if s.name == first["name"])
    assert ink_at_pin(out, 1, symbol, (tuple(center), first["rotation_deg"], fitted["size_mm"])) > 0.97


def test_a_resize_past_the_room_grows_the_symbol_as_far_as_it_fits(client: TestClient) -> None:
    """Asked a tenth larger where it has no room, a symbol is pinned at the largest size
    that fits, never smaller than it was."""
    view = _card(client, 2)
    first = view["symbols"][0]
    asked = round(first["size_mm"] * 1.1, 1)
    pin = {"card": 2, "symbol": first["name"], "center": first["center_mm"], "rotation": first["rotation_deg"]}
    answer = client.post("/api/pins", json={**pin, "size": asked})
    assert answer.status_code == 200, answer.json()
    fitted = answer.json()["fitted"]
    assert first["size_mm"] * (1 - 1e-4) <= fitted["size_mm"] < asked


def test_a_small_symbol_nudged_into_a_neighbour_fits_above_the_smallest_size_that_prints(client: TestClient) -> None:
    """A symbol near the smallest size that prints is made smaller only down to that size
    (0.6 of it would be too small to print), so a nudge that a slightly smaller size takes
    is saved, not refused."""
    view = _card(client, 2)
    small = min(view["symbols"], key=lambda s: s["size_mm"])
    near = min(
        (s for s in view["symbols"] if s is not small), key=lambda s: math.dist(s["center_mm"], small["center_mm"])
    )
    (x, y), (nx, ny) = small["center_mm"], near["center_mm"]
    pose = {"card": 2, "symbol": small["name"], "rotation": small["rotation_deg"], "size": 8.0}
    assert client.post("/api/pins", json={**pose, "center": [x, y]}).status_code == 200
    distance = math.dist((x, y), (nx, ny))
    for step in range(1, 120):  # towards the neighbour, 0.2 mm at a time, to the first that needs a fit
        t = 0.2 * step / distance
        answer = client.post("/api/pins", json={**pose, "center": [x + (nx - x) * t, y + (ny - y) * t]})
        assert answer.status_code == 200, answer.json()
        if "fitted" in answer.json():
            break
    fitted = answer.json()["fitted"]
    assert 6.0 < fitted["size_mm"] < 8.0  # above 0.6 of 8 mm: the smallest size that prints is larger


COLOURS = [(220, 40, 40), (40, 160, 60), (40, 70, 220), (240, 200, 30), (150, 50, 190), (30, 190, 200), (250, 130, 20)]


def test_a_card_turned_on_its_sheet_is_shown_upright(tmp_path: Path) -> None:
    """Poker cards stand turned on an A4 sheet: the card view's picture was the card as it
    stands on the sheet, sideways, and the page stretched it into the upright card (round
    photos shown as tall ovals, none under its handles). The picture is the card upright:
    each symbol's colour is under its centre."""
    for i, colour in enumerate(COLOURS):
        Image.new("RGB", (900, 900), colour).save(tmp_path / f"p{i}.png")
    data = {
        "card": {"size": "poker"},
        "deck": {"symbols_per_card": 3, "allow_look_alike": True},
        "symbols": [{"photo": f"p{i}.png"} for i in range(len(COLOURS))],
    }
    deck = printdeck.plan(printdeck.load_theme(data, base_dir=tmp_path))
    assert deck.imposition.turned  # the case: poker cards stand sideways on A4
    layouts = printdeck.lay_out(deck)
    view = printdeck.view_card(deck, layouts, 1)
    ppi = 100.0
    image = Image.open(io.BytesIO(printdeck.preview_card(deck, layouts, 1, ppi=ppi))).convert("RGB")
    w, h = (side + 2 * view["bleed_mm"] for side in view["trim_mm"])
    assert image.width == pytest.approx(w / 25.4 * ppi, abs=2) and image.height == pytest.approx(h / 25.4 * ppi, abs=2)
    for symbol in view["symbols"]:
        x, y = symbol["center_mm"]
        pixel = image.getpixel((round((x + w / 2) * image.width / w), round((h / 2 - y) * image.height / h)))
        colour = COLOURS[int(symbol["name"].removeprefix("p"))]
        assert all(abs(a - b) < 30 for a, b in zip(pixel, colour, strict=True)), (symbol["name"], pixel, colour)
