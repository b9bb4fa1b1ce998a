"""A symbol whose edge is almost the card's colour (a white cat cut out, on a white card) is
warned about: the layout packs its whole silhouette, but players see only its eyes."""

from __future__ import annotations

import dataclasses
import json
import os
import warnings
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw

from printdeck.model import SymbolSpec
from printdeck.render import BackgroundWarning, FaintEdgeWarning, prove_symbols
from printdeck.render.cut_outs import BACKGROUND_PIECES
from printdeck.render.proof import FAINT_EDGE_SHARE, forget_proofs, proof, proof_key

TWEMOJI = Path(__file__).resolve().parent.parent / "assets" / "twemoji"


def _white_cat(
    path: Path, body: tuple[int, int, int] = (250, 249, 246), eyes: tuple[int, int, int] = (30, 30, 30)
) -> Path:
    """An RGBA cut-out: a body and head of ``body``'s colour, eyes of ``eyes``', a pink nose."""
    image = Image.new("RGBA", (600, 600), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.ellipse((100, 200, 500, 560), fill=(*body, 255))
    draw.ellipse((180, 60, 420, 300), fill=(*body, 255))
    draw.ellipse((240, 150, 270, 180), fill=(*eyes, 255))
    draw.ellipse((330, 150, 360, 180), fill=(*eyes, 255))
    draw.polygon([(290, 210), (310, 210), (300, 225)], fill=(220, 120, 130, 255))
    image.save(path)
    return path


def _cat_photo(
    folder: Path, wall: tuple[int, int, int] = (196, 200, 206), body: tuple[int, int, int] = (250, 249, 246)
) -> Path:
    """``rex.jpg``: the cat (white by default) against a plain wall (pale by default: its
    fringe is faint too), for ``remove_background``."""
    photo = Image.new("RGB", (800, 800), wall)
    cat = Image.open(_white_cat(folder / "cut.png", body=body))
    photo.paste(cat, (100, 100), cat)
    photo.save(folder / "rex.jpg", quality=92)
    return folder / "rex.jpg"


def _cut_out(path: Path) -> SymbolSpec:
    return SymbolSpec(id=0, name="rex", kind="photo", source=path.name, path=path, remove_background=True)


def test_a_white_cat_cut_out_of_a_blue_wall_is_warned_about_on_a_white_card(tmp_path: Path) -> None:
    """The user's white cat on a blue wall printed as eyes, a nose and a light-blue outline:
    the pixels blending fur and wall were kept at full opacity, and that tinted rim counted
    as an edge that shows (0.004 of the edge faint)."""
    rex = _cut_out(_cat_photo(tmp_path, wall=(60, 110, 200)))
    assert proof(rex, "#ffffff").faint_edge_share >= FAINT_EDGE_SHARE
    assert len(_faint_warnings([rex], "#ffffff")) == 1


@pytest.mark.parametrize("body", [(22, 24, 30), (230, 120, 30)], ids=["dark", "ginger"])
def test_a_dark_or_colourful_cat_cut_out_of_a_blue_wall_is_not(tmp_path: Path, body: tuple[int, int, int]) -> None:
    assert _faint_warnings([_cut_out(_cat_photo(tmp_path, wall=(60, 110, 200), body=body))], "#ffffff") == []


def _image(path: Path) -> SymbolSpec:
    return SymbolSpec(id=0, name=path.stem, kind="raster", source=path.name, path=path)


def _svg(tmp_path: Path, name: str, body: str) -> SymbolSpec:
    path = tmp_path / f"{name}.svg"
    path.write_text(f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">{body}</svg>')
    return SymbolSpec(id=0, name=name, kind="svg", source=path.name, path=path)


def _faint_warnings(symbols: list[SymbolSpec], background: str) -> list[str]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        prove_symbols(symbols, background, [f"symbols.{k}" for k in range(len(symbols))])
    return [str(w.message) for w in caught if issubclass(w.category, FaintEdgeWarning)]


def test_a_white_cut_out_on_a_white_card_is_warned_about_by_name_with_the_fix(tmp_path: Path) -> None:
    cat = _image(_white_cat(tmp_path / "snowy.png"))
    assert proof(cat, "#ffffff").faint_edge_share > 0.95
    (said,) = _faint_warnings([cat], "#ffffff")
    assert said == (
        "symbols.0: most of the edge of snowy.png is almost the card's colour #ffffff, so players may "
        "not see its shape; set card.background to a colour it stands out from"
    )


def test_a_drawing_on_white_with_no_transparency_is_told_to_become_a_cut_out(tmp_path: Path) -> None:
    """An orange tent drawn on a white square (no transparency) on a white card was told to
    set card.background: on a coloured card every copy then printed in a white box. The
    advice is now the one that works: a transparent background."""
    image = Image.new("RGB", (600, 600), "white")
    ImageDraw.Draw(image).polygon([(300, 80), (540, 520), (60, 520)], fill=(240, 120, 20))
    image.save(tmp_path / "tent.png")
    (said,) = _faint_warnings([_image(tmp_path / "tent.png")], "#ffffff")
    assert "card.background" not in said, said
    assert said.startswith("symbols.0: tent.png has no transparency, and its background is almost the card's colour")
    assert said.endswith("save it as a PNG with a transparent background (a cut-out)")


def test_the_same_cut_out_on_a_coloured_card_is_not(tmp_path: Path) -> None:
    cat = _image(_white_cat(tmp_path / "snowy.png"))
    assert proof(cat, "#dbe9f6").faint_edge_share < 0.1
    assert _faint_warnings([cat], "#dbe9f6") == []


def test_a_dark_cut_out_on_a_dark_card_is_warned_about_against_that_card(tmp_path: Path) -> None:
    cat = _image(_white_cat(tmp_path / "sooty.png", body=(22, 24, 30), eyes=(240, 200, 60)))
    assert _faint_warnings([cat], "#ffffff") == []
    assert len(_faint_warnings([cat], "#101418")) == 1


@pytest.mark.parametrize(
    "name, body",
    [
        ("outlined-disc", '<circle cx="50" cy="50" r="45" fill="#fff" stroke="#222" stroke-width="1.5"/>'),
        ("thin-ring", '<circle cx="50" cy="50" r="40" fill="none" stroke="#000" stroke-width="0.8"/>'),
        ("hairline-outline", '<circle cx="50" cy="50" r="45" fill="#fff" stroke="#000" stroke-width="0.3"/>'),
        ("fine-outline", '<rect x="8" y="20" width="84" height="60" fill="#fff" stroke="#000" stroke-width="0.6"/>'),
        ("light-grey", '<circle cx="50" cy="50" r="45" fill="#c8d0d8"/>'),
        (
            "dark-edge-white-inside",
            '<circle cx="50" cy="50" r="45" fill="#333"/><circle cx="50" cy="50" r="38" fill="#fff"/>',
        ),
    ],
)
def test_a_shape_whose_edge_shows_is_not_warned_about(tmp_path: Path, name: str, body: str) -> None:
    """A thin dark outline round white (its own antialiased rim blends with the card: each edge
    pixel's own colour is judged), light grey, and white inside a dark rim."""
    assert _faint_warnings([_svg(tmp_path, name, body)], "#ffffff") == []


def test_no_bundled_picture_is_warned_about_on_a_white_card() -> None:
    symbols = [
        SymbolSpec(id=k, name=p.stem, kind="svg", source=p.name, path=p)
        for k, p in enumerate(sorted(TWEMOJI.glob("*.svg")))
    ]
    assert len(symbols) > 150
    worst = max(symbols, key=lambda s: proof(s).faint_edge_share)
    assert proof(worst).faint_edge_share < FAINT_EDGE_SHARE, worst.name


def test_build_warns_once_and_names_remove_background_for_a_cut_out_photo(tmp_path: Path) -> None:
    from test_hostile_support import run_in_process

    _cat_photo(tmp_path)
    bundled = "".join(f"  - '@assets/twemoji/{n}.svg'\n" for n in ("apple", "anchor", "ant", "banana", "bell", "drum"))
    (tmp_path / "theme.yaml").write_text(
        f"name: t\ndeck: {{symbols_per_card: 3}}\nsymbols:\n  - photo: rex.jpg\n    remove_background: true\n{bundled}"
    )
    done = run_in_process(
        tmp_path,
        "build",
        "theme.yaml",
        "-o",
        "deck.pdf",
        "--quiet",
        environ={**os.environ, "PRINTDECK_CACHE_DIR": str(tmp_path / "c")},
    )
    assert done.code == 0, done.err
    lines = [line for line in done.err.splitlines() if "almost the card's colour" in line]
    assert lines == [
        "printdeck: warning: symbols.0 'rex': most of the edge of rex.jpg is almost the card's colour #ffffff, so "
        "players may not see its shape; set card.background to a colour it stands out from, or leave out "
        "remove_background (its own background then frames it)"
    ]


def test_a_photo_worker_leaves_the_warning_to_the_build(tmp_path: Path) -> None:
    """A cold photo deck proves each photo on a worker first: said there too, it would be said twice."""
    from printdeck.photo_work import _prepare_one

    path = _cat_photo(tmp_path)
    rex = SymbolSpec(id=0, name="rex", kind="photo", source=path.name, path=path, remove_background=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert _prepare_one(rex, "#ffffff")
    assert not [w for w in caught if issubclass(w.category, FaintEdgeWarning)]
    assert proof(rex, "#ffffff").faint_edge_share >= FAINT_EDGE_SHARE


def test_a_colouring_book_cut_out_with_a_thin_dark_outline_is_not_warned_about(tmp_path: Path) -> None:
    """A white shape drawn with a 3 px black line on a 1000 px PNG: the line prints
    (0.06 mm on a 20 mm symbol), so its shape shows."""
    image = Image.new("RGBA", (1000, 1000), (0, 0, 0, 0))
    ImageDraw.Draw(image).ellipse((100, 150, 900, 850), fill=(255, 255, 255, 255), outline=(0, 0, 0, 255), width=3)
    image.save(tmp_path / "page.png")
    assert _faint_warnings([_image(tmp_path / "page.png")], "#ffffff") == []


def _busy_photo(folder: Path) -> Path:
    """``kitty.jpg``: a green cat at the bottom right of a wall of 8-pixel blocks of random
    colours with stickers on it, like the user's kitty that printed as dozens of pieces."""
    rng = np.random.default_rng(7)
    blocks = (np.array([150, 120, 150]) + rng.normal(0, 30, size=(75, 75, 3))).clip(0, 255).astype(np.uint8)
    photo = Image.fromarray(blocks).resize((600, 600), Image.Resampling.NEAREST)
    draw = ImageDraw.Draw(photo)
    for _ in range(12):  # stickers and pens on the wall
        x, y = int(rng.integers(20, 520)), int(rng.integers(20, 380))
        draw.rectangle((x, y, x + 40, y + 20), fill=tuple(int(c) for c in rng.integers(0, 255, 3)))
    draw.ellipse((380, 420, 590, 590), fill=(50, 220, 70))
    photo.save(folder / "kitty.jpg", quality=90)
    return folder / "kitty.jpg"


def _plain_photo(folder: Path, two: bool) -> Path:
    """``plain.jpg``: on a plain pale wall, a person holding a ball apart, or two people."""
    photo = Image.new("RGB", (600, 600), (235, 235, 230))
    draw = ImageDraw.Draw(photo)
    for x0, colour in ((120, (40, 60, 150)), (330, (160, 40, 40)))[: 2 if two else 1]:
        draw.ellipse((x0 + 40, 160, x0 + 120, 250), fill=(220, 170, 140))
        draw.rounded_rectangle((x0, 250, x0 + 160, 600), 40, fill=colour)
    draw.ellipse((480, 300, 530, 350), fill=(240, 200, 30))
    photo.save(folder / "plain.jpg", quality=92)
    return folder / "plain.jpg"


def _background_warnings(symbols: list[SymbolSpec]) -> list[str]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        prove_symbols(symbols, "#ffffff", [f"symbols.{k}" for k in range(len(symbols))])
    return [str(w.message) for w in caught if issubclass(w.category, BackgroundWarning)]


def test_a_busy_background_removed_is_warned_about_and_again_from_the_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The user's kitty on a textured wall printed as scattered fragments, silently."""
    monkeypatch.setenv("PRINTDECK_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("PRINTDECK_NO_CACHE", raising=False)
    kitty = _cut_out(_busy_photo(tmp_path))
    (said,) = _background_warnings([kitty])
    pieces = proof(kitty).background_pieces
    assert pieces >= BACKGROUND_PIECES
    assert said == (
        f"symbols.0: the background of kitty.jpg is not plain enough to remove: it left {pieces} separate "
        "pieces, not its subject; leave out remove_background, or use a photo taken against a plain wall or sky"
    )
    forget_proofs()  # a second build: the proof comes from the disk cache
    assert _background_warnings([kitty]) == [said]
    assert _background_warnings([dataclasses.replace(kitty, remove_background=False)]) == []


@pytest.mark.parametrize("two", [False, True], ids=["ball-held-apart", "two-people"])
def test_a_subject_with_a_ball_or_two_people_on_a_plain_wall_is_not(tmp_path: Path, two: bool) -> None:
    rex = _cut_out(_plain_photo(tmp_path, two))
    assert 2 <= proof(rex).background_pieces < BACKGROUND_PIECES
    assert _background_warnings([rex]) == []


def test_a_proof_cached_before_the_pieces_were_measured_is_measured_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PRINTDECK_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("PRINTDECK_NO_CACHE", raising=False)
    kitty = _cut_out(_busy_photo(tmp_path))
    fields = dataclasses.asdict(proof(kitty))
    del fields["background_pieces"]  # as an older printdeck wrote it
    (tmp_path / "cache" / "proofs" / f"{proof_key(kitty)}.json").write_text(json.dumps(fields))
    forget_proofs()
    assert proof(kitty).background_pieces >= BACKGROUND_PIECES


@pytest.mark.parametrize(("brightness", "warned"), [(1.0, False), (0.5, False), (0.22, True)])
def test_a_photo_so_dark_it_prints_nearly_black_is_warned_about(
    tmp_path: Path, brightness: float, warned: bool
) -> None:
    """A parent's night shot of the dog printed as a black disc, and nothing said so. A photo
    whose brightest tenth stays under L* 25 is now warned about by name, with the fix; a
    photo half as bright as the scene is not (a moody shot is the parent's choice)."""
    from PIL import ImageEnhance

    from printdeck.render import DarkPhotoWarning
    from printdeck.render.proof import DARK_L90

    photo = Image.open(_cat_photo(tmp_path, wall=(120, 150, 90), body=(200, 150, 90)))
    ImageEnhance.Brightness(photo).enhance(brightness).save(tmp_path / "night.jpg", quality=92)
    night = SymbolSpec(id=0, name="night", kind="photo", source="night.jpg", path=tmp_path / "night.jpg")
    assert (proof(night, "#ffffff").light_l90 < DARK_L90) == warned
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        prove_symbols([night], "#ffffff", ["symbols.4 'night'"])
    said = [str(w.message) for w in caught if w.category is DarkPhotoWarning]
    assert len(said) == warned
    if warned:
        assert said[0].startswith("symbols.4 'night' (night.jpg): the photo is so dark it prints nearly black")
        assert said[0].endswith("brighten it first (a photo editor's exposure or brightness), or choose another")
