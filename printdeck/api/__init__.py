"""printdeck's public library API: what a script, the command line and the studio call.

Everything here is exported from :mod:`printdeck` itself::

    import printdeck

    theme = printdeck.load_theme("name: pets\\ndeck: {symbols_per_card: 3}\\nsymbols: [...]")
    result = printdeck.build(theme, out="pets.pdf", backs=True)
    print(result.pages, result.cards)

    design = printdeck.make_design(symbols_per_card=8, cards=55)
    assert printdeck.verify(design).ok

Semantic versioning applies to the names in ``printdeck.__all__`` from 0.2.0 on: a
release that removes or changes one of them bumps the major version. See docs/api.md.

The calls live in :mod:`~printdeck.api.building` (load, build, make, options),
:mod:`~printdeck.api.viewing` (plan, lay out, preview, pictures) and
:mod:`~printdeck.api.checking` (verify, check, look-alikes, deck sizes).
"""

from printdeck.api.building import ThemeSource, build, load_symbols, load_theme, make, option_table
from printdeck.api.checking import (
    CheckReport,
    check_theme,
    deck_size_table,
    deck_sizes_text,
    look_alikes,
    verify,
    verify_file,
)
from printdeck.api.viewing import (
    PreviewResult,
    check_pins,
    fit_pin,
    lay_out,
    photo_crop,
    plan,
    preview_card,
    preview_page,
    symbol_picture,
    trace_symbol,
    upright_picture,
    view_card,
    write_preview,
)
from printdeck.choices import FONT_SUFFIXES, PICTURE_FORMATS
from printdeck.theme import IMAGE_SUFFIXES, SEED_MAX, OptionInfo, PictureKind, picture_kind

PICTURE_SUFFIXES = tuple(IMAGE_SUFFIXES)
"""The picture files printdeck reads, by suffix (``.png`` ... ``.svg``)."""

__all__ = [
    "FONT_SUFFIXES",
    "PICTURE_FORMATS",
    "PICTURE_SUFFIXES",
    "SEED_MAX",
    "CheckReport",
    "OptionInfo",
    "PictureKind",
    "PreviewResult",
    "ThemeSource",
    "build",
    "check_pins",
    "check_theme",
    "deck_size_table",
    "deck_sizes_text",
    "fit_pin",
    "lay_out",
    "load_symbols",
    "load_theme",
    "look_alikes",
    "make",
    "option_table",
    "photo_crop",
    "picture_kind",
    "plan",
    "preview_card",
    "preview_page",
    "symbol_picture",
    "trace_symbol",
    "upright_picture",
    "verify",
    "verify_file",
    "view_card",
    "write_preview",
]
