"""printdeck studio checks dropped pictures off the request path (issue 28, part 7): an
upload is written and answered at once, its pictures are checked on one worker thread with
per-file progress (name, n of N) as server-sent events, and the page's other requests are
answered meanwhile. Also: refused tiles kept in the folder across a restart, and a new
deck's title taken from its folder (what the backs print)."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from test_studio_api import make_client, png_bytes, svgs

from printdeck.studio import intake, theme_folder
from printdeck.studio.symbol_list import Item
from printdeck.studio.workspace import Workspace

with __import__("warnings").catch_warnings():
    __import__("warnings").simplefilter("ignore")
    from starlette.testclient import TestClient


def post_files(client: TestClient, files: list[tuple[str, bytes]], drop: str | None = None) -> Any:
    data = {"drop": drop} if drop else None
    return client.post("/api/files", files=[("files", (n, d, "application/octet-stream")) for n, d in files], data=data)


def events(client: TestClient, job: int) -> list[dict[str, Any]]:
    """Every server-sent event of check ``job``, until the one that says it is done."""
    seen = []
    with client.stream("GET", f"/api/checks/{job}/events") as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        for line in response.iter_lines():
            if line.startswith("data: "):
                seen.append(json.loads(line[6:]))
                if seen[-1]["done"]:
                    break
    return seen


@pytest.fixture
def gate(monkeypatch: pytest.MonkeyPatch) -> Iterator[threading.Event]:
    """Holds each picture's check until the test sets the event (the checks then run)."""
    opened = threading.Event()
    real = Workspace.check_alone

    def held(self: Workspace, item: Any) -> Any:
        assert opened.wait(60), "the test never let the check go on"
        return real(self, item)

    monkeypatch.setattr(Workspace, "check_alone", held)
    yield opened
    opened.set()


def test_an_upload_is_answered_before_its_pictures_are_checked(tmp_path: Path, gate: threading.Event) -> None:
    files = [(p.name, p.read_bytes()) for p in svgs(6)] + [("broken.png", b"not a png")]
    with make_client(tmp_path / "deck") as client:
        answer = post_files(client, files)
        assert answer.status_code == 202, answer.text
        check = answer.json()["check"]
        assert (check["done"], check["total"], check["results"]) == (False, 7, [])
        folder = tmp_path / "deck"
        assert len(list((folder / "images").iterdir())) == 7  # written at once, atomically each
        # While the first picture's check waits, the page's requests are answered, and the
        # state says what is being checked.
        state = client.get("/api/state").json()["state"]
        assert state["symbols"] == [] and state["checking"]["total"] == 7
        assert state["checking"]["file"] == "aeroplane.svg" and state["checking"]["checked"] == 0
        assert client.get(f"/api/preview?rev={state['rev']}&page=1").status_code == 422  # no deck yet, said at once
        assert client.patch("/api/settings", json={"changes": {"title": "Holiday"}}).status_code == 200
        gate.set()
        stream = events(client, check["id"])
        last = stream[-1]
        assert last["done"] and last["error"] is None and last["checked"] == 7
        progress = [(e["checked"], e["file"]) for e in stream if not e["done"]]
        assert all(file in {n for n, _ in files} | {""} for _, file in progress)
        assert [r["ok"] for r in last["results"]] == [True] * 6 + [False]
        assert "broken.png" in last["results"][6]["error"]
        state = client.get("/api/state").json()["state"]
        assert state["checking"] is None and len(state["symbols"]) == 6
        assert state["settings"]["title"] == "Holiday"  # the change made meanwhile is kept
        assert [r["file"] for r in state["rejected"]] == ["broken.png"]  # a refused tile, with its reason
        assert sorted(p.name for p in (folder / "images").iterdir()) == sorted(n for n, _ in files[:6])


def test_drops_are_checked_in_order_and_copies_refused(tmp_path: Path) -> None:
    first = [(p.name, p.read_bytes()) for p in svgs(4)]
    with make_client(tmp_path / "deck") as client:
        jobs = [post_files(client, batch, drop="one").json()["check"]["id"] for batch in (first, first[:1])]
        ends = [events(client, job)[-1] for job in jobs]
        assert [r["ok"] for r in ends[0]["results"]] == [True] * 4
        again = ends[1]["results"][0]  # the same picture as the first one of the drop before
        assert again["ok"] is False and "same picture" in again["error"]
        state = client.get("/api/state").json()["state"]
        assert [s["file"] for s in state["symbols"]] == [f"images/{n}" for n, _ in first]


def test_the_wait_form_answers_once_checked(tmp_path: Path) -> None:
    with make_client(tmp_path / "deck") as client:
        answer = client.post("/api/files?wait=1", files=[("files", ("red.png", png_bytes((200, 30, 30)), "image/png"))])
        assert answer.status_code == 200
        assert answer.json()["results"][0]["ok"] and answer.json()["state"]["symbols"][0]["kind"] == "photo"
        assert client.get("/api/checks/999/events").status_code == 404


