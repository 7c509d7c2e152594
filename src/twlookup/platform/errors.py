"""RFC 9457 problem details: the one shape of every 4xx/5xx body.

Logic and operations raise `Problem` (or a subclass); the REST layer turns it into
`application/problem+json`, the MCP layer into a tool error with the same text.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

import orjson
from pydantic import ValidationError

log = logging.getLogger("twlookup")
PROBLEM_TYPE_BASE = "https://twlookup.dev/problems/"

TITLES = {
    400: "Bad request",
    402: "Payment required",
    403: "Forbidden",
    404: "Not found",
    405: "Method not allowed",
    413: "Request body too large",
    415: "Unsupported media type",
    422: "Invalid parameter",
    429: "Too many requests",
    500: "Internal error",
    503: "Service unavailable",
}


STANDARD_MEMBERS = frozenset({"type", "title", "status", "detail", "instance", "errors"})


class Problem(Exception):
    """An error a client can act on. `kind` becomes the last segment of the `type` URI."""

    def __init__(
        self,
        status: int,
        detail: str,
        *,
        kind: str | None = None,
        title: str | None = None,
        errors: list[dict[str, Any]] | None = None,
        headers: dict[str, str] | None = None,
        extra: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail
        self.kind = kind or TITLES.get(status, "error").lower().replace(" ", "-")
        self.title = title or TITLES.get(status, "Error")
        self.errors = errors
        self.headers = headers or {}
        self.extra = extra or {}

    def body(self, instance: str | None = None) -> dict[str, Any]:
        out: dict[str, Any] = {
            "type": PROBLEM_TYPE_BASE + self.kind,
            "title": self.title,
            "status": self.status,
            "detail": self.detail,
        }
        if instance:
            out["instance"] = instance
        if self.errors:
            out["errors"] = self.errors
        # extension members never replace the RFC 9457 members (a submission's "status" once did)
        out.update({k: v for k, v in self.extra.items() if k not in STANDARD_MEMBERS})
        return out

    def render(self, instance: str | None = None) -> bytes:
        return orjson.dumps(self.body(instance))


class NotFound(Problem):
    def __init__(self, what: str, ident: str, hint: str | None = None) -> None:
        detail = f"No {what} with id {ident!r}."
        if hint:
            detail += " " + hint
        super().__init__(404, detail, kind="not-found", extra={"id": ident})


class Unreachable(Problem):
    """503: something this answer needs from elsewhere (`upstream`) could not be reached; the
    client may try again after `retry_after` seconds."""

    def __init__(self, upstream: str, detail: str, retry_after: str) -> None:
        super().__init__(
            503, detail, kind="upstream-unavailable", headers={"Retry-After": retry_after}, extra={"upstream": upstream}
        )


class InvalidParameter(Problem):
    """One parameter is wrong; `allowed` says what would be accepted."""

    def __init__(self, name: str, message: str, allowed: Any = None) -> None:
        entry: dict[str, Any] = {"parameter": name, "message": message}
        if allowed is not None:
            entry["allowed"] = allowed
        super().__init__(422, f"{name}: {message}", kind="invalid-parameter", errors=[entry])


# The answers of the routing layers (the dispatcher, each service's FastAPI app, the root app, the
# pass shop, MCP), built here only, so that a 404, 405 or 500 reads the same wherever it is given.


def no_route(where: str, path: str, hint: str) -> Problem:
    """404: `where` (a service, this server) has nothing at `path`; `hint` says where to look."""
    return Problem(404, f"{where} has no route {path}; {hint}.")


def method_not_allowed(path: str, methods: Iterable[str], note: str = "") -> Problem:
    """405 with its Allow header; a path that answers GET answers HEAD too. `note` adds why."""
    allowed = sorted(set(methods))
    if "GET" in allowed and "HEAD" not in allowed:
        allowed.append("HEAD")
    listed = ", ".join(allowed)
    return Problem(405, f"{path} accepts {listed}." + (f" {note}" if note else ""), headers={"Allow": listed})


def internal_error() -> Problem:
    """500: a bug of ours, never the client's input (log it with `log_unhandled`)."""
    return Problem(500, "An internal error occurred; it has been logged.")


def log_unhandled(where: str, path: str, exc: BaseException, private: bool = False) -> None:
    """Log a bug of ours. A private service's message or traceback could quote what the client
    sent, so only the exception's type is logged for it."""
    if private:
        log.error("unhandled %s in %s %s (details withheld: private service)", type(exc).__name__, where, path)
    else:
        log.error("unhandled error in %s %s", where, path, exc_info=exc)


def from_validation_error(
    exc: ValidationError, allowed: dict[str, Any] | None = None, described: dict[str, str | None] | None = None
) -> Problem:
    """Turn pydantic's errors into one 422 naming every bad parameter and, where known, what is
    allowed. A value of the wrong form is explained by the parameter's description (its pattern
    stays in `allowed`, for programs), never by quoting the regular expression to a reader."""
    entries: list[dict[str, Any]] = []
    for err in exc.errors(include_url=False):
        loc = [str(p) for p in err["loc"]]
        name = ".".join(loc) if loc else "body"
        if err["type"] == "extra_forbidden":
            message = "unknown parameter"
            if allowed is not None:
                message += "; known parameters: " + (", ".join(allowed) if allowed else "none")
        elif err["type"] == "missing":
            message = "required parameter is missing"
        elif err["type"] == "string_pattern_mismatch":
            message = _wrong_form(err.get("ctx", {}).get("pattern", ""), (described or {}).get(loc[0]) if loc else None)
        else:
            message = err["msg"]
        entry: dict[str, Any] = {"parameter": name, "message": message}
        if allowed and loc and loc[0] in allowed and allowed[loc[0]] is not None:
            entry["allowed"] = allowed[loc[0]]
        entries.append(entry)
    detail = "; ".join(f"{e['parameter']}: {e['message']}" for e in entries)
    return Problem(422, detail, kind="invalid-parameter", errors=entries)


def _wrong_form(pattern: str, description: str | None) -> str:
    if description:
        return f"does not have the form this parameter takes: {description.rstrip('.')}"
    if pattern.startswith("^https?://"):
        return "must be an absolute http:// or https:// URL without spaces or control characters"
    return "does not have the form this parameter takes (allowed.pattern has it exactly)"
