"""How long theme loading (with every file checked) takes: bundled themes, a folder of
57 phone-sized JPEG photos, and prepared_image for a photo with background removal.

Run: python bench/bench_theme.py
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from PIL import Image, ImageDraw

from printdeck.artwork import prepared_picture as prepared_image
from printdeck.theme import bundled_theme_names, load_theme


def _timed(label: str, fn, repeat: int = 3) -> None:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    print(f"{label:<48} {best * 1000:8.1f} ms")


def _photos(folder: Path, n: int, size: tuple[int, int]) -> None:
    folder.mkdir()
    for i in range(n):
        image = Image.new("RGB", size, (230, 232, 235))
        ImageDraw.Draw(image).ellipse(
            (size[0] // 4, size[1] // 5, 3 * size[0] // 4, 4 * size[1] // 5), fill=(i * 4 % 256, 90, 160)
        )
        image.save(folder / f"photo_{i:02d}.jpg", quality=90)


def main() -> None:
    for name in bundled_theme_names():
        _timed(f"load_theme({name!r}), files checked", lambda n=name: load_theme(n))
        _timed(f"load_theme({name!r}, check_files=False)", lambda n=name: load_theme(n, check_files=False))
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        _photos(folder / "photos", 57, (4000, 3000))
        (folder / "theme.yaml").write_text("deck: {symbols_per_card: 8}\nsymbols: [{photo: photos}]\n")
        _timed("57 JPEG photos of 12 Mpx, files checked", lambda: load_theme(folder), repeat=1)
        theme = load_theme(folder)
        symbol = theme.symbols[0]
        _timed("prepared_image(photo, 512 px)", lambda: prepared_image(symbol, 512))
        cleared = type(symbol)(**{**symbol.__dict__, "remove_background": True})
        _timed("prepared_image(photo, 512 px, remove_background)", lambda: prepared_image(cleared, 512))


if __name__ == "__main__":
    main()
