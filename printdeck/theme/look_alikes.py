"""The theme's symbols that players cannot tell apart (:mod:`printdeck.artwork.lookalike`):
refused, or warned about with ``--allow-look-alike``; and those that become alike printed
in grey or for colour-blind players (warnings)."""

from __future__ import annotations

import dataclasses
import json
import warnings
from collections.abc import Callable, Sequence
from functools import lru_cache

import numpy as np

from printdeck.artwork import (
    Look,
    LookAlike,
    Vision,
    colour_difference,
    drawing_key,
    look_of,
    may_share_silhouette,
    pair_pose,
    pair_verdict,
    same_spelling,
    word_skeleton,
)
from printdeck.cache import cache_dir, code_digest, entry_key, read_entry, write_entry
from printdeck.errors import LOOK_ALIKE, Listing, LookAlikeWarning, PrintdeckError, shown
from printdeck.model import SymbolSpec, drawn_only
from printdeck.theme.bundled_pairs import all_shipped
from printdeck.theme.look_pairs import MISSING, PairBook
from printdeck.theme.same_photos import SamePicture
from printdeck.theme.spec import Theme

COLOUR_VISIONS = (Vision.PROTANOPIA, Vision.DEUTERANOPIA, Vision.TRITANOPIA)
MOST_NAMED = 3
"""Pairs named in one message; the rest are counted."""


def turn_limit_deg(theme: Theme, symbol: SymbolSpec) -> float:
    """How far the layout may turn ``symbol`` either way, degrees (``layout.rotation``)."""
    rotation = theme.spec.layout.rotation
    if not symbol.rotate or rotation == "none":
        return 0.0
    return 180.0 if rotation == "any" else float(rotation)


_POSES: dict[tuple[object, object], tuple[float, int, int]] = {}
"""Best poses of pairs of drawings compared in this process (see ``find_look_alikes``' memo)."""
MEMO_PAIRS = 200_000


@lru_cache(maxsize=4096)
def _look(face: SymbolSpec, turn_deg: float) -> Look:
    """A face's normalised drawing, made once per drawing and turn (the studio asks often)."""
    return dataclasses.replace(look_of(face, face.name, 0, turn_deg), key=(drawn_only(face), turn_deg))


def look_alikes(
    theme: Theme, symbols: Sequence[SymbolSpec] | None = None, visions: Sequence[Vision] = ()
) -> list[LookAlike]:
    """The pairs of ``symbols`` (default: the theme's), or of faces of different symbols, that
    look alike as seen in ``visions`` (default: as printed in colour).

    The symbols are compared in an order of their own (by drawing), not in the order given,
    so the verdict does not depend on the order a deck's seed puts them in. It is kept in
    the disk cache (folder ``lookalikes``) by everything it depends on (each face's drawing
    key, label, turn and colour, the visions, this code), so a build of a deck whose symbols
    were checked before, in any order, compares nothing and draws nothing. Each pair's
    ``groups`` are positions in ``symbols``; pairs come in that order, as do the two of a pair.
    """
    given = list(theme.symbols if symbols is None else symbols)
    faces, order = _canonical_faces(theme, given)
    seen_as = tuple(visions or (Vision.NORMAL,))
    key = _verdict_key(faces, seen_as)
    pairs = _stored_verdict(key)
    if pairs is None:
        if len(_POSES) > MEMO_PAIRS:
            _POSES.clear()
        pairs = _compared(faces, seen_as)
        folder = cache_dir("lookalikes")
        if folder is not None:
            write_entry(folder / f"{key}.json", json.dumps([_as_record(p) for p in pairs]))
    return sorted((_in_given_order(p, order) for p in pairs), key=lambda p: p.groups)


Face = tuple[SymbolSpec, str, int, float]
"""A compared face: (face, label in messages, group: its symbol's canonical position, turn limit)."""


def _canonical_faces(theme: Theme, given: list[SymbolSpec]) -> tuple[list[Face], list[int]]:
    """The faces of ``given`` in the order they are compared (by drawing), and that order
    (canonical position -> position in ``given``)."""
    faces_of = [_faces(theme, symbol) for symbol in given]
    order = sorted(range(len(given)), key=lambda g: [_face_key(*face) for face in faces_of[g]])
    faces = [(face, label, canonical, turn) for canonical, g in enumerate(order) for face, label, turn in faces_of[g]]
    return faces, order


def pair_idents(theme: Theme, symbols: Sequence[SymbolSpec] | None = None) -> list[str]:
    """Each compared face's identity, in the order compared: what a pair's verdict is kept
    by (:class:`~printdeck.theme.look_pairs.PairBook`): its drawing key, turn and colour."""
    faces, _ = _canonical_faces(theme, list(theme.symbols if symbols is None else symbols))
    return _idents(faces)


