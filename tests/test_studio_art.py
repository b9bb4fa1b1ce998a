"""printdeck studio's picker of the bundled artwork (issue 28, part 8), through the HTTP
API: the pictures and the words they are found by, adding them as copies in the folder
(the folder builds alone), refusing a copy the same way as an upload, and one Undo step."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml
from test_studio_api import REPO, client, make_client, theme_file

import printdeck
from printdeck.studio import bundled_art
from printdeck.studio.workspace import LIBRARY_LOCK

__all__ = ["client"]


def test_every_bundled_picture_is_listed_with_words_to_find_it(client: Any) -> None:
    answer = client.get("/api/art")
    assert answer.status_code == 200
    art = {entry["id"]: entry for entry in answer.json()["art"]}
    assert set(art) == {p.stem for p in (REPO / "assets" / "twemoji").glob("*.svg")}
    assert "eggplant" in art["aubergine"]["words"]  # the emoji's English name
    assert "athletic shoe" in art["trainer"]["words"]  # its Unicode name
    assert art["hot-dog"]["name"] == "hot dog"
    picture = client.get("/api/art/cat.svg")
    assert picture.status_code == 200 and picture.headers["content-type"].startswith("image/svg+xml")
    assert "sandbox" in picture.headers["content-security-policy"]
    assert client.get("/api/art/..%2Ftheme.svg").status_code == 404
    assert client.get("/api/art/nothing.svg").status_code == 404


def test_picked_pictures_are_copied_in_credited_and_refused_twice(client: Any, tmp_path: Path) -> None:
    picks = ["cat", "dog", "cow", "pig", "duck", "owl", "bee"]
    answer = client.post("/api/art", json={"names": picks})
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert all(r["ok"] for r in body["results"])
    folder = Path(body["state"]["folder"])
    theme = theme_file(client)
    assert [s["image"] for s in theme["symbols"]] == [f"images/{p}.svg" for p in picks]
    assert (folder / "images" / "cat.svg").read_bytes() == (REPO / "assets" / "twemoji" / "cat.svg").read_bytes()
    assert theme["extras"] == {"attribution": bundled_art.art_credit()}
    assert body["state"]["history"]["undo"]["label"] == "added 7 symbols ('cat', 'dog'…); Credit line changed"

    again = client.post("/api/art", json={"names": ["cat"]}).json()
    assert again["results"][0]["ok"] is False and "is the same picture as" in again["results"][0]["error"]
    assert not (folder / "images" / "cat-2.svg").exists()  # the refused copy is not kept
    assert len(theme_file(client)["symbols"]) == 7

    with LIBRARY_LOCK:  # the studio's preview lays cards out on its threads: HiGHS is one a process
        assert printdeck.build(folder, out=tmp_path / "deck.pdf").pdf_path.is_file()  # the folder builds alone

    client.post("/api/undo", json={})
    assert "extras" not in theme_file(client) and not (folder / "images" / "cat.svg").exists()
    assert client.post("/api/art", json={"names": ["../theme"]}).status_code == 400
    assert client.post("/api/art", json={"names": []}).status_code == 400


def test_a_picture_picked_with_a_word_s_name_becomes_its_face(client: Any) -> None:
    """Picking "ant" with the word "ant" in the deck was refused as a second "ant": it
    becomes that word's face (pictures with other names are added as symbols, in order)."""
    client.post("/api/words", json={"text": "ant\nsun\nmoon\nstar\ntree\nfish\nbird"})
    answer = client.post("/api/art", json={"names": ["cat", "ant", "dog"]})
    assert answer.status_code == 200, answer.text
    results = answer.json()["results"]
    assert [r["ok"] for r in results] == [True, True, True] and [r["file"] for r in results][1] == "ant.svg"
    assert results[1].get("face_of") is not None
    symbols = theme_file(client)["symbols"]
    assert symbols[0] == {"faces": [{"image": "images/ant.svg"}, {"text": "ant"}]}
    assert [s.get("image") for s in symbols[-2:]] == ["images/cat.svg", "images/dog.svg"]
    client.post("/api/undo", json={})  # one pick, one Undo
    after = theme_file(client)["symbols"]
    assert {"text": "ant"} in after and not any("image" in s for s in after)


def _refused(state: dict[str, Any]) -> list[str]:
    return [tile["file"] for tile in state["rejected"]]


