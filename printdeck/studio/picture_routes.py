"""The studio's pictures, read only: a symbol's thumbnail, a photo's crop and the photo as
it prints, the bundled pictures' catalogue and each one's SVG."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route

from printdeck.errors import PrintdeckError
from printdeck.resources import data_root
from printdeck.studio import bundled_art, crops
from printdeck.studio.http_helpers import error
from printdeck.studio.symbol_list import cut_out_picture
from printdeck.studio.thumbnails import printed_thumbnail, thumbnail
from printdeck.studio.wording import problem_of
from printdeck.studio.workspace import Workspace


class Pictures:
    """The endpoints that show a workspace's pictures and the bundled ones."""

    def __init__(self, space: Workspace) -> None:
        self.space = space

    def routes(self) -> list[Route]:
        """The pictures' routes."""
        return [
            Route("/api/art", self.get_art),
            Route("/api/art/{art}.svg", self.art_picture),
            Route("/api/thumbs/{uid:int}", self.get_thumb),
            Route("/api/crops/{uid:int}/printed.png", self.get_printed),
            Route("/api/crops/{uid:int}", self.get_crop),
        ]

    async def get_art(self, request: Request) -> Response:
        """The bundled pictures: ``{"art": [{"id", "name", "words"}, ...]}``."""
        art = await run_in_threadpool(bundled_art.catalogue)
        return JSONResponse({"art": list(art)}, headers={"cache-control": "private, max-age=3600"})

    async def art_picture(self, request: Request) -> Response:
        """A bundled picture's SVG (shown in the picker)."""
        path = bundled_art.art_path(request.path_params["art"])
        if path is None:
            return error(404, "no such bundled picture")
        return FileResponse(path, media_type="image/svg+xml", headers={"cache-control": "private, max-age=3600"})

    async def get_thumb(self, request: Request) -> Response:
        """A symbol's picture, small; an image printed without its plain background, as it prints."""
        uid = request.path_params["uid"]
        path = self._item_path(uid)
        if path is None:
            return error(404, "no such picture")
        cut = self._cut_out(uid)
        try:
            if cut is not None:
                data, media = await run_in_threadpool(printed_thumbnail, cut, self.space.folder, path)
            else:
                data, media = await run_in_threadpool(thumbnail, path)
        except (OSError, ValueError):
            return error(404, "this picture cannot be shown")
        return Response(data, media_type=media, headers={"cache-control": "private, max-age=600"})

    async def get_crop(self, request: Request) -> Response:
        """Where a photo's crop is, as the PDF cuts it (found now if not known yet)."""
        try:
            crop = await run_in_threadpool(crops.item_crop, self.space, request.path_params["uid"])
        except PrintdeckError as exc:
            return self._unreadable_photo(exc)
        if crop is None:
            return error(404, "no such photo; reload the page")
        return JSONResponse({"crop": crop})

    async def get_printed(self, request: Request) -> Response:
        """A photo as it prints, alone (its crop, shape and any background removed)."""
        try:
            data = await run_in_threadpool(crops.item_printed, self.space, request.path_params["uid"])
        except PrintdeckError as exc:
            return self._unreadable_photo(exc)
        if data is None:
            return error(404, "no such photo; reload the page")
        return Response(data, media_type="image/png", headers={"cache-control": "no-store"})

    def _unreadable_photo(self, exc: PrintdeckError) -> JSONResponse:
        """A photo that cannot be read: its line and the page's words for it (422)."""
        return JSONResponse({"error": str(exc), "words": problem_of(exc, self.space.folder).words}, status_code=422)

    def _cut_out(self, uid: int) -> dict[str, Any] | None:
        """The theme mapping of the picture item ``uid``'s tile shows when it is an image
        printed without its plain background (:func:`cut_out_picture`); None otherwise."""
        with self.space.lock:
            try:
                item = self.space.items[self.space.find(uid)]
            except KeyError:
                return None
            return cut_out_picture(item)

    def _item_path(self, uid: int) -> Path | None:
        """The file of symbol ``uid``, if it is inside the theme folder or the bundled artwork."""
        with self.space.lock:
            try:
                ref = self.space.items[self.space.find(uid)].file
            except KeyError:
                return None
        if ref is None:
            return None
        roots = (self.space.folder, data_root("assets").resolve())
        path = (roots[1] / ref[len("@assets/") :]) if ref.startswith("@assets/") else self.space.folder / ref
        try:
            real = path.resolve()
        except (OSError, RuntimeError):
            return None
        return real if real.is_file() and any(real.is_relative_to(r) for r in roots) else None
