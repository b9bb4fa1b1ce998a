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
