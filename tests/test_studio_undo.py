"""printdeck studio's Undo and Redo (issue 28), through the HTTP API: every kind of change
is a step (settings, symbols added, removed, renamed, reordered, uploads, crops, the seed,
a card re-rolled, an outside edit of theme.yaml), files taken out of the folder come back,
answers follow the revision rules, and the history is bounded."""

from __future__ import annotations

import stat
from pathlib import Path
from typing import Any

import yaml
from test_studio_api import client, make_client, png_bytes, seven, svgs, theme_file, upload

from printdeck.studio import history
from printdeck.studio.symbol_list import Item
from printdeck.studio.theme_folder import THEME_FILE

__all__ = ["client"]


def undo(client: Any, rev: int | None = None, status: int = 200) -> dict[str, Any]:
    body = {} if rev is None else {"rev": rev}
    answer = client.post("/api/undo", json=body)
    assert answer.status_code == status, answer.text
    return answer.json()


def redo(client: Any, status: int = 200) -> dict[str, Any]:
    answer = client.post("/api/redo", json={})
    assert answer.status_code == status, answer.text
    return answer.json()


def text_of(client: Any) -> str:
    folder = Path(client.get("/api/state").json()["state"]["folder"])
    return (folder / THEME_FILE).read_text(encoding="utf-8")


def test_a_setting_left_out_is_said_by_its_default(client: Any) -> None:
    """Undo's label said "Paper default → letter": a parent does not know what "default" is.
    A setting the theme leaves out is said by the spec's default; one worked out from the
    deck (the diameter from the shape) stays "default"."""
    seven(client)
    paper = client.patch("/api/settings", json={"changes": {"paper.size": "letter"}}).json()["state"]
    assert paper["history"]["undo"]["label"] == "Paper a4 → letter"
    assert undo(client)["undone"]["label"] == "Paper a4 → letter"
    client.patch("/api/settings", json={"changes": {"title": None}})  # left out: the folder's name, worked out
    title = client.patch("/api/settings", json={"changes": {"title": "Zoo"}}).json()["state"]
    assert title["history"]["undo"]["label"] == "Title default → Zoo"  # not the spec's "printdeck"
    undo(client)
    undo(client)


def test_a_setting_is_undone_and_redone_with_the_exact_file(client: Any) -> None:
    seven(client)
    before = text_of(client)
    client.patch("/api/settings", json={"changes": {"card.diameter": "90mm"}})
    after = text_of(client)
    state = client.patch("/api/settings", json={"changes": {"card.diameter": "85mm"}}).json()["state"]
    assert state["history"]["undo"] == {
        "label": "Diameter 90 mm → 85 mm",
        "key": "card.diameter",
        "before": "90 mm",
        "after": "85 mm",
    }
    assert state["history"]["redo"] is None
    answer = undo(client, state["rev"])
    assert answer["undone"]["label"] == "Diameter 90 mm → 85 mm"
    assert answer["state"]["rev"] == state["rev"] + 1  # a change like any other: a newer revision
    assert answer["state"]["settings"]["card.diameter"] == "90mm"
    assert text_of(client) == after
    assert undo(client)["undone"]["label"] == "Diameter default → 90 mm"  # worked out from the shape
    assert text_of(client) == before and "card" not in theme_file(client)
    assert redo(client)["redone"]["key"] == "card.diameter"
    assert text_of(client) == after
    history_now = client.get("/api/state").json()["state"]["history"]
    assert history_now["undo_count"] >= 2 and history_now["redo_count"] == 1
    client.patch("/api/settings", json={"changes": {"paper.size": "letter"}})  # a new change: no redo left
    assert client.get("/api/state").json()["state"]["history"]["redo"] is None
    assert redo(client, 400)["error"] == "redo: there is nothing to redo"


def test_an_undo_for_an_older_revision_changes_nothing(client: Any) -> None:
    state = seven(client)
    client.patch("/api/settings", json={"changes": {"title": "Farm"}})
    stale = undo(client, state["rev"], 409)  # the page had not seen the title yet
    assert "changed since the page showed it" in stale["error"]
    assert stale["state"]["settings"]["title"] == "Farm" and theme_file(client)["title"] == "Farm"


