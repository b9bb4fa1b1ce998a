"""A word that is an emoji no font has (issue 13's words; found by a studio check): the
message names the emoji as a person reads it, not as code points, and points to
printdeck's own picture of it when one is bundled; the studio says it in its words. No
font on the test machine is trusted to lack an emoji, so "no font has it" is arranged
by :func:`printdeck.artwork.fonts.missing_chars` reporting the emoji's characters."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

import printdeck
from printdeck import emoji_names
from printdeck.artwork import fonts
from printdeck.cli import main
from printdeck.errors import NO_FONT_HAS, PrintdeckError
from printdeck.studio.plain_words import plain_words

FAMILY = "\U0001f468\u200d\U0001f469\u200d\U0001f467"  # man, woman, girl joined by zero-width joiners
TURTLE = "\U0001f422"
WORDS = ["sun", "moon", "star", "tree", "fish", "bird"]


def test_emoji_are_found_whole_named_and_matched_to_bundled_pictures() -> None:
    assert emoji_names.emoji_in(f"a{FAMILY}b{TURTLE}") == [FAMILY, TURTLE]
    assert emoji_names.emoji_name(FAMILY) == "family man woman girl"
    assert emoji_names.emoji_name("\u2764\ufe0f") == emoji_names.emoji_name("\u2764")  # with or without the selector
    turtle = emoji_names.bundled_picture(TURTLE)
    assert turtle == "@assets/twemoji/turtle.svg"
    assert (emoji_names.twemoji_folder() / "turtle.svg").is_file()
    assert emoji_names.bundled_picture(FAMILY) is None


@pytest.fixture
def no_emoji_font(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Every font lacks every emoji character (the words' letters are found as usual)."""
    real = fonts.missing_chars
    monkeypatch.setattr(
        fonts,
        "missing_chars",
        lambda text, chain: (
            real(text, chain)
            + [c for c in fonts.needed_chars(text) if ord(c) >= 0x1F000 and c not in real(text, chain)]
        ),
    )
    monkeypatch.setenv("PRINTDECK_CACHE_DIR", str(tmp_path / "cache"))