def verdicts_shipped(theme: Theme, symbols: Sequence[SymbolSpec]) -> bool:
    """Whether every face of ``symbols`` is a bundled picture whose look-alike verdicts
    ship with printdeck (:mod:`printdeck.theme.bundled_pairs`), as the check compares it
    in ``theme``: then checking them draws none of them (a deck of bundled pictures, such
    as the default theme, on any seed).

    Raises:
        PrintdeckError: A face's file cannot be read.
    """
    return all_shipped(pair_idents(theme, symbols), _code_version())


def _idents(faces: list[Face]) -> list[str]:
    return [entry_key(*_face_key(face, "", turn)) for face, _, _, turn in faces]


def _compared(faces: list[Face], visions: tuple[Vision, ...]) -> list[LookAlike]:
    """:func:`find_look_alikes` of the faces (``(face, label, group, turn)``), each pair's
    verdict taken from the disk cache where it was kept (:class:`PairBook`), or from the
    verdicts shipped with printdeck's bundled pictures: only pairs never compared are drawn
    and compared, and what they give is kept."""
    idents = _idents(faces)
    spellings = [word_skeleton(face.text or "") if face.kind == "text" else "" for face, *_ in faces]
    book = PairBook(idents, _code_version())
    looks: dict[int, Look] = {}

    def look(i: int) -> Look:
        if i not in looks:
            face, label, group, turn = faces[i]
            looks[i] = dataclasses.replace(_look(face, turn), label=label, group=group)
        return looks[i]

    def shape(i: int) -> tuple[np.ndarray, float]:
        kept = book.shape(idents[i])
        if kept is None:
            book.put_shape(idents[i], look(i).profile, look(i).compactness)
            kept = (look(i).profile, look(i).compactness)
        return kept

    same_picture = SamePicture([face for face, *_ in faces], idents, book, look)
    out: list[LookAlike] = []
    for i, (_, label_a, group_a, _) in enumerate(faces):
        for j in range(i + 1, len(faces)):
            _, label_b, group_b, _ = faces[j]
            if group_a == group_b:
                continue
            if same_spelling(spellings[i], spellings[j]):
                out.append(LookAlike(label_a, label_b, 1.0, None, 0.0, False, Vision.NORMAL, True, (group_a, group_b)))
                continue
            record = book.get(idents[i], idents[j])
            if record is MISSING:
                similar = may_share_silhouette(*shape(i), *shape(j))
                pose = pair_pose(look(i), look(j), _POSES) if similar else None
                record = None if pose is None else [*pose, {}]
                book.put(idents[i], idents[j], record)
            found = None
            if isinstance(record, list):
                deltas = _deltas(book, record, i, j, look, idents)
                found = pair_verdict((label_a, label_b), (group_a, group_b), _pose_of(record), visions, deltas)
            # a pair alike only in grey may still be one picture, which players confuse in colour too
            same = same_picture(i, j) if found is None or found.vision is not Vision.NORMAL else None
            if same is not None:  # one picture is one to every eye: said as printed where that is asked
                matches, delta = same
                pair, seen = (group_a, group_b), Vision.NORMAL if Vision.NORMAL in visions else visions[0]
                found = LookAlike(label_a, label_b, 1.0, delta, 0.0, False, seen, False, pair, matches)
            elif found is not None and found.vision is not Vision.NORMAL and _photos(faces[i], faces[j]):
                found = None  # not one picture: its background alike, not what it shows (_photos)
            if found is not None:
                out.append(found)
    book.save()
    return out


def _photos(first: Face, second: Face) -> bool:
    """Whether both compared faces are photos printed in their crop's shape: such a pair is
    said alike in grey or for colour-blind players only when they show one picture
    (:class:`SamePicture`). A disc or a square always matches another, and the colours compared
    over it are mostly its background (a sky, a wall), which tells nothing of what players
    tell photos apart by: a child and a dog on one light wall came out alike in grey. A photo
    cut out of its background (``remove_background``) prints its own outline: compared as any
    picture."""
    return all(face.kind == "photo" and not face.remove_background for face, *_ in (first, second))


def _pose_of(record: list[object]) -> tuple[float, int, int]:
    similarity, mirror, k = (float(str(value)) for value in record[:3])
    return similarity, int(mirror), int(k)


def _deltas(
    book: PairBook, record: list[object], i: int, j: int, look: Callable[[int], Look], idents: list[str]
) -> Callable[[Vision], float | None]:
    """A pair's colour difference under a vision: kept in its ``record``, else measured (and kept)."""
    deltas = record[3]
    assert isinstance(deltas, dict)

    def delta_of(vision: Vision) -> float | None:
        if vision.value not in deltas:
            deltas[vision.value] = colour_difference(look(i), look(j), _pose_of(record), vision)
            book.put(idents[i], idents[j], record)
        value = deltas[vision.value]
        return None if value is None else float(value)

    return delta_of


