"""The one place that draws a symbol (see :mod:`printdeck.artwork.drawing`).

Public names: :class:`Drawing` and :func:`drawing` (a symbol's one drawing),
:func:`drawing_key` (its cache key), :func:`rasterise` (its pixels, for the
silhouette, the PNGs and the preview), :func:`silhouette` / :class:`Silhouette` (the
trace of a symbol's drawing that the layout packs, cached; :func:`silhouettes` for many,
:class:`ShapeField` its distance bounds), :func:`prepared_picture` (a raster or photo
symbol's picture), :class:`FontFace` and the font helpers, :func:`shape_word`.
ReportLab never appears here: ``printdeck.render.forms`` turns a :class:`Drawing`
into PDF forms.
"""

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
from printdeck.artwork.drawing import (
    WORD_SPACE_EM,
    Drawing,
    drawing,
    drawing_key,
    existing_file,
    known_crop_report,
    word_chain,
)
from printdeck.artwork.fonts import (
    FONT_SUFFIXES,
    FontFace,
    bundled_faces,
    default_face,
    fallback_chain,
    open_face,
    parse_font_ref,
)
from printdeck.artwork.lookalike import DELTA_E_ALIKE, SHAPE_SIMILARITY, Look, LookAlike, find_look_alikes, look_of
from printdeck.artwork.picture import (
    EXIF_ORIENTATION,
    MAX_IMAGE_BYTES,
    crop_square,
    is_upright,
    open_raster,
    oriented_size,
    prepared_picture,
    read_limited,
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
from printdeck.choices import PHOTO_CORNER_FRACTION

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
    "open_face",
    "open_raster",
    "oriented_size",
    "parse_font_ref",
    "prepared_picture",
    "rasterise",
    "read_limited",
    "resolve_css_variables",
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
    "word_svg",
]
