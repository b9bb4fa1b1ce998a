"""A symbol's drawing normalised for the look-alike comparison (:mod:`printdeck.artwork.lookalike`).

:class:`Look` holds one drawing's pixels and the measures that turn, mirror and size leave
alone (:func:`look_of` makes it; a picture's look is kept in the disk cache by
:mod:`printdeck.artwork.look_raster`), and makes its inks and colours at each pose when they
are first compared. :func:`word_skeleton` is what a word looks like to a reader.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from printdeck.artwork.colour_vision import Vision, simulate, srgb_to_lab
from printdeck.artwork.drawing import drawing
from printdeck.artwork.look_raster import (
    COARSE_LAYOUT,
    GRID,
    coarse_picture_rows,
    coarse_rows,
    look_data,
    padded,
    padded_alpha,
    premultiplied,
    read_arrays,
    turn_angles,
    warp,
    write_arrays,
)
from printdeck.model import SymbolSpec

COLOUR_BLOCK = 4
"""Side, pixels, of the blocks whose mean colours are compared before every pixel's."""


_BAR = "\u01c0"
"""What 1, I, l and | are taken as (one upright stroke in most faces): a letter no case folding
makes, so that folding the case of L (to l) does not join L to I."""
_HOMOGLYPHS = str.maketrans(
    {
        **dict(zip("аеорсухѕіјԁһӏԛԝвмнкт", "aeopcyxsijdhlqwbmhkt")),  # Cyrillic drawn as Latin
        **dict(zip("АВЕКМНОРСТХЅІЈ", "ABEKMHOPCTXSIJ")),
        **dict(zip("οαιυνκρχΑΒΕΖΗΙΚΜΝΟΡΤΥΧ", "oaiuvkpxABEZHIKMNOPTYX")),  # Greek drawn as Latin
        "0": "o",
        "O": "o",
        **dict.fromkeys("1Il|\u04cf\u04c0\u0406\u0399", _BAR),  # and Cyrillic palochka and I, Greek Iota
    }
)


def word_skeleton(text: str) -> str:
    """What a word looks like to a reader, for comparing words: NFKC, letters of other
    scripts drawn like Latin ones mapped to them, 0/O and 1/l/I made one, case folded,
    spaces tidied. I and L stay apart (their lower cases, i and l, are not alike):

    >>> word_skeleton("Ill") == word_skeleton("1ll"), word_skeleton("I") == word_skeleton("L")
    (True, False)
    >>> word_skeleton("\u0406gor") == word_skeleton("Igor") == word_skeleton("lgor")  # Cyrillic I too
    True
    """
    return " ".join(unicodedata.normalize("NFKC", text).translate(_HOMOGLYPHS).casefold().split())