def test_symbol_changes_are_steps_with_their_names(client: Any) -> None:
    state = seven(client)
    first, second = state["symbols"][0], state["symbols"][1]
    client.patch(f"/api/symbols/{first['uid']}", json={"changes": {"name": "Sky"}})
    client.patch(f"/api/symbols/{first['uid']}", json={"changes": {"scale": 1.3}})
    order = [s["uid"] for s in state["symbols"]]
    client.put("/api/symbols/order", json={"order": [order[1], order[0], *order[2:]]})
    client.put("/api/symbols/order", json={"order": [order[1], *order[2:5], order[0], *order[5:]]})
    client.post("/api/words", json={"text": "moon\nstar"})
    labels = [undo(client)["undone"]["label"] for _ in range(5)]
    assert labels == [
        "added 'moon' and 'star'",
        "moved 'Sky'",  # three places on: the one tile that moved
        f"swapped 'Sky' and '{second['name']}'",  # neighbours: either may have been moved
        "'Sky': size default → 1.3",
        f"renamed '{first['name']}' → 'Sky'",
    ]
    assert [s["uid"] for s in client.get("/api/state").json()["state"]["symbols"]] == order  # same tiles, same ids
    assert theme_file(client)["symbols"][0] == {"image": f"images/{svgs(1)[0].name}"}
    assert second["uid"] == order[1]


def test_a_removed_picture_leaves_the_folder_and_undo_brings_it_back(client: Any) -> None:
    state = seven(client)
    folder = Path(state["folder"])
    rex = upload(client, [("rex.png", png_bytes((200, 60, 40)))])["state"]["symbols"][-1]
    path = folder / "images" / "rex.png"
    client.delete(f"/api/symbols/{rex['uid']}")
    assert not path.exists()
    kept = history_store(client)
    assert len(kept) == 1 and stat.S_IMODE(kept[0].parent.stat().st_mode) == 0o700
    answer = undo(client)
    assert answer["undone"]["label"] == "removed 'rex'"
    assert path.read_bytes() == png_bytes((200, 60, 40)) and stat.S_IMODE(path.stat().st_mode) == 0o600
    assert answer["state"]["symbols"][-1]["uid"] == rex["uid"]  # the same tile comes back
    assert undo(client)["undone"]["label"] == "added 'rex'"  # the upload undone: its copy goes too
    assert not path.exists()
    assert redo(client)["redone"]["label"] == "added 'rex'"
    assert path.exists() and theme_file(client)["symbols"][-1] == {"photo": "images/rex.png"}


def history_store(client: Any) -> list[Path]:
    space = client.app.app.routes[0].endpoint.__self__.space  # the Studio's workspace
    return space.history.kept_files()


def test_undo_does_not_put_a_file_back_over_another(client: Any) -> None:
    state = seven(client)
    folder = Path(state["folder"])
    rex = upload(client, [("rex.png", png_bytes((200, 60, 40)))])["state"]["symbols"][-1]
    client.delete(f"/api/symbols/{rex['uid']}")
    (folder / "images" / "rex.png").write_bytes(png_bytes((10, 10, 200)))  # another picture, put there by hand
    refused = undo(client, status=409)
    assert refused["error"] == "images/rex.png: another file is there now; move or rename it, then try again"
    assert all(s.get("photo") != "images/rex.png" for s in theme_file(client)["symbols"])
    (folder / "images" / "rex.png").unlink()
    assert undo(client)["undone"]["label"] == "removed 'rex'"


def test_a_back_picture_replaced_is_kept_for_undo(client: Any) -> None:
    seven(client)
    folder = Path(client.get("/api/state").json()["state"]["folder"])
    for colour, name in (((200, 0, 0), "red.png"), ((0, 0, 200), "blue.png")):
        answer = client.post("/api/backs-image", files={"file": (name, png_bytes(colour), "image/png")})
        assert answer.status_code == 200, answer.text
    assert not (folder / "backs" / "red.png").exists()  # no setting names it: out of the folder
    assert undo(client)["undone"]["label"] == "Picture or logo backs/red.png → backs/blue.png"
    assert (folder / "backs" / "red.png").exists() and not (folder / "backs" / "blue.png").exists()
    assert theme_file(client)["backs"] == {"image": "backs/red.png", "enabled": True}


def test_seed_reroll_and_crop_are_steps(client: Any) -> None:
    state = seven(client)
    rex = upload(client, [("rex.jpg", png_bytes((90, 160, 40), size=120))])["state"]["symbols"][-1]
    client.patch(f"/api/symbols/{rex['uid']}", json={"changes": {"focus": [0.3, 0.6], "zoom": 1.5}})
    client.post("/api/reroll", json={"card": 2})
    client.post("/api/seed", json={})
    assert undo(client)["undone"]["label"].startswith("Seed 1 → ")
    assert undo(client)["undone"]["label"] == "re-rolled card 2"
    assert undo(client)["undone"]["label"] == "'rex': crop centre, zoom"
    assert theme_file(client)["seed"] == 1 and "layout" not in theme_file(client)
    assert state["history"]["undo_count"] == 1  # the seven pictures were one step