def test_a_refused_copys_tile_goes_once_the_symbol_it_copied_has_gone(client: Any) -> None:
    """A picture picked twice was refused ("the same picture as another symbol"); its red
    tile stayed when that other symbol was removed (or its adding undone), saying what was
    no longer so, until dismissed. A tile of a repeat now goes with the symbol it repeats,
    and a re-added picture leaves no tile; a refusal that still applies stays."""
    client.post("/api/art", json={"names": ["dog", "cow", "pig", "duck", "owl", "bee"]})
    state = client.post("/api/art", json={"names": ["cat"], "drop": "first"}).json()["state"]
    cat = next(s for s in state["symbols"] if s["name"] == "cat")
    state = client.post("/api/art", json={"names": ["cat"], "drop": "again"}).json()["state"]
    assert _refused(state) == ["cat.svg"]
    renamed = client.patch(f"/api/symbols/{cat['uid']}", json={"changes": {"name": "kitty"}}).json()["state"]
    assert _refused(renamed) == ["cat.svg"]  # the symbol it copies is still there: so is its tile
    state = client.delete(f"/api/symbols/{cat['uid']}").json()["state"]
    assert _refused(state) == []
    state = client.post("/api/art", json={"names": ["cat"], "drop": "re-added"}).json()["state"]
    assert state["rejected"] == [] and "images/cat.svg" in {s["file"] for s in state["symbols"]}

    state = client.post("/api/art", json={"names": ["cat"], "drop": "refused again"}).json()["state"]
    assert _refused(state) == ["cat.svg"]
    undone = client.post("/api/undo", json={}).json()  # the re-added cat's adding taken back
    assert undone["undone"]["label"].startswith("added 'cat'")
    assert _refused(undone["state"]) == []

    words = client.post("/api/words", json={"text": "sun", "drop": "words"}).json()["state"]
    sun = next(s for s in words["symbols"] if s["name"] == "sun")
    state = client.post("/api/words", json={"text": "Sun\nsun = sol", "drop": "words again"}).json()["state"]
    assert _refused(state) == ["Sun"]  # the same word; "sun = sol" gives "sun" its face "sol"
    assert next(s for s in state["symbols"] if s["uid"] == sun["uid"])["kind"] == "faces"
    dog = next(s for s in state["symbols"] if s["name"] == "dog")
    assert _refused(client.delete(f"/api/symbols/{dog['uid']}").json()["state"]) == ["Sun"]
    assert _refused(client.delete(f"/api/symbols/{sun['uid']}").json()["state"]) == []


