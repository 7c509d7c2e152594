"""Keeping private services' queries out of logs.

Services marked `private` (health, wellness: "queries are not stored") must not have a query
string reach a log line. Uvicorn's access log writes the full path with its query; this filter
cuts the query from records of requests to those services (by path prefix or host name).

A path can carry what a client typed too (`/health/api/bp-check/150/95`, a value in a
`{name}` segment). Each private service's router registers its routes here (`register_routes`);
the filter then logs a path of that service only as a declared route: an exact route as is, a
path matching a `{name}` template as the template, anything else as `[unmatched path]`.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable

REDACTED_QUERY = "[redacted]"
UNMATCHED_PATH = "/[unmatched path]"
# Paths every service router answers besides its operations.
META_PATHS = frozenset({"/", "/mcp", "/openapi.json", "/docs", "/api/pro"})

# service name -> (exact paths, (template, compiled pattern) pairs), filled by the routers
_ROUTES: dict[str, tuple[frozenset[str], tuple[tuple[str, re.Pattern[str]], ...]]] = {}


def register_routes(service: str, exact: Iterable[str], templates: Iterable[tuple[str, re.Pattern[str]]]) -> None:
    """Declare the paths of a private service, so that the access log shows nothing else of it."""
    _ROUTES[service] = (frozenset(exact) | META_PATHS, tuple(templates))


def loggable_path(service: str, path: str) -> str:
    """`path` (below the service's base) as it may be logged."""
    routes = _ROUTES.get(service)
    if routes is None:
        return path
    exact, templates = routes
    if path in exact or path == "":
        return path
    for template, pattern in templates:
        if pattern.match(path):
            return template
    return UNMATCHED_PATH


class RedactPrivateQueries(logging.Filter):
    def __init__(self, prefixes: set[str], hosts: set[str]) -> None:
        super().__init__("twlookup-privacy")
        self.services = sorted(prefixes, key=len, reverse=True)
        self.private_host = bool(hosts)

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if isinstance(args, tuple) and len(args) >= 3 and isinstance(args[2], str):
            record.args = (*args[:2], self.redact(args[2]), *args[3:])
        return True

    def redact(self, full: str) -> str:
        path, mark, _query = full.partition("?")
        query = f"?{REDACTED_QUERY}" if mark else ""
        for name in self.services:
            base = f"/{name}"
            if path == base or path.startswith(base + "/"):
                return base + loggable_path(name, path[len(base) :]) + query
        if self.private_host:
            # Served at the root of a host name: which service a path belongs to is not in the
            # record, so queries are cut for every request, and a path is kept only when it is
            # a declared route of a private service or when no private service registered routes.
            if _ROUTES:
                kept = [loggable_path(name, path) for name in _ROUTES]
                path = next((p for p in kept if p != UNMATCHED_PATH), UNMATCHED_PATH)
            return path + query
        return full


def install(prefixes: set[str], hosts: set[str]) -> None:
    """Attach the filter to uvicorn's access logger (replacing one attached before)."""
    logger = logging.getLogger("uvicorn.access")
    for old in [f for f in logger.filters if isinstance(f, RedactPrivateQueries)]:
        logger.removeFilter(old)
    if prefixes:
        logger.addFilter(RedactPrivateQueries(prefixes, hosts))
