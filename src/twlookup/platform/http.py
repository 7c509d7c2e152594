"""Small pure-ASGI helpers shared by the platform's layers."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import parse_qsl

import orjson

from twlookup.platform.errors import InvalidParameter, Problem

JSON = b"application/json"
PROBLEM_JSON = b"application/problem+json"
Scope = dict[str, Any]


async def send_bytes(
    send: Any,
    status: int,
    body: bytes,
    content_type: bytes = JSON,
    headers: list[tuple[bytes, bytes]] | None = None,
    head: bool = False,
) -> None:
    """`body` as the answer; with `head` (a HEAD request), its headers only: the Content-Length
    stays the body's, as GET would send it (RFC 9110 8.6 allows no other)."""
    raw = [(b"content-type", content_type), (b"content-length", str(len(body)).encode())]
    if headers:
        raw.extend(headers)
    await send({"type": "http.response.start", "status": status, "headers": raw})
    await send({"type": "http.response.body", "body": b"" if head else body})


async def send_json(send: Any, status: int, data: Any, headers: list[tuple[bytes, bytes]] | None = None) -> None:
    await send_bytes(send, status, orjson.dumps(data), JSON, headers)


async def send_problem(send: Any, problem: Problem, instance: str | None = None) -> None:
    headers = [(k.lower().encode(), v.encode()) for k, v in problem.headers.items()]
    await send_bytes(send, problem.status, problem.render(instance), PROBLEM_JSON, headers)


async def read_body(receive: Any, limit: int, first: dict[str, Any] | None = None) -> bytes:
    """The whole request body, or 413 past `limit` bytes; `first`: the message receive() gave
    already, if any (a caller that looked at it for a body in one piece)."""
    chunks: list[bytes] = []
    size = 0
    message = first if first is not None else await receive()
    while True:
        if message["type"] == "http.disconnect":
            raise Problem(400, "The client disconnected before sending the whole body.")
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            raise Problem(413, f"The request body is larger than the {limit} bytes this server accepts.")
        if not message.get("more_body", False):
            return b"".join([*chunks, chunk]) if chunks else chunk  # most bodies come in one piece
        chunks.append(chunk)
        message = await receive()


def query_params(scope: Scope) -> dict[str, str]:
    """Query string as a dict; a repeated parameter is an error rather than a silent pick."""
    raw = scope.get("query_string", b"")
    if not raw:
        return {}
    text = raw.decode("latin-1")
    if "%" in text or "+" in text:
        pairs: Any = parse_qsl(text, keep_blank_values=True)
    else:  # nothing to unquote (the usual case): parse_qsl's split without its per-pair work
        pairs = (pair.partition("=")[::2] for pair in text.split("&") if pair)
    out: dict[str, str] = {}
    for key, value in pairs:
        if key in out:
            raise InvalidParameter(key, "given more than once; pass it once")
        out[key] = value
    return out


def header(scope: Mapping[str, Any], name: bytes) -> bytes | None:
    for key, value in scope["headers"]:
        if key == name:
            return value
    return None


def parse_json_body(body: bytes) -> Any:
    if not body:
        return {}
    try:
        return orjson.loads(body)
    except orjson.JSONDecodeError as exc:
        raise Problem(400, f"The request body is not valid JSON: {exc}.", kind="malformed-json") from None


def head_as_get(app: Any) -> Any:
    """`app` answering HEAD as it answers GET, without the body (RFC 9110 9.3.2): FastAPI's own
    routes declare GET only, so without this a HEAD on /, /healthz or a page would be a 405.
    The headers (Content-Length included) are GET's."""

    async def wrapped(scope: Scope, receive: Any, send: Any) -> None:
        if scope.get("type") != "http" or scope["method"] != "HEAD":
            await app(scope, receive, send)
            return

        async def send_headers_only(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.body":
                if message.get("more_body", False):
                    return  # the rest of GET's body follows; HEAD sends none of it
                message = {"type": "http.response.body", "body": b""}
            await send(message)

        await app(dict(scope, method="GET"), receive, send_headers_only)

    return wrapped
