"""Benchmark printdeck studio (issue 17): first page load, and the preview after an edit.

Starts a real studio (uvicorn on 127.0.0.1, a free port) on a new theme folder, uploads
57 bundled SVGs (57 cards of 8), then measures, over HTTP as the page does it:

- the first page load: the page, its CSS and scripts and ``/api/state`` (and, when
  ``/usr/bin/chromium`` and Playwright are there, the browser's load until the page
  has drawn the deck);
- the preview of sheet 1 after an edit: the change (PATCH/POST), ``/api/preview`` and
  the sheet's PNG, for a rename, a symbol's scale, the card colour, a re-roll and
  a new seed (the seed redraws every card: shown, not a target).

Targets: first load <= 1 s; preview after an edit <= 0.5 s (57-card, 8-a-card deck).
Every cache starts empty (a new ``PRINTDECK_CACHE_DIR``), as on a new computer.

Usage: python bench/bench_studio.py [--runs N] [--append] [--screenshots DIR]
  --append       add the figures to bench/RESULTS.md
  --screenshots  also save the README's screenshots (docs/images/studio-*.png) into DIR
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path

TOKEN_HEADER = "x-printdeck-token"  # printdeck.studio.guard.TOKEN_HEADER (the bench runs without importing it)
REPO = Path(__file__).resolve().parent.parent
TWEMOJI = REPO / "assets" / "twemoji"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
STATIC = [
    "studio.css",
    "app.js",
    "api.js",
    "symbols.js",
    "detail.js",
    "settings.js",
    "preview.js",
    "build.js",
    "icon.svg",
]


class Studio:
    """``python -m printdeck.studio FOLDER --no-browser`` in a child process, as a user runs it,
    and requests to it (one connection each, as a browser's parallel requests are)."""

    def __init__(self, folder: Path, env: dict[str, str]) -> None:
        started = time.perf_counter()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "printdeck.studio", str(folder), "--no-browser"],
            stdout=subprocess.PIPE,
            text=True,
            env=env,
            cwd=REPO,
        )
        assert self.process.stdout is not None
        for line in self.process.stdout:
            if line.startswith("open "):
                self.link = line.split()[1]
                break
        self.start_s = time.perf_counter() - started
        self.folder = folder
        self.origin, self.token = self.link.split("/#token=", 1)

    def call(self, method: str, path: str, body: object = None) -> object:
        """One request; the JSON answer (or the bytes of anything else)."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            self.origin + path,
            data=data,
            method=method,
            headers={TOKEN_HEADER: self.token, "content-type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=600) as response:
            raw = response.read()
            return json.loads(raw) if response.headers.get("content-type", "").startswith("application/json") else raw

    def upload(self, paths: list[Path]) -> None:
        import httpx

        files = [("files", (p.name, p.read_bytes(), "image/svg+xml")) for p in paths]
        headers = {TOKEN_HEADER: self.token}
        httpx.post(self.origin + "/api/files?wait=1", files=files, headers=headers, timeout=600).raise_for_status()

    def state(self) -> dict:
        return self.call("GET", "/api/state")["state"]  # type: ignore[index]

    def preview(self, rev: int, page: int = 1) -> dict:
        facts = self.call("GET", f"/api/preview?rev={rev}&page={page}")
        self.call("GET", facts["image"])  # type: ignore[index]
        return facts  # type: ignore[return-value]

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(10)


def timed(action: Callable[[], object]) -> float:
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


def first_load_http(studio: Studio) -> float:
    """The page, its files and the deck's state, one after the other (a browser asks in parallel)."""

    def load() -> None:
        studio.call("GET", "/")
        for name in STATIC:
            studio.call("GET", f"/static/{name}")
        studio.state()

    return timed(load)


def first_load_browser(link: str) -> list[float] | None:
    """Chromium, a new tab each time: from asking for the page to the deck drawn (the
    page's own clock, ``performance.now()`` when ``body[data-ready]`` is set)."""
    if not CHROMIUM.exists():
        return None
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return None
    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        seconds = []
        for _ in range(4):
            page = context.new_page()
            page.goto(link)
            page.wait_for_selector("body[data-ready]")
            seconds.append(int(page.get_attribute("body", "data-ready-ms") or 0) / 1000)
            page.close()
        browser.close()
    return seconds


def symbol_on_card_one(studio: Studio) -> dict:
    """A symbol the first card shows (its edits change sheet 1)."""
    import printdeck

    plan = printdeck.plan(printdeck.load_theme(studio.folder, check_files=False), prove=False)
    name = plan.cards[0][0].name
    return next(s for s in studio.state()["symbols"] if s["name"] == name)


