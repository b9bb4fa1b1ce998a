"""Symbols players cannot tell apart: the same silhouette up to rotation, mirror and scale, in
colours within a small CIEDE2000 distance, judged on each symbol's one drawing.

Each drawing is rasterised (:func:`printdeck.artwork.rasterise`) and normalised: moved so
its ink's centroid is in the middle of a ``GRID`` x ``GRID`` square and scaled so its ink's
RMS radius is ``GRID / RMS_SPAN`` (scale drops out), then turned in ``ANGLE_STEP_DEG``
steps (and mirrored). Two drawings have **the same silhouette** when the overlap of their
normalised inks (intersection over union, alpha as a fuzzy set), at the best turn the
layout can give them, is at least ``SHAPE_SIMILARITY`` (a coarse, softened comparison picks
the turns worth trying); where the silhouette fits in several poses (a photo's disc or
square), the pose compared is the one where the pictures match best. They are
**look-alikes** when, besides, the CIEDE2000 difference of their colours over three
quarters of the ink they share at that pose (``COLOUR_QUANTILE``) is below
``DELTA_E_ALIKE`` (10: colours closer than that read as the same at a glance on a small
symbol; one level of tint is about 0.2 to 1).

What the layout can do sets the turns compared: a symbol turns at most ``layout.rotation``
either way (none for an upright symbol), so two drawings are compared over relative turns
up to the sum of theirs. Pictures are compared mirrored too (a dog facing left reads as the
dog facing right); words are not (nothing prints them mirrored, and a mirrored word is not
read as the word). A word's colour counts only when the theme fixes it: otherwise every
card sets its words in colours of the palette. Players read words rather than match their
outlines, and a word's ink is thin strokes that two fonts draw differently, so two words are
also look-alikes when they spell the same to the eye: the same letters after Unicode NFKC,
letters that are drawn alike in other scripts (Cyrillic "с", "о", Greek "ο"...) taken as
the Latin ones, and 0/O, 1/l/I taken as one (:func:`~printdeck.artwork.look.word_skeleton`).
Colours are compared as seen in a :class:`~printdeck.artwork.colour_vision.Vision`: as
printed, in grey, or with a colour-vision deficiency (the warnings of ``check``).

This module compares; the normalised drawings it compares (:class:`~printdeck.artwork.look.Look`,
:func:`~printdeck.artwork.look.look_of`) are :mod:`printdeck.artwork.look`'s.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

import numpy as np

from printdeck.artwork.colour_vision import Vision, ciede2000
from printdeck.artwork.look import Look
from printdeck.artwork.look_raster import ANGLE_STEP_DEG, turn_angles

SHAPE_SIMILARITY = 0.90
"""Least overlap (intersection over union of the normalised inks) that counts as the same silhouette."""
DELTA_E_ALIKE = 10.0
"""Colours whose CIEDE2000 difference (``COLOUR_QUANTILE`` of the shared ink) is below this read as one."""
COLOUR_QUANTILE = 0.75
"""The colour difference of a pair is this quantile of the per-pixel CIEDE2000 over the shared
ink: small where three quarters of it match (a tint, or a copy whose edges resampling moved),
large where a quarter of it differs (a disc of another colour on the same white)."""
PROFILE_GATE = 0.15
"""Pairs whose radial ink profiles differ more than this (L1) cannot reach the overlap: skipped."""
COMPACTNESS_GATE = 0.88
"""Pairs whose compactness (area over RMS radius squared) differs by a larger factor: skipped."""
COLOUR_PREFILTER = 2.0
"""A pair whose block colours differ (``COLOUR_QUANTILE`` of their CIEDE2000) by this many times
:data:`DELTA_E_ALIKE` is told apart without comparing every pixel. Averaging a block mostly
brings two pictures closer; over every pair with the same silhouette among the 174 bundled
Twemoji and 57 phone photos (as printed and in grey) the pixels' figure was never under 0.58
times the blocks', so a pair put at 20 by its blocks is over 11 by its pixels: apart."""


