"""printdeck studio in a real browser (issue 17): Playwright drives Debian's Chromium
through making a deck from scratch as a person would, and the deck it downloads is
checked independently (every two cards share exactly one symbol) and against
``printdeck build`` of the folder the studio saved.

Needs ``/usr/bin/chromium`` (``apt-get install chromium``; ``.ci/run`` installs it) and
the ``playwright`` Python package; no browser is downloaded.
"""

from __future__ import annotations

import base64
import contextlib
import http.server
import io
import itertools
import json
import re
import shutil
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest
import yaml
from PIL import Image, ImageDraw

import printdeck
from printdeck.studio import launch, uploads
from printdeck.studio.connections import server_config
from printdeck.studio.guard import Pass
from printdeck.studio.launch import listening_socket
from printdeck.studio.routes import create_app
from printdeck.studio.workspace import Workspace

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
TWEMOJI = Path(__file__).resolve().parent.parent / "assets" / "twemoji"
SETTLED = "document.body.style.cursor === '' && !document.querySelector('[data-dirty]')"
"""The page has no request in flight and no change waiting."""


def _missing() -> str | None:
    """What the browser tests need and this machine lacks, in words (None: nothing)."""
    if not CHROMIUM.exists():
        return "/usr/bin/chromium is missing: apt-get install chromium (.ci/run installs it)"
    listed = shutil.which("fc-list")
    if listed and not subprocess.run([listed], capture_output=True, text=True, timeout=60).stdout.strip():
        return "fontconfig lists no font (the run without fonts), and Chromium draws no page without one"
    return None


MISSING = _missing()
pytestmark = pytest.mark.skipif(MISSING is not None, reason=MISSING or "")
sync_api = pytest.importorskip(
    "playwright.sync_api", reason="the playwright package is missing: pip install -e '.[test]'"
)


