"""printdeck.render: the printed outputs. Laid-out cards in; PDF, PNGs and test sheets out.

Public names (everything else in the package is internal):

- :class:`PrintJob` (with :class:`BackDesign`, :class:`CardStyle`): what is printed
  besides the cards, made from a theme once by :meth:`PrintJob.from_theme`;
- :func:`side_order` / :func:`pdf_page`: which PDF page prints which side of a sheet;
- :func:`impose` / :class:`Imposition`: where each card sits on the paper (pure
  geometry), with :func:`paper_size_mm` (from :mod:`printdeck.units`) for named papers;
- :func:`render_pdf`: the print-ready PDF (CMYK PDF/X and die lines: :mod:`~printdeck.render.pdfx`),
  :func:`extras_file`: where a one-card-a-page file's legend, rules and credits go;
  :func:`render_pngs`: one PNG a card (with
  the folder's record of them: :data:`PNG_RECORD`, :func:`card_files`,
  :func:`read_png_record`);
- :func:`prove_symbols` / :func:`check_word_colours`: the proof, before any layout,
  that every symbol prints the ink its silhouette shows;
- :func:`write_calibration`: the duplex alignment test sheet;
- :func:`page_image` / :func:`page_count`: PDF pages drawn by PDFium, one call at a
  time in a process (it is not thread-safe);
- :func:`render_slides` (with :class:`SlideRound`, :class:`SlideText`, :data:`GAMES` and
  :func:`game_rules`): the 16:9 slides for the classroom screen;
- :func:`contact_sheet` / :func:`card_image`: the quick PNG preview of laid-out cards
  (:func:`older_preview`: one an older printdeck wrote, unmarked);
- the warnings a render can give: :class:`ResolutionWarning`, :class:`SvgImageWarning`,
  :class:`VectorWarning`, :class:`FaintEdgeWarning`, :class:`DarkPhotoWarning`, :class:`BackgroundWarning`,
  :class:`PaleWordWarning`, :class:`CreditWarning`, :class:`MarkWarning`.

Names load on first use (:mod:`printdeck.lazy`): ``impose`` costs no ReportLab, and the
proof does not load the PDF writer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from printdeck.lazy import attribute_loader

if TYPE_CHECKING:
    from printdeck.render.backs import BackDeck, back_decks, back_image, check_back_resolution, deck_back
    from printdeck.render.calibrate import write_calibration
    from printdeck.render.class_images import back_name, card_name
    from printdeck.render.cut_outs import BackgroundWarning
    from printdeck.render.cutfile import cut_file_names, write_cut_files
    from printdeck.render.forms import REFUSE_DPI, ResolutionWarning, SvgImageWarning, check_raster_resolution
    from printdeck.render.imposition import Imposition, impose
    from printdeck.render.pdf import extras_file, render_pdf
    from printdeck.render.pdf_pixels import page_count, page_image
    from printdeck.render.pictures import make_photo_master
    from printdeck.render.png import CREDITS_FILE, render_pngs, shape_mask
    from printdeck.render.png_record import PNG_RECORD, card_files, read_png_record
    from printdeck.render.preview import card_image, contact_sheet, older_preview
    from printdeck.render.print_job import BackDesign, PrintJob, pdf_page, side_order
    from printdeck.render.proof import (
        DarkPhotoWarning,
        FaintEdgeWarning,
        VectorWarning,
        proof_ready,
        proof_stored,
        prove_symbols,
    )
    from printdeck.render.rules_text import GAMES, game_rules
    from printdeck.render.sheet import CreditWarning, MarkWarning, warn_missing_marks
    from printdeck.render.slides import SlideRound, SlideText, render_slides
    from printdeck.render.style import CardStyle
    from printdeck.render.tuck_box import TuckBox, box_page_size_mm
    from printdeck.render.word_proof import PaleWordWarning, check_word_colours
    from printdeck.render.word_sizes import SmallWordWarning, check_word_heights
    from printdeck.units import paper_size_mm

_WHERE = {
    "TuckBox": "printdeck.render.tuck_box",
    "box_page_size_mm": "printdeck.render.tuck_box",
    "GAMES": "printdeck.render.rules_text",
    "SlideRound": "printdeck.render.slides",
    "SlideText": "printdeck.render.slides",
    "game_rules": "printdeck.render.rules_text",
    "render_slides": "printdeck.render.slides",
    "back_image": "printdeck.render.backs",
    "back_decks": "printdeck.render.backs",
    "BackDeck": "printdeck.render.backs",
    "deck_back": "printdeck.render.backs",
    "check_back_resolution": "printdeck.render.backs",
    "back_name": "printdeck.render.class_images",
    "CREDITS_FILE": "printdeck.render.png",
    "card_name": "printdeck.render.class_images",
    "BackDesign": "printdeck.render.print_job",
    "CardStyle": "printdeck.render.style",
    "CreditWarning": "printdeck.render.sheet",
    "Imposition": "printdeck.render.imposition",
    "MarkWarning": "printdeck.render.sheet",
    "warn_missing_marks": "printdeck.render.sheet",
    "PNG_RECORD": "printdeck.render.png_record",
    "PrintJob": "printdeck.render.print_job",
    "pdf_page": "printdeck.render.print_job",
    "side_order": "printdeck.render.print_job",
    "ResolutionWarning": "printdeck.render.forms",
    "SvgImageWarning": "printdeck.render.forms",
    "REFUSE_DPI": "printdeck.render.forms",
    "check_raster_resolution": "printdeck.render.forms",
    "check_word_heights": "printdeck.render.word_sizes",
    "SmallWordWarning": "printdeck.render.word_sizes",
    "VectorWarning": "printdeck.render.proof",
    "DarkPhotoWarning": "printdeck.render.proof",
    "FaintEdgeWarning": "printdeck.render.proof",
    "BackgroundWarning": "printdeck.render.cut_outs",
    "PaleWordWarning": "printdeck.render.word_proof",
    "card_files": "printdeck.render.png_record",
    "cut_file_names": "printdeck.render.cutfile",
    "write_cut_files": "printdeck.render.cutfile",
    "card_image": "printdeck.render.preview",
    "check_word_colours": "printdeck.render.word_proof",
    "contact_sheet": "printdeck.render.preview",
    "extras_file": "printdeck.render.pdf",
    "impose": "printdeck.render.imposition",
    "make_photo_master": "printdeck.render.pictures",
    "older_preview": "printdeck.render.preview",
    "paper_size_mm": "printdeck.units",
    "proof_ready": "printdeck.render.proof",
    "proof_stored": "printdeck.render.proof",
    "prove_symbols": "printdeck.render.proof",
    "read_png_record": "printdeck.render.png_record",
    "render_pdf": "printdeck.render.pdf",
    "page_count": "printdeck.render.pdf_pixels",
    "page_image": "printdeck.render.pdf_pixels",
    "render_pngs": "printdeck.render.png",
    "shape_mask": "printdeck.render.png",
    "write_calibration": "printdeck.render.calibrate",
}

__all__ = [
    "CREDITS_FILE",
    "GAMES",
    "PNG_RECORD",
    "REFUSE_DPI",
    "BackDeck",
    "BackDesign",
    "BackgroundWarning",
    "CardStyle",
    "CreditWarning",
    "DarkPhotoWarning",
    "FaintEdgeWarning",
    "Imposition",
    "MarkWarning",
    "PaleWordWarning",
    "PrintJob",
    "ResolutionWarning",
    "SlideRound",
    "SlideText",
    "SmallWordWarning",
    "SvgImageWarning",
    "TuckBox",
    "VectorWarning",
    "back_decks",
    "back_image",
    "back_name",
    "box_page_size_mm",
    "card_files",
    "card_image",
    "card_name",
    "check_back_resolution",
    "check_raster_resolution",
    "check_word_colours",
    "check_word_heights",
    "contact_sheet",
    "cut_file_names",
    "deck_back",
    "extras_file",
    "game_rules",
    "impose",
    "make_photo_master",
    "older_preview",
    "page_count",
    "page_image",
    "paper_size_mm",
    "pdf_page",
    "proof_ready",
    "proof_stored",
    "prove_symbols",
    "read_png_record",
    "render_pdf",
    "render_pngs",
    "render_slides",
    "shape_mask",
    "side_order",
    "warn_missing_marks",
    "write_calibration",
    "write_cut_files",
]

__getattr__ = attribute_loader(__name__, _WHERE)
