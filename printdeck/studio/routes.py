"""The studio's HTTP endpoints (Starlette): the page, its static files, and the JSON API.

Work that takes time (checking pictures, laying out cards, drawing a sheet) runs on
worker threads, never on the event loop; a build streams its progress as server-sent
events.
"""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import UploadFile
from starlette.exceptions import HTTPException
from starlette.formparsers import MultiPartException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from printdeck.errors import PrintdeckError
from printdeck.studio import bundled_art, intake, page_state, setting_changes, symbol_changes, typed_words, uploads
from printdeck.studio.background import working
from printdeck.studio.build_jobs import Builds
from printdeck.studio.build_routes import SheetsAndBuilds
from printdeck.studio.card_pins import CardTouchUps
from printdeck.studio.checks import Checker
from printdeck.studio.guard import BodyTooLarge, BodyTooSlow, Guard, Pass, too_large
from printdeck.studio.history import Conflict
from printdeck.studio.http_helpers import drop_name, error, event_stream, json_body, page_rev
from printdeck.studio.live_preview import LivePreview, Stale
from printdeck.studio.picture_routes import Pictures
from printdeck.studio.theme_folder import Unwritable
from printdeck.studio.undo import Moved, redo, undo
from printdeck.studio.watch import Watch
from printdeck.studio.wording import Problem, problem_of
from printdeck.studio.workspace import Refused, Workspace

STATIC = Path(__file__).resolve().parent / "static"
CHECK_POLL_S = 0.05


