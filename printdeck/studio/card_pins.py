"""Touching up one card: its close-up as it prints, and a symbol moved, turned or resized
there, saved as the card's pinned placement (``layout.pinned`` in ``theme.yaml``).

The first touch-up of a card pins every symbol of it where it is (so nothing else on the
card moves), then the symbol changed; releasing a pin lets that symbol be laid out again
around the others, releasing the card gives it back to the layout. Every change is
checked by the theme model and by the layout's own checks (:func:`printdeck.check_pins`:
inside the safe zone, ``layout.gap`` from every other pinned symbol) before it is saved;
a refused one is not saved and the page says why in plain words. The close-up is the
card drawn by the PDF renderer (:func:`printdeck.preview_card`), never a drawing of its own.
"""

from __future__ import annotations

import contextlib
import dataclasses
import math
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

import printdeck
from printdeck.errors import PrintdeckError
from printdeck.studio.history import Conflict
from printdeck.studio.live_preview import LivePreview, Stale
from printdeck.studio.wording import Problem, touches
from printdeck.studio.workspace import LIBRARY_LOCK, Refused, Workspace

CARD_PPI = 200.0
"""The close-up's resolution (an 85 mm card is about 700 pixels across)."""
FROZEN_SHRINK = 1e-5
"""A symbol pinned where the layout put it is pinned this share smaller (a fraction of a
micrometre): the layout leaves symbols exactly ``layout.gap`` apart at best, and a pin
written in decimals must not come nearer than that."""
MAX_MM = 1000.0
LATEST_TRIES = 5

Apply = Callable[..., Awaitable[Response]]
ReadJson = Callable[[Request], Awaitable[dict[str, Any]]]


def _mm(value: float, places: int = 3) -> str:
    """A length for ``theme.yaml``: ``"12.5mm"``."""
    text = f"{value:.{places}f}".rstrip("0").rstrip(".")
    return f"{'0' if text in ('', '-0') else text}mm"


def _degrees(value: float, places: int = 3) -> float:
    """An angle in (-180, 180], rounded."""
    turned = -((-value + 180.0) % 360.0 - 180.0)
    return round(turned, places) + 0.0


def frozen_place(symbol: dict[str, Any]) -> dict[str, Any]:
    """A symbol of :func:`printdeck.view_card` pinned where the layout put it."""
    x, y = symbol["center_mm"]
    return {
        "center": [_mm(x, 6), _mm(y, 6)],
        "rotation": _degrees(symbol["rotation_deg"], 6),
        "size": _mm(symbol["size_mm"] * (1.0 - FROZEN_SHRINK), 6),
    }


def _seen_from(refusal: Any, moved: str | None) -> tuple[str, str | None]:
    """A refused pin's two symbols, ``(name, other)``, the symbol ``moved`` first where it is
    one of them (the layout names them in card order)."""
    if moved is not None and refusal.other == moved:
        return moved, refusal.symbol
    return refusal.symbol, refusal.other


def plain_words(refusal: Any, moved: str | None = None) -> Problem:
    """A refused pin as the page says it (from the refusal's fields, never its message),
    about the symbol ``moved`` where it is one of the two that touch."""
    name, other = _seen_from(refusal, moved)
    text = {
        "outside": f"{name} would stick out past the card's safe edge: drag it towards the middle or make it smaller.",
        "touches": f"{name} would touch {other}: move it away, turn it or make it smaller.",
        "centre-mark": f"{name} would cover the centre mark: move it off the middle.",
        "too-small": f"{name} would be too small to print: make it bigger.",
    }.get(refusal.reason, str(refusal.error))
    return Problem(refusal.error.key, text, str(refusal.error), refusal.error.code, words=text, words_alone=text)


