"""printdeck: YAML theme in, print-ready PDF of a spot-the-match deck out.

The public library (see docs/api.md)::

    import printdeck

    result = printdeck.build("themes/default.yaml", out="deck.pdf")
    deck = printdeck.make("junior", seed=7)      # in memory: deck.cards, deck.manifest
    deck.save(io.BytesIO(), kind="pdf")          # or "png-zip", "manifest"; or a file name
    theme = printdeck.load_theme({"deck": {"symbols_per_card": 3}, "symbols": [...]})
    design = printdeck.make_design(symbols_per_card=8)
    report = printdeck.verify(design)

Names load on first use (``import printdeck`` stays quick for the command line).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from printdeck.errors import PrintdeckError
from printdeck.lazy import attribute_loader

if TYPE_CHECKING:  # the names for type checkers and editors; at run time they load on first use
    from printdeck.api import (
        CheckReport as CheckReport,
        PictureKind as PictureKind,
        PreviewResult as PreviewResult,
        ThemeSource as ThemeSource,
        build as build,
        check_pins as check_pins,
        check_theme as check_theme,
        deck_sizes_text as deck_sizes_text,
        fit_pin as fit_pin,
        lay_out as lay_out,
        load_symbols as load_symbols,
        load_theme as load_theme,
        look_alikes as look_alikes,
        make as make,
        photo_crop as photo_crop,
        picture_kind as picture_kind,
        plan as plan,
        preview_card as preview_card,
        preview_page as preview_page,
        symbol_picture as symbol_picture,
        trace_symbol as trace_symbol,
        upright_picture as upright_picture,
        verify as verify,
        verify_file as verify_file,
        view_card as view_card,
        write_preview as write_preview,
    )
    from printdeck.build_result import (
        BuildResult as BuildResult,
    )
    from printdeck.card_sizes import (
        SHAPE_ONLY_KEYS as SHAPE_ONLY_KEYS,
    )
    from printdeck.classroom import (
        SlidesResult as SlidesResult,
        shared_symbols as shared_symbols,
        write_slides as write_slides,
    )
    from printdeck.deck_plan import (
        DeckPlan as DeckPlan,
        check_words_show as check_words_show,
    )
    from printdeck.decks import (
        Deck as Deck,
    )
    from printdeck.design import (
        DeckFile as DeckFile,
        Design as Design,
        DesignRequestError as DesignRequestError,
        NoDesign as NoDesign,
        Spelling as Spelling,
        StatsResult as StatsResult,
        VerifyReport as VerifyReport,
        deck_stats as deck_stats,
        format_design as format_design,
        make_design as make_design,
        plot_cdf as plot_cdf,
    )
    from printdeck.model import (
        CardLayout as CardLayout,
        CropReport as CropReport,
        Placement as Placement,
        SymbolSpec as SymbolSpec,
    )
    from printdeck.pipeline import (
        Reporter as Reporter,
    )
    from printdeck.printed_answers import (
        manifest_answer as manifest_answer,
        manifest_data as manifest_data,
        printed_manifest as printed_manifest,
    )
    from printdeck.render import (
        write_calibration as write_calibration,
    )
    from printdeck.theme import (
        PICTURE_FORMATS as PICTURE_FORMATS,
        WORD_ROW_PROBLEM as WORD_ROW_PROBLEM,
        InitResult as InitResult,
        Preset as Preset,
        Theme as Theme,
        ThemeInfo as ThemeInfo,
        concept_name as concept_name,
        deck_name as deck_name,
        deck_title as deck_title,
        init_theme as init_theme,
        list_themes as list_themes,
        load_yaml_text as load_yaml_text,
        name_from_file as name_from_file,
        presets as presets,
        schema_json as schema_json,
        turns_into_another_sign as turns_into_another_sign,
        word_columns as word_columns,
        words_lang as words_lang,
    )

__version__ = "0.2.0"

_WHERE = {
    "build": "printdeck.api",
    "make": "printdeck.api",
    "Deck": "printdeck.decks",
    "load_theme": "printdeck.api",
    "load_symbols": "printdeck.api",
    "verify": "printdeck.api",
    "plan": "printdeck.api",
    "lay_out": "printdeck.api",
    "preview_page": "printdeck.api",
    "preview_card": "printdeck.api",
    "view_card": "printdeck.api",
    "check_pins": "printdeck.api",
    "fit_pin": "printdeck.api",
    "ThemeSource": "printdeck.api",
    "deck_sizes_text": "printdeck.api",
    "upright_picture": "printdeck.api",
    "symbol_picture": "printdeck.api",
    "picture_kind": "printdeck.api",
    "PictureKind": "printdeck.api",
    "photo_crop": "printdeck.api",
    "trace_symbol": "printdeck.api",
    "make_design": "printdeck.design",
    "Design": "printdeck.design",
    "VerifyReport": "printdeck.design",
    "NoDesign": "printdeck.design",
    "DesignRequestError": "printdeck.design",
    "Spelling": "printdeck.design",
    "BuildResult": "printdeck.build_result",
    "CardLayout": "printdeck.model",
    "CropReport": "printdeck.model",
    "Placement": "printdeck.model",
    "SymbolSpec": "printdeck.model",
    "check_words_show": "printdeck.deck_plan",
    "DeckPlan": "printdeck.deck_plan",
    "SlidesResult": "printdeck.classroom",
    "shared_symbols": "printdeck.classroom",
    "write_slides": "printdeck.classroom",
    "manifest_answer": "printdeck.printed_answers",
    "manifest_data": "printdeck.printed_answers",
    "printed_manifest": "printdeck.printed_answers",
    "Reporter": "printdeck.pipeline",
    "Theme": "printdeck.theme",
    # used by the CLI
    "CheckReport": "printdeck.api",
    "PreviewResult": "printdeck.api",
    "check_theme": "printdeck.api",
    # used by the studio
    "look_alikes": "printdeck.api",
    "verify_file": "printdeck.api",
    "write_preview": "printdeck.api",
    "DeckFile": "printdeck.design",
    "StatsResult": "printdeck.design",
    "deck_stats": "printdeck.design",
    "format_design": "printdeck.design",
    "plot_cdf": "printdeck.design",
    "write_calibration": "printdeck.render",
    "SHAPE_ONLY_KEYS": "printdeck.card_sizes",
    "InitResult": "printdeck.theme",
    "ThemeInfo": "printdeck.theme",
    "init_theme": "printdeck.theme",
    "deck_title": "printdeck.theme",
    "deck_name": "printdeck.theme",
    "list_themes": "printdeck.theme",
    "Preset": "printdeck.theme",
    "presets": "printdeck.theme",
    "schema_json": "printdeck.theme",
    "load_yaml_text": "printdeck.theme",
    "word_columns": "printdeck.theme",
    "words_lang": "printdeck.theme",
    "concept_name": "printdeck.theme",
    "turns_into_another_sign": "printdeck.theme",
    "name_from_file": "printdeck.theme",
    "PICTURE_FORMATS": "printdeck.theme",
    "WORD_ROW_PROBLEM": "printdeck.theme",
}

__all__ = [
    "BuildResult",
    "CardLayout",
    "CropReport",
    "Deck",
    "DeckPlan",
    "Design",
    "DesignRequestError",
    "NoDesign",
    "PictureKind",
    "Placement",
    "Preset",
    "PrintdeckError",
    "Reporter",
    "SymbolSpec",
    "Theme",
    "ThemeSource",
    "VerifyReport",
    "__version__",
    "build",
    "lay_out",
    "load_symbols",
    "load_theme",
    "make",
    "make_design",
    "photo_crop",
    "picture_kind",
    "plan",
    "presets",
    "preview_page",
    "verify",
]
"""The names kept stable (semantic versioning, see docs/api.md). The others of ``_WHERE``
(what the command line and the studio call: ``check_theme``, ``write_preview``,
``schema_json``...) load the same way but may change in any release."""


__getattr__ = attribute_loader(__name__, _WHERE)


def __dir__() -> list[str]:
    return sorted(__all__)
