"""`printdeck init` for a word list in any language, with pictures, and with a font of one's own."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml
from fontconfig_env import private_fontconfig, skip_without_font_for
from test_hostile_support import Run, env, run_in_process, run_process

from printdeck.artwork import drawing
from printdeck.artwork.fonts import default_face
from printdeck.theme import load_theme

WORDS = ["кошка", "собака", "قطة", "כלב", "शेर", "แมว", "γάτα", "cat"]


def _init(cwd: Path, *args: str, environ: dict[str, str] | None = None) -> Run:
    """``printdeck init ARGS`` in ``cwd``: in process (click's runner), or with a private
    fontconfig (``environ``) in a process of its own, since font look-ups are remembered
    for the life of a process (``printdeck.artwork.fonts``' caches)."""
    if environ is None:
        return run_in_process(cwd, "init", *args, environ=env(cwd))
    return run_process(cwd, "init", *args, environ={**env(cwd), **environ, "PRINTDECK_CACHE_DIR": str(cwd / "cache")})


def test_a_word_list_in_seven_scripts_makes_a_theme(tmp_path: Path) -> None:
    (tmp_path / "words.txt").write_text("\n".join(WORDS) + "\n", encoding="utf-8")
    done = _init(tmp_path, "deck", "--words", "words.txt")
    assert done.code == 0, done.err
    assert "8 words: order 2, 7 cards of 3" in done.out and "1 left out" in done.out
    theme = load_theme(str(tmp_path / "deck"))
    assert [s.text for s in theme.symbols] == WORDS
    assert theme.spec.layout.rotation == 30
    faces = {s.text: drawing(s).word.faces[0].path.name for s in theme.symbols}
    assert faces["قطة"] == "NotoSansArabic-Regular.ttf" and faces["शेर"] == "NotoSansDevanagari-Regular.ttf"
    assert faces["cat"] == "Vera.ttf"  # the look printdeck always had, where Vera has the letters


def test_pictures_and_words_together_with_a_font_copied_in(tmp_path: Path) -> None:
    pictures = tmp_path / "pics"
    pictures.mkdir()
    repo = Path(__file__).resolve().parent.parent
    for name in ("horse", "cat", "dog"):
        shutil.copy(repo / "assets" / "twemoji" / f"{name}.svg", pictures)
    (tmp_path / "words.txt").write_text("apple\npear\nplum\nfig\n", encoding="utf-8")
    font = tmp_path / "elsewhere" / "Mine.ttf"
    font.parent.mkdir()
    shutil.copy(default_face().path, font)
    done = _init(tmp_path, "deck", "--images", "pics", "--words", "words.txt", "--font", str(font))
    assert done.code == 0, done.err
    assert "7 images and words" in done.out
    spec = yaml.safe_load((tmp_path / "deck" / "theme.yaml").read_text(encoding="utf-8"))
    assert spec["text"]["font"] == "fonts/Mine.ttf" and (tmp_path / "deck" / "fonts" / "Mine.ttf").is_file()
    theme = load_theme(str(tmp_path / "deck"))
    assert sorted(s.kind for s in theme.symbols) == ["svg"] * 3 + ["text"] * 4
    assert all(
        s.font_path == (tmp_path / "deck" / "fonts" / "Mine.ttf").resolve() for s in theme.symbols if s.kind == "text"
    )


def test_a_word_no_font_has_is_named_with_its_line_and_nothing_is_written(tmp_path: Path) -> None:
    """The machine's fonts are hidden (a private fontconfig that sees none), so Ethiopic has
    no font here even where Debian's fonts-noto-core is installed; the bundled fonts stay."""
    (tmp_path / "words.txt").write_text("one\ntwo\nሰላም\nthree\nfour\nfive\nsix\n", encoding="utf-8")
    done = _init(tmp_path, "deck", "--words", "words.txt", environ=private_fontconfig(tmp_path / "fc"))
    assert done.code == 2 and len(done.err.splitlines()) == 1
    assert "--words words.txt: line 3: no font has" in done.err and "U+1230" in done.err and "Ethiopic" in done.err
    assert done.err.rstrip().endswith("(--font FILE)")
    assert not (tmp_path / "deck").exists()


def test_a_word_list_with_no_word_or_an_invisible_one_names_the_file_and_line(tmp_path: Path) -> None:
    """A line of only a zero-width space draws nothing: refused by its line in the word
    list (it was said as 'symbols.0.text', a key of a theme not yet written); a list of
    blank lines and comments holds no word (it was '0 symbols are too few')."""
    (tmp_path / "words.txt").write_text("\u200b\none\ntwo\n", encoding="utf-8")
    done = _init(tmp_path, "deck", "--words", "words.txt")
    assert done.code == 2 and "--words words.txt: line 1: text '\\u200b' draws no ink" in done.err
    (tmp_path / "empty.txt").write_text("# my words\n\n   \n", encoding="utf-8")
    done = _init(tmp_path, "deck", "--words", "empty.txt")
    assert done.code == 2 and "--words empty.txt: holds no words (only blank lines or # comments)" in done.err
    assert not (tmp_path / "deck").exists()


def test_an_equals_sign_without_spaces_in_a_list_of_pairs_is_warned_about(tmp_path: Path) -> None:
    """A teacher's times tables (``2×3 = 6`` and ``2×2=4``) printed "2×2=4" as one symbol,
    the answer on the question's card: in a list of pairs, such lines are said."""
    import warnings

    from printdeck.theme.word_list import WordListWarning, read_words

    words = tmp_path / "tt.txt"
    words.write_text("2×3 = 6\n2×2=4\n3×3=9\n", encoding="utf-8")
    with pytest.warns(WordListWarning, match=r"tt.txt: 2 line\(s\) hold an '=' without spaces \(line 2: '2×2=4'\)"):
        rows = read_words(words)
    assert rows[1].words == ("2×2=4",)  # still read as written
    words.write_text("E=mc²\nsun\nmoon\n", encoding="utf-8")  # no pairs: a word with '=' is a word
    with warnings.catch_warnings():
        warnings.simplefilter("error", WordListWarning)
        read_words(words)


def test_a_list_typed_without_spaces_round_its_equals_signs_is_warned_about(tmp_path: Path) -> None:
    """Times tables typed ``3×4=12`` (and ``cat=gato``), every line, made each sum one symbol
    with no word said: the game matched sums to themselves. Half the lines or more are said."""
    import warnings

    from printdeck.theme.word_list import WordListWarning, read_words

    words = tmp_path / "ttns.txt"
    words.write_text("3×4=12\n2×3=6\n2×4=8\n3×3=9\n2×5=10\n2×7=14\n3×5=15\n", encoding="utf-8")
    done = _init(tmp_path, "ttns", "--words", "ttns.txt")
    assert done.code == 0
    assert "ttns.txt: 7 of 7 lines hold an '=' without spaces (line 1: '3×4=12'), each read as one word;" in done.err
    assert "put a space on each side of '='" in done.err
    words.write_text("cat=gato\ndog\nsun=sol\nmoon\n", encoding="utf-8")  # half the list: said
    with pytest.warns(WordListWarning, match=r"2 of 4 lines hold an '=' without spaces \(line 1: 'cat=gato'\)"):
        read_words(words)
    words.write_text("E=mc²\na²+b²=c²\nsun\nmoon\ntree\n", encoding="utf-8")  # a few formulas: quiet
    with warnings.catch_warnings():
        warnings.simplefilter("error", WordListWarning)
        read_words(words)


def test_a_word_list_saved_with_commas_is_warned_about(tmp_path: Path) -> None:
    """``cat,gato`` lines (a list saved as CSV) became the words "cat,gato" with no word said."""
    import warnings

    import pytest

    from printdeck.theme.word_list import WordListWarning, read_words

    words = tmp_path / "words.csv"
    words.write_text("cat,gato\ndog,perro\nsun,sol\nHello, world\n", encoding="utf-8")
    with pytest.warns(WordListWarning, match=r"words.csv: 3 lines hold a comma \(line 1: 'cat,gato'\)"):
        rows = read_words(words)
    assert rows[0].words == ("cat,gato",)  # still read as written
    words.write_text("Hello, world\nsalt, pepper\ncat\n", encoding="utf-8")  # phrases: no warning
    with warnings.catch_warnings():
        warnings.simplefilter("error", WordListWarning)
        read_words(words)


def test_init_titles_the_deck_from_its_folder_as_the_studio_does(tmp_path: Path) -> None:
    """init titled every deck "My deck", printed on its backs and box; the studio titles a
    deck after its folder: both now do (``family-photos`` is "Family photos")."""
    from printdeck.theme import deck_title, init_theme

    words = tmp_path / "words.txt"
    words.write_text("".join(f"{w}\n" for w in ("cat", "dog", "sun", "moon", "tree", "fish", "bird")), encoding="utf-8")
    result = init_theme(tmp_path / "family-photos", words=words)
    assert load_theme(result.path).spec.title == "Family photos" == deck_title(tmp_path / "family-photos")


@pytest.mark.parametrize("folder", ["Ünïcødé deck", "猫のデッキ", "x" * 120])
def test_init_names_a_deck_of_any_folder_name(tmp_path: Path, folder: str) -> None:
    """A folder named in another script, or at great length, made init fail on 'name', a key
    the user never wrote; the deck's name now follows the studio's rule."""
    from printdeck.theme import deck_name, init_theme

    words = tmp_path / "words.txt"
    words.write_text("".join(f"{w}\n" for w in ("cat", "dog", "sun", "moon", "tree", "fish", "bird")), encoding="utf-8")
    result = init_theme(tmp_path / folder, words=words)
    assert load_theme(result.path).spec.name == deck_name(tmp_path / folder)


def test_init_keeps_the_letters_of_any_script_in_a_decks_name(tmp_path: Path) -> None:
    """Folders named in Arabic and in Hindi both made ``name: "my-deck"``, so building one then
    the other replaced ``output/my-deck.pdf``; "français 2" was ``fran-ais-2``. A name now keeps
    letters of every script (NFC), and a theme with no name is named from its folder alike."""
    import unicodedata

    from printdeck.pipeline import default_output
    from printdeck.theme import deck_name, init_theme

    words = tmp_path / "words.txt"
    words.write_text("".join(f"{w}\n" for w in ("cat", "dog", "sun", "moon", "tree", "fish", "bird")), encoding="utf-8")
    expected = {"عربي": "عربي", "हिंदी": "हिंदी", "français 2": "français-2", "🎲 🎲": "my-deck"}
    expected[unicodedata.normalize("NFD", "Noël")] = "Noël"  # a folder named on a Mac: NFD
    for folder, name in expected.items():
        theme = load_theme(init_theme(tmp_path / "école" / folder, words=words).path)
        assert theme.spec.name == theme.name == deck_name(tmp_path / folder) == name
        assert default_output(theme) == Path("output") / f"{name}.pdf"
        unnamed = tmp_path / "unnamed" / folder / "theme.yaml"  # no name: the folder's, as init gives it
        unnamed.parent.mkdir(parents=True)
        text = (tmp_path / "école" / folder / "theme.yaml").read_text(encoding="utf-8")
        unnamed.write_text(text.replace(f"name: {name!r}\n".replace("'", '"'), ""), encoding="utf-8")
        assert load_theme(unnamed).name == (name if name != "my-deck" else "theme")


@pytest.mark.parametrize(
    "lines, said",
    [
        (["éléphant", "cat", "e\u0301le\u0301phant"], "line 3: 'e\u0301le\u0301phant' is already on line 1"),
    ],
)
def test_init_refuses_a_word_typed_twice_in_two_unicode_forms(tmp_path: Path, lines: list[str], said: str) -> None:
    """The word "éléphant" typed composed (NFC) and with combining accents (NFD, as a Mac may save it)
    passed init, and check then refused the theme: they spell the same. init now refuses
    them as it refuses a word listed twice, naming both lines, and writes nothing."""
    from printdeck.errors import PrintdeckError
    from printdeck.theme import init_theme

    words = tmp_path / "words.txt"
    words.write_text("\n".join([*lines, "dog", "sun", "moon", "tree", "fish", "bird"]) + "\n", encoding="utf-8")
    with pytest.raises(PrintdeckError) as caught:
        init_theme(tmp_path / "deck", words=words)
    assert caught.value.key == "words" and caught.value.fix == "list each word once"
    assert caught.value.problem == f"{said} (the same letters, typed another way)"
    assert not (tmp_path / "deck").exists()


def test_a_word_the_same_in_both_languages_is_one_word(tmp_path: Path) -> None:
    """``chocolate = chocolate`` (a cognate, common in a Spanish list) was refused as "'chocolate'
    twice; list each word once", pointing at a duplicate line there is not: it is one word,
    printed the same whichever face a card shows; so is a word typed two ways on its line."""
    import yaml

    from printdeck.theme import init_theme

    words = tmp_path / "es.txt"
    words.write_text(
        "cat = gato\nchocolate = chocolate\ndog = perro\ncafé = cafe\u0301\nsun = sol\nmoon = luna\ntree = árbol\n",
        encoding="utf-8",
    )
    init_theme(tmp_path / "deck", words=words)
    symbols = yaml.safe_load((tmp_path / "deck" / "theme.yaml").read_text(encoding="utf-8"))["symbols"]
    assert {"text": "chocolate"} in symbols and {"text": "café"} in symbols
    assert sum(1 for s in symbols if "faces" in s) == 5 and len(symbols) == 7


@pytest.mark.parametrize(
    ("words", "lang"),
    [
        ("门\n骨\n直\n令\n角\n写\n雪\n", "zh-Hans"),
        ("說\n門\n骨\n直\n令\n角\n寫\n", "zh-Hant"),
        ("학교\n學校\n大學\n집\n山\n물\n불\n", "ko"),
        ("やま\n山\n川\nかわ\n木\nき\n人\n", "ja"),
    ],
)
def test_init_writes_the_language_a_word_lists_han_characters_are_written_in(
    tmp_path: Path, words: str, lang: str
) -> None:
    """A Chinese teacher's list (门 骨 令) printed in Japanese letter forms: with no text.lang
    the machine's fonts chose Japanese. init writes the language the words tell."""
    from printdeck.theme import init_theme

    skip_without_font_for(words.replace("\n", ""))
    (tmp_path / "w.txt").write_text(words, encoding="utf-8")
    init_theme(tmp_path / "deck", words=tmp_path / "w.txt")
    assert load_theme(tmp_path / "deck" / "theme.yaml", check_files=False).spec.text.lang == lang


@pytest.mark.parametrize("words", ["山\n木\n人\n川\n火\n水\n日\n", "日\n月\n学\n国\n会\n門\n金\n"])
def test_init_asks_for_the_language_where_the_han_characters_do_not_tell(tmp_path: Path, words: str) -> None:
    """Characters every set has, or a Japanese kanji list (学 国 会 are Simplified Chinese's
    too, 門 Traditional's): the key is left for the author, never guessed wrong."""
    from printdeck.theme import init_theme

    skip_without_font_for(words.replace("\n", ""))
    (tmp_path / "w.txt").write_text(words, encoding="utf-8")
    init_theme(tmp_path / "deck", words=tmp_path / "w.txt")
    text = (tmp_path / "deck" / "theme.yaml").read_text(encoding="utf-8")
    assert "#   lang: zh-Hans   # the letter forms of the words' Han characters: zh-Hans, zh-Hant or ja" in text
    assert load_theme(tmp_path / "deck" / "theme.yaml", check_files=False).spec.text.lang is None


def test_a_chinese_word_list_without_a_language_prints_chinese_forms(tmp_path: Path) -> None:
    """Words pasted into the studio (or a theme written by hand) carry no text.lang, so the
    machine's fonts chose the letter forms (Japanese here): the words' own language is
    used where the theme gives none, and a theme's own is kept."""
    import printdeck

    words = ["门", "骨", "直", "令", "角", "写", "雪"]
    skip_without_font_for(*words, "日月学国会門金")
    theme = printdeck.load_theme({"deck": {"symbols_per_card": 3}, "symbols": [{"text": w} for w in words]})
    assert {s.lang for s in theme.symbols} == {"zh-Hans"}
    given = {"deck": {"symbols_per_card": 3}, "text": {"lang": "ja"}, "symbols": [{"text": w} for w in words]}
    assert {s.lang for s in printdeck.load_theme(given).symbols} == {"ja"}
    kanji = ["日", "月", "学", "国", "会", "門", "金"]
    japanese = {"deck": {"symbols_per_card": 3}, "symbols": [{"text": w} for w in kanji]}
    assert {s.lang for s in printdeck.load_theme(japanese).symbols} == {None}  # nothing guessed


def test_a_list_mixing_japanese_and_korean_words_prints_each_in_its_own_forms(tmp_path: Path) -> None:
    """A teacher's list of Japanese (返す, kana) and Korean (Hangul) words got ``text.lang: ko``
    from init, so 返 printed in its Korean letter form. Each such word now carries its own
    ``lang`` (init writes it; a theme without any, as the studio writes, reads it the same),
    the Han-only words are left for the author; checked on the drawn words."""
    import dataclasses

    import numpy as np

    import printdeck
    from printdeck.artwork import rasterise
    from printdeck.theme import init_theme

    words = ["返す", "とり", "고양이", "개", "새", "犬", "山"]
    skip_without_font_for(*words)
    (tmp_path / "w.txt").write_text("\n".join(words) + "\n", encoding="utf-8")
    init_theme(tmp_path / "deck", words=tmp_path / "w.txt")
    written = yaml.safe_load((tmp_path / "deck" / "theme.yaml").read_text(encoding="utf-8"))
    assert "text" not in written or "lang" not in (written["text"] or {})  # 犬 and 山 do not tell
    langs = {s["text"]: s.get("lang") for s in written["symbols"]}
    assert langs == {"返す": "ja", "とり": "ja", "고양이": "ko", "개": "ko", "새": "ko", "犬": None, "山": None}
    as_studio = {"deck": {"symbols_per_card": 3}, "symbols": [{"text": w} for w in words]}
    for theme in (load_theme(tmp_path / "deck" / "theme.yaml"), printdeck.load_theme(as_studio)):
        kaesu = next(s for s in theme.symbols if s.text == "返す")
        drawn = np.asarray(rasterise(kaesu, 160, 160))
        japanese = np.asarray(rasterise(dataclasses.replace(kaesu, lang="ja"), 160, 160))
        korean = np.asarray(rasterise(dataclasses.replace(kaesu, lang="ko"), 160, 160))
        assert (drawn == japanese).all() and (drawn != korean).mean() > 0.02  # 返's forms differ
