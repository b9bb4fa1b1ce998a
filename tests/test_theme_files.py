"""Every file a theme names is checked at load time: images, SVG safety, fonts, duplicates."""

from __future__ import annotations

import io
import shutil
import struct
import zlib
from pathlib import Path

import pytest
from PIL import Image
from test_theme_support import WORDS, image_folder, png_bytes, refusals_of_check_and_build, small_theme, write_theme

from printdeck.artwork.fonts import default_face
from printdeck.errors import PrintdeckError
from printdeck.theme import load_theme

GOOD_SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle cx="5" cy="5" r="4"/></svg>'


def _theme_with(tmp_path: Path, bad_name: str, content: bytes, n_good: int = 6) -> Path:
    image_folder(tmp_path / "pics", n_good)
    (tmp_path / "pics" / bad_name).write_bytes(content)
    return write_theme(tmp_path, small_theme(symbols=[{"folder": "pics"}]))


def _error(path: Path) -> str:
    with pytest.raises(PrintdeckError) as info:
        load_theme(path)
    assert "\n" not in str(info.value)
    return str(info.value)


def _bomb_png(width: int, height: int) -> bytes:
    """A valid PNG header claiming a huge size (the pixels are never stored)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    body = chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"\0" * 100)) + chunk(b"IEND", b"")
    return b"\x89PNG\r\n\x1a\n" + body


def _jpeg() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (200, 200), (10, 200, 30)).save(out, "JPEG")
    return out.getvalue()


@pytest.mark.parametrize(
    "name, content, expected",
    [
        ("empty.png", b"", "is empty (0 bytes)"),
        ("truncated.png", png_bytes((1, 2, 3), (300, 300))[:200], "truncated or corrupt"),
        ("truncated.jpg", _jpeg()[:400], "truncated or corrupt"),
        ("corrupt.png", b"\x89PNG\r\n\x1a\n" + b"garbage" * 50, "is truncated or corrupt"),
        ("text.png", b"hello, I am not a picture", "is not a picture printdeck reads (PNG, JPEG, WebP, HEIC, AVIF)"),
        ("bomb.png", _bomb_png(30000, 30000), "bomb.png is 900 megapixels, more than 178 megapixels; scale it down"),
        ("huge.png", _bomb_png(10000, 7000), "is 10000x7000 pixels, more than 60 megapixels; scale it down"),
        ("tiny.png", png_bytes((1, 2, 3), (4, 4)), "only 4x4 pixels"),
        ("anim.gif", b"GIF89a", "is a .gif file, which printdeck cannot read; convert it to PNG"),
    ],
)
def test_bad_images_in_a_folder(tmp_path: Path, name: str, content: bytes, expected: str) -> None:
    message = _error(_theme_with(tmp_path, name, content))
    assert expected in message
    assert "symbols.0.folder" in message


def test_every_bad_picture_of_a_folder_is_said_at_once(tmp_path: Path) -> None:
    """A teacher's folder with a GIF, a BMP, a cut-short photo and a copy took four runs of
    ``check``, one picture a run. One refusal now names them all, each with its fix."""
    image_folder(tmp_path / "pics", 8)
    (tmp_path / "pics" / "anim.gif").write_bytes(b"GIF89a")
    (tmp_path / "pics" / "dot.bmp").write_bytes(b"BM")
    (tmp_path / "pics" / "cut.png").write_bytes(png_bytes((9, 9, 9), (200, 200))[:150])
    (tmp_path / "pics" / "pic-09.png").write_bytes((tmp_path / "pics" / "pic-02.png").read_bytes())
    message = _error(write_theme(tmp_path, small_theme(symbols=[{"folder": "pics"}])))
    assert "symbols.0.folder: 4 pictures cannot be used: " in message and "\n" not in message, message
    for said in ("anim.gif is a .gif file", "dot.bmp is a .bmp file", "cut.png is truncated", "pic-09.png is the same"):
        assert said in message, (said, message)


def test_fully_transparent_image(tmp_path: Path) -> None:
    out = io.BytesIO()
    Image.new("RGBA", (32, 32), (0, 0, 0, 0)).save(out, "PNG")
    assert "fully transparent" in _error(_theme_with(tmp_path, "clear.png", out.getvalue()))


def test_missing_image_file(tmp_path: Path) -> None:
    data = small_theme(symbols=[{"image": "nope.png"}] + [{"text": w} for w in WORDS[:6]])
    message = _error(write_theme(tmp_path, data))
    assert "symbols.0.image" in message and "nope.png not found" in message


def test_a_picture_named_in_another_case_is_said_by_its_name(tmp_path: Path) -> None:
    """``image: cat.svg`` beside ``Cat.svg`` (a theme written where file names ignore case)
    said only "not found; check the path"."""
    image_folder(tmp_path / "pics", 7)
    (tmp_path / "Cat.png").write_bytes((tmp_path / "pics" / "pic-01.png").read_bytes())
    message = _error(write_theme(tmp_path, small_theme(symbols=["cat.png", {"folder": "pics"}])))
    assert message.endswith("cat.png not found; did you mean Cat.png? (capital letters count in file names here)")
    (tmp_path / "Cat.png").rename(tmp_path / "pics" / "Cat.png")  # a folder's name too: Pics/ written pics/
    (tmp_path / "pics").rename(tmp_path / "Pics")
    message = _error(write_theme(tmp_path, small_theme(symbols=["pics/cat.png", {"folder": "Pics"}])))
    assert "pics/cat.png not found; did you mean Pics/Cat.png? (capital letters" in message, message
    message = _error(write_theme(tmp_path, small_theme(symbols=[{"folder": "pics"}])))
    assert message.endswith(
        "symbols.0.folder: pics is not a folder; did you mean Pics? (capital letters count in file names here)"
    ), message


def test_a_missing_picture_named_without_its_ending_is_not_found(tmp_path: Path) -> None:
    """``image: bee`` where no such file is was called "not a picture (PNG, JPEG...); convert
    it", a fix that cannot help; it is not found, and the picture of that name is offered."""
    message = _error(write_theme(tmp_path, small_theme(symbols=[{"image": "@assets/twemoji/bee"}])))
    assert message.endswith("symbols.0.image: @assets/twemoji/bee not found; did you mean @assets/twemoji/bee.svg?")
    message = _error(write_theme(tmp_path, small_theme(symbols=[{"photo": "kitten"}])))
    assert message.endswith("symbols.0.photo: kitten not found; check the path"), message


