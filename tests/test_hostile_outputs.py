"""Outputs never land on inputs: the manifest on a JSON theme, a preview on artwork, the PNG
folder on the theme folder; the PNG folder only loses files printdeck recorded writing."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml
from pypdf import PdfReader
from test_hostile_support import (
    ART,
    Case,
    assert_clean,
    assert_refused,
    env,
    png_bytes,
    run,
    run_cases,
    snapshot,
    special_file,
    svg_theme,
)

import printdeck
from printdeck.render import PNG_RECORD

DISTINCT_COLOURS = [
    (230, 159, 0),
    (86, 180, 233),
    (0, 158, 115),
    (240, 228, 66),
    (0, 114, 178),
    (213, 94, 0),
    (204, 121, 167),
]
"""Seven colours no player confuses (Okabe and Ito): discs in near colours are look-alikes, refused."""


def _backs_theme(tmp_path: Path) -> Path:
    """The tiny theme in ``tmp/t`` with its own ``card-back.png`` backs image."""
    (tmp_path / "t").mkdir(parents=True, exist_ok=True)
    (tmp_path / "t" / "card-back.png").write_bytes(png_bytes((30, 60, 200), (1200, 1200)))  # over 300 dpi
    return svg_theme(tmp_path / "t", backs={"enabled": True, "image": "card-back.png"})


def _json_theme(tmp: Path) -> None:
    theme = svg_theme(tmp)
    (tmp / "deck.json").write_text(json.dumps(yaml.safe_load(theme.read_text())))
    theme.unlink()


def _linked_preview(tmp: Path) -> None:
    _backs_theme(tmp)
    (tmp / "link.png").symlink_to(tmp / "t" / "card-back.png")


def _hard_linked_manifest(tmp: Path) -> None:
    os.link(svg_theme(tmp / "t"), tmp / "deck.json")


def _picture_folder_theme(tmp: Path) -> None:
    """A theme in ``tmp/t`` whose symbols are every picture of its folder ``t/pics``."""
    (tmp / "t" / "pics").mkdir(parents=True)
    for k, colour in enumerate(DISTINCT_COLOURS):
        (tmp / "t" / "pics" / f"disc{k}.png").write_bytes(png_bytes(colour, (200, 200)))
    svg_theme(tmp / "t", symbols=[{"folder": "pics"}])


def _built_deck(tmp: Path) -> None:
    """The tiny theme in ``tmp/t``, built to ``tmp/deck.pdf`` with its manifest ``deck.json``."""

    printdeck.build(svg_theme(tmp / "t"), out=tmp / "deck.pdf")


def _foreign_card(tmp: Path) -> None:
    svg_theme(tmp / "t")
    (tmp / "pngs").mkdir()
    (tmp / "pngs" / "card-001.png").write_bytes(b"my own drawing")


def _odd_outputs(tmp: Path) -> None:
    svg_theme(tmp / "t")
    (tmp / "adir.pdf").mkdir()
    (tmp / "afile").write_text("x")
    (tmp / "output").write_text("not a folder")


def _linked_output(target: str) -> Callable[[Path], None]:
    def setup(tmp: Path) -> None:
        svg_theme(tmp / "t")
        (tmp / "elsewhere.pdf").write_bytes(b"keep me")
        (tmp / "x.pdf").symlink_to(target)

    return setup


def _words_theme(tmp: Path) -> None:
    (tmp / "d").mkdir()
    (tmp / "d" / "theme.yaml").write_text("apple\nbread\nchair\ncloud\ndance\nearth\nfield\n")


def _words(kind: str) -> Callable[[Path], None]:
    def setup(tmp: Path) -> None:
        special_file(tmp / "words.txt", kind)

    return setup


BUILD = ("build", "t", "-q")
REFUSED: dict[str, tuple[Callable[[Path], None], tuple[str, ...], tuple[str, ...]]] = {
    "manifest over a json theme": (
        _json_theme,
        ("build", "deck.json", "-o", "deck.pdf", "-q"),
        ("the manifest deck.json", "input of this build"),
    ),
    "manifest hard-linked to the theme": (
        _hard_linked_manifest,
        (*BUILD, "-o", "deck.pdf"),
        ("deck.json", "input of this build"),
    ),
    "preview over the backs image": (
        _linked_preview,
        ("preview", "t", "-o", "t/card-back.png", "--cards", "1"),
        ("input of this build", "card-back.png"),
    ),
    "preview over it by another path": (
        _linked_preview,
        ("preview", "t", "-o", "t/../t/card-back.png"),
        ("input of this build", "card-back.png"),
    ),
    "preview over it through a link": (
        _linked_preview,
        ("preview", "t", "-o", "link.png"),
        ("input of this build", "card-back.png"),
    ),
    "preview into the folder of the deck's pictures": (  # the next build printed it as a symbol
        _picture_folder_theme,
        ("preview", "t", "-o", "t/pics/sheet.png", "--cards", "1"),
        ("t/pics/sheet.png", "whose pictures are the deck's symbols"),
    ),
    "deck into the folder of the deck's pictures": (  # every later run stopped at the PDF
        _picture_folder_theme,
        (*BUILD, "-o", "t/pics/deck.pdf"),
        ("-o t/pics/deck.pdf", "whose pictures are the deck's symbols (the next build would take it for one)"),
    ),
    "slides into the folder of the deck's pictures": (
        _picture_folder_theme,
        ("slides", "t", "-o", "t/pics/slides.pdf"),
        ("t/pics/slides.pdf", "whose pictures are the deck's symbols"),
    ),
    "slides over a built deck": (  # the deck's manifest stayed, naming cards no longer there
        _built_deck,
        ("slides", "t", "-o", "deck.pdf"),
        ("-o deck.pdf: is a deck printdeck built (its manifest deck.json is beside it), not the slides",),
    ),
    "calibration over a built deck": (
        _built_deck,
        ("calibrate", "-o", "deck.pdf"),
        ("-o deck.pdf: is a deck printdeck built", "not the calibration; choose another -o"),
    ),
    "png folder is the theme folder": (_backs_theme, (*BUILD, "-o", "deck.pdf", "--png-dir", "t"), ("--png-dir t",)),
    "png folder is the theme folder, dotted": (
        _backs_theme,
        (*BUILD, "-o", "deck.pdf", "--png-dir", "t/."),
        ("--png-dir",),
    ),
    "png folder is the theme folder, round about": (
        _backs_theme,
        (*BUILD, "-o", "deck.pdf", "--png-dir", "t/../t"),
        ("--png-dir",),
    ),
    "png folder holds the theme folder": (
        _backs_theme,
        (*BUILD, "-o", "deck.pdf", "--png-dir", "."),
        ("--png-dir", "holds an input"),
    ),
    "png folder with a card printdeck did not write": (
        _foreign_card,
        (*BUILD, "-o", "deck.pdf", "--png-dir", "pngs"),
        ("card-001.png", "did not write"),
    ),
    "output folder missing": (_odd_outputs, (*BUILD, "-o", "missing/deck.pdf"), ("missing", "does not exist")),
    "output is a folder": (_odd_outputs, (*BUILD, "-o", "adir.pdf"), ("adir.pdf", "directory")),
    "output is not a pdf": (_odd_outputs, (*BUILD, "-o", "deck.png"), (".pdf",)),
    "png folder is a file": (_odd_outputs, (*BUILD, "-o", "deck.pdf", "--png-dir", "afile"), ("--png-dir", "afile")),
    "default output folder is a file": (_odd_outputs, BUILD, ("output", "-o")),
    "output links to a device": (_linked_output("/dev/null"), (*BUILD, "-o", "x.pdf"), ("x.pdf", "symbolic link")),
    "output links to a file": (_linked_output("elsewhere.pdf"), (*BUILD, "-o", "x.pdf"), ("x.pdf", "symbolic link")),
    "calibration links to a device": (
        _linked_output("/dev/null"),
        ("calibrate", "-o", "x.pdf"),
        ("x.pdf", "symbolic link"),
    ),
    "calibration links to stdout": (
        _linked_output("/proc/self/fd/1"),
        ("calibrate", "-o", "x.pdf"),
        ("x.pdf", "symbolic link"),
    ),
    "init over its word list": (
        _words_theme,
        ("init", "d", "--words", "d/theme.yaml", "--force"),
        ("input of this build",),
    ),
    "words from a fifo": (_words("fifo"), ("init", "d", "--words", "words.txt"), ("--words", "words.txt", "pipe")),
    "words from a device": (_words("device"), ("init", "d", "--words", "words.txt"), ("--words", "device")),
    "words from a folder": (_words("folder"), ("init", "d", "--words", "words.txt"), ("--words", "folder")),
    "words from a sparse terabyte": (_words("huge"), ("init", "d", "--words", "words.txt"), ("--words", "larger than")),
}


@pytest.fixture(scope="module")
def refused(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Case]:
    """Every case of ``REFUSED``, prepared in its own folder and run all at once."""
    jobs = {}
    for i, (name, (setup, args, _)) in enumerate(REFUSED.items()):
        folder = tmp_path_factory.mktemp(f"out{i}")
        setup(folder)
        jobs[name] = (folder, args)
    return run_cases(jobs)


@pytest.mark.parametrize("name", list(REFUSED))
def test_outputs_on_inputs_and_odd_paths_are_refused(refused: dict[str, Case], name: str) -> None:
    case = refused[name]
    assert_clean(case.result, case.before, case.after, *REFUSED[name][2])
    assert case.result.code == 2
    assert (case.folder / "t" / "card-back.png").is_file() or not case.before.get("t/card-back.png")


def test_a_rebuild_removes_only_recorded_cards(tmp_path: Path) -> None:
    svg_theme(tmp_path / "t")
    first = run(tmp_path, "build", "t", "-o", "deck.pdf", "-q", "--png-dir", "pngs")
    assert first.code == 0, first.err
    pngs = tmp_path / "pngs"
    recorded = json.loads((pngs / PNG_RECORD).read_text())["cards"]
    assert [n for n in recorded if n != "CREDITS.txt"] == [f"card-{i:03d}.png" for i in range(1, 8)]
    (pngs / "notes.txt").write_text("mine")
    svg_theme(tmp_path / "t", deck={"symbols_per_card": 3, "cards": 5})
    second = run(tmp_path, "build", "t", "-o", "deck.pdf", "-q", "--png-dir", "pngs")
    assert second.code == 0, second.err
    beside = ["CREDITS.txt"] if (pngs / "CREDITS.txt").exists() else []  # the credit, recorded as the cards are
    assert set(beside) <= set(json.loads((pngs / PNG_RECORD).read_text())["cards"])
    assert sorted(p.name for p in pngs.iterdir()) == sorted(
        [PNG_RECORD, "notes.txt"] + beside + [f"card-{i:03d}.png" for i in range(1, 6)]
    )


def test_a_hostile_record_cannot_remove_other_files(tmp_path: Path) -> None:
    svg_theme(tmp_path / "t")
    pngs = tmp_path / "pngs"
    pngs.mkdir()
    (pngs / PNG_RECORD).write_text(
        json.dumps({"cards": ["../t/theme.yaml", "/etc/hostname", "notes.txt", "card-099.png"]})
    )
    (pngs / "notes.txt").write_text("mine")
    before = snapshot(tmp_path)
    result = run(tmp_path, "build", "t", "-o", "deck.pdf", "-q", "--png-dir", "pngs")
    after = snapshot(tmp_path)
    assert result.code == 0, result.err
    assert after["t/theme.yaml"] == before["t/theme.yaml"] and after["pngs/notes.txt"] == before["pngs/notes.txt"]


def test_a_good_build_adds_only_its_outputs(tmp_path: Path) -> None:
    _backs_theme(tmp_path)
    before = snapshot(tmp_path)
    result = run(tmp_path, "build", "t", "-o", "deck.pdf", "-q", "--png-dir", "pngs")
    new = {"deck.pdf", "deck.json", "pngs", f"pngs/{PNG_RECORD}"} | {f"pngs/card-{i:03d}.png" for i in range(1, 8)}
    new |= {"pngs/back.png", "pngs/CREDITS.txt"}  # a backs theme: its back image and the artwork credit
    assert_clean(result, before, snapshot(tmp_path), new=new)
    recorded = json.loads((tmp_path / "pngs" / PNG_RECORD).read_text())["cards"]
    assert {"back.png", "CREDITS.txt"} <= set(recorded)
    assert len(PdfReader(tmp_path / "deck.pdf").pages) >= 2


def test_init_copies_pictures_from_outside_into_the_theme(tmp_path: Path) -> None:
    pics = tmp_path / "Pictures" / "x"
    pics.mkdir(parents=True)
    for i in range(7):  # large enough to print at 150 dpi: check holds a deck to what build does
        (pics / f"p{i}.png").write_bytes(png_bytes(DISTINCT_COLOURS[i], (600, 600)))
    before = snapshot(pics)
    result = run(tmp_path, "init", "deck", "--images", str(pics))
    assert result.code == 0, result.err
    assert sorted(p.name for p in (tmp_path / "deck" / "images").iterdir()) == [f"p{i}.png" for i in range(7)]
    assert snapshot(pics) == before
    checked = run(tmp_path, "check", "deck")
    assert checked.code == 0 and "7 cards of 3" in checked.out, checked.err


def test_init_leaves_nothing_behind_when_a_copied_picture_is_bad(tmp_path: Path) -> None:
    pics = tmp_path / "pics"
    pics.mkdir()
    for i in range(6):
        (pics / f"p{i}.png").write_bytes(png_bytes(DISTINCT_COLOURS[i]))
    (pics / "z.svg").write_bytes(b"<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 9 9'>" + b"<g>" * 500)
    before = snapshot(tmp_path)
    result = run(tmp_path, "init", "deck", "--images", "pics")
    assert_clean(result, before, snapshot(tmp_path), "z.svg")
    assert result.code == 2


def test_more_symbols_than_art(tmp_path: Path) -> None:
    """The tiny theme is valid with more symbols than the deck needs (a seeded choice)."""
    svg_theme(tmp_path / "t", symbols=[f"@assets/twemoji/{n}.svg" for n in [*ART, "cake"]])
    assert run(tmp_path, "check", "t").code == 0
    assert_refused(run(tmp_path, "check", "t", "--no-such-option"), "--no-such-option")


def test_a_write_protected_deck_is_not_replaced(tmp_path: Path) -> None:
    """A teacher locked a finished deck (``chmod 444``); the next build replaced it, exit 0,
    and left it writable again. A file its owner may not write is now refused, untouched.
    As root (who may write anything), the build runs without the capabilities that let it."""
    theme = svg_theme(tmp_path / "t")
    built = run(theme.parent, "build", "-q", "-o", "deck.pdf")
    assert built.code == 0, built.err
    locked = [theme.parent / "deck.pdf", theme.parent / "deck.json"]
    for path in locked:
        path.chmod(0o444)
    before = snapshot(theme.parent)
    command = [sys.executable, "-m", "printdeck", "build", "-q", "-o", "deck.pdf", "--seed", "9"]
    if os.geteuid() == 0:
        if shutil.which("setpriv") is None:
            pytest.skip("running as root without setpriv (util-linux): no way to be refused a write")
        command = ["setpriv", "--bounding-set=-dac_override,-dac_read_search,-fowner", *command]
    done = subprocess.run(command, cwd=theme.parent, env=env(theme.parent), capture_output=True, text=True, check=False)
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip() == (
        "printdeck: error: -o deck.pdf: is write-protected; make it writable to replace it, or choose another path"
    )
    assert snapshot(theme.parent) == before
    assert all(path.stat().st_mode & 0o777 == 0o444 for path in locked)