def edits(studio: Studio) -> dict[str, Callable[[int], object]]:
    """Each edit, given the run number (so every run changes something)."""
    symbol = symbol_on_card_one(studio)
    call = studio.call
    return {
        "rename a symbol": lambda i: call("PATCH", f"/api/symbols/{symbol['uid']}", {"changes": {"name": f"pet {i}"}}),
        "scale a symbol of card 1": lambda i: call(
            "PATCH", f"/api/symbols/{symbol['uid']}", {"changes": {"scale": 1.0 + 0.1 * (i % 3 + 1)}}
        ),
        "card background colour": lambda i: call(
            "PATCH", "/api/settings", {"changes": {"card.background": ["#fffdf5", "#f5fbff", "#fff5f8"][i % 3]}}
        ),
        "re-roll card 2": lambda i: call("POST", "/api/reroll", {"card": 2}),
        "new seed (every card; not a target)": lambda i: call("POST", "/api/seed"),
    }


def measure_edits(studio: Studio, runs: int) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {}
    for label, edit in edits(studio).items():
        for i in range(runs):

            def one(edit: Callable[[int], object] = edit, i: int = i) -> None:
                answer = edit(i)
                studio.preview(answer["state"]["rev"])  # type: ignore[index]

            times.setdefault(label, []).append(timed(one))
    return times


def run(runs: int) -> list[str]:
    lines = []
    with tempfile.TemporaryDirectory(prefix="printdeck-bench-studio-") as work:
        env = {**os.environ, "PRINTDECK_CACHE_DIR": str(Path(work) / "cache")}
        os.environ["PRINTDECK_CACHE_DIR"] = env["PRINTDECK_CACHE_DIR"]
        studio = Studio(Path(work) / "deck", env)
        upload_s = timed(lambda: studio.upload(sorted(TWEMOJI.glob("*.svg"))[:57]))
        state = studio.state()
        assert state["symbols_per_card"] == 8 and len(state["symbols"]) == 57, state["sizes"]
        cold_s = timed(lambda: studio.preview(state["rev"]))
        load_http = [first_load_http(studio) for _ in range(runs)]
        load_browser = first_load_browser(studio.link)
        times = measure_edits(studio, runs)
        studio.stop()
    lines.append(f"studio start-up (until it prints the link; folder opened, library loaded): {studio.start_s:.2f} s")
    lines.append(f"57 SVGs uploaded and checked: {upload_s:.2f} s")
    lines.append(
        f"first page load over HTTP (page + {len(STATIC)} files + state): median "
        f"{statistics.median(load_http):.3f} s, max {max(load_http):.3f} s"
    )
    if load_browser is not None:
        lines.append(
            f"first page load in Chromium (asked for -> deck drawn): first tab {load_browser[0]:.2f} s, "
            f"then median {statistics.median(load_browser[1:]):.2f} s"
        )
    lines.append(f"first preview of sheet 1 after the upload (6 cards packed, caches empty): {cold_s:.2f} s")
    for label, seconds in times.items():
        lines.append(
            f"preview after an edit, {label}: median {statistics.median(seconds):.2f} s, "
            f"max {max(seconds):.2f} s ({len(seconds)} runs)"
        )
    return lines


def append_results(lines: list[str]) -> None:
    """Add the figures to bench/RESULTS.md under a heading of their own."""
    intro = (
        "`python bench/bench_studio.py --append`: `python -m printdeck.studio` on a new folder, 57 bundled "
        "SVGs uploaded (57 cards of 8, order 7), every cache empty at the start; each edit is the change, "
        "`/api/preview` and the sheet's PNG over HTTP. Targets: first page load <= 1 s, preview after an "
        "edit <= 0.5 s."
    )
    text = f"\n## Studio (issue 17), {time.strftime('%Y-%m-%d')}\n\n" + textwrap.fill(intro, 92) + "\n\n"
    text += "".join(f"- {line}\n" for line in lines)
    with (REPO / "bench" / "RESULTS.md").open("a", encoding="utf-8") as handle:
        handle.write(text)


