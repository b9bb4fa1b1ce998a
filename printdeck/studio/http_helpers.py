"""The studio's small HTTP helpers: a request's JSON object, the page's revision and drop
name, errors as JSON, and progress as server-sent events."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from typing import Any
from urllib.parse import quote

from starlette.requests import Request
from starlette.responses import JSONResponse, StreamingResponse

MAX_JSON_BYTES = 1_000_000
EVENT_INTERVAL_S = 0.15


async def json_body(request: Request) -> dict[str, Any]:
    """The request's JSON object (``{}`` when it is not one; a body over the limit or too
    slow is refused by the app's handler)."""
    body = await request.body()
    if len(body) > MAX_JSON_BYTES:
        return {}
    try:
        data = json.loads(body or b"{}")
    except (ValueError, UnicodeDecodeError):
        return {}
    return data if isinstance(data, dict) else {}


def page_rev(body: dict[str, Any]) -> int | None:
    """The revision a request says the page shows (``None`` when it says none)."""
    rev = body.get("rev")
    return rev if isinstance(rev, int) and not isinstance(rev, bool) else None


def drop_name(value: object) -> str | None:
    """The page's name for a drop (a short string), or ``None``."""
    return value[:64] if isinstance(value, str) and value else None


def event_stream(request: Request, event: Callable[[], dict[str, Any]]) -> StreamingResponse:
    """``event()`` as server-sent events every :data:`EVENT_INTERVAL_S`, until it says done."""

    async def events() -> AsyncIterator[str]:
        while True:
            now = event()
            yield f"data: {json.dumps(now)}\n\n"
            if now["done"] or await request.is_disconnected():
                return
            await asyncio.sleep(EVENT_INTERVAL_S)

    return StreamingResponse(events(), media_type="text/event-stream", headers={"cache-control": "no-store"})


def error(status: int, text: str) -> JSONResponse:
    """``{"error": text}`` with HTTP status ``status``."""
    return JSONResponse({"error": text}, status_code=status)


def attachment(name: str) -> str:
    """The ``content-disposition`` header of a download named ``name``, as Starlette's
    ``FileResponse`` writes it: ``filename="..."`` for a plain name, else RFC 5987's
    ``filename*=utf-8''...`` (a header is Latin-1: a deck named 猫のデッキ cannot go in plain)."""
    quoted = quote(name)
    if quoted == name:
        return f'attachment; filename="{name}"'
    return f"attachment; filename*=utf-8''{quoted}"
