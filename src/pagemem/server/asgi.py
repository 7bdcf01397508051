"""The ASGI layer under the REST app: what must hold before and after any route runs.

- **The body cap counts the bytes read.** A `Content-Length` header can be absent
  (chunked bodies) or wrong; the body is read here, up to the cap, and a request over
  it is answered 413 before any route sees it.
- **Paths decode or are refused.** Starlette turns an invalid UTF-8 percent-escape into
  U+FFFD, so `/users/%FF` and `/users/%FE` would be one user; such a path gets 400.
- **A failure is an answer, not a dropped connection.** An exception no handler took
  becomes a 500 in the documented error shape on a connection that stays open (once a
  response has started, as in a streamed export, the connection must drop instead, so
  the client sees the body was cut short).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import unquote_to_bytes

__all__ = ["RequestGuard", "error_body"]

log = logging.getLogger(__name__)

Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[MutableMapping[str, Any], Receive, Send], Awaitable[None]]


def error_body(kind: str, message: str) -> bytes:
    return json.dumps({"error": {"type": kind, "message": message}}).encode("utf-8")


class RequestGuard:
    """ASGI middleware: the body cap on bytes read, path encodings, last-resort 500s."""

    def __init__(self, app: ASGIApp, *, max_body: int) -> None:
        self.app = app
        self.max_body = max_body

    async def __call__(self, scope: MutableMapping[str, Any], receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        raw_path = scope.get("raw_path") or scope["path"].encode("utf-8")
        try:
            unquote_to_bytes(raw_path.split(b"?", 1)[0]).decode("utf-8")
        except UnicodeDecodeError:
            await _answer(send, 400, "invalid_request", "the path is not valid UTF-8 once decoded")
            return
        body, whole = await self._read_body(receive)
        if not whole:
            await _answer(
                send, 413, "too_large", f"request bodies are limited to {self.max_body} bytes"
            )
            return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        started = False

        async def watch(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, replay, watch)
        except Exception:
            if started:
                raise  # the client must see the response was cut short
            log.exception("unhandled error in %s %s", scope.get("method"), scope.get("path"))
            await _answer(send, 500, "internal", "the server failed on this request")

    async def _read_body(self, receive: Receive) -> tuple[bytes, bool]:
        """The whole body, or (what was read, False) once it passes the cap."""
        parts: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return b"".join(parts), True
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body:
                return b"", False
            parts.append(chunk)
            if not message.get("more_body", False):
                return b"".join(parts), True


async def _answer(send: Send, status: int, kind: str, message: str) -> None:
    body = error_body(kind, message)
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