COPY_OVERLAP = 0.98
"""Overlap of two outlines at which a look-alike pair in colours no eye tells apart is said
to be a copy of one picture (:attr:`LookAlike.is_copy`)."""
COPY_DELTA_E = 2.0
"""CIEDE2000 under which two drawings' colours are one picture's: a difference seen only on
close looking (a resized JPEG copy of a photo measures about 1.5)."""


@dataclass(frozen=True)
class LookAlike:
    """Two drawings players cannot tell apart, and why."""

    first: str
    second: str
    similarity: float
    delta_e: float | None
    turned_deg: float
    mirrored: bool
    vision: Vision
    same_spelling: bool = False
    groups: tuple[int, int] = (-1, -1)
    """The two drawings' groups (the symbols' positions in the list compared)."""
    same_picture: int = 0
    """For two photos of one picture (a crop, zoom or turn of the other): how many of their
    features matched (:func:`printdeck.artwork.agreeing_matches`); 0 otherwise."""

    @property
    def is_copy(self) -> bool:
        """Whether the two are one picture copied (resized, saved again): the same outline
        unturned (:data:`COPY_OVERLAP`) in colours no eye tells apart (:data:`COPY_DELTA_E`)."""
        return (
            self.vision is Vision.NORMAL
            and self.delta_e is not None
            and self.delta_e < COPY_DELTA_E
            and self.similarity >= COPY_OVERLAP
            and not self.mirrored
            and abs(self.turned_deg) < ANGLE_STEP_DEG
        )

    def reason(self) -> str:
        """What makes the two alike, in words (one clause)."""
        if self.same_spelling:
            return f"{self.first!r} and {self.second!r} look alike: they spell the same to the eye"
        if self.same_picture:  # found alike only in colours under DELTA_E_ALIKE once aligned
            aligned = "" if self.delta_e is None else ", and laid over each other their colours match"
            return (
                f"{self.first!r} and {self.second!r} look alike: they show the same picture, one cropped, "
                f"zoomed or turned from the other ({self.same_picture} details match{aligned})"
            )
        if self.is_copy:
            copy = "they show the same picture (a copy, resized or saved again)"
            return f"{self.first!r} and {self.second!r} look alike: {copy}"
        how = []
        if self.mirrored:
            how.append("mirrored")
        if abs(self.turned_deg) >= ANGLE_STEP_DEG:
            how.append(f"turned {abs(self.turned_deg):.0f}°")
        pose = f", {' and '.join(how)}" if how else ""
        seen = "" if self.vision is Vision.NORMAL else f" {_SEEN[self.vision]}"
        colours = (  # words take the card's colours: none were compared (else under DELTA_E_ALIKE)
            ", and colour cannot tell them apart (words take the card's colours)"
            if self.delta_e is None
            else " in colours too close to tell apart"
        )
        return (
            f"{self.first!r} and {self.second!r} look alike{seen}: the same silhouette up to size"
            f"{pose} ({self.similarity:.0%} overlap){colours}"
        )


_SEEN = {
    Vision.GREY: "when printed in grey",
    Vision.PROTANOPIA: "for colour-blind players (red-green, protanopia)",
    Vision.DEUTERANOPIA: "for colour-blind players (red-green, deuteranopia)",
    Vision.TRITANOPIA: "for colour-blind players (blue-yellow, tritanopia)",
}


