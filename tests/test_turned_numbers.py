"""Numbers that read as another number upside down (6 and 9, 18 and 81) print underlined:
round cards have no top, and a child across the table sees a card upside down. Counted on
the printed PDF's and PNGs' pixels: a flat bar under each such number, none under others."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest
import yaml
from fontconfig_env import skip_without_font_for
from PIL import Image

import printdeck
from printdeck.artwork import reads_turned
from printdeck.render import page_image

TURNED = ["6", "9", "16", "18", "81"]
PLAIN = ["7", "4"]
DPI = 150


def test_a_number_that_reads_as_another_upside_down_is_found() -> None:
    assert [reads_turned(w) for w in ("6", "9", "16", "18", "81", "86", "19", "106", " 6 ")] == [
        "9", "6", "91", "81", "18", "98", "61", "901", "9",
    ]  # fmt: skip
    for same_or_no_number in ("69", "96", "88", "8", "11", "0", "101", "10", "60", "12", "6.", "6 × 9", "sun", ""):
        assert reads_turned(same_or_no_number) is None, same_or_no_number


def test_arabic_indic_seven_and_eight_read_as_each_other_turned() -> None:
    """A teacher's Arabic times tables: ٧ (7) is a V and ٨ (8) a Λ, so either turned half
    round reads as the other, and printed without a bar (١ × ٧ and ٢ × ٤ both in the deck)."""
    assert [reads_turned(w) for w in ("٧", "٨", "١٨", "١٧", "٥٧", "۷", "۱۸")] == ["٨", "٧", "٧١", "٨١", "٨٥", "۸", "۷۱"]
    for same_or_no_number in ("٧٨", "٨٧", "١", "٥", "٠", "١٠", "٧٠", "٢", "٦", "٩", "١٢", "۵", "۷۸", "٧ × ٨"):
        assert reads_turned(same_or_no_number) is None, same_or_no_number


def test_an_arabic_seven_prints_with_its_bar(tmp_path: Path) -> None:
    """Counted on the printed page, as the Western digits are: ٧ and ١٨ get a bar, ٣ none."""
    skip_without_font_for("٧٨١٣٢٤")
    _build_numbers(tmp_path, "arabic", ["٧", "٨", "١٨", "٣", "٢", "٤", "٣٢"], lang="ar")
    manifest = json.loads((tmp_path / "arabic.json").read_text(encoding="utf-8"))
    names = {s["id"]: s["name"] for s in manifest["symbols"]}
    pdf = (tmp_path / "arabic.pdf").read_bytes()
    for card in manifest["cards"]:
        want = sum(names[s["id"]] in ("٧", "٨", "١٨") for s in card["symbols"])
        page = np.asarray(page_image(pdf, card["page"] - 1, DPI / 72).convert("RGB")).astype(np.uint8)
        assert _bars(page) == want, f"card {card['index'] + 1}: {[names[s['id']] for s in card['symbols']]}"


def _build_numbers(folder: Path, name: str, words: list[str], lang: str | None = None, **build: object) -> None:
    """Build ``folder/<name>.pdf`` (and its manifest): ``words`` three a card, black, upright,
    one card a page; ``build``: more of :func:`printdeck.build`'s arguments (PNGs)."""
    text: dict[str, object] = {"colors": ["#000000"], **({"lang": lang} if lang else {})}
    theme = {
        "name": name,
        "seed": 5,
        "deck": {"symbols_per_card": 3},
        "card": {"diameter": "70mm"},
        "layout": {"rotation": 0},
        "text": text,
        "paper": {"layout": "single"},
        "symbols": [{"text": w} for w in words],
    }
    (folder / f"{name}.yaml").write_text(yaml.safe_dump(theme, allow_unicode=True), encoding="utf-8")
    printdeck.build(folder / f"{name}.yaml", out=folder / f"{name}.pdf", **build)  # type: ignore[arg-type]