def test_an_outside_edit_is_a_step_and_undo_writes_the_studios_version(client: Any) -> None:
    seven(client)
    folder = Path(client.get("/api/state").json()["state"]["folder"])
    studio_text = text_of(client)
    edited = studio_text.replace("title: Deck", "title: Edited by hand  # my note")  # the folder deck: Deck
    (folder / THEME_FILE).write_text(edited, encoding="utf-8")
    state = client.get("/api/state").json()["state"]
    assert state["settings"]["title"] == "Edited by hand"
    assert state["history"]["undo"]["label"] == history.OUTSIDE_LABEL
    undo(client, state["rev"])
    assert text_of(client) == studio_text
    assert not list(folder.glob("theme.edited-outside*"))  # nothing forked: the edit is kept for Redo
    redo(client)
    assert text_of(client) == edited  # the hand edit's very text, its comment too


def test_the_history_is_bounded_and_drops_files_it_can_no_longer_restore(tmp_path: Path) -> None:
    with make_client(tmp_path / "deck") as c:
        seven(c)
        rex = upload(c, [("rex.png", png_bytes((200, 60, 40)))])["state"]["symbols"][-1]
        c.delete(f"/api/symbols/{rex['uid']}")
        assert len(history_store(c)) == 1
        for n in range(history.MAX_STEPS):
            c.patch("/api/settings", json={"changes": {"title": f"Deck {n}"}})
        view = c.get("/api/state").json()["state"]["history"]
        assert view["undo_count"] == history.MAX_STEPS
        assert history_store(c) == []  # the removal fell out of the history: its file is gone
        for _ in range(history.MAX_STEPS):
            undo(c)
        assert undo(c, status=400)["error"] == "undo: there is nothing to undo"
        assert yaml.safe_load(text_of(c))["title"] == "Deck"  # a new deck is titled after its folder


def test_undo_waits_like_any_write_for_a_broken_outside_edit(client: Any) -> None:
    seven(client)
    client.patch("/api/settings", json={"changes": {"title": "Farm"}})
    folder = Path(client.get("/api/state").json()["state"]["folder"])
    (folder / THEME_FILE).write_text(text_of(client) + "card: {diameter: big}\n", encoding="utf-8")
    refused = undo(client, status=409)
    assert "changed outside and does not load" in refused["error"]
    assert "big" in text_of(client)  # not written over


def test_touch_ups_of_a_card_are_named_by_the_card() -> None:
    pin = {"card": 7, "symbols": ["a", "b", "c"], "place": {"a": {"center": ["0mm", "0mm"], "size": "20mm"}}}
    plain = history.State({"title": "x"}, (), "")
    pinned = history.State({"title": "x", "layout": {"pinned": [pin]}}, (), "")
    assert history.describe(plain, pinned) == ("touched up card 7", {})
    assert history.describe(pinned, plain) == ("let go of the touch-ups of card 7", {})
    assert (
        history.describe(plain, history.State({"title": "y", "seed": 4}, (), ""))[0]
        == "Title and 1 other setting changed"
    )


def test_a_touch_up_saved_as_any_change_is_undone_like_the_rest(tmp_path: Path) -> None:
    """Per-card touch-ups (``layout.pinned``) reach the history through the workspace's
    commit, as every change does: nothing of theirs is registered with the history."""
    from printdeck.studio.undo import redo as redo_step, undo as undo_step
    from printdeck.studio.workspace import Workspace

    space = Workspace.open(tmp_path / "deck")
    space.commit(items=[*space.items, *(Item({"text": w}) for w in "abcdefg")])
    pin = {"card": 1, "symbols": ["a", "b", "c"], "place": {"a": {"center": ["2mm", "-3mm"], "size": "20mm"}}}
    space.commit(settings={**space.settings, "layout": {"pinned": [pin]}})
    assert space.history.view()["undo"]["label"] == "touched up card 1"
    assert undo_step(space, space.rev) == {"undone": {"label": "touched up card 1"}}
    assert "layout" not in yaml.safe_load((space.folder / THEME_FILE).read_text(encoding="utf-8"))
    redo_step(space)
    assert yaml.safe_load((space.folder / THEME_FILE).read_text(encoding="utf-8"))["layout"] == {"pinned": [pin]}


def test_a_new_picture_under_a_removed_ones_name_never_takes_its_place(client: Any) -> None:
    state = seven(client)
    path = Path(state["folder"]) / "images" / "rex.png"
    old, new = png_bytes((200, 60, 40)), png_bytes((20, 60, 200))
    rex = upload(client, [("rex.png", old)])["state"]["symbols"][-1]
    client.delete(f"/api/symbols/{rex['uid']}")
    upload(client, [("rex.png", new)])  # the name is free again: another picture takes it
    assert path.read_bytes() == new
    undo(client)
    undo(client)
    assert path.read_bytes() == old  # the removed picture comes back, not the other one
    redo(client)
    redo(client)
    assert path.read_bytes() == new
