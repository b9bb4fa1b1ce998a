"""Benchmark the studio while it checks a drop of 57 phone photos (issue 28, part 7).

Starts ``python -m printdeck.studio`` on a new folder (every cache empty), opens the page
in Chromium and drops 57 twelve-megapixel phone photos on it (``bench_photos.py``'s: people,
a cat, objects, off-centre, some stored sideways, one HEIC) through the page's own file
picker, as a parent would. Meanwhile a second client asks ``GET /api/state`` and
``GET /api/preview`` every 100 ms, as a page that keeps being used does. Prints:

- drop to first sheet: from handing the files to the page until sheet 1 of the 57-card
  deck is drawn on it (the page's own ``drawn in`` note);
- the latency of the state and preview requests asked while the pictures are checked
  (max and 95th percentile), target < 0.3 s;
- the load average of the machine before the run (a shared machine makes every figure
  slower; compare runs made side by side).

Usage: python bench/bench_studio_busy.py [--photos DIR] [--append]
  --photos  where the 57 photos are made (kept between runs; default /tmp/printdeck-bench-photos/photos)
  --append  add the figures to bench/RESULTS.md
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import tempfile
import textwrap
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

from bench_photos import make_photos
from bench_studio import CHROMIUM, CHROMIUM_ARGS, REPO, TOKEN_HEADER, Studio

POLL_S = 0.1


class Poller(threading.Thread):
    """Asks for the state and the preview every :data:`POLL_S` seconds; keeps each answer's
    seconds and whether the page's checking was under way when it was asked."""

    def __init__(self, studio: Studio) -> None:
        super().__init__(daemon=True)
        self.studio = studio
        self.stop = threading.Event()
        self.checking = threading.Event()
        self.seconds: dict[str, list[float]] = {"state": [], "preview": []}

    def ask(self, path: str) -> tuple[float, object]:
        request = urllib.request.Request(self.studio.origin + path, headers={TOKEN_HEADER: self.studio.token})
        start = time.perf_counter()
        try:
            with urllib.request.urlopen(request, timeout=120) as response:
                body = json.loads(response.read())
        except urllib.error.HTTPError as exc:  # a preview of a deck too small yet: 422, still an answer
            body = json.loads(exc.read() or b"{}")
        return time.perf_counter() - start, body

    def run(self) -> None:
        _, first = self.ask("/api/state")
        rev = first["state"]["rev"]  # type: ignore[index]
        while not self.stop.is_set():
            for what in ("state", "preview"):
                # the preview of the deck as it was before the drop: a sheet the page has (a newer
                # revision's first sheet is new work, timed as drop to first sheet)
                path = "/api/state" if what == "state" else f"/api/preview?rev={rev}&page=1"
                checking = self.checking.is_set()
                seconds, _ = self.ask(path)
                if checking and self.checking.is_set():
                    self.seconds[what].append(seconds)
                time.sleep(POLL_S)


def stop(studio: Studio) -> None:
    """End the studio (killed if it has not ended 10 s after being asked to)."""
    studio.process.terminate()
    try:
        studio.process.wait(10)
    except subprocess.TimeoutExpired:
        studio.process.kill()
        studio.process.wait(10)


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def drop_to_first_sheet(studio: Studio, photos: list[Path], poller: Poller) -> dict[str, float]:
    """Drop the photos on the page; seconds until the checks end and until sheet 1 is drawn."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        page = browser.new_context(viewport={"width": 1280, "height": 800}, bypass_csp=True).new_page()
        page.goto(studio.link)
        page.wait_for_selector("body[data-ready]")
        poller.checking.set()
        start = time.perf_counter()
        page.set_input_files("#file-input", [str(p) for p in photos])
        page.wait_for_function("document.querySelectorAll('#grid .tile').length >= 57", timeout=600_000, polling=100)
        checked_s = time.perf_counter() - start
        poller.checking.clear()
        page.wait_for_function(
            "document.getElementById('deck-line').textContent.startsWith('57 cards') && "
            "document.getElementById('preview-note').textContent.startsWith('drawn')",
            timeout=600_000,
            polling=100,
        )
        sheet_s = time.perf_counter() - start
        browser.close()
    return {"checked": checked_s, "sheet": sheet_s}


def run(photo_dir: Path) -> list[str]:
    make_photos(photo_dir)
    photos = sorted(photo_dir.iterdir())
    source_mb = sum(p.stat().st_size for p in photos) / 1e6
    load = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="printdeck-bench-busy-") as work:
        env = {**os.environ, "PRINTDECK_CACHE_DIR": str(Path(work) / "cache")}
        studio = Studio(Path(work) / "family", env)
        poller = Poller(studio)
        poller.start()
        try:
            seconds = drop_to_first_sheet(studio, photos, poller)
        finally:
            poller.stop.set()
            poller.join()
            stop(studio)
    lines = [
        f"load average before the run: {load[0]:.1f} (1 min), {load[1]:.1f} (5 min) on {os.cpu_count()} cores",
        f"57 phone photos ({source_mb:.0f} MB) dropped on the page: every tile shown after "
        f"{seconds['checked']:.1f} s, sheet 1 drawn after **{seconds['sheet']:.1f} s**",
    ]
    for what, values in poller.seconds.items():
        if values:
            lines.append(
                f"`GET /api/{what}` every 100 ms while the photos are checked: {len(values)} asked, "
                f"max **{max(values):.3f} s**, p95 {p95(values):.3f} s, median {statistics.median(values):.3f} s"
            )
    return lines


def append_results(lines: list[str]) -> None:
    intro = (
        "`python bench/bench_studio_busy.py --append`: `python -m printdeck.studio` on a new folder, every "
        "cache empty; 57 twelve-megapixel phone photos (bench_photos.py's) given to the page's file picker "
        "in Chromium; a second client asks for the state and the preview every 100 ms meanwhile. "
        "Target: state and preview < 0.3 s while the photos are checked."
    )
    text = f"\n## Studio while checking photos (issue 28), {time.strftime('%Y-%m-%d %H:%M')}\n\n"
    text += textwrap.fill(intro, 92) + "\n\n" + "".join(f"- {line}\n" for line in lines)
    with (REPO / "bench" / "RESULTS.md").open("a", encoding="utf-8") as handle:
        handle.write(text)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--photos", type=Path, default=Path("/tmp/printdeck-bench-photos/photos"))
    parser.add_argument("--append", action="store_true")
    args = parser.parse_args()
    if not CHROMIUM.exists():
        raise SystemExit(f"{CHROMIUM} is not installed: this benchmark drives the page in Chromium")
    lines = run(args.photos)
    print("\n".join(lines))
    if args.append:
        append_results(lines)


if __name__ == "__main__":
    main()
