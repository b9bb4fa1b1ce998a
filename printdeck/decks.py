"""A made deck in memory (:class:`Deck`): design, symbols and every card laid out, written
nowhere until :meth:`Deck.save` writes its PDF, its PNG cards (as a zip) or its manifest
to a file or a binary stream. :func:`printdeck.make` makes one; :func:`printdeck.build`
is ``make`` then the files."""

from __future__ import annotations

import functools
import io
import json
import tempfile
import zipfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from os import PathLike
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from printdeck.choices import Duplex, SaveKind
from printdeck.class_sets import class_decks
from printdeck.deck_plan import DeckPlan, plan_print_job
from printdeck.errors import PrintdeckError, path_error
from printdeck.fileio import atomic_output, check_replaceable
from printdeck.manifest import build_manifest
from printdeck.model import CardLayout
from printdeck.outputs import theme_inputs
from printdeck.theme import BuildSettings, Theme
from printdeck.userfiles import check_not_inputs

if TYPE_CHECKING:
    from printdeck.render import PrintJob


Target = str | PathLike[str] | IO[bytes]
"""Where :meth:`Deck.save` writes: a file name, or a binary stream open for writing."""


@dataclass(frozen=True)
class Deck:
    """A deck made in memory: nothing is written until :meth:`save`.

    Attributes:
        plan: The theme, the design and the symbol on each point (:class:`DeckPlan`).
        layouts: Every card laid out, in card order (:attr:`cards`).
        settings: The build's validated options (dpi and margin of PNG cards).

    Examples:
        >>> import io, printdeck
        >>> deck = printdeck.make({"deck": {"symbols_per_card": 3},
        ...                        "symbols": [{"text": w} for w in "abcdefg"]})
        >>> len(deck.cards), deck.manifest["design"]["order"]
        (7, 2)
        >>> pdf = io.BytesIO()
        >>> deck.save(pdf) > 0 and pdf.getvalue().startswith(b"%PDF")
        True
    """

    plan: DeckPlan
    layouts: tuple[CardLayout, ...]
    settings: BuildSettings

    @property
    def theme(self) -> Theme:
        """The theme, with the build's options written in."""
        return self.plan.theme

    @property
    def cards(self) -> tuple[CardLayout, ...]:
        """Every card, in order: its symbols (``placements``: symbol id, centre and size in
        mm, angle in degrees); the symbols by id are :attr:`DeckPlan.symbols`."""
        return self.layouts

    @functools.cached_property
    def manifest(self) -> dict[str, Any]:
        """What the deck holds, as the build's ``<out>.json`` says it (a plain dict)."""
        plan = self.plan
        return build_manifest(
            plan.theme,
            plan.theme.spec.seed,
            plan.design,
            plan.concepts or plan.symbols,
            self.layouts,
            plan.imposition,
            list(plan.unused_symbols),
            plan.faced,
            [deck.seed for deck in class_decks(plan.theme)],
        )

    def print_job(self) -> PrintJob:
        """What is printed besides the cards (:func:`printdeck.deck_plan.plan_print_job`: the
        rules worded for the design's λ, a split deck's two backs)."""
        return plan_print_job(self.plan)

    def manifest_text(self) -> str:
        """The manifest as the build writes it: indented JSON, one final line break."""
        return json.dumps(self.manifest, indent=1, ensure_ascii=False) + "\n"

    def write_pdf(
        self, path: Path, progress: Callable[[int], None] | None = None, extras_path: Path | None = None
    ) -> int:
        """Render the PDF to ``path`` (as it is: the caller makes it atomic); its pages. One
        card a page: the credits, legend, rules and tuck boxes go to ``extras_path``
        (:meth:`has_extras_file`; default ``<path>-extras.pdf``)."""
        from printdeck.render import render_pdf  # noqa: PLC0415

        plan = self.plan
        return render_pdf(
            self.print_job(),
            plan.symbols,
            self.layouts,
            plan.imposition,
            path,
            progress=progress,
            legend_groups=legend_cells(plan, self.layouts),
            extras_path=extras_path,
        )

    def has_extras_file(self) -> bool:
        """Whether the PDF comes with an extras PDF: one card a page (a print shop prints every
        page it gets) with a credit, a legend, rules or tuck boxes to print apart."""
        return self.plan.imposition.single and bool(self.extras_contents())

    def extras_contents(self) -> tuple[str, ...]:
        """What an extras PDF holds, in its order and in words: ``("the credits", "the
        legend", "the rules", "the tuck boxes")`` or fewer (see :meth:`has_extras_file`)."""
        job = self.print_job()
        several = self.plan.theme.spec.deck.copies > 1 or job.split_at is not None  # a box a deck
        boxes = "the tuck boxes" if several else "the tuck box"
        parts = {"the credits": job.attribution, "the legend": job.legend, "the rules": job.rules, boxes: job.tuck_box}
        return tuple(words for words, wanted in parts.items() if wanted)

    def credits_file(self, folder: Path) -> Path | None:
        """The artwork credit :meth:`write_pngs` writes into ``folder`` (None: the deck has none)."""
        from printdeck.render import CREDITS_FILE  # noqa: PLC0415 - ReportLab only when rendering

        return Path(folder) / CREDITS_FILE if self.print_job().attribution else None

    def backs_duplex(self) -> Duplex | None:
        """The edge the PDF's back pages are placed for the sheet to be turned on (the
        theme's ``backs.duplex``), or None when the PDF has no backs or is a print shop's
        file of one card a page (its backs are centred on their pages: no edge to tell)."""
        backs = self.print_job().backs
        return None if backs is None or self.plan.imposition.single else Duplex(backs.duplex)

    def back_files(self, folder: Path) -> list[Path]:
        """The back images :meth:`write_pngs` writes into ``folder``: none without backs,
        ``back.png``, or one a deck of a class set or a split deck (``back-A.png`` ...)."""
        job = self.print_job()
        if job.backs is None:
            return []
        from printdeck.render import back_decks, back_name  # noqa: PLC0415 - ReportLab only when rendering

        suffix = self.settings.image_format or "png"
        return [Path(folder) / f"{back_name(deck.letter)}.{suffix}" for deck in back_decks(job, self.layouts)]

    def write_pngs(self, folder: Path) -> list[Path]:
        """Write one PNG (or JPEG) a card into ``folder``, the backs beside them when backs are on
        (one a deck of a class set or a split deck, in its colour and with its letter, as the
        PDF prints them), and the credits (see ``printdeck.render.render_pngs``); the cards' paths."""
        from printdeck.render import (  # noqa: PLC0415 - ReportLab only when rendering
            back_decks,
            back_image,
            back_name,
            check_back_resolution,
            deck_back,
            render_pngs,
        )

        job = self.print_job()
        backs = {}
        if job.backs is not None:
            check_back_resolution(job)
            style, dpi, margin_mm = job.card, self.settings.dpi, self.settings.png_margin_mm
            for deck in back_decks(job, self.layouts):
                design = deck_back(job.backs, deck)
                backs[back_name(deck.letter)] = back_image(
                    design, style.radius_mm, style.bleed_mm, dpi, margin_mm, style.shape, band=deck.color
                )
        return render_pngs(
            job,
            self.plan.symbols,
            self.layouts,
            folder,
            dpi=self.settings.dpi,
            extra_margin_mm=self.settings.png_margin_mm,
            cut=self.settings.png_cut,
            image_format=str(self.settings.image_format or "png"),
            backs=backs,
        )

    def save(self, target: Target, kind: str = "pdf") -> int:
        """Write the deck's PDF, its PNG cards (a zip) or its manifest.

        Args:
            target: A file name (written atomically: on an error the old file stays), or
                a binary stream open for writing (``io.BytesIO()``, a web response).
            kind: ``"pdf"``, ``"png-zip"`` or ``"manifest"`` (:class:`SaveKind`).

        Returns:
            The bytes written.

        Raises:
            PrintdeckError: an unknown ``kind``; a file name that is a folder, a symlink or
                a special file, or whose folder does not exist, or one of the files the
                deck was made from (its theme, a picture, a font); unusable artwork.
        """
        if kind not in tuple(SaveKind):
            raise PrintdeckError(
                key="kind", value=kind, problem=f"expected one of {', '.join(SaveKind)}", is_argument=True
            )
        data = self.to_bytes(kind)
        if hasattr(target, "write"):
            target.write(data)
            return len(data)
        path = Path(target)
        if path.is_dir() or not (path.parent if str(path.parent) else Path(".")).is_dir():
            raise path_error("target", path, "not a file in an existing folder", "choose another file name")
        check_not_inputs([("target", path)], theme_inputs(self.plan.theme))  # never over the theme or its pictures
        check_replaceable(path, "target")
        with atomic_output(path) as tmp:
            tmp.write_bytes(data)
        return len(data)

    def to_bytes(self, kind: str = "pdf") -> bytes:
        """The bytes :meth:`save` writes for ``kind`` (``"pdf"``, ``"png-zip"``, ``"manifest"``)."""
        kind = SaveKind(kind)
        if kind is SaveKind.MANIFEST:
            return self.manifest_text().encode("utf-8")
        with tempfile.TemporaryDirectory(prefix="printdeck-save-") as scratch:
            if kind is SaveKind.PDF:
                self.write_pdf(Path(scratch) / "deck.pdf")
                return (Path(scratch) / "deck.pdf").read_bytes()
            out = io.BytesIO()
            with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as archive:
                self.write_pngs(Path(scratch) / "cards")  # the cards, the back and the credits
                for item in sorted((Path(scratch) / "cards").iterdir()):
                    if not item.name.startswith("."):
                        archive.write(item, item.name)
            return out.getvalue()


def legend_cells(plan: DeckPlan, layouts: Sequence[CardLayout]) -> list[list[int]] | None:
    """The legend's cells for a deck with faces: each symbol the cards show, with all its
    faces' drawings (None: one cell a drawing, as for a deck without faces)."""
    faced = plan.faced
    if faced is None or not faced.has_faces:
        return None
    shown_points = sorted({faced.drawing_faces[p.symbol_id][0] for c in layouts for p in c.placements})
    groups: dict[int, list[int]] = {p: [] for p in shown_points}
    for drawing, (point, _) in enumerate(faced.drawing_faces):
        if point in groups:
            groups[point].append(drawing)
    return [groups[p] for p in shown_points]
