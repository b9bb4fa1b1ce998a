"""The one place that draws a symbol (see :mod:`printdeck.artwork.drawing`).

Public names: :class:`Drawing` and :func:`drawing` (a symbol's one drawing),
:func:`drawing_key` (its cache key), :func:`rasterise` (its pixels, for the
silhouette, the PNGs and the preview), :func:`prepared_picture` (a raster or photo
symbol's picture), :class:`FontFace` and the font helpers, :func:`shape_word`.
ReportLab never appears here: ``printdeck.render.artwork`` turns a :class:`Drawing`
into PDF forms.
"""

from printdeck.artwork.drawing import (
           WORD_SPACE_EM,
           Drawing,
           drawing,
           drawing_key,
           existing_file,
           word_chain,
)
from printdeck.artwork.fonts import FontFace, bundled_faces, open_face, parse_font_ref
from printdeck.artwork.picture import oriented_size, prepared_picture, to_rgba
from printdeck.artwork.raster import alpha_array, rasterise, word_svg
from printdeck.artwork.shaping import ShapedWord, shape_word
from printdeck.artwork.svg import svg_size

__all__ = ["WORD_SPACE_EM", "Drawing", "FontFace", "ShapedWord", "alpha_array", "bundled_faces", "drawing",
           "drawing_key", "existing_file", "open_face", "oriented_size", "parse_font_ref", "prepared_picture",
           "rasterise", "shape_word", "svg_size", "to_rgba", "word_chain", "word_svg"]