def _in_given_order(pair: LookAlike, order: list[int]) -> LookAlike:
    """A pair found in the canonical order, said in the order the symbols were given (the
    first-named first; ``groups`` are positions in it)."""
    first, second = order[pair.groups[0]], order[pair.groups[1]]
    if first < second:
        return dataclasses.replace(pair, groups=(first, second))
    return dataclasses.replace(
        pair, first=pair.second, second=pair.first, turned_deg=-pair.turned_deg, groups=(second, first)
    )


def _faces(theme: Theme, symbol: SymbolSpec) -> list[tuple[SymbolSpec, str, float]]:
    """A symbol's faces as compared: (face, label in messages, turn limit in degrees)."""
    out = []
    for j, face in enumerate(symbol.all_faces):
        label = symbol.name if not symbol.faces else f"{symbol.name} (face {j + 1}: {face.name})"
        out.append((face, label, turn_limit_deg(theme, face)))
    return out


def _face_key(face: SymbolSpec, label: str, turn: float) -> tuple[str, str, float, str, bool, str]:
    """What a compared face is, as a sortable tuple (its drawing, label, turn and colour)."""
    return (drawing_key(face), label, turn, face.kind, face.color_fixed, face.color or "")


def _verdict_key(faces: list[Face], visions: tuple[Vision, ...]) -> str:
    parts = [(*_face_key(f, label, turn), group) for f, label, group, turn in faces]
    return entry_key(parts, [v.value for v in visions], _code_version())


def code_version() -> str:
    """The digest of the code behind a pair's verdict (a change compares every pair afresh)."""
    return _code_version()


@lru_cache(maxsize=1)
def _code_version() -> str:
    return code_digest(
        "printdeck.artwork.lookalike",
        "printdeck.artwork.look",
        "printdeck.artwork.look_raster",
        "printdeck.artwork.colour_vision",
        "printdeck.artwork.same_picture",
        "printdeck.theme.look_alikes",
        "printdeck.theme.look_pairs",
        "printdeck.theme.same_photos",
    )


def _as_record(pair: LookAlike) -> dict[str, object]:
    record = dataclasses.asdict(pair)
    record["vision"] = pair.vision.value
    record["groups"] = list(pair.groups)
    return record


def _stored_verdict(key: str) -> list[LookAlike] | None:
    """The pairs found before for ``key``, or None (not stored, or unreadable)."""
    folder = cache_dir("lookalikes")
    text = read_entry(folder / f"{key}.json") if folder is not None else None
    if text is None:
        return None
    try:
        records = json.loads(text)
        return [LookAlike(**{**r, "vision": Vision(r["vision"]), "groups": tuple(r["groups"])}) for r in records]
    except (ValueError, KeyError, TypeError):
        return None


def _sentence(pairs: Sequence[LookAlike], symbols: Sequence[SymbolSpec] = ()) -> str:
    """The pairs in words (the first :data:`MOST_NAMED`, the rest counted: one more is named
    too, as its count would take as long; :func:`_listing` gives them all); a pair whose two
    names read the same (``'café'`` spelt two ways) also gives the symbols' theme keys."""
    shown = MOST_NAMED + 1 if len(pairs) == MOST_NAMED + 1 else MOST_NAMED
    named = "; ".join(p.reason() + _keys_if_same_names(p, symbols) for p in pairs[:shown])
    more = len(pairs) - shown
    return named + (f"; and {more} more pairs" if more > 0 else "")


def _listing(pairs: Sequence[LookAlike], symbols: Sequence[SymbolSpec], seen: str = "") -> Listing | None:
    """Every pair, for a front end to list (the command line, above the line that counts
    them), when :func:`_sentence` names only some; else None. ``seen``: how they are
    alike, for the title (``" in grey"``)."""
    if len(pairs) <= MOST_NAMED + 1:
        return None
    items = tuple(p.reason() + _keys_if_same_names(p, symbols) for p in pairs)
    return Listing(f"the {len(pairs)} pairs that look alike{seen}", items)


def _warn(pairs: Sequence[LookAlike], symbols: Sequence[SymbolSpec], seen: str = "") -> None:
    """Warn about ``pairs`` as one line, every pair listed with it (:func:`_listing`)."""
    text = f"symbols: {_sentence(pairs, symbols)}"
    warnings.warn(LookAlikeWarning(text, _listing(pairs, symbols, seen)), stacklevel=3)