def _theme(folder: Path, word: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    lines = "".join(f'  - text: "{w}"\n' for w in [word, *WORDS])
    (folder / "theme.yaml").write_text(f"name: emoji\nsymbols:\n{lines}", encoding="utf-8")
    return folder / "theme.yaml"


@pytest.mark.usefixtures("no_emoji_font")
def test_a_bundled_emoji_points_to_its_picture_and_keeps_its_fields(tmp_path: Path) -> None:
    with pytest.raises(PrintdeckError) as caught:
        printdeck.load_theme(_theme(tmp_path / "t", TURTLE))
    error = caught.value
    assert error.code == NO_FONT_HAS and error.key == "symbols.0.text" and error.value == TURTLE
    assert "theme.yaml: symbols.0.text: no font has the emoji \U0001f422 (turtle);" in str(error), str(error)
    assert 'image: "@assets/twemoji/turtle.svg"' in str(error) and "U+" not in str(error)
    words = plain_words(error).alone()
    assert "is an emoji no font here can draw" in words and "search \u201cturtle\u201d" in words, words


@pytest.mark.usefixtures("no_emoji_font")
def test_a_joined_emoji_is_named_without_escapes_on_the_command_line(tmp_path: Path) -> None:
    theme = _theme(tmp_path / "t", FAMILY)
    before = theme.read_bytes()
    done = CliRunner().invoke(main, ["build", str(theme), "-o", str(tmp_path / "out.pdf")])
    assert done.exit_code == 2 and not (tmp_path / "out.pdf").exists()
    line = done.stderr.strip()
    assert "\n" not in line and "Traceback" not in line
    assert f"no font has the emoji {FAMILY} (family man woman girl)" in line, line  # joined: one emoji
    assert "\\u200d" not in line and "U+" not in line and "use a picture of it instead" in line
    assert theme.read_bytes() == before
    with pytest.raises(PrintdeckError) as caught:
        printdeck.load_theme(theme)
    words = plain_words(caught.value).alone()
    assert words.startswith(f"\u201c{FAMILY}\u201d (family man woman girl) is an emoji") and "drop a picture" in words


@pytest.mark.usefixtures("no_emoji_font")
def test_an_emoji_inside_a_word_is_named_with_the_word(tmp_path: Path) -> None:
    with pytest.raises(PrintdeckError) as caught:
        printdeck.load_theme(_theme(tmp_path / "t", f"my {TURTLE}"))
    assert "no font has the emoji \U0001f422 (turtle) of 'my \U0001f422'; use printdeck's picture of it" in str(
        caught.value
    )


def test_a_missing_letter_is_still_named_by_its_code_point(tmp_path: Path) -> None:
    with pytest.raises(PrintdeckError) as caught:
        printdeck.load_theme(_theme(tmp_path / "t", "a\u0378"))
    assert caught.value.code == NO_FONT_HAS and "(U+0378)" in str(caught.value)
    assert "theme.yaml: symbols.0.text: no font has" in str(caught.value)
    assert "emoji" not in str(caught.value)


def _bitmap_font(folder: Path) -> Path:
    """A copy of the bundled Vera with its outlines taken out: a face whose character map
    says it has letters it cannot draw as outlines, as a colour emoji font (CBDT) has."""
    from fontTools.ttLib import TTFont

    font = TTFont(fonts.bundled_faces()[0].path)
    del font["glyf"], font["loca"]
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "Bitmap.ttf"
    font.save(path)
    return path


def test_a_font_without_outlines_covers_nothing_and_is_refused_when_chosen(tmp_path: Path) -> None:
    """The machine's colour emoji font (Noto Color Emoji: bitmaps only) is chosen for an
    emoji by fontconfig; it drew no ink, and the word was refused as one "with no visible
    letters". Such a face now covers nothing, and as ``text.font`` it is refused by name."""
    path = _bitmap_font(tmp_path / "t")
    assert fonts.coverage(fonts.FontFace(path, 0)) == frozenset()
    theme = _theme(tmp_path / "t", "sun2")
    theme.write_text(theme.read_text(encoding="utf-8") + "text:\n  font: Bitmap.ttf\n", encoding="utf-8")
    with pytest.raises(PrintdeckError) as caught:
        printdeck.load_theme(theme)
    assert caught.value.key == "text.font" and "Bitmap.ttf has no outlines" in str(caught.value)


@pytest.mark.usefixtures("no_emoji_font")
def test_the_studio_words_an_emoji_inside_a_word(tmp_path: Path) -> None:
    """It said "no font here has every letter of "my 🐢": choose a font file", which no
    font file can mend; it now names the emoji and its picture, or the word without it."""
    with pytest.raises(PrintdeckError) as caught:
        printdeck.load_theme(_theme(tmp_path / "t", f"my {TURTLE}"))
    words = plain_words(caught.value).alone()
    assert f"holds an emoji, {TURTLE} (turtle), no font here can draw" in words, words
    assert "search \u201cturtle\u201d" in words and "type the word without it" in words


@pytest.mark.usefixtures("no_emoji_font")
def test_an_emoji_in_the_title_is_refused_by_its_key_before_anything_is_written(tmp_path: Path) -> None:
    """The title prints on every sheet: an emoji no font has was found by the renderer, the
    build failing with "no font has '🐶' (U+1F436)" and no key, after ``check`` said ok."""
    theme = _theme(tmp_path / "t", "sun2")
    theme.write_text(theme.read_text(encoding="utf-8") + 'title: "Pets \U0001f436"\n', encoding="utf-8")
    for args in (["check", str(theme)], ["build", str(theme), "-o", str(tmp_path / "out.pdf")]):
        done = CliRunner().invoke(main, args)
        assert done.exit_code == 2, done.output
        line = done.stderr.strip()
        assert "theme.yaml: title: no font has the emoji \U0001f436 (dog face)" in line, line
        assert "leave them out of the title" in line and "U+" not in line
    assert not (tmp_path / "out.pdf").exists()
    # one card a page, no backs, no credit: nothing prints the title, and the deck builds
    theme.write_text(theme.read_text(encoding="utf-8") + "paper:\n  layout: single\n", encoding="utf-8")
    done = CliRunner().invoke(main, ["build", str(theme), "-o", str(tmp_path / "single.pdf")])
    assert done.exit_code == 0, done.output


@pytest.mark.usefixtures("no_emoji_font")
def test_an_emoji_in_a_pictures_name_is_refused_only_where_the_legend_prints_it(tmp_path: Path) -> None:
    folder = tmp_path / "t"
    (folder / "pets").mkdir(parents=True)
    turtle = (emoji_names.twemoji_folder() / "turtle.svg").read_bytes()
    (folder / "pets" / "Shelly \U0001f422.svg").write_bytes(turtle)
    words = "".join(f"  - text: {w}\n" for w in WORDS)
    (folder / "theme.yaml").write_text(f"name: pets\nsymbols:\n  - folder: pets\n{words}", encoding="utf-8")
    built = CliRunner().invoke(main, ["build", str(folder), "-o", str(tmp_path / "plain.pdf")])
    assert built.exit_code == 0, built.output  # no legend: the name never prints
    with_legend = CliRunner().invoke(main, ["build", str(folder), "--legend", "-o", str(tmp_path / "legend.pdf")])
    assert with_legend.exit_code == 2 and not (tmp_path / "legend.pdf").exists()
    line = with_legend.stderr.strip()
    assert "symbols.0: no font has the emoji \U0001f422 (turtle) of 'Shelly \U0001f422'" in line, line
    assert "the legend prints its name" in line
    (folder / "theme.yaml").write_text(
        f"name: pets\nextras:\n  legend: true\nsymbols:\n  - folder: pets\n{words}", encoding="utf-8"
    )
    checked = CliRunner().invoke(main, ["check", str(folder)])
    assert checked.exit_code == 2 and "the legend prints its name" in checked.stderr


@pytest.mark.usefixtures("no_emoji_font")
def test_init_words_says_to_leave_an_emoji_out_of_the_list(tmp_path: Path) -> None:
    """``init --words`` told a teacher to write ``image: ...`` in a word list and to pass
    ``--font``, which mends no emoji; it says to leave the emoji out, and where its picture is."""
    (tmp_path / "words.txt").write_text(f"cat\n{TURTLE}\ndog\n", encoding="utf-8")
    done = CliRunner().invoke(main, ["init", str(tmp_path / "out"), "--words", str(tmp_path / "words.txt")])
    assert done.exit_code == 2 and not (tmp_path / "out").exists()
    line = done.stderr.strip()
    assert f"line 2: no font has the emoji {TURTLE} (turtle); leave the emoji out of the list" in line, line
    assert '"@assets/twemoji/turtle.svg"' in line and "--font" not in line


@pytest.mark.usefixtures("no_emoji_font")
def test_the_legend_checks_the_names_it_prints_not_its_faces_file_names(tmp_path: Path) -> None:
    """A symbol of several faces is named in the legend by its own name: an emoji there is
    refused (by check and build alike), an emoji in a face's file name is not."""
    folder = tmp_path / "t"
    (folder / "pics").mkdir(parents=True)
    (folder / "pics" / "\U0001f422 shell.svg").write_bytes((emoji_names.twemoji_folder() / "turtle.svg").read_bytes())
    words = "".join(f"  - text: {w}\n" for w in WORDS)
    head = "name: faces\nextras:\n  legend: true\nsymbols:\n"
    faces = '  - name: turtle\n    faces: [{text: tortuga}, {image: "pics/\U0001f422 shell.svg"}]\n'
    (folder / "theme.yaml").write_text(head + faces + words, encoding="utf-8")
    built = CliRunner().invoke(main, ["build", str(folder), "-o", str(tmp_path / "ok.pdf")])
    assert built.exit_code == 0, built.output
    named = '  - name: "\U0001f422 turtle"\n    faces: [{text: tortuga}, {text: tartaruga}]\n'
    (folder / "theme.yaml").write_text(head + named + words, encoding="utf-8")
    for args in (["check", str(folder)], ["build", str(folder), "-o", str(tmp_path / "no.pdf")]):
        done = CliRunner().invoke(main, args)
        assert done.exit_code == 2 and "symbols.0: no font has the emoji" in done.stderr, done.output
        assert "the legend prints its name" in done.stderr


def test_a_joiner_shows_only_inside_an_emoji_the_emoji_package_knows() -> None:
    """A zero-width joiner in a message is kept inside a known emoji (the family shows as
    one), and escaped everywhere else, where it could hide a difference between names."""
    from printdeck.errors import escape_unprintable

    assert escape_unprintable(f"a {FAMILY} b") == f"a {FAMILY} b"
    for hidden in ("\u2605\u200d\u2605", f"{TURTLE}\u200d{TURTLE}", "^\u200d\u00a9", "a\u200db"):
        assert "\\u200d" in escape_unprintable(hidden), hidden


class _HanFace:
    """A machine font with the Han letters only (as a CJK font has them, but no emoji)."""

    def covers(self, char: str) -> bool:
        return "\u4e00" <= char <= "\u9fff"


def test_a_word_of_han_letters_and_an_emoji_names_only_the_emoji(monkeypatch: pytest.MonkeyPatch) -> None:
    han = _HanFace()
    asked: list[str] = []

    def machine_faces(chars: str, lang: str | None = None) -> list:
        asked.append(chars)
        return [han] if all(han.covers(c) for c in chars) else []  # as fc-match: a face with every one of them

    monkeypatch.setattr(fonts, "system_faces", machine_faces)
    word = "\u82f9\u679c\U0001f34e"  # "apple" in Chinese, then the red apple emoji
    chain = fonts.fallback_chain([], word, "zh")
    assert fonts.missing_chars(word, chain) == ["\U0001f34e"]  # the letters are found: only the emoji is lacking
    assert asked[0] == word and "\u82f9" in asked  # all at once first, then one by one
