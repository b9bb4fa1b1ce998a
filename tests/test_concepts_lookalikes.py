"""Look-alikes (issue 24): symbols players cannot tell apart are refused, judged on their drawings.

True look-alikes (rescaled, turned, mirrored, tinted by one level, the same word in two fonts,
a word spelt in look-alike letters) are refused, naming both; the bundled themes and 30
distinct Twemoji are accepted; CIEDE2000 matches Sharma, Wu and Dalal's (2005) test data.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from PIL import Image, ImageDraw
from test_theme_support import refusals_of_check_and_build, write_theme

import printdeck
from printdeck import load_theme
from printdeck.artwork import Vision, ciede2000, default_face, rasterise, simulate, srgb_to_lab
from printdeck.artwork.fonts import bundled_faces
from printdeck.cli import main as cli_main
from printdeck.model import SymbolSpec
from printdeck.resources import data_root
from printdeck.theme import bundled_theme_names, look_alikes

SHARMA = Path(__file__).parent / "fixtures" / "ciede2000-sharma-2005.txt"
TWEMOJI = data_root("assets") / "twemoji"


def test_ciede2000_matches_sharma_2005_test_data() -> None:
    data = np.loadtxt(SHARMA)
    assert data.shape == (34, 7)
    assert np.allclose(ciede2000(data[:, :3], data[:, 3:6]), data[:, 6], atol=1e-4)
    assert np.allclose(ciede2000(data[:, 3:6], data[:, :3]), data[:, 6], atol=1e-4)  # symmetric


def test_colour_vision_simulation_merges_red_and_green_for_deuteranopia() -> None:
    red, green = np.array([0.82, 0.19, 0.19]), np.array([0.23, 0.54, 0.23])
    assert ciede2000(srgb_to_lab(red), srgb_to_lab(green)) > 50
    seen = [srgb_to_lab(simulate(c, Vision.DEUTERANOPIA)) for c in (red, green)]
    assert ciede2000(*seen) < 12
    grey = simulate(np.array([0.5, 0.2, 0.9]), Vision.GREY)
    assert np.allclose(grey, grey[0])


def _disc(path: Path, size: int, colour: tuple[int, int, int]) -> None:
    image = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    ImageDraw.Draw(image).ellipse((size * 0.1, size * 0.1, size * 0.9, size * 0.9), fill=(*colour, 255))
    image.save(path)


def _fixture_theme(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    _disc(folder / "disc-1500.png", 1500, (200, 30, 30))
    _disc(folder / "disc-500.png", 500, (200, 30, 30))
    _disc(folder / "disc-tint.png", 600, (201, 30, 30))  # one level of red
    _disc(folder / "disc-blue.png", 600, (30, 60, 200))  # the same disc in another colour: distinct
    rabbit = rasterise(SymbolSpec(id=0, name="rabbit", kind="svg", source="r", path=TWEMOJI / "rabbit.svg"), 400, 400)
    rabbit.save(folder / "rabbit.png")
    rabbit.transpose(Image.Transpose.FLIP_LEFT_RIGHT).save(folder / "rabbit-mirrored.png")
    rabbit.rotate(70, expand=True).save(folder / "rabbit-turned.png")
    symbols = [{"image": f.name} for f in sorted(folder.glob("*.png"))] + [{"text": "coca"}, {"text": "соса"}]
    turning = {"rotation": "any"}  # a deck with words turns 30° unless it says (the rabbit is turned 70°)
    return write_theme(folder, {"deck": {"symbols_per_card": 3}, "layout": turning, "symbols": symbols})


def test_true_look_alikes_are_refused_naming_both(tmp_path: Path) -> None:
    theme = load_theme(_fixture_theme(tmp_path))
    pairs = {tuple(sorted((p.first, p.second))) for p in look_alikes(theme)}
    assert pairs == {
        ("disc 1500", "disc 500"),
        ("disc 1500", "disc tint"),
        ("disc 500", "disc tint"),
        ("rabbit", "rabbit mirrored"),
        ("rabbit", "rabbit turned"),
        ("rabbit mirrored", "rabbit turned"),
        ("coca", "соса"),  # Cyrillic letters drawn as the Latin ones
    }
    reasons = {tuple(sorted((p.first, p.second))): p.reason() for p in look_alikes(theme)}
    assert "mirrored" in reasons[("rabbit", "rabbit mirrored")]
    assert "turned 70°" in reasons[("rabbit", "rabbit turned")]
    assert "spell the same" in reasons[("coca", "соса")]
    result = CliRunner().invoke(cli_main, ["check", str(tmp_path)])
    assert result.exit_code == 2
    assert "'disc 1500' and 'disc 500' look alike" in result.output and "--allow-look-alike" in result.output
    out = tmp_path / "deck.pdf"
    refused = CliRunner().invoke(cli_main, ["build", str(tmp_path), "-o", str(out)])
    assert refused.exit_code == 2 and not out.exists()
    allowed = CliRunner().invoke(cli_main, ["check", str(tmp_path), "--allow-look-alike"])
    assert allowed.exit_code == 0 and "warning: symbols: 'disc 1500' and 'disc 500' look alike" in allowed.output


def _scene(path: Path, sky: tuple[int, int, int], ground: tuple[int, int, int]) -> Image.Image:
    """A square picture with nothing see-through (a photo's silhouette: the whole square),
    its sun in the top left and its house on the right, so its mirror image and its turned
    copies differ from it everywhere but in outline."""
    image = Image.new("RGB", (400, 400), sky)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 260, 400, 400), fill=ground)
    draw.ellipse((40, 40, 140, 140), fill=(250, 200, 40))
    draw.rectangle((250, 170, 360, 300), fill=(180, 40, 40))
    image.save(path)
    return image


@pytest.mark.parametrize("kind", ["image", "photo"])
def test_a_square_picture_mirrored_or_turned_is_refused(tmp_path: Path, kind: str) -> None:
    """Pictures whose outline is one square (or, as photos, one disc) fit each other in
    every pose: the pose compared is the one where the pictures match, so a mirrored copy
    (and, for a picture the layout turns, a turned one) is refused; another scene is not."""
    scene = _scene(tmp_path / "scene.png", (120, 180, 240), (60, 160, 60))
    scene.transpose(Image.Transpose.FLIP_LEFT_RIGHT).save(tmp_path / "scene-mirrored.png")
    scene.rotate(90).save(tmp_path / "scene-turned.png")
    _scene(tmp_path / "other.png", (60, 160, 60), (120, 180, 240)).transpose(Image.Transpose.FLIP_TOP_BOTTOM)
    pictures = ["scene.png", "scene-mirrored.png", "other.png"] + (["scene-turned.png"] if kind == "image" else [])
    words = [{"text": w} for w in ["bird", "fish", "frog", "hen", "cow", "pig"]][: 7 - len(pictures)]
    symbols = [{kind: p} for p in pictures] + words  # words: rotation any said, as the 90° turn needs it
    write_theme(tmp_path, {"deck": {"symbols_per_card": 3}, "layout": {"rotation": "any"}, "symbols": symbols})
    pairs = {tuple(sorted((p.first, p.second))) for p in look_alikes(load_theme(tmp_path))}
    expected = {("scene", "scene mirrored")}
    if kind == "image":  # turned by the layout (photos stay upright)
        expected |= {("scene", "scene turned"), ("scene mirrored", "scene turned")}
    assert pairs == expected


def test_the_same_word_in_two_fonts_looks_alike() -> None:
    fonts = [f for f in bundled_faces() if f.path.name.startswith(("Vera", "NotoSans-"))]
    assert len(fonts) == 2
    words = [
        SymbolSpec(id=i, name=f"cat ({f.path.stem})", kind="text", source="text:cat", text="cat", font_path=f.path)
        for i, f in enumerate(fonts)
    ]
    theme = load_theme({"deck": {"symbols_per_card": 3}, "symbols": [{"text": w} for w in "abcdefg"]})
    assert [(p.first, p.second) for p in look_alikes(theme, words)] == [(words[0].name, words[1].name)]
    assert default_face().path.name == "Vera.ttf"


def test_faces_of_one_symbol_may_look_alike_but_not_of_two(tmp_path: Path) -> None:
    _disc(tmp_path / "red.png", 300, (200, 30, 30))
    _disc(tmp_path / "red-too.png", 320, (200, 31, 30))
    _disc(tmp_path / "red-again.png", 340, (199, 30, 30))
    words = [{"text": w} for w in ["bird", "fish", "frog", "hen", "cow"]]
    one = {"faces": [{"image": "red.png"}, {"image": "red-too.png"}]}
    write_theme(tmp_path, {"deck": {"symbols_per_card": 3}, "symbols": [one, *words, {"text": "pig"}]})
    assert look_alikes(load_theme(tmp_path)) == []
    other = {"faces": [{"image": "red-again.png"}, {"text": "rojo"}]}
    write_theme(tmp_path, {"deck": {"symbols_per_card": 3}, "symbols": [one, other, *words]})
    pairs = look_alikes(load_theme(tmp_path))
    assert [p.second for p in pairs] == ["red again = rojo (face 1: red again)"] * 2


def test_p_and_d_turned_apart_are_told_to_keep_upright(tmp_path: Path) -> None:
    """p and d are alike only turned 180°: the refusal names the fix that keeps both, a
    smaller layout.rotation, which indeed lets the deck through. 6 and 9 print underlined
    (a number that reads as another upside down), so turned any way they are told apart."""
    from click.testing import CliRunner

    from printdeck.cli import main

    symbols = [{"text": w} for w in ["p", "d", "cat", "dog", "sun", "moon", "tree"]]
    path = write_theme(tmp_path, {"deck": {"symbols_per_card": 3}, "layout": {"rotation": "any"}, "symbols": symbols})
    refused = CliRunner().invoke(main, ["check", str(path)])
    assert refused.exit_code == 2 and "turned 180°" in refused.output
    assert "; keep symbols nearer upright (layout.rotation: 30), which tells them apart; or change" in refused.output
    write_theme(tmp_path, {"deck": {"symbols_per_card": 3}, "layout": {"rotation": 30}, "symbols": symbols})
    assert CliRunner().invoke(main, ["check", str(path)]).exit_code == 0
    numbers = [{"text": w} for w in ["6", "9", "cat", "dog", "sun", "moon", "tree"]]
    write_theme(tmp_path, {"deck": {"symbols_per_card": 3}, "layout": {"rotation": "any"}, "symbols": numbers})
    told_apart = CliRunner().invoke(main, ["check", str(path)])
    assert told_apart.exit_code == 0, told_apart.output


@pytest.mark.parametrize("name", bundled_theme_names())
def test_bundled_themes_have_no_look_alikes(name: str) -> None:
    assert look_alikes(load_theme(name)) == []


def test_thirty_distinct_twemoji_are_accepted(tmp_path: Path) -> None:
    names = sorted(p.name for p in TWEMOJI.glob("*.svg"))[::5][:30]
    assert len(names) == 30
    theme = {"deck": {"symbols_per_card": 6}, "symbols": [{"image": f"@assets/twemoji/{n}"} for n in names]}
    theme["symbols"].append({"text": "sun"})
    assert look_alikes(load_theme(theme)) == []
    report = printdeck.check_theme(theme)
    assert report.symbols_offered == 31


def test_a_refusal_of_two_names_that_read_the_same_says_which_entries(tmp_path: Path) -> None:
    """'Ill' and '1ll' read as one name twice: the refusal names the theme file and the two
    entries' keys. ('café' typed with its accent apart is the same word, refused as one.)"""
    words = ["Ill", "1ll", "bird", "fish", "frog", "hen", "cow"]
    path = write_theme(tmp_path, {"deck": {"symbols_per_card": 3}, "symbols": [{"text": w} for w in words]})
    refused = CliRunner().invoke(cli_main, ["check", str(path)])
    assert refused.exit_code == 2
    assert f"{path}: symbols: " in refused.output and "(symbols.0 and symbols.1)" in refused.output


def test_a_capital_alphabet_is_accepted_and_one_ell_one_is_not() -> None:
    """A teacher's alphabet deck was refused: 'I' and 'L' "spell the same to the eye",
    because I was taken as l (as it is drawn in most faces) and L's case folded to l too.
    I stays one with l and 1, not with L."""
    letters = {"deck": {"symbols_per_card": 4}, "symbols": [{"text": c} for c in "ABCDEFGHIJKLM"]}
    assert look_alikes(load_theme(letters)) == []
    words = ["Ill", "1ll", "bird", "fish", "frog", "hen", "cow"]
    found = look_alikes(load_theme({"deck": {"symbols_per_card": 3}, "symbols": [{"text": w} for w in words]}))
    assert [(pair.first, pair.second) for pair in found] == [("Ill", "1ll")]


def test_check_and_build_name_a_pair_alike_in_one_order(tmp_path: Path) -> None:
    """``build`` compared the deck's symbols in its seed's order and named a pair the other
    way round from ``check`` ("symbols.12 and symbols.11"), against the README's promise of
    the same line. Both now name them in the theme's order."""
    words = ["dog", "cow", "pig", "hen", "fox", "owl", "bee", "ant", "elk", "yak", "emu", "Ill", "1ll"]
    path = write_theme(tmp_path, {"deck": {"symbols_per_card": 4}, "symbols": [{"text": w} for w in words]})
    said = refusals_of_check_and_build(path, tmp_path / "deck.pdf")
    assert said[0] == said[1] and "(symbols.11 and symbols.12)" in said[0], said


def test_every_pair_past_the_third_is_listed_above_the_line(tmp_path: Path) -> None:
    """The refusal named three pairs "and 4 more pairs", and nothing listed the four: a
    parent had to remove symbols blind. ``check`` and ``build`` now list every pair, numbered,
    above the one line (which stays last), refused or allowed; the line itself is unchanged."""
    theme = load_theme(_fixture_theme(tmp_path / "pictures"))
    alike = ["Ill", "1ll", "lI1", "l1l", "I1I"]  # five words in look-alike letters: ten pairs
    (tmp_path / "words").mkdir()
    words = write_theme(
        tmp_path / "words",
        {
            "deck": {"symbols_per_card": 4},
            "symbols": [{"text": w} for w in ["dog", "cow", "pig", "hen", "fox", "owl", "bee", "ant", *alike]],
        },
    )
    out = tmp_path / "deck.pdf"
    for args, count, last in (
        (["check", str(tmp_path / "pictures")], 7, "printdeck: error: "),
        (["check", str(tmp_path / "pictures"), "--allow-look-alike"], 7, "printdeck: warning: symbols: "),
        (["build", str(words), "-o", str(out)], 10, "printdeck: error: "),
    ):
        result = CliRunner().invoke(cli_main, args)
        lines = result.stderr.splitlines()
        at = lines.index(f"printdeck: the {count} pairs that look alike:")
        listed = lines[at + 1 : at + 1 + count]
        assert [line.split(". ", 1)[0].strip() for line in listed] == [str(k) for k in range(1, count + 1)], lines
        assert lines[at + 1 + count].startswith(last) and f"and {count - 3} more pairs" in lines[at + 1 + count], lines
        if last.endswith("error: "):
            assert result.exit_code == 2 and lines[-1] == lines[at + 1 + count] and not out.exists()
        if count == 7:
            reasons = sorted(p.reason() for p in look_alikes(theme))
            items = sorted(line.split(". ", 1)[1] for line in listed)  # a same-reading pair adds its keys
            assert all(item.startswith(reason) for item, reason in zip(items, reasons, strict=True)), items
        else:
            assert all(sum(f"'{w}'" in line for w in alike) == 2 for line in listed), listed
