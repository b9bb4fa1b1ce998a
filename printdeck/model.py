"""Plain data passed between the pipeline stages: theme -> design -> layout -> render.

Every length carries its unit in its name (``_mm`` or ``_pt``). Nothing here imports
ReportLab; the stages exchange only these frozen dataclasses and numpy arrays.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Literal

from printdeck.choices import PhotoShape
from printdeck.errors import PrintdeckError, shown

SymbolKind = Literal["svg", "raster", "text", "photo"]
NOT_DRAWN = {"drawing": False}
"""Field metadata of :class:`SymbolSpec` fields that do not change the symbol's drawing
(every other field is part of the drawing's cache key, see ``printdeck.artwork.drawing_key``)."""
NAMES_IT = {"drawing": False, "names_it": True}
"""Field metadata of a :class:`SymbolSpec` field that does not change the drawing but names the
symbol in messages, so :func:`drawn_only` keeps it."""


@dataclass(frozen=True)
class SymbolSpec:
    """One symbol of the deck, resolved from the theme.

    Attributes:
        id: Index of the symbol in the theme's resolved symbol list (0-based).
        name: Human name, e.g. ``"horse"`` (from the file name or the theme).
        kind: ``svg`` (vector artwork), ``raster`` (PNG/JPEG/WebP with alpha or
            opaque), ``text`` (a word drawn with a font), ``photo`` (opaque image,
            cropped to a shape).
        source: Manifest form: path relative to the repo root or theme folder,
            or ``text:<word>`` for text symbols.
        path: Absolute path of the artwork file; ``None`` for text symbols.
        text: The word of a text symbol; ``None`` otherwise.
        font_path: The font file (``.ttf``, ``.otf``, ``.ttc``) the theme names for a
            text symbol; ``None``: chosen by coverage from the bundled and the
            machine's fonts (``printdeck.artwork.fonts``).
        font_index: The face of a font collection (``.ttc``) to use, 0 for the first.
        scale: Per-symbol size multiplier (1.0 = as the layout chooses).
        rotate: Whether the layout may rotate this symbol.
        photo_shape: ``circle`` or ``rounded`` crop for photos; ``None`` otherwise.
        color: Home fill colour of a text symbol as ``#rrggbb`` (a card may set the
            word in another colour of the palette, see ``Placement.color``).
        color_fixed: The theme set this word's colour, so every card keeps it.
        lang: BCP 47 language of a text symbol (shaping forms, CJK regional glyphs), or None.
        focus: Photo only: the crop's centre as fractions of the (upright) width and
            height; None: around the faces found, else the centre.
        zoom: Photo only: the crop's side is ``min(w, h) / zoom``.
        nest: Other symbols may sit in this symbol's big holes (``layout.nest``);
            by default its collision outline has no holes.
        remove_background: Photo only: make a plain background touching the
            corners transparent (see ``printdeck.artwork.prepared_picture``).
        faces: A symbol with several faces (a concept: a picture and its word, "3 × 4"
            and "12"): every face's own symbol, face 0 first; this symbol's drawing
            fields are face 0's. Empty for a symbol with one face (the usual case).
        theme_key: The theme entry the symbol came from (``symbols.3``; a face:
            ``symbols.3.faces.1``), for an error about the symbol to name; ``None`` for a
            symbol made in code.
    """

    id: int = field(metadata=NOT_DRAWN)
    name: str = field(metadata=NOT_DRAWN)
    kind: SymbolKind
    source: str = field(metadata=NOT_DRAWN)
    path: Path | None = None
    text: str | None = None
    font_path: Path | None = None
    font_index: int = 0
    scale: float = field(default=1.0, metadata=NOT_DRAWN)
    rotate: bool = field(default=True, metadata=NOT_DRAWN)
    photo_shape: PhotoShape | None = None
    color: str = field(default="#1a1a1a", metadata=NOT_DRAWN)
    color_fixed: bool = field(default=False, metadata=NOT_DRAWN)
    remove_background: bool = False
    lang: str | None = None
    focus: tuple[float, float] | None = None
    zoom: float = 1.0
    nest: bool = field(default=False, metadata=NOT_DRAWN)
    faces: tuple[SymbolSpec, ...] = field(default=(), metadata=NOT_DRAWN)
    theme_key: str | None = field(default=None, metadata=NAMES_IT)

    def error(self, problem: str, fix: str | None = None, **fields: object) -> PrintdeckError:
        """An error about this symbol, from fields: ``key`` its :attr:`theme_key` (so the studio
        puts it on the symbol's tile), ``source`` its artwork file (if it has one), ``problem``
        and ``fix`` as given; the message ``"symbols.3 'cat' (images/cat.png): <problem>; <fix>"``
        (``"symbol 'cat' ..."`` for a symbol made in code).

        Examples:
            >>> cat = SymbolSpec(0, "cat", "svg", "cat.svg", Path("cat.svg"), theme_key="symbols.3")
            >>> error = cat.error("draws nothing", "give a picture with ink")
            >>> error.key, error.source, str(error)
            ('symbols.3', 'cat.svg', "symbols.3 'cat' (cat.svg): draws nothing; give a picture with ink")
        """
        source = shown(self.source) if self.path is not None else None
        where = f"{self.theme_key or 'symbol'} {self.name!r}" + (f" ({source})" if source else "")
        text = f"{where}: {problem}" + (f"; {fix}" if fix else "")
        return PrintdeckError(text, key=self.theme_key, source=source, problem=problem, fix=fix, **fields)  # type: ignore[arg-type]

    @property
    def all_faces(self) -> tuple[SymbolSpec, ...]:
        """The symbol's faces, face 0 first: ``faces``, or the symbol itself when it has one face."""
        return self.faces or (self,)


def drawn_only(symbol: SymbolSpec, *keep: str) -> SymbolSpec:
    """``symbol`` with its id and the other fields that do not change its drawing
    (``NOT_DRAWN``) reset, name, source and theme key kept for messages, so caches of drawings share
    one entry between a theme's symbol and the same symbol renumbered for the deck.

    Args:
        keep: Fields kept as they are besides: what a cache of more than the drawing also
            depends on (``"nest"`` for a silhouette, ``"color"`` for a word's proof).
    """
    defaults = {
        f.name: f.default
        for f in dataclasses.fields(symbol)
        if not f.metadata.get("drawing", True)
        and not f.metadata.get("names_it", False)
        and f.default is not dataclasses.MISSING
        and f.name not in keep
    }
    return dataclasses.replace(symbol, **defaults, id=0)


class CropFound(str, Enum):
    """What a photo's crop was placed around (the manifest's ``found``)."""

    FACE = "face"
    CAT_FACE = "cat face"
    SUBJECT = "subject"
    NOTHING = "nothing"
    FOCUS = "focus"


@dataclass(frozen=True)
class CropReport:
    """What a photo's crop was decided from, and where it went (issue #26).

    Attributes:
        found: What the crop holds: people's faces (``face``), only cats' faces (``cat
            face``), the subject of a photo with no face (``subject``), ``nothing`` (the
            centre), or the theme's ``focus``.
        box_px: The crop square ``(left, top, right, bottom)``, upright source pixels.
        faces: People's faces found.
        cat_faces: Cats' faces found.
        faces_kept: Faces (both kinds) wholly inside the crop's shape.
        subject_px: The subject's box ``(x0, y0, x1, y1)`` in source pixels, or None.
        subject_whole: The subject's box is wholly inside the crop's shape.
    """

    found: CropFound
    box_px: tuple[float, float, float, float]
    faces: int = 0
    cat_faces: int = 0
    faces_kept: int = 0
    subject_px: tuple[float, float, float, float] | None = None
    subject_whole: bool = False

    @property
    def faces_cut(self) -> int:
        """Faces found but not wholly in the crop (a group too wide for the shape)."""
        return self.faces + self.cat_faces - self.faces_kept

    @property
    def needs_check(self) -> bool:
        """A person should look at this crop: nothing was found, a face is cut, or the
        subject (with no face) does not fit whole."""
        if self.found == CropFound.FOCUS:
            return False
        if self.found == CropFound.SUBJECT:
            return not self.subject_whole
        return self.found == CropFound.NOTHING or self.faces_cut > 0

    @property
    def faces_cut_text(self) -> str:
        """What a crop that cuts a face left out, in words the build's summary and the studio
        share: ``its face is too near the edge ...`` (one face), ``none of its 3 faces ...``,
        ``2 of 5 faces fit the crop, the largest group that does``; empty when none is cut."""
        total = self.faces + self.cat_faces
        if self.faces_cut <= 0:
            return ""
        if total == 1:
            return "its face is too near the edge for the crop to hold it whole"
        if self.faces_kept == 0:
            return f"none of its {total} faces fits the crop whole"
        return f"{self.faces_kept} of {total} faces fit the crop, the largest group that does"

    @property
    def badge(self) -> str:
        """The studio's word for it: ``face``, ``pet``, ``subject``, ``your focus``,
        or ``centre: check me`` (and ``check me`` after the others when :attr:`needs_check`)."""
        word = {
            CropFound.FACE: "face",
            CropFound.CAT_FACE: "pet",
            CropFound.SUBJECT: "subject",
            CropFound.FOCUS: "your focus",
            CropFound.NOTHING: "centre",
        }[self.found]
        return f"{word}: check me" if self.needs_check else word

    def as_json(self) -> dict[str, object]:
        """The manifest's record of this crop (pixels rounded to 0.1)."""
        return {
            "found": self.found.value,
            "box_px": [round(v, 1) for v in self.box_px],
            "faces": self.faces,
            "cat_faces": self.cat_faces,
            "faces_kept": self.faces_kept,
            "subject_px": None if self.subject_px is None else [round(v, 1) for v in self.subject_px],
            "subject_whole": self.subject_whole,
            "check": self.needs_check,
        }

    @classmethod
    def from_json(cls, data: dict[str, object]) -> CropReport:
        """The inverse of :meth:`as_json` (the crop cache).

        Raises:
            ValueError, TypeError, KeyError: the record is malformed.
        """
        box = tuple(float(v) for v in data["box_px"])  # type: ignore[attr-defined]
        subject = data.get("subject_px")
        return cls(
            CropFound(data["found"]),
            (box[0], box[1], box[2], box[3]),
            int(data.get("faces", 0)),  # type: ignore[call-overload]
            int(data.get("cat_faces", 0)),  # type: ignore[call-overload]
            int(data.get("faces_kept", 0)),  # type: ignore[call-overload]
            None if subject is None else tuple(float(v) for v in subject),  # type: ignore[arg-type,attr-defined]
            bool(data.get("subject_whole", False)),
        )


@dataclass(frozen=True)
class Placement:
    """Where one symbol sits on a card (the manifest's placed-symbol record).

    The artwork's whole box (full image, or the SVG's full viewBox) is scaled to
    ``box_mm`` = (width, height), centred at ``center_mm`` relative to the card
    centre (x right, y up, mm), then rotated ``rotation_deg`` degrees
    counter-clockwise about that centre. ``color`` is the fill of a word on this card
    (``#rrggbb``; None for pictures).
    """

    symbol_id: int
    center_mm: tuple[float, float]
    rotation_deg: float
    box_mm: tuple[float, float]
    color: str | None = None


@dataclass(frozen=True)
class DeckMark:
    """A class set's deck mark on a card front: a dot of the deck's colour with its letter.

    Attributes:
        deck: The deck's number, 1..N.
        letter: The deck's letter (``A`` for deck 1).
        color: The deck's colour ``#rrggbb`` (its backs' colour too).
        center_mm: The dot's centre from the card's centre (x right, y up), mm.
        radius_mm: The dot's radius, mm; the layout keeps its place free.
    """

    deck: int
    letter: str
    color: str
    center_mm: tuple[float, float]
    radius_mm: float


@dataclass(frozen=True)
class CardLayout:
    """One laid-out card.

    Attributes:
        index: Card index in the deck (0-based).
        placements: One per symbol on the card, in the card's symbol order.
        coverage: Union of silhouettes over the safe-zone disc area, in [0, 1].
        min_gap_mm: Smallest distance between two symbols' silhouettes (their
            conservative collision outlines); the safe-zone circle does not count
            (symbols must lie inside it, with no gap required).
        size_ratio: Smallest over largest symbol, by square root of silhouette area.
        mark: A class set's deck mark drawn on the front, or None (one deck). In a class
            set ``index`` counts through every deck (deck d's card i is ``(d - 1) * cards + i``).
    """

    index: int
    placements: tuple[Placement, ...]
    coverage: float
    min_gap_mm: float
    size_ratio: float
    mark: DeckMark | None = None


@dataclass(frozen=True)
class CardSlot:
    """Where a card sits in the imposition: page (1-based) and centre (mm, from
    the page's bottom-left corner)."""

    card_index: int
    page: int
    center_mm: tuple[float, float]


@dataclass
class BuildResult:
    """What ``printdeck.build`` wrote (the command line prints it as its summary)."""

    pdf_path: Path | None
    """The PDF written (``None``: it went to a stream)."""
    manifest_path: Path | None
    """The manifest written beside it (``None`` for a stream)."""
    pages: int
    cards: int
    symbols_per_card: int
    size_bytes: int
    png_paths: list[Path] = field(default_factory=list)
    unused: list[str] = field(default_factory=list)
    """Names of the theme's symbols that no card shows."""
    faces: str | None = None
    """A deck with faces: how they are shown (the summary's line), else None."""
    photo_crops: list[tuple[str, CropReport]] = field(default_factory=list)
    """Each photo of the deck (its name) and what its crop holds."""
    extras_path: Path | None = None
    """One card a page: the PDF of the legend, rules and credits (never among the cards)."""
    credits_path: Path | None = None
    """The artwork credit beside the per-card images (``CREDITS.txt``), when the deck has one."""
    back_paths: list[Path] = field(default_factory=list)
    """The card backs' images beside the per-card images, when backs are on: one, or one a
    deck of a class set (``back-A.png`` ...)."""
    decks: tuple[str, ...] = ()
    """The decks ``cards`` are printed in, by letter: a class set's (``A``, ``B``...), a split
    deck's ``A`` and ``B``; empty for one deck."""

    @property
    def back_path(self) -> Path | None:
        """The (first deck's) back image: :attr:`back_paths`' first, or None (kept from 0.2.0:
        a script reading it still works; a class set's other decks are in :attr:`back_paths`)."""
        return self.back_paths[0] if self.back_paths else None

    def _cards_text(self) -> str:
        """``55 cards``, or the decks they are in: ``3 decks (A to C) of 13 cards``."""
        if len(self.decks) < 2:
            return f"{self.cards} cards"
        each = self.cards // len(self.decks)
        return f"{len(self.decks)} decks ({_decks_text(self.decks)}) of {each} cards"

    def summary_lines(self, path_text: Callable[[Path], str] = shown) -> list[str]:
        """What a build says when it is done, the same words on the command line and in
        the studio: the PNGs (if any), the PDF with its counts and size, the left-out symbols.

        Args:
            path_text: How a path is written (default: as given, made safe to print).
        """
        lines = []
        if self.png_paths:
            kind = self.png_paths[0].suffix.lstrip(".").upper()
            back = _backs_text(self.back_paths)
            lines.append(f"wrote {len(self.png_paths)} {kind} cards to {path_text(self.png_paths[0].parent)}{back}")
        if self.extras_path is not None:
            lines.append(f"wrote {path_text(self.extras_path)}: the legend, rules and credits")
        where = "the PDF" if self.pdf_path is None else path_text(self.pdf_path)
        manifest = "" if self.manifest_path is None else f" (manifest {self.manifest_path.name})"
        lines.append(
            f"wrote {where}: {self._cards_text()}, {self.symbols_per_card} symbols a card, "
            f"{self.pages} pages, {size_text(self.size_bytes)}{manifest}"
        )
        if self.faces:
            lines.append(self.faces)
        if self.unused:
            lines.append(left_out_line(self.unused))
        return lines + crop_lines(self.photo_crops)


def _decks_text(letters: tuple[str, ...]) -> str:
    """``A and B``, ``A to F``."""
    return " and ".join(letters) if len(letters) <= 2 else f"{letters[0]} to {letters[-1]}"


def crop_lines(photo_crops: list[tuple[str, CropReport]], most: int = 12) -> list[str]:
    """What the photos' crops hold, for the build's summary: one line of counts
    (``photos cropped around: 9 faces, 2 cat faces, 20 subjects, 3 centres``), one naming the
    photos to check (nothing found, or a subject too big for the crop), one per group photo
    whose faces do not all fit. Empty without photos."""
    if not photo_crops:
        return []
    counts: dict[str, int] = {}
    for _, report in photo_crops:
        counts[report.found.value] = counts.get(report.found.value, 0) + 1
    words = {"face": "face", "cat face": "cat face", "subject": "subject", "nothing": "centre", "focus": "focus set"}
    parts = [f"{counts[k]} {words[k]}{'s' if counts[k] != 1 else ''}" for k in words if k in counts]
    lines = [f"photos cropped around: {', '.join(parts)}"]
    check = [n for n, r in photo_crops if r.needs_check and r.faces_cut == 0]
    if check:
        listed = ", ".join(shown(n) for n in check[:most])
        more = f" and {len(check) - most} more (the manifest lists them)" if len(check) > most else ""
        crops = f"{len(check)} photo crop{'s' if len(check) != 1 else ''}"
        lines.append(f"check {crops} (no face or whole subject found): {listed}{more}")
    for name, report in photo_crops:
        if report.faces_cut > 0:
            lines.append(f"photo {shown(name)}: {report.faces_cut_text}; set its focus and zoom to frame it")
    return lines


def _backs_text(back_paths: list[Path]) -> str:
    """The summary's words on the back images: ``, the back as back.png``, or a class set's
    ``, the backs as back-A.png ... back-F.png``; empty without backs."""
    if not back_paths:
        return ""
    if len(back_paths) == 1:
        return f", the back as {back_paths[0].name}"
    return f", the backs as {back_paths[0].name} ... {back_paths[-1].name}"


def size_text(size_bytes: int) -> str:
    """A file size as printdeck reports it: ``3.40 MB`` from 0.1 MB up, else ``412 kB``."""
    return f"{size_bytes / 1e6:.2f} MB" if size_bytes >= 1e5 else f"{size_bytes / 1e3:.0f} kB"


def left_out_line(names: list[str] | tuple[str, ...], most: int = 12, *, manifest: bool = True) -> str:
    """``left out 9 symbols no card shows: a, b, ...`` (at most ``most`` names, then how many
    more, and where the rest are listed: the manifest written, or, with ``manifest`` False
    for a command that writes none, the build's)."""
    listed = ", ".join(shown(n) for n in names[:most])
    where = "the manifest lists them" if manifest else "a build's manifest lists them"
    more = f" and {len(names) - most} more ({where})" if len(names) > most else ""
    return f"left out {len(names)} symbol{'s' if len(names) != 1 else ''} no card shows: {listed}{more}"
