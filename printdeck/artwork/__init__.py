"""The one place that draws a symbol (see :mod:`printdeck.artwork.drawing`).

Public names: :class:`Drawing` and :func:`drawing` (a symbol's one drawing),
:func:`drawing_key` (its cache key), :func:`rasterise` (its pixels, for the
silhouette, the PNGs and the preview), :func:`silhouette` / :class:`Silhouette` (the
trace of a symbol's drawing that the layout packs, cached; :func:`silhouettes` for many,
:class:`ShapeField` its distance bounds), :func:`prepared_picture` (a raster or photo
symbol's picture), :class:`FontFace` and the font helpers, :func:`shape_word`.
ReportLab never appears here: ``printdeck.render.forms`` turns a :class:`Drawing`
into PDF forms.

Names load on first use (:mod:`printdeck.lazy`): a build whose drawings are all cached
never loads the photo framing, the fonts or the look-alike comparison.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from printdeck.artwork.drawing import (  # loaded now: the submodule's name is also the function's
    WORD_SPACE_EM,
    Drawing,
    drawing,
    drawing_key,
    existing_file,
    known_crop_report,
    word_chain,
)
from printdeck.lazy import attribute_loader

if TYPE_CHECKING:
    from printdeck.artwork.colour import (
        DEFAULT_INK_LIMIT,
        OUTPUT_CONDITION,
        OUTPUT_CONDITION_TEXT,
        cmyk_of_rgb,
        cmyk_profile_bytes,
        image_to_cmyk,
        srgb_profile_bytes,
        to_srgb,
        total_ink,
    )
    from printdeck.artwork.colour_vision import Vision, ciede2000, grey_level, simulate, srgb_to_lab
    from printdeck.artwork.fonts import (
        FontFace,
        bundled_faces,
        default_face,
        fallback_chain,
        open_face,
        parse_font_ref,
    )
    from printdeck.artwork.lookalike import (
        DELTA_E_ALIKE,
        SHAPE_SIMILARITY,
        Look,
        LookAlike,
        colour_difference,
        find_look_alikes,
        look_of,
        may_share_silhouette,
        pair_pose,
        pair_verdict,
        same_spelling,
        word_skeleton,
    )
    from printdeck.artwork.picture import (
        EXIF_ORIENTATION,
        Crop,
        crop_square,
        is_upright,
        open_raster,
        oriented_size,
        prepared_picture,
        subject_rings,
        to_rgba,
        upright_file,
    )
    from printdeck.artwork.raster import alpha_array, rasterise, word_svg
    from printdeck.artwork.shape_field import ShapeField
    from printdeck.artwork.shaping import ShapedWord, shape_word
    from printdeck.artwork.svg import declared_svg_size, svg_pixels, svg_root, svg_size, svg_text
    from printdeck.artwork.svgcheck import MAX_SVG_BYTES, resolve_css_variables, svg_structure_check
    from printdeck.artwork.tracing import Silhouette, ink_share, silhouette, silhouette_key, silhouettes, sizing_area
    from printdeck.choices import FONT_SUFFIXES, MAX_IMAGE_BYTES, PHOTO_CORNER_FRACTION
    from printdeck.fileio import read_limited

_WHERE = {
    "DEFAULT_INK_LIMIT": "printdeck.artwork.colour",
    "DELTA_E_ALIKE": "printdeck.artwork.lookalike",
    "Crop": "printdeck.artwork.picture",
    "EXIF_ORIENTATION": "printdeck.artwork.picture",
    "FONT_SUFFIXES": "printdeck.choices",
    "FontFace": "printdeck.artwork.fonts",
    "Look": "printdeck.artwork.lookalike",
    "LookAlike": "printdeck.artwork.lookalike",
    "MAX_IMAGE_BYTES": "printdeck.choices",
    "MAX_SVG_BYTES": "printdeck.artwork.svgcheck",
    "OUTPUT_CONDITION": "printdeck.artwork.colour",
    "OUTPUT_CONDITION_TEXT": "printdeck.artwork.colour",
    "PHOTO_CORNER_FRACTION": "printdeck.choices",
    "SHAPE_SIMILARITY": "printdeck.artwork.lookalike",
    "ShapeField": "printdeck.artwork.shape_field",
    "ShapedWord": "printdeck.artwork.shaping",
    "Silhouette": "printdeck.artwork.tracing",
    "Vision": "printdeck.artwork.colour_vision",
    "alpha_array": "printdeck.artwork.raster",
    "bundled_faces": "printdeck.artwork.fonts",
    "ciede2000": "printdeck.artwork.colour_vision",
    "cmyk_of_rgb": "printdeck.artwork.colour",
    "cmyk_profile_bytes": "printdeck.artwork.colour",
    "crop_square": "printdeck.artwork.picture",
    "declared_svg_size": "printdeck.artwork.svg",
    "default_face": "printdeck.artwork.fonts",
    "fallback_chain": "printdeck.artwork.fonts",
    "find_look_alikes": "printdeck.artwork.lookalike",
    "word_skeleton": "printdeck.artwork.lookalike",
    "same_spelling": "printdeck.artwork.lookalike",
    "pair_verdict": "printdeck.artwork.lookalike",
    "pair_pose": "printdeck.artwork.lookalike",
    "may_share_silhouette": "printdeck.artwork.lookalike",
    "colour_difference": "printdeck.artwork.lookalike",
    "grey_level": "printdeck.artwork.colour_vision",
    "image_to_cmyk": "printdeck.artwork.colour",
    "ink_share": "printdeck.artwork.tracing",
    "is_upright": "printdeck.artwork.picture",
    "look_of": "printdeck.artwork.lookalike",
    "open_face": "printdeck.artwork.fonts",
    "open_raster": "printdeck.artwork.picture",
    "oriented_size": "printdeck.artwork.picture",
    "parse_font_ref": "printdeck.artwork.fonts",
    "prepared_picture": "printdeck.artwork.picture",
    "rasterise": "printdeck.artwork.raster",
    "read_limited": "printdeck.fileio",
    "resolve_css_variables": "printdeck.artwork.svgcheck",
    "shape_word": "printdeck.artwork.shaping",
    "silhouette": "printdeck.artwork.tracing",
    "silhouette_key": "printdeck.artwork.tracing",
    "silhouettes": "printdeck.artwork.tracing",
    "simulate": "printdeck.artwork.colour_vision",
    "sizing_area": "printdeck.artwork.tracing",
    "srgb_profile_bytes": "printdeck.artwork.colour",
    "srgb_to_lab": "printdeck.artwork.colour_vision",
    "subject_rings": "printdeck.artwork.picture",
    "svg_pixels": "printdeck.artwork.svg",
    "svg_root": "printdeck.artwork.svg",
    "svg_size": "printdeck.artwork.svg",
    "svg_structure_check": "printdeck.artwork.svgcheck",
    "svg_text": "printdeck.artwork.svg",
    "to_rgba": "printdeck.artwork.picture",
    "to_srgb": "printdeck.artwork.colour",
    "total_ink": "printdeck.artwork.colour",
    "upright_file": "printdeck.artwork.picture",
    "word_svg": "printdeck.artwork.raster",
}

__all__ = [
    "DEFAULT_INK_LIMIT",
    "DELTA_E_ALIKE",
    "EXIF_ORIENTATION",
    "FONT_SUFFIXES",
    "MAX_IMAGE_BYTES",
    "MAX_SVG_BYTES",
    "OUTPUT_CONDITION",
    "OUTPUT_CONDITION_TEXT",
    "PHOTO_CORNER_FRACTION",
    "SHAPE_SIMILARITY",
    "WORD_SPACE_EM",
    "Crop",
    "Drawing",
    "FontFace",
    "Look",
    "LookAlike",
    "ShapeField",
    "ShapedWord",
    "Silhouette",
    "Vision",
    "alpha_array",
    "bundled_faces",
    "ciede2000",
    "cmyk_of_rgb",
    "cmyk_profile_bytes",
    "colour_difference",
    "crop_square",
    "declared_svg_size",
    "default_face",
    "drawing",
    "drawing_key",
    "existing_file",
    "fallback_chain",
    "find_look_alikes",
    "grey_level",
    "image_to_cmyk",
    "ink_share",
    "is_upright",
    "known_crop_report",
    "look_of",
    "may_share_silhouette",
    "open_face",
    "open_raster",
    "oriented_size",
    "pair_pose",
    "pair_verdict",
    "parse_font_ref",
    "prepared_picture",
    "rasterise",
    "read_limited",
    "resolve_css_variables",
    "same_spelling",
    "shape_word",
    "silhouette",
    "silhouette_key",
    "silhouettes",
    "simulate",
    "sizing_area",
    "srgb_profile_bytes",
    "srgb_to_lab",
    "subject_rings",
    "svg_pixels",
    "svg_root",
    "svg_size",
    "svg_structure_check",
    "svg_text",
    "to_rgba",
    "to_srgb",
    "total_ink",
    "upright_file",
    "word_chain",
    "word_skeleton",
    "word_svg",
]

__getattr__ = attribute_loader(__name__, _WHERE)
