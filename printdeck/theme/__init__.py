"""printdeck.theme: the YAML theme, validated and resolved (and starter themes).

:func:`load_theme` reads a theme file (or :func:`load_theme_data` a mapping), checks
every key (:mod:`~printdeck.theme.spec`, errors worded by :mod:`~printdeck.theme.messages`),
every file it names and the deck it asks for (:func:`deck_size_requirements`), and
returns a :class:`Theme` with its symbols resolved.
"""

from printdeck.choices import PICTURE_FORMATS
from printdeck.theme.chosen_fonts import FontGapWarning, warn_font_gaps
from printdeck.theme.consistency import (
    CARD_OFF_PAPER,
    PRESS_ONLY,
    PressWarning,
    UnusedSettingWarning,
    check_consistency,
    warn_press_file,
    warn_unused_settings,
)
from printdeck.theme.deck_section import THEME_SPELLING, TOO_FEW_SYMBOLS, DeckSize, deck_size_requirements, theme_worded
from printdeck.theme.load import (
    bundled_theme_names,
    bundled_theme_path,
    check_used_files,
    deck_size,
    load_theme,
    load_theme_data,
    parse_theme_data,
    sized_theme,
)
from printdeck.theme.located import theme_errors_located
from printdeck.theme.look_alikes import check_look_alikes, look_alikes, verdicts_shipped, warn_vision_look_alikes
from printdeck.theme.messages import describe_validation_error, validation_error
from printdeck.theme.palettes import (
    DECK_PALETTE,
    GREY_WORD_PALETTE,
    WORD_PALETTE,
    deck_colours,
    grey_deck_colours,
)
from printdeck.theme.picture_kind import PictureKind, picture_kind
from printdeck.theme.presets import Preset, apply_preset, preset, presets, say_one_deck, say_overridden
from printdeck.theme.printed_text import check_printed_text
from printdeck.theme.run_options import (
    BuildSettings,
    OptionInfo,
    PreviewSettings,
    SlidesSettings,
    apply_settings,
    option_table,
    overrides_named,
    parse_settings,
)
from printdeck.theme.scaffold import InitResult, ThemeInfo, deck_name, deck_title, init_theme, list_themes, schema_json
from printdeck.theme.spec import (
    DeckSpec,
    SymbolEntry,
    Theme,
    ThemeSpec,
)
from printdeck.theme.spec_print import Offset, PaperSpec, paper_size
from printdeck.theme.spec_types import LENGTHS_IN_MM, SEED_MAX
from printdeck.theme.symbols import concept_name, turns_into_another_sign, words_lang
from printdeck.theme.theme_paths import IMAGE_SUFFIXES, name_from_file, resolve_path
from printdeck.theme.value_fixes import length_fix
from printdeck.theme.word_colours import (
    MIN_VISIBLE_SHARE,
    MIN_WORD_CONTRAST,
    PROOF_PX,
    VISIBLE_CONTRAST,
    contrast_ratio,
    reads_on,
    shows_on,
    visible_ink,
    word_colours,
)
from printdeck.theme.word_list import WORD_ROW_PROBLEM, word_columns
from printdeck.theme.yamlsafe import load_yaml_file, load_yaml_text

__all__ = [
    "CARD_OFF_PAPER",
    "DECK_PALETTE",
    "GREY_WORD_PALETTE",
    "IMAGE_SUFFIXES",
    "LENGTHS_IN_MM",
    "MIN_VISIBLE_SHARE",
    "MIN_WORD_CONTRAST",
    "PICTURE_FORMATS",
    "PRESS_ONLY",
    "PROOF_PX",
    "SEED_MAX",
    "THEME_SPELLING",
    "TOO_FEW_SYMBOLS",
    "VISIBLE_CONTRAST",
    "WORD_PALETTE",
    "WORD_ROW_PROBLEM",
    "BuildSettings",
    "DeckSize",
    "DeckSpec",
    "FontGapWarning",
    "InitResult",
    "Offset",
    "OptionInfo",
    "PaperSpec",
    "PictureKind",
    "Preset",
    "PressWarning",
    "PreviewSettings",
    "SlidesSettings",
    "SymbolEntry",
    "Theme",
    "ThemeInfo",
    "ThemeSpec",
    "UnusedSettingWarning",
    "apply_preset",
    "apply_settings",
    "bundled_theme_names",
    "bundled_theme_path",
    "check_consistency",
    "check_look_alikes",
    "check_printed_text",
    "check_used_files",
    "concept_name",
    "contrast_ratio",
    "deck_colours",
    "deck_name",
    "deck_size",
    "deck_size_requirements",
    "deck_title",
    "describe_validation_error",
    "grey_deck_colours",
    "init_theme",
    "length_fix",
    "list_themes",
    "load_theme",
    "load_theme_data",
    "load_yaml_file",
    "load_yaml_text",
    "look_alikes",
    "name_from_file",
    "option_table",
    "overrides_named",
    "paper_size",
    "parse_settings",
    "parse_theme_data",
    "picture_kind",
    "preset",
    "presets",
    "reads_on",
    "resolve_path",
    "say_one_deck",
    "say_overridden",
    "schema_json",
    "shows_on",
    "sized_theme",
    "theme_errors_located",
    "theme_worded",
    "turns_into_another_sign",
    "validation_error",
    "verdicts_shipped",
    "visible_ink",
    "warn_font_gaps",
    "warn_press_file",
    "warn_unused_settings",
    "warn_vision_look_alikes",
    "word_colours",
    "word_columns",
    "words_lang",
]