@dataclass
class Look:
    """One drawing, normalised for comparison.

    Attributes:
        label: How messages name it (``"cat"``, ``"cat (face 2: gato)"``).
        group: Drawings of one group (the faces of one symbol) are never compared.
        word: A word (compared unmirrored; its colour counts only if ``colour_fixed``).
        colour_fixed: The colour is the drawing's own (pictures; words with a fixed colour).
        spelling: A word's :func:`word_skeleton` (empty for pictures).
        turn_deg: How far the layout may turn it either way, degrees (0 to 180).
        pixels: ``(h, w, 4) uint8`` the drawing rasterised (:data:`RASTER_PX` on its longer
            side); :attr:`rgba` is made from it when first asked for.
        frames: ``(2, 3)`` centroid x, y and RMS radius (pixels) of the padded raster,
            unmirrored and mirrored.
        profile: ``(16,)`` share of the ink in each ring around the centroid (turn and
            mirror do not change it).
        compactness: The ink's area over its RMS radius squared (size, turn and mirror do
            not change it).
    """

    label: str
    group: int
    word: bool
    colour_fixed: bool
    turn_deg: float
    pixels: np.ndarray
    frames: np.ndarray
    profile: np.ndarray
    compactness: float
    spelling: str = ""
    key: object = None
    """What the drawing is (a face and its turn), for :func:`find_look_alikes`' ``memo``; None: not memoised."""
    kept: Path | None = field(default=None, repr=False)
    """The drawing's look in the disk cache (its coarse ink is kept beside it), or None."""
    _masks: dict[int, np.ndarray] = field(default_factory=dict, repr=False)
    _cache: dict[str, list[np.ndarray]] = field(default_factory=dict, repr=False)

    @property
    def rgba(self) -> np.ndarray:
        """``(2, H, W, 4) float32`` the raster padded by ``RASTER_PX // 4``, premultiplied,
        unmirrored and mirrored (made once, when a pose's colours are first compared)."""
        if "rgba" not in self._cache:
            self._cache["rgba"] = [premultiplied(padded(self.pixels))]
        return self._cache["rgba"][0]

    @property
    def alphas(self) -> list[np.ndarray]:
        """The ink's alpha (of :attr:`rgba`), unmirrored and mirrored, contiguous (made once)."""
        if "alphas" not in self._cache:
            alpha = padded_alpha(self.pixels)
            self._cache["alphas"] = [alpha, np.ascontiguousarray(alpha[:, ::-1])]
        return self._cache["alphas"]

    def ink(self, mirror: int, k: int) -> np.ndarray:
        """``(GRID, GRID) float32``: the ink's alpha at angle index ``k`` (the unturned one kept)."""
        key = -1 - mirror * 1000 - k
        if key in self._masks:
            return self._masks[key]
        cx, cy, rms = self.frames[mirror]
        alpha = warp(self.alphas[mirror], cx, cy, rms, float(turn_angles()[k]))
        if k == 0 and mirror == 0:
            self._masks[key] = alpha
        return alpha

    def pose(self, mirror: int, k: int) -> np.ndarray:
        """``(GRID, GRID, 4)`` premultiplied RGBA at angle index ``k``, mirrored or not."""
        cx, cy, rms = self.frames[mirror]
        return warp(self.rgba[mirror], cx, cy, rms, float(turn_angles()[k]))

    def lab(self, mirror: int, k: int, vision: Vision) -> tuple[np.ndarray, ...]:
        """The colours at a pose (:func:`_lab_pose`), made once per pose and vision."""
        if k != 0:  # turned poses differ pair by pair: not kept
            return _lab_pose(self, mirror, k, vision)
        key = f"lab {mirror} {vision.value}"
        if key not in self._cache:
            self._cache[key] = list(_lab_pose(self, mirror, k, vision))
        return tuple(self._cache[key])

    def coarse(self, mirror: int) -> np.ndarray:
        """``(n_angles, COARSE_GRID ** 2) float32``: unit vectors of the softened ink at every
        angle (made once, when first compared; a picture's are kept in the disk cache
        beside its look, :attr:`kept`)."""
        if mirror not in self._masks:
            entry = self.kept.with_suffix(f".coarse{mirror}") if self.kept is not None else None
            rows = read_arrays(entry, [COARSE_LAYOUT]) if entry is not None else None
            if rows is None:
                rows = [coarse_rows(self.alphas[mirror], self.frames[mirror])]
                if entry is not None:
                    write_arrays(entry, rows, [COARSE_LAYOUT])
            self._masks[mirror] = rows[0]
        return self._masks[mirror]

    def appearance(self, mirror: int, turn_deg: float) -> np.ndarray:
        """``(n_angles, 3 * COARSE_GRID ** 2) float32``: unit vectors of the softened coarse
        picture (premultiplied colour, its mean taken away) at every angle up to
        ``turn_deg`` either way (zero rows beyond), mirrored or not
        (:func:`coarse_picture_rows`; made once a turn limit, when a pose is first chosen by it)."""
        key = f"appearance {mirror} {turn_deg}"
        if key not in self._cache:
            self._cache[key] = [coarse_picture_rows(self.rgba[mirror], self.frames[mirror], turn_deg)]
        return self._cache[key][0]


def look_pixels(symbol: SymbolSpec) -> np.ndarray:
    """``(H, W, 4) uint8``: the symbol's drawing as :func:`look_of` compares it
    (:data:`RASTER_PX` on its longer side), kept in the disk cache with its measures
    unless it is a word (see :func:`printdeck.artwork.look_raster.look_data`).

    Raises:
        PrintdeckError: The symbol cannot be drawn.
    """
    return look_data(drawing(symbol)).pixels


def look_of(symbol: SymbolSpec, label: str, group: int, turn_deg: float) -> Look:
    """Normalise one symbol's drawing for :func:`find_look_alikes` (a picture's look is
    kept in the disk cache: see :func:`look_data`).

    Args:
        symbol: The symbol (or one face of one) to draw.
        label: Its name in messages.
        group: Its symbol (faces of one symbol are not compared with each other).
        turn_deg: How far the layout may turn it either way, degrees.

    Raises:
        PrintdeckError: The symbol cannot be drawn.
    """
    data = look_data(drawing(symbol))
    word = symbol.kind == "text"
    spelling = word_skeleton(symbol.text or "") if word else ""
    fixed = not word or symbol.color_fixed
    turn = min(180.0, turn_deg)
    measures = (data.pixels, data.frames, data.profile, data.compactness)
    return Look(label, group, word, fixed, turn, *measures, spelling, kept=data.kept)


def _lab_pose(look: Look, mirror: int, k: int, vision: Vision) -> tuple[np.ndarray, ...]:
    """``look``'s colours at a pose as seen with ``vision``: ``(GRID, GRID, 3)`` CIELAB,
    ``(GRID, GRID) bool`` ink (alpha over a half), the CIELAB mean of the ink in each block
    of ``COLOUR_BLOCK`` x ``COLOUR_BLOCK`` pixels and the ink's share of each block."""
    pose = look.pose(mirror, k)
    alpha = pose[..., 3]
    ink = alpha > 0.5
    rgb = np.clip(pose[..., :3] / np.maximum(alpha, 1e-6)[..., None], 0.0, 1.0)
    lab = srgb_to_lab(simulate(rgb, vision))
    n = GRID // COLOUR_BLOCK
    weight = ink.reshape(n, COLOUR_BLOCK, n, COLOUR_BLOCK).mean(axis=(1, 3))
    summed = (lab * ink[..., None]).reshape(n, COLOUR_BLOCK, n, COLOUR_BLOCK, 3).sum(axis=(1, 3))
    coarse = summed / np.maximum(weight * COLOUR_BLOCK**2, 1e-9)[..., None]
    return lab, ink, coarse, weight
