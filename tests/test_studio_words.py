"""printdeck studio in plain words (issue 28): every message the page shows names the
page's own control by its visible label and says what to do, built from the error's
fields (key, code, value) and the form description the page is drawn from; the command
line keeps its own wording."""

from __future__ import annotations

import io
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import yaml
from PIL import Image
from test_studio_api import client, make_client, seven, svgs, theme_file, upload, wait_for_build
from test_theme_support import png_bytes

import printdeck
from printdeck.studio.deck_settings import form_description
from printdeck.studio.labels import FIELD_LABELS
from printdeck.studio.plain_words import plain_words

__all__ = ["client"]  # the module's fixture

LENGTH = "a length such as 85 mm (a number, then mm, cm, in or pt)"


def refused(client: Any, key: str, value: object) -> dict[str, Any]:
    answer = client.patch("/api/settings", json={"changes": {key: value}})
    assert answer.status_code == 422, answer.text
    body = answer.json()
    assert body["state"]["field_errors"][key] == body["words"]  # beside the field, in the same words
    return body


@pytest.mark.parametrize(
    ("key", "value", "words"),
    [
        ("card.diameter", "big", f"Diameter must be {LENGTH}"),
        ("card.diameter", "1mm", "Diameter must be at least 20 mm"),
        ("card.bleed", "99mm", "Bleed must be at most 15 mm"),
        ("card.size", "huge", f"Card size must be {LENGTH}, or one of poker, bridge, tarot, mini, tgc-circle, tgc-hex"),
        ("card.shape", "star", "Card shape: choose one of the list (circle, square, rectangle, hexagon)"),
        ("card.background", "reddish", "Card background must be a colour such as #ff8800, #f80 or orange"),
        ("deck.cards", 0, "Cards (trim the deck) must be at least 1"),
        ("deck.copies", 99, "Decks (a class set: each its colour and letter) must be at most 12"),
        ("layout.size_ratio", "x", "Smallest / largest symbol must be a number, such as 0.5"),
        ("seed", 1.5, "Seed (same seed, same deck) must be a whole number, such as 1"),
        (
            "text.lang",
            "French",
            "Language (e.g. en, ja, zh-Hans) must be a language code such as fr, ja or zh-Hans (not its name)",
        ),
    ],
)
def test_a_refused_setting_is_said_with_the_controls_label(client: Any, key: str, value: object, words: str) -> None:
    seven(client)
    body = refused(client, key, value)
    assert body["words"] == words
    assert body["error"].startswith(f"theme.yaml: {key}")  # the command line's line is kept for the API
    assert body["words"].startswith(form_description()["fields"][key]["label"])


def test_every_control_label_comes_from_the_form_description() -> None:
    fields = form_description()["fields"]
    assert all(fields[key]["label"] == label for key, label in FIELD_LABELS.items())
    assert all(field["label"] for field in fields.values())  # a key the groups leave out: its own name
    raw = sorted(key for key, field in fields.items() if field["label"] == key)
    assert not raw, f"settings a person would see as a theme key, not a label: {raw}"


def test_too_few_symbols_counts_from_the_design(client: Any) -> None:
    seven(client)
    assert client.patch("/api/settings", json={"changes": {"deck.symbols_per_card": 8}}).status_code == 200
    state = client.get("/api/state").json()["state"]
    needed = next(row["cards"] for row in printdeck.api.deck_size_table(1) if row["symbols_per_card"] == 8)
    assert state["problem_words"] == (
        f"The deck needs {needed} symbols and has 7: add {needed - 7} more under Symbols, "
        "or choose fewer Symbols a card"
    )
    assert "needs 57 symbols but the theme gives 7" in state["problem"]  # the command line's own words
    preview = client.get(f"/api/preview?rev={state['rev']}&page=1").json()
    assert preview["words"] == state["problem_words"] and preview["code"] == "too-few-symbols"


def test_an_empty_deck_says_how_many_the_smallest_deck_needs(client: Any) -> None:
    client.post("/api/words", json={"text": "sun\nmoon"})
    state = client.get("/api/state").json()["state"]
    assert state["problem_words"] == "The smallest deck needs 7 symbols and has 2: add 5 more under Symbols"