class Studio:
    """The endpoints over one workspace, its live preview and its builds."""

    def __init__(self, space: Workspace) -> None:
        self.space = space
        self.preview = LivePreview(space)
        self.builds = Builds(space)
        self.checks = Checker(space, on_saved=self._pictures_saved)
        self.watch = Watch(space)
        self.cards = CardTouchUps(space, self.preview, self._apply, json_body)
        self.sheets_and_builds = SheetsAndBuilds(self.preview, self.builds)
        self.pictures = Pictures(space)
        self.index_html = (STATIC / "index.html").read_bytes()

    def routes(self) -> list[Route | Mount]:
        """Every route of the studio."""
        return [
            Route("/", self.index),
            Route("/api/state", self.get_state),
            Route("/api/settings", self.change_settings, methods=["PATCH"]),
            Route("/api/watch", self.get_watch),
            Route("/api/outside", self.choose_outside, methods=["POST"]),
            Route("/api/files", self.add_files, methods=["POST"]),
            Route("/api/checks/{job:int}/events", self.check_events),
            Route("/api/words", self.add_words, methods=["POST"]),
            Route("/api/symbols/order", self.reorder, methods=["PUT"]),
            Route("/api/symbols/{uid:int}", self.change_symbol, methods=["PATCH"]),
            Route("/api/symbols/{uid:int}", self.remove_symbol, methods=["DELETE"]),
            Route("/api/symbols/{uid:int}/faces", self.add_face, methods=["POST"]),
            Route("/api/look-alikes", self.get_look_alikes),
            Route("/api/rejected/{uid:int}", self.dismiss, methods=["DELETE"]),
            Route("/api/backs-image", self.backs_image, methods=["POST"]),
            Route("/api/font", self.font, methods=["POST"]),
            Route("/api/reroll", self.reroll, methods=["POST"]),
            Route("/api/seed", self.new_seed, methods=["POST"]),
            Route("/api/art", self.add_art, methods=["POST"]),
            Route("/api/undo", self.undo, methods=["POST"]),
            Route("/api/redo", self.redo, methods=["POST"]),
            *self.cards.routes(),
            *self.pictures.routes(),
            *self.sheets_and_builds.routes(),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ]

    def warm_up(self) -> None:
        """Load the theme and draw the first sheet (call on a thread at start-up)."""
        with working():
            page_state.state(self.space)
            with contextlib.suppress(PrintdeckError, Stale, ValueError):
                self.preview.sheet(self.space.snapshot().rev, 1)

    def _pictures_saved(self, last: bool) -> None:
        """After a drop's pictures are saved, when no other drop waits (``last``): start
        drawing the sheet last looked at, then compare the drawings for look-alikes here,
        on the checking thread of lower priority, once the sheet is drawn (the page asking
        for look-alikes meanwhile waits for this comparison rather than slowing the sheet)."""
        if last:
            drawing = self.preview.prefetch()
            with contextlib.suppress(PrintdeckError):
                self.space.look_alike_view(after=drawing)

    async def index(self, request: Request) -> Response:
        """The page."""
        return Response(self.index_html, media_type="text/html; charset=utf-8")

    async def _state(self, status: int = 200, **extra: Any) -> JSONResponse:
        body = await run_in_threadpool(self._state_body)
        return JSONResponse({**extra, "state": body}, status_code=status)

    def _state_body(self) -> dict[str, Any]:
        """The page's state, with what the watch found in ``theme.yaml`` (an outside edit
        that does not load puts its error beside the field it names)."""
        outside = self.watch.poll()
        body = page_state.state(self.space)
        body["outside"] = outside.view()
        body["checking"] = self.checks.active()
        if outside.state == "conflict" and outside.key:
            body["field_errors"] = {**body["field_errors"], outside.key: outside.words}
        return body

    async def get_watch(self, request: Request) -> Response:
        """Cheap, polled by the page: the saved revision and what the watch found."""
        outside = await run_in_threadpool(self.watch.poll)
        return JSONResponse({"rev": self.space.rev, "epoch": self.space.epoch, "outside": outside.view()})

    async def choose_outside(self, request: Request) -> Response:
        """``{"keep": "page"}`` or ``{"keep": "file"}``: the person's choice on an outside
        edit of ``theme.yaml`` that does not load."""
        keep = (await json_body(request)).get("keep")
        return await self._apply(self.watch.choose, keep)

    async def get_state(self, request: Request) -> Response:
        """The deck: settings, symbols, errors, what the symbols allow."""
        return await self._state()

    async def change_settings(self, request: Request) -> Response:
        """``{"changes": {"card.diameter": "80mm", "deck.cards": null}}``."""
        changes = (await json_body(request)).get("changes")
        if not isinstance(changes, dict):
            return error(400, "changes: expected a mapping of setting keys to values")
        return await self._apply(setting_changes.change_settings, self.space, changes)

    async def _apply(self, change: Any, *args: Any) -> Response:
        try:
            await run_in_threadpool(self.watch.poll)  # an outside edit first: never written over unseen
            done = await run_in_threadpool(change, *args)
        except (Unwritable, Conflict, Moved) as exc:
            return await self._state(409, error=str(exc))
        except Refused as refused:
            problem = refused.problem
            return await self._state(422, error=problem.line, words=problem.words, field=refused.field_key)
        except (ValueError, TypeError) as exc:
            return error(400, str(exc))
        except KeyError:
            return error(404, "no such symbol; reload the page")
        except PrintdeckError as exc:
            return await self._state(422, error=str(exc))
        self.preview.prefetch()
        return await self._state(**(done if isinstance(done, dict) else {}))

    async def add_files(self, request: Request) -> Response:
        """Pictures dropped or picked (multipart, field ``files``): written into the folder
        and answered at once (202, ``check``: the job checking them, its events at
        ``/api/checks/{id}/events``); ``?wait=1`` answers once they are checked (200,
        ``results``: one a file). ``?face_of=UID``: the one picture, dropped on that symbol's
        tile, becomes its face (a result then holds ``face_of``)."""
        sent = await _uploads(request, "files", uploads.MAX_FILES_PER_UPLOAD)
        if isinstance(sent, Response):
            return sent
        files, drop = sent
        face_of = request.query_params.get("face_of", "")
        if face_of and not face_of.isdigit():
            return error(400, "face_of: expected a symbol's number")
        try:
            job = await run_in_threadpool(self.checks.submit, files, drop, int(face_of) if face_of else None)
        except Unwritable as exc:
            return await self._state(409, error=str(exc))
        if request.query_params.get("wait") not in (None, "", "0"):
            while not job.done:
                await asyncio.sleep(CHECK_POLL_S)
            if job.error is not None:
                return await self._state(409, error=job.error)
            return await self._state(results=job.results)
        return await self._state(202, check=job.event())

    async def check_events(self, request: Request) -> Response:
        """The check of a drop's pictures as server-sent events (the file being checked,
        n of N), until it ends; the last event holds each file's result."""
        job = self.checks.jobs.get(request.path_params["job"])
        if job is None:
            return error(404, "no such check")
        return event_stream(request, job.event)

    async def add_words(self, request: Request) -> Response:
        """``{"text": "cat\\ndog"}``: one word a line."""
        body = await json_body(request)
        text = body.get("text")
        if not isinstance(text, str):
            return error(400, "text: expected the words, one a line")
        try:
            results = await run_in_threadpool(typed_words.add_words, self.space, text, drop_name(body.get("drop")))
        except Unwritable as exc:
            return await self._state(409, error=str(exc))
        self.preview.prefetch()
        return await self._state(results=results)

    async def change_symbol(self, request: Request) -> Response:
        """``{"changes": {"scale": 1.2, "focus": [0.5, 0.3]}}`` for one symbol."""
        changes = (await json_body(request)).get("changes")
        if not isinstance(changes, dict):
            return error(400, "changes: expected a mapping")
        return await self._apply(symbol_changes.change_symbol, self.space, request.path_params["uid"], changes)

    async def add_face(self, request: Request) -> Response:
        """``{"add": uid}``: that symbol becomes a face of this one (a picture and its word)."""
        other = (await json_body(request)).get("add")
        if not isinstance(other, int) or isinstance(other, bool):
            return error(400, "add: expected a symbol's id")
        return await self._apply(symbol_changes.pair, self.space, request.path_params["uid"], other)

    async def get_look_alikes(self, request: Request) -> Response:
        """The saved deck's look-alikes, by symbol: ``{"rev", "symbols": {uid: {"warning", "warning_detail"}}}``."""
        return JSONResponse(await run_in_threadpool(self.space.look_alike_view))

    async def remove_symbol(self, request: Request) -> Response:
        """Take a symbol out (its file stays in the folder)."""
        return await self._apply(symbol_changes.remove_symbol, self.space, request.path_params["uid"])

    async def reorder(self, request: Request) -> Response:
        """``{"order": [uid, ...]}``: every symbol, in the new order."""
        order = (await json_body(request)).get("order")
        if not isinstance(order, list) or not all(isinstance(u, int) for u in order):
            return error(400, "order: expected the symbols' ids")
        return await self._apply(symbol_changes.reorder, self.space, order)

    async def dismiss(self, request: Request) -> Response:
        """Forget a refused file's tile."""
        return await self._apply(symbol_changes.dismiss, self.space, request.path_params["uid"])

    async def backs_image(self, request: Request) -> Response:
        """A picture or logo for the card backs (multipart, field ``file``)."""
        return await self._one_file(request, intake.set_backs_image, "backs.image")

    async def font(self, request: Request) -> Response:
        """A font file for the words (multipart, field ``file``)."""
        return await self._one_file(request, intake.set_font, "text.font")

    async def _one_file(self, request: Request, setter: Any, key: str) -> Response:
        sent = await _uploads(request, "file", 1)
        if isinstance(sent, Response):
            return sent
        files, _ = sent
        if not files:
            return error(400, f"{key}: no file sent")
        try:
            await run_in_threadpool(setter, self.space, files[0])
        except Unwritable as exc:
            return await self._state(409, error=str(exc), field=key)
        except Refused as refused:
            return await self._refused_file(key, refused.problem)
        except PrintdeckError as exc:
            return await self._refused_file(key, problem_of(exc.keyed(key), self.space.folder), str(exc))
        self.preview.prefetch()
        return await self._state()

    async def _refused_file(self, key: str, problem: Problem, line: str | None = None) -> Response:
        """A file refused for the setting ``key`` (a font, a picture for the backs): its
        error shown beside that setting's control until the setting changes."""
        with self.space.lock:
            self.space.field_errors[key] = problem.words
        return await self._state(422, error=line or problem.line, words=problem.words, field=key)

    async def reroll(self, request: Request) -> Response:
        """``{"card": 7}``: lay card 7 out again, differently."""
        card = (await json_body(request)).get("card")
        if not isinstance(card, int) or isinstance(card, bool) or card < 1:
            return error(400, "card: expected a card number (1 or more)")
        return await self._apply(setting_changes.reroll_card, self.space, card)

    async def new_seed(self, request: Request) -> Response:
        """A new random seed: a new shuffle of the symbols and new layouts."""
        return await self._apply(setting_changes.new_seed, self.space)

    async def add_art(self, request: Request) -> Response:
        """``{"names": ["cat", "hot-dog"]}``: bundled pictures copied in and added."""
        body = await json_body(request)
        names = body.get("names")
        if not isinstance(names, list):
            return error(400, "names: expected the bundled pictures' names")
        try:
            results = await run_in_threadpool(bundled_art.add_art, self.space, names, drop_name(body.get("drop")))
        except Unwritable as exc:
            return await self._state(409, error=str(exc))
        except ValueError as exc:
            return error(400, str(exc))
        self.preview.prefetch()
        return await self._state(results=results)

    async def undo(self, request: Request) -> Response:
        """``{"rev": N}``: take back the latest change (of revision N, the one the page
        shows; 409 with the state when the deck changed since). Answers ``undone``."""
        return await self._apply(undo, self.space, page_rev(await json_body(request)))

    async def redo(self, request: Request) -> Response:
        """``{"rev": N}``: make the latest undone change again; as ``/api/undo`` (``redone``)."""
        return await self._apply(redo, self.space, page_rev(await json_body(request)))


