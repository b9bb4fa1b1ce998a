"""The studio's side of issue 24: a picture dropped on a word becomes one symbol with two
faces (saved as ``faces:``), the preview draws the faces, and look-alikes are named on both tiles."""

from __future__ import annotations

import io
import json
from pathlib import Path

import numpy as np
from PIL import Image
from test_studio_api import make_client, png_bytes, svgs, theme_file, upload

import printdeck


def _state(client) -> dict:  # type: ignore[no-untyped-def]
    response = client.get("/api/state")
    assert response.status_code == 200
    return response.json()["state"] if "state" in response.json() else response.json()


def test_a_picture_dropped_on_a_word_makes_one_symbol_with_two_faces(tmp_path: Path) -> None:
    with make_client(tmp_path / "deck") as client:
        upload(client, [(p.name, p.read_bytes()) for p in svgs(7)])
        state = client.post("/api/words", json={"text": "gato"}).json()["state"]
        word = next(s for s in state["symbols"] if s["kind"] == "text")
        picture = state["symbols"][0]
        answer = client.post(f"/api/symbols/{word['uid']}/faces", json={"add": picture["uid"]})
        assert answer.status_code == 200, answer.text
        symbols = answer.json()["state"]["symbols"]
        assert len(symbols) == 7
        joined = next(s for s in symbols if s["uid"] == word["uid"])
        assert joined["kind"] == "faces" and [f["kind"] for f in joined["faces"]] == ["image", "text"]
        assert joined["thumb"] and joined["name"].endswith("= gato")
        made = answer.json()["state"]["history"]["undo"]["label"]  # was "removed 'x'; 'gato': its faces"
        assert made == f"made '{picture['name']}' a face of 'gato'", made
        saved = theme_file(client)["symbols"]
        entry = next(s for s in saved if isinstance(s, dict) and "faces" in s)
        assert entry["faces"][0]["image"].endswith(".svg") and entry["faces"][1] == {"text": "gato"}
        refused = client.post(f"/api/symbols/{word['uid']}/faces", json={"add": word["uid"]})
        assert refused.status_code == 400
        rev = answer.json()["state"]["rev"]
        preview = client.get(f"/api/preview?rev={rev}&page=1")
        assert preview.status_code == 200, preview.text
        sheet = client.get(preview.json()["image"])
        assert sheet.status_code == 200
        ink = np.asarray(Image.open(io.BytesIO(sheet.content)).convert("L")) < 200
        assert ink.mean() > 0.01
    plan = printdeck.plan(tmp_path / "deck", prove=False)  # what the preview draws: both faces
    assert plan.faced is not None and plan.faced.has_faces
    shown = {plan.faced.drawing_faces[d.id] for card in plan.cards for d in card}
    joined_point = next(p for p, s in enumerate(plan.concepts) if s.faces)
    assert {(joined_point, 0), (joined_point, 1)} <= shown


def test_look_alikes_are_named_on_both_tiles(tmp_path: Path) -> None:
    with make_client(tmp_path / "deck") as client:
        upload(client, [(p.name, p.read_bytes()) for p in svgs(5)])
        upload(client, [("red.png", png_bytes((200, 30, 30), 300, alpha=True))])
        state = upload(client, [("red-again.png", png_bytes((201, 30, 30), 200, alpha=True))])["state"]
        notes = client.get("/api/look-alikes").json()
        assert notes["rev"] == state["rev"]
        state = client.get("/api/state").json()["state"]  # the notes ride along once made
        tiles = {s["name"]: s for s in state["symbols"]}
        assert tiles["red"]["warning"] == "looks like 'red again'"
        assert tiles["red again"]["warning"] == "looks like 'red'"
        assert "'red' and 'red again' look alike" in tiles["red"]["warning_detail"]
        assert tiles["red"]["warning_detail"].endswith(
            "printdeck refuses to build them (or only warns, with "
            "\u201cAllow look-alike symbols (warn only)\u201d ticked)"
        )
        assert all(s["warning"] is None for n, s in tiles.items() if not n.startswith("red"))
        json.dumps(state)


def test_two_alike_pictures_dropped_first_are_marked_before_the_deck_loads(tmp_path: Path) -> None:
    """Two pictures alike, the first symbols of a new deck (too few for any deck yet):
    both tiles are marked at once, not only once five more symbols make a deck."""
    with make_client(tmp_path / "deck") as client:
        upload(client, [("red.png", png_bytes((200, 30, 30), 300, alpha=True))])
        state = upload(client, [("red-again.png", png_bytes((201, 30, 30), 200, alpha=True))])["state"]
        assert state["problem_code"] == "too-few-symbols"  # the deck does not load yet
        assert client.get("/api/look-alikes").json()["rev"] == state["rev"]
        tiles = {s["name"]: s for s in client.get("/api/state").json()["state"]["symbols"]}
        assert tiles["red"]["warning"] == "looks like 'red again'"
        assert tiles["red again"]["warning"] == "looks like 'red'"
        upload(client, [("blue.png", png_bytes((30, 30, 200), 300, alpha=True))])
        client.get("/api/look-alikes")
        tiles = {s["name"]: s for s in client.get("/api/state").json()["state"]["symbols"]}
        assert tiles["blue"]["warning"] is None and tiles["red"]["warning"] == "looks like 'red again'"


