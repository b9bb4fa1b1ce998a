"""What a build wrote, and the summary the command line and the studio print of it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from printdeck.choices import Duplex
from printdeck.errors import counted, shown
from printdeck.model import CropReport


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
    extras_contents: tuple[str, ...] = ("the credits", "the legend", "the rules")
    """What the extras PDF holds, in words (``Deck.extras_contents``)."""
    extras_rgb_beside_cmyk: bool = False
    """The cards' PDF is CMYK for a press, the extras PDF RGB (grey: ``extras_grey``) for the
    user's own printer."""
    extras_grey: bool = False
    """The extras PDF is grey (DeviceGray: ``paper.grayscale``), not RGB."""
    cut_paths: list[Path] = field(default_factory=list)
    """The cut files (``paper.cut_files``): each sheet's SVG, then its DXF, sheet 1 first."""
    credits_path: Path | None = None
    """The artwork credit beside the per-card images (``CREDITS.txt``), when the deck has one."""
    back_paths: list[Path] = field(default_factory=list)
    """The card backs' images beside the per-card images, when backs are on: one, or one a
    deck of a class set or a split deck (``back-A.png`` ...; a class set of a letters deck's
    ``back-1.png`` ...)."""
    decks: tuple[str, ...] = ()
    """The decks ``cards`` are printed in, by letter: a class set's (``A``, ``B``..., or
    ``1``, ``2``... for a deck of letters), a split deck's ``A`` and ``B``; empty for one deck."""
    duplex: Duplex | None = None
    """The edge the PDF's back pages are placed for the sheet to be turned on (the theme's
    ``backs.duplex``, as :func:`printdeck.render.backs.mirror_mm` mirrors them); None: no backs."""

    @property
    def print_hint(self) -> str | None:
        """How to print a PDF with card backs, in one line (None without backs): ``Print it
        on both sides of the paper at 100 % (actual size), set to "flip on long edge": ...``
        (the backs meet their fronts only unscaled, as the calibration sheet says too)."""
        if self.duplex is None:
            return None
        return (
            f"Print it on both sides of the paper at 100 % (actual size), set to \u201c{self.duplex.flip}\u201d: "
            "the card backs are placed to meet their fronts that way"
        )

    @property
    def back_path(self) -> Path | None:
        """The (first deck's) back image: :attr:`back_paths`' first, or None (kept from 0.2.0:
        a script reading it still works; a class set's other decks are in :attr:`back_paths`)."""
        return self.back_paths[0] if self.back_paths else None

    def _cards_text(self) -> str:
        """``55 cards``, or the decks they are in: ``3 decks (A to C) of 13 cards``."""
        return cards_text(self.cards, self.decks)

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
            colour = "grey" if self.extras_grey else "RGB"
            home = (
                f" ({colour}, to print yourself: the press takes the cards' PDF)" if self.extras_rgb_beside_cmyk else ""
            )
            lines.append(f"wrote {path_text(self.extras_path)}: {_listed(self.extras_contents)}{home}")
        if self.cut_paths:
            lines.append(cut_files_line(self.cut_paths, path_text))
        where = "the PDF" if self.pdf_path is None else path_text(self.pdf_path)
        manifest = "" if self.manifest_path is None else f" (manifest {self.manifest_path.name})"
        lines.append(
            f"wrote {where}: {self._cards_text()}, {self.symbols_per_card} symbols a card, "
            f"{counted(self.pages, 'page')}, {size_text(self.size_bytes)}{manifest}"
        )
        if self.faces:
            lines.append(self.faces)
        if self.unused:
            lines.append(left_out_line(self.unused))
        return lines + crop_lines(self.photo_crops)


def cards_text(cards: int, decks: tuple[str, ...] = ()) -> str:
    """``55 cards``, or the decks ``cards`` cards are printed in: ``3 decks (A to C) of 13
    cards`` (``decks``: their letters; a build's summary and the studio's sheet say it alike).

    Examples:
        >>> cards_text(21, ("A", "B", "C"))
        '3 decks (A to C) of 7 cards'
        >>> cards_text(1)
        '1 card'
    """
    if len(decks) < 2:
        return counted(cards, "card")
    return f"{len(decks)} decks ({_decks_text(decks)}) of {counted(cards // len(decks), 'card')}"


def _listed(parts: tuple[str, ...]) -> str:
    """``the credits``, ``the credits and the legend``, ``the credits, the legend and the rules``."""
    return parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} and {parts[-1]}"


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


def cut_files_line(paths: list[Path], path_text: Callable[[Path], str] = shown) -> str:
    """The summary's line on the cut files (an SVG and a DXF a sheet, as
    :func:`printdeck.render.cut_file_names` orders them), the first named by ``path_text``.

    Examples:
        >>> cut_files_line([Path(f"r5-cut-0{n}.{x}") for n in (1, 2) for x in ("svg", "dxf")])
        'wrote cut files r5-cut-01.svg ... r5-cut-02.dxf (2 sheets, SVG and DXF)'
    """
    between = ", " if len(paths) == 2 else " ... "
    sheets = counted(len(paths) // 2, "sheet")
    return f"wrote cut files {path_text(paths[0])}{between}{paths[-1].name} ({sheets}, SVG and DXF)"


def _backs_text(back_paths: list[Path]) -> str:
    """The summary's words on the back images: ``, the back as back.png``, or a class set's
    ``, the backs as back-A.png ... back-F.png`` (a split deck's ``back-A.png and
    back-B.png``); empty without backs."""
    if not back_paths:
        return ""
    if len(back_paths) == 1:
        return f", the back as {back_paths[0].name}"
    between = " and " if len(back_paths) == 2 else " ... "
    return f", the backs as {back_paths[0].name}{between}{back_paths[-1].name}"


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
