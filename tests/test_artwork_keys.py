"""Cache keys: a symbol's drawing key changes exactly when its drawing may change.

``drawing_key`` (and the silhouette's ``silhouette_key`` built on it) must change when any
field that draws changes (every ``SymbolSpec`` field whose metadata is not ``NOT_DRAWN``),
when the artwork file's bytes change, or when the bytes of a font a word is set in
change; and must NOT change with a field that does not draw (name, id, source, scale,
rotate, color, ...), else the disk cache of silhouettes would serve a stale shape (as it
did for ``remove_background``) or miss for nothing.
"""

from __future__ import annotations

import dataclasses
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from fontTools.ttLib import TTCollection, TTFont
from hypothesis import HealthCheck, given, settings, strategies as st
from PIL import Image, ImageDraw

from printdeck.artwork import drawing_key, silhouette, silhouette_key
from printdeck.artwork.tracing import ENTRY_SUFFIX, _cached
from printdeck.model import SymbolSpec

REPORTLAB_FONTS = Path(__import__("reportlab").__file__).parent / "fonts"


def _drawn(f: dataclasses.Field) -> bool:
    return f.metadata.get("drawing", True)


SILHOUETTE_FIELDS = {"nest"}
"""Fields that do not change the drawing but do change the traced collision outline."""
FIELDS = {f.name: f for f in dataclasses.fields(SymbolSpec)}


def _make_files(root: Path) -> dict[str, Path]:
    root.mkdir(parents=True, exist_ok=True)
    files = {}
    for k, colour in enumerate(("#e63946", "#2a9d8f")):
        files[f"svg{k}"] = root / f"art{k}.svg"
        files[f"svg{k}"].write_text(
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">'
            f'<circle cx="5" cy="5" r="{3 + k}" fill="{colour}"/></svg>'
        )
        im = Image.new("RGBA", (40, 30), (0, 0, 0, 0))
        ImageDraw.Draw(im).ellipse((2, 2, 30 + k * 5, 25), fill=colour)
        files[f"png{k}"] = root / f"art{k}.png"
        im.save(files[f"png{k}"])
        im = Image.new("RGB", (60, 40), colour)
        files[f"jpg{k}"] = root / f"photo{k}.jpg"
        im.save(files[f"jpg{k}"], quality=90)
    files["font0"] = root / "a.ttf"
    shutil.copyfile(REPORTLAB_FONTS / "Vera.ttf", files["font0"])
    files["font1"] = root / "b.ttf"
    shutil.copyfile(REPORTLAB_FONTS / "VeraBd.ttf", files["font1"])
    collection = TTCollection()
    collection.fonts = [TTFont(str(REPORTLAB_FONTS / "Vera.ttf")), TTFont(str(REPORTLAB_FONTS / "VeraBd.ttf"))]
    files["ttc"] = root / "pair.ttc"
    collection.save(str(files["ttc"]))
    return files


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return _make_files(tmp_path_factory.mktemp("keys"))


def _pools(files: dict[str, Path]) -> dict[str, list]:
    """Values each field may take (every field of SymbolSpec must be listed)."""
    return {
        "id": [0, 1, 7, 55],
        "name": ["cat", "dog", "Rex", "sun"],
        "kind": ["svg", "raster", "text", "photo"],
        "source": ["a.svg", "text:cat", "pictures/rex.jpg"],
        "path": [None, files["svg0"], files["svg1"], files["png0"], files["png1"], files["jpg0"], files["jpg1"]],
        "text": [None, "cat", "dog", "Vogel"],
        "font_path": [None, files["font0"], files["font1"], files["ttc"]],
        "font_index": [0, 1],
        "scale": [1.0, 0.8, 1.2],
        "rotate": [True, False],
        "photo_shape": [None, "circle", "rounded"],
        "color": ["#1a1a1a", "#e63946", "#0072b2"],
        "color_fixed": [False, True],
        "remove_background": [False, True],
        "lang": [None, "en", "sr", "ja"],
        "focus": [None, (0.5, 0.5), (0.25, 0.75)],
        "zoom": [1.0, 1.5, 2.0],
        "nest": [False, True],
        "faces": [(), (SymbolSpec(id=0, name="gato", kind="text", source="text:gato", text="gato"),)],
        "theme_key": [None, "symbols.0", "symbols.3.faces.1"],
    }


