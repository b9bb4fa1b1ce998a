"""A planned deck seen before and without a build: its plan, its cards laid out and drawn,
its pictures and photo crops, and a preview sheet (exported from :mod:`printdeck`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from printdeck.card_view import card_pin_fit, card_pin_refusal, card_places, card_png
from printdeck.deck_plan import DeckPlan, lay_out_plan, plan_deck
from printdeck.deck_preview import preview_page_png, write_preview_sheet
from printdeck.errors import path_error, shown
from printdeck.fileio import check_not_inputs, check_replaceable
from printdeck.layout import PinRefusal
from printdeck.model import CardLayout, CropReport, SymbolSpec
from printdeck.outputs import check_not_in_picture_folder, theme_inputs
from printdeck.theme import (
    PreviewSettings,
    parse_settings,
)

if TYPE_CHECKING:
    from PIL import Image


from printdeck.api.building import ThemeSource, load_theme
from printdeck.decks import Deck

PlannedDeck = DeckPlan | Deck
"""A deck the viewing calls take: a :class:`DeckPlan` (:func:`plan`) or a made :class:`Deck`
(:func:`printdeck.make`), which is seen through its plan."""


def plan_of(deck: PlannedDeck) -> DeckPlan:
    """The plan of ``deck``: itself for a :class:`DeckPlan`, a made :class:`Deck`'s ``plan``
    (the theme with the options it was made with)."""
    return deck.plan if isinstance(deck, Deck) else deck


def plan(theme: ThemeSource = None, *, prove: bool = True) -> DeckPlan:
    """The deck a theme makes, before layout: its design and the symbol on each point,
    exactly as :func:`build` chooses them (for previews; see :class:`DeckPlan`).

    Raises:
        PrintdeckError: as :func:`build`, for the theme and the design.
    """
    return plan_deck(load_theme(theme), prove=prove)


def lay_out(
    deck: PlannedDeck, progress: Callable[[int], None] | None = None, jobs: int | None = None
) -> list[CardLayout]:
    """Lay out every card of a planned deck (or a made one's plan) as :func:`build` does
    (cards packed before come from the cache). ``progress`` is called with 1 a card; ``jobs`` caps workers.

    Raises:
        PrintdeckError: a card cannot be laid out (naming it and the fix).
    """
    return lay_out_plan(plan_of(deck), progress=progress, jobs=jobs)


def preview_page(
    deck: PlannedDeck, layouts: Sequence[CardLayout], page: int, *, ppi: float = 96.0, side: str = "front"
) -> bytes:
    """Sheet ``page`` (1-based) drawn by the PDF renderer and rasterised (PNG bytes): its
    front, or with ``side="back"`` its back as the duplex PDF prints it.

    Raises:
        ValueError: ``page`` out of range, a card of that page has no layout, or a back
            asked of a deck without backs.
    """
    return preview_page_png(plan_of(deck), layouts, page, ppi, side)


def view_card(deck: PlannedDeck, layouts: Sequence[CardLayout], card: int) -> dict[str, Any]:
    """Printed card ``card`` (1-based) laid out, as plain data: each symbol's name, centre,
    rotation, frame, ink box and whether it is pinned, and the card's size (see
    :func:`printdeck.card_view.card_places`).

    Raises:
        ValueError: no such card, or ``layouts`` do not hold it.
    """
    return card_places(plan_of(deck), layouts, card)


def preview_card(deck: PlannedDeck, layouts: Sequence[CardLayout], card: int, *, ppi: float = 200.0) -> bytes:
    """Printed card ``card`` (1-based, its bleed's square) drawn by the PDF renderer and
    rasterised (PNG bytes): the card as it prints, upright as :func:`view_card` gives it.

    Raises:
        ValueError: no such card, or ``layouts`` do not hold it.
    """
    return card_png(plan_of(deck), layouts, card, ppi)


def check_pins(deck: PlannedDeck, card: int) -> PinRefusal | None:
    """Why printed card ``card``'s pins (``layout.pinned`` of the deck's theme) cannot be laid
    out, or None: the checks the layout makes before packing the card.

    Raises:
        ValueError: no such card.
    """
    return card_pin_refusal(plan_of(deck), card)


def fit_pin(deck: PlannedDeck, card: int, symbol: str) -> float | None:
    """The largest size (mm, the frame's longer side) at most the pinned one at which
    ``symbol``'s pin on printed card ``card`` (``layout.pinned`` of the deck's theme) passes
    the checks :func:`check_pins` makes, its centre and turn kept: the pinned size when it
    passes, a smaller one (down to 0.6 of it, or to the smallest size that prints if that
    is larger; to 0.01 mm) when it touches a neighbour or reaches out of the safe zone;
    None when no such size is found.

    Raises:
        ValueError: no such card.

    Example:
        A touch-up moved ``"owl"`` 0.5 mm into its neighbour on card 3; ``fit_pin(deck, 3,
        "owl")`` gives the size to pin it at instead (e.g. ``31.42`` for ``32.0``).
    """
    return card_pin_fit(plan_of(deck), card, symbol)


def upright_picture(path: str | Path, longest_px: int) -> Image.Image:
    """A picture file (PNG, JPEG, WebP, HEIC, AVIF) as printdeck draws it: turned upright
    as its EXIF says, 8-bit RGBA with its real tones (16-bit and CMYK files included),
    scaled so its longer side is ``longest_px`` pixels (for thumbnails).

    Raises:
        PrintdeckError: The file is missing, unreadable, too large or not a picture.
    """
    from printdeck.artwork import upright_file  # noqa: PLC0415 - Pillow decoders only when asked

    return upright_file(Path(path), longest_px, shown(Path(path).name))


def symbol_picture(symbol: SymbolSpec, longest_px: int) -> Image.Image:
    """A symbol as it prints, alone: its one drawing (a photo's crop with its shape and any
    background removed, a picture, an SVG, a word) as RGBA, transparent where no ink is,
    its longer side ``longest_px`` pixels: what the layout packs and the PDF prints.

    Raises:
        PrintdeckError: The artwork cannot be read or drawn.
    """
    from printdeck.artwork import rasterise_longest  # noqa: PLC0415 - resvg and Pillow only when asked

    return rasterise_longest(symbol, longest_px)


def photo_crop(symbol: SymbolSpec, compute: bool = True) -> CropReport | None:
    """What a photo symbol's crop holds and where it is (faces, a cat's face, the subject,
    nothing, or the theme's focus; the crop box in upright source pixels): the report the
    build's summary and manifest give. None for a symbol that is not a photo.

    Args:
        symbol: A symbol of a loaded theme (``theme.symbols``).
        compute: Search the photo if its crop is not known yet (about a second a
            twelve-megapixel photo); False answers at once with what this process or the
            cache already knows, else None.

    Raises:
        PrintdeckError: The photo cannot be read.
    """
    from printdeck.artwork import drawing, known_crop_report  # noqa: PLC0415 - OpenCV only for photos

    if symbol.kind != "photo":
        return None
    return drawing(symbol).crop_report if compute else known_crop_report(symbol)


def trace_symbol(symbol: SymbolSpec) -> None:
    """Draw and trace ``symbol`` now, as planning a deck with it would (a photo's crop:
    faces, a pet's face or the subject; the silhouette the layout packs), and keep both in
    this process and the disk cache: a later plan, preview or build of a theme holding it
    finds them ready. The studio calls it for each picture as it is checked.

    Raises:
        PrintdeckError: The artwork cannot be read, or draws nothing visible.
    """
    from printdeck.artwork import silhouette  # noqa: PLC0415 - OpenCV only for photos

    silhouette(symbol)


@dataclass(frozen=True)
class PreviewResult:
    """What :func:`write_preview` wrote.

    Attributes:
        path: The PNG contact sheet.
        cards: Cards drawn on it.
        unused: Names of the theme's symbols no card of the whole deck shows.
    """

    path: Path
    cards: int
    unused: tuple[str, ...]


def write_preview(
    theme: ThemeSource = None,
    out: str | Path = "preview.png",
    *,
    cards: int = 12,
    seed: int | None = None,
    px_per_mm: float = 3.0,
    allow_outside: bool = False,
) -> PreviewResult:
    """Lay out the deck's first ``cards`` cards and write them as a PNG contact sheet.

    Args:
        theme: Anything :func:`load_theme` accepts (default: the bundled default theme).
        out: The ``.png`` to write (atomically; its folder must exist).
        cards: Cards to draw (1 .. 2000; the whole deck if it is smaller).
        seed: Overrides the theme's ``seed``.
        px_per_mm: Resolution of the sheet, pixels per millimetre (1 .. 20).

    The options are checked by :class:`printdeck.theme.PreviewSettings`.

    Raises:
        PrintdeckError: A bad count or output name, a missing folder, an output that is
            one of the theme's files or in a folder the theme reads its pictures from, a
            symlink or a special file, a file printdeck did not write (a user's own picture
            of that name: :data:`~printdeck.errors.FOREIGN_OUTPUT`); a bad theme, an
            impossible deck or layout.
    """

    out_path = Path(out)
    settings = parse_settings(PreviewSettings, {"cards": cards, "seed": seed, "px_per_mm": px_per_mm})
    if out_path.suffix.lower() != ".png":
        raise path_error("out", out_path, "the preview must be a .png file name")
    if not (out_path.parent if str(out_path.parent) else Path(".")).is_dir():
        raise path_error(
            "out", out_path, f"folder {shown(out_path.parent)} does not exist", "create it or choose another path"
        )
    loaded = load_theme(theme, allow_outside=allow_outside)
    check_not_inputs([("out", out_path)], theme_inputs(loaded))  # before any layout
    check_not_in_picture_folder("out", out_path, loaded)  # nor where the next build would take it
    check_replaceable(out_path)  # not a symlink, a device or a pipe
    sheet = write_preview_sheet(
        loaded, out_path, count=settings.cards, seed=settings.seed, px_per_mm=settings.px_per_mm
    )
    return PreviewResult(sheet.path, sheet.cards, sheet.unused)