async def _uploads(request: Request, field: str, most: int) -> tuple[list[uploads.Upload], str | None] | Response:
    """The files of a multipart request's ``field`` and its ``drop`` name, or an error response."""
    try:
        form = await request.form(max_files=most, max_fields=20)
    except (BodyTooLarge, BodyTooSlow):
        raise
    except OSError as exc:  # the spooled parts did not fit in the temporary folder
        return error(409, uploads.spool_error(exc))
    except (MultiPartException, HTTPException) as exc:  # Starlette words its refusals as an HTTPException
        said = str(getattr(exc, "detail", None) or getattr(exc, "message", exc))
        too_many = "too many files" in said.lower()
        return error(400, f"{field}: send at most {most} files at a time" if too_many else f"{field}: {said}")
    except Exception:  # noqa: BLE001 - a body that is not multipart form data
        return error(400, f"{field}: send the files as multipart form data")
    files = []
    try:
        for part in form.getlist(field):
            if isinstance(part, UploadFile):
                data = await part.read(uploads.MAX_FILE_BYTES + 1)
                files.append(uploads.Upload(part.filename or "picture", data, part.size or len(data)))
        drop = drop_name(form.get("drop"))
    except OSError as exc:
        return error(409, uploads.spool_error(exc))
    finally:
        await form.close()
    return files, drop


async def _body_refused(request: Request, exc: Exception) -> Response:
    """A body over the limit (413) or one that stalled or trickled (408)."""
    if isinstance(exc, BodyTooLarge):
        return error(413, too_large(exc.seen, exc.limit))
    return error(408, str(exc))


def create_app(space: Workspace, gate: Pass, studio: Studio | None = None) -> Guard:
    """The studio as an ASGI app, every request checked by ``gate``."""
    studio = studio or Studio(space)
    refusals = {BodyTooLarge: _body_refused, BodyTooSlow: _body_refused}
    return Guard(Starlette(routes=studio.routes(), exception_handlers=refusals), gate)