def test_each_picture_that_passes_is_traced_while_the_next_is_checked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Traces run beside the checks (the last file's check waits here until the three
    before it are traced; traces not started when the checks end are left to the sheet)."""
    traced: list[str] = []
    three = threading.Event()
    real = Workspace.check_alone

    def trace(folder: Path, item: Any) -> None:
        traced.append(item.file)
        if len(traced) == 3:
            three.set()

    def check_alone(self: Workspace, item: Any) -> Any:
        if item.file == "images/broken.png":
            assert three.wait(60), traced
        return real(self, item)

    monkeypatch.setattr(intake, "ready", trace)
    monkeypatch.setattr(Workspace, "check_alone", check_alone)
    files = [("files", (p.name, p.read_bytes(), "image/svg+xml")) for p in svgs(3)]
    files.append(("files", ("broken.png", b"not a png", "image/png")))
    with make_client(tmp_path / "deck") as client:
        assert client.post("/api/files?wait=1", files=files).status_code == 200
    assert sorted(traced) == sorted(f"images/{p.name}" for p in svgs(3))  # not the refused one


def test_refused_tiles_are_kept_in_the_folder_across_a_restart(tmp_path: Path) -> None:
    folder = tmp_path / "deck"
    with make_client(folder) as client:
        client.post("/api/words", json={"text": "sun\nsun"})
        post_files(client, [("broken.png", b"x")])
        client.post("/api/files?wait=1", files=[("files", ("bad.webp", b"nope", "image/webp"))], data={"drop": "d"})
        shown = [(r["file"], r["error"]) for r in client.get("/api/state").json()["state"]["rejected"]]
    assert [f for f, _ in shown] == ["bad.webp"]  # a new drop forgets the earlier drops' tiles
    kept = json.loads((folder / theme_folder.REFUSED_FILE).read_text(encoding="utf-8"))
    assert [(r["file"], r["error"]) for r in kept] == shown
    with make_client(folder) as client:
        again = client.get("/api/state").json()["state"]["rejected"]
        assert [(r["file"], r["error"]) for r in again] == shown
        assert client.delete(f"/api/rejected/{again[0]['uid']}").status_code == 200
    assert not (folder / theme_folder.REFUSED_FILE).exists()  # nothing refused: no file
    (folder / theme_folder.REFUSED_FILE).write_text("{not json", encoding="utf-8")  # e.g. cut short by hand
    with make_client(folder) as client:  # a spoilt file is no reason not to open the deck
        assert client.get("/api/state").json()["state"]["rejected"] == []


def test_refused_words_are_kept_across_a_restart(tmp_path: Path) -> None:
    folder = tmp_path / "deck"
    with make_client(folder) as client:
        answer = client.post("/api/words", json={"text": "sun\nsun"}).json()
        assert [r["ok"] for r in answer["results"]] == [True, False]
    with make_client(folder) as client:
        rejected = client.get("/api/state").json()["state"]["rejected"]
        assert [r["file"] for r in rejected] == ["sun"] and "sun" in rejected[0]["error"]


def test_a_new_deck_is_titled_after_its_folder(tmp_path: Path) -> None:
    with make_client(tmp_path / "family-deck") as client:
        assert client.get("/api/state").json()["state"]["settings"]["title"] == "Family deck"
    assert yaml.safe_load((tmp_path / "family-deck" / "theme.yaml").read_text())["title"] == "Family deck"


def test_a_traced_photo_has_its_crop_silhouette_and_thumbnail_ready(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What ``ready`` does for a checked photo is what the first sheet and the tile read:
    its silhouette (the crop in it) in the cache, its badge known, its thumbnail made."""
    import printdeck
    from printdeck.artwork import silhouette_key
    from printdeck.studio import thumbnails

    monkeypatch.setenv("PRINTDECK_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("PRINTDECK_NO_CACHE", raising=False)
    folder = tmp_path / "deck"
    (folder / "images").mkdir(parents=True)
    (folder / "images" / "sun.png").write_bytes(png_bytes((230, 180, 20), 300))
    item = Item({"photo": "images/sun.png"})
    intake.ready(folder, item)
    words = [{"text": w} for w in "bcdefg"]
    theme = printdeck.load_theme({"symbols": [item.data, *words]}, base_dir=folder)
    photo = theme.symbols[0]
    assert (tmp_path / "cache" / "silhouettes" / f"{silhouette_key(photo)}.sil").is_file()
    assert printdeck.photo_crop(photo, compute=False) is not None  # the tile's badge is known at once
    before = thumbnails._cached.cache_info().hits
    thumbnails.thumbnail(folder / "images" / "sun.png")
    assert thumbnails._cached.cache_info().hits == before + 1
