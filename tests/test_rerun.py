"""A repeated build whose inputs have not changed is replayed from its record (issue 29:
a cached deck's start-up): the same outputs, byte for byte, and the same lines, without
loading the pipeline; anything changed, in this process's reads or a worker's, is built
again. Every build here is a real ``python -m printdeck build`` process."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml

from printdeck.rerun import KIND, eligible
from printdeck.rerun.replay import RACY_S

ASSETS = Path(__file__).resolve().parents[1] / "assets" / "twemoji"
USED = [
    "anchor",
    "apple",
    "bee",
    "bell",
    "bicycle",
    "broom",
    "cactus",
    "camera",
    "candle",
    "car",
    "castle",
    "cat",
    "cow",
]
UNUSED = "dog"  # a 14th symbol: one of the 14 is on no card
HEAVY = ("numpy", "pydantic", "reportlab", "shapely")


def _theme(folder: Path) -> Path:
    """A 14-symbol theme (13 cards of 4, the last symbol left out) of copied Twemoji, its
    files dated an hour back (a file modified in the 2 s before a build is not recorded)."""
    art = folder / "art"
    art.mkdir(parents=True)
    for name in [*USED, UNUSED]:
        shutil.copy(ASSETS / f"{name}.svg", art / f"{name}.svg")
    spec = {
        "name": "replayed",
        "seed": 5,
        "deck": {"symbols_per_card": 4, "cards": 13},
        "card": {"diameter": "60mm"},
        "symbols": [f"art/{name}.svg" for name in [*USED, UNUSED]],
    }
    (folder / "theme.yaml").write_text(yaml.safe_dump(spec, sort_keys=False), encoding="utf-8")
    _age(folder)
    return folder


def _age(folder: Path) -> None:
    hour_ago = time.time() - 3600
    for path in [folder, *folder.rglob("*")]:
        os.utime(path, (hour_ago, hour_ago))


def _environment(cache: Path, **extra: str) -> dict[str, str]:
    """This environment without printdeck's own variables, the cache in ``cache``."""
    environ = {k: v for k, v in os.environ.items() if not k.startswith("PRINTDECK_")}
    environ.update(PRINTDECK_CACHE_DIR=str(cache), **extra)
    return environ