def test_words_too_few_for_a_deck_that_read_the_same_are_marked(tmp_path: Path) -> None:
    with make_client(tmp_path / "deck") as client:
        state = client.post("/api/words", json={"text": "coca\nсоса"}).json()["state"]
        assert state["problem_code"] == "too-few-symbols"
        client.get("/api/look-alikes")
        tiles = [s["warning"] for s in client.get("/api/state").json()["state"]["symbols"]]
        assert tiles == ["looks like 'соса'", "looks like 'coca'"]


def test_tiles_note_symbols_alike_in_grey_or_for_colour_blind_players(tmp_path: Path) -> None:
    with make_client(tmp_path / "deck") as client:
        upload(client, [(p.name, p.read_bytes()) for p in svgs(5)])
        upload(client, [("red.png", png_bytes((200, 40, 40), 300, alpha=True))])
        state = upload(client, [("green.png", png_bytes((26, 121, 26), 300, alpha=True))])["state"]
        client.get("/api/look-alikes")
        tiles = {s["name"]: s for s in client.get("/api/state").json()["state"]["symbols"]}
        assert tiles["red"]["warning"] == "looks like 'green' in grey"
        assert "when printed in grey" in tiles["green"]["warning_detail"]
        assert tiles["green"]["warning_detail"].endswith("; printdeck still builds them, with a warning")  # no refusal
        assert state["rev"] >= 1


def _face_turns(folder: Path, out: Path) -> list[float]:
    """How far (degrees, either way) each printed "3 × 4" face of the built deck is turned."""
    printdeck.build(folder, out=out)
    manifest = json.loads(out.with_suffix(".json").read_text(encoding="utf-8"))
    (sum_id,) = [s["id"] for s in manifest["symbols"] if s["faces"] and s["faces"][0]["name"] == "3 × 4"]
    placed = [p for card in manifest["cards"] for p in card["symbols"]]
    angles = [p["rotation_deg"] % 360 for p in placed if (p["id"], p["face"]) == (sum_id, 0)]
    assert angles  # the face is printed
    return [min(a, 360 - a) for a in angles]


def test_a_faces_sum_says_it_stays_upright_and_the_page_can_let_it_turn(tmp_path: Path) -> None:
    """A symbol with faces had no "Keep upright" box: its sum face ("3 × 4") stays upright
    (turned, × reads as +) and only the theme file could let it turn. Each face now says
    whether it turns as it is, and the page sets one face's ``rotate``, which the build honours."""
    folder = tmp_path / "deck"
    with make_client(folder) as client:
        state = client.post("/api/words", json={"text": "3 × 4 = 12\nsun\nmoon\nstar\nsea\nsky\ntree"}).json()["state"]
        sums = next(s for s in state["symbols"] if s["kind"] == "faces")
        shown = [(f["name"], f["rotate"], f["default_turns"]) for f in sums["faces"]]
        assert shown == [("3 × 4", None, False), ("12", None, True)]
        assert max(_face_turns(folder, tmp_path / "before.pdf")) == 0.0
        answer = client.patch(f"/api/symbols/{sums['uid']}", json={"changes": {"faces.0.rotate": True}})
        assert answer.status_code == 200, answer.text
        assert theme_file(client)["symbols"][0] == {"faces": [{"text": "3 × 4", "rotate": True}, {"text": "12"}]}
        assert answer.json()["state"]["history"]["undo"]["label"] == "'3 × 4 = 12', face '3 × 4': turning default → on"
        faces = next(s for s in answer.json()["state"]["symbols"] if s["uid"] == sums["uid"])["faces"]
        assert [f["rotate"] for f in faces] == [True, None]
        assert max(_face_turns(folder, tmp_path / "turned.pdf")) > 1.0
        for wrong in ("faces.2.rotate", "faces.0.text", "faces.x.rotate", "rotate"):
            refused = client.patch(f"/api/symbols/{sums['uid']}", json={"changes": {wrong: True}})
            assert refused.status_code in (400, 422), wrong  # no such face or key; a symbol's rotate: its faces'
        word = next(s for s in state["symbols"] if s["name"] == "sun")
        not_faces = client.patch(f"/api/symbols/{word['uid']}", json={"changes": {"faces.0.rotate": True}})
        assert not_faces.status_code == 400
        client.patch(f"/api/symbols/{sums['uid']}", json={"changes": {"faces.0.rotate": None}})
        assert theme_file(client)["symbols"][0] == {"faces": [{"text": "3 × 4"}, {"text": "12"}]}
