"""A build's options: what :func:`printdeck.pipeline.build` takes besides the theme, checked
through :class:`~printdeck.theme.BuildSettings` (their one owner) and written into the
theme's spec; a print-service preset's per-card images."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from printdeck.choices import ColourMode, PaperLayout
from printdeck.errors import PrintdeckError
from printdeck.theme import (
    CARD_OFF_PAPER,
    PRESS_ONLY,
    BuildSettings,
    Theme,
    apply_preset,
    apply_settings,
    check_consistency,
    overrides_named,
    parse_settings,
    preset,
    say_one_deck,
    say_overridden,
    theme_errors_located,
    warn_press_file,
    warn_unused_settings,
)


@dataclasses.dataclass(frozen=True)
class BuildOptions:
    """A build's keyword arguments, as given (``None`` keeps the theme's value); checked
    by :func:`build_settings` through :class:`~printdeck.theme.BuildSettings`, which owns
    every option's type, range, default and help.

    Attributes:
        seed: Seed for symbol choice, assignment and layout.
        paper: ``"a4"``, ``"letter"``, ``"a3"``, or (width, height) as lengths with units
            (``("200mm", "280mm")``) or numbers in mm.
        backs: Turn on back pages (the theme's backs, or the default back).
        single: One card a page (page = trim + bleed), for print shops: ``layout="single"``.
        legend: Add the symbol legend page(s).
        rules: Add the rules sheet.
        png_dir: Also write one PNG a card into this folder.
        dpi: Resolution of those PNGs.
        png_margin_mm: Extra radial margin around each PNG card.
        png_cut: PNGs at cut size, transparent outside the card's shape.
        allow_outside: Let the theme read files outside its folder and the bundled
            assets (``--allow-outside``).
        layout: ``"sheet"`` or ``"single"`` (``paper.layout``); ``single`` is its shorthand.
        copies: A class set of this many decks (``deck.copies``).
        pack: Let a class set's sheets mix decks (``paper.pack``).
        booklet: The print-and-play booklet: backs, legend, rules and a tuck box
            (``extras.tuck_box``) in one PDF.
        tuck_box: Add the tuck box template (``extras.tuck_box``).
        allow_look_alike: Warn about symbols players cannot tell apart instead of
            refusing them (``deck.allow_look_alike``).
        grayscale: Print a grey deck (``paper.grayscale``).
        color: ``rgb`` or ``cmyk`` (``paper.color``).
        pdfx: ``x-4`` or ``x-1a`` (``paper.pdfx``).
        ink_limit: Total ink limit, percent (``paper.ink_limit``).
        die_line: Stroke the cut paths as a die line (``paper.die_line``).
        preset: A print service's preset (``printdeck presets``): its theme keys go over
            the theme's, the options above over both; its images are written too.
        image_format: ``png`` or ``jpg``: the per-card images' format (default: the
            preset's, else ``png``).
    """

    seed: object = None
    paper: object = None
    backs: object = None
    single: object = None
    legend: object = None
    rules: object = None
    png_dir: Path | None = None
    dpi: object = 300
    png_margin_mm: object = 0.0
    png_cut: object = False
    allow_outside: bool = False
    layout: object = None
    copies: object = None
    pack: object = None
    booklet: object = False
    tuck_box: object = None
    allow_look_alike: object = None
    grayscale: object = None
    color: object = None
    pdfx: object = None
    ink_limit: object = None
    die_line: object = None
    preset: object = None
    image_format: object = None


def build_settings(options: BuildOptions) -> BuildSettings:
    """The options validated through :class:`~printdeck.theme.BuildSettings`.

    Raises:
        PrintdeckError: an option of the wrong type or out of range, naming the argument
            (``seed: expected a whole number, got "7"``).
    """
    layout = options.layout
    if options.single is not None:
        if not isinstance(options.single, bool):
            raise PrintdeckError(key="single", value=options.single, problem="expected true or false", is_argument=True)
        if layout is None:
            layout = PaperLayout.SINGLE if options.single else PaperLayout.SHEET
    values = {
        "seed": options.seed,
        "paper": options.paper,
        "backs": options.backs,
        "layout": layout,
        "legend": options.legend,
        "rules": options.rules,
        "dpi": options.dpi,
        "png_margin_mm": options.png_margin_mm,
        "copies": options.copies,
        "pack": options.pack,
        "booklet": options.booklet,
        "tuck_box": options.tuck_box,
        "png_cut": options.png_cut,
        "allow_look_alike": options.allow_look_alike,
        "grayscale": options.grayscale,
        "color": options.color,
        "pdfx": options.pdfx,
        "ink_limit": options.ink_limit,
        "die_line": options.die_line,
        "preset": options.preset,
        "image_format": options.image_format,
    }
    settings = parse_settings(BuildSettings, values)
    if not settings.booklet:
        return settings
    wanted = ("backs", "legend", "rules", "tuck_box")  # the booklet: all of them, unless one is turned off
    return settings.model_copy(update={k: True for k in wanted if getattr(settings, k) is None})


def apply_options(theme: Theme, options: BuildOptions) -> Theme:
    """Return ``theme`` with the build's options written into its spec, validated again
    through the theme model (not copied in) and checked as a whole.

    Raises:
        PrintdeckError: an option is invalid (naming the argument) or does not fit the
            theme (e.g. the card does not fit the paper).
    """
    settings = build_settings(options)
    spec = theme.spec if settings.preset is None else apply_preset(theme.spec, preset(settings.preset))
    spec = apply_settings(spec, settings)
    if settings.preset is not None:
        say_overridden(preset(settings.preset), spec)
        say_one_deck(preset(settings.preset), spec)
    with theme_errors_located(theme), overrides_named(settings):  # said of the options, else of the file
        try:
            check_consistency(spec)
        except PrintdeckError as exc:  # the paper typed on the command line, not the theme's card
            if exc.code != CARD_OFF_PAPER or settings.paper is None:
                raise
            raise PrintdeckError(key="paper", problem=exc.problem, code=exc.code, is_argument=True) from None
    warn_press_file(spec)
    warn_unused_settings(theme.spec)  # as written: the spec above is validated again, every key set
    if spec.paper.color != ColourMode.CMYK:  # both shape a CMYK file only: refused, not dropped
        for name in ("pdfx", "ink_limit"):
            if getattr(settings, name) is not None:
                raise PrintdeckError(
                    key=name,
                    is_argument=True,
                    problem=PRESS_ONLY,
                    fix="add --color cmyk (paper.color: cmyk), or leave it out",
                )
    return dataclasses.replace(theme, spec=spec)


def with_preset_images(options: BuildOptions, out: Path) -> BuildOptions:
    """The options with a preset's per-card images: format and dpi, and the folder
    ``<out>-<preset>/`` beside the PDF unless ``png_dir`` names one."""
    settings = build_settings(options)
    if settings.preset is None:
        return options
    chosen = preset(settings.preset)
    fmt = settings.image_format or chosen.image_format
    if chosen.image_format is None or options.png_dir is not None:
        return dataclasses.replace(options, image_format=fmt)
    folder = out.with_name(f"{out.stem}-{chosen.name}")
    return dataclasses.replace(options, image_format=fmt, png_dir=folder, dpi=chosen.dpi)