def _keys_if_same_names(pair: LookAlike, symbols: Sequence[SymbolSpec]) -> str:
    """`` (symbols.0 and symbols.4)`` where the pair's names read the same, so the message
    says which entries are meant; else nothing (``groups`` are positions in ``symbols``)."""
    if word_skeleton(pair.first) != word_skeleton(pair.second):
        return ""
    keys = [symbols[g].theme_key if 0 <= g < len(symbols) else None for g in pair.groups]
    return f" ({keys[0]} and {keys[1]})" if keys[0] and keys[1] else ""


def check_look_alikes(
    theme: Theme, symbols: Sequence[SymbolSpec] | None = None, *, allow: bool = False, grey: bool = False
) -> None:
    """Refuse symbols players cannot tell apart; warn about those alike only in grey.

    Only symbols alike in full colour are refused. Symbols whose outlines match and whose
    colours merge only as grey tones are warned about, even for a grey deck: the silhouette
    and mean colour compared here do not see the inner detail (a cookie's chips, a ball's
    seams) that still tells them apart on a black-and-white print.

    Args:
        theme: The loaded theme (its rotation says how far symbols turn).
        symbols: The symbols to compare (default: every symbol of the theme).
        allow: Warn instead of refusing (``--allow-look-alike``).
        grey: The deck prints in grey: pairs alike as grey tones are warned about too.

    Raises:
        PrintdeckError: Two symbols (or faces of two symbols) look alike; the message names
            them and what makes them alike.

    Warns:
        LookAlikeWarning: The same, with ``allow``; with ``grey``, pairs alike in grey.
    """
    given = _in_theme_order(theme, theme.symbols if symbols is None else symbols)
    symbols = given  # a deck's symbols come in its seed's order: named in the theme's, as check names them
    if grey:
        in_grey = [p for p in look_alikes(theme, symbols, (Vision.NORMAL, Vision.GREY)) if p.vision is Vision.GREY]
        if in_grey:
            _warn(in_grey, given, " in grey")
    pairs = look_alikes(theme, symbols, (Vision.NORMAL,))
    if not pairs:
        return
    if allow:
        _warn(pairs, given)
        return
    raise PrintdeckError(
        source=shown(theme.path) if theme.path is not None else None,
        key="symbols",
        problem=_sentence(pairs, given),
        fix=_look_alike_fix(pairs),
        code=LOOK_ALIKE,
        listing=_listing(pairs, given),
    )


def _in_theme_order(theme: Theme, symbols: Sequence[SymbolSpec]) -> list[SymbolSpec]:
    """``symbols`` in the order the theme lists them (a deck's come in its seed's order, so
    ``build`` named a pair the other way round from ``check``)."""
    place = {(s.theme_key, s.source): k for k, s in enumerate(theme.symbols)}
    return sorted(symbols, key=lambda s: place.get((s.theme_key, s.source), len(place)))


TURN_FIX_DEG = 30
"""The ``layout.rotation`` suggested when every pair refused is alike only turned further
than two symbols can turn from each other under it (6 and 9, p and d: 180°)."""


def _look_alike_fix(pairs: Sequence[LookAlike]) -> str:
    """What to do about refused pairs; keeping symbols nearer upright too, when that alone
    parts every pair (each is alike only turned further than twice :data:`TURN_FIX_DEG`)."""
    fix = "change or remove one of each pair, or pass --allow-look-alike to print them"
    turned = [abs(p.turned_deg) for p in pairs if not (p.same_spelling or p.same_picture)]
    if turned and len(turned) == len(pairs) and min(turned) > 2 * TURN_FIX_DEG:
        return f"keep symbols nearer upright (layout.rotation: {TURN_FIX_DEG}), which tells them apart; or {fix}"
    return fix


def warn_vision_look_alikes(theme: Theme, symbols: Sequence[SymbolSpec] | None = None, *, grey: bool = False) -> None:
    """Warn about symbols distinct in colour that look alike for colour-blind players
    (Machado 2009, severity 1.0) or, with ``grey``, printed in grey (on a black-and-white printer).

    Warns:
        LookAlikeWarning: A warning naming the pairs alike in grey, another naming those
            alike for colour-blind players (and who sees them alike).
    """
    given = list(theme.symbols if symbols is None else symbols)
    seen_by = [(Vision.GREY,)] if grey else []  # apart: a pair alike in grey is said for colour-blind players too
    for visions in [*seen_by, COLOUR_VISIONS]:
        pairs = [p for p in look_alikes(theme, symbols, (Vision.NORMAL, *visions)) if p.vision is not Vision.NORMAL]
        if pairs:
            _warn(pairs, given, " in grey" if visions == (Vision.GREY,) else " to colour-blind players")
