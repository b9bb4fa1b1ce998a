"""What the PDF and the PNGs print besides the cards: one frozen record, made from the theme once.

:meth:`PrintJob.from_theme` is the only place that reads a theme for rendering; the
renderers (:func:`printdeck.render.render_pdf`, :func:`printdeck.render.render_pngs`)
take a :class:`PrintJob` and never see the theme. No ReportLab here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from printdeck.choices import ColourMode, CutLines, PdfX, SheetSide
from printdeck.model import SymbolSpec
from printdeck.render.style import CardStyle, luminance_of
from printdeck.theme import Theme, resolve_path
from printdeck.units import paper_size_mm

DEFAULT_BACK_COLOR = "#2b4c7e"


@dataclass(frozen=True)
class BackDesign:
    """What a card back shows.

    Attributes:
        color: Background colour ``#rrggbb``.
        pattern: ``none``, ``title``, ``rings`` or ``dots``.
        title: Text for the ``title`` pattern.
        image: The back picture or logo (drawn as a symbol is), or ``None``.
        fit: ``cover`` (the picture fills the bleed disc) or ``contain`` (all of it
            shows, its longer side ``size`` times the card's diameter).
        size: The share of the diameter a contained picture spans.
        duplex: ``long-edge`` or ``short-edge``.
        offset_mm: (x, y) shift of the backs, mm.
        letter: One deck's letter (or number) of several, printed large under the
            title (:func:`printdeck.render.backs.deck_back`); None for one deck.
    """

    color: str = DEFAULT_BACK_COLOR
    pattern: str = "title"
    title: str = "printdeck"
    image: SymbolSpec | None = None
    fit: str = "cover"
    size: float = 0.6
    duplex: str = "long-edge"
    offset_mm: tuple[float, float] = (0.0, 0.0)
    letter: str | None = None


@dataclass(frozen=True)
class PrintJob:
    """Everything printed besides the cards' layouts.

    Attributes:
        name: The theme's name (in the PDF's Subject).
        title: The deck's title (document title, sheet footers, legend and rules headings).
        author: The document's author.
        attribution: The artwork credit (sheet footers, credits page, legend and rules
            pages, the PDF's Subject, the PNGs' Copyright), or ``None``.
        card: How the card disc is drawn (cut radius, bleed, colours, cut guide).
        paper_size_mm: The paper (width, height), mm: the size of the legend and rules
            pages when the cards are printed one a page.
        cut_marks: Draw cut marks on the front sheets.
        registration_marks: Draw print-then-cut registration marks on the front sheets.
        max_ppi: Largest resolution pictures are stored at in the PDF, pixels an inch.
        backs: The card back, printed on a page after each front sheet; ``None``: no backs.
        legend: Add the symbol legend page(s).
        rules: Add the rules sheet.
        faces: ``mixed`` or ``split`` when some symbol has several faces (the rules say
            how a match may look; split sheets name their deck), else ``None``.
        faces_example: The rules' example of a match in two faces, the deck's first symbol
            with faces, its two faces in words (:func:`faces_example`).
        tuck_box: Add a tuck box net a deck (after the rules).
        match: λ, the symbols every two cards share: the design's (the build sets it from
            the design; :meth:`from_theme` from ``deck.match``); the rules say it.
        card_thickness_mm: One printed card's thickness, mm (the tuck box's depth).
        grayscale: Print in grey: a DeviceGray PDF and grey PNGs (``paper.grayscale``).
        colour: ``rgb`` or ``cmyk`` (press CMYK through the bundled profile, as PDF/X).
        pdfx: With CMYK, ``x-4`` or ``x-1a``.
        ink_limit: With CMYK, the total ink limit, percent.
        die_line: Stroke each cut path in the spot colour ``CutContour`` on its own layer.
        backs_first: One card a page: each back page before its front.
        split_at: A split deck (``deck.faces: split``): its deck A's card count, the index
            of deck B's first card (the two decks' backs differ:
            :func:`~printdeck.render.backs.back_decks`); None for any other deck. Only a
            deck's plan knows it (``printdeck.deck_plan.plan_print_job``).
    """

    name: str
    title: str
    author: str
    attribution: str | None
    card: CardStyle
    paper_size_mm: tuple[float, float]
    cut_marks: bool = True
    registration_marks: bool = False
    max_ppi: int = 450
    backs: BackDesign | None = None
    legend: bool = False
    rules: bool = False
    faces: str | None = None
    faces_example: tuple[str, str] | None = None
    tuck_box: bool = False
    card_thickness_mm: float = 0.3
    match: int = 1
    grayscale: bool = False
    colour: ColourMode = ColourMode.RGB
    pdfx: PdfX = PdfX.X4
    ink_limit: int = 300
    die_line: bool = False
    backs_first: bool = False
    split_at: int | None = None
    scale_note: bool = True

    @property
    def cmyk(self) -> bool:
        """Whether the PDF is press CMYK (PDF/X)."""
        return self.colour == ColourMode.CMYK

    def sides(self, single: bool) -> tuple[SheetSide, ...]:
        """The PDF pages of one sheet, in order (see :func:`side_order`)."""
        return side_order(self.backs is not None, self.backs_first, single)

    @classmethod
    def from_theme(cls, theme: Theme) -> PrintJob:
        """The print job of a loaded theme (with any command-line overrides already applied).

        Raises:
            PrintdeckError: The paper size or the backs image path is unusable.
        """
        spec = theme.spec
        card, paper = spec.card, spec.paper
        shape = card.outline()
        guide = paper.cut_guide
        if guide == "auto":  # shared cut lines: neighbours of one colour hide the edge between them
            light_or_shared = is_light(card.background) or paper.cuts == CutLines.SHARED
            guide = light_or_shared and paper.layout == "sheet" and not paper.die_line  # a die cuts: no hairline
        style = CardStyle(
            radius_mm=shape.min_side_mm / 2.0,
            bleed_mm=card.bleed_mm,
            background=card.background,
            border_color=card.border_color,
            cut_guide=bool(guide),
            shape=None if shape.is_circle else shape,
            punch_ring=paper.punch_ring,
            centre_mark=paper.centre_mark,
            die_line=paper.die_line,
        )
        return cls(
            name=theme.name,
            title=spec.title,
            author=spec.author or "printdeck",
            attribution=theme.attribution,
            card=style,
            paper_size_mm=paper_size_mm(paper.size),
            cut_marks=paper.cut_marks,
            registration_marks=paper.registration_marks,
            max_ppi=paper.max_ppi,
            backs=_back_design(theme) if spec.backs.enabled else None,
            legend=spec.extras.legend,
            rules=spec.extras.rules,
            faces=str(getattr(spec.deck.faces, "value", spec.deck.faces))
            if any(s.faces for s in theme.symbols)
            else None,
            faces_example=faces_example(theme.symbols),
            tuck_box=spec.extras.tuck_box,
            card_thickness_mm=spec.extras.card_thickness_mm,
            match=spec.deck.match,
            grayscale=paper.grayscale,
            colour=paper.color,
            pdfx=paper.pdfx,
            ink_limit=paper.ink_limit,
            die_line=paper.die_line,
            backs_first=spec.backs.back_first,
            scale_note=paper.scale_note,
        )


def side_order(backs: bool, backs_first: bool, single: bool) -> tuple[SheetSide, ...]:
    """The PDF pages a sheet prints as, in order: its front, then its back (with ``backs``);
    the back first when ``backs_first`` and one card a page (``single``: a print shop's
    file, ``backs.order: before``). Sheets follow one another: page ``k`` of the list of
    sheet ``n`` is the PDF's page ``(n - 1) * len(order) + k + 1``."""
    if not backs:
        return (SheetSide.FRONT,)
    both = (SheetSide.FRONT, SheetSide.BACK)
    return both[::-1] if backs_first and single else both


