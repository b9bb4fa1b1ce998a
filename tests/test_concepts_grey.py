"""Grey decks and colour-vision warnings (issue 24): a DeviceGray PDF, words kept apart by
lightness, and symbols that become look-alikes in grey or for colour-blind players named."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pypdfium2
from click.testing import CliRunner
from PIL import Image, ImageDraw
from pypdf import PdfReader
from pypdf.generic import IndirectObject
from test_theme_support import write_theme

import printdeck
from printdeck.artwork import grey_level
from printdeck.cli import main as cli_main


def _disc(path: Path, colour: tuple[int, int, int], alpha: bool = True) -> None:
    image = Image.new("RGBA" if alpha else "RGB", (400, 400), (0, 0, 0, 0) if alpha else (255, 255, 255))
    ImageDraw.Draw(image).ellipse((40, 40, 360, 360), fill=colour)
    image.save(path)


def _same_grey_green(red: tuple[int, int, int]) -> tuple[int, int, int]:
    """A green of the same luminance as ``red``."""
    target = grey_level(np.array(red) / 255.0)
    greens = [grey_level(np.array([0.1, g / 255.0, 0.1])) for g in range(256)]
    return (26, int(np.argmin(np.abs(np.array(greens) - target))), 26)


def _streams(reader: PdfReader) -> list[bytes]:
    """Every page's and every form's content, decompressed."""
    out = []
    seen: set[int] = set()

    def walk(resources: object) -> None:
        xobjects = resources.get("/XObject", {}) if hasattr(resources, "get") else {}
        for ref in xobjects.values() if hasattr(xobjects, "values") else ():
            key = ref.idnum if isinstance(ref, IndirectObject) else id(ref)
            obj = ref.get_object()
            if key in seen:
                continue
            seen.add(key)
            if obj.get("/Subtype") == "/Form":
                out.append(obj.get_data())
                walk(obj.get("/Resources", {}))

    for page in reader.pages:
        out.append(page.get_contents().get_data())
        walk(page.get("/Resources", {}))
    return out


def test_grayscale_build_is_devicegray_throughout(tmp_path: Path) -> None:
    _disc(tmp_path / "red.png", (200, 30, 30))
    Image.new("RGB", (300, 300), (240, 230, 140)).save(tmp_path / "photo.jpg")
    symbols = [{"image": "red.png"}, {"photo": "photo.jpg"}, {"image": "@assets/twemoji/cat.svg"}]
    symbols += [{"text": w} for w in ("sun", "moon", "star", "sky")]
    write_theme(tmp_path, {"deck": {"symbols_per_card": 3}, "symbols": symbols})
    result = printdeck.build(tmp_path, out=tmp_path / "grey.pdf", grayscale=True, legend=True, png_dir=tmp_path / "png")
    raw = result.pdf_path.read_bytes()
    assert b"DeviceRGB" not in raw and b"DeviceGray" in raw
    for stream in _streams(PdfReader(result.pdf_path)):
        ops = set(re.findall(rb"[\d.]\s+(rg|RG|k|K|scn|SCN|cs|CS)\b", stream))
        assert not ops, ops  # colours only by g / G
    document = pypdfium2.PdfDocument(str(result.pdf_path))
    page = np.asarray(document[0].render(scale=40 / 72).to_pil().convert("RGB"), dtype=np.int16)
    document.close()
    assert np.abs(page[..., 0] - page[..., 1]).max() <= 2 and np.abs(page[..., 1] - page[..., 2]).max() <= 2
    assert (page < 200).any()  # ink printed
    assert all(Image.open(p).mode in ("L", "LA") for p in result.png_paths)
    manifest = result.manifest_path.read_text(encoding="utf-8")
    colours = set(re.findall(r'"color": "(#[0-9a-f]{6})"', manifest))
    assert colours and colours <= set(printdeck.theme.GREY_WORD_PALETTE)


def test_colours_alike_in_grey_or_colour_blind_are_named(tmp_path: Path) -> None:
    red = (200, 40, 40)
    _disc(tmp_path / "red.png", red)
    _disc(tmp_path / "green.png", _same_grey_green(red))
    write_theme(
        tmp_path,
        {
            "deck": {"symbols_per_card": 3},
            "symbols": [{"image": "red.png"}, {"image": "green.png"}]
            + [{"text": w} for w in ("sun", "moon", "star", "sky", "sea")],
        },
    )
    plain = CliRunner().invoke(cli_main, ["check", str(tmp_path)])
    assert plain.exit_code == 0  # distinct in colour: a warning only
    assert "warning: symbols: 'red' and 'green' look alike when printed in grey" in plain.output
    grey = CliRunner().invoke(cli_main, ["check", str(tmp_path), "--grayscale"])
    assert grey.exit_code == 0  # the issue: check --grayscale warns, it does not refuse
    assert grey.output.count("'red' and 'green' look alike when printed in grey") == 1
    out = tmp_path / "g.pdf"
    built = CliRunner().invoke(cli_main, ["build", str(tmp_path), "--grayscale", "-o", str(out)])
    assert built.exit_code == 0 and out.is_file()
    assert "warning: symbols: 'red' and 'green' look alike when printed in grey" in built.output


def test_colour_blind_look_alikes_are_named(tmp_path: Path) -> None:
    red = (200, 40, 40)
    _disc(tmp_path / "red.png", red)
    _disc(tmp_path / "green.png", _same_grey_green(red))
    symbols = [{"image": "red.png"}, {"image": "green.png"}] + [
        {"text": w} for w in ("sun", "moon", "star", "sky", "sea")
    ]
    write_theme(tmp_path, {"deck": {"symbols_per_card": 3}, "symbols": symbols})
    result = CliRunner().invoke(cli_main, ["check", str(tmp_path), "--allow-look-alike"])
    assert result.exit_code == 0
    assert "'red' and 'green' look alike when printed in grey" in result.output
    assert "'red' and 'green' look alike for colour-blind players (red-green, deuteranopia)" in result.output
    # a grey deck is grey to every player: its grey warning, and no colour-blind one
    grey = CliRunner().invoke(cli_main, ["check", str(tmp_path), "--grayscale", "--allow-look-alike"])
    assert grey.exit_code == 0
    assert "'red' and 'green' look alike when printed in grey" in grey.output
    assert "deuteranopia" not in grey.output and "protanopia" not in grey.output
