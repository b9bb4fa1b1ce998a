"""The studio's sheets and builds: a sheet of the saved deck drawn for the preview, and a
build of the saved folder started, followed (server-sent events) and downloaded."""

from __future__ import annotations

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route

from printdeck.choices import SheetSide
from printdeck.errors import PrintdeckError
from printdeck.studio.build_jobs import Builds, cards_zip
from printdeck.studio.http_helpers import attachment, error, event_stream, json_body
from printdeck.studio.live_preview import LivePreview, Stale

SIDES = frozenset(side.value for side in SheetSide)
"""The sides of a sheet the preview draws (``?side=``)."""


class SheetsAndBuilds:
    """The endpoints of the preview's sheets and of the builds."""

    def __init__(self, preview: LivePreview, builds: Builds) -> None:
        self.preview = preview
        self.builds = builds

    def routes(self) -> list[Route]:
        """The sheets' and builds' routes."""
        return [
            Route("/api/preview", self.get_preview),
            Route("/api/sheets/{rev:int}/{page:int}.png", self.get_sheet),
            Route("/api/builds", self.start_build, methods=["POST"]),
            Route("/api/builds", self.latest_build),
            Route("/api/builds/{job:int}/events", self.build_events),
            Route("/api/builds/{job:int}/deck.pdf", self.build_pdf),
            Route("/api/builds/{job:int}/cards.zip", self.build_zip),
        ]

    async def latest_build(self, request: Request) -> Response:
        """``{"latest": event, "cards": event}``: this run's latest build as its events say it
        (running or done), or null: a page opened (or reloaded) during a build follows it;
        ``cards``: the latest build of the cards that wrote its PDF (null if none), which the
        top bar offers when the latest made slides."""
        jobs = sorted(self.builds.jobs.values(), key=lambda job: job.id)
        latest = jobs[-1] if jobs else None
        cards = next((job for job in reversed(jobs) if not job.slides and job.done and job.made_pdf), None)
        return JSONResponse(
            {"latest": latest.event() if latest is not None else None, "cards": cards.event() if cards else None}
        )

    async def get_preview(self, request: Request) -> Response:
        """``?rev=N&page=P&side=S``: draw sheet P of revision N, its front (where its cards
        are) or its back (``side=back``)."""
        try:
            rev, page = int(request.query_params["rev"]), int(request.query_params.get("page", "1"))
        except (KeyError, ValueError):
            return error(400, "rev and page: expected numbers")
        side = request.query_params.get("side", "front")
        if side not in SIDES:
            return error(400, "side: expected front or back")
        try:
            _, facts = await run_in_threadpool(self.preview.sheet, rev, page, side)
        except Stale:
            return error(409, "the deck changed; ask again")
        except PrintdeckError as exc:
            problem = self.preview.problem(exc)
            return JSONResponse(
                {"error": problem.line, "words": problem.words, "key": problem.key, "code": problem.code},
                status_code=422,
            )
        except ValueError as exc:
            return error(404, str(exc))
        image = f"/api/sheets/{rev}/{page}.png" + ("?side=back" if side == "back" else "")
        return JSONResponse({**facts, "rev": rev, "image": image})

    async def get_sheet(self, request: Request) -> Response:
        """The PNG of a sheet drawn by ``/api/preview`` (``?side=back``: its back)."""
        side = request.query_params.get("side", "front")
        if side not in SIDES:
            return error(400, "side: expected front or back")
        try:
            params = request.path_params
            png, _ = await run_in_threadpool(self.preview.sheet, params["rev"], params["page"], side)
        except (Stale, ValueError, PrintdeckError):
            return error(404, "no such sheet; the deck changed")
        return Response(png, media_type="image/png", headers={"cache-control": "private, max-age=3600"})

    async def start_build(self, request: Request) -> Response:
        """``{"pngs": true}``: build the saved folder (PDF, manifest, card PNGs);
        ``{"slides": true}``: its classroom slides with the answer key."""
        body = await json_body(request)
        job = self.builds.start(bool(body.get("pngs", False)), slides=bool(body.get("slides", False)))
        return JSONResponse(job.event(), status_code=202)

    async def build_events(self, request: Request) -> Response:
        """The build's progress as server-sent events, until it ends."""
        job = self.builds.jobs.get(request.path_params["job"])
        if job is None:
            return error(404, "no such build")

        return event_stream(request, job.event)

    async def build_pdf(self, request: Request) -> Response:
        """The built PDF, as a download."""
        job = self.builds.jobs.get(request.path_params["job"])
        if job is None or job.pdf is None or not job.pdf.is_file():
            return error(404, "no such build")
        return FileResponse(job.pdf, media_type="application/pdf", filename=job.pdf.name)

    async def build_zip(self, request: Request) -> Response:
        """The card PNGs of a build, in one zip."""
        job = self.builds.jobs.get(request.path_params["job"])
        if job is None or not job.png_paths or job.pdf is None:
            return error(404, "no such build, or it made no PNGs")
        data = await run_in_threadpool(cards_zip, job.png_paths)
        name = job.pdf.with_suffix("").name + "-cards.zip"
        return Response(data, media_type="application/zip", headers={"content-disposition": attachment(name)})