def _best_pose(a: Look, b: Look) -> tuple[float, int, int]:
    """(overlap, mirror, angle index) of ``b``'s pose against ``a`` unturned.

    The overlap is the intersection over union of the two inks (alpha as a fuzzy set:
    sum of minima over sum of maxima), tried at the turns whose coarse cosine similarity
    could reach the threshold; the pose with the most overlap is ``b``'s best. When that
    reaches :data:`SHAPE_SIMILARITY` and the two are pictures, the silhouette may fit in
    several poses (a photo's disc or square fits mirrored and turned alike): the turns
    whose pictures match best (:meth:`Look.appearance`) are tried too, and of the poses
    with the same silhouette the one whose picture matches best is ``b``'s pose, so a
    mirrored or turned copy is compared with the picture it copies."""
    allowed = _allowed_turns(a, b)
    turn_deg = min(180.0, a.turn_deg + b.turn_deg)
    mirrors = (0,) if a.word or b.word else (0, 1)
    overlaps: dict[tuple[int, int], float] = {}
    for mirror in mirrors:
        cosines = np.where(allowed, b.coarse(mirror) @ a.coarse(0)[0], -1.0)
        _try_poses(a, b, mirror, [k for k in _top_turns(cosines) if cosines[k] >= SHAPE_SIMILARITY], overlaps)
    best = (0.0, 0, 0)
    for (mirror, k), overlap in overlaps.items():
        if overlap > best[0]:
            best = (overlap, mirror, k)
    if best[0] < SHAPE_SIMILARITY or a.word or b.word:
        return best
    matches: dict[tuple[int, int], float] = {}
    for mirror in mirrors:
        cosines = np.where(allowed, b.appearance(mirror, turn_deg) @ a.appearance(0, 0.0)[0], -1.0)
        matches.update({(mirror, int(k)): float(cosines[k]) for k in np.flatnonzero(allowed)})
        _try_poses(a, b, mirror, [k for k in _top_turns(cosines) if allowed[k]], overlaps)
    fitting = [pose for pose, overlap in overlaps.items() if overlap >= SHAPE_SIMILARITY]
    mirror, k = max(fitting, key=lambda pose: (matches[pose], overlaps[pose]))
    return overlaps[(mirror, k)], mirror, k


def _allowed_turns(a: Look, b: Look) -> np.ndarray:
    """``(N_ANGLES,) bool``: the relative turns the layout can give the pair (each turns at
    most its ``turn_deg`` either way)."""
    turn = ((turn_angles() + 180) % 360) - 180
    return np.abs(turn) <= min(180.0, a.turn_deg + b.turn_deg) + ANGLE_STEP_DEG / 2


def _top_turns(cosines: np.ndarray) -> list[int]:
    """The three angle indices of the highest ``cosines``, highest first."""
    return [int(k) for k in np.argsort(cosines)[::-1][:3]]


def _try_poses(a: Look, b: Look, mirror: int, turns: Sequence[int], overlaps: dict[tuple[int, int], float]) -> None:
    """Put the overlap of ``b`` at each of ``turns`` (mirrored or not) against ``a`` unturned
    into ``overlaps``, by (mirror, angle index); poses already there are not measured again."""
    base = a.ink(0, 0)
    for k in turns:
        if (mirror, k) not in overlaps:
            other = b.ink(mirror, k)
            overlaps[(mirror, k)] = float(
                np.minimum(base, other).sum() / max(float(np.maximum(base, other).sum()), 1e-9)
            )


def _gated(a: Look, b: Look) -> bool:
    """Whether the pair can have the same silhouette (turn-, mirror- and size-free measures agree)."""
    return a.group != b.group and may_share_silhouette(a.profile, a.compactness, b.profile, b.compactness)


def may_share_silhouette(
    profile_a: np.ndarray, compactness_a: float, profile_b: np.ndarray, compactness_b: float
) -> bool:
    """Whether two drawings can have the same silhouette, by measures turn, mirror and size
    leave alone: their ``(16,)`` radial ink profiles (:attr:`Look.profile`) within
    ``PROFILE_GATE`` and their compactness within a factor ``COMPACTNESS_GATE``."""
    if float(np.abs(profile_a - profile_b).sum()) > PROFILE_GATE:
        return False
    return min(compactness_a, compactness_b) >= COMPACTNESS_GATE * max(compactness_a, compactness_b)


def _colour_difference(a: Look, b: Look, mirror: int, k: int, vision: Vision) -> float | None:
    """The ``COLOUR_QUANTILE`` of CIEDE2000 over the ink both show at the pose (None when
    either word's colour is free). A pair whose coarse colours (blocks of
    ``COLOUR_BLOCK`` pixels) already differ by ``COLOUR_PREFILTER`` times
    :data:`DELTA_E_ALIKE` is given that coarse figure without the per-pixel comparison."""
    if not (a.colour_fixed and b.colour_fixed):
        return None
    lab_a, ink_a, coarse_a, weight_a = a.lab(0, 0, vision)
    lab_b, ink_b, coarse_b, weight_b = b.lab(mirror, k, vision)
    shared = (weight_a >= 0.5) & (weight_b >= 0.5)
    if shared.any():
        coarse = float(np.quantile(ciede2000(coarse_a[shared], coarse_b[shared]), COLOUR_QUANTILE))
        if coarse >= COLOUR_PREFILTER * DELTA_E_ALIKE:
            return coarse
    both = ink_a & ink_b
    if not both.any():
        return 0.0
    return float(np.quantile(ciede2000(lab_a[both], lab_b[both]), COLOUR_QUANTILE))