def photo_jpeg(seed: int) -> bytes:
    """A small opaque 'photo': a gradient sky with a coloured sun."""
    image = Image.new("RGB", (320, 240))
    draw = ImageDraw.Draw(image)
    for y in range(240):
        draw.line([(0, y), (320, y)], fill=(40 + y // 3, 90 + (seed * 37 + y) % 120, 200 - y // 2))
    draw.ellipse((60 + seed * 30, 50, 170 + seed * 30, 160), fill=((seed * 80) % 255, 200, 60 + seed * 40))
    out = io.BytesIO()
    image.save(out, format="JPEG", quality=90)
    return out.getvalue()


@pytest.fixture(scope="module")
def studio(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """A studio on a free port of 127.0.0.1 (uvicorn on a thread): (link with token, folder).
    Every browser test uses it, so a test module that imports it skips without Chromium."""
    if MISSING is not None:
        pytest.skip(MISSING)
    with serving(tmp_path_factory.mktemp("studio") / "family-deck") as served:
        yield served


@contextlib.contextmanager
def serving(folder: Path) -> Iterator[tuple[str, Path]]:
    """A studio on ``folder`` on a free port of 127.0.0.1 (uvicorn on a thread), stopped
    on leaving: (link with token, folder)."""
    import uvicorn

    sock = listening_socket(0)
    port = sock.getsockname()[1]
    gate = Pass.for_port(port, uploads.MAX_UPLOAD_BYTES)
    server = uvicorn.Server(server_config(create_app(Workspace.open(folder), gate)))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    try:
        yield gate.link(f"http://127.0.0.1:{port}"), folder
    finally:
        server.should_exit = True
        thread.join(10)


@pytest.fixture(scope="module")
def page(studio: tuple[str, Path]) -> Iterator[object]:
    with browser_tab(studio[0], accept_downloads=True) as tab:
        yield tab


@contextlib.contextmanager
def browser_tab(link: str, before: Callable[[Any], None] | None = None, **context: object) -> Iterator[object]:
    """A 1280 x 800 Chromium tab on the studio's ``link``, once the page is ready
    (``before``: called with the tab before the page is opened, to listen to it from its
    first request; ``context``: more of Playwright's context options); no script error may
    happen in it."""
    with sync_api.sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        tab = browser.new_context(viewport={"width": 1280, "height": 800}, bypass_csp=True, **context).new_page()
        errors: list[str] = []
        tab.on("pageerror", lambda exc: errors.append(str(exc)))
        if before is not None:
            before(tab)
        tab.goto(link)
        tab.wait_for_selector("body[data-ready]")
        yield tab
        assert not errors, f"errors in the page: {errors}"
        browser.close()


def theme(folder: Path) -> dict:
    return yaml.safe_load((folder / "theme.yaml").read_text(encoding="utf-8"))


def wait_for(check: object, what: str, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():  # type: ignore[operator]
            return
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def drop(page: object, files: list[tuple[str, str, bytes]]) -> None:
    """Drop files on the drop zone, as a person dragging them from their file manager."""
    payload = [{"name": n, "type": t, "data": base64.b64encode(d).decode()} for n, t, d in files]
    page.evaluate(
        """(files) => {
        const transfer = new DataTransfer();
        for (const f of files) {
            const bytes = Uint8Array.from(atob(f.data), (c) => c.charCodeAt(0));
            transfer.items.add(new File([bytes], f.name, { type: f.type }));
        }
        const zone = document.getElementById("dropzone");
        for (const type of ["dragenter", "dragover", "drop"]) {
            zone.dispatchEvent(new DragEvent(type, { dataTransfer: transfer, bubbles: true, cancelable: true }));
        }
    }""",
        payload,
    )


def drop_on_word(page: Any, word: str, file: tuple[str, str, bytes]) -> None:
    """Type ``word`` as a new word, then drop ``file`` (name, type, bytes) on its tile, as a
    person dragging a picture from their file manager onto it."""
    page.fill("#words", word)
    page.click("#words-form button[type=submit]")
    tile = page.locator("#grid .tile", has=page.locator(f".word:text-is('{word}')"))
    tile.wait_for()
    name, kind, data = file
    tile.locator(".tile-face").evaluate(
        """(face, [name, kind, data]) => {
        const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
        const transfer = new DataTransfer();
        transfer.items.add(new File([bytes], name, { type: kind }));
        for (const type of ["dragover", "drop"]) {
            face.dispatchEvent(new DragEvent(type, { dataTransfer: transfer, bubbles: true, cancelable: true }));
        }
    }""",
        [name, kind, base64.b64encode(data).decode()],
    )


def test_a_person_makes_a_deck_from_scratch(page: object, studio: tuple[str, Path], tmp_path: Path) -> None:
    folder = studio[1]
    pictures = [(p.name, "image/svg+xml", p.read_bytes()) for p in sorted(TWEMOJI.glob("*.svg"))[:27]]
    photos = [(f"photo-{i}.jpg", "image/jpeg", photo_jpeg(i)) for i in range(4)]
    drop(page, pictures + photos)
    page.wait_for_function("document.querySelectorAll('#grid .tile').length === 31", timeout=60_000)
    assert page.inner_text("#sizes") == "31 symbols: 31 cards of 6; add 26 for 57 cards of 8"

    page.fill("#words", "sun\nmoon\nstar")
    page.click("#words-form button[type=submit]")
    page.wait_for_function("document.querySelectorAll('#grid .tile').length === 34")
    assert page.inner_text("#sizes").startswith("34 symbols: 31 cards of 6")

    page.fill("#set-card-diameter", "big")
    page.press("#set-card-diameter", "Tab")
    page.wait_for_selector("#err-set-card-diameter:has-text('Diameter must be a length such as 85 mm')")
    assert "expected" not in page.inner_text("#err-set-card-diameter")  # the page's words, not the command line's
    assert page.get_attribute("#set-card-diameter", "aria-invalid") == "true"
    page.fill("#set-card-diameter", "80")
    page.press("#set-card-diameter", "Tab")
    page.wait_for_function("document.getElementById('err-set-card-diameter').textContent === ''")
    page.select_option("#set-paper-size", "letter")
    wait_for(
        lambda: theme(folder).get("card") == {"diameter": "80mm"} and theme(folder).get("paper") == {"size": "letter"},
        "the settings saved",
    )

    photo_tile = page.locator("#grid .tile", has=page.locator("img.photo")).first
    photo_tile.locator(".tile-face").click()
    page.locator("#detail .crop img").click(position={"x": 30, "y": 30})
    wait_for(lambda: any("focus" in s for s in theme(folder)["symbols"]), "the crop focus saved")

    page.wait_for_function(
        "document.getElementById('deck-line').textContent.startsWith('31 cards, 6 symbols a card')", timeout=60_000
    )
    assert page.evaluate("document.getElementById('sheet').naturalWidth") > 500
    page.click("#hotspots button[data-card='2']")
    said = page.get_attribute("#hotspots button[data-card='2']", "aria-label")  # a screen reader's words
    assert said.startswith("Card 2: ") and said.count(", ") == 5, said  # its six symbols, by name
    page.click("#reroll")
    wait_for(lambda: (theme(folder).get("layout") or {}).get("reroll") == {2: 1}, "the re-roll saved")

    unlabelled = page.evaluate("""Array.from(document.querySelectorAll('input, select, textarea, button'))
        .filter((e) => e.type !== 'file' && !(e.labels && e.labels.length) && !e.getAttribute('aria-label')
                       && !e.textContent.trim())
        .map((e) => e.outerHTML.slice(0, 80))""")
    assert not unlabelled, f"controls without a label: {unlabelled}"

    page.click("#build")
    page.wait_for_selector("#downloads:not([hidden])", timeout=120_000)
    summary = page.inner_text("#summary")
    assert ": 31 cards, 6 symbols a card, " in summary and "left out 3 symbols no card shows" in summary
    with page.expect_download() as download:
        page.click("#pdf-link")
    pdf = Path(download.value.path()).read_bytes()

    manifest = json.loads((folder / "output" / "family-deck.json").read_text(encoding="utf-8"))
    cards = [{s["id"] for s in card["symbols"]} for card in manifest["cards"]]
    assert len(cards) == 31 and all(len(card) == 6 for card in cards)
    assert all(len(a & b) == 1 for a, b in itertools.combinations(cards, 2))
    assert printdeck.build(folder, out=tmp_path / "cli.pdf").pdf_path.read_bytes() == pdf


class Recorder(http.server.BaseHTTPRequestHandler):
    """Another program's server on 127.0.0.1 (a dev server, a notebook, another user's):
    keeps every request line and header it is sent."""

    seen: ClassVar[list[str]] = []

    def do_GET(self) -> None:
        Recorder.seen.append(f"{self.requestline}\n{self.headers}")
        body = b"<!DOCTYPE html><title>elsewhere</title><p>another server on 127.0.0.1</p>"
        self.send_response(200)
        self.send_header("content-type", "text/html")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        with contextlib.suppress(OSError):  # a no-cors fetch may hang up first
            self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


def test_a_page_on_another_loopback_port_receives_no_token(page: object, studio: tuple[str, Path]) -> None:
    """Issue 27: the token is in no cookie, no address and no Referer another server sees,
    and a page of another origin cannot read it from the browser's storage."""
    token = studio[0].split("#token=", 1)[1]
    assert page.evaluate("sessionStorage.getItem('printdeck-studio-token')") == token
    assert "token" not in page.url and page.context.cookies() == []
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Recorder)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    elsewhere = f"http://127.0.0.1:{server.server_address[1]}/"
    try:
        other = page.context.new_page()  # the person opens another local page in the same browser
        other.goto(elsewhere)
        kept = other.evaluate("[document.cookie, JSON.stringify(sessionStorage), JSON.stringify(localStorage)]")
        other.evaluate(f"fetch({elsewhere!r} + 'from-script', {{credentials: 'include'}})")
        page.evaluate(f"fetch({elsewhere!r} + 'from-studio', {{mode: 'no-cors', credentials: 'include'}})")
        page.goto(elsewhere + "followed-a-link")  # the studio's tab goes there (Referer)
        wait_for(lambda: len(Recorder.seen) >= 4, "the other server's four requests")
        page.go_back()
        page.wait_for_selector("body[data-ready]")  # the studio's tab still has its token
        other.close()
    finally:
        server.shutdown()
    assert all(token not in text for text in kept)
    assert len(Recorder.seen) >= 4 and all(token not in seen for seen in Recorder.seen), Recorder.seen
    assert not any("cookie:" in seen.lower() for seen in Recorder.seen)


def test_the_browser_opens_the_studio_through_a_private_redirect_file(
    page: object, studio: tuple[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 27: the browser is given a file's address, never the token; the file is the
    user's alone (0600 in a 0700 folder) and sends the browser on to the studio."""
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))
    link, port = studio[0], int(studio[0].split(":")[2].split("/")[0])
    redirect = launch.redirect_file(link, port)
    assert redirect.stat().st_mode & 0o777 == 0o600 and redirect.parent.stat().st_mode & 0o777 == 0o700
    token = link.split("#token=", 1)[1]
    assert token not in redirect.as_uri()
    fresh = page.context.browser.new_context()  # a new browser session: nothing stored yet
    try:
        tab = fresh.new_page()
        tab.goto(redirect.as_uri())
        tab.wait_for_selector("body[data-ready]", timeout=60_000)
        assert tab.url == link.split("#", 1)[0]  # the token left the address bar
        assert tab.evaluate("sessionStorage.getItem('printdeck-studio-token')") == token
    finally:
        fresh.close()


def test_requests_on_a_kept_alive_connection_are_not_delayed(page: object) -> None:
    """Issue 27: the listening socket is made with IPPROTO_TCP, so TCP_NODELAY is set and no
    answer waits for a delayed ACK (~40 ms) on a kept-alive connection. Chromium's
    ``fetch`` times; the figures are printed (``-s``) for bench/RESULTS.md."""
    times = page.evaluate("""async () => {
        const token = sessionStorage.getItem('printdeck-studio-token');
        const out = [];
        for (let i = 0; i < 20; i++) {
            const start = performance.now();
            const answer = await fetch('/api/state', { headers: { 'x-printdeck-token': token } });
            await answer.arrayBuffer();
            out.push(performance.now() - start);
        }
        return out;
    }""")
    median = sorted(times)[len(times) // 2]
    print(f"Chromium fetch('/api/state') on a kept-alive connection: median {median:.1f} ms of {len(times)}")
    assert median < 35, f"kept-alive requests wait (Nagle's algorithm?): {times}"


def test_the_cut_guide_is_a_select_of_the_spec_s_three_choices(page: object, studio: tuple[str, Path]) -> None:
    """``paper.cut_guide`` is ``"auto" | true | false``: the form offers the three (from the
    schema's union, not a hand-written list), and the choice is saved as a yes/no."""
    select = "#set-paper-cut_guide"
    page.wait_for_selector(select)
    assert page.eval_on_selector(select, "e => e.tagName") == "SELECT"
    assert page.eval_on_selector_all(f"{select} option", "os => os.map(o => o.value)") == ["auto", "true", "false"]
    page.select_option(select, "false")
    wait_for(lambda: theme(studio[1]).get("paper", {}).get("cut_guide") is False, "cut_guide: false saved")
    page.select_option(select, "auto")
    wait_for(lambda: theme(studio[1]).get("paper", {}).get("cut_guide", "auto") == "auto", "cut_guide back to auto")


def test_each_setting_shows_the_spec_s_words_and_a_screen_reader_hears_them(page: object) -> None:
    """Every listed field shows its key's description from the theme spec under it (the
    Backs group had none), tied to its control by ``aria-describedby`` before the error."""
    from printdeck.studio.deck_settings import form_description

    page.wait_for_selector("#set-backs-color", state="attached")
    fields = form_description()["fields"]
    for key in ("backs.color", "backs.duplex", "card.size", "paper.cut_guide"):
        control = "#set-" + key.replace(".", "-")
        described = page.eval_on_selector(control, "e => e.getAttribute('aria-describedby')").split()
        assert described[-1].startswith("err-") and described[0].startswith("hint-"), (key, described)
        words = page.eval_on_selector(f"#{described[0]}", "e => e.textContent")
        assert words == fields[key]["help"] and words, key
    assert "YAML" not in page.inner_text("body")  # how a theme file writes a colour: not the picker's business


def test_a_drop_s_note_stops_pointing_at_red_tiles_once_they_are_gone(page: object) -> None:
    """A drop with a broken file says "1 refused (see the red tiles)"; dismissing the red tile
    keeps what the drop did but points at nothing that is no longer there."""
    dismiss = "#grid .tile.rejected [data-part='dismiss']"
    while page.locator(dismiss).count():  # red tiles an earlier test left
        page.locator(dismiss).first.click()
        page.wait_for_timeout(200)
    page.wait_for_function("document.querySelectorAll('#grid .tile.rejected').length === 0", timeout=30_000)
    drop(page, [("shopping-list.png", "image/png", b"a shopping list, saved as .png")])
    page.wait_for_function("document.querySelectorAll('#grid .tile.rejected').length === 1", timeout=60_000)
    page.wait_for_function("document.getElementById('busy').textContent.includes('refused')", timeout=60_000)
    assert page.inner_text("#busy") == "Added 0 pictures; 1 refused (see the red tiles)"
    page.click(dismiss)
    page.wait_for_function("document.querySelectorAll('#grid .tile.rejected').length === 0", timeout=30_000)
    assert page.inner_text("#busy") == "Added 0 pictures; 1 refused."


def test_a_typo_fixed_in_a_word_s_tile_is_fixed_on_the_cards(page: object, studio: tuple[str, Path]) -> None:
    """The box under a word's tile is the word: "elefant" typed over as "elephant" prints
    "elephant" (it renamed the symbol and the cards kept the typo); a word emptied comes back."""

    def box_of(word: str) -> Any:
        tile = page.locator("#grid .tile", has=page.locator(f".word:text-is('{word}')"))
        tile.wait_for()
        return tile.get_by_label(re.compile(r"^Word of symbol \d+$"))

    page.fill("#words", "elefant")
    page.click("#words-form button[type=submit]")
    box = box_of("elefant")
    assert box.input_value() == "elefant"
    box.fill("elephant")
    box.press("Enter")
    wait_for(lambda: any(s.get("text") == "elephant" for s in theme(studio[1])["symbols"]), "the word saved")
    saved = next(s for s in theme(studio[1])["symbols"] if s.get("text") == "elephant")
    assert "name" not in saved and not any(s.get("text") == "elefant" for s in theme(studio[1])["symbols"])
    box = box_of("elephant")
    box.fill("")
    box.press("Enter")
    page.wait_for_function(  # put back at once, and kept through any redraw
        "[...document.querySelectorAll('#grid .tile')].some((t) => t.querySelector('.word')?.textContent"
        " === 'elephant' && t.querySelector('.tile-name').value === 'elephant')",
        timeout=10_000,
    )
    assert any(s.get("text") == "elephant" for s in theme(studio[1])["symbols"])


def test_typing_not_taken_in_is_said_and_asked_about_before_the_page_goes(
    page: object, studio: tuple[str, Path]
) -> None:
    """A title typed without Enter was lost on a reload while the line said everything was
    saved: the line says it is saved on Enter or leaving the box, and the browser asks
    before the page goes; once taken in, the title is saved and the page goes freely."""
    page.evaluate("""() => { for (const d of document.querySelectorAll('#settings details')) d.open = true; }""")
    box = page.locator("#set-title")
    box.click()
    box.press("Control+A")
    box.press_sequentially("Our class deck")
    assert page.inner_text("#saved").startswith("Typing")
    asked: list[str] = []

    def answer(dialog: Any) -> None:
        asked.append(dialog.type)
        dialog.dismiss()  # stay: the typing is kept

    page.on("dialog", answer)
    try:
        page.evaluate("() => { location.reload(); }")
        page.wait_for_timeout(500)
        assert asked == ["beforeunload"] and box.input_value() == "Our class deck"
        box.press("Enter")
        wait_for(lambda: theme(studio[1]).get("title") == "Our class deck", "the title saved")
        page.reload()  # nothing typed is left: no question
        page.wait_for_selector("body[data-ready='true']")
        assert asked == ["beforeunload"]
        page.evaluate("""() => { for (const d of document.querySelectorAll('#settings details')) d.open = true; }""")
        box.click()
        box.press("End")
        box.press_sequentially("!")
        box.press("Backspace")  # typed back to what it held: nothing to lose
        assert not page.inner_text("#saved").startswith("Typing")
        page.reload()
        page.wait_for_selector("body[data-ready='true']")
        assert asked == ["beforeunload"]
    finally:
        page.remove_listener("dialog", answer)


def test_a_picture_s_name_emptied_shows_its_file_s_name_again(page: object, studio: tuple[str, Path]) -> None:
    """Emptying a picture's name saved "no name" (its file's), but the box stayed blank until
    a reload brought the name back: it shows the file's name at once."""
    svg = sorted(TWEMOJI.glob("*.svg"))[-3]
    drop(page, [(svg.name, "image/svg+xml", svg.read_bytes())])
    tile = page.locator("#grid .tile", has=page.locator(f".tile-name[value='{svg.stem}']"))
    tile.wait_for(timeout=60_000)
    box = page.locator(f"#grid .tile[data-uid='{tile.get_attribute('data-uid')}'] .tile-name")  # through redraws
    box.fill("Granny")
    box.press("Enter")
    wait_for(lambda: any(s.get("name") == "Granny" for s in theme(studio[1])["symbols"]), "the name saved")
    box.fill("")
    box.press("Enter")
    wait_for(lambda: not any(s.get("name") == "Granny" for s in theme(studio[1])["symbols"]), "the name gone")
    page.wait_for_function(
        f"[...document.querySelectorAll('#grid .tile-name')].some((n) => n.value === {svg.stem!r})", timeout=10_000
    )


def test_a_name_another_symbol_has_is_refused_beside_its_tile(page: object, studio: tuple[str, Path]) -> None:
    """A parent names a second photo "Emma": the refusal was said only in the top line and
    the tile went back to its old name. The box keeps "Emma", marked, the reason under it;
    set back, the mark goes."""
    first, second = sorted(TWEMOJI.glob("*.svg"))[-5:-3]
    drop(page, [(p.name, "image/svg+xml", p.read_bytes()) for p in (first, second)])
    uids = []
    for svg in (first, second):
        tile = page.locator("#grid .tile", has=page.locator(f".tile-name[value='{svg.stem}']"))
        tile.wait_for(timeout=60_000)
        uids.append(tile.get_attribute("data-uid"))
    box = page.locator(f"#grid .tile[data-uid='{uids[1]}'] .tile-name")  # found again through redraws
    box.fill(first.stem)
    box.press("Enter")
    note = page.locator(f"#name-refused-{uids[1]}")
    note.wait_for(timeout=10_000)
    assert "already" in note.inner_text() and note.inner_text().startswith("Not saved:")
    assert box.input_value() == first.stem and box.get_attribute("aria-invalid") == "true"
    assert box.get_attribute("aria-describedby") == f"name-refused-{uids[1]}"
    assert not any(s.get("name") == first.stem for s in theme(studio[1])["symbols"])  # nothing saved
    box.fill(second.stem)
    box.press("Enter")
    note.wait_for(state="detached", timeout=10_000)
    assert box.get_attribute("aria-invalid") is None and box.input_value() == second.stem


def test_a_picture_dropped_on_its_word_s_tile_becomes_its_face(page: object, studio: tuple[str, Path]) -> None:
    """A teacher drops "snail.svg" on the word "snail": one symbol with both faces (the
    picture was refused as a second "snail" before it could be paired)."""
    drop_on_word(page, "snail", ("snail.svg", "image/svg+xml", (TWEMOJI / "snail.svg").read_bytes()))
    page.wait_for_function("document.getElementById('busy').textContent.includes('several faces')", timeout=60_000)
    assert page.inner_text("#busy") == "snail now has several faces: a match may show either."
    faces = [s for s in theme(studio[1])["symbols"] if "faces" in s and {"text": "snail"} in s["faces"]]
    assert len(faces) == 1 and faces[0]["faces"][0]["image"].endswith("snail.svg")
    assert page.locator("#grid .tile.rejected", has_text="snail.svg").count() == 0


def test_a_photo_dropped_on_its_word_keeps_its_crop_in_the_panel(page: object, studio: tuple[str, Path]) -> None:
    """Grandma's photo dropped on the word "abuela": one symbol of two faces, whose panel had
    no crop, zoom or shape for the photo. It shows the photo's crop now; a click centres it."""
    drop_on_word(page, "abuela", ("grandma.jpg", "image/jpeg", photo_jpeg(5)))
    page.wait_for_function("document.getElementById('busy').textContent.includes('several faces')", timeout=60_000)
    uid = page.locator("#grid .tile", has=page.locator(".face-word:text-is('abuela')")).get_attribute("data-uid")
    page.click(f"#grid .tile[data-uid='{uid}'] [data-part=face]")
    crop = page.locator("#detail .crop")
    crop.wait_for(timeout=10_000)
    page.wait_for_selector("#detail .crop .ring:not([hidden])", timeout=60_000)  # the crop the PDF cuts
    assert page.locator("#detail select").filter(has=page.locator("option[value='rounded']")).count() == 1
    crop.click(position={"x": 20, "y": 20})  # near the photo's top left corner

    def focus() -> object:
        symbol = next(s for s in theme(studio[1])["symbols"] if {"text": "abuela"} in s.get("faces", []))
        return symbol["faces"][0].get("focus")

    wait_for(lambda: focus() is not None, "the photo face's focus saved")
    assert all(0 <= v < 0.5 for v in focus())  # type: ignore[attr-defined]


def test_a_chosen_font_shows_in_its_box_and_goes_when_removed(page: object, studio: tuple[str, Path]) -> None:
    """The Font box shows the file chosen, then its default again once removed: it kept
    "Choose… chosen for each word's script" after a choice (the field was held as if typed
    in), and the file after Remove, until the page was reloaded."""
    font = Path(__file__).resolve().parent.parent / "assets" / "fonts" / "NotoSans-Regular.ttf"
    field = '.field[data-key="text.font"]'
    page.evaluate("""() => { for (const d of document.querySelectorAll('#settings details')) d.open = true; }""")
    page.set_input_files("#set-text-font", str(font))
    wait_for(lambda: "font" in theme(studio[1]).get("text", {}), "the font saved")
    page.wait_for_function(
        f"""() => document.querySelector('{field}').textContent.includes('NotoSans-Regular.ttf')""", timeout=10_000
    )
    page.locator(f"{field} button.link").click()  # Remove
    wait_for(lambda: "font" not in theme(studio[1]).get("text", {}), "the font removed")
    page.wait_for_function(
        f"""() => document.querySelector('{field}').textContent.includes("chosen for each word's script")""",
        timeout=10_000,
    )


def test_clearing_a_custom_paper_size_goes_back_to_the_default(page: object, studio: tuple[str, Path]) -> None:
    """Both boxes of a custom paper emptied: the theme loses its size (the default paper);
    it kept the custom size, silently."""
    page.evaluate("""() => { for (const d of document.querySelectorAll('#settings details')) d.open = true; }""")
    page.select_option("#set-paper-size", "custom")
    width, height = page.locator('[aria-label="Paper width"]'), page.locator('[aria-label="Paper height"]')
    width.fill("148mm")
    height.fill("210mm")
    height.press("Tab")
    wait_for(lambda: theme(studio[1]).get("paper", {}).get("size") == ["148mm", "210mm"], "the custom size saved")
    page.locator('[aria-label="Paper width"]').fill("")
    page.locator('[aria-label="Paper height"]').fill("")
    page.locator('[aria-label="Paper height"]').press("Tab")
    wait_for(lambda: "size" not in theme(studio[1]).get("paper", {}), "the custom size removed")


def test_the_preview_turns_a_sheet_over_to_its_backs(page: object, studio: tuple[str, Path]) -> None:
    """With backs on, "Show backs" shows the back of the sheet (as the duplex PDF prints
    it, no card buttons over it), "Show fronts" the front again; with backs off the
    button goes and the preview is the front."""
    if page.evaluate("document.querySelectorAll('#grid .tile').length") < 7:
        page.fill("#words", "sun\nmoon\nstar\ntree\nfish\nbird\nboat")
        page.click("#words-form button[type=submit]")
    page.wait_for_selector("#sheet[src^='blob:']", timeout=60_000)
    assert page.is_hidden("#flip-side")
    page.evaluate("""() => { for (const d of document.querySelectorAll('#settings details')) d.open = true; }""")
    page.check("#set-backs-enabled")
    wait_for(lambda: theme(studio[1]).get("backs", {}).get("enabled") is True, "backs turned on")
    page.wait_for_selector("#flip-side:not([hidden])", timeout=60_000)
    page.click('#hotspots button[data-card="1"]')  # chosen on the fronts
    assert page.inner_text("#reroll") == "Re-roll card 1" and page.is_enabled("#reroll")
    page.click("#flip-side")
    page.wait_for_function("() => document.getElementById('page-label').textContent.startsWith('Back of sheet 1')")
    assert page.get_attribute("#flip-side", "aria-pressed") == "true" and page.inner_text("#flip-side") == "Show fronts"
    assert page.eval_on_selector_all("#hotspots button", "bs => bs.length") == 0
    assert page.get_attribute("#sheet", "alt").startswith("The back of sheet 1")
    for button in ("#reroll", "#reseed"):  # they change the fronts, which the backs do not show
        assert page.is_disabled(button) and page.get_attribute(button, "title").startswith("Show fronts first")
    page.click("#flip-side")
    page.wait_for_function("() => document.getElementById('page-label').textContent.startsWith('Sheet 1')")
    page.wait_for_selector("#hotspots button")
    assert page.get_attribute('#hotspots button[data-card="1"]', "aria-pressed") == "true"  # still chosen
    assert page.inner_text("#reroll") == "Re-roll card 1" and page.is_enabled("#reroll") and page.is_enabled("#reseed")
    assert page.get_attribute("#reseed", "title") is None
    page.click('#hotspots button[data-card="1"]')  # chosen no more
    page.click("#flip-side")  # backs again, then backs turned off: the front comes back
    page.wait_for_function("() => document.getElementById('page-label').textContent.startsWith('Back of sheet')")
    page.uncheck("#set-backs-enabled")
    wait_for(lambda: not theme(studio[1]).get("backs", {}).get("enabled"), "backs turned off")
    page.wait_for_function("() => document.getElementById('page-label').textContent.startsWith('Sheet 1')")
    page.wait_for_selector("#flip-side[hidden]", state="attached")


def test_the_pdf_with_backs_says_which_edge_to_flip_on(page: object, studio: tuple[str, Path]) -> None:
    """Built with backs, the PDF is offered with the edge to flip the paper on, in sight
    below its download (the backs printed upside down when the wrong one was chosen);
    built without, nothing is said of it."""
    if page.evaluate("document.querySelectorAll('#grid .tile').length") < 7:
        page.fill("#words", "sun\nmoon\nstar\ntree\nfish\nbird\nboat")
        page.click("#words-form button[type=submit]")
    page.evaluate("""() => { for (const d of document.querySelectorAll('#settings details')) d.open = true; }""")
    page.check("#set-backs-enabled")
    page.select_option("#set-backs-duplex", "short-edge")
    wait_for(lambda: theme(studio[1]).get("backs", {}).get("duplex") == "short-edge", "backs on, short edge")
    page.wait_for_function(SETTLED)
    page.click("#build")
    page.wait_for_selector("#print-hint:not([hidden])", timeout=120_000)
    assert "set to \u201cflip on short edge\u201d" in page.inner_text("#print-hint")
    page.wait_for_function(
        "() => { const r = document.getElementById('print-hint').getBoundingClientRect(); "
        "return r.top >= 0 && r.bottom <= innerHeight; }"
    )  # scrolled to, with the download
    page.screenshot(path=str(studio[1] / "print-hint.png"))
    page.uncheck("#set-backs-enabled")
    wait_for(lambda: not theme(studio[1]).get("backs", {}).get("enabled"), "backs turned off")
    page.wait_for_function(SETTLED)
    page.click("#build")
    page.wait_for_function("() => document.getElementById('build-stage').textContent.startsWith('Done')")
    page.wait_for_selector("#downloads:not([hidden])")
    assert page.is_hidden("#print-hint")


def test_slides_are_offered_as_slides_and_the_cards_pdf_stays(page: object, studio: tuple[str, Path]) -> None:
    """After "Slides for the screen", both Download PDF buttons gave the slides: a teacher
    who clicked one to print the cards got 16:9 slides. The slides' link says so, and the
    top bar keeps the cards' PDF."""
    if page.evaluate("document.querySelectorAll('#grid .tile').length") < 7:
        page.fill("#words", "sun\nmoon\nstar\ntree\nfish\nbird\nboat")
        page.click("#words-form button[type=submit]")
    page.wait_for_function(SETTLED)
    page.click("#build")
    page.wait_for_function("() => document.getElementById('build-stage').textContent.startsWith('Done')")
    page.wait_for_selector("#downloads:not([hidden])")
    cards = page.get_attribute("#top-pdf", "href")
    assert page.inner_text("#pdf-link") == "Download PDF" and page.is_visible("#top-pdf")
    page.click("#slides")
    page.wait_for_function(
        "() => document.getElementById('pdf-link').textContent === 'Download slides'"
        " && !document.getElementById('downloads').hidden",
        timeout=120_000,
    )
    assert page.get_attribute("#pdf-link", "href") != cards
    assert page.is_visible("#top-pdf") and page.get_attribute("#top-pdf", "href") == cards  # still the cards
    page.reload()  # the studio's latest build is the slides: the cards' PDF is still offered on top
    page.wait_for_selector("body[data-ready='true']")
    page.wait_for_selector("#top-pdf:not([hidden])", timeout=10_000)
    assert page.get_attribute("#top-pdf", "href") == cards and page.inner_text("#pdf-link") == "Download slides"


def test_every_sheet_shown_has_its_card_buttons(page: object, studio: tuple[str, Path]) -> None:
    """Each time the preview says what deck it shows, its sheet is drawn and its card
    buttons lie over it: the sheet decodes for its element before the facts and buttons
    come (before, a sheet still decoding got no card buttons until the window was resized,
    and CI once saw the deck's line beside an empty sheet)."""
    if page.evaluate("document.querySelectorAll('#grid .tile').length") < 7:
        page.fill("#words", "sun\nmoon\nstar\ntree\nfish\nbird\nboat")
        page.click("#words-form button[type=submit]")
    page.wait_for_selector("#hotspots button", timeout=60_000)
    page.evaluate("""() => {
        window.seen = [];
        new MutationObserver(() => {
            const sheet = document.getElementById("sheet");
            if (!document.getElementById("deck-line").textContent) return;
            window.seen.push({ drawn: sheet.complete && sheet.naturalWidth > 0,
                               buttons: document.querySelectorAll("#hotspots button").length });
        }).observe(document.getElementById("deck-line"), { childList: true, characterData: true, subtree: true });
    }""")
    for round_ in range(4):  # a new seed redraws the sheet
        page.click("#reseed")
        wait_for(lambda n=round_: page.evaluate("window.seen.length") > n, f"sheet {round_ + 1} drawn", 60)
    seen = page.evaluate("window.seen")
    assert len(seen) >= 4 and all(s["drawn"] and s["buttons"] > 0 for s in seen), seen
    points = "b => b.querySelector('svg.ring polygon').getAttribute('points').split(' ').length"
    rings = page.eval_on_selector_all("#hotspots button", f"bs => bs.map({points})")
    assert rings and all(n >= 4 for n in rings)  # each card's own outline: a round card's 64-gon, a square's 4
    clips = page.eval_on_selector_all("#hotspots button", "bs => bs.map(b => b.style.clipPath)")
    assert all(c.startswith("polygon(") for c in clips), clips  # a click near an edge takes the card it is on


def test_opening_a_symbols_panel_brings_it_into_view_and_focus(page: object) -> None:
    """A parent tapped a tile and nothing seemed to happen: the panel opened below the window
    (at 1168 px on an 844 px phone), and a keyboard's Enter left the focus on the tile. The
    panel is now scrolled into view and its heading takes the focus; Close gives it back."""
    if page.evaluate("document.querySelectorAll('#grid .tile').length") < 7:
        page.fill("#words", "sun\nmoon\nstar\ntree\nfish\nbird\nboat")
        page.click("#words-form button[type=submit]")
    page.set_viewport_size({"width": 390, "height": 700})
    try:
        page.evaluate("window.scrollTo(0, 0)")
        face = page.locator("#grid .tile [data-part='face']").first
        face.focus()
        page.keyboard.press("Enter")
        page.wait_for_selector("#detail:not([hidden]) h3")
        assert page.evaluate("document.activeElement.id") == "detail-h"
        box = "document.getElementById('detail-h').getBoundingClientRect()"
        top, bottom = page.evaluate(f"(() => {{ const r = {box}; return [r.top, r.bottom]; }})()")
        bar = page.evaluate("document.querySelector('.topbar').getBoundingClientRect().bottom")
        assert top >= bar and bottom <= 700, (top, bar, bottom)  # in view, not under the sticky top bar
        page.locator("#detail-h button").click()  # Close
        assert page.evaluate("document.activeElement.dataset.part") == "face"
        page.keyboard.press("Enter")  # open again, and Escape closes it as Close does
        page.wait_for_selector("#detail:not([hidden]) h3")
        page.keyboard.press("Escape")
        page.wait_for_selector("#detail", state="hidden")
        assert page.evaluate("document.activeElement.dataset.part") == "face"
    finally:
        page.set_viewport_size({"width": 1280, "height": 800})


def test_a_page_reloaded_during_a_build_follows_it_to_its_download(page: object) -> None:
    """A teacher reloaded the page while the card PNGs were drawn and lost the build: no
    progress, no summary, no download. The reloaded page follows the build to its end."""
    if page.evaluate("document.querySelectorAll('#grid .tile').length") < 7:
        page.fill("#words", "sun\nmoon\nstar\ntree\nfish\nbird\nboat")
        page.click("#words-form button[type=submit]")
    page.fill("#set-deck-copies", "6")  # six decks of PNGs: a build that runs for some seconds
    page.press("#set-deck-copies", "Tab")
    page.wait_for_function("document.getElementById('deck-line').textContent.startsWith('6 decks')", timeout=60_000)
    page.check("#pngs")
    try:
        page.click("#build")
        page.wait_for_function("document.getElementById('build-stage').textContent.includes('…')")
        page.reload()
        page.wait_for_selector("body[data-ready]")
        page.wait_for_function(  # the running build, followed
            "document.getElementById('build').getAttribute('aria-disabled') === 'true'"
        )
        page.wait_for_selector("#downloads:not([hidden]) #pdf-link", timeout=180_000)
        assert page.inner_text("#build-stage").startswith("Done in ")
        assert not page.is_hidden("#zip-link") and page.get_attribute("#build", "aria-disabled") == "false"
        # Opened again once it ended: the page showed nothing of it. Now it shows it as the
        # last build, its downloads there, without moving the page or taking the keyboard.
        summary = page.inner_text("#summary")
        page.reload()
        page.wait_for_selector("body[data-ready]")
        page.wait_for_selector("#downloads:not([hidden]) #pdf-link")
        assert page.inner_text("#build-stage").startswith("Last build: done in ")
        assert page.inner_text("#summary") == summary and not page.is_hidden("#zip-link")
        assert page.evaluate("document.activeElement.id") != "pdf-link" and page.evaluate("scrollY") == 0
        assert not page.is_hidden("#top-pdf") and page.get_attribute("#build", "aria-disabled") == "false"
    finally:
        page.uncheck("#pngs")
        page.fill("#set-deck-copies", "1")
        page.press("#set-deck-copies", "Tab")
