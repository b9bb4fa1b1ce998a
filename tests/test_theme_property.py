"""Property: whatever theme or file is thrown at the loader (and the build), the only
exception that escapes is PrintdeckError (hypothesis)."""

from __future__ import annotations

import contextlib
import io
import tempfile
from pathlib import Path
from typing import Any

import yaml
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings, strategies as st
from PIL import Image

from printdeck.errors import PrintdeckError
from printdeck.theme import ThemeSpec, load_theme

KEYS: dict[str, list[str]] = {
    section: [info.alias or name for name, info in model.model_fields.items()]  # type: ignore[attr-defined]
    for section, model in (
        (n, ThemeSpec.model_fields[n].annotation)
        for n in ("deck", "card", "layout", "paper", "backs", "extras", "text")
    )
}
TOP_KEYS = [info.alias or name for name, info in ThemeSpec.model_fields.items()]
ENTRY_KEYS = [
    "folder",
    "image",
    "text",
    "photo",
    "name",
    "scale",
    "rotate",
    "shape",
    "remove_background",
    "font",
    "color",
]
FILES = ["a.png", "b.jpg", "c.svg", "d.webp", "font.ttf", "pics", "missing.png", "e.gif"]

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**6), 10**6),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from(
        [
            "85mm",
            "3mm",
            "-2mm",
            "0",
            "1e9mm",
            "12pt",
            "2in",
            "a4",
            "letter",
            "any",
            "none",
            "#ffffff",
            "seeded",
            "first",
            "circle",
            "rounded",
            "",
            "x" * 300,
            "\x00",
            "../../etc/passwd",
        ]
        + FILES
    ),
    st.text(max_size=12),
)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=10,
)
entries = st.one_of(
    st.sampled_from(FILES),
    st.text(max_size=8),
    st.dictionaries(st.sampled_from(ENTRY_KEYS), st.one_of(st.sampled_from(FILES), scalars), max_size=3),
)


@st.composite
def themes(draw: st.DrawFn) -> Any:
    """Theme-shaped dicts (real keys, plausible and absurd values), and plain garbage."""
    roll = draw(st.integers(0, 9))
    if roll == 0:
        return draw(values)
    theme: dict[str, Any] = {}
    if roll <= 4:  # a valid theme with a few keys changed
        theme = {"deck": {"order": 2}, "symbols": [{"folder": "pics"}]}
    for key in draw(st.lists(st.sampled_from(TOP_KEYS + ["junk"]), max_size=6, unique=True)):
        if key in KEYS and draw(st.booleans()):
            theme[key] = draw(st.dictionaries(st.sampled_from(KEYS[key] + ["oops"]), values, max_size=4))
        elif key == "symbols":
            theme[key] = theme.get(key, []) + draw(st.lists(entries, max_size=10))
        else:
            theme[key] = draw(values)
    return theme


file_bytes = st.one_of(st.binary(max_size=64), st.sampled_from([b"", b"\x89PNG\r\n\x1a\n", b"<svg/>", b"OTTO"]))


def _png(colour: int) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (16, 16), (colour, 0, 0)).save(out, "PNG")
    return out.getvalue()


def _write_files(folder: Path, garbage: dict[str, bytes]) -> None:
    (folder / "pics").mkdir()
    for i in range(8):
        (folder / "pics" / f"{i}.png").write_bytes(_png(i * 20))
    for name in FILES:
        if name not in ("pics", "missing.png"):
            (folder / name).write_bytes(garbage.get(name, _png(200)))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=themes(),
    garbage=st.dictionaries(st.sampled_from(FILES), file_bytes, max_size=3),
    raw=st.booleans(),
    raw_text=st.text(max_size=40),
)
def test_load_theme_raises_only_printdeck_error(data: Any, garbage: dict[str, bytes], raw: bool, raw_text: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        _write_files(folder, garbage)
        text = raw_text if raw else yaml.safe_dump(data, allow_unicode=True)
        (folder / "theme.yaml").write_text(text, encoding="utf-8", errors="surrogatepass")
        message = None
        try:
            theme = load_theme(folder / "theme.yaml")
        except PrintdeckError as exc:
            message = str(exc)
        else:
            assert len(theme.symbols) >= 3 and theme.spec.deck.symbols_per_card is not None
        assert message is None or (message and "\n" not in message)  # an error is one non-empty line


def _cli_build_or_none() -> Any:
    try:
        from printdeck.cli import main
    except ImportError:
        return None
    return main if "build" in main.commands else None


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=themes(), garbage=st.dictionaries(st.sampled_from(FILES), file_bytes, max_size=2))
def test_build_never_ends_in_a_traceback(data: Any, garbage: dict[str, bytes]) -> None:
    main = _cli_build_or_none()
    if main is None:  # the build stack is not importable yet: the loader alone
        data = data
    if isinstance(data, dict):  # keep decks small so successful builds stay fast
        data["deck"] = {"order": 2}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        _write_files(folder, garbage)
        (folder / "theme.yaml").write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
        if main is None:
            with contextlib.suppress(PrintdeckError):
                load_theme(folder / "theme.yaml")
            return
        result = CliRunner().invoke(main, ["build", str(folder / "theme.yaml"), "-o", str(folder / "out.pdf"), "-q"])
        assert result.exit_code in (0, 2), (result.exit_code, result.exception)
        assert "Traceback" not in result.output
        assert (result.exit_code == 0) == (folder / "out.pdf").exists()
