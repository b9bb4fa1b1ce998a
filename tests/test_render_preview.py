"""The preview contact sheet and the ``printdeck preview`` command."""

from __future__ import annotations

import numpy as np
import pytest
from test_layout_support import deck_cards

from printdeck.deck_preview import write_preview
from printdeck.errors import PrintdeckError
from printdeck.layout import LayoutSettings, layout_deck
from printdeck.render import card_image, contact_sheet
from printdeck.theme import load_theme


def test_contact_sheet_tiles_cards_with_artwork() -> None:
    theme = load_theme(None)
    settings = LayoutSettings.from_theme(theme)
    cards = deck_cards(theme.symbols, 7)[:5]
    layouts = layout_deck(cards, settings, seed=1)
    sheet = contact_sheet(layouts, cards, 85.0, settings.safe_radius_mm, px_per_mm=2.0, columns=4)
    tile = card_image(layouts[0], cards[0], 85.0, settings.safe_radius_mm, 2.0)
    assert sheet.size == (4 * tile.width, 2 * tile.height)
    rgb = np.asarray(sheet.convert("RGB")).astype(int)
    first = rgb[: tile.height, : tile.width]
    coloured = (np.abs(first - first.mean(axis=2, keepdims=True)).max(axis=2) > 40).mean()
    assert coloured > 0.08  # the emoji are drawn (an empty card disc scores 0)
    assert (rgb[tile.height :, 3 * tile.width :] == 0xEE).all()  # the empty eighth slot stays sheet-grey


def test_write_preview_checks_arguments(tmp_path) -> None:
    with pytest.raises(PrintdeckError, match=r"^cards: expected 1 or more") as caught:  # the argument, not --cards
        write_preview(None, tmp_path / "a.png", count=0)
    assert (caught.value.key, caught.value.value, caught.value.is_argument) == ("cards", 0, True)
    with pytest.raises(PrintdeckError, match=r"\.png") as caught:
        write_preview(None, tmp_path / "a.pdf", count=2)
    assert (caught.value.key, caught.value.is_argument) == ("out", True)


def test_preview_command_writes_png(tmp_path) -> None:
    pytest.importorskip("printdeck.pipeline", reason="needs the build pipeline")
    design = pytest.importorskip("printdeck.design")
    if not hasattr(design, "make_design"):
        pytest.skip("printdeck.design.make_design not written yet")
    from click.testing import CliRunner

    from printdeck.cli import main

    out = tmp_path / "sheet.png"
    result = CliRunner().invoke(main, ["preview", "-o", str(out), "--cards", "4", "--seed", "3"])
    assert result.exit_code == 0, result.output
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    bad = CliRunner().invoke(main, ["preview", "no-such-theme", "-o", str(out)])
    assert bad.exit_code == 2 and bad.output.count("\n") == 1 and "printdeck: error:" in bad.output


def test_the_preview_draws_cards_in_the_themes_colour(tmp_path) -> None:
    """A designer's light-blue cards came out white in ``preview`` (and a white icon vanished)."""
    from PIL import Image

    theme = tmp_path / "blue.yaml"
    theme.write_text(
        "name: blue\ndeck: {symbols_per_card: 3}\ncard: {diameter: 60mm, background: '#8ecae6'}\n"
        "symbols:\n"
        + "".join(
            f"  - '@assets/twemoji/{n}.svg'\n" for n in ("apple", "anchor", "ant", "banana", "bell", "drum", "key")
        )
    )
    write_preview(theme, tmp_path / "p.png", count=2, px_per_mm=2.0)
    rgb = np.asarray(Image.open(tmp_path / "p.png").convert("RGB")).astype(int)
    card_blue = (np.abs(rgb - np.array([0x8E, 0xCA, 0xE6])).max(axis=2) < 6).mean()
    assert card_blue > 0.15, card_blue  # much of each card's disc, around its symbols


def _preview(out, *more: str):
    """``printdeck preview -o out`` of the default theme's first two cards, at 1 px/mm."""
    from click.testing import CliRunner

    from printdeck.cli import main

    return CliRunner().invoke(main, ["preview", "-o", str(out), "--cards", "2", "--dpmm", "1", *more])