def test_unsupported_single_image_and_empty_folder(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    theme = write_theme(tmp_path, small_theme(symbols=[{"folder": "empty"}]))
    assert "holds no pictures (PNG, JPEG, WebP, HEIC, AVIF, SVG)" in _error(theme)
    (tmp_path / "a.bmp").write_bytes(b"BM")
    assert "a.bmp is not a picture (PNG, JPEG, WebP, HEIC, AVIF, SVG)" in _error(
        write_theme(tmp_path, small_theme(symbols=["a.bmp"]))
    )


@pytest.mark.parametrize(
    "svg, expected",
    [
        (
            '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaa">]><svg xmlns="http://www.w3.org/2000/svg" '
            'viewBox="0 0 1 1"><text>&a;</text></svg>',
            "DTD or entities",
        ),
        (
            '<!DOCTYPE svg SYSTEM "http://example.com/x.dtd"><svg xmlns="http://www.w3.org/2000/svg"/>',
            "DTD or entities",
        ),
        (
            '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
            '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><text>&x;</text></svg>',
            "DTD or entities",
        ),
        (
            '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 9 9">'
            '<image xlink:href="http://example.com/cat.png" width="9" height="9"/></svg>',
            "outside resource 'http://example.com",
        ),
        (
            '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 9 9"><image href="../secret.png"/></svg>',
            "outside resource '../secret.png'",
        ),
        (
            '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 9 9"><rect style="fill:url(https://x.org/p)"/></svg>',
            "outside resource 'https://x.org/p'",
        ),
        (
            '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 9 9"><style>@import url(x.css);</style></svg>',
            "outside resource",
        ),
        ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 9 9"><rect', "not a well-formed SVG"),
        ("<html><body/></html>", "XML but not an SVG"),
        ('<svg xmlns="http://www.w3.org/2000/svg"><rect/></svg>', "no viewBox"),
        ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 0 5"><rect/></svg>', "bad viewBox"),
        ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 9 9"></svg>', "draws nothing visible"),
        (
            '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 9 9"><rect width="9" height="9" opacity="0"/></svg>',
            "draws nothing visible",
        ),
    ],
)
def test_unsafe_or_broken_svgs(tmp_path: Path, svg: str, expected: str) -> None:
    assert expected in _error(_theme_with(tmp_path, "bad.svg", svg.encode()))


def test_safe_svg_references_are_allowed(tmp_path: Path) -> None:
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 9 9">'
        '<defs><linearGradient id="g"/></defs><rect style="fill:url(#g)"/><use xlink:href="#g"/>'
        '<image href="data:image/png;base64,AAAA"/><circle r="3" cx="4" cy="4"/>'
        # an SVG embedded in a data: link is checked as a file of its own, and kept when clean
        '<image href="data:image/svg+xml,%3Csvg xmlns=%22http://www.w3.org/2000/svg%22%3E'
        '%3Ccircle r=%222%22/%3E%3C/svg%3E" width="3" height="3"/></svg>'
    )
    theme = load_theme(_theme_with(tmp_path, "ok.svg", svg.encode()))
    assert [s.kind for s in theme.symbols].count("svg") == 1 and len(theme.symbols) == 7