def _number(value: object, what: str, low: float, high: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ValueError(f"{what}: expected a number")
    if not low <= value <= high:
        raise ValueError(f"{what}: expected a number from {low:g} to {high:g}")
    return float(value)


class CardTouchUps:
    """The card view's endpoints over one workspace and its live preview.

    Args:
        space: The workspace.
        preview: Its live preview (the plan and layouts of the latest revision).
        apply: The studio's way of running a change (its answer: the state, or the refusal).
        read_json: Reads a request's JSON object.
    """

    def __init__(self, space: Workspace, preview: LivePreview, apply: Apply, read_json: ReadJson) -> None:
        self.space, self.preview, self.apply, self.read_json = space, preview, apply, read_json
        self._png: tuple[tuple[int, int], bytes] | None = None

    def routes(self) -> list[Route]:
        """The card view's routes."""
        return [
            Route("/api/cards/{card:int}", self.get_card),
            Route("/api/cards/{rev:int}/{card:int}.png", self.get_png),
            Route("/api/pins", self.pin, methods=["POST"]),
            Route("/api/pins/release", self.release, methods=["POST"]),
        ]

    async def get_card(self, request: Request) -> Response:
        """``/api/cards/N?rev=R``: printed card N of revision R laid out (see
        :func:`printdeck.view_card`), and the address of its picture."""
        try:
            rev, card = int(request.query_params["rev"]), request.path_params["card"]
        except (KeyError, ValueError):
            return JSONResponse({"error": "rev: expected a number"}, status_code=400)
        try:
            view = await run_in_threadpool(self._view, rev, card)
        except Stale:
            return JSONResponse({"error": "the deck changed; ask again"}, status_code=409)
        except PrintdeckError as exc:
            problem = self.preview.problem(exc)
            return JSONResponse({"error": problem.line, "key": problem.key}, status_code=422)
        except ValueError as exc:
            return JSONResponse({"error": str(exc)}, status_code=404)
        return JSONResponse({**view, "rev": rev, "image": f"/api/cards/{rev}/{card}.png"})

    def _view(self, rev: int, card: int) -> dict[str, Any]:
        plan, layouts = self.preview.through_card(rev, card)
        return printdeck.view_card(plan, layouts, card)

    async def get_png(self, request: Request) -> Response:
        """The card as it prints (PNG), drawn by the PDF renderer."""
        try:
            png = await run_in_threadpool(self._draw, request.path_params["rev"], request.path_params["card"])
        except (Stale, ValueError, PrintdeckError):
            return JSONResponse({"error": "no such card; the deck changed"}, status_code=404)
        return Response(png, media_type="image/png", headers={"cache-control": "private, max-age=3600"})

    def _draw(self, rev: int, card: int) -> bytes:
        if self._png is not None and self._png[0] == (rev, card):
            return self._png[1]
        plan, layouts = self.preview.through_card(rev, card)
        with LIBRARY_LOCK:
            png = printdeck.preview_card(plan, layouts, card, ppi=CARD_PPI)
        self._png = ((rev, card), png)
        return png

    async def pin(self, request: Request) -> Response:
        """``{"card": 2, "symbol": "star", "center": [12, -8], "rotation": 40, "size": 34}``
        (mm from the card's centre, y up; degrees counter-clockwise; the frame's longer side, mm)."""
        body = await self.read_json(request)
        try:
            card = int(_number(body.get("card"), "card", 1, 10**6))
            symbol = body.get("symbol")
            if not isinstance(symbol, str) or not symbol:
                raise ValueError("symbol: expected a symbol's name")
            center = body.get("center")
            if not isinstance(center, list) or len(center) != 2:
                raise ValueError("center: expected [x, y] in mm")
            xy = (_number(center[0], "center", -MAX_MM, MAX_MM), _number(center[1], "center", -MAX_MM, MAX_MM))
            rotation = _number(body.get("rotation", 0), "rotation", -3600, 3600)
            size = _number(body.get("size"), "size", 0.1, MAX_MM)
        except ValueError as exc:
            return JSONResponse({"error": str(exc)}, status_code=400)
        return await self.apply(self.pin_symbol, card, symbol, xy, rotation, size)

    async def release(self, request: Request) -> Response:
        """``{"card": 2, "symbol": "star"}``: that symbol is laid out again; without
        ``symbol``, the whole card is."""
        body = await self.read_json(request)
        try:
            card = int(_number(body.get("card"), "card", 1, 10**6))
        except ValueError as exc:
            return JSONResponse({"error": str(exc)}, status_code=400)
        symbol = body.get("symbol")
        return await self.apply(self.release_pin, card, symbol if isinstance(symbol, str) else None)

    def pin_symbol(
        self, card: int, symbol: str, center: tuple[float, float], rotation: float, size: float
    ) -> dict[str, Any] | None:
        """Pin ``symbol`` of printed card ``card`` at ``center`` (mm), ``rotation`` (degrees)
        and ``size`` (mm), the card's other symbols pinned where they are if they were not.
        Where that size would touch a neighbour (or leave the safe zone), the symbol is
        pinned as large as it fits there (:func:`printdeck.fit_pin`, down to 0.6 of it).

        Returns:
            ``{"fitted": {"symbol", "size_mm", "asked_mm", "would_touch"}}`` when the symbol
            was made smaller than asked to fit (``would_touch``: what the size asked would
            touch, a symbol's name, the card's safe edge or the centre mark), else None.

        Raises:
            ValueError: the card has no such symbol.
            Refused: the theme model or the layout refuses the placement (nothing saved).
        """
        with self._latest(card) as (plan, layouts):
            view = printdeck.view_card(plan, layouts, card)
            if symbol not in view["names"]:
                raise ValueError(f"symbol: card {card} has no symbol {symbol!r}")
            entries = self._entries()
            entry = next((e for e in entries if e.get("card") == view["pin_card"]), None)
            if entry is None or sorted(entry.get("symbols") or []) != sorted(view["names"]):
                entry = {"card": view["pin_card"], "symbols": view["names"], "place": {}}
            place = dict(entry.get("place") or {})
            for shown in view["symbols"]:
                if shown["name"] not in place:
                    place[shown["name"]] = frozen_place(shown)
            place[symbol] = {
                "center": [_mm(center[0]), _mm(center[1])],
                "rotation": _degrees(rotation),
                "size": _mm(size),
            }
            entry = {**entry, "place": place}
            others = [e for e in entries if e.get("card") != view["pin_card"]]
            entries = sorted([*others, entry], key=lambda e: int(e.get("card") or 0))
            fitted = self._save(plan, card, entries, (view["pin_card"], symbol))
        if fitted is None:
            return None
        size_mm, refusal = fitted
        _, neighbour = _seen_from(refusal, symbol)
        what = {"outside": "the card's safe edge", "centre-mark": "the centre mark"}.get(refusal.reason, neighbour)
        return {"fitted": {"symbol": symbol, "size_mm": size_mm, "asked_mm": size, "would_touch": what}}

    def release_pin(self, card: int, symbol: str | None) -> None:
        """Let ``symbol`` of printed card ``card`` (every symbol without one) be laid out again.

        Raises:
            ValueError: no such card.
            Refused: the theme model refuses the result (nothing saved).
        """
        with self._latest(card) as (plan, layouts):
            pin_card = printdeck.view_card(plan, layouts, card)["pin_card"]
            entries = []
            for entry in self._entries():
                if entry.get("card") == pin_card:
                    place = {
                        k: v for k, v in dict(entry.get("place") or {}).items() if symbol is not None and k != symbol
                    }
                    if not place:
                        continue
                    entry = {**entry, "place": place}
                entries.append(entry)
            self._save(plan, card, entries)

    @contextlib.contextmanager
    def _latest(self, card: int) -> Iterator[tuple[printdeck.DeckPlan, list[printdeck.CardLayout]]]:
        """The deck's plan and layouts through printed card ``card``, with the workspace
        held for the change (the ``with`` block) and still at the revision they were laid out for.

        The layout is asked for before the workspace is held: the live preview holds its own
        lock and then the workspace's, never the other way round.

        Raises:
            Conflict: the deck kept changing meanwhile.
        """
        for _ in range(LATEST_TRIES):
            rev = self.space.rev
            try:
                plan, layouts = self.preview.through_card(rev, card)
            except Stale:
                continue
            with self.space.editing():
                if self.space.rev == rev:
                    yield plan, layouts
                    return
        raise Conflict("the deck changed while this card was being touched up; try again")

    def _entries(self) -> list[dict[str, Any]]:
        layout = self.space.settings.get("layout")
        pinned = layout.get("pinned") if isinstance(layout, dict) else None
        return [dict(e) for e in pinned if isinstance(e, dict)] if isinstance(pinned, list) else []

    def _save(
        self, plan: printdeck.DeckPlan, card: int, entries: list[dict[str, Any]], moved: tuple[int, str] | None = None
    ) -> tuple[float, Any] | None:
        """Keep ``layout.pinned: entries`` if the theme model and the layout take them. With
        ``moved`` (the pinned card's number in ``entries`` and the symbol touched up), that
        symbol is made smaller to fit if that is what the layout refuses: its size and the
        refusal of the size asked are then returned (else None)."""
        layout = {k: v for k, v in dict(self.space.settings.get("layout") or {}).items() if k != "pinned"}
        if entries:
            layout["pinned"] = entries
        settings = {k: v for k, v in self.space.settings.items() if k != "layout"}
        if layout:
            settings["layout"] = layout
        theme, problem = self.space.check({**settings, "symbols": [i.data for i in self.space.items]})
        if problem is not None and touches(problem.key, "layout.pinned"):
            raise Refused(problem, "layout.pinned")
        refusal, fitted = None, None
        if theme is not None:
            deck = dataclasses.replace(plan, theme=theme)
            with contextlib.suppress(ValueError):
                refusal = printdeck.check_pins(deck, card)
                if refusal is not None and moved is not None:
                    fitted = printdeck.fit_pin(deck, card, moved[1])
        if refusal is None:
            self.space.commit(settings=settings)
            return None
        if fitted is None or moved is None:
            raise Refused(plain_words(refusal, moved[1] if moved else None), "layout.pinned")
        self._save(plan, card, _resized(entries, *moved, fitted))
        return fitted, refusal


def _resized(entries: list[dict[str, Any]], pin_card: int, name: str, size_mm: float) -> list[dict[str, Any]]:
    """``entries`` with symbol ``name`` of card ``pin_card``'s entry pinned at ``size_mm``
    (new mappings: the kept ones are never changed)."""
    out = []
    for entry in entries:
        if entry.get("card") == pin_card:
            place = dict(entry.get("place") or {})
            place[name] = {**place[name], "size": _mm(size_mm)}
            entry = {**entry, "place": place}
        out.append(entry)
    return out


__all__ = ["CARD_PPI", "CardTouchUps", "frozen_place", "plain_words"]