def _python(cwd: Path, environ: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    """``python ARGS`` in ``cwd``, which must end with status 0."""
    done = subprocess.run(
        [sys.executable, *args],
        cwd=cwd, env=environ, input="", capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    return done


def _printdeck(cwd: Path, environ: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    """``python -X importtime -m printdeck ARGS`` in ``cwd`` (see :func:`_replayed`)."""
    return _python(cwd, environ, "-X", "importtime", "-m", "printdeck", *args)


def _script(cwd: Path, environ: dict[str, str], code: str, *args: str) -> str:
    """What ``python -c CODE ARGS`` printed, stripped."""
    return _python(cwd, environ, "-c", code, *args).stdout.strip()


def _build(cwd: Path, *extra: str, **env: str) -> subprocess.CompletedProcess[str]:
    """``printdeck build theme -o out/deck.pdf`` in ``cwd``, the cache beside it (``python -m``
    puts ``cwd`` on the module path: a build that changes it, by making a cache there, is
    not recorded)."""
    environ = _environment(cwd.parent / "cache", PRINTDECK_JOBS="2", **env)
    return _printdeck(cwd, environ, "build", "theme", "-o", "out/deck.pdf", *extra)


def _loaded(done: subprocess.CompletedProcess[str]) -> set[str]:
    """Top-level packages the run imported (from ``-X importtime``)."""
    return {line.split("|")[-1].strip().split(".")[0] for line in done.stderr.splitlines() if "import time:" in line}


def _said(done: subprocess.CompletedProcess[str]) -> tuple[str, list[str]]:
    return done.stdout, [line for line in done.stderr.splitlines() if "import time:" not in line]


def _replayed(done: subprocess.CompletedProcess[str]) -> bool:
    return not _loaded(done) & set(HEAVY)


def _outputs(cwd: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted((cwd / "out").iterdir())}


def _work(tmp_path: Path) -> Path:
    """A working folder with the theme and an output folder, dated an hour back."""
    work = tmp_path / "work"
    _theme(work / "theme")
    (work / "out").mkdir()
    _age(work)
    return work


def _records(cwd: Path) -> list[Path]:
    return sorted((cwd.parent / "cache" / KIND).glob("*.rec"))


@pytest.fixture
def recorded(tmp_path: Path) -> tuple[Path, subprocess.CompletedProcess[str]]:
    """A theme built once (recorded), its outputs and what it printed."""
    work = _work(tmp_path)
    first = _build(work)
    assert not _replayed(first) and _records(work)
    return work, first


def test_an_unchanged_build_is_replayed_without_the_pipeline(
    recorded: tuple[Path, subprocess.CompletedProcess[str]],
) -> None:
    cwd, first = recorded
    made = _outputs(cwd)
    assert set(made) == {"deck.pdf", "deck.json"}
    again = _build(cwd)
    assert _replayed(again), sorted(_loaded(again))
    assert _outputs(cwd) == made and _said(again) == _said(first)
    (cwd / "out" / "deck.pdf").unlink()  # an output removed: written again
    (cwd / "out" / "deck.json").write_text("{}")  # or changed: written again
    restored = _build(cwd)
    assert _replayed(restored) and _outputs(cwd) == made and _said(restored) == _said(first)


def test_a_changed_picture_is_built_again(recorded: tuple[Path, subprocess.CompletedProcess[str]]) -> None:
    cwd, _ = recorded
    before = _outputs(cwd)
    art = cwd / "theme" / "art" / f"{USED[0]}.svg"
    art.write_text(art.read_text().replace("#", "#1"), encoding="utf-8")  # other colours
    _age(cwd / "theme")  # even with its old date back: its change time moved
    again = _build(cwd)
    assert not _replayed(again) and _outputs(cwd)["deck.pdf"] != before["deck.pdf"]
    fresh = _build(cwd, PRINTDECK_NO_REPLAY="1")  # the replayed build is the same as a new one
    assert not _replayed(fresh)
    assert _replayed(_build(cwd))


def test_a_symbol_made_a_look_alike_is_refused_not_replayed(
    recorded: tuple[Path, subprocess.CompletedProcess[str]],
) -> None:
    """The look-alike check runs in a layout worker; its refusal is not hidden by the record."""
    cwd, _ = recorded
    unused = cwd / "theme" / "art" / f"{UNUSED}.svg"
    same_drawing = (ASSETS / f"{USED[1]}.svg").read_text() + "<!-- another file -->\n"
    unused.write_text(same_drawing, encoding="utf-8")  # now it looks like a symbol on the cards
    _age(cwd / "theme")
    environ = _environment(cwd.parent / "cache", PRINTDECK_JOBS="2")
    again = subprocess.run(
        [sys.executable, "-m", "printdeck", "build", "theme", "-o", "out/deck.pdf"],
        cwd=cwd, env=environ, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert again.returncode == 2 and "look alike" in again.stderr, again.stderr  # not a stale replay


def test_a_new_file_in_a_folder_it_reads_or_writes_is_built_again(
    recorded: tuple[Path, subprocess.CompletedProcess[str]],
) -> None:
    cwd, _ = recorded
    art = cwd / "theme" / "art"
    before = art.stat()
    (art / "new.svg").write_bytes((ASSETS / "dog.svg").read_bytes())
    os.utime(art, ns=(before.st_atime_ns, before.st_mtime_ns))  # set back: only its change time tells
    assert not _replayed(_build(cwd))
    (cwd / "theme" / "art" / "new.svg").unlink()
    assert not _replayed(_build(cwd))
    assert not _replayed(_build(cwd))  # its folder changed in the last 2 s: not recorded yet
    _age(cwd / "theme")
    _build(cwd)
    assert _replayed(_build(cwd))
    (cwd / "out" / "notes.txt").write_text("mine")  # a file beside the outputs: not an input
    assert _replayed(_build(cwd))
    assert (cwd / "out" / "notes.txt").read_text() == "mine"
    (cwd / "theme" / "notes.txt").write_text("mine")  # one beside the theme: a folder it reads
    assert not _replayed(_build(cwd))


def test_other_decks_built_into_the_same_folder(recorded: tuple[Path, subprocess.CompletedProcess[str]]) -> None:
    """A folder of outputs (``output/``) holds many decks: building another one there does
    not stop this one's record (the folder is listed only for stale temporary files)."""
    cwd, _ = recorded
    made = _outputs(cwd)
    for seed in ("7", "8"):
        assert not _replayed(_build(cwd, "--seed", seed, "-o", f"out/other-{seed}.pdf"))
    again = _build(cwd)
    assert _replayed(again) and {k: v for k, v in _outputs(cwd).items() if k in made} == made


def test_what_was_printed_is_printed_again(tmp_path: Path) -> None:
    """A warning (a picture printed below 300 ppi) is part of what is replayed."""
    from PIL import Image

    work = _work(tmp_path)
    folder = work / "theme"
    Image.new("RGB", (260, 260), "#36c").save(folder / "art" / "small.png")
    spec = yaml.safe_load((folder / "theme.yaml").read_text())
    spec["symbols"][0] = "art/small.png"
    (folder / "theme.yaml").write_text(yaml.safe_dump(spec, sort_keys=False), encoding="utf-8")
    _age(work)
    first = _build(work)
    assert "dpi" in first.stderr
    again = _build(work)
    assert _replayed(again) and _said(again) == _said(first)


def test_odd_or_missing_records_are_misses(recorded: tuple[Path, subprocess.CompletedProcess[str]]) -> None:
    cwd, _ = recorded
    made = _outputs(cwd)
    (record,) = _records(cwd)
    odd_header = b'{"format":1,"inputs":[1,[2]],"outputs":[["x",1]],"said":7}\n'
    for damaged in (b"", b"{not json\n", record.read_bytes()[:-10], odd_header):
        record.write_bytes(damaged)
        done = _build(cwd)
        assert not _replayed(done) and _outputs(cwd) == made
        _age(cwd / "out")


def test_a_fresh_theme_and_switches_are_not_replayed(tmp_path: Path) -> None:
    work = _work(tmp_path)
    theme = work / "theme" / "theme.yaml"
    theme.write_text(theme.read_text() + "\n")  # just edited: its next change could share its time
    _build(work)
    assert not _records(work)
    _age(work)
    _build(work)
    for switch in ("PRINTDECK_NO_REPLAY", "PRINTDECK_NO_LAYOUT_CACHE"):
        assert not _replayed(_build(work, **{switch: "1"}))
    assert not _replayed(_build(work, "-v"))
    assert _replayed(_build(work))


@pytest.mark.parametrize(
    ("args", "ok"),
    [
        (["build"], True),
        (["build", "junior", "-o", "x.pdf", "--seed", "3", "-q"], True),
        (["build", "-v"], False),
        (["build", "-qv"], False),
        (["build", "--png-dir", "pngs"], False),
        (["build", "--png-dir=pngs"], False),
        (["build", "--help"], False),
        (["check"], False),
        ([], False),
    ],
)
def test_which_command_lines_are_replayed(args: list[str], ok: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("PRINTDECK_NO_CACHE", "PRINTDECK_NO_LAYOUT_CACHE", "PRINTDECK_NO_REPLAY"):
        monkeypatch.delenv(name, raising=False)
    assert eligible(args) is (ok and hasattr(os, "fork"))
    monkeypatch.setenv("PRINTDECK_NO_CACHE", "1")
    assert not eligible(args)


def _scripted(work: str, committed: str = "") -> str:
    """A stand-in build for ``python -c`` (argument 1: ``replay``, or what to do): with
    ``replay`` it prints whether :func:`printdeck.rerun.replay` replayed it; else it records
    itself doing ``work`` (``output`` holds the bytes to write), commits ``out.pdf``, does
    ``committed``, ends and prints the records in the cache."""
    return f"""
import os, subprocess, sys
from pathlib import Path
from printdeck import rerun
from printdeck.audit import INPUT_EVENT, PROGRAM_EVENT
from printdeck.cache import file_digest
args = ["build", "-o", "out.pdf"]
if sys.argv[1] == "replay":
    print(rerun.replay(args) is not None)
    raise SystemExit
recording = rerun.start(args)
output = b"pdf"
{work}
Path(".out.pdf.1.tmp").write_bytes(output)
Path(".out.pdf.1.tmp").replace("out.pdf")
print("wrote out.pdf")  # a build always says what it wrote
{committed}
recording.finish(0)
print(sorted(p.name for p in Path(os.environ["PRINTDECK_CACHE_DIR"]).rglob("*.rec")))
"""


_RAN_A_PROGRAM = _scripted('subprocess.run(["true"], check=False)')


@pytest.mark.skipif(shutil.which("true") is None, reason="no 'true' program to run")
def test_a_build_that_ran_a_program_is_not_recorded(tmp_path: Path) -> None:
    """Like ``fc-match`` choosing a font: what it said may change with the fonts installed."""
    environ = _environment(tmp_path / "cache")
    assert _script(tmp_path, environ, _RAN_A_PROGRAM, "record").splitlines()[-1] == "[]"
    _age(tmp_path)
    listed = _script(tmp_path, environ, _scripted(""), "record").splitlines()[-1]
    assert listed.startswith("['") and listed.endswith(".rec']")


_WORKER_READS = _scripted(
    """
pid = os.fork()
if pid == 0:  # a worker process: reads a file this process never opens
    Path("worker-only.txt").read_text()
    os._exit(0)
os.waitpid(pid, 0)
"""
)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="records follow forked workers only")
def test_a_file_only_a_worker_read_is_an_input(tmp_path: Path) -> None:
    """Forked workers (the layout's, the look-alike check's) append what they read to the
    record: a change to a file only a worker read is a miss."""
    work, cache = tmp_path / "work", tmp_path / "cache"
    work.mkdir()
    (work / "worker-only.txt").write_text("one")
    _age(work)
    environ = _environment(cache)

    def run(what: str) -> str:
        return _script(work, environ, _WORKER_READS, what)

    run("record")
    (record,) = cache.glob(f"{KIND}/*.rec")
    assert str(work / "worker-only.txt").encode() in record.read_bytes()
    assert run("replay") == "True" and (work / "out.pdf").read_bytes() == b"pdf"
    (work / "worker-only.txt").write_text("two")
    assert run("replay") == "False"


_DIGEST_ONLY = _scripted(
    """
if sys.argv[1] == "warm":  # another run hashed it: its digest is kept in the cache
    file_digest(Path("big.bin"))
    raise SystemExit
opened = []
sys.addaudithook(lambda event, args: opened.append(args[0]) if event == "open" else None)
output = file_digest(Path("big.bin")).encode()
""",
    'print(any(str(p).endswith("big.bin") for p in opened))',
)


def test_a_file_known_by_its_cached_digest_is_an_input(tmp_path: Path) -> None:
    """A photo's digest comes from the cache without reading it (``printdeck.cache.file_digest``):
    the file is still an input of the record (the auditing event ``printdeck.input``)."""
    work, cache = tmp_path / "work", tmp_path / "cache"
    work.mkdir()
    (work / "big.bin").write_bytes(os.urandom(1_100_000))
    _age(work)
    environ = _environment(cache)
    _script(work, environ, _DIGEST_ONLY, "warm")
    assert _script(work, environ, _DIGEST_ONLY, "record").splitlines()[1] == "False"  # not opened this time
    (record,) = cache.glob(f"{KIND}/*.rec")
    assert f'"{work / "big.bin"}","file"'.encode() in record.read_bytes()


_ASKED_A_PROGRAM = _scripted(
    """
command = (sys.argv[2], "-s", "answer.txt")
answer = subprocess.run(list(command), capture_output=True, text=True, check=True).stdout
sys.audit(PROGRAM_EVENT, command, answer)  # as printdeck.artwork.fonts does for fc-match
output = answer.encode()
"""
)


@pytest.mark.skipif(not hasattr(os, "fork") or shutil.which("sh") is None, reason="needs a POSIX shell")
def test_a_program_whose_answer_was_given_is_asked_again(tmp_path: Path) -> None:
    """A build that asked ``fc-match`` (a CJK word's font) and said what it answered is
    recorded; the replay asks again and goes on only if the answer is the same. A record
    naming any other program is a miss: a record is never a way to run something."""
    work, tools = tmp_path / "work", tmp_path / "bin"
    work.mkdir()
    tools.mkdir()
    fake = tools / "fc-match"  # a stand-in fontconfig: its answer is a file's text
    fake.write_text('#!/bin/sh\ncat "$2"\n')
    fake.chmod(0o755)
    (work / "answer.txt").write_text("NotoSansCJK-Regular.ttc")
    _age(tmp_path)
    environ = _environment(tmp_path / "cache", PATH=f"{tools}{os.pathsep}{os.environ['PATH']}")

    def run(what: str, program: str = "fc-match") -> str:
        return _script(work, environ, _ASKED_A_PROGRAM, what, program)

    run("record")
    assert run("replay") == "True"
    (work / "answer.txt").write_text("DroidSansFallbackFull.ttf")  # another font installed
    _age(work)  # the folder as it was: only the program's answer tells
    assert run("replay") == "False"
    _age(tmp_path)
    run("record", str(fake))  # the same program by another name: not one a replay asks again
    (record,) = (tmp_path / "cache").glob(f"{KIND}/*.rec")
    assert str(fake).encode() in record.read_bytes()
    assert run("replay") == "False"


def _cjk_font() -> bool:
    """Whether fontconfig is here with a font that has 猫 (U+732B)."""
    if shutil.which("fc-match") is None or shutil.which("fc-list") is None:
        return False
    done = subprocess.run(["fc-list", ":charset=732b", "file"], capture_output=True, text=True, check=False)
    return bool(done.stdout.strip())


@pytest.mark.skipif(not _cjk_font(), reason="no fontconfig with a Chinese font (fonts-noto-cjk) on this machine")
def test_a_chinese_word_deck_is_replayed(tmp_path: Path) -> None:
    """Chinese words are set in a font fontconfig finds; the replay asks it again."""
    work = tmp_path / "work"
    (work / "theme").mkdir(parents=True)
    (work / "out").mkdir()
    spec = {
        "name": "zh",
        "seed": 2,
        "deck": {"symbols_per_card": 3},
        "card": {"diameter": "60mm"},
        "symbols": [{"text": word} for word in ["苹果", "香蕉", "猫", "狗", "鱼", "鸟", "马"]],
    }
    (work / "theme" / "theme.yaml").write_text(yaml.safe_dump(spec, allow_unicode=True), encoding="utf-8")
    _age(work)
    first = _build(work)
    made = _outputs(work)
    again = _build(work)
    assert _replayed(again) and _outputs(work) == made and _said(again) == _said(first)


def _replayed_until_edited(build: Callable[[], subprocess.CompletedProcess[str]], folder: Path) -> None:
    """``build`` is replayed the second time, and not once ``folder/theme/theme.yaml`` is
    edited (its folder's times then set back)."""
    build()
    assert _replayed(build())
    theme = folder / "theme" / "theme.yaml"
    theme.write_text(theme.read_text().replace("seed: 5", "seed: 6"))
    _age(folder / "theme")
    assert not _replayed(build())


def test_a_theme_reached_through_a_link_and_dot_dot(tmp_path: Path) -> None:
    """``link/../theme`` is where the system takes it (the link's target's parent), not
    where the text ``..`` would: a change there is seen."""
    work = tmp_path / "work"
    real = work / "real"
    _theme(real / "theme")
    (real / "inner").mkdir()
    (work / "link").symlink_to(real / "inner")
    (work / "out").mkdir()
    _age(work)
    environ = _environment(tmp_path / "cache", PRINTDECK_JOBS="1")

    _replayed_until_edited(lambda: _printdeck(work, environ, "build", "link/../theme", "-o", "out/deck.pdf"), real)


def test_a_theme_kept_in_the_cache_folder_is_an_input(tmp_path: Path) -> None:
    """Only printdeck's own cache folders are left out of a record, not a theme a user
    keeps beside them."""
    cache, work = tmp_path / "cache", tmp_path / "work"
    _theme(cache / "theme")
    (work / "out").mkdir(parents=True)
    _age(tmp_path)
    environ = _environment(cache, PRINTDECK_JOBS="1")
    command = ["build", str(cache / "theme"), "-o", "out/deck.pdf"]
    _replayed_until_edited(lambda: _printdeck(work, environ, *command), cache)


def test_a_local_theme_made_after_the_bundled_one_was_built(tmp_path: Path) -> None:
    """``build junior`` takes ``./junior`` if there is one, else the bundled theme: a
    ``./junior`` made later is built, not the bundled deck replayed."""
    work = tmp_path / "work"
    (work / "out").mkdir(parents=True)
    _age(work)
    environ = _environment(tmp_path / "cache", PRINTDECK_JOBS="1")

    def build() -> subprocess.CompletedProcess[str]:
        return _printdeck(work, environ, "build", "junior", "-o", "out/deck.pdf")

    build()
    assert _replayed(build())
    _theme(work / "junior")
    _age(work)
    local = build()
    assert not _replayed(local) and "13 cards" in local.stdout


_OUTPUT_REPLACED = _scripted(
    """
if sys.argv[1] == "descriptor":  # a theme read by descriptor: stdin
    open("/proc/self/fd/0").read()
""",
    """
if sys.argv[1] == "other":  # another build of the same output, done meanwhile
    pid = os.fork()
    if pid == 0:
        Path(".out.pdf.2.tmp").write_bytes(b"theirs")
        Path(".out.pdf.2.tmp").replace("out.pdf")
        os._exit(0)
    os.waitpid(pid, 0)
""",
)


@pytest.mark.parametrize("case", ["other", "descriptor"])
def test_what_cannot_be_checked_is_not_recorded(tmp_path: Path, case: str) -> None:
    """An output another build replaced before this one ended (its bytes are not this
    build's), or a file read by descriptor (``/proc/self/fd/0``): no record."""
    if case == "descriptor" and not Path("/proc/self/fd/0").exists():
        pytest.skip("no /proc on this system")
    work = tmp_path / "work"
    work.mkdir()
    _age(work)
    environ = _environment(tmp_path / "cache")
    for what in (case, "plain"):
        listed = _script(work, environ, _OUTPUT_REPLACED, what).splitlines()[-1]
        assert (listed == "[]") is (what == case), listed  # recorded only when plain
        _age(work)


_LOOKED_IN = _scripted(
    """
sys.audit(INPUT_EVENT, "fonts")  # a folder looked in (fc-match looked for on PATH, a font folder)
sys.audit(INPUT_EVENT, "junior")  # a path tried first and not there (a local theme before a bundled one)
"""
)


@pytest.mark.parametrize("change", ["file in the folder", "the missing path"])
def test_places_looked_in_are_inputs(tmp_path: Path, change: str) -> None:
    """What ``printdeck.audit.INPUT_EVENT`` names is an input though never read: a folder
    (a file made there is a miss) or a missing path (made later: a miss)."""
    work = tmp_path / "work"
    (work / "fonts").mkdir(parents=True)
    _age(work)
    environ = _environment(tmp_path / "cache")

    def run(what: str) -> str:
        return _script(work, environ, _LOOKED_IN, what)

    run("record")
    assert run("replay") == "True"
    if change == "file in the folder":
        (work / "fonts" / "new.ttf").write_bytes(b"font")
    else:
        (work / "junior").mkdir()
    assert run("replay") == "False"


def test_every_cache_folder_is_one_of_the_kinds() -> None:
    """``printdeck.cache.KINDS`` is the one list of the cache's folders (a record leaves what
    is in them out): every ``cache_dir("...")`` in printdeck names one of them."""
    import ast

    from printdeck.cache import KINDS

    named = set()
    for source in (Path(__file__).resolve().parents[1] / "printdeck").rglob("*.py"):
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) == "cache_dir":
                named |= {a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)}
    assert named and named <= KINDS, sorted(named - KINDS)


def test_a_replay_removes_the_cut_files_of_an_earlier_build_as_the_build_does(tmp_path: Path) -> None:
    """A build removes the cut files an earlier build of its PDF wrote and it does not; a
    replay must too, or a two-sheet deck's ``deck-cut-02`` files stay beside a one-sheet
    deck's PDF (and its manifest, listing only its own, leaves them there for good)."""
    work = _work(tmp_path)
    spec = yaml.safe_load((work / "theme" / "theme.yaml").read_text())
    spec["paper"] = {"cut_files": True}
    (work / "theme" / "theme.yaml").write_text(yaml.safe_dump(spec, sort_keys=False), encoding="utf-8")
    _age(work)
    one_sheet = ["deck-cut-01.dxf", "deck-cut-01.svg", "deck.json", "deck.pdf"]
    assert not _replayed(_build(work, "--paper", "a3")) and sorted(_outputs(work)) == one_sheet
    _build(work, "--paper", "a4")
    assert {"deck-cut-02.svg", "deck-cut-02.dxf"} <= set(_outputs(work))
    again = _build(work, "--paper", "a3")
    assert _replayed(again) and sorted(_outputs(work)) == one_sheet


_STOPPED_AS_THE_REPLAY_ENDS = """
import os, signal
if os.environ.get("STOP_AS_THE_REPLAY_ENDS"):  # no key of a build's record
    import printdeck.rerun as rerun
    rerun.say = lambda lines: os.kill(os.getpid(), signal.SIGTERM)  # the outputs written, not yet said
"""


def test_a_signal_as_a_replay_ends_names_what_it_wrote(
    recorded: tuple[Path, subprocess.CompletedProcess[str]], tmp_path: Path
) -> None:
    """A replay stopped once it had rewritten its outputs said 'outputs were left as they
    were': the entry point's line knew only the command line's record of what was written."""
    cwd, _ = recorded
    (tmp_path / "sitecustomize.py").write_text(_STOPPED_AS_THE_REPLAY_ENDS)  # loaded as python starts
    environ = _environment(cwd.parent / "cache", PRINTDECK_JOBS="2", PYTHONPATH=str(tmp_path))
    command = [sys.executable, "-m", "printdeck", "build", "theme", "-o", "out/deck.pdf"]
    time.sleep(RACY_S + 0.5)  # a build reading a file this new is not recorded
    _python(cwd, environ, *command[1:])  # recorded with this environment
    time.sleep(RACY_S + 0.5)  # then old enough to be replayed
    environ["STOP_AS_THE_REPLAY_ENDS"] = "1"
    done = subprocess.run(
        command, cwd=cwd, env=environ, input="", capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 128 + signal.SIGTERM, done.stderr[-2000:]
    line = done.stderr.strip()
    assert line.startswith("printdeck: stopped by SIGTERM; already written (whole): "), line
    assert "\n" not in line and "deck.pdf" in line and "deck.json" in line