SHOT_SVGS = [
    "apple",
    "avocado",
    "banana",
    "bee",
    "bicycle",
    "butterfly",
    "cactus",
    "camel",
    "carrot",
    "cherries",
    "crab",
    "dolphin",
    "duck",
    "elephant",
    "giraffe",
    "hedgehog",
    "kiwi",
    "lemon",
    "octopus",
    "owl",
    "penguin",
    "turtle",
    "strawberry",
]
DROP_JS = """(files) => {
    const transfer = new DataTransfer();
    for (const f of files) {
        const bytes = Uint8Array.from(atob(f.data), (c) => c.charCodeAt(0));
        transfer.items.add(new File([bytes], f.name, { type: f.type }));
    }
    const zone = document.getElementById("dropzone");
    for (const type of ["dragenter", "dragover", "drop"]) {
        zone.dispatchEvent(new DragEvent(type, { dataTransfer: transfer, bubbles: true, cancelable: true }));
    }
}"""


def shot_files() -> list[dict[str, str]]:
    """Four photos (scikit-image's, scaled up 3x to a phone photo's pixels: at 512 px the
    astronaut would print under 150 dpi and the sheet be refused) and 23 bundled SVGs, as
    the page receives dropped files."""
    import base64
    import io

    from PIL import Image
    from skimage import data

    files = []
    for name, pixels in (
        ("astronaut", data.astronaut()),
        ("cat", data.chelsea()),
        ("coffee", data.coffee()),
        ("rocket", data.rocket()),
    ):
        out = io.BytesIO()
        picture = Image.fromarray(pixels).convert("RGB")
        picture = picture.resize((picture.width * 3, picture.height * 3), Image.Resampling.LANCZOS)
        picture.save(out, format="JPEG", quality=92)
        files.append((f"{name}.jpg", "image/jpeg", out.getvalue()))
    files += [(f"{n}.svg", "image/svg+xml", (TWEMOJI / f"{n}.svg").read_bytes()) for n in SHOT_SVGS]
    return [{"name": n, "type": t, "data": base64.b64encode(d).decode()} for n, t, d in files]


def take_screenshots(out_dir: Path) -> None:
    """The README's pictures of the page (1280 x 800): a deck with its preview, a photo's
    crop, an error beside its field, a finished build."""
    from playwright.sync_api import sync_playwright

    out_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="printdeck-shots-") as work:
        env = {**os.environ, "PRINTDECK_CACHE_DIR": str(Path(work) / "cache"), "HOME": work}  # shown as ~/family-deck
        studio = Studio(Path(work) / "family-deck", env)
        with sync_playwright() as driver:
            browser = driver.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            page = browser.new_context(viewport={"width": 1280, "height": 800}, bypass_csp=True).new_page()
            page.goto(studio.link)
            page.wait_for_selector("body[data-ready]")
            page.evaluate(DROP_JS, shot_files())
            page.wait_for_function("document.querySelectorAll('#grid .tile').length === 27", timeout=120_000)
            page.fill("#words", "sun\nmoon\nstar\ntree")
            page.click("#words-form button[type=submit]")
            page.wait_for_function(
                "document.getElementById('deck-line').textContent.startsWith('31 cards')", timeout=120_000
            )
            page.wait_for_function("document.getElementById('preview-note').textContent.startsWith('drawn')")
            page.screenshot(path=str(out_dir / "studio-deck.png"))
            page.locator("#grid .tile", has=page.locator("img.photo")).nth(1).locator(".tile-face").click()
            page.locator("#detail .crop img").click(position={"x": 60, "y": 40})
            page.wait_for_function("document.querySelector('#detail .hint') !== null")
            time.sleep(1.0)
            page.evaluate("document.getElementById('detail').scrollIntoView({block: 'center'})")
            page.screenshot(path=str(out_dir / "studio-photo.png"))
            page.fill("#set-card-diameter", "big")
            page.press("#set-card-diameter", "Tab")
            page.wait_for_selector("#err-set-card-diameter:has-text('must be a length')")
            page.evaluate("document.getElementById('set-card-diameter').scrollIntoView({block: 'center'})")
            page.screenshot(path=str(out_dir / "studio-error.png"))
            page.fill("#set-card-diameter", "")
            page.press("#set-card-diameter", "Tab")
            page.click("#hotspots button[aria-label='Card 2']")
            page.click("#build")
            page.wait_for_selector("#downloads:not([hidden])", timeout=300_000)
            page.evaluate("window.scrollTo(0, 0); document.querySelector('.right').scrollTo(0, 9999)")
            time.sleep(0.3)
            page.screenshot(path=str(out_dir / "studio-build.png"))
            browser.close()
        studio.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--append", action="store_true")
    parser.add_argument("--screenshots", type=Path)
    args = parser.parse_args()
    lines = run(args.runs)
    print("\n".join(lines))
    if args.append:
        append_results(lines)
    if args.screenshots is not None:
        take_screenshots(args.screenshots)


if __name__ == "__main__":
    main()