def pair_pose(
    a: Look, b: Look, memo: dict[tuple[object, object], tuple[float, int, int]] | None = None
) -> tuple[float, int, int] | None:
    """``b``'s best pose against ``a``: (overlap, mirror, angle index); None when the pair
    cannot have the same silhouette (same group, or the turn-free measures disagree).

    Args:
        memo: Best poses already found, by the looks' ``key`` (see :func:`find_look_alikes`).
    """
    if not _gated(a, b):
        return None
    memo_key = (a.key, b.key)
    keyed = memo is not None and a.key is not None and b.key is not None
    if keyed and memo is not None and memo_key in memo:
        return memo[memo_key]
    pose = _best_pose(a, b)
    if keyed and memo is not None:
        memo[memo_key] = pose
    return pose


def colour_difference(a: Look, b: Look, pose: tuple[float, int, int], vision: Vision) -> float | None:
    """The CIEDE2000 difference (``COLOUR_QUANTILE`` of the shared ink) of ``a`` and ``b``
    at ``b``'s ``pose`` (from :func:`pair_pose`) seen with ``vision``; None when either is a
    word whose colour is free."""
    return _colour_difference(a, b, pose[1], pose[2], vision)


def pair_verdict(
    names: tuple[str, str],
    groups: tuple[int, int],
    pose: tuple[float, int, int] | None,
    visions: Sequence[Vision],
    delta_of: Callable[[Vision], float | None],
) -> LookAlike | None:
    """Whether a pair looks alike, given ``b``'s best pose (:func:`pair_pose`) and its colour
    difference under each vision (``delta_of``, asked in the order of ``visions`` until one
    sees them alike); None when not alike.

    Args:
        names: The two drawings' labels.
        groups: Their groups.
    """
    if pose is None or pose[0] < SHAPE_SIMILARITY:
        return None
    similarity, mirror, k = pose
    for vision in visions:
        delta = delta_of(vision)
        if delta is None or delta < DELTA_E_ALIKE:
            turned = float(((turn_angles()[k] + 180) % 360) - 180)
            return LookAlike(*names, similarity, delta, turned, bool(mirror), vision, False, groups)
    return None


def same_spelling(a_spelling: str, b_spelling: str) -> bool:
    """Whether two words' :func:`word_skeleton` make them look alike (pictures' are empty)."""
    return bool(a_spelling) and a_spelling == b_spelling


def find_look_alikes(
    looks: Sequence[Look],
    visions: Sequence[Vision] = (Vision.NORMAL,),
    memo: dict[tuple[object, object], tuple[float, int, int]] | None = None,
) -> list[LookAlike]:
    """Every pair of drawings of different groups that players cannot tell apart.

    Args:
        looks: From :func:`look_of`.
        visions: How the colours are seen; a pair is reported once, for the first vision
            (in this order) under which it is alike.
        memo: Best poses of pairs already compared, by the looks' ``key`` (kept between
            calls: the studio compares the same drawings after every edit).

    Returns:
        The look-alike pairs, in the order of ``looks``.
    """
    out: list[LookAlike] = []
    for i, a in enumerate(looks):
        for b in looks[i + 1 :]:
            if a.group != b.group and same_spelling(a.spelling, b.spelling):
                out.append(LookAlike(a.label, b.label, 1.0, None, 0.0, False, Vision.NORMAL, True, (a.group, b.group)))
                continue
            pose = pair_pose(a, b, memo)
            if pose is None:
                continue
            found = pair_verdict(
                (a.label, b.label), (a.group, b.group), pose, visions, partial(colour_difference, a, b, pose)
            )
            if found is not None:
                out.append(found)
    return out