def _edit_outside(client: Any, change: Any) -> dict[str, Any]:
    """``theme.yaml`` edited as an editor would (``change`` takes the mapping and alters it),
    taken in by the watch; the page's state after."""
    folder = Path(client.get("/api/state").json()["state"]["folder"])
    doc = theme_file(client)
    change(doc)
    (folder / "theme.yaml").write_text("# by hand\n" + yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    assert client.get("/api/watch").json()["outside"]["state"] == "reloaded"
    return client.get("/api/state").json()["state"]


def test_a_refused_copys_tile_follows_theme_yaml_edited_outside(client: Any) -> None:
    """A copy's refused tile went stale once ``theme.yaml`` was edited outside the studio:
    its link to the symbol it repeats was cut, so the tile stayed when that symbol was
    removed in the editor, saying what was no longer so. It now follows the file: kept (and
    worded with the symbol as it is now numbered) while the symbol stays, gone with it."""
    client.post("/api/art", json={"names": ["dog", "cow", "pig", "duck", "owl", "bee", "cat"]})
    client.post("/api/words", json={"text": "sun", "drop": "words"})
    state = client.post("/api/art", json={"names": ["cat"], "drop": "again"}).json()["state"]
    assert _refused(state) == ["cat.svg"]

    def moved_first(doc: dict[str, Any]) -> None:
        doc["symbols"].insert(0, doc["symbols"].pop())  # sun first: cat is Symbol 8 now
        doc["title"] = "Farm"

    state = _edit_outside(client, moved_first)
    assert _refused(state) == ["cat.svg"]  # the symbol it repeats is still there
    assert "Symbol 8, “cat”" in state["rejected"][0]["words"]  # linked to it again, as numbered now
    undone = client.post("/api/undo", json={}).json()  # the outside edit taken back: cat is Symbol 7 again
    assert undone["undone"]["label"] == "theme.yaml edited outside the studio"
    assert _refused(undone["state"]) == ["cat.svg"] and "Symbol 7, “cat”" in undone["state"]["rejected"][0]["words"]
    redone = client.post("/api/redo", json={}).json()["state"]
    assert "Symbol 8, “cat”" in redone["rejected"][0]["words"]
    state = _edit_outside(client, lambda doc: doc["symbols"].remove({"image": "images/cat.svg"}))
    assert _refused(state) == []

    state = client.post("/api/words", json={"text": "Sun", "drop": "words again"}).json()["state"]
    assert _refused(state) == ["Sun"]  # the same word as a symbol's

    def sun_larger(doc: dict[str, Any]) -> None:
        doc["symbols"][doc["symbols"].index({"text": "sun"})] = {"text": "sun", "scale": 1.2}

    state = _edit_outside(client, sun_larger)
    assert _refused(state) == ["Sun"]  # still the word sun
    state = _edit_outside(client, lambda doc: doc["symbols"].remove({"text": "sun", "scale": 1.2}))
    assert _refused(state) == []


def test_a_refused_words_tile_holds_through_edits_undo_faces_and_a_restart(client: Any, tmp_path: Path) -> None:
    """A refused copy's tile, linked to the symbol it repeats: kept when that symbol is
    edited in the studio and the edit undone (its id survives); kept when an outside edit
    replaces a picture of a symbol with faces but keeps the word it repeats; and linked
    again after a restart, a word as well as a picture (only a picture's file was kept),
    so that it goes with its symbol then."""
    client.post("/api/art", json={"names": ["dog", "cow", "pig", "duck", "owl", "bee"]})
    state = client.post("/api/words", json={"text": "sun", "drop": "words"}).json()["state"]
    sun = next(s for s in state["symbols"] if s["name"] == "sun")
    state = client.post("/api/words", json={"text": "Sun", "drop": "again"}).json()["state"]
    assert _refused(state) == ["Sun"]
    client.patch(f"/api/symbols/{sun['uid']}", json={"changes": {"text": "moon"}})
    undone = client.post("/api/undo", json={}).json()["state"]  # sun again, the same symbol
    assert "sun" in {s["name"] for s in undone["symbols"]} and _refused(undone) == ["Sun"]

    folder = Path(state["folder"])
    with make_client(folder) as again:  # the studio started again on the folder
        state = again.get("/api/state").json()["state"]
        assert _refused(state) == ["Sun"]
        sun = next(s for s in state["symbols"] if s["name"] == "sun")
        assert _refused(again.delete(f"/api/symbols/{sun['uid']}").json()["state"]) == []

        state = again.post("/api/words", json={"text": "cat = gato", "drop": "pair"}).json()["state"]
        state = again.post("/api/words", json={"text": "Gato", "drop": "copy"}).json()["state"]
        assert _refused(state) == ["Gato"]

        (folder / "images" / "cat.svg").write_bytes((REPO / "assets" / "twemoji" / "cat.svg").read_bytes())

        def picture_for_cat(doc: dict[str, Any]) -> None:
            pair = next(s for s in doc["symbols"] if "faces" in s)
            pair["faces"] = [{"image": "images/cat.svg"} if f.get("text") == "cat" else f for f in pair["faces"]]

        state = _edit_outside(again, picture_for_cat)  # the word "gato" kept: so is its refusal
        assert _refused(state) == ["Gato"]


def test_a_refused_copys_tile_follows_what_it_repeats_and_survives_spoilt_files(client: Any) -> None:
    """A tile follows what the refused copy repeats, not all of its symbol: "Sol" refused
    against the pair "sun = sol" goes when an outside edit leaves another word there. A picture
    refused as a copy of cat.svg stays when cat is paired into another symbol in the studio,
    and with that symbol after Undo. A studio-refused.json from an older studio (only the
    file) links its tile again; a spoilt one (a deeply nested key) still opens the deck."""
    client.post("/api/art", json={"names": ["dog", "cow", "pig", "duck", "owl", "bee", "cat"]})
    client.post("/api/words", json={"text": "sun = sol", "drop": "pair"})
    state = client.post("/api/words", json={"text": "Sol", "drop": "copy"}).json()["state"]
    assert _refused(state) == ["Sol"]

    def pair_to_word(doc: dict[str, Any]) -> None:
        doc["symbols"] = [s if "faces" not in s else {"text": "kitten"} for s in doc["symbols"]]

    state = _edit_outside(client, pair_to_word)
    assert _refused(state) == []  # nothing says "sol" now: "Sol" would be taken

    state = client.post("/api/art", json={"names": ["cat"], "drop": "cat again"}).json()["state"]
    assert _refused(state) == ["cat.svg"]
    cat = next(s for s in state["symbols"] if s["name"] == "cat")
    dog = next(s for s in state["symbols"] if s["name"] == "dog")
    state = client.post(f"/api/symbols/{dog['uid']}/faces", json={"add": cat["uid"]}).json()["state"]
    assert _refused(state) == ["cat.svg"]  # its picture is a face of dog's now
    assert _refused(client.post("/api/undo", json={}).json()["state"]) == ["cat.svg"]

    folder = Path(state["folder"])
    old = [{"file": "cat.svg", "error": "same picture", "words": "same", "repeats_file": "images/cat.svg"}]
    (folder / "studio-refused.json").write_text(json.dumps(old), encoding="utf-8")
    with make_client(folder) as again:
        state = again.get("/api/state").json()["state"]
        cat = next(s for s in state["symbols"] if s["name"] == "cat")
        assert _refused(state) == ["cat.svg"]
        assert _refused(again.delete(f"/api/symbols/{cat['uid']}").json()["state"]) == []  # linked: gone with it
    (folder / "studio-refused.json").write_text(json.dumps(old), encoding="utf-8")  # cat is gone now
    with make_client(folder) as again:
        assert _refused(again.get("/api/state").json()["state"]) == []  # a copy of nothing there: no tile
    spoilt = [{"file": "cat.svg", "error": "same picture", "words": "same", "repeats_key": "[" * 5000 + "]" * 5000}]
    (folder / "studio-refused.json").write_text(json.dumps(spoilt), encoding="utf-8")
    with make_client(folder) as again:
        assert _refused(again.get("/api/state").json()["state"]) == ["cat.svg"]