def test_every_field_has_values_to_try(files: dict[str, Path]) -> None:
    """A field added to SymbolSpec must be added to the property below (and to
    ``NOT_DRAWN`` if it does not change the drawing)."""
    assert set(_pools(files)) == set(FIELDS), "update _pools() for the new SymbolSpec fields"
    not_drawn = {name for name, f in FIELDS.items() if not _drawn(f)}
    assert {"id", "name", "source", "scale", "rotate", "color", "theme_key"} <= not_drawn
    assert not not_drawn & {
        "path",
        "text",
        "font_path",
        "font_index",
        "photo_shape",
        "remove_background",
        "lang",
        "kind",
    }


@st.composite
def _base(draw: st.DrawFn, files: dict[str, Path]) -> SymbolSpec:
    kind = draw(st.sampled_from(["svg", "raster", "text", "photo"]))
    path = {"svg": files["svg0"], "raster": files["png0"], "photo": files["jpg0"], "text": None}[kind]
    font = draw(st.sampled_from([None, files["font0"], files["ttc"]])) if kind == "text" else None
    return SymbolSpec(
        id=draw(st.integers(0, 60)),
        name=draw(st.sampled_from(["cat", "dog"])),
        kind=kind,
        source=f"text:{kind}" if kind == "text" else path.name,
        path=path,
        text=draw(st.sampled_from(["cat", "sun"])) if kind == "text" else None,
        font_path=font,
        font_index=draw(st.sampled_from([0, 1])) if font == files["ttc"] else 0,
        photo_shape=draw(st.sampled_from(["circle", "rounded"])) if kind == "photo" else None,
        remove_background=draw(st.booleans()) if kind == "photo" else False,
        lang=draw(st.sampled_from([None, "en"])),
    )


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_key_changes_exactly_with_the_drawn_fields(files: dict[str, Path], data: st.DataObject) -> None:
    base = data.draw(_base(files))
    pools = _pools(files)
    name = data.draw(st.sampled_from(sorted(set(FIELDS) & set(pools))))  # new fields: see the test above
    current = getattr(base, name)
    new = data.draw(st.sampled_from([v for v in pools[name] if v != current]))
    changed = dataclasses.replace(base, **{name: new})
    before, after = drawing_key(base), drawing_key(changed)
    if name == "font_path":  # by the bytes of the fonts a word is set in: no word, no font
        same_bytes = base.kind != "text" or {current, new} <= {None, files["font0"]}  # a.ttf: the default face's bytes
        assert (before == after) == same_bytes, f"{base.kind}: {name} {current!r} -> {new!r}"
    elif _drawn(FIELDS[name]):
        assert before != after, f"{base.kind}: {name} {current!r} -> {new!r} keeps the drawing key"
        assert silhouette_key(base) != silhouette_key(changed)
    else:
        assert before == after, f"{base.kind}: {name} {current!r} -> {new!r} changes the drawing key"
        # the silhouette follows the drawing, plus the layout's own say on holes (nest)
        assert (silhouette_key(base) != silhouette_key(changed)) == (name in SILHOUETTE_FIELDS)


@pytest.mark.parametrize("kind, name", [("svg", "svg0"), ("raster", "png0"), ("photo", "jpg0")])
def test_key_follows_the_artwork_bytes(tmp_path: Path, kind: str, name: str) -> None:
    """Same path, other bytes: a new key; the old bytes back: the old key (content, not mtime)."""
    files = _make_files(tmp_path)
    path = files[name]
    sym = SymbolSpec(
        id=0, name="x", kind=kind, source=path.name, path=path, photo_shape="circle" if kind == "photo" else None
    )
    original = path.read_bytes()
    key, sil_key = drawing_key(sym), silhouette_key(sym)
    other = files[name.replace("0", "1")].read_bytes()
    assert other != original
    path.write_bytes(other)
    assert drawing_key(sym) != key and silhouette_key(sym) != sil_key
    path.write_bytes(original)
    assert drawing_key(sym) == key and silhouette_key(sym) == sil_key


@pytest.mark.parametrize("font", ["font0", "ttc"])
def test_key_follows_the_font_bytes(tmp_path: Path, font: str) -> None:
    """A word set in the theme's font: other font bytes at the same path give a new key."""
    files = _make_files(tmp_path)
    path = files[font]
    sym = SymbolSpec(
        id=0,
        name="cat",
        kind="text",
        source="text:cat",
        text="cat",
        font_path=path,
        font_index=1 if font == "ttc" else 0,
    )
    key, sil_key = drawing_key(sym), silhouette_key(sym)
    original = path.read_bytes()
    if font == "ttc":  # the same two faces, the other way round
        collection = TTCollection()
        collection.fonts = [TTFont(str(REPORTLAB_FONTS / "VeraBd.ttf")), TTFont(str(REPORTLAB_FONTS / "Vera.ttf"))]
        collection.save(str(path))
    else:
        shutil.copyfile(files["font1"], path)
    assert path.read_bytes() != original
    assert drawing_key(sym) != key and silhouette_key(sym) != sil_key
    path.write_bytes(original)
    assert drawing_key(sym) == key and silhouette_key(sym) == sil_key