def test_a_font_that_is_not_a_font_is_said_beside_font(client: Any) -> None:
    seven(client)
    answer = client.post("/api/font", files={"file": ("x.ttf", b"nope", "font/ttf")})
    body = answer.json()
    assert answer.status_code == 422 and body["field"] == "text.font"
    assert body["words"] == "Font: this file cannot be read as a font: choose a .ttf, .otf or .ttc file"
    assert body["state"]["field_errors"]["text.font"] == body["words"]
    assert "text.font" in body["error"]  # the command line's words name the key


def test_refused_pictures_and_words_say_what_to_do_on_their_tiles(client: Any) -> None:
    seven(client)
    cat = svgs(1)[0]
    results = upload(client, [("broken.png", b"a shopping list, saved as .png"), ("again.svg", cat.read_bytes())])
    broken, again = results["state"]["rejected"][-2:]
    assert broken["words"].startswith("This file cannot be read as a picture")
    assert broken["words"].endswith("save it as PNG or JPEG and add it again")
    name = printdeck.name_from_file(cat)
    assert again["words"] == f"This is the same picture as Symbol 1, “{name}”: each picture goes in the deck once"
    words = client.post("/api/words", json={"text": "sun\nsun"}).json()["results"]
    assert words[1]["words"] == "This word is in the deck already: each word goes in once"
    concepts = client.post("/api/words", json={"text": "3 × 4 = 12\n2 × 6 = 12"}).json()["results"]
    assert concepts[1]["words"].startswith("This word is in the deck already, as a face of another symbol")
    assert concepts[1]["words"].endswith("join it to that symbol with Add as a face in its panel")
    for text in (broken["words"], again["words"], words[1]["words"]):
        assert "symbols." not in text and "theme.yaml" not in text


def _photo(seed: int) -> bytes:
    """A small JPEG photo of noise (no two seeds alike)."""
    pixels = np.random.default_rng(seed).integers(0, 256, (240, 320, 3), dtype=np.uint8)
    out = io.BytesIO()
    Image.fromarray(pixels).save(out, format="JPEG", quality=90)
    return out.getvalue()


def test_a_photo_dropped_twice_names_the_tile_it_repeats(client: Any) -> None:
    """A grandparent dropped the same photo twice (once as it came off the phone, once
    renamed) and was told "the same picture as another symbol": which of 40 tiles? The
    tile says the one it repeats by its number and name, as the grid shows that tile,
    whether it came in an earlier drop or the same one."""
    seven(client)
    granny = _photo(1)
    upload(client, [("granny.jpg", granny)])
    again = upload(client, [("IMG_2041.jpg", granny)])["results"][0]
    assert again["words"] == "This is the same picture as Symbol 8, “granny”: each picture goes in the deck once"
    both = upload(client, [("rex.jpg", _photo(2)), ("rex-copy.jpg", _photo(2))])["results"]
    assert both[0]["ok"] and both[1]["words"].startswith("This is the same picture as Symbol 9, “rex”:")
    tiles = client.get("/api/state").json()["state"]
    assert [s["name"] for s in tiles["symbols"]][7:] == ["granny", "rex"]  # the numbers and names the grid shows


@pytest.mark.parametrize("name", ["IMG_0001.MOV", "party.mp4", "clip.m4v", "old.avi", "call.webm", "nokia.3gp"])
def test_a_video_dropped_in_is_called_a_video(client: Any, name: str) -> None:
    """A live photo's .MOV dropped beside its still was refused as "a .mov file, which
    printdeck cannot read; convert it to one of AVIF, HEIC ...": nobody converts a video
    to a picture. The tile says it is a video and what to drop instead, in one line; a
    video chosen as the back picture is told the same."""
    seven(client)
    tile = upload(client, [(name, b"\0\0\0\x14ftypqt  " + bytes(64))])["results"][0]
    assert not tile["ok"]
    assert tile["words"] == (
        f"{name} is a video, and the studio needs a still photo: take a screenshot of the moment you want "
        "(or pick the photo instead of the video) and drop that"
    )
    back = client.post("/api/backs-image", files={"file": (name, b"\0" * 64, "video/quicktime")}).json()
    assert "is a video, and the studio needs a still photo" in back["words"]
    font = client.post("/api/font", files={"file": (name, b"\0" * 64, "video/quicktime")}).json()
    assert "video" not in font["words"]  # a font box wants a font, not a photo