def test_same_file_twice_is_refused(tmp_path: Path) -> None:
    image_folder(tmp_path / "pics", 7)
    data = small_theme(symbols=[{"folder": "pics"}, {"image": "pics/pic-03.png", "name": "again"}])
    message = _error(write_theme(tmp_path, data))
    assert "symbols.1.image" in message and "already used by symbols.0.folder (pic-03.png)" in message


def test_same_picture_under_two_names_is_refused(tmp_path: Path) -> None:
    image_folder(tmp_path / "pics", 7)
    shutil.copy(tmp_path / "pics" / "pic-02.png", tmp_path / "pics" / "zz-copy.png")
    message = _error(write_theme(tmp_path, small_theme(symbols=[{"folder": "pics"}])))
    assert "zz-copy.png is the same picture as symbols.0.folder (pic-02.png)" in message


def test_same_pixels_in_another_encoding_are_refused(tmp_path: Path) -> None:
    image_folder(tmp_path / "pics", 7)
    Image.open(tmp_path / "pics" / "pic-04.png").save(tmp_path / "pics" / "zz.webp", lossless=True)
    assert "zz.webp is the same picture as" in _error(write_theme(tmp_path, small_theme(symbols=[{"folder": "pics"}])))


def test_folder_ignores_notes_but_resolves_names_and_kinds(tmp_path: Path) -> None:
    image_folder(tmp_path / "pics", 5)
    (tmp_path / "pics" / "README.txt").write_text("notes")
    (tmp_path / "pics" / "star_shape.svg").write_text(GOOD_SVG)
    (tmp_path / "photo.jpg").write_bytes(_jpeg())
    data = small_theme(
        symbols=[
            {"folder": "pics", "scale": 1.2},
            {"photo": "photo.jpg", "shape": "rounded", "remove_background": True, "name": "Me"},
        ]
    )
    theme = load_theme(write_theme(tmp_path, data))
    assert [s.name for s in theme.symbols] == ["pic 00", "pic 01", "pic 02", "pic 03", "pic 04", "star shape", "Me"]
    assert [s.id for s in theme.symbols] == list(range(7))
    assert theme.symbols[0].scale == 1.2 and theme.symbols[5].kind == "svg"
    photo = theme.symbols[6]
    assert (photo.kind, photo.photo_shape, photo.remove_background) == ("photo", "rounded", True)
    assert photo.source == "photo.jpg" and photo.path == (tmp_path / "photo.jpg").resolve()


def test_a_folder_entry_cannot_have_one_name(tmp_path: Path) -> None:
    image_folder(tmp_path / "pics", 7)
    assert "symbols.0.name: a folder gives many symbols" in _error(
        write_theme(tmp_path, small_theme(symbols=[{"folder": "pics", "name": "x"}]))
    )