def test_word_key_follows_each_run_font(tmp_path: Path) -> None:
    """A word no single face covers ("world" in the theme's font, Hebrew in a fallback face):
    the theme font's bytes still count."""
    files = _make_files(tmp_path)
    word = "world \u05e9\u05dc\u05d5\u05dd"
    sym = SymbolSpec(id=0, name=word, kind="text", source=f"text:{word}", text=word, font_path=files["font0"])
    key = drawing_key(sym)
    shutil.copyfile(files["font1"], files["font0"])
    assert drawing_key(sym) != key


def _photo_on_plain_background(path: Path) -> None:
    im = Image.new("RGB", (300, 200), "#ffffff")
    ImageDraw.Draw(im).ellipse((120, 70, 180, 130), fill="#c03020")  # a small subject on white
    im.save(path, quality=95)


def test_remove_background_regression(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The issue: a photo traced with ``remove_background: true`` was served from the
    silhouette cache for ``false`` (and back). Both orders, through the disk cache."""
    monkeypatch.setenv("PRINTDECK_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("PRINTDECK_NO_CACHE", raising=False)
    path = tmp_path / "dog.jpg"
    _photo_on_plain_background(path)
    on = SymbolSpec(
        id=0, name="dog", kind="photo", source="dog.jpg", path=path, photo_shape="circle", remove_background=True
    )
    off = dataclasses.replace(on, remove_background=False)
    assert drawing_key(on) != drawing_key(off)
    first_on, first_off = silhouette(on).area, silhouette(off).area
    # the disk cache (a fresh symbol object each time, as a second build would make)
    _cached.cache_clear()
    again_off = silhouette(dataclasses.replace(off, id=3)).area
    again_on = silhouette(dataclasses.replace(on, id=4)).area
    # without removal the whole circle (pi/4 of the square box) is ink; with it, the subject only
    assert first_off == pytest.approx(0.785, abs=0.03)
    assert first_on < 0.25 * first_off
    assert again_off == pytest.approx(first_off) and again_on == pytest.approx(first_on)
    stored = {p.stem for p in (tmp_path / "cache" / "silhouettes").glob(f"*{ENTRY_SUFFIX}")}
    assert {silhouette_key(on), silhouette_key(off)} <= stored, "two cache entries, one per drawing"


def test_key_follows_same_size_bytes_with_the_time_set_back(tmp_path: Path) -> None:
    """A key is made once a version of the file: bytes of the same length written with
    the modification time set back are still a new version (the change time moved)."""
    files = _make_files(tmp_path)
    path = files["svg0"]
    sym = SymbolSpec(id=0, name="x", kind="svg", source=path.name, path=path)
    key, before = drawing_key(sym), path.stat()
    text = path.read_text()
    other = text.replace("0", "1", 1) if "0" in text else text.replace("1", "2", 1)
    assert len(other) == len(text) and other != text
    path.write_text(other)
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert path.stat().st_size == before.st_size and path.stat().st_mtime_ns == before.st_mtime_ns
    assert drawing_key(sym) != key
    path.write_text(text)
    assert drawing_key(sym) == key


AUDITED = (
    "import sys\n"
    "from pathlib import Path\n"
    "from printdeck.audit import INPUT_EVENT\n"
    "from printdeck.artwork import drawing_key\n"
    "from printdeck.model import SymbolSpec\n"
    "seen = []\n"
    "sys.addaudithook(lambda event, args: seen.append(args[0]) if event == INPUT_EVENT else None)\n"
    "path = Path(sys.argv[1])\n"
    "sym = SymbolSpec(id=0, name='x', kind='svg', source=path.name, path=path)\n"
    "keys = {drawing_key(sym) for _ in range(3)}\n"
    "print(len(keys), seen.count(str(path)))\n"
)


def test_every_key_says_which_file_it_depends_on(tmp_path: Path) -> None:
    """A build's record (printdeck.rerun) learns its inputs from INPUT_EVENT: a key taken
    from memory still raises it, as the first one did."""
    path = _make_files(tmp_path)["svg0"]
    done = subprocess.run([sys.executable, "-c", AUDITED, str(path)], capture_output=True, text=True, check=True)
    keys, events = (int(v) for v in done.stdout.split())
    assert keys == 1 and events >= 3, done.stdout
