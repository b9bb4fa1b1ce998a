"""Two photos of a theme that show one picture (:mod:`printdeck.artwork.same_picture`), their
verdict kept pair by pair in the look-alike check's :class:`~printdeck.theme.look_pairs.PairBook`."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from printdeck.artwork import (
    COLOUR_QUANTILE,
    DELTA_E_ALIKE,
    SAME_PICTURE_INLIERS,
    Features,
    Look,
    aligned_colour_difference,
    drawing,
    picture_features,
    shared_scene,
)
from printdeck.model import SymbolSpec
from printdeck.theme.look_pairs import PairBook

KEY = "same picture "
"""What a pair's verdict is kept under in :class:`PairBook`: this, then the second face's
identity (beside the pair's pose record); the record is ``[matches, CIEDE2000 or None]``."""


class SamePicture:
    """Whether two photos among ``faces`` show the same picture: their details agree
    (:func:`printdeck.artwork.shared_scene`, at least :data:`SAME_PICTURE_INLIERS` both ways)
    and, aligned by the transform the details give, so do their colours over three quarters
    of their overlap (:func:`printdeck.artwork.aligned_colour_difference` under
    :data:`DELTA_E_ALIKE`: another person before the same wall, covering over a quarter of
    what the two share, is another picture).

    Args:
        faces: The compared faces, in the order compared.
        idents: Their identities (what their verdicts are kept by).
        book: Where the verdicts are kept.
        look: A face's look (its printed raster), by position.
    """

    def __init__(
        self, faces: Sequence[SymbolSpec], idents: Sequence[str], book: PairBook, look: Callable[[int], Look]
    ) -> None:
        self._faces, self._idents, self._book, self._look = faces, idents, book, look
        self._features: dict[int, Features] = {}

    def __call__(self, i: int, j: int) -> tuple[int, float] | None:
        """``(matching details, CIEDE2000 once aligned)`` when faces ``i`` and ``j`` are two
        photos of one picture, else None."""
        if self._faces[i].kind != "photo" or self._faces[j].kind != "photo":
            return None
        key = KEY + self._idents[j]
        record = self._book.get(self._idents[i], key)
        if not isinstance(record, list) or len(record) != 2:
            record = self._compared(i, j)
            self._book.put(self._idents[i], key, record)
        matches, delta = int(str(record[0])), record[1]
        if matches < SAME_PICTURE_INLIERS or delta is None or float(str(delta)) >= DELTA_E_ALIKE:
            return None
        return matches, float(str(delta))

    def _compared(self, i: int, j: int) -> list[object]:
        a, b = self._of(i), self._of(j)
        matches, transform = shared_scene(a, b)
        if matches < SAME_PICTURE_INLIERS or transform is None:
            return [matches, None]
        pixels = self._look(i).pixels, self._look(j).pixels
        return [matches, aligned_colour_difference(a, b, transform, *pixels, COLOUR_QUANTILE)]

    def _of(self, i: int) -> Features:
        if i not in self._features:
            self._features[i] = picture_features(drawing(self._faces[i]))
        return self._features[i]
