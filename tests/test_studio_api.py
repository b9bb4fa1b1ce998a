"""printdeck studio's HTTP API (issue 17), through Starlette's test client: the token and
Host checks, every endpoint, bad uploads, and that the saved folder builds the same PDF."""

from __future__ import annotations

import io
import json
import time
import warnings
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import yaml
from PIL import Image

import printdeck

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from printdeck.studio import uploads
from printdeck.studio.guard import TOKEN_HEADER, Pass
from printdeck.studio.routes import create_app
from printdeck.studio.workspace import Workspace

REPO = Path(__file__).resolve().parent.parent
TWEMOJI = REPO / "assets" / "twemoji"
FONTS = REPO / "assets" / "fonts"
TOKEN = "test-token-of-the-studio-api-tests"


def svgs(n: int, skip: int = 0) -> list[Path]:
    """``n`` bundled Twemoji SVGs."""
    return sorted(TWEMOJI.glob("*.svg"))[skip : skip + n]


def png_bytes(colour: tuple[int, int, int], size: int = 64, alpha: bool = False) -> bytes:
    """A small PNG: a coloured disc on a shaded wall (a photo: its edges are not one plain
    colour, which would make it clip art) or on transparency."""
    image = Image.new("RGBA" if alpha else "RGB", (size, size), (0, 0, 0, 0) if alpha else (240, 240, 240))
    from PIL import ImageDraw

    draw = ImageDraw.Draw(image)
    if not alpha:
        for y in range(size):  # a wall lit from above: 240 at the top down to 140
            draw.line([(0, y), (size, y)], fill=(240 - 100 * y // size,) * 3)
    draw.ellipse((8, 8, size - 8, size - 8), fill=colour)
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def make_client(folder: Path, max_body: int = 10**9) -> TestClient:
    space = Workspace.open(folder)
    gate = Pass(token=TOKEN, hosts=frozenset({"testserver"}), max_body_bytes=max_body)
    return TestClient(create_app(space, gate), headers={TOKEN_HEADER: TOKEN})


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with make_client(tmp_path / "deck") as c:
        yield c


def upload(client: TestClient, files: list[tuple[str, bytes]]) -> dict[str, Any]:
    response = client.post(
        "/api/files?wait=1", files=[("files", (name, data, "application/octet-stream")) for name, data in files]
    )
    assert response.status_code == 200, response.text
    return response.json()


def seven(client: TestClient) -> dict[str, Any]:
    """Seven SVGs: the smallest deck (7 cards of 3)."""
    return upload(client, [(p.name, p.read_bytes()) for p in svgs(7)])["state"]


def theme_file(client: TestClient) -> dict[str, Any]:
    folder = Path(client.get("/api/state").json()["state"]["folder"])
    return yaml.safe_load((folder / "theme.yaml").read_text(encoding="utf-8"))


# -- who may use it -------------------------------------------------------------------------


def test_only_the_token_header_opens_the_api_and_no_cookie_is_ever_set(tmp_path: Path) -> None:
    with make_client(tmp_path / "deck") as c:
        page = c.get("/", headers={TOKEN_HEADER: ""})  # the page and its scripts hold nothing private
        assert page.status_code == 200 and "printdeck studio" in page.text
        assert c.get("/static/api.js", headers={TOKEN_HEADER: ""}).status_code == 200
        for headers in ({TOKEN_HEADER: ""}, {TOKEN_HEADER: "forged"}, {TOKEN_HEADER: TOKEN[:-1]}):
            assert c.get("/api/state", headers=headers).status_code == 403, headers
        for url in (f"/api/state?token={TOKEN}", f"/api/thumbs/1?token={TOKEN}", "/api/builds/1/deck.pdf"):
            assert c.get(url, headers={TOKEN_HEADER: ""}).status_code == 403, url  # no token in addresses
        anonymous = c.get("/api/state", headers={TOKEN_HEADER: "", "cookie": f"printdeck_studio_test={TOKEN}"})
        assert anonymous.status_code == 403  # a cookie is no token
        answers = [c.get("/"), c.get(f"/?token={TOKEN}"), c.get("/api/state"), c.patch("/api/settings", json={})]
        assert all("set-cookie" not in a.headers for a in answers)
        assert c.get("/api/state").status_code == 200
        preflight = c.options("/api/state", headers={TOKEN_HEADER: "", "origin": "http://evil.example"})
        assert preflight.status_code == 403 and "access-control-allow-origin" not in preflight.headers


def test_other_host_names_and_other_sites_are_refused(client: TestClient) -> None:
    assert client.get("/api/state", headers={"host": "evil.example"}).status_code == 403  # DNS rebinding
    assert client.get("/api/state", headers={"host": "127.0.0.1:1"}).status_code == 403
    refused = client.patch("/api/settings", json={"changes": {"title": "x"}}, headers={"origin": "http://evil.example"})
    assert refused.status_code == 403
    allowed = client.patch("/api/settings", json={"changes": {"title": "x"}}, headers={"origin": "http://testserver"})
    assert allowed.status_code == 200


def test_responses_carry_a_strict_content_security_policy(client: TestClient) -> None:
    page = client.get("/")
    assert "script-src 'self'" in page.headers["content-security-policy"]
    assert page.headers["x-content-type-options"] == "nosniff"
    assert page.headers["x-frame-options"] == "DENY"
    static_dir = Path(uploads.__file__).parent / "static"
    names = sorted(p.name for p in static_dir.iterdir() if p.suffix in (".js", ".css"))
    assert "symbols.js" in names and "studio.css" in names
    for name in names:  # every script and style the page loads
        static = client.get(f"/static/{name}")
        assert static.status_code == 200, name
        text = static.text.replace('"http://www.w3.org/2000/svg"', "")  # SVG's namespace: a name, never fetched
        assert "http://" not in text and "https://" not in text, f"{name} fetches from elsewhere"
    assert "http" not in page.text.replace("http-equiv", "")


def test_a_request_body_over_the_limit_is_refused(tmp_path: Path) -> None:
    with make_client(tmp_path / "deck", max_body=10_000) as c:
        response = c.post("/api/files", files=[("files", ("big.png", b"x" * 20_000, "image/png"))])
        assert response.status_code == 413
        assert not (tmp_path / "deck" / "images").exists()


# -- symbols --------------------------------------------------------------------------------


def test_pictures_are_copied_into_the_folder_and_listed_in_the_theme(client: TestClient) -> None:
    state = seven(client)
    assert state["sizes"] == "7 symbols: 7 cards of 3; add 6 for 13 cards of 4"
    assert [s["name"] for s in state["symbols"]][:2] == ["aeroplane", "alarm clock"]
    folder = Path(state["folder"])
    assert sorted(p.name for p in (folder / "images").iterdir()) == sorted(p.name for p in svgs(7))
    assert theme_file(client)["symbols"][0] == {"image": "images/aeroplane.svg"}
    thumb = client.get(state["symbols"][0]["thumb"])
    assert thumb.headers["content-type"].startswith("image/svg+xml")
    assert "sandbox" in thumb.headers["content-security-policy"]


def test_opaque_pictures_become_photos_and_transparent_ones_images(client: TestClient) -> None:
    state = upload(
        client, [("holiday.png", png_bytes((200, 40, 40))), ("logo.png", png_bytes((40, 40, 200), alpha=True))]
    )
    kinds = {s["name"]: s["kind"] for s in state["state"]["symbols"]}
    assert kinds == {"holiday": "photo", "logo": "image"}
    photo = next(s for s in state["state"]["symbols"] if s["kind"] == "photo")
    thumb = client.get(photo["thumb"])
    assert thumb.status_code == 200 and thumb.headers["content-type"] == "image/jpeg"


def test_bad_files_are_refused_one_line_each_and_leave_nothing(client: TestClient, tmp_path: Path) -> None:
    script = (
        b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 9 9">'
        b'<script>alert(1)</script><rect width="9" height="9"/></svg>'
    )
    outside = (
        b'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 9 9">'
        b'<image xlink:href="http://evil.example/x.png" width="9" height="9"/><rect width="4" height="4"/></svg>'
    )
    handler = (
        b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 9 9"><rect width="9" height="9" onload="x()"/></svg>'
    )
    results = upload(
        client,
        [
            ("broken.png", b"\x89PNG\r\n\x1a\n" + b"\0" * 40),
            ("script.svg", script),
            ("outside.svg", outside),
            ("handler.svg", handler),
            ("anim.gif", b"GIF89a"),
            ("huge.png", b"\0" * (80_000_000 + 1)),
            ("../../escape.png", png_bytes((1, 2, 3))),
        ],
    )["results"]
    errors = {r["file"]: r.get("error") for r in results}
    assert "is not a picture printdeck reads (PNG, JPEG, WebP, HEIC, AVIF)" in errors["broken.png"]
    assert errors["broken.png"].startswith("images/broken.png ")
    assert "holds a script (<script>)" in errors["script.svg"]
    assert "refers to an outside resource 'http://evil.example/x.png'" in errors["outside.svg"]
    assert "holds a script (onload)" in errors["handler.svg"]
    assert "which printdeck cannot read" in errors["anim.gif"]
    assert "80.000001 MB is larger than the 80.000000 MB a picture may be" in errors["huge.png"]
    assert errors["../../escape.png"] is None
    assert all("\n" not in (e or "") for e in errors.values())
    state = client.get("/api/state").json()["state"]
    folder = Path(state["folder"])
    assert sorted(p.name for p in (folder / "images").iterdir()) == ["escape.png"]  # the refused ones are gone
    assert not (folder.parent / "escape.png").exists() and not (tmp_path / "escape.png").exists()
    assert len(state["rejected"]) == 6
    dismissed = client.delete(f"/api/rejected/{state['rejected'][0]['uid']}")
    assert len(dismissed.json()["state"]["rejected"]) == 5
    assert client.delete("/api/rejected/999999").status_code == 404


def test_same_names_never_overwrite_and_same_pictures_are_refused(client: TestClient) -> None:
    red, blue = png_bytes((220, 0, 0), alpha=True), png_bytes((0, 0, 220), alpha=True)
    first = upload(client, [("cat.png", red), ("sub/cat.png", blue)])
    assert [r["ok"] for r in first["results"]] == [True, True]
    files = [s["file"] for s in first["state"]["symbols"]]
    assert files == ["images/cat.png", "images/cat-2.png"]
    green = png_bytes((0, 200, 0), alpha=True)  # files whose symbols would be named as others': renamed
    third = upload(client, [("CAT.png", green), ("cat_2.png", png_bytes((200, 200, 0), alpha=True))])
    assert [r["ok"] for r in third["results"]] == [True, True]
    assert [s["file"] for s in third["state"]["symbols"]][2:] == ["images/CAT-3.png", "images/cat_2-2.png"]
    again = upload(client, [("copy.png", red)])["results"][0]
    assert not again["ok"] and "is the same picture as symbols.0.image (cat.png)" in again["error"]
    folder = Path(first["state"]["folder"])
    assert (folder / "images" / "cat.png").read_bytes() == red
    assert not (folder / "images" / "copy.png").exists()


def test_too_many_files_in_one_upload_are_refused(client: TestClient) -> None:
    too_many = uploads.MAX_FILES_PER_UPLOAD + 1
    response = client.post("/api/files", files=[("files", (f"{i}.png", b"x", "image/png")) for i in range(too_many)])
    assert response.status_code == 400


def test_words_are_added_and_duplicates_refused(client: TestClient) -> None:
    response = client.post("/api/words", json={"text": "cat\n  dog  \n\n# a note\nCat\n" + "x" * 41})
    results = response.json()["results"]
    assert [r["ok"] for r in results] == [True, True, False, False]
    assert "'Cat' is already symbols.0; list each word once" in results[2]["error"]
    assert "text" in results[3]["error"]
    assert [s.get("text") for s in theme_file(client)["symbols"]] == ["cat", "dog"]
    assert client.get(f"/api/thumbs/{results[0]['uid']}").status_code == 404  # a word has no picture
    assert client.post("/api/words", json={"text": 5}).status_code == 400


def test_a_pasted_word_and_its_translation_are_one_symbol_of_two_faces(client: TestClient) -> None:
    """``cat = gato`` printed as the words "cat = gato" on a card; the studio now reads a
    line as ``printdeck init --words`` does: a word and its translation (or a tab between)."""
    response = client.post("/api/words", json={"text": "cat = gato\ndog\tperro\nA = a\nfish\ncow =\n"})
    results = response.json()["results"]
    assert [r["ok"] for r in results] == [True, True, True, True, False]
    assert printdeck.WORD_ROW_PROBLEM in results[4]["error"]  # as init says it of a word list's line
    assert theme_file(client)["symbols"] == [
        {"faces": [{"text": "cat"}, {"text": "gato"}]},
        {"faces": [{"text": "dog"}, {"text": "perro"}]},
        {"faces": [{"text": "A"}, {"text": "a"}]},
        {"text": "fish"},
    ]
    row = client.post("/api/words", json={"text": "sun\tsol\t"}).json()["results"]  # one row, an empty cell
    assert [r["ok"] for r in row] == [True] and theme_file(client)["symbols"][-1] == {
        "faces": [{"text": "sun"}, {"text": "sol"}]
    }
    cells = client.post("/api/words", json={"text": "owl\then\tpig"}).json()["results"]  # a word a cell
    assert [r["file"] for r in cells] == ["owl", "hen", "pig"]
    again = client.post("/api/words", json={"text": "bird\ngato = cat"}).json()["results"]
    assert [r["ok"] for r in again] == [True, False]  # gato is a face of a symbol already
    assert "'gato' is already symbols.0" in again[1]["error"]


def test_a_photo_with_its_background_removed_is_shown_as_it_prints(client: TestClient) -> None:
    """A parent ticked "Remove a plain background" and saw the same photo and ring: the page
    now shows the cut-out as the PDF prints it, from the artwork's own drawing."""
    import io

    from PIL import Image, ImageDraw

    photo = Image.new("RGB", (400, 300), (60, 160, 80))  # a plain green wall
    ImageDraw.Draw(photo).ellipse((150, 80, 250, 340), fill=(200, 150, 120))  # the subject, cut by the frame
    data = io.BytesIO()
    photo.save(data, format="PNG")
    state = upload(client, [("kid.png", data.getvalue())] + [(p.name, p.read_bytes()) for p in svgs(6)])["state"]
    uid = state["symbols"][0]["uid"]
    shown = client.get(f"/api/crops/{uid}/printed.png")
    assert shown.status_code == 200 and shown.headers["content-type"] == "image/png"
    kept = Image.open(io.BytesIO(shown.content)).convert("RGBA")
    assert max(kept.size) == 240 and kept.getpixel((kept.width // 2, kept.height // 2))[3] == 255
    assert kept.getpixel((kept.width // 2, 8))[3] > 0  # the wall, inside the circle, before removal
    client.patch(f"/api/symbols/{uid}", json={"changes": {"remove_background": True}})
    cut = Image.open(io.BytesIO(client.get(f"/api/crops/{uid}/printed.png").content)).convert("RGBA")
    assert cut.getpixel((cut.width // 2, cut.height // 2))[3] == 255  # the subject stays
    assert cut.getpixel((cut.width // 2, 8))[3] == 0  # the wall is gone
    assert client.get(f"/api/crops/{state['symbols'][1]['uid']}/printed.png").status_code == 404  # no photo


def test_a_photo_paired_with_its_word_keeps_its_crop_controls(tmp_path: Path) -> None:
    """Grandma's photo and the word "abuela" as one symbol: the photo face lost its crop,
    zoom and shape (a face kept only ``rotate``). They are the face's keys now, and the page
    is given its crop and its cut-out as for a photo of its own."""
    folder = tmp_path / "family"
    (folder / "images").mkdir(parents=True)
    (folder / "images" / "grandma.png").write_bytes(png_bytes((200, 150, 120), size=160))
    words = "".join(f"  - text: {w}\n" for w in ("sol", "mar", "pan", "luz", "flor", "casa"))
    theme = f"name: family\nsymbols:\n  - faces: [{{photo: images/grandma.png}}, {{text: abuela}}]\n{words}"
    (folder / "theme.yaml").write_text(theme, encoding="utf-8")
    with make_client(folder) as c:
        symbol = c.get("/api/state").json()["state"]["symbols"][0]
        assert symbol["kind"] == "faces" and symbol["photo_face"] == 0 and symbol["faces"][0]["zoom"] == 1.0
        crop = c.get(f"/api/crops/{symbol['uid']}")
        assert crop.status_code == 200 and len(crop.json()["crop"]["box"]) == 4
        changes = {"faces.0.focus": [0.4, 0.6], "faces.0.zoom": 1.5, "faces.0.shape": "rounded"}
        assert c.patch(f"/api/symbols/{symbol['uid']}", json={"changes": changes}).status_code == 200
        shown = c.get("/api/state").json()["state"]["symbols"][0]["faces"][0]
        assert (shown["focus"], shown["zoom"], shown["shape"]) == ([0.4, 0.6], 1.5, "rounded")
        url = f"/api/symbols/{symbol['uid']}"
        assert c.patch(url, json={"changes": {"faces.1.focus": [0.5, 0.5]}}).status_code == 400  # a word: no crop
        assert c.patch(url, json={"changes": {"faces.0.remove_background": True}}).status_code == 200
        printed = c.get(f"/api/crops/{symbol['uid']}/printed.png")
        assert printed.status_code == 200 and printed.headers["content-type"] == "image/png"
    face = yaml.safe_load((folder / "theme.yaml").read_text(encoding="utf-8"))["symbols"][0]["faces"][0]
    assert face == {
        "photo": "images/grandma.png", "focus": [0.4, 0.6], "zoom": 1.5, "shape": "rounded", "remove_background": True,
    }  # fmt: skip
    built = printdeck.load_theme(folder / "theme.yaml").symbols[0].faces[0]
    assert (built.focus, built.zoom, built.remove_background) == ((0.4, 0.6), 1.5, True)


def test_symbols_are_renamed_scaled_cropped_reordered_and_removed(client: TestClient) -> None:
    state = upload(client, [("rex.png", png_bytes((90, 60, 20)))] + [(p.name, p.read_bytes()) for p in svgs(2)])[
        "state"
    ]
    photo, first, second = state["symbols"]
    ok = client.patch(
        f"/api/symbols/{photo['uid']}",
        json={"changes": {"name": "Rex", "focus": [0.4, 0.3], "zoom": 1.5, "remove_background": True, "rotate": False}},
    )
    assert ok.status_code == 200
    assert theme_file(client)["symbols"][0] == {
        "photo": "images/rex.png",
        "name": "Rex",
        "focus": [0.4, 0.3],
        "zoom": 1.5,
        "remove_background": True,
        "rotate": False,
    }
    bad = client.patch(f"/api/symbols/{first['uid']}", json={"changes": {"scale": 9}})
    assert bad.status_code == 422 and bad.json()["error"].startswith("theme.yaml: symbols.1.scale: ")
    assert "scale" not in theme_file(client)["symbols"][1]
    crop = client.patch(f"/api/symbols/{first['uid']}", json={"changes": {"focus": [0.5, 0.5]}})
    assert crop.status_code == 400  # pictures are not cropped: not a key of an image symbol
    assert client.patch(f"/api/symbols/{first['uid']}", json={"changes": {"scale": {"x": 1}}}).status_code == 400
    order = [second["uid"], photo["uid"], first["uid"]]
    assert client.put("/api/symbols/order", json={"order": order}).status_code == 200
    assert [s.get("name") or s.get("image") for s in theme_file(client)["symbols"]] == [
        "images/" + svgs(2)[1].name,
        "Rex",
        "images/" + svgs(2)[0].name,
    ]
    assert client.put("/api/symbols/order", json={"order": order[:2]}).status_code == 400
    assert client.delete(f"/api/symbols/{photo['uid']}").status_code == 200
    assert len(theme_file(client)["symbols"]) == 2
    assert client.delete(f"/api/symbols/{photo['uid']}").status_code == 404
    assert not (Path(state["folder"]) / "images" / "rex.png").exists()  # kept for Undo, outside the folder
    assert client.post("/api/undo", json={}).json()["undone"]["label"] == "removed 'Rex'"
    assert (Path(state["folder"]) / "images" / "rex.png").exists()  # Undo puts it back


# -- settings -------------------------------------------------------------------------------


def test_settings_are_checked_by_the_theme_model_and_saved(client: TestClient) -> None:
    seven(client)
    ok = client.patch("/api/settings", json={"changes": {"card.diameter": "70mm", "paper.size": "letter"}})
    assert ok.status_code == 200
    assert theme_file(client)["card"] == {"diameter": "70mm"}
    bad = client.patch("/api/settings", json={"changes": {"card.diameter": "big"}})
    body = bad.json()
    assert bad.status_code == 422 and body["field"] == "card.diameter"
    assert body["error"] == (
        'theme.yaml: card.diameter: expected a length such as "85mm" (units mm, cm, in, pt), got "big"'
    )
    assert body["words"] == "Diameter must be a length such as 85 mm (a number, then mm, cm, in or pt)"
    assert body["state"]["field_errors"] == {"card.diameter": body["words"]}  # the page's words beside it
    assert theme_file(client)["card"] == {"diameter": "70mm"}  # the last good value stays
    assert client.patch("/api/settings", json={"changes": {"card.diameter": None}}).status_code == 200
    assert "card" not in theme_file(client)
    assert client.patch("/api/settings", json={"changes": {"symbols": []}}).status_code == 400
    assert client.patch("/api/settings", json={"changes": {"title": {"a": 1}}}).status_code == 400
    assert client.patch("/api/settings", json={"changes": "x"}).status_code == 400


def test_a_setting_takes_the_place_of_its_alternative_and_never_saves_a_clash(client: TestClient) -> None:
    """Diameter, then Card size, saved both, a theme every command refused ("give only one of
    card.size and card.diameter"). The last edit now wins; a change that would clash with
    another setting is refused and leaves the file as it was."""
    seven(client)

    def change(key: str, value: object) -> Any:
        return client.patch("/api/settings", json={"changes": {key: value}})

    assert change("card.diameter", "85mm").status_code == 200
    assert change("card.size", "80mm").status_code == 200
    assert theme_file(client)["card"] == {"size": "80mm"}
    assert change("card.diameter", "70mm").status_code == 200
    assert theme_file(client)["card"] == {"diameter": "70mm"}
    assert change("card.shape", "square").status_code == 200  # only a round card has a diameter: its size now
    assert theme_file(client)["card"] == {"shape": "square", "size": "70mm"}
    assert change("card.corner_radius", "3mm").status_code == 200
    assert change("card.shape", "circle").status_code == 200  # a round card has no corner radius
    assert theme_file(client)["card"] == {"shape": "circle", "size": "70mm"}
    assert change("card.shape", "rectangle").status_code == 200
    assert change("paper.cuts", "shared").status_code == 200
    clash = change("card.shape", "circle")  # round cards cannot share cut lines
    assert clash.status_code == 422 and clash.json()["field"] == "card.shape"
    assert "cut lines" in clash.json()["words"]
    assert theme_file(client)["card"] == {"shape": "rectangle", "size": "70mm"}
    assert change("paper.cuts", None).status_code == 200
    assert change("card.size", ["90mm", "60mm"]).status_code == 200
    assert change("card.shape", "circle").status_code == 200  # a width and height: a rectangle's
    assert theme_file(client)["card"] == {"shape": "circle"}
    assert change("card.shape", None).status_code == 200 and change("card.size", "poker").status_code == 200
    assert change("card.shape", "hexagon").status_code == 200  # poker: a rectangle's size
    assert theme_file(client)["card"] == {"shape": "hexagon"}
    assert printdeck.check_theme(Path(client.get("/api/state").json()["state"]["folder"])).cards == 7


def test_a_deck_too_big_for_the_symbols_is_saved_and_explained(client: TestClient) -> None:
    seven(client)
    response = client.patch("/api/settings", json={"changes": {"deck.symbols_per_card": 8}})
    state = response.json()["state"]
    assert response.status_code == 200 and theme_file(client)["deck"] == {"symbols_per_card": 8}
    assert state["problem_key"] == "symbols" and "needs 57 symbols" in state["problem"]
    preview = client.get(f"/api/preview?rev={state['rev']}&page=1")
    assert preview.status_code == 422 and "needs 57 symbols" in preview.json()["error"]


def test_backs_picture_and_font_are_copied_and_checked(client: TestClient) -> None:
    seven(client)
    logo = svgs(1, skip=20)[0]
    ok = client.post("/api/backs-image", files={"file": ("my logo.svg", logo.read_bytes(), "image/svg+xml")})
    assert ok.status_code == 200
    assert theme_file(client)["backs"] == {"image": "backs/my-logo.svg", "enabled": True}
    bad = client.post("/api/backs-image", files={"file": ("x.png", b"not a png", "image/png")})
    assert bad.status_code == 422 and bad.json()["field"] == "backs.image"
    assert theme_file(client)["backs"]["image"] == "backs/my-logo.svg"
    font = sorted(FONTS.glob("*.ttf"))[0]
    assert client.post("/api/font", files={"file": (font.name, font.read_bytes(), "font/ttf")}).status_code == 200
    assert theme_file(client)["text"] == {"font": f"fonts/{font.name}"}
    assert client.post("/api/font", files={"file": ("x.ttf", b"nope", "font/ttf")}).status_code == 422


def test_reroll_and_new_seed_change_the_theme(client: TestClient) -> None:
    seven(client)
    assert client.post("/api/reroll", json={"card": 2}).status_code == 200
    assert client.post("/api/reroll", json={"card": 2}).status_code == 200
    assert theme_file(client)["layout"] == {"reroll": {2: 2}}
    assert client.post("/api/reroll", json={"card": 0}).status_code == 400
    seed = theme_file(client)["seed"]
    assert client.post("/api/seed").status_code == 200
    assert theme_file(client)["seed"] != seed


# -- preview and build ----------------------------------------------------------------------


def test_a_class_sets_sheet_says_its_decks_as_the_build_does(client: TestClient) -> None:
    """A teacher's 3-deck class set read '21 cards, 5 symbols a card, 12 sheets' above the
    sheet: nothing of its three decks of 21."""
    seven(client)
    state = client.patch("/api/settings", json={"changes": {"deck.copies": 3}}).json()["state"]
    facts = client.get(f"/api/preview?rev={state['rev']}&page=1").json()
    assert facts["cards_text"] == "3 decks (A to C) of 7 cards"


def test_a_pale_word_colour_is_said_beside_the_sheet(client: TestClient) -> None:
    """A teacher set every word colour to a pale yellow: the page said nothing until the
    build's summary. The sheet's warnings say it as the build does."""
    client.post("/api/words", json={"text": "sun\nmoon\nstar\ntree\nfish\nbird\nfrog"})
    state = client.patch("/api/settings", json={"changes": {"text.colors": ["#ffff66"]}}).json()["state"]
    facts = client.get(f"/api/preview?rev={state['rev']}&page=1").json()
    said = [w for w in facts["warnings"] if "#ffff66" in w]
    assert len(said) == 1 and "hard to read" in said[0], facts["warnings"]


@pytest.mark.parametrize(("shape", "corners"), [("square", 4), ("hexagon", 6), ("circle", 64)])
def test_a_sheet_s_cards_are_outlined_in_their_own_shape(client: TestClient, shape: str, corners: int) -> None:
    """The ring round a chosen card was a circle on square and hexagonal cards: the sheet's
    facts give the card's outline (with its bleed), as fractions of its box from the top left."""
    seven(client)
    state = client.patch("/api/settings", json={"changes": {"card.shape": shape}}).json()["state"]
    outline = client.get(f"/api/preview?rev={state['rev']}&page=1").json()["outline"]
    assert len(outline) == corners
    xs, ys = [p[0] for p in outline], [p[1] for p in outline]
    assert min(xs) == pytest.approx(0.0, abs=1e-3) and max(xs) == pytest.approx(1.0, abs=1e-3)
    assert min(ys) == pytest.approx(0.0, abs=1e-3) and max(ys) == pytest.approx(1.0, abs=1e-3)


def test_preview_draws_the_current_revision_only(client: TestClient) -> None:
    state = seven(client)
    stale = client.get(f"/api/preview?rev={state['rev'] - 1}&page=1")
    assert stale.status_code == 409
    sheet = client.get(f"/api/preview?rev={state['rev']}&page=1")
    facts = sheet.json()
    assert sheet.status_code == 200 and facts["cards"] == 7 and facts["symbols_per_card"] == 3
    assert facts["cards_text"] == "7 cards"
    assert facts["pages"] == 2 and len(facts["slots"]) == 6 and facts["slots"][0]["card"] == 1
    png = client.get(facts["image"])
    assert png.headers["content-type"] == "image/png" and png.content.startswith(b"\x89PNG")
    assert client.get(f"/api/preview?rev={state['rev']}&page=9").status_code == 404
    assert client.get(f"/api/sheets/{state['rev'] - 1}/1.png").status_code == 404
    assert client.get("/api/thumbs/999999").status_code == 404
    assert client.get("/api/preview?rev=x").status_code == 400
    assert facts["backs"] is False
    assert client.get(f"/api/preview?rev={state['rev']}&page=1&side=back").status_code == 404  # no backs
    assert client.get(f"/api/preview?rev={state['rev']}&page=1&side=up").status_code == 400


def test_the_preview_shows_a_sheets_back_when_the_deck_has_backs(client: TestClient) -> None:
    """``side=back``: the back of the sheet as the PDF prints it, without card buttons
    (cards are chosen on the front); the front's facts say the deck has backs."""
    seven(client)
    changed = client.patch("/api/settings", json={"changes": {"backs.enabled": True, "backs.color": "#7a2e5c"}})
    assert changed.status_code == 200, changed.text
    rev = changed.json()["state"]["rev"]
    front = client.get(f"/api/preview?rev={rev}&page=1").json()
    assert front["backs"] is True and front["side"] == "front" and len(front["slots"]) == 6
    answer = client.get(f"/api/preview?rev={rev}&page=1&side=back")
    assert answer.status_code == 200, answer.text
    back = answer.json()
    assert back["side"] == "back" and back["slots"] == [] and back["image"].endswith("1.png?side=back")
    png = client.get(back["image"])
    assert png.headers["content-type"] == "image/png"
    pixels = np.asarray(Image.open(io.BytesIO(png.content)).convert("RGB")).astype(int)
    assert (np.abs(pixels - [0x7A, 0x2E, 0x5C]).sum(axis=2) < 40).mean() > 0.05  # the backs' colour
    assert png.content != client.get(front["image"]).content
    assert client.get(f"/api/sheets/{rev}/1.png?side=up").status_code == 400


def wait_for_build(client: TestClient, job: int) -> dict[str, Any]:
    event: dict[str, Any] = {}
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        with client.stream("GET", f"/api/builds/{job}/events") as stream:
            for line in stream.iter_lines():
                if line.startswith("data: "):
                    event = json.loads(line[6:])
        if event.get("done"):
            return event
    raise AssertionError(f"the build did not end: {event}")


def test_build_streams_progress_and_gives_the_same_pdf_as_the_command_line(client: TestClient, tmp_path: Path) -> None:
    state = seven(client)
    photo = upload(client, [("sunset.png", png_bytes((250, 120, 30)))])["state"]["symbols"][-1]
    client.patch(f"/api/symbols/{photo['uid']}", json={"changes": {"focus": [0.3, 0.6], "name": "Sunset"}})
    client.patch("/api/settings", json={"changes": {"deck.choose": "first", "backs.enabled": True, "seed": 5}})
    started = client.post("/api/builds", json={"pngs": True})
    assert started.status_code == 202
    event = wait_for_build(client, started.json()["id"])
    assert event["error"] is None and event["fraction"] == 1.0
    assert event["lines"][0].startswith("wrote 7 PNG cards to ")
    assert ": 7 cards, 3 symbols a card, 4 pages, " in event["lines"][1]  # 2 sheets and their backs
    assert event["lines"][2] == "left out 1 symbol no card shows: Sunset"
    pdf = client.get(event["pdf"])
    assert pdf.status_code == 200 and pdf.headers["content-type"] == "application/pdf"
    assert "attachment" in pdf.headers["content-disposition"]
    again = printdeck.build(state["folder"], out=tmp_path / "cli.pdf")
    assert again.pdf_path.read_bytes() == pdf.content
    cards = zipfile.ZipFile(io.BytesIO(client.get(event["zip"]).content))
    png_dir = Path(state["folder"]) / "output" / "cards"
    written = sorted(p.name for p in png_dir.iterdir() if not p.name.startswith("."))
    assert sorted(cards.namelist()) == written  # every file the command line writes there: the back too
    assert "back.png" in written and sum(n.startswith("card-") for n in written) == 7
    assert client.get("/api/builds/99/deck.pdf").status_code == 404


def test_a_pdf_with_backs_says_which_edge_to_flip_on(client: TestClient, tmp_path: Path) -> None:
    """A grandmother printed the backs upside down behind their fronts: the page offered the
    PDF with card backs and never said how to turn the paper. Beside its download it now says
    the edge the backs are placed for (the theme's backs.duplex, as the build placed them,
    in the build's own words); a PDF without backs says nothing of it."""
    state = seven(client)
    plain = wait_for_build(client, client.post("/api/builds", json={}).json()["id"])
    assert plain["error"] is None and plain["print_hint"] is None
    for edge in ("long-edge", "short-edge"):
        client.patch("/api/settings", json={"changes": {"backs.enabled": True, "backs.duplex": edge}})
        event = wait_for_build(client, client.post("/api/builds", json={}).json()["id"])
        flip = f"flip on {edge.split('-')[0]} edge"
        assert event["print_hint"] == (
            f"Print it on both sides of the paper at 100 % (actual size), set to \u201c{flip}\u201d: "
            "the card backs are placed to meet their fronts that way"
        )
        built = printdeck.build(state["folder"], out=tmp_path / f"{edge}.pdf")
        assert built.duplex == edge and built.print_hint == event["print_hint"]  # the library's words
        asked = f"/DuplexFlip{edge.split('-')[0].title()}Edge".encode()  # the PDF asks the print dialog too
        assert asked in built.pdf_path.read_bytes()
    assert not any("flip on" in line for line in event["lines"])  # said once, beside the download


def test_a_deck_named_in_another_script_downloads_its_cards(tmp_path: Path) -> None:
    """A deck's name may now hold letters of any script (猫のデッキ), and the cards' zip was
    named in a header that takes Latin-1 only: the download failed with a server error."""
    with make_client(tmp_path / "猫のデッキ") as client:
        seven(client)
        client.patch("/api/settings", json={"changes": {"title": "Cats"}})  # printed: any machine's fonts have it
        started = client.post("/api/builds", json={"pngs": True})
        event = wait_for_build(client, started.json()["id"])
        assert event["error"] is None, event
        answer = client.get(event["zip"])
        assert answer.status_code == 200
        assert (
            answer.headers["content-disposition"]
            == "attachment; filename*=utf-8''%E7%8C%AB%E3%81%AE%E3%83%87%E3%83%83%E3%82%AD-cards.zip"
        )


def test_a_failing_build_reports_the_command_lines_error(client: TestClient) -> None:
    upload(client, [(p.name, p.read_bytes()) for p in svgs(3)])
    event = wait_for_build(client, client.post("/api/builds", json={}).json()["id"])
    assert event["pdf"] is None and "needs 7 symbols but the theme gives 3" in event["error"]


def test_a_users_own_file_in_the_output_folder_is_named_in_the_pages_words(client: TestClient) -> None:
    """A JSON of the user's own named like the deck's manifest refused the build in the
    command line's words ("choose another output name"), which the page has no control for."""
    state = seven(client)
    output = Path(state["folder"]) / "output"
    output.mkdir(exist_ok=True)
    name = json.loads(client.get("/api/state").content)["state"]["settings"].get("name") or Path(state["folder"]).name
    mine = output / f"{name}.json"
    mine.write_text('{"my": "notes"}')
    event = wait_for_build(client, client.post("/api/builds", json={}).json()["id"])
    assert event["pdf"] is None and mine.read_text() == '{"my": "notes"}'
    words = event["error_words"]
    assert "which is not a printdeck manifest" in words and words.endswith(
        "move that file out of the deck's output folder, then build again"
    ), words
    assert "output name" not in words


# -- the folder -----------------------------------------------------------------------------


def test_an_existing_theme_folder_is_opened_and_its_file_kept(tmp_path: Path) -> None:
    folder = tmp_path / "family"
    (folder / "pictures").mkdir(parents=True)
    for p in svgs(7):
        (folder / "pictures" / p.name).write_bytes(p.read_bytes())
    original = "# my notes\nname: family\ndeck: {symbols_per_card: 3}\nsymbols:\n  - folder: pictures\n"
    (folder / "theme.yaml").write_text(original, encoding="utf-8")
    with make_client(folder) as c:
        state = c.get("/api/state").json()["state"]
        assert state["symbol_count"] == 7 and state["symbols"][0]["kind"] == "folder"
        assert (folder / "theme.yaml").read_text(encoding="utf-8") == original  # opening writes nothing
        assert c.patch("/api/settings", json={"changes": {"title": "Family"}}).status_code == 200
    assert (folder / "theme.before-studio.yaml").read_text(encoding="utf-8") == original
    assert yaml.safe_load((folder / "theme.yaml").read_text(encoding="utf-8"))["symbols"] == [{"folder": "pictures"}]


def test_a_ratio_written_unquoted_is_kept_as_text_when_the_studio_saves(tmp_path: Path) -> None:
    """``text: 3:4`` is the word "3:4" to the build; the studio read it as YAML 1.1's 184 and
    saved 184 over the user's ratio."""
    folder = tmp_path / "ratios"
    folder.mkdir()
    words = "".join(f"  - text: {a}:{a + 1}\n" for a in range(1, 8))
    (folder / "theme.yaml").write_text(f"name: ratios\nsymbols:\n{words}", encoding="utf-8")
    with make_client(folder) as c:
        assert c.patch("/api/settings", json={"changes": {"title": "Ratios"}}).status_code == 200
        assert [s["name"] for s in c.get("/api/state").json()["state"]["symbols"]][:2] == ["1:2", "2:3"]
    saved = printdeck.load_theme(folder / "theme.yaml")
    assert [s.text for s in saved.symbols] == [f"{a}:{a + 1}" for a in range(1, 8)] and saved.spec.title == "Ratios"


def test_a_theme_file_changed_by_something_else_is_taken_in_before_the_next_save(client: TestClient) -> None:
    folder = Path(client.get("/api/state").json()["state"]["folder"])
    edited = (folder / "theme.yaml").read_text(encoding="utf-8") + "author: me, in my editor\n"
    (folder / "theme.yaml").write_text(edited, encoding="utf-8")
    assert client.patch("/api/settings", json={"changes": {"title": "Ours"}}).status_code == 200
    saved = yaml.safe_load((folder / "theme.yaml").read_text(encoding="utf-8"))
    assert saved["author"] == "me, in my editor" and saved["title"] == "Ours"  # the hand edit is kept
    assert client.get("/api/watch").json()["outside"]["state"] == "reloaded"
    assert not (folder / "theme.edited-outside.yaml").exists()  # nothing was forked


def test_a_broken_theme_file_is_not_opened_or_overwritten(tmp_path: Path) -> None:
    folder = tmp_path / "broken"
    folder.mkdir()
    (folder / "theme.yaml").write_text("name: [unclosed\n", encoding="utf-8")
    with pytest.raises(printdeck.PrintdeckError, match=r"theme\.yaml"):
        Workspace.open(folder)
    assert (folder / "theme.yaml").read_text(encoding="utf-8") == "name: [unclosed\n"


@pytest.mark.parametrize(
    "n, match, line",
    [
        (0, 1, "0 symbols: add 7 for 7 cards of 3"),
        (1, 1, "1 symbol: add 6 for 7 cards of 3"),
        (7, 1, "7 symbols: 7 cards of 3; add 6 for 13 cards of 4"),
        (40, 1, "40 symbols: 31 cards of 6; add 17 for 57 cards of 8"),
        (40, 2, "40 symbols (match 2): 37 cards of 9; add 16 for 56 cards of 11"),
    ],
)
def test_the_line_of_what_the_symbols_allow(n: int, match: int, line: str) -> None:
    assert printdeck.deck_sizes_text(n, match) == line


def test_thumbnails_show_pictures_as_they_print(client: TestClient) -> None:
    """A 16-bit greyscale PNG keeps its mid-grey (Pillow's own conversion clips it to white),
    and a photo stored sideways with an EXIF rotation is shown upright."""
    import numpy as np

    grey = Image.fromarray(np.full((300, 200), 32768, dtype=np.uint16))
    sideways = Image.new("RGB", (400, 200), (200, 40, 40))
    exif = Image.Exif()
    exif[0x0112] = 6  # shown turned 90°: 200 wide, 400 tall
    files = []
    for name, image, extra in (("grey.png", grey, {}), ("tall.jpg", sideways, {"exif": exif})):
        out = io.BytesIO()
        image.save(out, format="PNG" if name.endswith(".png") else "JPEG", **extra)
        files.append((name, out.getvalue()))
    symbols = {s["name"]: s for s in upload(client, files)["state"]["symbols"]}
    grey_thumb = Image.open(io.BytesIO(client.get(symbols["grey"]["thumb"]).content)).convert("L")
    assert 118 <= np.asarray(grey_thumb).mean() <= 138
    tall = Image.open(io.BytesIO(client.get(symbols["tall"]["thumb"]).content))
    assert tall.height > tall.width


def test_photo_tiles_say_what_their_crop_holds(client: TestClient) -> None:
    """After the preview has drawn the photos, each photo tile has its badge: the coffee
    cup off to one side is the subject; a gradient has none, so it asks to be checked."""
    import skimage.data

    rng = np.random.default_rng(26)
    frame = rng.normal(120, 10, (600, 900, 3))
    frame[220:380, 180:420] = np.asarray(Image.fromarray(skimage.data.coffee()).resize((240, 160)))
    yy, xx = np.mgrid[0:600, 0:900]
    gradient = np.stack([xx / 900 * 255, yy / 600 * 255, np.full((600, 900), 80)], axis=-1)

    def png(pixels: np.ndarray) -> bytes:
        out = io.BytesIO()
        Image.fromarray(np.clip(pixels, 0, 255).astype(np.uint8)).save(out, format="PNG")
        return out.getvalue()

    upload(client, [(p.name, p.read_bytes()) for p in svgs(5)])
    state = upload(client, [("cup.png", png(frame)), ("sky.png", png(gradient))])["state"]
    photos = {s["name"]: s for s in state["symbols"] if s["kind"] == "photo"}
    assert set(photos) == {"cup", "sky"}
    assert client.get(f"/api/preview?rev={state['rev']}&page=1").status_code == 200
    after = {s["name"]: s for s in client.get("/api/state").json()["state"]["symbols"]}
    assert after["cup"]["crop"]["badge"] == "subject" and after["cup"]["crop"]["check"] is False
    left, top, right, bottom = after["sky"]["crop"].pop("box")  # the crop square the PDF cuts
    assert abs(left + right - 1) < 0.001 and (top, bottom) == (0, 1)  # nothing found: the centre
    assert after["sky"]["crop"] == {
        "badge": "centre: check me",
        "check": True,
        "title": "Nothing found: the centre is shown; click the photo where the crop should centre",
    }
    assert "crop" not in after[next(s["name"] for s in state["symbols"] if s["kind"] == "image")]


def test_the_slides_button_builds_the_classroom_slides_of_the_folder(client: TestClient, tmp_path: Path) -> None:
    state = seven(client)
    client.patch("/api/settings", json={"changes": {"deck.copies": 2, "extras.tuck_box": True}})
    started = client.post("/api/builds", json={"slides": True})
    assert started.status_code == 202
    event = wait_for_build(client, started.json()["id"])
    assert event["error"] is None and event["fraction"] == 1.0
    assert ": 4 rounds, " in event["lines"][0] and event["zip"] is None
    assert event["slides"] is True  # the page offers it as the slides, keeping the cards' PDF as the deck's
    pdf = client.get(event["pdf"])
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    again = printdeck.write_slides(state["folder"], tmp_path / "cli.pdf", answer_key=True)
    assert again.pdf_path.read_bytes() == pdf.content
    theme = printdeck.load_theme(state["folder"])
    assert theme.spec.deck.copies == 2 and theme.spec.extras.tuck_box


def test_a_class_set_previews_every_decks_sheets(client: TestClient) -> None:
    seven(client)
    state = client.patch("/api/settings", json={"changes": {"deck.copies": 2}}).json()["state"]
    for page in (2, 3, 1, 4):  # deck A's second sheet before deck B's first
        sheet = client.get(f"/api/preview?rev={state['rev']}&page={page}")
        assert sheet.status_code == 200 and sheet.json()["pages"] == 4
        assert client.get(sheet.json()["image"]).content.startswith(b"\x89PNG")


def test_a_page_reloaded_during_a_build_finds_it(client: TestClient) -> None:
    """A teacher reloaded the page while the card PNGs were drawn: the page knew nothing of
    the build (no progress, no summary, no download) and she built again. The studio says
    its latest build, which the page then follows or shows."""
    assert client.get("/api/builds").json() == {"latest": None, "cards": None}
    seven(client)
    started = client.post("/api/builds", json={"pngs": False}).json()
    latest = client.get("/api/builds").json()["latest"]
    assert latest["id"] == started["id"]
    event = wait_for_build(client, started["id"])
    done = client.get("/api/builds").json()["latest"]
    assert done["done"] and done["pdf"] == event["pdf"] and done["lines"] == event["lines"]
    slides = wait_for_build(client, client.post("/api/builds", json={"slides": True}).json()["id"])
    after = client.get("/api/builds").json()  # a page reloaded after the slides still offers the cards' PDF
    assert after["latest"]["pdf"] == slides["pdf"] and after["cards"]["pdf"] == event["pdf"]


def test_a_picture_dropped_on_its_word_becomes_its_face(client: TestClient) -> None:
    """ "cat.svg" dropped on the word "cat" was refused ("this name is already Symbol 1's"):
    it was added as a symbol of its own before it could be paired. A picture dropped on a
    tile (``face_of``) is checked alone and becomes that symbol's face, never a second cat."""
    words = client.post("/api/words", json={"text": "ant\nsun\nmoon\nstar\ntree\nfish\nbird"}).json()["state"]
    ant = next(s for s in words["symbols"] if s.get("text") == "ant")
    picture = TWEMOJI / "ant.svg"
    answer = client.post(
        f"/api/files?wait=1&face_of={ant['uid']}", files=[("files", ("ant.svg", picture.read_bytes(), "image/svg+xml"))]
    )
    assert answer.status_code == 200, answer.text
    result = answer.json()["results"][0]
    assert result["ok"] and result["face_of"] == ant["uid"]
    state = answer.json()["state"]
    assert len(state["symbols"]) == 7 and not state["rejected"]
    symbols = theme_file(client)["symbols"]
    assert symbols[0] == {"faces": [{"image": "images/ant.svg"}, {"text": "ant"}]}
    gone = client.post("/api/files?wait=1&face_of=999999", files=[("files", ("sun.svg", b"<svg", "image/svg+xml"))])
    assert gone.status_code == 200 and not gone.json()["results"][0].get("face_of")  # no such tile: as any drop
    assert client.post("/api/files?face_of=x", files=[("files", ("a.svg", b"x", "image/svg+xml"))]).status_code == 400


def test_a_pasted_word_the_same_in_both_languages_is_one_word(client: TestClient) -> None:
    """``chocolate = chocolate`` pasted in the studio was refused ("This word is in the deck
    already") though ``init --words`` takes it as one word: both read a line alike."""
    answer = client.post("/api/words", json={"text": "cat = gato\nchocolate = chocolate\ndog = perro"})
    assert answer.status_code == 200 and all(r["ok"] for r in answer.json()["results"]), answer.text
    assert {"text": "chocolate"} in theme_file(client)["symbols"]


def test_every_key_the_spec_words_for_the_form_is_in_the_form() -> None:
    """paper.scale_note had words for the studio's form but no place in it: a key only a
    preset or a hand-edited theme could set. Every key with form words is offered."""
    import json

    from printdeck.studio.deck_settings import SETTING_KEYS

    schema = json.loads(printdeck.schema_json())
    defs = schema["$defs"]

    def keys_with_form_words(node: dict[str, Any], prefix: str) -> list[str]:
        if "$ref" in node:
            node = defs[node["$ref"].rsplit("/", 1)[-1]]
        found = []
        for name, child in node.get("properties", {}).items():
            key = f"{prefix}{name}"
            if "x-form-help" in child:
                found.append(key)
            if prefix == "" and ("$ref" in child or "properties" in child):
                found += keys_with_form_words(child, f"{key}.")
        return found

    worded = keys_with_form_words(schema, "")
    assert "paper.scale_note" in worded
    assert [key for key in worded if key not in SETTING_KEYS] == []