def test_svg_cannot_be_a_photo(tmp_path: Path) -> None:
    (tmp_path / "a.svg").write_text(GOOD_SVG)
    assert "symbols.0.photo: a.svg is not a picture (PNG, JPEG, WebP, HEIC, AVIF)" in _error(
        write_theme(tmp_path, small_theme(symbols=[{"photo": "a.svg"}]))
    )


@pytest.mark.parametrize(
    "content, expected",
    [
        (b"", "is empty"),
        (b"OTTO" + b"\0" * 100, "not a font file printdeck can read"),
        (b"ttcf" + b"\0" * 100, "not a font file printdeck can read"),
        (b"hello world, not a font", "not a font file printdeck can read"),
        (b"\x00\x01\x00\x00" + b"\0" * 100, "not a font file printdeck can read"),
    ],
)
def test_bad_fonts(tmp_path: Path, content: bytes, expected: str) -> None:
    (tmp_path / "f.ttf").write_bytes(content)
    message = _error(write_theme(tmp_path, small_theme(text={"font": "f.ttf"})))
    assert "text.font" in message and expected in message


def test_missing_font_and_per_symbol_font(tmp_path: Path) -> None:
    data = small_theme(symbols=[{"text": w} for w in WORDS[:6]] + [{"text": "x", "font": "nope.ttf"}])
    message = _error(write_theme(tmp_path, data))
    assert "symbols.6.font: " in message and "nope.ttf not found" in message
    shutil.copy(default_face().path, tmp_path / "mine.ttf")
    data["symbols"][-1]["font"] = "mine.ttf"
    assert load_theme(write_theme(tmp_path, data)).symbols[-1].font_path == (tmp_path / "mine.ttf").resolve()


def test_a_word_no_font_can_draw(tmp_path: Path) -> None:
    data = small_theme(symbols=[{"text": w} for w in WORDS[:6]] + [{"text": "ab\u0378"}])  # U+0378: unassigned
    message = _error(write_theme(tmp_path, data))
    assert "symbols.6.text: no font has" in message and "(U+0378)" in message
    assert "install a font" in message and "text.font" in message


def test_back_image_is_checked(tmp_path: Path) -> None:
    (tmp_path / "back.png").write_bytes(b"")
    assert "backs.image: " in _error(write_theme(tmp_path, small_theme(backs={"image": "back.png"})))


def test_progress_is_reported_once_per_checked_file(tmp_path: Path) -> None:
    image_folder(tmp_path / "pics", 9)
    steps: list[int] = []
    theme = load_theme(write_theme(tmp_path, small_theme(symbols=[{"folder": "pics"}])), progress=steps.append)
    assert steps == [1] * 9 == [1] * len(theme.symbols)


def test_a_build_says_every_bad_svg_of_a_folder_at_once_as_check_does(tmp_path: Path) -> None:
    """``check`` named both bad SVGs of a folder; ``build``, which checks the SVGs a deck uses
    once it knows them, still named one a run."""
    folder = tmp_path / "pics"
    folder.mkdir()
    twemoji = Path(__file__).resolve().parent.parent / "assets" / "twemoji"
    for name in ("cat", "dog", "cow", "owl", "pig"):
        shutil.copy(twemoji / f"{name}.svg", folder)
    head = '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10">'
    (folder / "bad1.svg").write_text(f'{head}<script>alert(1)</script><circle cx="5" cy="5" r="4"/></svg>')
    outside = '<image xlink:href="https://evil.example/x.png" width="9" height="9"/>'
    (folder / "bad2.svg").write_text(f"{head}{outside}</svg>")
    (folder / "cut.png").write_bytes(png_bytes((9, 9, 9), (200, 200))[:150])  # refused at once, the SVGs later
    theme = write_theme(tmp_path, {"deck": {"symbols_per_card": 3}, "symbols": [{"folder": "pics"}]})
    said = refusals_of_check_and_build(theme, tmp_path / "d.pdf")
    assert said[0] == said[1] and "symbols.0.folder: 3 pictures cannot be used: 1) " in said[0], said
    assert "bad1.svg is refused: it holds a script" in said[0] and "bad2.svg is refused: it refers" in said[0]
    assert "cut.png is truncated" in said[0]