def test_a_photo_cut_short_is_told_to_copy_it_again(client: Any) -> None:
    """A JPEG whose data ends early (a copy stopped half-way) is a JPEG already: its tile
    tells the person to copy it again, not to save it "as PNG or JPEG"."""
    seven(client)
    pixels = np.random.default_rng(3).integers(0, 256, (400, 600, 3), dtype=np.uint8)
    out = io.BytesIO()
    Image.fromarray(pixels).save(out, "JPEG", quality=90)
    data = out.getvalue()
    cut = data[: len(data) * 6 // 10] + b"\xff\xd9"  # an end marker after the cut, as a broken copy has
    results = upload(client, [("holiday.jpg", cut)])
    tile = results["state"]["rejected"][-1]
    assert tile["words"].startswith("This picture's file is cut short or damaged")
    assert "copy it again from the phone" in tile["words"] and "PNG or JPEG" not in tile["words"]


def test_a_picture_named_as_a_word_is_refused_in_the_pages_words(client: Any) -> None:
    """A parent dropped Sun.jpg with the word "sun" in the deck: the tile said "the name
    'Sun' (Sun.png) is already symbols.7's; give one of them another name (the name key, or
    rename its file)", a theme key counted from 0 and a key the page has no box for."""
    seven(client)
    client.post("/api/words", json={"text": "sun"})
    answer = upload(client, [("Sun.png", png_bytes((250, 200, 0)))])
    refused = [t for t in answer["state"]["rejected"] if "Sun" in str(t.get("file", ""))]
    said = refused[-1]["words"] if refused else ""
    assert said == "This name is already Symbol 8's: rename one of the two", answer["state"]["rejected"]


def test_a_failing_build_is_said_in_the_pages_words(client: Any) -> None:
    client.post("/api/words", json={"text": "sun\nmoon\nstar"})
    job = client.post("/api/builds", json={}).json()["id"]
    deadline = time.monotonic() + 60
    while True:
        with client.stream("GET", f"/api/builds/{job}/events") as stream:
            events = [line for line in stream.iter_lines() if line.startswith("data: ")]
        event = yaml.safe_load(events[-1][len("data: ") :])
        if event["done"] or time.monotonic() > deadline:
            break
    assert event["error_words"] == "The smallest deck needs 7 symbols and has 3: add 4 more under Symbols"
    assert "needs 7 symbols but the theme gives 3" in event["error"]


def test_an_outside_edit_that_does_not_load_is_said_beside_its_field(tmp_path: Path) -> None:
    with make_client(tmp_path / "deck") as c:
        seven(c)
        folder = Path(c.get("/api/state").json()["state"]["folder"])
        doc = theme_file(c)
        doc["card"] = {"diameter": "huge"}
        (folder / "theme.yaml").write_text(yaml.safe_dump(doc), encoding="utf-8")
        time.sleep(0.05)
        state = c.get("/api/state").json()["state"]
        assert state["outside"]["state"] == "conflict"
        assert state["outside"]["words"] == f"Diameter must be {LENGTH}"
        assert state["field_errors"]["card.diameter"] == state["outside"]["words"]
        waiting = c.patch("/api/settings", json={"changes": {"card.bleed": "2mm"}})
        assert waiting.status_code == 409  # nothing written over the file; the status line says why
        assert f"({state['outside']['words']})" in waiting.json()["error"]
        assert "Keep the file (I will fix it)" in waiting.json()["error"]


def test_the_command_line_keeps_its_own_words() -> None:
    theme = {"card": {"diameter": "big"}, "symbols": [{"text": w} for w in "abcdefg"]}
    with pytest.raises(printdeck.PrintdeckError) as caught:
        printdeck.load_theme(theme, check_files=False)
    assert str(caught.value) == (
        '<theme>: card.diameter: expected a length such as "85mm" (units mm, cm, in, pt), got "big"'
    )
    assert caught.value.code == "not-a-length"
    assert str(plain_words(caught.value)) == f"Diameter must be {LENGTH}"


def test_a_picture_too_small_to_print_sharp_is_said_of_its_tile(client: Any) -> None:
    from test_studio_api import png_bytes

    client.post("/api/words", json={"text": "sun\nmoon\nstar\ntree\nfish\nbird"})
    state = upload(client, [("small.png", png_bytes((200, 40, 40), size=96))])["state"]
    preview = client.get(f"/api/preview?rev={state['rev']}&page=1")
    assert preview.status_code == 422 and preview.json()["code"] == "low-resolution"
    assert preview.json()["words"] == (
        "Symbol 7: this picture has too few pixels to print sharp at its size on the cards: "
        "use a larger picture, or a smaller Size on the cards"
    )
    tile = client.get("/api/state").json()["state"]["symbols"][6]
    assert tile["error"] == preview.json()["words"]  # on its tile too


def _finished_build(client: Any) -> dict[str, Any]:
    return wait_for_build(client, client.post("/api/builds", json={}).json()["id"])


def test_look_alikes_refused_say_which_box_lets_them_through(tmp_path: Path) -> None:
    from test_studio_api import png_bytes

    label = FIELD_LABELS["deck.allow_look_alike"]
    with make_client(tmp_path / "deck") as c:
        upload(c, [(p.name, p.read_bytes()) for p in svgs(5)])
        upload(c, [("red.png", png_bytes((200, 30, 30), 700, alpha=True))])
        upload(c, [("red-again.png", png_bytes((201, 30, 30), 600, alpha=True))])
        event = _finished_build(c)
        pair = ("'red' and 'red again' look alike", "'red again' and 'red' look alike")
        assert event["error_words"].startswith(tuple(f"Symbols: {p}" for p in pair))
        assert event["error_words"].endswith(f"or tick \u201c{label}\u201d to print them with a warning")
        assert "--allow-look-alike" not in event["error_words"]
        assert event["error"].endswith("or pass --allow-look-alike to print them")  # the command line's words
        assert form_description()["fields"]["deck.allow_look_alike"]["label"] == label
        answer = c.patch("/api/settings", json={"changes": {"deck.allow_look_alike": True}})
        assert answer.status_code == 200, answer.text
        event = _finished_build(c)
        assert event["error"] is None and event["pdf"]
        assert any(p in w for w in event["warnings"] for p in pair)


def test_a_library_sentence_names_the_settings_by_their_labels() -> None:
    """'Card size: poker is a rectangle size, but card.shape is square': the page shows no
    theme keys, so a key the library's sentence names is the label of its box."""
    from pathlib import Path

    from printdeck.errors import PrintdeckError
    from printdeck.studio.plain_words import plain_words
    from printdeck.theme import load_theme_data

    words = [{"text": w} for w in ("sol", "luna", "mar", "pan", "flor", "rio", "sal")]
    with pytest.raises(PrintdeckError) as caught:
        load_theme_data({"name": "t", "card": {"shape": "square", "size": "poker"}, "symbols": words}, Path("."))
    said = plain_words(caught.value)
    assert said.subject == "Card size" and "\u201cCard shape\u201d is square" in said.sentence
    assert "card." not in said.sentence
    from printdeck.studio.plain_words import _said

    worded = _said(PrintdeckError(problem="raise layout.attempts. Or my-card.shape here (card.shape), x.card.shape"))
    assert worded.startswith("raise \u201cPlacements tried a symbol\u201d.")  # a key ending the sentence
    assert "my-card.shape here (\u201cCard shape\u201d), x.card.shape" in worded  # not inside names


def test_a_pdf_printdeck_did_not_write_is_named_on_the_page(tmp_path: Path) -> None:
    """The studio said "Is there already and printdeck did not write it: move that file ..."
    without the file: the name was only in the error's source, which the page leaves out."""
    from printdeck.errors import PrintdeckError
    from printdeck.output_record import check_pdf_path

    theirs = tmp_path / "family.pdf"
    theirs.write_bytes(b"%PDF-1.4 someone's own")
    with pytest.raises(PrintdeckError) as refused:
        check_pdf_path(theirs)
    said = plain_words(refused.value)
    assert said.sentence.startswith("family.pdf is there already and printdeck did not write it: move that file")
    assert said.alone().startswith("family.pdf is there"), said.alone()  # the name as spelt, not "Family.pdf"


def test_a_copys_tile_follows_the_symbol_it_copies(client: Any) -> None:
    """The copy's tile said "Symbol 8, “granny”" for good: once an earlier symbol was
    removed, granny was Symbol 7 and the tile named the wrong one. It names the symbol it
    copies as that symbol's tile is numbered and named now."""
    seven(client)
    granny = _photo(1)
    upload(client, [("granny.jpg", granny)])
    upload(client, [("IMG_2041.jpg", granny)])
    said = client.get("/api/state").json()["state"]["rejected"][-1]["words"]
    assert said == "This is the same picture as Symbol 8, “granny”: each picture goes in the deck once"
    first = client.get("/api/state").json()["state"]["symbols"][0]["uid"]
    client.delete(f"/api/symbols/{first}")
    said = client.get("/api/state").json()["state"]["rejected"][-1]["words"]
    assert said == "This is the same picture as Symbol 7, “granny”: each picture goes in the deck once"


def test_a_copys_tile_follows_the_symbol_it_copies_after_a_restart(tmp_path: Path) -> None:
    """The tile followed the copied symbol only while the studio ran: the refused tiles are
    kept in the folder without the symbol they copy (its uid is this run's), so after a
    restart the tile said "Symbol 8, “granny”" again with granny at 7, and stayed when
    granny was removed. The copied symbol is kept by its file and found again."""
    folder = tmp_path / "deck"
    granny = _photo(1)
    with make_client(folder) as client:
        seven(client)
        upload(client, [("granny.jpg", granny)])
        upload(client, [("IMG_2041.jpg", granny)])
        first = client.get("/api/state").json()["state"]["symbols"][0]["uid"]
        client.delete(f"/api/symbols/{first}")
    with make_client(folder) as client:
        state = client.get("/api/state").json()["state"]
        said = state["rejected"][-1]["words"]
        assert said == "This is the same picture as Symbol 7, “granny”: each picture goes in the deck once"
        client.delete(f"/api/symbols/{state['symbols'][-1]['uid']}")  # granny: the refusal no longer holds
        assert client.get("/api/state").json()["state"]["rejected"] == []


def test_the_page_leaves_the_folder_out_only_where_a_name_starts(tmp_path: Path) -> None:
    """The page left the theme folder out of its lines with str.replace, so a picture read
    from elsewhere whose path holds the folder's letters lost them mid-path (a file that is
    nowhere). It takes errors.name_replaced, as the command line does: only where a name
    starts (after a space, a straight or curly quote or a bracket)."""
    from printdeck.errors import PrintdeckError
    from printdeck.studio.wording import problem_of

    folder = (tmp_path / "deck").resolve()
    outside = f"/data{folder}/cut.png"
    exc = PrintdeckError(f"“{folder}/pics/a.png” and {outside} are truncated; re-export them")
    line = problem_of(exc, folder).detail
    assert line == f"“pics/a.png” and {outside} are truncated; re-export them", line


def test_a_pair_typed_for_a_picture_of_the_deck_becomes_its_word_face(client: Any) -> None:
    """A parent typed "lion = शेर" with the picture lion.png in the deck: the line was refused
    ("This name is already Symbol 24's: rename one of the two"), though she meant the word
    for the lion. A pair whose first word names a symbol of the deck gives it the second
    word as a face; a pair naming nothing is a symbol of two words, as before."""
    seven(client)
    answer = client.post("/api/words", json={"text": "aeroplane = हवाई जहाज़\nlion = león"}).json()
    assert [r["ok"] for r in answer["results"]] == [True, True], answer["results"]
    assert answer["results"][0].get("joined") is True
    symbols = theme_file(client)["symbols"]
    plane = next(s for s in symbols if "faces" in s and any("image" in f for f in s["faces"]))
    assert [f.get("text") for f in plane["faces"]] == [None, "हवाई जहाज़"]
    assert plane["faces"][0]["image"].endswith("aeroplane.svg")
    assert {"faces": [{"text": "lion"}, {"text": "león"}]} in symbols
    assert len(symbols) == 8  # seven pictures, one of them now with its word, and the lion