def pdf_page(sheet: int, side: SheetSide, order: tuple[SheetSide, ...]) -> int:
    """The PDF page (from 1) of ``side`` of sheet ``sheet`` (from 1) for a :func:`side_order`.

    Raises:
        ValueError: ``side`` is not printed (a back without backs).
    """
    if side not in order:
        raise ValueError(f"side: the deck prints no {side} pages")
    return (sheet - 1) * len(order) + order.index(side) + 1


LIGHT_LUMINANCE = 0.6
"""A card background at least this light (relative luminance, 0-1) gets the automatic cut guide."""


def is_light(color: str) -> bool:
    """Whether ``#rrggbb`` is light enough that a white sheet hides the card's edge
    (WCAG relative luminance of at least :data:`LIGHT_LUMINANCE`)."""
    return luminance_of(color) >= LIGHT_LUMINANCE


def _back_design(theme: Theme) -> BackDesign:
    """The theme's ``backs`` section, its image (if any) made a symbol drawn as symbols are."""
    b = theme.spec.backs
    image = None
    if b.image:
        path = resolve_path(b.image, theme.base_dir, "backs.image")[0]
        image = SymbolSpec(
            id=-1,
            name="card back",
            kind="svg" if path.suffix.lower() == ".svg" else "raster",
            source=b.image,
            path=path,
            rotate=False,
            theme_key="backs.image",
        )
    return BackDesign(
        color=b.color,
        pattern=b.pattern,
        title=theme.spec.title,
        image=image,
        fit=b.fit,
        size=b.size,
        duplex=b.duplex,
        offset_mm=(b.offset_x_mm, b.offset_y_mm),
    )


def faces_example(symbols: Sequence[SymbolSpec]) -> tuple[str, str] | None:
    """How the rules show a match in two faces: the first symbol with faces, its first two
    (``('"3 + 3"', '"6"')``, ``('the cat picture', '"gato"')``: a picture by its symbol's
    name, else its own); ``None`` when no symbol has faces."""
    for symbol in symbols:
        faces = symbol.all_faces
        if len(faces) >= 2:
            concept = symbol.name.split(" = ")[0]  # a name of its own, or its faces' ("IMG 2031 = gato")
            first, second = (
                f'"{face.text}"' if face.kind == "text" else f"the {concept} picture" for face in faces[:2]
            )
            return first, second
    return None