def test_a_broken_picture_is_named_as_the_theme_names_it(tmp_path: Path) -> None:
    """A missing picture was named as written (``pics/x.jpg not found``) but a broken one by
    the whole path a check read (``/home/ann/deck/pics/cut.png is truncated``), by check
    and by build (whose SVG checks come later) alike; both now say ``pics/...``."""
    folder = tmp_path / "pics"
    image_folder(folder, 6)
    (folder / "cut.png").write_bytes(png_bytes((9, 9, 9), (200, 200))[:150])
    (folder / "bad.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg"><path d="M0 0 L')
    for bad in ("cut.png", "bad.svg"):
        symbols = [{"image": f"pics/{bad}"}] + [{"image": f"pics/pic-0{k}.png"} for k in range(6)]
        theme = write_theme(tmp_path, small_theme(symbols=symbols))
        for said in refusals_of_check_and_build(theme, tmp_path / "d.pdf"):
            assert f"symbols.0.image: pics/{bad} is " in said and str(tmp_path) not in said.split("symbols.0")[1]
    theme = write_theme(tmp_path, small_theme(symbols=[{"folder": "pics"}]))
    for said in refusals_of_check_and_build(theme, tmp_path / "d.pdf"):
        assert "1) pics/bad.svg is not a well-formed SVG" in said and "2) pics/cut.png is truncated" in said, said
        assert said.endswith("or move them out of pics") and str(tmp_path) not in said.split("symbols.0")[1]


def test_a_picture_whose_path_holds_the_theme_folders_is_named_whole(tmp_path: Path) -> None:
    """The theme's folder was cut out of every message wherever its letters stood, so a
    picture read from outside it whose path holds them (``<x>/<theme folder>/cut.png``,
    with --allow-outside) was named as ``<x>cut.png``: a file that is nowhere. Only a
    name that starts with the theme's folder loses it."""
    from click.testing import CliRunner

    from printdeck.cli import main

    base = tmp_path / "deck"
    image_folder(base / "pics", 6)
    other = tmp_path / "x" / str(base.resolve()).lstrip("/")
    other.mkdir(parents=True)
    (other / "cut.png").write_bytes(png_bytes((9, 9, 9), (200, 200))[:150])
    symbols = [{"image": str(other / "cut.png")}] + [{"image": f"pics/pic-0{k}.png"} for k in range(6)]
    theme = write_theme(base, small_theme(symbols=symbols))
    said = CliRunner().invoke(main, ["check", "--allow-outside", str(theme)]).output
    assert f"symbols.0.image: {other.resolve() / 'cut.png'} is truncated" in said, said


def test_a_theme_without_a_title_is_titled_after_its_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A hand-written ``name: animals-of-africa`` with no ``title`` printed "printdeck" on every
    back, footer and box: the title is now the name in words, or the file's name, as ``init``
    titles a folder; a title given is kept, and a theme with no name at all keeps printdeck's."""
    import printdeck

    animals = ("lion", "zebra", "hippo", "rhino", "giraffe", "hyena", "okapi")
    words = "deck: {symbols_per_card: 3}\nsymbols: [" + ", ".join(f"{{text: {a}}}" for a in animals) + "]\n"
    named = tmp_path / "zoo.yaml"
    named.write_text(f"name: animals-of-africa\n{words}", encoding="utf-8")
    assert printdeck.load_theme(named).spec.title == "Animals of africa"
    unnamed = tmp_path / "my_class_deck.yaml"
    unnamed.write_text(words, encoding="utf-8")
    assert printdeck.load_theme(unnamed).spec.title == "My class deck"
    titled = tmp_path / "titled.yaml"
    titled.write_text(f"name: zoo\ntitle: Our zoo\n{words}", encoding="utf-8")
    assert printdeck.load_theme(titled).spec.title == "Our zoo"
    assert printdeck.load_theme("default").spec.title == "printdeck"  # the bundled deck's own

    from printdeck.theme import load as theme_load  # a name no font on this computer prints (家族, no CJK font)

    cjk = tmp_path / "家族.yaml"
    cjk.write_text(words, encoding="utf-8")
    real = theme_load.unprintable_text
    monkeypatch.setattr(theme_load, "unprintable_text", lambda text: "no font has 家" if "家" in text else real(text))
    assert printdeck.load_theme(cjk).spec.title == "printdeck"  # never refused for a title it made up
