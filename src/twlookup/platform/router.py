"""The dispatcher of one service: which handler answers a request, and nothing else.

It answers, on its fast path, the declared operations (REST), their Markdown pages, the service's
text pages and `/mcp`; every other request falls through to the service's FastAPI app
(`platform.subapp`: the summary, OpenAPI and docs, ordinary FastAPI routes of `Service.api`, and
the 404 problem for unknown paths). A matched operation is left in the scope (`scope[MATCH]`,
platform/endpoint.py) and handed to the operations' ASGI stack: the free quota where the service
has one (platform/quota.py), then the endpoint, which reads the parameters, runs the operation
and, for /api/pro, the x402 gate. A known path with the wrong method is a 405.

Exact paths are one dictionary lookup; paths with `{name}` segments are indexed by their literal
leading segments (`/api/model/{slug}` under `/api/model`), so a request tries only the templates
that share a prefix with it. A free GET operation declared with a Markdown renderer also answers
at `<path>.md` (same parameters, same errors, text/markdown); paid routes have no Markdown page.

Errors are answered here, in one place: a `Problem` as its problem+json, anything else as a bug of
ours (logged, a 500 problem). The request path arrives decoded once (by the server, ASGI `path`);
captured path parameters are used as they are and never decoded a second time (`%254C` is the
literal `%4C`, not `L`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from twlookup.platform.endpoint import MATCH, Match
from twlookup.platform.errors import Problem, internal_error, log_unhandled, method_not_allowed
from twlookup.platform.http import send_bytes, send_problem
from twlookup.platform.operations import Operation

TEXT_PLAIN = b"text/plain; charset=utf-8"
ByMethod = dict[str, Operation]
TextPage = Callable[[dict[str, Any]], str]  # the page for this request (it may write absolute URLs)


def literal_prefix(template: str) -> str:
    """The segments of a path template before its first `{name}` (`/api/model/{slug}`: `/api/model`)."""
    head = template.split("{", 1)[0]
    return head[: head.rfind("/")]


class Dispatcher:
    def __init__(
        self,
        name: str,
        private: bool,
        operations: list[Operation],
        endpoint: Any,
        text_pages: dict[str, TextPage],
        mcp: Any,
        fallback: Any,
    ) -> None:
        self.name = name
        self.private = private  # a private service's errors are logged without their details
        self.endpoint = endpoint  # ASGI: runs the operation in scope[MATCH]
        self.text_pages = text_pages
        self.mcp = mcp
        self.fallback = fallback
        self.routes: dict[str, ByMethod] = {}  # exact paths
        # paths with {name} segments: literal prefix -> [(pattern, operations by method)]
        self.templates: dict[str, list[tuple[re.Pattern[str], ByMethod]]] = {}
        by_template: dict[str, ByMethod] = {}
        for op in operations:
            if op.pattern is None:
                self.routes.setdefault(op.path, {})[op.method] = op
            else:
                by_template.setdefault(op.path, {})[op.method] = op
        for template, by_method in by_template.items():
            pattern = next(iter(by_method.values())).pattern
            assert pattern is not None  # only templated operations are in by_template
            self.templates.setdefault(literal_prefix(template), []).append((pattern, by_method))

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        path: str = scope["path"]
        try:
            by_method = self.routes.get(path)
            if by_method is not None:
                await self._operation(by_method, {}, scope, receive, send)
                return
            if path == "/mcp":  # before the pages and templates: no operation or page has this path
                await self.mcp(scope, receive, send)
                return
            if path.endswith(".md"):
                page = self._markdown(path[: -len(".md")])
                if page is not None:
                    if scope["method"] not in ("GET", "HEAD"):
                        raise method_not_allowed(path, ["GET"])
                    scope[MATCH] = page
                    await self.endpoint(scope, receive, send)
                    return
            if self.templates:
                by_method, captured = self._template(path)
                if by_method is not None:
                    await self._operation(by_method, captured, scope, receive, send)
                    return
            text = self.text_pages.get(path)
            if text is not None:
                if scope["method"] not in ("GET", "HEAD"):
                    raise method_not_allowed(path, ["GET"])
                await send_bytes(send, 200, text(scope).encode(), TEXT_PLAIN, head=scope["method"] == "HEAD")
                return
        except Problem as problem:
            await send_problem(send, problem)
            return
        except Exception as exc:  # a bug of ours, never the client's input: log it, answer 500 problem
            log_unhandled(self.name, path, exc, self.private)
            await send_problem(send, internal_error())
            return
        await self._fall_through(scope, receive, send)

    async def _operation(
        self, by_method: ByMethod, captured: dict[str, str], scope: dict[str, Any], receive: Any, send: Any
    ) -> None:
        method = scope["method"]
        op = by_method.get(method) or (by_method.get("GET") if method == "HEAD" else None)
        if op is None:
            raise method_not_allowed(scope["path"], by_method)
        scope[MATCH] = Match(op, captured, False)
        await self.endpoint(scope, receive, send)

    def _template(self, path: str) -> tuple[ByMethod | None, dict[str, str]]:
        """The templated operations matching `path`, trying only templates whose literal prefix
        is a leading part of it, the longest prefix first."""
        end = len(path)
        while (end := path.rfind("/", 0, end)) >= 0:
            for pattern, by_method in self.templates.get(path[:end], ()):
                found = pattern.match(path)
                if found:
                    return by_method, found.groupdict()
            if end == 0:
                break
        return None, {}

    def _markdown(self, base: str) -> Match | None:
        """The free GET operation whose Markdown page is `<base>.md`, if it has one."""
        by_method = self.routes.get(base)
        captured: dict[str, str] = {}
        if by_method is None and self.templates:
            by_method, captured = self._template(base)
        op = by_method.get("GET") if by_method else None
        if op is None or op.markdown is None:
            return None
        return Match(op, captured, True)

    async def _fall_through(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        """The service's FastAPI app answers, its errors as problems too. A bug there is answered
        by its 500 handler, which Starlette then raises again for the server to log: it is logged
        here, once, and answered here only if nothing was sent yet."""
        started = False

        async def tracked(message: dict[str, Any]) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.fallback(scope, receive, tracked)
        except Exception as exc:
            log_unhandled(self.name, scope["path"], exc, self.private)
            if not started:
                await send_problem(send, internal_error())