def _photo(path) -> bytes:
    """A photo-like PNG of one's own at ``path`` (Pillow's plain PNG, no metadata: as bare as
    an older preview); its bytes."""
    from PIL import Image

    pixels = np.random.default_rng(7).integers(0, 256, (87, 174, 3), dtype=np.uint8)
    Image.fromarray(pixels).save(path, format="PNG")
    return path.read_bytes()


def test_preview_replaces_its_own_png_and_no_one_elses(tmp_path) -> None:
    """``preview -o holiday.png`` replaced a user's own holiday.png without a word; its own
    preview is still replaced, and so is one an older printdeck wrote (no mark in it)."""
    from PIL import Image

    theirs = tmp_path / "holiday.png"
    before = _photo(theirs)
    refused = _preview(theirs)
    assert refused.exit_code == 2 and refused.stderr.count("\n") == 1 and "Traceback" not in refused.output
    assert refused.stderr == (
        f"printdeck: error: -o {theirs}: holiday.png is there already and printdeck did not write it; "
        "move it away or choose another -o\n"
    )
    assert theirs.read_bytes() == before
    ours = tmp_path / "preview.png"
    for seed in ("1", "2"):
        assert _preview(ours, "--seed", seed).exit_code == 0
    assert Image.open(ours).info["Software"].startswith("printdeck")
    older = tmp_path / "older.png"  # as printdeck wrote a preview before it marked them
    Image.fromarray(np.asarray(Image.open(ours).convert("RGB"))).save(older, format="PNG", optimize=False)
    assert "Software" not in Image.open(older).info
    assert _preview(older, "--seed", "3").exit_code == 0, "an older printdeck's preview is replaced"
    assert Image.open(older).info["Software"].startswith("printdeck")


@pytest.mark.parametrize("kind", ["grey", "jpeg", "text", "screenshot"])
def test_preview_refuses_a_picture_that_only_looks_like_a_sheet(tmp_path, kind: str) -> None:
    """A plain grey picture the size of a sheet, a JPEG or a note named ``.png``, a
    screenshot of a page on the sheet's very grey are not printdeck's: none is replaced."""
    from PIL import Image, ImageDraw

    theirs = tmp_path / "mine.png"
    if kind == "text":
        theirs.write_text("not a picture at all\n")
    elif kind == "screenshot":  # four 200-pixel squares' worth of grey page, a white box and words on it
        shot = Image.new("RGB", (800, 200), (0xEE, 0xEE, 0xEE))
        ImageDraw.Draw(shot).rectangle((20, 30, 380, 150), fill="white")
        ImageDraw.Draw(shot).text((40, 60), "Class 3B: our trip to the farm", fill="black")
        shot.save(theirs, format="PNG")
    else:
        Image.new("RGB", (174, 87), (0xEE, 0xEE, 0xEE)).save(theirs, format="PNG" if kind == "grey" else "JPEG")
    before = theirs.read_bytes()
    refused = _preview(theirs)
    assert refused.exit_code == 2 and "mine.png is there already and printdeck did not write it" in refused.stderr
    assert theirs.read_bytes() == before


def test_a_large_png_printdeck_marked_is_its_own_to_replace(tmp_path) -> None:
    """A preview of 64 cards at 20 px/mm (6960 x 27840 pixels) is over Pillow's pixel-count
    guard, which ``Image.open`` raises on: its mark is read without it, so printdeck's own
    large preview is replaced and a large unmarked one is still refused."""
    import struct
    import zlib

    from printdeck.errors import PrintdeckError
    from printdeck.output_record import check_png_path

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    head = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 6960, 27840, 8, 2, 0, 0, 0))
    tail = chunk(b"IDAT", zlib.compress(b"\0" * 64)) + chunk(b"IEND", b"")
    ours, theirs = tmp_path / "ours.png", tmp_path / "theirs.png"
    ours.write_bytes(head + chunk(b"tEXt", b"Software\0printdeck") + tail)
    theirs.write_bytes(head + tail)
    check_png_path(ours)
    with pytest.raises(PrintdeckError, match=r"theirs\.png is there already and printdeck did not write it"):
        check_png_path(theirs)