def _bars(rgb: np.ndarray) -> int:
    """Flat solid bars among the ink of ``rgb`` ``(H, W, 3)``: parts (8-connected) at least four
    times as wide as tall that fill their box. Digits' parts are none of them."""
    ink = (rgb.min(axis=2) < 128).astype(np.uint8)
    _, _, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    found = 0
    for w, h, area in stats[1:, [cv2.CC_STAT_WIDTH, cv2.CC_STAT_HEIGHT, cv2.CC_STAT_AREA]]:
        if h >= 2 and w >= 4 * h and area >= 0.85 * w * h:
            found += 1
    return found


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    folder = tmp_path_factory.mktemp("turned")
    _build_numbers(folder, "turned", TURNED + PLAIN, png_dir=folder / "pngs", dpi=DPI)
    return folder, json.loads((folder / "turned.json").read_text(encoding="utf-8"))


def _turned_on(card: dict, names: dict[int, str]) -> int:
    return sum(names[s["id"]] in TURNED for s in card["symbols"])


def test_each_printed_number_that_reads_turned_has_a_bar_under_it(built: tuple[Path, dict]) -> None:
    folder, manifest = built
    names = {s["id"]: s["name"] for s in manifest["symbols"]}
    pdf = (folder / "turned.pdf").read_bytes()
    assert sum(_turned_on(card, names) for card in manifest["cards"]) > 0
    for card in manifest["cards"]:
        want = _turned_on(card, names)
        page = np.asarray(page_image(pdf, card["page"] - 1, DPI / 72).convert("RGB")).astype(np.uint8)
        assert _bars(page) == want, f"PDF card {card['index'] + 1}"
        png = np.asarray(Image.open(folder / "pngs" / f"card-{card['index'] + 1:03d}.png").convert("RGB"))
        assert _bars(png) == want, f"PNG card {card['index'] + 1}"


def test_the_bar_is_traced_into_the_silhouette_the_packer_keeps_clear() -> None:
    """The bar is the word's own ink: traced into its silhouette, and the collision outline
    reaches over the gap above it, so no other symbol is packed between a 6 and its bar."""
    import shapely

    from printdeck.artwork import UNDERLINE_EM, UNDERLINE_GAP_EM, drawing, silhouette
    from printdeck.model import SymbolSpec

    six = SymbolSpec(id=0, name="6", kind="text", source="text:6", text="6")
    art, traced = drawing(six), silhouette(six)
    height_em = art.word.ink_em[3] - art.word.ink_em[1]
    bar_y = -0.5 + UNDERLINE_EM / 2.0 / height_em  # normalised box: 1 tall, centred
    gap_y = -0.5 + (UNDERLINE_EM + UNDERLINE_GAP_EM / 2.0) / height_em
    for x in (-0.3 * traced.aspect, 0.0, 0.3 * traced.aspect):
        assert traced.shape.contains(shapely.Point(x, bar_y)), x  # inked: the bar
        assert not traced.shape.contains(shapely.Point(x, gap_y)), x  # the clear space above it
        assert traced.outline.contains(shapely.Point(x, gap_y)), x  # kept clear with the word


def test_a_numbers_bar_is_not_counted_as_its_letters_height(tmp_path: Path) -> None:
    """The "word under 5 mm" check measured a number's box with its bar and the gap above
    it, 0.16 em more than its digits: an underlined 6 whose digit printed 4.3 mm passed."""
    from printdeck.artwork import drawing, letters_share
    from printdeck.model import CardLayout, Placement, SymbolSpec
    from printdeck.render import SmallWordWarning, check_word_heights

    six, seven = (SymbolSpec(id=k, name=w, kind="text", source=f"text:{w}", text=w) for k, w in enumerate("67"))
    share = letters_share(drawing(six).word, "6")
    assert 0.75 < share < 0.9 and letters_share(drawing(seven).word, "7") == 1.0
    placements = tuple(Placement(s.id, (0.0, 0.0), 0.0, (3.0, 5.2)) for s in (six, seven))
    layout = CardLayout(index=0, placements=placements, coverage=0.1, min_gap_mm=1.0, size_ratio=1.0)
    with pytest.warns(SmallWordWarning, match=r"'6' \(4\.[0-9] mm\)") as said:
        heights = check_word_heights([six, seven], [layout])
    assert "'7'" not in str(said[0].message)  # 5.2 mm of letters
    assert heights[six.id] == pytest.approx(5.2 * share) and heights[seven.id] == 5.2
